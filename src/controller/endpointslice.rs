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
//! Pure: no store, clock or queue. The caller (upstream's `syncService`) lists the Service's
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

use crate::api::service::{
    ENDPOINTSLICE_CONTROLLER, Endpoint, EndpointConditions, EndpointPort, EndpointSlice,
    MANAGED_BY_LABEL, SERVICE_NAME_LABEL, Service, ServicePort,
};
use crate::api::validation::is_dns1123_subdomain;
use crate::api::{IntOrString, Labels, Map, Node, ObjectMeta, OwnerReference, Pod, Shared, Value};
use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BTreeMap;

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

/// What identifies an endpoint across syncs (`endpointHashObj`, util/endpointset.go l.29–34):
/// its target's namespace and name, its sorted addresses and its hostname. The fields are in
/// this order so that the set hands endpoints out by pod namespace, then name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct EndpointKey {
    namespace: String,
    name: String,
    addresses: Vec<String>,
    hostname: String,
}

/// `EndpointSet` (util/endpointset.go l.51): desired endpoints by identity. Ordered, so its
/// `PopAny` is `pop_first`.
type EndpointSet = BTreeMap<EndpointKey, Endpoint>;

/// One endpoint port as a comparable value: (name, protocol, port, appProtocol).
type PortTuple = (Option<String>, Option<String>, Option<i32>, Option<String>);

/// `PortMapKey` (util/controller_utils.go l.158): a set of endpoint ports, in a canonical
/// order, so that equal sets compare equal whatever order they were listed in.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PortMapKey(Vec<PortTuple>);

/// `NewPortMapKey` (util/controller_utils.go l.161–168). Upstream hashes the ports sorted by
/// their hash; sorting the values themselves keys the same sets alike.
pub fn new_port_map_key(ports: &[EndpointPort]) -> PortMapKey {
    let mut key: Vec<PortTuple> = ports
        .iter()
        .map(|p| {
            let EndpointPort {
                name,
                protocol,
                port,
                app_protocol,
            } = p.clone();
            (name, protocol, port, app_protocol)
        })
        .collect();
    key.sort();
    PortMapKey(key)
}

fn str_field<'a>(m: &'a Map, key: &str) -> &'a str {
    m.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `hashEndpoint` (util/endpointset.go l.36–48).
fn hash_endpoint(ep: &Endpoint) -> EndpointKey {
    let mut addresses = ep.addresses.clone();
    addresses.sort();
    let target = |k| ep.target_ref.as_ref().map_or("", |t| str_field(t, k));
    EndpointKey {
        namespace: target("namespace").to_string(),
        name: target("name").to_string(),
        addresses,
        hostname: str_field(&ep.extra, "hostname").to_string(),
    }
}

// ------------------------------------------------------------------ pods to endpoints

/// `ShouldPodBeInEndpoints` (util/controller_utils.go l.180–197): a pod that has finished
/// (Succeeded or Failed) or has no IP yet is left out; one being deleted only when
/// `include_terminating` is false (the reconciler always passes true, reconciler.go l.191).
pub fn should_pod_be_in_endpoints(pod: &Pod, include_terminating: bool) -> bool {
    if pod.is_terminal() {
        return false;
    }
    let status = &pod.status.extra;
    let has_ip = !str_field(status, "podIP").is_empty();
    let has_ips = status
        .get("podIPs")
        .and_then(Value::as_array)
        .is_some_and(|l| !l.is_empty());
    if !has_ip && !has_ips {
        return false;
    }
    include_terminating || pod.metadata.deletion_timestamp.is_none()
}

/// `ShouldSetHostname` (util/controller_utils.go l.201–203): the pod names a hostname and its
/// subdomain is this Service, in the same namespace.
pub fn should_set_hostname(pod: &Pod, service: &Service) -> bool {
    !str_field(&pod.spec.extra, "hostname").is_empty()
        && str_field(&pod.spec.extra, "subdomain") == service.metadata.name.as_str()
        && service.metadata.namespace == pod.metadata.namespace
}

/// An address as Go's `netutils.ParseIPSloppy` then `IP.String()` write it for the IPv4
/// address type (utils.go l.108–119): dotted quads (leading zeros allowed) written plainly, an
/// IPv4-mapped IPv6 address as its IPv4 part, other IPv6 addresses not at all (`None`). Text
/// that is no IP parses to Go's nil IP, which is "not IPv6" and prints as `<nil>`; upstream's
/// tests rely on this (their pod 300 has IP `1.2.3.304`), so it is kept.
fn ipv4_text(ip: &str) -> Option<String> {
    if let Some(v4) = parse_ipv4_sloppy(ip) {
        return Some(v4.to_string());
    }
    if let Ok(v6) = ip.parse::<std::net::Ipv6Addr>() {
        return v6.to_ipv4_mapped().map(|v4| v4.to_string());
    }
    Some("<nil>".to_string())
}

/// Four decimal fields of at most 255 each, leading zeros allowed (Go 1.16's `parseIPv4`,
/// which `ParseIPSloppy` keeps).
fn parse_ipv4_sloppy(ip: &str) -> Option<std::net::Ipv4Addr> {
    let mut octets = [0u8; 4];
    let mut fields = ip.split('.');
    for o in &mut octets {
        let f = fields.next()?;
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = f.trim_start_matches('0');
        *o = if digits.is_empty() {
            0
        } else if digits.len() > 3 {
            return None;
        } else {
            digits.parse::<u16>().ok().filter(|v| *v <= 255)? as u8
        };
    }
    fields.next().is_none().then_some(octets.into())
}

/// `getEndpointAddresses` for IPv4 (utils.go l.105–122): the pod's `status.podIPs` of that
/// family (`status.podIP` is not read here, as upstream).
fn get_endpoint_addresses(pod: &Pod) -> Vec<String> {
    let ips = pod.status.extra.get("podIPs").and_then(Value::as_array);
    ips.into_iter()
        .flatten()
        .filter_map(|p| ipv4_text(p.get("ip").and_then(Value::as_str).unwrap_or("")))
        .collect()
}

/// The zone a Node's endpoints are in: its `topology.kubernetes.io/zone` label, when not
/// empty (what `podToEndpoint` reads of the Node, utils.go l.63–65).
pub fn node_zone(node: &Node) -> Option<&str> {
    node.metadata
        .labels
        .get(LABEL_TOPOLOGY_ZONE)
        .map(String::as_str)
        .filter(|z| !z.is_empty())
}

/// `podToEndpoint` (utils.go l.38–72) for IPv4. `serving` is the pod's Ready condition,
/// `terminating` whether it is being deleted, and `ready` is serving and not terminating,
/// or always true when the Service publishes not-ready addresses. `node_zone` is the zone
/// of the pod's Node ([`node_zone`]), if known.
pub fn pod_to_endpoint(pod: &Pod, service: &Service, node_zone: Option<&str>) -> Endpoint {
    let serving = pod.is_ready();
    let terminating = pod.metadata.deletion_timestamp.is_some();
    let publish = service.spec.publish_not_ready_addresses == Some(true);
    let ready = publish || (serving && !terminating);
    // An ObjectReference: empty fields are omitted, as Go's `omitempty` writes them.
    let mut target = Map::new();
    target.insert("kind".into(), "Pod".into());
    let meta = &pod.metadata;
    for (k, v) in [
        ("namespace", &meta.namespace),
        ("name", &meta.name),
        ("uid", &meta.uid),
    ] {
        if !v.is_empty() {
            target.insert(k.into(), v.as_str().into());
        }
    }
    let mut ep = Endpoint {
        addresses: get_endpoint_addresses(pod),
        conditions: EndpointConditions {
            ready: Some(ready),
            serving: Some(serving),
            terminating: Some(terminating),
        },
        target_ref: Some(target),
        node_name: (!pod.spec.node_name.is_empty()).then(|| pod.spec.node_name.to_string()),
        zone: node_zone.filter(|z| !z.is_empty()).map(String::from),
        extra: Map::new(),
    };
    if should_set_hostname(pod, service) {
        let hostname = str_field(&pod.spec.extra, "hostname");
        ep.extra.insert("hostname".into(), hostname.into());
    }
    ep
}

/// A container's port named `name` with `protocol` (a port without one is TCP, as defaulted).
fn named_port(container: &Map, name: &str, protocol: &str) -> Option<i32> {
    let ports = container.get("ports").and_then(Value::as_array)?;
    ports.iter().filter_map(Value::as_object).find_map(|p| {
        let proto = p.get("protocol").and_then(Value::as_str).unwrap_or("TCP");
        (str_field(p, "name") == name && proto == protocol)
            .then(|| p.get("containerPort").and_then(Value::as_i64).unwrap_or(0) as i32)
    })
}

/// `FindPort` (utils.go l.381–409): a numeric `targetPort` is the port; a name is looked up
/// among the containers' ports by name and protocol, then among the restartable (sidecar)
/// init containers' ports; none found is an error.
pub fn find_port(pod: &Pod, service_port: &ServicePort) -> Result<i32, String> {
    let protocol = service_port.protocol.as_deref().unwrap_or("TCP");
    match &service_port.target_port {
        Some(IntOrString::Int(n)) => return Ok(*n),
        None => return Ok(service_port.port),
        Some(IntOrString::Str(name)) => {
            let apps = pod.spec.containers.iter().map(|c| &*c.extra);
            let inits = pod
                .spec
                .extra
                .get("initContainers")
                .and_then(Value::as_array);
            let sidecars = inits
                .into_iter()
                .flatten()
                .filter_map(Value::as_object)
                .filter(|c| str_field(c, "restartPolicy") == "Always");
            if let Some(port) = apps
                .chain(sidecars)
                .find_map(|c| named_port(c, name, protocol))
            {
                return Ok(port);
            }
        }
    }
    Err(format!(
        "no suitable port for manifest: {}",
        pod.metadata.uid
    ))
}

