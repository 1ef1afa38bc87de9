//! reconciler.go of k8s.io/endpointslice v0.36.3 (see the parent module): the writes that
//! make a Service's slices list its pods.

use super::utils::*;
use super::*;
use crate::api::service::{Endpoint, EndpointSlice, Service};
use crate::api::sort::sort_by;
use crate::api::{Node, Pod, Shared};
use std::borrow::Cow;

/// `Reconciler.Reconcile` (reconciler.go l.103–161): the writes that make the Service's
/// slices list `pods`. Slices not of the IPv4 address type are deleted (see the module doc),
/// after the IPv4 slices' writes, as upstream orders them. `node` looks a Node up by name
/// (upstream's node lister); `generate_name` names each created slice from its
/// `generateName` (see the module doc). A `max_endpoints_per_slice` of 0 is taken as 1
/// (upstream's configuration refuses 0; packing would never end).
pub fn reconcile<'a, 'n>(
    service: &Service,
    pods: impl IntoIterator<Item = &'a Pod>,
    existing: &[&EndpointSlice],
    max_endpoints_per_slice: usize,
    node: impl Fn(&str) -> Option<&'n Node>,
    generate_name: &mut dyn FnMut(&str) -> String,
) -> Reconciled {
    let changes = Changes {
        pods: pods.into_iter().collect(),
        settled: &|_| false,
    };
    reconcile_changes(
        service,
        changes,
        existing,
        max_endpoints_per_slice,
        &node,
        generate_name,
    )
}

/// The pods a reconcile reads, when the slices are known to list every other pod as it is.
///
/// [`reconcile`] reads all the Service's pods, as upstream does. The controller knows more:
/// when the Service's slices are as its own last sync wrote them, and the pods whose endpoint
/// could have changed since are known, then every other pod's endpoint is in those slices,
/// once and exactly as [`reconcile`] would compute it again. `settled` says which endpoints
/// are those; `pods` are the others (the changed ones, still the Service's). The writes are
/// the same as [`reconcile`]'s over all the pods (each settled endpoint would be found in the
/// desired set, equal, in its slice, and change nothing), at the cost of the changes only.
pub struct Changes<'a, 's> {
    pub pods: Vec<&'a Pod>,
    pub settled: &'s dyn Fn(&Endpoint) -> bool,
}

/// [`reconcile`] given the [`Changes`] since the slices were written.
pub fn reconcile_changes<'n>(
    service: &Service,
    changes: Changes<'_, '_>,
    existing: &[&EndpointSlice],
    max_endpoints_per_slice: usize,
    node: &dyn Fn(&str) -> Option<&'n Node>,
    generate_name: &mut dyn FnMut(&str) -> String,
) -> Reconciled {
    let (ipv4, other): (Vec<&EndpointSlice>, Vec<&EndpointSlice>) = existing
        .iter()
        .copied()
        .partition(|s| s.address_type == ADDRESS_TYPE_IPV4);
    let mut out = reconcile_by_address_type(
        service,
        changes,
        &ipv4,
        ADDRESS_TYPE_IPV4,
        max_endpoints_per_slice.max(1),
        node,
        generate_name,
    );
    out.deletes.extend(other.into_iter().cloned());
    out
}

