//! The event recorder: Kubernetes Events as `kubectl describe` lists them, with the recorder's
//! aggregation of repeats (same object, type, reason and message → count and lastTimestamp).

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

#[derive(Clone, Debug, Default)]
pub struct EventRecorder {
    pub events: Vec<Event>,
    /// Hash of (object, type, reason, message) → the latest event with that hash; each event's
    /// entry in `same_hash` leads to the one before it. Aggregation costs a lookup, and no
    /// allocation or copy of the strings per event.
    index: FxHashMap<u64, u32>,
    same_hash: Vec<u32>,
    /// Indices of events recorded (or re-counted) since the last `take_new`.
    fresh: Vec<usize>,
    pub now_ms: u64,
}

const NONE: u32 = u32::MAX;

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
        let id = {
            let mut h = Fx::default();
            (&object, type_, reason, &message).hash(&mut h);
            h.finish()
        };
        let latest = self.index.get(&id).copied().unwrap_or(NONE);
        let mut i = latest;
        while i != NONE {
            let e = &mut self.events[i as usize];
            if e.object == object && e.type_ == type_ && e.reason == reason && e.message == message
            {
                e.count += 1;
                e.last_ms = now;
                self.fresh.push(i as usize);
                return;
            }
            i = self.same_hash[i as usize];
        }
        self.events.push(Event {
            type_,
            reason,
            message,
            object,
            source,
            count: 1,
            first_ms: now,
            last_ms: now,
        });
        let n = self.events.len() - 1;
        self.same_hash.push(latest);
        self.index.insert(id, n as u32);
        self.fresh.push(n);
    }

    /// Events recorded since the previous call (for the trace step that caused them).
    pub fn take_new(&mut self) -> Vec<Event> {
        let idx = std::mem::take(&mut self.fresh);
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
