//! The Kubernetes object model the playground needs: apps/v1 Deployment and ReplicaSet
//! (`apps.rs`), v1 Pod (`pod.rs`) and Node (`node.rs`), policy/v1 (`policy.rs`), Services and
//! EndpointSlices (`service.rs`); here, what they share: ObjectMeta, owner references, the
//! copy-on-write `Shared`, and `Object`, `Kind` and `Typed`, the store's view of any of them.
//! Fields the playground does not model are kept verbatim in `extra` maps, so a manifest read
//! in is written out with nothing dropped.

pub mod aliases;
mod apps;
pub mod census;
pub mod codec;
pub mod decode;
pub mod defaults;
pub mod intstr;
pub mod labels;
mod node;
mod pod;
pub mod policy;
pub mod print;
pub mod quantity;
pub mod resources;
pub mod schema;
pub mod service;
pub mod sort;
mod str;
pub mod table;
pub mod time;
pub mod validation;
pub mod yaml;

/// Parses counted in a test build: how many times a change's text is read, as YAML
/// (`yaml.rs`'s readers) and as a command line (`kubectl::line::parse`). Issue 47 asks for
/// one of each per change; `web/state/tests.rs` measures an Apply and a console command.
#[cfg(test)]
pub mod parses {
    use std::cell::Cell;

    thread_local! {
        static YAML: Cell<u32> = const { Cell::new(0) };
        static COMMAND: Cell<u32> = const { Cell::new(0) };
    }

    pub fn yaml() {
        YAML.with(|n| n.set(n.get() + 1));
    }

    pub fn command() {
        COMMAND.with(|n| n.set(n.get() + 1));
    }

    /// (YAML parses, command parses) since the last take.
    pub fn take() -> (u32, u32) {
        (YAML.with(|n| n.replace(0)), COMMAND.with(|n| n.replace(0)))
    }
}

pub use apps::*;
pub use intstr::IntOrString;
pub use labels::{LabelSelector, LabelSelectorRequirement, Labels};
pub use node::*;
pub use pod::*;
pub use policy::PodDisruptionBudget;
pub use str::Str;
pub use time::Time;

use serde::{Deserialize, Serialize};
pub use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A JSON object: unmodelled fields, manifests and patches as they came, keys in their order.
pub type Map = serde_json::Map<String, Value>;

/// A string field of an object's unmodelled fields (empty when absent or not a string).
pub fn str_field<'a>(extra: &'a Map, key: &str) -> &'a str {
    extra.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A value shared on clone and copied on first write. The controllers and the kubelet copy
/// objects on every write, and most of a pod never changes after creation (its labels, owner,
/// spec); sharing those parts makes a copy cost what actually changes.
#[derive(Clone, Debug, Default)]
pub struct Shared<T>(Rc<T>);

impl<T: Clone> Shared<T> {
    pub fn new(v: T) -> Shared<T> {
        Shared(Rc::new(v))
    }
}

