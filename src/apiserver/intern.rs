//! Equal parts of pods stored once. The pods of one ReplicaSet differ in their names, uids and
//! resourceVersions, but their specs differ only by node, their owner references not at all,
//! and their statuses only by the virtual instant each step happened at, which a batch of pods
//! shares. Keeping one copy of each shares a 10 000-replica rollout's pods in a few dozen
//! specs and statuses instead of one per pod (and per write), which is most of what does not
//! fit in the processor's cache at that size.
//!
//! Sharing is invisible: `Shared` copies on write, and compares by value.

use crate::api::{ContainerState, Extra, OwnerReference, Pod, PodSpec, PodStatus, Shared};
use rustc_hash::{FxHashMap, FxHasher as Fx};
use std::hash::{Hash, Hasher};

/// One kind of part, by a hash of what usually tells two apart (equality decides): the hashes
/// index a list of buckets, each holding the distinct values that share a hash.
#[derive(Clone)]
struct Pool<T> {
    index: FxHashMap<u64, u32>,
    buckets: Vec<(u64, Vec<Shared<T>>)>,
    len: usize,
    /// The size at which values no object holds any more are dropped.
    sweep_at: usize,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool {
            index: FxHashMap::default(),
            buckets: Vec::new(),
            len: 0,
            sweep_at: SWEEP_MIN,
        }
    }
}

const SWEEP_MIN: usize = 256;

impl<T: Clone + PartialEq> Pool<T> {
    fn intern(&mut self, v: &mut Shared<T>, hash: u64) {
        let b = match self.index.get(&hash) {
            Some(&b) => b as usize,
            None => {
                self.buckets.push((hash, Vec::new()));
                self.index.insert(hash, (self.buckets.len() - 1) as u32);
                self.buckets.len() - 1
            }
        };
        let bucket = &mut self.buckets[b].1;
        if let Some(kept) = bucket.iter().find(|kept| *kept == v) {
            *v = kept.clone();
            return;
        }
        bucket.push(v.clone());
        self.len += 1;
        if self.len > self.sweep_at {
            // Every value the pool alone holds goes; what is left sets the next sweep, so
            // the pool stays within twice what objects hold (and sweeping costs O(1) per add).
            for (_, b) in &mut self.buckets {
                b.retain(|x| Shared::holders(x) > 1);
            }
            self.buckets.retain(|(_, b)| !b.is_empty());
            self.index.clear();
            for (i, (h, _)) in self.buckets.iter().enumerate() {
                self.index.insert(*h, i as u32);
            }
            self.len = self.buckets.iter().map(|(_, b)| b.len()).sum();
            self.sweep_at = (2 * self.len).max(SWEEP_MIN);
        }
    }
}

/// The store's pools of pod parts (see the module's text).
#[derive(Clone, Default)]
pub struct PodParts {
    specs: Pool<PodSpec>,
    statuses: Pool<PodStatus>,
    owners: Pool<Vec<OwnerReference>>,
    empty_extra: Extra,
}

impl PodParts {
    /// Replaces the pod's spec, status, owner references and (empty) unmodelled metadata
    /// with equal ones already stored, or keeps them for the next pod.
    pub fn intern(&mut self, p: &mut Pod) {
        let mut h = Fx::default();
        let s = &*p.spec;
        (
            &s.node_name,
            &s.restart_policy,
            s.termination_grace_period_seconds,
        )
            .hash(&mut h);
        for c in &s.containers {
            (&c.name, &c.image).hash(&mut h);
        }
        self.specs.intern(&mut p.spec, h.finish());

        let mut h = Fx::default();
        let s = &*p.status;
        (&s.phase, s.start_time).hash(&mut h);
        for c in &s.conditions {
            (&c.type_, &c.status, c.last_transition_time, &c.reason).hash(&mut h);
        }
        for c in &s.container_statuses {
            (&c.name, c.ready, c.started, c.restart_count).hash(&mut h);
            state_hash(&c.state, &mut h);
            state_hash(&c.last_state, &mut h);
        }
        self.statuses.intern(&mut p.status, h.finish());

        let mut h = Fx::default();
        for r in &p.metadata.owner_references {
            (&r.uid, &r.name, r.controller).hash(&mut h);
        }
        self.owners
            .intern(&mut p.metadata.owner_references, h.finish());

        if p.metadata.extra.is_empty() {
            p.metadata.extra = self.empty_extra.clone();
        }
    }
}

fn state_hash(s: &ContainerState, h: &mut Fx) {
    if let Some(w) = &s.waiting {
        (0u8, &w.reason).hash(h);
    }
    if let Some(r) = &s.running {
        (1u8, r.started_at).hash(h);
    }
    if let Some(t) = &s.terminated {
        (2u8, t.exit_code, t.finished_at).hash(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ConditionStatus, PodCondition};

    fn pod(node: &str, phase: &str) -> Pod {
        let mut p = Pod::default();
        p.spec.node_name = node.into();
        p.status.phase = phase.into();
        p.status.conditions.push(PodCondition {
            type_: "Ready".into(),
            status: ConditionStatus::True.into(),
            ..Default::default()
        });
        p
    }

    #[test]
    fn equal_parts_are_shared_and_still_copied_on_write() {
        let mut parts = PodParts::default();
        let (mut a, mut b, mut c) = (
            pod("node-1", "Running"),
            pod("node-1", "Running"),
            pod("node-2", "Pending"),
        );
        for p in [&mut a, &mut b, &mut c] {
            parts.intern(p);
        }
        assert!(Shared::same(&a.spec, &b.spec) && Shared::same(&a.status, &b.status));
        assert!(!Shared::same(&a.spec, &c.spec) && !Shared::same(&a.status, &c.status));
        assert!(Shared::same(&a.metadata.extra, &c.metadata.extra));
        b.status.phase = "Failed".into();
        assert_eq!(
            (a.status.phase.as_str(), b.status.phase.as_str()),
            ("Running", "Failed")
        );
    }

    #[test]
    fn values_no_pod_holds_are_dropped() {
        let mut parts = PodParts::default();
        let mut kept = pod("node-1", "Running");
        parts.intern(&mut kept);
        for i in 0..10 * SWEEP_MIN {
            let mut p = pod(&format!("node-{i}"), "Running");
            parts.intern(&mut p);
        }
        assert!(
            parts.specs.len <= 2 * SWEEP_MIN,
            "{} specs kept",
            parts.specs.len
        );
        let mut again = pod("node-1", "Running");
        parts.intern(&mut again);
        assert!(
            Shared::same(&again.spec, &kept.spec),
            "a held value survives sweeps"
        );
    }
}
