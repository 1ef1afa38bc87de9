//! kube-scheduler on the world's Nodes (when the store holds any): the default profile's
//! filters in their order (NodeUnschedulable, TaintToleration, NodeAffinity for a
//! `nodeSelector`, NodeResourcesFit for the pods limit, cpu, memory and ephemeral storage), a
//! pick among the nodes that fit, and for a pod that fits nowhere the FailedScheduling message
//! as `FitError.Error()` and the preemption PostFilter word it
//! (`pkg/scheduler/framework/types.go`, `pkg/scheduler/framework/preemption/preemption.go`).
//! Every pod has priority 0 here, so preemption never finds a victim.

use super::kubelet::PodStep;
use super::{Cluster, Due};
use crate::api::quantity::Amount;
pub use crate::api::resources::{Allocatable, Usage, pod_limits, pod_requests};
use crate::api::{Node, Pod, Value};
use crate::api::{Object, Str};
use crate::apiserver::store::Store;
use crate::apiserver::store::{WatchEvent, WatchRef};
use crate::controller::release::Release;
use std::collections::BTreeMap;

/// The resources NodeResourcesFit checks, in its order.
const RESOURCES: [&str; 3] = ["cpu", "memory", "ephemeral-storage"];

/// What one node's filters said of a pod.
#[derive(Clone, Debug, PartialEq)]
pub enum Misfit {
    /// A filter that preemption cannot help (UnschedulableAndUnresolvable): cordoned, a
    /// taint, the node selector.
    Unresolvable(String),
    /// NodeResourcesFit's reasons (Unschedulable: preemption is tried).
    Insufficient(Vec<String>),
}

/// Whether the pod tolerates a taint of this key, value and effect (`ToleratesTaint`).
fn tolerates(p: &Pod, key: &str, value: &str, effect: &str) -> bool {
    p.tolerations()
        .any(|t| crate::api::toleration_matches(t, key, value, effect))
}

fn amount_in(resource: &str, a: Amount) -> i128 {
    if resource == "cpu" {
        a.milli()
    } else {
        a.units()
    }
}

/// The filters of the default profile, in order, on one node; the first that fails decides.
pub fn filter(p: &Pod, n: &Node, u: &Usage, release: Release) -> Result<(), Misfit> {
    filter_wanting(p, &pod_requests(p), n, &Allocatable::of(n), u, release)
}

/// [`filter`] with the pod's requests summed once for every node.
fn filter_wanting(
    p: &Pod,
    want: &BTreeMap<String, Amount>,
    n: &Node,
    alloc: &Allocatable,
    u: &Usage,
    release: Release,
) -> Result<(), Misfit> {
    let bad = |m: String| Err(Misfit::Unresolvable(m));
    if n.spec.unschedulable && !tolerates(p, "node.kubernetes.io/unschedulable", "", "NoSchedule") {
        return bad("node(s) were unschedulable".into());
    }
    let untolerated = n.spec.taints.iter().find(|t| {
        matches!(t.effect.as_str(), "NoSchedule" | "NoExecute")
            && !tolerates(p, &t.key, &t.value, &t.effect)
    });
    if let Some(t) = untolerated {
        return bad(if release.scheduler_hides_taints() {
            "node(s) had untolerated taint(s)".into()
        } else {
            format!("node(s) had untolerated taint {{{}: {}}}", t.key, t.value)
        });
    }
    let selector = p.spec.extra.get("nodeSelector").and_then(Value::as_object);
    let matches = selector
        .into_iter()
        .flatten()
        .all(|(k, v)| n.metadata.labels.get(k.as_str()).map(|l| l.as_str()) == v.as_str());
    if !matches {
        return bad("node(s) didn't match Pod's node affinity/selector".into());
    }
    let mut reasons = vec![];
    if u.pods + 1 > alloc.pods {
        reasons.push("Too many pods".to_string());
    }
    for r in RESOURCES {
        let Some(a) = want.get(r).filter(|a| !a.is_zero()) else {
            continue;
        };
        let used = u.requested.get(r).map_or(0, |x| amount_in(r, *x));
        if used + amount_in(r, *a) > alloc.get(r) {
            reasons.push(format!("Insufficient {r}"));
        }
    }
    if reasons.is_empty() {
        Ok(())
    } else {
        Err(Misfit::Insufficient(reasons))
    }
}

