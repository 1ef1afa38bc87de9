//! What the trace records of the focus Deployment's pods, kept up to date by the writes
//! instead of walking every pod at every step: each focus ReplicaSet's pods by name, each with
//! its view (the state the page draws) and what it counts as in the trace's `pods` counts.
//! A step touches the pods it wrote; only those are looked at again, and so are the pods
//! whose availability waits on the clock (minReadySeconds), which change without a write.
//! A ReplicaSet whose pods did not change keeps its list, shared with the step before.

use super::pod_view;
use super::trace::{PodCounts, PodView};
use crate::api::{Pod, ReplicaSet, Str, Time};
use crate::apiserver::store::{FxHashMap, Store};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The focus Deployment's pods after a step: per ReplicaSet (by revision), its pods by name.
/// A ReplicaSet whose pods did not change shares its list with the step before.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame(pub Vec<Rc<Vec<Rc<PodView>>>>);

impl Frame {
    pub fn iter(&self) -> impl Iterator<Item = &PodView> {
        self.0.iter().flat_map(|rs| rs.iter().map(|p| &**p))
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|rs| rs.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Clone, Debug)]
struct Entry {
    resource_version: Str,
    /// What the page draws: made only when frames are recorded (`rollout run` needs counts).
    view: Option<Rc<PodView>>,
    counts: PodCounts,
}

#[derive(Clone, Debug)]
struct Set {
    min_ready: i32,
    pods: BTreeMap<Str, Entry>,
    counts: PodCounts,
    /// Pods Ready but not yet available for minReadySeconds: the clock changes them.
    waiting: BTreeSet<Str>,
    /// The list as the last frame had it (`None` once a pod changed).
    list: Option<Rc<Vec<Rc<PodView>>>>,
}

#[derive(Clone, Debug, Default)]
pub struct PodBook {
    /// The focus ReplicaSets' pods, by ReplicaSet uid.
    sets: FxHashMap<Str, Set>,
    /// Which ReplicaSet (uid) each booked pod (key) is under.
    under: FxHashMap<Str, Str>,
    /// Pods written since the last refresh.
    dirty: Vec<Str>,
    /// The last frame, while nothing in it changed, with its ReplicaSets' order (a revision
    /// renumbered by a rollback moves a ReplicaSet in it without a pod written).
    frame: Option<(Vec<Str>, Rc<Frame>)>,
    /// Whether entries carry their pod views (frames are recorded).
    views: bool,
    /// Whether a pod is available once Ready for exactly minReadySeconds (the release's
    /// `IsPodAvailable`, `Release::available_at_min_ready_seconds`).
    pub at_min_ready: bool,
}

impl PodBook {
    /// An empty book for a release whose `IsPodAvailable` counts a pod Ready for exactly
    /// minReadySeconds as available (`at_min_ready`) or not.
    pub fn new(at_min_ready: bool) -> PodBook {
        PodBook {
            at_min_ready,
            ..PodBook::default()
        }
    }
}

fn add(c: &mut PodCounts, d: &PodCounts, sign: i32) {
    let f = |x: &mut u32, y: u32| *x = (*x as i64 + sign as i64 * y as i64) as u32;
    f(&mut c.pending, d.pending);
    f(&mut c.running, d.running);
    f(&mut c.ready, d.ready);
    f(&mut c.available, d.available);
    f(&mut c.terminating, d.terminating);
}

/// What one pod counts as in a ReplicaSet's `pods` counts (the trace's contract).
pub fn counts_of(p: &Pod, min_ready: i32, now: Time, at_min_ready: bool) -> PodCounts {
    let mut c = PodCounts::default();
    if p.metadata.deletion_timestamp.is_some() {
        c.terminating = 1;
        return c;
    }
    match p.status.phase.as_str() {
        crate::api::PHASE_RUNNING => {
            c.running = 1;
            if p.is_ready() {
                c.ready = 1;
                if p.is_available(min_ready, now, at_min_ready) {
                    c.available = 1;
                }
            }
        }
        crate::api::PHASE_PENDING | "" => c.pending = 1,
        _ => {}
    }
    c
}

impl PodBook {
    /// A pod was written (or deleted).
    pub fn touch(&mut self, key: &Str) {
        self.dirty.push(key.clone());
    }

