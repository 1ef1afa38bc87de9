//! The guarantees a Deployment makes, checked at every step of a recorded run: what its spec
//! promises (the RollingUpdate ceiling and floor, Recreate's no-overlap), what the controller
//! keeps (revisions only grow, old ReplicaSets within revisionHistoryLimit once a rollout is
//! complete) and where a settled run ends (the world matches the spec). Each guarantee applies
//! only where upstream makes it (a floor once the Deployment has been available at its size and
//! while no pod is failing; the ceiling once the controller has seen the spec). A breach is
//! named with its first step and, when the run holds a cause upstream does not guard against
//! (a pod deleted by hand, a spec changed mid-rollout, a failing image, a pause), why it is
//! expected. The page's guarantees panel, `rollout run --check` and the property tests use it.

use super::session::Session;
use super::summary;
use crate::api::Deployment;
use crate::api::StrategyType;
use crate::cluster::trace::{DeploymentView, PodState, TraceStep, TrafficView};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    Ceiling,
    Floor,
    NoOverlap,
    RevisionsGrow,
    HistoryLimit,
    Settled,
    Budget,
    Requests,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Ceiling,
        Kind::Floor,
        Kind::NoOverlap,
        Kind::RevisionsGrow,
        Kind::HistoryLimit,
        Kind::Settled,
        Kind::Budget,
        Kind::Requests,
    ];

    /// The guarantee in words, with its formula.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Ceiling => "at most replicas + maxSurge desired (RollingUpdate)",
            Kind::Floor => "at least replicas − maxUnavailable available (RollingUpdate)",
            Kind::NoOverlap => "no new pod while an old one is still there (Recreate)",
            Kind::RevisionsGrow => "revisions only grow",
            Kind::HistoryLimit => "old ReplicaSets ≤ revisionHistoryLimit once complete",
            Kind::Settled => "a settled world matches the spec",
            Kind::Budget => {
                "at least desiredHealthy pods healthy (PodDisruptionBudget; it refuses evictions, nothing else)"
            }
            Kind::Requests => "no request failed (a load on a Service: world.traffic)",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Ceiling => "ceiling",
            Kind::Floor => "floor",
            Kind::NoOverlap => "recreate-no-overlap",
            Kind::RevisionsGrow => "revisions-grow",
            Kind::HistoryLimit => "history-limit",
            Kind::Settled => "settled-matches-spec",
            Kind::Budget => "disruption-budget",
            Kind::Requests => "no-request-failed",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "state")]
pub enum State {
    Holds,
    Breached,
    /// Not promised at this step, and why.
    NotApplicable {
        why: &'static str,
    },
}

/// One guarantee at one step: its state and the formula with this step's numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Check {
    pub kind: Kind,
    #[serde(flatten)]
    pub state: State,
    pub numbers: Numbers,
}

/// A check's formula with its step's numbers, kept as the numbers and written when shown: a
/// run checks six guarantees at every step, and the page shows one step's (a long session's
/// every command would otherwise write tens of thousands of formulas).
#[derive(Clone, Debug, PartialEq)]
pub enum Numbers {
    None,
    Ceiling {
        desired: i32,
        replicas: i32,
        max_surge: i32,
    },
    Floor {
        available: u32,
        replicas: i32,
        max_unavailable: i32,
    },
    Overlap {
        new_pods: u32,
        old_pods: u32,
    },
    Revision {
        now: i64,
        was: Option<i64>,
    },
    History {
        old: usize,
        limit: i32,
    },
    /// The last step's, written at once (one step a run).
    Settled(String),
    /// The budget furthest below (or nearest to) its desired count, and what the run's
    /// evictions met so far.
    Budget {
        key: String,
        current: i32,
        desired: i32,
        refused: u32,
        evicted: u32,
    },
    /// The load's failed requests since the step before, by cause, and in all so far.
    Requests {
        stopped: u64,
        no_endpoint: u64,
        failed: u64,
        sent: u64,
    },
}

impl Numbers {
    pub fn is_empty(&self) -> bool {
        matches!(self, Numbers::None)
    }
}

