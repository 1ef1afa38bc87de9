//! The Kubernetes object model the playground needs: apps/v1 Deployment and ReplicaSet, v1 Pod,
//! ObjectMeta, label selectors, IntOrString and conditions. Fields the playground does not model
//! are kept verbatim in `extra` maps, so a manifest read in is written out with nothing dropped.

pub mod aliases;
pub mod census;
pub mod codec;
pub mod decode;
pub mod defaults;
pub mod intstr;
pub mod labels;
pub mod policy;
pub mod print;
pub mod quantity;
pub mod resources;
pub mod schema;
pub mod service;
pub mod sort;
mod str;
pub mod table;
pub mod time;
pub mod validation;
pub mod yaml;

/// Parses counted in a test build: how many times a change's text is read, as YAML
/// (`yaml.rs`'s readers) and as a command line (`kubectl::line::parse`). Issue 47 asks for
/// one of each per change; `web/state/tests.rs` measures an Apply and a console command.
#[cfg(test)]
pub mod parses {
    use std::cell::Cell;

    thread_local! {
        static YAML: Cell<u32> = const { Cell::new(0) };
        static COMMAND: Cell<u32> = const { Cell::new(0) };
    }

    pub fn yaml() {
        YAML.with(|n| n.set(n.get() + 1));
    }

    pub fn command() {
        COMMAND.with(|n| n.set(n.get() + 1));
    }

    /// (YAML parses, command parses) since the last take.
    pub fn take() -> (u32, u32) {
        (YAML.with(|n| n.replace(0)), COMMAND.with(|n| n.replace(0)))
    }
}

pub use intstr::IntOrString;
pub use labels::{LabelSelector, LabelSelectorRequirement, Labels};
pub use policy::PodDisruptionBudget;
pub use str::Str;
pub use time::Time;

use serde::{Deserialize, Serialize};
pub use serde_json::Value;

/// A JSON object: unmodelled fields, manifests and patches as they came, keys in their order.
pub type Map = serde_json::Map<String, Value>;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A value shared on clone and copied on first write. The controllers and the kubelet copy
/// objects on every write, and most of a pod never changes after creation (its labels, owner,
/// spec); sharing those parts makes a copy cost what actually changes.
#[derive(Clone, Debug, Default)]
pub struct Shared<T>(Rc<T>);

impl<T: Clone> Shared<T> {
    pub fn new(v: T) -> Shared<T> {
        Shared(Rc::new(v))
    }
}