    /// Brings the book up to the store: the focus ReplicaSets are `rss`; `views`: frames are
    /// wanted, so each pod's view is kept too. A book keeps views once it has them (a replay
    /// from a recorded checkpoint only reads counts, and may).
    /// (Long: one pass over the pods a step wrote, an arm per change of state; split, each
    /// part would need the whole bookkeeping.)
    pub fn refresh(&mut self, store: &Store, rss: &[&ReplicaSet], now: Time, views: bool) {
        if views && !self.views {
            // Entries made without views are read again.
            self.sets.clear();
            self.under.clear();
            self.frame = None;
            self.views = true;
        }
        let views = self.views;
        // ReplicaSets that joined or left the focus, or whose minReadySeconds moved: their
        // pods are read whole.
        let mut reload: Vec<&ReplicaSet> = vec![];
        for rs in rss {
            match self.sets.get(&rs.metadata.uid) {
                Some(set) if set.min_ready == rs.spec.min_ready_seconds => {}
                _ => reload.push(rs),
            }
        }
        let left = self
            .sets
            .keys()
            .any(|uid| !rss.iter().any(|rs| rs.metadata.uid == *uid));
        if left || !reload.is_empty() {
            let keep: BTreeSet<&str> = rss
                .iter()
                .filter(|rs| !reload.iter().any(|r| r.metadata.uid == rs.metadata.uid))
                .map(|rs| rs.metadata.uid.as_str())
                .collect();
            self.sets.retain(|uid, _| keep.contains(uid.as_str()));
            self.under.retain(|_, uid| keep.contains(uid.as_str()));
            for rs in &reload {
                let mut set = Set {
                    min_ready: rs.spec.min_ready_seconds,
                    pods: BTreeMap::new(),
                    counts: PodCounts::default(),
                    waiting: BTreeSet::new(),
                    list: None,
                };
                for p in store.pods_controlled_by(&rs.metadata.uid) {
                    self.under.insert(p.metadata.key(), rs.metadata.uid.clone());
                    put(&mut set, p, rs, now, views, self.at_min_ready);
                }
                self.sets.insert(rs.metadata.uid.clone(), set);
            }
            self.frame = None;
        }
        // The pods written since.
        let pending = store.watch.iter().filter_map(|ev| match ev.view() {
            crate::apiserver::store::WatchRef::Added(crate::api::Object::Pod(p))
            | crate::apiserver::store::WatchRef::Modified {
                new: crate::api::Object::Pod(p),
                ..
            }
            | crate::apiserver::store::WatchRef::Deleted(crate::api::Object::Pod(p)) => {
                Some(p.metadata.key())
            }
            _ => None,
        });
        let mut dirty = std::mem::take(&mut self.dirty);
        dirty.extend(pending);
        // A pod written several times is looked at once per write, in any order: after the
        // first look its entry has the pod's resourceVersion (or is gone), so the others pass
        // at the check below. (Sorting the keys to drop repeats cost more than the repeats.)
        for key in dirty.drain(..) {
            let pod = store.pod(&key);
            let owner = pod
                .and_then(|p| p.metadata.controller_ref())
                .map(|r| r.uid.clone())
                .filter(|uid| self.sets.contains_key(uid));
            let before = self.under.get(&key).cloned();
            if let (Some(p), Some(was)) = (pod, before.as_ref())
                && owner.as_ref() == Some(was)
                && self.sets[was]
                    .pods
                    .get(&p.metadata.name)
                    .is_some_and(|e| e.resource_version == p.metadata.resource_version)
            {
                continue;
            }
            if let Some(was) = before {
                let name = key.split_once('/').map_or(key.as_str(), |(_, n)| n);
                if let Some(set) = self.sets.get_mut(&was) {
                    take(set, name);
                }
                self.under.remove(&key);
                self.frame = None;
            }
            if let (Some(p), Some(uid)) = (pod, owner)
                && let Some(rs) = rss.iter().find(|rs| rs.metadata.uid == uid)
            {
                let set = self.sets.get_mut(&uid).expect("a booked ReplicaSet");
                put(set, p, rs, now, views, self.at_min_ready);
                self.under.insert(key, uid);
                self.frame = None;
            }
        }
        // The buffer is kept for the next step's writes.
        self.dirty = dirty;
        // Availability that waited on the clock.
        for rs in rss {
            let Some(set) = self.sets.get_mut(&rs.metadata.uid) else {
                continue;
            };
            if set.waiting.is_empty() {
                continue;
            }
            let names: Vec<Str> = set.waiting.iter().cloned().collect();
            for name in names {
                let key = Str::concat(&[&rs.metadata.namespace, "/", &name]);
                if let Some(p) = store.pod(&key)
                    && p.is_available(set.min_ready, now, self.at_min_ready)
                {
                    take(set, &name);
                    put(set, p, rs, now, views, self.at_min_ready);
                    self.frame = None;
                }
            }
        }
    }

    /// A ReplicaSet's pod counts (refreshed).
    pub fn counts(&self, rs: &ReplicaSet) -> PodCounts {
        self.sets
            .get(&rs.metadata.uid)
            .map(|s| s.counts.clone())
            .unwrap_or_default()
    }

    /// The pods of `rss` (in that order) as they stand (refreshed with views); the same `Rc`
    /// as the last frame while nothing changed.
    pub fn frame(&mut self, rss: &[&ReplicaSet]) -> Rc<Frame> {
        debug_assert!(self.views, "a frame needs the book refreshed with views");
        let order: Vec<Str> = rss.iter().map(|rs| rs.metadata.uid.clone()).collect();
        if let Some((o, f)) = &self.frame
            && *o == order
        {
            return f.clone();
        }
        let lists = rss
            .iter()
            .filter_map(|rs| {
                let set = self.sets.get_mut(&rs.metadata.uid)?;
                let list = set
                    .list
                    .get_or_insert_with(|| {
                        Rc::new(set.pods.values().filter_map(|e| e.view.clone()).collect())
                    })
                    .clone();
                Some(list)
            })
            .collect();
        let f = Rc::new(Frame(lists));
        self.frame = Some((order, f.clone()));
        f
    }
}

fn put(set: &mut Set, p: &Pod, rs: &ReplicaSet, now: Time, views: bool, at_min_ready: bool) {
    let counts = counts_of(p, set.min_ready, now, at_min_ready);
    add(&mut set.counts, &counts, 1);
    if counts.ready == 1 && counts.available == 0 && set.min_ready > 0 {
        set.waiting.insert(p.metadata.name.clone());
    }
    set.list = None;
    set.pods.insert(
        p.metadata.name.clone(),
        Entry {
            resource_version: p.metadata.resource_version.clone(),
            view: views.then(|| Rc::new(pod_view(p, rs, now, at_min_ready))),
            counts,
        },
    );
}

fn take(set: &mut Set, name: &str) {
    if let Some(e) = set.pods.remove(name) {
        add(&mut set.counts, &e.counts, -1);
        set.waiting.remove(name);
        set.list = None;
    }
}