impl std::fmt::Display for Numbers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Numbers::None => Ok(()),
            Numbers::Ceiling {
                desired,
                replicas,
                max_surge,
            } => {
                let ceiling = summary::ceiling(*replicas, *max_surge);
                let sign = if desired <= &ceiling { "≤" } else { ">" };
                write!(
                    f,
                    "Σ desired {desired} {sign} replicas + maxSurge = {replicas} + {max_surge} = {ceiling}"
                )
            }
            Numbers::Floor {
                available,
                replicas,
                max_unavailable,
            } => {
                let floor = summary::floor(*replicas, *max_unavailable);
                let sign = if *available as i32 >= floor {
                    "≥"
                } else {
                    "<"
                };
                write!(
                    f,
                    "available {available} {sign} replicas − maxUnavailable = {replicas} − {max_unavailable} = {floor}"
                )
            }
            Numbers::Overlap { new_pods, old_pods } => {
                write!(
                    f,
                    "new pods {new_pods} while old pods (terminating too) {old_pods}"
                )
            }
            Numbers::Revision { now, was: Some(l) } => write!(f, "revision {now} (was {l})"),
            Numbers::Revision { now, was: None } => write!(f, "revision {now}"),
            Numbers::History { old, limit } => {
                write!(f, "old ReplicaSets {old} ≤ revisionHistoryLimit {limit}")
            }
            Numbers::Settled(text) => f.write_str(text),
            Numbers::Requests {
                stopped,
                no_endpoint,
                failed,
                sent,
            } => {
                if stopped + no_endpoint > 0 {
                    write!(
                        f,
                        "{} more failed ({stopped} sent to pods that had stopped serving, {no_endpoint} with no ready endpoint); ",
                        stopped + no_endpoint
                    )?;
                }
                write!(f, "{failed} of {sent} failed so far")
            }
            Numbers::Budget {
                key,
                current,
                desired,
                refused,
                evicted,
            } => {
                let sign = if current >= desired { "≥" } else { "<" };
                let name = key.strip_prefix("default/").unwrap_or(key);
                write!(
                    f,
                    "{name}: healthy {current} {sign} desiredHealthy {desired}; evictions so far: {refused} refused, {evicted} allowed"
                )
            }
        }
    }
}

/// As the text it shows (`rollout run --check`'s JSON).
impl Serialize for Numbers {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A run of steps where a guarantee did not hold.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Breach {
    pub kind: Kind,
    pub from_step: usize,
    pub from_ms: u64,
    /// The last step of the run of breached steps.
    pub to_step: usize,
    /// The numbers at its first step.
    pub numbers: String,
    /// Why upstream does not promise it here (`None`: it should have held).
    pub expected: Option<String>,
}

/// Every guarantee at every step of the run: `checks[i]` holds one `Check` per [`Kind::ALL`].
pub struct Report {
    pub checks: Vec<[Check; Kind::ALL.len()]>,
    pub breaches: Vec<Breach>,
}

impl Report {
    pub fn unexpected(&self) -> impl Iterator<Item = &Breach> {
        self.breaches.iter().filter(|b| b.expected.is_none())
    }

    /// The report as `rollout run --check` prints it.
    pub fn render(&self) -> String {
        if self.breaches.is_empty() {
            return "guarantees: every guarantee held at every step where it applies\n".into();
        }
        let mut out = format!("guarantees: {} breach(es)\n", self.breaches.len());
        for b in &self.breaches {
            out.push_str(&format!(
                "  {} ({}): from step {} (t = {}) to step {}: {}\n    {}\n",
                b.kind.as_str(),
                b.kind.title(),
                b.from_step + 1,
                summary::secs(b.from_ms),
                b.to_step + 1,
                b.numbers,
                match &b.expected {
                    Some(why) => format!("expected: {why}"),
                    None => "unexpected: upstream's controller keeps this guarantee here".into(),
                }
            ));
        }
        out
    }
}

fn na(why: &'static str) -> State {
    State::NotApplicable { why }
}

fn holds(ok: bool) -> State {
    if ok { State::Holds } else { State::Breached }
}

fn failing(s: &Session, i: usize) -> bool {
    s.frames.get(i).is_some_and(|f| {
        f.iter().any(|p| {
            matches!(
                p.state,
                PodState::ErrImagePull | PodState::ImagePullBackOff | PodState::CrashLoopBackOff
            )
        })
    })
}

/// One step as the checks read it: the focus Deployment and its ReplicaSets after it.
struct At<'a> {
    i: usize,
    st: &'a TraceStep,
    d: Option<&'a DeploymentView>,
    /// The Deployment's spec (for its template's images and revisionHistoryLimit).
    spec: Option<&'a Deployment>,
    rolling: bool,
    deleting: bool,
    available: u32,
    newest: Option<i64>,
    /// Pods of the ReplicaSets other than the newest, terminating ones too.
    old_pods: u32,
}

