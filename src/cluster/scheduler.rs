//! kube-scheduler on the world's Nodes (when the store holds any): the default profile's
//! filters in their order (NodeUnschedulable, TaintToleration, NodeAffinity for a
//! `nodeSelector`, NodeResourcesFit for the pods limit, cpu, memory and ephemeral storage), a
//! pick among the nodes that fit, and for a pod that fits nowhere the FailedScheduling message
//! as `FitError.Error()` and the preemption PostFilter word it
//! (`pkg/scheduler/framework/types.go`, `pkg/scheduler/framework/preemption/preemption.go`).
//! Every pod has priority 0 here, so preemption never finds a victim.

use super::Due;
use super::kubelet::{Happening, PodStep, World, awaits_binding, pod_for_step};
use crate::api::quantity::Amount;
pub use crate::api::resources::{Allocatable, Usage, pod_limits, pod_requests};
use crate::api::{
    ConditionStatus, ContainerState, ContainerStateWaiting, ContainerStatus, Kind, Node, Pod,
    Value, key_of,
};
use crate::api::{Object, Str};
use crate::apiserver::events::{EventType, Involved};
use crate::apiserver::store::Store;
use crate::apiserver::store::{WatchEvent, WatchRef};
use crate::controller::actor::{Actor, Cx, Env};
use crate::controller::release::Release;
use std::collections::BTreeMap;

/// kube-scheduler's state: where its round-robin pick starts and its unschedulable queue.
#[derive(Clone, Debug, Default)]
pub struct Scheduler {
    /// Where the next pick starts among the nodes that fit (each bind moves it on by one).
    next: u32,
    /// Pods it found no Node for (key → uid, attempts, when the last failed), held until a
    /// cluster event may let them fit.
    pub parked: BTreeMap<Str, Parked>,
}

/// The scheduler's timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `scheduleOne`: a scheduling attempt for the pod (the timer's key is the pod's): a new
    /// pod's, a parked pod's retry, or one a cluster event woke.
    Schedule,
}

/// What a scheduling attempt sees beyond the scheduler's own state.
pub struct Bind<'c, 'a> {
    pub cx: &'c mut Cx<'a, Due>,
    pub world: &'c World,
    /// The release, whose scheduler words its refusals.
    pub release: Release,
    /// Whether the step's description is wanted (it is spelled only when a trace is kept).
    pub describe: bool,
}

impl Bind<'_, '_> {
    fn say(&self, text: impl FnOnce() -> String) -> Happening {
        if self.describe { text() } else { String::new() }
    }
}

/// What a step did, in words, and what follows it (after how many milliseconds, which timer).
pub type Stepped = Option<(Happening, Option<(u64, Due)>)>;

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
        crate::api::sort::sort(&mut parts);
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

/// A pod the scheduler found no node for, waiting in its unschedulable queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Parked {
    pub uid: Str,
    pub attempts: u32,
    /// When the last attempt failed (virtual ms).
    pub failed_ms: u64,
}

impl Parked {
    /// When a cluster event may move it back to the active queue: after its back-off (1 s,
    /// doubling with each attempt, at most 10 s: the scheduler's podInitialBackoff and
    /// podMaxBackoff).
    pub fn retry_at(&self) -> u64 {
        let backoff = (1000u64 << self.attempts.saturating_sub(1).min(4)).min(10_000);
        self.failed_ms + backoff
    }
}

/// How long a pod stays in the unschedulable queue with no event to move it
/// (podMaxInUnschedulablePodsDuration).
const MAX_UNSCHEDULABLE_MS: u64 = 5 * 60 * 1000;

impl Scheduler {
    /// One of its timers is due: the attempt for the pod `key` (if it is still the pod with
    /// `uid`, not being deleted, and not bound by its spec to a node whose kubelet is down).
    pub fn step(&mut self, k: &mut Bind<'_, '_>, key: &str, uid: &str, step: Step) -> Stepped {
        let Step::Schedule = step;
        let pod = pod_for_step(k.cx.store, k.world, key, uid)?;
        if pod.metadata.deletion_timestamp.is_some() {
            return None;
        }
        let p = pod.clone();
        let name = key.rsplit_once('/').map_or(key, |(_, n)| n);
        self.bind(k, key, name, p)
    }

