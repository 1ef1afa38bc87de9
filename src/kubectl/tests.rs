//! kubectl's words, checked: each verb's output and refusals, completion, the read-only
//! test, tokenizing.

use super::{KubectlError, Names, VERBS, complete, is_read_only, tokenize};
use crate::api::Kind;
use crate::api::yaml::parse_objects;
use crate::apiserver::store::ApiError;
use crate::cluster::{Cluster, kubelet::World};

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
fn describe_lays_a_deployment_out_as_kubectl_does() {
    let mut c = cluster();
    c.advance(5_000).unwrap();
    let out = run(&mut c, "kubectl describe deployment web").unwrap();
    for line in [
        "Name:                   web",
        "Labels:                 tier=1",
        "Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable",
        "RollingUpdateStrategy:  25% max unavailable, 25% max surge",
        "  Labels:  app=web",
        // The template's `Node-Selectors:` line is in the same run of aligned lines.
        "   app:\n    Image:         app:1\n    Port:          <none>",
        "  Node-Selectors:  <none>",
        "  Available      True    MinimumReplicasAvailable",
        "OldReplicaSets:  <none>",
        "  Normal  ScalingReplicaSet  5s    deployment-controller  Scaled up replica set web-",
    ] {
        assert!(out.contains(line), "{line:?} in\n{out}");
    }
    assert!(
        out.lines()
            .any(|l| l.starts_with("NewReplicaSet:   web-")
                && l.ends_with(" (2/2 replicas created)")),
        "{out}"
    );
}

