//! kubectl's words, checked: the verb table, completion, the read-only test, tokenizing,
//! flags and refusals common to every verb. Each verb's own output and refusals are in
//! `reads`, `writes` and `rollout`.

use super::{KubectlError, Names, VERBS, complete, is_read_only, tokenize};
use crate::api::Kind;
use crate::api::yaml::parse_objects;
use crate::apiserver::store::ApiError;
use crate::cluster::{Cluster, kubelet::World};

mod flags;
mod reads;
mod rollout;
mod writes;

/// A command's output, or its error as kubectl prints it.
fn run(c: &mut Cluster, cmd: &str) -> Result<String, String> {
    super::run(c, cmd).map_err(|e| e.to_string())
}

#[test]
fn the_apiserver_s_refusals_stay_apiserver_errors() {
    let e = super::run(&mut cluster(), "kubectl scale deployment/nope --replicas=1").unwrap_err();
    assert_eq!(
        e,
        KubectlError::Server(ApiError::NotFound {
            kind: Kind::Deployment,
            name: "nope".into()
        })
    );
    assert_eq!(
        e.to_string(),
        "Error from server (NotFound): deployments.apps \"nope\" not found"
    );
    let e = super::run(&mut cluster(), "kubectl scale deployment/web").unwrap_err();
    assert!(matches!(e, KubectlError::Client(_)), "{e}");
}

#[test]
fn read_only_commands_are_the_verbs_table_s() {
    assert!(is_read_only("kubectl get rs -w"));
    assert!(is_read_only("kubectl rollout history deployment/web"));
    assert!(is_read_only("describe deployment web"));
    assert!(is_read_only(
        "kubectl -n default rollout status deployment/web"
    ));
    assert!(!is_read_only("kubectl rollout undo deployment/web"));
    assert!(!is_read_only("kubectl scale deployment/web --replicas=3"));
    assert!(!is_read_only("kubectl rollout"));
    assert!(!is_read_only("kubectl frobnicate"));
    assert!(is_read_only("k get pods"));
}

#[test]
fn every_verb_in_the_table_is_run() {
    for v in VERBS {
        let mut c = cluster();
        let err = run(&mut c, v.name)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(!err.contains("for \"kubectl\""), "{}: {err}", v.name);
    }
    let err = run(&mut cluster(), "kubectl frobnicate").unwrap_err();
    assert!(
        err.contains("create, set, get, delete, rollout, scale"),
        "{err}"
    );
}

#[test]
fn completion_offers_verbs_subcommands_resources_and_names() {
    let names = Names {
        objects: vec!["web".to_string(), "web-abc".to_string()],
        pods: vec!["web-abc-x1".to_string()],
        namespaces: vec!["default".to_string(), "shop".to_string()],
        nodes: vec!["node-1".to_string()],
        others: vec![(crate::api::Kind::PodDisruptionBudget, "web-pdb".to_string())],
    };
    assert_eq!(complete("kubectl ro", &names).0, "kubectl rollout ");
    assert_eq!(complete("get pdb/", &names).0, "get pdb/web-pdb ");
    assert_eq!(complete("rollout h", &names).0, "rollout history ");
    assert_eq!(complete("set ", &names).1, ["env", "image", "resources"]);
    assert_eq!(complete("get deploy/", &names).0, "get deploy/web ");
    assert_eq!(complete("get rs/", &names).1, ["rs/web-abc"]);
    assert_eq!(complete("delete pod/w", &names).1, ["pod/web-abc-x1"]);
    let (line, hits) = complete("get re", &names);
    assert_eq!(
        (line.as_str(), hits),
        (
            "get replicaset",
            vec!["replicaset".to_string(), "replicasets".to_string()]
        )
    );
    // Namespaces after -n (issue 32).
    assert_eq!(complete("get pods -n s", &names).0, "get pods -n shop ");
    assert_eq!(
        complete("get pods --namespace ", &names).1,
        ["default", "shop"]
    );
}

#[test]
fn command_lines_split_as_a_shell_splits_them() {
    assert_eq!(
        tokenize(r#"kubectl patch deployment/web -p '{"spec": {"paused": true}}' # pause"#)
            .unwrap(),
        [
            "kubectl",
            "patch",
            "deployment/web",
            "-p",
            r#"{"spec": {"paused": true}}"#
        ]
    );
    assert_eq!(
        tokenize(r#"annotate d/web note="a \"b\" \c" x\ y"#).unwrap(),
        ["annotate", "d/web", r#"note=a "b" \c"#, "x y"]
    );
    assert_eq!(
        tokenize("get 'pods").unwrap_err(),
        "unterminated single quote"
    );
    assert_eq!(
        tokenize("get \"pods").unwrap_err(),
        "unterminated double quote"
    );
    assert_eq!(
        tokenize("get pods \\").unwrap_err(),
        "a backslash at the end escapes nothing"
    );
}

/// The name of the first ReplicaSet the store holds.
fn first_rs(c: &Cluster) -> String {
    c.store
        .replicasets()
        .next()
        .unwrap()
        .metadata
        .name
        .to_string()
}

fn cluster() -> Cluster {
    let mut c = Cluster::new(World::default());
    let web = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, labels: {tier: '1'}}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: app, image: 'app:1'}]}\n";
    c.create(parse_objects(web).unwrap().remove(0)).unwrap();
    c.drain().unwrap();
    c
}