/// The desired endpoints by port mapping (reconciler.go l.186–232), in the mappings' order.
/// A port mapping is recorded before the pod's Node is looked up, so a pod left out for a
/// missing Node still makes its mapping desired (and its old slices are emptied, not deleted
/// outright), as upstream does. (A Service's pods have one mapping, or a few: a list is
/// searched, where upstream keeps a map.)
pub(super) fn desired_endpoints_by_port_map<'n>(
    service: &Service,
    pods: Vec<&Pod>,
    address_type: &str,
    node: &dyn Fn(&str) -> Option<&'n Node>,
    out: &mut Reconciled,
) -> Vec<(PortMapKey, EndpointMeta, EndpointSet)> {
    let publish = service.spec.publish_not_ready_addresses == Some(true);
    let mut desired: Vec<(PortMapKey, EndpointMeta, Vec<Endpoint>)> = vec![];
    // The previous pod's mapping: a pod that shares its containers and the rest of its spec
    // (a sibling, made from one template) has the same ports.
    let mut last: Option<(&Pod, usize)> = None;
    for pod in pods {
        if !should_pod_be_in_endpoints(pod, true) {
            continue;
        }
        let sibling = |(p, _): &(&Pod, usize)| {
            Shared::same(&p.spec.containers, &pod.spec.containers)
                && Shared::same(&p.spec.extra, &pod.spec.extra)
        };
        let at = match last.filter(sibling) {
            Some((_, at)) => at,
            None => port_mapping(&mut desired, service, pod, address_type),
        };
        last = Some((pod, at));
        let found = node(&pod.spec.node_name);
        // A pod whose Node is unknown is left out and the sync fails (to be retried), unless
        // the Service publishes not-ready addresses: then it is listed all the same.
        if found.is_none() && !publish {
            out.errors.push(format!(
                "skipping Pod {} for Service {}/{}: Node {} Not Found",
                pod.metadata.name,
                service.metadata.namespace,
                service.metadata.name,
                pod.spec.node_name
            ));
            continue;
        }
        let endpoint = pod_to_endpoint(pod, service, found.and_then(node_zone));
        if endpoint.addresses.is_empty() {
            out.unlisted = true;
        } else {
            desired[at].2.push(endpoint);
        }
    }
    desired
        .into_iter()
        .map(|(key, meta, endpoints)| (key, meta, EndpointSet::new(endpoints)))
        .collect()
}

/// The index in `desired` of the pod's port mapping (`getEndpointPorts` and its key), added
/// when new.
fn port_mapping(
    desired: &mut Vec<(PortMapKey, EndpointMeta, Vec<Endpoint>)>,
    service: &Service,
    pod: &Pod,
    address_type: &str,
) -> usize {
    let ports = get_endpoint_ports(service, pod);
    let key = new_port_map_key(&ports);
    if let Some(at) = desired.iter().position(|d| d.0 == key) {
        return at;
    }
    let address_type = address_type.to_string();
    let meta = EndpointMeta {
        ports,
        address_type,
    };
    desired.push((key, meta, vec![]));
    desired.len() - 1
}

/// `reconcileByAddressType` (reconciler.go l.167–358), hints and metrics aside: slices not
/// owned by the Service are deleted; the others are reconciled per port mapping; those of a
/// mapping no pod has any more are deleted; a placeholder slice stands in when none would be
/// left; then [`finalize`].
pub(super) fn reconcile_by_address_type<'n>(
    service: &Service,
    changes: Changes<'_, '_>,
    existing: &[&EndpointSlice],
    address_type: &str,
    max: usize,
    node: &dyn Fn(&str) -> Option<&'n Node>,
    generate_name: &mut dyn FnMut(&str) -> String,
) -> Reconciled {
    let mut seen = Reconciled::default();
    let mut deletes: Vec<EndpointSlice> = vec![];
    let mut existing_by_port_map: Vec<(PortMapKey, Vec<&EndpointSlice>)> = vec![];
    for s in existing {
        if !owned_by(s, service) {
            deletes.push((*s).clone());
            continue;
        }
        let key = new_port_map_key(&s.ports);
        match existing_by_port_map.iter_mut().find(|e| e.0 == key) {
            Some(e) => e.1.push(s),
            None => existing_by_port_map.push((key, vec![s])),
        }
    }
    sort_by(&mut existing_by_port_map, |a, b| a.0.cmp(&b.0));
    let (pods, settled) = (changes.pods, changes.settled);
    let mut desired = desired_endpoints_by_port_map(service, pods, address_type, node, &mut seen);
    // A mapping whose slices still list a settled pod is desired, whether or not a changed
    // pod has it too (each settled pod would have put it in the desired set).
    for (key, slices) in &existing_by_port_map {
        let listed = || slices.iter().flat_map(|s| &s.endpoints).any(settled);
        if !desired.iter().any(|d| d.0 == *key) && listed() {
            let meta = EndpointMeta {
                ports: slices[0].ports.clone(),
                address_type: address_type.to_string(),
            };
            desired.push((key.clone(), meta, EndpointSet::default()));
        }
    }
    sort_by(&mut desired, |a, b| a.0.cmp(&b.0));
    let slices_of = |key: &PortMapKey| existing_by_port_map.iter().find(|e| e.0 == *key);
    // Mappings no pod has any more: all their slices go (upstream appends them last).
    let stale: Vec<EndpointSlice> = existing_by_port_map
        .iter()
        .filter(|(k, _)| !desired.iter().any(|d| d.0 == *k))
        .flat_map(|(_, slices)| slices.iter().map(|s| (*s).clone()))
        .collect();
    let (mut creates, mut updates) = (vec![], vec![]);
    for (key, meta, set) in desired {
        let found = slices_of(&key).map_or(&[][..], |e| e.1.as_slice());
        let r = reconcile_by_port_mapping(service, found, set, &meta, max, settled);
        creates.extend(r.creates);
        updates.extend(r.updates);
        deletes.extend(r.deletes);
    }
    deletes.extend(stale);
    // A Service always has a slice: when every slice would go and none come, an empty one
    // (no ports, no endpoints) stays, unless the one going is already that placeholder.
    if existing.len() == deletes.len() && creates.is_empty() {
        let meta = EndpointMeta {
            ports: vec![],
            address_type: address_type.to_string(),
        };
        let placeholder = new_endpoint_slice(service, &meta);
        if deletes.len() == 1 && placeholder_slice_compare(&deletes[0], &placeholder) {
            deletes.clear();
        } else {
            creates.push(placeholder);
        }
    }
    let mut out = finalize(service, creates, updates, deletes, generate_name);
    out.errors = seen.errors;
    out.unlisted = seen.unlisted;
    out
}

