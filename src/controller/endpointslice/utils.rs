//! utils.go, util/controller_utils.go and util/endpointset.go of k8s.io/endpointslice
//! v0.36.3 (see the parent module): what a pod's endpoint says, its ports, and the slices'
//! names, labels and owners.

use super::*;
use crate::api::service::{
    ENDPOINTSLICE_CONTROLLER, Endpoint, EndpointConditions, EndpointPort, EndpointSlice,
    MANAGED_BY_LABEL, SERVICE_NAME_LABEL, Service, ServicePort,
};
use crate::api::sort::sort_by;
use crate::api::validation::is_dns1123_subdomain;
use crate::api::{
    IntOrString, Labels, Map, Node, ObjectMeta, OwnerReference, Pod, PodSpec, Shared, Str, Value,
    str_field,
};

/// What identifies an endpoint across syncs (`endpointHashObj`, util/endpointset.go l.29–34):
/// its target's namespace and name, its sorted addresses and its hostname. The fields are in
/// this order so that the set hands endpoints out by pod namespace, then name. The addresses
/// are kept joined by `,` (no address has one): equal lists give equal keys, and a key is a
/// few inline [`Str`]s, built and compared without touching the heap, since a sync keys
/// every endpoint of the Service twice.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct EndpointKey {
    namespace: Str,
    name: Str,
    addresses: Str,
    hostname: Str,
}

/// `EndpointSet` (util/endpointset.go l.51): desired endpoints by identity, in key order, so
/// that its `PopAny` is the first left. A sorted list, built once per sync and then only
/// taken from (as the reconciler uses it), rather than a map.
#[derive(Debug, Default)]
pub(super) struct EndpointSet {
    entries: Vec<(EndpointKey, Option<Endpoint>)>,
    /// Entries before this one are all taken.
    first: usize,
    left: usize,
}

impl EndpointSet {
    /// The set of these endpoints; of two with one key the later is kept (as a map's insert).
    pub(super) fn new(mut endpoints: Vec<Endpoint>) -> EndpointSet {
        endpoints.reverse();
        let mut entries: Vec<(EndpointKey, Option<Endpoint>)> = endpoints
            .into_iter()
            .map(|ep| (hash_endpoint(&ep), Some(ep)))
            .collect();
        // Stable, after the reverse: of equal keys the latest comes first and is kept.
        sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
        entries.dedup_by(|later, kept| later.0 == kept.0);
        let left = entries.len();
        EndpointSet {
            entries,
            first: 0,
            left,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.left
    }

    pub(super) fn is_empty(&self) -> bool {
        self.left == 0
    }

    /// Takes the endpoint with this key out, if it is still in.
    pub(super) fn remove(&mut self, key: &EndpointKey) -> Option<Endpoint> {
        let i = self.entries.binary_search_by(|e| e.0.cmp(key)).ok()?;
        let taken = self.entries[i].1.take();
        self.left -= usize::from(taken.is_some());
        taken
    }

    /// Takes the first endpoint left out (`PopAny`).
    pub(super) fn pop_first(&mut self) -> Option<Endpoint> {
        while let Some((_, ep)) = self.entries.get_mut(self.first) {
            self.first += 1;
            if let Some(ep) = ep.take() {
                self.left -= 1;
                return Some(ep);
            }
        }
        None
    }
}

/// One endpoint port as a comparable value: (name, protocol, port, appProtocol).
pub(super) type PortTuple = (Option<String>, Option<String>, Option<i32>, Option<String>);

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
    sort_by(&mut key, |a, b| a.cmp(b));
    PortMapKey(key)
}

/// `hashEndpoint` (util/endpointset.go l.36–48).
pub(super) fn hash_endpoint(ep: &Endpoint) -> EndpointKey {
    let addresses = match ep.addresses.as_slice() {
        [one] => Str::new(one),
        many => {
            let mut sorted: Vec<&str> = many.iter().map(String::as_str).collect();
            sort_by(&mut sorted, |a, b| a.cmp(b));
            Str::new(&sorted.join(","))
        }
    };
    let target = |k| Str::new(ep.target_ref.as_ref().map_or("", |t| small_field(t, k)));
    EndpointKey {
        namespace: target("namespace"),
        name: target("name"),
        addresses,
        hostname: Str::new(small_field(&ep.extra, "hostname")),
    }
}

