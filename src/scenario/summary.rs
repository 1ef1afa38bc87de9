//! What a run adds up to for someone planning a rollout: the focus Deployment over virtual time
//! (the chart's series, with the two guard rails its spec sets) and, for each change that
//! started a rollout, how long it took, how low availability went, how many pods it used at
//! most, and how many pod-seconds it ran above `spec.replicas`. Everything here is read off
//! the trace, so the page, the CLI and the JS API give the same numbers.

use crate::api::StrategyType;
use crate::cluster::trace::{Controller, DeploymentView, ReplicaSetView, StepKind, TraceStep};
use crate::controller::deployment::Branch;
use serde::Serialize;

/// One ReplicaSet's pods at a point of the chart.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetPoint {
    pub name: String,
    pub revision: i64,
    /// Pods that are not terminating (what maxSurge counts).
    pub pods: u32,
    pub terminating: u32,
}

/// The focus Deployment after one trace step.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Point {
    pub step: usize,
    pub t: u64,
    pub sets: Vec<SetPoint>,
    /// Pods (not terminating) over every ReplicaSet.
    pub total: u32,
    pub ready: u32,
    pub available: u32,
    /// `spec.replicas`, and the guard rails its strategy sets: replicas + maxSurge and
    /// replicas − maxUnavailable (RollingUpdate); Recreate has neither.
    pub replicas: Option<i32>,
    pub ceiling: Option<i32>,
    pub floor: Option<i32>,
}

/// The rolling updater's ceiling, written once for the chart, the summary, the guarantees and
/// learn mode: at most replicas + maxSurge pods (maxSurge resolved against replicas).
pub fn ceiling(replicas: i32, max_surge: i32) -> i32 {
    replicas + max_surge
}

/// The rolling updater's floor: at least replicas − maxUnavailable available, never below 0
/// (maxUnavailable resolved against replicas).
pub fn floor(replicas: i32, max_unavailable: i32) -> i32 {
    (replicas - max_unavailable).max(0)
}

/// The rails a Deployment's spec sets, as the rolling updater resolves them (maxSurge and
/// maxUnavailable already resolved against replicas in the trace's view).
pub fn guard_rails(d: &DeploymentView) -> (Option<i32>, Option<i32>) {
    if d.strategy != StrategyType::RollingUpdate {
        return (None, None);
    }
    (
        Some(ceiling(d.replicas, d.max_surge)),
        Some(floor(d.replicas, d.max_unavailable)),
    )
}

fn set_point(rs: &ReplicaSetView) -> SetPoint {
    SetPoint {
        name: rs.name.clone(),
        revision: rs.revision,
        pods: rs.pods.pending + rs.pods.running,
        terminating: rs.pods.terminating,
    }
}

/// The chart's series: one point per trace step.
pub fn series<S: std::borrow::Borrow<TraceStep>>(trace: &[S]) -> Vec<Point> {
    trace
        .iter()
        .enumerate()
        .map(|(i, s)| point(i, s.borrow()))
        .collect()
}

/// The chart's series at the end of each instant: the last step of an instant stands for it
/// (a chart draws instants, and a run holds several steps an instant).
pub fn instants<S: std::borrow::Borrow<TraceStep>>(trace: &[S]) -> Vec<Point> {
    let t = |i: usize| trace[i].borrow().t;
    (0..trace.len())
        .filter(|&i| i + 1 == trace.len() || t(i + 1) != t(i))
        .map(|i| point(i, trace[i].borrow()))
        .collect()
}

/// Step `i`'s point.
fn point(i: usize, s: &TraceStep) -> Point {
    let sets: Vec<SetPoint> = s.replica_sets.iter().map(set_point).collect();
    let (ceiling, floor) = s.deployment.as_ref().map_or((None, None), guard_rails);
    Point {
        step: i,
        t: s.t,
        total: sets.iter().map(|p| p.pods).sum(),
        ready: s.replica_sets.iter().map(|r| r.pods.ready).sum(),
        available: s.replica_sets.iter().map(|r| r.pods.available).sum(),
        sets,
        replicas: s.deployment.as_ref().map(|d| d.replicas),
        ceiling,
        floor,
    }
}

