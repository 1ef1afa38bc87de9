//! The ReplicaSet controller (pkg/controller/replicaset): claims pods, creates missing ones in
//! slow-start batches (1, 2, 4, …, at most `burstReplicas` per sync) and deletes surplus ones in
//! ranked order, gated by expectations, then writes `calculate_status`.

pub mod util;

use crate::api::*;
use crate::apiserver::events::{EventRecorder, EventType, Involved};
use crate::apiserver::queue::WorkQueue;
use crate::apiserver::store::{ApiError, PodTally, Propagation, Store, WatchEvent, WatchRef};
use crate::controller::FeatureGates;
use crate::controller::calls::CallLog;
use crate::controller::expectations::UidTrackingExpectations;
use crate::controller::ranking::{self, RankKey, RankKeys};
use crate::controller::{Explain, slow_start_batches};
use std::collections::BTreeMap;
use util::{
    REPLICA_FAILURE, get_replica_set_condition, remove_replica_set_condition,
    set_replica_set_condition,
};

pub const BURST_REPLICAS: usize = 500;
pub const SLOW_START_INITIAL_BATCH_SIZE: usize = 1;

#[derive(Clone)]
pub struct ReplicaSetController {
    pub queue: WorkQueue,
    pub expectations: UidTrackingExpectations,
    pub burst_replicas: usize,
    pub gates: FeatureGates,
    /// The upstream functions a sync runs (kept only in a run that records its steps).
    pub calls: CallLog,
}

impl Default for ReplicaSetController {
    fn default() -> Self {
        ReplicaSetController {
            queue: WorkQueue::default(),
            expectations: UidTrackingExpectations::default(),
            burst_replicas: BURST_REPLICAS,
            gates: FeatureGates::default(),
            calls: CallLog::default(),
        }
    }
}

/// What one sync did, for the trace.
#[derive(Clone, Debug, Default)]
pub struct RsSyncReport {
    pub created: usize,
    pub deleted: usize,
    pub waited_on_expectations: bool,
    pub error: Option<String>,
    pub explain: Vec<Explain>,
    /// The ReplicaSet's expectations when the sync began and when it ended.
    pub expectations: Option<(ExpectationsView, ExpectationsView)>,
    /// The slow-start batches it created pods in (`[1, 2, 4, 8, 5]`).
    pub batches: Vec<usize>,
    /// `burstReplicas`, when it capped this sync's creates or deletes.
    pub burst_replicas: Option<usize>,
    /// The pods it deleted, in deletion order, each with its ranking keys.
    pub deletions: Vec<Deletion>,
}

/// A pod a ReplicaSet sync deleted, and why it came first (`ActivePodsWithRanks`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Deletion {
    pub pod: String,
    pub rank: ranking::RankView,
}

/// A ReplicaSet's expectations as the trace shows them: creations and deletions still to be
/// observed, and whether the controller may act (`SatisfiedExpectations`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ExpectationsView {
    pub add: i64,
    pub del: i64,
    pub satisfied: bool,
}

/// What `manageReplicas` will do this sync, decided from the informer's view of the pods.
enum ReplicaPlan {
    Nothing,
    Create {
        n: usize,
        why: String,
        capped: bool,
    },
    /// (name, key, grace period) of each pod to delete, in ranked order, and their ranking
    /// keys.
    Delete {
        victims: Vec<(Str, Str, Option<i64>)>,
        ranks: Vec<ranking::RankView>,
        why: String,
        capped: bool,
    },
}

pub fn pod_key(p: &Pod) -> Str {
    p.metadata.key()
}

/// `getPodKeys`.
pub fn get_pod_keys(pods: &[&Pod]) -> Vec<Str> {
    pods.iter().map(|p| pod_key(p)).collect()
}

