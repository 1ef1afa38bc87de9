//! `kubectl version` (k8s.io/kubectl `pkg/cmd/version`): the client's version, the kustomize
//! it embeds and the server's, each the release the run reproduces (the playground's kubectl
//! and apiserver are of one release, so kubectl's skew warning never applies). `-o json` is
//! `json.MarshalIndent` of its `Version` (clientVersion, kustomizeVersion, serverVersion) and
//! `-o yaml` the same through sigs.k8s.io/yaml, keys sorted. The fields of a build the
//! playground has none of (its commit, date and Go version) are empty.

use super::args::Args;
use super::command::Command;
use super::{KubectlError, Outcome};
use crate::api::{Map, Value};
use crate::cluster::Cluster;
use crate::controller::release::Release;

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let client_only = a.bool_flag("client")?;
    if !a.positional.is_empty() {
        return Err(KubectlError::Go(format!(
            "extra arguments: [{}]",
            a.positional.join(" ")
        )));
    }
    let output = a.flag("output").flatten().unwrap_or("");
    if !["", "yaml", "json"].contains(&output) {
        return Err(KubectlError::Go("--output must be 'yaml' or 'json'".into()));
    }
    let release = c.rsc.gates.release;
    let git = release.git_version();
    let kustomize = release.facts().kustomize;
    if output.is_empty() {
        let server = if client_only {
            String::new()
        } else {
            format!("\nServer Version: {git}")
        };
        return Ok(format!(
            "Client Version: {git}\nKustomize Version: {kustomize}{server}"
        ));
    }
    let mut v = Map::new();
    v.insert("clientVersion".into(), info(release, false));
    v.insert("kustomizeVersion".into(), kustomize.into());
    if !client_only {
        v.insert("serverVersion".into(), info(release, true));
    }
    let mut v = Value::Object(v);
    Ok(if output == "json" {
        crate::api::print::to_json_indented(&v, b"  ")
    } else {
        v.sort_all_objects();
        crate::api::print::to_yaml(&v).trim_end().to_string()
    })
}

/// apimachinery's `version.Info`, in its fields' order. A kube-apiserver also says which
/// version it emulates and the oldest it stays compatible with (the minor before its own).
fn info(release: Release, server: bool) -> Value {
    let (minor, before) = (release.minor.to_string(), (release.minor - 1).to_string());
    let git = release.git_version();
    let fields: [(&str, &str); 13] = [
        ("major", "1"),
        ("minor", &minor),
        ("emulationMajor", "1"),
        ("emulationMinor", &minor),
        ("minCompatibilityMajor", "1"),
        ("minCompatibilityMinor", &before),
        ("gitVersion", &git),
        ("gitCommit", ""),
        ("gitTreeState", "clean"),
        ("buildDate", ""),
        ("goVersion", ""),
        ("compiler", "gc"),
        ("platform", "linux/amd64"),
    ];
    // The emulation and compatibility fields (the third to the sixth) are the server's.
    Value::Object(
        fields
            .into_iter()
            .enumerate()
            .filter(|(i, _)| server || !(2..6).contains(i))
            .map(|(_, (k, v))| (k.to_string(), Value::String(v.to_string())))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use crate::cluster::{Cluster, kubelet::World};

    fn on(release: &str) -> Cluster {
        let world = World {
            kubernetes: crate::controller::release::Release::parse(release).unwrap(),
            ..World::default()
        };
        let gates = world.gates().unwrap();
        Cluster::with_gates(world, gates)
    }

    fn run(c: &mut Cluster, cmd: &str) -> Result<String, String> {
        super::super::run(c, cmd).map_err(|e| e.to_string())
    }

    #[test]
    fn version_names_the_runs_release_as_kubectl_prints_it() {
        let mut c = on("1.37");
        assert_eq!(
            run(&mut c, "kubectl version").unwrap(),
            "Client Version: v1.37.0\nKustomize Version: v5.8.1\nServer Version: v1.37.0"
        );
        assert_eq!(
            run(&mut c, "kubectl version --client").unwrap(),
            "Client Version: v1.37.0\nKustomize Version: v5.8.1"
        );
        let mut old = on("1.33");
        assert!(
            run(&mut old, "kubectl version")
                .unwrap()
                .ends_with("Kustomize Version: v5.6.0\nServer Version: v1.33.0")
        );
    }

    #[test]
    fn version_as_json_and_yaml() {
        let mut c = on("1.37");
        let json = run(&mut c, "kubectl version -o json").unwrap();
        assert!(
            json.starts_with(
                "{\n  \"clientVersion\": {\n    \"major\": \"1\",\n    \"minor\": \"37\",\n    \"gitVersion\": \"v1.37.0\","
            ),
            "{json}"
        );
        assert!(json.contains("\"kustomizeVersion\": \"v5.8.1\",\n  \"serverVersion\": {\n    \"major\": \"1\",\n    \"minor\": \"37\",\n    \"emulationMajor\": \"1\",\n    \"emulationMinor\": \"37\",\n    \"minCompatibilityMajor\": \"1\",\n    \"minCompatibilityMinor\": \"36\","), "{json}");
        let client = run(&mut c, "kubectl version --client --output=json").unwrap();
        assert!(!client.contains("serverVersion"), "{client}");
        let yaml = run(&mut c, "kubectl version -o yaml").unwrap();
        assert!(
            yaml.starts_with("clientVersion:\n  buildDate: \"\"\n  compiler: gc\n"),
            "{yaml}"
        );
        assert!(
            yaml.contains("\nkustomizeVersion: v5.8.1\nserverVersion:\n"),
            "{yaml}"
        );
    }

    #[test]
    fn version_refuses_as_kubectl_does() {
        let mut c = on("1.37");
        for (cmd, want) in [
            (
                "kubectl version -o wide",
                "error: --output must be 'yaml' or 'json'",
            ),
            ("kubectl version a b", "error: extra arguments: [a b]"),
            ("kubectl version --short", "error: unknown flag: --short"),
        ] {
            assert_eq!(run(&mut c, cmd).unwrap_err(), want, "{cmd}");
        }
    }
}
