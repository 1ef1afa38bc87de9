//! The `rollout run --format table` view: what `kubectl get rs -w` would have printed (a line
//! whenever a ReplicaSet's DESIRED/CURRENT/READY changed), with the branch of every Deployment
//! sync and each user action alongside.

use crate::cluster::trace::{Body, Controller, SyncStep, TraceStep};
use crate::controller::deployment::Branch;
use std::collections::BTreeMap;

/// `steps` are owned or shared ([`crate::scenario::session::Session::trace`] shares them).
pub fn render<S: std::borrow::Borrow<TraceStep>>(steps: &[S]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:>8}  {:<28} {:>7} {:>7} {:>5}  {}\n",
        "T", "NAME", "DESIRED", "CURRENT", "READY", "WHY"
    ));
    let mut last: BTreeMap<String, (i32, i32, i32)> = BTreeMap::new();
    for s in steps {
        let s = s.borrow();
        let t = format!("{:.1}s", s.t as f64 / 1000.0);
        let why = match &s.body {
            Body::Action(a) => match (&a.command, a.errors.first()) {
                (Some(c), Some(e)) => format!("$ {c}  → {e}"),
                (Some(c), None) => format!("$ {c}"),
                (None, _) => format!("# {}", a.caption.clone().unwrap_or_default()),
            },
            Body::Sync(y) if y.controller == Controller::Deployment => {
                let mut w = format!("deployment sync: {}", y.branch.map_or("", Branch::as_str));
                if let Some(st) = y.strategy.filter(|_| y.branch == Some(Branch::Rollout)) {
                    w.push_str(&format!(" ({st})"));
                }
                if let Some(e) = &y.error {
                    w.push_str(&format!(" — error: {e}"));
                }
                w
            }
            Body::Sync(y) => format!("{} sync", y.controller.as_str()),
            Body::World(changes) => changes.join("; "),
        };
        let mut printed = false;
        for rs in &s.replica_sets {
            let now = (rs.replicas, rs.status.replicas, rs.status.ready_replicas);
            if last.get(&rs.name) != Some(&now) {
                last.insert(rs.name.clone(), now);
                out.push_str(&format!(
                    "{t:>8}  {:<28} {:>7} {:>7} {:>5}  {}\n",
                    rs.name,
                    now.0,
                    now.1,
                    now.2,
                    if printed { "" } else { &why }
                ));
                printed = true;
            }
        }
        if !printed && (s.action().is_some() || s.controller() == Some(Controller::Deployment)) {
            out.push_str(&format!(
                "{t:>8}  {:<28} {:>7} {:>7} {:>5}  {why}\n",
                "", "", "", ""
            ));
        }
    }
    out
}

/// `rollout explain`: step `i` of a trace in words, its path's links at the newest release
/// ([`explain_step_at`]).
pub fn explain_step<S: std::borrow::Borrow<TraceStep>>(steps: &[S], i: usize) -> String {
    explain_step_at(steps, i, crate::controller::release::Release::NEWEST)
}

/// `rollout explain` for a run on `release`: step `i` of a trace in words: what it was, why it
/// ran (its cause), its path through upstream's code (links at that release), the explain lines
/// with their numbers, for a ReplicaSet sync its expectations before and after and the
/// slow-start batches it created pods in, and what the work queues held. (Long: one block per
/// part of the step.)
pub fn explain_step_at<S: std::borrow::Borrow<TraceStep>>(
    steps: &[S],
    i: usize,
    release: crate::controller::release::Release,
) -> String {
    let s = steps[i].borrow();
    let mut out = vec![];
    let what = match &s.body {
        Body::Sync(y) => {
            let mut w = format!("{} sync {}", y.controller.as_str(), y.key);
            if let Some(b) = y.branch {
                w.push_str(&format!(" ({}", b.as_str()));
                if let Some(st) = y.strategy.filter(|_| b == Branch::Rollout) {
                    w.push_str(&format!(", {st}"));
                }
                w.push(')');
            }
            w
        }
        Body::Action(a) => match &a.command {
            Some(c) => format!("the command `{}`", c.lines().next().unwrap_or("")),
            None => "a caption".to_string(),
        },
        Body::World(changes) => match s.world_source() {
            "the scheduler and kubelets" => format!("the world: {}", changes.join("; ")),
            who => format!("{who}: {}", changes.join("; ")),
        },
    };
    out.push(format!(
        "step {} of {}, t = {:.1} s: {what}",
        i + 1,
        steps.len(),
        s.t as f64 / 1000.0
    ));
    if let Some(y) = s.sync() {
        sync_lines(y, release, &mut out);
    }
    out.join("\n")
}