impl ReplicaSetController {
    /// `resolveControllerRef` for a pod's ReplicaSet, with its key.
    fn rs_for_ref<'a>(
        store: &'a Store,
        ns: &str,
        r: &OwnerReference,
    ) -> Option<(&'a str, &'a ReplicaSet)> {
        match store.resolve_controller_ref(Kind::ReplicaSet, ns, r)? {
            (key, Object::ReplicaSet(rs)) => Some((key, rs)),
            _ => None,
        }
    }

    fn matching_replica_sets(store: &Store, p: &Pod) -> Vec<Str> {
        store
            .replicasets()
            .filter(|rs| {
                rs.metadata.namespace == p.metadata.namespace
                    && !rs.spec.selector.is_empty()
                    && rs.spec.selector.matches(&p.metadata.labels)
            })
            .map(|rs| rs.metadata.key())
            .collect()
    }

    /// Informer callbacks (addPod, updatePod, deletePod, and the ReplicaSet ones).
    pub fn handle(&mut self, store: &Store, ev: &WatchEvent) {
        self.queue.handling(Some(ev));
        self.handle_event(store, ev);
        self.queue.handling(None);
    }

    fn handle_event(&mut self, store: &Store, ev: &WatchEvent) {
        let now_ms = store.clock().now_ms();
        match ev.view() {
            WatchRef::Added(Object::ReplicaSet(rs)) => {
                self.queue.add_by(&rs.metadata.key(), "addRS")
            }
            WatchRef::Modified {
                new: Object::ReplicaSet(rs),
                ..
            } => self.queue.add_by(&rs.metadata.key(), "updateRS"),
            WatchRef::Deleted(Object::ReplicaSet(rs)) => {
                self.expectations.delete_expectations(&rs.metadata.key());
                self.queue.add_by(&rs.metadata.key(), "deleteRS");
            }
            WatchRef::Added(Object::Pod(p)) => {
                if p.metadata.deletion_timestamp.is_some() {
                    return self.delete_pod(store, p, "addPod");
                }
                if let Some(r) = p.metadata.controller_ref() {
                    if let Some((key, _)) = Self::rs_for_ref(store, &p.metadata.namespace, r) {
                        self.expectations.counts.creation_observed(key);
                        self.queue.add_by(key, "addPod");
                    }
                    return;
                }
                for k in Self::matching_replica_sets(store, p) {
                    self.queue.add_by(&k, "addPod");
                }
            }
            WatchRef::Modified {
                old: Object::Pod(old),
                new: Object::Pod(cur),
            } => {
                if old.metadata.resource_version == cur.metadata.resource_version {
                    return;
                }
                let labels_changed = old.metadata.labels != cur.metadata.labels;
                if cur.metadata.deletion_timestamp.is_some() {
                    self.delete_pod(store, cur, "updatePod");
                    if labels_changed {
                        self.delete_pod(store, old, "updatePod");
                    }
                    return;
                }
                let (cr, or) = (cur.metadata.controller_ref(), old.metadata.controller_ref());
                if cr != or
                    && let Some(r) = or
                    && let Some((key, _)) = Self::rs_for_ref(store, &old.metadata.namespace, r)
                {
                    self.queue.add_by(key, "updatePod");
                }
                if let Some(r) = cr {
                    if let Some((key, rs)) = Self::rs_for_ref(store, &cur.metadata.namespace, r) {
                        self.queue.add_by(key, "updatePod");
                        // A pod that just became ready turns available minReadySeconds later;
                        // upstream adds a second against clock skew. (The spec is read first:
                        // the old pod's status is seldom still in the cache.)
                        if rs.spec.min_ready_seconds > 0 && !old.is_ready() && cur.is_ready() {
                            self.queue.add_after(
                                key,
                                now_ms,
                                rs.spec.min_ready_seconds as u64 * 1000 + 1000,
                            );
                        }
                    }
                    return;
                }
                if labels_changed || cr != or {
                    for k in Self::matching_replica_sets(store, cur) {
                        self.queue.add_by(&k, "updatePod");
                    }
                }
            }
            WatchRef::Deleted(Object::Pod(p)) => self.delete_pod(store, p, "deletePod"),
            _ => {}
        }
    }

    /// `deletePod` (also called from `addPod` and `updatePod` for a pod being deleted, which is
    /// the informer's handler named in the sync's cause).
    fn delete_pod(&mut self, store: &Store, p: &Pod, handler: &'static str) {
        let Some(r) = p.metadata.controller_ref() else {
            return;
        };
        let Some((key, _)) = Self::rs_for_ref(store, &p.metadata.namespace, r) else {
            return;
        };
        self.expectations.deletion_observed(key, &pod_key(p));
        self.queue.add_by(key, handler);
    }

    /// `syncReplicaSet`: claims the pods (adopting orphans that match, releasing controlled
    /// pods that no longer do), counts them for the status, creates or deletes pods when the
    /// expectations are met ([`Self::plan_replicas`], [`Self::manage_replicas`]), writes the
    /// status, and requeues: with back-off on an error, for availability with minReadySeconds.
    pub fn sync_replica_set(
        &mut self,
        store: &mut Store,
        events: &mut EventRecorder,
        key: &str,
    ) -> RsSyncReport {
        let _call = self.calls.enter("syncReplicaSet");
        let mut report = RsSyncReport::default();
        let Some(rs) = store.replicaset(key).cloned() else {
            self.expectations.delete_expectations(key);
            report.explain.push(self.calls.explain(
                "syncReplicaSet",
                format!("ReplicaSet {key} has been deleted"),
            ));
            return report;
        };
        let now = store.now();
        let before = self.expectations_of(key, now);
        self.calls.leaf("SatisfiedExpectations");
        let needs_sync = self.expectations.satisfied(key, now);
        let deleting = rs.metadata.deletion_timestamp.is_some();
        let (mut status, active_count, next_available) = {
            let _call = self.calls.enter("claimPods");
            if !deleting {
                adopt_orphans(store, &rs, &mut report);
            }
            let counted = self.count_claimed(store, &rs, key);
            if !deleting {
                release_unmatched(store, &rs, &mut report);
            }
            counted
        };
        let mut manage_err = None;
        if needs_sync && !deleting {
            let _call = self.calls.enter("manageReplicas");
            let plan = {
                let (active, keys) = self.gather_ranked(store, &rs, active_count);
                self.plan_replicas(active_count, &active, &keys.keys, &rs, now)
            };
            if let Err(e) = self.manage_replicas(store, events, plan, &rs, &mut report) {
                manage_err = Some(e.to_string());
            }
        } else if !needs_sync {
            report.waited_on_expectations = true;
            let e = self.expectations.counts.get(key).cloned();
            report.explain.push(self.calls.explain(
                "syncReplicaSet",
                format!(
                    "expectations not yet met (creations {}, deletions {} still to observe): no create or delete this sync",
                    e.as_ref().map(|e| e.add.max(0)).unwrap_or(0),
                    e.as_ref().map(|e| e.del.max(0)).unwrap_or(0)
                ),
            ));
        }
        self.calls.leaf("calculateStatus");
        set_failure_condition(&rs, &mut status, active_count, manage_err.as_deref(), now);
        let updated = {
            let _call = self.calls.enter("updateReplicaSetStatus");
            update_replica_set_status(store, &rs, status)
        };
        match updated {
            Ok(updated) if manage_err.is_none() => {
                let now_ms = store.clock().now_ms();
                self.requeue_for_availability(key, &updated, next_available, now_ms, &mut report);
            }
            Ok(_) => {}
            Err(e) => {
                manage_err.get_or_insert(e.to_string());
            }
        }
        if let Some(e) = &manage_err {
            self.queue.add_rate_limited(key, store.clock().now_ms());
            report.error = Some(e.clone());
        } else {
            self.queue.forget(key);
        }
        report.expectations = Some((before, self.expectations_of(key, store.now())));
        report
    }

    /// The ReplicaSet's expectations as the trace shows them.
    pub fn expectations_of(&self, key: &str, now: Time) -> ExpectationsView {
        let e = self.expectations.counts.get(key);
        let pending_deletes = self
            .expectations
            .get_uids(key)
            .map_or(0, |u| u.len() as i64);
        ExpectationsView {
            add: e.map_or(0, |e| e.add.max(0)),
            del: e.map_or(0, |e| e.del.max(0)).max(pending_deletes),
            satisfied: self.expectations.satisfied(key, now),
        }
    }

    /// The status of the claimed pods as they stand before this sync's creates and deletes,
    /// as upstream counts them from its informer cache: the active count, and with
    /// minReadySeconds when the first ready pod becomes available (for the requeue). Upstream
    /// walks every pod; the store's tallies (pods grouped by labels) give the same numbers from
    /// a group or two, unless availability depends on the clock (minReadySeconds).
    fn count_claimed(
        &self,
        store: &Store,
        rs: &ReplicaSet,
        key: &str,
    ) -> (ReplicaSetStatus, usize, Option<i64>) {
        let now = store.now();
        let uid = &rs.metadata.uid;
        let walk = || {
            count_status(
                rs,
                store
                    .pods_controlled_by(uid)
                    .filter(|p| rs.spec.selector.matches(&p.metadata.labels)),
                self.gates,
                now,
            )
        };
        if rs.spec.min_ready_seconds > 0 {
            return walk();
        }
        let mut counter = StatusCounter::new(rs, now, self.gates);
        for t in store.pod_tallies(uid) {
            if rs.spec.selector.matches(&t.labels) {
                counter.add_group(t);
            }
        }
        let counted = counter.finish(self.gates.deployment_replica_set_terminating_replicas);
        debug_assert_eq!(counted, walk(), "tallies of {key} disagree with its pods");
        counted
    }

    /// The active pods a scale-down ranks, each with its key for `ActivePodsWithRanks`
    /// (gathered only when there are more than the replicas: only a scale-down ranks, and a
    /// second pass over thousands of pods would read each from memory again).
    fn gather_ranked<'s>(
        &self,
        store: &'s Store,
        rs: &ReplicaSet,
        active_count: usize,
    ) -> (Vec<&'s Pod>, RankKeys<'s>) {
        let now = store.now();
        if active_count <= rs.replicas() as usize {
            return (vec![], RankKeys::new(Some(now), self.gates, 0));
        }
        self.calls.leaf("getIndirectlyRelatedPods");
        self.calls.leaf("getPodsToDelete");
        let on_node = Self::active_pods_on_nodes(store, rs);
        let mut keys = RankKeys::new(Some(now), self.gates, active_count);
        let mut v = Vec::with_capacity(active_count);
        // Pods made from one template share their labels: match each set once. They share
        // their spec per node too (see `apiserver/intern.rs`): the ranks of the first few specs
        // seen are kept by pointer, not looked up by node name again.
        let mut last: Option<(&Shared<Labels>, bool)> = None;
        let mut ranks: Vec<(&Shared<PodSpec>, i32)> = Vec::with_capacity(NODE_RANKS_KEPT);
        for p in store.pods_controlled_by(&rs.metadata.uid) {
            if !p.is_active() {
                continue;
            }
            let labels = &p.metadata.labels;
            let matches = match last {
                Some((l, m)) if Shared::same(l, labels) => m,
                _ => {
                    let m = rs.spec.selector.matches(labels);
                    last = Some((labels, m));
                    m
                }
            };
            if !matches {
                continue;
            }
            let rank = match ranks.iter().find(|(s, _)| Shared::same(s, &p.spec)) {
                Some(&(_, rank)) => rank,
                None => {
                    let rank = rank_on(&on_node, p);
                    if ranks.len() < NODE_RANKS_KEPT {
                        ranks.push((&p.spec, rank));
                    }
                    rank
                }
            };
            v.push(p);
            keys.push(p, rank);
        }
        (v, keys)
    }

    /// With minReadySeconds, the key comes back to count availability again. From v1.34
    /// (PR #132121), whenever some ready pods are not yet available, at the moment the first of
    /// them will be (`FindMinNextPodAvailabilityCheck`; available at exactly minReadySeconds,
    /// PR #132122). Before, only once every replica was ready and not all available, and then
    /// minReadySeconds later (a pod is available only after *more* than minReadySeconds; the
    /// `updatePod` handler's extra re-check covers the others).
    fn requeue_for_availability(
        &mut self,
        key: &str,
        updated: &ReplicaSet,
        next_available: Option<i64>,
        now_ms: u64,
        report: &mut RsSyncReport,
    ) {
        let (ready, available) = (
            updated.status.ready_replicas,
            updated.status.available_replicas,
        );
        let min_ready = updated.spec.min_ready_seconds;
        let release = self.gates.release;
        let delay = if release.rechecks_availability_when_due() {
            if min_ready == 0 || ready == available {
                return;
            }
            self.calls.leaf("FindMinNextPodAvailabilityCheck");
            next_available.map_or(min_ready as i64 * 1000, |ns| {
                let ms = (ns + NS_PER_MS - 1) / NS_PER_MS;
                if release.available_at_min_ready_seconds() {
                    ms
                } else {
                    ms + 1
                }
            })
        } else {
            let replicas = updated.replicas();
            if min_ready == 0 || ready != replicas || available == replicas {
                return;
            }
            // A real sync runs a moment after the Ready transition it saw, so its check comes
            // just past the strict boundary; here every sync runs at the instant itself, and
            // the millisecond stands for that moment (else each check would land exactly on
            // the boundary, miss it, and wait minReadySeconds more).
            min_ready as i64 * 1000 + 1
        };
        self.queue.add_after(key, now_ms, delay as u64);
        let why = if release.rechecks_availability_when_due() {
            String::new()
        } else {
            format!(" (before 1.34: once all {ready} are ready, minReadySeconds later)")
        };
        report.explain.push(self.calls.explain(
            "syncReplicaSet",
            format!(
                "minReadySeconds {min_ready}: {ready} ready, {available} available: check again in {delay} ms{why}"
            ),
        ));
    }

    /// The decision half of `manageReplicas`: how many pods to create, or which to delete
    /// (ranked among the pods of every sibling ReplicaSet), with the explain line.
    /// (Long: both branches of upstream's diff, each with the words a recording keeps.)
    fn plan_replicas(
        &self,
        active_count: usize,
        active: &[&Pod],
        keys: &[RankKey],
        rs: &ReplicaSet,
        now: Time,
    ) -> ReplicaPlan {
        let diff = active_count as i64 - rs.replicas() as i64;
        if diff < 0 {
            let want = (-diff) as usize;
            let n = want.min(self.burst_replicas);
            let capped = if n < want {
                format!(", capped by burstReplicas {}", self.burst_replicas)
            } else {
                String::new()
            };
            let mut batches = vec![];
            slow_start_batches(
                n,
                SLOW_START_INITIAL_BATCH_SIZE,
                || Ok::<(), ()>(()),
                &mut batches,
            );
            let why = format!(
                "{} active pods, spec.replicas {}: create {n}{capped} in slow-start batches {}",
                active_count,
                rs.replicas(),
                batches
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            return ReplicaPlan::Create {
                n,
                why,
                capped: n < want,
            };
        }
        if diff > 0 {
            let n = (diff as usize).min(self.burst_replicas);
            let chosen = first_ranked_pods(active, keys, n, Some(now), self.gates);
            // The ranking keys in words, for a run that records its steps.
            let ranks = if self.calls.is_recording() {
                chosen
                    .iter()
                    .map(|&i| keys[i].view(self.gates, Some(now)))
                    .collect()
            } else {
                vec![]
            };
            let victims: Vec<&Pod> = chosen.iter().map(|&i| active[i]).collect();
            let why = format!(
                "{} active pods, spec.replicas {}: delete {n} ({})",
                active_count,
                rs.replicas(),
                victims
                    .iter()
                    .map(|p| p.metadata.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let victims = victims
                .iter()
                .map(|p| {
                    (
                        p.metadata.name.clone(),
                        pod_key(p),
                        p.spec.termination_grace_period_seconds,
                    )
                })
                .collect();
            return ReplicaPlan::Delete {
                victims,
                ranks,
                why,
                capped: n < diff as usize,
            };
        }
        ReplicaPlan::Nothing
    }

    /// The acting half of `manageReplicas`: the creates (in slow-start batches) or deletes,
    /// with expectations raised first and lowered for every call that failed. (As long as
    /// upstream's `manageReplicas`, whose two branches it follows.)
    fn manage_replicas(
        &mut self,
        store: &mut Store,
        events: &mut EventRecorder,
        plan: ReplicaPlan,
        rs: &ReplicaSet,
        report: &mut RsSyncReport,
    ) -> Result<(), ApiError> {
        let key = rs.metadata.key();
        let now = store.now();
        match plan {
            ReplicaPlan::Nothing => Ok(()),
            ReplicaPlan::Create { n, why, capped } => {
                self.calls.leaf("ExpectCreations");
                self.expectations
                    .counts
                    .expect_creations(&key, n as i64, now);
                report
                    .explain
                    .push(self.calls.explain("manageReplicas", why));
                if capped {
                    report.burst_replicas = Some(self.burst_replicas);
                }
                // The creations are slowStartBatch's (its function argument's): the Code view
                // lists them under it, after ExpectCreations, in upstream's order.
                let batch = self.calls.enter("slowStartBatch");
                let mut batches = vec![];
                let (ok, err) = slow_start_batches(
                    n,
                    SLOW_START_INITIAL_BATCH_SIZE,
                    || create_pod(store, events, rs),
                    &mut batches,
                );
                drop(batch);
                report.created = ok;
                report.batches = batches;
                // The pods a failed batch skipped will never be observed.
                if ok < n {
                    self.calls.leaf("CreationObserved");
                }
                for _ in ok..n {
                    self.expectations.counts.creation_observed(&key);
                }
                err.map_or(Ok(()), Err)
            }
            ReplicaPlan::Delete {
                victims,
                ranks,
                why,
                capped,
            } => {
                report.deletions = victims
                    .iter()
                    .zip(ranks)
                    .map(|((name, _, _), rank)| Deletion {
                        pod: name.to_string(),
                        rank,
                    })
                    .collect();
                if capped {
                    report.burst_replicas = Some(self.burst_replicas);
                }
                report
                    .explain
                    .push(self.calls.explain("manageReplicas", why));
                let keys = victims.iter().map(|(_, k, _)| k.clone()).collect();
                self.calls.leaf("ExpectDeletions");
                self.expectations.expect_deletions(&key, keys, now);
                let mut first_err = None;
                for (name, pk, grace) in victims {
                    match store.delete(Kind::Pod, &pk, Propagation::Background, grace) {
                        Ok(()) => {
                            report.deleted += 1;
                            events.record(
                                "replicaset-controller",
                                Involved::of(Kind::ReplicaSet, &rs.metadata),
                                EventType::Normal,
                                "SuccessfulDelete",
                                format!("Deleted pod: {name}"),
                            );
                        }
                        Err(e) => {
                            if !e.is_not_found() {
                                self.expectations.deletion_observed(&key, &pk);
                                events.record(
                                    "replicaset-controller",
                                    Involved::of(Kind::ReplicaSet, &rs.metadata),
                                    EventType::Warning,
                                    "FailedDelete",
                                    format!("Error deleting: {e}"),
                                );
                                first_err.get_or_insert(e);
                            }
                        }
                    }
                }
                first_err.map_or(Ok(()), Err)
            }
        }
    }

    /// `getReplicaSetsWithSameController`: the ReplicaSets whose controller is this one's
    /// (this one among them); none when it has no controller, and then no pod is related.
    fn related_replica_sets<'s>(store: &'s Store, rs: &ReplicaSet) -> Vec<&'s ReplicaSet> {
        let Some(owner) = rs.metadata.controller_ref() else {
            return vec![];
        };
        store
            .dependents_of(&owner.uid)
            .filter_map(|o| match o {
                Object::ReplicaSet(r)
                    if r.metadata
                        .controller_ref()
                        .is_some_and(|c| c.uid == owner.uid) =>
                {
                    Some(&**r)
                }
                _ => None,
            })
            .collect()
    }

    /// Whether `getIndirectlyRelatedPods` gathers a pod with these labels in this namespace:
    /// one of the related ReplicaSets selects it, whoever controls it.
    fn related(related: &[&ReplicaSet], namespace: &str, labels: &Labels) -> bool {
        related
            .iter()
            .any(|r| r.metadata.namespace == namespace && r.spec.selector.matches(labels))
    }

    /// `getIndirectlyRelatedPods` (each pod once, though several ReplicaSets select it): only
    /// debug builds walk, to check the tallies.
    #[cfg(debug_assertions)]
    fn indirectly_related_pods<'s>(store: &'s Store, rs: &ReplicaSet) -> Vec<&'s Pod> {
        let related = Self::related_replica_sets(store, rs);
        store
            .pods()
            .filter(|p| Self::related(&related, &p.metadata.namespace, &p.metadata.labels))
            .collect()
    }

    /// What `getPodsRankedByRelatedPodsOnSameNode` counts: the related pods that are active,
    /// by node. Read from the store's tallies (every controller's pods, grouped by namespace,
    /// labels and node) and its few orphans, where upstream lists the namespace's pods by each
    /// related ReplicaSet's selector on every scale-down.
    fn active_pods_on_nodes(store: &Store, rs: &ReplicaSet) -> BTreeMap<Str, i32> {
        let related = Self::related_replica_sets(store, rs);
        let mut on_node = BTreeMap::new();
        if related.is_empty() {
            return on_node;
        }
        for t in store.all_pod_tallies() {
            if t.active > 0 && Self::related(&related, &t.namespace, &t.labels) {
                *on_node.entry(t.node.clone()).or_insert(0) += t.active as i32;
            }
        }
        for p in store.orphan_pods() {
            if p.is_active() && Self::related(&related, &p.metadata.namespace, &p.metadata.labels) {
                *on_node.entry(p.spec.node_name.clone()).or_insert(0) += 1;
            }
        }
        #[cfg(debug_assertions)]
        {
            assert_eq!(
                on_node,
                active_on_nodes(&Self::indirectly_related_pods(store, rs)),
                "tallies of {}'s related pods disagree with the pods",
                rs.metadata.name
            );
        }
        on_node
    }
}

