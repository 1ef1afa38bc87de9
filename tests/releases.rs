//! Issue 34: the same scenario on two releases gives each release's behaviour. One test per
//! upstream change, named after it (the PR or KEP), each on the release before and the release
//! that brought it; and the setting refused naming what it takes.

use rollout_playground::scenario::session::Session;
use rollout_playground::scenario::{Scenario, ScenarioError};

/// S1 of the version research: three replicas scaled to one, whose pods take 30 s to
/// terminate, on `release` with extra `world` lines.
fn slow_termination(release: &str, world: &str) -> Session {
    let text = format!(
        "name: slow-termination
world:
  kubernetes: \"{release}\"
  terminationMs: 30000
{world}objects:
  - |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {{name: web}}
    spec:
      replicas: 3
      selector: {{matchLabels: {{app: web}}}}
      strategy: {{type: RollingUpdate, rollingUpdate: {{maxSurge: 1, maxUnavailable: 0}}}}
      template:
        metadata: {{labels: {{app: web}}}}
        spec: {{containers: [{{name: app, image: \"nginx:1.27\"}}]}}
steps:
  - {{at: 10s, run: kubectl scale deployment/web --replicas=1}}
"
    );
    Session::new(Scenario::parse(&text).unwrap()).unwrap()
}

/// The last step at or before `t_ms`.
fn at(s: &Session, t_ms: u64) -> usize {
    s.trace.partition_point(|st| st.t <= t_ms) - 1
}

/// KEP-3973: `status.terminatingReplicas` is in a ReplicaSet's and a Deployment's status from
/// 1.35 (the gate on by default), not in 1.33 or 1.34 (alpha, off) unless the gate is set,
/// and never in 1.32 (no gate to set).
#[test]
fn kep_3973_terminating_replicas_are_counted_from_1_35() {
    let read = |s: &Session, what: &str| s.read(at(s, 20_000), what).unwrap();
    for (release, world, shown) in [
        ("1.32", "", false),
        ("1.33", "", false),
        ("1.34", "", false),
        (
            "1.34",
            "  featureGates: {DeploymentReplicaSetTerminatingReplicas: true}\n",
            true,
        ),
        ("1.35", "", true),
        ("1.36", "", true),
        ("1.37", "", true),
    ] {
        let s = slow_termination(release, world);
        let rs = read(&s, "kubectl get rs -o json");
        let d = read(&s, "kubectl get deployment web -o json");
        assert_eq!(
            rs.contains("\"terminatingReplicas\": 2"),
            shown,
            "{release} {world}: {rs}"
        );
        assert_eq!(
            d.contains("\"terminatingReplicas\": 2"),
            shown,
            "{release} {world}: {d}"
        );
        if !shown {
            assert!(!rs.contains("terminatingReplicas"), "{release}: {rs}");
            assert!(!d.contains("terminatingReplicas"), "{release}: {d}");
        }
    }
}

/// PR #125118 (v1.32): the `ScalingReplicaSet` event says "from 3 to 1"; in 1.31 "to 1 from
/// 3", and the new ReplicaSet was "Scaled up replica set … to 3".
#[test]
fn pr_125118_scaling_events_say_from_then_to_from_1_32() {
    let events = |release: &str| {
        let s = slow_termination(release, "");
        s.read(s.len() - 1, "kubectl get events").unwrap()
    };
    let old = events("1.31");
    assert!(old.contains("Scaled down replica set web-"), "{old}");
    assert!(old.contains(" to 1 from 3"), "{old}");
    assert!(!old.contains(" from 3 to 1"), "{old}");
    assert!(old.contains(" to 3\n") || old.contains(" to 3 "), "{old}");
    assert!(!old.contains("from 0 to 3"), "{old}");
    let new = events("1.32");
    assert!(new.contains(" from 3 to 1"), "{new}");
    assert!(new.contains("from 0 to 3"), "{new}");
}

/// A release or a gate the playground does not have is refused naming what it takes, as is a
/// locked gate set against its lock; nothing else about the scenario changes.
#[test]
fn an_unknown_release_or_gate_is_refused_naming_the_accepted_ones() {
    let parse = |world: &str| Scenario::parse(&format!("name: x\nworld: {world}\nobjects: []\n"));
    let field = |r: Result<Scenario, ScenarioError>| match r {
        Err(ScenarioError::Field { path, message }) => format!("{path}: {message}"),
        other => panic!("not refused: {other:?}"),
    };
    assert_eq!(
        field(parse("{kubernetes: \"1.38\"}")),
        "world.kubernetes: \"1.38\" is not a release the playground reproduces: it takes 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37"
    );
    assert_eq!(
        field(parse(
            "{featureGates: {DeploymentPodReplacementPolicy: true}}"
        )),
        "world.featureGates: unrecognized feature gate \"DeploymentPodReplacementPolicy\" in 1.37: it has DeploymentReplicaSetTerminatingReplicas, PodDeletionCost, LogarithmicScaleDown, StaleControllerConsistencyReplicaSet"
    );
    assert_eq!(
        field(parse(
            "{kubernetes: 1.32, featureGates: {LogarithmicScaleDown: false}}"
        )),
        "world.featureGates: cannot set feature gate LogarithmicScaleDown to false: it is locked to true since 1.31"
    );
    // A scenario that names no release runs on the newest, and keeps one it names.
    let s = parse("{}").unwrap();
    assert_eq!(s.world.kubernetes.to_string(), "1.37");
    let s = parse("{kubernetes: \"1.33\"}").unwrap();
    assert!(
        s.to_yaml().contains("kubernetes: '1.33'") || s.to_yaml().contains("kubernetes: \"1.33\""),
        "{}",
        s.to_yaml()
    );
    let back = rollout_playground::scenario::share::decode(
        &rollout_playground::scenario::share::encode(&s, 0),
    )
    .unwrap();
    assert_eq!(
        back.scenario.world.kubernetes.to_string(),
        "1.33",
        "a share link carries it"
    );
}

/// A Deployment named with 250 characters (a valid DNS subdomain), two replicas.
fn long_name(release: &str) -> Session {
    let name = format!("web-{}", "x".repeat(246));
    let text = format!(
        "name: long-name
world: {{kubernetes: \"{release}\"}}
objects:
  - |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {{name: {name}}}
    spec:
      replicas: 2
      selector: {{matchLabels: {{app: web}}}}
      template:
        metadata: {{labels: {{app: web}}}}
        spec: {{containers: [{{name: app, image: \"nginx:1.27\"}}]}}
until: 30s
"
    );
    Session::new(Scenario::parse(&text).unwrap()).unwrap()
}

/// PR #132560 (v1.34): `generateReplicaSetName` cuts a long Deployment name so that its
/// ReplicaSet's name fits 253 characters; in 1.33 the apiserver refuses that ReplicaSet, the
/// controller says so (`ReplicaSetCreateError`) and no pod runs.
#[test]
fn pr_132560_a_long_deployment_name_gets_a_replica_set_from_1_34() {
    let old = long_name("1.33");
    let end = old.len() - 1;
    let events = old.read(end, "kubectl get events").unwrap();
    assert!(events.contains("ReplicaSetCreateError"), "{events}");
    assert!(
        events.contains("must be no more than 253 characters"),
        "{events}"
    );
    let rs = old.read(end, "kubectl get rs").unwrap();
    assert!(rs.starts_with("No resources found"), "{rs}");
    let new = long_name("1.34");
    let end = new.len() - 1;
    let rs = new.read(end, "kubectl get rs -o name").unwrap();
    let rs_name = rs.trim().trim_start_matches("replicaset.apps/");
    assert_eq!(rs_name.len(), 253, "{rs_name}");
    let d = new.trace[end].deployment.clone().unwrap();
    assert_eq!(
        (d.status.ready_replicas, d.status.available_replicas),
        (2, 2)
    );
}

/// S3 of the version research, as a bare ReplicaSet: minReadySeconds 10; a stray pod that
/// never becomes Ready (its image cannot be pulled) is adopted, one good pod is Ready at about
/// 3 s, and a second, made by a scale at 5 s, at about 8 s.
fn staggered(release: &str) -> Session {
    let text = format!(
        "name: staggered
world: {{kubernetes: \"{release}\", failingImages: [\"broken:*\"]}}
objects:
  - |
    apiVersion: v1
    kind: Pod
    metadata: {{name: stray, labels: {{app: web}}}}
    spec: {{containers: [{{name: c, image: \"broken:1\"}}]}}
  - |
    apiVersion: apps/v1
    kind: ReplicaSet
    metadata: {{name: web}}
    spec:
      replicas: 2
      minReadySeconds: 10
      selector: {{matchLabels: {{app: web}}}}
      template:
        metadata: {{labels: {{app: web}}}}
        spec: {{containers: [{{name: app, image: \"nginx:1.27\"}}]}}
steps:
  - {{at: 5s, run: kubectl scale rs web --replicas=3}}
until: 60s
"
    );
    Session::new(Scenario::parse(&text).unwrap()).unwrap()
}

/// PR #132121 (v1.34): the ReplicaSet controller checks availability again whenever ready and
/// available differ, when the next Ready pod is due. Before, only once every replica was Ready:
/// with one pod that never is, the second good pod's own re-check (the `updatePod` handler's,
/// minReadySeconds + 1 s after it was Ready) is dropped for the first one's, already waiting
/// in the queue, and the pod is counted only when something else wakes the ReplicaSet up.
#[test]
fn pr_132121_availability_is_counted_again_while_a_replica_is_not_ready_from_1_34() {
    let available_at = |release: &str, t_ms: u64| {
        let s = staggered(release);
        let json = s.read(at(&s, t_ms), "kubectl get rs web -o json").unwrap();
        let rs: serde_json::Value = serde_json::from_str(&json).unwrap();
        let n = |f: &str| rs["status"][f].as_i64().unwrap_or(0);
        (n("readyReplicas"), n("availableReplicas"))
    };
    assert_eq!(available_at("1.34", 25_000), (2, 2));
    assert_eq!(available_at("1.33", 25_000), (2, 1));
}

/// A cluster on `release` that has run until 5 s with two Deployments, `web` (applied with
/// `kubectl apply`, then given a new image) and `api`.
fn kubectl_on(release: &str) -> rollout_playground::cluster::Cluster {
    let deployment = |name: &str| {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}}}\nspec:\n  replicas: 2\n  selector: {{matchLabels: {{app: {name}}}}}\n  template:\n    metadata: {{labels: {{app: {name}}}}}\n    spec: {{containers: [{{name: app, image: \"nginx:1.27\"}}]}}\n"
        )
    };
    let text = format!(
        "name: kubectl\nworld: {{kubernetes: \"{release}\"}}\nobjects:\n  - |\n{}\nuntil: 1s\n",
        deployment("api")
            .lines()
            .map(|l| format!("    {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let mut c = Scenario::parse(&text).unwrap().start().unwrap();
    c.drain().unwrap();
    kubectl::run(
        &mut c,
        &format!("kubectl apply -f -\n{}", deployment("web")),
    )
    .unwrap();
    c.drain().unwrap();
    kubectl::run(&mut c, "kubectl set image deployment/web app=nginx:1.28").unwrap();
    c.drain().unwrap();
    c
}

use rollout_playground::kubectl;

/// kubectl's own changes between releases (its release is the cluster's here), each named
/// after its upstream commit: `scale -o yaml` prints the replicas asked for from 1.36
/// (PR #136945); `describe` of several objects leaves the events out from 1.36 (PR #137145);
/// `scale` of an object not found says the server's error as it is from 1.35 (kubernetes
/// bb210806); `rollout undo` warns of an object `kubectl apply` wrote from 1.36 (fbe6f7f9).
#[test]
fn kubectl_prints_as_its_release_prints() {
    let run = |release: &str, cmd: &str| {
        let mut c = kubectl_on(release);
        match kubectl::run(&mut c, cmd) {
            Ok(out) => out,
            Err(e) => e.to_string(),
        }
    };
    let spec_replicas = |out: &str| {
        out.lines()
            .skip_while(|l| *l != "spec:")
            .find_map(|l| l.trim().strip_prefix("replicas: ").map(str::to_string))
            .unwrap()
    };
    let scale = "kubectl scale deployment/api --replicas=5 -o yaml";
    assert_eq!(spec_replicas(&run("1.35", scale)), "2");
    assert_eq!(spec_replicas(&run("1.36", scale)), "5");

    let describe = "kubectl describe deployments";
    assert!(run("1.35", describe).contains("Events:"));
    assert!(!run("1.36", describe).contains("Events:"));
    assert!(run("1.36", "kubectl describe deployments --show-events=true").contains("Events:"));
    assert!(run("1.36", "kubectl describe deployment web").contains("Events:"));

    let missing = "kubectl scale deployment/missing --replicas=2";
    assert_eq!(
        run("1.34", missing),
        "error: no objects passed to scale deployments.apps \"missing\" not found"
    );
    assert_eq!(
        run("1.35", missing),
        "Error from server (NotFound): deployments.apps \"missing\" not found"
    );

    let undo = "kubectl rollout undo deployment/web";
    assert_eq!(run("1.35", undo), "deployment.apps/web rolled back");
    assert_eq!(
        run("1.36", undo),
        "Warning: resource deployment.apps/web was previously managed with 'kubectl apply'. Rolling back will not update the kubectl.kubernetes.io/last-applied-configuration annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.\ndeployment.apps/web rolled back"
    );
    assert_eq!(
        run("1.36", "kubectl rollout undo deployment/api"),
        "error: no rollout history found for deployment \"api\"",
        "api was not applied: no warning"
    );
}

/// Client-side apply keeps the manifest it applied on the object, as kubectl writes it: compact
/// JSON, keys sorted, the namespace filled in, `annotations` present, and a newline.
#[test]
fn kubectl_apply_keeps_its_last_applied_configuration() {
    let c = kubectl_on("1.36");
    let d = c.store.deployment("default/web").unwrap();
    assert_eq!(
        d.metadata.annotations[rollout_playground::api::LAST_APPLIED_ANNOTATION].as_str(),
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"image\":\"nginx:1.27\",\"name\":\"app\"}]}}}}\n"
    );
}

/// The trace names the release's functions: from 1.34 a ReplicaSet sync that waits on
/// minReadySeconds calls `FindMinNextPodAvailabilityCheck` (PR #132121); before, it did not
/// exist, and the explain line says why the sync waits as it does.
#[test]
fn the_path_through_the_code_is_the_releases() {
    let calls = |release: &str| {
        let text = format!(
            "name: x\nworld: {{kubernetes: \"{release}\"}}\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: web}}\n    spec: {{replicas: 1, minReadySeconds: 5, selector: {{matchLabels: {{app: web}}}}, template: {{metadata: {{labels: {{app: web}}}}, spec: {{containers: [{{name: app, image: \"nginx:1.27\"}}]}}}}}}\nuntil: 20s\n"
        );
        let trace = Scenario::parse(&text).unwrap().run().unwrap();
        let names: Vec<&str> = trace
            .iter()
            .flat_map(|s| {
                s.sync()
                    .into_iter()
                    .flat_map(|y| y.calls.iter().map(|c| c.func))
            })
            .collect();
        let explained = trace
            .iter()
            .flat_map(|s| s.explain())
            .any(|e| e.text.contains("before 1.34: once all 1 are ready"));
        (
            names.contains(&"FindMinNextPodAvailabilityCheck"),
            explained,
        )
    };
    assert_eq!(calls("1.34"), (true, false));
    assert_eq!(calls("1.33"), (false, true));
}

/// `rollout explain` links a run's functions to its own release, as the Code view does.
#[test]
fn explain_links_to_the_runs_release() {
    let s = long_name("1.33");
    let trace: Vec<_> = s.trace.iter().map(|t| (**t).clone()).collect();
    let text = rollout_playground::scenario::table::explain_step_at(
        &trace,
        0,
        s.scenario.world.kubernetes,
    );
    assert!(
        text.contains("path through upstream's code (Kubernetes 1.33: each function's file at v1.33.0; the lines are known for 1.36 only)"),
        "{text}"
    );
    assert!(
        text.contains("pkg/controller/deployment/deployment_controller.go @v1.33.0"),
        "{text}"
    );
}

/// Issue 46: every difference between 1.36 and 1.37 the playground knows. The controllers have
/// none (1.37's release notes name no Deployment or ReplicaSet controller change, and
/// #137212's read-your-own-writes, 1.36's, changes nothing where the informers' cache is the
/// store): every gallery scenario gives the same trace on both. kubectl and the kubelets name
/// their release (`kubectl version`, a node's kubeletVersion), and that is all.
#[test]
fn between_1_36_and_1_37_only_the_versions_differ() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let on = |text: &str, release: &str| {
        let mut s = Scenario::parse(text).unwrap();
        s.world.kubernetes =
            rollout_playground::controller::release::Release::parse(release).unwrap();
        s
    };
    let mut named = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let base = Scenario::parse(&text).unwrap();
        if base.world.kubernetes.to_string() != "1.37" {
            continue; // a scenario that names its release
        }
        named += 1;
        assert_eq!(
            on(&text, "1.36").run().unwrap(),
            on(&text, "1.37").run().unwrap(),
            "{}",
            f.display()
        );
    }
    assert!(named > 15, "the gallery runs on both: {named}");
    let version = |release: &str| {
        let mut c = kubectl_on(release);
        let v = rollout_playground::kubectl::run(&mut c, "kubectl version").unwrap();
        let nodes = rollout_playground::kubectl::run(&mut c, "kubectl get nodes").unwrap();
        (v, nodes)
    };
    let (v36, nodes36) = version("1.36");
    let (v37, nodes37) = version("1.37");
    assert_eq!(
        v36,
        "Client Version: v1.36.3\nKustomize Version: v5.8.1\nServer Version: v1.36.3"
    );
    assert_eq!(
        v37,
        "Client Version: v1.37.0\nKustomize Version: v5.8.1\nServer Version: v1.37.0"
    );
    assert_eq!(nodes36.replace("v1.36.3", "v1.37.0"), nodes37);
}
