//! Pure helpers of pkg/controller/deployment/util/deployment_util.go: the arithmetic of rolling
//! updates (`resolve_fenceposts`, `max_surge`, `max_unavailable`, `new_rs_new_replicas`), the
//! proportions of scaling (`get_proportion`, `get_replica_set_fraction`), revisions and
//! annotations, conditions, and the tests for complete / progressing / timed out.
//! Nothing here writes to the store.

use crate::api::*;
use crate::controller::{by_creation_timestamp, filter_active_replica_sets};
use std::borrow::Borrow;
use std::cmp::Ordering;

pub const MAX_REV_HISTORY_LENGTH_IN_CHARS: usize = 2000;

// Condition reasons (deployment_util.go).
pub const REPLICA_SET_UPDATED_REASON: &str = "ReplicaSetUpdated";
pub const FAILED_RS_CREATE_REASON: &str = "ReplicaSetCreateError";
pub const NEW_REPLICA_SET_REASON: &str = "NewReplicaSetCreated";
pub const FOUND_NEW_RS_REASON: &str = "FoundNewReplicaSet";
pub const NEW_RS_AVAILABLE_REASON: &str = "NewReplicaSetAvailable";
pub const TIMED_OUT_REASON: &str = "ProgressDeadlineExceeded";
pub const PAUSED_DEPLOY_REASON: &str = "DeploymentPaused";
pub const RESUMED_DEPLOY_REASON: &str = "DeploymentResumed";
pub const MINIMUM_REPLICAS_AVAILABLE: &str = "MinimumReplicasAvailable";
pub const MINIMUM_REPLICAS_UNAVAILABLE: &str = "MinimumReplicasUnavailable";
pub const ROLLBACK_REVISION_NOT_FOUND: &str = "DeploymentRollbackRevisionNotFound";
pub const ROLLBACK_TEMPLATE_UNCHANGED: &str = "DeploymentRollbackTemplateUnchanged";
pub const ROLLBACK_DONE: &str = "DeploymentRollback";

pub const PROGRESSING: &str = "Progressing";
pub const AVAILABLE: &str = "Available";
pub use crate::controller::replicaset::util::REPLICA_FAILURE;

/// `ResolveFenceposts`: maxSurge rounds up, maxUnavailable rounds down; both zero makes
/// maxUnavailable 1 so a rollout can always move.
pub fn resolve_fenceposts(
    max_surge: Option<&IntOrString>,
    max_unavailable: Option<&IntOrString>,
    desired: i32,
) -> Result<(i32, i32), String> {
    let zero = IntOrString::Int(0);
    let surge = max_surge.unwrap_or(&zero).scaled_value(desired, true)?;
    let unavailable = max_unavailable
        .unwrap_or(&zero)
        .scaled_value(desired, false)?;
    if surge == 0 && unavailable == 0 {
        return Ok((0, 1));
    }
    Ok((surge, unavailable))
}

fn fenceposts(d: &Deployment) -> (i32, i32) {
    let ru = d.spec.strategy.rolling_update.clone().unwrap_or_default();
    resolve_fenceposts(
        ru.max_surge.as_ref(),
        ru.max_unavailable.as_ref(),
        d.replicas(),
    )
    .unwrap_or((0, 0))
}

/// `MaxSurge`: 0 unless RollingUpdate.
pub fn max_surge(d: &Deployment) -> i32 {
    if !d.is_rolling() {
        return 0;
    }
    fenceposts(d).0
}

/// `MaxUnavailable`: 0 unless RollingUpdate with replicas > 0; never more than replicas.
pub fn max_unavailable(d: &Deployment) -> i32 {
    if !d.is_rolling() || d.replicas() == 0 {
        return 0;
    }
    fenceposts(d).1.min(d.replicas())
}

/// `MinAvailable`: replicas − maxUnavailable for RollingUpdate, else 0.
pub fn min_available(d: &Deployment) -> i32 {
    if !d.is_rolling() {
        return 0;
    }
    d.replicas() - max_unavailable(d)
}

