//! The object model to and from generic values, field by field in the order `kubectl get -o
//! yaml` prints them (the order of the Go structs). Optional fields are left out when empty,
//! unmodelled fields come back after the modelled ones, and the apiVersion and kind default
//! as the apiserver fills them in.

use super::*;
use crate::value::codec::IsEmpty;
use crate::value::{DecodeError, Fields, FromValue, Obj, ToValue};

/// A top-level object: apiVersion and kind (filled in when absent, as the apiserver does),
/// metadata, spec and status.
macro_rules! top_level {
    ($t:ident, $api_version:literal) => {
        impl FromValue for $t {
            fn from_value(v: Value) -> Result<$t, DecodeError> {
                let mut f = Fields::new(v, concat!("struct ", stringify!($t)))?;
                Ok($t {
                    api_version: f.or("apiVersion", || $api_version.into())?,
                    kind: f.or("kind", || stringify!($t).into())?,
                    metadata: f.opt("metadata")?,
                    spec: f.opt("spec")?,
                    status: f.opt("status")?,
                })
            }
        }

        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Obj::new()
                    .put("apiVersion", &self.api_version)
                    .put("kind", &self.kind)
                    .put("metadata", &self.metadata)
                    .put("spec", &self.spec)
                    .put("status", &self.status)
                    .build()
            }
        }
    };
}

top_level!(Pod, "v1");
top_level!(Deployment, "apps/v1");
top_level!(ReplicaSet, "apps/v1");

impl<T: FromValue + Clone> FromValue for Shared<T> {
    fn from_value(v: Value) -> Result<Shared<T>, DecodeError> {
        T::from_value(v).map(Shared::new)
    }
}

impl<T: ToValue> ToValue for Shared<T> {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl<T: IsEmpty> IsEmpty for Shared<T> {
    fn is_empty_value(&self) -> bool {
        (**self).is_empty_value()
    }
}

impl FromValue for Time {
    fn from_value(v: Value) -> Result<Time, DecodeError> {
        Time::parse(&String::from_value(v)?).map_err(DecodeError::new)
    }
}

impl ToValue for Time {
    fn to_value(&self) -> Value {
        Value::String(self.to_string())
    }
}

impl FromValue for IntOrString {
    fn from_value(v: Value) -> Result<IntOrString, DecodeError> {
        match v {
            Value::String(s) => Ok(IntOrString::Str(s)),
            v => i32::from_value(v).map(IntOrString::Int).map_err(|e| {
                DecodeError::new(format!("{}, or a string such as \"25%\"", e.message()))
            }),
        }
    }
}

impl ToValue for IntOrString {
    fn to_value(&self) -> Value {
        match self {
            IntOrString::Int(i) => i.to_value(),
            IntOrString::Str(s) => s.to_value(),
        }
    }
}

impl FromValue for LabelSelector {
    fn from_value(v: Value) -> Result<LabelSelector, DecodeError> {
        let mut f = Fields::new(v, "struct LabelSelector")?;
        Ok(LabelSelector {
            match_labels: f.opt("matchLabels")?,
            match_expressions: f.opt("matchExpressions")?,
        })
    }
}

impl ToValue for LabelSelector {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("matchLabels", &self.match_labels)
            .put_nonempty("matchExpressions", &self.match_expressions)
            .build()
    }
}

impl FromValue for LabelSelectorRequirement {
    fn from_value(v: Value) -> Result<LabelSelectorRequirement, DecodeError> {
        let mut f = Fields::new(v, "struct LabelSelectorRequirement")?;
        Ok(LabelSelectorRequirement {
            key: f.req("key")?,
            operator: f.req("operator")?,
            values: f.opt("values")?,
        })
    }
}

impl ToValue for LabelSelectorRequirement {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("key", &self.key)
            .put("operator", &self.operator)
            .put_nonempty("values", &self.values)
            .build()
    }
}