/// `claimPods`, adoption: active orphans whose labels match become the ReplicaSet's. Only
/// those few pods are copied.
fn adopt_orphans(store: &mut Store, rs: &ReplicaSet, report: &mut RsSyncReport) {
    let orphans: Vec<Pod> = store
        .orphan_pods()
        .filter(|p| {
            p.metadata.namespace == rs.metadata.namespace
                && p.is_active()
                && rs.spec.selector.matches(&p.metadata.labels)
        })
        .cloned()
        .collect();
    for mut p in orphans {
        p.metadata.set_controller_ref(OwnerReference::controller_of(
            ReplicaSet::API_VERSION,
            ReplicaSet::KIND,
            &rs.metadata,
        ));
        report.explain.push(Explain::new(
            "claimPods",
            format!("adopting orphan pod {}", p.metadata.name),
        ));
        // Upstream ignores a failed adoption: the pod is claimed on a later sync.
        let _ = store.update(Object::Pod(p));
    }
}

/// `claimPods`, release: active pods the ReplicaSet controls whose labels stopped matching
/// lose its controller reference. Only they are copied, and only when the tallies say a group
/// of them exists.
fn release_unmatched(store: &mut Store, rs: &ReplicaSet, report: &mut RsSyncReport) {
    let uid = &rs.metadata.uid;
    let any = store
        .pod_tallies(uid)
        .iter()
        .any(|t| t.active > 0 && !rs.spec.selector.matches(&t.labels));
    if !any {
        return;
    }
    let to_release: Vec<Pod> = store
        .pods_controlled_by(uid)
        .filter(|p| p.is_active() && !rs.spec.selector.matches(&p.metadata.labels))
        .cloned()
        .collect();
    for mut p in to_release {
        p.metadata
            .owner_references
            .retain(|o| o.uid != rs.metadata.uid);
        report.explain.push(Explain::new(
            "claimPods",
            format!("releasing pod {}: labels no longer match", p.metadata.name),
        ));
        // Upstream ignores a failed release as it does a failed adoption.
        let _ = store.update(Object::Pod(p));
    }
}

