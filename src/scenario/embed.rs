//! What an embedded playground says to the page that embeds it, and what it takes from it
//! (README, "postMessage"). The types cross the JavaScript boundary through
//! serde-wasm-bindgen in the page; natively they are tested through serde_json, which reads
//! and writes the same shapes.

use super::session::Session;
use crate::cluster::trace::{Controller, StepKind};
use crate::controller::deployment::Branch;
use serde::{Deserialize, Serialize};

/// Every message an embed posts carries `"source": "rollout-playground"`.
pub const SOURCE: &str = "rollout-playground";

/// `{"source": "rollout-playground", "type": "ready", "steps": N, "scenario": name}`
#[derive(Debug, PartialEq, Serialize)]
pub struct Ready<'a> {
    pub source: &'static str,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub steps: usize,
    pub scenario: &'a str,
}

impl Ready<'_> {
    pub fn of(s: &Session) -> Ready<'_> {
        Ready {
            source: SOURCE,
            kind: "ready",
            steps: s.len(),
            scenario: &s.scenario.name,
        }
    }
}

/// `{"source": "rollout-playground", "type": "step", "step": n (from 1), "steps": N, "t": ms, "kind": …,
/// "controller": …, "branch": …, "caption": …, "replicaSets": [{"name", "revision",
/// "replicas", "ready", "available"}]}`; past the end of the run, only source, type and step.
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step<'a> {
    pub source: &'static str,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub step: usize,
    #[serde(flatten)]
    pub at: Option<StepAt<'a>>,
    /// In a comparison: where each variant is at the shared instant.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<VariantAt<'a>>,
}

/// `{"name", "step" (from 1), "t", "replicaSets"}`: a variant of a comparison at the shared
/// instant (`step` 0 and no ReplicaSets for a variant that could not run).
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VariantAt<'a> {
    pub name: &'a str,
    pub step: usize,
    pub t: u64,
    pub replica_sets: Vec<ReplicaSetAt<'a>>,
}

/// What a step of the run adds to a [`Step`] message.
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepAt<'a> {
    pub steps: usize,
    pub t: u64,
    pub kind: StepKind,
    pub controller: Option<Controller>,
    pub branch: Option<Branch>,
    pub caption: Option<&'a str>,
    pub replica_sets: Vec<ReplicaSetAt<'a>>,
}

#[derive(Debug, PartialEq, Serialize)]
pub struct ReplicaSetAt<'a> {
    pub name: &'a str,
    pub revision: i64,
    pub replicas: i32,
    pub ready: i32,
    pub available: i32,
}

fn replica_sets_at(st: &crate::cluster::trace::TraceStep) -> Vec<ReplicaSetAt<'_>> {
    st.replica_sets
        .iter()
        .map(|r| ReplicaSetAt {
            name: &r.name,
            revision: r.revision,
            replicas: r.replicas,
            ready: r.status.ready_replicas,
            available: r.status.available_replicas,
        })
        .collect()
}

impl<'a> Step<'a> {
    /// The same message with each variant of a comparison at virtual time `t`.
    pub fn with_variants(mut self, c: &'a super::compare::Comparison, t: u64) -> Step<'a> {
        self.variants = c
            .variants
            .iter()
            .zip(&c.runs)
            .map(|(v, r)| {
                let at = r.as_ref().ok().and_then(|s| {
                    let i = s.step_at_time(t);
                    Some((i, s.trace.get(i)?))
                });
                VariantAt {
                    name: &v.name,
                    step: at.map_or(0, |(i, _)| i + 1),
                    t,
                    replica_sets: at.map(|(_, st)| replica_sets_at(st)).unwrap_or_default(),
                }
            })
            .collect();
        self
    }
}

impl Step<'_> {
    pub fn of(s: &Session, pos: usize) -> Step<'_> {
        Step {
            source: SOURCE,
            kind: "step",
            // Counted from 1, as the page shows steps.
            step: pos + 1,
            at: s.trace.get(pos).map(|st| StepAt {
                steps: s.len(),
                t: st.t,
                kind: st.kind,
                controller: st.controller,
                branch: st.branch,
                caption: st.caption.as_deref(),
                replica_sets: replica_sets_at(st),
            }),
            variants: vec![],
        }
    }
}

