//! The objects traffic goes through: a `v1` Service (a stable address for the pods its selector
//! picks, k8s.io/api `core/v1/types.go`) and a `discovery.k8s.io/v1` EndpointSlice (the
//! endpoints of a Service, with their `ready` / `serving` / `terminating` conditions, as the
//! EndpointSlice controller writes them: `discovery/v1/types.go`).

use super::{IntOrString, Labels, Map, ObjectMeta, codec};
use serde::{Deserialize, Serialize};

/// A `v1` Service.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Service {
    pub metadata: ObjectMeta,
    pub spec: ServiceSpec,
    pub status: Map,
}

codec::top_level!(Service, "Service", "v1", ServiceSpec, Map);

/// The Service types the apiserver takes (`ServiceType`); the playground routes ClusterIP
/// traffic, and keeps the others' fields as written.
pub const SERVICE_TYPES: [&str; 4] = ["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"];

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceSpec {
    #[serde(
        default,
        deserialize_with = "codec::nd",
        skip_serializing_if = "codec::omit"
    )]
    pub ports: Vec<ServicePort>,
    /// The pods whose endpoints the Service gets; none (`None`) means its endpoints are kept
    /// by hand, and the EndpointSlice controller leaves them alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<Labels>,
    #[serde(rename = "clusterIP", skip_serializing_if = "Option::is_none")]
    pub cluster_ip: Option<String>,
    #[serde(rename = "clusterIPs", skip_serializing_if = "Option::is_none")]
    pub cluster_ips: Option<Vec<String>>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_affinity: Option<String>,
    /// Whether a pod's endpoint is listed before it is Ready (`ready` is then always true).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publish_not_ready_addresses: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip_families: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip_family_policy: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internal_traffic_policy: Option<String>,
    #[serde(flatten)]
    pub extra: Map,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServicePort {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    #[serde(default, deserialize_with = "codec::nd")]
    pub port: i32,
    /// A container port's number, or its name (resolved per pod).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_port: Option<IntOrString>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_port: Option<i32>,
    #[serde(flatten)]
    pub extra: Map,
}

impl Service {
    /// The type as the apiserver defaults it (`ClusterIP` when unset).
    pub fn type_name(&self) -> &str {
        self.spec.type_.as_deref().unwrap_or("ClusterIP")
    }

    /// Whether the EndpointSlice controller keeps this Service's endpoints: it has a
    /// selector and is not an `ExternalName` (upstream's `syncService`).
    pub fn managed_endpoints(&self) -> bool {
        self.spec.selector.is_some() && self.type_name() != "ExternalName"
    }

    /// Whether a pod with these labels is one of the Service's (an empty selector picks none,
    /// as `labels.SelectorFromSet` of an empty set does for services).
    pub fn selects(&self, labels: &Labels) -> bool {
        match &self.spec.selector {
            Some(s) if !s.is_empty() => s.iter().all(|(k, v)| labels.get(k) == Some(v)),
            _ => false,
        }
    }

    /// The apiserver's defaults (`SetDefaults_Service`, `SetDefaults_ServicePort` and the
    /// ClusterIP allocator): type ClusterIP, session affinity None, TCP, targetPort = port,
    /// one IPv4 family; `cluster_ip` is the address the allocator would give.
    pub fn set_defaults(&mut self, cluster_ip: impl FnOnce() -> String) {
        let spec = &mut self.spec;
        spec.type_.get_or_insert_with(|| "ClusterIP".into());
        spec.session_affinity.get_or_insert_with(|| "None".into());
        let external = spec.type_.as_deref() == Some("ExternalName");
        if !external {
            spec.internal_traffic_policy
                .get_or_insert_with(|| "Cluster".into());
            if spec.cluster_ip.is_none() {
                spec.cluster_ip = Some(cluster_ip());
            }
            if spec.cluster_ips.is_none() {
                spec.cluster_ips = spec.cluster_ip.clone().map(|ip| vec![ip]);
            }
            let headless = spec.cluster_ip.as_deref() == Some("None");
            spec.ip_family_policy
                .get_or_insert_with(|| "SingleStack".into());
            if !headless || spec.selector.is_some() {
                spec.ip_families.get_or_insert_with(|| vec!["IPv4".into()]);
            }
        }
        for p in &mut spec.ports {
            p.protocol.get_or_insert_with(|| "TCP".into());
            if p.target_port.is_none() {
                p.target_port = Some(IntOrString::Int(p.port));
            }
        }
    }
}

