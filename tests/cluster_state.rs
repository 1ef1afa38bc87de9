//! A cluster's state pasted as `kubectl get deploy,rs,pods -o yaml` prints it (issue 35, item
//! 1): the run continues it as a controller manager restarting against that cluster would.
//! The state is the gallery's scenarios/pasted-mid-rollout.yaml, a rollout half done: Deployment
//! `shop/web` at revision 7 (10 replicas, maxSurge 4, maxUnavailable 2), its old ReplicaSet at
//! revision 6 with 8 Ready pods and one terminating, its new one at revision 7 with 3 Ready
//! pods, one running but not yet Ready, one creating its container and one unscheduled.

use rollout_playground::api::Time;
use rollout_playground::cluster::Cluster;
use rollout_playground::controller::deployment::Branch;
use rollout_playground::scenario::Scenario;
use rollout_playground::scenario::table::explain_step;

const GALLERY: &str = include_str!("../scenarios/pasted-mid-rollout.yaml");
const OLD: &str = "shop/web-6d4b8c7f9d";
const NEW: &str = "shop/web-7c9f5b8d6f";

fn pod_names(c: &Cluster, rs: &str) -> Vec<String> {
    let uid = c.store.replicaset(rs).unwrap().metadata.uid.clone();
    let mut v: Vec<String> = c
        .store
        .pods_controlled_by(&uid)
        .map(|p| p.metadata.name.to_string())
        .collect();
    v.sort();
    v
}

/// The state as pasted: the scenario's one object text.
fn state() -> String {
    Scenario::parse(GALLERY).unwrap().objects.remove(0)
}

fn started() -> (Scenario, Cluster) {
    let s = Scenario::from_manifest(&state());
    let c = s.start().unwrap_or_else(|e| panic!("{e}"));
    (s, c)
}

#[test]
fn a_pasted_state_keeps_its_uids_revisions_status_and_clock() {
    let (_, c) = started();
    let d = c.store.deployment("shop/web").unwrap();
    assert_eq!(
        d.metadata.uid.as_str(),
        "5b1f3c2e-8a4d-4f6b-9c1e-2d7a0b3f4e51"
    );
    assert_eq!(d.metadata.generation, 9);
    assert_eq!(d.metadata.resource_version.as_str(), "48213977");
    assert_eq!(d.status.available_replicas, 11);
    assert_eq!(
        d.metadata
            .annotations
            .get("deployment.kubernetes.io/revision")
            .map(|s| s.as_str()),
        Some("7")
    );
    assert_eq!(pod_names(&c, OLD).len(), 9);
    assert_eq!(pod_names(&c, NEW).len(), 6);
    // The clock starts at the state's latest timestamp; the terminating pod's deletionTimestamp
    // (the end of its grace period) is later, and does not count.
    assert_eq!(c.now(), Time::parse("2026-11-26T14:02:58Z").unwrap());
    assert_eq!(c.now_ms(), 0);
    let lines = c.restored.as_ref().unwrap().lines();
    assert_eq!(
        lines[0],
        "Continued 18 objects from the cluster state, at its latest timestamp 2026-11-26T14:02:58Z."
    );
    assert!(
        lines[1].starts_with("Nodes: ip-10-0-1-23.eu-west-1.compute.internal, "),
        "{lines:?}"
    );
}