/// How a rollout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Ending {
    /// Progressing=True, reason NewReplicaSetAvailable.
    Complete,
    /// Progressing=False, reason ProgressDeadlineExceeded.
    DeadlineExceeded,
    /// Another change started a rollout first.
    Superseded,
    /// The run ended first.
    Unfinished,
}

impl Ending {
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::Complete => "complete",
            Ending::DeadlineExceeded => "progress deadline exceeded",
            Ending::Superseded => "superseded by the next change",
            Ending::Unfinished => "not finished when the run ends",
        }
    }
}

/// One rollout: from the change that started it to its end.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rollout {
    /// The step of the change (the command), and what it was.
    pub change_step: usize,
    pub change: String,
    pub start_ms: u64,
    /// The ReplicaSet the rollout moves to, and its revision.
    pub new_replica_set: String,
    pub revision: i64,
    pub end_step: usize,
    pub end_ms: u64,
    pub ending: Ending,
    /// From the change to the end (complete, deadline, superseded or the run's end).
    pub duration_ms: u64,
    pub lowest_available: u32,
    pub lowest_available_ms: u64,
    pub highest_total: u32,
    pub highest_total_ms: u64,
    /// spec.replicas during the rollout (at its end).
    pub replicas: i32,
    /// Pods above spec.replicas, integrated over virtual time (pod-seconds).
    pub extra_pod_seconds: f64,
    /// Deployment syncs of the focus Deployment from the change to the end.
    pub syncs: u32,
    pub deadline_exceeded: bool,
    /// With a load on a Service (`world.traffic`): the requests that failed from the change
    /// to the next rollout's (or the run's end: an old pod stops after the rollout is
    /// complete), and the steps' instants they fell between.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_requests: Option<FailedRequests>,
}

/// A rollout's failed requests and when.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FailedRequests {
    pub count: u64,
    /// Sent to a pod that no longer served: kube-proxy had not seen it leave.
    pub stopped: u64,
    /// kube-proxy had no endpoint for them.
    pub no_endpoint: u64,
    /// From the last step before the first failure to the step by which the last had failed.
    pub from_ms: u64,
    pub to_ms: u64,
}

impl FailedRequests {
    /// `N`, or `N (t = a to b: X sent to pods that had stopped serving, Y no ready endpoint)`.
    pub fn text(&self) -> String {
        if self.count == 0 {
            return "0".into();
        }
        let causes = [
            (self.stopped, "sent to pods that had stopped serving"),
            (self.no_endpoint, "no ready endpoint"),
        ];
        let causes: Vec<String> = causes
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, why)| format!("{n} {why}"))
            .collect();
        format!(
            "{} (t = {} to {}: {})",
            self.count,
            secs(self.from_ms),
            secs(self.to_ms),
            causes.join(", ")
        )
    }
}

/// The requests that failed between steps `from` and `to` (inclusive).
fn failed_requests(trace: &[&TraceStep], from: usize, to: usize) -> Option<FailedRequests> {
    let at = |k: usize| trace[k].traffic.unwrap_or_default();
    trace[from].traffic?;
    let base = if from == 0 {
        Default::default()
    } else {
        at(from - 1)
    };
    let last = at(to);
    let mut out = FailedRequests {
        count: last.failed - base.failed,
        stopped: last.failed_stopped - base.failed_stopped,
        no_endpoint: last.failed_no_endpoint - base.failed_no_endpoint,
        from_ms: 0,
        to_ms: 0,
    };
    if out.count > 0 {
        let first = (from..=to)
            .find(|&k| at(k).failed > base.failed)
            .unwrap_or(from);
        out.from_ms = trace[first.saturating_sub(1).max(from)].t;
        let done = (from..=to)
            .find(|&k| at(k).failed == last.failed)
            .unwrap_or(to);
        out.to_ms = trace[done].t;
    }
    Some(out)
}

fn progressing(d: &DeploymentView) -> Option<(&str, &str)> {
    d.conditions
        .iter()
        .find(|c| c.type_ == "Progressing")
        .map(|c| (c.status.as_str(), c.reason.as_str()))
}

/// upstream's `DeploymentComplete` with the condition that says so.
pub(crate) fn complete(d: &DeploymentView) -> bool {
    progressing(d) == Some(("True", "NewReplicaSetAvailable"))
        && d.observed_generation >= d.generation
        && d.status.updated_replicas == d.replicas
        && d.status.replicas == d.replicas
        && d.status.available_replicas == d.replicas
}

