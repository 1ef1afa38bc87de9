//! The path a sync takes through upstream's code: the functions it ran, in call order, each
//! with its depth under the sync's handler. The controllers mark each upstream function they
//! reproduce as they enter it ([`CallLog::enter`]); the trace carries the list, and
//! [`upstream`](super::upstream) gives each name its file and lines at the release tag.
//!
//! A frame is a guard rather than a pair of calls so that an early return (`?`, a rung of
//! `syncDeployment`'s ladder) leaves the function in the log as it leaves it in the code.

use crate::apiserver::store::Request;
use serde::ser::{SerializeMap, Serializer};
use std::cell::RefCell;
use std::rc::Rc;

pub use super::upstream::Scope;

/// One upstream function a sync ran, at `depth` under the sync's handler (0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    pub scope: Scope,
    pub func: &'static str,
    pub depth: u8,
}

impl serde::Serialize for Call {
    /// `{"fn", "file", "line", "end", "depth"}` (simulation.md §3): the place comes from the
    /// data file, so the trace says where to read each function without storing it per call.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let at = super::upstream::find(self.scope, self.func);
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("fn", self.func)?;
        if let Some(f) = at {
            m.serialize_entry("file", f.file)?;
            m.serialize_entry("line", &f.line)?;
            m.serialize_entry("end", &f.end)?;
        }
        m.serialize_entry("depth", &self.depth)?;
        m.end()
    }
}

/// One write a sync made (a client call that changes the store), and the call that made it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Write {
    /// `create`, `update` or `delete`, as the client calls it.
    pub verb: &'static str,
    /// `deployments`, `replicasets` or `pods`, with `/status` for the status subresource.
    #[serde(serialize_with = "resource")]
    pub resource: (&'static str, &'static str),
    pub name: String,
    /// The index, among the sync's calls, of the function that made it.
    pub call: u16,
    /// Why the apiserver refused it (nothing was written), when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// A write's resource as the client names it (`replicasets/status`).
pub fn resource_text((resource, sub): (&str, &str)) -> String {
    if sub.is_empty() {
        resource.to_string()
    } else {
        format!("{resource}/{sub}")
    }
}

fn resource<S: Serializer>(r: &(&'static str, &'static str), s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&resource_text(*r))
}

#[derive(Default)]
struct Log {
    scope: Scope,
    calls: Vec<Call>,
    /// The calls entered and not yet returned, innermost last.
    open: Vec<u16>,
    writes: Vec<Write>,
}

/// Where a sync's calls go: nowhere in a run that records no steps (the benchmark's timed
/// run), so marking a function costs one branch there.
#[derive(Clone, Default)]
pub struct CallLog(Option<Rc<RefCell<Log>>>);

impl CallLog {
    /// A log that keeps the calls of one controller's code.
    pub fn recording(scope: Scope) -> CallLog {
        CallLog(Some(Rc::new(RefCell::new(Log {
            scope,
            ..Log::default()
        }))))
    }

    /// Whether this log keeps calls.
    pub fn is_recording(&self) -> bool {
        self.0.is_some()
    }

    /// Marks `func` as entered; the functions entered before the frame drops are its callees.
    #[must_use = "the frame ends the call when it drops"]
    pub fn enter(&self, func: &'static str) -> Frame {
        if let Some(log) = &self.0 {
            let mut l = log.borrow_mut();
            let (scope, depth) = (l.scope, l.open.len() as u8);
            let at = l.calls.len() as u16;
            l.calls.push(Call { scope, func, depth });
            l.open.push(at);
        }
        Frame(self.0.clone())
    }

    /// Marks a call to `func` that calls nothing this log follows (a pure helper).
    pub fn leaf(&self, func: &'static str) {
        if let Some(log) = &self.0 {
            let mut l = log.borrow_mut();
            let (scope, depth) = (l.scope, l.open.len() as u8);
            l.calls.push(Call { scope, func, depth });
        }
    }

    /// An explain line of the latest call of `func` (the one running, or the last to return).
    pub fn explain(&self, func: &str, text: impl Into<String>) -> super::Explain {
        let mut e = super::Explain::new(func, text);
        if let Some(log) = &self.0 {
            let l = log.borrow();
            e.call = l
                .calls
                .iter()
                .rposition(|c| c.func == func)
                .map(|i| i as u16);
        }
        e
    }

