//! A client's watch on one Deployment (the hook `kubectl rollout status` uses): the client
//! listed the Deployment and printed its first line; the watch then prints what its
//! [`Viewer`] says of every `Added`/`Modified` watch event of that Deployment (repeats
//! included, as kubectl's are) until the viewer says it is done or returns an error, the
//! Deployment is deleted, or the deadline (`--timeout`) passes. The cluster feeds the watch
//! from the same event stream its informers read (`cluster::client`), so the lines fall at
//! the virtual instants the client would have printed them.

use crate::api::Deployment;
use crate::apiserver::store::{Store, WatchRef};
use crate::cluster::client::{Client, ClientCx, Step};
use crate::cluster::trace::ActionStep;
use crate::cluster::watch::{TIMED_OUT, WatchEnd, WatchLine};

/// What a watching client makes of each new version of the Deployment it watches: the line to
/// print and whether it is done, or the error that ends the watch (kubectl's rollout status
/// viewer is one: `crate::kubectl::rollout::status_viewer`). It is given the watch's
/// `revision` (`--revision`; 0 for any).
pub type Viewer = fn(&Deployment, i64) -> Result<(String, bool), String>;

/// A watching client still running (or ended) on the cluster.
#[derive(Clone, Debug)]
pub struct Watch {
    /// The Deployment's `namespace/name`.
    pub key: String,
    viewer: Viewer,
    revision: i64,
    /// The virtual instant `--timeout` ends the watch, if one was given.
    deadline_ms: Option<u64>,
    /// `--timeout` itself: each Deployment in turn gets the whole of it.
    timeout_ms: Option<u64>,
    /// The Deployments the command named after this one (`namespace/name`), watched in turn
    /// once this one's watch ends, as kubectl visits them.
    pub then: Vec<String>,
    /// Errors the command met before (and among) the watched Deployments, printed when the
    /// last watch ends, as kubectl's aggregate is.
    pub errors: Vec<String>,
    /// The resourceVersion the command listed: events at or below it were seen already.
    seen_rv: u64,
    /// The trace step whose output the lines extend (the action step that ran the command).
    pub step: Option<usize>,
    /// Lines printed after the first (which the command itself printed).
    pub lines: Vec<WatchLine>,
    /// How many of them the trace has been given.
    printed: usize,
    pub end: Option<WatchEnd>,
}

impl Watch {
    /// A watch that starts from `d` as the command listed it, at `now_ms`.
    pub fn new(
        d: &Deployment,
        viewer: Viewer,
        revision: i64,
        timeout_ms: Option<u64>,
        now_ms: u64,
    ) -> Self {
        Watch {
            key: d.metadata.key().to_string(),
            viewer,
            revision,
            deadline_ms: timeout_ms.map(|t| now_ms + t),
            timeout_ms,
            then: vec![],
            errors: vec![],
            seen_rv: d.metadata.resource_version.parse().unwrap_or(0),
            step: None,
            lines: vec![],
            printed: 0,
            end: None,
        }
    }