/// NodeResourcesFit's LeastAllocated score of a node with the pod on it: the share of cpu and
/// memory left free, averaged (0–100).
fn score(want: &BTreeMap<String, Amount>, alloc: &Allocatable, u: &Usage) -> i128 {
    let mut total = 0;
    for r in ["cpu", "memory"] {
        let alloc = alloc.get(r);
        let used = u.requested.get(r).map_or(0, |x| amount_in(r, *x))
            + want.get(r).map_or(0, |x| amount_in(r, *x));
        if alloc > 0 {
            total += (alloc - used).max(0) * 100 / alloc;
        }
    }
    total / 2
}

/// Where the scheduler puts the pod among `nodes` (in the store's order), or the message it
/// gives when it fits nowhere. The nodes that fit are scored by how much they would leave free
/// (LeastAllocated); a tie goes to the first from `start` on (upstream picks among ties at
/// random; round-robin keeps runs reproducible).
pub fn schedule(
    p: &Pod,
    nodes: &[&Node],
    store: &Store,
    start: usize,
    release: Release,
) -> Result<String, String> {
    if nodes.is_empty() {
        return Err("no nodes available to schedule pods".into());
    }
    let none = Usage::default();
    let want = pod_requests(p);
    let mut misfits = vec![];
    let mut best: Option<(i128, usize)> = None;
    for k in 0..nodes.len() {
        let i = (start + k) % nodes.len();
        let n = nodes[i];
        let name = n.metadata.name.as_str();
        let u = store.node_usage(name).unwrap_or(&none);
        let alloc = match store.node_allocatable(name) {
            Some(a) => *a,
            None => Allocatable::of(n),
        };
        match filter_wanting(p, &want, n, &alloc, u, release) {
            Ok(()) => {
                let s = score(&want, &alloc, u);
                if best.is_none_or(|(b, _)| s > b) {
                    best = Some((s, i));
                }
            }
            Err(m) => misfits.push(m),
        }
    }
    match best {
        Some((_, i)) => Ok(nodes[i].metadata.name.to_string()),
        None => Err(fit_error(nodes.len(), &misfits, release)),
    }
}

/// `FitError.Error()`: each reason counted over the nodes, `"<count> <reason>"` sorted as
/// strings and joined, then the PostFilter plugins' words (DynamicResources' from 1.34, then
/// preemption's own FitError).
pub fn fit_error(all: usize, misfits: &[Misfit], release: Release) -> String {
    let counted = |reasons: &mut dyn Iterator<Item = String>| {
        let mut n: BTreeMap<String, usize> = BTreeMap::new();
        for r in reasons {
            *n.entry(r).or_default() += 1;
        }
        let mut parts: Vec<String> = n.iter().map(|(r, c)| format!("{c} {r}")).collect();
        parts.sort();
        format!("0/{all} nodes are available: {}.", parts.join(", "))
    };
    let filters = counted(&mut misfits.iter().flat_map(|m| match m {
        Misfit::Unresolvable(r) => vec![r.clone()],
        Misfit::Insufficient(rs) => rs.clone(),
    }));
    // Preemption dry-runs only the nodes that failed on resources; with every pod at the
    // same priority, none has a victim.
    let preemption = counted(&mut misfits.iter().map(|m| match m {
        Misfit::Unresolvable(_) => "Preemption is not helpful for scheduling".to_string(),
        Misfit::Insufficient(_) => "No preemption victims found for incoming pod".to_string(),
    }));
    let dra = if release.scheduler_runs_dra_post_filter() {
        "no new claims to deallocate, "
    } else {
        ""
    };
    format!("{filters} {dra}preemption: {preemption}")
}

