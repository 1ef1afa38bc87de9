//! sync.go: status-only syncs (deletion), `sync` for pause and scaling events, proportional
//! `scale`, finding or creating the new ReplicaSet with its revision, `cleanup_deployment`, and
//! `calculate_status`.

use super::util::*;
use super::{Ctx, DeploymentController, SyncError, SyncResult};
use crate::api::*;
use crate::apiserver::events::EventType;
use crate::apiserver::store::ApiError;
use crate::controller::release::Release;
use crate::controller::{by_size_newer, by_size_older, compute_hash, filter_active_replica_sets};

impl DeploymentController {
    /// `syncStatusOnly`: the Deployment is being deleted; only its status is kept current.
    pub fn sync_status_only(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        rs_list: &[ReplicaSet],
    ) -> SyncResult {
        let _call = cx.calls.enter("syncStatusOnly");
        let (new_rs, old_rss) =
            self.get_all_replica_sets_and_sync_revision(cx, d, rs_list, false)?;
        let all = with_new(&old_rss, new_rs.as_ref());
        self.sync_deployment_status(cx, &all, new_rs.as_ref(), d)
    }

    /// `sync`: reconcile a paused Deployment or a scaling event, without rolling out.
    pub fn sync(&mut self, cx: &mut Ctx, d: &mut Deployment, rs_list: &[ReplicaSet]) -> SyncResult {
        let _call = cx.calls.enter("sync");
        let (new_rs, old_rss) =
            self.get_all_replica_sets_and_sync_revision(cx, d, rs_list, false)?;
        self.scale(cx, d, new_rs.as_ref(), &old_rss)?;
        cx.calls.leaf("getRollbackTo");
        if d.spec.paused && super::rollback::get_rollback_to(d).is_none() {
            self.cleanup_deployment(cx, &old_rss, d)?;
        }
        // Upstream computes the status from the ReplicaSets as they were before scale() wrote:
        // sizes catch up on the next sync, which the ReplicaSet updates trigger anyway.
        let all = with_new(&old_rss, new_rs.as_ref());
        self.sync_deployment_status(cx, &all, new_rs.as_ref(), d)
    }

    /// `checkPausedConditions`: Progressing=Unknown DeploymentPaused / DeploymentResumed, never
    /// over a ProgressDeadlineExceeded.
    pub fn check_paused_conditions(&mut self, cx: &mut Ctx, d: &mut Deployment) -> SyncResult {
        let _call = cx.calls.enter("checkPausedConditions");
        if !has_progress_deadline(d) {
            return Ok(());
        }
        let cond = get_deployment_condition(&d.status, PROGRESSING).cloned();
        if cond.as_ref().is_some_and(|c| c.reason == TIMED_OUT_REASON) {
            return Ok(());
        }
        let paused_exists = cond
            .as_ref()
            .is_some_and(|c| c.reason == PAUSED_DEPLOY_REASON);
        let now = cx.now();
        let c = if d.spec.paused && !paused_exists {
            new_deployment_condition(
                PROGRESSING,
                ConditionStatus::Unknown,
                PAUSED_DEPLOY_REASON,
                "Deployment is paused".into(),
                now,
            )
        } else if !d.spec.paused && paused_exists {
            new_deployment_condition(
                PROGRESSING,
                ConditionStatus::Unknown,
                RESUMED_DEPLOY_REASON,
                "Deployment is resumed".into(),
                now,
            )
        } else {
            return Ok(());
        };
        cx.explain(
            "checkPausedConditions",
            format!("Progressing=Unknown, reason {}", c.reason),
        );
        set_deployment_condition(&mut d.status, c);
        cx.store.api().update_status(d.clone())?;
        Ok(())
    }

    /// `getAllReplicaSetsAndSyncRevision`: (new ReplicaSet, old ReplicaSets), with the new one's
    /// revision raised above every old one and copied to the Deployment.
    pub fn get_all_replica_sets_and_sync_revision(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        rs_list: &[ReplicaSet],
        create: bool,
    ) -> SyncResult<(Option<ReplicaSet>, Vec<ReplicaSet>)> {
        let _call = cx.calls.enter("getAllReplicaSetsAndSyncRevision");
        let (_, old) = find_old_replica_sets(d, rs_list);
        let old: Vec<ReplicaSet> = old.into_iter().cloned().collect();
        let new_rs = self.get_new_replica_set(cx, d, rs_list, &old, create)?;
        Ok((new_rs, old))
    }