/// Moves desired endpoints into `slice` until it is full or none are left (`PopAny` in a
/// loop, reconciler.go l.580–583 and l.616–619).
pub(super) fn fill(slice: &mut EndpointSlice, desired: &mut EndpointSet, max: usize) {
    while slice.endpoints.len() < max {
        let Some(ep) = desired.pop_first() else {
            return;
        };
        slice.endpoints.push(ep);
    }
}

/// A copy of `slice` listing `endpoints` (its own are not copied, only to be replaced).
fn with_endpoints(slice: &EndpointSlice, endpoints: Vec<Endpoint>) -> EndpointSlice {
    EndpointSlice {
        api_version: slice.api_version.clone(),
        kind: slice.kind.clone(),
        metadata: slice.metadata.clone(),
        address_type: slice.address_type.clone(),
        endpoints,
        ports: slice.ports.clone(),
    }
}

/// What pass 1 decided for an existing slice (upstream's three name sets).
#[derive(Clone, Copy, PartialEq)]
enum Fate {
    Unchanged,
    Update,
    Delete,
}

/// `reconcileByPortMapping` (reconciler.go l.499–644), for the slices and desired endpoints
/// of one port mapping, in three passes:
/// 1. each existing slice keeps the endpoints still desired (in their desired form); one left
///    empty is deleted; one whose endpoints or labels changed is updated;
/// 2. the slices being updated anyway are filled up, fullest first;
/// 3. what remains goes, when it is less than a full slice, into the unchanged slice it
///    leaves closest to full (`getSliceToFill`), else into new slices.
pub(super) fn reconcile_by_port_mapping(
    service: &Service,
    existing: &[&EndpointSlice],
    mut desired: EndpointSet,
    meta: &EndpointMeta,
    max: usize,
    settled: &dyn Fn(&Endpoint) -> bool,
) -> Reconciled {
    let mut slices: Vec<Cow<EndpointSlice>> = existing.iter().map(|s| Cow::Borrowed(*s)).collect();
    let mut fates = vec![Fate::Unchanged; existing.len()];
    for (i, s) in existing.iter().enumerate() {
        let mut kept: Vec<Cow<Endpoint>> = Vec::with_capacity(s.endpoints.len());
        let mut changed = false;
        for ep in &s.endpoints {
            if settled(ep) {
                kept.push(Cow::Borrowed(ep));
            } else if let Some(want) = desired.remove(&hash_endpoint(ep)) {
                changed |= !endpoints_equal_beyond_hash(&want, ep);
                kept.push(Cow::Owned(want));
            }
        }
        let (labels, labels_changed) = set_endpoint_slice_labels(s, service);
        if changed || kept.len() != s.endpoints.len() {
            if kept.is_empty() {
                fates[i] = Fate::Delete;
                continue;
            }
            let endpoints = kept.into_iter().map(Cow::into_owned).collect();
            slices[i] = Cow::Owned(with_endpoints(s, endpoints));
        } else if !labels_changed {
            continue;
        }
        slices[i].to_mut().metadata.labels = Shared::new(labels);
        fates[i] = Fate::Update;
    }
    // 2. Fullest first; a stable sort keeps equal lengths in the order given.
    let mut to_update: Vec<usize> = (0..slices.len())
        .filter(|&i| fates[i] == Fate::Update)
        .collect();
    sort_by(&mut to_update, |&a, &b| {
        slices[b].endpoints.len().cmp(&slices[a].endpoints.len())
    });
    for i in to_update {
        fill(slices[i].to_mut(), &mut desired, max);
    }
    // 3.
    let mut creates = vec![];
    while !desired.is_empty() {
        let unchanged = (0..slices.len())
            .filter(|&i| fates[i] == Fate::Unchanged)
            .map(|i| (i, slices[i].endpoints.len()));
        let target = if desired.len() < max {
            get_slice_to_fill(unchanged, desired.len(), max)
        } else {
            None
        };
        if let Some(i) = target {
            fill(slices[i].to_mut(), &mut desired, max);
            fates[i] = Fate::Update;
        } else {
            let mut slice = new_endpoint_slice(service, meta);
            fill(&mut slice, &mut desired, max);
            creates.push(slice);
        }
    }
    let mut out = Reconciled {
        creates,
        ..Reconciled::default()
    };
    for (s, fate) in slices.into_iter().zip(fates) {
        match fate {
            Fate::Update => out.updates.push(s.into_owned()),
            Fate::Delete => out.deletes.push(s.into_owned()),
            Fate::Unchanged => {}
        }
    }
    out
}

