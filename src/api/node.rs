//! core/v1 Node: what the scheduler fits pods on.

use super::*;
use serde::{Deserialize, Serialize};

/// A `v1` Node: what the scheduler fits pods on (its allocatable resources, whether it is
/// cordoned, its taints and labels). Cluster-scoped: its namespace is empty.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    pub metadata: ObjectMeta,
    pub spec: NodeSpec,
    pub status: NodeStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeSpec {
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub unschedulable: bool,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub taints: Vec<Taint>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Taint {
    #[serde(default, deserialize_with = "codec::nd")]
    pub key: String,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub value: String,
    #[serde(default, deserialize_with = "codec::nd")]
    pub effect: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_added: Option<Time>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeStatus {
    /// Quantities by resource name (`cpu: "4"`, `memory: 16Gi`, `pods: "110"`).
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub capacity: Map,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub allocatable: Map,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub conditions: Vec<PodCondition>,
    #[serde(flatten)]
    pub extra: Extra,
}

impl Node {
    /// A resource's allocatable quantity as text (`"4"`, `"16Gi"`), as the scheduler reads it.
    pub fn allocatable(&self, resource: &str) -> Option<String> {
        quantity_text(self.status.allocatable.get(resource)?)
    }
}

/// A quantity as written: a string, or a bare number (`cpu: 4`).
pub fn quantity_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}
