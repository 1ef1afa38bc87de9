//! Nodes with capacity (issue 35, item 2): `v1` Node objects, kube-scheduler's filters on
//! them, its FailedScheduling words for a pod that fits nowhere, and `kubectl get nodes`,
//! `describe node`, `cordon` and `uncordon`.

use rollout_playground::api::Object;
use rollout_playground::cluster::Cluster;
use rollout_playground::kubectl;
use rollout_playground::scenario::Scenario;

/// Three nodes of 4 CPUs and a Deployment of 12 pods requesting 1 CPU each, with this
/// rolling update strategy, updated at 10 s; the run goes on to `until`.
fn full_cluster(surge: &str, unavailable: &str, until: &str) -> String {
    let mut s = String::from("name: full\nobjects:\n");
    for i in 1..=3 {
        s.push_str(&format!("  - |\n    apiVersion: v1\n    kind: Node\n    metadata: {{name: node-{i}}}\n    status: {{allocatable: {{cpu: \"4\", memory: 16Gi, pods: \"110\"}}}}\n"));
    }
    s.push_str(&format!("  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: web}}\n    spec:\n      replicas: 12\n      selector: {{matchLabels: {{app: web}}}}\n      strategy: {{rollingUpdate: {{maxSurge: {surge}, maxUnavailable: {unavailable}}}}}\n      template:\n        metadata: {{labels: {{app: web}}}}\n        spec: {{containers: [{{name: app, image: \"app:1\", resources: {{requests: {{cpu: \"1\"}}}}}}]}}\nsteps:\n  - {{at: 10s, run: kubectl set image deployment/web app=app:2}}\nuntil: {until}\n"));
    s
}

/// The pod's PodScheduled condition.
fn scheduled(p: &rollout_playground::api::Pod) -> &rollout_playground::api::PodCondition {
    let mut conds = p.status.conditions.iter();
    conds.find(|c| c.type_ == "PodScheduled").unwrap()
}

fn run(text: &str) -> Cluster {
    let s = Scenario::parse(text).unwrap_or_else(|e| panic!("{e}"));
    let mut c = s.start().unwrap();
    s.run_on(&mut c).unwrap();
    c
}

fn pods_of_image<'a>(
    c: &'a Cluster,
    image: &'a str,
) -> impl Iterator<Item = &'a rollout_playground::api::Pod> + 'a {
    c.store
        .pods()
        .filter(move |p| p.spec.containers[0].image.as_str() == image)
}

#[test]
fn surge_pods_that_fit_nowhere_stay_pending_and_the_rollout_waits() {
    let mut c = run(&full_cluster("25%", "0", "300s"));
    let new: Vec<_> = pods_of_image(&c, "app:2").collect();
    assert_eq!(new.len(), 3, "maxSurge 25% of 12");
    for p in &new {
        assert!(p.spec.node_name.is_empty(), "{} was bound", p.metadata.name);
        assert_eq!(p.status.phase.as_str(), "Pending");
        let cond = scheduled(p);
        assert_eq!(
            (cond.status.as_str(), cond.reason.as_str()),
            ("False", "Unschedulable")
        );
    }
    assert_eq!(pods_of_image(&c, "app:1").count(), 12, "no old pod may go");
    let d = c.store.deployment("default/web").unwrap();
    assert_eq!(
        (d.status.updated_replicas, d.status.available_replicas),
        (3, 12)
    );
    let name = new[0].metadata.name.to_string();
    let out = kubectl::run(&mut c, &format!("kubectl describe pod {name}")).unwrap();
    assert!(
        out.contains("Warning  FailedScheduling  ")
            && out.contains("default-scheduler  0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."),
        "{out}"
    );
    let out = kubectl::run(&mut c, "kubectl get pods").unwrap();
    assert_eq!(
        out.lines().filter(|l| l.contains(" Pending ")).count(),
        3,
        "{out}"
    );
}

