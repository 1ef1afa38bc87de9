//! Disruptions (issue 35, item 3): `policy/v1` PodDisruptionBudgets with the disruption
//! controller's status, the eviction API's refusals, and `kubectl drain`, which evicts a
//! node's pods through them.

use rollout_playground::api::PodDisruptionBudget;
use rollout_playground::cluster::Cluster;
use rollout_playground::kubectl;
use rollout_playground::scenario::Scenario;
use rollout_playground::scenario::guarantees::{self, Kind};
use rollout_playground::scenario::session::Session;

fn node(name: &str, cpu: u32) -> String {
    format!(
        "  - |\n    apiVersion: v1\n    kind: Node\n    metadata: {{name: {name}}}\n    status: {{allocatable: {{cpu: \"{cpu}\", memory: 16Gi, pods: \"110\"}}}}\n"
    )
}

fn replica_set(replicas: u32) -> String {
    format!(
        "  - |\n    apiVersion: apps/v1\n    kind: ReplicaSet\n    metadata: {{name: rs}}\n    spec:\n      replicas: {replicas}\n      selector: {{matchLabels: {{foo: bar}}}}\n      template:\n        metadata: {{labels: {{foo: bar}}}}\n        spec: {{containers: [{{name: app, image: \"app:1\", resources: {{requests: {{cpu: \"1\"}}}}}}]}}\n"
    )
}

fn budget(spec: &str) -> String {
    format!(
        "  - |\n    apiVersion: policy/v1\n    kind: PodDisruptionBudget\n    metadata: {{name: pdb}}\n    spec: {spec}\n"
    )
}

fn run(text: &str) -> Cluster {
    let s = Scenario::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut c = s.start().unwrap();
    s.run_on(&mut c).unwrap();
    c
}

/// The budget `namespace/name` as the store holds it.
fn budget_of<'a>(c: &'a Cluster, key: &'a str) -> &'a PodDisruptionBudget {
    c.store
        .budgets_in(key.split('/').next().unwrap())
        .find(|b| b.metadata.key().as_str() == key)
        .unwrap_or_else(|| panic!("no budget {key}"))
}

fn status(c: &Cluster, key: &str) -> (i32, i32, i32, i32) {
    let s = &budget_of(c, key).status;
    (
        s.disruptions_allowed,
        s.current_healthy,
        s.desired_healthy,
        s.expected_pods,
    )
}

/// A case: its name, its objects, the commands after them, and the status it ends with.
type Case = (
    &'static str,
    String,
    &'static [&'static str],
    (i32, i32, i32, i32),
);