#[test]
fn a_pasted_mid_rollout_state_completes_from_where_it_stands() {
    let (s, mut c) = started();
    let before_new = pod_names(&c, NEW);
    let before_old = pod_names(&c, OLD);
    s.run_on(&mut c).unwrap();
    let trace = &c.rec.trace;
    // The first sync is the Deployment controller's, told of the Deployment by its informer's
    // first list, and its arithmetic is the state's.
    let first = &trace[0];
    assert_eq!(first.branch(), Some(Branch::Rollout));
    let text = explain_step(trace, 0);
    assert!(
        text.contains("cause: a watch event, ADDED Deployment shop/web, through addDeployment"),
        "{text}"
    );
    assert!(
        text.contains("14 pods ≥ replicas + maxSurge = 14: the new ReplicaSet stays at 6"),
        "{text}"
    );
    assert!(text.contains("maxScaledDown = 14 − 8 − 3 = 3"), "{text}");
    assert!(
        text.contains("available 11 − minAvailable 8 = 3 old replicas may go"),
        "{text}"
    );
    assert!(text.contains("update replicasets web-6d4b8c7f9d"), "{text}");
    // It completes: the new ReplicaSet at 10, the old at 0, revisions kept.
    let d = c.store.deployment("shop/web").unwrap();
    assert_eq!(
        (d.status.updated_replicas, d.status.available_replicas),
        (10, 10)
    );
    assert_eq!(
        d.metadata.uid.as_str(),
        "5b1f3c2e-8a4d-4f6b-9c1e-2d7a0b3f4e51"
    );
    let rev = |k: &str| {
        let rs = c.store.replicaset(k).unwrap();
        let r = rs
            .metadata
            .annotations
            .get("deployment.kubernetes.io/revision")
            .unwrap();
        (r.to_string(), rs.spec.replicas.unwrap())
    };
    assert_eq!(rev(NEW), ("7".into(), 10));
    assert_eq!(rev(OLD), ("6".into(), 0));
    assert_eq!(c.store.replicasets().count(), 2);
    // The new ReplicaSet's pods of the state are still there, by name; the old ones are gone.
    let after_new = pod_names(&c, NEW);
    assert!(
        before_new.iter().all(|n| after_new.contains(n)),
        "{before_new:?} {after_new:?}"
    );
    assert_eq!(after_new.len(), 10);
    assert!(
        before_old
            .iter()
            .all(|n| c.store.pod(&format!("shop/{n}")).is_none())
    );
    // Later writes come after the state's resourceVersions.
    let rv: u64 = d.metadata.resource_version.parse().unwrap();
    assert!(rv > 48213977, "{rv}");
    // The pod that was unscheduled went to one of the state's nodes.
    for p in c.store.pods() {
        assert!(
            p.spec.node_name.ends_with(".eu-west-1.compute.internal"),
            "{}",
            p.spec.node_name
        );
    }
    let summary = rollout_playground::scenario::summary::render(
        &rollout_playground::scenario::summary::rollouts(trace),
    );
    assert!(
        summary.starts_with("Rollout 1 at t = 0.0 s: under way in the cluster state"),
        "{summary}"
    );
}

#[test]
fn the_terminating_pod_finishes_terminating_and_the_rest_go_on_from_their_state() {
    let (s, mut c) = started();
    let term = c
        .store
        .pods()
        .find(|p| p.metadata.deletion_timestamp.is_some())
        .map(|p| p.metadata.name.to_string())
        .unwrap();
    s.run_on(&mut c).unwrap();
    // When the scheduler and the kubelets did what, from the world steps of the trace.
    let at = |what: String| {
        c.rec
            .trace
            .iter()
            .find(|s| s.changes().contains(&what))
            .map(|s| s.t)
    };
    // Its deletion began at 14:02:58 (deletionTimestamp less the 30 s grace period); with
    // world.terminationMs 1000 it is gone a second later.
    assert_eq!(at(format!("{term} is gone")), Some(1000));
    // Running since 14:02:35, its probe passed before the state's instant: Ready at once.
    assert_eq!(at("web-7c9f5b8d6f-2nd86 is Ready".into()), Some(0));
    // Creating its container on its node: it starts world.startMs later, without the scheduler.
    assert_eq!(at("web-7c9f5b8d6f-wgbb8 is Running".into()), Some(2000));
    assert_eq!(
        at("web-7c9f5b8d6f-ljmvk scheduled to ip-10-0-1-23.eu-west-1.compute.internal".into()),
        Some(0)
    );
    // A Ready pod of the state is not asked again.
    assert_eq!(at("web-7c9f5b8d6f-g5wb7 is Ready".into()), None);
}

