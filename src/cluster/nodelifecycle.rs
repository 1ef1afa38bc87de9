//! A node whose kubelet stops reporting (`world.nodesDown`), and what kube-controller-manager
//! does about it: the node lifecycle controller
//! (`pkg/controller/nodelifecycle/node_lifecycle_controller.go`: `tryUpdateNodeHealth`,
//! `MarkPodsNotReady`, the `node.kubernetes.io/unreachable` taints) and the taint eviction
//! controller (`pkg/controller/tainteviction/taint_eviction.go`). While the node is down its
//! kubelet does nothing: its pods neither start nor finish terminating. When it comes back, its
//! kubelet reports Ready again, the taints go, and it goes on with each pod from its state.

use super::Cluster;
use super::Due;
use super::kubelet::{next_for_seen, set_pod_condition};
use super::scheduler::{toleration_matches, tolerations_of};
use crate::api::{
    ConditionStatus, Kind, Node, Object, ObjectMeta, Pod, PodCondition, Taint, Value, key_of,
};
use crate::apiserver::events::{EventType, Involved};
use crate::apiserver::store::Propagation;

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
    let matching: Vec<&Value> = tolerations_of(p)
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

impl Cluster {
    fn node(&self, name: &str) -> Option<&Node> {
        match self.sim.store.get(Kind::Node, &key_of("", name)) {
            Some(Object::Node(n)) => Some(n),
            _ => None,
        }
    }

    /// A node's conditions written as its status, onto the node as stored (whose spec the
    /// caller may just have written); `None` when it is gone or the write is refused.
    fn write_node_status(&mut self, n: &Node) -> Option<()> {
        let mut stored = self.node(&n.metadata.name)?.clone();
        stored.status = n.status.clone();
        let written = self.sim.store.update_status(Object::Node(Box::new(stored)));
        written.ok().map(|_| ())
    }

    /// `RecordNodeStatusChange`: the node controller's event for a node's new readiness.
    fn record_node_status_change(&mut self, meta: &ObjectMeta, status: &'static str) {
        self.sim.events.record(
            "node-controller",
            Involved::of(Kind::Node, meta),
            EventType::Normal,
            status,
            format!("Node {} status is now: {status}", meta.name),
        );
    }

