//! kube-controller-manager's disruption controller (`pkg/controller/disruption/disruption.go`):
//! each PodDisruptionBudget's status, from the pods its selector picks. A pod's add, update or
//! delete queues the budget that selects it (the first, when several do: upstream picks one
//! "arbitrarily" and says so in a `MultiplePodDisruptionBudgets` event); a budget's own
//! changes queue it. A sync counts the expected pods (the pods themselves for an integer
//! `minAvailable`, else the scale of their controllers: a ReplicaSet's Deployment, or the
//! ReplicaSet), the healthy ones (Ready, not terminating, not just evicted) and the
//! disruptions allowed, and writes them when they changed. It runs as the fastest controller:
//! its queue is emptied before any other sync, so a budget always reflects the instant's pods.

use super::actor::{Actor, Cx, Env};
use crate::api::policy::{Condition, DISRUPTION_ALLOWED, PodDisruptionBudgetStatus, SYNC_FAILED};
use crate::api::{
    Kind, LabelSelector, Object, ObjectMeta, Pod, PodDisruptionBudget, Str, Time, key_of,
};
use crate::apiserver::events::{EventType, Involved};
use crate::apiserver::store::{Store, WatchEvent, WatchRef};
use std::collections::{BTreeMap, BTreeSet};

/// `DeletionTimeout`: how long an eviction's entry in `disruptedPods` keeps the pod out of
/// the healthy count while its deletion has not yet begun.
pub const DELETION_TIMEOUT_MS: i64 = 2 * 60 * 1000;

/// The recorder's source for the controller's events.
const SOURCE: &str = "controllermanager";

/// An event a sync records: about a pod (`Some`) or the budget, its type, reason and message.
type Happened = (Option<ObjectMeta>, EventType, &'static str, String);

/// What one sync found, before it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Counts {
    pub expected: i32,
    pub desired: i32,
    pub current: i32,
    pub allowed: i32,
}

/// The disruption controller: its queue of budgets (`namespace/name`) to sync. Upstream's
/// `queue` is a rate-limited work queue; ours is emptied in key order at each instant before
/// any other sync, so no key waits.
#[derive(Clone, Debug, Default)]
pub struct DisruptionController {
    queue: BTreeSet<Str>,
}

/// The disruption controller's timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `recheckQueue`'s `AddAfter`: look at a budget again when an eviction it counted has
    /// not begun the pod's deletion in time (the timer's key is the budget's).
    Recheck,
}

impl DisruptionController {
    /// Budgets are queued to sync.
    pub fn has_work(&self) -> bool {
        !self.queue.is_empty()
    }

    /// Queues the budgets a watch event concerns (nothing at all while there is none).
    pub fn handle<D>(&mut self, cx: &mut Cx<'_, D>, ev: WatchRef<'_>) {
        if cx.store.count(Kind::PodDisruptionBudget) == 0 {
            return;
        }
        let pod = match ev {
            WatchRef::Added(Object::PodDisruptionBudget(b))
            | WatchRef::Modified {
                new: Object::PodDisruptionBudget(b),
                ..
            }
            | WatchRef::Deleted(Object::PodDisruptionBudget(b)) => {
                self.queue.insert(b.metadata.key());
                return;
            }
            WatchRef::Added(Object::Pod(p))
            | WatchRef::Modified {
                new: Object::Pod(p),
                ..
            }
            | WatchRef::Deleted(Object::Pod(p)) => p,
            _ => return,
        };
        // `getPdbForPod`.
        let ns = &pod.metadata.namespace;
        let mut budgets = cx
            .store
            .budgets_in(ns)
            .filter(|b| b.counts(&pod.metadata.labels));
        let Some(first) = budgets.next() else {
            return;
        };
        let key = first.metadata.key();
        if budgets.next().is_some() {
            let message = format!(
                "Pod {:?}/{:?} matches multiple PodDisruptionBudgets.  Chose {:?} arbitrarily.",
                pod.metadata.namespace.as_str(),
                pod.metadata.name.as_str(),
                first.metadata.name.as_str()
            );
            cx.events.record(
                SOURCE,
                Involved::of(Kind::Pod, &pod.metadata),
                EventType::Warning,
                "MultiplePodDisruptionBudgets",
                message,
            );
        }
        self.queue.insert(key);
    }

    /// Syncs every queued budget; returns what changed, a line each (for the trace).
    pub fn sync_all<D: From<Step>>(&mut self, cx: &mut Cx<'_, D>) -> Vec<String> {
        let mut lines = vec![];
        while let Some(key) = self.queue.pop_first() {
            if let Some(line) = sync(cx, &key) {
                lines.push(line);
            }
        }
        lines
    }
}

