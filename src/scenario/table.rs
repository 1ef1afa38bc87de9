//! The `rollout run --format table` view: what `kubectl get rs -w` would have printed (a line
//! whenever a ReplicaSet's DESIRED/CURRENT/READY changed), with the branch of every Deployment
//! sync and each user action alongside.

use crate::cluster::trace::{Controller, StepKind, TraceStep};
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
        let why = match s.kind {
            StepKind::Action => match (&s.command, s.errors.first()) {
                (Some(c), Some(e)) => format!("$ {c}  → {e}"),
                (Some(c), None) => format!("$ {c}"),
                (None, _) => format!("# {}", s.caption.clone().unwrap_or_default()),
            },
            StepKind::Sync if s.controller == Some(Controller::Deployment) => {
                let mut w = format!("deployment sync: {}", s.branch.map_or("", Branch::as_str));
                if let Some(st) = s
                    .strategy
                    .as_deref()
                    .filter(|_| s.branch == Some(Branch::Rollout))
                {
                    w.push_str(&format!(" ({st})"));
                }
                if let Some(e) = &s.error {
                    w.push_str(&format!(" — error: {e}"));
                }
                w
            }
            StepKind::Sync => format!("{} sync", s.controller.map_or("", Controller::as_str)),
            _ => s.changes.join("; "),
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
        if !printed
            && (s.kind == StepKind::Action
                || (s.kind == StepKind::Sync && s.controller == Some(Controller::Deployment)))
        {
            out.push_str(&format!(
                "{t:>8}  {:<28} {:>7} {:>7} {:>5}  {why}\n",
                "", "", "", ""
            ));
        }
    }
    out
}