    /// `getNewReplicaSet`: the ReplicaSet of the Deployment's current template.
    /// 1. If one exists, its annotations and minReadySeconds are brought up to date, and the
    ///    Deployment's revision and Progressing condition follow it ([`Self::sync_new_replica_set`]).
    /// 2. Else, when asked to, it is created with `NewRSNewReplicas` replicas at the next
    ///    revision ([`Self::create_new_replica_set`]).
    pub fn get_new_replica_set(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        rs_list: &[ReplicaSet],
        old_rss: &[ReplicaSet],
        create: bool,
    ) -> SyncResult<Option<ReplicaSet>> {
        let _call = cx.calls.enter("getNewReplicaSet");
        let existing = find_new_replica_set(d, rs_list).cloned();
        let new_revision = (max_revision(old_rss) + 1).to_string();
        match existing {
            Some(rs) => self.sync_new_replica_set(cx, d, rs, &new_revision),
            None if create => self
                .create_new_replica_set(cx, d, old_rss, &new_revision)
                .map(Some),
            None => Ok(None),
        }
    }

    /// Step 1 of `getNewReplicaSet`: the existing new ReplicaSet's annotations and
    /// minReadySeconds (written back when they change), else the Deployment's revision
    /// annotation and, with a progress deadline, its Progressing condition (FoundNewReplicaSet).
    fn sync_new_replica_set(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        existing: ReplicaSet,
        new_revision: &str,
    ) -> SyncResult<Option<ReplicaSet>> {
        let mut rs = existing.clone();
        let annotations_updated = set_new_replica_set_annotations(
            d,
            &mut rs,
            new_revision,
            true,
            MAX_REV_HISTORY_LENGTH_IN_CHARS,
        );
        let min_ready_update = rs.spec.min_ready_seconds != d.spec.min_ready_seconds;
        if annotations_updated || min_ready_update {
            rs.spec.min_ready_seconds = d.spec.min_ready_seconds;
            if existing.metadata.annotations.get(REVISION_ANNOTATION)
                != rs.metadata.annotations.get(REVISION_ANNOTATION)
            {
                cx.explain(
                    "getNewReplicaSet",
                    format!(
                        "ReplicaSet {} matches the template: its revision becomes {new_revision}",
                        rs.metadata.name
                    ),
                );
            }
            return Ok(Some(cx.store.api().update(rs)?));
        }
        let rev = rs
            .metadata
            .annotations
            .get(REVISION_ANNOTATION)
            .cloned()
            .unwrap_or_default();
        let mut needs_update = set_deployment_revision(d, &rev);
        if has_progress_deadline(d) && get_deployment_condition(&d.status, PROGRESSING).is_none() {
            let c = new_deployment_condition(
                PROGRESSING,
                ConditionStatus::True,
                FOUND_NEW_RS_REASON,
                format!("Found new replica set \"{}\"", rs.metadata.name),
                cx.now(),
            );
            set_deployment_condition(&mut d.status, c);
            needs_update = true;
        }
        if needs_update {
            cx.store.api().update_status(d.clone())?;
        }
        Ok(Some(rs))
    }