impl FromValue for ObjectMeta {
    fn from_value(v: Value) -> Result<ObjectMeta, DecodeError> {
        let mut f = Fields::new(v, "struct ObjectMeta")?;
        Ok(ObjectMeta {
            name: f.opt("name")?,
            generate_name: f.opt("generateName")?,
            namespace: f.opt("namespace")?,
            uid: f.opt("uid")?,
            resource_version: f.opt("resourceVersion")?,
            generation: f.opt("generation")?,
            creation_timestamp: f.opt("creationTimestamp")?,
            deletion_timestamp: f.opt("deletionTimestamp")?,
            deletion_grace_period_seconds: f.opt("deletionGracePeriodSeconds")?,
            labels: f.opt("labels")?,
            annotations: f.opt("annotations")?,
            owner_references: f.opt("ownerReferences")?,
            finalizers: f.opt("finalizers")?,
            extra: Shared::new(f.rest()),
        })
    }
}

impl ToValue for ObjectMeta {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("name", &self.name)
            .put_nonempty("generateName", &self.generate_name)
            .put_nonempty("namespace", &self.namespace)
            .put_nonempty("uid", &self.uid)
            .put_nonempty("resourceVersion", &self.resource_version)
            .put_nonempty("generation", &self.generation)
            .put_nonempty("creationTimestamp", &self.creation_timestamp)
            .put_nonempty("deletionTimestamp", &self.deletion_timestamp)
            .put_nonempty(
                "deletionGracePeriodSeconds",
                &self.deletion_grace_period_seconds,
            )
            .put_nonempty("labels", &self.labels)
            .put_nonempty("annotations", &self.annotations)
            .put_nonempty("ownerReferences", &self.owner_references)
            .put_nonempty("finalizers", &self.finalizers)
            .rest(&self.extra)
            .build()
    }
}

impl FromValue for OwnerReference {
    fn from_value(v: Value) -> Result<OwnerReference, DecodeError> {
        let mut f = Fields::new(v, "struct OwnerReference")?;
        Ok(OwnerReference {
            api_version: f.req("apiVersion")?,
            kind: f.req("kind")?,
            name: f.req("name")?,
            uid: f.req("uid")?,
            controller: f.opt("controller")?,
            block_owner_deletion: f.opt("blockOwnerDeletion")?,
        })
    }
}

impl ToValue for OwnerReference {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("apiVersion", &self.api_version)
            .put("kind", &self.kind)
            .put("name", &self.name)
            .put("uid", &self.uid)
            .put_nonempty("controller", &self.controller)
            .put_nonempty("blockOwnerDeletion", &self.block_owner_deletion)
            .build()
    }
}

// ---------------------------------------------------------------- pod template and pods

impl FromValue for PodTemplateSpec {
    fn from_value(v: Value) -> Result<PodTemplateSpec, DecodeError> {
        let mut f = Fields::new(v, "struct PodTemplateSpec")?;
        Ok(PodTemplateSpec {
            metadata: f.opt("metadata")?,
            spec: f.opt("spec")?,
        })
    }
}

impl ToValue for PodTemplateSpec {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("metadata", &self.metadata)
            .put("spec", &self.spec)
            .build()
    }
}

impl FromValue for PodSpec {
    fn from_value(v: Value) -> Result<PodSpec, DecodeError> {
        let mut f = Fields::new(v, "struct PodSpec")?;
        Ok(PodSpec {
            containers: f.opt("containers")?,
            restart_policy: f.opt("restartPolicy")?,
            termination_grace_period_seconds: f.opt("terminationGracePeriodSeconds")?,
            node_name: f.opt("nodeName")?,
            extra: Shared::new(f.rest()),
        })
    }
}

impl ToValue for PodSpec {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("containers", &self.containers)
            .put_nonempty("restartPolicy", &self.restart_policy)
            .put_nonempty(
                "terminationGracePeriodSeconds",
                &self.termination_grace_period_seconds,
            )
            .put_nonempty("nodeName", &self.node_name)
            .rest(&self.extra)
            .build()
    }
}

impl FromValue for Container {
    fn from_value(v: Value) -> Result<Container, DecodeError> {
        let mut f = Fields::new(v, "struct Container")?;
        Ok(Container {
            name: f.opt("name")?,
            image: f.opt("image")?,
            extra: Shared::new(f.rest()),
        })
    }
}

