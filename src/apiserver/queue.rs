//! client-go's rate-limited work queue on the virtual clock: a key is queued at most once, a
//! key being processed that is added again is re-queued when processing ends, `add_after` waits
//! on the clock, and `add_rate_limited` waits as `DefaultControllerRateLimiter` decides: the
//! longer of the per-key exponential back-off (5 ms × 2^failures, capped at 1000 s) and the
//! queue-wide token bucket (10 per second, burst 100), which `forget` does not refill.

use super::agenda::Agenda;
use super::store::{WatchEvent, WatchRef};
use crate::api::{Kind, Str};
use std::collections::BTreeMap;
use std::collections::{BTreeSet, VecDeque};

/// Why a key is in a work queue (the trace's `cause`): a watch event that a handler turned into
/// the key, or a requeue (`AddAfter`, a rate-limited retry after an error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    Event {
        /// `ADDED`, `MODIFIED` or `DELETED`.
        event: &'static str,
        kind: Kind,
        /// The object's `namespace/name`.
        object: Str,
        /// Upstream's handler that enqueued the key (`addDeployment`, `updatePod`, …).
        handler: &'static str,
    },
    After {
        delay_ms: u64,
    },
    RateLimited {
        delay_ms: u64,
    },
}

impl serde::Serialize for Cause {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        match self {
            Cause::Event {
                event,
                kind,
                object,
                handler,
            } => {
                m.serialize_entry("event", event)?;
                m.serialize_entry("object", &format!("{} {object}", kind.as_str()))?;
                m.serialize_entry("handler", handler)?;
            }
            Cause::After { delay_ms } => {
                m.serialize_entry("requeue", "after")?;
                m.serialize_entry("delayMs", delay_ms)?;
            }
            Cause::RateLimited { delay_ms } => {
                m.serialize_entry("requeue", "rateLimited")?;
                m.serialize_entry("delayMs", delay_ms)?;
            }
        }
        m.end()
    }
}

/// What a work queue holds at a moment (the trace's `queues`): the keys queued in order, the
/// keys waiting on the clock with their due time, the keys being processed.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueView {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub queued: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub delayed: Vec<Delayed>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub processing: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Delayed {
    pub key: String,
    pub due_ms: u64,
}

#[derive(Clone, Debug, Default)]
pub struct WorkQueue {
    queue: VecDeque<Str>,
    /// Why each key is queued: the first reason since it was last taken.
    causes: BTreeMap<Str, Cause>,
    /// Why each delayed key will be.
    delayed_causes: BTreeMap<Str, Cause>,
    /// The watch event the informer's handlers are handling (`handling`): shared, not copied.
    event: Option<WatchEvent>,
    /// Keep why each key is queued (a run that records its steps asks; a benchmark's does
    /// not pay for it).
    pub record_causes: bool,
    dirty: BTreeSet<Str>,
    processing: BTreeSet<Str>,
    /// Keys waiting on the clock.
    delayed: Agenda<Str>,
    failures: BTreeMap<String, u32>,
    /// The token bucket, as the milliseconds it needs to be full again (one token per
    /// [`BUCKET_TOKEN_MS`], at most [`BUCKET_BURST`] tokens): 0 = full, the default.
    bucket_deficit_ms: u64,
    /// When `bucket_deficit_ms` was last brought up to date.
    bucket_at_ms: u64,
}

/// `rate.NewLimiter(rate.Limit(10), 100)` in `DefaultTypedControllerRateLimiter`: 10 tokens a
/// second, so one every 100 ms, and a burst of 100.
pub const BUCKET_TOKEN_MS: u64 = 100;
pub const BUCKET_BURST: u64 = 100;

impl WorkQueue {
    pub fn add(&mut self, key: &str) {
        self.add_because(key, None);
    }

    /// Adds `key`, remembering why when it was not queued yet.
    fn add_because(&mut self, key: &str, cause: Option<Cause>) {
        if self.dirty.contains(key) {
            return;
        }
        let key = Str::new(key);
        if let Some(c) = cause {
            self.causes.insert(key.clone(), c);
        }
        if self.processing.contains(&key) {
            self.dirty.insert(key);
            return;
        }
        self.dirty.insert(key.clone());
        self.queue.push_back(key);
    }

    /// The watch event the handlers called next are handling (`None` when done).
    pub fn handling(&mut self, ev: Option<&WatchEvent>) {
        if self.record_causes || self.event.is_some() {
            self.event = ev.filter(|_| self.record_causes).cloned();
        }
    }

    /// Adds `key` from upstream's handler `handler`, for the event being handled (the cause is
    /// written out only for a key not queued yet).
    pub fn add_by(&mut self, key: &str, handler: &'static str) {
        if self.dirty.contains(key) {
            return;
        }
        let cause = self.event.as_ref().map(|ev| {
            let (event, o) = match ev.view() {
                WatchRef::Added(o) => ("ADDED", o),
                WatchRef::Modified { new, .. } => ("MODIFIED", new),
                WatchRef::Deleted(o) => ("DELETED", o),
            };
            Cause::Event {
                event,
                kind: o.kind(),
                object: o.meta().key(),
                handler,
            }
        });
        self.add_because(key, cause);
    }