impl<T> Shared<T> {
    /// How many objects (and pools) hold this value.
    pub fn holders(a: &Shared<T>) -> usize {
        Rc::strong_count(&a.0)
    }
    /// Whether both share one value (a pod's labels and its siblings', copied from one
    /// template): then anything computed from one holds for the other.
    pub fn same(a: &Shared<T>, b: &Shared<T>) -> bool {
        Rc::ptr_eq(&a.0, &b.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Rc::make_mut(&mut self.0)
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<'a, T> IntoIterator for &'a Shared<Vec<T>> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a Shared<BTreeMap<K, V>> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::collections::btree_map::Iter<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: Clone> From<T> for Shared<T> {
    fn from(v: T) -> Shared<T> {
        Shared::new(v)
    }
}

/// Unmodelled fields, kept as they came.
pub type Extra = Shared<Map>;

impl Extra {
    /// Sets `key` only when it is absent (a default), without copying a shared map otherwise.
    pub fn default_field(&mut self, key: &str, value: impl FnOnce() -> Value) {
        if !self.0.contains_key(key) {
            Rc::make_mut(&mut self.0).insert(key.to_string(), value());
        }
    }
}

pub const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";
pub const REVISION_HISTORY_ANNOTATION: &str = "deployment.kubernetes.io/revision-history";
pub const DESIRED_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/desired-replicas";
pub const MAX_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/max-replicas";
pub const DEPRECATED_ROLLBACK_TO: &str = "deprecated.deployment.rollback.to";
pub const LAST_APPLIED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";
pub const CHANGE_CAUSE_ANNOTATION: &str = "kubernetes.io/change-cause";
pub const POD_DELETION_COST_ANNOTATION: &str = "controller.kubernetes.io/pod-deletion-cost";
pub const DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY: &str = "pod-template-hash";

pub const FINALIZER_FOREGROUND: &str = "foregroundDeletion";
pub const FINALIZER_ORPHAN: &str = "orphan";

/// Laid out in this order (`repr(C)`): what a ReplicaSet reads of each of its pods on a
/// scale-down (being deleted?, labels, deletion cost, age, uid) comes first, within two cache
/// lines of a pod's spec and status, since a scale-down of thousands reads it from memory. It
/// is written in the Go struct's order all the same (`codec.rs`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[repr(C)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    pub deletion_timestamp: Option<Time>,
    pub creation_timestamp: Option<Time>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub labels: Shared<Labels>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub owner_references: Shared<Vec<OwnerReference>>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub annotations: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub uid: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub name: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub namespace: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub resource_version: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub generate_name: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub generation: i64,
    pub deletion_grace_period_seconds: Option<i64>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub finalizers: Vec<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

impl ObjectMeta {
    /// The ownerReference with `controller: true`, if any (upstream `GetControllerOf`).
    pub fn controller_ref(&self) -> Option<&OwnerReference> {
        self.owner_references
            .iter()
            .find(|r| r.controller == Some(true))
    }

    pub fn key(&self) -> Str {
        key_of(&self.namespace, &self.name)
    }

    /// Adoption's `ownerRefControllerPatch`: a strategic-merge patch, so ownerReferences merge
    /// on `uid`: a reference to the same owner already there becomes the controller reference
    /// (there stays exactly one reference to that owner); otherwise the reference is added.
    pub fn set_controller_ref(&mut self, r: OwnerReference) {
        let refs = &mut *self.owner_references;
        match refs.iter_mut().find(|o| o.uid == r.uid) {
            Some(o) => *o = r,
            None => refs.push(r),
        }
    }
}

/// `a/b` (a `namespace/name` key, or `Kind/name`): keys are built on every write and lookup,
/// and most fit inline, without an allocation.
pub fn key_of(a: &str, b: &str) -> Str {
    Str::concat(&[a, "/", b])
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    pub api_version: Str,
    pub kind: Str,
    pub name: Str,
    pub uid: Str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
}

impl OwnerReference {
    /// `metav1.NewControllerRef`: controller and blockOwnerDeletion both true.
    pub fn controller_of(api_version: &str, kind: &str, meta: &ObjectMeta) -> OwnerReference {
        OwnerReference {
            api_version: api_version.into(),
            kind: kind.into(),
            name: meta.name.clone(),
            uid: meta.uid.clone(),
            controller: Some(true),
            block_owner_deletion: Some(true),
        }
    }
}

// ---------------------------------------------------------------- pod template and pods

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodTemplateSpec {
    #[serde(default, deserialize_with = "codec::nd")]
    pub metadata: ObjectMeta,
    #[serde(default, deserialize_with = "codec::nd")]
    pub spec: PodSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    #[serde(default, deserialize_with = "codec::nd")]
    pub containers: Shared<Vec<Container>>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub restart_policy: Str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub termination_grace_period_seconds: Option<i64>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub node_name: Str,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    #[serde(default, deserialize_with = "codec::nd")]
    pub name: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub image: Str,
    #[serde(flatten)]
    pub extra: Extra,
}

/// A container's probes, by their field names (`v1.Container`).
pub const PROBES: [&str; 3] = ["livenessProbe", "readinessProbe", "startupProbe"];
/// The ways a probe can check a container (`v1.ProbeHandler`); exactly one is given.
pub const PROBE_HANDLERS: [&str; 4] = ["exec", "httpGet", "tcpSocket", "grpc"];

/// A probe's numbers (`v1.Probe`), which decide when the kubelet's prober reports a container
/// ready. The handler stays among the container's unmodelled fields: in the simulation a probe
/// passes whenever it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeTiming {
    pub initial_delay_seconds: i64,
    pub timeout_seconds: i64,
    pub period_seconds: i64,
    pub success_threshold: i64,
    pub failure_threshold: i64,
}

impl ProbeTiming {
    /// The probe's numbers, `SetDefaults_Probe`'s where one is absent or zero (timeout 1 s,
    /// period 10 s, one success, three failures).
    pub fn of(probe: &Value) -> ProbeTiming {
        let n = |k: &str, default: i64| match probe.get(k).and_then(Value::as_i64) {
            None | Some(0) => default,
            Some(v) => v,
        };
        ProbeTiming {
            initial_delay_seconds: probe
                .get("initialDelaySeconds")
                .and_then(Value::as_i64)
                .unwrap_or(0),
            timeout_seconds: n("timeoutSeconds", 1),
            period_seconds: n("periodSeconds", 10),
            success_threshold: n("successThreshold", 1),
            failure_threshold: n("failureThreshold", 3),
        }
    }

    /// How long after the container starts a passing readiness probe makes it ready: the
    /// first probe runs once `initialDelaySeconds` have passed, and it takes
    /// `successThreshold` passes in a row, one each `periodSeconds`.
    pub fn ready_after_ms(&self) -> u64 {
        let secs = self.initial_delay_seconds.max(0)
            + (self.success_threshold.max(1) - 1) * self.period_seconds.max(1);
        secs as u64 * 1000
    }
}

impl Container {
    /// The container's readiness probe, if it has one.
    pub fn readiness_probe(&self) -> Option<ProbeTiming> {
        self.extra
            .get("readinessProbe")
            .filter(|v| v.is_object())
            .map(ProbeTiming::of)
    }
}

/// `repr(C)`, spec and status first: see [`ObjectMeta`].
#[derive(Clone, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Pod {
    pub spec: Shared<PodSpec>,
    pub status: Shared<PodStatus>,
    pub metadata: ObjectMeta,
    /// `status.podIP` (and `podIPs`, the one address) when it is an IPv4 address, as the
    /// kubelet reports it once the pod's sandbox runs. It lives beside the status, not in it:
    /// a status is shared by every pod that reached the same state at the same instant
    /// (`apiserver/intern.rs`), which an address per pod would end. Any other address (IPv6,
    /// dual stack) stays in `status.extra` as written.
    pub ip: Option<std::net::Ipv4Addr>,
}

/// A string field of an object's unmodelled fields (empty when absent or not a string).
pub fn str_field<'a>(extra: &'a Map, key: &str) -> &'a str {
    extra.get(key).and_then(Value::as_str).unwrap_or("")
}

