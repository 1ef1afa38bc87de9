//! The trace: one JSON object per step (a controller sync, a world event, a user action), in
//! the shape `shared/spec/simulation.md` §3 fixes, with the Deployment and its ReplicaSets as
//! they stand after the step.

use crate::api::StrategyType;
use crate::api::codec::omit;
use crate::apiserver::events::Event;
use crate::apiserver::queue::{Cause, QueueView};
use crate::controller::Explain;
use crate::controller::calls::{Call, Write};
use crate::controller::deployment::{Branch, Ladder};
use crate::controller::replicaset::{Deletion, ExpectationsView};
use serde::{Serialize, Serializer};

/// What a step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StepKind {
    /// A user's command or caption.
    Action,
    /// One controller sync.
    Sync,
    /// The pod changes the scheduler and kubelets made at one instant (and what the node
    /// lifecycle, taint eviction and disruption controllers, and a drain's evictions, did).
    World,
}

/// The controller whose sync a step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Controller {
    Deployment,
    ReplicaSet,
    GarbageCollector,
}

impl Controller {
    /// The scope its upstream names are looked up in (`controller::upstream`).
    pub fn scope(self) -> crate::controller::calls::Scope {
        use crate::controller::calls::Scope;
        match self {
            Controller::Deployment => Scope::Deployment,
            Controller::ReplicaSet => Scope::ReplicaSet,
            Controller::GarbageCollector => Scope::GarbageCollector,
        }
    }

    /// Every controller, in the order the harness offers their queues a sync (round-robin
    /// from the one after the last that synced).
    pub const ALL: [Controller; 3] = [
        Controller::Deployment,
        Controller::ReplicaSet,
        Controller::GarbageCollector,
    ];

    /// The trace's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Controller::Deployment => "deployment",
            Controller::ReplicaSet => "replicaset",
            Controller::GarbageCollector => "garbagecollector",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceStep {
    pub t: u64,
    pub kind: StepKind,
    #[serde(skip_serializing_if = "omit")]
    pub controller: Option<Controller>,
    #[serde(skip_serializing_if = "omit")]
    pub key: Option<String>,
    #[serde(skip_serializing_if = "omit")]
    pub branch: Option<Branch>,
    /// A Deployment sync's way down `syncDeployment`'s ladder (its explain line says the same
    /// in words, which is what the JSON trace carries).
    #[serde(skip)]
    pub ladder: Option<Ladder>,
    #[serde(skip_serializing_if = "omit")]
    pub strategy: Option<StrategyType>,
    /// Why the sync ran: the watch event a handler turned into its key, or a requeue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    /// The upstream functions the sync ran, in call order with their depth (the explain
    /// lines name the function whose numbers they give).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<Call>,
    /// The writes the sync made, in order, each with the index of the call that made it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<Write>,
    #[serde(skip_serializing_if = "omit")]
    pub explain: Vec<Explain>,
    /// A ReplicaSet sync's expectations when it began and when it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expectations: Option<ExpectationsTrace>,
    /// The slow-start batches a ReplicaSet sync created pods in.
    #[serde(skip_serializing_if = "omit")]
    pub batches: Vec<usize>,
    /// `burstReplicas`, when it capped a ReplicaSet sync's creates or deletes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst_replicas: Option<usize>,
    /// The pods a ReplicaSet sync deleted, first to last, each with the ranking keys that
    /// put it ahead of the pods it kept (`ActivePodsWithRanks`).
    #[serde(skip_serializing_if = "omit")]
    pub deletions: Vec<Deletion>,
    /// What each controller's work queue held when the sync took its key (that key is the
    /// one being processed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queues: Option<Box<Queues>>,
    /// A sync that returned an error (the key is requeued with back-off).
    #[serde(skip_serializing_if = "omit")]
    pub error: Option<String>,
    /// The command of an action step.
    #[serde(skip_serializing_if = "omit")]
    pub command: Option<String>,
    #[serde(skip_serializing_if = "omit")]
    pub caption: Option<String>,
    /// What kubectl printed.
    #[serde(skip_serializing_if = "omit")]
    pub output: Option<String>,
    /// Why a command was rejected (nothing changed), or the error a watching command ended
    /// with.
    #[serde(skip_serializing_if = "omit")]
    pub errors: Vec<String>,
    /// A watching command (`kubectl rollout status`): the lines after its first, and its end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watch: Option<super::watch::WatchLog>,
    /// World steps: what the scheduler and kubelets did (and the other parts a World step
    /// holds, [`TraceStep::world_source`]).
    #[serde(skip_serializing_if = "omit")]
    pub changes: Vec<String>,
    #[serde(skip_serializing_if = "omit")]
    pub events: Vec<Event>,
    #[serde(skip_serializing_if = "omit")]
    pub deployment: Option<DeploymentView>,
    pub replica_sets: Vec<ReplicaSetView>,
    /// The PodDisruptionBudgets' status after the step (when the world has any).
    #[serde(skip_serializing_if = "omit")]
    pub budgets: Vec<BudgetView>,
}

/// A PodDisruptionBudget as the disruption controller last wrote it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetView {
    /// `namespace/name`.
    pub key: String,
    pub current_healthy: i32,
    pub desired_healthy: i32,
    pub disruptions_allowed: i32,
    pub expected_pods: i32,
}