/// Every rollout of the run: each time the Deployment's newest ReplicaSet becomes another one
/// (a new template, or a rollback that renumbers an old one). A Deployment's first
/// ReplicaSet is not a rollout: it moves from nothing; one found beside older ReplicaSets that
/// still hold replicas is a rollout under way.
pub fn rollouts<S: std::borrow::Borrow<TraceStep>>(trace: &[S]) -> Vec<Rollout> {
    let trace: Vec<&TraceStep> = trace.iter().map(|s| s.borrow()).collect();
    let mut starts = vec![];
    let mut last: Option<&str> = None;
    let mut last_action = None;
    for (i, s) in trace.iter().enumerate() {
        if s.kind() == StepKind::Action && s.command().is_some() {
            last_action = Some(i);
        }
        let Some(rs) = s.newest() else { continue };
        match last {
            Some(prev) if prev != rs.name => starts.push((last_action.unwrap_or(i), i)),
            // A run that begins with older ReplicaSets still holding replicas begins in the
            // middle of a rollout (a pasted cluster state): it is one, under way.
            None if s
                .replica_sets
                .iter()
                .any(|r| r.name != rs.name && r.replicas > 0) =>
            {
                starts.push((last_action.unwrap_or(i), i));
            }
            _ => {}
        }
        last = Some(&rs.name);
    }
    let mut out = vec![];
    for (n, &(change, seen)) in starts.iter().enumerate() {
        let next = starts.get(n + 1).map(|&(c, _)| c);
        let mut r = measure(&trace, change, seen, next);
        if n == 0 && last_before_first(&trace, seen) && trace[change].command().is_none() {
            r.change = "under way in the cluster state the run began from".into();
        }
        out.push(r);
    }
    out
}

/// Whether no step before `seen` had a ReplicaSet: the rollout seen there began before the run.
fn last_before_first(trace: &[&TraceStep], seen: usize) -> bool {
    trace[..seen].iter().all(|s| s.newest().is_none())
}

/// Measures one rollout: it starts at step `change`, its new ReplicaSet appears at `seen`, and
/// the next rollout's change (if any) is at `next`.
/// (Long: every figure of a rollout, read off one walk of its steps.)
fn measure(trace: &[&TraceStep], change: usize, seen: usize, next: Option<usize>) -> Rollout {
    let limit = next.unwrap_or(trace.len());
    let mut end = (limit.saturating_sub(1).max(seen), Ending::Unfinished);
    if next.is_some() {
        end.1 = Ending::Superseded;
    }
    for (k, s) in trace.iter().enumerate().take(limit).skip(seen) {
        let Some(d) = &s.deployment else { continue };
        if complete(d) {
            end = (k, Ending::Complete);
            break;
        }
        if progressing(d) == Some(("False", "ProgressDeadlineExceeded")) {
            end = (k, Ending::DeadlineExceeded);
            break;
        }
    }
    let (end_step, ending) = end;
    // A superseded rollout lasts until the change that supersedes it.
    let end_ms = match (ending, next) {
        (Ending::Superseded, Some(n)) => trace[n].t,
        _ => trace[end_step].t,
    };
    let start_ms = trace[change].t;
    let points = series(&trace[change..=end_step]);
    let mut lowest = (u32::MAX, start_ms);
    let mut highest = (0, start_ms);
    let mut extra = 0.0;
    for (j, p) in points.iter().enumerate() {
        if p.available < lowest.0 {
            lowest = (p.available, p.t);
        }
        if p.total > highest.0 {
            highest = (p.total, p.t);
        }
        // The value after a step holds until the next step's instant.
        let until = points.get(j + 1).map_or(end_ms, |q| q.t);
        let above = p.total as i64 - p.replicas.unwrap_or(0) as i64;
        if above > 0 {
            extra += above as f64 * (until - p.t) as f64 / 1000.0;
        }
    }
    let focus = trace[seen].deployment.as_ref().map(|d| d.name.as_str());
    let syncs = trace[change..=end_step]
        .iter()
        .filter(|s| {
            s.controller() == Some(Controller::Deployment)
                && s.branch().is_some_and(|b| b != Branch::NotFound)
                && s.key().and_then(|k| k.rsplit('/').next()) == focus
        })
        .count() as u32;
    let new = trace[seen]
        .newest()
        .expect("a rollout has a new ReplicaSet");
    Rollout {
        change_step: change,
        change: trace[change]
            .command()
            .map(|c| c.lines().next().unwrap_or("").to_string())
            .unwrap_or_else(|| "the controller's own".into()),
        start_ms,
        new_replica_set: new.name.clone(),
        revision: trace[end_step]
            .replica_sets
            .iter()
            .find(|r| r.name == new.name)
            .map_or(new.revision, |r| r.revision),
        end_step,
        end_ms,
        ending,
        duration_ms: end_ms - start_ms,
        lowest_available: if lowest.0 == u32::MAX { 0 } else { lowest.0 },
        lowest_available_ms: lowest.1,
        highest_total: highest.0,
        highest_total_ms: highest.1,
        replicas: trace[end_step]
            .deployment
            .as_ref()
            .map_or(0, |d| d.replicas),
        extra_pod_seconds: extra,
        syncs,
        deadline_exceeded: ending == Ending::DeadlineExceeded,
        failed_requests: failed_requests(trace, change, limit - 1),
    }
}

