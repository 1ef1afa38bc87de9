//! The event recorder: Kubernetes Events as `kubectl describe` lists them, after client-go's
//! correlator: repeats counted, similar events combined, and a source's burst about one object
//! limited.

use super::clock::Clock;
use crate::api::{Kind, ObjectMeta, Str, Time, key_of};
use rustc_hash::{FxHashMap, FxHasher as Fx};
use serde::Serialize;
use std::hash::{Hash, Hasher};

/// `v1.EventTypeNormal` / `v1.EventTypeWarning`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum EventType {
    Normal,
    Warning,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Normal => "Normal",
            EventType::Warning => "Warning",
        }
    }
}

impl std::fmt::Display for EventType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

/// The object an event is about (its `involvedObject`): kind, namespace, name and uid, so
/// that `kubectl describe` finds an object's own events, not those of another with its name
/// in another namespace or before it was recreated.
#[derive(Clone, Copy, Debug)]
pub struct Involved<'a> {
    pub kind: Kind,
    pub namespace: &'a str,
    pub name: &'a str,
    pub uid: &'a str,
}

impl<'a> Involved<'a> {
    pub fn of(kind: Kind, m: &'a ObjectMeta) -> Involved<'a> {
        Involved {
            kind,
            namespace: &m.namespace,
            name: &m.name,
            uid: &m.uid,
        }
    }
}

/// Events the latest last (by when each was last seen), as `kubectl get events` and
/// `describe` list them: one sort for both, so the page carries its code once.
pub fn latest_last(events: &mut [Event]) {
    crate::api::sort::sort_by_key(events, |e| e.last_ms);
}

/// One event. Type, reason and source are the recorders' own words (`&'static`), so an event
/// costs its object and message: a large rollout records several events per pod.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub type_: EventType,
    pub reason: &'static str,
    pub message: String,
    /// `Deployment/web`
    pub object: Str,
    /// The object's namespace and uid (not in the trace, whose events are the focus's).
    #[serde(skip)]
    pub namespace: Str,
    #[serde(skip)]
    pub uid: Str,
    /// `deployment-controller`, `replicaset-controller`, `default-scheduler`, `kubelet`
    pub source: &'static str,
    pub count: u32,
    /// Virtual milliseconds (before the simulation's start for an event another component
    /// wrote earlier).
    pub first_ms: i64,
    pub last_ms: i64,
}

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
/// Each source (a controller, the scheduler, the kubelet) has its own correlator, as each
/// component's event broadcaster does, and the three remember what they saw in LRU caches of
/// 4 096 entries (`maxLruCacheEntries`), keyed here by a 64-bit hash of the key's strings. A
/// big rollout outgrows them as a real one does: what a cache forgot starts over.
#[derive(Clone, Debug, Default)]
pub struct EventRecorder {
    /// The apiserver's events, compactly: a large rollout stores several per pod, and each
    /// one's own allocations would scatter the pods' memory among the events'.
    log: Vec<Record>,
    /// The objects' and messages' text, one after another.
    text: String,
    /// Each distinct (source, type, reason), in the order first seen.
    words: Vec<Words>,
    /// Each namespace events were recorded in, in the order first seen.
    namespaces: Vec<Str>,
    correlators: Vec<(&'static str, Correlator)>,
    /// Indices of events recorded (or re-counted) since the last `take_new`.
    fresh: Vec<usize>,
    /// Per stored event, the `take_new` call that last took it: an event recorded (or counted
    /// again) several times in one step is taken once, found in constant time.
    taken: Vec<u32>,
    takes: u32,
    clock: Clock,
}

type Words = (&'static str, EventType, &'static str);

/// One stored event: what [`Event`] holds, its text as spans of [`EventRecorder::text`].
#[derive(Clone, Debug)]
struct Record {
    words: u16,
    /// Index into [`EventRecorder::namespaces`].
    namespace: u16,
    count: u32,
    object: Span,
    uid: Span,
    message: Span,
    first_ms: i64,
    last_ms: i64,
}

/// Where a string lies in [`EventRecorder::text`]. (32-bit offsets: a session would need
/// some 50 million events to outgrow them, and a page's memory is 32-bit anyway.)
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u32,
    len: u32,
}

impl Span {
    fn of(self, text: &str) -> &str {
        &text[self.start as usize..(self.start + self.len) as usize]
    }
}

/// One source's `EventCorrelator`: the aggregator's, the event logger's and the spam filter's
/// caches.
#[derive(Clone, Debug)]
struct Correlator {
    similar: Lru<Similar>,
    observed: Lru<Observation>,
    buckets: Lru<Bucket>,
}