/// Upstream's `disruption_test.go` cases, each as a world that makes their pods: one node of
/// 1 CPU holds one pod of 1 CPU, so a ReplicaSet of 7 has one running pod and six Pending,
/// as the tests' one pod of a controller scaled to 7. Asserted as upstream asserts them:
/// (disruptionsAllowed, currentHealthy, desiredHealthy, expectedPods).
#[test]
fn budget_status_as_upstreams_disruption_tests_assert_it() {
    let cases: [Case; 7] = [
        (
            "TestIntegerMaxUnavailableWithScaling",
            format!(
                "{}{}{}",
                node("n1", 1),
                replica_set(7),
                budget("{maxUnavailable: 2, selector: {matchLabels: {foo: bar}}}")
            ),
            &[],
            (0, 1, 5, 7),
        ),
        (
            "TestIntegerMaxUnavailableWithScaling (scaled to 5)",
            format!(
                "{}{}{}",
                node("n1", 1),
                replica_set(7),
                budget("{maxUnavailable: 2, selector: {matchLabels: {foo: bar}}}")
            ),
            &["kubectl scale rs rs --replicas=5"],
            (0, 1, 3, 5),
        ),
        (
            "TestPercentageMaxUnavailableWithScaling",
            format!(
                "{}{}{}",
                node("n1", 1),
                replica_set(7),
                budget("{maxUnavailable: \"30%\", selector: {matchLabels: {foo: bar}}}")
            ),
            &[],
            (0, 1, 4, 7),
        ),
        (
            "TestPercentageMaxUnavailableWithScaling (scaled to 3)",
            format!(
                "{}{}{}",
                node("n1", 1),
                replica_set(7),
                budget("{maxUnavailable: \"30%\", selector: {matchLabels: {foo: bar}}}")
            ),
            &["kubectl scale rs rs --replicas=3"],
            (0, 1, 2, 3),
        ),
        (
            "TestReplicaSet",
            format!(
                "{}{}{}",
                node("n1", 1),
                replica_set(10),
                budget("{minAvailable: \"20%\", selector: {matchLabels: {foo: bar}}}")
            ),
            &[],
            (0, 1, 2, 10),
        ),
        (
            "TestUnavailable (four Ready pods, minAvailable 3)",
            format!(
                "{}{}{}",
                node("n1", 8),
                replica_set(4),
                budget("{minAvailable: 3, selector: {matchLabels: {foo: bar}}}")
            ),
            &[],
            (1, 4, 3, 4),
        ),
        (
            "TestNoSelector (an empty selector counts every pod of the namespace)",
            format!(
                "{}{}{}",
                node("n1", 8),
                replica_set(1),
                budget("{minAvailable: 3, selector: {}}")
            ),
            &[],
            (0, 1, 3, 1),
        ),
    ];
    for (name, objects, commands, want) in cases {
        let mut text = format!("name: t\nobjects:\n{objects}steps:\n");
        for (i, cmd) in commands.iter().enumerate() {
            text.push_str(&format!("  - {{at: {}s, run: \"{cmd}\"}}\n", 10 + i));
        }
        if commands.is_empty() {
            text.push_str("  - {at: 10s, run: kubectl get pdb}\n");
        }
        text.push_str("until: settled\n");
        let c = run(&text);
        assert_eq!(status(&c, "default/pdb"), want, "{name}");
    }
}

/// TestIntegerMaxUnavailable: a pod no controller owns adds nothing to the expected count, so
/// nothing may be disrupted, and the controller says why.
#[test]
fn an_unmanaged_pod_leaves_no_disruption_and_an_unmanaged_pods_warning() {
    let pod = "  - |\n    apiVersion: v1\n    kind: Pod\n    metadata: {name: bare, labels: {foo: bar}}\n    spec: {containers: [{name: app, image: \"app:1\"}]}\n";
    let text = format!(
        "name: t\nobjects:\n{pod}{}steps:\n  - {{at: 10s, run: kubectl describe pdb pdb}}\nuntil: settled\n",
        budget("{maxUnavailable: 1, selector: {matchLabels: {foo: bar}}}")
    );
    let s = Session::new(Scenario::parse(&text).unwrap()).unwrap();
    let out = s
        .trace
        .iter()
        .find_map(|st| st.output().filter(|o| o.starts_with("Name:")))
        .unwrap();
    assert!(out.contains("Max unavailable:  1\n"), "{out}");
    assert!(out.contains("Allowed disruptions:  0\n"), "{out}");
    assert!(out.contains("Total:                0\n"), "{out}");
    assert!(
        out.contains("UnmanagedPods") && out.contains("were found to be unmanaged"),
        "{out}"
    );
}

/// Three nodes of 4 CPUs; web, 4 replicas of 1 CPU; a budget of `minAvailable: 4`; and the
/// steps given.
fn drained(steps: &str) -> String {
    let mut s = String::from("name: drain\nobjects:\n");
    for n in ["node-1", "node-2", "node-3"] {
        s.push_str(&node(n, 4));
    }
    s.push_str("  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec:\n      replicas: 4\n      selector: {matchLabels: {app: web}}\n      template:\n        metadata: {labels: {app: web}}\n        spec: {containers: [{name: app, image: \"app:1\", resources: {requests: {cpu: \"1\"}}}]}\n");
    s.push_str(
        &budget("{minAvailable: 4, selector: {matchLabels: {app: web}}}").replace("pdb}", "web}"),
    );
    s.push_str(&format!("steps:\n{steps}until: settled\n"));
    s
}