impl ToValue for Container {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("name", &self.name)
            .put("image", &self.image)
            .rest(&self.extra)
            .build()
    }
}

impl FromValue for PodStatus {
    fn from_value(v: Value) -> Result<PodStatus, DecodeError> {
        let mut f = Fields::new(v, "struct PodStatus")?;
        Ok(PodStatus {
            phase: f.opt("phase")?,
            conditions: f.opt("conditions")?,
            start_time: f.opt("startTime")?,
            container_statuses: f.opt("containerStatuses")?,
            extra: Shared::new(f.rest()),
        })
    }
}

impl ToValue for PodStatus {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("phase", &self.phase)
            .put_nonempty("conditions", &self.conditions)
            .put_nonempty("startTime", &self.start_time)
            .put_nonempty("containerStatuses", &self.container_statuses)
            .rest(&self.extra)
            .build()
    }
}

impl FromValue for PodCondition {
    fn from_value(v: Value) -> Result<PodCondition, DecodeError> {
        let mut f = Fields::new(v, "struct PodCondition")?;
        Ok(PodCondition {
            type_: f.req("type")?,
            status: f.req("status")?,
            last_transition_time: f.opt("lastTransitionTime")?,
            reason: f.opt("reason")?,
            message: f.opt("message")?,
        })
    }
}

impl ToValue for PodCondition {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("type", &self.type_)
            .put("status", &self.status)
            .put_nonempty("lastTransitionTime", &self.last_transition_time)
            .put_nonempty("reason", &self.reason)
            .put_nonempty("message", &self.message)
            .build()
    }
}

impl FromValue for ContainerStatus {
    fn from_value(v: Value) -> Result<ContainerStatus, DecodeError> {
        let mut f = Fields::new(v, "struct ContainerStatus")?;
        Ok(ContainerStatus {
            name: f.req("name")?,
            image: f.opt("image")?,
            ready: f.opt("ready")?,
            restart_count: f.opt("restartCount")?,
            started: f.opt("started")?,
            state: f.opt("state")?,
            last_state: f.opt("lastState")?,
        })
    }
}

impl ToValue for ContainerStatus {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("name", &self.name)
            .put("image", &self.image)
            .put("ready", &self.ready)
            .put("restartCount", &self.restart_count)
            .put_nonempty("started", &self.started)
            .put("state", &self.state)
            .put_nonempty("lastState", &self.last_state)
            .build()
    }
}

impl IsEmpty for ContainerState {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl FromValue for ContainerState {
    fn from_value(v: Value) -> Result<ContainerState, DecodeError> {
        let mut f = Fields::new(v, "struct ContainerState")?;
        Ok(ContainerState {
            waiting: f.opt("waiting")?,
            running: f.opt("running")?,
            terminated: f.opt("terminated")?,
        })
    }
}

impl ToValue for ContainerState {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("waiting", &self.waiting)
            .put_nonempty("running", &self.running)
            .put_nonempty("terminated", &self.terminated)
            .build()
    }
}

impl FromValue for ContainerStateWaiting {
    fn from_value(v: Value) -> Result<ContainerStateWaiting, DecodeError> {
        let mut f = Fields::new(v, "struct ContainerStateWaiting")?;
        Ok(ContainerStateWaiting {
            reason: f.opt("reason")?,
            message: f.opt("message")?,
        })
    }
}

impl ToValue for ContainerStateWaiting {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("reason", &self.reason)
            .put_nonempty("message", &self.message)
            .build()
    }
}

impl FromValue for ContainerStateRunning {
    fn from_value(v: Value) -> Result<ContainerStateRunning, DecodeError> {
        let mut f = Fields::new(v, "struct ContainerStateRunning")?;
        Ok(ContainerStateRunning {
            started_at: f.opt("startedAt")?,
        })
    }
}

impl ToValue for ContainerStateRunning {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("startedAt", &self.started_at)
            .build()
    }
}

impl FromValue for ContainerStateTerminated {
    fn from_value(v: Value) -> Result<ContainerStateTerminated, DecodeError> {
        let mut f = Fields::new(v, "struct ContainerStateTerminated")?;
        Ok(ContainerStateTerminated {
            exit_code: f.opt("exitCode")?,
            reason: f.opt("reason")?,
            finished_at: f.opt("finishedAt")?,
        })
    }
}

