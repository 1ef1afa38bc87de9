//! What serde's derives on the object model need beside their attributes: Go's `omitempty`
//! ([`omit`]), the apiserver's "a null field reads as absent" ([`nd`]), the few types serde
//! cannot derive (`Str`, `Time`, `IntOrString`, `Shared`), the top-level objects (whose
//! apiVersion and kind are their type, not stored fields), and `ObjectMeta` written in the Go
//! struct's order while it is laid out for the scale-down walk. [`from_value`] decodes with the
//! field path in errors ([`super::decode`]), in the page as natively.

use super::*;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

pub use super::decode::{DecodeError, from_value};

/// Reads an object of `kind`: the one place each kind's decoder is built (a manifest and a
/// patched object both come here, so the page carries each kind's decoding once).
pub fn object_of(kind: Kind, v: Value) -> Result<Object, DecodeError> {
    Ok(match kind {
        Kind::Deployment => Object::Deployment(Box::new(from_value(v)?)),
        Kind::ReplicaSet => Object::ReplicaSet(Box::new(from_value(v)?)),
        Kind::Pod => Object::Pod(from_value(v)?),
        Kind::Node => Object::Node(Box::new(from_value(v)?)),
        Kind::PodDisruptionBudget => Object::PodDisruptionBudget(Box::new(from_value(v)?)),
        Kind::Service => Object::Service(Box::new(from_value(v)?)),
        Kind::EndpointSlice => Object::EndpointSlice(Box::new(from_value(v)?)),
    })
}

/// Writes a typed value. The model's types have string keys only, so this cannot fail.
pub fn to_value<T: Serialize + ?Sized>(t: &T) -> Value {
    serde_json::to_value(t).expect("the object model serializes to JSON")
}

/// Go's `omitempty`: empty strings, collections and maps, zero numbers, false, nil.
pub trait OmitEmpty {
    fn omit(&self) -> bool;
}

/// `skip_serializing_if = "codec::omit"`.
pub fn omit<T: OmitEmpty + ?Sized>(v: &T) -> bool {
    v.omit()
}

/// `deserialize_with = "codec::nd"`: null reads as the field's zero value, as absent does.
pub fn nd<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<T, D::Error> {
    Option::<T>::deserialize(d).map(Option::unwrap_or_default)
}

macro_rules! omit_when {
    ($($t:ty => |$v:ident| $e:expr;)*) => {$(
        impl OmitEmpty for $t {
            fn omit(&self) -> bool {
                let $v = self;
                $e
            }
        }
    )*};
}

omit_when! {
    str => |s| s.is_empty();
    String => |s| s.is_empty();
    Str => |s| s.is_empty();
    bool => |b| !*b;
    i32 => |n| *n == 0;
    i64 => |n| *n == 0;
    Map => |m| m.is_empty();
    ContainerState => |s| s.is_empty();
    LabelSelector => |s| s.match_labels.is_empty() && s.match_expressions.is_empty();
}

impl<T> OmitEmpty for Vec<T> {
    fn omit(&self) -> bool {
        self.is_empty()
    }
}

impl<K, V> OmitEmpty for BTreeMap<K, V> {
    fn omit(&self) -> bool {
        self.is_empty()
    }
}

impl<T> OmitEmpty for [T] {
    fn omit(&self) -> bool {
        self.is_empty()
    }
}

impl<T> OmitEmpty for Option<T> {
    fn omit(&self) -> bool {
        self.is_none()
    }
}

impl<T: OmitEmpty> OmitEmpty for Shared<T> {
    fn omit(&self) -> bool {
        (**self).omit()
    }
}

// ---------------------------------------------------------------- types serde cannot derive

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de, T: Deserialize<'de> + Clone> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Shared::new)
    }
}

impl Serialize for Str {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

impl<'de> Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Str::from)
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Time::parse(&String::deserialize(d)?).map_err(de::Error::custom)
    }
}

impl Serialize for IntOrString {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            IntOrString::Int(i) => s.serialize_i32(*i),
            IntOrString::Str(v) => s.serialize_str(v),
        }
    }
}