    /// The pods bound to a node, copied (to be written back).
    fn pods_on(&self, name: &str) -> Vec<Pod> {
        let on = |p: &&Pod| p.spec.node_name == name;
        self.sim.store.pods().filter(on).cloned().collect()
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

    /// `world.nodesDown` changed from `before`: a node newly down is looked at again a grace
    /// period later; one back up reports Ready again at once. A name that is not a Node is an
    /// error to show on the step.
    pub(super) fn nodes_changed(&mut self, before: &[String]) -> Vec<String> {
        let now = self.now_ms();
        let mut unknown = vec![];
        for name in self.sim.world.nodes_down.clone() {
            let Some(n) = self.node(&name) else {
                unknown.push(name);
                continue;
            };
            if !before.contains(&name) {
                let (key, uid) = (n.metadata.key(), n.metadata.uid.clone());
                self.sim.timers.add(
                    now + NODE_MONITOR_GRACE_MS,
                    (key, uid, Due::Lifecycle(Step::NodeLost)),
                );
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

    /// A timer of the node lifecycle or the taint eviction controller.
    pub(super) fn lifecycle_step(&mut self, key: &str, uid: &str, step: Step) -> Option<String> {
        match step {
            Step::NodeLost => self.node_lost(key, uid),
            Step::TaintEvict => self.taint_evict(key, uid),
        }
    }

    /// The grace period has passed with no word from the node's kubelet: its conditions turn
    /// Unknown ("Kubelet stopped posting node status."), it is tainted unreachable (NoSchedule,
    /// and NoExecute unless every node is down: the controller's full-disruption mode taints
    /// none), and its pods are marked not Ready; each is evicted when its toleration runs out.
    fn node_lost(&mut self, key: &str, uid: &str) -> Option<String> {
        let name = key.trim_start_matches('/').to_string();
        let Some(Object::Node(n)) = self.sim.store.get(Kind::Node, key).cloned() else {
            return None;
        };
        if n.metadata.uid != uid || !self.sim.world.nodes_down.contains(&name) {
            return None;
        }
        let now = self.now();
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
        let every_node_down = self.sim.store.list(Kind::Node).all(|o| {
            self.sim
                .world
                .nodes_down
                .contains(&o.meta().name.to_string())
        });
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
        self.sim
            .store
            .update(Object::Node(Box::new(n.clone())))
            .ok()?;
        self.write_node_status(&n)?;
        self.record_node_status_change(&meta, "NodeNotReady");
        self.mark_pods_not_ready(&name, !every_node_down);
        Some(format!(
            "{name}: its kubelet stopped posting status {}s ago: Ready Unknown, tainted {UNREACHABLE}",
            NODE_MONITOR_GRACE_MS / 1000
        ))
    }

    /// `MarkPodsNotReady`: each pod of the node with a Ready condition gets it False (its status
    /// only) and the Warning `NodeNotReady`; with `evict`, each is due for eviction when its
    /// toleration of the unreachable taint runs out.
    fn mark_pods_not_ready(&mut self, name: &str, evict: bool) {
        let now = self.now();
        let now_ms = self.now_ms();
        let pods = self.pods_on(name);
        for mut p in pods {
            // Only a Ready condition already there is set, and only its status.
            let ready = p.status.conditions.iter().find(|c| c.type_ == "Ready");
            if ready.is_some_and(|c| c.status != "False") {
                set_pod_condition(&mut p, "Ready", ConditionStatus::False, now);
                let m = p.metadata.clone();
                let _ = self.sim.store.update_status(Object::Pod(p.clone()));
                self.sim.events.record(
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
                let t = (
                    p.metadata.key(),
                    p.metadata.uid.clone(),
                    Due::Lifecycle(Step::TaintEvict),
                );
                self.sim.timers.add(now_ms + secs as u64 * 1000, t);
            }
        }
    }

    /// The pod's toleration of the unreachable taint has run out: the taint eviction
    /// controller marks it (DisruptionTarget, `DeletionByTaintManager`) and deletes it with its
    /// grace period. With no kubelet to stop it, it stays Terminating while its node is down.
    fn taint_evict(&mut self, key: &str, uid: &str) -> Option<String> {
        let p = self
            .sim
            .store
            .pod(key)
            .filter(|p| p.metadata.uid == uid)?
            .clone();
        let node = self.node(&p.spec.node_name)?;
        let tainted = node
            .spec
            .taints
            .iter()
            .any(|t| t.key == UNREACHABLE && t.effect == "NoExecute");
        if !tainted || p.metadata.deletion_timestamp.is_some() {
            return None;
        }
        let name = p.metadata.name.clone();
        self.sim.events.record(
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
            last_transition_time: Some(self.now()),
            reason: "DeletionByTaintManager".into(),
            message: "Taint manager: deleting due to NoExecute taint".into(),
        });
        let _ = self.sim.store.update_status(Object::Pod(marked));
        self.sim
            .store
            .delete(Kind::Pod, key, Propagation::Background, None)
            .ok()?;
        Some(format!(
            "{name} evicted from its lost node (taint {UNREACHABLE}:NoExecute)"
        ))
    }

    /// The node's kubelet reports again: Ready, the unreachable taints removed, and each of
    /// its pods taken up from where it stands (a terminating one finishes).
    fn node_back(&mut self, name: &str) {
        let Some(mut n) = self.node(name).cloned() else {
            return;
        };
        let now = self.now();
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
            let _ = self.sim.store.update(Object::Node(Box::new(n.clone())));
        }
        if was_lost {
            let _ = self.write_node_status(&n);
            self.record_node_status_change(&meta, "NodeReady");
        }
        let now_ms = self.now_ms();
        let pods = self.pods_on(name);
        for p in pods {
            let mut seen = p.clone();
            // Its kubelet reports a running container's readiness afresh.
            let ready = p.status.conditions.iter().find(|c| c.type_ == "Ready");
            if ready.is_some_and(|c| c.status == "False")
                && p.status.container_statuses.iter().all(|s| s.ready)
                && !p.status.container_statuses.is_empty()
            {
                set_pod_condition(&mut seen, "Ready", ConditionStatus::True, now);
                let _ = self.sim.store.update_status(Object::Pod(seen.clone()));
            }
            if let Some((after, step)) = next_for_seen(&seen, &self.sim.world, now) {
                self.sim.timers.add(
                    now_ms + after,
                    (p.metadata.key(), p.metadata.uid.clone(), Due::Kubelet(step)),
                );
            }
        }
    }
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