/// What a sync's step says beyond its heading: its cause, its path through upstream's code,
/// its bookkeeping, the queues and its error.
fn sync_lines(s: &SyncStep, release: crate::controller::release::Release, out: &mut Vec<String>) {
    if let Some(c) = &s.cause {
        out.push(format!("cause: {}", cause_text(c)));
    }
    code_lines(s, release, out);
    if let Some(e) = &s.expectations {
        let one = |v: &crate::controller::replicaset::ExpectationsView| {
            format!(
                "add {}, del {}, {}",
                v.add,
                v.del,
                if v.satisfied {
                    "satisfied"
                } else {
                    "not satisfied"
                }
            )
        };
        out.push(format!(
            "expectations: before {}; after {}",
            one(&e.before),
            one(&e.after)
        ));
    }
    if !s.batches.is_empty() {
        let sizes: Vec<String> = s.batches.iter().map(usize::to_string).collect();
        out.push(format!("slow-start batches: {}", sizes.join(", ")));
    }
    if let Some(b) = s.burst_replicas {
        out.push(format!("capped by burstReplicas {b}"));
    }
    if !s.deletions.is_empty() {
        out.push("deleted, first to last (ActivePodsWithRanks: each key decides only a tie in the ones before it):".into());
        for d in &s.deletions {
            out.push(deletion_line(d));
        }
    }
    if let Some(q) = &s.queues {
        out.push("work queues when it ran:".into());
        for (name, v) in [
            ("deployment", &q.deployment),
            ("replicaset", &q.replicaset),
            ("garbagecollector", &q.garbagecollector),
        ] {
            let delayed: Vec<String> = v
                .delayed
                .iter()
                .map(|d| format!("{} at {:.1} s", d.key, d.due_ms as f64 / 1000.0))
                .collect();
            out.push(format!(
                "  {name}: processing [{}], queued [{}], delayed [{}]",
                v.processing.join(", "),
                v.queued.join(", "),
                delayed.join(", ")
            ));
        }
    }
    if let Some(e) = &s.error {
        out.push(format!("error: {e}"));
    }
}

/// A sync's path through upstream's code with the numbers each call decided, and its writes
/// (`explain_step`).
/// One deleted pod with its ranking keys; ages are told at the sync (seconds within a run,
/// kubectl's ages for a pasted state's pods).
fn deletion_line(d: &crate::controller::replicaset::Deletion) -> String {
    let age = |t: Option<crate::api::Time>| match (t, d.rank.at) {
        (Some(t), Some(at)) => {
            let ms = at.since(t) / 1_000_000;
            if ms < 60_000 {
                format!("{:.1} s", ms as f64 / 1000.0)
            } else {
                crate::api::time::human_duration(ms)
            }
        }
        _ => "-".to_string(),
    };
    let r = &d.rank;
    let cost = r
        .deletion_cost
        .map_or(String::new(), |c| format!(", deletion cost {c}"));
    format!(
        "  {}: {}, {}, {}{cost}, {} on its node, ready for {}, {} restarts, created {} before",
        d.pod,
        if r.assigned { "assigned" } else { "unassigned" },
        r.phase,
        if r.ready { "ready" } else { "not ready" },
        r.co_located,
        age(r.ready_since),
        r.restarts,
        age(r.created),
    )
}

fn code_lines(s: &SyncStep, release: crate::controller::release::Release, out: &mut Vec<String>) {
    let (rows, loose) = super::code::code_rows_at(s, release);
    if !rows.is_empty() {
        out.push(format!(
            "path through upstream's code ({}), with the numbers:",
            super::code::release_text(release)
        ));
        for r in &rows {
            let pad = "  ".repeat(usize::from(r.depth) + 1);
            out.push(format!("{pad}{}  {}", r.func, r.place_text()));
            out.extend(r.explain.iter().map(|e| format!("{pad}  = {e}")));
        }
        if !s.writes.is_empty() {
            out.push("writes, in order, each by the function that made it:".into());
            out.extend(s.writes.iter().map(|w| {
                format!(
                    "  {}  by {}",
                    super::code::write_text(w),
                    rows.get(usize::from(w.call)).map_or("?", |r| r.func)
                )
            }));
        }
    }
    if !loose.is_empty() {
        out.push("why, with the numbers:".into());
        out.extend(loose.iter().map(|(f, t)| format!("  {f}: {t}")));
    }
}

/// A sync's cause in words (the CLI's `rollout explain`, the page's branch panel).
pub fn cause_text(c: &crate::apiserver::queue::Cause) -> String {
    use crate::apiserver::queue::Cause;
    match c {
        Cause::Event {
            event,
            kind,
            object,
            handler,
        } => format!(
            "a watch event, {event} {} {object}, through {handler}",
            kind.as_str()
        ),
        Cause::After { delay_ms } => {
            format!(
                "requeued after {:.3} s (AddAfter)",
                *delay_ms as f64 / 1000.0
            )
        }
        Cause::RateLimited { delay_ms } => format!(
            "retried after an error, {:.3} s later (AddRateLimited)",
            *delay_ms as f64 / 1000.0
        ),
    }
}