/// `{"source": "rollout-playground", "type": "error", "message": …}`: a URL parameter the
/// embed did not understand, or a scenario the host sent that does not load.
#[derive(Debug, PartialEq, Serialize)]
pub struct ErrorMessage<'a> {
    pub source: &'static str,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub message: &'a str,
}

impl ErrorMessage<'_> {
    pub fn of(message: &str) -> ErrorMessage<'_> {
        ErrorMessage {
            source: SOURCE,
            kind: "error",
            message,
        }
    }
}

/// `{"source": "rollout-playground", "type": "height", "height": px}`: the embed's content
/// height, for a host page's snippet to size the frame.
#[derive(Debug, PartialEq, Serialize)]
pub struct Height {
    pub source: &'static str,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub height: u32,
}

/// A host page's command as it arrives: `{"type": "play"}`, `{"type": "pause"}`,
/// `{"type": "step"}`, `{"type": "seek", "step": N}`, `{"type": "load", "scenario": YAML}` or
/// `{"type": "load", "link": "v1.…"}`. Anything that does not read as one is ignored.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum HostCommand {
    Play,
    Pause,
    Step,
    Seek {
        step: f64,
    },
    Load {
        scenario: Option<String>,
        link: Option<String>,
    },
}

/// A host page's command the page acts on.
#[derive(Clone, Debug, PartialEq)]
pub enum Remote {
    Play,
    Pause,
    Step,
    Seek(usize),
    /// A scenario file or a share link.
    Load(String),
}

impl HostCommand {
    /// The command, when its values make sense: a step that is a whole number or more, a
    /// scenario no larger than a link may decode to.
    pub fn remote(self) -> Option<Remote> {
        match self {
            HostCommand::Play => Some(Remote::Play),
            HostCommand::Pause => Some(Remote::Pause),
            HostCommand::Step => Some(Remote::Step),
            HostCommand::Seek { step } => {
                (step.is_finite() && step >= 1.0).then(|| Remote::Seek(step as usize - 1))
            }
            HostCommand::Load { scenario, link } => scenario
                .or(link)
                .filter(|s| s.len() <= super::share::MAX_DECODED_BYTES)
                .map(Remote::Load),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::scenario::gallery::GALLERY;
    use serde_json::json;

    fn command(v: serde_json::Value) -> Option<Remote> {
        serde_json::from_value::<HostCommand>(v)
            .ok()
            .and_then(HostCommand::remote)
    }

    #[test]
    fn host_commands_of_the_wrong_shape_are_ignored() {
        for bad in [
            json!(null),
            json!("play"),
            json!(42),
            json!({"type": 42}),
            json!({"type": "seek", "step": -1}),
            json!({"type": "seek", "step": 0}),
            json!({"type": "seek", "step": "x"}),
            json!({"type": "load", "scenario": 7}),
            json!({"type": "load"}),
            json!({"type": "nope"}),
        ] {
            assert_eq!(command(bad.clone()), None, "{bad}");
        }
        assert_eq!(command(json!({"type": "play"})), Some(Remote::Play));
        assert_eq!(
            command(json!({"type": "seek", "step": 5})),
            Some(Remote::Seek(4)),
            "steps count from 1"
        );
        assert_eq!(
            command(json!({"type": "load", "link": "v1.x"})),
            Some(Remote::Load("v1.x".into()))
        );
    }

    #[test]
    fn messages_read_as_the_readme_shows_them() {
        let s = Session::new(Scenario::parse(GALLERY[0].1).unwrap()).unwrap();
        let ready = serde_json::to_value(Ready::of(&s)).unwrap();
        assert_eq!(
            ready,
            json!({"source": SOURCE, "type": "ready", "steps": s.len(), "scenario": s.scenario.name})
        );
        let step = serde_json::to_value(Step::of(&s, 0)).unwrap();
        assert_eq!(step["step"], 1, "steps count from 1");
        let keys: Vec<&str> = step
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(
            keys,
            [
                "source",
                "type",
                "step",
                "steps",
                "t",
                "kind",
                "controller",
                "branch",
                "caption",
                "replicaSets"
            ]
        );
        let past = serde_json::to_value(Step::of(&s, s.len())).unwrap();
        assert_eq!(
            past,
            json!({"source": SOURCE, "type": "step", "step": s.len() + 1})
        );
    }
}
