//! The object model to and from generic values, field by field in the order `kubectl get -o
//! yaml` prints them (the order of the Go structs). Optional fields are left out when empty,
//! unmodelled fields come back after the modelled ones, and the apiVersion and kind default
//! as the apiserver fills them in.

use super::*;
use crate::value::codec::IsEmpty;
use crate::value::codec::codec;
use crate::value::{DecodeError, Fields, FromValue, Obj, ToValue};

/// A top-level object: apiVersion and kind (filled in when absent, as the apiserver does),
/// metadata, spec and status. The type is the apiVersion and kind, so they are not stored: a
/// pod is 80 bytes smaller without two copies of "v1" and "Pod" (see `Pod`), and a document
/// (or a patch) that names another is refused, naming the field.
macro_rules! top_level {
    ($t:ident, $api_version:literal) => {
        impl $t {
            pub const API_VERSION: &str = $api_version;
            pub const KIND: &str = stringify!($t);
        }

        impl FromValue for $t {
            fn from_value(v: Value) -> Result<$t, DecodeError> {
                let mut f = Fields::new(v, concat!("struct ", stringify!($t)))?;
                type_meta(&mut f, "apiVersion", $t::API_VERSION)?;
                type_meta(&mut f, "kind", $t::KIND)?;
                Ok($t {
                    metadata: f.opt("metadata")?,
                    spec: f.opt("spec")?,
                    status: f.opt("status")?,
                })
            }
        }

        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Obj::new()
                    .put("apiVersion", $t::API_VERSION)
                    .put("kind", $t::KIND)
                    .put("metadata", &self.metadata)
                    .put("spec", &self.spec)
                    .put("status", &self.status)
                    .build()
            }
        }
    };
}

