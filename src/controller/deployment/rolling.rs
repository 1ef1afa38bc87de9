//! rolling.go: the RollingUpdate strategy. Scale the new ReplicaSet up within maxSurge; if that
//! did nothing, scale old ReplicaSets down within maxUnavailable (unhealthy replicas first);
//! clean up history once complete; then sync the rollout status.

use super::util::*;
use super::{Ctx, DeploymentController, SyncError, SyncResult};
use crate::api::*;
use crate::controller::{by_creation_timestamp, filter_active_replica_sets};

impl DeploymentController {
    /// `rolloutRolling`.
    pub fn rollout_rolling(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        rs_list: &[ReplicaSet],
    ) -> SyncResult {
        let _call = cx.calls.enter("rolloutRolling");
        let (new_rs, old_rss) =
            self.get_all_replica_sets_and_sync_revision(cx, d, rs_list, true)?;
        let new_rs = new_rs.ok_or_else(|| SyncError::Controller("no new ReplicaSet".into()))?;
        let all = with_new(&old_rss, Some(&new_rs));
        let scaled_up = self.reconcile_new_replica_set(cx, &all, &new_rs, d)?;
        if scaled_up {
            return self.sync_rollout_status(cx, &all, Some(&new_rs), d);
        }
        let active_old = filter_active_replica_sets(&old_rss);
        let scaled_down = self.reconcile_old_replica_sets(cx, &all, &active_old, &new_rs, d)?;
        if scaled_down {
            return self.sync_rollout_status(cx, &all, Some(&new_rs), d);
        }
        cx.calls.leaf("DeploymentComplete");
        if deployment_complete(d, &d.status.clone()) {
            self.cleanup_deployment(cx, &old_rss, d)?;
        }
        self.sync_rollout_status(cx, &all, Some(&new_rs), d)
    }

    /// `reconcileNewReplicaSet`: grows the new ReplicaSet by what maxSurge allows (or trims it
    /// back to spec.replicas). Returns whether it scaled.
    pub fn reconcile_new_replica_set(
        &mut self,
        cx: &mut Ctx,
        all: &[ReplicaSet],
        new_rs: &ReplicaSet,
        d: &Deployment,
    ) -> SyncResult<bool> {
        let _call = cx.calls.enter("reconcileNewReplicaSet");
        if new_rs.replicas() == d.replicas() {
            cx.explain(
                "reconcileNewReplicaSet",
                format!(
                    "new ReplicaSet {} already has spec.replicas = {}",
                    new_rs.metadata.name,
                    d.replicas()
                ),
            );
            return Ok(false);
        }
        if new_rs.replicas() > d.replicas() {
            cx.explain(
                "reconcileNewReplicaSet",
                format!(
                    "new ReplicaSet has {} > {}: scale down to {}",
                    new_rs.replicas(),
                    d.replicas(),
                    d.replicas()
                ),
            );
            return Ok(self
                .scale_replica_set_and_record_event(cx, new_rs, d.replicas(), d)?
                .0);
        }
        cx.calls.leaf("NewRSNewReplicas");
        let (count, why) = new_rs_new_replicas(d, all, new_rs).map_err(SyncError::Controller)?;
        cx.explain("NewRSNewReplicas", why);
        Ok(self
            .scale_replica_set_and_record_event(cx, new_rs, count, d)?
            .0)
    }

    /// `reconcileOldReplicaSets`: how many old pods may go without breaking minAvailable, first
    /// from unhealthy replicas, then from healthy ones.
    pub fn reconcile_old_replica_sets(
        &mut self,
        cx: &mut Ctx,
        all: &[ReplicaSet],
        old_rss: &[ReplicaSet],
        new_rs: &ReplicaSet,
        d: &Deployment,
    ) -> SyncResult<bool> {
        let _call = cx.calls.enter("reconcileOldReplicaSets");
        let old_pods = replica_count(old_rss);
        if old_pods == 0 {
            cx.explain(
                "reconcileOldReplicaSets",
                "no old replicas left to scale down",
            );
            return Ok(false);
        }
        let all_pods = replica_count(all);
        let mu = max_unavailable(d);
        let min_avail = d.replicas() - mu;
        let new_unavailable = new_rs.replicas() - new_rs.status.available_replicas;
        let max_scaled_down = all_pods - min_avail - new_unavailable;
        let ru = d.spec.strategy.rolling_update.clone().unwrap_or_default();
        cx.explain(
            "reconcileOldReplicaSets",
            format!(
                "maxUnavailable = {}; minAvailable = {} − {mu} = {min_avail}; newRSUnavailable = {} − {} = {new_unavailable}; maxScaledDown = {all_pods} − {min_avail} − {new_unavailable} = {max_scaled_down}",
                describe_fencepost(ru.max_unavailable.as_ref(), d.replicas(), false, mu),
                d.replicas(),
                new_rs.replicas(),
                new_rs.status.available_replicas
            ),
        );
        if max_scaled_down <= 0 {
            return Ok(false);
        }
        // Upstream drops either step's error: nothing more is scaled down this sync, and the
        // rollout goes on to its status (the next sync starts from fresh numbers).
        let scaled = self
            .cleanup_unhealthy_replicas(cx, old_rss, d, max_scaled_down)
            .and_then(|(old_after, cleaned)| {
                let mut all_after = old_after.clone();
                all_after.push(new_rs.clone());
                self.scale_down_old_replica_sets_for_rolling_update(cx, &all_after, &old_after, d)
                    .map(|scaled| cleaned + scaled)
            });
        match scaled {
            Ok(n) => Ok(n > 0),
            Err(e) => {
                cx.explain(
                    "reconcileOldReplicaSets",
                    format!("{e}: no more old replicas are scaled down this sync"),
                );
                Ok(false)
            }
        }
    }