/// The action step of the run's first `kubectl drain`.
fn drain_step(s: &Session) -> &rollout_playground::cluster::trace::TraceStep {
    let is_drain = |c: &str| c.starts_with("kubectl drain");
    let mut steps = s.trace.iter();
    steps
        .find(|st| st.command().is_some_and(is_drain))
        .expect("the run has a kubectl drain")
}

/// How a drain's watch on its step ended.
fn watch_end(
    drain: &rollout_playground::cluster::trace::TraceStep,
) -> &rollout_playground::cluster::watch::WatchEnd {
    let log = drain.action().and_then(|a| a.watch.as_ref());
    log.and_then(|l| l.end.as_ref())
        .expect("the drain's watch ended")
}

/// The test: with `minAvailable` equal to replicas, the drain is refused pod by pod
/// with upstream's words until the budget allows (here a fifth replica makes one disruption
/// to spare at a time), and no eviction takes the budget below what it needs.
#[test]
fn a_drain_is_refused_pod_by_pod_until_the_budget_allows() {
    let text = drained(
        "  - {at: 10s, run: kubectl drain node-1}\n  - {at: 40s, run: kubectl scale deployment web --replicas=5}\n",
    );
    let s = Session::new(Scenario::parse(&text).unwrap()).unwrap();
    let drain = drain_step(&s);
    assert_eq!(drain.command(), Some("kubectl drain node-1"));
    let out = drain.output().unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "node/node-1 cordoned");
    let on_node: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("evicting pod default/"))
        .map(str::to_string)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert!(!on_node.is_empty(), "{out}");
    for p in &on_node {
        let refused = format!(
            "error when evicting pods/\"{p}\" -n \"default\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget."
        );
        assert!(lines.contains(&refused.as_str()), "{p}: {out}");
        assert!(
            lines.contains(&format!("pod/{p} evicted").as_str()),
            "{out}"
        );
    }
    assert_eq!(lines.last(), Some(&"node/node-1 drained"), "{out}");
    // Refused every 5 s from 10 s until the fifth replica is Ready after 40 s.
    let log = drain.action().unwrap().watch.as_ref().unwrap();
    let refusals = log
        .lines
        .iter()
        .filter(|l| l.text.contains("will retry"))
        .count();
    assert!(refusals >= 5 * on_node.len(), "{out}");
    assert!(log.end.as_ref().is_some_and(|e| e.error.is_none()));
    // The cause kubectl does not print is on the step.
    assert!(drain.changes().iter().any(|c| c.contains(
        "eviction refused (429 TooManyRequests): The disruption budget web needs 4 healthy pods and has 4 currently"
    )), "{:?}", drain.changes());
    // No eviction took the budget below what it needs.
    let report = guarantees::evaluate(&s);
    let k = Kind::ALL.iter().position(|k| *k == Kind::Budget).unwrap();
    assert!(
        report.breaches.iter().all(|b| b.kind != Kind::Budget),
        "{:#?}",
        report.breaches
    );
    let last = &report.checks.last().unwrap()[k];
    assert!(
        last.numbers.to_string().contains("refused"),
        "{}",
        last.numbers
    );
    let c = run(&text);
    let on_node_1 = c
        .store
        .pods()
        .filter(|p| p.spec.node_name == "node-1")
        .count();
    assert_eq!(on_node_1, 0);
    assert_eq!(status(&c, "default/web"), (1, 5, 4, 5));
}