/// The label that names an EndpointSlice's Service, and the one that names who keeps it.
pub const SERVICE_NAME_LABEL: &str = "kubernetes.io/service-name";
pub const MANAGED_BY_LABEL: &str = "endpointslice.kubernetes.io/managed-by";
/// The EndpointSlice controller's name in that label (`ControllerName`).
pub const ENDPOINTSLICE_CONTROLLER: &str = "endpointslice-controller.k8s.io";

/// A `discovery.k8s.io/v1` EndpointSlice. Its fields are at the top level, not under a spec.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndpointSlice {
    #[serde(default = "EndpointSlice::api_version")]
    pub api_version: String,
    #[serde(default = "EndpointSlice::kind")]
    pub kind: String,
    #[serde(default, deserialize_with = "codec::nd")]
    pub metadata: ObjectMeta,
    #[serde(default, deserialize_with = "codec::nd")]
    pub address_type: String,
    #[serde(default, deserialize_with = "codec::nd")]
    pub endpoints: Vec<Endpoint>,
    /// `null` (written as such) when the slice is a placeholder with no ports.
    #[serde(default, deserialize_with = "codec::nd")]
    pub ports: Vec<EndpointPort>,
}

impl EndpointSlice {
    pub const API_VERSION: &str = "discovery.k8s.io/v1";
    pub const KIND: &str = "EndpointSlice";
    fn api_version() -> String {
        Self::API_VERSION.into()
    }
    fn kind() -> String {
        Self::KIND.into()
    }

    /// The Service this slice is of (its `kubernetes.io/service-name` label).
    pub fn service(&self) -> Option<&str> {
        self.metadata
            .labels
            .get(SERVICE_NAME_LABEL)
            .map(String::as_str)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    pub addresses: Vec<String>,
    #[serde(default)]
    pub conditions: EndpointConditions,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_ref: Option<Map>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    #[serde(flatten)]
    pub extra: Map,
}

/// An endpoint's conditions (each a pointer in Go: unset means unknown, read as ready).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndpointConditions {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serving: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminating: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndpointPort {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_protocol: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_service_is_defaulted_as_the_apiserver_defaults_it() {
        let mut s: Service = serde_norway::from_str(
            "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80, targetPort: http}, {name: m, port: 9090}]\n",
        )
        .unwrap();
        s.set_defaults(|| "10.96.0.10".into());
        assert_eq!(s.type_name(), "ClusterIP");
        assert_eq!(s.spec.cluster_ip.as_deref(), Some("10.96.0.10"));
        assert_eq!(s.spec.cluster_ips, Some(vec!["10.96.0.10".to_string()]));
        assert_eq!(s.spec.ports[0].protocol.as_deref(), Some("TCP"));
        assert_eq!(
            s.spec.ports[0].target_port,
            Some(IntOrString::Str("http".into()))
        );
        assert_eq!(s.spec.ports[1].target_port, Some(IntOrString::Int(9090)));
        assert_eq!(s.spec.session_affinity.as_deref(), Some("None"));
        let web: Labels = [("app".to_string(), "web".to_string())].into();
        assert!(s.selects(&web) && s.managed_endpoints());
        assert!(!s.selects(&Labels::new()));
    }

    #[test]
    fn an_endpoint_slice_reads_and_writes_its_top_level_fields() {
        let text = "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: web-abcde\n  labels: {kubernetes.io/service-name: web}\naddressType: IPv4\nendpoints:\n- addresses: [10.244.0.5]\n  conditions: {ready: false, serving: true, terminating: true}\n  nodeName: node-1\nports:\n- {name: '', port: 8080, protocol: TCP}\n";
        let e: EndpointSlice = serde_norway::from_str(text).unwrap();
        assert_eq!(e.service(), Some("web"));
        assert_eq!(
            e.endpoints[0].conditions,
            EndpointConditions {
                ready: Some(false),
                serving: Some(true),
                terminating: Some(true)
            }
        );
        let back = serde_json::to_value(&e).unwrap();
        assert_eq!(back["kind"], "EndpointSlice");
        assert_eq!(back["endpoints"][0]["conditions"]["serving"], true);
        assert_eq!(back["ports"][0]["port"], 8080);
    }
}
