//! The trace: one JSON object per step (a controller sync, a world event, a user action), in
//! the shape `shared/spec/simulation.md` §3 fixes, with the Deployment and its ReplicaSets as
//! they stand after the step.

use crate::api::codec::omit;
use crate::api::{Str, StrategyType};
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

/// One step of the trace: when, what kind of step with the fields that kind has, and the
/// focus Deployment, its ReplicaSets and the budgets as they stand after it.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceStep {
    pub t: u64,
    pub body: Body,
    pub events: Vec<Event>,
    pub deployment: Option<DeploymentView>,
    pub replica_sets: Vec<ReplicaSetView>,
    /// The PodDisruptionBudgets' status after the step (when the world has any).
    pub budgets: Vec<BudgetView>,
    /// The load's requests so far, when the world has a load (`world.traffic`).
    pub traffic: Option<TrafficView>,
    /// The pods (`namespace/name`) kube-proxy still sends requests to that no longer serve.
    pub dropping: Vec<Str>,
}

/// The load's requests from the run's start to a step (whole requests, rounded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrafficView {
    pub served: u64,
    pub failed: u64,
    /// Of the failed: sent to a pod that no longer served (kube-proxy had not seen it leave).
    pub failed_stopped: u64,
    /// Of the failed: kube-proxy had no endpoint to send them to.
    pub failed_no_endpoint: u64,
}

/// What a step is, with the fields of its kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// A user's command or caption (or a step's `world:`).
    Action(ActionStep),
    /// One controller sync.
    Sync(SyncStep),
    /// The pod changes the scheduler and kubelets made at one instant (and what the node
    /// lifecycle, taint eviction and disruption controllers, and a drain's evictions, did),
    /// in words.
    World(Vec<String>),
}

/// One controller sync.
#[derive(Clone, Debug, PartialEq)]
pub struct SyncStep {
    pub controller: Controller,
    /// The work queue's key the sync took (`namespace/name`).
    pub key: String,
    /// The `syncDeployment` branch a Deployment sync took.
    pub branch: Option<Branch>,
    /// A Deployment sync's way down `syncDeployment`'s ladder (its explain line says the same
    /// in words, which is what the JSON trace carries).
    pub ladder: Option<Ladder>,
    pub strategy: Option<StrategyType>,
    /// Why the sync ran: the watch event a handler turned into its key, or a requeue.
    pub cause: Option<Cause>,
    /// The upstream functions the sync ran, in call order with their depth (the explain
    /// lines name the function whose numbers they give).
    pub calls: Vec<Call>,
    /// The writes the sync made, in order, each with the index of the call that made it.
    pub writes: Vec<Write>,
    pub explain: Vec<Explain>,
    /// A ReplicaSet sync's expectations when it began and when it ended.
    pub expectations: Option<ExpectationsTrace>,
    /// The slow-start batches a ReplicaSet sync created pods in.
    pub batches: Vec<usize>,
    /// `burstReplicas`, when it capped a ReplicaSet sync's creates or deletes.
    pub burst_replicas: Option<usize>,
    /// The pods a ReplicaSet sync deleted, first to last, each with the ranking keys that
    /// put it ahead of the pods it kept (`ActivePodsWithRanks`).
    pub deletions: Vec<Deletion>,
    /// What each controller's work queue held when the sync took its key (that key is the
    /// one being processed).
    pub queues: Option<Box<Queues>>,
    /// A sync that returned an error (the key is requeued with back-off).
    pub error: Option<String>,
}

impl SyncStep {
    /// A sync of `controller` on `key`, before it ran.
    pub fn new(controller: Controller, key: String) -> SyncStep {
        SyncStep {
            controller,
            key,
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
        }
    }
}

/// A user's step: a command, a caption, a `world:` change.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ActionStep {
    /// The command line (with its here-document, if any).
    pub command: Option<String>,
    pub caption: Option<String>,
    /// What kubectl printed.
    pub output: Option<String>,
    /// Why a command was rejected (nothing changed), or the error a watching command ended
    /// with.
    pub errors: Vec<String>,
    /// A watching command (`kubectl rollout status`): the lines after its first, and its end.
    pub watch: Option<super::watch::WatchLog>,
    /// What the step changed besides its command (`world: {…}`, a drain's evictions).
    pub changes: Vec<String>,
}

