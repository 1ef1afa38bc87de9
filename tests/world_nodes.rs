//! Every world has Node objects (issue 45, item 3): `world.nodes: N` registers N v1 Nodes,
//! Ready, with room for every pod unless `world.nodeCapacity` gives a capacity; a pasted state
//! without Nodes has one for each node its pods are bound to; a step's `world.nodes` adds
//! nodes; and the store's per-node sums, which the scheduler reads, are what summing the pods
//! afresh gives.

use rollout_playground::api::resources::{Usage, pod_requests};
use rollout_playground::api::{Kind, Object};
use rollout_playground::cluster::Cluster;
use rollout_playground::kubectl;
use rollout_playground::scenario::Scenario;
use std::collections::BTreeMap;

/// A Deployment of `replicas` pods requesting `cpu` each, in a world of `world`, with
/// `steps`, run until settled.
fn scenario(world: &str, replicas: u32, cpu: &str, steps: &str) -> String {
    format!(
        "name: t\nworld: {world}\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: web}}\n    spec:\n      replicas: {replicas}\n      selector: {{matchLabels: {{app: web}}}}\n      template:\n        metadata: {{labels: {{app: web}}}}\n        spec: {{containers: [{{name: app, image: \"app:1\", resources: {{requests: {{cpu: \"{cpu}\"}}}}}}]}}\n{steps}until: settled\n"
    )
}

fn run(text: &str) -> Cluster {
    let s = Scenario::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut c = s.start().unwrap_or_else(|e| panic!("{e}\n{text}"));
    s.run_on(&mut c).unwrap();
    c
}

fn bound(c: &Cluster) -> usize {
    c.store
        .pods()
        .filter(|p| !p.spec.node_name.is_empty())
        .count()
}

#[test]
fn the_default_world_registers_three_ready_nodes_as_kubelets_do() {
    let mut c = run(&scenario("{}", 6, "100m", ""));
    assert_eq!(c.store.count(Kind::Node), 3);
    let wide = kubectl::run(&mut c, "kubectl get nodes -o wide").unwrap();
    let rows: Vec<&str> = wide.lines().collect();
    assert!(
        rows[0].starts_with("NAME     STATUS   ROLES    AGE"),
        "{wide}"
    );
    assert!(
        rows[1].starts_with("node-1   Ready    <none>") && rows[1].contains("v1.37.0   10.0.0.2"),
        "{wide}"
    );
    let described = kubectl::run(&mut c, "kubectl describe node node-2").unwrap();
    for want in [
        "kubernetes.io/hostname=node-2",
        // (Quantities as kubectl prints them: 1000 is 1k.)
        "Capacity:\n  cpu:                1k\n  ephemeral-storage:  100Ti\n  memory:             4Ti\n  pods:               200k\n",
        "Non-terminated Pods:  (2 in total)",
    ] {
        assert!(described.contains(want), "{want}:\n{described}");
    }
    assert_eq!(bound(&c), 6, "the scheduler spreads them over the three");
}

/// `world.nodeCapacity` is the registered nodes' capacity: 2 CPUs each hold 6 pods of one
/// CPU, and the other 3 wait Pending in the scheduler's words.
#[test]
fn a_node_capacity_makes_pods_wait_for_room() {
    let c = run(&scenario(
        "{nodeCapacity: {cpu: \"2\", pods: 110}}",
        9,
        "1",
        "",
    ));
    assert_eq!(bound(&c), 6);
    let pending: Vec<_> = c
        .store
        .pods()
        .filter(|p| p.spec.node_name.is_empty())
        .collect();
    assert_eq!(pending.len(), 3);
    let cond = pending[0]
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "PodScheduled")
        .unwrap();
    assert!(
        cond.message
            .starts_with("0/3 nodes are available: 3 Insufficient cpu."),
        "{}",
        cond.message
    );
}

#[test]
fn a_bad_node_world_is_refused_naming_the_field() {
    let cases = [
        (
            "{nodeCapacity: {cpu: lots}}",
            "world.nodeCapacity.cpu",
            "\"lots\" is not a quantity",
        ),
        (
            "{nodeCapacity: {cpu: [1]}}",
            "world",
            "nodeCapacity.cpu: a quantity is a string or a number",
        ),
        (
            "{nodes: 5001}",
            "world.nodes",
            "5001 is more nodes than a cluster has (at most 5000)",
        ),
    ];
    for (world, field, want) in cases {
        let text = scenario(world, 1, "1", "");
        let e = Scenario::parse(&text).and_then(|s| s.start().map(|_| ()));
        let e = e.expect_err(world).to_string();
        assert!(e.contains(field) && e.contains(want), "{world}: {e}");
    }
}

