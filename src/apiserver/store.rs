//! The simulated kube-apiserver and etcd: objects keyed by kind and `namespace/name`, with uid,
//! resourceVersion (bumped on every write), generation (bumped on spec change; for a Deployment
//! also on an annotation change outside status, as upstream's strategy does), timestamps,
//! finalizers, optimistic concurrency and graceful deletion. Every write is also a watch event
//! for the informers, and an entry in the action log the conformance tests read.
//!
//! **Invariant:** a rejected write leaves the store exactly as it was.

use super::clock::Clock;
use super::intern::PodParts;
use super::nodeinfo::NodeInfos;
use crate::api::resources::{Allocatable, Usage};
use crate::api::validation::{self, Invalid};
use crate::api::{
    Deployment, Kind, Labels, Object, ObjectMeta, OwnerReference, Pod, PodSpec, ReplicaSet, Shared,
    Str, Time, Typed, defaults,
};
use crate::api::{FINALIZER_FOREGROUND, FINALIZER_ORPHAN};
use std::collections::{BTreeMap, BTreeSet, btree_map};
use std::fmt;
use std::rc::Rc;

/// How dependents are treated when their owner is deleted (`--cascade`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Propagation {
    Background,
    Foreground,
    Orphan,
}

impl Propagation {
    pub fn parse(s: &str) -> Option<Propagation> {
        match s {
            "background" | "true" => Some(Propagation::Background),
            "foreground" => Some(Propagation::Foreground),
            "orphan" | "false" => Some(Propagation::Orphan),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ApiError {
    NotFound {
        kind: Kind,
        name: String,
    },
    AlreadyExists {
        kind: Kind,
        name: String,
    },
    Conflict {
        kind: Kind,
        name: String,
    },
    Invalid(Invalid),
    /// A failure a test injected (e.g. "pod create limit reached").
    Injected(String),
    /// `429 TooManyRequests`: the eviction API's refusal while a disruption budget has none
    /// to spare. Its `cause` (a `DisruptionBudget` status cause) names the budget and its
    /// numbers; clients print the message alone.
    TooManyRequests {
        message: String,
        cause: String,
    },
    /// A failure status with its HTTP code (the eviction API's `500` for a pod that more than
    /// one budget covers).
    Failure {
        code: u16,
        message: String,
    },
}

impl ApiError {
    pub fn is_not_found(&self) -> bool {
        matches!(self, ApiError::NotFound { .. })
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::NotFound { kind, name } => {
                write!(f, "{} \"{name}\" not found", kind.resource())
            }
            ApiError::AlreadyExists { kind, name } => {
                write!(f, "{} \"{name}\" already exists", kind.resource())
            }
            ApiError::Conflict { kind, name } => write!(
                f,
                "Operation cannot be fulfilled on {} \"{name}\": the object has been modified; please apply your changes to the latest version and try again",
                kind.resource()
            ),
            ApiError::Invalid(i) => write!(f, "{i}"),
            ApiError::Injected(m) => f.write_str(m),
            ApiError::TooManyRequests { message, .. } | ApiError::Failure { message, .. } => {
                f.write_str(message)
            }
        }
    }
}

impl std::error::Error for ApiError {}

/// What informers are told. The objects are shared with the store (a write makes one new
/// object, not a copy per reader), as informers share the objects of their cache.
#[derive(Clone, Debug)]
pub enum WatchEvent {
    Added(Rc<Object>),
    Modified { old: Rc<Object>, new: Rc<Object> },
    Deleted(Rc<Object>),
}

/// A watch event seen through references, so that handlers match on object kinds directly.
#[derive(Clone, Copy, Debug)]
pub enum WatchRef<'a> {
    Added(&'a Object),
    Modified { old: &'a Object, new: &'a Object },
    Deleted(&'a Object),
}

impl WatchEvent {
    pub fn added(o: Object) -> WatchEvent {
        WatchEvent::Added(Rc::new(o))
    }
    pub fn deleted(o: Object) -> WatchEvent {
        WatchEvent::Deleted(Rc::new(o))
    }
    pub fn modified(old: Object, new: Object) -> WatchEvent {
        WatchEvent::Modified {
            old: Rc::new(old),
            new: Rc::new(new),
        }
    }
    pub fn view(&self) -> WatchRef<'_> {
        match self {
            WatchEvent::Added(o) => WatchRef::Added(o),
            WatchEvent::Modified { old, new } => WatchRef::Modified { old, new },
            WatchEvent::Deleted(o) => WatchRef::Deleted(o),
        }
    }
}

/// See [`Store::observer`].
pub type Observer = Rc<dyn Fn(&Request)>;

/// A client call as the store's observer sees it.
pub struct Request<'a> {
    pub verb: &'static str,
    pub resource: &'static str,
    pub subresource: &'static str,
    pub name: &'a str,
    /// Why the apiserver refused it (a conflict, a validation error), when it did.
    pub refused: Option<&'a ApiError>,
}

/// One client call, as client-go's fake clientset records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub verb: &'static str,
    pub resource: &'static str,
    pub subresource: &'static str,
    pub name: String,
}

fn resource_of(k: Kind) -> &'static str {
    match k {
        Kind::Deployment => "deployments",
        Kind::ReplicaSet => "replicasets",
        Kind::Pod => "pods",
        Kind::Node => "nodes",
        Kind::PodDisruptionBudget => "poddisruptionbudgets",
        Kind::Service => "services",
        Kind::EndpointSlice => "endpointslices",
    }
}