/// `getEndpointPorts` (utils.go l.76–102): one endpoint port per Service port whose target
/// this pod resolves (one it does not is left out for this pod). A Service without ports,
/// headless or not, gives none.
pub fn get_endpoint_ports(service: &Service, pod: &Pod) -> Vec<EndpointPort> {
    service
        .spec
        .ports
        .iter()
        .filter_map(|sp| {
            let port = find_port(pod, sp).ok()?;
            Some(EndpointPort {
                name: Some(sp.name.clone().unwrap_or_default()),
                protocol: Some(sp.protocol.clone().unwrap_or_else(|| "TCP".into())),
                port: Some(port),
                app_protocol: sp
                    .extra
                    .get("appProtocol")
                    .and_then(Value::as_str)
                    .map(String::from),
            })
        })
        .collect()
}

// ------------------------------------------------------------------ slices

/// `isServiceIPSet` (utils.go l.373–375): a cluster IP that is neither empty nor `None`.
fn is_service_ip_set(service: &Service) -> bool {
    !matches!(
        service.spec.cluster_ip.as_deref(),
        None | Some("") | Some("None")
    )
}

/// `isReservedLabelKey` (utils.go l.259–266): the labels the controller owns on a slice.
fn is_reserved_label_key(key: &str) -> bool {
    key == SERVICE_NAME_LABEL || key == MANAGED_BY_LABEL || key == IS_HEADLESS_SERVICE
}