impl<'de> Deserialize<'de> for IntOrString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = IntOrString;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("i32, or a string such as \"25%\"")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<IntOrString, E> {
                i32::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<IntOrString, E> {
                i32::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<IntOrString, E> {
                Ok(IntOrString::Str(v.to_string()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<IntOrString, E> {
                Ok(IntOrString::Str(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// Written in the Go struct's order (`kubectl get -o yaml` sorts keys anyway; the editor and
/// the trace do not), whatever order the fields are laid out in.
impl Serialize for ObjectMeta {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct GoOrder<'a> {
            #[serde(skip_serializing_if = "omit")]
            name: &'a Str,
            #[serde(skip_serializing_if = "omit")]
            generate_name: &'a Str,
            #[serde(skip_serializing_if = "omit")]
            namespace: &'a Str,
            #[serde(skip_serializing_if = "omit")]
            uid: &'a Str,
            #[serde(skip_serializing_if = "omit")]
            resource_version: &'a Str,
            #[serde(skip_serializing_if = "omit")]
            generation: &'a i64,
            #[serde(skip_serializing_if = "omit")]
            creation_timestamp: &'a Option<Time>,
            #[serde(skip_serializing_if = "omit")]
            deletion_timestamp: &'a Option<Time>,
            #[serde(skip_serializing_if = "omit")]
            deletion_grace_period_seconds: &'a Option<i64>,
            #[serde(skip_serializing_if = "omit")]
            labels: &'a Shared<Labels>,
            #[serde(skip_serializing_if = "omit")]
            annotations: &'a BTreeMap<String, String>,
            #[serde(skip_serializing_if = "omit")]
            owner_references: &'a Shared<Vec<OwnerReference>>,
            #[serde(skip_serializing_if = "omit")]
            finalizers: &'a Vec<String>,
            #[serde(flatten)]
            extra: &'a Extra,
        }
        GoOrder {
            name: &self.name,
            generate_name: &self.generate_name,
            namespace: &self.namespace,
            uid: &self.uid,
            resource_version: &self.resource_version,
            generation: &self.generation,
            creation_timestamp: &self.creation_timestamp,
            deletion_timestamp: &self.deletion_timestamp,
            deletion_grace_period_seconds: &self.deletion_grace_period_seconds,
            labels: &self.labels,
            annotations: &self.annotations,
            owner_references: &self.owner_references,
            finalizers: &self.finalizers,
            extra: &self.extra,
        }
        .serialize(s)
    }
}

impl<T: OmitEmpty + ?Sized> OmitEmpty for &T {
    fn omit(&self) -> bool {
        (**self).omit()
    }
}

/// A top-level object: apiVersion and kind (filled in when absent, as the apiserver does),
/// metadata, spec and status. The type is the apiVersion and kind, so they are not stored: a
/// pod is 80 bytes smaller without two copies of "v1" and "Pod" (see `Pod`), and a document
/// (or a patch) that names another is refused, naming the field.
macro_rules! top_level {
    ($t:ident, $kind:literal, $api_version:literal, $spec:ty, $status:ty) => {
        $crate::api::codec::top_level!(@ $t, $kind, $api_version, $spec, $status, $crate::api::codec::status_as_is, |_s: &mut $status| (), );
    };
    // A pod: its IPv4 address is written in its status and read out of it (see `Pod::ip`).
    ($t:ident, $kind:literal, $api_version:literal, $spec:ty, $status:ty, ip) => {
        $crate::api::codec::top_level!(
            @ $t, $kind, $api_version, $spec, $status,
            $crate::api::codec::with_ip,
            |s: &mut $status| $crate::api::codec::take_pod_ip(&mut s.extra),
            ip
        );
    };
    (@ $t:ident, $kind:literal, $api_version:literal, $spec:ty, $status:ty, $out:expr, $take:expr, $($ip:ident)?) => {
        impl $t {
            pub const API_VERSION: &str = $api_version;
            pub const KIND: &str = $kind;
        }

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                #[derive(serde::Serialize)]
                #[serde(rename_all = "camelCase")]
                struct Out<'a, S: serde::Serialize> {
                    api_version: &'static str,
                    kind: &'static str,
                    metadata: &'a $crate::api::ObjectMeta,
                    spec: &'a $spec,
                    status: S,
                }
                Out {
                    api_version: $t::API_VERSION,
                    kind: $t::KIND,
                    metadata: &self.metadata,
                    spec: &self.spec,
                    status: ($out)(self, &self.status),
                }
                .serialize(s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                #[derive(serde::Deserialize)]
                #[serde(rename = $kind, rename_all = "camelCase")]
                struct In {
                    api_version: Option<String>,
                    kind: Option<String>,
                    #[serde(default, deserialize_with = "crate::api::codec::nd")]
                    metadata: $crate::api::ObjectMeta,
                    #[serde(default, deserialize_with = "crate::api::codec::nd")]
                    spec: $spec,
                    #[serde(default, deserialize_with = "crate::api::codec::nd")]
                    status: $status,
                }
                let mut o = <In as serde::Deserialize>::deserialize(d)?;
                $crate::api::codec::type_meta("apiVersion", o.api_version, $t::API_VERSION)?;
                $crate::api::codec::type_meta("kind", o.kind, $t::KIND)?;
                #[allow(clippy::let_unit_value, unused_variables)]
                let taken = ($take)(&mut o.status);
                Ok($t {
                    metadata: o.metadata,
                    spec: o.spec.into(),
                    status: o.status.into(),
                    $($ip: taken,)?
                })
            }
        }
    };
}
pub(super) use top_level;

/// Any other kind's status is written as it is.
pub(super) fn status_as_is<'a, O, S>(_: &O, status: &'a S) -> &'a S {
    status
}

/// A pod's status as written, with its address (`Pod::ip`) as `podIP` and `podIPs`.
#[derive(Serialize)]
pub(super) struct WithIp<'a> {
    #[serde(rename = "podIP", skip_serializing_if = "Option::is_none")]
    ip: Option<std::net::Ipv4Addr>,
    #[serde(rename = "podIPs", skip_serializing_if = "Option::is_none")]
    ips: Option<[PodIp; 1]>,
    #[serde(flatten)]
    status: &'a PodStatus,
}

/// An entry of `podIPs`.
#[derive(Serialize)]
struct PodIp {
    ip: std::net::Ipv4Addr,
}

pub(super) fn with_ip<'a>(p: &Pod, status: &'a PodStatus) -> WithIp<'a> {
    WithIp {
        ip: p.ip,
        ips: p.ip.map(|ip| [PodIp { ip }]),
        status,
    }
}

