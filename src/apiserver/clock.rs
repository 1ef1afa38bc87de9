//! The virtual clock: one instant, read by the store (creation and deletion stamps, condition
//! times), the event recorder and the harness, and moved only by the harness
//! (`Cluster::advance`) or a fixture that sets up upstream's fake clock. Whoever holds a
//! `Clock` reads the same instant: copies of it are handles, not copies of the time.

use crate::api::Time;
use std::cell::Cell;
use std::rc::Rc;

/// The instant, and the instant that virtual time 0 stands for (the fixed scenario start, or
/// the latest timestamp of a cluster state the run continues from).
#[derive(Clone, Debug)]
pub struct Clock(Rc<(Cell<Time>, Cell<Time>)>);

impl Default for Clock {
    /// Scenario start.
    fn default() -> Clock {
        let start = Time::from_virtual(0);
        Clock(Rc::new((Cell::new(start), Cell::new(start))))
    }
}

impl Clock {
    /// A clock of its own, at the same instant and origin as `other` (a copy of a world,
    /// which must not move the original's).
    pub fn copy_of(other: &Clock) -> Clock {
        Clock(Rc::new((Cell::new(other.now()), Cell::new(other.origin()))))
    }

    pub fn now(&self) -> Time {
        self.0.0.get()
    }

    /// The instant virtual time 0 stands for.
    pub fn origin(&self) -> Time {
        self.0.1.get()
    }

    /// Starts virtual time at `t`: the clock reads `t`, and milliseconds count from it (a run
    /// that continues a pasted cluster state starts at the state's latest timestamp).
    pub fn start_at(&self, t: Time) {
        self.0.0.set(t);
        self.0.1.set(t);
    }

    /// The instant of virtual time `t_ms`.
    pub fn instant(&self, t_ms: u64) -> Time {
        self.origin().plus_ms(t_ms as i64)
    }

    /// Milliseconds since virtual time 0 of instant `t` (negative before it).
    pub fn ms_of(&self, t: Time) -> i64 {
        t.since(self.origin()).div_euclid(1_000_000)
    }

    /// Milliseconds since scenario start (the work queues' and pod timers' unit).
    pub fn now_ms(&self) -> u64 {
        self.ms_of(self.now()).max(0) as u64
    }

    /// Moves the clock (every holder sees the new instant).
    pub fn set(&self, t: Time) {
        self.0.0.set(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_handle_reads_the_instant_set_through_any_of_them() {
        let a = Clock::default();
        let b = a.clone();
        assert_eq!(b.now_ms(), 0);
        a.set(Time::from_virtual(1500));
        assert_eq!((a.now_ms(), b.now_ms()), (1500, 1500));
        assert_eq!(b.now(), Time::from_virtual(1500));
    }

    #[test]
    fn a_clock_started_at_a_states_instant_counts_from_it() {
        let a = Clock::default();
        let t = Time::parse("2026-11-26T14:02:58Z").unwrap();
        a.start_at(t);
        assert_eq!(a.now_ms(), 0);
        a.set(a.instant(2500));
        assert_eq!(a.now_ms(), 2500);
        assert_eq!(a.ms_of(Time::parse("2026-11-26T14:02:50Z").unwrap()), -8000);
        let b = Clock::copy_of(&a);
        b.set(b.instant(9000));
        assert_eq!((a.now_ms(), b.now_ms()), (2500, 9000));
    }
}
