//! rollback.go: `kubectl rollout undo` in this playground sets the annotation
//! `deprecated.deployment.rollback.to` (0 = previous revision); the controller copies that
//! revision's pod template back into the Deployment and clears the annotation. The rollout that
//! follows is an ordinary one.

use super::util::*;
use super::{Ctx, DeploymentController, SyncResult};
use crate::api::*;
use crate::apiserver::events::EventType;

/// `getRollbackTo`: the requested revision; unparsable values are ignored.
pub fn get_rollback_to(d: &Deployment) -> Option<i64> {
    d.metadata
        .annotations
        .get(DEPRECATED_ROLLBACK_TO)
        .and_then(|v| v.parse::<i64>().ok())
}

impl DeploymentController {
    /// `rollback`.
    pub fn rollback(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        rs_list: &[ReplicaSet],
    ) -> SyncResult {
        let _call = cx.calls.enter("rollback");
        let (new_rs, old_rss) =
            self.get_all_replica_sets_and_sync_revision(cx, d, rs_list, true)?;
        let all = with_new(&old_rss, new_rs.as_ref());
        cx.calls.leaf("getRollbackTo");
        let mut to = get_rollback_to(d).unwrap_or(0);
        if to == 0 {
            cx.calls.leaf("LastRevision");
            to = last_revision(&all);
            cx.explain(
                "rollback",
                format!("revision 0 means the previous one: LastRevision = {to}"),
            );
            if to == 0 {
                cx.event(
                    d,
                    EventType::Warning,
                    ROLLBACK_REVISION_NOT_FOUND,
                    "Unable to find last revision.".into(),
                );
                return self.update_deployment_and_clear_rollback_to(cx, d);
            }
        }
        for rs in &all {
            if revision(&rs.metadata).ok() == Some(to) {
                let performed = self.rollback_to_template(cx, d, rs)?;
                if performed {
                    cx.event(
                        d,
                        EventType::Normal,
                        ROLLBACK_DONE,
                        format!(
                            "Rolled back deployment \"{}\" to revision {to}",
                            d.metadata.name
                        ),
                    );
                }
                return Ok(());
            }
        }
        cx.explain("rollback", format!("no ReplicaSet has revision {to}"));
        cx.event(
            d,
            EventType::Warning,
            ROLLBACK_REVISION_NOT_FOUND,
            "Unable to find the revision to rollback to.".into(),
        );
        self.update_deployment_and_clear_rollback_to(cx, d)
    }

    /// `rollbackToTemplate`: copies the ReplicaSet's template (without pod-template-hash) and
    /// annotations into the Deployment, unless they are already equal.
    pub fn rollback_to_template(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        rs: &ReplicaSet,
    ) -> SyncResult<bool> {
        let _call = cx.calls.enter("rollbackToTemplate");
        let performed = if !equal_ignore_hash(&d.spec.template, &rs.spec.template) {
            let mut t = rs.spec.template.clone();
            t.metadata
                .labels
                .remove(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY);
            d.spec.template = t;
            set_deployment_annotations_to(d, rs);
            cx.explain(
                "rollbackToTemplate",
                format!(
                    "copy the pod template of {} (images {}) into the Deployment",
                    rs.metadata.name,
                    rs.images().join(", ")
                ),
            );
            true
        } else {
            cx.explain(
                "rollbackToTemplate",
                format!(
                    "{} has the same template as the Deployment: nothing to roll back",
                    rs.metadata.name
                ),
            );
            cx.event(
                d,
                EventType::Warning,
                ROLLBACK_TEMPLATE_UNCHANGED,
                format!(
                    "The rollback revision contains the same template as current deployment \"{}\"",
                    d.metadata.name
                ),
            );
            false
        };
        self.update_deployment_and_clear_rollback_to(cx, d)?;
        Ok(performed)
    }

    /// `updateDeploymentAndClearRollbackTo`.
    pub fn update_deployment_and_clear_rollback_to(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
    ) -> SyncResult {
        let _call = cx.calls.enter("updateDeploymentAndClearRollbackTo");
        d.metadata.annotations.remove(DEPRECATED_ROLLBACK_TO);
        cx.store.api().update(d.clone())?;
        Ok(())
    }
}