    /// After one Deployment's watch ended, the next the command named: its first line, then a
    /// watch on it unless it is done already; and so on. `get` reads a Deployment from the
    /// store. When the last has ended, the errors met on the way end the whole.
    pub fn next<'d>(&mut self, get: impl Fn(&str) -> Option<&'d Deployment>, now_ms: u64) {
        while let Some(end) = self.end.take() {
            self.errors.extend(end.error);
            if self.then.is_empty() {
                self.end = Some(WatchEnd {
                    t: end.t,
                    error: match self.errors.len() {
                        0 => None,
                        // One error alone is printed as kubectl's CheckErr prints it.
                        1 => Some(self.errors[0].clone()),
                        _ => Some(self.errors.join("\n")),
                    },
                });
                return;
            }
            let key = self.then.remove(0);
            let Some(d) = get(&key) else {
                let name = key.rsplit('/').next().unwrap_or(&key);
                self.end = Some(WatchEnd {
                    t: now_ms,
                    error: Some(format!(
                        "Error from server (NotFound): deployments.apps \"{name}\" not found"
                    )),
                });
                continue;
            };
            self.key = key;
            self.seen_rv = d.metadata.resource_version.parse().unwrap_or(0);
            self.deadline_ms = self.timeout_ms.map(|t| now_ms + t);
            self.view(d, now_ms);
        }
    }

    /// Ends the watch at its deadline if the deadline has passed by `now_ms`.
    pub fn expire(&mut self, now_ms: u64) -> bool {
        match self.deadline_ms {
            Some(d) if self.end.is_none() && d <= now_ms => {
                self.end = Some(WatchEnd {
                    t: d,
                    error: Some(TIMED_OUT.into()),
                });
                true
            }
            _ => false,
        }
    }

    /// Feeds one watch event at `now_ms`; returns whether the watch printed or ended.
    pub fn feed(&mut self, ev: WatchRef<'_>, now_ms: u64) -> bool {
        if self.end.is_some() {
            return false;
        }
        let (d, deleted) = match ev {
            WatchRef::Added(crate::api::Object::Deployment(d))
            | WatchRef::Modified {
                new: crate::api::Object::Deployment(d),
                ..
            } => (d, false),
            WatchRef::Deleted(crate::api::Object::Deployment(d)) => (d, true),
            _ => return false,
        };
        if *d.metadata.key() != *self.key {
            return false;
        }
        // An event at or after the deadline is never delivered: the context ended first.
        if self.expire(now_ms) {
            return true;
        }
        if deleted {
            self.end = Some(WatchEnd {
                t: now_ms,
                error: Some("object has been deleted".into()),
            });
            return true;
        }
        let rv = d.metadata.resource_version.parse().unwrap_or(0);
        if rv <= self.seen_rv {
            return false;
        }
        self.seen_rv = rv;
        self.view(d, now_ms);
        true
    }

    /// What the viewer says of `d` at `now_ms`: a line, and the end when it is done or fails.
    fn view(&mut self, d: &Deployment, now_ms: u64) {
        match (self.viewer)(d, self.revision) {
            Ok((text, done)) => {
                self.lines.push(WatchLine { t: now_ms, text });
                if done {
                    self.end = Some(WatchEnd {
                        t: now_ms,
                        error: None,
                    });
                }
            }
            Err(e) => {
                self.end = Some(WatchEnd {
                    t: now_ms,
                    error: Some(e),
                })
            }
        }
    }
}

impl Client for Watch {
    fn boxed_clone(&self) -> Box<dyn Client> {
        Box::new(self.clone())
    }

    fn saw(&mut self, cx: &mut ClientCx<'_, '_>, ev: WatchRef<'_>) {
        let now = cx.now_ms();
        if self.feed(ev, now) {
            let store = &*cx.cx.store;
            self.next(|key| store.deployment(key), now);
        }
    }

    /// A watch sets no timers: its `--timeout` is looked at as events come
    /// ([`Watch::feed`]) and when the run ends ([`Client::expire`]).
    fn timer(&mut self, _: &mut ClientCx<'_, '_>, _: &str, _: Step) {}

    fn idle(&self, _: &Store, _: &str, _: Step) -> bool {
        true
    }

    fn expire(&mut self, store: &Store, now_ms: u64) {
        if Watch::expire(self, now_ms) {
            self.next(|key| store.deployment(key), now_ms);
        }
    }

    fn print_onto(&mut self, s: Option<&mut ActionStep>) {
        let new = self.printed..self.lines.len();
        self.printed = self.lines.len();
        let Some(s) = s.filter(|_| !new.is_empty() || self.end.is_some()) else {
            return;
        };
        let out = s.output.get_or_insert_with(String::new);
        let log = s.watch.get_or_insert_with(Default::default);
        for l in &self.lines[new] {
            out.push('\n');
            out.push_str(&l.text);
            log.lines.push(l.clone());
        }
        if let Some(end) = &self.end {
            if let Some(e) = &end.error {
                // kubectl's CheckErr: a Go error alone gets `error: `; an apiserver error and
                // several errors (one a line) are printed as they are.
                if e.starts_with("Error from server") || e.contains('\n') {
                    s.errors.push(e.clone());
                } else {
                    s.errors.push(format!("error: {e}"));
                }
            }
            log.end = Some(end.clone());
        }
    }

    fn ended(&self) -> bool {
        self.end.is_some()
    }

    fn step(&mut self) -> &mut Option<usize> {
        &mut self.step
    }
}