const NS_PER_MS: i64 = 1_000_000;

/// `GetPodFromTemplate`: a pod named `<rs>-xxxxx` carrying the template and a controller ref.
pub fn pod_from_template(rs: &ReplicaSet) -> Pod {
    let t = &rs.spec.template;
    Pod {
        metadata: ObjectMeta {
            generate_name: Str::concat(&[&rs.metadata.name, "-"]),
            namespace: rs.metadata.namespace.clone(),
            labels: t.metadata.labels.clone(),
            annotations: t.metadata.annotations.clone(),
            finalizers: t.metadata.finalizers.clone(),
            owner_references: vec![OwnerReference::controller_of(
                ReplicaSet::API_VERSION,
                ReplicaSet::KIND,
                &rs.metadata,
            )]
            .into(),
            ..Default::default()
        },
        spec: t.spec.clone().into(),
        status: Default::default(),
        ip: None,
    }
}

/// `getPodsToDelete`: the first `diff` pods in deletion order (unsorted when all go).
pub fn get_pods_to_delete<'a>(
    pods: &[&'a Pod],
    related: &[&Pod],
    diff: usize,
    now: Option<Time>,
    gates: FeatureGates,
) -> Vec<&'a Pod> {
    if diff >= pods.len() {
        return pods.to_vec();
    }
    let on_node = active_on_nodes(related);
    let keys = RankKey::of_all(pods, |p| rank_on(&on_node, p), now, gates);
    first_ranked_pods(pods, &keys, diff, now, gates)
        .into_iter()
        .map(|i| pods[i])
        .collect()
}

