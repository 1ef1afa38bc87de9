//! A run recorded in slices between frames: what is under way (a scenario to open, or a
//! typed change), how far it came, and how it opens once done.

use crate::scenario::session::{Change, Recording, Session};
use std::cell::RefCell;
use std::rc::Rc;

/// The work ([`crate::cluster::Cluster::work`]) a recording may take in the reducer, at once:
/// about 90 ms of wasm (a unit costs ~6 µs there: a change typed at the end of a 1 000-replica
/// rollout is ~15 000 units and answered in ~88 ms, which stays within one slice). Every gallery
/// scenario (the largest, revision-history-limit, is 746 units) and every change to one is done
/// at once; a 10 000-replica run, or a change to it, is recorded in slices between frames.
pub const FIRST_SLICE: u64 = 15_000;

/// The same for opening a scenario, which has no earlier answer to keep: about 30 ms of wasm.
/// Every gallery scenario opens at once; a 1 000-replica rollout (12 000 units) in slices.
pub const FIRST_OPEN_SLICE: u64 = 5_000;

/// A run being recorded in slices between frames (the page's driver,
/// `bindings::use_recording`, takes them), and what happens once it is done. Cancelling drops
/// it.
#[derive(Clone)]
pub struct Pending {
    pub recording: Rc<RefCell<Option<Underway>>>,
    /// The virtual instant reached and the steps recorded, for the progress line.
    pub progress: (u64, usize),
    /// Which recording this is (a newer one replaces it).
    pub id: u32,
    /// "the scenario" or "the change", for the progress line.
    pub what: &'static str,
}

/// What is being recorded: a scenario to open, or a typed change to the run (with the session
/// it was begun on, and whether it is the editor's Apply).
pub enum Underway {
    Open(Box<Recording>, Opening),
    Change(Box<Change>, Rc<Session>, bool),
}

impl Underway {
    /// Records on for about `work` more; true once done.
    pub fn go_on(&mut self, work: Option<u64>) -> bool {
        match self {
            Underway::Open(r, _) => r.go_on(work),
            Underway::Change(c, ..) => c.go_on(work),
        }
    }

    /// The virtual instant reached and the steps recorded.
    pub fn progress(&self) -> (u64, usize) {
        match self {
            Underway::Open(r, _) => r.progress(),
            Underway::Change(c, ..) => c.progress(),
        }
    }
}

/// How a scenario opens once it is recorded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Opening {
    /// The gallery entry it is, if it is one.
    pub gallery: Option<usize>,
    /// The step to show.
    pub pos: usize,
    /// Play at once (an autoplaying embed).
    pub autoplay: bool,
    /// "Start from my manifest": the editor keeps this text, and the console its lines.
    pub manifest: Option<String>,
}
