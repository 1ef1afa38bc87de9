//! Things due at instants of the virtual clock, handed out earliest instant first and, within
//! an instant, in the order they were added: the order of a heap of (due, sequence), kept as
//! one list per instant. Pods created together come due together, so the kubelet fires
//! thousands of steps from one list in a row instead of sifting each out of a heap of
//! thousands.

#[derive(Clone, Debug)]
pub struct Agenda<T> {
    /// (instant, what is due then), the latest instant first, so that the earliest is popped
    /// off the end; no list is empty. There are few instants (pods are created in batches),
    /// and new ones are nearly always the latest: an insert at the front moves few.
    due: Vec<(u64, Vec<T>)>,
}

impl<T> Default for Agenda<T> {
    fn default() -> Self {
        Agenda { due: Vec::new() }
    }
}

impl<T> Agenda<T> {
    pub fn add(&mut self, at_ms: u64, item: T) {
        let i = self.due.partition_point(|(t, _)| *t > at_ms);
        match self.due.get_mut(i) {
            Some((t, items)) if *t == at_ms => items.push(item),
            _ => self.due.insert(i, (at_ms, vec![item])),
        }
    }

    /// The earliest instant anything is due.
    pub fn next_due(&self) -> Option<u64> {
        self.due.last().map(|(t, _)| *t)
    }

    /// Everything due at the earliest instant, if that is at or before `now_ms`, in the order
    /// it was added. Items added for that instant afterwards come out in a later call.
    pub fn take_due(&mut self, now_ms: u64) -> Option<Vec<T>> {
        if self.next_due()? > now_ms {
            return None;
        }
        self.due.pop().map(|(_, items)| items)
    }

    pub fn is_empty(&self) -> bool {
        self.due.is_empty()
    }

    /// Everything held, with the instant it is due.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &T)> {
        self.due
            .iter()
            .flat_map(|(t, items)| items.iter().map(move |item| (*t, item)))
    }
}

#[cfg(test)]
mod tests {
    use super::Agenda;
    use proptest::prelude::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    proptest! {
        /// The same order as a heap of (due, sequence): earliest first, ties as added, items
        /// added while others are handed out included.
        #[test]
        fn hands_out_what_a_heap_of_due_and_sequence_would(
            first in proptest::collection::vec(0u64..20, 0..60),
            later in proptest::collection::vec(0u64..5, 0..60),
        ) {
            let mut agenda = Agenda::default();
            let mut heap = BinaryHeap::new();
            let mut seq = 0;
            for &t in &first {
                seq += 1;
                agenda.add(t, seq);
                heap.push(Reverse((t, seq)));
            }
            let (mut from_agenda, mut from_heap) = (vec![], vec![]);
            let mut follow_ups = later.iter();
            let mut now = 0;
            while let Some(t) = agenda.next_due() {
                now = now.max(t);
                while let Some(items) = agenda.take_due(now) {
                    for item in items {
                        from_agenda.push(item);
                        // Each item handed out may add one due a little later (or at once).
                        if let Some(&delay) = follow_ups.next() {
                            seq += 1;
                            agenda.add(now + delay, seq);
                        }
                    }
                }
            }
            let mut follow_ups = later.iter();
            let mut seq = first.len();
            while let Some(Reverse((t, s))) = heap.pop() {
                from_heap.push(s);
                if let Some(&delay) = follow_ups.next() {
                    seq += 1;
                    heap.push(Reverse((t + delay, seq)));
                }
            }
            prop_assert_eq!(from_agenda, from_heap);
        }
    }
}
