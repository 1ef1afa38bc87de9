//! kubectl's reads, checked: `get` (its columns, `-o yaml`, lists, several types, field
//! selectors), `describe`, and namespaces as kubectl knows them.

use super::*;

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
        lines[0].ends_with("IP         NODE     NOMINATED NODE   READINESS GATES   LABELS"),
        "{pods}"
    );
    assert!(
        lines[1].contains("10.2.0.2   node-2") && lines[1].contains("app=web,pod-template-hash="),
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