#[test]
fn patch_takes_kubectl_s_three_types_on_every_kind() {
    let mut c = cluster();
    let rs = first_rs(&c);
    let pod = c.store.pods().next().unwrap().metadata.name.to_string();
    for (cmd, want) in [
        (
            r#"kubectl patch deployment web --type json -p '[{"op":"replace","path":"/spec/replicas","value":3}]'"#.to_string(),
            "deployment.apps/web patched".to_string(),
        ),
        (
            format!(r#"kubectl patch rs {rs} --type merge -p '{{"metadata":{{"labels":{{"team":"a"}}}}}}'"#),
            format!("replicaset.apps/{rs} patched"),
        ),
        (
            format!(r#"kubectl patch pod/{pod} -p '{{"metadata":{{"annotations":{{"note":"x"}}}}}}'"#),
            format!("pod/{pod} patched"),
        ),
        (
            format!(r#"kubectl patch pod/{pod} -p '{{"metadata":{{"annotations":{{"note":"x"}}}}}}'"#),
            format!("pod/{pod} patched (no change)"),
        ),
    ] {
        assert_eq!(run(&mut c, &cmd), Ok(want), "{cmd}");
    }
    assert_eq!(
        c.store.deployment("default/web").unwrap().spec.replicas,
        Some(3)
    );
    for (cmd, err) in [
        (
            "kubectl patch deployment web --type apply -p '{}'",
            "error: --type must be one of [json merge strategic], not \"apply\"",
        ),
        (
            "kubectl patch deployment web --type json -p '[{\"op\":\"remove\",\"path\":\"/spec/nope\"}]'",
            "Error from server: ",
        ),
        (
            "kubectl patch deployment web --type json -p '{\"spec\":{}}'",
            "as a JSON patch",
        ),
        (
            "kubectl patch deployment web -p '{\"spec\": {'",
            "error: unable to parse \"{\"spec\": {\": ",
        ),
    ] {
        let e = run(&mut c, cmd).unwrap_err();
        assert!(e.contains(err), "{cmd}: {e}");
    }
}

#[test]
fn a_strategic_merge_patch_merges_lists_on_their_keys() {
    let mut target = serde_json::json!({"spec": {"containers": [
        {"name": "app", "image": "a:1", "env": [{"name": "A", "value": "1"}]},
        {"name": "side", "image": "s:1"}
    ]}, "metadata": {"ownerReferences": [{"uid": "u1", "name": "x"}]}});
    let patch = serde_json::json!({"spec": {"containers": [
        {"name": "app", "env": [{"name": "B", "value": "2"}, {"name": "A", "value": "3"}]}
    ]}, "metadata": {"ownerReferences": [{"uid": "u1", "controller": true}]}});
    super::patch::strategic_patch(&mut target, &patch);
    assert_eq!(
        target,
        serde_json::json!({"spec": {"containers": [
            {"name": "app", "image": "a:1", "env": [{"name": "A", "value": "3"}, {"name": "B", "value": "2"}]},
            {"name": "side", "image": "s:1"}
        ]}, "metadata": {"ownerReferences": [{"uid": "u1", "name": "x", "controller": true}]}})
    );
}

#[test]
fn delete_label_and_annotate_take_a_selector() {
    let mut c = cluster();
    let pods: Vec<String> = c
        .store
        .pods()
        .map(|p| p.metadata.name.to_string())
        .collect();
    assert_eq!(pods.len(), 2);
    let labeled = run(&mut c, "kubectl label pods -l app=web tier=x").unwrap();
    assert_eq!(
        labeled,
        pods.iter()
            .map(|p| format!("pod/{p} labeled"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        c.store
            .pods()
            .all(|p| p.metadata.labels.get("tier").map(String::as_str) == Some("x"))
    );
    let annotated = run(
        &mut c,
        "kubectl annotate deployment --selector tier=1 note=hi",
    )
    .unwrap();
    assert_eq!(annotated, "deployment.apps/web annotated");
    assert_eq!(
        run(&mut c, "kubectl label pods -l app=none a=b"),
        Ok(String::new())
    );
    assert_eq!(
        run(&mut c, "kubectl delete pods -l app=none"),
        Ok("No resources found".into())
    );
    let deleted = run(&mut c, "kubectl delete pods -l app=web").unwrap();
    assert_eq!(
        deleted,
        pods.iter()
            .map(|p| format!("pod \"{p}\" deleted from default namespace"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(
        run(&mut c, "kubectl scale deployment web -x 3"),
        Err("error: unknown shorthand flag: 'x' in -x".into())
    );
}

#[test]
fn set_env_and_set_resources_change_the_template_as_kubectl_does() {
    let mut c = cluster();
    let container = |c: &Cluster| {
        let d = c.store.deployment("default/web").unwrap();
        crate::api::codec::to_value(&d.spec.template.spec.containers[0])
    };
    assert_eq!(
        run(&mut c, "kubectl set env deployment/web A=1 B=2"),
        Ok("deployment.apps/web env updated".into())
    );
    assert_eq!(
        run(&mut c, "kubectl set env deployment/web B=3 A-"),
        Ok("deployment.apps/web env updated".into())
    );
    assert_eq!(
        container(&c)["env"],
        serde_json::json!([{"name": "B", "value": "3"}])
    );
    assert_eq!(
        run(&mut c, "kubectl set env deployment/web B=3"),
        Ok(String::new())
    );
    // kubectl v0.36.3 `set env` warns of an object without such a container and goes on.
    assert_eq!(
        run(&mut c, "kubectl set env deployment/web -c nope X=1"),
        Ok("Warning: Deployment/web does not have any containers matching \"nope\"".into())
    );
    assert_eq!(
        run(
            &mut c,
            "kubectl set resources deployment/web --limits=cpu=200m,memory=512Mi --requests=cpu=100m"
        ),
        Ok("deployment.apps/web resource requirements updated".into())
    );
    assert_eq!(
        container(&c)["resources"],
        serde_json::json!({"limits": {"cpu": "200m", "memory": "512Mi"}, "requests": {"cpu": "100m"}})
    );
    assert!(
        run(
            &mut c,
            "kubectl set resources deployment/web --limits=cpu=lots"
        )
        .unwrap_err()
        .contains("quantities must match")
    );
    assert_eq!(
        c.store
            .deployment("default/web")
            .unwrap()
            .metadata
            .generation,
        4,
        "three template changes"
    );
}

#[test]
fn namespaces_as_kubectl_knows_them() {
    let mut c = cluster();
    let shop = "kubectl apply -f - -n shop\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec: {replicas: 1, selector: {matchLabels: {app: api}}, template: {metadata: {labels: {app: api}}, spec: {containers: [{name: app, image: 'api:1'}]}}}\n";
    assert_eq!(
        run(&mut c, shop),
        Err("Error from server (NotFound): error when creating \"STDIN\": namespaces \"shop\" not found".into())
    );
    assert_eq!(
        run(&mut c, "kubectl create namespace shop"),
        Ok("namespace/shop created".into())
    );
    assert_eq!(
        run(&mut c, "kubectl create ns shop"),
        Err("Error from server (AlreadyExists): namespaces \"shop\" already exists".into())
    );
    assert_eq!(run(&mut c, shop), Ok("deployment.apps/api created".into()));
    assert!(c.store.deployment("shop/api").is_some());
    c.drain().unwrap();
    let in_shop = run(&mut c, "kubectl get deployments -n shop").unwrap();
    assert!(
        in_shop.starts_with("NAME") && in_shop.contains("api") && !in_shop.contains("web"),
        "{in_shop}"
    );
    let everywhere = run(&mut c, "kubectl get deploy -A").unwrap();
    let lines: Vec<&str> = everywhere.lines().collect();
    assert!(lines[0].starts_with("NAMESPACE   NAME"), "{everywhere}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("default ") && l.contains("web")),
        "{everywhere}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("shop ") && l.contains("api")),
        "{everywhere}"
    );
    assert_eq!(
        run(&mut c, "kubectl get pods -n kube-system"),
        Ok("No resources found in kube-system namespace.".into())
    );
    assert_eq!(
        run(&mut c, "kubectl scale deployment api --replicas=2"),
        Err("Error from server (NotFound): deployments.apps \"api\" not found".into())
    );
    assert_eq!(
        run(
            &mut c,
            "kubectl scale deployment api --replicas=2 --namespace=shop"
        ),
        Ok("deployment.apps/api scaled".into())
    );
    let elsewhere = "kubectl apply -n default -f -\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec: {containers: [{name: app, image: 'a:1'}]}\n";
    assert_eq!(
        run(&mut c, elsewhere),
        Err("error: the namespace from the provided object \"shop\" does not match the namespace \"default\". You must pass '--namespace=shop' to perform this operation.".into())
    );
}

#[test]
fn rollout_undo_rolls_back_on_the_client_as_kubectl_does() {
    let mut c = cluster();
    assert_eq!(
        run(&mut c, "kubectl rollout undo deployment/web"),
        Err("error: no rollout history found for deployment \"web\"".into())
    );
    run(
        &mut c,
        "kubectl annotate deployment/web kubernetes.io/change-cause=first",
    )
    .unwrap();
    c.drain().unwrap();
    run(&mut c, "kubectl set image deployment/web app=app:2").unwrap();
    run(
        &mut c,
        "kubectl annotate deployment/web kubernetes.io/change-cause=second --overwrite",
    )
    .unwrap();
    c.drain().unwrap();
    assert_eq!(
        run(
            &mut c,
            "kubectl rollout undo deployment/web --to-revision=5"
        ),
        Err("error: unable to find specified revision 5 in history".into())
    );
    assert_eq!(
        run(
            &mut c,
            "kubectl rollout undo deployment/web --to-revision=2"
        ),
        Ok(
            "deployment.apps/web skipped rollback (current template already matches revision 2)"
                .into()
        )
    );
    run(&mut c, "kubectl rollout pause deployment/web").unwrap();
    assert_eq!(
        run(&mut c, "kubectl rollout undo deployment/web"),
        Err("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into())
    );
    run(&mut c, "kubectl rollout resume deployment/web").unwrap();
    assert_eq!(
        run(&mut c, "kubectl rollout undo deployment/web"),
        Ok("deployment.apps/web rolled back".into())
    );
    let d = c.store.deployment("default/web").unwrap();
    assert_eq!(d.spec.template.spec.containers[0].image, "app:1");
    assert!(
        !d.spec
            .template
            .metadata
            .labels
            .contains_key("pod-template-hash")
    );
    assert_eq!(
        d.metadata
            .annotations
            .get("kubernetes.io/change-cause")
            .map(String::as_str),
        Some("first"),
        "revision 1's change-cause comes back with its template"
    );
    assert!(
        !d.metadata
            .annotations
            .contains_key("deprecated.deployment.rollback.to")
    );
}

#[test]
fn rollout_status_reads_its_flags_as_kubectl_does() {
    let waiting = "Waiting for deployment \"web\" rollout to finish: 0 of 2 updated replicas are available...";
    let cases: &[(&str, Result<&str, &str>, bool)] = &[
        ("rollout status deployment/web", Ok(waiting), true),
        ("rollout status deploy web -w", Ok(waiting), true),
        (
            "rollout status deployment/web --watch=false",
            Ok(waiting),
            false,
        ),
        ("rollout status deployment/web -w=0", Ok(waiting), false),
        (
            "rollout status deployment/web --timeout=1m30s",
            Ok(waiting),
            true,
        ),
        (
            "rollout status deployment/web --timeout 0",
            Ok(waiting),
            true,
        ),
        (
            "rollout status deployment/web --revision=1",
            Ok(waiting),
            true,
        ),
        (
            "rollout status deployment/web --watch=maybe",
            Err(
                "error: invalid argument \"maybe\" for \"-w, --watch\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax",
            ),
            false,
        ),
        (
            "rollout status deployment/web --timeout=30",
            Err(
                "error: invalid argument \"30\" for \"--timeout\" flag: time: missing unit in duration \"30\"",
            ),
            false,
        ),
        (
            "rollout status deployment/web --timeout=1d",
            Err(
                "error: invalid argument \"1d\" for \"--timeout\" flag: time: unknown unit \"d\" in duration \"1d\"",
            ),
            false,
        ),
        (
            "rollout status deployment/web --revision=-1",
            Err("error: revision must be a positive integer: -1"),
            false,
        ),
        (
            "rollout status deployment/web --revision=2",
            Err("error: desired revision (2) is different from the running revision (1)"),
            false,
        ),
    ];
    for (cmd, want, watching) in cases {
        let mut c = cluster();
        let got = run(&mut c, cmd);
        assert_eq!(got.as_deref().map_err(String::as_str), *want, "{cmd}");
        assert_eq!(!c.watches.is_empty(), *watching, "{cmd}");
    }
    assert_eq!(super::duration::go_duration_ms("1.5h"), Ok(Some(5_400_000)));
    assert_eq!(super::duration::go_duration_ms("300ms"), Ok(Some(300)));
    assert_eq!(super::duration::go_duration_ms("0"), Ok(None));
    assert!(super::duration::go_duration_ms("").is_err());
}

#[test]
fn rollout_restart_stamps_the_template_and_k_is_kubectl() {
    let mut c = cluster();
    c.advance(30_500).unwrap();
    assert_eq!(
        run(&mut c, "k rollout restart deployment/web"),
        Ok("deployment.apps/web restarted".into())
    );
    let d = c.store.deployment("default/web").unwrap();
    assert_eq!(
        d.spec
            .template
            .metadata
            .annotations
            .get("kubectl.kubernetes.io/restartedAt")
            .map(String::as_str),
        Some("2026-01-01T00:00:30Z")
    );
    run(&mut c, "k rollout pause deployment/web").unwrap();
    assert_eq!(
        run(&mut c, "kubectl rollout restart deployment/web"),
        Err("error: deployments.apps \"web\" can't restart paused deployment (run rollout resume first)".into())
    );
}

#[test]
fn get_prints_wide_columns_labels_and_events() {
    let mut c = cluster();
    c.advance(10_000).unwrap();
    let wide = run(&mut c, "kubectl get deploy -o wide").unwrap();
    let lines: Vec<&str> = wide.lines().collect();
    assert!(
        lines[0].ends_with("AGE   CONTAINERS   IMAGES   SELECTOR"),
        "{wide}"
    );
    assert!(
        lines[1].ends_with("app          app:1    app=web"),
        "{wide}"
    );
    let pods = run(&mut c, "kubectl get pods -o wide --show-labels").unwrap();
    let lines: Vec<&str> = pods.lines().collect();
    assert!(
        lines[0].ends_with("IP       NODE     NOMINATED NODE   READINESS GATES   LABELS"),
        "{pods}"
    );
    assert!(
        lines[1].contains("<none>   node-") && lines[1].contains("app=web,pod-template-hash="),
        "{pods}"
    );
    let events = run(
        &mut c,
        "kubectl get events --field-selector involvedObject.kind=Deployment,involvedObject.name=web",
    )
    .unwrap();
    let lines: Vec<&str> = events.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["LAST", "SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
    );
    assert!(
        lines[1]
            .contains("Normal   ScalingReplicaSet   deployment/web   Scaled up replica set web-"),
        "{events}"
    );
    assert_eq!(lines.len(), 2, "{events}");
    assert_eq!(
        run(&mut c, "kubectl get events --field-selector spec.x=1"),
        Err("Error from server (BadRequest): Unable to find \"/v1, Resource=events\" that match label selector \"\", field selector \"spec.x=1\": field label not supported: spec.x".into())
    );
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
        budgets: vec!["web-pdb".to_string()],
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

#[test]
fn get_yaml_prints_as_kubectl_sorted_and_double_quoted() {
    let mut c = cluster();
    let out = run(&mut c, "kubectl get deployment web -o yaml").unwrap();
    assert!(out.starts_with("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  annotations:\n    deployment.kubernetes.io/revision: \"1\"\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\n  generation: 1\n  labels:\n    tier: \"1\"\n  name: web\n"), "{out}");
    assert!(
        out.contains("\nspec:\n  progressDeadlineSeconds: 600\n  replicas: 2\n"),
        "{out}"
    );
    assert!(out.contains("    status: \"True\"\n"), "{out}");
}

#[test]
fn get_of_a_kind_prints_a_list_and_of_a_name_the_object() {
    let mut c = cluster();
    let list = run(&mut c, "kubectl get rs -o yaml").unwrap();
    assert!(
        list.starts_with("apiVersion: v1\nitems:\n- apiVersion: apps/v1\n  kind: ReplicaSet\n"),
        "{list}"
    );
    assert!(
        list.ends_with("kind: List\nmetadata:\n  resourceVersion: \"\""),
        "{list}"
    );
    let json = run(&mut c, "kubectl get deploy -o json").unwrap();
    assert!(json.starts_with("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"apiVersion\": \"apps/v1\",\n            \"kind\": \"Deployment\",\n            \"metadata\": {\n                \"annotations\": {"), "{json}");
    let one = run(&mut c, "kubectl get deploy/web -o json").unwrap();
    assert!(
        one.starts_with("{\n    \"apiVersion\": \"apps/v1\",\n    \"kind\": \"Deployment\","),
        "{one}"
    );
    let none = run(&mut c, "kubectl get pods -l app=nothing -o yaml").unwrap();
    assert_eq!(
        none,
        "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\""
    );
}

/// kubectl's DeleteOptions: `--grace-period=0` alone becomes 1 (the pod terminates), with
/// `--force` the pod goes at once and kubectl says so, with its warning.
#[test]
fn delete_makes_a_zero_grace_period_one_unless_forced() {
    let mut c = cluster();
    c.advance(10_000).unwrap();
    let pods: Vec<String> = c
        .store
        .pods()
        .map(|p| p.metadata.name.to_string())
        .collect();
    let out = run(
        &mut c,
        &format!("kubectl delete pod {} --grace-period=0", pods[0]),
    )
    .unwrap();
    assert_eq!(
        out,
        format!("pod \"{}\" deleted from default namespace", pods[0])
    );
    let p = c
        .store
        .pod(&format!("default/{}", pods[0]))
        .expect("still terminating");
    assert_eq!(p.metadata.deletion_grace_period_seconds, Some(1));
    let out = run(
        &mut c,
        &format!("kubectl delete pod {} --grace-period=0 --force", pods[1]),
    )
    .unwrap();
    assert!(
        out.starts_with("Warning: Immediate deletion does not wait"),
        "{out}"
    );
    assert!(
        out.ends_with(&format!(
            "pod \"{}\" force deleted from default namespace",
            pods[1]
        )),
        "{out}"
    );
    assert!(c.store.pod(&format!("default/{}", pods[1])).is_none());
    let err = run(&mut c, "kubectl delete deploy web --now --grace-period=5").unwrap_err();
    assert_eq!(
        err,
        "error: --now and --grace-period cannot be specified together"
    );
}

/// kubectl set image prints nothing for an object it leaves as it was (an empty patch).
#[test]
fn set_image_to_the_same_image_says_nothing() {
    let mut c = cluster();
    let out = run(&mut c, "kubectl set image deployment/web app=app:1").unwrap();
    assert_eq!(out, "");
    let out = run(&mut c, "kubectl set image deployment/web app=app:2").unwrap();
    assert_eq!(out, "deployment.apps/web image updated");
}

/// `scale --current-replicas` is kubectl's size precondition: a different current size is
/// refused and nothing changes; -1 (the default) is no condition.
#[test]
fn scale_checks_the_current_replicas_precondition() {
    let mut c = cluster();
    let rs = first_rs(&c);
    let replicas = |c: &Cluster| c.store.deployment("default/web").unwrap().spec.replicas;
    for (cmd, err) in [
        (
            "kubectl scale deployment/web --current-replicas=3 --replicas=5",
            "error: Expected replicas to be 3, was 2",
        ),
        (
            "kubectl scale deployment/web --current-replicas=-2 --replicas=5",
            "error: The --current-replicas must specify an integer of -1 or greater",
        ),
        (
            "kubectl scale deployment/web --current-replicas two --replicas=5",
            "error: invalid argument \"two\" for \"--current-replicas\" flag: strconv.ParseInt: parsing \"two\": invalid syntax",
        ),
        (
            &format!("kubectl scale rs {rs} --current-replicas=1 --replicas=5"),
            "error: Expected replicas to be 1, was 2",
        ),
    ] {
        assert_eq!(run(&mut c, cmd).unwrap_err(), err, "{cmd}");
        assert_eq!(replicas(&c), Some(2), "{cmd}");
    }
    let out = run(
        &mut c,
        "kubectl scale deployment/web --current-replicas=2 --replicas=5",
    );
    assert_eq!(out.unwrap(), "deployment.apps/web scaled");
    assert_eq!(replicas(&c), Some(5));
    let out = run(
        &mut c,
        "kubectl scale deployment/web --current-replicas=-1 --replicas=4",
    );
    assert_eq!(out.unwrap(), "deployment.apps/web scaled");
    assert_eq!(replicas(&c), Some(4));
}

/// `scale --resource-version` is the scale's resourceVersion precondition, as kubectl's
/// `TestGenericScaleSimple` case 5 asserts (`Expected resource version to be v1, was N`);
/// the matching version scales, and two objects with it are refused before either is read.
#[test]
fn scale_checks_the_resource_version_precondition_as_test_generic_scale_simple() {
    let mut c = cluster();
    let rv = |c: &Cluster| {
        c.store
            .deployment("default/web")
            .unwrap()
            .metadata
            .resource_version
            .to_string()
    };
    let before = rv(&c);
    assert_eq!(
        run(
            &mut c,
            "kubectl scale deployment/web --resource-version=v1 --replicas=5"
        ),
        Err(format!(
            "error: Expected resource version to be v1, was {before}"
        ))
    );
    assert_eq!(rv(&c), before, "nothing written");
    let rs = first_rs(&c);
    assert_eq!(
        run(
            &mut c,
            &format!(
                "kubectl scale deployment/web rs/{rs} --resource-version={before} --replicas=5"
            )
        ),
        Err("error: cannot use --resource-version with multiple resources".into())
    );
    assert_eq!(
        run(
            &mut c,
            &format!("kubectl scale deployment/web --resource-version={before} --replicas=5")
        ),
        Ok("deployment.apps/web scaled".into())
    );
    let replicas = c.store.deployment("default/web").unwrap().spec.replicas;
    assert_eq!(replicas, Some(5));
}

/// `rollout history` of several Deployments frames each as kubectl's
/// `TestMultipleResourceRolloutHistory` asserts: the name line, the viewer's text, a blank
/// line, in argument order.
#[test]
fn rollout_history_of_two_deployments_as_test_multiple_resource_rollout_history() {
    let mut c = cluster();
    run(&mut c, "kubectl create deployment api --image=api:1").unwrap();
    c.drain().unwrap();
    let table = "REVISION  CHANGE-CAUSE\n1         <none>";
    assert_eq!(
        run(
            &mut c,
            "kubectl rollout history deployment/web deployment/api"
        ),
        Ok(format!(
            "deployment.apps/web \n{table}\n\ndeployment.apps/api \n{table}"
        ))
    );
    let one = run(
        &mut c,
        "kubectl rollout history deployment/web deployment/api --revision=1",
    )
    .unwrap();
    let blocks: Vec<&str> = one.split("\n\n").collect();
    assert_eq!(blocks.len(), 2, "{one}");
    assert!(blocks[0].starts_with("deployment.apps/web with revision #1\nPod Template:\n"));
    assert!(blocks[1].starts_with("deployment.apps/api with revision #1\nPod Template:\n"));
}

/// kubectl label and annotate refuse a key that already has another value without
/// --overwrite, each in its own words (kubectl v0.36.3 `validateNoOverwrites`,
/// `validateNoAnnotationOverwrites`); the same value is no change; the change-cause
/// annotation is always set.
#[test]
fn label_and_annotate_refuse_a_key_already_there_without_overwrite() {
    let mut c = cluster();
    for (cmd, want) in [
        (
            "label deployment/web env=prod",
            Ok("deployment.apps/web labeled"),
        ),
        (
            "label deployment/web env=prod",
            Ok("deployment.apps/web not labeled"),
        ),
        (
            "label deployment/web env=dev",
            Err("error: 'env' already has a value (prod), and --overwrite is false"),
        ),
        (
            "label deployment/web env=dev --overwrite",
            Ok("deployment.apps/web labeled"),
        ),
        (
            "annotate deployment/web note=x",
            Ok("deployment.apps/web annotated"),
        ),
        (
            "annotate deployment/web note=x",
            Ok("deployment.apps/web annotated"),
        ),
        (
            "annotate deployment/web note=y",
            Err(
                "error: --overwrite is false but found the following declared annotation(s): 'note' already has a value (x)",
            ),
        ),
        (
            "annotate deployment/web kubernetes.io/change-cause=a",
            Ok("deployment.apps/web annotated"),
        ),
        (
            "annotate deployment/web kubernetes.io/change-cause=b",
            Ok("deployment.apps/web annotated"),
        ),
    ] {
        let cmd = format!("kubectl {cmd}");
        let got = run(&mut c, &cmd);
        assert_eq!(
            got.as_deref(),
            want.map_err(String::from).as_deref(),
            "{cmd}"
        );
    }
    let d = c.store.deployment("default/web").unwrap();
    assert_eq!(d.metadata.labels["env"], "dev");
    assert_eq!(d.metadata.annotations["note"], "x");
    assert_eq!(d.metadata.annotations["kubernetes.io/change-cause"], "b");
}

/// kubectl label says what changed (kubectl v0.36.3 `updateDataChangeMsg`): keys added or
/// given a new value, "labeled"; keys removed, "unlabeled"; both, "modified"; neither, "not
/// labeled". A label to remove that is not there is reported first.
#[test]
fn label_tells_how_the_labels_changed_as_kubectl_does() {
    let mut c = cluster();
    for (cmd, want) in [
        ("tier=1 --overwrite", "deployment.apps/web not labeled"),
        ("env=prod", "deployment.apps/web labeled"),
        ("env-", "deployment.apps/web unlabeled"),
        (
            "env-",
            "label \"env\" not found.\ndeployment.apps/web not labeled",
        ),
        ("tier=12 --overwrite", "deployment.apps/web labeled"),
        ("tier=1 --overwrite", "deployment.apps/web labeled"),
        ("x=1 tier-", "deployment.apps/web modified"),
        ("x- --overwrite", "deployment.apps/web unlabeled"),
        (
            "tier-",
            "label \"tier\" not found.\ndeployment.apps/web not labeled",
        ),
    ] {
        let cmd = format!("kubectl label deployment/web {cmd}");
        assert_eq!(run(&mut c, &cmd).unwrap(), want, "{cmd}");
    }
    assert!(
        c.store
            .deployment("default/web")
            .unwrap()
            .metadata
            .labels
            .is_empty()
    );
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
    assert!(w.has_flag(&["w", "watch"]) && w.read_only());
    assert!(
        !super::parse("k get rs -w=false")
            .unwrap()
            .has_flag(&["w", "watch"])
    );
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

/// `kubectl delete` as kubectl's resource builder reads its arguments (cli-runtime v0.36.2
/// `ResourceTypeOrNameArgs`, kubectl v0.36.3 `pkg/cmd/delete`, `ContinueOnError`): several
/// names of one type, several `TYPE/NAME`s, and a name not found among them said after the
/// others are deleted (issue 31: `delete pod a b c` deleted `a` alone, without a word).
#[test]
fn delete_takes_several_names_and_goes_on_past_one_not_found() {
    let mut c = cluster();
    run(&mut c, "kubectl scale deployment/web --replicas=3").unwrap();
    c.drain().unwrap();
    let pods: Vec<String> = c
        .store
        .pods()
        .map(|p| p.metadata.name.to_string())
        .collect();
    assert_eq!(pods.len(), 3);
    let gone = |c: &Cluster, name: &str| {
        c.store
            .pod(&format!("default/{name}"))
            .is_none_or(|p| p.metadata.deletion_timestamp.is_some())
    };
    let out = run(
        &mut c,
        &format!("kubectl delete pod {} missing {}", pods[0], pods[1]),
    )
    .unwrap();
    assert_eq!(
        out,
        format!(
            "pod \"{}\" deleted from default namespace\npod \"{}\" deleted from default namespace\nError from server (NotFound): pods \"missing\" not found",
            pods[0], pods[1]
        )
    );
    assert!(gone(&c, &pods[0]) && gone(&c, &pods[1]) && !gone(&c, &pods[2]));
    let out = run(
        &mut c,
        &format!("kubectl delete pod/{} po/{}", pods[2], pods[0]),
    )
    .unwrap();
    assert!(
        out.starts_with(&format!("pod \"{}\" deleted", pods[2])),
        "{out}"
    );
    assert!(gone(&c, &pods[2]));
    // Nothing found: nothing changed, and the errors are the command's, one a line.
    let before = c.store.resource_version();
    assert_eq!(
        run(&mut c, "kubectl delete pod nobody nowhere"),
        Err("Error from server (NotFound): pods \"nobody\" not found\nError from server (NotFound): pods \"nowhere\" not found".into())
    );
    assert_eq!(c.store.resource_version(), before);
    // A bare type beside TYPE/NAME, either way round, is refused as the builder refuses it.
    for cmd in ["kubectl delete pod pod/a", "kubectl delete pod/a b"] {
        let err = run(&mut c, cmd).unwrap_err();
        assert!(
            err.starts_with(
                "error: there is no need to specify a resource type as a separate argument"
            ),
            "{cmd}: {err}"
        );
    }
}

/// What an SRE types next (issue 31, item 8): several types at once and `all` (a table per
/// resource, names with their kind), a field selector honoured (and one the kind does not
/// have refused as the apiserver refuses it), `describe` of a type without a name, and the
/// context's namespace so that `-n` is not needed on every line.
#[test]
fn get_all_field_selectors_describe_of_a_type_and_the_context_namespace() {
    let mut c = cluster();
    c.advance(5_000).unwrap();
    let rs = first_rs(&c);
    let out = run(&mut c, "kubectl get deploy,rs").unwrap();
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(blocks.len(), 2, "{out}");
    assert!(
        blocks[0].starts_with("NAME                  READY"),
        "{out}"
    );
    assert!(blocks[0].contains("\ndeployment.apps/web   2/2"), "{out}");
    assert!(
        blocks[1].contains(&format!("\nreplicaset.apps/{rs}")),
        "{out}"
    );
    let all = run(&mut c, "kubectl get all").unwrap();
    assert_eq!(all.split("\n\n").count(), 3, "{all}");
    assert!(all.starts_with("NAME "), "{all}");
    assert!(all.contains("\npod/web-"), "{all}");
    assert_eq!(
        run(
            &mut c,
            "kubectl get pods --field-selector status.phase=Running -o name"
        )
        .unwrap()
        .lines()
        .count(),
        2
    );
    assert_eq!(
        run(
            &mut c,
            "kubectl get pods --field-selector status.phase!=Running"
        ),
        Ok("No resources found in default namespace.".into())
    );
    assert_eq!(
        run(&mut c, "kubectl get deploy --field-selector spec.replicas=2"),
        Err("Error from server (BadRequest): Unable to find \"apps/v1, Resource=deployments\" that match label selector \"\", field selector \"spec.replicas=2\": field label not supported: spec.replicas".into())
    );
    assert_eq!(
        run(&mut c, "kubectl get deploy web -A"),
        Err("error: a resource cannot be retrieved by name across all namespaces".into())
    );
    let described = run(&mut c, "kubectl describe rs").unwrap();
    assert!(
        described.starts_with(&format!("Name:           {rs}")),
        "{described}"
    );
    // More than one object, or none named exactly: no events section, as kubectl leaves it out.
    assert!(
        !run(&mut c, "kubectl describe pods")
            .unwrap()
            .contains("Events:")
    );
    let prefix = run(&mut c, "kubectl describe deploy we").unwrap();
    assert!(
        prefix.starts_with("Name:                   web"),
        "{prefix}"
    );
    assert_eq!(
        run(&mut c, "kubectl describe"),
        Err("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.".into())
    );
    // The context's namespace: set once, every later line works in it.
    run(&mut c, "kubectl create namespace shop").unwrap();
    assert_eq!(
        run(
            &mut c,
            "kubectl config set-context --current --namespace=shop"
        ),
        Ok("Context \"playground\" modified.".into())
    );
    assert_eq!(
        run(&mut c, "kubectl get deploy"),
        Ok("No resources found in shop namespace.".into())
    );
    assert!(
        run(&mut c, "kubectl get deploy -n default")
            .unwrap()
            .contains("\nweb ")
    );
    assert!(
        run(&mut c, "kubectl config view --minify")
            .unwrap()
            .contains("    cluster: playground\n    namespace: shop\n    user: playground\n")
    );
    assert!(
        run(&mut c, "kubectl config get-contexts")
            .unwrap()
            .ends_with("*         playground   playground   playground   shop")
    );
}

/// `--dry-run` on every verb that writes (issue 31, item 3): kubectl's line with `(dry run)`
/// or `(server dry run)`, and nothing written; the server dry run still validates.
#[test]
fn dry_run_prints_what_would_happen_and_writes_nothing() {
    let mut c = cluster();
    let rs = first_rs(&c);
    let before = c.store.resource_version();
    let delete_rs = format!("kubectl delete rs/{rs} --dry-run=server");
    for (cmd, want) in [
        (
            "kubectl scale deploy/web --replicas=5 --dry-run=client",
            "deployment.apps/web scaled (dry run)".to_string(),
        ),
        (
            "kubectl scale deploy/web --replicas=5 --dry-run=server",
            "deployment.apps/web scaled (server dry run)".into(),
        ),
        (
            "kubectl label deploy/web a=b --dry-run=server",
            "deployment.apps/web labeled (server dry run)".into(),
        ),
        (
            "kubectl annotate deploy/web a=b --dry-run=client",
            "deployment.apps/web annotated (dry run)".into(),
        ),
        (
            "kubectl set image deploy/web app=app:2 --dry-run=server",
            "deployment.apps/web image updated (server dry run)".into(),
        ),
        (
            "kubectl set env deploy/web A=1 --dry-run=client",
            "deployment.apps/web env updated (dry run)".into(),
        ),
        (
            "kubectl set resources deploy/web --limits=cpu=0.5 --dry-run=server",
            "deployment.apps/web resource requirements updated (server dry run)".into(),
        ),
        (
            "kubectl patch deploy/web -p '{\"spec\":{\"replicas\":4}}' --dry-run=server",
            "deployment.apps/web patched (server dry run)".into(),
        ),
        (
            delete_rs.as_str(),
            format!("replicaset.apps \"{rs}\" deleted from default namespace (server dry run)"),
        ),
        (
            "kubectl delete deploy web --dry-run=client",
            "deployment.apps \"web\" deleted from default namespace (dry run)".into(),
        ),
    ] {
        assert_eq!(run(&mut c, cmd), Ok(want), "{cmd}");
    }
    assert_eq!(c.store.resource_version(), before, "nothing written");
    // The server dry run validates; the client one does not ask the server.
    assert!(
        run(
            &mut c,
            "kubectl scale deploy/web --replicas=2 --dry-run=server -o name"
        )
        .is_ok()
    );
    let invalid = run(
        &mut c,
        "kubectl patch deploy/web -p '{\"spec\":{\"replicas\":-1}}' --dry-run=server",
    )
    .unwrap_err();
    assert!(
        invalid.contains("spec.replicas: Invalid value: -1"),
        "{invalid}"
    );
    assert_eq!(
        run(
            &mut c,
            "kubectl scale deploy/web --replicas=1 --dry-run=maybe"
        ),
        Err(
            "error: Invalid dry-run value (maybe). Must be \"none\", \"server\", or \"client\"."
                .into()
        )
    );
    let bare = run(&mut c, "kubectl label deploy/web a=b --dry-run").unwrap();
    assert!(bare.starts_with("W0101 00:00:00.000000       1 helpers.go:719] --dry-run is deprecated and can be replaced with --dry-run=client.\n"), "{bare}");
    assert!(
        bare.ends_with("deployment.apps/web labeled (dry run)"),
        "{bare}"
    );
    assert_eq!(c.store.resource_version(), before, "nothing written");
}

/// `rollout` as kubectl v0.36.3 runs it (issue 31, item 4): history as objects and one
/// revision's template, a negative revision refused, `undo` finding the revision before it
/// looks at `paused`, a second restart within the second refused, and a bare type meaning
/// every Deployment.
#[test]
fn rollout_history_undo_restart_and_a_bare_type_as_kubectl_does() {
    let mut c = cluster();
    run(&mut c, "kubectl set image deploy/web app=app:2").unwrap();
    c.drain().unwrap();
    let names = run(&mut c, "kubectl rollout history deploy/web -o name").unwrap();
    assert_eq!(names.lines().count(), 2, "{names}");
    assert!(
        names.lines().all(|l| l.starts_with("replicaset.apps/web-")),
        "{names}"
    );
    let yaml = run(
        &mut c,
        "kubectl rollout history deploy/web -o yaml --revision=2",
    )
    .unwrap();
    assert!(
        yaml.starts_with("apiVersion: apps/v1\nkind: ReplicaSet\n"),
        "{yaml}"
    );
    let one = run(&mut c, "kubectl rollout history deploy/web --revision=1").unwrap();
    assert!(
        one.starts_with(
            "deployment.apps/web with revision #1\nPod Template:\n  Labels:\tapp=web\n"
        ),
        "{one}"
    );
    assert!(one.contains("    Image:\tapp:1\n"), "{one}");
    assert_eq!(
        run(&mut c, "kubectl rollout history deploy/web --revision=-1"),
        Err("error: revision must be a positive integer: -1".into())
    );
    run(&mut c, "kubectl rollout pause deploy/web").unwrap();
    assert_eq!(
        run(&mut c, "kubectl rollout undo deploy/web --to-revision=9"),
        Err("error: unable to find specified revision 9 in history".into())
    );
    assert_eq!(
        run(&mut c, "kubectl rollout undo deploy/web"),
        Err("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into())
    );
    let template = run(&mut c, "kubectl rollout undo deploy/web --dry-run=client").unwrap();
    assert!(
        template.starts_with("deployment.apps/web Pod Template:\n"),
        "{template}"
    );
    assert!(template.ends_with(" (dry run)"), "{template}");
    assert_eq!(
        run(&mut c, "kubectl rollout resume deployment"),
        Ok("deployment.apps/web resumed".into())
    );
    assert_eq!(
        run(&mut c, "kubectl rollout restart deploy/web"),
        Ok("deployment.apps/web restarted".into())
    );
    assert_eq!(
        run(&mut c, "kubectl rollout restart deploy/web"),
        Err("error: failed to create patch for web: if restart has already been triggered within the past second, please wait before attempting to trigger another".into())
    );
    c.advance(1_000).unwrap();
    assert!(run(&mut c, "kubectl rollout restart deploy/web").is_ok());
    let rs = first_rs(&c);
    assert_eq!(
        run(&mut c, &format!("kubectl rollout pause rs/{rs}")),
        Err(format!(
            "error: replicasets.apps \"{rs}\" pausing is not supported"
        ))
    );
}

/// The README's list of verbs is the verb table's (issue 31, item 9), as completion and
/// `kubectl help` are.
#[test]
fn the_readme_lists_the_verbs_of_the_table() {
    let readme = include_str!("../../README.md");
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
