//! replica_set_utils.go: the ReplicaSet's conditions (the Deployment controller reads the
//! ReplicaFailure condition through these too).

use crate::api::{ReplicaSetCondition, ReplicaSetStatus};

/// `apps.ReplicaSetReplicaFailure`: a ReplicaSet could not create or delete pods.
pub const REPLICA_FAILURE: &str = "ReplicaFailure";

/// `GetCondition`.
pub fn get_replica_set_condition<'a>(
    s: &'a ReplicaSetStatus,
    type_: &str,
) -> Option<&'a ReplicaSetCondition> {
    s.conditions.iter().find(|c| c.type_ == type_)
}

/// ReplicaSet `SetCondition`: no-op for the same status and reason, else replace.
pub fn set_replica_set_condition(s: &mut ReplicaSetStatus, c: ReplicaSetCondition) {
    if let Some(cur) = get_replica_set_condition(s, &c.type_)
        && cur.status == c.status
        && cur.reason == c.reason
    {
        return;
    }
    s.conditions.retain(|x| x.type_ != c.type_);
    s.conditions.push(c);
}

pub fn remove_replica_set_condition(s: &mut ReplicaSetStatus, type_: &str) {
    s.conditions.retain(|x| x.type_ != type_);
}
