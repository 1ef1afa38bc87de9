//! The world's Nodes when the scenario writes none: `world.nodes: N` is N v1 Node objects
//! (`node-1` … `node-N`), and a pasted state without Nodes has one for each node its pods
//! are bound to. Each is registered as a kubelet registers its node (`initialNode` in
//! `pkg/kubelet/kubelet_node_status.go`: the well-known labels, the capacity, the addresses,
//! the node info; its Ready condition follows, `kubelet::saw`), so that
//! `kubectl get nodes`, `describe node`, `cordon` and `drain` and the scheduler's filters work
//! in every world as on a cluster.

use super::Cluster;
use crate::api::quantity::Amount;
use crate::api::{Object, Value};
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
}