    /// Step 2 of `getNewReplicaSet`: creates the new ReplicaSet (`<name>-<pod-template-hash>`,
    /// the Deployment's controller reference, the hash in its selector and template labels).
    /// A name already taken is adopted if it is ours with this template, else a hash collision
    /// ([`Self::on_create_collision`]); another failure is a ReplicaCreateFailed condition and
    /// event. A created one is announced ("Scaled up replica set … from 0 to n") and the
    /// Deployment takes its revision and a NewReplicaSetCreated condition.
    /// (Long as upstream's `getNewReplicaSet` is, mirrored step for step.)
    fn create_new_replica_set(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        old_rss: &[ReplicaSet],
        new_revision: &str,
    ) -> SyncResult<ReplicaSet> {
        let now = cx.now();
        let (mut new_rs, hash) = new_replica_set_for(d, cx.gates.release);
        let mut all: Vec<&ReplicaSet> = old_rss.iter().collect();
        all.push(&new_rs);
        cx.calls.leaf("NewRSNewReplicas");
        let (count, why) = new_rs_new_replicas(d, &all, &new_rs).map_err(SyncError::Controller)?;
        cx.explain("NewRSNewReplicas", why);
        new_rs.spec.replicas = Some(count);
        set_new_replica_set_annotations(
            d,
            &mut new_rs,
            new_revision,
            false,
            MAX_REV_HISTORY_LENGTH_IN_CHARS,
        );
        cx.explain("getNewReplicaSet", format!("no ReplicaSet matches the template: create {} (pod-template-hash {hash}) at revision {new_revision} with {count} replicas", new_rs.metadata.name));
        let created = cx.store.api().create(new_rs.clone());
        let (created, already_exists) = match created {
            Ok(r) => (r, false),
            Err(ApiError::AlreadyExists { .. }) => {
                (self.on_create_collision(cx, d, &new_rs)?, true)
            }
            Err(e) => {
                let msg = format!(
                    "Failed to create new replica set \"{}\": {e}",
                    new_rs.metadata.name
                );
                if has_progress_deadline(d) {
                    let c = new_deployment_condition(
                        PROGRESSING,
                        ConditionStatus::False,
                        FAILED_RS_CREATE_REASON,
                        msg.clone(),
                        now,
                    );
                    set_deployment_condition(&mut d.status, c);
                    // Upstream ignores this write's error: the create's is the one returned.
                    let _ = cx.store.api().update_status(d.clone());
                }
                cx.event(d, EventType::Warning, FAILED_RS_CREATE_REASON, msg);
                return Err(e.into());
            }
        };
        if !already_exists && count > 0 {
            cx.event(
                d,
                EventType::Normal,
                "ScalingReplicaSet",
                // PR #125118 (v1.32) wrote "from 0 to"; before, "to N".
                if cx.gates.release.scaling_event_says_from_to() {
                    format!(
                        "Scaled up replica set {} from 0 to {count}",
                        created.metadata.name
                    )
                } else {
                    format!("Scaled up replica set {} to {count}", created.metadata.name)
                },
            );
        }
        let mut needs_update = set_deployment_revision(d, new_revision);
        if !already_exists && has_progress_deadline(d) {
            let c = new_deployment_condition(
                PROGRESSING,
                ConditionStatus::True,
                NEW_REPLICA_SET_REASON,
                format!("Created new replica set \"{}\"", created.metadata.name),
                now,
            );
            set_deployment_condition(&mut d.status, c);
            needs_update = true;
        }
        if needs_update {
            cx.store.api().update_status(d.clone())?;
        }
        Ok(created)
    }

    /// The new ReplicaSet's name is taken. If the one there is ours and has the Deployment's
    /// template (hash aside), it is the new ReplicaSet (an informer that had not seen it yet);
    /// otherwise the hash collided: collisionCount goes up, so the next sync hashes anew, and
    /// this one fails with the apiserver's AlreadyExists.
    fn on_create_collision(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        new_rs: &ReplicaSet,
    ) -> SyncResult<ReplicaSet> {
        let rs =
            cx.store
                .replicaset(&new_rs.metadata.key())
                .cloned()
                .ok_or(ApiError::NotFound {
                    kind: Kind::ReplicaSet,
                    name: new_rs.metadata.name.to_string(),
                })?;
        let ours = rs
            .metadata
            .controller_ref()
            .is_some_and(|r| r.uid == d.metadata.uid);
        if ours && equal_ignore_hash(&d.spec.template, &rs.spec.template) {
            return Ok(rs);
        }
        let c = d.status.collision_count.unwrap_or(0);
        d.status.collision_count = Some(c + 1);
        cx.explain(
            "getNewReplicaSet",
            format!(
                "hash collision with {}: collisionCount {c} → {}",
                rs.metadata.name,
                c + 1
            ),
        );
        // Upstream ignores this write's error: the AlreadyExists is the one returned.
        let _ = cx.store.api().update_status(d.clone());
        Err(ApiError::AlreadyExists {
            kind: Kind::ReplicaSet,
            name: new_rs.metadata.name.to_string(),
        }
        .into())
    }