/// The store's maps hash with rustc's FxHash: keys are our own names and uids, so no flooding
/// defence is needed, and the same program must behave the same on every run and target.
/// One kind's writes to the store ([`Store::api`]), typed.
pub struct Api<'a, K> {
    store: &'a mut Store,
    kind: std::marker::PhantomData<K>,
}

impl<K: Typed> Api<'_, K> {
    /// `POST` ([`Store::create`]).
    pub fn create(&mut self, obj: K) -> Result<K, ApiError> {
        typed(self.store.create(obj.into_object()))
    }

    /// `PUT` ([`Store::update`]).
    pub fn update(&mut self, obj: K) -> Result<K, ApiError> {
        typed(self.store.update(obj.into_object()))
    }

    /// `PUT .../status` ([`Store::update_status`]).
    pub fn update_status(&mut self, obj: K) -> Result<K, ApiError> {
        typed(self.store.update_status(obj.into_object()))
    }
}

/// A write's answer as the kind written: the store stores (and returns) the object it was
/// given, of its kind.
fn typed<K: Typed>(written: Result<Rc<Object>, ApiError>) -> Result<K, ApiError> {
    written.map(|o| {
        let kind = o.kind();
        K::from_object(Rc::unwrap_or_clone(o))
            .unwrap_or_else(|| panic!("a write returned a {kind:?}, not the kind written"))
    })
}

pub use rustc_hash::{FxHashMap, FxHasher as Fx};

/// How many names a create with `generateName` tries before it reports AlreadyExists
/// (upstream's `maxNameGenerationCreateAttempts`).
const MAX_NAME_GENERATION_CREATE_ATTEMPTS: u32 = 8;

/// One kind's objects: hashed by `namespace/name` for the lookups every write makes, with the
/// keys also kept in order for listing (kubectl, the informers' List). Each object comes with
/// its number in [`Slots`].
#[derive(Default, Clone)]
struct Table {
    by_key: FxHashMap<Str, (Rc<Object>, u32)>,
    order: BTreeSet<Str>,
}

/// Every stored object again, each in a numbered slot, for the dependents index to name: a
/// write puts the new object in its slot and leaves that index as it is. (A pod's status
/// update, the commonest write, would otherwise also search its owner's dependents for it,
/// and past the cache that search is a wait on memory at each level of the tree.)
#[derive(Default, Clone)]
struct Slots {
    objects: Vec<Option<Rc<Object>>>,
    /// Emptied slots, reused last-freed first.
    free: Vec<u32>,
}

impl Slots {
    fn get(&self, i: u32) -> &Object {
        // An index names only filled slots.
        self.objects[i as usize].as_ref().unwrap()
    }
    fn add(&mut self, o: Rc<Object>) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.objects[i as usize] = Some(o);
                i
            }
            None => {
                self.objects.push(Some(o));
                (self.objects.len() - 1) as u32
            }
        }
    }
}

fn slot(kind: Kind) -> usize {
    match kind {
        Kind::Deployment => 0,
        Kind::ReplicaSet => 1,
        Kind::Pod => 2,
        Kind::Node => 3,
        Kind::PodDisruptionBudget => 4,
        Kind::Service => 5,
        Kind::EndpointSlice => 6,
    }
}

/// The pods of one controller that carry exactly these labels and are on this node (none yet:
/// ""), counted by state. A ReplicaSet's pods nearly always share their template's labels, so
/// a sync can read its status, and a scale-down the active pods on each node, from a few of
/// these instead of walking every pod (the walk is what upstream does; the numbers are the
/// same, and debug builds check that they are).
#[derive(Clone, Debug, PartialEq)]
pub struct PodTally {
    /// Shared with the pods (a template's labels): most writes find their group by pointer.
    pub labels: Shared<Labels>,
    pub node: Str,
    /// The pods' namespace (a controller's pods share it; should one not, it has its group).
    pub namespace: Str,
    pub pods: u32,
    /// Not terminal and not being deleted (`controller.IsPodActive`).
    pub active: u32,
    /// Being deleted but not terminal (`controller.IsPodTerminating`).
    pub terminating: u32,
    /// Active and Ready.
    pub ready: u32,
}

/// One owner's dependents by (kind, key): each one's slot, and whether the owner is its
/// controller.
type Dependents = BTreeMap<(Kind, Str), (u32, bool)>;

/// A walk over a controller's dependents that asks the CPU for each object a few places
/// ahead. A ReplicaSet of thousands of pods is walked on every scale-down, and past the cache
/// each pod is a wait on memory; asked for early, several arrive at once.
struct Prefetched<'a> {
    slots: &'a Slots,
    walk: btree_map::Values<'a, (Kind, Str), (u32, bool)>,
    #[cfg(target_arch = "x86_64")]
    ahead: btree_map::Values<'a, (Kind, Str), (u32, bool)>,
}

#[cfg(target_arch = "x86_64")]
const PREFETCH_AHEAD: usize = 8;