/// The human form of how maxSurge/maxUnavailable resolve, for explanations.
pub fn describe_fencepost(
    v: Option<&IntOrString>,
    desired: i32,
    round_up: bool,
    resolved: i32,
) -> String {
    match v {
        Some(IntOrString::Str(s)) if s.ends_with('%') => {
            format!(
                "{}({s} × {desired}) = {resolved}",
                if round_up { "ceil" } else { "floor" }
            )
        }
        Some(v) => format!("{v}"),
        None => "0".into(),
    }
}

/// `GetReplicaCountForReplicaSets`: Σ spec.replicas.
pub fn replica_count<R: Borrow<ReplicaSet>>(rss: &[R]) -> i32 {
    rss.iter().map(|r| r.borrow().replicas()).sum()
}
/// `GetActualReplicaCountForReplicaSets`: Σ status.replicas.
pub fn actual_replica_count<R: Borrow<ReplicaSet>>(rss: &[R]) -> i32 {
    rss.iter().map(|r| r.borrow().status.replicas).sum()
}
/// `GetReadyReplicaCountForReplicaSets`.
pub fn ready_replica_count<R: Borrow<ReplicaSet>>(rss: &[R]) -> i32 {
    rss.iter().map(|r| r.borrow().status.ready_replicas).sum()
}
/// `GetAvailableReplicaCountForReplicaSets`.
pub fn available_replica_count<R: Borrow<ReplicaSet>>(rss: &[R]) -> i32 {
    rss.iter()
        .map(|r| r.borrow().status.available_replicas)
        .sum()
}
/// `GetTerminatingReplicaCountForReplicaSets`: unknown (None) as soon as a ReplicaSet that has
/// been synced (observedGeneration > 0) does not report the field.
pub fn terminating_replica_count<R: Borrow<ReplicaSet>>(rss: &[R]) -> Option<i32> {
    let mut total = 0;
    for r in rss {
        let r = r.borrow();
        match r.status.terminating_replicas {
            Some(n) => total += n,
            None if r.status.observed_generation > 0 => return None,
            None => {}
        }
    }
    Some(total)
}

/// `NewRSNewReplicas`: how big the new ReplicaSet may be now. Returns the size and the
/// explanation of the arithmetic.
pub fn new_rs_new_replicas<R: Borrow<ReplicaSet>>(
    d: &Deployment,
    all_rss: &[R],
    new_rs: &ReplicaSet,
) -> Result<(i32, String), String> {
    match d.spec.strategy.type_.as_str() {
        ROLLING_UPDATE => {
            let ru = d.spec.strategy.rolling_update.clone().unwrap_or_default();
            let surge = ru
                .max_surge
                .clone()
                .unwrap_or(IntOrString::Int(0))
                .scaled_value(d.replicas(), true)?;
            let current = replica_count(all_rss);
            let max_total = d.replicas() + surge;
            let surge_txt = describe_fencepost(ru.max_surge.as_ref(), d.replicas(), true, surge);
            if current >= max_total {
                return Ok((
                    new_rs.replicas(),
                    format!(
                        "maxSurge = {surge_txt}; {current} pods ≥ replicas + maxSurge = {max_total}: the new ReplicaSet stays at {}",
                        new_rs.replicas()
                    ),
                ));
            }
            let room = max_total - current;
            let want = d.replicas() - new_rs.replicas();
            let up = room.min(want);
            Ok((
                new_rs.replicas() + up,
                format!(
                    "maxSurge = {surge_txt}; scaleUp = min({max_total} − {current}, {} − {}) = {up}; new ReplicaSet → {}",
                    d.replicas(),
                    new_rs.replicas(),
                    new_rs.replicas() + up
                ),
            ))
        }
        RECREATE => Ok((
            d.replicas(),
            format!(
                "Recreate: the new ReplicaSet gets all {} replicas",
                d.replicas()
            ),
        )),
        other => Err(format!("deployment strategy {other:?} isn't supported")),
    }
}