/// Seconds as the summaries print them: `12.5 s`.
pub fn secs(ms: u64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

/// The summary as text (`rollout run --format summary`).
pub fn render(rollouts: &[Rollout]) -> String {
    if rollouts.is_empty() {
        return "No rollout: the run never moved the Deployment to a new ReplicaSet.\n".into();
    }
    let mut out = String::new();
    for (n, r) in rollouts.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        out.push_str(&format!(
            "Rollout {} at t = {}: {}\n",
            n + 1,
            secs(r.start_ms),
            r.change
        ));
        let rows = [
            (
                "new ReplicaSet",
                format!("{} (revision {})", r.new_replica_set, r.revision),
            ),
            (
                "ended",
                format!("{} at t = {}", r.ending.as_str(), secs(r.end_ms)),
            ),
            ("duration", secs(r.duration_ms)),
            (
                "lowest available",
                format!(
                    "{} of {} (t = {})",
                    r.lowest_available,
                    r.replicas,
                    secs(r.lowest_available_ms)
                ),
            ),
            (
                "highest total pods",
                format!("{} (t = {})", r.highest_total, secs(r.highest_total_ms)),
            ),
            ("extra pod-seconds", format!("{:.1}", r.extra_pod_seconds)),
            ("deployment syncs", r.syncs.to_string()),
            (
                "progress deadline",
                if r.deadline_exceeded {
                    "exceeded"
                } else {
                    "not exceeded"
                }
                .into(),
            ),
        ];
        for (k, v) in rows {
            out.push_str(&format!("  {k:<20}{v}\n"));
        }
        if let Some(f) = &r.failed_requests {
            let v = f.text();
            // (Spelled as the contract has it, `failed requests: N`.)
            out.push_str(&format!("  failed requests: {v}\n"));
        }
    }
    out
}

/// One row of a comparison: a label, a cell per variant, and which cells are the best.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompareRow {
    pub label: String,
    /// A heading row (which rollout the rows below are about) has no cells.
    pub heading: bool,
    pub cells: Vec<String>,
    pub best: Vec<bool>,
}

impl CompareRow {
    /// Whether the variants differ on this row (two releases doing one scenario differently
    /// show here, even where no value is better).
    pub fn differs(&self) -> bool {
        self.cells.windows(2).any(|w| w[0] != w[1])
    }
}

/// Marks the best values (`better(a, b)`: a beats b); none when every value is the same.
fn best_of<T: Copy + PartialEq>(values: &[Option<T>], better: impl Fn(T, T) -> bool) -> Vec<bool> {
    let present: Vec<T> = values.iter().flatten().copied().collect();
    let Some(&first) = present.first() else {
        return vec![false; values.len()];
    };
    if present.iter().all(|&v| v == first) {
        return vec![false; values.len()];
    }
    let best = present
        .iter()
        .copied()
        .fold(first, |b, v| if better(v, b) { v } else { b });
    values.iter().map(|v| *v == Some(best)).collect()
}