/// No Nodes at all: the pods wait with the scheduler's own words.
#[test]
fn a_world_of_no_nodes_schedules_nothing() {
    let c = run(&scenario("{nodes: 0}", 2, "1", ""));
    assert_eq!(c.store.count(Kind::Node), 0);
    let p = c.store.pods().next().unwrap();
    let cond = p
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "PodScheduled");
    assert_eq!(
        cond.map(|c| c.message.as_str()),
        Some("no nodes available to schedule pods")
    );
}

/// A step's `world.nodes` registers more nodes from its instant, and the pods waiting for
/// room are scheduled onto them; one that lowers it is refused on the step.
#[test]
fn a_step_adds_nodes_and_takes_none_away() {
    let steps = "steps:\n  - {at: 10s, world: {nodes: 5}}\n  - {at: 20s, world: {nodes: 2}}\n";
    let text = scenario("{nodes: 3, nodeCapacity: {cpu: \"2\"}}", 10, "1", steps);
    let s = Scenario::parse(&text).unwrap();
    let session = rollout_playground::scenario::session::Session::new(s).unwrap();
    let c = session.cluster_at(session.len() - 1).unwrap();
    assert_eq!(c.store.count(Kind::Node), 5);
    assert_eq!(
        bound(&c),
        10,
        "two more nodes of 2 CPUs hold the 4 that waited"
    );
    let errors: Vec<&String> = session
        .trace
        .iter()
        .flat_map(|t| t.errors().iter())
        .collect();
    assert!(
        errors.iter().any(|e| e.starts_with(
            "world.nodes: 2 is fewer than the 5 nodes registered; a step adds nodes but takes none away"
        )),
        "{errors:?}"
    );
}

/// A pasted state without Node objects: a Node for each node its pods are bound to, which
/// kubectl lists.
#[test]
fn a_pasted_state_without_nodes_registers_its_pods_nodes() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/pasted-mid-rollout.yaml"
    ))
    .unwrap();
    let s = Scenario::parse(&text).unwrap();
    let mut c = s.start().unwrap();
    let listed = kubectl::run(&mut c, "kubectl get nodes").unwrap();
    let names: Vec<&str> = listed
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut bound_to: Vec<String> = c
        .store
        .pods()
        .map(|p| p.spec.node_name.to_string())
        .filter(|n| !n.is_empty())
        .collect();
    bound_to.sort();
    bound_to.dedup();
    assert_eq!(names, bound_to, "{listed}");
    assert!(!names.is_empty());
}

/// What each node's bound, unfinished pods request, summed afresh.
fn fresh_usage(c: &Cluster) -> BTreeMap<String, Usage> {
    let mut out: BTreeMap<String, Usage> = BTreeMap::new();
    for p in c.store.pods().filter(|p| Usage::counts(p)) {
        out.entry(p.spec.node_name.to_string())
            .or_default()
            .tally(p, true);
    }
    out
}

/// The store's running sums are the fresh ones at every step of a rolling update that binds,
/// deletes and finishes pods, on Node objects and on registered ones.
#[test]
fn the_stores_node_sums_are_a_fresh_sum_at_every_step() {
    let rolling = scenario(
        "{nodeCapacity: {cpu: \"5\"}}",
        12,
        "500m",
        "steps:\n  - {at: 10s, run: kubectl set image deployment/web app=app:2}\n  - {at: 20s, run: kubectl scale deployment/web --replicas=4}\n",
    );
    let s = Scenario::parse(&rolling).unwrap();
    let session = rollout_playground::scenario::session::Session::new(s).unwrap();
    let mut checked = 0;
    for i in (0..session.len()).step_by(7) {
        let c = session.cluster_at(i).unwrap();
        let fresh = fresh_usage(&c);
        for o in c.store.list(Kind::Node) {
            let Object::Node(n) = o else { continue };
            let name = n.metadata.name.as_str();
            let kept = c.store.node_usage(name).cloned().unwrap_or_default();
            let want = fresh.get(name).cloned().unwrap_or_default();
            assert_eq!(kept.pods, want.pods, "step {i}, {name}");
            let milli = |u: &Usage| u.requested.get("cpu").map_or(0, |a| a.milli());
            assert_eq!(milli(&kept), milli(&want), "step {i}, {name}");
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked}");
    // (The sums ask what a pod requests as the scheduler does.)
    let c = session.cluster_at(session.len() - 1).unwrap();
    let p = c.store.pods().next().unwrap();
    assert_eq!(pod_requests(p)["cpu"].milli(), 500);
}