/// `getNonNegativeInt32FromAnnotationVerbose`: decimal 0..=MaxInt32, else invalid.
pub fn non_negative_int32_annotation(
    annotations: &std::collections::BTreeMap<String, String>,
    key: &str,
) -> (i32, bool, Option<String>) {
    let Some(v) = annotations.get(key) else {
        return (0, false, None);
    };
    match v.parse::<i64>() {
        Ok(n) if (0..=i32::MAX as i64).contains(&n) => (n as i32, true, None),
        Ok(n) if n > i32::MAX as i64 => (
            0,
            false,
            Some(format!(
                "strconv.ParseInt: parsing {v:?}: value out of range"
            )),
        ),
        Err(_) if v.bytes().all(|b| b.is_ascii_digit()) && !v.is_empty() => (
            0,
            false,
            Some(format!(
                "strconv.ParseInt: parsing {v:?}: value out of range"
            )),
        ),
        _ => (
            0,
            false,
            Some(format!("strconv.ParseUint: parsing {v:?}: invalid syntax")),
        ),
    }
}

pub fn desired_replicas_annotation(rs: &ReplicaSet) -> Option<i32> {
    let (v, ok, _) =
        non_negative_int32_annotation(&rs.metadata.annotations, DESIRED_REPLICAS_ANNOTATION);
    ok.then_some(v)
}

pub fn max_replicas_annotation(rs: &ReplicaSet) -> Option<i32> {
    let (v, ok, _) =
        non_negative_int32_annotation(&rs.metadata.annotations, MAX_REPLICAS_ANNOTATION);
    ok.then_some(v)
}

/// `getReplicaSetFraction`: this ReplicaSet's share of a resize, before capping.
pub fn get_replica_set_fraction(rs: &ReplicaSet, d: &Deployment) -> (i32, String) {
    if d.replicas() == 0 {
        return (
            -rs.replicas(),
            format!(
                "{}: replicas = 0, so scale to 0 ({:+})",
                rs.metadata.name,
                -rs.replicas()
            ),
        );
    }
    let max_now = d.replicas() + max_surge(d);
    let before = match max_replicas_annotation(rs) {
        Some(v) if v > 0 => v,
        _ => {
            if d.status.replicas == 0 {
                return (
                    0,
                    format!(
                        "{}: no max-replicas annotation and status.replicas = 0: not scaled",
                        rs.metadata.name
                    ),
                );
            }
            d.status.replicas
        }
    };
    let exact = rs.replicas() as f64 * max_now as f64 / before as f64;
    let rounded = exact.round() as i32;
    (
        rounded - rs.replicas(),
        format!(
            "{}: round({} × {max_now} / {before}) − {} = {:+}",
            rs.metadata.name,
            rs.replicas(),
            rs.replicas(),
            rounded - rs.replicas()
        ),
    )
}

/// `GetReplicaSetProportion`: the fraction, capped so the total never overshoots what is left to add.
pub fn get_proportion(rs: &ReplicaSet, d: &Deployment, to_add: i32, added: i32) -> (i32, String) {
    if rs.replicas() == 0 || to_add == 0 || to_add == added {
        return (
            0,
            format!("{}: nothing left to distribute", rs.metadata.name),
        );
    }
    let (fraction, why) = get_replica_set_fraction(rs, d);
    let allowed = to_add - added;
    let p = if to_add > 0 {
        fraction.min(allowed)
    } else {
        fraction.max(allowed)
    };
    (
        p,
        if p == fraction {
            why
        } else {
            format!("{why}, capped to {p:+} (left to distribute {allowed:+})")
        },
    )
}

/// `IsSaturated`: the new ReplicaSet has all the Deployment's replicas, all available.
pub fn is_saturated(d: &Deployment, rs: Option<&ReplicaSet>) -> bool {
    let Some(rs) = rs else { return false };
    let Some(desired) = desired_replicas_annotation(rs) else {
        return false;
    };
    rs.replicas() == d.replicas()
        && desired == d.replicas()
        && rs.status.available_replicas == d.replicas()
}

/// `ReplicasAnnotationsNeedUpdate`.
pub fn replicas_annotations_need_update(rs: &ReplicaSet, desired: i32, max: i32) -> bool {
    let a = &rs.metadata.annotations;
    a.get(DESIRED_REPLICAS_ANNOTATION) != Some(&desired.to_string())
        || a.get(MAX_REPLICAS_ANNOTATION) != Some(&max.to_string())
}