impl Pod {
    /// `status.podIP` (empty when it has none).
    pub fn pod_ip(&self) -> String {
        match self.ip {
            Some(ip) => ip.to_string(),
            None => str_field(&self.status.extra, "podIP").to_string(),
        }
    }

    /// `status.podIPs`' addresses, in order.
    pub fn pod_ips(&self) -> Vec<String> {
        if let Some(ip) = self.ip {
            return vec![ip.to_string()];
        }
        let listed = self.status.extra.get("podIPs").and_then(Value::as_array);
        listed
            .into_iter()
            .flatten()
            .map(|p| {
                p.get("ip")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    }
}

/// `v1.ConditionStatus`: a condition's status. The objects keep it as the string they were
/// given (the API's type is a string); code compares and sets it through this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConditionStatus {
    True,
    False,
    Unknown,
}

impl ConditionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ConditionStatus::True => "True",
            ConditionStatus::False => "False",
            ConditionStatus::Unknown => "Unknown",
        }
    }
}

impl std::fmt::Display for ConditionStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl From<ConditionStatus> for String {
    fn from(s: ConditionStatus) -> String {
        s.as_str().to_string()
    }
}

impl From<ConditionStatus> for Str {
    fn from(s: ConditionStatus) -> Str {
        Str::new(s.as_str())
    }
}