    /// `scale`: resizes for a scaling event. One active (or no active: the newest) ReplicaSet
    /// takes the whole count; a saturated new ReplicaSet retires the old ones; otherwise, for
    /// RollingUpdate, the change is shared in proportion to each ReplicaSet's size, the leftover
    /// going to the first in order. (As long as upstream's: its proportional branch reads
    /// step by step against the Go.)
    pub fn scale(
        &mut self,
        cx: &mut Ctx,
        d: &Deployment,
        new_rs: Option<&ReplicaSet>,
        old_rss: &[ReplicaSet],
    ) -> SyncResult {
        let _call = cx.calls.enter("scale");
        cx.calls.leaf("FindActiveOrLatest");
        if let Some(target) = find_active_or_latest(new_rs, old_rss) {
            if target.replicas() == d.replicas() {
                cx.explain(
                    "scale",
                    format!(
                        "only {} is active and it already has {} replicas",
                        target.metadata.name,
                        d.replicas()
                    ),
                );
                return Ok(());
            }
            cx.explain(
                "FindActiveOrLatest",
                format!(
                    "only {} is active: it takes all {} replicas",
                    target.metadata.name,
                    d.replicas()
                ),
            );
            self.scale_replica_set_and_record_event(cx, &target, d.replicas(), d)?;
            return Ok(());
        }
        cx.calls.leaf("IsSaturated");
        if is_saturated(d, new_rs) {
            cx.explain(
                "IsSaturated",
                format!(
                    "new ReplicaSet has all {} replicas available: old ReplicaSets go to 0",
                    d.replicas()
                ),
            );
            for old in filter_active_replica_sets(old_rss) {
                self.scale_replica_set_and_record_event(cx, &old, 0, d)?;
            }
            return Ok(());
        }
        if !d.is_rolling() {
            cx.explain("scale", "Recreate with several active ReplicaSets: wait for the rollout to finish before scaling");
            return Ok(());
        }
        let mut all: Vec<ReplicaSet> = old_rss.to_vec();
        all.extend(new_rs.cloned());
        let mut all = filter_active_replica_sets(&all);
        let current = replica_count(&all);
        let surge = max_surge(d);
        let allowed = if d.replicas() > 0 {
            d.replicas() + surge
        } else {
            0
        };
        let to_add = allowed - current;
        let op = if to_add > 0 {
            crate::api::sort::sort_by(&mut all, by_size_newer);
            "up"
        } else if to_add < 0 {
            crate::api::sort::sort_by(&mut all, by_size_older);
            "down"
        } else {
            ""
        };
        cx.explain(
            "scale",
            format!("proportional: allowed = replicas + maxSurge = {} + {surge} = {allowed}; active ReplicaSets hold {current}; to distribute {to_add:+}", d.replicas()),
        );
        let mut added = 0;
        let mut sizes: Vec<i32> = Vec::with_capacity(all.len());
        for rs in &all {
            if to_add != 0 {
                cx.calls.leaf("GetReplicaSetProportion");
                let (p, why) = get_proportion(rs, d, to_add, added);
                cx.explain("GetReplicaSetProportion", why);
                sizes.push(rs.replicas() + p);
                added += p;
            } else {
                sizes.push(rs.replicas());
            }
        }
        for (i, rs) in all.iter().enumerate() {
            if i == 0 && to_add != 0 {
                let leftover = to_add - added;
                if leftover != 0 {
                    cx.explain(
                        "scale",
                        format!("leftover {leftover:+} goes to {}", rs.metadata.name),
                    );
                }
                sizes[0] = (sizes[0] + leftover).max(0);
            }
            self.scale_replica_set(cx, rs, sizes[i], d, op)?;
        }
        Ok(())
    }

    /// `scaleReplicaSetAndRecordEvent`: returns whether the size changed, and the ReplicaSet as
    /// stored afterwards.
    pub fn scale_replica_set_and_record_event(
        &mut self,
        cx: &mut Ctx,
        rs: &ReplicaSet,
        new_scale: i32,
        d: &Deployment,
    ) -> SyncResult<(bool, ReplicaSet)> {
        let _call = cx.calls.enter("scaleReplicaSetAndRecordEvent");
        if rs.replicas() == new_scale {
            return Ok((false, rs.clone()));
        }
        let op = if rs.replicas() < new_scale {
            "up"
        } else {
            "down"
        };
        self.scale_replica_set(cx, rs, new_scale, d, op)
    }