#[test]
fn the_same_rollout_with_max_unavailable_1_completes() {
    let c = run(&full_cluster("25%", "1", "settled"));
    let d = c.store.deployment("default/web").unwrap();
    assert_eq!(
        (d.status.updated_replicas, d.status.available_replicas),
        (12, 12)
    );
    assert_eq!(pods_of_image(&c, "app:2").count(), 12);
    assert_eq!(pods_of_image(&c, "app:1").count(), 0);
    // Never more than 12 CPUs' worth on the nodes: 4 bound pods a node at most.
    for n in 1..=3 {
        let on = c
            .store
            .pods()
            .filter(|p| p.spec.node_name == format!("node-{n}").as_str());
        assert!(on.count() <= 4);
    }
}

#[test]
fn the_1_33_scheduler_words_it_without_the_dra_plugin() {
    let text = full_cluster("25%", "0", "60s").replace(
        "name: full\n",
        "name: full\nworld: {kubernetes: \"1.33\"}\n",
    );
    let c = run(&text);
    let p = pods_of_image(&c, "app:2").next().unwrap();
    let cond = scheduled(p);
    assert_eq!(
        cond.message.as_str(),
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
    );
}

#[test]
fn kubectl_lists_cordons_and_describes_nodes() {
    let mut c = run(&full_cluster("25%", "1", "5s"));
    let get = kubectl::run(&mut c, "kubectl get nodes").unwrap();
    let lines: Vec<&str> = get.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            "NAME     STATUS   ROLES    AGE   VERSION",
            "node-1   Ready    <none>   10s",
            "node-2   Ready    <none>   10s",
            "node-3   Ready    <none>   10s"
        ]
    );
    assert_eq!(
        kubectl::run(&mut c, "kubectl cordon node-2").unwrap(),
        "node/node-2 cordoned"
    );
    assert_eq!(
        kubectl::run(&mut c, "kubectl cordon node-2").unwrap(),
        "node/node-2 already cordoned"
    );
    let get = kubectl::run(&mut c, "kubectl get no node-2").unwrap();
    assert!(
        get.contains("node-2   Ready,SchedulingDisabled   <none>"),
        "{get}"
    );
    let e = kubectl::run(&mut c, "kubectl cordon node-9")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "Error from server (NotFound): nodes \"node-9\" not found"
    );
    assert_eq!(
        kubectl::run(&mut c, "kubectl uncordon node-2").unwrap(),
        "node/node-2 uncordoned"
    );
    let Some(Object::Node(n)) = c.store.get(rollout_playground::api::Kind::Node, "/node-2") else {
        panic!("node-2");
    };
    assert!(!n.spec.unschedulable);
    // Several nodes at once, as kubectl's `DrainCmdOptions.Complete` allows; a name and a
    // selector together, or neither, are refused in its words.
    assert_eq!(
        kubectl::run(&mut c, "kubectl cordon node-1 node-3").unwrap(),
        "node/node-1 cordoned\nnode/node-3 cordoned"
    );
    assert_eq!(
        kubectl::run(&mut c, "kubectl uncordon node-1 node-2 node-3").unwrap(),
        "node/node-1 uncordoned\nnode/node-2 already uncordoned\nnode/node-3 uncordoned"
    );
    for (cmd, err) in [
        (
            "kubectl cordon",
            "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples",
        ),
        (
            "kubectl uncordon node-1 -l a=b",
            "error: cannot specify both a node name and a --selector option",
        ),
    ] {
        assert_eq!(kubectl::run(&mut c, cmd).unwrap_err().to_string(), err);
    }
    let d = kubectl::run(&mut c, "kubectl describe node node-1").unwrap();
    assert!(
        d.contains(
            "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n"
        ),
        "{d}"
    );
    assert!(d.contains("  cpu                4 (100%)  0 (0%)\n"), "{d}");
    assert!(d.contains("Non-terminated Pods:"), "{d}");
}

#[test]
fn a_cordoned_node_takes_no_new_pod() {
    let text = full_cluster("25%", "1", "settled").replace(
        "  - {at: 10s, run: kubectl set image deployment/web app=app:2}\n",
        "  - {at: 5s, run: kubectl cordon node-3}\n  - {at: 10s, run: kubectl set image deployment/web app=app:2}\n",
    );
    let c = run(&text);
    let new: Vec<_> = pods_of_image(&c, "app:2").collect();
    assert!(new.iter().all(|p| p.spec.node_name != "node-3"));
    // The pods that wait are told why on each node: cordoned, or full.
    let waiting = new.iter().find(|p| p.spec.node_name.is_empty()).unwrap();
    let cond = scheduled(waiting);
    assert_eq!(
        cond.message.as_str(),
        "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
    );
}

