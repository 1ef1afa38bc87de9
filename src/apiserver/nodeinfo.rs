//! The scheduler cache's view of each node (`NodeInfo` in `pkg/scheduler/framework`): what the
//! pods bound to it request and what it can hold, kept by the store with every write, so that
//! placing a pod never sums the cluster's pods or parses a Node's quantities again.

use crate::api::resources::{Allocatable, Usage};
use crate::api::{Object, Pod, Shared, Str};
use rustc_hash::FxHashMap;

#[derive(Default, Clone)]
pub struct NodeInfos {
    /// node name → what its bound, unfinished pods request.
    usage: FxHashMap<Str, Usage>,
    /// node name → its allocatable amounts, parsed once per Node write.
    allocatable: FxHashMap<Str, Allocatable>,
}

/// The pod an object is, if it counts on its node.
fn counted(o: Option<&Object>) -> Option<&Pod> {
    match o {
        Some(Object::Pod(p)) if Usage::counts(p) => Some(p),
        _ => None,
    }
}

impl NodeInfos {
    pub fn usage(&self, node: &str) -> Option<&Usage> {
        self.usage.get(node)
    }

    pub fn allocatable(&self, node: &str) -> Option<&Allocatable> {
        self.allocatable.get(node)
    }

    /// An object written (`old` → `new`; `None` for created or removed). A pod's requests
    /// leave the node it counted on and join the one it counts on now; most pod writes
    /// (status) keep its node, spec and whether it has finished, and change nothing here. A
    /// Node's allocatable is parsed anew, or dropped with it.
    pub fn written(&mut self, old: Option<&Object>, new: Option<&Object>) {
        match (old, new) {
            (_, Some(Object::Node(n))) => {
                self.allocatable
                    .insert(n.metadata.name.clone(), Allocatable::of(n));
                return;
            }
            (Some(Object::Node(n)), None) => {
                self.allocatable.remove(n.metadata.name.as_str());
                return;
            }
            _ => {}
        }
        let (was, is) = (counted(old), counted(new));
        if let (Some(a), Some(b)) = (was, is)
            && a.spec.node_name == b.spec.node_name
            && Shared::same(&a.spec, &b.spec)
        {
            return;
        }
        if let Some(p) = was
            && let Some(u) = self.usage.get_mut(p.spec.node_name.as_str())
        {
            u.tally(p, false);
            if u.pods == 0 {
                self.usage.remove(p.spec.node_name.as_str());
            }
        }
        if let Some(p) = is {
            if !self.usage.contains_key(p.spec.node_name.as_str()) {
                self.usage
                    .insert(p.spec.node_name.clone(), Usage::default());
            }
            let u = self.usage.get_mut(p.spec.node_name.as_str());
            u.expect("just inserted").tally(p, true);
        }
    }
}
