//! Which pods a ReplicaSet deletes first: `controller.ActivePods` and `ActivePodsWithRanks`
//! (unassigned < Pending < Unknown < Running; not ready < ready; lower deletion cost; more
//! co-located; ready for less time, in log2 buckets of nanoseconds; more restarts; newer).

use super::FeatureGates;
use crate::api::{
    PHASE_PENDING, PHASE_RUNNING, PHASE_UNKNOWN, POD_DELETION_COST_ANNOTATION, Pod, PodStatus,
    Shared, Time,
};

fn phase_ordinal(p: &Pod) -> u8 {
    match p.status.phase.as_str() {
        PHASE_PENDING => 0,
        PHASE_UNKNOWN => 1,
        PHASE_RUNNING => 2,
        _ => 0,
    }
}

/// The Ready condition's lastTransitionTime when ready; `None` is Go's zero time.
fn ready_time(p: &Pod) -> Option<Time> {
    if p.is_ready() {
        p.ready_condition().and_then(|c| c.last_transition_time)
    } else {
        None
    }
}

/// `afterOrZero`: a zero time sorts first; otherwise the later time first.
fn after_or_zero(t1: Option<Time>, t2: Option<Time>) -> bool {
    match (t1, t2) {
        (None, _) | (_, None) => t1.is_none(),
        (Some(a), Some(b)) => a > b,
    }
}

fn log_rank(now: Time, t: Time) -> i64 {
    let d = now.since(t);
    if d > 0 { (d as f64).log2() as i64 } else { -1 }
}

/// `GetDeletionCostFromPodAnnotations`, whose error the ranking reads as 0: a 32-bit decimal
/// with no `+` and no leading zero (`validFirstDigit`), which Rust's parse would accept.
fn deletion_cost(p: &Pod) -> i32 {
    p.metadata
        .annotations
        .get(POD_DELETION_COST_ANNOTATION)
        .filter(|v| *v == "0" || matches!(v.as_bytes().first(), Some(b'-' | b'1'..=b'9')))
        .and_then(|v| v.parse::<i32>().ok())
        .unwrap_or(0)
}

/// `ActivePods.Less`: true when `a` should be deleted before `b`.
pub fn active_pods_less(a: &Pod, b: &Pod) -> bool {
    let (na, nb) = (&a.spec.node_name, &b.spec.node_name);
    if na != nb && (na.is_empty() || nb.is_empty()) {
        return na.is_empty();
    }
    if phase_ordinal(a) != phase_ordinal(b) {
        return phase_ordinal(a) < phase_ordinal(b);
    }
    if a.is_ready() != b.is_ready() {
        return !a.is_ready();
    }
    if a.is_ready() && b.is_ready() {
        let (ra, rb) = (ready_time(a), ready_time(b));
        if ra != rb {
            return after_or_zero(ra, rb);
        }
    }
    if a.max_restarts() != b.max_restarts() {
        return a.max_restarts() > b.max_restarts();
    }
    let (ca, cb) = (a.metadata.creation_timestamp, b.metadata.creation_timestamp);
    if ca != cb {
        return after_or_zero(ca, cb);
    }
    false
}

/// What `ActivePodsWithRanks.Less` reads of one pod, read once: a sort makes n log n
/// comparisons, and each would otherwise search the pod's conditions and annotations again.
#[derive(Clone, Debug, PartialEq)]
pub struct RankKey<'a> {
    /// The steps `Less` takes before the times, packed so that comparing two numbers takes
    /// them all: assigned, phase, ready, deletion cost (when its gate is on) and the count of
    /// co-located pods reversed, the first step in the highest bits (see [`Head`]).
    head: u128,
    /// The Ready condition's lastTransitionTime when ready, with its log2 bucket.
    ready_at: Option<(Time, i64)>,
    restarts: i32,
    created: Option<(Time, i64)>,
    uid: &'a str,
}

/// The bits of [`RankKey::head`], each step's order made the numbers' order.
struct Head;

impl Head {
    const ASSIGNED: u32 = 67;
    const PHASE: u32 = 65;
    const READY: u32 = 64;
    const COST: u32 = 32;
    /// The bits a pod's status sets (see `RankKeys::push`).
    const STATUS: u128 = 0b11 << Self::PHASE | 1 << Self::READY;

    /// A lower deletion cost first: the i32 order as u32 order.
    fn cost(cost: i32) -> u128 {
        ((cost as u32 ^ 0x8000_0000) as u128) << Self::COST
    }