/// What the checks carry from one step to the next.
#[derive(Default)]
struct Memory {
    /// The floor is promised once the Deployment has been available at its current size
    /// (replicas, maxUnavailable).
    armed: Option<(i32, i32)>,
    complete_since: Option<usize>,
    last_focus_sync: Option<usize>,
    last_revision: Option<i64>,
    /// The budgets are promised once all have been met; the evictions they refused and
    /// allowed so far.
    budget_armed: bool,
    refused: u32,
    evicted: u32,
    /// The load's counts at the end of the instant before this step's, and so far in its own.
    traffic_before: crate::cluster::trace::TrafficView,
    traffic_now: Option<(u64, crate::cluster::trace::TrafficView)>,
}

fn check(kind: Kind, state: State, numbers: Numbers) -> Check {
    Check {
        kind,
        state,
        numbers,
    }
}

fn no_deployment(kind: Kind) -> Check {
    check(kind, na("no Deployment"), Numbers::None)
}

fn ceiling(at: &At) -> Check {
    let Some(d) = at.d else {
        return no_deployment(Kind::Ceiling);
    };
    let desired: i32 = at.st.replica_sets.iter().map(|r| r.replicas).sum();
    let ceiling = summary::ceiling(d.replicas, d.max_surge);
    let numbers = Numbers::Ceiling {
        desired,
        replicas: d.replicas,
        max_surge: d.max_surge,
    };
    let state = if !at.rolling {
        na("Recreate has no surge")
    } else if at.deleting {
        na("the Deployment is being deleted")
    } else if d.observed_generation < d.generation {
        na("the controller has not synced this spec yet")
    } else {
        holds(desired <= ceiling)
    };
    check(Kind::Ceiling, state, numbers)
}

fn floor(at: &At, m: &mut Memory, failing: bool) -> Check {
    let Some(d) = at.d else {
        return no_deployment(Kind::Floor);
    };
    let floor = summary::floor(d.replicas, d.max_unavailable);
    let up = at.available as i32 >= floor;
    let key = (d.replicas, d.max_unavailable);
    if m.armed.is_some_and(|a| a != key) {
        m.armed = None;
    }
    if m.armed.is_none() && up && d.observed_generation >= d.generation {
        m.armed = Some(key);
    }
    let numbers = Numbers::Floor {
        available: at.available,
        replicas: d.replicas,
        max_unavailable: d.max_unavailable,
    };
    let state = if !at.rolling {
        na("Recreate takes every pod down first")
    } else if at.deleting {
        na("the Deployment is being deleted")
    } else if m.armed.is_none() {
        na("not yet available at this size (new pods count as unavailable until they are)")
    } else if failing {
        na("a pod is failing (the floor holds while pods are healthy)")
    } else {
        holds(up)
    };
    check(Kind::Floor, state, numbers)
}

fn no_overlap(at: &At) -> Check {
    let new_pods: u32 = at
        .st
        .replica_sets
        .iter()
        .filter(|r| Some(r.revision) == at.newest)
        .map(|r| r.pods.pending + r.pods.running)
        .sum();
    let numbers = Numbers::Overlap {
        new_pods,
        old_pods: at.old_pods,
    };
    let state = match at.d {
        None => na("no Deployment"),
        Some(_) if at.rolling => na("RollingUpdate overlaps by design"),
        Some(_) if at.deleting => na("the Deployment is being deleted"),
        Some(_) => holds(new_pods == 0 || at.old_pods == 0),
    };
    check(Kind::NoOverlap, state, numbers)
}

fn revisions_grow(at: &At, m: &mut Memory) -> Check {
    let (state, numbers) = match (at.newest, m.last_revision) {
        (Some(n), Some(l)) => (
            holds(n >= l),
            Numbers::Revision {
                now: n,
                was: Some(l),
            },
        ),
        (Some(n), None) => (State::Holds, Numbers::Revision { now: n, was: None }),
        (None, _) => (na("no ReplicaSet"), Numbers::None),
    };
    if at.newest.is_some() {
        m.last_revision = at.newest;
    }
    check(Kind::RevisionsGrow, state, numbers)
}

/// Once complete, from the sync after completion (the one that cleans up).
fn history_limit(at: &At, m: &mut Memory) -> Check {
    let complete = at.d.is_some_and(summary::complete);
    match (complete, m.complete_since) {
        (false, _) => m.complete_since = None,
        (true, None) => m.complete_since = Some(at.i),
        _ => {}
    }
    let limit = at
        .spec
        .map_or(10, |o| o.spec.revision_history_limit.unwrap_or(10));
    let old = at
        .st
        .replica_sets
        .iter()
        .filter(|r| Some(r.revision) != at.newest && !r.deleting)
        .count();
    let numbers = Numbers::History { old, limit };
    let cleaned = m
        .complete_since
        .is_some_and(|c| m.last_focus_sync.is_some_and(|l| l > c));
    let state = if !complete {
        na("the rollout is not complete")
    } else if !cleaned {
        na("old ReplicaSets are cleaned up at the first sync after completion")
    } else {
        holds(old as i32 <= limit)
    };
    check(Kind::HistoryLimit, state, numbers)
}

