//! A node whose kubelet stops reporting (`world.nodesDown`), and what kube-controller-manager
//! does about it: the node lifecycle controller
//! (`pkg/controller/nodelifecycle/node_lifecycle_controller.go`: `tryUpdateNodeHealth`,
//! `MarkPodsNotReady`, the `node.kubernetes.io/unreachable` taints) and the taint eviction
//! controller (`pkg/controller/tainteviction/taint_eviction.go`). While the node is down its
//! kubelet does nothing: its pods neither start nor finish terminating. When it comes back, its
//! kubelet reports Ready again, the taints go, and (the kubelet's part, in `cluster/`) it goes
//! on with each pod from its state.

use super::actor::{Actor, Cx, Env};
use crate::api::{
    ConditionStatus, Kind, Node, Object, ObjectMeta, Pod, PodCondition, Str, Taint, Value, key_of,
    toleration_matches,
};
use crate::apiserver::events::{EventRecorder, EventType, Involved};
use crate::apiserver::store::{Propagation, Store};

/// `--node-monitor-grace-period`: 50 s since v1.32 (PR #126287; 40 s before).
pub const NODE_MONITOR_GRACE_MS: u64 = 50_000;

/// The node lifecycle and taint eviction controllers' timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A node's kubelet stopped reporting a grace period ago (`--node-monitor-grace-period`):
    /// the node lifecycle controller marks it Unknown, taints it and its pods not Ready (the
    /// timer's key is the node's).
    NodeLost,
    /// The taint eviction controller deletes a pod of a lost node whose toleration has run
    /// out (the timer's key is the pod's).
    TaintEvict,
}

/// The taint a node gets when its Ready condition is Unknown.
pub const UNREACHABLE: &str = "node.kubernetes.io/unreachable";

/// The DefaultTolerationSeconds admission plugin's toleration (300 s), which every pod
/// without its own toleration of the taint has.
const DEFAULT_TOLERATION_SECONDS: i64 = 300;

/// How long a pod tolerates the unreachable NoExecute taint: `None` forever, else seconds (0:
/// evicted at once). A pod that names no toleration of it (one stored without admission, as a
/// pasted one may be) has the admission plugin's 300 s.
fn toleration_seconds(p: &Pod) -> Option<i64> {
    // `GetMatchingTolerations`: the ones that tolerate the taint, as the scheduler reads them.
    let matching: Vec<&Value> = p
        .tolerations()
        .filter(|t| toleration_matches(t, UNREACHABLE, "", "NoExecute"))
        .collect();
    if matching.is_empty() {
        return Some(DEFAULT_TOLERATION_SECONDS);
    }
    // The shortest of the tolerations that match; one without seconds tolerates forever.
    matching
        .iter()
        .map(|t| t.get("tolerationSeconds").and_then(Value::as_i64))
        .try_fold(i64::MAX, |m, s| s.map(|s| m.min(s.max(0))))
}

/// The node lifecycle and the taint eviction controllers. They keep nothing of their own
/// between their timers: what they know of a node is on it (its conditions and taints), and
/// which kubelets have gone silent is the world's to say (the `down` each step is given).
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeLifecycleController;

fn node<'s>(store: &'s Store, name: &str) -> Option<&'s Node> {
    match store.get(Kind::Node, &key_of("", name)) {
        Some(Object::Node(n)) => Some(n),
        _ => None,
    }
}

/// A node's conditions written as its status, onto the node as stored (whose spec the caller
/// may just have written); `None` when it is gone or the write is refused.
fn write_node_status(store: &mut Store, n: &Node) -> Option<()> {
    let mut stored = node(store, &n.metadata.name)?.clone();
    stored.status = n.status.clone();
    let written = store.update_status(Object::Node(Box::new(stored)));
    written.ok().map(|_| ())
}

/// `RecordNodeStatusChange`: the node controller's event for a node's new readiness.
fn record_node_status_change(events: &mut EventRecorder, meta: &ObjectMeta, status: &'static str) {
    events.record(
        "node-controller",
        Involved::of(Kind::Node, meta),
        EventType::Normal,
        status,
        format!("Node {} status is now: {status}", meta.name),
    );
}

/// The pods bound to a node, copied (to be written back).
pub fn pods_on(store: &Store, name: &str) -> Vec<Pod> {
    let on = |p: &&Pod| p.spec.node_name == name;
    store.pods().filter(on).cloned().collect()
}

