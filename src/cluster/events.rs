//! The event recorder: Kubernetes Events as `kubectl describe` lists them, after client-go's
//! correlator: repeats counted, similar events combined, and a source's burst about one object
//! limited.

use super::store::{Fx, FxHashMap};
use crate::api::{Kind, Time, key_of};
use crate::value::codec::to_value;
use std::hash::{Hash, Hasher};

/// One event. Type, reason and source are the recorders' own words (`&'static`), so an event
/// costs its object and message: a large rollout records several events per pod.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub type_: &'static str,
    pub reason: &'static str,
    pub message: String,
    /// `Deployment/web`
    pub object: String,
    /// `deployment-controller`, `replicaset-controller`, `default-scheduler`, `kubelet`
    pub source: &'static str,
    pub count: u32,
    pub first_ms: u64,
    pub last_ms: u64,
}

to_value!(Event {
    type_: "type" put,
    reason: "reason" put,
    message: "message" put,
    object: "object" put,
    source: "source" put,
    count: "count" put,
    first_ms: "firstMs" put,
    last_ms: "lastMs" put,
});

/// client-go's `EventCorrelator` in front of the apiserver's events, in its default settings:
///
/// - **aggregation** (`EventAggregator`): once one source has reported 10 different messages
///   with the same type and reason about one object within 10 minutes, further ones become a
///   single event, "(combined from similar events): <latest message>", counted;
/// - **deduplication** (`eventLogger`): the same event again is the stored event with its
///   count and lastTimestamp moved on;
/// - **spam filtering** (`EventSourceObjectSpamFilter`): a source may send 25 events about an
///   object at once, then one per 5 minutes; the others are counted but not sent, so a big
///   ReplicaSet's `kubectl describe` shows what a real one shows.
///
/// What the three remember is keyed by a 64-bit hash of the key's strings (their LRU caches
/// hold 4 096 entries; these keep everything, which a playground session never outgrows).
#[derive(Clone, Debug, Default)]
pub struct EventRecorder {
    /// The apiserver's events.
    pub events: Vec<Event>,
    /// Hash of a key → its entry in `observed`, `similar` or `buckets` (by the key's kind).
    index: FxHashMap<u64, u32>,
    observed: Vec<Observation>,
    similar: Vec<Similar>,
    buckets: Vec<Bucket>,
    /// Indices of events recorded (or re-counted) since the last `take_new`.
    fresh: Vec<usize>,
    pub now_ms: u64,
}

/// `eventLog`: how often an event key was seen, since when, and its stored event if it was
/// ever sent.
#[derive(Clone, Debug)]
struct Observation {
    count: u32,
    first_ms: u64,
    event: Option<usize>,
}

/// `aggregateRecord`: the messages seen for one (source, object, type, reason).
#[derive(Clone, Debug)]
struct Similar {
    messages: Vec<u64>,
    last_ms: u64,
}

/// A token bucket per (source, object).
#[derive(Clone, Debug)]
struct Bucket {
    tokens: f64,
    last_ms: u64,
}

/// How a combined event's message begins (`EventAggregatorByReasonMessageFunc`).
pub const COMBINED_PREFIX: &str = "(combined from similar events): ";

const AGGREGATE_MAX_EVENTS: usize = 10;
const AGGREGATE_INTERVAL_MS: u64 = 600_000;
const SPAM_BURST: f64 = 25.0;
const SPAM_QPS: f64 = 1.0 / 300.0;

/// What a key in `index` names.
#[derive(Hash)]
enum KeyKind {
    Event,
    Aggregate,
    Spam,
}

