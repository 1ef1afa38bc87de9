//! The EndpointSlice controller's tests: upstream's, with its inputs and what it asserts,
//! and the fixtures they share (upstream's `newPod`, `newServiceAndEndpointMeta`, …).

use super::reconciler::*;
use super::utils::*;
use super::*;
use crate::api::service::{
    ENDPOINTSLICE_CONTROLLER, Endpoint, EndpointConditions, EndpointPort, EndpointSlice,
    MANAGED_BY_LABEL, SERVICE_NAME_LABEL, Service, ServicePort,
};
use crate::api::{
    Container, IntOrString, Labels, Map, Node, ObjectMeta, OwnerReference, Pod, PodCondition,
    Shared, Time, Value,
};
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
        let existing: Vec<&EndpointSlice> = existing.iter().collect();
        let r = reconcile(
            svc,
            pods,
            &existing,
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

mod reconciler;
mod utils;
