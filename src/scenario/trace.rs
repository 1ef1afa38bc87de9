//! The trace: one JSON object per step (a controller sync, a world event, a user action), in
//! the shape `shared/spec/simulation.md` §3 fixes, with the Deployment and its ReplicaSets as
//! they stand after the step.

use crate::cluster::events::Event;
use crate::controller::Explain;
use crate::value::codec::to_value;
use crate::value::{ToValue, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct TraceStep {
    pub t: u64,
    pub kind: &'static str,
    pub controller: Option<&'static str>,
    pub key: Option<String>,
    pub branch: Option<&'static str>,
    pub strategy: Option<String>,
    pub explain: Vec<Explain>,
    /// A sync that returned an error (the key is requeued with back-off).
    pub error: Option<String>,
    /// The command of an action step.
    pub command: Option<String>,
    pub caption: Option<String>,
    /// What kubectl printed.
    pub output: Option<String>,
    /// Why a command was rejected (nothing changed).
    pub errors: Vec<String>,
    /// World steps: what the scheduler and kubelets did.
    pub changes: Vec<String>,
    pub events: Vec<Event>,
    pub deployment: Option<DeploymentView>,
    pub replica_sets: Vec<ReplicaSetView>,
}

impl TraceStep {
    pub fn new(t: u64, kind: &'static str) -> TraceStep {
        TraceStep {
            t,
            kind,
            controller: None,
            key: None,
            branch: None,
            strategy: None,
            explain: vec![],
            error: None,
            command: None,
            caption: None,
            output: None,
            errors: vec![],
            changes: vec![],
            events: vec![],
            deployment: None,
            replica_sets: vec![],
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct DeploymentView {
    pub name: String,
    pub replicas: i32,
    pub paused: bool,
    pub generation: i64,
    pub observed_generation: i64,
    pub strategy: String,
    pub max_surge: i32,
    pub max_unavailable: i32,
    pub revision: Option<String>,
    pub deleting: bool,
    pub status: DeploymentStatusView,
    pub conditions: Vec<ConditionView>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DeploymentStatusView {
    pub replicas: i32,
    pub updated_replicas: i32,
    pub ready_replicas: i32,
    pub available_replicas: i32,
    pub unavailable_replicas: i32,
    pub terminating_replicas: Option<i32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConditionView {
    pub type_: String,
    pub status: String,
    pub reason: String,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReplicaSetView {
    pub name: String,
    pub revision: i64,
    pub replicas: i32,
    pub status: ReplicaSetStatusView,
    pub images: Vec<String>,
    pub pods: PodCounts,
    pub deleting: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReplicaSetStatusView {
    pub replicas: i32,
    pub ready_replicas: i32,
    pub available_replicas: i32,
}

#[derive(Clone, Debug, Default, PartialEq)]
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

#[derive(Clone, Debug, PartialEq)]
pub struct PodView {
    pub name: String,
    pub replica_set: String,
    pub state: PodState,
    /// The STATUS column of `kubectl get pods`.
    pub status: String,
    pub node: String,
}

pub fn to_jsonl(steps: &[TraceStep]) -> String {
    let mut out = String::new();
    for s in steps {
        out.push_str(&s.to_value().to_string());
        out.push('\n');
    }
    out
}

to_value!(TraceStep {
    t: "t" put,
    kind: "kind" put,
    controller: "controller" put_nonempty,
    key: "key" put_nonempty,
    branch: "branch" put_nonempty,
    strategy: "strategy" put_nonempty,
    explain: "explain" put_nonempty,
    error: "error" put_nonempty,
    command: "command" put_nonempty,
    caption: "caption" put_nonempty,
    output: "output" put_nonempty,
    errors: "errors" put_nonempty,
    changes: "changes" put_nonempty,
    events: "events" put_nonempty,
    deployment: "deployment" put_nonempty,
    replica_sets: "replicaSets" put,
});

to_value!(DeploymentView {
    name: "name" put,
    replicas: "replicas" put,
    paused: "paused" put,
    generation: "generation" put,
    observed_generation: "observedGeneration" put,
    strategy: "strategy" put,
    max_surge: "maxSurge" put,
    max_unavailable: "maxUnavailable" put,
    revision: "revision" put_nonempty,
    deleting: "deleting" put,
    status: "status" put,
    conditions: "conditions" put,
});

to_value!(DeploymentStatusView {
    replicas: "replicas" put,
    updated_replicas: "updatedReplicas" put,
    ready_replicas: "readyReplicas" put,
    available_replicas: "availableReplicas" put,
    unavailable_replicas: "unavailableReplicas" put,
    terminating_replicas: "terminatingReplicas" put_nonempty,
});

to_value!(ConditionView {
    type_: "type" put,
    status: "status" put,
    reason: "reason" put,
    message: "message" put_nonempty,
});

to_value!(ReplicaSetView {
    name: "name" put,
    revision: "revision" put,
    replicas: "replicas" put,
    status: "status" put,
    images: "images" put,
    pods: "pods" put,
    deleting: "deleting" put,
});

to_value!(ReplicaSetStatusView {
    replicas: "replicas" put,
    ready_replicas: "readyReplicas" put,
    available_replicas: "availableReplicas" put,
});

to_value!(PodCounts {
    pending: "pending" put,
    running: "running" put,
    ready: "ready" put,
    available: "available" put,
    terminating: "terminating" put,
});

impl ToValue for PodState {
    fn to_value(&self) -> Value {
        Value::from(self.as_str())
    }
}

to_value!(PodView {
    name: "name" put,
    replica_set: "replicaSet" put,
    state: "state" put,
    status: "status" put,
    node: "node" put,
});
