//! core/v1 pods: the pod template a controller stamps pods from, the pod (spec, status,
//! conditions, container states) and what the controllers ask of one (ready, available,
//! its address, its restarts).

use super::*;
use serde::{Deserialize, Serialize};

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
