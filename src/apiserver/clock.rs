//! The virtual clock: one instant, read by the store (creation and deletion stamps, condition
//! times), the event recorder and the harness, and moved only by the harness
//! (`Cluster::advance`) or a fixture that sets up upstream's fake clock. Whoever holds a
//! `Clock` reads the same instant: copies of it are handles, not copies of the time.

use crate::api::Time;
use std::cell::Cell;
use std::rc::Rc;

#[derive(Clone, Debug)]
pub struct Clock(Rc<Cell<Time>>);

impl Default for Clock {
    /// Scenario start.
    fn default() -> Clock {
        Clock(Rc::new(Cell::new(Time::from_virtual(0))))
    }
}

impl Clock {
    /// A clock of its own, at `t` (a copy of a world, which must not move the original's).
    pub fn at(t: Time) -> Clock {
        Clock(Rc::new(Cell::new(t)))
    }

    pub fn now(&self) -> Time {
        self.0.get()
    }

    /// Milliseconds since scenario start (the work queues' and pod timers' unit).
    pub fn now_ms(&self) -> u64 {
        self.now().virtual_ms().max(0) as u64
    }

    /// Moves the clock (every holder sees the new instant).
    pub fn set(&self, t: Time) {
        self.0.set(t);
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
}
