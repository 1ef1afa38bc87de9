//! Which pods a ReplicaSet deletes first: `controller.ActivePods` and `ActivePodsWithRanks`
//! (unassigned < Pending < Unknown < Running; not ready < ready; lower deletion cost; more
//! co-located; ready for less time, in log2 buckets of nanoseconds; more restarts; newer).

use crate::api::{
    PHASE_PENDING, PHASE_RUNNING, PHASE_UNKNOWN, POD_DELETION_COST_ANNOTATION, Pod, Time,
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

fn deletion_cost(p: &Pod) -> i32 {
    p.metadata
        .annotations
        .get(POD_DELETION_COST_ANNOTATION)
        .and_then(|v| v.parse::<i32>().ok())
        .unwrap_or(0)
}

/// Feature gates that change the ordering.
#[derive(Clone, Copy, Debug)]
pub struct RankingGates {
    pub pod_deletion_cost: bool,
    pub logarithmic_scale_down: bool,
}

impl Default for RankingGates {
    fn default() -> Self {
        RankingGates {
            pod_deletion_cost: true,
            logarithmic_scale_down: true,
        }
    }
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

/// `ActivePodsWithRanks.Less`.
pub fn ranked_less(
    a: &Pod,
    rank_a: i32,
    b: &Pod,
    rank_b: i32,
    now: Option<Time>,
    gates: RankingGates,
) -> bool {
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
    if gates.pod_deletion_cost {
        let (da, db) = (deletion_cost(a), deletion_cost(b));
        if da != db {
            return da < db;
        }
    }
    if rank_a != rank_b {
        return rank_a > rank_b;
    }
    let by_time = |t1: Option<Time>, t2: Option<Time>| -> Option<bool> {
        if t1 == t2 {
            return None;
        }
        if !gates.logarithmic_scale_down {
            return Some(after_or_zero(t1, t2));
        }
        match (now, t1, t2) {
            (Some(now), Some(x), Some(y)) => {
                let diff = log_rank(now, x) - log_rank(now, y);
                Some(if diff == 0 {
                    a.metadata.uid < b.metadata.uid
                } else {
                    diff < 0
                })
            }
            _ => Some(after_or_zero(t1, t2)),
        }
    };
    if a.is_ready()
        && b.is_ready()
        && let Some(r) = by_time(ready_time(a), ready_time(b))
    {
        return r;
    }
    if a.max_restarts() != b.max_restarts() {
        return a.max_restarts() > b.max_restarts();
    }
    if let Some(r) = by_time(a.metadata.creation_timestamp, b.metadata.creation_timestamp) {
        return r;
    }
    false
}

/// Sorts by a "less" the way Go's sort.Sort would settle equal elements: stable. Upstream's
/// ranking is not always a strict weak order (the logarithmic bucket falls back to the uid
/// while other ties fall through), and Go sorts such input without complaint; so this is a
/// plain merge sort that never checks consistency (the standard library's sort may panic).
pub fn sort_by_less<T: Clone>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = v.len();
    if n < 2 {
        return;
    }
    let mut buf: Vec<T> = v.to_vec();
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                // Take from the right only when it is strictly less: stability.
                if less(&v[j], &v[i]) {
                    buf[k] = v[j].clone();
                    j += 1;
                } else {
                    buf[k] = v[i].clone();
                    i += 1;
                }
                k += 1;
            }
            while i < mid {
                buf[k] = v[i].clone();
                i += 1;
                k += 1;
            }
            while j < end {
                buf[k] = v[j].clone();
                j += 1;
                k += 1;
            }
            start = end;
        }
        v.clone_from_slice(&buf);
        width *= 2;
    }
}

#[cfg(test)]
mod sort_tests {
    use super::sort_by_less;

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
