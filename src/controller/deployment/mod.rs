//! The Deployment controller (pkg/controller/deployment). `sync_deployment` is upstream's flat
//! ladder of early returns — not-found, select-all, **delete > pause > rollback > scale >
//! rollout** — and each branch lives in the file named after upstream's: `sync.rs` (status,
//! scaling, new ReplicaSet, cleanup), `rolling.rs`, `recreate.rs`, `rollback.rs`, `progress.rs`;
//! `util.rs` holds the pure arithmetic. Every sync reports which branch fired and, in `explain`,
//! the numbers behind each decision.

pub mod ladder;
pub mod progress;
pub mod recreate;
pub mod rollback;
pub mod rolling;
pub mod sync;
pub mod util;

use crate::api::*;
use crate::apiserver::events::{EventRecorder, EventType, Involved};
use crate::apiserver::queue::WorkQueue;
use crate::apiserver::store::{ApiError, Store, WatchEvent, WatchRef};
use crate::controller::Explain;
use crate::controller::calls::CallLog;
pub use ladder::{Branch, Ladder};
use std::collections::BTreeMap;

/// Upstream retries a failing key this many times before dropping it.
pub const MAX_RETRIES: u32 = 15;

/// What a sync needs from the world: the apiserver, the event recorder and the clock.
pub struct Ctx<'a> {
    pub store: &'a mut Store,
    pub events: &'a mut EventRecorder,
    pub explain: Vec<Explain>,
    /// The upstream functions the sync runs (kept only in a run that records its steps).
    pub calls: CallLog,
    /// The release and gates the controller runs with.
    pub gates: crate::controller::FeatureGates,
}

impl Ctx<'_> {
    pub fn now(&self) -> Time {
        self.store.now()
    }
    /// Virtual milliseconds, for the work queue's timers.
    pub fn now_ms(&self) -> u64 {
        self.store.clock().now_ms()
    }
    pub fn explain(&mut self, func: &str, text: impl Into<String>) {
        let e = self.calls.explain(func, text);
        self.explain.push(e);
    }
    fn event(&mut self, d: &Deployment, type_: EventType, reason: &'static str, message: String) {
        self.events.record(
            "deployment-controller",
            Involved::of(Kind::Deployment, &d.metadata),
            type_,
            reason,
            message,
        );
    }
}

#[derive(Clone, Debug)]
pub struct SyncReport {
    /// The way down the ladder: the rungs checked and the branch that fired.
    pub ladder: Ladder,
    /// The Deployment's strategy (none for a type the apiserver would have refused).
    pub strategy: Option<crate::api::StrategyType>,
    /// Why the sync failed (its words go into the trace).
    pub error: Option<SyncError>,
}

#[derive(Default, Clone)]
pub struct DeploymentController {
    pub queue: WorkQueue,
}

/// Why a sync failed: the apiserver refused a call, or the controller found the Deployment in
/// a state it will not act on (upstream's own `fmt.Errorf`s). Either requeues the key.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SyncError {
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error("{0}")]
    Controller(String),
}

pub type SyncResult<T = ()> = Result<T, SyncError>;

/// Why `GetDeploymentsForReplicaSet` found none. Its words are spelled only when shown (the
/// event handlers only need to know there are none).
#[derive(Debug)]
pub enum NoDeployments<'a> {
    NoLabels(&'a ReplicaSet),
    NoneSelects(&'a ReplicaSet),
}

impl std::fmt::Display for NoDeployments<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoDeployments::NoLabels(rs) => write!(
                f,
                "no deployments found for ReplicaSet {} because it has no labels",
                rs.metadata.name
            ),
            NoDeployments::NoneSelects(rs) => write!(
                f,
                "could not find deployments set for ReplicaSet {} in namespace {} with labels: {}",
                rs.metadata.name,
                rs.metadata.namespace,
                labels::go_map_string(&rs.metadata.labels)
            ),
        }
    }
}

impl DeploymentController {
    // ---------------------------------------------------------------- event handlers