/// At the last step of a run that settled.
fn settled(s: &Session, at: &At) -> Check {
    if at.i + 1 < s.trace.len() {
        return check(
            Kind::Settled,
            na("checked when the run settles"),
            Numbers::None,
        );
    }
    let new = at
        .st
        .replica_sets
        .iter()
        .find(|r| Some(r.revision) == at.newest);
    let images = at.spec.map_or(vec![], |o| o.spec.template.images());
    let numbers = match (at.d, new) {
        (Some(d), Some(n)) => Numbers::Settled(format!(
            "newest ReplicaSet {} of {} replicas, {} available, image {} (spec: {}), old pods {}",
            n.replicas,
            d.replicas,
            at.available,
            n.images.join(", "),
            images.join(", "),
            at.old_pods
        )),
        _ => Numbers::None,
    };
    let state = if !s.settled {
        na("the run ends before the world settles")
    } else {
        match (at.d, new) {
            (Some(d), _) if d.deleting => na("the Deployment is being deleted"),
            (Some(d), Some(n)) => holds(
                n.replicas == d.replicas
                    && at.available as i32 == d.replicas
                    && n.images == images
                    && at.old_pods == 0,
            ),
            (Some(d), None) => holds(d.replicas == 0),
            (None, _) => na("no Deployment"),
        }
    };
    check(Kind::Settled, state, numbers)
}

/// What a step's `kubectl drain` notes (`kubectl::drainer`'s words) say its evictions met: how
/// many were refused, and the pods evicted (`pod NS/NAME`).
fn evictions(st: &TraceStep) -> (usize, Vec<&str>) {
    let mut refused = 0;
    let mut evicted = vec![];
    for note in st
        .changes()
        .iter()
        .filter_map(|c| c.strip_prefix("kubectl drain: "))
    {
        if note.contains("eviction refused") {
            refused += 1;
        } else if let Some((pod, _)) = note.split_once(" evicted: ") {
            evicted.push(pod);
        }
    }
    (refused, evicted)
}

/// Every budget at or above its desired count, once all have been met: a budget refuses the
/// evictions that would take it below, but the Deployment controller's own deletions, a pod
/// that stops being Ready and `kubectl delete pod` do not ask it.
fn budget(at: &At, m: &mut Memory) -> Check {
    let (refused, evicted) = evictions(at.st);
    m.refused += refused as u32;
    m.evicted += evicted.len() as u32;
    let Some(worst) = at
        .st
        .budgets
        .iter()
        .min_by_key(|b| b.current_healthy - b.desired_healthy)
    else {
        return check(Kind::Budget, na("no PodDisruptionBudget"), Numbers::None);
    };
    let met = worst.current_healthy >= worst.desired_healthy;
    m.budget_armed |= met;
    let numbers = Numbers::Budget {
        key: worst.key.clone(),
        current: worst.current_healthy,
        desired: worst.desired_healthy,
        refused: m.refused,
        evicted: m.evicted,
    };
    let state = if m.budget_armed {
        holds(met)
    } else {
        na("not yet met (a pod counts as healthy once it is Ready)")
    };
    check(Kind::Budget, state, numbers)
}

/// No request failed since the instant before, and kube-proxy sends none to a pod that no
/// longer serves (a window of failures is one breach, named with its causes).
fn requests(at: &At, m: &mut Memory) -> Check {
    let Some(now) = at.st.traffic else {
        return check(
            Kind::Requests,
            na("no load on a Service (world.traffic)"),
            Numbers::None,
        );
    };
    // Counted from the instant before, so that the steps of one instant, and of a window of
    // failures, are one breach.
    match m.traffic_now {
        Some((t, last)) if t != at.st.t => m.traffic_before = last,
        _ => {}
    }
    m.traffic_now = Some((at.st.t, now));
    let was = m.traffic_before;
    let numbers = Numbers::Requests {
        stopped: now.failed_stopped.saturating_sub(was.failed_stopped),
        no_endpoint: now
            .failed_no_endpoint
            .saturating_sub(was.failed_no_endpoint),
        failed: now.failed,
        sent: now.served + now.failed,
    };
    // Requests fail from the instant kube-proxy routes to a pod that stopped (`dropping`),
    // though none has yet at that instant.
    let ok = now.failed <= was.failed && at.st.dropping.is_empty();
    check(Kind::Requests, holds(ok), numbers)
}