/// A string field of a map of a few entries (an ObjectReference, an endpoint's extras),
/// found by walking them: [`str_field`] hashes the key, which costs more than reading four
/// short keys, and this is asked of every endpoint at every sync.
pub(super) fn small_field<'a>(m: &'a Map, k: &str) -> &'a str {
    m.iter()
        .find(|(key, _)| key.as_str() == k)
        .and_then(|(_, v)| v.as_str())
        .unwrap_or("")
}

// ------------------------------------------------------------------ pods to endpoints

/// `ShouldPodBeInEndpoints` (util/controller_utils.go l.180–197): a pod that has finished
/// (Succeeded or Failed) or has no IP yet is left out; one being deleted only when
/// `include_terminating` is false (the reconciler always passes true, reconciler.go l.191).
pub fn should_pod_be_in_endpoints(pod: &Pod, include_terminating: bool) -> bool {
    if pod.is_terminal() {
        return false;
    }
    // (An address the kubelet gave is status.podIP and podIPs both: nothing to read.)
    if pod.ip.is_none() && pod.pod_ip().is_empty() && pod.pod_ips().is_empty() {
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
pub(super) fn ipv4_text(ip: &str) -> Option<String> {
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
pub(super) fn parse_ipv4_sloppy(ip: &str) -> Option<std::net::Ipv4Addr> {
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
pub(super) fn get_endpoint_addresses(pod: &Pod) -> Vec<String> {
    // An address the kubelet gave is a plain dotted quad, as Go would print it back.
    if let Some(ip) = pod.ip {
        return vec![ip.to_string()];
    }
    pod.pod_ips()
        .iter()
        .filter_map(|ip| ipv4_text(ip))
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
pub(super) fn named_port(container: &Map, name: &str, protocol: &str) -> Option<i32> {
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
            if let Some(port) = find_named_port(&pod.spec, name, protocol) {
                return Ok(port);
            }
        }
    }
    Err(format!(
        "no suitable port for manifest: {}",
        pod.metadata.uid
    ))
}

/// The port named `name` with `protocol` among a pod spec's containers, then its restartable
/// (sidecar) init containers (`FindPort`'s search).
pub fn find_named_port(spec: &PodSpec, name: &str, protocol: &str) -> Option<i32> {
    let apps = spec.containers.iter().map(|c| &*c.extra);
    let inits = spec.extra.get("initContainers").and_then(Value::as_array);
    let sidecars = inits
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .filter(|c| str_field(c, "restartPolicy") == "Always");
    apps.chain(sidecars)
        .find_map(|c| named_port(c, name, protocol))
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
pub(super) fn is_service_ip_set(service: &Service) -> bool {
    !matches!(
        service.spec.cluster_ip.as_deref(),
        None | Some("") | Some("None")
    )
}

/// `isReservedLabelKey` (utils.go l.259–266): the labels the controller owns on a slice.
pub(super) fn is_reserved_label_key(key: &str) -> bool {
    key == SERVICE_NAME_LABEL || key == MANAGED_BY_LABEL || key == IS_HEADLESS_SERVICE
}

/// `setEndpointSliceLabels` (utils.go l.215–256): the slice's labels are the Service's, less
/// the reserved ones, plus the headless label (headless Services only), the service name and
/// the managing controller. The flag says whether the non-reserved labels differ from the
/// slice's (a change of the headless label alone is no reason to write).
pub fn set_endpoint_slice_labels(slice: &EndpointSlice, service: &Service) -> (Labels, bool) {
    let unreserved = |l: &Labels| -> Labels {
        let kept = l.iter().filter(|(k, _)| !is_reserved_label_key(k));
        crate::api::sort::map_from(kept.map(|(k, v)| (k.clone(), v.clone())))
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
pub(super) fn get_slice_to_fill(
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
pub(super) fn target_ref_equal(a: &Option<Map>, b: &Option<Map>) -> bool {
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
        // The same fields in the same order (as this controller writes them) are equal at
        // once, without a lookup per field.
        (Some(a), Some(b)) if a.len() == b.len() && a.iter().eq(b.iter()) => true,
        (Some(a), Some(b)) => FIELDS
            .iter()
            .all(|f| small_field(a, f) == small_field(b, f)),
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