    /// Queues the Deployment's key from upstream's handler `handler`.
    fn enqueue(&mut self, d: &Deployment, handler: &'static str) {
        self.queue.add_by(&d.metadata.key(), handler);
    }

    fn resolve_controller_ref<'a>(
        store: &'a Store,
        ns: &str,
        r: &OwnerReference,
    ) -> Option<&'a Deployment> {
        match store.resolve_controller_ref(Kind::Deployment, ns, r)? {
            (_, Object::Deployment(d)) => Some(d),
            _ => None,
        }
    }

    /// `GetDeploymentsForReplicaSet`: Deployments whose selector matches the ReplicaSet's labels.
    pub fn get_deployments_for_replica_set<'r>(
        store: &Store,
        rs: &'r ReplicaSet,
    ) -> Result<Vec<Deployment>, NoDeployments<'r>> {
        if rs.metadata.labels.is_empty() {
            return Err(NoDeployments::NoLabels(rs));
        }
        let ds: Vec<Deployment> = store
            .deployments()
            .filter(|d| d.metadata.namespace == rs.metadata.namespace)
            .filter(|d| {
                d.spec
                    .selector
                    .as_ref()
                    .is_some_and(|s| !s.is_empty() && s.matches(&rs.metadata.labels))
            })
            .cloned()
            .collect();
        if ds.is_empty() {
            return Err(NoDeployments::NoneSelects(rs));
        }
        Ok(ds)
    }

    /// Informer callbacks: which Deployments a watch event wakes (upstream's handlers).
    pub fn handle(&mut self, store: &Store, ev: &WatchEvent) {
        self.queue.handling(Some(ev));
        match ev.view() {
            WatchRef::Added(Object::Deployment(d)) => self.enqueue(d, "addDeployment"),
            WatchRef::Deleted(Object::Deployment(d)) => self.enqueue(d, "deleteDeployment"),
            WatchRef::Modified {
                new: Object::Deployment(d),
                ..
            } => self.enqueue(d, "updateDeployment"),
            WatchRef::Added(Object::ReplicaSet(rs)) => self.add_replica_set(store, rs),
            WatchRef::Modified {
                old: Object::ReplicaSet(o),
                new: Object::ReplicaSet(n),
            } => self.update_replica_set(store, o, n),
            WatchRef::Deleted(Object::ReplicaSet(rs)) => self.delete_replica_set(store, rs),
            WatchRef::Deleted(Object::Pod(p)) => self.delete_pod(store, p),
            _ => {}
        }
        self.queue.handling(None);
    }

    pub fn add_replica_set(&mut self, store: &Store, rs: &ReplicaSet) {
        if rs.metadata.deletion_timestamp.is_some() {
            return self.delete_replica_set(store, rs);
        }
        if let Some(r) = rs.metadata.controller_ref() {
            if let Some(d) = Self::resolve_controller_ref(store, &rs.metadata.namespace, r) {
                self.enqueue(d, "addReplicaSet");
            }
            return;
        }
        for d in Self::get_deployments_for_replica_set(store, rs).unwrap_or_default() {
            self.enqueue(&d, "addReplicaSet");
        }
    }

    pub fn update_replica_set(&mut self, store: &Store, old: &ReplicaSet, cur: &ReplicaSet) {
        if old.metadata.resource_version == cur.metadata.resource_version {
            return;
        }
        let (cur_ref, old_ref) = (cur.metadata.controller_ref(), old.metadata.controller_ref());
        let ref_changed = cur_ref != old_ref;
        if ref_changed
            && let Some(r) = old_ref
            && let Some(d) = Self::resolve_controller_ref(store, &old.metadata.namespace, r)
        {
            self.enqueue(d, "updateReplicaSet");
        }
        if let Some(r) = cur_ref {
            if let Some(d) = Self::resolve_controller_ref(store, &cur.metadata.namespace, r) {
                self.enqueue(d, "updateReplicaSet");
            }
            return;
        }
        if cur.metadata.labels != old.metadata.labels || ref_changed {
            for d in Self::get_deployments_for_replica_set(store, cur).unwrap_or_default() {
                self.enqueue(&d, "updateReplicaSet");
            }
        }
    }

    pub fn delete_replica_set(&mut self, store: &Store, rs: &ReplicaSet) {
        if let Some(r) = rs.metadata.controller_ref()
            && let Some(d) = Self::resolve_controller_ref(store, &rs.metadata.namespace, r)
        {
            self.enqueue(d, "deleteReplicaSet");
        }
    }

    /// `deletePod`: a Recreate Deployment is woken once none of its pods remain.
    pub fn delete_pod(&mut self, store: &Store, pod: &Pod) {
        let Some(r) = pod.metadata.controller_ref() else {
            return;
        };
        let Some((_, Object::ReplicaSet(rs))) =
            store.resolve_controller_ref(Kind::ReplicaSet, &pod.metadata.namespace, r)
        else {
            return;
        };
        let Some(dr) = rs.metadata.controller_ref() else {
            return;
        };
        let Some(d) = Self::resolve_controller_ref(store, &rs.metadata.namespace, dr) else {
            return;
        };
        if d.spec.strategy.type_ != RECREATE {
            return;
        }
        let rss: Vec<ReplicaSet> = store
            .dependents_of(&d.metadata.uid)
            .filter_map(|o| {
                if let Object::ReplicaSet(r) = o {
                    Some((**r).clone())
                } else {
                    None
                }
            })
            .collect();
        let pods: usize = rss
            .iter()
            .map(|r| store.pods_controlled_by(&r.metadata.uid).count())
            .sum();
        if pods == 0 {
            self.enqueue(d, "deletePod");
        }
    }

    // ---------------------------------------------------------------- the work loop

    /// Processes one key the way `processNextWorkItem` + `handleErr` do.
    pub fn process(&mut self, cx: &mut Ctx, key: &str) -> SyncReport {
        // processNextWorkItem's callees are the path's first level: the handler, handleErr.
        let report = self.sync_deployment(cx, key);
        cx.calls.leaf("handleErr");
        match &report.error {
            None => self.queue.forget(key),
            Some(_) if self.queue.num_requeues(key) < MAX_RETRIES => {
                self.queue.add_rate_limited(key, cx.now_ms())
            }
            Some(e) => {
                cx.explain("handleErr", format!("dropping deployment {key} out of the queue after {MAX_RETRIES} retries: {e}"));
                self.queue.forget(key);
            }
        }
        report
    }

    /// `syncDeployment`: finds the Deployment, goes down [`Self::ladder`], and reports the
    /// way it went (an error is requeued with back-off by [`Self::process`]).
    pub fn sync_deployment(&mut self, cx: &mut Ctx, key: &str) -> SyncReport {
        let _call = cx.calls.enter("syncDeployment");
        let mut report = SyncReport {
            ladder: Ladder::default(),
            strategy: None,
            error: None,
        };
        let Some(d) = cx.store.deployment(key) else {
            cx.explain(
                "syncDeployment",
                format!("Deployment {key} has been deleted"),
            );
            return report;
        };
        let mut d = d.clone();
        report.strategy = d.spec.strategy.kind();
        if let Err(e) = self.ladder(cx, &mut d, &mut report.ladder) {
            cx.explain(
                "syncDeployment",
                format!("error: {e} (requeued with back-off)"),
            );
            report.error = Some(e);
        }
        report
    }

    /// The rungs of `syncDeployment` in upstream's order, each an early return into its
    /// branch: select-all, then **delete > pause > rollback > scale > rollout**. `l` records
    /// what each rung found and which branch fired; the branch's explain line says the same.
    fn ladder(&mut self, cx: &mut Ctx, d: &mut Deployment, l: &mut Ladder) -> SyncResult {
        if d.spec.selector.as_ref().is_some_and(|s| s.is_empty()) {
            l.fired = Branch::SelectAll;
            cx.event(
                d,
                EventType::Warning,
                "SelectingAll",
                "This deployment is selecting all pods. A non-empty selector is required.".into(),
            );
            if d.status.observed_generation < d.metadata.generation {
                d.status.observed_generation = d.metadata.generation;
                cx.store.api().update_status(d.clone())?;
            }
            return Ok(());
        }
        let rs_list = self.get_replica_sets_for_deployment(cx, d)?;
        cx.calls.leaf("getPodMapForDeployment");
        // Upstream lists the pods on every sync; only Recreate reads them, so only it pays.
        let pod_map = if d.spec.strategy.type_ == RECREATE {
            Self::get_pod_map_for_deployment(cx.store, &rs_list)
        } else {
            BTreeMap::new()
        };
        if d.metadata.deletion_timestamp.is_some() {
            let why = l.fire(
                Branch::Delete,
                Some("deletionTimestamp is set".into()),
                "syncStatusOnly (status only, no scaling)",
            );
            cx.explain("syncDeployment", why);
            return self.sync_status_only(cx, d, &rs_list);
        }
        l.pass(Branch::Delete, "not being deleted");
        self.check_paused_conditions(cx, d)?;
        if d.spec.paused {
            let why = l.fire(
                Branch::Pause,
                Some("spec.paused = true".into()),
                "sync (scale only, no rollout)",
            );
            cx.explain("syncDeployment", why);
            return self.sync(cx, d, &rs_list);
        }
        l.pass(Branch::Pause, "not paused");
        cx.calls.leaf("getRollbackTo");
        if let Some(to) = rollback::get_rollback_to(d) {
            let found = format!("annotation {DEPRECATED_ROLLBACK_TO}={to}");
            let why = l.fire(Branch::Rollback, Some(found), "rollback");
            cx.explain("syncDeployment", why);
            return self.rollback(cx, d, &rs_list);
        }
        l.pass(Branch::Rollback, "no rollback requested");
        let (scaling, found) = self.is_scaling_event(cx, d, &rs_list)?;
        if scaling {
            let why = l.fire(Branch::Scale, Some(found), "sync");
            cx.explain("syncDeployment", why);
            return self.sync(cx, d, &rs_list);
        }
        l.pass(Branch::Scale, found);
        let action = format!("rollout ({})", d.spec.strategy.type_);
        let why = l.fire(Branch::Rollout, None, &action);
        cx.explain("syncDeployment", why);
        match d.spec.strategy.type_.as_str() {
            RECREATE => self.rollout_recreate(cx, d, &rs_list, &pod_map),
            ROLLING_UPDATE => self.rollout_rolling(cx, d, &rs_list),
            other => Err(SyncError::Controller(format!(
                "unexpected deployment strategy type: {other}"
            ))),
        }
    }

    /// `getReplicaSetsForDeployment`: the ReplicaSets this Deployment controls, as
    /// `ClaimReplicaSets` leaves them: matching orphans adopted, owned ones whose labels no
    /// longer match released (neither while the Deployment is being deleted).
    pub fn get_replica_sets_for_deployment(
        &mut self,
        cx: &mut Ctx,
        d: &Deployment,
    ) -> SyncResult<Vec<ReplicaSet>> {
        let _call = cx.calls.enter("getReplicaSetsForDeployment");
        let sel = d.selector();
        // Only ReplicaSets this Deployment controls or could adopt are copied: the others
        // (another Deployment's) are passed over without a look.
        let candidates: Vec<ReplicaSet> = cx
            .store
            .replicasets()
            .filter(|r| {
                r.metadata.namespace == d.metadata.namespace
                    && r.metadata
                        .controller_ref()
                        .is_none_or(|c| c.uid == d.metadata.uid)
            })
            .cloned()
            .collect();
        let deleting = d.metadata.deletion_timestamp.is_some();
        let mut claimed = Vec::new();
        let mut rechecked = false;
        for rs in candidates {
            let matches = sel.matches(&rs.metadata.labels);
            if rs.metadata.controller_ref().is_some() {
                if matches {
                    claimed.push(rs);
                } else if !deleting {
                    release_replica_set(cx, d, rs)?;
                }
                continue;
            }
            if deleting || !matches || rs.metadata.deletion_timestamp.is_some() {
                continue;
            }
            // `canAdopt` is asked once, on the first orphan.
            if !rechecked {
                recheck_deletion_timestamp(cx, d)?;
                rechecked = true;
            }
            if let Some(a) = adopt_replica_set(cx, d, rs, &sel)? {
                claimed.push(a);
            }
        }
        Ok(claimed)
    }

    /// `getPodMapForDeployment`: pods grouped by the uid of the ReplicaSet that controls them
    /// (inactive pods included; only Recreate looks at it).
    pub fn get_pod_map_for_deployment(
        store: &Store,
        rs_list: &[ReplicaSet],
    ) -> BTreeMap<Str, Vec<Pod>> {
        crate::api::sort::map_from(rs_list.iter().map(|rs| {
            (
                rs.metadata.uid.clone(),
                store
                    .pods_controlled_by(&rs.metadata.uid)
                    .cloned()
                    .collect(),
            )
        }))
    }
}