/// The JSON trace's flat object (`shared/spec/simulation.md` §3): every kind's fields in one
/// order, each written only when its step has it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Flat<'a> {
    t: u64,
    kind: StepKind,
    #[serde(skip_serializing_if = "omit")]
    controller: Option<Controller>,
    #[serde(skip_serializing_if = "omit")]
    key: Option<&'a str>,
    #[serde(skip_serializing_if = "omit")]
    branch: Option<Branch>,
    #[serde(skip_serializing_if = "omit")]
    strategy: Option<StrategyType>,
    #[serde(skip_serializing_if = "omit")]
    cause: Option<&'a Cause>,
    #[serde(skip_serializing_if = "omit")]
    calls: &'a [Call],
    #[serde(skip_serializing_if = "omit")]
    writes: &'a [Write],
    #[serde(skip_serializing_if = "omit")]
    explain: &'a [Explain],
    #[serde(skip_serializing_if = "omit")]
    expectations: Option<&'a ExpectationsTrace>,
    #[serde(skip_serializing_if = "omit")]
    batches: &'a [usize],
    #[serde(skip_serializing_if = "omit")]
    burst_replicas: Option<usize>,
    #[serde(skip_serializing_if = "omit")]
    deletions: &'a [Deletion],
    #[serde(skip_serializing_if = "omit")]
    queues: Option<&'a Queues>,
    #[serde(skip_serializing_if = "omit")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "omit")]
    command: Option<&'a str>,
    #[serde(skip_serializing_if = "omit")]
    caption: Option<&'a str>,
    #[serde(skip_serializing_if = "omit")]
    output: Option<&'a str>,
    #[serde(skip_serializing_if = "omit")]
    errors: &'a [String],
    #[serde(skip_serializing_if = "omit")]
    watch: Option<&'a super::watch::WatchLog>,
    #[serde(skip_serializing_if = "omit")]
    changes: &'a [String],
    #[serde(skip_serializing_if = "omit")]
    events: &'a [Event],
    #[serde(skip_serializing_if = "omit")]
    deployment: Option<&'a DeploymentView>,
    replica_sets: &'a [ReplicaSetView],
    #[serde(skip_serializing_if = "omit")]
    budgets: &'a [BudgetView],
    #[serde(skip_serializing_if = "Option::is_none")]
    traffic: Option<&'a TrafficView>,
    #[serde(skip_serializing_if = "omit")]
    dropping: &'a [Str],
}