/// `SetReplicasAnnotations`: returns whether anything changed.
pub fn set_replicas_annotations(rs: &mut ReplicaSet, desired: i32, max: i32) -> bool {
    let mut changed = false;
    for (k, v) in [
        (DESIRED_REPLICAS_ANNOTATION, desired),
        (MAX_REPLICAS_ANNOTATION, max),
    ] {
        let v = v.to_string();
        if rs.metadata.annotations.get(k) != Some(&v) {
            rs.metadata.annotations.insert(k.to_string(), v);
            changed = true;
        }
    }
    changed
}

/// `Revision`: the revision annotation (missing = 0); `Err` when it is not a number.
pub fn revision(meta: &ObjectMeta) -> Result<i64, String> {
    match meta.annotations.get(REVISION_ANNOTATION) {
        None => Ok(0),
        Some(v) => v
            .parse::<i64>()
            .map_err(|_| format!("strconv.ParseInt: parsing {v:?}: invalid syntax")),
    }
}

/// `MaxRevision`.
pub fn max_revision<R: Borrow<ReplicaSet>>(rss: &[R]) -> i64 {
    rss.iter()
        .filter_map(|r| revision(&r.borrow().metadata).ok())
        .max()
        .unwrap_or(0)
        .max(0)
}

/// `LastRevision`: the second-highest revision.
pub fn last_revision<R: Borrow<ReplicaSet>>(rss: &[R]) -> i64 {
    let (mut max, mut sec) = (0i64, 0i64);
    for r in rss {
        if let Ok(v) = revision(&r.borrow().metadata) {
            if v >= max {
                sec = max;
                max = v;
            } else if v > sec {
                sec = v;
            }
        }
    }
    sec
}

fn skip_copy_annotation(k: &str) -> bool {
    matches!(
        k,
        LAST_APPLIED_ANNOTATION
            | REVISION_ANNOTATION
            | REVISION_HISTORY_ANNOTATION
            | DESIRED_REPLICAS_ANNOTATION
            | MAX_REPLICAS_ANNOTATION
            | DEPRECATED_ROLLBACK_TO
    )
}

/// `SetNewReplicaSetAnnotations`: copies the Deployment's annotations (except the skipped ones),
/// raises the revision if it is lower than `new_revision` (remembering the old one in
/// revision-history, trimmed to `max_history_chars`), and on creation sets desired/max-replicas.
pub fn set_new_replica_set_annotations(
    d: &Deployment,
    rs: &mut ReplicaSet,
    new_revision: &str,
    exists: bool,
    max_history_chars: usize,
) -> bool {
    let mut changed = false;
    for (k, v) in &d.metadata.annotations {
        if skip_copy_annotation(k) || rs.metadata.annotations.get(k) == Some(v) {
            continue;
        }
        rs.metadata.annotations.insert(k.clone(), v.clone());
        changed = true;
    }
    let old = rs.metadata.annotations.get(REVISION_ANNOTATION).cloned();
    let old_int = match old.as_deref() {
        None | Some("") => 0,
        Some(v) => match v.parse::<i64>() {
            Ok(n) => n,
            Err(_) => return false,
        },
    };
    let Ok(new_int) = new_revision.parse::<i64>() else {
        return false;
    };
    if old_int < new_int {
        rs.metadata
            .annotations
            .insert(REVISION_ANNOTATION.into(), new_revision.into());
        changed = true;
        if let Some(old) = old.filter(|o| !o.is_empty()) {
            let history = rs
                .metadata
                .annotations
                .get(REVISION_HISTORY_ANNOTATION)
                .cloned()
                .unwrap_or_default();
            if history.is_empty() {
                rs.metadata
                    .annotations
                    .insert(REVISION_HISTORY_ANNOTATION.into(), old);
            } else {
                let parts: Vec<&str> = history.split(',').collect();
                let mut total = history.len() + old.len() + 1;
                let mut start = 0;
                while total > max_history_chars && start < parts.len() {
                    total -= parts[start].len() + 1;
                    start += 1;
                }
                if total <= max_history_chars {
                    let mut kept: Vec<&str> = parts[start..].to_vec();
                    kept.push(&old);
                    rs.metadata
                        .annotations
                        .insert(REVISION_HISTORY_ANNOTATION.into(), kept.join(","));
                }
            }
        }
    }
    if !exists && set_replicas_annotations(rs, d.replicas(), d.replicas() + max_surge(d)) {
        changed = true;
    }
    changed
}