impl EventRecorder {
    pub fn record(
        &mut self,
        source: &'static str,
        kind: Kind,
        name: &str,
        type_: &'static str,
        reason: &'static str,
        message: String,
    ) {
        let object = key_of(kind.as_str(), name);
        let now = self.now_ms;
        let key = |what: KeyKind, message: Option<&str>| {
            let mut h = Fx::default();
            what.hash(&mut h);
            source.hash(&mut h);
            object.hash(&mut h);
            if !matches!(what, KeyKind::Spam) {
                (type_, reason, message).hash(&mut h);
            }
            h.finish()
        };

        // EventAggregate.
        let aggregate = key(KeyKind::Aggregate, None);
        let message_hash = {
            let mut h = Fx::default();
            message.hash(&mut h);
            h.finish()
        };
        let i = self.entry(
            aggregate,
            |r| &mut r.similar,
            || Similar {
                messages: Vec::new(),
                last_ms: now,
            },
        );
        let similar = &mut self.similar[i];
        if now - similar.last_ms > AGGREGATE_INTERVAL_MS {
            similar.messages.clear();
        }
        if !similar.messages.contains(&message_hash) {
            similar.messages.push(message_hash);
        }
        similar.last_ms = now;
        let combined = similar.messages.len() >= AGGREGATE_MAX_EVENTS;
        let event_key = if combined {
            // `PopAny` keeps the set below the threshold; which one goes is the map's choice
            // upstream, the oldest here.
            similar.messages.remove(0);
            // All of them one event: keyed by everything but the message.
            key(KeyKind::Event, None)
        } else {
            key(KeyKind::Event, Some(&message))
        };

        // eventObserve.
        let i = self.entry(
            event_key,
            |r| &mut r.observed,
            || Observation {
                count: 0,
                first_ms: now,
                event: None,
            },
        );
        let seen = &mut self.observed[i];
        seen.count += 1;
        let (count, first_ms, stored) = (seen.count, seen.first_ms, seen.event);

        // The spam filter, last: a filtered event was still counted above.
        let b = self.entry(
            key(KeyKind::Spam, None),
            |r| &mut r.buckets,
            || Bucket {
                tokens: SPAM_BURST,
                last_ms: now,
            },
        );
        let bucket = &mut self.buckets[b];
        bucket.tokens =
            (bucket.tokens + (now - bucket.last_ms) as f64 / 1000.0 * SPAM_QPS).min(SPAM_BURST);
        bucket.last_ms = now;
        if bucket.tokens < 1.0 {
            return;
        }
        bucket.tokens -= 1.0;
        let message = if combined {
            format!("{COMBINED_PREFIX}{message}")
        } else {
            message
        };

        let n = match stored {
            Some(n) => {
                let e = &mut self.events[n];
                (e.count, e.last_ms, e.message) = (count, now, message);
                n
            }
            None => {
                self.events.push(Event {
                    type_,
                    reason,
                    message,
                    object,
                    source,
                    count,
                    first_ms,
                    last_ms: now,
                });
                self.observed[i].event = Some(self.events.len() - 1);
                self.events.len() - 1
            }
        };
        self.fresh.push(n);
    }

    /// The entry for `key` in the list `list` picks, made by `new` if there is none.
    fn entry<T>(
        &mut self,
        key: u64,
        list: impl Fn(&mut Self) -> &mut Vec<T>,
        new: impl FnOnce() -> T,
    ) -> usize {
        if let Some(&i) = self.index.get(&key) {
            return i as usize;
        }
        let v = list(self);
        v.push(new());
        let i = v.len() - 1;
        self.index.insert(key, i as u32);
        i
    }

    /// Whether `a` and `b` are the same event as it stood at two times: the same object,
    /// reason and first time, and the same message unless it is a combined event (whose
    /// message is its latest occurrence's).
    pub fn same_event(a: &Event, b: &Event) -> bool {
        a.object == b.object
            && a.reason == b.reason
            && a.type_ == b.type_
            && a.first_ms == b.first_ms
            && (a.message == b.message
                || a.message.starts_with(COMBINED_PREFIX) && b.message.starts_with(COMBINED_PREFIX))
    }