impl ToValue for ContainerStateTerminated {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("exitCode", &self.exit_code)
            .put_nonempty("reason", &self.reason)
            .put_nonempty("finishedAt", &self.finished_at)
            .build()
    }
}

// ---------------------------------------------------------------- Deployment

impl FromValue for DeploymentSpec {
    fn from_value(v: Value) -> Result<DeploymentSpec, DecodeError> {
        let mut f = Fields::new(v, "struct DeploymentSpec")?;
        Ok(DeploymentSpec {
            replicas: f.opt("replicas")?,
            selector: f.opt("selector")?,
            template: f.opt("template")?,
            strategy: f.opt("strategy")?,
            min_ready_seconds: f.opt("minReadySeconds")?,
            revision_history_limit: f.opt("revisionHistoryLimit")?,
            paused: f.opt("paused")?,
            progress_deadline_seconds: f.opt("progressDeadlineSeconds")?,
            extra: Shared::new(f.rest()),
        })
    }
}

impl ToValue for DeploymentSpec {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("replicas", &self.replicas)
            .put_nonempty("selector", &self.selector)
            .put("template", &self.template)
            .put("strategy", &self.strategy)
            .put_nonempty("minReadySeconds", &self.min_ready_seconds)
            .put_nonempty("revisionHistoryLimit", &self.revision_history_limit)
            .put_nonempty("paused", &self.paused)
            .put_nonempty("progressDeadlineSeconds", &self.progress_deadline_seconds)
            .rest(&self.extra)
            .build()
    }
}

impl FromValue for DeploymentStrategy {
    fn from_value(v: Value) -> Result<DeploymentStrategy, DecodeError> {
        let mut f = Fields::new(v, "struct DeploymentStrategy")?;
        Ok(DeploymentStrategy {
            type_: f.opt("type")?,
            rolling_update: f.opt("rollingUpdate")?,
        })
    }
}

impl ToValue for DeploymentStrategy {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("type", &self.type_)
            .put_nonempty("rollingUpdate", &self.rolling_update)
            .build()
    }
}

impl FromValue for RollingUpdateDeployment {
    fn from_value(v: Value) -> Result<RollingUpdateDeployment, DecodeError> {
        let mut f = Fields::new(v, "struct RollingUpdateDeployment")?;
        Ok(RollingUpdateDeployment {
            max_unavailable: f.opt("maxUnavailable")?,
            max_surge: f.opt("maxSurge")?,
        })
    }
}

impl ToValue for RollingUpdateDeployment {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("maxUnavailable", &self.max_unavailable)
            .put_nonempty("maxSurge", &self.max_surge)
            .build()
    }
}

impl FromValue for DeploymentStatus {
    fn from_value(v: Value) -> Result<DeploymentStatus, DecodeError> {
        let mut f = Fields::new(v, "struct DeploymentStatus")?;
        Ok(DeploymentStatus {
            observed_generation: f.opt("observedGeneration")?,
            replicas: f.opt("replicas")?,
            updated_replicas: f.opt("updatedReplicas")?,
            ready_replicas: f.opt("readyReplicas")?,
            available_replicas: f.opt("availableReplicas")?,
            unavailable_replicas: f.opt("unavailableReplicas")?,
            terminating_replicas: f.opt("terminatingReplicas")?,
            conditions: f.opt("conditions")?,
            collision_count: f.opt("collisionCount")?,
        })
    }
}

impl ToValue for DeploymentStatus {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("observedGeneration", &self.observed_generation)
            .put_nonempty("replicas", &self.replicas)
            .put_nonempty("updatedReplicas", &self.updated_replicas)
            .put_nonempty("readyReplicas", &self.ready_replicas)
            .put_nonempty("availableReplicas", &self.available_replicas)
            .put_nonempty("unavailableReplicas", &self.unavailable_replicas)
            .put_nonempty("terminatingReplicas", &self.terminating_replicas)
            .put_nonempty("conditions", &self.conditions)
            .put_nonempty("collisionCount", &self.collision_count)
            .build()
    }
}

