//! The trace: one JSON object per step (a controller sync, a world event, a user action), in
//! the shape `shared/spec/simulation.md` §3 fixes, with the Deployment and its ReplicaSets as
//! they stand after the step.

use crate::cluster::events::Event;
use crate::controller::Explain;
use crate::value::{Obj, ToValue, Value};

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

impl ToValue for TraceStep {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("t", &self.t)
            .put("kind", self.kind)
            .put_nonempty("controller", &self.controller)
            .put_nonempty("key", &self.key)
            .put_nonempty("branch", &self.branch)
            .put_nonempty("strategy", &self.strategy)
            .put_nonempty("explain", &self.explain)
            .put_nonempty("error", &self.error)
            .put_nonempty("command", &self.command)
            .put_nonempty("caption", &self.caption)
            .put_nonempty("output", &self.output)
            .put_nonempty("errors", &self.errors)
            .put_nonempty("changes", &self.changes)
            .put_nonempty("events", &self.events)
            .put_nonempty("deployment", &self.deployment)
            .put("replicaSets", &self.replica_sets)
            .build()
    }
}

impl ToValue for DeploymentView {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("name", &self.name)
            .put("replicas", &self.replicas)
            .put("paused", &self.paused)
            .put("generation", &self.generation)
            .put("observedGeneration", &self.observed_generation)
            .put("strategy", &self.strategy)
            .put("maxSurge", &self.max_surge)
            .put("maxUnavailable", &self.max_unavailable)
            .put_nonempty("revision", &self.revision)
            .put("deleting", &self.deleting)
            .put("status", &self.status)
            .put("conditions", &self.conditions)
            .build()
    }
}

impl ToValue for DeploymentStatusView {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("replicas", &self.replicas)
            .put("updatedReplicas", &self.updated_replicas)
            .put("readyReplicas", &self.ready_replicas)
            .put("availableReplicas", &self.available_replicas)
            .put("unavailableReplicas", &self.unavailable_replicas)
            .put_nonempty("terminatingReplicas", &self.terminating_replicas)
            .build()
    }
}

impl ToValue for ConditionView {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("type", &self.type_)
            .put("status", &self.status)
            .put("reason", &self.reason)
            .put_nonempty("message", &self.message)
            .build()
    }
}

impl ToValue for ReplicaSetView {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("name", &self.name)
            .put("revision", &self.revision)
            .put("replicas", &self.replicas)
            .put("status", &self.status)
            .put("images", &self.images)
            .put("pods", &self.pods)
            .put("deleting", &self.deleting)
            .build()
    }
}

impl ToValue for ReplicaSetStatusView {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("replicas", &self.replicas)
            .put("readyReplicas", &self.ready_replicas)
            .put("availableReplicas", &self.available_replicas)
            .build()
    }
}

impl ToValue for PodCounts {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("pending", &self.pending)
            .put("running", &self.running)
            .put("ready", &self.ready)
            .put("available", &self.available)
            .put("terminating", &self.terminating)
            .build()
    }
}

impl ToValue for PodState {
    fn to_value(&self) -> Value {
        Value::from(self.as_str())
    }
}

impl ToValue for PodView {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("name", &self.name)
            .put("replicaSet", &self.replica_set)
            .put("state", &self.state)
            .put("status", &self.status)
            .put("node", &self.node)
            .build()
    }
}
