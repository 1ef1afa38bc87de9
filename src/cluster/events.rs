//! The event recorder: Kubernetes Events as `kubectl describe` lists them, with the recorder's
//! aggregation of repeats (same object, type, reason and message → count and lastTimestamp).

use super::store::{Fx, FxHashMap};
use crate::api::{Kind, Time};
use crate::value::codec::to_value;
use std::hash::{Hash, Hasher};

#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub type_: String,
    pub reason: String,
    pub message: String,
    /// `Deployment/web`
    pub object: String,
    /// `deployment-controller`, `replicaset-controller`, `default-scheduler`, `kubelet`
    pub source: String,
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
    /// Hash of (object, type, reason, message) → indices in `events` with that hash, so
    /// aggregation costs a lookup and no copy of the strings.
    index: FxHashMap<u64, Vec<usize>>,
    /// Indices of events recorded (or re-counted) since the last `take_new`.
    fresh: Vec<usize>,
    pub now_ms: u64,
}

impl EventRecorder {
    pub fn record(
        &mut self,
        source: &str,
        kind: Kind,
        name: &str,
        type_: &str,
        reason: &str,
        message: String,
    ) {
        let object = format!("{}/{}", kind.as_str(), name);
        let now = self.now_ms;
        let id = {
            let mut h = Fx::default();
            (&object, type_, reason, &message).hash(&mut h);
            h.finish()
        };
        let same = |e: &Event| {
            e.object == object && e.type_ == type_ && e.reason == reason && e.message == message
        };
        let found = self
            .index
            .get(&id)
            .and_then(|is| is.iter().copied().find(|&i| same(&self.events[i])));
        if let Some(i) = found {
            self.events[i].count += 1;
            self.events[i].last_ms = now;
            self.fresh.push(i);
            return;
        }
        self.events.push(Event {
            type_: type_.into(),
            reason: reason.into(),
            message,
            object,
            source: source.into(),
            count: 1,
            first_ms: now,
            last_ms: now,
        });
        self.fresh.push(self.events.len() - 1);
        self.index
            .entry(id)
            .or_default()
            .push(self.events.len() - 1);
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