impl<'a> Prefetched<'a> {
    fn new(
        slots: &'a Slots,
        walk: btree_map::Values<'a, (Kind, Str), (u32, bool)>,
    ) -> Prefetched<'a> {
        #[cfg(target_arch = "x86_64")]
        let ahead = {
            let mut ahead = walk.clone();
            for &(i, _) in ahead.by_ref().take(PREFETCH_AHEAD) {
                prefetch(slots.get(i));
            }
            ahead
        };
        Prefetched {
            slots,
            walk,
            #[cfg(target_arch = "x86_64")]
            ahead,
        }
    }
}

impl<'a> Iterator for Prefetched<'a> {
    type Item = (&'a Object, bool);
    fn next(&mut self) -> Option<Self::Item> {
        #[cfg(target_arch = "x86_64")]
        if let Some(&(i, _)) = self.ahead.next() {
            prefetch(self.slots.get(i));
        }
        let &(i, controller) = self.walk.next()?;
        Some((self.slots.get(i), controller))
    }
}

/// Asks for the first two cache lines at `p` (a pod's spec, status and the metadata a
/// scale-down reads: see `api::ObjectMeta`). Only a hint: nothing is read. (Elsewhere, the
/// page included, the walk is a plain one.)
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch<T>(p: *const T) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    let p = p as *const i8;
    // SAFETY: a prefetch never faults, whatever the address, and changes no memory.
    unsafe {
        _mm_prefetch(p, _MM_HINT_T0);
        _mm_prefetch(p.wrapping_add(64), _MM_HINT_T0);
    }
}

/// Copies `stored` into `new` where they differ (a client normally sends such fields back
/// unchanged, so usually nothing is copied).
fn keep<T: Clone + PartialEq>(new: &mut T, stored: &T) {
    if new != stored {
        new.clone_from(stored);
    }
}

/// The metadata a client cannot change by an update: identity, timestamps, the generation,
/// and through `/status` the labels, owner references and finalizers too.
fn keep_server_fields(new: &mut ObjectMeta, stored: &ObjectMeta, status: bool) {
    keep(&mut new.namespace, &stored.namespace);
    keep(&mut new.uid, &stored.uid);
    new.creation_timestamp = stored.creation_timestamp;
    new.deletion_timestamp = stored.deletion_timestamp;
    new.deletion_grace_period_seconds = stored.deletion_grace_period_seconds;
    new.generation = stored.generation;
    if status {
        keep(&mut new.labels, &stored.labels);
        keep(&mut new.owner_references, &stored.owner_references);
        keep(&mut new.finalizers, &stored.finalizers);
    }
}

#[derive(Default, Clone)]
pub struct Store {
    clock: Clock,
    rv: u64,
    uid_seq: u64,
    name_seq: u64,
    /// Objects are shared, never mutated in place: a write stores a new `Rc`, so watch events,
    /// the indexes and cloned stores (time travel) hold the same objects without copying them.
    objects: [Table; 7],
    slots: Slots,
    by_uid: FxHashMap<Str, (Kind, Str)>,
    /// owner uid → dependents (every ownerReference, not only controller ones), naming their
    /// slots so that walking a ReplicaSet's pods costs no lookup by key per pod.
    /// The flag says whether that reference is the controller one.
    dependents: FxHashMap<Str, Dependents>,
    /// Pods without a controller ownerReference: the adoption candidates, so that a
    /// ReplicaSet sync does not scan every pod to find them.
    orphans: BTreeSet<Str>,
    /// controller uid → its pods, grouped by labels and node and counted by state.
    tallies: FxHashMap<Str, Vec<PodTally>>,
    /// What each node's pods request and what it can hold, as the scheduler's cache has it.
    nodes: NodeInfos,
    pub watch: Vec<WatchEvent>,
    pub actions: Vec<Action>,
    /// Told of each client call as the store takes it (verb, resource, subresource, name):
    /// the trace's record of which function of a sync made each write.
    pub observer: Option<Observer>,
    /// Pod creates left before an injected failure (None = unlimited).
    pub pod_create_limit: Option<u32>,
    /// Behave like client-go's fake clientset (what upstream unit tests run against): no
    /// validation and no resourceVersion conflicts.
    fake: bool,
    /// Pods' specs, statuses and owner references, each stored once however many pods share it.
    parts: PodParts,
    /// The DefaultTolerationSeconds admission plugin's last work: the spec it was given and
    /// the one it made. A ReplicaSet's pods have their template's spec, so one copy serves
    /// them all instead of one per pod.
    tolerated: Option<(Shared<PodSpec>, Shared<PodSpec>)>,
    /// The namespaces beyond the four every cluster has (`kubectl create namespace`, or a
    /// scenario's objects).
    namespaces: BTreeSet<Str>,
}

impl Store {
    pub fn new() -> Store {
        Store::default()
    }

    /// Whether the namespace exists: `default`, `kube-system`, `kube-public`,
    /// `kube-node-lease`, or one added.
    pub fn has_namespace(&self, ns: &str) -> bool {
        matches!(
            ns,
            "default" | "kube-system" | "kube-public" | "kube-node-lease"
        ) || self.namespaces.contains(ns)
    }

    /// Adds a namespace; false when it exists already.
    pub fn add_namespace(&mut self, ns: &str) -> bool {
        !self.has_namespace(ns) && self.namespaces.insert(ns.into())
    }

    /// The instant of the virtual clock.
    pub fn now(&self) -> Time {
        self.clock.now()
    }