    /// More co-located pods first: the i32 order reversed.
    fn rank(rank: i32) -> u128 {
        (!(rank as u32 ^ 0x8000_0000)) as u128
    }
}

/// One pod's ranking keys as the trace shows them, in `ActivePodsWithRanks.Less`'s order:
/// a pod earlier in that order is deleted first.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RankView {
    pub assigned: bool,
    pub phase: &'static str,
    pub ready: bool,
    /// The pod-deletion-cost annotation, when its feature gate is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion_cost: Option<i32>,
    /// Active pods of the ReplicaSet on the pod's node.
    pub co_located: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_since: Option<Time>,
    pub restarts: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<Time>,
    /// The instant of the sync that ranked the pods (their ages are told from it).
    #[serde(skip)]
    pub at: Option<Time>,
}

impl<'a> RankKey<'a> {
    /// The keys in words (the trace's deletions), ranked at `at`.
    pub fn view(&self, gates: FeatureGates, at: Option<Time>) -> RankView {
        let low = (self.head & 0xffff_ffff) as u32;
        let cost = ((self.head >> Head::COST) & 0xffff_ffff) as u32;
        RankView {
            assigned: self.head >> Head::ASSIGNED & 1 == 1,
            phase: match self.head >> Head::PHASE & 0b11 {
                0 => PHASE_PENDING,
                1 => PHASE_UNKNOWN,
                _ => PHASE_RUNNING,
            },
            ready: self.ready(),
            deletion_cost: gates
                .pod_deletion_cost
                .then_some((cost ^ 0x8000_0000) as i32),
            co_located: (!low ^ 0x8000_0000) as i32,
            ready_since: self.ready_at.map(|(t, _)| t),
            restarts: self.restarts,
            created: self.created.map(|(t, _)| t),
            at,
        }
    }

    pub fn of(p: &'a Pod, rank: i32, now: Option<Time>, gates: FeatureGates) -> RankKey<'a> {
        let created = bucket(p.metadata.creation_timestamp, now);
        let mut k = RankKey::of_pod(p, rank, created, gates);
        k.read_status(p, now);
        k
    }

    /// The parts read from the pod itself (with its creation time's bucket, given); the
    /// status parts are left for `read_status`.
    fn of_pod(
        p: &'a Pod,
        rank: i32,
        created: Option<(Time, i64)>,
        gates: FeatureGates,
    ) -> RankKey<'a> {
        let mut head = Head::rank(rank);
        if !p.spec.node_name.is_empty() {
            head |= 1 << Head::ASSIGNED;
        }
        if gates.pod_deletion_cost {
            head |= Head::cost(deletion_cost(p));
        }
        RankKey {
            head,
            ready_at: None,
            restarts: 0,
            created,
            uid: &p.metadata.uid,
        }
    }

    fn read_status(&mut self, p: &Pod, now: Option<Time>) {
        let ready = p.is_ready();
        self.head |= (phase_ordinal(p) as u128) << Head::PHASE | (ready as u128) << Head::READY;
        self.ready_at = if ready {
            bucket(ready_time(p), now)
        } else {
            None
        };
        self.restarts = p.max_restarts();
    }

    fn ready(&self) -> bool {
        self.head >> Head::READY & 1 == 1
    }

    /// The keys of many pods (see [`RankKeys`]).
    pub fn of_all(
        pods: &[&'a Pod],
        rank: impl Fn(&Pod) -> i32,
        now: Option<Time>,
        gates: FeatureGates,
    ) -> Vec<RankKey<'a>> {
        let mut keys = RankKeys::new(now, gates, pods.len());
        for p in pods {
            keys.push(p, rank(p));
        }
        keys.keys
    }
}

/// The keys of many pods, taken one by one, each distinct status read once: the pods of a
/// batch share one status (see `cluster/intern.rs`), and a scale-down ranks thousands of them.
/// Their creation times are few too (a batch is created at one instant), so each one's bucket,
/// a logarithm, is also computed once in a row.
/// One by one, so that a ReplicaSet's sync reads each pod's key while it has the pod at hand.
pub struct RankKeys<'a> {
    pub keys: Vec<RankKey<'a>>,
    last: Option<(&'a Shared<PodStatus>, usize)>,
    last_created: Option<(Time, i64)>,
    now: Option<Time>,
    gates: FeatureGates,
}