/// The load's counts before the window of steps `from..=to` and after it (at the step after
/// it, which counts its last instant's).
fn window(s: &Session, from: usize, to: usize) -> (TrafficView, TrafficView) {
    let after = s.trace[(to + 1).min(s.trace.len() - 1)].traffic;
    let before = from.checked_sub(1).and_then(|j| s.trace[j].traffic);
    (before.unwrap_or_default(), after.unwrap_or_default())
}

/// Why requests failed in the window of steps `from..=to`: what the counts grew by says
/// which of kube-proxy's two ways to drop one it was.
fn requests_cause(s: &Session, from: usize, to: usize) -> String {
    let (was, now) = window(s, from, to);
    let mut why = vec![];
    if now.failed_stopped > was.failed_stopped {
        why.push("terminated before kube-proxy saw it: kube-proxy learns of an endpoint's change endpointDelayMs late and still sent requests to a pod whose app had stopped serving (a preStop hook that outlasts the delay keeps it serving)");
    }
    if now.failed_no_endpoint > was.failed_no_endpoint {
        why.push("no ready endpoint: kube-proxy had no endpoint to send them to (no pod of the Service was Ready, or kube-proxy had not seen one yet)");
    }
    if why.is_empty() {
        why.push("kube-proxy still sends requests to pods that no longer serve");
    }
    format!(
        "the Deployment controller promises pods, not requests: {}",
        why.join("; ")
    )
}

/// Checks every guarantee at every step of a recorded run.
pub fn evaluate(s: &Session) -> Report {
    let mut m = Memory::default();
    let mut checks = Vec::with_capacity(s.trace.len());
    for (i, st) in s.trace.iter().enumerate() {
        if s.is_focus_sync(i) {
            m.last_focus_sync = Some(i);
        }
        let d = st.deployment.as_ref();
        let newest = st.newest().map(|r| r.revision);
        let at = At {
            i,
            st,
            d,
            spec: s.focus_objects.get(i).and_then(|o| o.as_deref()),
            rolling: d.is_some_and(|d| d.strategy == StrategyType::RollingUpdate),
            deleting: d.is_some_and(|d| d.deleting),
            available: st.replica_sets.iter().map(|r| r.pods.available).sum(),
            newest,
            old_pods: st
                .replica_sets
                .iter()
                .filter(|r| Some(r.revision) != newest)
                .map(|r| r.pods.pending + r.pods.running + r.pods.terminating)
                .sum(),
        };
        // In Kind::ALL's order.
        checks.push([
            ceiling(&at),
            floor(&at, &mut m, failing(s, i)),
            no_overlap(&at),
            revisions_grow(&at, &mut m),
            history_limit(&at, &mut m),
            settled(s, &at),
            budget(&at, &mut m),
            requests(&at, &mut m),
        ]);
    }
    let breaches = breaches(s, &checks);
    Report { checks, breaches }
}

/// Runs of breached steps, each with its cause when the run holds one.
fn breaches(s: &Session, checks: &[[Check; Kind::ALL.len()]]) -> Vec<Breach> {
    let mut out: Vec<Breach> = vec![];
    for (k, kind) in Kind::ALL.iter().enumerate() {
        let mut open: Option<Breach> = None;
        // Where the run of steps at which it last held began: its cause may be the step that
        // made it apply (a command), just before.
        let mut held_from = 0;
        let mut holding = false;
        for (i, row) in checks.iter().enumerate() {
            let c = &row[k];
            let last_held = held_from;
            match (&c.state, open.as_mut()) {
                (State::Breached, Some(b)) => b.to_step = i,
                (State::Breached, None) => {
                    open = Some(Breach {
                        kind: *kind,
                        from_step: i,
                        from_ms: s.trace[i].t,
                        to_step: i,
                        numbers: c.numbers.to_string(),
                        expected: cause(s, *kind, last_held, i),
                    })
                }
                (state, _) => {
                    if *state == State::Holds && !holding {
                        held_from = i.saturating_sub(1);
                    }
                    out.extend(open.take());
                }
            }
            holding = c.state == State::Holds;
        }
        out.extend(open);
    }
    // A window of failed requests is told by all of it.
    for b in out.iter_mut().filter(|b| b.kind == Kind::Requests) {
        let (was, now) = window(s, b.from_step, b.to_step);
        let numbers = Numbers::Requests {
            stopped: now.failed_stopped - was.failed_stopped,
            no_endpoint: now.failed_no_endpoint - was.failed_no_endpoint,
            failed: now.failed,
            sent: now.served + now.failed,
        };
        b.numbers = numbers.to_string();
        b.expected = Some(requests_cause(s, b.from_step, b.to_step));
    }
    crate::api::sort::sort_by_key(&mut out, |b| (b.from_step, b.kind));
    out
}

