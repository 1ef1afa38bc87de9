//! progress.go: the Progressing condition (NewReplicaSetAvailable, ReplicaSetUpdated,
//! ProgressDeadlineExceeded), ReplicaFailure copied from the ReplicaSets, and the timed requeue
//! that lets a stuck rollout time out on the virtual clock.

use super::util::*;
use super::{Ctx, DeploymentController, SyncResult};
use crate::api::*;

/// What `requeue_stuck_deployment` decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Requeue {
    /// Not requeued (upstream returns -1).
    No,
    /// Requeued rate-limited at once: less than a second was left.
    Now,
    /// Requeued after the deadline (+1 s); the value is the time left in nanoseconds.
    After(i64),
}

impl Requeue {
    pub fn as_nanos(self) -> i64 {
        match self {
            Requeue::No => -1,
            Requeue::Now => 0,
            Requeue::After(ns) => ns,
        }
    }
}

impl DeploymentController {
    /// `syncRolloutStatus`. (Long: upstream's one function, kept whole so that the two read
    /// side by side.)
    pub fn sync_rollout_status(
        &mut self,
        cx: &mut Ctx,
        all: &[ReplicaSet],
        new_rs: Option<&ReplicaSet>,
        d: &mut Deployment,
    ) -> SyncResult {
        let _call = cx.calls.enter("syncRolloutStatus");
        let now = cx.now();
        cx.calls.leaf("calculateStatus");
        let mut s = super::sync::calculate_status(all, new_rs, d, now);
        if !cx.gates.deployment_replica_set_terminating_replicas {
            s.terminating_replicas = None;
        }
        if !has_progress_deadline(d) {
            remove_deployment_condition(&mut s, PROGRESSING);
        }
        let current = get_deployment_condition(&d.status, PROGRESSING).cloned();
        let complete = s.replicas == s.updated_replicas
            && current
                .as_ref()
                .is_some_and(|c| c.reason == NEW_RS_AVAILABLE_REASON);
        if has_progress_deadline(d) && !complete {
            let name = |what: &str| match new_rs {
                Some(r) => format!("ReplicaSet \"{}\" {what}", r.metadata.name),
                None => format!("Deployment \"{}\" {what}", d.metadata.name),
            };
            if deployment_complete(d, &s) {
                cx.explain("syncRolloutStatus", format!("complete: updated = replicas = available = {}: Progressing=True NewReplicaSetAvailable", d.replicas()));
                set_deployment_condition(
                    &mut s,
                    new_deployment_condition(
                        PROGRESSING,
                        ConditionStatus::True,
                        NEW_RS_AVAILABLE_REASON,
                        name("has successfully progressed."),
                        now,
                    ),
                );
            } else if deployment_progressing(d, &s) {
                let mut c = new_deployment_condition(
                    PROGRESSING,
                    ConditionStatus::True,
                    REPLICA_SET_UPDATED_REASON,
                    name("is progressing."),
                    now,
                );
                if let Some(cur) = &current {
                    if cur.status == ConditionStatus::True {
                        c.last_transition_time = cur.last_transition_time;
                    }
                    remove_deployment_condition(&mut s, PROGRESSING);
                }
                set_deployment_condition(&mut s, c);
            } else if deployment_timed_out(d, &s, now) {
                cx.explain(
                    "syncRolloutStatus",
                    format!("no progress for longer than progressDeadlineSeconds = {}s: Progressing=False ProgressDeadlineExceeded", d.spec.progress_deadline_seconds.unwrap_or(0)),
                );
                set_deployment_condition(
                    &mut s,
                    new_deployment_condition(
                        PROGRESSING,
                        ConditionStatus::False,
                        TIMED_OUT_REASON,
                        name("has timed out progressing."),
                        now,
                    ),
                );
            }
        }
        cx.calls.leaf("getReplicaFailures");
        match get_replica_failures(all, new_rs).into_iter().next() {
            Some(c) => set_deployment_condition(&mut s, c),
            None => remove_deployment_condition(&mut s, REPLICA_FAILURE),
        }
        if d.status == s {
            self.requeue_stuck_deployment(cx, d, &s);
            return Ok(());
        }
        d.status = s;
        cx.store.api().update_status(d.clone())?;
        Ok(())
    }

    /// `requeueStuckDeployment`: when the rollout shows no progress, wake up again when the
    /// deadline passes (plus a second), so the timeout is noticed without a resync.
    pub fn requeue_stuck_deployment(
        &mut self,
        cx: &mut Ctx,
        d: &Deployment,
        s: &DeploymentStatus,
    ) -> Requeue {
        let _call = cx.calls.enter("requeueStuckDeployment");
        let Some(cur) = get_deployment_condition(&d.status, PROGRESSING) else {
            return Requeue::No;
        };
        if !has_progress_deadline(d) {
            return Requeue::No;
        }
        if deployment_complete(d, s) || cur.reason == TIMED_OUT_REASON {
            return Requeue::No;
        }
        let deadline = cur
            .last_update_time
            .unwrap_or(Time(0))
            .plus_secs(d.spec.progress_deadline_seconds.unwrap_or(0) as i64);
        let after = deadline.since(cx.now());
        let key = d.metadata.key();
        if after < 1_000_000_000 {
            cx.explain(
                "requeueStuckDeployment",
                "less than a second to the progress deadline: requeue now (rate limited)",
            );
            self.queue.add_rate_limited(&key, cx.now_ms());
            return Requeue::Now;
        }
        let delay_ms = (after + 1_000_000_000).div_euclid(1_000_000) as u64;
        cx.explain(
            "requeueStuckDeployment",
            format!(
                "not complete yet: look again in {}s, when the progress deadline would pass (progress before then moves the deadline on)",
                (delay_ms as f64 / 1000.0).ceil()
            ),
        );
        self.queue.add_after(&key, cx.now_ms(), delay_ms);
        Requeue::After(after)
    }
}

/// `getReplicaFailures`: the new ReplicaSet's ReplicaFailure conditions, else any ReplicaSet's.
pub fn get_replica_failures(
    all: &[ReplicaSet],
    new_rs: Option<&ReplicaSet>,
) -> Vec<DeploymentCondition> {
    let convert = |c: &ReplicaSetCondition| DeploymentCondition {
        type_: c.type_.clone(),
        status: c.status.clone(),
        last_update_time: c.last_transition_time,
        last_transition_time: c.last_transition_time,
        reason: c.reason.clone(),
        message: c.message.clone(),
    };
    if let Some(n) = new_rs {
        let v: Vec<_> = n
            .status
            .conditions
            .iter()
            .filter(|c| c.type_ == REPLICA_FAILURE)
            .map(convert)
            .collect();
        if !v.is_empty() {
            return v;
        }
    }
    all.iter()
        .flat_map(|r| {
            r.status
                .conditions
                .iter()
                .filter(|c| c.type_ == REPLICA_FAILURE)
                .map(convert)
        })
        .collect()
}
