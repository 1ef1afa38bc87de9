//! What an embedded playground says to the page that embeds it, and what it takes from it
//! (README, "postMessage"). The types cross the JavaScript boundary through
//! serde-wasm-bindgen in the page; natively they are tested through serde_json, which reads
//! and writes the same shapes.

use super::session::Session;
use crate::cluster::trace::{Controller, StepKind};
use crate::controller::deployment::Branch;
use serde::{Deserialize, Serialize};

/// How long an autoplaying embed shows a caption before it plays on (real ms): time to read it.
/// The page's playback holds this long, and a film says it on the step for the element.
pub fn reading_ms(caption: Option<&str>) -> f64 {
    let chars = caption.map_or(0, |c| c.chars().count()) as f64;
    (2000.0 + 50.0 * chars).min(15_000.0)
}

/// Every message an embed posts carries `"source": "rollout-playground"`.
pub const SOURCE: &str = "rollout-playground";

/// `{"source": "rollout-playground", "type": "ready", "steps": N, "scenario": name, "version":
/// the playground's release}` (a host can tell which release a pinned embed runs).
#[derive(Debug, PartialEq, Serialize)]
pub struct Ready<'a> {
    pub source: &'static str,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub steps: usize,
    pub scenario: &'a str,
    pub version: &'static str,
}

impl Ready<'_> {
    pub fn of(s: &Session) -> Ready<'_> {
        Ready {
            source: SOURCE,
            kind: "ready",
            steps: s.len(),
            scenario: &s.scenario.name,
            version: super::share::VERSION,
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
                kind: st.kind(),
                controller: st.controller(),
                branch: st.branch(),
                caption: st.caption(),
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

/// The most a frame may be made tall by an embed's `height` message (a runaway page cannot
/// make its host scroll forever); `rollout-playground.js` keeps the same bound.
pub const MAX_HEIGHT: u32 = 4000;

/// The height an embed's message asks its frame for, if it is a `height` message: at most
/// [`MAX_HEIGHT`], never 0.
pub fn asked_height(data: &serde_json::Value) -> Option<u32> {
    if data.get("source")?.as_str()? != SOURCE || data.get("type")?.as_str()? != "height" {
        return None;
    }
    let h = data.get("height")?.as_f64()?;
    (h >= 1.0).then(|| (h.min(MAX_HEIGHT as f64)) as u32)
}

/// A host page's command as it arrives: `{"type": "play"}`, `{"type": "pause"}`,
/// `{"type": "step"}`, `{"type": "seek", "step": N}`, `{"type": "load", "scenario": YAML}`,
/// `{"type": "load", "link": "v1.…"}` or `{"type": "theme", "theme": "light" | "dark"}` (a
/// site's own theme toggle, followed live).
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
    Theme {
        theme: String,
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
    /// Dark (`true`) or light.
    Theme(bool),
}

/// What a message from the embedding page is to the playground.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// Not one of the commands the API documents (another script's message): ignored.
    NotOurs,
    /// One of them, with values that do not make sense: answered with an `error` message.
    Refused(String),
    Command(Remote),
}

/// The `type`s the API documents.
const TYPES: [&str; 6] = ["play", "pause", "step", "seek", "load", "theme"];