/// `setEndpointSliceLabels` (utils.go l.215–256): the slice's labels are the Service's, less
/// the reserved ones, plus the headless label (headless Services only), the service name and
/// the managing controller. The flag says whether the non-reserved labels differ from the
/// slice's (a change of the headless label alone is no reason to write).
pub fn set_endpoint_slice_labels(slice: &EndpointSlice, service: &Service) -> (Labels, bool) {
    let unreserved = |l: &Labels| -> Labels {
        l.iter()
            .filter(|(k, _)| !is_reserved_label_key(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    let mut labels = unreserved(&service.metadata.labels);
    let updated = unreserved(&slice.metadata.labels) != labels;
    if !is_service_ip_set(service) {
        labels.insert(IS_HEADLESS_SERVICE.into(), String::new());
    }
    labels.insert(SERVICE_NAME_LABEL.into(), service.metadata.name.to_string());
    labels.insert(MANAGED_BY_LABEL.into(), ENDPOINTSLICE_CONTROLLER.into());
    (labels, updated)
}

/// `getEndpointSlicePrefix` (utils.go l.147–154): `<service>-`, or the bare name when the
/// dashed prefix would not make a valid name (apimachinery's `NameIsDNSSubdomain` with
/// `prefix`, which masks a trailing dash by dropping the last two characters and adding `a`).
pub fn get_endpoint_slice_prefix(service_name: &str) -> String {
    let prefix = format!("{service_name}-");
    let masked = match service_name.char_indices().last() {
        Some((i, _)) => format!("{}a", &service_name[..i]),
        None => prefix.clone(),
    };
    if is_dns1123_subdomain(&masked) {
        prefix
    } else {
        service_name.to_string()
    }
}

/// `newEndpointSlice` (utils.go l.126–144): an empty slice of the Service (generateName
/// `<service>-`, the Service as controller owner, the Service's labels) with these ports.
pub fn new_endpoint_slice(service: &Service, meta: &EndpointMeta) -> EndpointSlice {
    let owner = OwnerReference::controller_of("v1", "Service", &service.metadata);
    let mut slice = EndpointSlice {
        api_version: EndpointSlice::API_VERSION.into(),
        kind: EndpointSlice::KIND.into(),
        metadata: ObjectMeta {
            generate_name: get_endpoint_slice_prefix(&service.metadata.name).into(),
            namespace: service.metadata.namespace.clone(),
            owner_references: Shared::new(vec![owner]),
            ..Default::default()
        },
        address_type: meta.address_type.clone(),
        endpoints: vec![],
        ports: meta.ports.clone(),
    };
    slice.metadata.labels = Shared::new(set_endpoint_slice_labels(&slice, service).0);
    slice
}

/// `ownedBy` (utils.go l.158–165): an ownerReference to this Service's uid, kind Service, v1.
pub fn owned_by(slice: &EndpointSlice, service: &Service) -> bool {
    slice
        .metadata
        .owner_references
        .iter()
        .any(|o| o.uid == service.metadata.uid && o.kind == "Service" && o.api_version == "v1")
}

/// `getSliceToFill` (utils.go l.170–184): of the candidates (index, endpoint count), the one
/// that `num_endpoints` more would leave closest to full without passing `max_endpoints`
/// (the first of equals); `None` when none has room.
fn get_slice_to_fill(
    candidates: impl IntoIterator<Item = (usize, usize)>,
    num_endpoints: usize,
    max_endpoints: usize,
) -> Option<usize> {
    let mut closest_diff = max_endpoints;
    let mut closest = None;
    for (i, len) in candidates {
        let Some(diff) = max_endpoints.checked_sub(num_endpoints + len) else {
            continue;
        };
        if diff < closest_diff {
            closest_diff = diff;
            closest = Some(i);
            if diff == 0 {
                break;
            }
        }
    }
    closest
}

/// `placeholderSliceCompare` (reconciler.go l.379–399): whether two slices are the same
/// placeholder. Of the metadata only the namespace and labels count; a label is compared as
/// Go reads a missing key (as `""`). Address type, endpoints and ports must be equal.
pub fn placeholder_slice_compare(a: &EndpointSlice, b: &EndpointSlice) -> bool {
    let covers = |x: &Labels, y: &Labels| {
        x.iter()
            .all(|(k, v)| y.get(k).map_or("", String::as_str) == v)
    };
    let (la, lb) = (&*a.metadata.labels, &*b.metadata.labels);
    a.metadata.namespace == b.metadata.namespace
        && covers(la, lb)
        && covers(lb, la)
        && a.address_type == b.address_type
        && a.endpoints == b.endpoints
        && a.ports == b.ports
}

/// An ObjectReference's fields but `resourceVersion`, an absent one read as `""`.
fn target_ref_equal(a: &Option<Map>, b: &Option<Map>) -> bool {
    const FIELDS: [&str; 6] = [
        "kind",
        "namespace",
        "name",
        "uid",
        "apiVersion",
        "fieldPath",
    ];
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => FIELDS.iter().all(|f| str_field(a, f) == str_field(b, f)),
        _ => false,
    }
}

/// `EndpointsEqualBeyondHash` (util/controller_utils.go l.299–325): node, zone, the three
/// conditions (unset differs from set) and the target, its resourceVersion aside.
pub fn endpoints_equal_beyond_hash(a: &Endpoint, b: &Endpoint) -> bool {
    a.node_name == b.node_name
        && a.zone == b.zone
        && a.conditions == b.conditions
        && target_ref_equal(&a.target_ref, &b.target_ref)
}

// ------------------------------------------------------------------ the reconciler

/// `Reconciler.Reconcile` (reconciler.go l.103–161): the writes that make the Service's
/// slices list `pods`. Slices not of the IPv4 address type are deleted (see the module doc),
/// after the IPv4 slices' writes, as upstream orders them. `node` looks a Node up by name
/// (upstream's node lister); `generate_name` names each created slice from its
/// `generateName` (see the module doc). A `max_endpoints_per_slice` of 0 is taken as 1
/// (upstream's configuration refuses 0; packing would never end).
pub fn reconcile<'a, 'n>(
    service: &Service,
    pods: impl IntoIterator<Item = &'a Pod>,
    existing: &[EndpointSlice],
    max_endpoints_per_slice: usize,
    node: impl Fn(&str) -> Option<&'n Node>,
    generate_name: &mut dyn FnMut(&str) -> String,
) -> Reconciled {
    let (ipv4, other): (Vec<&EndpointSlice>, Vec<&EndpointSlice>) = existing
        .iter()
        .partition(|s| s.address_type == ADDRESS_TYPE_IPV4);
    let mut out = reconcile_by_address_type(
        service,
        pods,
        &ipv4,
        ADDRESS_TYPE_IPV4,
        max_endpoints_per_slice.max(1),
        &node,
        generate_name,
    );
    out.deletes.extend(other.into_iter().cloned());
    out
}

/// The desired endpoints by port mapping (reconciler.go l.186–232). A port mapping is
/// recorded before the pod's Node is looked up, so a pod left out for a missing Node still
/// makes its mapping desired (and its old slices are emptied, not deleted outright), as
/// upstream does.
fn desired_endpoints_by_port_map<'a, 'n>(
    service: &Service,
    pods: impl IntoIterator<Item = &'a Pod>,
    address_type: &str,
    node: &dyn Fn(&str) -> Option<&'n Node>,
    errors: &mut Vec<String>,
) -> BTreeMap<PortMapKey, (EndpointMeta, EndpointSet)> {
    let publish = service.spec.publish_not_ready_addresses == Some(true);
    let mut desired: BTreeMap<PortMapKey, (EndpointMeta, EndpointSet)> = BTreeMap::new();
    for pod in pods {
        if !should_pod_be_in_endpoints(pod, true) {
            continue;
        }
        let ports = get_endpoint_ports(service, pod);
        let key = new_port_map_key(&ports);
        let (_, set) = desired.entry(key).or_insert_with(|| {
            let address_type = address_type.to_string();
            (
                EndpointMeta {
                    ports,
                    address_type,
                },
                EndpointSet::new(),
            )
        });
        let found = node(&pod.spec.node_name);
        // A pod whose Node is unknown is left out and the sync fails (to be retried), unless
        // the Service publishes not-ready addresses: then it is listed all the same.
        if found.is_none() && !publish {
            errors.push(format!(
                "skipping Pod {} for Service {}/{}: Node {} Not Found",
                pod.metadata.name,
                service.metadata.namespace,
                service.metadata.name,
                pod.spec.node_name
            ));
            continue;
        }
        let endpoint = pod_to_endpoint(pod, service, found.and_then(node_zone));
        if !endpoint.addresses.is_empty() {
            set.insert(hash_endpoint(&endpoint), endpoint);
        }
    }
    desired
}

/// `reconcileByAddressType` (reconciler.go l.167–358), hints and metrics aside: slices not
/// owned by the Service are deleted; the others are reconciled per port mapping; those of a
/// mapping no pod has any more are deleted; a placeholder slice stands in when none would be
/// left; then [`finalize`].
fn reconcile_by_address_type<'a, 'n>(
    service: &Service,
    pods: impl IntoIterator<Item = &'a Pod>,
    existing: &[&EndpointSlice],
    address_type: &str,
    max: usize,
    node: &dyn Fn(&str) -> Option<&'n Node>,
    generate_name: &mut dyn FnMut(&str) -> String,
) -> Reconciled {
    let mut errors = vec![];
    let mut deletes: Vec<EndpointSlice> = vec![];
    let mut existing_by_port_map: BTreeMap<PortMapKey, Vec<&EndpointSlice>> = BTreeMap::new();
    for s in existing {
        if owned_by(s, service) {
            let key = new_port_map_key(&s.ports);
            existing_by_port_map.entry(key).or_default().push(s);
        } else {
            deletes.push((*s).clone());
        }
    }
    let desired = desired_endpoints_by_port_map(service, pods, address_type, node, &mut errors);
    // Mappings no pod has any more: all their slices go (upstream appends them last).
    let stale: Vec<EndpointSlice> = existing_by_port_map
        .iter()
        .filter(|(k, _)| !desired.contains_key(*k))
        .flat_map(|(_, slices)| slices.iter().map(|s| (*s).clone()))
        .collect();
    let (mut creates, mut updates) = (vec![], vec![]);
    for (key, (meta, set)) in desired {
        let found = existing_by_port_map
            .get(&key)
            .map_or(&[][..], Vec::as_slice);
        let r = reconcile_by_port_mapping(service, found, set, &meta, max);
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
    out.errors = errors;
    out
}

/// Moves desired endpoints into `slice` until it is full or none are left (`PopAny` in a
/// loop, reconciler.go l.580–583 and l.616–619).
fn fill(slice: &mut EndpointSlice, desired: &mut EndpointSet, max: usize) {
    while slice.endpoints.len() < max {
        let Some((_, ep)) = desired.pop_first() else {
            return;
        };
        slice.endpoints.push(ep);
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
fn reconcile_by_port_mapping(
    service: &Service,
    existing: &[&EndpointSlice],
    mut desired: EndpointSet,
    meta: &EndpointMeta,
    max: usize,
) -> Reconciled {
    let mut slices: Vec<Cow<EndpointSlice>> = existing.iter().map(|s| Cow::Borrowed(*s)).collect();
    let mut fates = vec![Fate::Unchanged; existing.len()];
    for (i, s) in existing.iter().enumerate() {
        let mut kept = Vec::with_capacity(s.endpoints.len());
        let mut changed = false;
        for ep in &s.endpoints {
            if let Some(want) = desired.remove(&hash_endpoint(ep)) {
                changed |= !endpoints_equal_beyond_hash(&want, ep);
                kept.push(want);
            }
        }
        let (labels, labels_changed) = set_endpoint_slice_labels(s, service);
        if changed || kept.len() != s.endpoints.len() {
            if kept.is_empty() {
                fates[i] = Fate::Delete;
                continue;
            }
            slices[i].to_mut().endpoints = kept;
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
    to_update.sort_by_key(|&i| Reverse(slices[i].endpoints.len()));
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
    let with = |fate: Fate| -> Vec<EndpointSlice> {
        let chosen = slices.iter().zip(&fates).filter(|(_, f)| **f == fate);
        chosen.map(|(s, _)| s.clone().into_owned()).collect()
    };
    Reconciled {
        updates: with(Fate::Update),
        deletes: with(Fate::Delete),
        creates,
        errors: vec![],
    }
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
        errors: vec![],
    }
}

// Upstream's tests, with their inputs and the outputs they assert, from kubernetes/endpointslice
// at v0.36.3 (810be24c14536c3df13c9748f6990cb48707196f): reconciler_test.go, utils_test.go and
// util/controller_utils_test.go. Each test is named after the upstream test it mirrors. Cases
// of other address types than IPv4, of metrics, hints and trigger times are not mirrored (see
// the module doc); nor are Go's nil-pointer cases, which have no Rust counterpart.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Container, PodCondition, Time};
    use serde_json::json;

    const NS: &str = "test";

    /// Label pairs and pod IPs, as the tables write them.
    type Pairs<'a> = &'a [(&'a str, &'a str)];
    type Ips<'a> = &'a [&'a str];

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn object(v: Value) -> Map {
        v.as_object().cloned().unwrap_or_default()
    }

    fn ready_condition(ready: bool) -> PodCondition {
        PodCondition {
            type_: "Ready".into(),
            status: if ready { "True" } else { "False" }.into(),
            ..Default::default()
        }
    }

    fn set_pod_ips(p: &mut Pod, ips: &[&str]) {
        let ips: Vec<Value> = ips.iter().map(|ip| json!({ "ip": ip })).collect();
        p.status.extra.insert("podIPs".into(), Value::Array(ips));
    }

    /// `newPod` (utils_test.go l.977–1020); its `nPorts` is unused upstream.
    fn new_pod(n: usize, namespace: &str, ready: bool, terminating: bool) -> Pod {
        let mut p = Pod::default();
        p.metadata.namespace = namespace.into();
        p.metadata.name = format!("pod{n}").into();
        p.metadata.labels = Shared::new(labels(&[("foo", "bar")]));
        p.metadata.resource_version = n.to_string().into();
        p.metadata.deletion_timestamp = terminating.then_some(Time(0));
        let spec = &mut *p.spec;
        spec.containers = Shared::new(vec![Container {
            name: "container-1".into(),
            ..Default::default()
        }]);
        spec.node_name = "node-1".into();
        let ip = format!("1.2.3.{}", 4 + n);
        p.status.extra.insert("podIP".into(), json!(ip));
        set_pod_ips(&mut p, &[&ip]);
        p.status.conditions = vec![ready_condition(ready)];
        p
    }

    /// 250 or 300 pods, one in three not ready, as most reconciler tests start.
    fn pods(n: usize) -> Vec<Pod> {
        (0..n).map(|i| new_pod(i, NS, i % 3 != 0, false)).collect()
    }

    /// `newServiceAndEndpointMeta` (utils_test.go l.1045–1078).
    fn new_service_and_endpoint_meta(name: &str, namespace: &str) -> (Service, EndpointMeta) {
        let mut svc = Service::default();
        svc.metadata.name = name.into();
        svc.metadata.namespace = namespace.into();
        svc.metadata.uid = format!("{namespace}-{name}").into();
        svc.spec.ports = vec![ServicePort {
            name: Some(name.into()),
            protocol: Some("TCP".into()),
            target_port: Some(IntOrString::Int(80)),
            ..Default::default()
        }];
        svc.spec.selector = Some(labels(&[("foo", "bar")]));
        svc.spec.ip_families = Some(vec!["IPv4".into()]);
        let meta = EndpointMeta {
            ports: vec![EndpointPort {
                name: Some(name.into()),
                port: Some(80),
                protocol: Some("TCP".into()),
                app_protocol: None,
            }],
            address_type: ADDRESS_TYPE_IPV4.into(),
        };
        (svc, meta)
    }

    /// `newEmptyEndpointSlice` (utils_test.go l.1080–1094).
    fn new_empty_endpoint_slice(
        n: usize,
        namespace: &str,
        meta: &EndpointMeta,
        svc: &Service,
    ) -> EndpointSlice {
        let owner = OwnerReference::controller_of("v1", "Service", &svc.metadata);
        EndpointSlice {
            api_version: EndpointSlice::API_VERSION.into(),
            kind: EndpointSlice::KIND.into(),
            metadata: ObjectMeta {
                name: format!("{}-{n}", svc.metadata.name).into(),
                namespace: namespace.into(),
                owner_references: Shared::new(vec![owner]),
                ..Default::default()
            },
            address_type: meta.address_type.clone(),
            endpoints: vec![],
            ports: meta.ports.clone(),
        }
    }

    fn node(name: &str, zone: Option<&str>) -> Node {
        let mut n = Node::default();
        n.metadata.name = name.into();
        if let Some(z) = zone {
            let region = ("topology.kubernetes.io/region", "us-central1");
            n.metadata.labels = Shared::new(labels(&[(LABEL_TOPOLOGY_ZONE, z), region]));
        }
        n
    }

    fn node_1() -> Vec<Node> {
        vec![node("node-1", None)]
    }

    /// Upstream's fake clientset (`newClientset`, utils_test.go l.1022–1043): the slices
    /// written so far. A created slice is named `<generateName>gen<n>`: upstream adds 8
    /// random characters; a counter keeps the tests deterministic, and `gen` keeps the names
    /// apart from the tests' own (`foo-1`).
    #[derive(Default)]
    struct Client {
        slices: Vec<EndpointSlice>,
        named: usize,
    }

    impl Client {
        /// `createEndpointSlices`: slices already stored.
        fn with(slices: &[EndpointSlice]) -> Client {
            Client {
                slices: slices.to_vec(),
                named: 0,
            }
        }

        /// `newReconciler` and `reconcileHelper`: one reconcile, its writes applied.
        fn reconcile(
            &mut self,
            svc: &Service,
            pods: &[Pod],
            existing: &[EndpointSlice],
            max: usize,
            nodes: &[Node],
        ) -> Reconciled {
            let mut named = self.named;
            let r = reconcile(
                svc,
                pods,
                existing,
                max,
                |n| nodes.iter().find(|x| x.metadata.name == n),
                &mut |p: &str| {
                    named += 1;
                    format!("{p}gen{named}")
                },
            );
            self.named = named;
            self.apply(&r);
            r
        }

        /// The writes as the apiserver takes them: an update or delete of a slice that is
        /// not there, or a create of one that is, fails the test.
        fn apply(&mut self, r: &Reconciled) {
            for c in &r.creates {
                let taken = self
                    .slices
                    .iter()
                    .any(|s| s.metadata.name == c.metadata.name);
                assert!(!taken, "create of existing {}", c.metadata.name);
                self.slices.push(c.clone());
            }
            for u in &r.updates {
                let name = &u.metadata.name;
                let s = self.slices.iter_mut().find(|s| s.metadata.name == *name);
                *s.unwrap_or_else(|| panic!("update of missing {name}")) = u.clone();
            }
            for d in &r.deletes {
                let before = self.slices.len();
                self.slices.retain(|s| s.metadata.name != d.metadata.name);
                assert_eq!(
                    self.slices.len() + 1,
                    before,
                    "delete of {}",
                    d.metadata.name
                );
            }
        }

        /// `expectUnorderedSlicesWithLengths`: the slices' lengths, in order.
        fn lengths(&self) -> Vec<usize> {
            let mut l: Vec<usize> = self.slices.iter().map(|s| s.endpoints.len()).collect();
            l.sort();
            l
        }
    }

    /// (creates, updates, deletes): upstream counts its clientset's actions.
    fn counts(r: &Reconciled) -> (usize, usize, usize) {
        (r.creates.len(), r.updates.len(), r.deletes.len())
    }

    fn target(name: &str) -> Map {
        object(json!({ "kind": "Pod", "namespace": NS, "name": name }))
    }

    // ---------------------------------------------------------------- reconciler_test.go

    #[test]
    fn test_reconcile_empty() {
        let (svc, _) = new_service_and_endpoint_meta("foo", NS);
        let mut client = Client::default();
        let r = client.reconcile(&svc, &[], &[], MAX_ENDPOINTS_PER_SLICE, &node_1());
        assert_eq!(counts(&r), (1, 0, 0));
        assert_eq!(client.slices.len(), 1);
        let s = &client.slices[0];
        assert!(s.metadata.name.starts_with("foo"), "{}", s.metadata.name);
        assert_eq!(s.service(), Some("foo"));
        assert!(s.ports.is_empty() && s.endpoints.is_empty());
    }

    /// The IPv4 cases (the IPv6 and dual-stack ones are out, see the module doc).
    #[test]
    fn test_reconcile_1_pod() {
        let mut pod1 = new_pod(1, NS, true, false);
        set_pod_ips(&mut pod1, &["1.2.3.4", "1234::5678:0000:0000:9abc:def0"]);
        pod1.spec
            .extra
            .insert("hostname".into(), json!("example-hostname"));
        let node1 = node("node-1", Some("us-central1-a"));
        let (base, _) = new_service_and_endpoint_meta("foo", NS);
        let managed = [
            (MANAGED_BY_LABEL, ENDPOINTSLICE_CONTROLLER),
            (SERVICE_NAME_LABEL, "foo"),
        ];
        let headless = [managed[0], managed[1], (IS_HEADLESS_SERVICE, "")];
        let bad = [
            (SERVICE_NAME_LABEL, "bad"),
            (MANAGED_BY_LABEL, "actor"),
            (IS_HEADLESS_SERVICE, "invalid"),
        ];
        let cases: [(&str, Option<&str>, bool, Pairs<'_>, Labels); 5] = [
            (
                "no-family-service",
                Some("10.0.0.10"),
                false,
                &[],
                labels(&managed),
            ),
            ("ipv4", None, true, &[], labels(&headless)),
            (
                "ipv4-clusterip",
                Some("1.1.1.1"),
                true,
                &[],
                labels(&managed),
            ),
            ("ipv4-labels", None, true, &[("foo", "bar")], {
                let mut l = labels(&headless);
                l.insert("foo".into(), "bar".into());
                l
            }),
            ("ipv4-bad-labels", None, true, &bad, labels(&headless)),
        ];
        let want = Endpoint {
            addresses: vec!["1.2.3.4".into()],
            conditions: EndpointConditions {
                ready: Some(true),
                serving: Some(true),
                terminating: Some(false),
            },
            zone: Some("us-central1-a".into()),
            node_name: Some("node-1".into()),
            target_ref: Some(target("pod1")),
            extra: Map::new(),
        };
        for (name, cluster_ip, families, svc_labels, want_labels) in cases {
            let mut svc = base.clone();
            svc.spec.cluster_ip = cluster_ip.map(String::from);
            svc.spec.ip_families = families.then(|| vec!["IPv4".into()]);
            svc.metadata.labels = Shared::new(labels(svc_labels));
            let mut client = Client::default();
            let pods = [pod1.clone()];
            let r = client.reconcile(&svc, &pods, &[], 100, std::slice::from_ref(&node1));
            assert_eq!(counts(&r), (1, 0, 0), "{name}");
            let s = &client.slices[0];
            assert!(s.metadata.name.starts_with("foo"), "{name}");
            assert_eq!(*s.metadata.labels, want_labels, "{name}");
            assert_eq!(s.address_type, ADDRESS_TYPE_IPV4, "{name}");
            assert_eq!(s.endpoints, std::slice::from_ref(&want), "{name}");
        }
    }

    #[test]
    fn test_reconcile_1_endpoint_slice() {
        let (svc, meta) = new_service_and_endpoint_meta("foo", NS);
        let mut empty_slice = new_empty_endpoint_slice(1, NS, &meta, &svc);
        empty_slice.metadata.labels = Shared::new(labels(&[("bar", "baz")]));
        let placeholder_meta = EndpointMeta {
            ports: vec![],
            address_type: ADDRESS_TYPE_IPV4.into(),
        };
        let mut same = new_endpoint_slice(&svc, &placeholder_meta);
        same.metadata.name = "foo-abcde".into();
        let cases = [
            ("No existing placeholder", None, (1, 0, 0)),
            (
                "Existing placeholder that's the same",
                Some(same),
                (0, 0, 0),
            ),
            (
                "Existing placeholder that's different",
                Some(empty_slice),
                (0, 1, 0),
            ),
        ];
        for (desc, existing, want) in cases {
            let existing: Vec<EndpointSlice> = existing.into_iter().collect();
            let mut client = Client::with(&existing);
            let r = client.reconcile(&svc, &[], &existing, 100, &node_1());
            assert_eq!(counts(&r), want, "{desc}");
            assert_eq!(client.slices.len(), 1, "{desc}");
            let s = &client.slices[0];
            assert!(s.metadata.name.starts_with("foo"), "{desc}");
            assert_eq!(s.service(), Some("foo"), "{desc}");
            assert!(s.ports.is_empty() && s.endpoints.is_empty(), "{desc}");
        }
    }

    /// The cases with two slices (Go's nil-pointer cases have no counterpart).
    #[test]
    fn test_place_holder_slice_compare() {
        let with_meta = |f: &dyn Fn(&mut ObjectMeta)| {
            let mut s = EndpointSlice::default();
            f(&mut s.metadata);
            s
        };
        let typed = |t: &str| EndpointSlice {
            address_type: t.into(),
            ..Default::default()
        };
        let cases = [
            (
                "Both are empty and non-nil",
                EndpointSlice::default(),
                EndpointSlice::default(),
                true,
            ),
            (
                "Only ObjectMeta.Name has diff",
                with_meta(&|m| m.name = "foo".into()),
                with_meta(&|m| m.name = "bar".into()),
                true,
            ),
            (
                "Only ObjectMeta.Labels has diff",
                with_meta(&|m| m.labels = Shared::new(labels(&[("foo", "true")]))),
                with_meta(&|m| m.labels = Shared::new(labels(&[("bar", "true")]))),
                false,
            ),
            (
                "Creation time is different",
                with_meta(&|m| m.creation_timestamp = Some(Time(1000))),
                with_meta(&|m| m.creation_timestamp = Some(Time(2000))),
                true,
            ),
            (
                "Different except for ObjectMeta",
                typed("IPv4"),
                typed("IPv6"),
                false,
            ),
        ];
        for (desc, x, y, want) in cases {
            assert_eq!(placeholder_slice_compare(&x, &y), want, "{desc}");
        }
    }

    #[test]
    fn test_reconcile_1_endpoint_slice_publish_not_ready_addresses() {
        let (mut svc, _) = new_service_and_endpoint_meta("foo", NS);
        svc.spec.publish_not_ready_addresses = Some(true);
        let mut client = Client::default();
        let r = client.reconcile(&svc, &pods(50), &[], 100, &node_1());
        assert_eq!(counts(&r), (1, 0, 0));
        for (i, ep) in client.slices[0].endpoints.iter().enumerate() {
            // `EndpointReady`: unset counts as ready.
            assert_ne!(ep.conditions.ready, Some(false), "endpoints[{i}]");
        }
        assert_eq!(client.lengths(), [50]);
    }

    #[test]
    fn test_reconcile_many_pods() {
        let (svc, _) = new_service_and_endpoint_meta("foo", NS);
        let mut client = Client::default();
        let r = client.reconcile(&svc, &pods(250), &[], 100, &node_1());
        assert_eq!(counts(&r), (3, 0, 0));
        assert_eq!(client.lengths(), [50, 100, 100]);
    }

    /// Two slices holding every 4th pod from pod 1 and from pod 3 (upstream's loops).
    fn quarter_slices(pods: &[Pod], svc: &Service, meta: &EndpointMeta) -> Vec<EndpointSlice> {
        [1, 3]
            .into_iter()
            .enumerate()
            .map(|(n, first)| {
                let mut s = new_empty_endpoint_slice(n + 1, NS, meta, svc);
                s.endpoints = (first..pods.len() - 4)
                    .step_by(4)
                    .map(|i| pod_to_endpoint(&pods[i], svc, None))
                    .collect();
                s
            })
            .collect()
    }

    #[test]
    fn test_reconcile_endpoint_slices_some_preexisting() {
        let (svc, meta) = new_service_and_endpoint_meta("foo", NS);
        let pods = pods(250);
        let existing = quarter_slices(&pods, &svc, &meta);
        assert_eq!(
            [existing[0].endpoints.len(), existing[1].endpoints.len()],
            [62, 61]
        );
        // Upstream walks the slices in map order: either order gives the same writes.
        for existing in [existing.clone(), existing.into_iter().rev().collect()] {
            let mut client = Client::with(&existing);
            let r = client.reconcile(&svc, &pods, &existing, 100, &node_1());
            // A create, then an update (of the 62 to 89).
            assert_eq!(counts(&r), (1, 1, 0));
            assert_eq!(r.updates[0].metadata.name, "foo-1");
            assert_eq!(client.lengths(), [61, 89, 100]);
        }
    }

    #[test]
    fn test_reconcile_endpoint_slices_some_preexisting_worse_allocation() {
        let (svc, meta) = new_service_and_endpoint_meta("foo", NS);
        let pods = pods(300);
        let existing = quarter_slices(&pods, &svc, &meta);
        let mut client = Client::with(&existing);
        let r = client.reconcile(&svc, &pods, &existing, 100, &node_1());
        assert_eq!(counts(&r), (2, 0, 0));
        assert_eq!(client.lengths(), [52, 74, 74, 100]);
    }

    #[test]
    fn test_reconcile_endpoint_slices_updating() {
        let (mut svc, _) = new_service_and_endpoint_meta("foo", NS);
        let pods = pods(250);
        let mut client = Client::default();
        let r = client.reconcile(&svc, &pods, &[], 100, &node_1());
        assert_eq!(counts(&r), (3, 0, 0));
        assert_eq!(client.lengths(), [50, 100, 100]);
        svc.spec.ports[0].target_port = Some(IntOrString::Int(81));
        let existing = client.slices.clone();
        let r = client.reconcile(&svc, &pods, &existing, 100, &node_1());
        assert_eq!(counts(&r), (0, 3, 0));
        assert_eq!(client.lengths(), [50, 100, 100]);
    }

    #[test]
    fn test_reconcile_endpoint_slices_services_labels_updating() {
        let (mut svc, _) = new_service_and_endpoint_meta("foo", NS);
        let pods = pods(250);
        let mut client = Client::default();
        assert_eq!(
            counts(&client.reconcile(&svc, &pods, &[], 100, &node_1())),
            (3, 0, 0)
        );
        svc.metadata.labels = Shared::new(labels(&[("foo", "bar")]));
        let existing = client.slices.clone();
        let r = client.reconcile(&svc, &pods, &existing, 100, &node_1());
        assert_eq!(counts(&r), (0, 3, 0));
        assert_eq!(client.lengths(), [50, 100, 100]);
        for s in &client.slices {
            assert_eq!(
                s.metadata.labels.get("foo").map(String::as_str),
                Some("bar")
            );
        }
    }

    #[test]
    fn test_reconcile_endpoint_slices_services_reserved_labels() {
        let (mut svc, _) = new_service_and_endpoint_meta("foo", NS);
        let pods = pods(250);
        let mut client = Client::default();
        assert_eq!(
            counts(&client.reconcile(&svc, &pods, &[], 100, &node_1())),
            (3, 0, 0)
        );
        svc.metadata.labels = Shared::new(labels(&[
            (SERVICE_NAME_LABEL, "bad"),
            (MANAGED_BY_LABEL, "actor"),
            (IS_HEADLESS_SERVICE, "invalid"),
        ]));
        let existing = client.slices.clone();
        let r = client.reconcile(&svc, &pods, &existing, 100, &node_1());
        assert!(r.is_empty(), "{:?}", counts(&r));
        assert_eq!(client.lengths(), [50, 100, 100]);
    }

    #[test]
    fn test_reconcile_endpoint_slices_recycling() {
        let (mut svc, meta) = new_service_and_endpoint_meta("foo", NS);
        let pods = pods(300);
        let existing: Vec<EndpointSlice> = pods
            .chunks(30)
            .enumerate()
            .map(|(n, chunk)| {
                let mut s = new_empty_endpoint_slice(n, NS, &meta, &svc);
                s.endpoints = chunk
                    .iter()
                    .map(|p| pod_to_endpoint(p, &svc, None))
                    .collect();
                s
            })
            .collect();
        let mut client = Client::with(&existing);
        // Every pod is in a slice already: no repacking.
        let r = client.reconcile(&svc, &pods, &existing, 100, &node_1());
        assert!(r.is_empty(), "{:?}", counts(&r));
        // A changed targetPort changes every slice: 3 updates and 7 deletes repack them.
        svc.spec.ports[0].target_port = Some(IntOrString::Int(81));
        let r = client.reconcile(&svc, &pods, &existing, 100, &node_1());
        assert_eq!(counts(&r), (0, 3, 7));
        assert_eq!(client.lengths(), [100, 100, 100]);
    }

    #[test]
    fn test_reconcile_endpoint_slices_update_packing() {
        let (svc, meta) = new_service_and_endpoint_meta("foo", NS);
        let mut pods: Vec<Pod> = vec![];
        let mut existing = vec![];
        for (n, range) in [(1, 0..80), (2, 100..120)] {
            let mut s = new_empty_endpoint_slice(n, NS, &meta, &svc);
            for i in range {
                let pod = new_pod(i, NS, true, false);
                s.endpoints.push(pod_to_endpoint(&pod, &svc, None));
                pods.push(pod);
            }
            existing.push(s);
        }
        // Every slice has endpoints to update.
        for p in pods.iter_mut().step_by(10) {
            p.status.conditions = vec![ready_condition(false)];
        }
        // A few more endpoints, fewer than either slice has room for.
        pods.extend((200..215).map(|i| new_pod(i, NS, true, false)));
        let mut client = Client::with(&existing);
        let r = client.reconcile(&svc, &pods, &existing, 100, &node_1());
        assert_eq!(counts(&r), (0, 2, 0));
        // The new ones went to the fuller slice.
        assert_eq!(client.lengths(), [20, 95]);
    }

    #[test]
    fn test_reconcile_endpoint_slices_replace_deprecated() {
        let (svc, mut meta) = new_service_and_endpoint_meta("foo", NS);
        meta.address_type = "IP".into();
        let plain = Service::default();
        let mut pods: Vec<Pod> = vec![];
        let mut existing = vec![];
        for (n, range) in [(1, 0..80), (2, 100..150)] {
            let mut s = new_empty_endpoint_slice(n, NS, &meta, &svc);
            for i in range {
                let pod = new_pod(i, NS, true, false);
                s.endpoints.push(pod_to_endpoint(&pod, &plain, None));
                pods.push(pod);
            }
            existing.push(s);
        }
        let mut client = Client::with(&existing);
        let r = client.reconcile(&svc, &pods, &existing, 100, &node_1());
        // Both old slices deleted (the last writes), the endpoints packed anew.
        assert_eq!(counts(&r), (2, 0, 2));
        assert_eq!(client.lengths(), [30, 100]);
        assert!(
            client
                .slices
                .iter()
                .all(|s| s.address_type == ADDRESS_TYPE_IPV4)
        );
    }

    #[test]
    fn test_reconcile_endpoint_slices_recreation() {
        let cases = [
            ("slice owned by Service", true, (0, 0, 0)),
            ("slice owned by other Service UID", false, (1, 0, 1)),
        ];
        for (name, owned_by_service, want) in cases {
            let (svc, meta) = new_service_and_endpoint_meta("foo", NS);
            let mut slice = new_empty_endpoint_slice(1, NS, &meta, &svc);
            let pod = new_pod(1, NS, true, false);
            slice
                .endpoints
                .push(pod_to_endpoint(&pod, &Service::default(), None));
            if !owned_by_service {
                slice.metadata.owner_references[0].uid = "different".into();
            }
            let existing = [slice];
            let mut client = Client::with(&existing);
            let r = client.reconcile(&svc, &[pod], &existing, 100, &node_1());
            assert_eq!(counts(&r), want, "{name}");
            assert_eq!(client.slices.len(), 1, "{name}");
        }
    }

    #[test]
    fn test_reconcile_endpoint_slices_named_ports() {
        let mut svc = Service::default();
        svc.metadata.name = "named-port-example".into();
        svc.metadata.namespace = NS.into();
        svc.spec.ports = vec![ServicePort {
            target_port: Some(IntOrString::Str("http".into())),
            protocol: Some("TCP".into()),
            ..Default::default()
        }];
        svc.spec.selector = Some(labels(&[("foo", "bar")]));
        svc.spec.ip_families = Some(vec!["IPv4".into()]);
        let pods: Vec<Pod> = (0..300)
            .map(|i| {
                let mut pod = new_pod(i, NS, i % 3 != 0, false);
                let port = json!([cport("http", 8080 + i as i32 % 5, "TCP")]);
                pod.spec.containers[0].extra.insert("ports".into(), port);
                pod
            })
            .collect();
        let mut client = Client::default();
        let r = client.reconcile(&svc, &pods, &[], 100, &node_1());
        assert_eq!(counts(&r), (5, 0, 0));
        assert_eq!(client.lengths(), [60; 5]);
        let mut got: Vec<(Vec<EndpointPort>, String)> = client
            .slices
            .iter()
            .map(|s| (s.ports.clone(), s.address_type.clone()))
            .collect();
        got.sort_by_key(|(ports, _)| ports[0].port);
        let want: Vec<(Vec<EndpointPort>, String)> = (0..5)
            .map(|i| {
                let port = EndpointPort {
                    name: Some(String::new()),
                    protocol: Some("TCP".into()),
                    port: Some(8080 + i),
                    app_protocol: None,
                };
                (vec![port], ADDRESS_TYPE_IPV4.to_string())
            })
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn test_reconcile_max_endpoints_per_slice() {
        let (svc, _) = new_service_and_endpoint_meta("foo", NS);
        let pods = pods(250);
        let cases: [(usize, &[usize]); 5] = [
            (50, &[50, 50, 50, 50, 50]),
            (80, &[10, 80, 80, 80]),
            (150, &[100, 150]),
            (250, &[250]),
            (500, &[250]),
        ];
        for (max, want) in cases {
            let mut client = Client::default();
            let r = client.reconcile(&svc, &pods, &[], max, &node_1());
            assert_eq!(r.creates.len(), want.len(), "max {max}");
            assert_eq!(client.lengths(), want, "max {max}");
        }
    }

    #[test]
    fn test_reconciler_finalize_svc_deletion_timestamp() {
        // (name, deletionTimestamp set, attempt create, update, delete,
        //  then whether the created, updated and deleted slice exist).
        let cases = [
            (
                "Attempt create and update, nil deletion timestamp",
                false,
                [true, true, false],
                [true, true, true],
            ),
            (
                "Attempt create and update, deletion timestamp set",
                true,
                [true, true, false],
                [false, true, true],
            ),
            (
                "Attempt create, update, and delete, nil deletion timestamp, recycling in action",
                false,
                [true, true, true],
                [false, true, true],
            ),
            (
                "Attempt create, update, and delete, deletion timestamp set, recycling in action",
                true,
                [true, true, true],
                [false, true, true],
            ),
            (
                "Attempt update delete, deletion timestamp set",
                true,
                [false, true, true],
                [false, true, false],
            ),
        ];
        for (name, deleting, [create, update, delete], want) in cases {
            let (mut svc, meta) = new_service_and_endpoint_meta("foo", NS);
            svc.metadata.deletion_timestamp = deleting.then_some(Time(0));
            let owner = OwnerReference::controller_of("v1", "Service", &svc.metadata);
            let slice = |name: &str| {
                let mut s = EndpointSlice {
                    address_type: meta.address_type.clone(),
                    ports: meta.ports.clone(),
                    ..Default::default()
                };
                s.metadata.name = name.into();
                s.metadata.owner_references = Shared::new(vec![owner.clone()]);
                s
            };
            let mut client = Client::with(&[slice("to-update"), slice("to-delete")]);
            // An endpoint, to see whether the update was written.
            let mut to_update = slice("to-update");
            to_update.endpoints = vec![Endpoint {
                addresses: vec!["10.2.3.4".into()],
                ..Default::default()
            }];
            let pick = |want: bool, s: EndpointSlice| if want { vec![s] } else { vec![] };
            let r = finalize(
                &svc,
                pick(create, slice("to-create")),
                pick(update, to_update),
                pick(delete, slice("to-delete")),
                &mut |p: &str| format!("{p}generated"),
            );
            client.apply(&r);
            let found = |n: &str| client.slices.iter().find(|s| s.metadata.name == n);
            let got =
                [found("to-create"), found("to-update"), found("to-delete")].map(|s| s.is_some());
            assert_eq!(got, want, "{name}");
            if update {
                assert_eq!(
                    found("to-update").map(|s| s.endpoints.len()),
                    Some(1),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn test_reconciler_pod_missing_node() {
        let nodes = [node("node-0", None), node("node-1", None)];
        let mut pods = [new_pod(0, NS, true, false), new_pod(1, NS, true, false)];
        pods[0].spec.node_name = "node-0".into();
        let (service, meta) = new_service_and_endpoint_meta("foo", NS);
        let both = || {
            let mut s = new_empty_endpoint_slice(1, NS, &meta, &service);
            s.endpoints = pods
                .iter()
                .map(|p| pod_to_endpoint(p, &service, None))
                .collect();
            s
        };
        let node0 = &nodes[..1];
        // (name, publishNotReady, nodes, existing slice, writes, endpoints after, error).
        let cases = [
            (
                "Create and publishNotReady false",
                false,
                node0,
                None,
                (1, 0, 0),
                1,
                true,
            ),
            (
                "Create and publishNotReady true",
                true,
                node0,
                None,
                (1, 0, 0),
                2,
                false,
            ),
            (
                "Update and publishNotReady false",
                false,
                node0,
                Some(both()),
                (0, 1, 0),
                1,
                true,
            ),
            (
                "Update and publishNotReady true and all nodes missing",
                true,
                &[][..],
                Some(both()),
                (0, 0, 0),
                2,
                false,
            ),
            (
                "Update and publishNotReady true",
                true,
                node0,
                Some(both()),
                (0, 0, 0),
                2,
                false,
            ),
            // The slice is updated (to the placeholder), not deleted.
            (
                "Update if publishNotReady false and no nodes are present",
                false,
                &[][..],
                Some(both()),
                (0, 1, 0),
                0,
                true,
            ),
        ];
        for (name, publish, nodes, existing, writes, endpoints, error) in cases {
            let mut svc = service.clone();
            svc.spec.publish_not_ready_addresses = Some(publish);
            let existing: Vec<EndpointSlice> = existing.into_iter().collect();
            let mut client = Client::with(&existing);
            let r = client.reconcile(&svc, &pods, &existing, 100, nodes);
            assert_eq!(!r.errors.is_empty(), error, "{name}: {:?}", r.errors);
            assert_eq!(counts(&r), writes, "{name}");
            assert_eq!(client.slices.len(), 1, "{name}");
            assert_eq!(client.slices[0].endpoints.len(), endpoints, "{name}");
        }
    }

    #[test]
    fn test_reconcile_headless_service_no_ports() {
        let mut svc = Service::default();
        svc.metadata.name = "headless-no-ports".into();
        svc.metadata.namespace = NS.into();
        svc.metadata.uid = "test-uid".into();
        svc.spec.cluster_ip = Some("None".into());
        svc.spec.selector = Some(labels(&[("foo", "bar")]));
        svc.spec.ip_families = Some(vec!["IPv4".into()]);
        let pod = [new_pod(1, NS, true, false)];
        let mut client = Client::default();
        let r = client.reconcile(&svc, &pod, &[], 100, &node_1());
        assert_eq!(counts(&r), (1, 0, 0));
        // The apiserver writes the empty ports back as null: still no change.
        let existing = client.slices.clone();
        let r = client.reconcile(&svc, &pod, &existing, 100, &node_1());
        assert!(r.is_empty(), "{:?}", counts(&r));
    }

    // ---------------------------------------------------------------- utils_test.go

    #[test]
    fn test_new_endpoint_slice() {
        let mut service = Service::default();
        service.metadata.name = "foo".into();
        service.metadata.namespace = NS.into();
        service.spec.cluster_ip = Some("1.1.1.1".into());
        service.spec.ports = vec![ServicePort {
            port: 80,
            ..Default::default()
        }];
        service.spec.selector = Some(labels(&[("foo", "bar")]));
        let meta = EndpointMeta {
            ports: vec![EndpointPort {
                name: Some("foo".into()),
                protocol: Some("TCP".into()),
                ..Default::default()
            }],
            address_type: ADDRESS_TYPE_IPV4.into(),
        };
        let owner = OwnerReference::controller_of("v1", "Service", &service.metadata);
        let reserved = [
            (SERVICE_NAME_LABEL, "foo"),
            (MANAGED_BY_LABEL, ENDPOINTSLICE_CONTROLLER),
        ];
        let with = |extra: &[(&str, &str)]| {
            let mut l = labels(&reserved);
            l.extend(labels(extra));
            l
        };
        let evil = [
            (SERVICE_NAME_LABEL, "bad"),
            (MANAGED_BY_LABEL, "actor"),
            ("foo", "bar"),
        ];
        // (name, service labels, headless, annotations, the slice's labels)
        let cases: [(&str, Pairs<'_>, bool, bool, Labels); 6] = [
            ("Service without labels", &[], false, false, with(&[])),
            (
                "Service with labels",
                &[("foo", "bar")],
                false,
                false,
                with(&[("foo", "bar")]),
            ),
            (
                "Headless Service with labels",
                &[("foo", "bar")],
                true,
                false,
                with(&[("foo", "bar"), (IS_HEADLESS_SERVICE, "")]),
            ),
            (
                "Service with multiple labels",
                &[("foo", "bar"), ("foo2", "bar2")],
                false,
                false,
                with(&[("foo", "bar"), ("foo2", "bar2")]),
            ),
            (
                "Evil service hijacking endpoint slices labels",
                &evil,
                false,
                false,
                with(&[("foo", "bar")]),
            ),
            ("Service with annotations", &[], false, true, with(&[])),
        ];
        for (name, svc_labels, headless, annotated, want_labels) in cases {
            let mut svc = service.clone();
            svc.metadata.labels = Shared::new(labels(svc_labels));
            if headless {
                svc.spec.cluster_ip = Some("None".into());
            }
            if annotated {
                svc.metadata.annotations.insert("foo".into(), "bar".into());
            }
            let want = EndpointSlice {
                api_version: EndpointSlice::API_VERSION.into(),
                kind: EndpointSlice::KIND.into(),
                metadata: ObjectMeta {
                    labels: Shared::new(want_labels),
                    generate_name: "foo-".into(),
                    owner_references: Shared::new(vec![owner.clone()]),
                    namespace: NS.into(),
                    ..Default::default()
                },
                ports: meta.ports.clone(),
                address_type: ADDRESS_TYPE_IPV4.into(),
                endpoints: vec![],
            };
            assert_eq!(new_endpoint_slice(&svc, &meta), want, "{name}");
        }
    }

    #[test]
    fn test_pod_to_endpoint() {
        let (svc, _) = new_service_and_endpoint_meta("foo", NS);
        let (mut publish, _) = new_service_and_endpoint_meta("publishnotready", NS);
        publish.spec.publish_not_ready_addresses = Some(true);
        let ready_pod = new_pod(1, NS, true, false);
        let ready_terminating_pod = new_pod(1, NS, true, true);
        let mut ready_pod_hostname = new_pod(1, NS, true, false);
        ready_pod_hostname
            .spec
            .extra
            .insert("subdomain".into(), json!("foo"));
        ready_pod_hostname
            .spec
            .extra
            .insert("hostname".into(), json!("example-hostname"));
        let unready_pod = new_pod(1, NS, false, false);
        let unready_terminating_pod = new_pod(1, NS, false, true);
        let mut multi_ip_pod = new_pod(1, NS, true, false);
        set_pod_ips(
            &mut multi_ip_pod,
            &["1.2.3.4", "1234::5678:0000:0000:9abc:def0"],
        );
        let zone = Some("us-central1-a");
        // (name, pod, service, node zone, address, (ready, serving, terminating), hostname)
        let cases = [
            (
                "Ready pod",
                &ready_pod,
                &svc,
                None,
                "1.2.3.5",
                (true, true, false),
                None,
            ),
            (
                "Ready pod + publishNotReadyAddresses",
                &ready_pod,
                &publish,
                None,
                "1.2.3.5",
                (true, true, false),
                None,
            ),
            (
                "Unready pod",
                &unready_pod,
                &svc,
                None,
                "1.2.3.5",
                (false, false, false),
                None,
            ),
            (
                "Unready pod + publishNotReadyAddresses",
                &unready_pod,
                &publish,
                None,
                "1.2.3.5",
                (true, false, false),
                None,
            ),
            (
                "Ready pod + node labels",
                &ready_pod,
                &svc,
                zone,
                "1.2.3.5",
                (true, true, false),
                None,
            ),
            (
                "Multi IP Ready pod + node labels",
                &multi_ip_pod,
                &svc,
                zone,
                "1.2.3.4",
                (true, true, false),
                None,
            ),
            (
                "Ready pod + hostname",
                &ready_pod_hostname,
                &svc,
                zone,
                "1.2.3.5",
                (true, true, false),
                Some("example-hostname"),
            ),
            (
                "Ready terminating pod",
                &ready_terminating_pod,
                &svc,
                None,
                "1.2.3.5",
                (false, true, true),
                None,
            ),
            (
                "Not ready terminating pod",
                &unready_terminating_pod,
                &svc,
                None,
                "1.2.3.5",
                (false, false, true),
                None,
            ),
        ];
        for (name, pod, svc, zone, address, (ready, serving, terminating), hostname) in cases {
            let want = Endpoint {
                addresses: vec![address.into()],
                conditions: EndpointConditions {
                    ready: Some(ready),
                    serving: Some(serving),
                    terminating: Some(terminating),
                },
                target_ref: Some(target("pod1")),
                node_name: Some("node-1".into()),
                zone: zone.map(String::from),
                extra: hostname.map_or_else(Map::new, |h| object(json!({ "hostname": h }))),
            };
            assert_eq!(pod_to_endpoint(pod, svc, zone), want, "{name}");
        }
    }

    /// A container port, as JSON.
    fn cport(name: &str, number: i32, protocol: &str) -> Value {
        json!({ "name": name, "containerPort": number, "protocol": protocol })
    }

    /// A container (`{"ports": …}`), or a restartable init container when `policy` is given.
    fn ctr(ports: &[Value], policy: Option<&str>) -> Value {
        match policy {
            Some(p) => json!({ "restartPolicy": p, "ports": ports }),
            None => json!({ "ports": ports }),
        }
    }

    /// A pod whose containers and init containers are these JSON objects.
    fn pod_with_containers(containers: Value, init_containers: Value) -> Pod {
        let mut p = Pod::default();
        let list = containers.as_array().cloned().unwrap_or_default();
        p.spec.containers = Shared::new(
            list.into_iter()
                .map(|c| Container {
                    extra: Shared::new(object(c)),
                    ..Default::default()
                })
                .collect(),
        );
        if !init_containers.is_null() {
            p.spec
                .extra
                .insert("initContainers".into(), init_containers);
        }
        p
    }

    fn service_port(name: &str, port: i32, target: IntOrString, app: Option<&str>) -> ServicePort {
        ServicePort {
            name: Some(name.into()),
            protocol: Some("TCP".into()),
            port,
            target_port: Some(target),
            extra: app.map_or_else(Map::new, |a| object(json!({ "appProtocol": a }))),
            ..Default::default()
        }
    }

    #[test]
    fn test_get_endpoint_ports() {
        let int = IntOrString::Int;
        let named = |n: &str| IntOrString::Str(n.into());
        let endpoint_port = |name: &str, port: i32, app: Option<&str>| EndpointPort {
            name: Some(name.into()),
            port: Some(port),
            protocol: Some("TCP".into()),
            app_protocol: app.map(String::from),
        };
        let sidecar =
            |name: &str, port: i32| json!([ctr(&[cport(name, port, "TCP")], Some("Always"))]);
        let app = |name: &str, port: i32| json!([ctr(&[cport(name, port, "TCP")], None)]);
        let cases = [
            (
                "service with AppProtocol on one port",
                vec![service_port(
                    "http",
                    80,
                    int(80),
                    Some("example.com/custom-protocol"),
                )],
                pod_with_containers(json!([{ "ports": [] }]), Value::Null),
                vec![endpoint_port(
                    "http",
                    80,
                    Some("example.com/custom-protocol"),
                )],
            ),
            (
                "service with named port and AppProtocol on one port",
                vec![
                    service_port("http", 80, int(80), None),
                    service_port("https", 0, named("https"), Some("https")),
                ],
                pod_with_containers(app("https", 443), Value::Null),
                vec![
                    endpoint_port("http", 80, None),
                    endpoint_port("https", 443, Some("https")),
                ],
            ),
            (
                "service with named port for restartable init container",
                vec![
                    service_port("http-sidecar", 8080, int(8080), None),
                    service_port("http", 8090, named("http"), None),
                ],
                pod_with_containers(app("http", 8090), sidecar("http-sidecar", 8080)),
                vec![
                    endpoint_port("http-sidecar", 8080, None),
                    endpoint_port("http", 8090, None),
                ],
            ),
            (
                "service with same named port for regular and restartable init container",
                vec![service_port("http", 80, named("http"), None)],
                pod_with_containers(app("http", 8090), sidecar("http", 8080)),
                vec![endpoint_port("http", 8090, None)],
            ),
        ];
        for (name, ports, pod, want) in cases {
            let mut svc = Service::default();
            svc.spec.ports = ports;
            assert_eq!(get_endpoint_ports(&svc, &pod), want, "{name}");
        }
    }

    #[test]
    fn test_set_endpoint_slice_labels() {
        let reserved = [
            (SERVICE_NAME_LABEL, "foo"),
            (MANAGED_BY_LABEL, ENDPOINTSLICE_CONTROLLER),
        ];
        let headless_label = (IS_HEADLESS_SERVICE, "");
        let foo = ("foo", "bar");
        let (r0, r1) = (reserved[0], reserved[1]);
        let evil = [(SERVICE_NAME_LABEL, "bad"), (MANAGED_BY_LABEL, "actor")];
        // (name, slice labels, service labels, headless, labels, updated)
        let cases: [(&str, Pairs<'_>, Pairs<'_>, bool, Pairs<'_>, bool); 13] = [
            (
                "Service without labels and empty endpoint slice",
                &[],
                &[],
                false,
                &reserved,
                false,
            ),
            (
                "Headless service with labels and empty endpoint slice",
                &[],
                &[foo],
                true,
                &[r0, r1, headless_label, foo],
                true,
            ),
            (
                "Headless service without labels and empty endpoint slice",
                &[],
                &[],
                true,
                &[r0, r1, headless_label],
                false,
            ),
            (
                "Non Headless service with Headless label and empty endpoint slice",
                &[],
                &[headless_label],
                false,
                &reserved,
                false,
            ),
            (
                "Headless Service change to ClusterIP Service with headless label",
                &[r0, r1, headless_label],
                &[headless_label],
                false,
                &reserved,
                false,
            ),
            (
                "Headless Service change to ClusterIP Service",
                &[r0, r1, headless_label],
                &[],
                false,
                &reserved,
                false,
            ),
            (
                "Headless service and endpoint slice with same labels",
                &[r0, r1, foo],
                &[foo],
                true,
                &[r0, r1, headless_label, foo],
                false,
            ),
            (
                "Service with labels and empty endpoint slice",
                &[],
                &[foo],
                false,
                &[r0, r1, foo],
                true,
            ),
            (
                "Slice with labels and service without labels",
                &[r0, r1, foo],
                &[],
                false,
                &reserved,
                true,
            ),
            (
                "Slice with headless label and service with ClusterIP",
                &[r0, r1, headless_label],
                &[],
                false,
                &reserved,
                false,
            ),
            (
                "Slice with reserved labels and service with labels",
                &reserved,
                &[foo],
                false,
                &[r0, r1, foo],
                true,
            ),
            (
                "Evil service trying to hijack slice labels only well-known slice labels",
                &reserved,
                &[evil[0], evil[1], (IS_HEADLESS_SERVICE, "invalid")],
                false,
                &reserved,
                false,
            ),
            (
                "Evil service trying to hijack slice labels with updates",
                &reserved,
                &[evil[0], evil[1], foo],
                false,
                &[r0, r1, foo],
                true,
            ),
        ];
        for (name, slice_labels, svc_labels, headless, want, want_updated) in cases {
            let mut svc = Service::default();
            svc.metadata.name = "foo".into();
            svc.metadata.namespace = NS.into();
            svc.spec.cluster_ip = Some(if headless { "None" } else { "1.1.1.1" }.into());
            svc.metadata.labels = Shared::new(labels(svc_labels));
            let mut slice = EndpointSlice::default();
            slice.metadata.labels = Shared::new(labels(slice_labels));
            let got = set_endpoint_slice_labels(&slice, &svc);
            assert_eq!(got, (labels(want), want_updated), "{name}");
        }
    }

    #[test]
    fn test_find_port() {
        let (tcp, udp) = ("TCP", "UDP");
        // Ports of a second container, the first having none.
        let second = |ports: &[Value]| json!([{}, ctr(ports, None)]);
        let with = |mut port: Value, key: &str, value: Value| {
            port[key] = value;
            port
        };
        let host_port =
            |number: i32, host: i32| with(cport("a", number, tcp), "hostPort", json!(host));
        let udp_p_q =
            |q: i32| second(&[cport("", 11, udp), cport("p", 22, tcp), cport("q", q, tcp)]);
        let sidecar = |policy: Option<&str>| json!([ctr(&[host_port(80, -1)], policy)]);
        let host_ip = with(cport("a", 11, tcp), "hostIP", json!("192.168.1.1"));
        let app_ports = json!([
            ctr(&[host_port(81, -1)], None),
            ctr(&[host_port(82, -1)], None)
        ]);
        let int = IntOrString::Int;
        let named = |n: &str| IntOrString::Str(n.into());
        let none = Value::Null;
        // (name, containers, init containers, targetPort, port, found)
        let cases = [
            (
                "valid int, no ports",
                json!([{}]),
                none.clone(),
                int(93),
                93,
                true,
            ),
            (
                "valid int, with ports",
                json!([ctr(&[cport("", 11, tcp), cport("p", 22, tcp)], None)]),
                none.clone(),
                int(93),
                93,
                true,
            ),
            (
                "valid str, no ports",
                json!([{}]),
                none.clone(),
                named("p"),
                0,
                false,
            ),
            (
                "valid str, one ctr with ports",
                json!([ctr(
                    &[cport("", 11, udp), cport("p", 22, tcp), cport("q", 33, tcp)],
                    None
                )]),
                none.clone(),
                named("q"),
                33,
                true,
            ),
            (
                "valid str, two ctr with ports",
                udp_p_q(33),
                none.clone(),
                named("q"),
                33,
                true,
            ),
            (
                "valid str, two ctr with same port",
                udp_p_q(22),
                none.clone(),
                named("q"),
                22,
                true,
            ),
            (
                "valid str, invalid protocol",
                second(&[cport("a", 11, "snmp")]),
                none.clone(),
                named("a"),
                0,
                false,
            ),
            (
                "valid hostPort",
                second(&[host_port(11, 81)]),
                none.clone(),
                named("a"),
                11,
                true,
            ),
            // Upstream notes that this and the next should fail, but pass.
            (
                "invalid hostPort",
                second(&[host_port(11, -1)]),
                none.clone(),
                named("a"),
                11,
                true,
            ),
            (
                "invalid ContainerPort",
                second(&[cport("a", -1, tcp)]),
                none.clone(),
                named("a"),
                -1,
                true,
            ),
            (
                "HostIP Address",
                second(&[host_ip]),
                none.clone(),
                named("a"),
                11,
                true,
            ),
            (
                "Sidecar initContainer named port",
                json!([]),
                sidecar(Some("Always")),
                named("a"),
                80,
                true,
            ),
            (
                "Invalid(restartPolicy != Always) initContainer named port",
                json!([]),
                sidecar(None),
                named("a"),
                0,
                false,
            ),
            (
                "App and sidecar containers have the same named port, first app container port will be used",
                app_ports,
                sidecar(Some("Always")),
                named("a"),
                81,
                true,
            ),
        ];
        for (name, containers, init_containers, target_port, want, found) in cases {
            let pod = pod_with_containers(containers, init_containers);
            let port = ServicePort {
                protocol: Some("TCP".into()),
                target_port: Some(target_port),
                ..Default::default()
            };
            let got = find_port(&pod, &port);
            assert_eq!(
                (got.clone().unwrap_or(0), got.is_ok()),
                (want, found),
                "{name}"
            );
        }
        let mut pod = pod_with_containers(json!([{}]), Value::Null);
        pod.metadata.uid = "uid-1".into();
        let port = service_port("", 80, named("missing"), None);
        let want = "no suitable port for manifest: uid-1".to_string();
        assert_eq!(find_port(&pod, &port), Err(want));
    }

    // ------------------------------------------------------- util/controller_utils_test.go

    #[test]
    fn test_should_pod_be_in_endpoints() {
        // (name, phase, podIP, podIPs, terminating, includeTerminating, expected); the
        // restart policies upstream's cases name make no difference.
        let two_ips: &[&str] = &["1.2.3.4", "1234::5678:0000:0000:9abc:def0"];
        let cases: [(&str, &str, &str, Ips<'_>, bool, bool, bool); 11] = [
            (
                "Failed pod with Never RestartPolicy",
                "Failed",
                "1.2.3.4",
                &[],
                false,
                false,
                false,
            ),
            (
                "Succeeded pod with Never RestartPolicy",
                "Succeeded",
                "1.2.3.4",
                &[],
                false,
                false,
                false,
            ),
            (
                "Succeeded pod with OnFailure RestartPolicy",
                "Succeeded",
                "1.2.3.4",
                &[],
                false,
                false,
                false,
            ),
            (
                "Empty Pod IPs, Running pod with OnFailure RestartPolicy",
                "Running",
                "",
                &[],
                false,
                false,
                false,
            ),
            (
                "Terminating Pod with includeTerminating=false",
                "Running",
                "1.2.3.4",
                &[],
                true,
                false,
                false,
            ),
            (
                "Failed pod with Always RestartPolicy",
                "Failed",
                "1.2.3.4",
                &[],
                false,
                false,
                false,
            ),
            (
                "Pending pod with Never RestartPolicy",
                "Pending",
                "1.2.3.4",
                &[],
                false,
                false,
                true,
            ),
            (
                "Unknown pod with OnFailure RestartPolicy",
                "Unknown",
                "1.2.3.4",
                &[],
                false,
                false,
                true,
            ),
            (
                "Running pod with Never RestartPolicy",
                "Running",
                "1.2.3.4",
                &[],
                false,
                false,
                true,
            ),
            (
                "Multiple Pod IPs, Running pod with OnFailure RestartPolicy",
                "Running",
                "",
                two_ips,
                false,
                false,
                true,
            ),
            (
                "Terminating Pod with includeTerminating=true",
                "Running",
                "1.2.3.4",
                &[],
                true,
                true,
                true,
            ),
        ];
        for (name, phase, pod_ip, pod_ips, terminating, include_terminating, want) in cases {
            let mut pod = Pod::default();
            pod.status.phase = phase.into();
            pod.status.extra.insert("podIP".into(), json!(pod_ip));
            set_pod_ips(&mut pod, pod_ips);
            pod.metadata.deletion_timestamp = terminating.then_some(Time(0));
            assert_eq!(
                should_pod_be_in_endpoints(&pod, include_terminating),
                want,
                "{name}"
            );
        }
    }

    #[test]
    fn test_should_set_hostname() {
        // (name, pod namespace, hostname, subdomain, service namespace, name, expected)
        let cases = [
            (
                "all matching",
                "ns",
                "foo",
                "svc-name",
                "ns",
                "svc-name",
                true,
            ),
            (
                "all matching, hostname not set",
                "ns",
                "",
                "svc-name",
                "ns",
                "svc-name",
                false,
            ),
            (
                "all set, different name/subdomain",
                "ns",
                "hostname",
                "subdomain",
                "ns",
                "name",
                false,
            ),
            (
                "all set, different namespace",
                "ns1",
                "hostname",
                "svc-name",
                "ns2",
                "svc-name",
                false,
            ),
        ];
        for (name, pod_ns, hostname, subdomain, svc_ns, svc_name, want) in cases {
            let mut pod = Pod::default();
            pod.metadata.namespace = pod_ns.into();
            pod.spec.extra.insert("hostname".into(), json!(hostname));
            pod.spec.extra.insert("subdomain".into(), json!(subdomain));
            let mut svc = Service::default();
            svc.metadata.namespace = svc_ns.into();
            svc.metadata.name = svc_name.into();
            assert_eq!(should_set_hostname(&pod, &svc), want, "{name}");
        }
    }

    #[test]
    fn test_endpoints_equal_beyond_hash() {
        let ep = |ready: bool, node: Option<&str>, zone: Option<&str>, pod: &str, rv: &str| {
            let mut target = object(json!({ "kind": "Pod", "namespace": "default", "name": pod }));
            if !rv.is_empty() {
                target.insert("resourceVersion".into(), json!(rv));
            }
            Endpoint {
                conditions: EndpointConditions {
                    ready: Some(ready),
                    ..Default::default()
                },
                addresses: vec!["10.0.0.1".into()],
                target_ref: Some(target),
                node_name: node.map(String::from),
                zone: zone.map(String::from),
                extra: Map::new(),
            }
        };
        let (n1, z1) = (Some("node-1"), Some("zone-1"));
        let conditions = |serving: Option<bool>, terminating: Option<bool>| {
            let mut e = ep(true, n1, z1, "pod0", "");
            e.conditions.serving = serving;
            e.conditions.terminating = terminating;
            e
        };
        let cases = [
            (
                "No change",
                ep(true, n1, None, "pod0", ""),
                ep(true, n1, None, "pod0", ""),
                true,
            ),
            (
                "NodeName changed",
                ep(true, n1, None, "pod0", ""),
                ep(true, Some("node-2"), None, "pod0", ""),
                false,
            ),
            (
                "Zone changed",
                ep(true, None, z1, "pod0", ""),
                ep(true, None, Some("zone-2"), "pod0", ""),
                false,
            ),
            (
                "Ready condition changed",
                ep(true, n1, z1, "pod0", ""),
                ep(false, n1, z1, "pod0", ""),
                false,
            ),
            (
                "Serving condition changed from nil to true",
                conditions(None, None),
                conditions(Some(true), Some(false)),
                false,
            ),
            (
                "Serving condition changed from false to true",
                conditions(Some(false), Some(false)),
                conditions(Some(true), Some(false)),
                false,
            ),
            (
                "Pod name changed",
                ep(true, n1, z1, "pod0", ""),
                ep(true, n1, z1, "pod1", ""),
                false,
            ),
            (
                "Pod resourceVersion changed",
                ep(true, n1, z1, "pod0", "1"),
                ep(true, n1, z1, "pod0", "2"),
                true,
            ),
            (
                "Pod resourceVersion removed",
                ep(true, n1, z1, "pod0", "1"),
                ep(true, n1, z1, "pod0", ""),
                true,
            ),
        ];
        for (name, a, b, want) in cases {
            assert_eq!(endpoints_equal_beyond_hash(&a, &b), want, "{name}");
        }
    }
}