    /// The scheduler binds the pod to the next node, round-robin; a pod created with its node
    /// named is not the scheduler's: that node's kubelet takes it as it is (named to a node the
    /// world does not have, it stays Pending). Its containers are then being created.
    fn bind(&mut self, k: &mut Bind<'_, '_>, key: &str, name: &str, mut p: Pod) -> Stepped {
        let now = k.cx.store.now();
        let parked = self.parked.remove(key);
        // Bound already (a retry woken twice): nothing to do.
        if p.status
            .conditions
            .iter()
            .any(|c| c.type_ == "PodScheduled" && c.status == "True")
        {
            return None;
        }
        let preset = !p.spec.node_name.is_empty();
        let node = if preset {
            let known =
                k.cx.store
                    .get(Kind::Node, &key_of("", &p.spec.node_name))
                    .is_some();
            if !known {
                return None;
            }
            p.spec.node_name.to_string()
        } else {
            let node = match self.pick_node(k, &p) {
                Ok(n) => n,
                Err(why) => return self.unschedulable(k, key, name, p, why, parked),
            };
            self.next += 1;
            p.spec.node_name = node.as_str().into();
            k.cx.store.update(Object::Pod(p)).ok()?;
            node
        };
        let mut p = k.cx.store.pod(key)?.clone();
        p.status
            .set_condition("PodScheduled", ConditionStatus::True, now);
        p.status.container_statuses = p
            .spec
            .containers
            .iter()
            .map(|c| ContainerStatus {
                name: c.name.clone(),
                image: c.image.clone(),
                state: ContainerState {
                    waiting: Some(ContainerStateWaiting {
                        reason: "ContainerCreating".into(),
                        message: Str::default(),
                    }),
                    ..Default::default()
                },
                ..Default::default()
            })
            .collect();
        let (ns, uid) = (p.metadata.namespace.clone(), p.metadata.uid.clone());
        k.cx.store.update_status(Object::Pod(p)).ok()?;
        if !preset {
            let about = Involved {
                kind: Kind::Pod,
                namespace: &ns,
                name,
                uid: &uid,
            };
            k.cx.events.record(
                "default-scheduler",
                about,
                EventType::Normal,
                "Scheduled",
                format!("Successfully assigned {key} to {node}"),
            );
        }
        let how = if preset {
            "bound by its spec to"
        } else {
            "scheduled to"
        };
        Some((
            k.say(|| format!("{name} {how} {node}")),
            Some((k.world.start_ms, Due::Kubelet(PodStep::Start))),
        ))
    }

    /// The node for a pod: the scheduler's filters and pick on the store's Nodes, with what
    /// each holds already and can hold (the store's running sums, [`Store::node_usage`]).
    fn pick_node(&self, k: &Bind<'_, '_>, p: &Pod) -> Result<String, String> {
        let nodes: Vec<&Node> =
            k.cx.store
                .list(Kind::Node)
                .filter_map(|o| match o {
                    Object::Node(n) => Some(&**n),
                    _ => None,
                })
                .collect();
        let start = self.next as usize;
        schedule(p, &nodes, k.cx.store, start, k.release)
    }

    /// The pod fits on no node: the scheduler's Warning FailedScheduling (its message cut at
    /// 1024 bytes, as events are) and the pod's PodScheduled condition False, Unschedulable,
    /// with the whole message; it waits in the unschedulable queue for an event that may let
    /// it fit, or at most five minutes.
    fn unschedulable(
        &mut self,
        k: &mut Bind<'_, '_>,
        key: &str,
        name: &str,
        mut p: Pod,
        why: String,
        parked: Option<Parked>,
    ) -> Stepped {
        let now = k.cx.store.now();
        let message = if why.len() > 1024 {
            let mut cut = 1020;
            while !why.is_char_boundary(cut) {
                cut -= 1;
            }
            format!("{} ...", &why[..cut])
        } else {
            why.clone()
        };
        k.cx.events.record(
            "default-scheduler",
            Involved::of(Kind::Pod, &p.metadata),
            EventType::Warning,
            "FailedScheduling",
            message,
        );
        p.status
            .set_condition("PodScheduled", ConditionStatus::False, now);
        if let Some(c) = p
            .status
            .conditions
            .iter_mut()
            .find(|c| c.type_ == "PodScheduled")
        {
            c.reason = "Unschedulable".into();
            c.message = why.as_str().into();
        }
        let uid = p.metadata.uid.clone();
        k.cx.store.update_status(Object::Pod(p)).ok()?;
        let failed_ms = k.cx.store.clock().now_ms();
        let attempts = parked.map_or(0, |q| q.attempts) + 1;
        let entry = Parked {
            uid,
            attempts,
            failed_ms,
        };
        self.parked.insert(key.into(), entry);
        Some((
            k.say(|| format!("{name} cannot be scheduled: {why}")),
            Some((MAX_UNSCHEDULABLE_MS, Due::Scheduler(Step::Schedule))),
        ))
    }

    /// The scheduler's informer: a new pod to bind is tried `scheduleMs` after it is seen; a
    /// pod gone from a node, or a node added or changed, may let a pod the scheduler parked fit
    /// (its queueing hints), which is tried again once its back-off has passed.
    pub fn saw(&self, cx: &mut Cx<'_, Due>, world: &World, ev: &WatchEvent) {
        let frees = match ev.view() {
            WatchRef::Added(Object::Pod(p)) => {
                if awaits_binding(p) {
                    let at = cx.now_ms() + world.schedule_ms;
                    cx.at(at, p.metadata.key(), p.metadata.uid.clone(), Step::Schedule);
                }
                false
            }
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
        let now = cx.now_ms();
        for (key, p) in &self.parked {
            let at = p.retry_at().max(now);
            cx.at(at, key.clone(), p.uid.clone(), Step::Schedule);
        }
    }
}

impl Actor<Due, World> for Scheduler {
    type Step = Step;
    const POD_STEPS: bool = true;

    fn saw(&mut self, cx: &mut Cx<'_, Due>, env: &Env<'_, World>, ev: &WatchEvent) {
        Scheduler::saw(self, cx, env.world, ev);
    }

    /// The attempt (`scheduleOne`), and the step that follows it on the agenda.
    fn timer(
        &mut self,
        cx: &mut Cx<'_, Due>,
        env: &Env<'_, World>,
        key: &Str,
        uid: &Str,
        step: Step,
    ) -> Option<String> {
        let mut k = Bind {
            cx: &mut *cx,
            world: env.world,
            release: env.release,
            describe: env.describe,
        };
        let (what, next) = self.step(&mut k, key, uid, step)?;
        cx.then(key, uid, next);
        Some(what)
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