impl<'a> RankKeys<'a> {
    pub fn new(now: Option<Time>, gates: FeatureGates, capacity: usize) -> RankKeys<'a> {
        RankKeys {
            keys: Vec::with_capacity(capacity),
            last: None,
            last_created: None,
            now,
            gates,
        }
    }

    pub fn push(&mut self, p: &'a Pod, rank: i32) {
        let created = match (p.metadata.creation_timestamp, self.last_created) {
            (Some(t), Some(last)) if t == last.0 => Some(last),
            (t, _) => {
                let created = bucket(t, self.now);
                self.last_created = created.or(self.last_created);
                created
            }
        };
        let mut k = RankKey::of_pod(p, rank, created, self.gates);
        match self.last {
            Some((s, i)) if Shared::same(s, &p.status) => {
                let read = &self.keys[i];
                k.head |= read.head & Head::STATUS;
                (k.ready_at, k.restarts) = (read.ready_at, read.restarts);
            }
            _ => {
                k.read_status(p, self.now);
                self.last = Some((&p.status, self.keys.len()));
            }
        }
        self.keys.push(k);
    }
}

/// A time with its log2 bucket at `now` (0 without a `now`).
fn bucket(t: Option<Time>, now: Option<Time>) -> Option<(Time, i64)> {
    t.map(|t| (t, now.map_or(0, |now| log_rank(now, t))))
}

/// `ActivePodsWithRanks.Less`.
pub fn ranked_less(
    a: &Pod,
    rank_a: i32,
    b: &Pod,
    rank_b: i32,
    now: Option<Time>,
    gates: FeatureGates,
) -> bool {
    ranked_key_less(
        &RankKey::of(a, rank_a, now, gates),
        &RankKey::of(b, rank_b, now, gates),
        now.is_some(),
        gates,
    )
}

/// `ActivePodsWithRanks.Less` over keys read by [`RankKey::of`] (`has_now`: whether a
/// current time was given, which the logarithmic comparison needs).
pub fn ranked_key_less(a: &RankKey, b: &RankKey, has_now: bool, gates: FeatureGates) -> bool {
    // Unassigned, phase, ready, deletion cost, co-located pods: one comparison (see `Head`).
    // (Upstream's first step is "nodes differ and one is unassigned": an unassigned pod's node
    // is the empty name, so that is exactly "one is unassigned and the other is not".)
    if a.head != b.head {
        return a.head < b.head;
    }
    let by_time = |t1: Option<(Time, i64)>, t2: Option<(Time, i64)>| -> Option<bool> {
        let (x, y) = (t1.map(|t| t.0), t2.map(|t| t.0));
        if x == y {
            return None;
        }
        if !gates.logarithmic_scale_down {
            return Some(after_or_zero(x, y));
        }
        match (has_now, t1, t2) {
            (true, Some((_, bx)), Some((_, by))) => {
                Some(if bx == by { a.uid < b.uid } else { bx < by })
            }
            _ => Some(after_or_zero(x, y)),
        }
    };
    // (Equal heads: both are ready or neither is.)
    if a.ready()
        && let Some(r) = by_time(a.ready_at, b.ready_at)
    {
        return r;
    }
    if a.restarts != b.restarts {
        return a.restarts > b.restarts;
    }
    if let Some(r) = by_time(a.created, b.created) {
        return r;
    }
    false
}

/// Sorts by a "less" the way Go's sort.Sort would settle equal elements: stable. Upstream's
/// ranking is not always a strict weak order (the logarithmic bucket falls back to the uid
/// while other ties fall through), and Go sorts such input without complaint; so this is a
/// plain merge sort that never checks consistency (the standard library's sort may panic).
/// Sorts by a consistent order use `slice::sort_by`.
pub fn sort_by_less<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    if v.len() < 2 {
        return;
    }
    let less = |a, b| less(&v[a], &v[b]);
    let order = merge_sorted_indices(v.len(), v.len(), None, less);
    // Put element order[k] at k, cycle by cycle.
    let mut placed = vec![false; v.len()];
    for start in 0..v.len() {
        let mut i = start;
        while !placed[i] {
            placed[i] = true;
            let j = order[i];
            if j == start {
                break;
            }
            v.swap(i, j);
            i = j;
        }
    }
}

