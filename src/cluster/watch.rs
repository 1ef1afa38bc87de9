//! A client's watch on one Deployment, kept the way `kubectl rollout status` keeps it: the
//! command lists the Deployment, prints kubectl's status line for it, and then prints one
//! more line for every `Added`/`Modified` watch event of that Deployment (repeats included,
//! as kubectl's do) until the rollout is done, the status viewer returns an error (the
//! progress deadline, a revision that moved), the Deployment is deleted, or `--timeout`
//! passes. The cluster feeds the watch from the same event stream its informers read, so the
//! lines fall at the virtual instants kubectl would have printed them.

use crate::api::Deployment;
use crate::apiserver::store::WatchRef;
use crate::controller::deployment::util as du;
use serde::Serialize;

/// kubectl's `DeploymentStatusViewer.Status`: the line to print and whether the rollout is
/// done, or the error that ends the watch. `revision` > 0 pins the revision
/// (`--revision`).
pub fn status_viewer(d: &Deployment, revision: i64) -> Result<(String, bool), String> {
    let n = &d.metadata.name;
    if revision > 0 {
        let current = du::revision(&d.metadata)
            .map_err(|e| format!("cannot get the revision of deployment \"{n}\": {e}"))?;
        if current != revision {
            return Err(format!(
                "desired revision ({revision}) is different from the running revision ({current})"
            ));
        }
    }
    let s = &d.status;
    if d.metadata.generation > s.observed_generation {
        return Ok((
            "Waiting for deployment spec update to be observed...".to_string(),
            false,
        ));
    }
    if du::get_deployment_condition(s, du::PROGRESSING)
        .is_some_and(|c| c.reason == du::TIMED_OUT_REASON)
    {
        return Err(format!("deployment \"{n}\" exceeded its progress deadline"));
    }
    let want = d.replicas();
    let line = if s.updated_replicas < want {
        format!(
            "Waiting for deployment \"{n}\" rollout to finish: {} out of {want} new replicas have been updated...",
            s.updated_replicas
        )
    } else if s.replicas > s.updated_replicas {
        format!(
            "Waiting for deployment \"{n}\" rollout to finish: {} old replicas are pending termination...",
            s.replicas - s.updated_replicas
        )
    } else if s.available_replicas < s.updated_replicas {
        format!(
            "Waiting for deployment \"{n}\" rollout to finish: {} of {} updated replicas are available...",
            s.available_replicas, s.updated_replicas
        )
    } else {
        return Ok((format!("deployment \"{n}\" successfully rolled out"), true));
    };
    Ok((line, false))
}

/// What `wait.ErrWaitTimeout` prints when `--timeout` passes.
pub const TIMED_OUT: &str = "timed out waiting for the condition";

/// One line the watch printed, at its virtual instant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WatchLine {
    pub t: u64,
    pub text: String,
}

/// How a watch ended: when, and with which error (none when the rollout finished).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WatchEnd {
    pub t: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a watching command printed after its first line, each line at its instant, and how it
/// ended (absent while it still waited when the run stopped): carried on the command's step.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WatchLog {
    pub lines: Vec<WatchLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<WatchEnd>,
}

/// A `kubectl rollout status` still running (or ended) on the cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutWatch {
    /// The Deployment's `namespace/name`.
    pub key: String,
    revision: i64,
    /// The virtual instant `--timeout` ends the watch, if one was given.
    deadline_ms: Option<u64>,
    /// The resourceVersion the command listed: events at or below it were seen already.
    seen_rv: u64,
    /// The trace step whose output the lines extend (the action step that ran the command).
    pub step: Option<usize>,
    /// Lines printed after the first (which the command itself printed).
    pub lines: Vec<WatchLine>,
    pub end: Option<WatchEnd>,
}

impl RolloutWatch {
    /// A watch that starts from `d` as the command listed it, at `now_ms`.
    pub fn new(d: &Deployment, revision: i64, timeout_ms: Option<u64>, now_ms: u64) -> Self {
        RolloutWatch {
            key: d.metadata.key().to_string(),
            revision,
            deadline_ms: timeout_ms.map(|t| now_ms + t),
            seen_rv: d.metadata.resource_version.parse().unwrap_or(0),
            step: None,
            lines: vec![],
            end: None,
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
        match status_viewer(d, self.revision) {
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
        true
    }
}