/// The active pods among `pods` on each node (`getPodsRankedByRelatedPodsOnSameNode`'s
/// `podsOnNode`).
fn active_on_nodes(pods: &[&Pod]) -> BTreeMap<Str, i32> {
    let mut on_node = BTreeMap::new();
    for p in pods.iter().filter(|p| p.is_active()) {
        *on_node.entry(p.spec.node_name.clone()).or_insert(0) += 1;
    }
    on_node
}

/// How many specs' ranks a scale-down's gathering keeps (see `sync_replica_set`).
const NODE_RANKS_KEPT: usize = 8;

/// A pod's rank: the active related pods on its node.
fn rank_on(on_node: &BTreeMap<Str, i32>, p: &Pod) -> i32 {
    on_node.get(&p.spec.node_name).copied().unwrap_or(0)
}

/// The indices in `pods` of the first `diff` in deletion order, given each one's key.
fn first_ranked_pods(
    pods: &[&Pod],
    keys: &[RankKey],
    diff: usize,
    now: Option<Time>,
    gates: FeatureGates,
) -> Vec<usize> {
    if diff >= pods.len() {
        return (0..pods.len()).collect();
    }
    ranking::first_ranked(keys, diff, now.is_some(), gates)
}

/// `calculateStatus` of the ReplicaSet controller.
pub fn calculate_status(
    rs: &ReplicaSet,
    active: &[&Pod],
    terminating: &[&Pod],
    manage_err: Option<&str>,
    track_terminating: bool,
    now: Time,
) -> ReplicaSetStatus {
    let gates = crate::controller::FeatureGates {
        deployment_replica_set_terminating_replicas: track_terminating,
        ..Default::default()
    };
    let (mut s, n, _) = count_status(rs, active.iter().chain(terminating).copied(), gates, now);
    set_failure_condition(rs, &mut s, n, manage_err, now);
    s
}

