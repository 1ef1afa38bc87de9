//! The controllers, named and structured after kube-controller-manager: `deployment/` is
//! pkg/controller/deployment, `replicaset/` is pkg/controller/replicaset, and this module holds
//! what pkg/controller/controller_utils.go shares between them (pod ranking, expectations, the
//! template hash, ReplicaSet orderings, slow start).

pub mod actor;
pub mod calls;
pub mod deployment;
pub mod disruption;
pub mod endpointslice;
pub mod expectations;
pub mod garbagecollector;
pub mod nodelifecycle;
pub mod ranking;
pub mod release;
pub mod replicaset;
pub mod upstream;

use crate::api::{Pod, PodTemplateSpec, ReplicaSet};
use serde::Serialize;
use std::cmp::Ordering;

/// The feature gates the controllers read (kube-controller-manager's `--feature-gates`) and the
/// release whose behaviour they reproduce: one value, given to the controllers when the
/// cluster is made (`release::Release::gates` makes it from a scenario's world).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureGates {
    /// The release (what changed between releases without a gate: `release.rs`).
    pub release: release::Release,
    /// `PodDeletionCost`: the `controller.kubernetes.io/pod-deletion-cost` annotation ranks pods
    /// for deletion.
    pub pod_deletion_cost: bool,
    /// `LogarithmicScaleDown`: pods of similar age, on a logarithmic scale, are ranked alike.
    pub logarithmic_scale_down: bool,
    /// `DeploymentReplicaSetTerminatingReplicas` (on by default since v1.35): a ReplicaSet's
    /// status counts its terminating pods.
    pub deployment_replica_set_terminating_replicas: bool,
}

impl Default for FeatureGates {
    fn default() -> Self {
        FeatureGates {
            release: release::Release::NEWEST,
            pod_deletion_cost: true,
            logarithmic_scale_down: true,
            deployment_replica_set_terminating_replicas: true,
        }
    }
}

/// One line of a sync's explanation: which upstream function decided, and its arithmetic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explain {
    #[serde(rename = "fn")]
    pub func: String,
    pub text: String,
    /// The index, among the sync's calls, of the call of `func` that gave this line (known
    /// where the line was written through the sync's call log).
    #[serde(skip)]
    pub call: Option<u16>,
}

impl Explain {
    pub fn new(func: &str, text: impl Into<String>) -> Explain {
        Explain {
            func: func.into(),
            text: text.into(),
            call: None,
        }
    }
}

/// `controller.FilterActivePods`: pods neither terminal nor being deleted.
pub fn filter_active_pods<'a>(pods: impl IntoIterator<Item = &'a Pod>) -> Vec<&'a Pod> {
    pods.into_iter().filter(|p| p.is_active()).collect()
}

/// `controller.FilterActiveReplicaSets`: ReplicaSets with spec.replicas > 0.
pub fn filter_active_replica_sets(rss: &[ReplicaSet]) -> Vec<ReplicaSet> {
    rss.iter().filter(|r| r.replicas() > 0).cloned().collect()
}

/// `ReplicaSetsByCreationTimestamp`: older first, then by name.
pub fn by_creation_timestamp(a: &ReplicaSet, b: &ReplicaSet) -> Ordering {
    let (ta, tb) = (a.metadata.creation_timestamp, b.metadata.creation_timestamp);
    if ta == tb {
        a.metadata.name.cmp(&b.metadata.name)
    } else {
        ta.cmp(&tb)
    }
}

/// `ReplicaSetsBySizeOlder`: larger first; equal sizes older first (scale-down order).
pub fn by_size_older(a: &ReplicaSet, b: &ReplicaSet) -> Ordering {
    if a.replicas() == b.replicas() {
        by_creation_timestamp(a, b)
    } else {
        b.replicas().cmp(&a.replicas())
    }
}

/// `ReplicaSetsBySizeNewer`: larger first; equal sizes newer first (scale-up order).
pub fn by_size_newer(a: &ReplicaSet, b: &ReplicaSet) -> Ordering {
    if a.replicas() == b.replicas() {
        by_creation_timestamp(b, a)
    } else {
        b.replicas().cmp(&a.replicas())
    }
}

/// FNV-1a, 32 bit, as Go's `hash/fnv` computes it.
fn fnv32a(bytes: &[u8], mut h: u32) -> u32 {
    for b in bytes {
        h ^= *b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// `controller.ComputeHash`: FNV-32a over the template (upstream prints it with spew; we use
/// canonical JSON, so values differ from a real cluster's but have the same properties), then the
/// collision count, rendered with `rand.SafeEncodeString` of the decimal hash.
pub fn compute_hash(template: &PodTemplateSpec, collision_count: Option<i32>) -> String {
    // Keys sorted, so that equal templates print, and hash, equally.
    let mut v = crate::api::codec::to_value(template);
    v.sort_all_objects();
    let s = v.to_string();
    let mut h = fnv32a(s.as_bytes(), 0x811c_9dc5);
    if let Some(c) = collision_count {
        h = fnv32a(&(c as u32).to_le_bytes(), h);
    }
    safe_encode(&h.to_string())
}

/// `rand.SafeEncodeString`: maps each byte onto an alphabet without vowels or look-alikes.
pub fn safe_encode(s: &str) -> String {
    const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    s.bytes()
        .map(|b| ALPHANUMS[b as usize % ALPHANUMS.len()] as char)
        .collect()
}

/// `slowStartBatch`: calls `f` in batches of 1, 2, 4, … (capped by what is left), stopping
/// after the first batch with a failure. Returns successes and the first error.
pub fn slow_start_batch<E>(
    count: usize,
    initial_batch_size: usize,
    f: impl FnMut() -> Result<(), E>,
) -> (usize, Option<E>) {
    slow_start_batches(count, initial_batch_size, f, &mut vec![])
}

/// [`slow_start_batch`], saying the size of each batch it ran (the trace's `batches`).
pub fn slow_start_batches<E>(
    count: usize,
    initial_batch_size: usize,
    mut f: impl FnMut() -> Result<(), E>,
    ran: &mut Vec<usize>,
) -> (usize, Option<E>) {
    let mut remaining = count;
    let mut successes = 0;
    let mut batch = remaining.min(initial_batch_size);
    while batch > 0 {
        ran.push(batch);
        let mut first_err = None;
        let mut ok = 0;
        for _ in 0..batch {
            match f() {
                Ok(()) => ok += 1,
                Err(e) => {
                    if first_err.is_none() {
                        first_err = Some(e);
                    }
                }
            }
        }
        successes += ok;
        if first_err.is_some() {
            return (successes, first_err);
        }
        remaining -= batch;
        batch = (2 * batch).min(remaining);
    }
    (successes, None)
}