/// `--timeout` ends the drain at the retry after it, with kubectl's words, the pods left and
/// the node still to drain.
#[test]
fn a_drain_that_times_out_names_its_pods_and_node() {
    let text = drained("  - {at: 10s, run: kubectl drain node-1 --timeout=12s}\n");
    let s = Session::new(Scenario::parse(&text).unwrap()).unwrap();
    let drain = drain_step(&s);
    let out = drain.output().unwrap();
    assert!(out.contains("global timeout reached: 12s"), "{out}");
    assert!(
        out.contains("There are pending pods in node \"node-1\" when an error occurred: "),
        "{out}"
    );
    assert!(
        out.contains("error: unable to drain node \"node-1\" due to error: "),
        "{out}"
    );
    assert!(
        out.ends_with("There are pending nodes to be drained:\n node-1"),
        "{out}"
    );
    let end = watch_end(drain);
    assert_eq!(end.t, 25_000, "the first retry at or after 22 s");
    assert!(
        drain
            .errors()
            .iter()
            .any(|e| e.starts_with("error when evicting pods/")),
        "{:?}",
        drain.errors()
    );
}

/// `--disable-eviction` deletes, budget or not; `--dry-run=client` lists; a bare pod needs
/// `--force`.
#[test]
fn drain_flags_as_kubectl_has_them() {
    let text = drained("  - {at: 10s, run: kubectl drain node-1 --disable-eviction}\n");
    let c = run(&text);
    assert_eq!(
        c.store
            .pods()
            .filter(|p| p.spec.node_name == "node-1")
            .count(),
        0
    );
    let s = Session::new(Scenario::parse(&text).unwrap()).unwrap();
    let out = drain_step(&s).output().unwrap();
    assert!(
        out.contains(" deleted\n") && !out.contains("evicting"),
        "{out}"
    );

    let mut c = run(&drained(""));
    let out = kubectl::run(&mut c, "kubectl drain node-1 --dry-run=client").unwrap();
    assert!(
        out.starts_with("node/node-1 cordoned (dry run)\nevicting pod default/web-"),
        "{out}"
    );
    assert!(out.ends_with("node/node-1 drained (dry run)"), "{out}");
    let err = kubectl::run(&mut c, "kubectl drain node-1 --delete-local-data").unwrap_err();
    assert!(err.to_string().contains("delete-local-data"), "{err}");
    let err = kubectl::run(&mut c, "kubectl drain").unwrap_err();
    assert!(err.to_string().contains("USAGE: drain NODE"), "{err}");
    let err = kubectl::run(&mut c, "kubectl drain nope").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Error from server (NotFound): nodes \"nope\" not found"
    );

    let pod = "  - |\n    apiVersion: v1\n    kind: Pod\n    metadata: {name: bare}\n    spec: {nodeName: node-2, containers: [{name: app, image: \"app:1\"}]}\n";
    let text = drained("").replace("steps:\n", &format!("{pod}steps:\n"));
    let mut c = run(&text);
    let out = kubectl::run(&mut c, "kubectl drain node-2").unwrap();
    assert!(out.contains("error: unable to drain node \"node-2\" due to error: cannot delete Pods that declare no controller (use --force to override): default/bare, continuing command..."), "{out}");
    assert!(out.ends_with("There are pending nodes to be drained:\n node-2\ncannot delete Pods that declare no controller (use --force to override): default/bare"), "{out}");
    let out = kubectl::run(&mut c, "kubectl drain node-2 --force").unwrap();
    assert!(
        out.contains("Warning: deleting Pods that declare no controller: default/bare"),
        "{out}"
    );
}