/// The counting half of `calculateStatus`: replicas, fullyLabeled, ready, available and
/// terminating, from the claimed pods.
/// Also returns the number of active pods, and the nanoseconds until the first that is ready
/// but not yet available becomes available (`controller.FindMinNextPodAvailabilityCheck`).
fn count_status<'a>(
    rs: &ReplicaSet,
    claimed: impl Iterator<Item = &'a Pod>,
    gates: crate::controller::FeatureGates,
    now: Time,
) -> Counted {
    let mut counter = StatusCounter::new(rs, now, gates);
    for p in claimed {
        counter.add(p);
    }
    counter.finish(gates.deployment_replica_set_terminating_replicas)
}

/// The running sums of [`count_status`], fed one claimed pod at a time.
struct StatusCounter<'r> {
    rs: &'r ReplicaSet,
    /// The template's labels as a selector (fullyLabeledReplicas).
    template: LabelSelector,
    now: Time,
    /// The release's `IsPodAvailable` boundary (`Release::available_at_min_ready_seconds`).
    at_min_ready: bool,
    active: usize,
    terminating: usize,
    fully: i32,
    ready: i32,
    available: i32,
    next_available: Option<i64>,
}

/// What [`count_status`] gives: the status, the active pods, when the next becomes available.
type Counted = (ReplicaSetStatus, usize, Option<i64>);

