//! client-go's rate-limited work queue on the virtual clock: a key is queued at most once, a
//! key being processed that is added again is re-queued when processing ends, `add_after` waits
//! on the clock, and `add_rate_limited` backs off exponentially per key (5 ms × 2^failures,
//! capped at 1000 s, as `DefaultControllerRateLimiter`'s per-item limiter does).

use super::agenda::Agenda;
use crate::api::Str;
use std::collections::BTreeMap;
use std::collections::{BTreeSet, VecDeque};

#[derive(Clone, Debug, Default)]
pub struct WorkQueue {
    queue: VecDeque<Str>,
    dirty: BTreeSet<Str>,
    processing: BTreeSet<Str>,
    /// Keys waiting on the clock.
    delayed: Agenda<Str>,
    failures: BTreeMap<String, u32>,
}

impl WorkQueue {
    pub fn add(&mut self, key: &str) {
        if self.dirty.contains(key) {
            return;
        }
        let key = Str::new(key);
        if self.processing.contains(&key) {
            self.dirty.insert(key);
            return;
        }
        self.dirty.insert(key.clone());
        self.queue.push_back(key);
    }

    /// Queues `key` once the clock reaches `now_ms + delay_ms`.
    pub fn add_after(&mut self, key: &str, now_ms: u64, delay_ms: u64) {
        if delay_ms == 0 {
            return self.add(key);
        }
        // A key already waiting for an earlier instant needs no second timer.
        let due = now_ms + delay_ms;
        if self.delayed.iter().any(|(d, k)| k == key && d <= due) {
            return;
        }
        self.delayed.add(due, key.into());
    }

    /// The per-item exponential back-off delay for the next retry of `key`.
    pub fn when(&mut self, key: &str) -> u64 {
        let n = self.failures.entry(key.to_string()).or_insert(0);
        let exp = *n;
        *n += 1;
        let delay = 5u64.saturating_mul(1u64 << exp.min(40));
        delay.min(1_000_000)
    }

    pub fn add_rate_limited(&mut self, key: &str, now_ms: u64) {
        let d = self.when(key);
        self.add_after(key, now_ms, d);
    }

    pub fn num_requeues(&self, key: &str) -> u32 {
        self.failures.get(key).copied().unwrap_or(0)
    }

    pub fn forget(&mut self, key: &str) {
        self.failures.remove(key);
    }

    /// Moves every delayed key due at or before `now_ms` into the queue.
    pub fn promote(&mut self, now_ms: u64) {
        while let Some(due) = self.delayed.take_due(now_ms) {
            for key in due {
                self.add(&key);
            }
        }
    }

    pub fn next_due(&self) -> Option<u64> {
        self.delayed.next_due()
    }

    pub fn get(&mut self) -> Option<Str> {
        let key = self.queue.pop_front()?;
        self.dirty.remove(&key);
        self.processing.insert(key.clone());
        Some(key)
    }

    pub fn done(&mut self, key: &str) {
        self.processing.remove(key);
        if self.dirty.contains(key) {
            self.queue.push_back(key.into());
        }
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Keys queued right now, in order (for tests).
    pub fn keys(&self) -> Vec<String> {
        self.queue.iter().map(String::from).collect()
    }

    pub fn has_delayed(&self) -> bool {
        !self.delayed.is_empty()
    }

    /// Keys waiting on the clock.
    pub fn delayed_keys(&self) -> impl Iterator<Item = &Str> {
        self.delayed.iter().map(|(_, k)| k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedupes_and_requeues_after_processing() {
        let mut q = WorkQueue::default();
        q.add("a");
        q.add("a");
        assert_eq!(q.len(), 1);
        let k = q.get().unwrap();
        q.add("a");
        assert_eq!(q.len(), 0, "a key being processed waits until done");
        q.done(&k);
        assert_eq!(q.keys(), vec!["a"]);
    }

    #[test]
    fn delayed_and_rate_limited() {
        let mut q = WorkQueue::default();
        q.add_after("a", 0, 1000);
        q.promote(999);
        assert!(q.is_empty());
        q.promote(1000);
        assert_eq!(q.keys(), vec!["a"]);
        assert_eq!(q.when("b"), 5);
        assert_eq!(q.when("b"), 10);
        q.forget("b");
        assert_eq!(q.when("b"), 5);
    }
}