/// `maxLruCacheEntries`: the size of each of a correlator's caches.
const LRU_ENTRIES: usize = 4096;

/// golang-lru's `simplelru` as the correlator uses it: a lookup marks the entry used, and a
/// new entry past the size evicts the least recently used one. Entries are slots of a list
/// linked by index, most recent first. (Ours, not the lru crate's `LruCache`: measured, that
/// one's node per entry, allocated and reached through pointers, made a 1 000- and a
/// 10 000-replica rollout 7-10% slower in wall time, for 0.5% fewer instructions.)
#[derive(Clone, Debug)]
struct Lru<T> {
    index: FxHashMap<u64, u32>,
    slots: Vec<Slot<T>>,
    head: u32,
    tail: u32,
}

#[derive(Clone, Debug)]
struct Slot<T> {
    key: u64,
    newer: u32,
    older: u32,
    value: T,
}

const NONE: u32 = u32::MAX;

impl<T> Default for Lru<T> {
    fn default() -> Lru<T> {
        Lru {
            index: FxHashMap::default(),
            slots: Vec::new(),
            head: NONE,
            tail: NONE,
        }
    }
}

impl<T> Lru<T> {
    /// The entry for `key`, now the most recently used; made by `new` if there is none (`Get`,
    /// then `Add`, which is what each of the three caches does for each event).
    fn get_or_insert_mut(&mut self, key: u64, new: impl FnOnce() -> T) -> &mut T {
        let i = match self.index.get(&key) {
            Some(&i) => {
                self.unlink(i);
                i
            }
            None if self.slots.len() < LRU_ENTRIES => {
                self.slots.push(Slot {
                    key,
                    newer: NONE,
                    older: NONE,
                    value: new(),
                });
                let i = (self.slots.len() - 1) as u32;
                self.index.insert(key, i);
                i
            }
            None => {
                // The least recently used slot takes the new key.
                let i = self.tail;
                self.unlink(i);
                let slot = &mut self.slots[i as usize];
                self.index.remove(&slot.key);
                (slot.key, slot.value) = (key, new());
                self.index.insert(key, i);
                i
            }
        };
        let slot = &mut self.slots[i as usize];
        (slot.newer, slot.older) = (NONE, self.head);
        match self.head {
            NONE => self.tail = i,
            h => self.slots[h as usize].newer = i,
        }
        self.head = i;
        &mut self.slots[i as usize].value
    }

    fn peek_mut(&mut self, key: &u64) -> Option<&mut T> {
        let i = *self.index.get(key)?;
        Some(&mut self.slots[i as usize].value)
    }

    fn unlink(&mut self, i: u32) {
        let Slot { newer, older, .. } = self.slots[i as usize];
        match newer {
            NONE => self.head = older,
            n => self.slots[n as usize].older = older,
        }
        match older {
            NONE => self.tail = newer,
            o => self.slots[o as usize].newer = newer,
        }
    }
}

fn lru<T>() -> Lru<T> {
    Lru::default()
}

impl Default for Correlator {
    fn default() -> Correlator {
        Correlator {
            similar: lru(),
            observed: lru(),
            buckets: lru(),
        }
    }
}

/// `eventLog`: how often an event key was seen, since when, and its stored event if it was
/// ever sent.
#[derive(Clone, Debug)]
struct Observation {
    count: u32,
    first_ms: u64,
    event: Option<usize>,
}

/// `aggregateRecord`: the messages seen for one (source, object, type, reason), by hash. At
/// most `AGGREGATE_MAX_EVENTS`, so held in place: a big rollout keeps 4 096 of these, and a
/// vector each would be one more allocation to reach (and make, and free) per event.
#[derive(Clone, Debug)]
struct Similar {
    messages: [u64; AGGREGATE_MAX_EVENTS],
    len: usize,
    last_ms: u64,
}

impl Similar {
    fn messages(&self) -> &[u64] {
        &self.messages[..self.len]
    }
}

/// A token bucket per (source, object).
#[derive(Clone, Debug)]
struct Bucket {
    tokens: f64,
    last_ms: u64,
}

/// How a combined event's message begins (`EventAggregatorByReasonMessageFunc`).
pub const COMBINED_PREFIX: &str = "(combined from similar events): ";

/// Writes `parts` at the end of `text`.
fn append(text: &mut String, parts: &[&str]) -> Span {
    let start = text.len();
    for p in parts {
        text.push_str(p);
    }
    Span {
        start: start as u32,
        len: (text.len() - start) as u32,
    }
}