impl NodeLifecycleController {
    /// The kubelet of the node `key` (`uid`) stopped posting its status: the controller looks
    /// at the node again a grace period later.
    pub fn kubelet_stopped<D: From<Step>>(&mut self, cx: &mut Cx<'_, D>, key: Str, uid: Str) {
        let at = cx.now_ms() + NODE_MONITOR_GRACE_MS;
        cx.at(at, key, uid, Step::NodeLost);
    }

    /// The node's kubelet reports again: Ready (and the other conditions its setters post),
    /// the unreachable taints removed; false when there is no such node.
    pub fn node_back<D>(&mut self, cx: &mut Cx<'_, D>, name: &str) -> bool {
        node_back(cx, name)
    }
}

/// The node lifecycle and the taint eviction controllers learn of a node through its
/// heartbeats (the missing ones: `env.nodes_down`), not through watch events.
impl<D: From<Step>, W> Actor<D, W> for NodeLifecycleController {
    type Step = Step;

    fn timer(
        &mut self,
        cx: &mut Cx<'_, D>,
        env: &Env<'_, W>,
        key: &Str,
        uid: &Str,
        step: Step,
    ) -> Option<String> {
        match step {
            Step::NodeLost => node_lost(cx, key, uid, env.nodes_down),
            Step::TaintEvict => taint_evict(cx, key, uid),
        }
    }
}

/// The grace period has passed with no word from the node's kubelet: its conditions turn
/// Unknown ("Kubelet stopped posting node status."), it is tainted unreachable (NoSchedule,
/// and NoExecute unless every node is down: the controller's full-disruption mode taints
/// none), and its pods are marked not Ready; each is evicted when its toleration runs out.
fn node_lost<D: From<Step>>(
    cx: &mut Cx<'_, D>,
    key: &str,
    uid: &str,
    down: &[String],
) -> Option<String> {
    let name = key.trim_start_matches('/').to_string();
    let Some(Object::Node(n)) = cx.store.get(Kind::Node, key).cloned() else {
        return None;
    };
    if n.metadata.uid != uid || !down.contains(&name) {
        return None;
    }
    let now = cx.now();
    let mut n = *n;
    for c in &mut n.status.conditions {
        let watched = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];
        if watched.contains(&c.type_.as_str()) && c.status != "Unknown" {
            c.status = ConditionStatus::Unknown.as_str().into();
            c.reason = "NodeStatusUnknown".into();
            c.message = "Kubelet stopped posting node status.".into();
            c.last_transition_time = Some(now);
        }
    }
    let every_node_down = cx
        .store
        .list(Kind::Node)
        .all(|o| down.iter().any(|d| *d == *o.meta().name));
    let effects: &[&str] = if every_node_down {
        &["NoSchedule"]
    } else {
        &["NoSchedule", "NoExecute"]
    };
    for effect in effects {
        if !n
            .spec
            .taints
            .iter()
            .any(|t| t.key == UNREACHABLE && t.effect == *effect)
        {
            n.spec.taints.push(Taint {
                key: UNREACHABLE.into(),
                value: String::new(),
                effect: effect.to_string(),
                time_added: Some(now),
            });
        }
    }
    let meta = n.metadata.clone();
    cx.store.update(Object::Node(Box::new(n.clone()))).ok()?;
    write_node_status(cx.store, &n)?;
    record_node_status_change(cx.events, &meta, "NodeNotReady");
    mark_pods_not_ready(cx, &name, !every_node_down);
    Some(format!(
        "{name}: its kubelet stopped posting status {}s ago: Ready Unknown, tainted {UNREACHABLE}",
        NODE_MONITOR_GRACE_MS / 1000
    ))
}