impl<T> Shared<T> {
    /// How many objects (and pools) hold this value.
    pub fn holders(a: &Shared<T>) -> usize {
        Rc::strong_count(&a.0)
    }
    /// Whether both share one value (a pod's labels and its siblings', copied from one
    /// template): then anything computed from one holds for the other.
    pub fn same(a: &Shared<T>, b: &Shared<T>) -> bool {
        Rc::ptr_eq(&a.0, &b.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Rc::make_mut(&mut self.0)
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<'a, T> IntoIterator for &'a Shared<Vec<T>> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a Shared<BTreeMap<K, V>> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::collections::btree_map::Iter<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: Clone> From<T> for Shared<T> {
    fn from(v: T) -> Shared<T> {
        Shared::new(v)
    }
}

/// Unmodelled fields, kept as they came.
pub type Extra = Shared<Map>;

impl Extra {
    /// Sets `key` only when it is absent (a default), without copying a shared map otherwise.
    pub fn default_field(&mut self, key: &str, value: impl FnOnce() -> Value) {
        if !self.0.contains_key(key) {
            Rc::make_mut(&mut self.0).insert(key.to_string(), value());
        }
    }
}

pub const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";
pub const REVISION_HISTORY_ANNOTATION: &str = "deployment.kubernetes.io/revision-history";
pub const DESIRED_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/desired-replicas";
pub const MAX_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/max-replicas";
pub const DEPRECATED_ROLLBACK_TO: &str = "deprecated.deployment.rollback.to";
pub const LAST_APPLIED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";
pub const CHANGE_CAUSE_ANNOTATION: &str = "kubernetes.io/change-cause";
pub const POD_DELETION_COST_ANNOTATION: &str = "controller.kubernetes.io/pod-deletion-cost";
pub const DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY: &str = "pod-template-hash";

pub const FINALIZER_FOREGROUND: &str = "foregroundDeletion";
pub const FINALIZER_ORPHAN: &str = "orphan";

/// Laid out in this order (`repr(C)`): what a ReplicaSet reads of each of its pods on a
/// scale-down (being deleted?, labels, deletion cost, age, uid) comes first, within two cache
/// lines of a pod's spec and status, since a scale-down of thousands reads it from memory. It
/// is written in the Go struct's order all the same (`codec.rs`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[repr(C)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    pub deletion_timestamp: Option<Time>,
    pub creation_timestamp: Option<Time>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub labels: Shared<Labels>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub owner_references: Shared<Vec<OwnerReference>>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub annotations: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub uid: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub name: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub namespace: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub resource_version: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub generate_name: Str,
    #[serde(default, deserialize_with = "codec::nd")]
    pub generation: i64,
    pub deletion_grace_period_seconds: Option<i64>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub finalizers: Vec<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

impl ObjectMeta {
    /// The ownerReference with `controller: true`, if any (upstream `GetControllerOf`).
    pub fn controller_ref(&self) -> Option<&OwnerReference> {
        self.owner_references
            .iter()
            .find(|r| r.controller == Some(true))
    }

    pub fn key(&self) -> Str {
        key_of(&self.namespace, &self.name)
    }

    /// Adoption's `ownerRefControllerPatch`: a strategic-merge patch, so ownerReferences merge
    /// on `uid`: a reference to the same owner already there becomes the controller reference
    /// (there stays exactly one reference to that owner); otherwise the reference is added.
    pub fn set_controller_ref(&mut self, r: OwnerReference) {
        let refs = &mut *self.owner_references;
        match refs.iter_mut().find(|o| o.uid == r.uid) {
            Some(o) => *o = r,
            None => refs.push(r),
        }
    }
}

/// `a/b` (a `namespace/name` key, or `Kind/name`): keys are built on every write and lookup,
/// and most fit inline, without an allocation.
pub fn key_of(a: &str, b: &str) -> Str {
    Str::concat(&[a, "/", b])
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    pub api_version: Str,
    pub kind: Str,
    pub name: Str,
    pub uid: Str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
}

impl OwnerReference {
    /// `metav1.NewControllerRef`: controller and blockOwnerDeletion both true.
    pub fn controller_of(api_version: &str, kind: &str, meta: &ObjectMeta) -> OwnerReference {
        OwnerReference {
            api_version: api_version.into(),
            kind: kind.into(),
            name: meta.name.clone(),
            uid: meta.uid.clone(),
            controller: Some(true),
            block_owner_deletion: Some(true),
        }
    }
}

/// Any object the store holds. Deployments and ReplicaSets are boxed: they are few and nearly
/// three times a pod's size, and unboxed they would make every pod's allocation that large.
/// Pods stay inline: they are most objects, and a box would cost each one an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Object {
    Deployment(Box<Deployment>),
    ReplicaSet(Box<ReplicaSet>),
    Pod(Pod),
    Node(Box<Node>),
    PodDisruptionBudget(Box<PodDisruptionBudget>),
    Service(Box<service::Service>),
    EndpointSlice(Box<service::EndpointSlice>),
}

/// A kind the store serves, typed (kube-rs's `Resource`): an object goes into the store as an
/// [`Object`] and comes back as what it was (`Store::api`).
pub trait Typed: Sized {
    fn into_object(self) -> Object;
    /// The object, when it is of this kind.
    fn from_object(o: Object) -> Option<Self>;
}

impl Typed for Deployment {
    fn into_object(self) -> Object {
        Object::Deployment(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::Deployment(d) => Some(*d),
            _ => None,
        }
    }
}

impl Typed for ReplicaSet {
    fn into_object(self) -> Object {
        Object::ReplicaSet(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::ReplicaSet(r) => Some(*r),
            _ => None,
        }
    }
}

impl Typed for Node {
    fn into_object(self) -> Object {
        Object::Node(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::Node(n) => Some(*n),
            _ => None,
        }
    }
}

impl Typed for PodDisruptionBudget {
    fn into_object(self) -> Object {
        Object::PodDisruptionBudget(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::PodDisruptionBudget(b) => Some(*b),
            _ => None,
        }
    }
}

impl Typed for service::Service {
    fn into_object(self) -> Object {
        Object::Service(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::Service(s) => Some(*s),
            _ => None,
        }
    }
}

impl Typed for service::EndpointSlice {
    fn into_object(self) -> Object {
        Object::EndpointSlice(Box::new(self))
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::EndpointSlice(s) => Some(*s),
            _ => None,
        }
    }
}

impl Typed for Pod {
    fn into_object(self) -> Object {
        Object::Pod(self)
    }
    fn from_object(o: Object) -> Option<Self> {
        match o {
            Object::Pod(p) => Some(p),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Deployment,
    ReplicaSet,
    Pod,
    Node,
    PodDisruptionBudget,
    Service,
    EndpointSlice,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Deployment => "Deployment",
            Kind::ReplicaSet => "ReplicaSet",
            Kind::Pod => "Pod",
            Kind::Node => "Node",
            Kind::PodDisruptionBudget => "PodDisruptionBudget",
            Kind::Service => "Service",
            Kind::EndpointSlice => "EndpointSlice",
        }
    }
    /// Whether its objects live in a namespace (a Node does not).
    pub fn namespaced(self) -> bool {
        self != Kind::Node
    }
    /// The resource name kubectl and the apiserver use in messages (`deployments.apps`).
    pub fn resource(self) -> &'static str {
        match self {
            Kind::Deployment => "deployments.apps",
            Kind::ReplicaSet => "replicasets.apps",
            Kind::Pod => "pods",
            Kind::Node => "nodes",
            Kind::PodDisruptionBudget => "poddisruptionbudgets.policy",
            Kind::Service => "services",
            Kind::EndpointSlice => "endpointslices.discovery.k8s.io",
        }
    }
}