    /// `cleanupUnhealthyReplicas`: scales old ReplicaSets down by their unavailable replicas,
    /// oldest first, at most `max_cleanup` in total.
    pub fn cleanup_unhealthy_replicas(
        &mut self,
        cx: &mut Ctx,
        old_rss: &[ReplicaSet],
        d: &Deployment,
        max_cleanup: i32,
    ) -> SyncResult<(Vec<ReplicaSet>, i32)> {
        let _call = cx.calls.enter("cleanupUnhealthyReplicas");
        let mut olds = old_rss.to_vec();
        crate::api::sort::sort_by(&mut olds, by_creation_timestamp);
        let mut total = 0;
        for rs in olds.iter_mut() {
            if total >= max_cleanup {
                break;
            }
            if rs.replicas() == 0 || rs.replicas() == rs.status.available_replicas {
                continue;
            }
            let n = (max_cleanup - total).min(rs.replicas() - rs.status.available_replicas);
            let target = rs.replicas() - n;
            // More available than wanted (its status not yet caught up with a scale-down): a
            // "scale down" would scale it up.
            if target > rs.replicas() {
                return Err(SyncError::Controller(format!(
                    "when cleaning up unhealthy replicas, got invalid request to scale down {}/{} {} -> {target}",
                    rs.metadata.namespace,
                    rs.metadata.name,
                    rs.replicas()
                )));
            }
            cx.explain(
                "cleanupUnhealthyReplicas",
                format!(
                    "{} has {} unavailable replicas: scale down by {n} to {target}",
                    rs.metadata.name,
                    rs.replicas() - rs.status.available_replicas
                ),
            );
            let (_, updated) = self.scale_replica_set_and_record_event(cx, rs, target, d)?;
            total += n;
            *rs = updated;
        }
        Ok((olds, total))
    }

    /// `scaleDownOldReplicaSetsForRollingUpdate`: takes available old pods away, oldest
    /// ReplicaSet first, down to minAvailable.
    pub fn scale_down_old_replica_sets_for_rolling_update(
        &mut self,
        cx: &mut Ctx,
        all: &[ReplicaSet],
        old_rss: &[ReplicaSet],
        d: &Deployment,
    ) -> SyncResult<i32> {
        let _call = cx.calls.enter("scaleDownOldReplicaSetsForRollingUpdate");
        let min_avail = d.replicas() - max_unavailable(d);
        let available = available_replica_count(all);
        if available <= min_avail {
            cx.explain(
                "scaleDownOldReplicaSetsForRollingUpdate",
                format!("available {available} ≤ minAvailable {min_avail}: nothing more may go"),
            );
            return Ok(0);
        }
        let mut olds = old_rss.to_vec();
        crate::api::sort::sort_by(&mut olds, by_creation_timestamp);
        let budget = available - min_avail;
        cx.explain(
            "scaleDownOldReplicaSetsForRollingUpdate",
            format!(
                "available {available} − minAvailable {min_avail} = {budget} old replicas may go"
            ),
        );
        let mut total = 0;
        for rs in &olds {
            if total >= budget {
                break;
            }
            if rs.replicas() == 0 {
                continue;
            }
            let n = rs.replicas().min(budget - total);
            self.scale_replica_set_and_record_event(cx, rs, rs.replicas() - n, d)?;
            total += n;
        }
        Ok(total)
    }
}