/// `MarkPodsNotReady`: each pod of the node with a Ready condition gets it False (its status
/// only) and the Warning `NodeNotReady`; with `evict`, each is due for eviction when its
/// toleration of the unreachable taint runs out.
fn mark_pods_not_ready<D: From<Step>>(cx: &mut Cx<'_, D>, name: &str, evict: bool) {
    let now = cx.now();
    let now_ms = cx.now_ms();
    let pods = pods_on(cx.store, name);
    for mut p in pods {
        // Only a Ready condition already there is set, and only its status.
        let ready = p.status.conditions.iter().find(|c| c.type_ == "Ready");
        if ready.is_some_and(|c| c.status != "False") {
            p.status.set_condition("Ready", ConditionStatus::False, now);
            let m = p.metadata.clone();
            let _ = cx.store.update_status(Object::Pod(p.clone()));
            cx.events.record(
                "node-controller",
                Involved::of(Kind::Pod, &m),
                EventType::Warning,
                "NodeNotReady",
                "Node is not ready".into(),
            );
        }
        if !evict || p.metadata.deletion_timestamp.is_some() {
            continue;
        }
        if let Some(secs) = toleration_seconds(&p) {
            let at = now_ms + secs as u64 * 1000;
            cx.at(
                at,
                p.metadata.key(),
                p.metadata.uid.clone(),
                Step::TaintEvict,
            );
        }
    }
}

/// The pod's toleration of the unreachable taint has run out: the taint eviction
/// controller marks it (DisruptionTarget, `DeletionByTaintManager`) and deletes it with its
/// grace period. With no kubelet to stop it, it stays Terminating while its node is down.
fn taint_evict<D>(cx: &mut Cx<'_, D>, key: &str, uid: &str) -> Option<String> {
    let p = cx.store.pod(key).filter(|p| p.metadata.uid == uid)?.clone();
    let node = node(cx.store, &p.spec.node_name)?;
    let tainted = node
        .spec
        .taints
        .iter()
        .any(|t| t.key == UNREACHABLE && t.effect == "NoExecute");
    if !tainted || p.metadata.deletion_timestamp.is_some() {
        return None;
    }
    let name = p.metadata.name.clone();
    cx.events.record(
        "taint-eviction-controller",
        Involved::of(Kind::Pod, &p.metadata),
        EventType::Normal,
        "TaintManagerEviction",
        format!("Marking for deletion Pod {key}"),
    );
    let mut marked = p;
    marked.status.update_condition(PodCondition {
        type_: "DisruptionTarget".into(),
        status: "True".into(),
        last_transition_time: Some(cx.now()),
        reason: "DeletionByTaintManager".into(),
        message: "Taint manager: deleting due to NoExecute taint".into(),
    });
    let _ = cx.store.update_status(Object::Pod(marked));
    cx.store
        .delete(Kind::Pod, key, Propagation::Background, None)
        .ok()?;
    Some(format!(
        "{name} evicted from its lost node (taint {UNREACHABLE}:NoExecute)"
    ))
}

/// [`NodeLifecycleController::node_back`].
fn node_back<D>(cx: &mut Cx<'_, D>, name: &str) -> bool {
    let Some(mut n) = node(cx.store, name).cloned() else {
        return false;
    };
    let now = cx.now();
    let had_taints = n.spec.taints.iter().any(|t| t.key == UNREACHABLE);
    n.spec.taints.retain(|t| t.key != UNREACHABLE);
    let was_lost = n
        .status
        .conditions
        .iter()
        .any(|c| c.type_ == "Ready" && c.status != "True");
    for c in &mut n.status.conditions {
        if let Some((status, reason, message)) =
            kubelet_posts(&c.type_).filter(|_| c.status == "Unknown")
        {
            c.status = status.into();
            c.reason = reason.into();
            c.message = message.into();
            c.last_transition_time = Some(now);
        }
    }
    let meta = n.metadata.clone();
    if had_taints {
        let _ = cx.store.update(Object::Node(Box::new(n.clone())));
    }
    if was_lost {
        let _ = write_node_status(cx.store, &n);
        record_node_status_change(cx.events, &meta, "NodeReady");
    }
    true
}

/// A healthy kubelet's condition of each type, as its node status setters post it
/// (`pkg/kubelet/nodestatus/setters.go`: `ReadyCondition`, `MemoryPressureCondition`,
/// `DiskPressureCondition`, `PIDPressureCondition`): status, reason and message. A type the
/// kubelet does not post (one a node problem detector adds) is not its to set.
fn kubelet_posts(type_: &str) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match type_ {
        "Ready" => ("True", "KubeletReady", "kubelet is posting ready status"),
        "MemoryPressure" => (
            "False",
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
        ),
        "DiskPressure" => (
            "False",
            "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure",
        ),
        "PIDPressure" => (
            "False",
            "KubeletHasSufficientPID",
            "kubelet has sufficient PID available",
        ),
        _ => return None,
    })
}