    /// Events recorded since the previous call (for the trace step that caused them).
    /// An event sent twice in that time (a count moved on) is listed once, as it stands.
    pub fn take_new(&mut self) -> Vec<Event> {
        let mut idx = std::mem::take(&mut self.fresh);
        let mut seen = Vec::with_capacity(idx.len());
        idx.retain(|i| {
            let first = !seen.contains(i);
            seen.push(*i);
            first
        });
        idx.into_iter().map(|i| self.events[i].clone()).collect()
    }

    pub fn for_object(&self, kind: Kind, name: &str) -> Vec<&Event> {
        let object = format!("{}/{}", kind.as_str(), name);
        self.events.iter().filter(|e| e.object == object).collect()
    }

    pub fn now(&self) -> Time {
        Time::from_virtual(self.now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn created(r: &mut EventRecorder, rs: &str, pod: usize) {
        r.record(
            "replicaset-controller",
            Kind::ReplicaSet,
            rs,
            "Normal",
            "SuccessfulCreate",
            format!("Created pod: {rs}-{pod}"),
        );
    }

    fn listed(r: &EventRecorder, rs: &str) -> Vec<(String, u32)> {
        r.for_object(Kind::ReplicaSet, rs)
            .iter()
            .map(|e| (e.message.clone(), e.count))
            .collect()
    }

    #[test]
    fn the_tenth_similar_event_in_ten_minutes_is_combined_and_counted() {
        let mut r = EventRecorder::default();
        for pod in 0..12 {
            created(&mut r, "web", pod);
        }
        let got = listed(&r, "web");
        assert_eq!(got.len(), 10);
        assert_eq!(got[8], ("Created pod: web-8".into(), 1));
        assert_eq!(
            got[9],
            (
                "(combined from similar events): Created pod: web-11".into(),
                3
            )
        );
        // Another object, or ten minutes of quiet, starts over.
        created(&mut r, "api", 0);
        assert_eq!(listed(&r, "api"), vec![("Created pod: api-0".into(), 1)]);
        r.now_ms = AGGREGATE_INTERVAL_MS + 1;
        created(&mut r, "web", 12);
        assert_eq!(listed(&r, "web")[10], ("Created pod: web-12".into(), 1));
    }

    #[test]
    fn a_combined_event_stays_one_event_as_its_message_moves_on() {
        let mut r = EventRecorder::default();
        for pod in 0..10 {
            created(&mut r, "web", pod);
        }
        let first = r.take_new();
        created(&mut r, "web", 10);
        let later = r.take_new();
        assert_eq!(later.len(), 1);
        assert!(EventRecorder::same_event(&first[9], &later[0]));
        assert_ne!(first[9].message, later[0].message);
        assert!(!EventRecorder::same_event(&first[0], &first[1]));
    }

    #[test]
    fn the_same_event_again_is_counted_once_per_step() {
        let mut r = EventRecorder::default();
        for _ in 0..3 {
            created(&mut r, "web", 0);
        }
        let step = r.take_new();
        assert_eq!(step.len(), 1);
        assert_eq!((step[0].count, step[0].first_ms), (3, 0));
    }

    #[test]
    fn a_source_sends_25_events_about_an_object_then_one_per_five_minutes() {
        let mut r = EventRecorder::default();
        let back_off = |r: &mut EventRecorder, message: String| {
            r.record("kubelet", Kind::Pod, "web-1", "Warning", "BackOff", message);
        };
        for pod in 0..40 {
            back_off(&mut r, format!("attempt {pod}"));
        }
        // 9 events as they came, then the combined one: sent 16 times, counted 31.
        let events = r.for_object(Kind::Pod, "web-1");
        assert_eq!(events.len(), 10);
        assert_eq!(events[9].count, 16);
        r.now_ms = 299_000;
        back_off(&mut r, "again".into());
        let e = r.for_object(Kind::Pod, "web-1")[9];
        assert_eq!(e.count, 16, "no token yet");
        r.now_ms = 301_000;
        back_off(&mut r, "later".into());
        let e = r.for_object(Kind::Pod, "web-1")[9];
        assert_eq!(
            (e.count, e.message.as_str()),
            (33, "(combined from similar events): later")
        );
    }
}