const AGGREGATE_MAX_EVENTS: usize = 10;
const AGGREGATE_INTERVAL_MS: u64 = 600_000;
const SPAM_BURST: f64 = 25.0;
const SPAM_QPS: f64 = 1.0 / 300.0;

impl Correlator {
    /// `EventAggregator.EventAggregate`: the messages seen under one aggregate key (object,
    /// type, reason) within the interval; at the 10th different one, every further one is a
    /// single combined event, logged under the aggregate key. Returns the key the event is
    /// logged under and whether it is combined.
    fn aggregate(&mut self, aggregate: u64, message: u64, event_key: u64, now: u64) -> (u64, bool) {
        let similar = self.similar.get_or_insert_mut(aggregate, || Similar {
            messages: [0; AGGREGATE_MAX_EVENTS],
            len: 0,
            last_ms: now,
        });
        if now - similar.last_ms > AGGREGATE_INTERVAL_MS {
            similar.len = 0;
        }
        if !similar.messages().contains(&message) {
            // (Below the maximum here: reaching it removes one, below.)
            similar.messages[similar.len] = message;
            similar.len += 1;
        }
        similar.last_ms = now;
        if similar.len < AGGREGATE_MAX_EVENTS {
            return (event_key, false);
        }
        // `PopAny` keeps the set below the threshold; which one goes is the map's choice
        // upstream, the oldest here.
        similar.messages.copy_within(1..similar.len, 0);
        similar.len -= 1;
        (aggregate, true)
    }

    /// `eventLogger.eventObserve`: how often the event was seen, since when, and the stored
    /// event it was counted into, if any.
    fn observe(&mut self, event_key: u64, now: u64) -> (u32, u64, Option<usize>) {
        let seen = self.observed.get_or_insert_mut(event_key, || Observation {
            count: 0,
            first_ms: now,
            event: None,
        });
        seen.count += 1;
        (seen.count, seen.first_ms, seen.event)
    }

    /// `EventSourceObjectSpamFilter.Filter`: a token bucket per object (25, refilled one per
    /// 5 minutes); whether the event goes through.
    fn filter_spam(&mut self, spam_key: u64, now: u64) -> bool {
        let bucket = self.buckets.get_or_insert_mut(spam_key, || Bucket {
            tokens: SPAM_BURST,
            last_ms: now,
        });
        bucket.tokens =
            (bucket.tokens + (now - bucket.last_ms) as f64 / 1000.0 * SPAM_QPS).min(SPAM_BURST);
        bucket.last_ms = now;
        if bucket.tokens < 1.0 {
            return false;
        }
        bucket.tokens -= 1.0;
        true
    }
}

/// A 64-bit FxHash of a value: the correlators' cache keys.
/// The index of `ns` in `list`, added when new.
fn intern(list: &mut Vec<Str>, ns: &str) -> usize {
    match list.iter().position(|n| **n == *ns) {
        Some(i) => i,
        None => {
            list.push(Str::new(ns));
            list.len() - 1
        }
    }
}

fn hash_of(v: impl Hash) -> u64 {
    let mut h = Fx::default();
    v.hash(&mut h);
    h.finish()
}

impl EventRecorder {
    /// Records an event as client-go's recorder does: aggregated, counted, then spam-filtered by
    /// the source's correlator, and stored (a repeat updates the stored event's count).
    pub fn record(
        &mut self,
        source: &'static str,
        about: Involved<'_>,
        type_: EventType,
        reason: &'static str,
        message: String,
    ) {
        let (kind, name, ns, uid) = (about.kind.as_str(), about.name, about.namespace, about.uid);
        let now = self.clock.now_ms();
        let ci = match self.correlators.iter().position(|(s, _)| *s == source) {
            Some(c) => c,
            None => {
                self.correlators.push((source, Correlator::default()));
                self.correlators.len() - 1
            }
        };
        let c = &mut self.correlators[ci].1;
        // Each cache has its own keys (the source picks the correlator, so it is in none):
        // `EventAggregatorByReasonFunc` is the object, type and reason, and `getEventKey` adds
        // the message; `getSpamKey` is the object alone.
        // The object, once: its uid names it (kind, namespace and name where it has none).
        let object = if uid.is_empty() {
            hash_of((kind, ns, name))
        } else {
            hash_of(uid)
        };
        let (event_key, combined) = c.aggregate(
            hash_of((object, type_, reason, None::<&str>)),
            hash_of(&message),
            hash_of((object, type_, reason, Some(message.as_str()))),
            now,
        );
        let (count, first_ms, stored) = c.observe(event_key, now);
        // The spam filter, last: a filtered event was still counted above.
        if !c.filter_spam(object, now) {
            return;
        }
        let prefix = if combined { COMBINED_PREFIX } else { "" };
        let n = match stored {
            Some(n) => {
                let e = &mut self.log[n];
                (e.count, e.last_ms) = (count, now as i64);
                // (The text it had stays, unread: the spam filter lets an object's events
                // through a few times in five minutes at most.)
                e.message = append(&mut self.text, &[prefix, &message]);
                n
            }
            None => {
                let n = self.store_new(
                    (source, type_, reason),
                    about,
                    [prefix, &message],
                    count,
                    (first_ms as i64, now as i64),
                );
                if let Some(seen) = self.correlators[ci].1.observed.peek_mut(&event_key) {
                    seen.event = Some(n);
                }
                n
            }
        };
        self.fresh.push(n);
    }