impl PartialEq<ConditionStatus> for String {
    fn eq(&self, other: &ConditionStatus) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<ConditionStatus> for Str {
    fn eq(&self, other: &ConditionStatus) -> bool {
        self.as_str() == other.as_str()
    }
}

pub const PHASE_PENDING: &str = "Pending";
pub const PHASE_RUNNING: &str = "Running";
pub const PHASE_SUCCEEDED: &str = "Succeeded";
pub const PHASE_FAILED: &str = "Failed";
pub const PHASE_UNKNOWN: &str = "Unknown";

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub phase: Str,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub conditions: Vec<PodCondition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<Time>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub container_statuses: Vec<ContainerStatus>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodCondition {
    #[serde(rename = "type")]
    pub type_: Str,
    pub status: Str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub reason: Str,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub message: Str,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    pub name: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub image: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub ready: bool,
    #[serde(default, deserialize_with = "codec::nd")]
    pub restart_count: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub started: bool,
    #[serde(default, deserialize_with = "codec::nd")]
    pub state: ContainerState,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub last_state: ContainerState,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerState {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<ContainerStateWaiting>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<ContainerStateRunning>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminated: Option<ContainerStateTerminated>,
}

impl ContainerState {
    pub fn is_empty(&self) -> bool {
        self.waiting.is_none() && self.running.is_none() && self.terminated.is_none()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateWaiting {
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub reason: Str,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub message: Str,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateRunning {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<Time>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateTerminated {
    #[serde(default, deserialize_with = "codec::nd")]
    pub exit_code: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub signal: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub message: Str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<Time>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub reason: Str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<Time>,
}

/// Whether one toleration tolerates a taint of this key, value and effect
/// (`Toleration.ToleratesTaint`), as the scheduler and the taint eviction controller ask.
pub fn toleration_matches(t: &Value, key: &str, value: &str, effect: &str) -> bool {
    let s = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("");
    let effect_ok = s("effect").is_empty() || s("effect") == effect;
    let key_ok = s("key").is_empty() && s("operator") == "Exists" || s("key") == key;
    let value_ok = match s("operator") {
        "Exists" => true,
        "" | "Equal" => s("value") == value,
        _ => false,
    };
    effect_ok && key_ok && value_ok
}

impl PodStatus {
    /// A condition's status, with its transition time when the status changes (added if
    /// absent): what the kubelet and the node lifecycle controller set, its reason and
    /// message left as they are.
    pub fn set_condition(&mut self, type_: &str, status: ConditionStatus, now: Time) {
        if let Some(c) = self.conditions.iter_mut().find(|c| c.type_ == type_) {
            if c.status != status {
                c.status = status.into();
                c.last_transition_time = Some(now);
            }
            return;
        }
        self.conditions.push(PodCondition {
            type_: type_.into(),
            status: status.into(),
            last_transition_time: Some(now),
            ..Default::default()
        });
    }

    /// `podutil.UpdatePodCondition`: the condition set, or added; a status it already had
    /// keeps its transition time.
    pub fn update_condition(&mut self, c: PodCondition) {
        match self.conditions.iter_mut().find(|o| o.type_ == c.type_) {
            Some(o) => {
                let since = if o.status == c.status {
                    o.last_transition_time
                } else {
                    c.last_transition_time
                };
                *o = PodCondition {
                    last_transition_time: since,
                    ..c
                };
            }
            None => self.conditions.push(c),
        }
    }
}

impl Pod {
    /// The pod's tolerations, as written.
    pub fn tolerations(&self) -> impl Iterator<Item = &Value> {
        let list = self.spec.extra.get("tolerations").and_then(Value::as_array);
        list.into_iter().flatten()
    }

    /// The Ready condition, if the pod has one.
    pub fn ready_condition(&self) -> Option<&PodCondition> {
        self.status.conditions.iter().find(|c| c.type_ == "Ready")
    }

    /// `podutil.IsPodReady`.
    pub fn is_ready(&self) -> bool {
        self.ready_condition()
            .is_some_and(|c| c.status == ConditionStatus::True)
    }

    /// `podutil.IsPodAvailable`: ready, and ready for `min_ready_seconds`: at least that long
    /// when `at_min_ready` (v1.34, PR #132122), else longer (before).
    pub fn is_available(&self, min_ready_seconds: i32, now: Time, at_min_ready: bool) -> bool {
        let Some(c) = self
            .ready_condition()
            .filter(|c| c.status == ConditionStatus::True)
        else {
            return false;
        };
        if min_ready_seconds == 0 {
            return true;
        }
        c.last_transition_time.is_some_and(|t| {
            let due = t.plus_secs(min_ready_seconds as i64);
            if at_min_ready { due <= now } else { due < now }
        })
    }

    /// Succeeded or Failed (`podutil.IsPodTerminal`).
    pub fn is_terminal(&self) -> bool {
        self.status.phase == PHASE_SUCCEEDED || self.status.phase == PHASE_FAILED
    }

    /// `controller.IsPodActive`: not terminal and not being deleted.
    pub fn is_active(&self) -> bool {
        !self.is_terminal() && self.metadata.deletion_timestamp.is_none()
    }

    /// `controller.IsPodTerminating`: being deleted but not yet terminal.
    pub fn is_terminating(&self) -> bool {
        !self.is_terminal() && self.metadata.deletion_timestamp.is_some()
    }

    pub fn max_restarts(&self) -> i32 {
        self.status
            .container_statuses
            .iter()
            .map(|c| c.restart_count)
            .max()
            .unwrap_or(0)
    }

    pub fn restarts(&self) -> i32 {
        self.status
            .container_statuses
            .iter()
            .map(|c| c.restart_count)
            .sum()
    }
}

// ---------------------------------------------------------------- Deployment

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Deployment {
    pub metadata: ObjectMeta,
    pub spec: DeploymentSpec,
    pub status: DeploymentStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub template: PodTemplateSpec,
    #[serde(default, deserialize_with = "codec::nd")]
    pub strategy: DeploymentStrategy,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub min_ready_seconds: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub paused: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress_deadline_seconds: Option<i32>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentStrategy {
    #[serde(rename = "type")]
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub type_: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateDeployment>,
}

pub const RECREATE: &str = StrategyType::Recreate.as_str();
pub const ROLLING_UPDATE: &str = StrategyType::RollingUpdate.as_str();

/// The two values `spec.strategy.type` may take, as the trace and the page compare them. The
/// object keeps the string it was given ([`DeploymentStrategy::type_`]), so that validation
/// names an unsupported one as the apiserver does; a stored Deployment's is always one of these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub enum StrategyType {
    /// The API's default.
    #[default]
    RollingUpdate,
    Recreate,
}

impl StrategyType {
    /// In the order the page offers them.
    pub const ALL: [StrategyType; 2] = [StrategyType::RollingUpdate, StrategyType::Recreate];

    /// The value as the API spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            StrategyType::RollingUpdate => "RollingUpdate",
            StrategyType::Recreate => "Recreate",
        }
    }

    /// The strategy `s` names (`None`: a value the apiserver refuses).
    pub fn of(s: &str) -> Option<StrategyType> {
        StrategyType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

impl std::fmt::Display for StrategyType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl DeploymentStrategy {
    /// The strategy this one is, an unset type read as the default (RollingUpdate) as the
    /// apiserver's defaulting reads it.
    pub fn kind(&self) -> Option<StrategyType> {
        match self.type_.as_str() {
            "" => Some(StrategyType::default()),
            s => StrategyType::of(s),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdateDeployment {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentStatus {
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub observed_generation: i64,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub updated_replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub ready_replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub available_replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub unavailable_replicas: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminating_replicas: Option<i32>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub conditions: Vec<DeploymentCondition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_update_time: Option<Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub reason: String,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub message: String,
}

impl Deployment {
    pub fn replicas(&self) -> i32 {
        self.spec.replicas.unwrap_or(1)
    }
    pub fn is_rolling(&self) -> bool {
        self.spec.strategy.type_ == ROLLING_UPDATE
    }
    pub fn selector(&self) -> LabelSelector {
        self.spec.selector.clone().unwrap_or_default()
    }
}

// ---------------------------------------------------------------- Node

/// A `v1` Node: what the scheduler fits pods on (its allocatable resources, whether it is
/// cordoned, its taints and labels). Cluster-scoped: its namespace is empty.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    pub metadata: ObjectMeta,
    pub spec: NodeSpec,
    pub status: NodeStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSpec {
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub unschedulable: bool,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub taints: Vec<Taint>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Taint {
    #[serde(default, deserialize_with = "codec::nd")]
    pub key: String,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub value: String,
    #[serde(default, deserialize_with = "codec::nd")]
    pub effect: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_added: Option<Time>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeStatus {
    /// Quantities by resource name (`cpu: "4"`, `memory: 16Gi`, `pods: "110"`).
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub capacity: Map,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub allocatable: Map,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub conditions: Vec<PodCondition>,
    #[serde(flatten)]
    pub extra: Extra,
}

impl Node {
    /// A resource's allocatable quantity as text (`"4"`, `"16Gi"`), as the scheduler reads it.
    pub fn allocatable(&self, resource: &str) -> Option<String> {
        quantity_text(self.status.allocatable.get(resource)?)
    }
}

/// A quantity as written: a string, or a bare number (`cpu: 4`).
pub fn quantity_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

// ---------------------------------------------------------------- ReplicaSet

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplicaSet {
    pub metadata: ObjectMeta,
    pub spec: ReplicaSetSpec,
    pub status: ReplicaSetStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub min_ready_seconds: i32,
    #[serde(default, deserialize_with = "codec::nd")]
    pub selector: LabelSelector,
    #[serde(default, deserialize_with = "codec::nd")]
    pub template: PodTemplateSpec,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetStatus {
    #[serde(default, deserialize_with = "codec::nd")]
    pub replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub fully_labeled_replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub ready_replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub available_replicas: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminating_replicas: Option<i32>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub observed_generation: i64,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub conditions: Vec<ReplicaSetCondition>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub reason: String,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub message: String,
}

impl ReplicaSet {
    pub fn replicas(&self) -> i32 {
        self.spec.replicas.unwrap_or(1)
    }

    /// The images of the pod template's containers, in order.
    pub fn images(&self) -> Vec<String> {
        self.spec.template.images()
    }
}

impl PodTemplateSpec {
    /// The images of the template's containers, in order.
    pub fn images(&self) -> Vec<String> {
        self.spec
            .containers
            .iter()
            .map(|c| c.image.to_string())
            .collect()
    }
}

/// Any object the store holds. Deployments and ReplicaSets are boxed: they are few and nearly
/// three times a pod's size, and unboxed they would make every pod's allocation that large.
/// Pods stay inline: they are most objects, and a box would cost each one an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Object {
    Deployment(Box<Deployment>),
    ReplicaSet(Box<ReplicaSet>),
    Pod(Pod),
    Node(Box<Node>),
    PodDisruptionBudget(Box<PodDisruptionBudget>),
    Service(Box<service::Service>),
    EndpointSlice(Box<service::EndpointSlice>),
}

/// A kind the store serves, typed (kube-rs's `Resource`): an object goes into the store as an
/// [`Object`] and comes back as what it was (`Store::api`).
pub trait Typed: Sized {
    fn into_object(self) -> Object;
    /// The object, when it is of this kind.
    fn from_object(o: Object) -> Option<Self>;
}

impl Typed for Deployment {
    fn into_object(self) -> Object {
        Object::Deployment(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::Deployment(d) => Some(*d),
            _ => None,
        }
    }
}

impl Typed for ReplicaSet {
    fn into_object(self) -> Object {
        Object::ReplicaSet(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::ReplicaSet(r) => Some(*r),
            _ => None,
        }
    }
}

impl Typed for Node {
    fn into_object(self) -> Object {
        Object::Node(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::Node(n) => Some(*n),
            _ => None,
        }
    }
}

impl Typed for PodDisruptionBudget {
    fn into_object(self) -> Object {
        Object::PodDisruptionBudget(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::PodDisruptionBudget(b) => Some(*b),
            _ => None,
        }
    }
}

impl Typed for service::Service {
    fn into_object(self) -> Object {
        Object::Service(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::Service(s) => Some(*s),
            _ => None,
        }
    }
}

impl Typed for service::EndpointSlice {
    fn into_object(self) -> Object {
        Object::EndpointSlice(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::EndpointSlice(s) => Some(*s),
            _ => None,
        }
    }
}

impl Typed for Pod {
    fn into_object(self) -> Object {
        Object::Pod(self)
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::Pod(p) => Some(p),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Deployment,
    ReplicaSet,
    Pod,
    Node,
    PodDisruptionBudget,
    Service,
    EndpointSlice,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Deployment => "Deployment",
            Kind::ReplicaSet => "ReplicaSet",
            Kind::Pod => "Pod",
            Kind::Node => "Node",
            Kind::PodDisruptionBudget => "PodDisruptionBudget",
            Kind::Service => "Service",
            Kind::EndpointSlice => "EndpointSlice",
        }
    }
    /// Whether its objects live in a namespace (a Node does not).
    pub fn namespaced(self) -> bool {
        self != Kind::Node
    }
    /// The resource name kubectl and the apiserver use in messages (`deployments.apps`).
    pub fn resource(self) -> &'static str {
        match self {
            Kind::Deployment => "deployments.apps",
            Kind::ReplicaSet => "replicasets.apps",
            Kind::Pod => "pods",
            Kind::Node => "nodes",
            Kind::PodDisruptionBudget => "poddisruptionbudgets.policy",
            Kind::Service => "services",
            Kind::EndpointSlice => "endpointslices.discovery.k8s.io",
        }
    }
}

impl Object {
    pub fn kind(&self) -> Kind {
        match self {
            Object::Deployment(_) => Kind::Deployment,
            Object::ReplicaSet(_) => Kind::ReplicaSet,
            Object::Pod(_) => Kind::Pod,
            Object::Node(_) => Kind::Node,
            Object::PodDisruptionBudget(_) => Kind::PodDisruptionBudget,
            Object::Service(_) => Kind::Service,
            Object::EndpointSlice(_) => Kind::EndpointSlice,
        }
    }
    pub fn meta(&self) -> &ObjectMeta {
        match self {
            Object::Deployment(o) => &o.metadata,
            Object::ReplicaSet(o) => &o.metadata,
            Object::Pod(o) => &o.metadata,
            Object::Node(o) => &o.metadata,
            Object::PodDisruptionBudget(o) => &o.metadata,
            Object::Service(o) => &o.metadata,
            Object::EndpointSlice(o) => &o.metadata,
        }
    }
    pub fn meta_mut(&mut self) -> &mut ObjectMeta {
        match self {
            Object::Deployment(o) => &mut o.metadata,
            Object::ReplicaSet(o) => &mut o.metadata,
            Object::Pod(o) => &mut o.metadata,
            Object::Node(o) => &mut o.metadata,
            Object::PodDisruptionBudget(o) => &mut o.metadata,
            Object::Service(o) => &mut o.metadata,
            Object::EndpointSlice(o) => &mut o.metadata,
        }
    }
    pub fn to_value(&self) -> Value {
        codec::to_value(self)
    }
}