#[test]
fn objects_a_state_cannot_continue_are_named_and_the_rest_is_kept() {
    let extra = "\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop, uid: 0b6c2d1e-1111-4aaa-8bbb-222233334444}\nspec: {selector: {app: web}, ports: [{port: 80}], clusterIP: 10.100.7.7}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-config, namespace: shop, uid: 0b6c2d1e-1111-4aaa-8bbb-222233334445}\ndata: {a: b}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: stray\n  namespace: shop\n  uid: 9f3e1d2c-5555-4ccc-9ddd-666677778888\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5f6d7c8b9a, uid: 11112222-3333-4444-8555-666677778888, controller: true}]\nspec: {containers: [{name: web, image: nginx:1.25}]}\n";
    let s = Scenario::from_manifest(&format!("{}{extra}", state()));
    let c = s.start().unwrap_or_else(|e| panic!("{e}"));
    let lines = c.restored.as_ref().unwrap().lines();
    assert!(lines.contains(&"Not continued: ConfigMap/web-config: the playground models apps/v1 Deployment and ReplicaSet, v1 Pod, Node and Service, policy/v1 PodDisruptionBudget and discovery.k8s.io/v1 EndpointSlice.".to_string()), "{lines:?}");
    // A Service is continued as its apiserver holds it (its address kept).
    let svc = c.store.list(rollout_playground::api::Kind::Service).next();
    assert!(
        matches!(svc, Some(rollout_playground::api::Object::Service(s)) if s.spec.cluster_ip.as_deref() == Some("10.100.7.7")),
        "{svc:?}"
    );
    assert!(lines.contains(&"Not continued: Pod/stray: its owner ReplicaSet/web-5f6d7c8b9a is not in the state, and the garbage collector would delete it.".to_string()), "{lines:?}");
    assert!(c.store.pod("shop/stray").is_none());
    assert_eq!(c.store.pods().count(), 15);
}

#[test]
fn a_list_with_a_broken_object_is_refused_naming_the_item_and_field() {
    let broken = state().replacen("    replicas: 6\n", "    replicas: six\n", 1);
    let e = Scenario::from_manifest(&broken)
        .start()
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("items[2] (ReplicaSet/web-7c9f5b8d6f): spec.replicas: invalid type"),
        "{e}"
    );
    // The line is the field's, in the pasted text.
    let line = broken
        .lines()
        .position(|l| l == "    replicas: six")
        .unwrap()
        + 1;
    assert!(e.contains(&format!("line {line}:")), "{e}");
}

#[test]
fn a_state_written_by_hand_is_still_created_as_a_client_creates_it() {
    // Without uids the objects are a client's, created at t = 0 with status reset as the
    // registry's PrepareForCreate does.
    let text = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec: {containers: [{name: a, image: a}]}\nstatus: {replicas: 5, readyReplicas: 5}\n";
    let c = Scenario::from_manifest(text).start().unwrap();
    let rs = c.store.replicaset("default/rs").unwrap();
    assert_eq!(rs.status.replicas, 0);
    assert!(c.restored.is_none());
    assert_eq!(c.now_ms(), 0);
}