    /// `scaleReplicaSet`: writes the size and the desired/max-replicas annotations, and records
    /// `ScalingReplicaSet` when the size changed.
    pub fn scale_replica_set(
        &mut self,
        cx: &mut Ctx,
        rs: &ReplicaSet,
        new_scale: i32,
        d: &Deployment,
        op: &str,
    ) -> SyncResult<(bool, ReplicaSet)> {
        let _call = cx.calls.enter("scaleReplicaSet");
        let size_changed = rs.replicas() != new_scale;
        let max = d.replicas() + max_surge(d);
        if !size_changed && !replicas_annotations_need_update(rs, d.replicas(), max) {
            return Ok((false, rs.clone()));
        }
        let old_scale = rs.replicas();
        let mut copy = rs.clone();
        copy.spec.replicas = Some(new_scale);
        set_replicas_annotations(&mut copy, d.replicas(), max);
        let updated = cx.store.api().update(copy)?;
        if size_changed {
            cx.event(
                d,
                EventType::Normal,
                "ScalingReplicaSet",
                if cx.gates.release.scaling_event_says_from_to() {
                    format!(
                        "Scaled {op} replica set {} from {old_scale} to {new_scale}",
                        rs.metadata.name
                    )
                } else {
                    format!(
                        "Scaled {op} replica set {} to {new_scale} from {old_scale}",
                        rs.metadata.name
                    )
                },
            );
        }
        Ok((size_changed, updated))
    }

