//! The pods/eviction subresource (kube-apiserver `pkg/registry/core/pod/storage/eviction.go`):
//! a delete that asks the pod's PodDisruptionBudget first. A pod that is terminal, Pending or
//! already terminating goes at once; one that a budget covers goes only if the budget has a
//! disruption to spare (which the eviction takes, writing the pod into `disruptedPods`), or if
//! it is not Ready while the budget is met (or the budget always allows unhealthy pods);
//! otherwise `429` with the budget's numbers as the cause. Before deleting, the pod is marked
//! with a `DisruptionTarget` condition (`EvictionByEvictionAPI`).

use super::store::{ApiError, Propagation, Store};
use crate::api::{Kind, Object, PHASE_PENDING, PodCondition, PodDisruptionBudget, key_of};

/// The refusal's message; kubectl prints it alone.
pub const TOO_MANY_REQUESTS: &str =
    "Cannot evict pod as it would violate the pod's disruption budget.";

/// The refusal for a pod more than one budget covers.
pub const MORE_THAN_ONE_BUDGET: &str = "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";

/// What an eviction the apiserver accepted did.
#[derive(Clone, Debug, PartialEq)]
pub struct Evicted {
    /// The budget that covers the pod, if one does, and whether the eviction took one of its
    /// allowed disruptions (false: the pod was not Ready, or ignored budgets).
    pub budget: Option<(String, bool)>,
}

/// What the eviction API makes of a pod's budgets.
enum Cover {
    /// `canIgnorePDB`: the pod is terminal, Pending or terminating already.
    Ignored,
    /// No budget covers it.
    None,
    /// More than one does.
    Several,
    /// One does, and lets it go without taking a disruption: the pod is not Ready, and the
    /// budget is met (or always allows unhealthy pods).
    Spare(Box<PodDisruptionBudget>),
    /// One does, and the eviction must take one of its disruptions.
    Take(Box<PodDisruptionBudget>),
}

impl Store {
    /// The budget the eviction API holds `pod` to.
    fn budget_for(&self, pod: &crate::api::Pod) -> Cover {
        let phase = pod.status.phase.as_str();
        if matches!(phase, "Succeeded" | "Failed" | PHASE_PENDING | "")
            || pod.metadata.deletion_timestamp.is_some()
        {
            return Cover::Ignored;
        }
        let mut covering = self
            .list(Kind::PodDisruptionBudget)
            .filter_map(|o| match o {
                Object::PodDisruptionBudget(b)
                    if b.metadata.namespace == pod.metadata.namespace
                        && b.covers(&pod.metadata.labels) =>
                {
                    Some(b)
                }
                _ => None,
            });
        let Some(b) = covering.next() else {
            return Cover::None;
        };
        if covering.next().is_some() {
            return Cover::Several;
        }
        let s = &b.status;
        let spare_unhealthy = !pod.is_ready()
            && (b.always_allow_unhealthy()
                || (s.current_healthy >= s.desired_healthy && s.desired_healthy > 0));
        if spare_unhealthy {
            Cover::Spare(b.clone())
        } else {
            Cover::Take(b.clone())
        }
    }

    /// Whether an eviction of the pod at `key` would be refused with a 429 now (a client that
    /// retries it changes nothing until the budget does).
    pub fn eviction_refused(&self, key: &str) -> bool {
        let Some(pod) = self.pod(key) else {
            return false;
        };
        match self.budget_for(pod) {
            Cover::Take(b) => {
                b.status.observed_generation < b.metadata.generation
                    || b.status.disruptions_allowed == 0
            }
            _ => false,
        }
    }

    /// `POST pods/NAME/eviction` with the delete options' grace period. A dry run checks and
    /// writes nothing.
    pub fn evict(
        &mut self,
        ns: &str,
        name: &str,
        grace_seconds: Option<i64>,
        dry_run: bool,
    ) -> Result<Evicted, ApiError> {
        let key = key_of(ns, name);
        self.log("create", Kind::Pod, "eviction", name);
        let Some(pod) = self.pod(&key).cloned() else {
            return Err(ApiError::NotFound {
                kind: Kind::Pod,
                name: name.to_string(),
            });
        };
        let mut evicted = Evicted { budget: None };
        match self.budget_for(&pod) {
            Cover::Ignored | Cover::None => {}
            Cover::Several => {
                return Err(ApiError::Failure {
                    code: 500,
                    message: MORE_THAN_ONE_BUDGET.into(),
                });
            }
            Cover::Spare(b) => evicted.budget = Some((b.metadata.name.to_string(), false)),
            Cover::Take(b) => {
                let name_of = b.metadata.name.to_string();
                self.check_and_decrement(b, name, dry_run)?;
                evicted.budget = Some((name_of, true));
            }
        }
        if dry_run {
            return Ok(evicted);
        }
        // `addConditionAndDeletePod`.
        let mut marked = pod;
        let now = self.now();
        match marked
            .status
            .conditions
            .iter_mut()
            .find(|c| c.type_ == "DisruptionTarget")
        {
            Some(c) => {
                if c.status != "True" {
                    c.last_transition_time = Some(now);
                }
                c.status = "True".into();
                c.reason = "EvictionByEvictionAPI".into();
                c.message = "Eviction API: evicting".into();
            }
            None => marked.status.conditions.push(PodCondition {
                type_: "DisruptionTarget".into(),
                status: "True".into(),
                last_transition_time: Some(now),
                reason: "EvictionByEvictionAPI".into(),
                message: "Eviction API: evicting".into(),
            }),
        }
        self.update_status(Object::Pod(marked))?;
        self.delete(Kind::Pod, &key, Propagation::Background, grace_seconds)?;
        Ok(evicted)
    }

    /// `checkAndDecrement`: a budget whose status is behind its spec, or has no disruption to
    /// spare, refuses (429); else it takes one and remembers the pod as disrupted.
    fn check_and_decrement(
        &mut self,
        mut b: Box<PodDisruptionBudget>,
        pod: &str,
        dry_run: bool,
    ) -> Result<(), ApiError> {
        let refuse = |cause: String| ApiError::TooManyRequests {
            message: TOO_MANY_REQUESTS.into(),
            cause,
        };
        let s = &mut b.status;
        if s.observed_generation < b.metadata.generation {
            return Err(refuse(format!(
                "The disruption budget {} is still being processed by the server.",
                b.metadata.name
            )));
        }
        if s.disruptions_allowed == 0 {
            return Err(refuse(format!(
                "The disruption budget {} needs {} healthy pods and has {} currently",
                b.metadata.name, s.desired_healthy, s.current_healthy
            )));
        }
        s.disruptions_allowed -= 1;
        let now = self.now();
        if s.disruptions_allowed == 0 {
            s.update_disruption_allowed(now);
        }
        if dry_run {
            return Ok(());
        }
        s.disrupted_pods.insert(pod.to_string(), now);
        self.update_status(Object::PodDisruptionBudget(b))?;
        Ok(())
    }
}
