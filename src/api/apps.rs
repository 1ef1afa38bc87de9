//! apps/v1: the Deployment (its strategy, status and conditions) and the ReplicaSet.

use super::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Deployment {
    pub metadata: ObjectMeta,
    pub spec: DeploymentSpec,
    pub status: DeploymentStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub template: PodTemplateSpec,
    #[serde(default, deserialize_with = "codec::nd")]
    pub strategy: DeploymentStrategy,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub min_ready_seconds: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub paused: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress_deadline_seconds: Option<i32>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentStrategy {
    #[serde(rename = "type")]
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub type_: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateDeployment>,
}

pub const RECREATE: &str = StrategyType::Recreate.as_str();
pub const ROLLING_UPDATE: &str = StrategyType::RollingUpdate.as_str();

/// The two values `spec.strategy.type` may take, as the trace and the page compare them. The
/// object keeps the string it was given ([`DeploymentStrategy::type_`]), so that validation
/// names an unsupported one as the apiserver does; a stored Deployment's is always one of these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub enum StrategyType {
    /// The API's default.
    #[default]
    RollingUpdate,
    Recreate,
}

impl StrategyType {
    /// In the order the page offers them.
    pub const ALL: [StrategyType; 2] = [StrategyType::RollingUpdate, StrategyType::Recreate];

    /// The value as the API spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            StrategyType::RollingUpdate => "RollingUpdate",
            StrategyType::Recreate => "Recreate",
        }
    }

    /// The strategy `s` names (`None`: a value the apiserver refuses).
    pub fn of(s: &str) -> Option<StrategyType> {
        StrategyType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

impl std::fmt::Display for StrategyType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl DeploymentStrategy {
    /// The strategy this one is, an unset type read as the default (RollingUpdate) as the
    /// apiserver's defaulting reads it.
    pub fn kind(&self) -> Option<StrategyType> {
        match self.type_.as_str() {
            "" => Some(StrategyType::default()),
            s => StrategyType::of(s),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdateDeployment {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<IntOrString>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentStatus {
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub observed_generation: i64,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub updated_replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub ready_replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub available_replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub unavailable_replicas: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminating_replicas: Option<i32>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub conditions: Vec<DeploymentCondition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_update_time: Option<Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub reason: String,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub message: String,
}

impl Deployment {
    pub fn replicas(&self) -> i32 {
        self.spec.replicas.unwrap_or(1)
    }
    pub fn is_rolling(&self) -> bool {
        self.spec.strategy.type_ == ROLLING_UPDATE
    }
    pub fn selector(&self) -> LabelSelector {
        self.spec.selector.clone().unwrap_or_default()
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplicaSet {
    pub metadata: ObjectMeta,
    pub spec: ReplicaSetSpec,
    pub status: ReplicaSetStatus,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub min_ready_seconds: i32,
    #[serde(default, deserialize_with = "codec::nd")]
    pub selector: LabelSelector,
    #[serde(default, deserialize_with = "codec::nd")]
    pub template: PodTemplateSpec,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetStatus {
    #[serde(default, deserialize_with = "codec::nd")]
    pub replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub fully_labeled_replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub ready_replicas: i32,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub available_replicas: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminating_replicas: Option<i32>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub observed_generation: i64,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub conditions: Vec<ReplicaSetCondition>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub reason: String,
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub message: String,
}

impl ReplicaSet {
    pub fn replicas(&self) -> i32 {
        self.spec.replicas.unwrap_or(1)
    }

    /// The images of the pod template's containers, in order.
    pub fn images(&self) -> Vec<String> {
        self.spec.template.images()
    }
}