/// `kubectl get pdb` and `describe pdb` as kubectl prints them, and a budget the apiserver
/// refuses, named with its field.
#[test]
fn kubectl_shows_budgets_and_the_apiserver_refuses_a_bad_one() {
    let mut c = run(&drained(""));
    let out = kubectl::run(&mut c, "kubectl get pdb").unwrap();
    assert_eq!(
        out.lines().next().unwrap(),
        "NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE"
    );
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .starts_with("web    4               N/A               0 "),
        "{out}"
    );
    let out = kubectl::run(&mut c, "kubectl describe poddisruptionbudget web").unwrap();
    assert!(out.starts_with("Name:           web\nNamespace:      default\nMin available:  4\nSelector:       app=web\nStatus:\n    Allowed disruptions:  0\n    Current:              4\n    Desired:              4\n    Total:                4\n"), "{out}");
    let both = "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: both}\nspec: {minAvailable: 1, maxUnavailable: 1, selector: {matchLabels: {app: web}}}\n";
    let err = kubectl::run(&mut c, &format!("kubectl apply -f - <<EOF\n{both}EOF")).unwrap_err();
    assert!(
        err.to_string()
            .contains("The PodDisruptionBudget \"both\" is invalid: spec: Invalid value: ")
            && err
                .to_string()
                .contains("minAvailable and maxUnavailable cannot be both set"),
        "{err}"
    );
    assert!(
        c.store
            .get(
                rollout_playground::api::Kind::PodDisruptionBudget,
                "default/both"
            )
            .is_none()
    );
}

/// Compare takes a budget's setting (issue 35, item 5): `budgets.spec.minAvailable=3` sets it
/// on every PodDisruptionBudget, and a setting the apiserver refuses names the variant.
#[test]
fn compare_sets_a_budgets_min_available() {
    use rollout_playground::scenario::variant::Variant;
    let s = Scenario::parse(&drained(
        "  - {at: 10s, run: kubectl drain node-1 --timeout=30s}\n",
    ))
    .unwrap();
    let set = Variant::parse_settings("budgets.spec.minAvailable=3").unwrap();
    let v = Variant {
        name: Variant::default_name(&set),
        set,
    };
    let three = s.with_variant(&v).unwrap();
    let mut c = three.start().unwrap();
    three.run_on(&mut c).unwrap();
    assert_eq!(status(&c, "default/web").2, 3, "desiredHealthy");
    assert_eq!(
        c.store
            .pods()
            .filter(|p| p.spec.node_name == "node-1")
            .count(),
        0,
        "with one disruption to spare at a time, the drain finishes"
    );
    let c = run(&drained(
        "  - {at: 10s, run: kubectl drain node-1 --timeout=30s}\n",
    ));
    assert!(
        c.store.pods().any(|p| p.spec.node_name == "node-1"),
        "as written it times out"
    );
    let set = Variant::parse_settings("budgets.spec.maxUnavailable=1").unwrap();
    let both = Variant {
        name: "both".into(),
        set,
    };
    let err = s.with_variant(&both).unwrap_err().to_string();
    assert!(
        err.contains("variant \"both\"")
            && err.contains("minAvailable and maxUnavailable cannot be both set"),
        "{err}"
    );
}

/// `kubectl create poddisruptionbudget` (alias `pdb`) with `create_pdb.go`'s checks.
#[test]
fn kubectl_create_pdb() {
    let mut c = run(&drained(""));
    let cases = [
        (
            "kubectl create pdb",
            Err(
                "error: exactly one NAME is required, got 0\nSee 'kubectl create poddisruptionbudget -h' for help and examples",
            ),
        ),
        (
            "kubectl create pdb half --min-available=50%",
            Err("error: a selector must be specified"),
        ),
        (
            "kubectl create pdb half --selector=app=web",
            Err("error: one of min-available or max-unavailable must be specified"),
        ),
        (
            "kubectl create pdb half --selector=app=web --min-available=1 --max-unavailable=1",
            Err("error: min-available and max-unavailable cannot be both specified"),
        ),
        (
            "kubectl create pdb half --selector=app=web --max-unavailable=x",
            Err("error: invalid format specified for max-unavailable"),
        ),
        (
            "kubectl create pdb half --selector=app=web --max-unavailable=50% --dry-run=client",
            Ok("poddisruptionbudget.policy/half created (dry run)"),
        ),
        (
            "kubectl create poddisruptionbudget half --selector=app=web --max-unavailable=50%",
            Ok("poddisruptionbudget.policy/half created"),
        ),
        (
            "kubectl create pdb half --selector=app=web --min-available=1",
            Err(
                "error: failed to create poddisruptionbudgets: poddisruptionbudgets.policy \"half\" already exists",
            ),
        ),
    ];
    for (cmd, want) in cases {
        let got = kubectl::run(&mut c, cmd).map_err(|e| e.to_string());
        assert_eq!(got, want.map(String::from).map_err(String::from), "{cmd}");
    }
    let b = budget_of(&c, "default/half");
    assert_eq!(b.spec.max_unavailable.as_ref().unwrap().to_string(), "50%");
}