/// An old ReplicaSet scaled down while some of its pods were Ready but not yet available
/// (minReadySeconds) between steps `from` and `to`: `cleanupUnhealthyReplicas` counts those
/// unhealthy and scales them away, but the ReplicaSet controller picks which pods go by its
/// ranking, which never looks at availability, so an available pod may go instead.
fn unready_cleanup(s: &Session, from: usize, to: usize) -> Option<String> {
    for i in from..to {
        let (before, after) = (&s.trace[i], &s.trace[i + 1]);
        for r in &before.replica_sets {
            let waiting = r.pods.ready > r.pods.available;
            let shrunk = after
                .replica_sets
                .iter()
                .find(|a| a.name == r.name)
                .is_some_and(|a| a.replicas < r.replicas);
            if waiting && shrunk {
                return Some(format!(
                    "at t = {}, {} was scaled down while {} of its pods were Ready but not yet available (minReadySeconds): upstream's cleanupUnhealthyReplicas scales such pods away, but the ReplicaSet controller picks which pods go by its ranking, which never looks at availability (the TODO for issue #22065 in controller_utils.go), so an available one may go instead",
                    summary::secs(after.t),
                    r.name,
                    r.pods.ready - r.pods.available
                ));
            }
        }
    }
    None
}

/// What a command did, as far as the guarantees care (kubectl's one reader of what a line
/// writes): deleted pods by hand, wrote a ReplicaSet, wrote (or may have) the Deployment.
fn touches(cmd: &str) -> (bool, bool, bool) {
    use crate::kubectl::Resource;
    let Some(w) = crate::kubectl::effect::writes(cmd) else {
        return (false, false, false);
    };
    (
        w.deletes() && w.names(Resource::Pod),
        w.names(Resource::ReplicaSet),
        w.may_write(Resource::Deployment),
    )
}

/// Why a breach found at step `to` (the guarantee last held at `from`) is expected: a cause in
/// the run upstream does not guard against.
fn cause(s: &Session, kind: Kind, from: usize, to: usize) -> Option<String> {
    let at = |i: usize| summary::secs(s.trace[i].t);
    let mut hand_pod = None;
    let mut hand_rs = None;
    let mut spec = None;
    let mut world = None;
    let mut evicted = None;
    for i in from..=to {
        let st = &s.trace[i];
        if let Some(pod) = evictions(st).1.first() {
            evicted = Some(format!("`kubectl drain` evicted {pod} at t = {}", at(i)));
        }
        let Some(a) = st.action() else {
            continue;
        };
        // A command refused changed nothing.
        if let Some(cmd) = a.command.as_deref().filter(|_| a.errors.is_empty()) {
            let (pod, rs, deploy) = touches(cmd.lines().next().unwrap_or(""));
            let what = || format!("`{}` at t = {}", cmd.lines().next().unwrap_or(""), at(i));
            if pod {
                hand_pod = Some(what());
            }
            if rs {
                hand_rs = Some(what());
            }
            if deploy {
                spec = Some(what());
            }
        }
        if st.changes().iter().any(|c| c.starts_with("world:")) {
            world = Some(format!("the world changed at t = {}", at(i)));
        }
    }
    let last = &s.trace[to];
    let paused = last.deployment.as_ref().is_some_and(|d| d.paused);
    let deadline = last.deployment.as_ref().is_some_and(|d| {
        d.conditions
            .iter()
            .any(|c| c.type_ == "Progressing" && c.reason == "ProgressDeadlineExceeded")
    });
    match kind {
        Kind::Floor => hand_pod
            .map(|c| format!("a pod was deleted by hand ({c}): maxUnavailable limits what the controller takes down, not what others delete (PodDisruptionBudgets guard evictions, and kubectl delete pod bypasses them too); its replacement counts as unavailable until it is available"))
            .or(evicted.map(|c| format!("a pod was evicted ({c}): a PodDisruptionBudget counts Ready pods, not available ones (minReadySeconds), and maxUnavailable limits only what the Deployment controller takes down; the replacement counts as unavailable until it is available")))
            .or(unready_cleanup(s, from, to))
            .or(hand_rs.map(|c| format!("a ReplicaSet was changed by hand ({c}); the Deployment controller corrects it at its next sync")))
            .or(spec.map(|c| format!("the spec changed mid-rollout ({c}): a scaling event is spread over the ReplicaSets in proportion (upstream's `scale`), which does not look at maxUnavailable, and pods it adds count as unavailable until they are available")))
            .or(world),
        Kind::Ceiling => hand_rs
            .map(|c| format!("a ReplicaSet was changed by hand ({c}); the Deployment controller scales it back at its next sync"))
            .or(spec.map(|c| format!("the spec changed mid-rollout ({c}): replicas + maxSurge moved, and ReplicaSets already scaled stay until the rollout brings them down"))),
        Kind::NoOverlap => hand_rs
            .or(hand_pod)
            .map(|c| format!("pods or ReplicaSets were changed by hand ({c}), outside the Deployment controller")),
        Kind::RevisionsGrow => hand_rs.map(|c| format!("a ReplicaSet was changed by hand ({c})")),
        Kind::HistoryLimit => hand_rs
            .map(|c| format!("a ReplicaSet was made or changed by hand ({c})"))
            .or(paused.then(|| "the Deployment is paused: cleanup waits".into())),
        Kind::Budget => Some(budget_cause(s, from, to, hand_pod, world)),
        Kind::Requests => Some(requests_cause(s, to, to)),
        Kind::Settled => {
            if paused {
                Some("the Deployment is paused: a paused Deployment does not roll out".into())
            } else if deadline {
                Some("the rollout exceeded its progress deadline: the controller reports it and stops waiting, but does not roll back".into())
            } else if failing(s, to) {
                Some("pods cannot start (an image that fails or a container that crashes)".into())
            } else {
                hand_pod.or(hand_rs).or(world)
            }
        }
    }
}