    /// Stores an event exactly as given, past the correlator (an event another component
    /// wrote: fixtures of upstream's tests, which hold Events as objects).
    #[allow(clippy::too_many_arguments)]
    pub fn insert(
        &mut self,
        source: &'static str,
        about: Involved<'_>,
        type_: EventType,
        reason: &'static str,
        message: &str,
        count: u32,
        (first_ms, last_ms): (i64, i64),
    ) {
        self.store_new(
            (source, type_, reason),
            about,
            ["", message],
            count,
            (first_ms, last_ms),
        );
    }

    /// A new stored event, its text appended; returns its index.
    fn store_new(
        &mut self,
        words: Words,
        about: Involved<'_>,
        message: [&str; 2],
        count: u32,
        (first_ms, last_ms): (i64, i64),
    ) -> usize {
        let w = match self.words.iter().position(|x| *x == words) {
            Some(w) => w,
            None => {
                self.words.push(words);
                self.words.len() - 1
            }
        };
        let namespace = intern(&mut self.namespaces, about.namespace);
        let object = append(&mut self.text, &[about.kind.as_str(), "/", about.name]);
        let uid = append(&mut self.text, &[about.uid]);
        let message = append(&mut self.text, &message);
        self.taken.push(0);
        self.log.push(Record {
            words: w as u16,
            namespace: namespace as u16,
            count,
            object,
            uid,
            message,
            first_ms,
            last_ms,
        });
        self.log.len() - 1
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
        self.takes += 1;
        let fresh = std::mem::take(&mut self.fresh);
        let mut out = Vec::with_capacity(fresh.len());
        for i in fresh {
            if self.taken[i] != self.takes {
                self.taken[i] = self.takes;
                out.push(self.event(&self.log[i]));
            }
        }
        out
    }

    /// Forgets which events are new: for a cluster that records no trace, which never takes
    /// them.
    pub fn forget_new(&mut self) {
        self.fresh.clear();
    }

    /// Every stored event, in the order they were first recorded.
    pub fn all(&self) -> Vec<Event> {
        self.log.iter().map(|r| self.event(r)).collect()
    }

    /// The events about one object, as `kubectl describe` searches them (by its kind,
    /// namespace, name and uid).
    pub fn for_object(&self, kind: Kind, m: &ObjectMeta) -> Vec<Event> {
        let object = key_of(kind.as_str(), &m.name);
        self.log
            .iter()
            .filter(|r| {
                r.object.of(&self.text) == object.as_str()
                    && r.uid.of(&self.text) == &*m.uid
                    && self.namespaces[r.namespace as usize] == *m.namespace
            })
            .map(|r| self.event(r))
            .collect()
    }

    fn event(&self, r: &Record) -> Event {
        let (source, type_, reason) = self.words[r.words as usize];
        Event {
            type_,
            reason,
            message: r.message.of(&self.text).to_string(),
            object: Str::new(r.object.of(&self.text)),
            namespace: self.namespaces[r.namespace as usize].clone(),
            uid: Str::new(r.uid.of(&self.text)),
            source,
            count: r.count,
            first_ms: r.first_ms,
            last_ms: r.last_ms,
        }
    }

    /// Reads `clock` from now on (a copied world's own).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// A recorder that reads `clock` (the store's) for its events' times.
    pub fn with_clock(clock: Clock) -> EventRecorder {
        EventRecorder {
            clock,
            ..EventRecorder::default()
        }
    }