/// Bad input: a budget with both bounds, in a scenario's objects or a pasted List, is refused
/// naming the object and the field, before anything runs.
#[test]
fn a_budget_with_both_bounds_is_refused_naming_the_object_and_field() {
    let refused = |spec: &str| {
        Scenario::parse(&format!("name: bad\nobjects:\n{}", budget(spec)))
            .unwrap()
            .start()
            .err()
            .unwrap()
            .to_string()
    };
    let e = refused("{minAvailable: 1, maxUnavailable: 1, selector: {matchLabels: {app: web}}}");
    assert!(
        e.contains("objects[0] (PodDisruptionBudget/pdb): PodDisruptionBudget.policy \"pdb\" is invalid: spec: Invalid value: {minAvailable: 1, maxUnavailable: 1}: minAvailable and maxUnavailable cannot be both set"),
        "{e}"
    );
    let e = refused("{minAvailable: 120%, selector: {matchLabels: {app: web}}}");
    assert!(
        e.contains("spec.minAvailable: Invalid value: \"120%\": must not be greater than 100%"),
        "{e}"
    );
}

/// A budget pasted with the cluster's state (`kubectl get …,pdb -o yaml`) keeps its uid and
/// what its status says, and the disruption controller goes on from it: an eviction it lists
/// in `disruptedPods` keeps that pod out of the healthy count for `DeletionTimeout` (2
/// minutes from the eviction), and is let go after it.
#[test]
fn a_pasted_budget_goes_on_from_its_status() {
    let state = Scenario::parse(include_str!("../scenarios/pasted-mid-rollout.yaml"))
        .unwrap()
        .objects
        .remove(0);
    // Evicted 30 s before the state's latest timestamp (14:02:58), its deletion never begun.
    let pdb = "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\n  namespace: shop\n  uid: 7d0c4b2a-1111-4c3d-8e9f-0a1b2c3d4e5f\n  generation: 1\n  resourceVersion: \"900\"\n  creationTimestamp: \"2026-11-20T09:00:00Z\"\nspec:\n  minAvailable: 6\n  selector: {matchLabels: {app: web}}\nstatus:\n  observedGeneration: 1\n  disruptedPods: {web-7c9f5b8d6f-g5wb7: \"2026-11-26T14:02:28Z\"}\n  disruptionsAllowed: 0\n  currentHealthy: 6\n  desiredHealthy: 6\n  expectedPods: 15\n";
    let s = Scenario::from_manifest(&format!("{state}{pdb}"));
    let mut c = s.start().unwrap();
    let b = budget_of(&c, "shop/web");
    assert_eq!(
        b.metadata.uid.as_str(),
        "7d0c4b2a-1111-4c3d-8e9f-0a1b2c3d4e5f"
    );
    assert!(b.status.disrupted_pods.contains_key("web-7c9f5b8d6f-g5wb7"));
    s.run_on(&mut c).unwrap();
    let b = budget_of(&c, "shop/web");
    assert!(b.status.disrupted_pods.is_empty(), "{:?}", b.status);
    assert_eq!(
        (b.status.current_healthy, b.status.desired_healthy),
        (10, 6)
    );
    assert_eq!(b.status.disruptions_allowed, 4);
    // The pod it named counted again from 14:04:28, two minutes after the eviction.
    let events = c.events.for_object(
        rollout_playground::api::Kind::Pod,
        &c.store.pod("shop/web-7c9f5b8d6f-g5wb7").unwrap().metadata,
    );
    assert!(
        events.iter().any(|e| e.reason == "NotDeleted"
            && e.message == "Pod was expected by PDB shop/shop to be deleted but it wasn't"),
        "{events:?}"
    );
}

