//! What a pod asks of a node, as the scheduler and `kubectl describe node` sum it
//! (`resource.PodRequests` in `k8s.io/component-helpers`), and what the pods bound to one
//! node ask in all (the scheduler cache's `NodeInfo.Requested`), which the store keeps up to
//! date with every pod write so that placing a pod never sums the cluster's pods again.

use super::quantity::Amount;
use super::{Node, Pod, Value, quantity_text};
use std::collections::BTreeMap;

/// A pod's requests: its containers' added up, at least each init container's, plus the
/// pod's overhead.
pub fn pod_requests(p: &Pod) -> BTreeMap<String, Amount> {
    pod_amounts(p, "requests")
}

/// A pod's limits, summed as its requests are.
pub fn pod_limits(p: &Pod) -> BTreeMap<String, Amount> {
    pod_amounts(p, "limits")
}

/// One container's `resources.<which>`, parsed (a quantity that does not parse counts as
/// none: validation refused it before it was stored).
fn container_amounts(resources: Option<&Value>, which: &str) -> BTreeMap<String, Amount> {
    let mut out = BTreeMap::new();
    let m = resources
        .and_then(|r| r.get(which))
        .and_then(Value::as_object);
    for (k, v) in m.into_iter().flatten() {
        if let Some(a) = quantity_text(v).as_deref().and_then(Amount::of) {
            out.insert(k.clone(), a);
        }
    }
    out
}

fn pod_amounts(p: &Pod, which: &str) -> BTreeMap<String, Amount> {
    let mut sum: BTreeMap<String, Amount> = BTreeMap::new();
    for c in p.spec.containers.iter() {
        for (k, a) in container_amounts(c.extra.get("resources"), which) {
            sum.entry(k).or_default().add(a);
        }
    }
    let inits = p.spec.extra.get("initContainers").and_then(Value::as_array);
    for c in inits.into_iter().flatten() {
        for (k, a) in container_amounts(c.get("resources"), which) {
            let e = sum.entry(k).or_default();
            *e = e.max(a);
        }
    }
    if let Some(m) = p.spec.extra.get("overhead").and_then(Value::as_object) {
        for (k, v) in m {
            if let Some(a) = quantity_text(v).as_deref().and_then(Amount::of)
                && (which == "requests" || sum.contains_key(k))
            {
                sum.entry(k.clone()).or_default().add(a);
            }
        }
    }
    sum
}

/// What the pods bound to a node request, summed, and how many they are: the pods that have
/// not finished (a terminating pod still holds its requests until it is gone).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Usage {
    pub pods: i128,
    pub requested: BTreeMap<String, Amount>,
}

impl Usage {
    /// Whether a pod counts on its node: bound, and not Succeeded or Failed.
    pub fn counts(p: &Pod) -> bool {
        !p.spec.node_name.is_empty() && !p.is_terminal()
    }

    /// The pod's requests added (`add`) or taken away.
    pub fn tally(&mut self, p: &Pod, add: bool) {
        self.pods += if add { 1 } else { -1 };
        for (k, a) in pod_requests(p) {
            let e = self.requested.entry(k).or_default();
            if add {
                e.add(a);
            } else {
                e.sub(a);
            }
        }
    }
}

/// The kubelet's default `--max-pods`, for a Node whose allocatable does not say.
pub const DEFAULT_MAX_PODS: i128 = 110;

/// What a Node can hold of what the scheduler checks (`NodeInfo.Allocatable`): parsed once
/// per Node write, not at every pod placed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Allocatable {
    pub pods: i128,
    /// In thousandths of a CPU.
    pub milli_cpu: i128,
    pub memory: i128,
    pub ephemeral_storage: i128,
}

impl Allocatable {
    /// The Node's `status.allocatable` (0 for a resource it does not name; the pods limit
    /// defaults to the kubelet's 110).
    pub fn of(n: &Node) -> Allocatable {
        let amount = |r: &str| n.allocatable(r).as_deref().and_then(Amount::of);
        Allocatable {
            pods: amount("pods").map_or(DEFAULT_MAX_PODS, Amount::units),
            milli_cpu: amount("cpu").map_or(0, Amount::milli),
            memory: amount("memory").map_or(0, Amount::units),
            ephemeral_storage: amount("ephemeral-storage").map_or(0, Amount::units),
        }
    }

    /// A resource's amount, cpu in thousandths (as the scheduler compares them).
    pub fn get(&self, resource: &str) -> i128 {
        match resource {
            "pods" => self.pods,
            "cpu" => self.milli_cpu,
            "memory" => self.memory,
            "ephemeral-storage" => self.ephemeral_storage,
            _ => 0,
        }
    }
}