/// Reads a message's data (as JSON): a command when its values make sense (a step that is a
/// whole number from 1, a scenario no larger than a link may decode to), a refusal naming
/// what is wrong when they do not, and nothing when it is not a command at all.
pub fn hear(data: &serde_json::Value) -> Heard {
    let Some(kind) = data.get("type").and_then(|t| t.as_str()) else {
        return Heard::NotOurs;
    };
    if !TYPES.contains(&kind) {
        return Heard::NotOurs;
    }
    let command = match HostCommand::deserialize(data) {
        Ok(c) => c,
        Err(e) => return Heard::Refused(format!("{kind}: {e}")),
    };
    match command {
        HostCommand::Play => Heard::Command(Remote::Play),
        HostCommand::Pause => Heard::Command(Remote::Pause),
        HostCommand::Step => Heard::Command(Remote::Step),
        HostCommand::Seek { step } if step.is_finite() && step >= 1.0 && step.fract() == 0.0 => {
            Heard::Command(Remote::Seek(step as usize - 1))
        }
        HostCommand::Seek { step } => Heard::Refused(format!(
            "seek: step must be a whole number from 1 (steps count from 1), got {step}"
        )),
        HostCommand::Load { scenario, link } => match scenario.or(link) {
            None => Heard::Refused(
                "load: give scenario (a scenario file's text) or link (a share link)".into(),
            ),
            Some(s) if s.len() > super::share::MAX_DECODED_BYTES => Heard::Refused(format!(
                "load: the scenario is {} bytes, more than the {} a scenario may have",
                s.len(),
                super::share::MAX_DECODED_BYTES
            )),
            Some(s) => Heard::Command(Remote::Load(s)),
        },
        HostCommand::Theme { theme } => match theme.as_str() {
            "dark" => Heard::Command(Remote::Theme(true)),
            "light" => Heard::Command(Remote::Theme(false)),
            other => Heard::Refused(format!(
                "theme: theme must be \"light\" or \"dark\", got {other:?}"
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::scenario::gallery::GALLERY;
    use serde_json::json;

    #[test]
    fn a_height_message_sizes_a_frame_within_bounds() {
        let m = |h: serde_json::Value| json!({"source": "rollout-playground", "type": "height", "height": h});
        assert_eq!(asked_height(&m(json!(612))), Some(612));
        assert_eq!(asked_height(&m(json!(612.6))), Some(612));
        assert_eq!(asked_height(&m(json!(90000))), Some(MAX_HEIGHT));
        assert_eq!(asked_height(&m(json!(0))), None);
        assert_eq!(asked_height(&m(json!("612"))), None);
        assert_eq!(
            asked_height(&json!({"source": "elsewhere", "type": "height", "height": 612})),
            None
        );
        assert_eq!(
            asked_height(&json!({"source": "rollout-playground", "type": "step", "height": 612})),
            None
        );
    }

    #[test]
    fn host_messages_are_commands_refusals_or_not_ours() {
        for other in [
            json!(null),
            json!("play"),
            json!(42),
            json!({"type": 42}),
            json!({"type": "nope"}),
            json!({"source": "rollout-playground", "type": "ready"}),
        ] {
            assert_eq!(hear(&other), Heard::NotOurs, "{other}");
        }
        for (bad, why) in [
            (
                json!({"type": "seek", "step": -1}),
                "seek: step must be a whole number from 1",
            ),
            (json!({"type": "seek", "step": 0}), "seek: step must be"),
            (json!({"type": "seek", "step": 1.5}), "seek: step must be"),
            (
                json!({"type": "seek", "step": "x"}),
                "seek: invalid type: string \"x\"",
            ),
            (json!({"type": "seek"}), "seek: missing field `step`"),
            (
                json!({"type": "load", "scenario": 7}),
                "load: invalid type: integer `7`",
            ),
            (json!({"type": "load"}), "load: give scenario"),
            (
                json!({"type": "theme", "theme": "blue"}),
                "theme: theme must be \"light\" or \"dark\", got \"blue\"",
            ),
            (json!({"type": "theme"}), "theme: missing field `theme`"),
            (
                json!({"type": "load", "scenario": "a".repeat(crate::scenario::share::MAX_DECODED_BYTES + 1)}),
                "load: the scenario is 262145 bytes, more than the 262144",
            ),
        ] {
            match hear(&bad) {
                Heard::Refused(m) => assert!(m.starts_with(why), "{bad}: {m}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
        assert_eq!(hear(&json!({"type": "play"})), Heard::Command(Remote::Play));
        assert_eq!(
            hear(&json!({"type": "theme", "theme": "dark"})),
            Heard::Command(Remote::Theme(true))
        );
        assert_eq!(
            hear(&json!({"type": "theme", "theme": "light"})),
            Heard::Command(Remote::Theme(false))
        );
        assert_eq!(
            hear(&json!({"type": "seek", "step": 5})),
            Heard::Command(Remote::Seek(4)),
            "steps count from 1"
        );
        assert_eq!(
            hear(&json!({"type": "load", "link": "v1.x"})),
            Heard::Command(Remote::Load("v1.x".into()))
        );
    }

    #[test]
    fn messages_read_as_the_readme_shows_them() {
        let s = Session::new(Scenario::parse(GALLERY[0].1).unwrap()).unwrap();
        let ready = serde_json::to_value(Ready::of(&s)).unwrap();
        assert_eq!(
            ready,
            json!({"source": SOURCE, "type": "ready", "steps": s.len(), "scenario": s.scenario.name, "version": env!("CARGO_PKG_VERSION")})
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