impl Object {
    pub fn kind(&self) -> Kind {
        match self {
            Object::Deployment(_) => Kind::Deployment,
            Object::ReplicaSet(_) => Kind::ReplicaSet,
            Object::Pod(_) => Kind::Pod,
            Object::Node(_) => Kind::Node,
            Object::PodDisruptionBudget(_) => Kind::PodDisruptionBudget,
            Object::Service(_) => Kind::Service,
            Object::EndpointSlice(_) => Kind::EndpointSlice,
        }
    }
    pub fn meta(&self) -> &ObjectMeta {
        match self {
            Object::Deployment(o) => &o.metadata,
            Object::ReplicaSet(o) => &o.metadata,
            Object::Pod(o) => &o.metadata,
            Object::Node(o) => &o.metadata,
            Object::PodDisruptionBudget(o) => &o.metadata,
            Object::Service(o) => &o.metadata,
            Object::EndpointSlice(o) => &o.metadata,
        }
    }
    pub fn meta_mut(&mut self) -> &mut ObjectMeta {
        match self {
            Object::Deployment(o) => &mut o.metadata,
            Object::ReplicaSet(o) => &mut o.metadata,
            Object::Pod(o) => &mut o.metadata,
            Object::Node(o) => &mut o.metadata,
            Object::PodDisruptionBudget(o) => &mut o.metadata,
            Object::Service(o) => &mut o.metadata,
            Object::EndpointSlice(o) => &mut o.metadata,
        }
    }
    pub fn to_value(&self) -> Value {
        codec::to_value(self)
    }
}
