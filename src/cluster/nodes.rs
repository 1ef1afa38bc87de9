//! The world's Nodes when the scenario writes none: `world.nodes: N` is N v1 Node objects
//! (`node-1` … `node-N`), and a pasted state without Nodes has one for each node its pods
//! are bound to. Each is registered as a kubelet registers its node (`initialNode` in
//! `pkg/kubelet/kubelet_node_status.go`: the well-known labels, the capacity, the addresses,
//! the node info; its Ready condition follows, `Cluster::node_registered`), so that
//! `kubectl get nodes`, `describe node`, `cordon` and `drain` and the scheduler's filters work
//! in every world as on a cluster.

use super::Cluster;
use crate::api::quantity::Amount;
use crate::api::{ConditionStatus, Kind, Node, Object, PodCondition, Value, key_of};
use crate::controller::actor::Cx;
use crate::controller::nodelifecycle::pods_on;
use std::collections::BTreeMap;

/// A registered node's capacity, unless `world.nodeCapacity` says otherwise: room for every
/// pod a run may hold (the CLI's budget is 200 000 pods) and for what they ask, so that a
/// world that says nothing of capacity never has a pod wait for room.
pub const ROOMY: [(&str, &str); 4] = [
    ("cpu", "1000"),
    ("ephemeral-storage", "100Ti"),
    ("memory", "4Ti"),
    ("pods", "200000"),
];

/// The most nodes a world may have: the largest cluster Kubernetes is tested at ("Considerations
/// for large clusters": no more than 5 000 nodes).
pub const MAX_NODES: u32 = 5000;

/// `world.nodeCapacity` as written: each quantity a string or a number (`pods: 110`).
pub fn quantities<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, String>, D::Error> {
    use serde::Deserialize;
    use serde::de::Error;
    let written = BTreeMap::<String, Value>::deserialize(d)?;
    let mut out = BTreeMap::new();
    for (k, v) in written {
        let Some(q) = crate::api::quantity_text(&v) else {
            return Err(D::Error::custom(format!(
                "nodeCapacity.{k}: a quantity is a string or a number (e.g. \"4\", 16Gi)"
            )));
        };
        out.insert(k, q);
    }
    Ok(out)
}

/// `world.nodeCapacity` checked: each resource's quantity parses (a field error names the one
/// that does not).
pub fn check_capacity(capacity: &BTreeMap<String, String>) -> Result<(), (String, String)> {
    for (k, v) in capacity {
        if k.is_empty() || k.contains(char::is_whitespace) {
            return Err((
                format!("world.nodeCapacity.{k}"),
                "not a resource name (cpu, memory, ephemeral-storage, pods …)".into(),
            ));
        }
        if Amount::of(v).is_none_or(|a| a.milli() < 0) {
            return Err((
                format!("world.nodeCapacity.{k}"),
                format!("{v:?} is not a quantity (e.g. \"4\", 500m, 16Gi)"),
            ));
        }
    }
    Ok(())
}

/// The address of the `k`-th node registered (from 0): 10.0.0.2 on, in one /16.
fn internal_ip(k: usize) -> String {
    let k = k + 2;
    format!("10.0.{}.{}", k / 256 % 256, k % 256)
}

/// The world's nodes' names for these numbers: `node-1` ….
pub fn shorthand_names(numbers: std::ops::RangeInclusive<u32>) -> Vec<String> {
    numbers.map(|i| format!("node-{i}")).collect()
}

impl Cluster {
    /// Registers a Node of each name that the store does not hold yet, with the world's
    /// capacity (`world.nodeCapacity` over [`ROOMY`]) as both capacity and allocatable.
    pub fn register_nodes(&mut self, names: &[String]) {
        let mut capacity = serde_json::Map::new();
        for (k, v) in ROOMY {
            capacity.insert(k.into(), Value::String(v.into()));
        }
        for (k, v) in &self.sim.world.node_capacity {
            capacity.insert(k.clone(), Value::String(v.clone()));
        }
        let version = self.sim.rsc.gates.release.git_version();
        let first = self.sim.store.count(crate::api::Kind::Node);
        for (i, name) in names.iter().enumerate() {
            let key = crate::api::key_of("", name);
            if self.sim.store.get(crate::api::Kind::Node, &key).is_some() {
                continue;
            }
            let node = serde_json::json!({
                "apiVersion": "v1",
                "kind": "Node",
                "metadata": {
                    "name": name,
                    "labels": {
                        "beta.kubernetes.io/arch": "amd64",
                        "beta.kubernetes.io/os": "linux",
                        "kubernetes.io/arch": "amd64",
                        "kubernetes.io/hostname": name,
                        "kubernetes.io/os": "linux",
                    },
                },
                "status": {
                    "capacity": capacity,
                    "allocatable": capacity,
                    "addresses": [
                        {"type": "InternalIP", "address": internal_ip(first + i)},
                        {"type": "Hostname", "address": name},
                    ],
                    "nodeInfo": {
                        "architecture": "amd64",
                        "kubeletVersion": version,
                        "operatingSystem": "linux",
                    },
                },
            });
            let node: crate::api::Node =
                crate::api::codec::from_value(node).expect("a registered node decodes");
            // (A name the store holds is skipped above; a name the apiserver refuses is one a
            // pod's spec.nodeName held, which validation refused before.)
            let _ = self.create(Object::Node(Box::new(node)));
        }
    }