#[test]
fn a_states_nodes_are_the_schedulers_and_keep_their_conditions() {
    // The state with its three nodes, as `kubectl get …,nodes -o yaml` adds them: each with
    // its uid, allocatable and Ready condition; node-3 cordoned.
    let mut nodes = String::new();
    for (i, ip) in [(1, "10-0-1-23"), (2, "10-0-2-41"), (3, "10-0-3-17")] {
        let cordon = if i == 3 {
            "  spec: {unschedulable: true}\n"
        } else {
            ""
        };
        nodes.push_str(&format!(
            "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: ip-{ip}.eu-west-1.compute.internal\n    uid: 0000000{i}-aaaa-4bbb-8ccc-dddddddddddd\n    resourceVersion: \"4821390{i}\"\n    creationTimestamp: \"2026-10-01T00:00:00Z\"\n{cordon}  status:\n    allocatable: {{cpu: 3920m, memory: 15Gi, pods: \"58\"}}\n    conditions:\n    - {{type: Ready, status: \"True\", reason: KubeletReady, message: kubelet is posting ready status, lastTransitionTime: \"2026-10-01T00:01:00Z\"}}\n"
        ));
    }
    let text = state().replacen(
        "apiVersion: v1\nitems:\n",
        &format!("apiVersion: v1\nitems:\n{nodes}"),
        1,
    );
    let s = Scenario::from_manifest(&text);
    let mut c = s.start().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.store.count(rollout_playground::api::Kind::Node), 3);
    let before: Vec<String> = c
        .store
        .pods()
        .map(|p| p.metadata.name.to_string())
        .collect();
    s.run_on(&mut c).unwrap();
    // The new pods went to the two nodes that take them, never to the cordoned one.
    let new: Vec<String> = c
        .store
        .pods()
        .filter(|p| !before.contains(&p.metadata.name.to_string()))
        .map(|p| p.spec.node_name.to_string())
        .collect();
    assert!(!new.is_empty());
    assert!(
        new.iter()
            .all(|n| n != "ip-10-0-3-17.eu-west-1.compute.internal"),
        "{new:?}"
    );
    let d = c.store.deployment("shop/web").unwrap();
    assert_eq!(d.status.available_replicas, 10);
}

/// A List of `n` pods as a state holds them (each its own uid), in a scenario's `objects`.
fn many_pods(n: usize) -> String {
    let mut list = String::from("  - |\n    apiVersion: v1\n    kind: List\n    items:\n");
    for i in 0..n {
        list.push_str(&format!(
            "    - {{apiVersion: v1, kind: Pod, metadata: {{name: p-{i}, uid: u-{i}}}, spec: {{containers: [{{name: a, image: a}}]}}}}\n"
        ));
    }
    format!("name: many\nobjects:\n{list}")
}

#[test]
fn a_state_past_the_budget_is_refused_before_it_is_read_naming_its_count() {
    use rollout_playground::cluster::budget::Budget;
    let text = many_pods(20_001);
    // The objects' texts are counted, together, when the run starts, naming the text whose
    // objects crossed the budget.
    let e = Scenario::parse(&text)
        .unwrap()
        .start()
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        e,
        "objects[0]: more than 20000 pods, the most the playground simulates: start from fewer or use the CLI with --max-pods"
    );
    // Two texts of 15 000 pods each: the second crosses it.
    let half = many_pods(15_000);
    let two = format!("{half}{}", half.split_once("objects:\n").unwrap().1);
    assert_eq!(
        Scenario::parse(&two)
            .unwrap()
            .start()
            .err()
            .unwrap()
            .to_string(),
        "objects[1]: more than 20000 pods, the most the playground simulates: start from fewer or use the CLI with --max-pods"
    );
    // The CLI's budget holds it (its store's check is the run's); the page's holds one fewer.
    assert!(Scenario::parse_within(&text, Budget::CLI).is_ok());
    assert!(Scenario::parse(&many_pods(20_000)).unwrap().start().is_ok());
    // The editor says so too, before reading it.
    let pasted = Scenario::parse_within(&text, Budget::CLI)
        .unwrap()
        .objects
        .remove(0);
    let checked = rollout_playground::scenario::quick::check_typed(&pasted);
    assert_eq!(checked.state, None);
    assert_eq!(
        checked.values, None,
        "refused unread, for the quick controls too"
    );
    let within = Scenario::parse(&many_pods(20_000))
        .unwrap()
        .objects
        .remove(0);
    assert!(
        rollout_playground::scenario::quick::check_typed(&within)
            .values
            .is_some()
    );
    assert!(
        checked.problems[0]
            .message
            .starts_with("more than 20000 pods,"),
        "{:?}",
        checked.problems
    );
}