/// `SetDeploymentAnnotationsTo`: the rollback target's annotations replace the Deployment's
/// copyable ones.
pub fn set_deployment_annotations_to(d: &mut Deployment, rs: &ReplicaSet) {
    d.metadata
        .annotations
        .retain(|k, _| skip_copy_annotation(k));
    for (k, v) in &rs.metadata.annotations {
        if !skip_copy_annotation(k) {
            d.metadata.annotations.insert(k.clone(), v.clone());
        }
    }
}

/// `SetDeploymentRevision`.
pub fn set_deployment_revision(d: &mut Deployment, revision: &str) -> bool {
    if d.metadata
        .annotations
        .get(REVISION_ANNOTATION)
        .map(String::as_str)
        != Some(revision)
    {
        d.metadata
            .annotations
            .insert(REVISION_ANNOTATION.into(), revision.into());
        return true;
    }
    false
}

/// `EqualIgnoreHash`: templates equal once the pod-template-hash label is ignored.
pub fn equal_ignore_hash(a: &PodTemplateSpec, b: &PodTemplateSpec) -> bool {
    let strip = |t: &PodTemplateSpec| {
        let mut t = t.clone();
        t.metadata
            .labels
            .remove(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY);
        t
    };
    strip(a) == strip(b)
}

/// The ReplicaSets oldest first (creation, then name), as upstream's `FindNewReplicaSet` leaves
/// the caller's list: every later walk over the old ones (Recreate's scale-down, `scale`, the
/// ReplicaFailure copied from an old one) goes in that order.
fn oldest_first<R: Borrow<ReplicaSet>>(rss: &[R]) -> Vec<&ReplicaSet> {
    let mut sorted: Vec<&ReplicaSet> = rss.iter().map(Borrow::borrow).collect();
    crate::api::sort::sort_by(&mut sorted, |a, b| by_creation_timestamp(a, b));
    sorted
}

/// `FindNewReplicaSet`: the oldest ReplicaSet whose template equals the Deployment's.
pub fn find_new_replica_set<'a, R: Borrow<ReplicaSet>>(
    d: &Deployment,
    rss: &'a [R],
) -> Option<&'a ReplicaSet> {
    oldest_first(rss)
        .into_iter()
        .find(|r| equal_ignore_hash(&r.spec.template, &d.spec.template))
}

/// `FindOldReplicaSets`: (old ones with replicas, all old ones), oldest first.
pub fn find_old_replica_sets<'a, R: Borrow<ReplicaSet>>(
    d: &Deployment,
    rss: &'a [R],
) -> (Vec<&'a ReplicaSet>, Vec<&'a ReplicaSet>) {
    let sorted = oldest_first(rss);
    let new = sorted
        .iter()
        .position(|r| equal_ignore_hash(&r.spec.template, &d.spec.template));
    let mut required = vec![];
    let mut all = vec![];
    for (i, r) in sorted.into_iter().enumerate() {
        if Some(i) == new {
            continue;
        }
        all.push(r);
        if r.replicas() != 0 {
            required.push(r);
        }
    }
    (required, all)
}

/// `FindActiveOrLatest`: the only active ReplicaSet, or the newest when none is active; None when
/// several are active (then scaling is proportional).
pub fn find_active_or_latest(
    new_rs: Option<&ReplicaSet>,
    old_rss: &[ReplicaSet],
) -> Option<ReplicaSet> {
    if new_rs.is_none() && old_rss.is_empty() {
        return None;
    }
    let mut olds = old_rss.to_vec();
    // Newest first: the reverse of the oldest-first sort (no two compare equal: names
    // differ), which the page then carries once.
    crate::api::sort::sort_by(&mut olds, by_creation_timestamp);
    olds.reverse();
    let mut all = olds.clone();
    if let Some(n) = new_rs {
        all.push(n.clone());
    }
    let active = filter_active_replica_sets(&all);
    match active.len() {
        0 => new_rs.cloned().or_else(|| olds.first().cloned()),
        1 => Some(active[0].clone()),
        _ => None,
    }
}