#[test]
fn a_node_without_allocatable_is_refused_naming_the_field() {
    let text = "name: bad\nobjects:\n  - |\n    apiVersion: v1\n    kind: Node\n    metadata: {name: n1}\n";
    let e = Scenario::parse(text)
        .unwrap()
        .start()
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains(
            "objects[0] (Node/n1): Node \"n1\" is invalid: status.allocatable: Required value"
        ),
        "{e}"
    );
    let text = "name: bad\nobjects:\n  - |\n    apiVersion: v1\n    kind: Node\n    metadata: {name: n1}\n    spec: {taints: [{key: k, effect: NoWay}]}\n    status: {allocatable: {cpu: lots}}\n";
    let e = Scenario::parse(text)
        .unwrap()
        .start()
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("spec.taints[0].effect: Unsupported value: \"NoWay\""),
        "{e}"
    );
    assert!(
        e.contains("status.allocatable[cpu]: Invalid value: \"lots\""),
        "{e}"
    );
}

/// Three nodes of 4 CPUs and 6 pods of 1 CPU, two on each; node-2's kubelet stops at 10 s and
/// comes back at 420 s.
fn node_down_scenario(until: &str) -> String {
    let mut s = String::from("name: node-down\nobjects:\n");
    for i in 1..=3 {
        s.push_str(&format!("  - |\n    apiVersion: v1\n    kind: Node\n    metadata: {{name: node-{i}}}\n    status: {{allocatable: {{cpu: \"4\", memory: 16Gi, pods: \"110\"}}}}\n"));
    }
    s.push_str(&format!("  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: web}}\n    spec:\n      replicas: 6\n      selector: {{matchLabels: {{app: web}}}}\n      template:\n        metadata: {{labels: {{app: web}}}}\n        spec: {{containers: [{{name: app, image: \"app:1\", resources: {{requests: {{cpu: \"1\"}}}}}}]}}\nsteps:\n  - {{at: 10s, world: {{nodesDown: [node-2]}}}}\n  - {{at: 420s, world: {{nodesDown: []}}}}\nuntil: {until}\n"));
    s
}