/// The comparison table: for each rollout (by its place in the run), its numbers under each
/// variant, the best of each row marked.
/// (Long: one row per figure of the comparison table.)
pub fn compare_rows(columns: &[Vec<Rollout>]) -> Vec<CompareRow> {
    let most = columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut rows = vec![];
    for k in 0..most {
        let first = columns
            .iter()
            .find_map(|c| c.get(k))
            .expect("some column has it");
        rows.push(CompareRow {
            label: format!(
                "Rollout {} at t = {}: {}",
                k + 1,
                secs(first.start_ms),
                first.change
            ),
            heading: true,
            cells: vec![],
            best: vec![],
        });
        let at: Vec<Option<&Rollout>> = columns.iter().map(|c| c.get(k)).collect();
        rollout_rows(&at, &mut rows);
    }
    rows
}

/// The rows of one rollout (`at`: each column's, if it has one), after its heading. (Long: a
/// row each, its text and which cell is best side by side.)
fn rollout_rows(at: &[Option<&Rollout>], rows: &mut Vec<CompareRow>) {
    let mut row = |label: &str, text: &dyn Fn(&Rollout) -> String, best: Vec<bool>| {
        rows.push(CompareRow {
            label: label.into(),
            heading: false,
            cells: at.iter().map(|r| r.map_or("-".into(), text)).collect(),
            best,
        })
    };
    let complete = |r: &Rollout| r.ending == Ending::Complete;
    row(
        "time to complete",
        &|r| {
            if complete(r) {
                secs(r.duration_ms)
            } else {
                format!("{} ({})", secs(r.duration_ms), r.ending.as_str())
            }
        },
        // A rollout that took every pod down on the way is not the best one, however fast.
        best_of(
            &at.iter()
                .map(|r| {
                    r.filter(|r| complete(r) && (r.lowest_available > 0 || r.replicas == 0))
                        .map(|r| r.duration_ms)
                })
                .collect::<Vec<_>>(),
            |a, b| a < b,
        ),
    );
    row(
        "lowest available",
        &|r| {
            format!(
                "{} of {} (t = {})",
                r.lowest_available,
                r.replicas,
                secs(r.lowest_available_ms)
            )
        },
        best_of(
            &at.iter()
                .map(|r| r.map(|r| r.lowest_available))
                .collect::<Vec<_>>(),
            |a, b| a > b,
        ),
    );
    row(
        "highest total pods",
        &|r| r.highest_total.to_string(),
        best_of(
            &at.iter()
                .map(|r| r.map(|r| r.highest_total))
                .collect::<Vec<_>>(),
            |a, b| a < b,
        ),
    );
    row(
        "extra pod-seconds",
        &|r| format!("{:.1}", r.extra_pod_seconds),
        best_of(
            &at.iter()
                .map(|r| r.map(|r| (r.extra_pod_seconds * 10.0).round() as i64))
                .collect::<Vec<_>>(),
            |a, b| a < b,
        ),
    );
    row(
        "deployment syncs",
        &|r| r.syncs.to_string(),
        vec![false; at.len()],
    );
    // Under a load (world.traffic): preStop 0 vs 5 s, a grace period of 30 vs 5 s.
    if at.iter().flatten().any(|r| r.failed_requests.is_some()) {
        let failed = |r: &Rollout| r.failed_requests.as_ref().map(|f| f.count);
        row(
            "failed requests",
            &|r| {
                r.failed_requests
                    .as_ref()
                    .map_or("-".into(), FailedRequests::text)
            },
            best_of(
                &at.iter().map(|r| r.and_then(failed)).collect::<Vec<_>>(),
                |a, b| a < b,
            ),
        );
    }
    row(
        "progress deadline",
        &|r| {
            if r.deadline_exceeded {
                "exceeded"
            } else {
                "not exceeded"
            }
            .into()
        },
        best_of(
            &at.iter()
                .map(|r| r.map(|r| !r.deadline_exceeded))
                .collect::<Vec<_>>(),
            |a, b| a && !b,
        ),
    );
}