/// `world.nodes: 3` registers three Nodes, as a cluster has them: kubectl lists them Ready,
/// the scheduler spreads the pods over them, and a drain with a budget is refused pod by pod
/// as on the gallery's Node objects.
#[test]
fn a_world_of_three_nodes_has_three_node_objects_that_kubectl_drains() {
    let text = format!(
        "name: t\nworld: {{nodes: 3}}\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: web}}\n    spec:\n      replicas: 3\n      selector: {{matchLabels: {{app: web}}}}\n      template:\n        metadata: {{labels: {{app: web}}}}\n        spec: {{containers: [{{name: app, image: \"app:1\"}}]}}\n{}steps:\n  - {{at: 10s, run: kubectl drain node-2 --timeout=12s}}\nuntil: settled\n",
        budget("{minAvailable: 3, selector: {matchLabels: {app: web}}}")
    );
    let mut c = run(&text);
    let out = kubectl::run(&mut c, "kubectl get nodes").unwrap();
    let rows: Vec<&str> = out.lines().collect();
    assert!(rows[0].starts_with("NAME     STATUS"), "{out}");
    for (row, name) in rows[1..].iter().zip(["node-1", "node-2", "node-3"]) {
        assert!(row.starts_with(name), "{out}");
        assert!(row.contains(" Ready") && row.ends_with("v1.37.0"), "{out}");
    }
    assert_eq!(rows.len(), 4, "{out}");
    assert!(rows[2].contains("Ready,SchedulingDisabled"), "{out}");
    let s = Session::new(Scenario::parse(&text).unwrap()).unwrap();
    let out = drain_step(&s).output().unwrap();
    assert!(out.starts_with("node/node-2 cordoned\n"), "{out}");
    assert!(
        out.contains("(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget."),
        "{out}"
    );
    assert!(
        out.contains("error: unable to drain node \"node-2\" due to error: error when evicting pods/\"web-")
            && out.ends_with("global timeout reached: 12s, continuing command...\nThere are pending nodes to be drained:\n node-2"),
        "{out}"
    );
    let err = kubectl::run(&mut c, "kubectl cordon node-9")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Error from server (NotFound): nodes \"node-9\" not found"
    );
}

/// `--disable-eviction --timeout`: `deletePods` waits for the pods it deleted until the
/// timeout, and its one plain error ends kubectl as `error: …` (an eviction's are an
/// aggregate, printed bare).
#[test]
fn a_drain_by_deletion_that_times_out_ends_with_a_plain_error() {
    let text =
        drained("  - {at: 10s, run: kubectl drain node-1 --disable-eviction --timeout=2s}\n")
            .replace(
                "name: drain\n",
                "name: drain\nworld: {terminationMs: 5000}\n",
            );
    let s = Session::new(Scenario::parse(&text).unwrap()).unwrap();
    let drain = drain_step(&s);
    let out = drain.output().unwrap();
    assert!(
        out.contains("There are pending pods in node \"node-1\" when an error occurred: context deadline exceeded\npod/"),
        "{out}"
    );
    assert_eq!(
        drain.errors(),
        ["error: context deadline exceeded"],
        "{out}"
    );
    assert_eq!(watch_end(drain).t, 12_000);
}