impl<D, W> Actor<D, W> for DisruptionController {
    type Step = Step;

    fn saw(&mut self, cx: &mut Cx<'_, D>, _: &Env<'_, W>, ev: &WatchEvent) {
        self.handle(cx, ev.view());
    }

    /// The recheck queues the budget (an evicted pod whose deletion never began stops
    /// counting as disrupted).
    fn timer(
        &mut self,
        _: &mut Cx<'_, D>,
        _: &Env<'_, W>,
        key: &Str,
        _: &Str,
        step: Step,
    ) -> Option<String> {
        match step {
            Step::Recheck => self.queue.insert(key.as_ref().into()),
        };
        None
    }
}

/// `sync`: `trySync` (or `failSafe`), its events recorded, and the status written when it
/// changed; returns the trace's line when the counts did.
fn sync<D: From<Step>>(cx: &mut Cx<'_, D>, key: &str) -> Option<String> {
    let Some(Object::PodDisruptionBudget(b)) = cx.store.get(Kind::PodDisruptionBudget, key) else {
        return None;
    };
    let b = (**b).clone();
    let (now, now_ms) = (cx.now(), cx.now_ms());
    let mut events: Vec<Happened> = vec![];
    let (status, line, recheck) = try_sync(cx.store, &b, now, now_ms, &mut events);
    if let Some(at) = recheck {
        cx.at(at, b.metadata.key(), b.metadata.uid.clone(), Step::Recheck);
    }
    for (about, type_, reason, message) in events {
        let involved = match &about {
            Some(pod) => Involved::of(Kind::Pod, pod),
            None => Involved::of(Kind::PodDisruptionBudget, &b.metadata),
        };
        cx.events.record(SOURCE, involved, type_, reason, message);
    }
    let status = status.filter(|s| *s != b.status)?;
    let counts = |s: &PodDisruptionBudgetStatus| {
        let c = (s.expected_pods, s.desired_healthy, s.current_healthy);
        (c, s.disruptions_allowed)
    };
    let same_counts = counts(&b.status) == counts(&status);
    let mut written = b;
    written.status = status;
    cx.store
        .update_status(Object::PodDisruptionBudget(Box::new(written)))
        .ok()?;
    (!same_counts).then_some(line)
}

/// `trySync`, or `failSafe` when the expected count cannot be found: the status to write
/// (none when the stored one says it all), the trace's line, and when to look again (an
/// eviction whose deletion has not begun).
fn try_sync(
    store: &Store,
    b: &PodDisruptionBudget,
    now: Time,
    now_ms: u64,
    events: &mut Vec<Happened>,
) -> (Option<PodDisruptionBudgetStatus>, String, Option<u64>) {
    let ns = &b.metadata.namespace;
    let pods: Vec<&Pod> = store
        .pods()
        .filter(|p| p.metadata.namespace == *ns && b.counts(&p.metadata.labels))
        .collect();
    if pods.is_empty() {
        let m = "No matching pods found".to_string();
        events.push((None, EventType::Normal, "NoPods", m));
    }
    match expected_pod_count(store, b, &pods) {
        Err(e) => {
            let m = format!("Failed to calculate the number of expected pods: {e}");
            events.push((
                None,
                EventType::Warning,
                "CalculateExpectedPodCountFailed",
                m,
            ));
            let line = format!("{}: {e}; no disruption allowed", what(b));
            (Some(fail_safe(b, &e, now)), line, None)
        }
        Ok((expected, desired, unmanaged)) => {
            if !unmanaged.is_empty() {
                let m = unmanaged_message(b);
                events.push((None, EventType::Warning, "UnmanagedPods", m));
            }
            let (disrupted, recheck) = disrupted_pod_map(b, &pods, now, events, now_ms);
            let current = count_healthy(&pods, &disrupted, now);
            let allowed = if expected <= 0 {
                0
            } else {
                (current - desired).max(0)
            };
            let c = Counts {
                expected,
                desired,
                current,
                allowed,
            };
            let line = describe(b, &c);
            (updated_status(b, &c, disrupted, now), line, recheck)
        }
    }
}

/// `PodDisruptionBudget web` (with its namespace when not `default`), for the trace.
fn what(b: &PodDisruptionBudget) -> String {
    match b.metadata.namespace.as_str() {
        "default" => format!("PodDisruptionBudget {}", b.metadata.name),
        ns => format!("PodDisruptionBudget {ns}/{}", b.metadata.name),
    }
}