/// Takes a status's `podIP` out of its unmodelled fields when it is one IPv4 address that
/// `podIPs` (if written) lists alone: the pod keeps it (`Pod::ip`). Any other stays as written.
pub(super) fn take_pod_ip(extra: &mut Extra) -> Option<std::net::Ipv4Addr> {
    let ip: std::net::Ipv4Addr = extra.get("podIP")?.as_str()?.parse().ok()?;
    let alone = match extra.get("podIPs") {
        None => true,
        Some(Value::Array(l)) => {
            l.len() == 1 && l[0].get("ip").and_then(Value::as_str) == Some(&ip.to_string())
        }
        Some(_) => false,
    };
    if !alone {
        return None;
    }
    extra.remove("podIP");
    extra.remove("podIPs");
    Some(ip)
}

/// `apiVersion` or `kind` must be absent or `want`.
pub(super) fn type_meta<E: de::Error>(key: &str, got: Option<String>, want: &str) -> Result<(), E> {
    match got {
        Some(got) if got != want => Err(E::custom(format_args!(
            "{key}: {got:?} is not the expected {want:?}"
        ))),
        _ => Ok(()),
    }
}

top_level!(Pod, "Pod", "v1", PodSpec, PodStatus, ip);
top_level!(Node, "Node", "v1", NodeSpec, NodeStatus);
top_level!(
    Deployment,
    "Deployment",
    "apps/v1",
    DeploymentSpec,
    DeploymentStatus
);
top_level!(
    ReplicaSet,
    "ReplicaSet",
    "apps/v1",
    ReplicaSetSpec,
    ReplicaSetStatus
);

impl Serialize for Object {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Object::Deployment(o) => o.serialize(s),
            Object::ReplicaSet(o) => o.serialize(s),
            Object::Pod(o) => o.serialize(s),
            Object::Node(o) => o.serialize(s),
            Object::PodDisruptionBudget(o) => o.serialize(s),
            Object::Service(o) => o.serialize(s),
            Object::EndpointSlice(o) => o.serialize(s),
        }
    }
}