impl Serialize for TraceStep {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut flat = Flat {
            t: self.t,
            kind: self.kind(),
            controller: None,
            key: None,
            branch: None,
            strategy: None,
            cause: None,
            calls: &[],
            writes: &[],
            explain: &[],
            expectations: None,
            batches: &[],
            burst_replicas: None,
            deletions: &[],
            queues: None,
            error: None,
            command: None,
            caption: None,
            output: None,
            errors: &[],
            watch: None,
            changes: &[],
            events: &self.events,
            deployment: self.deployment.as_ref(),
            replica_sets: &self.replica_sets,
            budgets: &self.budgets,
            traffic: self.traffic.as_ref(),
            dropping: &self.dropping,
        };
        match &self.body {
            Body::Sync(y) => {
                flat.controller = Some(y.controller);
                flat.key = Some(&y.key);
                flat.branch = y.branch;
                flat.strategy = y.strategy;
                flat.cause = y.cause.as_ref();
                flat.calls = &y.calls;
                flat.writes = &y.writes;
                flat.explain = &y.explain;
                flat.expectations = y.expectations.as_ref();
                flat.batches = &y.batches;
                flat.burst_replicas = y.burst_replicas;
                flat.deletions = &y.deletions;
                flat.queues = y.queues.as_deref();
                flat.error = y.error.as_deref();
            }
            Body::Action(a) => {
                flat.command = a.command.as_deref();
                flat.caption = a.caption.as_deref();
                flat.output = a.output.as_deref();
                flat.errors = &a.errors;
                flat.watch = a.watch.as_ref();
                flat.changes = &a.changes;
            }
            Body::World(changes) => flat.changes = changes,
        }
        flat.serialize(s)
    }
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
    /// A step at `t` with nothing recorded after it yet (`Cluster::push_step` fills that in).
    pub fn new(t: u64, body: Body) -> TraceStep {
        TraceStep {
            t,
            body,
            events: vec![],
            deployment: None,
            replica_sets: vec![],
            budgets: vec![],
            traffic: None,
            dropping: vec![],
        }
    }

    pub fn kind(&self) -> StepKind {
        match self.body {
            Body::Action(_) => StepKind::Action,
            Body::Sync(_) => StepKind::Sync,
            Body::World(_) => StepKind::World,
        }
    }

    /// The sync this step is, if it is one.
    pub fn sync(&self) -> Option<&SyncStep> {
        match &self.body {
            Body::Sync(y) => Some(y),
            _ => None,
        }
    }

    /// The sync of `controller` this step is, if it is one.
    pub fn sync_of(&self, controller: Controller) -> Option<&SyncStep> {
        self.sync().filter(|y| y.controller == controller)
    }

    /// Whether this step is a sync of the Deployment `key` (`namespace/name`; none is no
    /// Deployment's).
    pub fn is_deployment_sync(&self, key: Option<&str>) -> bool {
        self.sync_of(Controller::Deployment)
            .is_some_and(|y| key == Some(y.key.as_str()))
    }

    /// The controller whose sync this step is.
    pub fn controller(&self) -> Option<Controller> {
        self.sync().map(|y| y.controller)
    }

    /// The key a sync step took.
    pub fn key(&self) -> Option<&str> {
        self.sync().map(|y| y.key.as_str())
    }

    /// The `syncDeployment` branch a Deployment sync took.
    pub fn branch(&self) -> Option<Branch> {
        self.sync().and_then(|y| y.branch)
    }

    /// What a sync explained (nothing for other steps).
    pub fn explain(&self) -> &[Explain] {
        self.sync().map_or(&[], |y| &y.explain)
    }

    /// The strategy a Deployment sync saw.
    pub fn strategy(&self) -> Option<StrategyType> {
        self.sync().and_then(|y| y.strategy)
    }

    /// The writes a sync made (none for other steps).
    pub fn writes(&self) -> &[Write] {
        self.sync().map_or(&[], |y| &y.writes)
    }

    /// Why a command was refused, or the error a watching command ended with (none for other
    /// steps).
    pub fn errors(&self) -> &[String] {
        self.action().map_or(&[], |a| &a.errors)
    }

    /// What kubectl printed for an action step.
    pub fn output(&self) -> Option<&str> {
        self.action().and_then(|a| a.output.as_deref())
    }

    /// The error a sync returned.
    pub fn error(&self) -> Option<&str> {
        self.sync().and_then(|y| y.error.as_deref())
    }

    /// The user's step this is, if it is one.
    pub fn action(&self) -> Option<&ActionStep> {
        match &self.body {
            Body::Action(a) => Some(a),
            _ => None,
        }
    }

    pub fn action_mut(&mut self) -> Option<&mut ActionStep> {
        match &mut self.body {
            Body::Action(a) => Some(a),
            _ => None,
        }
    }

    /// The command of an action step.
    pub fn command(&self) -> Option<&str> {
        self.action().and_then(|a| a.command.as_deref())
    }

    /// The caption of an action step.
    pub fn caption(&self) -> Option<&str> {
        self.action().and_then(|a| a.caption.as_deref())
    }

    /// What an action or a World step changed, in words.
    pub fn changes(&self) -> &[String] {
        match &self.body {
            Body::Action(a) => &a.changes,
            Body::World(c) => c,
            Body::Sync(_) => &[],
        }
    }

    /// Who made a World step's changes, in words: the disruption controller's status writes
    /// and a drain's evictions have steps of their own.
    pub fn world_source(&self) -> &'static str {
        let changes = self.changes();
        let all = |p: &str| !changes.is_empty() && changes.iter().all(|c| c.starts_with(p));
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