/// What took a budget below its desired count: never one of its evictions (it refused those
/// that would), but what does not ask it.
fn budget_cause(
    s: &Session,
    from: usize,
    to: usize,
    hand_pod: Option<String>,
    world: Option<String>,
) -> String {
    let refused: usize = s.trace[..=to].iter().map(|st| evictions(st).0).sum();
    let rollout = (from..=to).any(|i| {
        let st = &s.trace[i];
        st.sync_of(crate::cluster::trace::Controller::ReplicaSet)
            .is_some_and(|y| !y.deletions.is_empty())
    });
    let what = hand_pod
        .map(|c| format!("a pod was deleted by hand ({c})"))
        .or(rollout.then(|| {
            "the ReplicaSet controller deleted pods as the Deployment scaled a ReplicaSet down (a rollout's maxUnavailable, a scale-down)".to_string()
        }))
        .or(world.map(|w| format!("pods stopped being Ready ({w})")))
        .unwrap_or_else(|| "pods stopped being Ready or were deleted".into());
    format!(
        "{what}: a PodDisruptionBudget guards only evictions (it refused {refused} so far), so what deletes pods directly can take it below desiredHealthy"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::scenario::gallery::{DEFAULT, GALLERY};

    fn report(text: &str) -> Report {
        evaluate(&Session::new(Scenario::parse(text).unwrap()).unwrap())
    }

    fn with_steps(steps: &str) -> String {
        let (head, _) = DEFAULT.split_once("steps:").unwrap();
        format!("{head}steps:\n{steps}until: settled\n")
    }

    #[test]
    fn every_gallery_scenario_keeps_its_guarantees_or_says_why_not() {
        for (name, text) in GALLERY {
            let r = report(text);
            let unexpected: Vec<String> = r.unexpected().map(|b| format!("{b:?}")).collect();
            assert!(unexpected.is_empty(), "{name}: {unexpected:#?}");
        }
        // The rolling update holds all that applies to it, and ends as its spec says.
        let r = report(DEFAULT);
        assert!(r.breaches.is_empty(), "{:#?}", r.breaches);
        let last = r.checks.last().unwrap();
        assert_eq!(
            last[Kind::ALL.iter().position(|k| *k == Kind::Settled).unwrap()].state,
            State::Holds
        );
        let mid = &r.checks[r.checks.len() / 2];
        assert!(
            mid[0].numbers.to_string().ends_with("= 10 + 3 = 13"),
            "{}",
            mid[0].numbers
        );
        assert!(
            matches!(mid[2].state, State::NotApplicable { .. }),
            "Recreate's guarantee"
        );
    }

    /// The property tests' shrunk case: on 1.34 with minReadySeconds 2, a change back to an old
    /// template mid-rollout cleans up an old ReplicaSet's Ready but not yet available pods, and
    /// the ReplicaSet controller deletes an available pod among them (its ranking never looks
    /// at availability): the dip is expected, and the cause names that mechanism.
    #[test]
    fn a_cleanup_of_pods_not_yet_available_may_take_an_available_one() {
        let text = "name: prop\nworld: {kubernetes: \"1.34\"}\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec:\n      replicas: 6\n      minReadySeconds: 2\n      revisionHistoryLimit: 0\n      strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 1}}\n      selector: {matchLabels: {app: web}}\n      template:\n        metadata: {labels: {app: web}}\n        spec: {containers: [{name: app, image: 'app:0'}]}\nsteps:\n  - {at: 20000, run: kubectl set image deployment/web app=app:3}\n  - {at: 28000, run: kubectl set image deployment/web app=app:1}\nuntil: settled\n";
        let r = report(text);
        let floor: Vec<&Breach> = r
            .breaches
            .iter()
            .filter(|b| b.kind == Kind::Floor)
            .collect();
        assert!(!floor.is_empty(), "{:#?}", r.breaches);
        assert!(r.unexpected().next().is_none(), "{:#?}", r.breaches);
        let why = floor[0].expected.as_deref().unwrap();
        assert!(
            why.contains("were Ready but not yet available (minReadySeconds): upstream's cleanupUnhealthyReplicas"),
            "{why}"
        );
    }

    #[test]
    fn a_pod_deleted_by_hand_breaks_the_floor_for_a_while() {
        // An old pod still available when the rollout has taken the old side to the floor
        // (the run is the same up to the delete).
        let plain = Session::new(Scenario::parse(DEFAULT).unwrap()).unwrap();
        let at = plain.step_at_time(10_500);
        let name = plain.frames[at]
            .iter()
            .find(|p| p.state == PodState::Available)
            .unwrap()
            .name
            .clone();
        // 10 replicas, maxUnavailable 25%: at the floor mid-rollout, one more pod deleted.
        let text = with_steps(&format!(
            "  - {{at: 10s, run: kubectl set image deployment/web nginx=nginx:1.16.1}}\n  - {{at: 10500ms, run: kubectl delete pod {name}}}\n"
        ));
        let r = report(&text);
        let b = r
            .breaches
            .iter()
            .find(|b| b.kind == Kind::Floor)
            .expect("a floor breach");
        assert!(
            b.numbers
                .starts_with("available 7 < replicas − maxUnavailable = 10 − 2 = 8"),
            "{}",
            b.numbers
        );
        assert!(
            b.expected
                .as_deref()
                .unwrap()
                .starts_with("a pod was deleted by hand (`kubectl delete pod"),
            "{b:?}"
        );
        assert!(b.to_step > b.from_step, "for a while");
        assert!(r.render().contains(
            "floor (at least replicas − maxUnavailable available (RollingUpdate)): from step"
        ));
    }

    #[test]
    fn a_spec_change_mid_rollout_moves_the_ceiling() {
        // 10 -> 4 replicas while the rollout has 13 desired: the ceiling drops to 4 + 1 = 5.
        let text = with_steps(
            "  - {at: 10s, run: kubectl set image deployment/web nginx=nginx:1.16.1}\n  - {at: 10s, run: kubectl scale deployment/web --replicas=4}\n",
        );
        let r = report(&text);
        let ceilings: std::collections::BTreeSet<String> = r
            .checks
            .iter()
            .map(|row| {
                row[0]
                    .numbers
                    .to_string()
                    .rsplit("= ")
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert!(
            ceilings.contains("13") && ceilings.contains("5"),
            "{ceilings:?}"
        );
        assert!(r.unexpected().next().is_none(), "{:#?}", r.breaches);
    }

    #[test]
    fn recreate_never_overlaps_and_a_paused_run_is_not_settled_as_its_spec() {
        let recreate = GALLERY.iter().find(|g| g.0 == "recreate").unwrap().1;
        let r = report(recreate);
        assert!(r.breaches.is_empty(), "{:#?}", r.breaches);
        assert!(r.checks.iter().any(|row| {
            row[2].state == State::Holds
                && row[2]
                    .numbers
                    .to_string()
                    .starts_with("new pods 0 while old pods")
        }));
        let text = with_steps(
            "  - {at: 10s, run: kubectl rollout pause deployment/web}\n  - {at: 11s, run: kubectl set image deployment/web nginx=nginx:1.16.1}\n",
        );
        let r = report(&text);
        let b = r
            .breaches
            .iter()
            .find(|b| b.kind == Kind::Settled)
            .expect("the image is not rolled out");
        assert!(b.expected.as_deref().unwrap().contains("paused"), "{b:?}");
    }
}