/// A resource type the server does not have, in either spelling of the target.
#[test]
fn an_unknown_resource_type_is_refused_in_kubectls_words() {
    let mut c = cluster();
    for cmd in [
        "kubectl get widgets",
        "kubectl get widgets/a",
        "kubectl scale widgets a --replicas=1",
        "kubectl delete widgets/a",
    ] {
        let err = run(&mut c, cmd).unwrap_err();
        assert_eq!(
            err, "error: the server doesn't have a resource type \"widgets\"",
            "{cmd}"
        );
    }
}

/// pflag's words for an integer flag that does not parse, for every integer flag.
#[test]
fn an_integer_flag_that_does_not_parse_is_refused_as_pflag_does() {
    let mut c = cluster();
    let err = run(&mut c, "kubectl delete deployment/web --grace-period=soon").unwrap_err();
    assert_eq!(
        err,
        "error: invalid argument \"soon\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"soon\": invalid syntax"
    );
    assert!(c.store.deployment("default/web").is_some());
}

#[test]
fn a_line_is_read_once_global_flags_before_the_verb_included() {
    let c = super::parse("kubectl -n prod rollout status deployment/web --timeout=20s").unwrap();
    assert_eq!(c.verb.name, "rollout");
    assert_eq!(c.sub(), Some("status"));
    assert!(c.read_only());
    assert_eq!(c.words(), ["status", "deployment/web"]);
    assert_eq!(
        c.args,
        ["status", "deployment/web", "--timeout=20s", "-n", "prod"]
    );
    let w = super::parse("k get rs --watch=true").unwrap();
    assert!(w.has_flag("watch") && w.read_only());
    assert!(!super::parse("k get rs -w=false").unwrap().has_flag("watch"));
    let apply = super::parse("kubectl apply -f - <<EOF\nkind: Deployment\nEOF").unwrap();
    assert_eq!(apply.stdin.as_deref(), Some("kind: Deployment"));
    assert!(!apply.read_only());
    let mut c = cluster();
    assert_eq!(
        run(&mut c, "kubectl -n default get deployment web").map(|o| o.lines().count()),
        Ok(2),
        "a namespace before the verb is the command's"
    );
}

#[test]
fn help_lists_the_verbs_as_kubectl_help_groups_them() {
    let mut c = cluster();
    let help = run(&mut c, "kubectl help").unwrap();
    assert_eq!(run(&mut c, "kubectl --help").unwrap(), help);
    assert!(help.starts_with("kubectl controls the Kubernetes cluster manager.\n"));
    assert!(help.contains(
        "Deploy Commands:\n  rollout         Manage the rollout of a resource\n  scale           Set a new size for a deployment, replica set, or replication controller\n"
    ), "{help}");
    for v in VERBS.iter().filter(|v| v.name != "help") {
        assert!(
            help.contains(&format!("  {:<13}   {}\n", v.name, v.short)),
            "{}",
            v.name
        );
    }
    assert!(!help.contains("  help "), "cobra's own help is not listed");
    assert!(is_read_only("kubectl help"));
}

/// The README's list of verbs is the verb table's (issue 31, item 9), as completion and
/// `kubectl help` are.
#[test]
fn the_readme_lists_the_verbs_of_the_table() {
    let readme = include_str!("../../../README.md");
    let start = "<!-- kubectl-verbs: generated by kubectl::verbs::readme_list -->\n";
    let block = readme
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once("<!-- /kubectl-verbs -->"))
        .map(|(block, _)| block)
        .expect("the README marks its list of verbs");
    assert_eq!(block, super::verbs::readme_list());
    let help = super::verbs::help();
    let (completed, _) = complete("kubectl ", &Names::default());
    assert_eq!(completed, "kubectl ");
    for v in VERBS.iter().filter(|v| v.name != "help") {
        assert!(
            help.contains(&format!("\n  {:<13}   {}\n", v.name, v.short)),
            "{}",
            v.name
        );
        let (_, candidates) = complete(&format!("kubectl {}", &v.name[..2]), &Names::default());
        assert!(candidates.iter().any(|c| c == v.name), "{}", v.name);
    }
}