/// `ReleaseReplicaSet`: the Deployment's controller reference is removed from a ReplicaSet whose
/// labels stopped matching its selector. One already gone is fine.
fn release_replica_set(cx: &mut Ctx, d: &Deployment, rs: ReplicaSet) -> SyncResult<()> {
    cx.explain(
        "getReplicaSetsForDeployment",
        format!(
            "releasing ReplicaSet {}: its labels no longer match the selector",
            rs.metadata.name
        ),
    );
    let mut released = rs;
    released
        .metadata
        .owner_references
        .retain(|o| o.uid != d.metadata.uid);
    match cx.store.api().update(released) {
        Ok(_) | Err(ApiError::NotFound { .. }) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// `canAdopt` (`RecheckDeletionTimestamp`): a fresh read of the Deployment, which must still be
/// the same object and not being deleted.
fn recheck_deletion_timestamp(cx: &mut Ctx, d: &Deployment) -> SyncResult<()> {
    cx.store.log("get", Kind::Deployment, "", &d.metadata.name);
    match cx.store.deployment(&d.metadata.key()) {
        Some(f) if f.metadata.uid != d.metadata.uid => Err(SyncError::Controller(format!(
            "original Deployment {} is gone: got uid {}, wanted {}",
            d.metadata.key(),
            f.metadata.uid,
            d.metadata.uid
        ))),
        Some(f) if f.metadata.deletion_timestamp.is_some() => Err(SyncError::Controller(format!(
            "{}/{} has just been deleted at {}",
            d.metadata.namespace,
            d.metadata.name,
            f.metadata
                .deletion_timestamp
                .map(|t| t.to_string())
                .unwrap_or_default()
        ))),
        Some(_) => Ok(()),
        None => Err(ApiError::NotFound {
            kind: Kind::Deployment,
            name: d.metadata.name.to_string(),
        }
        .into()),
    }
}

/// `AdoptReplicaSet`: a matching orphan gets the Deployment's controller reference. One gone
/// meanwhile is not claimed.
fn adopt_replica_set(
    cx: &mut Ctx,
    d: &Deployment,
    rs: ReplicaSet,
    sel: &LabelSelector,
) -> SyncResult<Option<ReplicaSet>> {
    cx.explain(
        "getReplicaSetsForDeployment",
        format!(
            "adopting orphan ReplicaSet {}: its labels match the selector {}",
            rs.metadata.name,
            sel.to_selector_string()
        ),
    );
    let mut adopted = rs;
    adopted
        .metadata
        .set_controller_ref(OwnerReference::controller_of(
            Deployment::API_VERSION,
            Deployment::KIND,
            &d.metadata,
        ));
    match cx.store.api().update(adopted) {
        Ok(a) => Ok(Some(a)),
        Err(ApiError::NotFound { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}
