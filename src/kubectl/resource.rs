//! The resources the playground serves, in every spelling kubectl accepts.

use crate::api::Kind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    Deployment,
    ReplicaSet,
    Pod,
    Node,
    PodDisruptionBudget,
}

impl Resource {
    /// Every spelling of a resource kubectl accepts (singular, plural, short, with group).
    pub const NAMES: [(&str, Resource); 21] = [
        ("deployment", Resource::Deployment),
        ("deployments", Resource::Deployment),
        ("deploy", Resource::Deployment),
        ("deployment.apps", Resource::Deployment),
        ("deployments.apps", Resource::Deployment),
        ("replicaset", Resource::ReplicaSet),
        ("replicasets", Resource::ReplicaSet),
        ("rs", Resource::ReplicaSet),
        ("replicaset.apps", Resource::ReplicaSet),
        ("replicasets.apps", Resource::ReplicaSet),
        ("pod", Resource::Pod),
        ("pods", Resource::Pod),
        ("po", Resource::Pod),
        ("node", Resource::Node),
        ("nodes", Resource::Node),
        ("no", Resource::Node),
        ("poddisruptionbudget", Resource::PodDisruptionBudget),
        ("poddisruptionbudgets", Resource::PodDisruptionBudget),
        ("pdb", Resource::PodDisruptionBudget),
        ("poddisruptionbudget.policy", Resource::PodDisruptionBudget),
        ("poddisruptionbudgets.policy", Resource::PodDisruptionBudget),
    ];

    pub fn parse(s: &str) -> Option<Resource> {
        let s = s.to_ascii_lowercase();
        Resource::NAMES
            .iter()
            .find(|(name, _)| *name == s)
            .map(|(_, r)| *r)
    }
    /// The resource that holds objects of `kind`.
    pub fn of(kind: Kind) -> Resource {
        match kind {
            Kind::Deployment => Resource::Deployment,
            Kind::ReplicaSet => Resource::ReplicaSet,
            Kind::Pod => Resource::Pod,
            Kind::Node => Resource::Node,
            Kind::PodDisruptionBudget => Resource::PodDisruptionBudget,
        }
    }
    pub fn kind(self) -> Kind {
        match self {
            Resource::Deployment => Kind::Deployment,
            Resource::ReplicaSet => Kind::ReplicaSet,
            Resource::Pod => Kind::Pod,
            Resource::Node => Kind::Node,
            Resource::PodDisruptionBudget => Kind::PodDisruptionBudget,
        }
    }
    pub(super) fn prefix(self) -> &'static str {
        match self {
            Resource::Deployment => "deployment.apps",
            Resource::ReplicaSet => "replicaset.apps",
            Resource::Pod => "pod",
            Resource::Node => "node",
            Resource::PodDisruptionBudget => "poddisruptionbudget.policy",
        }
    }
}