/// The indices of the first `k` elements of `v` in the order [`sort_by_less`] would put them,
/// at the cost of sorting runs of at most `k`: a ReplicaSet deleting 500 of 10 000 pods need
/// not order the other 9 500. Only the elements `kept` (all, without it) take part: the
/// caller's promise is that `less` puts every other one after all of them (see
/// [`first_ranked`]).
pub fn first_by_less<T>(
    v: &[T],
    k: usize,
    kept: Option<&[bool]>,
    less: impl Fn(&T, &T) -> bool,
) -> Vec<usize> {
    let less = |a, b| less(&v[a], &v[b]);
    merge_sorted_indices(v.len(), k, kept, less)
}

/// The indices of the first `k` keys in `ActivePodsWithRanks` order, as [`first_by_less`] puts
/// them.
///
/// Natively, only the keys whose head is at most the `k`-th smallest head are merged: whatever
/// the rest of `Less` does, a pod with a greater head is never among the first `k`, and it
/// changes nothing of their order. (The heads alone are a consistent order, so every merged
/// run lists its pods by head; a merge takes the pods of the lower heads before any of a higher
/// one, comparing them with each other exactly as it would with the others present, and a run
/// cut at `k` loses the higher heads first.) With pods spread over nodes, that leaves the
/// pods of the most crowded node or two, a third of them or less on three nodes.
pub fn first_ranked(keys: &[RankKey], k: usize, has_now: bool, gates: FeatureGates) -> Vec<usize> {
    let kept: Option<Vec<bool>> = (k > 0 && k < keys.len()).then(|| {
        let mut heads: Vec<u128> = keys.iter().map(|key| key.head).collect();
        let kth = *heads.select_nth_unstable(k - 1).1;
        keys.iter().map(|key| key.head <= kth).collect()
    });
    first_by_less(keys, k, kept.as_deref(), |a, b| {
        ranked_key_less(a, b, has_now, gates)
    })
}

/// Bottom-up merge sort of `0..n` by `less` on indices, keeping only the first `k` of each
/// run. That changes nothing in the first `k` of the result, whatever `less` does: a merge
/// that puts out `k` elements compares and takes only the first `k` of either run, so the
/// rest of a run never matters to them. Indices not `kept` start as empty runs, so they are
/// never compared; the runs keep their places.
// (Generic: see `first_by_less`.)
fn merge_sorted_indices(
    n: usize,
    k: usize,
    kept: Option<&[bool]>,
    less: impl Fn(usize, usize) -> bool,
) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    let mut buf = v.clone();
    // The length of each run of the current width, side by side: run r starts at r * width.
    let mut lens: Vec<usize> = match kept {
        Some(kept) => kept.iter().map(|&keep| keep as usize).collect(),
        None => vec![1; n],
    };
    let mut width = 1;
    while width < n {
        let (mut start, mut run) = (0, 0);
        while start < n {
            let (left, right) = (start, start + width);
            let ll = lens[2 * run];
            let rl = lens.get(2 * run + 1).copied().unwrap_or(0);
            let out = k.min(ll + rl);
            let (mut i, mut j) = (0, 0);
            for slot in &mut buf[start..start + out] {
                // Take from the right only when it is strictly less: stability.
                *slot = if i == ll || (j < rl && less(v[right + j], v[left + i])) {
                    j += 1;
                    v[right + j - 1]
                } else {
                    i += 1;
                    v[left + i - 1]
                };
            }
            lens[run] = out;
            start += 2 * width;
            run += 1;
        }
        lens.truncate(run);
        std::mem::swap(&mut v, &mut buf);
        width *= 2;
    }
    v.truncate(lens.first().map_or(0, |&len| len.min(k)));
    v
}

#[cfg(test)]
mod sort_tests {
    use super::{first_by_less, sort_by_less};
    use proptest::prelude::*;

    proptest! {
        /// The same order as the standard library's stable sort, ties kept in input order.
        #[test]
        fn matches_the_standard_stable_sort(v in proptest::collection::vec((0u8..6, any::<u16>()), 0..300)) {
            let mut ours = v.clone();
            sort_by_less(&mut ours, |a, b| a.0 < b.0);
            let mut std = v;
            std.sort_by_key(|a| a.0);
            prop_assert_eq!(ours, std);
        }
    }

