//! The resources the playground serves, in every spelling kubectl accepts.

use crate::api::Kind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    Deployment,
    ReplicaSet,
    Pod,
    Node,
    PodDisruptionBudget,
    Service,
    EndpointSlice,
}

/// One kind as kubectl knows it, declared once: its names, its group, the columns `get`
/// prints, the fields the apiserver selects on, and whether it scales. A new kind is a row
/// here and its printers (its cells under these columns in `get`, its `describe`), plus the arms
/// of the verbs that act on its own fields.
#[derive(Debug)]
pub struct KindRow {
    pub resource: Resource,
    pub kind: Kind,
    /// Every spelling kubectl accepts: singular, plural, short, each with its group.
    pub names: &'static [&'static str],
    /// Its API group (`apps`, `policy`; empty for the core group).
    pub group: &'static str,
    /// What kubectl prints before a name: `deployment.apps/web`, `pod/web-1`.
    pub prefix: &'static str,
    /// As a GroupKind prints: `ReplicaSet.apps`, `Pod`.
    pub group_kind: &'static str,
    /// Whether it has a scale subresource (`kubectl scale`).
    pub scalable: bool,
    /// The columns `kubectl get` prints (the apiserver's table for the kind).
    pub columns: &'static [&'static str],
    /// The columns `-o wide` adds.
    pub wide: &'static [&'static str],
    /// The fields the apiserver selects on (`--field-selector`): its registry's
    /// `ToSelectableFields`, as far as the playground keeps them.
    pub selectable: &'static [&'static str],
}

/// A row, its names and printed forms made from its singular, plural and short names and its
/// group (the core group has no suffix).
macro_rules! row {
    ($res:ident, $one:literal, $many:literal, $short:literal, group $group:literal, $scale:expr,
        $columns:expr, $wide:expr, $selectable:expr) => {
        KindRow {
            resource: Resource::$res,
            kind: Kind::$res,
            names: &[
                $one,
                $many,
                $short,
                concat!($one, ".", $group),
                concat!($many, ".", $group),
            ],
            group: $group,
            prefix: concat!($one, ".", $group),
            group_kind: concat!(stringify!($res), ".", $group),
            scalable: $scale,
            columns: $columns,
            wide: $wide,
            selectable: $selectable,
        }
    };
    ($res:ident, $one:literal, $many:literal, $short:literal, core, $scale:expr,
        $columns:expr, $wide:expr, $selectable:expr) => {
        KindRow {
            resource: Resource::$res,
            kind: Kind::$res,
            names: &[$one, $many, $short],
            group: "",
            prefix: $one,
            group_kind: stringify!($res),
            scalable: $scale,
            columns: $columns,
            wide: $wide,
            selectable: $selectable,
        }
    };
}

/// The metadata fields every kind selects on.
const META: &[&str] = &["metadata.name", "metadata.namespace"];
/// What `-o wide` adds for a kind with a pod template.
const TEMPLATE_WIDE: &[&str] = &["CONTAINERS", "IMAGES", "SELECTOR"];

/// The kinds the playground serves, in `Resource`'s order.
pub const KINDS: [KindRow; 7] = [
    row!(Deployment, "deployment", "deployments", "deploy", group "apps", true,
        &["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"], TEMPLATE_WIDE, META),
    row!(ReplicaSet, "replicaset", "replicasets", "rs", group "apps", true,
        &["NAME", "DESIRED", "CURRENT", "READY", "AGE"], TEMPLATE_WIDE,
        &["metadata.name", "metadata.namespace", "status.replicas"]),
    row!(
        Pod,
        "pod",
        "pods",
        "po",
        core,
        false,
        &["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
        &["IP", "NODE", "NOMINATED NODE", "READINESS GATES"],
        // pkg/registry/core/pod PodToSelectableFields, the ones the playground keeps.
        &[
            "metadata.name",
            "metadata.namespace",
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "status.phase",
            "status.nominatedNodeName",
        ]
    ),
    row!(
        Node,
        "node",
        "nodes",
        "no",
        core,
        false,
        &["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
        &[
            "INTERNAL-IP",
            "EXTERNAL-IP",
            "OS-IMAGE",
            "KERNEL-VERSION",
            "CONTAINER-RUNTIME"
        ],
        // pkg/registry/core/node NodeToSelectableFields.
        &["metadata.name", "spec.unschedulable"]
    ),
    row!(PodDisruptionBudget, "poddisruptionbudget", "poddisruptionbudgets", "pdb",
        group "policy", false,
        &["NAME", "MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE"], &[], META),
    row!(
        Service,
        "service",
        "services",
        "svc",
        core,
        false,
        &[
            "NAME",
            "TYPE",
            "CLUSTER-IP",
            "EXTERNAL-IP",
            "PORT(S)",
            "AGE"
        ],
        &["SELECTOR"],
        META
    ),
    // (kubectl knows no short name for it.)
    row!(EndpointSlice, "endpointslice", "endpointslices", "endpointslices",
        group "discovery.k8s.io", false,
        &["NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"], &[], META),
];

impl Resource {
    /// Its row.
    pub fn row(self) -> &'static KindRow {
        &KINDS[self as usize]
    }

    /// The resource a spelling names (any case).
    pub fn parse(s: &str) -> Option<Resource> {
        let s = s.to_ascii_lowercase();
        KINDS
            .iter()
            .find(|r| r.names.contains(&s.as_str()))
            .map(|r| r.resource)
    }

    /// The resource that holds objects of `kind`.
    pub fn of(kind: Kind) -> Resource {
        KINDS
            .iter()
            .find(|r| r.kind == kind)
            .expect("every kind has a row")
            .resource
    }

    pub fn kind(self) -> Kind {
        self.row().kind
    }

    pub(super) fn prefix(self) -> &'static str {
        self.row().prefix
    }

    /// As the apiserver names it in a refusal: `apps/v1, Resource=deployments`.
    pub(super) fn api_resource(self) -> String {
        let r = self.row();
        format!("{}/v1, Resource={}", r.group, r.names[1])
    }
}

/// The row of an object's kind.
pub fn row_of(kind: Kind) -> &'static KindRow {
    Resource::of(kind).row()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_stands_at_its_resource_and_names_its_kind() {
        for (i, r) in KINDS.iter().enumerate() {
            assert_eq!(r.resource as usize, i, "{:?}", r.resource);
            assert_eq!(r.kind.as_str(), r.group_kind.split('.').next().unwrap());
            assert_eq!(Resource::parse(r.prefix), Some(r.resource));
            assert_eq!(Resource::of(r.kind), r.resource);
        }
        assert_eq!(Resource::parse("Deploy"), Some(Resource::Deployment));
        assert_eq!(Resource::parse("pods.apps"), None);
        assert_eq!(KINDS[1].group_kind, "ReplicaSet.apps");
        assert_eq!(KINDS[4].prefix, "poddisruptionbudget.policy");
        assert_eq!(KINDS[2].names, ["pod", "pods", "po"]);
    }
}