impl Cluster {
    /// A pod gone from a node, or a node added or changed, may let a pod the scheduler parked
    /// fit (its queueing hints): it is tried again once its back-off has passed.
    pub(super) fn wake_parked(&mut self, ev: &WatchEvent) {
        let frees = match ev.view() {
            WatchRef::Deleted(Object::Pod(p)) => !p.spec.node_name.is_empty(),
            WatchRef::Added(Object::Node(_))
            | WatchRef::Modified {
                new: Object::Node(_),
                ..
            } => true,
            _ => false,
        };
        if !frees {
            return;
        }
        let now = self.now_ms();
        let wake: Vec<(Str, Str, u64)> = self
            .sim
            .unschedulable
            .iter()
            .map(|(k, p)| (k.clone(), p.uid.clone(), p.retry_at().max(now)))
            .collect();
        for (key, uid, at) in wake {
            self.sim
                .timers
                .add(at, (key, uid, Due::Kubelet(PodStep::Bind)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(yaml: &str) -> Pod {
        crate::api::codec::from_value(crate::api::yaml::parse_document(yaml).unwrap()).unwrap()
    }

    fn node(yaml: &str) -> Node {
        crate::api::codec::from_value(crate::api::yaml::parse_document(yaml).unwrap()).unwrap()
    }

    /// The message of a pod requesting 1 CPU on three full nodes, as 1.33 and 1.35 word it.
    #[test]
    fn a_pod_that_fits_nowhere_gets_the_schedulers_words() {
        let m = vec![Misfit::Insufficient(vec!["Insufficient cpu".into()]); 3];
        assert_eq!(
            fit_error(3, &m, Release { minor: 33 }),
            "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
        );
        assert_eq!(
            fit_error(3, &m, Release { minor: 35 }),
            "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
        );
        let mixed = vec![
            Misfit::Unresolvable("node(s) were unschedulable".into()),
            Misfit::Insufficient(vec!["Insufficient cpu".into()]),
            Misfit::Insufficient(vec!["Insufficient cpu".into()]),
        ];
        assert_eq!(
            fit_error(3, &mixed, Release { minor: 33 }),
            "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
        );
    }

    #[test]
    fn the_filters_run_in_the_default_profiles_order() {
        let p = pod(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelector: {disk: ssd}\n  containers: [{name: a, image: a, resources: {requests: {cpu: 500m, memory: 1Gi}}}]\n",
        );
        let n = |extra: &str| {
            node(&format!(
                "apiVersion: v1\nkind: Node\nmetadata: {{name: n, labels: {{disk: ssd}}}}\n{extra}status: {{allocatable: {{cpu: '1', memory: 2Gi, pods: '2'}}}}\n"
            ))
        };
        let u = Usage::default();
        let r = Release::NEWEST;
        assert_eq!(filter(&p, &n(""), &u, r), Ok(()));
        let cordoned =
            n("spec: {unschedulable: true, taints: [{key: k, value: v, effect: NoSchedule}]}\n");
        assert_eq!(
            filter(&p, &cordoned, &u, r),
            Err(Misfit::Unresolvable("node(s) were unschedulable".into()))
        );
        let tainted = n("spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}\n");
        assert_eq!(
            filter(&p, &tainted, &u, Release { minor: 33 }),
            Err(Misfit::Unresolvable(
                "node(s) had untolerated taint {dedicated: gpu}".into()
            ))
        );
        assert_eq!(
            filter(&p, &tainted, &u, r),
            Err(Misfit::Unresolvable(
                "node(s) had untolerated taint(s)".into()
            ))
        );
        let full = Usage {
            pods: 2,
            requested: [("cpu".to_string(), Amount::of("600m").unwrap())].into(),
        };
        assert_eq!(
            filter(&p, &n(""), &full, r),
            Err(Misfit::Insufficient(vec![
                "Too many pods".into(),
                "Insufficient cpu".into()
            ]))
        );
        let elsewhere = node(
            "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: '1'}}\n",
        );
        assert_eq!(
            filter(&p, &elsewhere, &u, r),
            Err(Misfit::Unresolvable(
                "node(s) didn't match Pod's node affinity/selector".into()
            ))
        );
    }

    #[test]
    fn requests_add_up_containers_and_take_the_largest_init_container() {
        let p = pod(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  initContainers: [{name: i, image: i, resources: {requests: {cpu: '2'}}}]\n  containers:\n  - {name: a, image: a, resources: {requests: {cpu: 250m, memory: 128Mi}}}\n  - {name: b, image: b, resources: {requests: {cpu: 250m, memory: 128Mi}}}\n",
        );
        let r = pod_requests(&p);
        assert_eq!(r["cpu"].to_string(), "2");
        assert_eq!(r["memory"].to_string(), "256Mi");
    }
}