    pub fn now(&self) -> Time {
        self.clock.now()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl<'a> Involved<'a> {
        /// An object in `default` with no uid, as these tests name them.
        fn named(kind: Kind, name: &'a str) -> Involved<'a> {
            Involved {
                kind,
                namespace: "default",
                name,
                uid: "",
            }
        }
    }

    fn meta(name: &str) -> ObjectMeta {
        ObjectMeta {
            name: name.into(),
            namespace: "default".into(),
            ..Default::default()
        }
    }

    fn created(r: &mut EventRecorder, rs: &str, pod: usize) {
        r.record(
            "replicaset-controller",
            Involved::named(Kind::ReplicaSet, rs),
            EventType::Normal,
            "SuccessfulCreate",
            format!("Created pod: {rs}-{pod}"),
        );
    }

    fn listed(r: &EventRecorder, rs: &str) -> Vec<(String, u32)> {
        r.for_object(Kind::ReplicaSet, &meta(rs))
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
        r.clock.set(Time::from_virtual(AGGREGATE_INTERVAL_MS + 1));
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
    fn events_no_step_takes_are_still_listed_for_their_object() {
        let mut r = EventRecorder::default();
        created(&mut r, "web", 0);
        r.forget_new();
        created(&mut r, "web", 1);
        let step = r.take_new();
        assert_eq!(step.len(), 1);
        assert_eq!(step[0].message, "Created pod: web-1");
        assert_eq!(step[0].object.as_str(), "ReplicaSet/web");
        assert_eq!(listed(&r, "web").len(), 2);
        assert!(listed(&r, "we").is_empty() && listed(&r, "web-").is_empty());
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
    fn a_cache_past_4096_entries_forgets_the_least_recently_used_key() {
        let mut lru = lru();
        for k in 0..LRU_ENTRIES as u64 {
            *lru.get_or_insert_mut(k, || 0) += 1;
        }
        *lru.get_or_insert_mut(0, || 0) += 1;
        lru.get_or_insert_mut(LRU_ENTRIES as u64, || 0);
        assert_eq!(*lru.get_or_insert_mut(0, || 0), 2, "used last, kept");
        assert_eq!(
            *lru.get_or_insert_mut(1, || 0),
            0,
            "least recently used, forgotten"
        );
        assert_eq!(lru.index.len(), LRU_ENTRIES);
        assert_eq!(lru.slots.len(), LRU_ENTRIES);
    }

    #[test]
    fn an_event_a_sources_caches_forgot_is_sent_again_as_a_new_event() {
        let pulled = |r: &mut EventRecorder, source: &'static str, pod: usize| {
            r.record(
                source,
                Involved::named(Kind::Pod, &format!("web-{pod}")),
                EventType::Normal,
                "Pulled",
                "x".into(),
            );
        };
        let mut r = EventRecorder::default();
        pulled(&mut r, "kubelet", 0);
        // Other sources' events leave the kubelet's caches alone.
        for pod in 1..=LRU_ENTRIES {
            pulled(&mut r, "other", pod);
        }
        pulled(&mut r, "kubelet", 0);
        let counts = |r: &EventRecorder| -> Vec<u32> {
            r.for_object(Kind::Pod, &meta("web-0"))
                .iter()
                .map(|e| e.count)
                .collect()
        };
        assert_eq!(counts(&r), [2]);
        for pod in 1..=LRU_ENTRIES {
            pulled(&mut r, "kubelet", pod);
        }
        pulled(&mut r, "kubelet", 0);
        assert_eq!(counts(&r), [2, 1]);
    }

    #[test]
    fn a_source_sends_25_events_about_an_object_then_one_per_five_minutes() {
        let mut r = EventRecorder::default();
        let back_off = |r: &mut EventRecorder, message: String| {
            r.record(
                "kubelet",
                Involved::named(Kind::Pod, "web-1"),
                EventType::Warning,
                "BackOff",
                message,
            );
        };
        for pod in 0..40 {
            back_off(&mut r, format!("attempt {pod}"));
        }
        // 9 events as they came, then the combined one: sent 16 times, counted 31.
        let events = r.for_object(Kind::Pod, &meta("web-1"));
        assert_eq!(events.len(), 10);
        assert_eq!(events[9].count, 16);
        r.clock.set(Time::from_virtual(299_000));
        back_off(&mut r, "again".into());
        let e = r.for_object(Kind::Pod, &meta("web-1")).remove(9);
        assert_eq!(e.count, 16, "no token yet");
        r.clock.set(Time::from_virtual(301_000));
        back_off(&mut r, "later".into());
        let e = r.for_object(Kind::Pod, &meta("web-1")).remove(9);
        assert_eq!(
            (e.count, e.message.as_str()),
            (33, "(combined from similar events): later")
        );
    }
}
