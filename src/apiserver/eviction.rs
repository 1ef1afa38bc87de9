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

/// `checkAndDecrement`'s refusals (429): a budget whose status is behind its spec, or that has
/// no disruption to spare; `None` when it has one.
fn refusal(b: &PodDisruptionBudget) -> Option<ApiError> {
    let s = &b.status;
    let cause = if s.observed_generation < b.metadata.generation {
        format!(
            "The disruption budget {} is still being processed by the server.",
            b.metadata.name
        )
    } else if s.disruptions_allowed == 0 {
        format!(
            "The disruption budget {} needs {} healthy pods and has {} currently",
            b.metadata.name, s.desired_healthy, s.current_healthy
        )
    } else {
        return None;
    };
    Some(ApiError::TooManyRequests {
        message: TOO_MANY_REQUESTS.into(),
        cause,
    })
}

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
    /// The PodDisruptionBudgets of a namespace.
    pub fn budgets_in<'a>(&'a self, ns: &'a str) -> impl Iterator<Item = &'a PodDisruptionBudget> {
        self.list(Kind::PodDisruptionBudget)
            .filter_map(move |o| match o {
                Object::PodDisruptionBudget(b) if b.metadata.namespace == *ns => Some(&**b),
                _ => None,
            })
    }

    /// The budget the eviction API holds `pod` to.
    fn budget_for(&self, pod: &crate::api::Pod) -> Cover {
        let phase = pod.status.phase.as_str();
        if matches!(phase, "Succeeded" | "Failed" | PHASE_PENDING | "")
            || pod.metadata.deletion_timestamp.is_some()
        {
            return Cover::Ignored;
        }
        let mut covering = self
            .budgets_in(&pod.metadata.namespace)
            .filter(|b| b.covers(&pod.metadata.labels));
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
            Cover::Spare(Box::new(b.clone()))
        } else {
            Cover::Take(Box::new(b.clone()))
        }
    }

    /// Whether an eviction of the pod at `key` would be refused with a 429 now (a client that
    /// retries it changes nothing until the budget does).
    pub fn eviction_refused(&self, key: &str) -> bool {
        let Some(pod) = self.pod(key) else {
            return false;
        };
        matches!(self.budget_for(pod), Cover::Take(b) if refusal(&b).is_some())
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
        marked.status.update_condition(PodCondition {
            type_: "DisruptionTarget".into(),
            status: "True".into(),
            last_transition_time: Some(now),
            reason: "EvictionByEvictionAPI".into(),
            message: "Eviction API: evicting".into(),
        });
        self.update_status(Object::Pod(marked))?;
        self.delete(Kind::Pod, &key, Propagation::Background, grace_seconds)?;
        Ok(evicted)
    }

    /// `checkAndDecrement`: a budget refuses ([`refusal`]), or one of its disruptions is taken
    /// and the pod remembered as disrupted.
    fn check_and_decrement(
        &mut self,
        mut b: Box<PodDisruptionBudget>,
        pod: &str,
        dry_run: bool,
    ) -> Result<(), ApiError> {
        if let Some(e) = refusal(&b) {
            return Err(e);
        }
        let s = &mut b.status;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::yaml::parse_objects;

    /// A store with pod `web-1` (labels app=web; Running, Ready as `ready`) and the budgets
    /// given, their status as the disruption controller would have written it.
    fn store(ready: bool, budgets: &[(&str, &str, (i32, i32, i32))]) -> Store {
        let mut s = Store::new();
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: web-1, namespace: default, labels: {app: web}}\nspec: {nodeName: n1, containers: [{name: app, image: \"app:1\"}]}\n";
        let Object::Pod(p) = parse_objects(pod).unwrap().remove(0) else {
            unreachable!()
        };
        let mut p = (*s.create(Object::Pod(p)).unwrap()).clone();
        if let Object::Pod(p) = &mut p {
            p.status.phase = "Running".into();
            let status = if ready { "True" } else { "False" };
            p.status.conditions.push(PodCondition {
                type_: "Ready".into(),
                status: status.into(),
                ..Default::default()
            });
        }
        s.update_status(p).unwrap();
        for (name, spec, (allowed, current, desired)) in budgets {
            let text = format!(
                "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: {name}, namespace: default}}\nspec: {spec}\n"
            );
            let o = parse_objects(&text).unwrap().remove(0);
            let Object::PodDisruptionBudget(mut b) = (*s.create(o).unwrap()).clone() else {
                unreachable!()
            };
            b.status.observed_generation = b.metadata.generation;
            b.status.disruptions_allowed = *allowed;
            b.status.current_healthy = *current;
            b.status.desired_healthy = *desired;
            s.update_status(Object::PodDisruptionBudget(b)).unwrap();
        }
        s
    }

    const APP_WEB: &str = "{minAvailable: 1, selector: {matchLabels: {app: web}}}";

    /// pkg/registry/core/pod/storage's eviction cases, as this store answers them.
    #[test]
    fn evictions_as_the_apiserver_decides_them() {
        // A budget with none to spare: 429, the budget's numbers in the cause.
        let mut s = store(true, &[("pdb", APP_WEB, (0, 1, 1))]);
        let err = s.evict("default", "web-1", None, false).unwrap_err();
        assert_eq!(
            err,
            ApiError::TooManyRequests {
                message: TOO_MANY_REQUESTS.into(),
                cause: "The disruption budget pdb needs 1 healthy pods and has 1 currently".into(),
            }
        );
        assert!(
            s.pod("default/web-1")
                .unwrap()
                .metadata
                .deletion_timestamp
                .is_none()
        );
        // One to spare: taken, the pod remembered as disrupted, marked and deleted.
        let mut s = store(true, &[("pdb", APP_WEB, (1, 2, 1))]);
        let e = s.evict("default", "web-1", Some(0), false).unwrap();
        assert_eq!(e.budget, Some(("pdb".into(), true)));
        let Some(Object::PodDisruptionBudget(b)) = s.get(Kind::PodDisruptionBudget, "default/pdb")
        else {
            panic!()
        };
        assert_eq!(b.status.disruptions_allowed, 0);
        assert!(b.status.disrupted_pods.contains_key("web-1"));
        assert_eq!(b.status.conditions[0].reason, "InsufficientPods");
        assert!(
            s.pod("default/web-1").is_none(),
            "grace period 0: gone at once"
        );
        // A not-Ready pod while the budget is met goes without taking a disruption.
        let mut s = store(false, &[("pdb", APP_WEB, (0, 1, 1))]);
        let e = s.evict("default", "web-1", None, false).unwrap();
        assert_eq!(e.budget, Some(("pdb".into(), false)));
        let p = s.pod("default/web-1").unwrap();
        let c = p
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "DisruptionTarget")
            .unwrap();
        assert_eq!(
            (c.reason.as_str(), c.message.as_str()),
            ("EvictionByEvictionAPI", "Eviction API: evicting")
        );
        // ...not while the budget is short, unless it always allows unhealthy pods.
        let mut s = store(false, &[("pdb", APP_WEB, (0, 0, 1))]);
        assert!(s.evict("default", "web-1", None, false).is_err());
        let always = "{minAvailable: 1, unhealthyPodEvictionPolicy: AlwaysAllow, selector: {matchLabels: {app: web}}}";
        let mut s = store(false, &[("pdb", always, (0, 0, 1))]);
        assert!(s.evict("default", "web-1", None, false).is_ok());
        // Two budgets: 500. An empty selector covers nothing here. A dry run changes nothing.
        let mut s = store(
            true,
            &[("a", APP_WEB, (1, 2, 1)), ("b", APP_WEB, (1, 2, 1))],
        );
        assert_eq!(
            s.evict("default", "web-1", None, false)
                .unwrap_err()
                .to_string(),
            MORE_THAN_ONE_BUDGET
        );
        let mut s = store(
            true,
            &[("all", "{minAvailable: 1, selector: {}}", (0, 1, 1))],
        );
        assert_eq!(
            s.evict("default", "web-1", None, true).unwrap().budget,
            None
        );
        assert!(s.pod("default/web-1").is_some(), "a dry run");
        assert!(
            s.evict("default", "nope", None, false)
                .unwrap_err()
                .is_not_found()
        );
    }
}