/// The comparison as text (`rollout compare`): a column per variant, the best of each row
/// marked with `*`.
pub fn render_compare(names: &[String], columns: &[Vec<Rollout>]) -> String {
    let rows = compare_rows(columns);
    if rows.is_empty() {
        return "No rollout in any variant: the run never moved the Deployment to a new ReplicaSet.\n".into();
    }
    let cell = |row: &CompareRow, i: usize| {
        format!("{}{}", row.cells[i], if row.best[i] { " *" } else { "" })
    };
    let label_w = rows
        .iter()
        .filter(|r| !r.heading)
        .map(|r| r.label.len())
        .max()
        .unwrap_or(0)
        + 2;
    let widths: Vec<usize> = (0..names.len())
        .map(|i| {
            rows.iter()
                .filter(|r| !r.heading)
                .map(|r| cell(r, i).chars().count())
                .chain([names[i].chars().count()])
                .max()
                .unwrap_or(0)
                + 3
        })
        .collect();
    let line = |label: &str, cells: Vec<String>| {
        let mut l = format!("  {label:<label_w$}");
        for (c, w) in cells.iter().zip(&widths) {
            l.push_str(&format!("{c:<w$}"));
        }
        l.trim_end().to_string() + "\n"
    };
    let mut out = line("", names.to_vec());
    for r in &rows {
        if r.heading {
            out.push_str(&format!("{}\n", r.label));
        } else {
            let mut l = line(&r.label, (0..names.len()).map(|i| cell(r, i)).collect());
            if r.differs() {
                l.replace_range(..1, "≠");
            }
            out.push_str(&l);
        }
    }
    out.push_str("(* the best of the row; ≠ a row where the variants differ)\n");
    out
}

/// One variant's rollouts (the JS API's `rolloutSummary`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantSummary {
    pub name: String,
    pub rollouts: Vec<Rollout>,
}