/// ReplicaSets sorted by revision ([`by_revision`]), in place: one sort for every caller, so
/// the page carries the sort's code once.
pub fn sort_by_revision(v: &mut [&ReplicaSet]) {
    crate::api::sort::sort_by(v, |a, b| by_revision(a, b));
}

/// `ReplicaSetsByRevision`: by revision, ties (or unparsable) by creation time.
pub fn by_revision(a: &ReplicaSet, b: &ReplicaSet) -> Ordering {
    match (revision(&a.metadata), revision(&b.metadata)) {
        (Ok(x), Ok(y)) if x != y => x.cmp(&y),
        _ => by_creation_timestamp(a, b),
    }
}

pub fn has_progress_deadline(d: &Deployment) -> bool {
    d.spec
        .progress_deadline_seconds
        .is_some_and(|p| p != i32::MAX)
}

pub fn has_revision_history_limit(d: &Deployment) -> bool {
    d.spec.revision_history_limit.is_some_and(|l| l != i32::MAX)
}

// ------------------------------------------------------------------ conditions

pub fn new_deployment_condition(
    type_: &str,
    status: ConditionStatus,
    reason: &str,
    message: String,
    now: Time,
) -> DeploymentCondition {
    DeploymentCondition {
        type_: type_.into(),
        status: status.into(),
        last_update_time: Some(now),
        last_transition_time: Some(now),
        reason: reason.into(),
        message,
    }
}

pub fn get_deployment_condition<'a>(
    s: &'a DeploymentStatus,
    type_: &str,
) -> Option<&'a DeploymentCondition> {
    s.conditions.iter().find(|c| c.type_ == type_)
}

/// `SetDeploymentCondition`: no-op when status and reason are unchanged; keeps
/// lastTransitionTime when only the reason changes.
pub fn set_deployment_condition(s: &mut DeploymentStatus, mut c: DeploymentCondition) {
    if let Some(cur) = get_deployment_condition(s, &c.type_) {
        if cur.status == c.status && cur.reason == c.reason {
            return;
        }
        if cur.status == c.status {
            c.last_transition_time = cur.last_transition_time;
        }
    }
    s.conditions.retain(|x| x.type_ != c.type_);
    s.conditions.push(c);
}

pub fn remove_deployment_condition(s: &mut DeploymentStatus, type_: &str) {
    s.conditions.retain(|x| x.type_ != type_);
}

/// `DeploymentComplete`: updated == replicas == available == spec, generation observed.
pub fn deployment_complete(d: &Deployment, s: &DeploymentStatus) -> bool {
    s.updated_replicas == d.replicas()
        && s.replicas == d.replicas()
        && s.available_replicas == d.replicas()
        && s.observed_generation >= d.metadata.generation
}

/// `DeploymentProgressing`: more updated, fewer old, more ready or more available pods.
pub fn deployment_progressing(d: &Deployment, s: &DeploymentStatus) -> bool {
    let old = &d.status;
    let old_old = old.replicas - old.updated_replicas;
    let new_old = s.replicas - s.updated_replicas;
    s.updated_replicas > old.updated_replicas
        || new_old < old_old
        || s.ready_replicas > old.ready_replicas
        || s.available_replicas > old.available_replicas
}

/// `DeploymentTimedOut`: the Progressing condition was last updated longer ago than the deadline.
pub fn deployment_timed_out(d: &Deployment, s: &DeploymentStatus, now: Time) -> bool {
    if !has_progress_deadline(d) {
        return false;
    }
    let Some(c) = get_deployment_condition(s, PROGRESSING) else {
        return false;
    };
    if c.reason == NEW_RS_AVAILABLE_REASON {
        return false;
    }
    if c.reason == TIMED_OUT_REASON {
        return true;
    }
    let from = c.last_update_time.unwrap_or(Time(0));
    from.plus_secs(d.spec.progress_deadline_seconds.unwrap_or(0) as i64) < now
}

/// `append(oldRSs, newRS)`: every ReplicaSet of the Deployment, the old ones first.
pub fn with_new(old: &[ReplicaSet], new: Option<&ReplicaSet>) -> Vec<ReplicaSet> {
    let mut all = old.to_vec();
    all.extend(new.cloned());
    all
}
