//! `ControllerExpectations` and `UIDTrackingControllerExpectations`: what a controller waits to
//! see in its informer before it acts again, so it never double-creates on a stale cache.
//! Records expire after a TTL (5 minutes upstream), measured on the virtual clock.

use crate::api::{Str, Time};
use std::collections::BTreeMap;
use std::collections::BTreeSet;

pub const EXPECTATIONS_TTL_SECS: i64 = 300;

#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    pub add: i64,
    pub del: i64,
    pub timestamp: Time,
}

#[derive(Clone, Debug)]
pub struct ControllerExpectations {
    records: BTreeMap<String, Expectation>,
    pub ttl_secs: i64,
}

impl Default for ControllerExpectations {
    fn default() -> Self {
        ControllerExpectations {
            records: BTreeMap::new(),
            ttl_secs: EXPECTATIONS_TTL_SECS,
        }
    }
}

impl ControllerExpectations {
    pub fn get(&self, key: &str) -> Option<&Expectation> {
        self.records.get(key)
    }

    /// Satisfied when there is no record, the record is fulfilled (add ≤ 0 and del ≤ 0), or it
    /// has expired.
    pub fn satisfied(&self, key: &str, now: Time) -> bool {
        match self.records.get(key) {
            None => true,
            Some(e) => {
                (e.add <= 0 && e.del <= 0) || now.since(e.timestamp) > self.ttl_secs * 1_000_000_000
            }
        }
    }

    pub fn set(&mut self, key: &str, add: i64, del: i64, now: Time) {
        self.records.insert(
            key.to_string(),
            Expectation {
                add,
                del,
                timestamp: now,
            },
        );
    }

    pub fn expect_creations(&mut self, key: &str, n: i64, now: Time) {
        self.set(key, n, 0, now);
    }

    pub fn lower(&mut self, key: &str, add: i64, del: i64) {
        if let Some(e) = self.records.get_mut(key) {
            e.add -= add;
            e.del -= del;
        }
    }

    pub fn creation_observed(&mut self, key: &str) {
        self.lower(key, 1, 0);
    }

    pub fn deletion_observed(&mut self, key: &str) {
        self.lower(key, 0, 1);
    }

    pub fn delete(&mut self, key: &str) {
        self.records.remove(key);
    }
}

/// Expectations that also remember which pods are expected to go, so a deletion is counted once
/// even if the informer reports it twice (graceful deletion, then removal).
#[derive(Clone, Debug, Default)]
pub struct UidTrackingExpectations {
    pub counts: ControllerExpectations,
    uids: BTreeMap<String, BTreeSet<Str>>,
}

impl UidTrackingExpectations {
    pub fn get_uids(&self, key: &str) -> Option<&BTreeSet<Str>> {
        self.uids.get(key)
    }

    pub fn expect_deletions(&mut self, key: &str, pod_keys: Vec<Str>, now: Time) {
        let n = pod_keys.len() as i64;
        // Inserted one by one: collecting into a set would bring in a sort.
        let mut set = BTreeSet::new();
        for k in pod_keys {
            set.insert(k);
        }
        self.uids.insert(key.to_string(), set);
        self.counts.set(key, 0, n, now);
    }

    pub fn deletion_observed(&mut self, key: &str, pod_key: &str) {
        if let Some(set) = self.uids.get_mut(key)
            && set.remove(pod_key)
        {
            self.counts.deletion_observed(key);
        }
    }

    pub fn delete_expectations(&mut self, key: &str) {
        self.uids.remove(key);
        self.counts.delete(key);
    }

    pub fn satisfied(&self, key: &str, now: Time) -> bool {
        self.counts.satisfied(key, now)
    }
}