/// The rollouts of a scenario file, per variant (one, "as written", when it lists none).
pub fn of_scenario(text: &str) -> Result<Vec<VariantSummary>, crate::scenario::ScenarioError> {
    let s = crate::scenario::Scenario::parse(text)?;
    if s.variants.is_empty() {
        return Ok(vec![VariantSummary {
            name: "as written".into(),
            rollouts: rollouts(&s.run()?),
        }]);
    }
    s.variants
        .iter()
        .map(|v| {
            Ok(VariantSummary {
                name: v.name.clone(),
                rollouts: rollouts(&s.with_variant(v)?.run()?),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::scenario::gallery::GALLERY;

    fn trace_of(name: &str) -> Vec<TraceStep> {
        let text = GALLERY
            .iter()
            .find(|(n, _)| *n == name)
            .expect("in the gallery")
            .1;
        Scenario::parse(text).unwrap().run().unwrap()
    }

    /// The numbers, worked out by hand from each scenario's trace (and its captions).
    #[test]
    fn summaries_of_gallery_scenarios() {
        // (scenario, rollouts, lowest available, highest total, ending of the first)
        let cases: &[(&str, usize, u32, u32, Ending)] = &[
            // 10 replicas, 25%/25%: at least 8 available, at most 13 pods.
            ("rolling-update", 1, 8, 13, Ending::Complete),
            // maxSurge 0, maxUnavailable 1 over 5: never above 5, never below 4.
            ("max-surge-zero", 1, 4, 5, Ending::Complete),
            // Recreate: every old pod goes before a new one starts.
            ("recreate", 1, 0, 10, Ending::Complete),
            (
                "rolling-update-surge3-unavailable2",
                1,
                8,
                13,
                Ending::Complete,
            ),
        ];
        for &(name, n, lowest, highest, ending) in cases {
            let r = rollouts(&trace_of(name));
            assert_eq!(r.len(), n, "{name}: rollouts");
            assert_eq!(r[0].lowest_available, lowest, "{name}: lowest available");
            assert_eq!(r[0].highest_total, highest, "{name}: highest total");
            assert_eq!(r[0].ending, ending, "{name}: ending");
            assert!(!r[0].deadline_exceeded, "{name}");
            assert!(r[0].syncs > 0, "{name}");
        }
    }

    #[test]
    fn the_rolling_update_in_full() {
        let trace = trace_of("rolling-update");
        let r = &rollouts(&trace)[0];
        assert_eq!(
            r.change,
            "kubectl set image deployment/web nginx=nginx:1.16.1"
        );
        assert_eq!(r.start_ms, 10_000);
        assert_eq!(r.revision, 2);
        // Complete when Progressing turns NewReplicaSetAvailable with every replica updated
        // and available: the last new pods are ready 3 s after their creation.
        let end = trace[r.end_step].deployment.as_ref().unwrap();
        assert_eq!(progressing(end), Some(("True", "NewReplicaSetAvailable")));
        assert_eq!(end.status.available_replicas, 10);
        assert!(r.end_ms > 13_000 && r.end_ms < 20_000, "{}", r.end_ms);
        assert_eq!(r.duration_ms, r.end_ms - 10_000);
        // Extra pods: 3 above 10 from the change until old pods start going, and never
        // more; so between 0 and 3 x the duration.
        assert!(r.extra_pod_seconds > 0.0);
        assert!(r.extra_pod_seconds <= 3.0 * r.duration_ms as f64 / 1000.0);
        let text = render(&rollouts(&trace));
        assert!(text.contains("lowest available    8 of 10"), "{text}");
        assert!(text.contains("highest total pods  13"), "{text}");
    }

    #[test]
    fn a_rollout_that_hits_its_deadline_says_so() {
        let r = rollouts(&trace_of("progress-deadline-exceeded"));
        assert_eq!(r[0].ending, Ending::DeadlineExceeded);
        assert!(r[0].deadline_exceeded);
    }

    #[test]
    fn a_rollback_is_a_rollout_and_a_scale_is_not() {
        assert!(rollouts(&trace_of("scale")).is_empty());
        assert_eq!(
            render(&[]),
            "No rollout: the run never moved the Deployment to a new ReplicaSet.\n"
        );
        let r = rollouts(&trace_of("rollback-previous"));
        assert!(r.len() >= 2, "{r:#?}");
        let undo = r.last().unwrap();
        assert!(undo.change.contains("rollout undo"), "{r:#?}");
        // The broken image's rollout lasts until the undo.
        assert_eq!(r[r.len() - 2].ending, Ending::Superseded);
        assert_eq!(r[r.len() - 2].end_ms, undo.start_ms);
    }

    #[test]
    fn a_scenario_file_summarised_per_variant() {
        let one = of_scenario(crate::scenario::gallery::DEFAULT).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].rollouts[0].highest_total, 13);
        let text = format!(
            "{}variants:\n  - name: as written\n  - set: {{spec.strategy.type: Recreate}}\n",
            crate::scenario::gallery::DEFAULT
        );
        let two = of_scenario(&text).unwrap();
        assert_eq!(two[1].name, "type=Recreate");
        assert_eq!(two[1].rollouts[0].lowest_available, 0);
        let json = serde_json::to_value(&two[0]).unwrap();
        assert_eq!(json["rollouts"][0]["lowestAvailable"], 8);
        assert_eq!(json["rollouts"][0]["ending"], "complete");
        assert!(
            of_scenario("name: x\nvariants: 3\n")
                .unwrap_err()
                .to_string()
                .starts_with("variants:")
        );
    }

    #[test]
    fn guard_rails_from_the_spec() {
        // (replicas, strategy, resolved maxSurge, resolved maxUnavailable, ceiling, floor)
        let cases = [
            (10, "RollingUpdate", 3, 2, Some(13), Some(8)),
            (5, "RollingUpdate", 0, 1, Some(5), Some(4)),
            (1, "RollingUpdate", 1, 0, Some(2), Some(1)),
            (3, "Recreate", 0, 0, None, None),
        ];
        let d = trace_of("rolling-update")[0].deployment.clone().unwrap();
        for (replicas, strategy, surge, unavailable, ceiling, floor) in cases {
            let mut d = d.clone();
            d.replicas = replicas;
            d.strategy = StrategyType::of(strategy).unwrap();
            d.max_surge = surge;
            d.max_unavailable = unavailable;
            assert_eq!(guard_rails(&d), (ceiling, floor), "{replicas} {strategy}");
        }
        // The series carries them at every step, and they move when the spec does.
        let points = series(&trace_of("proportional-scaling"));
        let rails: std::collections::BTreeSet<_> =
            points.iter().map(|p| (p.ceiling, p.floor)).collect();
        assert!(rails.len() >= 2, "{rails:?}");
    }
}