    proptest! {
        /// The first k are the first k of the full sort, even when `less` is no order at all.
        #[test]
        fn first_k_match_the_full_sort(
            v in proptest::collection::vec(0u8..12, 0..200),
            k in 0usize..220,
            twisted in any::<bool>(),
        ) {
            let less = |a: &u8, b: &u8| if twisted { (a + 1) % 4 == b % 4 } else { a < b };
            let mut full: Vec<(usize, u8)> = v.iter().copied().enumerate().collect();
            sort_by_less(&mut full, |a, b| less(&a.1, &b.1));
            let first: Vec<usize> = full.iter().take(k).map(|x| x.0).collect();
            prop_assert_eq!(first_by_less(&v, k, None, less), first);
        }
    }

    /// The packed head takes `Less`'s first five steps as upstream spells them, one by one,
    /// at the ends of every range (costs and ranks of i32::MIN and MAX included). (A table.)
    #[test]
    fn the_packed_head_orders_as_the_steps_do() {
        use super::ranked_less;
        use crate::api::{POD_DELETION_COST_ANNOTATION, Pod, PodCondition};
        use crate::controller::FeatureGates;
        #[derive(Clone, Copy, Debug)]
        struct Facts {
            assigned: bool,
            phase: usize,
            ready: bool,
            cost: i32,
            rank: i32,
        }
        const PHASES: [(&str, u8); 4] = [
            ("Pending", 0),
            ("Unknown", 1),
            ("Running", 2),
            ("Failed", 0),
        ];
        let pod = |f: Facts| {
            let mut p = Pod::default();
            if f.assigned {
                p.spec.node_name = "node-1".into();
            }
            p.status.phase = PHASES[f.phase].0.into();
            p.status.conditions.push(PodCondition {
                type_: "Ready".into(),
                status: if f.ready { "True" } else { "False" }.into(),
                ..Default::default()
            });
            p.metadata
                .annotations
                .insert(POD_DELETION_COST_ANNOTATION.into(), f.cost.to_string());
            p
        };
        // Upstream's steps, each deciding only when the two differ; equal in all is "not less".
        let reference = |a: Facts, b: Facts, cost_gate: bool| {
            if a.assigned != b.assigned {
                return !a.assigned;
            }
            let (pa, pb) = (PHASES[a.phase].1, PHASES[b.phase].1);
            if pa != pb {
                return pa < pb;
            }
            if a.ready != b.ready {
                return !a.ready;
            }
            if cost_gate && a.cost != b.cost {
                return a.cost < b.cost;
            }
            if a.rank != b.rank {
                return a.rank > b.rank;
            }
            false
        };
        let ints = prop_oneof![
            Just(i32::MIN),
            Just(i32::MAX),
            Just(0),
            Just(-1),
            Just(1),
            any::<i32>()
        ];
        let facts = (any::<bool>(), 0..4usize, any::<bool>(), ints.clone(), ints).prop_map(
            |(assigned, phase, ready, cost, rank)| Facts {
                assigned,
                phase,
                ready,
                cost,
                rank,
            },
        );
        proptest!(|(a in facts.clone(), b in facts, cost_gate in any::<bool>())| {
            let gates = FeatureGates {
                pod_deletion_cost: cost_gate,
                ..FeatureGates::default()
            };
            let (pa, pb) = (pod(a), pod(b));
            prop_assert_eq!(
                ranked_less(&pa, a.rank, &pb, b.rank, None, gates),
                reference(a, b, cost_gate)
            );
        });
    }

    proptest! {
        /// Leaving out every element whose head comes after the k-th smallest head changes
        /// nothing of the first k, even when equal heads are ordered by no order at all.
        #[test]
        fn leaving_out_what_cannot_come_first_changes_nothing(
            v in proptest::collection::vec((0u8..4, 0u8..12), 1..200),
            k in 1usize..60,
            twisted in any::<bool>(),
        ) {
            let k = k.min(v.len());
            let less = |a: &(u8, u8), b: &(u8, u8)| {
                if a.0 != b.0 {
                    a.0 < b.0
                } else if twisted {
                    (a.1 + 1) % 4 == b.1 % 4
                } else {
                    a.1 < b.1
                }
            };
            let mut heads: Vec<u8> = v.iter().map(|x| x.0).collect();
            heads.sort();
            let kept: Vec<bool> = v.iter().map(|x| x.0 <= heads[k - 1]).collect();
            prop_assert_eq!(
                first_by_less(&v, k, Some(&kept), less),
                first_by_less(&v, k, None, less)
            );
        }
    }