    /// The virtual clock, shared with the event recorder and the harness that moves it.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Gives the store a clock of its own at the same instant (a copied store shares its
    /// original's clock until then) and returns it.
    pub fn detach_clock(&mut self) -> Clock {
        self.clock = Clock::copy_of(&self.clock);
        self.clock.clone()
    }

    /// A store with the fake clientset's leniency, for fixtures taken from upstream tests.
    pub fn fake() -> Store {
        Store {
            fake: true,
            ..Store::new()
        }
    }

    fn next_rv(&mut self) -> Str {
        self.rv += 1;
        Str::decimal(self.rv)
    }

    /// A deterministic uid shaped like the apiserver's v4 UUIDs.
    fn next_uid(&mut self) -> Str {
        self.uid_seq += 1;
        let a = splitmix(self.uid_seq);
        let b = splitmix(a);
        Str::from(format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            (a >> 32) as u32,
            (a >> 16) as u16,
            (a & 0xfff) as u16,
            0x8000 | ((b >> 48) as u16 & 0x3fff),
            b & 0xffff_ffff_ffff
        ))
    }

    /// The five characters the apiserver appends to a `generateName` (its alphabet, our seed).
    fn random_suffix(&mut self) -> String {
        const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        self.name_seq += 1;
        let mut x = splitmix(self.name_seq ^ 0x9e37_79b9_7f4a_7c15);
        (0..5)
            .map(|_| {
                let c = ALPHANUMS[(x % ALPHANUMS.len() as u64) as usize] as char;
                x /= ALPHANUMS.len() as u64;
                c
            })
            .collect()
    }

    /// Whether this is the fake clientset (upstream's fixtures).
    fn is_fake(&self) -> bool {
        self.fake
    }

    /// Records a client call, as the fake clientset does (the simulated cluster keeps no log:
    /// nothing reads it, and it would grow with every write of a long session).
    pub fn log(&mut self, verb: &'static str, kind: Kind, subresource: &'static str, name: &str) {
        if let Some(o) = &self.observer {
            o(&Request {
                verb,
                resource: resource_of(kind),
                subresource,
                name,
                refused: None,
            });
        }
        if !self.is_fake() {
            return;
        }
        self.actions.push(Action {
            verb,
            resource: resource_of(kind),
            subresource,
            name: name.to_string(),
        });
    }

    // ------------------------------------------------------------ reads (listers)

    pub fn get(&self, kind: Kind, key: &str) -> Option<&Object> {
        self.stored(kind, key).map(|o| &**o)
    }
    fn stored(&self, kind: Kind, key: &str) -> Option<&Rc<Object>> {
        self.objects[slot(kind)].by_key.get(key).map(|(o, _)| o)
    }
    /// The last resourceVersion handed out: every object written after now gets a larger one.
    pub fn resource_version(&self) -> u64 {
        self.rv
    }

    pub fn deployment(&self, key: &str) -> Option<&Deployment> {
        match self.get(Kind::Deployment, key) {
            Some(Object::Deployment(d)) => Some(d),
            _ => None,
        }
    }
    pub fn replicaset(&self, key: &str) -> Option<&ReplicaSet> {
        match self.get(Kind::ReplicaSet, key) {
            Some(Object::ReplicaSet(r)) => Some(r),
            _ => None,
        }
    }
    pub fn pod(&self, key: &str) -> Option<&Pod> {
        match self.get(Kind::Pod, key) {
            Some(Object::Pod(p)) => Some(p),
            _ => None,
        }
    }
    pub fn by_uid(&self, uid: &str) -> Option<&Object> {
        self.keyed_by_uid(uid).map(|(_, o)| o)
    }
    /// The object with this uid and its `namespace/name` key, both borrowed from the store.
    pub fn keyed_by_uid(&self, uid: &str) -> Option<(&str, &Object)> {
        let (k, key) = self.by_uid.get(uid)?;
        Some((key, self.get(*k, key)?))
    }
    /// `resolveControllerRef`: the object of `kind` in `ns` that the reference names, if it is
    /// still the one with that uid, and its key. (Found by uid, which names at most one
    /// object; kind, name and namespace must match too, as upstream looks it up by name.)
    pub fn resolve_controller_ref(
        &self,
        kind: Kind,
        ns: &str,
        r: &OwnerReference,
    ) -> Option<(&str, &Object)> {
        if r.kind != kind.as_str() {
            return None;
        }
        let (key, o) = self.keyed_by_uid(&r.uid)?;
        (o.kind() == kind && o.meta().name == r.name && o.meta().namespace == ns)
            .then_some((key, o))
    }
    /// Every object of a kind, in key order (namespace/name).
    pub fn list(&self, kind: Kind) -> impl Iterator<Item = &Object> {
        let table = &self.objects[slot(kind)];
        table
            .order
            .iter()
            .filter_map(|k| table.by_key.get(k).map(|(o, _)| &**o))
    }
    pub fn deployments(&self) -> impl Iterator<Item = &Deployment> {
        self.list(Kind::Deployment).filter_map(|o| {
            if let Object::Deployment(d) = o {
                Some(&**d)
            } else {
                None
            }
        })
    }
    pub fn replicasets(&self) -> impl Iterator<Item = &ReplicaSet> {
        self.list(Kind::ReplicaSet).filter_map(|o| {
            if let Object::ReplicaSet(r) = o {
                Some(&**r)
            } else {
                None
            }
        })
    }
    pub fn pods(&self) -> impl Iterator<Item = &Pod> {
        self.list(Kind::Pod).filter_map(|o| {
            if let Object::Pod(p) = o {
                Some(p)
            } else {
                None
            }
        })
    }
    /// Objects with an ownerReference to `uid` (the informer index the controllers use).
    pub fn dependents_of<'a>(&'a self, uid: &str) -> impl Iterator<Item = &'a Object> + use<'a> {
        self.dependents
            .get(uid)
            .into_iter()
            .flat_map(|deps| deps.values().map(|&(i, _)| self.slots.get(i)))
    }
    /// Pods whose controller ownerReference points at `uid`.
    pub fn pods_controlled_by<'a>(&'a self, uid: &str) -> impl Iterator<Item = &'a Pod> + use<'a> {
        self.dependents
            .get(uid)
            .into_iter()
            .flat_map(|deps| Prefetched::new(&self.slots, deps.values()))
            .filter_map(|(o, controller)| match o {
                Object::Pod(p) if controller => Some(p),
                _ => None,
            })
    }
    /// The pods whose controller is `uid`, grouped by their labels and counted by state.
    pub fn pod_tallies(&self, uid: &str) -> &[PodTally] {
        self.tallies.get(uid).map_or(&[], |v| v.as_slice())
    }
    /// Every controller's pod tallies (pods without a controller are `orphan_pods`).
    pub fn all_pod_tallies(&self) -> impl Iterator<Item = &PodTally> {
        self.tallies.values().flatten()
    }
    /// What the pods bound to `node` that have not finished request, and how many they are.
    pub fn node_usage(&self, node: &str) -> Option<&Usage> {
        self.nodes.usage(node)
    }
    /// What the Node `node` can hold (none when the store has no such Node).
    pub fn node_allocatable(&self, node: &str) -> Option<&Allocatable> {
        self.nodes.allocatable(node)
    }
    /// Pods with no controller at all (candidates for adoption).
    pub fn orphan_pods(&self) -> impl Iterator<Item = &Pod> {
        self.orphans.iter().filter_map(|k| self.pod(k))
    }
    pub fn len(&self) -> usize {
        self.objects.iter().map(|t| t.by_key.len()).sum()
    }
    /// How many objects of a kind the store holds.
    pub fn count(&self, kind: Kind) -> usize {
        self.objects[slot(kind)].by_key.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    // ------------------------------------------------------------ index upkeep

    fn index_add(&mut self, o: &Object, i: u32) {
        let id = (o.kind(), o.meta().key());
        self.by_uid.insert(o.meta().uid.clone(), id.clone());
        if o.kind() == Kind::Pod && o.meta().controller_ref().is_none() {
            self.orphans.insert(id.1.clone());
        }
        let controller = o.meta().controller_ref().map(|c| c.uid.as_str());
        for r in &o.meta().owner_references {
            self.dependents
                .entry(r.uid.clone())
                .or_default()
                .insert(id.clone(), (i, controller == Some(r.uid.as_str())));
        }
    }
    fn index_remove(&mut self, o: &Object) {
        let id = (o.kind(), o.meta().key());
        self.by_uid.remove(&o.meta().uid);
        if o.kind() == Kind::Pod {
            self.orphans.remove(&id.1);
        }
        for r in &o.meta().owner_references {
            if let Some(set) = self.dependents.get_mut(&r.uid) {
                set.remove(&id);
                if set.is_empty() {
                    self.dependents.remove(&r.uid);
                }
            }
        }
    }
    /// Adds (`add`) or removes a pod's contribution to its controller's tallies.
    fn tally(&mut self, o: &Object, add: bool) {
        let Object::Pod(p) = o else { return };
        let Some(r) = p.metadata.controller_ref() else {
            return;
        };
        // (Looked up before inserting: an owned key would copy the uid on every write.)
        if !self.tallies.contains_key(&r.uid) {
            self.tallies.insert(r.uid.clone(), Vec::new());
        }
        let groups = self.tallies.get_mut(&r.uid).expect("just inserted");
        let i = match groups.iter().position(|t| {
            t.node == p.spec.node_name
                && t.labels == p.metadata.labels
                && t.namespace == p.metadata.namespace
        }) {
            Some(i) => i,
            None => {
                groups.push(PodTally {
                    labels: p.metadata.labels.clone(),
                    node: p.spec.node_name.clone(),
                    namespace: p.metadata.namespace.clone(),
                    pods: 0,
                    active: 0,
                    terminating: 0,
                    ready: 0,
                });
                groups.len() - 1
            }
        };
        let t = &mut groups[i];
        let step = |n: &mut u32, on: bool| {
            if on {
                *n = if add { *n + 1 } else { *n - 1 };
            }
        };
        step(&mut t.pods, true);
        step(&mut t.active, p.is_active());
        step(&mut t.terminating, p.is_terminating());
        step(&mut t.ready, p.is_active() && p.is_ready());
        if t.pods == 0 {
            groups.swap_remove(i);
            if groups.is_empty() {
                self.tallies.remove(&r.uid);
            }
        }
    }
    fn put(&mut self, o: Rc<Object>) -> Option<Rc<Object>> {
        let kind = o.kind();
        let key = o.meta().key();
        let table = &mut self.objects[slot(kind)];
        let (old, i) = match table.by_key.get_mut(&key) {
            Some((stored, i)) => {
                self.slots.objects[*i as usize] = Some(o.clone());
                (Some(std::mem::replace(stored, o.clone())), *i)
            }
            None => {
                let i = self.slots.add(o.clone());
                table.by_key.insert(key.clone(), (o.clone(), i));
                (None, i)
            }
        };
        // (Added before removed, so a group that only changes state is never dropped.)
        self.tally(&o, true);
        if let Some(old) = &old {
            self.tally(old, false);
        }
        self.nodes.written(old.as_deref(), Some(&o));
        match &old {
            // Most writes (status, scale) keep the uid and the owners: the indexes, which
            // name the slot, stay as they are.
            Some(old)
                if old.meta().uid == o.meta().uid
                    && old.meta().owner_references == o.meta().owner_references => {}
            Some(old) => {
                self.index_remove(old);
                self.index_add(&o, i);
            }
            None => {
                self.objects[slot(kind)].order.insert(key);
                self.index_add(&o, i);
            }
        }
        old
    }
    fn take(&mut self, kind: Kind, key: &str) -> Option<Rc<Object>> {
        let table = &mut self.objects[slot(kind)];
        let (o, i) = table.by_key.remove(key)?;
        table.order.remove(key);
        self.slots.objects[i as usize] = None;
        self.slots.free.push(i);
        self.index_remove(&o);
        self.tally(&o, false);
        self.nodes.written(Some(&o), None);
        Some(o)
    }

    // ------------------------------------------------------------ writes

    /// Stores a new object: defaulting, validation, name generation, uid, resourceVersion 1st
    /// generation and creationTimestamp, as `POST` does.
    pub fn create(&mut self, mut obj: Object) -> Result<Rc<Object>, ApiError> {
        let kind = obj.kind();
        default_namespace(&mut obj);
        let generated = obj.meta().name.is_empty() && !obj.meta().generate_name.is_empty();
        if generated {
            let name = format!(
                "{}{}",
                generated_base(&obj.meta().generate_name),
                self.random_suffix()
            );
            obj.meta_mut().name = name.into();
        }
        if let (Object::Pod(p), Some(limit)) = (&obj, self.pod_create_limit) {
            if limit == 0 {
                self.log("create", kind, "", &p.metadata.name);
                return Err(ApiError::Injected("pod create limit reached".into()));
            }
            self.pod_create_limit = Some(limit - 1);
        }
        admit(&mut obj, false)?;
        if let Object::Pod(p) = &mut obj {
            self.default_tolerations(p);
        }
        let mut key = obj.meta().key();
        // A generated name that is taken is generated again, up to 8 names in all, as the
        // apiserver does since RetryGenerateName (GA in 1.32): a 5-character suffix collides
        // within a few thousand pods of one ReplicaSet, and a create must not fail for that.
        let mut attempts = 1;
        while generated
            && attempts < MAX_NAME_GENERATION_CREATE_ATTEMPTS
            && self.objects[slot(kind)].by_key.contains_key(&key)
        {
            let name = format!(
                "{}{}",
                generated_base(&obj.meta().generate_name),
                self.random_suffix()
            );
            obj.meta_mut().name = name.into();
            key = obj.meta().key();
            attempts += 1;
        }
        if self.objects[slot(kind)].by_key.contains_key(&key) {
            return Err(ApiError::AlreadyExists {
                kind,
                name: obj.meta().name.to_string(),
            });
        }
        let uid = self.next_uid();
        let rv = self.next_rv();
        let now = self.now();
        {
            let m = obj.meta_mut();
            m.uid = uid;
            m.resource_version = rv;
            m.generation = 1;
            m.creation_timestamp = Some(now);
            m.deletion_timestamp = None;
        }
        self.log("create", kind, "", &obj.meta().name);
        Ok(self.announce(obj))
    }

    /// Stores a new object (its pod parts shared with equal ones) and tells the watchers.
    fn announce(&mut self, mut obj: Object) -> Rc<Object> {
        if let Object::Pod(p) = &mut obj {
            self.parts.intern(p);
        }
        let obj = Rc::new(obj);
        self.put(obj.clone());
        self.watch.push(WatchEvent::Added(obj.clone()));
        obj
    }

    /// `POST` with `dryRun=All`: the object defaulted and validated, or the refusal (an
    /// invalid spec, a name taken); nothing is stored. A generated name stays unset, as the
    /// object is not created.
    pub fn create_dry_run(&self, mut obj: Object) -> Result<Object, ApiError> {
        let kind = obj.kind();
        default_namespace(&mut obj);
        admit(&mut obj, false)?;
        if !obj.meta().name.is_empty()
            && self.objects[slot(kind)]
                .by_key
                .contains_key(&obj.meta().key())
        {
            return Err(ApiError::AlreadyExists {
                kind,
                name: obj.meta().name.to_string(),
            });
        }
        Ok(obj)
    }

    /// Inserts an object exactly as given (fixtures for conformance tests): no validation,
    /// a uid and resourceVersion only where missing, no watch event.
    pub fn insert_raw(&mut self, mut obj: Object) -> Object {
        default_namespace(&mut obj);
        if obj.meta().uid.is_empty() {
            let uid = self.next_uid();
            obj.meta_mut().uid = uid;
        }
        if obj.meta().resource_version.is_empty() {
            let rv = self.next_rv();
            obj.meta_mut().resource_version = rv;
        }
        self.put(Rc::new(obj.clone()));
        obj
    }

    fn check_rv(&self, new: &ObjectMeta, old: &ObjectMeta, kind: Kind) -> Result<(), ApiError> {
        if !self.is_fake()
            && !new.resource_version.is_empty()
            && new.resource_version != old.resource_version
        {
            return Err(ApiError::Conflict {
                kind,
                name: new.name.to_string(),
            });
        }
        Ok(())
    }

    /// The store as one kind's API (kube-rs's `Api<K>`): its writes take a `K` and give back
    /// the `K` stored, so a controller never wraps an object nor unwraps the answer.
    pub fn api<K: Typed>(&mut self) -> Api<'_, K> {
        Api {
            store: self,
            kind: std::marker::PhantomData,
        }
    }

    /// `PUT`: metadata and spec; the stored status is kept. Generation moves when the spec does.
    pub fn update(&mut self, obj: Object) -> Result<Rc<Object>, ApiError> {
        self.write(obj, false)
    }

    /// `PUT .../status`: status (and, as the registry allows, annotations); spec and labels kept.
    pub fn update_status(&mut self, obj: Object) -> Result<Rc<Object>, ApiError> {
        self.write(obj, true)
    }

    /// `PUT` with `dryRun=All`: the object as the update would store it (defaulted,
    /// validated, its generation moved), or the refusal; nothing is written or logged.
    pub fn update_dry_run(&self, obj: Object) -> Result<Object, ApiError> {
        let (obj, _) = self.prepare_write(obj, false)?;
        Ok(obj)
    }

    /// An update's object as the registry makes it, with the stored one it replaces.
    fn prepare_write(
        &self,
        mut obj: Object,
        status: bool,
    ) -> Result<(Object, Rc<Object>), ApiError> {
        let kind = obj.kind();
        default_namespace(&mut obj);
        let key = obj.meta().key();
        let Some(old) = self.stored(kind, &key).cloned() else {
            return Err(ApiError::NotFound {
                kind,
                name: obj.meta().name.to_string(),
            });
        };
        self.check_rv(obj.meta(), old.meta(), kind)?;
        keep_server_fields(obj.meta_mut(), old.meta(), status);
        let spec_changed = self.prepare_for_update(&mut obj, &old, status)?;
        if spec_changed {
            obj.meta_mut().generation += 1;
        }
        Ok((obj, old))
    }

    fn write(&mut self, obj: Object, status: bool) -> Result<Rc<Object>, ApiError> {
        let (kind, name) = (obj.kind(), obj.meta().name.clone());
        let prepared = self.prepare_write(obj, status);
        let sub = if status { "status" } else { "" };
        match (&prepared, &self.observer) {
            (Ok(_) | Err(ApiError::NotFound { .. }), _) => self.log("update", kind, sub, &name),
            (Err(e), Some(o)) => o(&Request {
                verb: "update",
                resource: resource_of(kind),
                subresource: sub,
                name: &name,
                refused: Some(e),
            }),
            (Err(_), None) => {}
        }
        let (mut obj, old) = prepared?;
        let key = obj.meta().key();
        // An update that changes nothing is a no-op in the apiserver: no new resourceVersion.
        // (Compared with the stored resourceVersion swapped in, so no object is copied.)
        let sent_rv = std::mem::replace(
            &mut obj.meta_mut().resource_version,
            old.meta().resource_version.clone(),
        );
        if obj == *old {
            return Ok(old);
        }
        obj.meta_mut().resource_version = sent_rv;
        let rv = self.next_rv();
        obj.meta_mut().resource_version = rv;
        // Removing the last finalizer of an object being deleted completes its deletion.
        if obj.meta().deletion_timestamp.is_some()
            && obj.meta().finalizers.is_empty()
            && kind != Kind::Pod
        {
            self.take(kind, &key);
            let obj = Rc::new(obj);
            self.watch.push(WatchEvent::Deleted(obj.clone()));
            return Ok(obj);
        }
        if let Object::Pod(p) = &mut obj {
            self.parts.intern(p);
        }
        let obj = Rc::new(obj);
        self.put(obj.clone());
        self.watch.push(WatchEvent::Modified {
            old,
            new: obj.clone(),
        });
        Ok(obj)
    }

    /// The kind's registry strategy (`PrepareForUpdate`, defaults, `ValidateUpdate`): the part
    /// of the object this verb does not write comes from the stored one (a spec through
    /// `/status`, a status otherwise), and a spec written is defaulted and validated. Returns
    /// whether the generation moves: a spec changed, or a Deployment's annotations outside
    /// status (they are copied to its ReplicaSets).
    fn prepare_for_update(
        &self,
        obj: &mut Object,
        old: &Object,
        status: bool,
    ) -> Result<bool, ApiError> {
        Ok(match (obj, old) {
            (Object::Deployment(n), Object::Deployment(o)) => {
                if status {
                    keep(&mut n.spec, &o.spec);
                } else {
                    keep(&mut n.status, &o.status);
                    defaults::default_deployment(n);
                    if !self.is_fake() {
                        validation::validate_deployment_update(n, o).map_err(ApiError::Invalid)?;
                    }
                }
                n.spec != o.spec || (!status && n.metadata.annotations != o.metadata.annotations)
            }
            (Object::ReplicaSet(n), Object::ReplicaSet(o)) => {
                if status {
                    keep(&mut n.spec, &o.spec);
                } else {
                    keep(&mut n.status, &o.status);
                    defaults::default_replicaset(n);
                    if !self.is_fake() {
                        validation::validate_replicaset_update(n, o).map_err(ApiError::Invalid)?;
                    }
                }
                n.spec != o.spec
            }
            (Object::Pod(n), Object::Pod(o)) => {
                if status {
                    keep(&mut n.spec, &o.spec);
                } else {
                    keep(&mut n.status, &o.status);
                    // (The address is the status's `podIP`: see `Pod::ip`.)
                    n.ip = o.ip;
                }
                false
            }
            (Object::Node(n), Object::Node(o)) => {
                if status {
                    keep(&mut n.spec, &o.spec);
                } else {
                    keep(&mut n.status, &o.status);
                }
                validation::validate_node(n).map_err(ApiError::Invalid)?;
                false
            }
            (Object::PodDisruptionBudget(n), Object::PodDisruptionBudget(o)) => {
                if status {
                    keep(&mut n.spec, &o.spec);
                } else {
                    keep(&mut n.status, &o.status);
                    validation::validate_pdb(n).map_err(ApiError::Invalid)?;
                }
                n.spec != o.spec
            }
            _ => false,
        })
    }

    /// `DELETE` with a propagation policy. Pods that are scheduled terminate gracefully
    /// (deletionTimestamp now, gone when the kubelet says so); other objects go at once unless a
    /// finalizer holds them.
    pub fn delete(
        &mut self,
        kind: Kind,
        key: &str,
        propagation: Propagation,
        grace_seconds: Option<i64>,
    ) -> Result<(), ApiError> {
        let name = key.rsplit('/').next().unwrap_or(key).to_string();
        self.log("delete", kind, "", &name);
        let Some(old) = self.stored(kind, key).cloned() else {
            return Err(ApiError::NotFound { kind, name });
        };
        let mut obj = (*old).clone();
        let finalizer = match propagation {
            Propagation::Foreground => Some(FINALIZER_FOREGROUND),
            Propagation::Orphan => Some(FINALIZER_ORPHAN),
            Propagation::Background => None,
        };
        // Pods have no dependents here, so a policy finalizer would only delay nothing.
        if let (Some(f), false) = (finalizer, kind == Kind::Pod)
            && !obj.meta().finalizers.iter().any(|x| x == f)
        {
            obj.meta_mut().finalizers.push(f.to_string());
        }
        let graceful_pod = match &obj {
            Object::Pod(p) => !p.spec.node_name.is_empty() && grace_seconds.unwrap_or(1) > 0,
            _ => false,
        };
        if obj.meta().finalizers.is_empty() && !graceful_pod {
            self.take(kind, key);
            let rv = self.next_rv();
            obj.meta_mut().resource_version = rv;
            self.watch.push(WatchEvent::deleted(obj));
            return Ok(());
        }
        if obj.meta().deletion_timestamp.is_some() && obj.meta().finalizers == old.meta().finalizers
        {
            return Ok(());
        }
        let now = self.now();
        {
            let m = obj.meta_mut();
            let first = m.deletion_timestamp.is_none();
            if graceful_pod {
                // `BeforeDelete`: the deletion is due when the grace period ends.
                let grace = grace_seconds.unwrap_or(30);
                m.deletion_timestamp = Some(now.plus_secs(grace));
                m.deletion_grace_period_seconds = Some(grace);
            } else {
                // `markAsDeleting`: only finalizers hold it, with no grace period.
                m.deletion_timestamp.get_or_insert(now);
                m.deletion_grace_period_seconds = Some(0);
            }
            if first && m.generation > 0 {
                m.generation += 1;
            }
        }
        let rv = self.next_rv();
        obj.meta_mut().resource_version = rv;
        let obj = Rc::new(obj);
        self.put(obj.clone());
        self.watch.push(WatchEvent::Modified { old, new: obj });
        Ok(())
    }

    /// The kubelet's final word on a terminating pod: the object is removed.
    pub fn remove_pod(&mut self, key: &str) -> Option<Rc<Object>> {
        let mut o = Rc::unwrap_or_clone(self.take(Kind::Pod, key)?);
        let rv = self.next_rv();
        let m = o.meta_mut();
        m.resource_version = rv;
        let name = m.name.clone();
        self.log("delete", Kind::Pod, "", &name);
        let o = Rc::new(o);
        self.watch.push(WatchEvent::Deleted(o.clone()));
        Some(o)
    }

    /// Watch events since the last call, oldest first.
    pub fn drain_watch(&mut self) -> Vec<WatchEvent> {
        std::mem::take(&mut self.watch)
    }
}

/// SplitMix64: a tiny, well-mixed, deterministic generator for names and uids.
pub fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The apiserver's `SimpleNameGenerator`: a generated name is at most 63 characters, so its
/// base keeps at most 58 before the 5 random ones (a long ReplicaSet's pods lose the dash).
fn generated_base(base: &str) -> &str {
    const MAX_GENERATED_NAME_LENGTH: usize = 63 - 5;
    match base.char_indices().nth(MAX_GENERATED_NAME_LENGTH) {
        Some((cut, _)) => &base[..cut],
        None => base,
    }
}

#[path = "admission.rs"]
mod admission;
use admission::{admit, default_namespace};

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