    /// `world.nodes` raised by a step: the new nodes register (`node-<k>` for each k up to
    /// the new count that the store does not hold). Lowered, it is refused: a node leaves a
    /// cluster by `kubectl drain` and `kubectl delete node`, or stops with `world.nodesDown`.
    pub(super) fn nodes_counted(&mut self, before: u32) -> Vec<String> {
        let now = self.sim.world.nodes;
        if now > MAX_NODES {
            self.sim.world.nodes = before;
            return vec![format!(
                "world.nodes: {now} is more nodes than a cluster has (at most {MAX_NODES})"
            )];
        }
        if now < before {
            self.sim.world.nodes = before;
            return vec![format!(
                "world.nodes: {now} is fewer than the {before} nodes registered; a step adds nodes but takes none away (world.nodesDown stops a node's kubelet; kubectl drain empties it)"
            )];
        }
        self.register_nodes(&shorthand_names(before + 1..=now));
        vec![]
    }

    /// A node written without a Ready condition: its kubelet posts one, as it does once it has
    /// registered the node.
    pub(super) fn node_registered(&mut self, n: &Node) {
        if n.status.conditions.iter().any(|c| c.type_ == "Ready") {
            return;
        }
        let mut n = n.clone();
        n.status.conditions.push(PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: Some(self.now()),
            reason: "KubeletReady".into(),
            message: "kubelet is posting ready status".into(),
        });
        let _ = self.sim.store.update_status(Object::Node(Box::new(n)));
    }

    /// `world.nodesDown` changed from `before`: the node lifecycle controller looks at a node
    /// newly down a grace period later; one back up reports Ready again at once. A name that
    /// is not a Node is an error to show on the step.
    pub(super) fn nodes_changed(&mut self, before: &[String]) -> Vec<String> {
        let mut unknown = vec![];
        for name in self.sim.world.nodes_down.clone() {
            let sim = &mut self.sim;
            let Some(Object::Node(n)) = sim.store.get(Kind::Node, &key_of("", &name)).cloned()
            else {
                unknown.push(name);
                continue;
            };
            if !before.contains(&name) {
                sim.lifecycle.kubelet_stopped(&mut cx!(sim), &n);
            }
        }
        self.sim.world.nodes_down.retain(|n| !unknown.contains(n));
        let errors = unknown
            .iter()
            .map(|name| {
                format!(
                    "world.nodesDown: {name:?} is not a Node (kubectl get nodes lists the world's nodes)"
                )
            })
            .collect();
        for name in before {
            if !self.sim.world.nodes_down.contains(name) {
                self.node_back(name);
            }
        }
        errors
    }

    /// A node's kubelet reports again: the node lifecycle controller's part (its conditions,
    /// its taints), then the kubelet takes each of its pods up from where it stands (a
    /// terminating one finishes).
    fn node_back(&mut self, name: &str) {
        let sim = &mut self.sim;
        if !sim.lifecycle.node_back(&mut cx!(sim), name) {
            return;
        }
        let (now, now_ms) = (self.now(), self.now_ms());
        let pods = pods_on(&self.sim.store, name);
        for p in pods {
            let mut seen = p.clone();
            // Its kubelet reports a running container's readiness afresh.
            let ready = p.status.conditions.iter().find(|c| c.type_ == "Ready");
            if ready.is_some_and(|c| c.status == "False")
                && p.status.container_statuses.iter().all(|s| s.ready)
                && !p.status.container_statuses.is_empty()
            {
                seen.status
                    .set_condition("Ready", ConditionStatus::True, now);
                let _ = self.sim.store.update_status(Object::Pod(seen.clone()));
            }
            if let Some((after, step)) = super::kubelet::next_for_seen(&seen, &self.sim.world, now)
            {
                let timer = (p.metadata.key(), p.metadata.uid.clone(), step);
                self.sim.timers.add(now_ms + after, timer);
            }
        }
    }
}