    /// Pods ranked with the keys past the k-th head left out are the pods ranked with all.
    #[test]
    fn first_ranked_pods_are_the_first_of_all_ranked() {
        use super::{RankKey, first_ranked, ranked_key_less};
        use crate::api::{Pod, PodCondition, Time};
        use crate::controller::FeatureGates;
        let pods: Vec<Pod> = (0..90u64)
            .map(|i| {
                let mut p = Pod::default();
                p.metadata.uid = format!("{:03}", (i * 37) % 101).into();
                p.metadata.creation_timestamp = Some(Time::from_virtual(i % 4 * 1_000));
                p.spec.node_name = ["", "node-1", "node-2", "node-3"][(i % 4) as usize].into();
                p.status.phase = if i % 5 == 0 { "Pending" } else { "Running" }.into();
                p.status.conditions.push(PodCondition {
                    type_: "Ready".into(),
                    status: if i % 7 == 0 { "False" } else { "True" }.into(),
                    last_transition_time: Some(Time::from_virtual(10_000 + i % 6 * 3_000)),
                    ..Default::default()
                });
                p
            })
            .collect();
        let now = Some(Time::from_virtual(60_000));
        let gates = FeatureGates::default();
        let keys: Vec<RankKey> = pods
            .iter()
            .enumerate()
            .map(|(i, p)| RankKey::of(p, (i % 3) as i32, now, gates))
            .collect();
        for k in 0..=keys.len() {
            assert_eq!(
                first_ranked(&keys, k, true, gates),
                first_by_less(&keys, k, None, |a, b| ranked_key_less(a, b, true, gates)),
                "k = {k}"
            );
        }
    }

    /// Keys built together (a status read once for the pods sharing it) are the keys built
    /// one by one.
    #[test]
    fn keys_of_all_are_the_keys_of_each() {
        use super::RankKey;
        use crate::api::{Pod, PodCondition, Shared, Time};
        let ready = |p: &mut Pod, at: u64| {
            p.status.phase = "Running".into();
            p.status.conditions.push(PodCondition {
                type_: "Ready".into(),
                status: "True".into(),
                last_transition_time: Some(Time::from_virtual(at)),
                ..Default::default()
            });
        };
        let mut a = Pod::default();
        ready(&mut a, 1_000);
        a.metadata.uid = "a".into();
        a.metadata.creation_timestamp = Some(Time::from_virtual(0));
        let mut b = a.clone();
        b.metadata.uid = "b".into();
        b.spec.node_name = "node-1".into();
        let mut c = Pod::default();
        c.metadata.uid = "c".into();
        let mut d = Pod::default();
        ready(&mut d, 5_000);
        d.metadata.uid = "d".into();
        assert!(Shared::same(&a.status, &b.status));
        let pods = [&a, &b, &c, &d, &a];
        let now = Some(Time::from_virtual(90_000));
        let rank = |p: &Pod| p.metadata.uid.len() as i32;
        let gates = crate::controller::FeatureGates::default();
        let each: Vec<RankKey> = pods
            .iter()
            .map(|p| RankKey::of(p, rank(p), now, gates))
            .collect();
        assert_eq!(RankKey::of_all(&pods, rank, now, gates), each);
    }

    #[test]
    fn sorts_stably_and_survives_an_inconsistent_less() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        sort_by_less(&mut v, |a, b| a.0 < b.0);
        assert_eq!(v, vec![(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        // Rock-paper-scissors: no total order exists; the sort must still finish.
        let mut w: Vec<u32> = (0..200).map(|i| i % 3).collect();
        sort_by_less(&mut w, |a, b| (a + 1) % 3 == *b);
        assert_eq!(w.len(), 200);
    }
}

#[cfg(test)]
mod cost_tests {
    use super::deletion_cost;
    use crate::api::{POD_DELETION_COST_ANNOTATION, Pod};

    /// `GetDeletionCostFromPodAnnotations`: what it refuses counts as no cost at all.
    #[test]
    fn a_deletion_cost_is_a_plain_32_bit_decimal() {
        let cost = |v: &str| {
            let mut p = Pod::default();
            p.metadata
                .annotations
                .insert(POD_DELETION_COST_ANNOTATION.into(), v.into());
            deletion_cost(&p)
        };
        let got: Vec<i32> = ["5", "-5", "0", "-05", "+5", "007", "", "x", "2147483648"]
            .map(cost)
            .to_vec();
        assert_eq!(got, [5, -5, 0, -5, 0, 0, 0, 0, 0]);
    }
}
