//! What a watching client prints after its command, as a trace step carries it: each line at
//! its virtual instant, and how the watch ended (the clients themselves are kubectl's:
//! `kubectl/watcher.rs`, `kubectl/drainer.rs`).

use serde::Serialize;

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