/// Reads `apiVersion` or `kind`, which must be absent or `want`.
#[inline(never)]
fn type_meta(f: &mut Fields, key: &'static str, want: &str) -> Result<(), DecodeError> {
    let got: String = f.or(key, || want.to_string())?;
    if got == want {
        return Ok(());
    }
    Err(DecodeError::new(format!("{got:?} is not the expected {want:?}")).at_key(key))
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

codec!(LabelSelector {
    match_labels: "matchLabels" opt put_nonempty,
    match_expressions: "matchExpressions" opt put_nonempty,
});

codec!(LabelSelectorRequirement {
    key: "key" req put,
    operator: "operator" req put,
    values: "values" opt put_nonempty,
});

codec!(ObjectMeta {
    name: "name" opt put_nonempty,
    generate_name: "generateName" opt put_nonempty,
    namespace: "namespace" opt put_nonempty,
    uid: "uid" opt put_nonempty,
    resource_version: "resourceVersion" opt put_nonempty,
    generation: "generation" opt put_nonempty,
    creation_timestamp: "creationTimestamp" opt put_nonempty,
    deletion_timestamp: "deletionTimestamp" opt put_nonempty,
    deletion_grace_period_seconds: "deletionGracePeriodSeconds" opt put_nonempty,
    labels: "labels" opt put_nonempty,
    annotations: "annotations" opt put_nonempty,
    owner_references: "ownerReferences" opt put_nonempty,
    finalizers: "finalizers" opt put_nonempty,
    ..extra
});

codec!(OwnerReference {
    api_version: "apiVersion" req put,
    kind: "kind" req put,
    name: "name" req put,
    uid: "uid" req put,
    controller: "controller" opt put_nonempty,
    block_owner_deletion: "blockOwnerDeletion" opt put_nonempty,
});

// ---------------------------------------------------------------- pod template and pods

codec!(PodTemplateSpec {
    metadata: "metadata" opt put,
    spec: "spec" opt put,
});

codec!(PodSpec {
    containers: "containers" opt put,
    restart_policy: "restartPolicy" opt put_nonempty,
    termination_grace_period_seconds: "terminationGracePeriodSeconds" opt put_nonempty,
    node_name: "nodeName" opt put_nonempty,
    ..extra
});

codec!(Container {
    name: "name" opt put,
    image: "image" opt put,
    ..extra
});

codec!(PodStatus {
    phase: "phase" opt put_nonempty,
    conditions: "conditions" opt put_nonempty,
    start_time: "startTime" opt put_nonempty,
    container_statuses: "containerStatuses" opt put_nonempty,
    ..extra
});

codec!(PodCondition {
    type_: "type" req put,
    status: "status" req put,
    last_transition_time: "lastTransitionTime" opt put_nonempty,
    reason: "reason" opt put_nonempty,
    message: "message" opt put_nonempty,
});

codec!(ContainerStatus {
    name: "name" req put,
    image: "image" opt put,
    ready: "ready" opt put,
    restart_count: "restartCount" opt put,
    started: "started" opt put_nonempty,
    state: "state" opt put,
    last_state: "lastState" opt put_nonempty,
});

impl IsEmpty for ContainerState {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

codec!(ContainerState {
    waiting: "waiting" opt put_nonempty,
    running: "running" opt put_nonempty,
    terminated: "terminated" opt put_nonempty,
});

codec!(ContainerStateWaiting {
    reason: "reason" opt put_nonempty,
    message: "message" opt put_nonempty,
});

codec!(ContainerStateRunning {
    started_at: "startedAt" opt put_nonempty,
});

codec!(ContainerStateTerminated {
    exit_code: "exitCode" opt put,
    reason: "reason" opt put_nonempty,
    finished_at: "finishedAt" opt put_nonempty,
});

// ---------------------------------------------------------------- Deployment

codec!(DeploymentSpec {
    replicas: "replicas" opt put_nonempty,
    selector: "selector" opt put_nonempty,
    template: "template" opt put,
    strategy: "strategy" opt put,
    min_ready_seconds: "minReadySeconds" opt put_nonempty,
    revision_history_limit: "revisionHistoryLimit" opt put_nonempty,
    paused: "paused" opt put_nonempty,
    progress_deadline_seconds: "progressDeadlineSeconds" opt put_nonempty,
    ..extra
});

codec!(DeploymentStrategy {
    type_: "type" opt put_nonempty,
    rolling_update: "rollingUpdate" opt put_nonempty,
});

codec!(RollingUpdateDeployment {
    max_unavailable: "maxUnavailable" opt put_nonempty,
    max_surge: "maxSurge" opt put_nonempty,
});

codec!(DeploymentStatus {
    observed_generation: "observedGeneration" opt put_nonempty,
    replicas: "replicas" opt put_nonempty,
    updated_replicas: "updatedReplicas" opt put_nonempty,
    ready_replicas: "readyReplicas" opt put_nonempty,
    available_replicas: "availableReplicas" opt put_nonempty,
    unavailable_replicas: "unavailableReplicas" opt put_nonempty,
    terminating_replicas: "terminatingReplicas" opt put_nonempty,
    conditions: "conditions" opt put_nonempty,
    collision_count: "collisionCount" opt put_nonempty,
});

codec!(DeploymentCondition {
    type_: "type" req put,
    status: "status" req put,
    last_update_time: "lastUpdateTime" opt put_nonempty,
    last_transition_time: "lastTransitionTime" opt put_nonempty,
    reason: "reason" opt put_nonempty,
    message: "message" opt put_nonempty,
});

// ---------------------------------------------------------------- ReplicaSet

codec!(ReplicaSetSpec {
    replicas: "replicas" opt put_nonempty,
    min_ready_seconds: "minReadySeconds" opt put_nonempty,
    selector: "selector" opt put,
    template: "template" opt put,
    ..extra
});

codec!(ReplicaSetStatus {
    replicas: "replicas" opt put,
    fully_labeled_replicas: "fullyLabeledReplicas" opt put_nonempty,
    ready_replicas: "readyReplicas" opt put_nonempty,
    available_replicas: "availableReplicas" opt put_nonempty,
    terminating_replicas: "terminatingReplicas" opt put_nonempty,
    observed_generation: "observedGeneration" opt put_nonempty,
    conditions: "conditions" opt put_nonempty,
});

codec!(ReplicaSetCondition {
    type_: "type" req put,
    status: "status" req put,
    last_transition_time: "lastTransitionTime" opt put_nonempty,
    reason: "reason" opt put_nonempty,
    message: "message" opt put_nonempty,
});

impl ToValue for Object {
    fn to_value(&self) -> Value {
        match self {
            Object::Deployment(o) => o.to_value(),
            Object::ReplicaSet(o) => o.to_value(),
            Object::Pod(o) => o.to_value(),
        }
    }
}
