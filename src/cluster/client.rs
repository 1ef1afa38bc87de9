//! The seam for the clients that go on after their command returned: a `kubectl rollout
//! status` that watches a Deployment, a `kubectl drain` that waits for its evictions. kubectl
//! implements them (`kubectl/watcher.rs`, `kubectl/drainer.rs`); the cluster holds them while
//! they run, hands each the watch events and its own timers, and writes what they print onto
//! the step of the command that started them, each line at its virtual instant.

use super::Due;
use super::trace::{ActionStep, TraceStep};
use crate::api::Str;
use crate::apiserver::store::{Store, WatchRef};
use crate::controller::actor::Cx;

/// A client's timers: kubectl's wait loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Ask again for what was refused (an eviction a budget refused; the key is the pod's).
    Retry,
    /// The poll that finds what it waits for (an evicted pod gone; the key is the pod's).
    Poll,
    /// `--timeout` ends (the key is what it bounds: a drained node's).
    Deadline,
}

/// What a client works with when it acts.
pub struct ClientCx<'c, 'a> {
    pub cx: &'c mut Cx<'a, Due>,
    /// Whether a trace is kept (its notes are spelled only then).
    pub recording: bool,
    /// What it did that kubectl does not print (a refused eviction's cause), for the trace.
    pub notes: &'c mut Vec<String>,
    /// The client's id, which names its timers.
    id: u32,
}

impl ClientCx<'_, '_> {
    /// Sets one of the client's timers, due at `at_ms`, about the object `key` (`uid`).
    pub fn at(&mut self, at_ms: u64, key: Str, uid: Str, step: Step) {
        self.cx.at(at_ms, key, uid, Due::Client(self.id, step));
    }

    pub fn now_ms(&self) -> u64 {
        self.cx.now_ms()
    }
}

/// A client still running on the cluster.
pub trait Client {
    /// A copy of it (for a copy of the world).
    fn boxed_clone(&self) -> Box<dyn Client>;
    /// A watch event, as its watch delivers it.
    fn saw(&mut self, cx: &mut ClientCx<'_, '_>, ev: WatchRef<'_>);
    /// One of its timers is due (`key`: the object it is about).
    fn timer(&mut self, cx: &mut ClientCx<'_, '_>, key: &str, step: Step);
    /// Whether its timer would change nothing (the run may count as settled with it due).
    fn idle(&self, store: &Store, key: &str, step: Step) -> bool;
    /// The run ends at `now_ms`: a `--timeout` passed with no event to wake it ends now.
    fn expire(&mut self, store: &Store, now_ms: u64);
    /// Writes what it printed since it was last asked onto `s`, its command's step, and how it
    /// ended once it did (`None`: the step is not in this recording, or not recorded yet, and
    /// what it printed is not written anywhere).
    fn print_onto(&mut self, s: Option<&mut ActionStep>);
    /// Whether it has ended (and leaves the cluster).
    fn ended(&self) -> bool;
    /// The trace step of the command that started it, once recorded.
    fn step(&mut self) -> &mut Option<usize>;
}

impl Clone for Box<dyn Client> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

/// The clients running, with their ids, and the notes they left for the trace.
#[derive(Clone, Default)]
pub struct Clients {
    pub running: Vec<(u32, Box<dyn Client>)>,
    last_id: u32,
    pub notes: Vec<String>,
}

impl Clients {
    /// A new client's id.
    pub fn next_id(&mut self) -> u32 {
        self.last_id += 1;
        self.last_id
    }

    pub fn is_empty(&self) -> bool {
        self.running.is_empty()
    }

    /// The last id given (0: none yet).
    pub fn last_id(&self) -> u32 {
        self.last_id
    }
}

/// The context client `id` acts in.
pub fn client_cx<'c, 'a>(
    notes: &'c mut Vec<String>,
    cx: &'c mut Cx<'a, Due>,
    recording: bool,
    id: u32,
) -> ClientCx<'c, 'a> {
    ClientCx {
        cx,
        recording,
        notes,
        id,
    }
}

/// Writes what client `c` printed onto its command's step, if the recording holds it (`base`:
/// the steps recorded before the recording began).
pub fn print(c: &mut dyn Client, trace: &mut [TraceStep], base: usize) {
    let at = c.step().and_then(|i| i.checked_sub(base));
    c.print_onto(at.and_then(|i| trace.get_mut(i)?.action_mut()));
}