impl<'r> StatusCounter<'r> {
    fn new(
        rs: &'r ReplicaSet,
        now: Time,
        gates: crate::controller::FeatureGates,
    ) -> StatusCounter<'r> {
        StatusCounter {
            rs,
            template: LabelSelector::from_labels(&rs.spec.template.metadata.labels),
            now,
            at_min_ready: gates.release.available_at_min_ready_seconds(),
            active: 0,
            terminating: 0,
            fully: 0,
            ready: 0,
            available: 0,
            next_available: None,
        }
    }

    /// Counts a pod that matches the ReplicaSet's selector.
    fn add(&mut self, p: &Pod) {
        if p.is_terminating() {
            self.terminating += 1;
        }
        if !p.is_active() {
            return;
        }
        self.active += 1;
        if self.template.matches(&p.metadata.labels) {
            self.fully += 1;
        }
        if p.is_ready() {
            self.ready += 1;
            let min_ready = self.rs.spec.min_ready_seconds;
            if p.is_available(min_ready, self.now, self.at_min_ready) {
                self.available += 1;
            } else if let Some(t) = p.ready_condition().and_then(|c| c.last_transition_time) {
                let ns = t.plus_secs(min_ready as i64).since(self.now);
                if ns > 0 && self.next_available.is_none_or(|n| ns < n) {
                    self.next_available = Some(ns);
                }
            }
        }
    }

    /// Counts a group of pods that match the ReplicaSet's selector, when availability is
    /// readiness (minReadySeconds 0).
    fn add_group(&mut self, t: &PodTally) {
        self.terminating += t.terminating as usize;
        self.active += t.active as usize;
        if self.template.matches(&t.labels) {
            self.fully += t.active as i32;
        }
        self.ready += t.ready as i32;
        self.available += t.ready as i32;
    }

    fn finish(self, track_terminating: bool) -> Counted {
        let mut s = self.rs.status.clone();
        s.replicas = self.active as i32;
        s.fully_labeled_replicas = self.fully;
        s.ready_replicas = self.ready;
        s.available_replicas = self.available;
        s.terminating_replicas = track_terminating.then_some(self.terminating as i32);
        (s, self.active, self.next_available)
    }
}