/// `finalize` (reconciler.go l.402–486), as writes to make rather than made: each pending
/// create takes (from the last) the name of a slice about to be deleted that has the same
/// address type and is owned by the Service, becoming an update of it (a rewrite instead of
/// a create and a delete); a Service being deleted gets no creates (the garbage collector is
/// deleting its slices); each remaining create without a name is named by `generate_name`
/// from its `generateName`.
pub fn finalize(
    service: &Service,
    mut creates: Vec<EndpointSlice>,
    mut updates: Vec<EndpointSlice>,
    mut deletes: Vec<EndpointSlice>,
    generate_name: &mut dyn FnMut(&str) -> String,
) -> Reconciled {
    let mut i = 0;
    while i < deletes.len() {
        let Some(last) = creates.last() else {
            break;
        };
        let gone = &deletes[i];
        if gone.address_type == last.address_type && owned_by(gone, service) {
            let mut slice = creates.pop().expect("a create, just seen");
            slice.metadata.name = deletes.remove(i).metadata.name;
            updates.push(slice);
        } else {
            i += 1;
        }
    }
    if service.metadata.deletion_timestamp.is_some() {
        creates.clear();
    }
    for slice in &mut creates {
        if slice.metadata.name.is_empty() {
            slice.metadata.name = generate_name(&slice.metadata.generate_name).into();
        }
    }
    Reconciled {
        creates,
        updates,
        deletes,
        ..Reconciled::default()
    }
}

// Upstream's tests, with their inputs and the outputs they assert, from kubernetes/endpointslice
// at v0.36.3 (810be24c14536c3df13c9748f6990cb48707196f): reconciler_test.go, utils_test.go and
// util/controller_utils_test.go. Each test is named after the upstream test it mirrors. Cases
// of other address types than IPv4, of metrics, hints and trigger times are not mirrored (see
// the module doc); nor are Go's nil-pointer cases, which have no Rust counterpart.