/// The trace's line for a written status: the arithmetic of `updatePdbStatus`.
fn describe(b: &PodDisruptionBudget, c: &Counts) -> String {
    let bound = match (&b.spec.min_available, &b.spec.max_unavailable) {
        (_, Some(m)) => format!("maxUnavailable {m} of {} expected", c.expected),
        (Some(m @ crate::api::IntOrString::Int(_)), None) => {
            format!("minAvailable {m} (of {} pods)", c.expected)
        }
        (Some(m), None) => format!("minAvailable {m} of {} expected", c.expected),
        (None, None) => "no bound".into(),
    };
    format!(
        "{}: {bound} → {} healthy needed; {} healthy → {} disruption{} allowed",
        what(b),
        c.desired,
        c.current,
        c.allowed,
        if c.allowed == 1 { "" } else { "s" }
    )
}

/// `getExpectedPodCount`: (expected, desired healthy, unmanaged pods). An integer
/// `minAvailable` counts the pods themselves; a percent, or `maxUnavailable`, the scale of
/// their controllers.
pub fn expected_pod_count(
    store: &Store,
    b: &PodDisruptionBudget,
    pods: &[&Pod],
) -> Result<(i32, i32, Vec<Str>), String> {
    use crate::api::IntOrString;
    if let Some(max) = &b.spec.max_unavailable {
        let (expected, unmanaged) = expected_scale(store, pods)?;
        let max = max.scaled_value(expected, true)?;
        return Ok((expected, (expected - max).max(0), unmanaged));
    }
    match &b.spec.min_available {
        Some(IntOrString::Int(n)) => Ok((pods.len() as i32, *n, vec![])),
        Some(min) => {
            let (expected, unmanaged) = expected_scale(store, pods)?;
            Ok((expected, min.scaled_value(expected, true)?, unmanaged))
        }
        None => Ok((0, 0, vec![])),
    }
}

/// `getExpectedScale`: the sum of the scales of the pods' controllers, each counted once;
/// pods without a controller are unmanaged and add nothing.
fn expected_scale(store: &Store, pods: &[&Pod]) -> Result<(i32, Vec<Str>), String> {
    let mut scales: BTreeMap<Str, i32> = BTreeMap::new();
    let mut unmanaged = vec![];
    for p in pods {
        let Some(r) = p.metadata.controller_ref() else {
            unmanaged.push(p.metadata.name.clone());
            continue;
        };
        if scales.contains_key(&r.uid) {
            continue;
        }
        let (uid, scale) = controller_scale(store, &p.metadata.namespace, r).ok_or_else(|| {
            format!(
                "found no controllers for pod {:?}",
                p.metadata.name.as_str()
            )
        })?;
        scales.insert(uid, scale);
    }
    Ok((scales.values().sum(), unmanaged))
}

/// The finders in upstream's order, for the kinds the playground has: a ReplicaSet's
/// Deployment (`getPodDeployment`), else the ReplicaSet itself when no Deployment controls it
/// (`getPodReplicaSet`), else the ReplicaSet's scale subresource (`getScaleController`, which
/// answers for one whose Deployment is gone).
fn controller_scale(store: &Store, ns: &str, r: &crate::api::OwnerReference) -> Option<(Str, i32)> {
    let group_ok = |api: &str| matches!(api.split('/').next(), Some("apps" | "extensions"));
    if r.kind != "ReplicaSet" || !group_ok(&r.api_version) {
        return None;
    }
    let rs = match store.get(Kind::ReplicaSet, &key_of(ns, &r.name)) {
        Some(Object::ReplicaSet(rs)) if rs.metadata.uid == r.uid => rs,
        _ => return None,
    };
    if let Some(dr) = rs.metadata.controller_ref()
        && dr.kind == "Deployment"
        && group_ok(&dr.api_version)
        && let Some(d) = store
            .deployment(&key_of(ns, &dr.name))
            .filter(|d| d.metadata.uid == dr.uid)
    {
        return Some((d.metadata.uid.clone(), d.replicas()));
    }
    Some((rs.metadata.uid.clone(), rs.replicas()))
}