    /// Why `key`, just taken, was queued.
    pub fn take_cause(&mut self, key: &str) -> Option<Cause> {
        self.causes.remove(key)
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
        if self.record_causes {
            self.delayed_causes
                .entry(key.into())
                .or_insert(Cause::After { delay_ms });
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

    /// `BucketRateLimiter.When` (`Limiter.Reserve().Delay()`): takes a token, possibly one not
    /// there yet, and returns how long until it is. Shared by every key; `forget` leaves it be.
    pub fn bucket_when(&mut self, now_ms: u64) -> u64 {
        let elapsed = now_ms.saturating_sub(self.bucket_at_ms);
        self.bucket_at_ms = self.bucket_at_ms.max(now_ms);
        self.bucket_deficit_ms = self.bucket_deficit_ms.saturating_sub(elapsed) + BUCKET_TOKEN_MS;
        self.bucket_deficit_ms
            .saturating_sub(BUCKET_BURST * BUCKET_TOKEN_MS)
    }

    /// `AddRateLimited` with `MaxOfRateLimiter(per-item, bucket)`: both limiters are asked
    /// (each counts the call), the longer delay wins.
    pub fn add_rate_limited(&mut self, key: &str, now_ms: u64) {
        let d = self.when(key).max(self.bucket_when(now_ms));
        let cause = Cause::RateLimited { delay_ms: d };
        if d == 0 {
            return self.add_because(key, Some(cause).filter(|_| self.record_causes));
        }
        if self.record_causes {
            self.delayed_causes.insert(key.into(), cause);
        }
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
                let cause = self.delayed_causes.remove(&key);
                self.add_because(&key, cause);
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

    /// What the queue holds now, the earliest delayed key first.
    pub fn view(&self) -> QueueView {
        let mut delayed: Vec<Delayed> = self
            .delayed
            .iter()
            .map(|(due_ms, k)| Delayed {
                key: k.to_string(),
                due_ms,
            })
            .collect();
        crate::api::sort::sort_by_key(&mut delayed, |d| d.due_ms);
        QueueView {
            queued: self.keys(),
            delayed,
            processing: self.processing.iter().map(String::from).collect(),
        }
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

    /// client-go's TestItemExponentialFailureRateLimiter and its OverFlow case
    /// (util/workqueue/default_rate_limiters_test.go), at DefaultControllerRateLimiter's base
    /// of 5 ms and cap of 1000 s.
    #[test]
    fn item_exponential_failure_rate_limiter() {
        let mut q = WorkQueue::default();
        let got: Vec<u64> = (0..5).map(|_| q.when("one")).collect();
        assert_eq!(got, [5, 10, 20, 40, 80]);
        assert_eq!(q.num_requeues("one"), 5);
        assert_eq!((q.when("two"), q.when("two")), (5, 10));
        assert_eq!(q.num_requeues("two"), 2);
        q.forget("one");
        assert_eq!(q.num_requeues("one"), 0);
        assert_eq!(q.when("one"), 5);
        for _ in 0..1000 {
            q.when("overflow1");
        }
        assert_eq!(q.when("overflow1"), 1_000_000);
    }

    /// `BucketRateLimiter{rate.NewLimiter(10, 100)}.When`: a full bucket of 100 tokens at
    /// first, then each call reserves the next token, 100 ms after the one before
    /// (`Reserve().Delay()`); idle time refills it.
    #[test]
    fn bucket_rate_limiter_reserves_tokens_ten_a_second_after_a_burst_of_100() {
        let mut q = WorkQueue::default();
        let burst: Vec<u64> = (0..100).map(|_| q.bucket_when(1_000)).collect();
        assert!(burst.iter().all(|&d| d == 0), "{burst:?}");
        assert_eq!(q.bucket_when(1_000), 100);
        assert_eq!(q.bucket_when(1_000), 200);
        assert_eq!(
            q.bucket_when(1_050),
            250,
            "a token every 100 ms, reserved in turn"
        );
        assert_eq!(q.bucket_when(60_000), 0, "a minute idle: full again");
    }

    #[test]
    fn token_bucket_limits_rate_limited_requeues_of_forgotten_keys() {
        // A key requeued rate-limited and forgotten after every successful sync (as
        // requeueStuckDeployment + handleErr do) gets 5 ms from the per-item limiter each time;
        // after the burst of 100 the bucket spaces the requeues 100 ms apart.
        let mut q = WorkQueue::default();
        let mut now = 0;
        let mut delays = vec![];
        for _ in 0..200 {
            q.add_rate_limited("a", now);
            q.forget("a");
            now = q.next_due().unwrap();
            q.promote(now);
            let k = q.get().unwrap();
            q.done(&k);
            delays.push(now);
        }
        let gaps: Vec<u64> = delays.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps[..90].iter().all(|&g| g == 5), "{gaps:?}");
        assert!(gaps[150..].iter().all(|&g| g == 100), "{gaps:?}");
        // Idle time refills the bucket: after 10 s the next requeue is at the item delay again.
        q.add_rate_limited("a", now + 10_000);
        assert_eq!(q.next_due(), Some(now + 10_005));
    }
}
