//! A stable sort that compiles once. `slice::sort_by` is generic over the element and the
//! comparator, so each call site (a closure is a type of its own) builds another copy of
//! driftsort, about 4.4 KB of wasm: the page held 25 of them. [`sort_by`] sorts the positions
//! (`usize`) through a `dyn` comparator, one copy of the sort in all, then moves the elements
//! to their places with swaps. It is for the cold paths (kubectl's printing, the page's views,
//! a controller's few ReplicaSets); a hot sort over thousands of pods keeps `sort_by`, whose
//! comparisons inline (docs/performance.md, "Size").

use std::cmp::Ordering;
use std::collections::BTreeMap;

/// Sorts `v` by `cmp` as [`slice::sort_by`] does: stably, equal elements kept in their order.
pub fn sort_by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let order = positions_sorted(v.len(), &|a, b| cmp(&v[a], &v[b]));
    permute(v, order);
}

/// Sorts `v` by the key `f` gives, as [`slice::sort_by_key`] does (stably).
pub fn sort_by_key<T, K: Ord>(v: &mut [T], f: impl Fn(&T) -> K) {
    sort_by(v, |a, b| f(a).cmp(&f(b)));
}

/// Sorts `v` in its elements' order, as [`slice::sort`] does (stably).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// A map of these pairs, as `collect()` makes it (of two with one key, the later value is
/// kept), by inserting them one by one: `BTreeMap`'s `FromIterator` sorts them first with a
/// copy of the standard library's stable sort of its own for each key and value type (4 KB of
/// wasm each), where `insert` is built once per map type whatever the caller.
pub fn map_from<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (k, v) in pairs {
        map.insert(k, v);
    }
    map
}

/// `0..n` in the order `cmp` puts them, stably: the one instance of the standard library's sort
/// every caller shares.
fn positions_sorted(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Puts `v[order[i]]` at `i` for every `i`, following each cycle of the permutation with swaps
/// (no element is cloned or dropped).
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..v.len() {
        let mut at = start;
        // A position already filled points at itself.
        while order[at] != at {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Same order as the standard library's stable sort, equal keys included (the second
        /// field tells equal keys apart).
        #[test]
        fn sorts_as_slice_sort_by_does(keys in proptest::collection::vec(0u8..6, 0..40)) {
            let mut ours: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
            let mut std = ours.clone();
            sort_by_key(&mut ours, |p| p.0);
            std.sort_by_key(|p| p.0);
            prop_assert_eq!(ours, std);
        }
    }

    #[test]
    fn moves_owned_values_without_losing_one() {
        let mut v: Vec<String> = ["pear", "fig", "apple", "kiwi", "date"]
            .map(String::from)
            .into();
        sort(&mut v);
        assert_eq!(v, ["apple", "date", "fig", "kiwi", "pear"]);
        sort_by(&mut v, |a, b| b.len().cmp(&a.len()));
        assert_eq!(v, ["apple", "date", "kiwi", "pear", "fig"]);
    }
}