impl TraceStep {
    /// Who made a World step's changes, in words: the disruption controller's status writes
    /// and a drain's evictions have steps of their own.
    pub fn world_source(&self) -> &'static str {
        let all =
            |p: &str| !self.changes.is_empty() && self.changes.iter().all(|c| c.starts_with(p));
        if all("PodDisruptionBudget ") {
            "the disruption controller"
        } else if all("kubectl drain: ") {
            "kubectl drain"
        } else {
            "the scheduler and kubelets"
        }
    }

    /// The ReplicaSet with the highest revision: the Deployment's new one.
    pub fn newest(&self) -> Option<&ReplicaSetView> {
        self.replica_sets.iter().max_by_key(|r| r.revision)
    }

    pub fn new(t: u64, kind: StepKind) -> TraceStep {
        TraceStep {
            t,
            kind,
            controller: None,
            key: None,
            branch: None,
            ladder: None,
            strategy: None,
            cause: None,
            calls: vec![],
            writes: vec![],
            explain: vec![],
            expectations: None,
            batches: vec![],
            burst_replicas: None,
            deletions: vec![],
            queues: None,
            error: None,
            command: None,
            caption: None,
            output: None,
            errors: vec![],
            watch: None,
            changes: vec![],
            events: vec![],
            deployment: None,
            replica_sets: vec![],
            budgets: vec![],
        }
    }
}

/// The three controllers' work queues at a sync.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Queues {
    pub deployment: QueueView,
    pub replicaset: QueueView,
    pub garbagecollector: QueueView,
}

/// A ReplicaSet's expectations before and after a sync.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ExpectationsTrace {
    pub before: ExpectationsView,
    pub after: ExpectationsView,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentView {
    pub name: String,
    pub replicas: i32,
    pub paused: bool,
    pub generation: i64,
    pub observed_generation: i64,
    pub strategy: StrategyType,
    pub max_surge: i32,
    pub max_unavailable: i32,
    #[serde(skip_serializing_if = "omit")]
    pub revision: Option<String>,
    pub deleting: bool,
    pub status: DeploymentStatusView,
    pub conditions: Vec<ConditionView>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentStatusView {
    pub replicas: i32,
    pub updated_replicas: i32,
    pub ready_replicas: i32,
    pub available_replicas: i32,
    pub unavailable_replicas: i32,
    #[serde(skip_serializing_if = "omit")]
    pub terminating_replicas: Option<i32>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionView {
    pub type_: String,
    pub status: String,
    pub reason: String,
    #[serde(skip_serializing_if = "omit")]
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplicaSetView {
    pub name: String,
    pub revision: i64,
    pub replicas: i32,
    pub status: ReplicaSetStatusView,
    pub images: Vec<String>,
    pub pods: PodCounts,
    pub deleting: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetStatusView {
    pub replicas: i32,
    pub ready_replicas: i32,
    pub available_replicas: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PodCounts {
    pub pending: u32,
    pub running: u32,
    pub ready: u32,
    pub available: u32,
    pub terminating: u32,
}

/// The trace as JSON Lines.
/// The state a pod is drawn in: what `kubectl get pods` says, refined by readiness and
/// availability (minReadySeconds), which is what a rollout waits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PodState {
    Pending,
    ContainerCreating,
    Running,
    Ready,
    Available,
    Terminating,
    ErrImagePull,
    ImagePullBackOff,
    CrashLoopBackOff,
}

impl PodState {
    pub const ALL: [PodState; 9] = [
        PodState::Pending,
        PodState::ContainerCreating,
        PodState::Running,
        PodState::Ready,
        PodState::Available,
        PodState::Terminating,
        PodState::ErrImagePull,
        PodState::ImagePullBackOff,
        PodState::CrashLoopBackOff,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            PodState::Pending => "Pending",
            PodState::ContainerCreating => "ContainerCreating",
            PodState::Running => "Running",
            PodState::Ready => "Ready",
            PodState::Available => "Available",
            PodState::Terminating => "Terminating",
            PodState::ErrImagePull => "ErrImagePull",
            PodState::ImagePullBackOff => "ImagePullBackOff",
            PodState::CrashLoopBackOff => "CrashLoopBackOff",
        }
    }
    /// What the state means, for the legend.
    pub fn meaning(self) -> &'static str {
        match self {
            PodState::Pending => "accepted, not yet scheduled or started",
            PodState::ContainerCreating => "scheduled; pulling the image and starting",
            PodState::Running => "running, readiness probe not yet passing",
            PodState::Ready => "ready, waiting out minReadySeconds",
            PodState::Available => "ready for minReadySeconds: counts as available",
            PodState::Terminating => "deleted, in its grace period",
            PodState::ErrImagePull => "the image could not be pulled",
            PodState::ImagePullBackOff => "waiting before pulling the image again",
            PodState::CrashLoopBackOff => "the container keeps exiting; restarts back off",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodView {
    pub name: String,
    pub replica_set: String,
    pub state: PodState,
    /// The STATUS column of `kubectl get pods`.
    pub status: String,
    pub node: String,
}

pub fn to_jsonl<S: std::borrow::Borrow<TraceStep>>(steps: &[S]) -> String {
    let mut out = String::new();
    for s in steps {
        out.push_str(&serde_json::to_string(s.borrow()).expect("a trace step is JSON"));
        out.push('\n');
    }
    out
}

impl Serialize for PodState {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