/// `buildDisruptedPodMap`: the evictions still to be seen through. An entry goes once its pod
/// is gone or terminating; one past [`DELETION_TIMEOUT_MS`] goes with a `NotDeleted` warning.
/// Returns the map and when the earliest kept entry runs out (to look again then).
fn disrupted_pod_map(
    b: &PodDisruptionBudget,
    pods: &[&Pod],
    now: Time,
    events: &mut Vec<Happened>,
    now_ms: u64,
) -> (BTreeMap<String, Time>, Option<u64>) {
    let mut kept = BTreeMap::new();
    let mut recheck: Option<u64> = None;
    for p in pods {
        let Some(at) = b.status.disrupted_pods.get(p.metadata.name.as_str()) else {
            continue;
        };
        if p.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let expires = at.plus_ms(DELETION_TIMEOUT_MS);
        if expires < now {
            // Upstream prints the budget's namespace twice (`pdb.Namespace, pdb.Namespace`).
            let ns = b.metadata.namespace.as_str();
            events.push((
                Some(p.metadata.clone()),
                EventType::Warning,
                "NotDeleted",
                format!("Pod was expected by PDB {ns}/{ns} to be deleted but it wasn't"),
            ));
            continue;
        }
        // (At its very instant it is still kept: looked at again a millisecond later, as the
        // real clock would have moved on.)
        let due = now_ms + (expires.since(now) / 1_000_000).max(1) as u64;
        recheck = Some(recheck.map_or(due, |r| r.min(due)));
        kept.insert(p.metadata.name.to_string(), *at);
    }
    (kept, recheck)
}

/// `countHealthyPods`: Ready, not terminating, and not an eviction still to be seen through.
fn count_healthy(pods: &[&Pod], disrupted: &BTreeMap<String, Time>, now: Time) -> i32 {
    pods.iter()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter(|p| {
            disrupted
                .get(p.metadata.name.as_str())
                .is_none_or(|at| at.plus_ms(DELETION_TIMEOUT_MS) <= now)
        })
        .filter(|p| p.is_ready())
        .count() as i32
}

/// `updatePdbStatus`: the status to write, or `None` when what is stored says it all.
fn updated_status(
    b: &PodDisruptionBudget,
    c: &Counts,
    disrupted: BTreeMap<String, Time>,
    now: Time,
) -> Option<PodDisruptionBudgetStatus> {
    let s = &b.status;
    if s.current_healthy == c.current
        && s.desired_healthy == c.desired
        && s.expected_pods == c.expected
        && s.disruptions_allowed == c.allowed
        && s.disrupted_pods == disrupted
        && s.observed_generation == b.metadata.generation
        && s.conditions_up_to_date(b.metadata.generation)
    {
        return None;
    }
    let mut new = PodDisruptionBudgetStatus {
        observed_generation: b.metadata.generation,
        disrupted_pods: disrupted,
        disruptions_allowed: c.allowed,
        current_healthy: c.current,
        desired_healthy: c.desired,
        expected_pods: c.expected,
        conditions: s.conditions.clone(),
    };
    new.update_disruption_allowed(now);
    Some(new)
}

/// `failSafe`: no disruption allowed, and a `SyncFailed` condition saying why.
fn fail_safe(b: &PodDisruptionBudget, err: &str, now: Time) -> PodDisruptionBudgetStatus {
    let mut s = b.status.clone();
    s.disruptions_allowed = 0;
    let c = Condition {
        type_: DISRUPTION_ALLOWED.into(),
        status: "False".into(),
        observed_generation: s.observed_generation,
        last_transition_time: None,
        reason: SYNC_FAILED.into(),
        message: err.to_string(),
    };
    s.set_condition(c, now);
    s
}

/// The `UnmanagedPods` warning, with the selector as Go's `%v` of a `*metav1.LabelSelector`
/// prints it (its generated `String()`).
fn unmanaged_message(b: &PodDisruptionBudget) -> String {
    format!(
        "Pods selected by this PodDisruptionBudget (selector: {}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.",
        b.spec.selector.as_ref().map_or("nil".into(), proto_string)
    )
}

/// A label selector's gogo-protobuf `String()`.
fn proto_string(s: &LabelSelector) -> String {
    let labels: String = s
        .match_labels
        .iter()
        .map(|(k, v)| format!("{k}: {v},"))
        .collect();
    let exprs: String = s
        .match_expressions
        .iter()
        .map(|r| {
            format!(
                "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{}],}},",
                r.key,
                r.operator,
                r.values.join(" ")
            )
        })
        .collect();
    format!(
        "&LabelSelector{{MatchLabels:map[string]string{{{labels}}},MatchExpressions:[]LabelSelectorRequirement{{{exprs}}},}}"
    )
}