    /// `cleanupDeployment`: keeps the newest `revisionHistoryLimit` old ReplicaSets (by
    /// revision) and deletes older ones that are fully scaled down and observed.
    pub fn cleanup_deployment(
        &mut self,
        cx: &mut Ctx,
        old_rss: &[ReplicaSet],
        d: &Deployment,
    ) -> SyncResult {
        let _call = cx.calls.enter("cleanupDeployment");
        if !has_revision_history_limit(d) {
            return Ok(());
        }
        let limit = d.spec.revision_history_limit.unwrap_or(10);
        let mut cleanable: Vec<&ReplicaSet> = old_rss
            .iter()
            .filter(|r| r.metadata.deletion_timestamp.is_none())
            .collect();
        let diff = cleanable.len() as i64 - limit as i64;
        if diff <= 0 {
            return Ok(());
        }
        super::util::sort_by_revision(&mut cleanable);
        cx.explain(
            "cleanupDeployment",
            format!(
                "{} old ReplicaSets, revisionHistoryLimit {limit}: up to {diff} oldest may go",
                cleanable.len()
            ),
        );
        for rs in cleanable.into_iter().take(diff as usize) {
            if rs.status.replicas != 0
                || rs.replicas() != 0
                || rs.metadata.generation > rs.status.observed_generation
                || rs.metadata.deletion_timestamp.is_some()
            {
                continue;
            }
            cx.explain(
                "cleanupDeployment",
                format!(
                    "delete old ReplicaSet {} (revision {})",
                    rs.metadata.name,
                    revision(&rs.metadata).unwrap_or(0)
                ),
            );
            match cx.store.delete(
                Kind::ReplicaSet,
                &rs.metadata.key(),
                crate::apiserver::store::Propagation::Background,
                None,
            ) {
                Ok(()) | Err(ApiError::NotFound { .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// `syncDeploymentStatus`.
    pub fn sync_deployment_status(
        &mut self,
        cx: &mut Ctx,
        all: &[ReplicaSet],
        new_rs: Option<&ReplicaSet>,
        d: &mut Deployment,
    ) -> SyncResult {
        let _call = cx.calls.enter("syncDeploymentStatus");
        cx.calls.leaf("calculateStatus");
        let mut s = calculate_status(all, new_rs, d, cx.now());
        // KEP-3973: with the gate off the field is left out (nil), not counted.
        if !cx.gates.deployment_replica_set_terminating_replicas {
            s.terminating_replicas = None;
        }
        if d.status == s {
            return Ok(());
        }
        d.status = s;
        cx.store.api().update_status(d.clone())?;
        Ok(())
    }

    /// `isScalingEvent`: some active ReplicaSet's desired-replicas annotation differs from
    /// spec.replicas. Also returns the reason in words.
    pub fn is_scaling_event(
        &mut self,
        cx: &mut Ctx,
        d: &mut Deployment,
        rs_list: &[ReplicaSet],
    ) -> SyncResult<(bool, String)> {
        let _call = cx.calls.enter("isScalingEvent");
        let (new_rs, old_rss) =
            self.get_all_replica_sets_and_sync_revision(cx, d, rs_list, false)?;
        let all = with_new(&old_rss, new_rs.as_ref());
        for rs in filter_active_replica_sets(&all) {
            if let Some(desired) = desired_replicas_annotation(&rs)
                && desired != d.replicas()
            {
                return Ok((
                    true,
                    format!(
                        "scaling event: {} has desired-replicas {desired} ≠ spec.replicas {}",
                        rs.metadata.name,
                        d.replicas()
                    ),
                ));
            }
        }
        Ok((
            false,
            format!(
                "not a scaling event (desired-replicas = spec.replicas = {})",
                d.replicas()
            ),
        ))
    }
}

/// `calculateStatus`: the Deployment status its ReplicaSets imply, with the Available
/// condition (MinimumReplicasAvailable when available ≥ replicas − maxUnavailable).
pub fn calculate_status(
    all: &[ReplicaSet],
    new_rs: Option<&ReplicaSet>,
    d: &Deployment,
    now: Time,
) -> DeploymentStatus {
    let available = available_replica_count(all);
    let total = replica_count(all);
    let mut s = DeploymentStatus {
        observed_generation: d.metadata.generation,
        replicas: actual_replica_count(all),
        updated_replicas: new_rs.map(|r| r.status.replicas).unwrap_or(0),
        ready_replicas: ready_replica_count(all),
        available_replicas: available,
        unavailable_replicas: (total - available).max(0),
        terminating_replicas: terminating_replica_count(all),
        conditions: d.status.conditions.clone(),
        collision_count: d.status.collision_count,
    };
    let c = if available >= d.replicas() - max_unavailable(d) {
        new_deployment_condition(
            AVAILABLE,
            ConditionStatus::True,
            MINIMUM_REPLICAS_AVAILABLE,
            "Deployment has minimum availability.".into(),
            now,
        )
    } else {
        new_deployment_condition(
            AVAILABLE,
            ConditionStatus::False,
            MINIMUM_REPLICAS_UNAVAILABLE,
            "Deployment does not have minimum availability.".into(),
            now,
        )
    };
    set_deployment_condition(&mut s, c);
    s
}

/// `generateReplicaSetName`: `<name>-<hash>`. From v1.34 (PR #132560) the Deployment's name is
/// cut so that the whole fits a DNS subdomain (253 characters); before, a long name made a
/// name the apiserver refuses, and the ReplicaSet was never created.
pub fn generate_replica_set_name(name: &str, hash: &str, release: Release) -> Str {
    const MAX: usize = 253;
    let keep = MAX.saturating_sub(1 + hash.len());
    let name = if release.shortens_replica_set_names() && name.len() > keep && keep > 0 {
        // Deployment names are ASCII (a DNS subdomain): any byte is a character boundary.
        &name[..keep]
    } else {
        name
    };
    Str::concat(&[name, "-", hash])
}

/// The Deployment's new ReplicaSet as `getNewReplicaSet` builds it before creating it:
/// `<name>-<pod-template-hash>`, the Deployment's controller reference, the hash in its
/// selector and template labels, no replicas yet. Returns it and the hash.
fn new_replica_set_for(d: &Deployment, release: Release) -> (ReplicaSet, String) {
    let mut template = d.spec.template.clone();
    let hash = compute_hash(&template, d.status.collision_count);
    template
        .metadata
        .labels
        .insert(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY.into(), hash.clone());
    let selector = d
        .selector()
        .with_label(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, &hash);
    let rs = ReplicaSet {
        metadata: ObjectMeta {
            name: generate_replica_set_name(&d.metadata.name, &hash, release),
            namespace: d.metadata.namespace.clone(),
            owner_references: vec![OwnerReference::controller_of(
                Deployment::API_VERSION,
                Deployment::KIND,
                &d.metadata,
            )]
            .into(),
            labels: template.metadata.labels.clone(),
            ..Default::default()
        },
        spec: ReplicaSetSpec {
            replicas: Some(0),
            min_ready_seconds: d.spec.min_ready_seconds,
            selector,
            template,
            extra: Default::default(),
        },
        status: Default::default(),
    };
    (rs, hash)
}
