//! recreate.go: the Recreate strategy. Scale every old ReplicaSet to 0, wait until no old pod
//! runs, then create (or grow) the new ReplicaSet to the full count.

use super::util::*;
use super::{Ctx, DeploymentController, SyncResult};
use crate::api::*;
use crate::controller::filter_active_replica_sets;
use std::collections::BTreeMap;

impl DeploymentController {
    /// `rolloutRecreate`.
    pub fn rollout_recreate(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        rs_list: &[ReplicaSet],
        pod_map: &BTreeMap<Str, Vec<Pod>>,
    ) -> SyncResult {
        let _call = cx.calls.enter("rolloutRecreate");
        let (mut new_rs, mut old_rss) =
            self.get_all_replica_sets_and_sync_revision(cx, d, rs_list, false)?;
        let mut all = with_new(&old_rss, new_rs.as_ref());
        let active_old = filter_active_replica_sets(&old_rss);
        if self.scale_down_old_replica_sets_for_recreate(cx, &active_old, d)? {
            cx.explain(
                "rolloutRecreate",
                "old ReplicaSets scaled to 0: wait for their pods to go",
            );
            return self.sync_rollout_status(cx, &all, new_rs.as_ref(), d);
        }
        cx.calls.leaf("oldPodsRunning");
        if let Some(why) = old_pods_running(new_rs.as_ref(), &old_rss, pod_map) {
            cx.explain("oldPodsRunning", format!("{why}: the new ReplicaSet waits"));
            return self.sync_rollout_status(cx, &all, new_rs.as_ref(), d);
        }
        cx.explain("oldPodsRunning", "no old pod is running");
        if new_rs.is_none() {
            let (n, o) = self.get_all_replica_sets_and_sync_revision(cx, d, rs_list, true)?;
            new_rs = n;
            old_rss = o;
            all = with_new(&old_rss, new_rs.as_ref());
        }
        if let Some(n) = &new_rs {
            self.scale_up_new_replica_set_for_recreate(cx, n, d)?;
        }
        cx.calls.leaf("DeploymentComplete");
        if deployment_complete(d, &d.status.clone()) {
            self.cleanup_deployment(cx, &old_rss, d)?;
        }
        self.sync_rollout_status(cx, &all, new_rs.as_ref(), d)
    }

    /// `scaleDownOldReplicaSetsForRecreate`: every active old ReplicaSet to 0.
    pub fn scale_down_old_replica_sets_for_recreate(
        &mut self,
        cx: &mut Ctx,
        old_rss: &[ReplicaSet],
        d: &Deployment,
    ) -> SyncResult<bool> {
        let _call = cx.calls.enter("scaleDownOldReplicaSetsForRecreate");
        let mut scaled = false;
        for rs in old_rss {
            if rs.replicas() == 0 {
                continue;
            }
            cx.explain(
                "scaleDownOldReplicaSetsForRecreate",
                format!("{}: {} → 0", rs.metadata.name, rs.replicas()),
            );
            if self.scale_replica_set_and_record_event(cx, rs, 0, d)?.0 {
                scaled = true;
            }
        }
        Ok(scaled)
    }

    /// `scaleUpNewReplicaSetForRecreate`.
    pub fn scale_up_new_replica_set_for_recreate(
        &mut self,
        cx: &mut Ctx,
        new_rs: &ReplicaSet,
        d: &Deployment,
    ) -> SyncResult<bool> {
        let _call = cx.calls.enter("scaleUpNewReplicaSetForRecreate");
        if new_rs.replicas() != d.replicas() {
            cx.explain(
                "scaleUpNewReplicaSetForRecreate",
                format!(
                    "{}: {} → {}",
                    new_rs.metadata.name,
                    new_rs.replicas(),
                    d.replicas()
                ),
            );
        }
        Ok(self
            .scale_replica_set_and_record_event(cx, new_rs, d.replicas(), d)?
            .0)
    }
}

/// `oldPodsRunning`: why old pods still count as running (old ReplicaSets report replicas, or a
/// pod not of the new ReplicaSet is not Succeeded/Failed; Unknown counts as running), or None.
pub fn old_pods_running(
    new_rs: Option<&ReplicaSet>,
    old_rss: &[ReplicaSet],
    pod_map: &BTreeMap<Str, Vec<Pod>>,
) -> Option<String> {
    let n = actual_replica_count(old_rss);
    if n > 0 {
        return Some(format!("old ReplicaSets still report {n} replicas"));
    }
    for (uid, pods) in pod_map.iter() {
        if new_rs.is_some_and(|r| &r.metadata.uid == uid) {
            continue;
        }
        for p in pods {
            match p.status.phase.as_str() {
                PHASE_FAILED | PHASE_SUCCEEDED => continue,
                _ => {
                    return Some(format!(
                        "old pod {} is {}",
                        p.metadata.name,
                        if p.status.phase.is_empty() {
                            "not terminal"
                        } else {
                            &p.status.phase
                        }
                    ));
                }
            }
        }
    }
    None
}
