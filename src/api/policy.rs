//! `policy/v1` PodDisruptionBudget: how many of the pods a selector picks must stay healthy
//! while something evicts them (a node drain), and the disruption controller's account of it in
//! `status` (k8s.io/api `policy/v1/types.go`).

use super::{IntOrString, LabelSelector, Map, ObjectMeta, Time, codec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The budget's `spec.unhealthyPodEvictionPolicy` that lets a not-Ready pod go even when the
/// budget has no disruption to spare.
pub const ALWAYS_ALLOW: &str = "AlwaysAllow";
/// The other policy (the default when unset): a not-Ready pod goes only while the budget is
/// met.
pub const IF_HEALTHY_BUDGET: &str = "IfHealthyBudget";

/// A `policy/v1` PodDisruptionBudget.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PodDisruptionBudget {
    pub metadata: ObjectMeta,
    pub spec: PodDisruptionBudgetSpec,
    pub status: PodDisruptionBudgetStatus,
}

codec::top_level!(
    PodDisruptionBudget,
    "PodDisruptionBudget",
    "policy/v1",
    PodDisruptionBudgetSpec,
    PodDisruptionBudgetStatus
);

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodDisruptionBudgetSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_available: Option<IntOrString>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unhealthy_pod_eviction_policy: Option<String>,
    #[serde(flatten)]
    pub extra: Map,
}

/// What the disruption controller last found (its four counts are written even when zero, as
/// Go's fields without `omitempty` are).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodDisruptionBudgetStatus {
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub observed_generation: i64,
    /// Pods the eviction API let go that the controller has not yet seen deleted, with when.
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub disrupted_pods: BTreeMap<String, Time>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub disruptions_allowed: i32,
    #[serde(default, deserialize_with = "codec::nd")]
    pub current_healthy: i32,
    #[serde(default, deserialize_with = "codec::nd")]
    pub desired_healthy: i32,
    #[serde(default, deserialize_with = "codec::nd")]
    pub expected_pods: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub conditions: Vec<Condition>,
}

/// A `metav1.Condition` (the newer condition type: reason and message always written).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub observed_generation: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub reason: String,
    #[serde(default, deserialize_with = "codec::nd")]
    pub message: String,
}

impl PodDisruptionBudget {
    /// Whether the disruption controller counts a pod with these labels: none when there is
    /// no selector, every pod of the namespace when it is empty (`{}`).
    pub fn counts(&self, labels: &super::Labels) -> bool {
        self.spec
            .selector
            .as_ref()
            .is_some_and(|s| s.matches(labels))
    }

    /// Whether the eviction API holds a pod with these labels to this budget: as
    /// [`PodDisruptionBudget::counts`], but an empty selector covers no pod there.
    pub fn covers(&self, labels: &super::Labels) -> bool {
        match &self.spec.selector {
            Some(s) if !s.is_empty() => s.matches(labels),
            _ => false,
        }
    }

    /// Whether `spec.unhealthyPodEvictionPolicy` is `AlwaysAllow`.
    pub fn always_allow_unhealthy(&self) -> bool {
        self.spec.unhealthy_pod_eviction_policy.as_deref() == Some(ALWAYS_ALLOW)
    }
}

/// The budget's condition type, and its reasons.
pub const DISRUPTION_ALLOWED: &str = "DisruptionAllowed";
pub const SUFFICIENT_PODS: &str = "SufficientPods";
pub const INSUFFICIENT_PODS: &str = "InsufficientPods";
pub const SYNC_FAILED: &str = "SyncFailed";

impl PodDisruptionBudgetStatus {
    /// Sets a condition as apimachinery's `SetStatusCondition` does: its transition time moves
    /// only when its status changes.
    pub fn set_condition(&mut self, c: Condition, now: Time) {
        match self.conditions.iter_mut().find(|o| o.type_ == c.type_) {
            Some(o) => {
                if o.status != c.status {
                    o.last_transition_time = Some(now);
                }
                o.status = c.status;
                o.reason = c.reason;
                o.message = c.message;
                o.observed_generation = c.observed_generation;
            }
            None => self.conditions.push(Condition {
                last_transition_time: Some(now),
                ..c
            }),
        }
    }

    /// component-helpers' `UpdateDisruptionAllowedCondition`: `True`/`SufficientPods` while a
    /// disruption is allowed, else `False`/`InsufficientPods`, with no message.
    pub fn update_disruption_allowed(&mut self, now: Time) {
        let (status, reason) = if self.disruptions_allowed > 0 {
            ("True", SUFFICIENT_PODS)
        } else {
            ("False", INSUFFICIENT_PODS)
        };
        let c = Condition {
            type_: DISRUPTION_ALLOWED.into(),
            status: status.into(),
            observed_generation: self.observed_generation,
            last_transition_time: None,
            reason: reason.into(),
            message: String::new(),
        };
        self.set_condition(c, now);
    }

    /// component-helpers' `ConditionsAreUpToDate`: the condition is there, for this
    /// generation, and says what the allowed count says.
    pub fn conditions_up_to_date(&self, generation: i64) -> bool {
        let Some(c) = self
            .conditions
            .iter()
            .find(|c| c.type_ == DISRUPTION_ALLOWED)
        else {
            return false;
        };
        self.observed_generation == generation
            && if self.disruptions_allowed > 0 {
                c.status == "True" && c.reason == SUFFICIENT_PODS
            } else {
                c.status == "False" && c.reason == INSUFFICIENT_PODS
            }
    }
}