#[test]
fn a_node_that_stops_reporting_is_tainted_and_its_pods_evicted_after_300_s() {
    let s = Scenario::parse(&node_down_scenario("settled")).unwrap();
    let mut c = s.start().unwrap();
    s.run_until(&mut c, 0, 1).unwrap();
    let on2: Vec<String> = c
        .store
        .pods()
        .filter(|p| p.spec.node_name == "node-2")
        .map(|p| p.metadata.name.to_string())
        .collect();
    assert_eq!(on2.len(), 2, "LeastAllocated spreads 6 pods two to a node");
    s.run_on(&mut c).unwrap();
    let at = |what: &str| {
        c.rec
            .trace
            .iter()
            .find(|st| st.changes().iter().any(|x| x.contains(what)))
            .map(|st| st.t)
    };
    // The grace period (50 s) after the kubelet stopped: Unknown, tainted, pods not Ready.
    assert_eq!(
        at("node-2: its kubelet stopped posting status"),
        Some(60_000)
    );
    // 300 s of toleration later, evicted; they stay Terminating until the node is back.
    assert_eq!(
        at(&format!("{} evicted from its lost node", on2[0])),
        Some(360_000)
    );
    // (Its deletion began long before: the kubelet, back, finishes it at once.)
    assert_eq!(at(&format!("{} is gone", on2[0])), Some(420_000));
    // At 400 s, before it is back.
    let text = node_down_scenario("400s").replace("  - {at: 420s, world: {nodesDown: []}}\n", "");
    let s400 = Scenario::parse(&text).unwrap();
    let mut c2 = s400.start().unwrap();
    s400.run_on(&mut c2).unwrap();
    let out = kubectl::run(&mut c2, "kubectl get nodes").unwrap();
    // Unknown reads NotReady; a taint is not a cordon, so no SchedulingDisabled.
    assert!(out.contains("node-2   NotReady   <none>"), "{out}");
    let pods = kubectl::run(&mut c2, "kubectl get pods").unwrap();
    assert_eq!(
        pods.lines().filter(|l| l.contains("Terminating")).count(),
        2,
        "{pods}"
    );
    // Their replacements run on the two nodes left.
    let running: Vec<_> = c2
        .store
        .pods()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .collect();
    assert_eq!(running.len(), 6);
    assert!(running.iter().all(|p| p.spec.node_name != "node-2"));
    let d = kubectl::run(&mut c2, &format!("kubectl describe pod {}", on2[0])).unwrap();
    assert!(d.contains("Warning  NodeNotReady"), "{d}");
    // The DefaultTolerationSeconds admission plugin's tolerations, which decided the 300 s.
    assert!(
        d.contains("node.kubernetes.io/unreachable:NoExecute op=Exists for 300s"),
        "{d}"
    );
    assert!(
        d.contains(&format!(
            "taint-eviction-controller  Marking for deletion Pod default/{}",
            on2[0]
        )),
        "{d}"
    );
    let n = kubectl::run(&mut c2, "kubectl describe node node-2").unwrap();
    assert!(
        n.contains("node.kubernetes.io/unreachable:NoExecute"),
        "{n}"
    );
    assert!(n.contains("Node node-2 status is now: NodeNotReady"), "{n}");
    // Back at 420 s: Ready, untainted; its terminating pods finish.
    let end = kubectl::run(&mut c, "kubectl get nodes node-2").unwrap();
    assert!(end.contains("node-2   Ready "), "{end}");
    assert_eq!(c.store.pods().count(), 6);
}

/// A node back from being lost posts each condition as a healthy kubelet does
/// (`pkg/kubelet/nodestatus/setters.go`), the pressure ones included.
#[test]
fn a_node_back_posts_the_kubelets_own_conditions() {
    let text = node_down_scenario("settled").replace(
        "status: {allocatable:",
        "status: {conditions: [{type: MemoryPressure, status: \"False\"}, {type: DiskPressure, status: \"False\"}, {type: PIDPressure, status: \"False\"}, {type: NetworkUnavailable, status: \"Unknown\"}], allocatable:",
    );
    let s = Scenario::parse(&text).unwrap();
    let mut c = s.start().unwrap();
    s.run_on(&mut c).unwrap();
    let n = kubectl::run(&mut c, "kubectl get node node-2 -o json").unwrap();
    let v: serde_json::Value = serde_json::from_str(&n).unwrap();
    let mut conditions: Vec<String> = v["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{} {} {} {}",
                c["type"], c["status"], c["reason"], c["message"]
            )
            .replace('"', "")
        })
        .collect();
    conditions.sort();
    assert_eq!(
        conditions,
        [
            "DiskPressure False KubeletHasNoDiskPressure kubelet has no disk pressure",
            "MemoryPressure False KubeletHasSufficientMemory kubelet has sufficient memory available",
            "NetworkUnavailable Unknown null null",
            "PIDPressure False KubeletHasSufficientPID kubelet has sufficient PID available",
            "Ready True KubeletReady kubelet is posting ready status",
        ]
    );
}

#[test]
fn a_node_down_must_be_a_node() {
    let text = node_down_scenario("settled").replace("nodesDown: [node-2]", "nodesDown: [node-9]");
    let s = Scenario::parse(&text).unwrap();
    let trace = s.run().unwrap();
    let step = trace.iter().find(|t| !t.errors().is_empty()).unwrap();
    assert_eq!(
        step.errors(),
        ["world.nodesDown: \"node-9\" is not a Node (kubectl get nodes lists the world's nodes)"]
    );
    let text = node_down_scenario("settled").replace(
        "name: node-down\n",
        "name: node-down\nworld: {nodesDown: [node-7]}\n",
    );
    let e = Scenario::parse(&text)
        .unwrap()
        .start()
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("world.nodesDown: \"node-7\" is not a Node"),
        "{e}"
    );
}
