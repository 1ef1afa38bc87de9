//! The EndpointSlice controller's pure core: which of a Service's pods get an endpoint, what
//! each endpoint says (`ready` / `serving` / `terminating`, node, zone, target), which ports a
//! pod's endpoints carry, and how the reconciler packs endpoints into slices of at most
//! `max_endpoints_per_slice` with as few writes as it can. It mirrors `k8s.io/endpointslice`
//! (the library `pkg/controller/endpointslice` runs) at tag v0.36.3 = Kubernetes v1.36.3,
//! commit 810be24c14536c3df13c9748f6990cb48707196f.
//!
//! Each function is named after the upstream one it mirrors (file: lines at v0.36.3):
//! - reconciler.go: [`reconcile`] `Reconciler.Reconcile` l.103–161,
//!   `reconcile_by_address_type` `reconcileByAddressType` l.167–358,
//!   [`placeholder_slice_compare`] `placeholderSliceCompare` l.379–399, [`finalize`] l.402–486,
//!   `reconcile_by_port_mapping` `reconcileByPortMapping` l.499–644;
//! - utils.go: [`pod_to_endpoint`] `podToEndpoint` l.38–72, [`get_endpoint_ports`] l.76–102,
//!   `get_endpoint_addresses` l.105–122, [`new_endpoint_slice`] l.126–144,
//!   [`get_endpoint_slice_prefix`] l.147–154, [`owned_by`] l.158–165, `get_slice_to_fill`
//!   l.170–184, [`set_endpoint_slice_labels`] l.215–256, `is_reserved_label_key` l.259–266,
//!   `is_service_ip_set` l.373–375, [`find_port`] `FindPort` l.381–409;
//! - util/controller_utils.go: [`new_port_map_key`] `NewPortMapKey` l.161–168,
//!   [`should_pod_be_in_endpoints`] `ShouldPodBeInEndpoints` l.180–197,
//!   [`should_set_hostname`] `ShouldSetHostname` l.201–203,
//!   [`endpoints_equal_beyond_hash`] `EndpointsEqualBeyondHash` l.299–325;
//! - util/endpointset.go: `hash_endpoint` `hashEndpoint` l.36–48, `EndpointSet` l.51–101.
//!
//! The controller around it, its queue and `syncService`, is [`controller`]; the rest is
//! pure: no store, clock or queue. The caller (upstream's `syncService`) lists the Service's
//! pods and its slices (labelled with its name and managed by this controller, none being
//! deleted), says how to look a Node up and how to name a new slice, and writes the
//! [`Reconciled`] it gets back: its creates, then its updates, then its deletes.
//!
//! Where this differs from upstream, on purpose:
//! - **IPv4 only.** Upstream reconciles each address type the Service's `ipFamilies` name
//!   (`getAddressTypesForService`, utils.go l.279); here every Service is reconciled as IPv4
//!   (the playground's pods and Services are single-stack IPv4), so a slice of any other
//!   address type is deleted, as upstream deletes one of a family the Service does not have.
//! - **Order.** Upstream takes endpoints out of a Go map (`PopAny`, unspecified order), walks
//!   port mappings and slice-name sets as maps, and sorts slices to fill with an unstable sort.
//!   Here: endpoints go out in the order of their pod's (namespace, name) as strings; port
//!   mappings in the order of their sorted ports; existing slices in the order given; slices
//!   of equal length keep that order. The same inputs always give the same writes.
//! - **Names.** A new slice has `generateName` `<service>-`, as upstream; there is no
//!   apiserver here to add the random suffix, so [`finalize`] asks the caller's
//!   `generate_name` closure (given that prefix) for the name of each slice it creates. It is
//!   asked only for slices that are really created (not for those recycled into a deleted
//!   slice's name), so a counter gives consecutive names. A closure that returns `""` leaves
//!   the name empty for a store that generates it (the simulation's `apiserver::store` does).
//! - **Left out:** topology hints and `trafficDistribution` (`topologycache`, `trafficdist`),
//!   the `endpoints.kubernetes.io/last-change-trigger-time` annotation (it needs a clock and
//!   the trigger-time tracker), metrics, the slice tracker and events. The order of a new
//!   slice's ports is the Service's (upstream sorts them by their spew hash, in place, while
//!   computing the port-map key); which ports, and which slices they group, are the same.
//! - **Defaults.** A port or Service port without a protocol reads as `TCP`, and a Service
//!   port without a `targetPort` as its `port`: what the apiserver's defaulting writes, so
//!   every object that went through it reads the same as upstream reads it.

use crate::api::service::{EndpointPort, EndpointSlice};

pub mod controller;
mod reconciler;
#[cfg(test)]
mod tests;
mod utils;

pub use reconciler::{Changes, finalize, reconcile, reconcile_changes};
pub use utils::{
    PortMapKey, endpoints_equal_beyond_hash, find_named_port, find_port, get_endpoint_ports,
    get_endpoint_slice_prefix, new_endpoint_slice, new_port_map_key, node_zone, owned_by,
    placeholder_slice_compare, pod_to_endpoint, set_endpoint_slice_labels,
    should_pod_be_in_endpoints, should_set_hostname,
};

/// `--max-endpoints-per-slice`'s default (`MaxEndpointsPerSlice`,
/// pkg/controller/endpointslice/config/v1alpha1/defaults.go l.39).
pub const MAX_ENDPOINTS_PER_SLICE: usize = 100;
/// The one address type reconciled here (`discovery.AddressTypeIPv4`).
pub const ADDRESS_TYPE_IPV4: &str = "IPv4";
/// The Node label an endpoint's zone is read from (`v1.LabelTopologyZone`).
pub const LABEL_TOPOLOGY_ZONE: &str = "topology.kubernetes.io/zone";
/// The label a headless Service's slices carry, with the value `""` (`v1.IsHeadlessService`).
pub const IS_HEADLESS_SERVICE: &str = "service.kubernetes.io/headless";

/// What one reconcile writes, in the order [`finalize`] writes it: creates, updates, deletes.
///
/// A create has `generateName` set and its name from the caller's closure. An update that
/// recycles a slice about to be deleted carries that slice's name on the new slice's content
/// (no uid or resourceVersion: as upstream's Update, the store keeps the old object's).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reconciled {
    pub creates: Vec<EndpointSlice>,
    pub updates: Vec<EndpointSlice>,
    pub deletes: Vec<EndpointSlice>,
    /// Pods left out because their Node is not known (upstream returns these as one
    /// aggregate error after writing, so the Service is synced again with backoff).
    pub errors: Vec<String>,
    /// Whether a pod that belongs in the Service's endpoints got none, for want of an address
    /// of the slices' type: its port mapping is desired without an endpoint, which no slice
    /// shows, so a later sync cannot take the slices as saying every pod ([`Changes`]).
    pub unlisted: bool,
}

impl Reconciled {
    /// Nothing to write (errors aside).
    pub fn is_empty(&self) -> bool {
        self.creates.is_empty() && self.updates.is_empty() && self.deletes.is_empty()
    }
}

/// The attributes slices are grouped by (`endpointMeta`, reconciler.go l.94–97).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EndpointMeta {
    pub ports: Vec<EndpointPort>,
    pub address_type: String,
}