    /// Notes a write the store took (or refused), made by the innermost call still running.
    pub fn wrote(&self, r: &Request) {
        if let Some(log) = &self.0 {
            let mut l = log.borrow_mut();
            let Some(&call) = l.open.last() else {
                return;
            };
            l.writes.push(Write {
                verb: r.verb,
                resource: (r.resource, r.subresource),
                name: r.name.to_string(),
                call,
                refused: r.refused.map(ToString::to_string),
            });
        }
    }

    /// The calls and writes since the last take.
    pub fn take(&self) -> (Vec<Call>, Vec<Write>) {
        self.0
            .as_ref()
            .map(|l| {
                let mut l = l.borrow_mut();
                (std::mem::take(&mut l.calls), std::mem::take(&mut l.writes))
            })
            .unwrap_or_default()
    }
}

/// Which explain lines belong to which call: each line to the call it was written in, else
/// to the first call of its function; `.1` holds the lines of a function the path does not
/// show.
pub fn attach(calls: &[Call], explain: &[super::Explain]) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut per_call = vec![vec![]; calls.len()];
    let mut loose = vec![];
    for (i, e) in explain.iter().enumerate() {
        let at = e
            .call
            .map(usize::from)
            .filter(|&c| c < calls.len() && calls[c].func == e.func)
            .or_else(|| calls.iter().position(|c| c.func == e.func));
        match at {
            Some(c) => per_call[c].push(i),
            None => loose.push(i),
        }
    }
    (per_call, loose)
}

/// An entered function; dropping it returns to its caller's depth.
pub struct Frame(Option<Rc<RefCell<Log>>>);

impl Drop for Frame {
    fn drop(&mut self) {
        if let Some(log) = &self.0 {
            log.borrow_mut().open.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(
        log: &CallLog,
        verb: &'static str,
        resource: &'static str,
        sub: &'static str,
        name: &str,
    ) {
        log.wrote(&Request {
            verb,
            resource,
            subresource: sub,
            name,
            refused: None,
        });
    }

    fn inner(log: &CallLog, fail: bool) -> Result<(), ()> {
        let _f = log.enter("reconcileNewReplicaSet");
        log.leaf("NewRSNewReplicas");
        if fail {
            return Err(());
        }
        let _g = log.enter("scaleReplicaSetAndRecordEvent");
        log.leaf("scaleReplicaSet");
        write(log, "update", "replicasets", "", "web-1");
        Ok(())
    }

    #[test]
    fn a_write_belongs_to_the_innermost_call_running() {
        let log = CallLog::recording(Scope::Deployment);
        {
            let _f = log.enter("syncRolloutStatus");
            log.leaf("calculateStatus");
            write(&log, "update", "deployments", "status", "web");
        }
        let _ = inner(&log, false);
        let (calls, writes) = log.take();
        let by: Vec<(&str, String)> = writes
            .iter()
            .map(|w| (calls[usize::from(w.call)].func, resource_text(w.resource)))
            .collect();
        assert_eq!(
            by,
            [
                ("syncRolloutStatus", "deployments/status".to_string()),
                ("scaleReplicaSetAndRecordEvent", "replicasets".to_string())
            ]
        );
    }

    #[test]
    fn frames_give_depths_and_an_early_return_leaves_the_function() {
        let log = CallLog::recording(Scope::Deployment);
        {
            let _f = log.enter("rolloutRolling");
            let _ = inner(&log, true);
            let _ = inner(&log, false);
            log.leaf("syncRolloutStatus");
        }
        log.leaf("after");
        let (calls, _) = log.take();
        let got: Vec<(&str, u8)> = calls.iter().map(|c| (c.func, c.depth)).collect();
        assert_eq!(
            got,
            [
                ("rolloutRolling", 0),
                ("reconcileNewReplicaSet", 1),
                ("NewRSNewReplicas", 2),
                ("reconcileNewReplicaSet", 1),
                ("NewRSNewReplicas", 2),
                ("scaleReplicaSetAndRecordEvent", 2),
                ("scaleReplicaSet", 3),
                ("syncRolloutStatus", 1),
                ("after", 0),
            ]
        );
        assert!(log.take().0.is_empty(), "taken once");
    }

    #[test]
    fn a_log_that_does_not_record_keeps_nothing() {
        let log = CallLog::default();
        let _f = log.enter("syncDeployment");
        log.leaf("getReplicaSetsForDeployment");
        write(&log, "update", "deployments", "status", "web");
        assert_eq!(log.take(), (vec![], vec![]));
    }
}