/// The condition half of `calculateStatus`: ReplicaFailure set when manageReplicas failed
/// (FailedCreate or FailedDelete by the sign of the diff), removed once it succeeds.
fn set_failure_condition(
    rs: &ReplicaSet,
    s: &mut ReplicaSetStatus,
    active: usize,
    manage_err: Option<&str>,
    now: Time,
) {
    let failure = get_replica_set_condition(&rs.status, REPLICA_FAILURE).is_some();
    match manage_err {
        Some(e) if !failure => {
            let diff = active as i64 - rs.replicas() as i64;
            let reason = if diff < 0 {
                "FailedCreate"
            } else if diff > 0 {
                "FailedDelete"
            } else {
                ""
            };
            set_replica_set_condition(
                s,
                ReplicaSetCondition {
                    type_: REPLICA_FAILURE.into(),
                    status: ConditionStatus::True.into(),
                    last_transition_time: Some(now),
                    reason: reason.into(),
                    message: e.to_string(),
                },
            );
        }
        None if failure => remove_replica_set_condition(s, REPLICA_FAILURE),
        _ => {}
    }
}

/// `updateReplicaSetStatus`: writes only when something changed, with one retry on conflict.
pub fn update_replica_set_status(
    store: &mut Store,
    rs: &ReplicaSet,
    mut s: ReplicaSetStatus,
) -> Result<ReplicaSet, ApiError> {
    if rs.status.replicas == s.replicas
        && rs.status.fully_labeled_replicas == s.fully_labeled_replicas
        && rs.status.ready_replicas == s.ready_replicas
        && rs.status.available_replicas == s.available_replicas
        && rs.status.terminating_replicas == s.terminating_replicas
        && rs.metadata.generation == rs.status.observed_generation
        && rs.status.conditions == s.conditions
    {
        return Ok(rs.clone());
    }
    s.observed_generation = rs.metadata.generation;
    // Twice at most, as upstream's loop: a failed write reads the ReplicaSet again and tries
    // once more.
    let mut cur = rs.clone();
    cur.status = s.clone();
    match store.api().update_status(cur) {
        Ok(r) => Ok(r),
        Err(_) => {
            let mut cur =
                store
                    .replicaset(&rs.metadata.key())
                    .cloned()
                    .ok_or(ApiError::NotFound {
                        kind: Kind::ReplicaSet,
                        name: rs.metadata.name.to_string(),
                    })?;
            cur.status = s;
            store.api().update_status(cur)
        }
    }
}

/// `podControl.CreatePods` for one pod of `rs`'s template, with its event.
fn create_pod(
    store: &mut Store,
    events: &mut EventRecorder,
    rs: &ReplicaSet,
) -> Result<(), ApiError> {
    let involved = || Involved::of(Kind::ReplicaSet, &rs.metadata);
    match store.create(Object::Pod(pod_from_template(rs))).as_deref() {
        Ok(Object::Pod(p)) => {
            events.record(
                "replicaset-controller",
                involved(),
                EventType::Normal,
                "SuccessfulCreate",
                format!("Created pod: {}", p.metadata.name),
            );
            Ok(())
        }
        Ok(_) => Ok(()),
        Err(e) => {
            events.record(
                "replicaset-controller",
                involved(),
                EventType::Warning,
                "FailedCreate",
                format!("Error creating: {e}"),
            );
            Err(e.clone())
        }
    }
}