impl FromValue for DeploymentCondition {
    fn from_value(v: Value) -> Result<DeploymentCondition, DecodeError> {
        let mut f = Fields::new(v, "struct DeploymentCondition")?;
        Ok(DeploymentCondition {
            type_: f.req("type")?,
            status: f.req("status")?,
            last_update_time: f.opt("lastUpdateTime")?,
            last_transition_time: f.opt("lastTransitionTime")?,
            reason: f.opt("reason")?,
            message: f.opt("message")?,
        })
    }
}

impl ToValue for DeploymentCondition {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("type", &self.type_)
            .put("status", &self.status)
            .put_nonempty("lastUpdateTime", &self.last_update_time)
            .put_nonempty("lastTransitionTime", &self.last_transition_time)
            .put_nonempty("reason", &self.reason)
            .put_nonempty("message", &self.message)
            .build()
    }
}

// ---------------------------------------------------------------- ReplicaSet

impl FromValue for ReplicaSetSpec {
    fn from_value(v: Value) -> Result<ReplicaSetSpec, DecodeError> {
        let mut f = Fields::new(v, "struct ReplicaSetSpec")?;
        Ok(ReplicaSetSpec {
            replicas: f.opt("replicas")?,
            min_ready_seconds: f.opt("minReadySeconds")?,
            selector: f.opt("selector")?,
            template: f.opt("template")?,
            extra: Shared::new(f.rest()),
        })
    }
}

impl ToValue for ReplicaSetSpec {
    fn to_value(&self) -> Value {
        Obj::new()
            .put_nonempty("replicas", &self.replicas)
            .put_nonempty("minReadySeconds", &self.min_ready_seconds)
            .put("selector", &self.selector)
            .put("template", &self.template)
            .rest(&self.extra)
            .build()
    }
}

impl FromValue for ReplicaSetStatus {
    fn from_value(v: Value) -> Result<ReplicaSetStatus, DecodeError> {
        let mut f = Fields::new(v, "struct ReplicaSetStatus")?;
        Ok(ReplicaSetStatus {
            replicas: f.opt("replicas")?,
            fully_labeled_replicas: f.opt("fullyLabeledReplicas")?,
            ready_replicas: f.opt("readyReplicas")?,
            available_replicas: f.opt("availableReplicas")?,
            terminating_replicas: f.opt("terminatingReplicas")?,
            observed_generation: f.opt("observedGeneration")?,
            conditions: f.opt("conditions")?,
        })
    }
}

impl ToValue for ReplicaSetStatus {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("replicas", &self.replicas)
            .put_nonempty("fullyLabeledReplicas", &self.fully_labeled_replicas)
            .put_nonempty("readyReplicas", &self.ready_replicas)
            .put_nonempty("availableReplicas", &self.available_replicas)
            .put_nonempty("terminatingReplicas", &self.terminating_replicas)
            .put_nonempty("observedGeneration", &self.observed_generation)
            .put_nonempty("conditions", &self.conditions)
            .build()
    }
}

impl FromValue for ReplicaSetCondition {
    fn from_value(v: Value) -> Result<ReplicaSetCondition, DecodeError> {
        let mut f = Fields::new(v, "struct ReplicaSetCondition")?;
        Ok(ReplicaSetCondition {
            type_: f.req("type")?,
            status: f.req("status")?,
            last_transition_time: f.opt("lastTransitionTime")?,
            reason: f.opt("reason")?,
            message: f.opt("message")?,
        })
    }
}

impl ToValue for ReplicaSetCondition {
    fn to_value(&self) -> Value {
        Obj::new()
            .put("type", &self.type_)
            .put("status", &self.status)
            .put_nonempty("lastTransitionTime", &self.last_transition_time)
            .put_nonempty("reason", &self.reason)
            .put_nonempty("message", &self.message)
            .build()
    }
}

impl ToValue for Object {
    fn to_value(&self) -> Value {
        match self {
            Object::Deployment(o) => o.to_value(),
            Object::ReplicaSet(o) => o.to_value(),
            Object::Pod(o) => o.to_value(),
        }
    }
}
