//! Services and EndpointSlices in kubectl: `kubectl get svc` and `get endpointslices` (the
//! apiserver's tables, `printService` and `printEndpointSlice` in
//! `pkg/printers/internalversion/printers.go`), and `kubectl describe svc` with its Endpoints
//! line and `describe endpointslice` (`describeService`, `formatEndpointSlices` and
//! `describeEndpointSliceV1` in k8s.io/kubectl `pkg/describe/describe.go`).

use super::printer::Describe;
use crate::api::service::{EndpointSlice, Service};
use crate::api::{IntOrString, Kind, Labels, Object};
use crate::cluster::Cluster;
use serde_json::Value;

/// A string field the playground keeps as written (`spec.externalName`, …).
fn extra_str<'a>(svc: &'a Service, key: &str) -> Option<&'a str> {
    svc.spec
        .extra
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// A list of strings kept as written (`spec.externalIPs`, …).
fn extra_list(svc: &Service, key: &str) -> Vec<String> {
    svc.spec
        .extra
        .get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// `labels.FormatLabels`: `k=v,…`, or `<none>`.
fn format_labels(l: Option<&Labels>) -> String {
    l.map_or_else(|| "<none>".into(), crate::api::labels::labels_string)
}

/// `getServiceExternalIP`: the external IPs of a ClusterIP or NodePort Service, the load
/// balancer's of a LoadBalancer (`<pending>` until it has one), an ExternalName's name.
fn external_ip(svc: &Service) -> String {
    let ips = extra_list(svc, "externalIPs");
    match svc.type_name() {
        "ExternalName" => extra_str(svc, "externalName").unwrap_or("<none>").into(),
        "LoadBalancer" => {
            let mut all: Vec<String> = svc
                .status
                .get("loadBalancer")
                .and_then(|lb| lb.get("ingress"))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|i| {
                            i.get("ip")
                                .or_else(|| i.get("hostname"))
                                .and_then(Value::as_str)
                                .map(String::from)
                        })
                        .collect()
                })
                .unwrap_or_default();
            all.extend(ips);
            if all.is_empty() {
                "<pending>".into()
            } else {
                all.join(",")
            }
        }
        _ if ips.is_empty() => "<none>".into(),
        _ => ips.join(","),
    }
}

/// `makePortString`: `port/PROTO` or `port:nodePort/PROTO`, joined by `,`.
fn ports(svc: &Service) -> String {
    if svc.spec.ports.is_empty() {
        return "<none>".into();
    }
    let one = |p: &crate::api::service::ServicePort| {
        let proto = p.protocol.as_deref().unwrap_or("TCP");
        match p.node_port.filter(|n| *n > 0) {
            Some(n) => format!("{}:{n}/{proto}", p.port),
            None => format!("{}/{proto}", p.port),
        }
    };
    svc.spec.ports.iter().map(one).collect::<Vec<_>>().join(",")
}

/// NAME, TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S), AGE.
pub(super) fn row(svc: &Service, age: String) -> Vec<String> {
    let cluster_ip = svc
        .spec
        .cluster_ips
        .as_ref()
        .and_then(|ips| ips.first().cloned())
        .or_else(|| svc.spec.cluster_ip.clone())
        .unwrap_or_else(|| "<none>".into());
    vec![
        svc.metadata.name.to_string(),
        svc.type_name().to_string(),
        cluster_ip,
        external_ip(svc),
        ports(svc),
        age,
    ]
}

/// `-o wide`: SELECTOR.
pub(super) fn wide_cells(svc: &Service) -> Vec<String> {
    vec![format_labels(svc.spec.selector.as_ref())]
}

/// `listWithMoreString`: the first three, `+ N more...`, or `<unset>` for none.
fn first_three(list: Vec<String>) -> String {
    match list.len() {
        0 => "<unset>".into(),
        n if n > 3 => format!("{} + {} more...", list[..3].join(","), n - 3),
        _ => list.join(","),
    }
}

/// NAME, ADDRESSTYPE, PORTS, ENDPOINTS, AGE: the first three ports (a port without a number
/// by its name, or `*`) and addresses, whatever their conditions.
pub(super) fn slice_row(e: &EndpointSlice, age: String) -> Vec<String> {
    let ports = e
        .ports
        .iter()
        .map(|p| match (p.port, &p.name) {
            (Some(n), _) => n.to_string(),
            (None, Some(name)) if !name.is_empty() => name.clone(),
            (None, _) => "*".into(),
        })
        .collect();
    let addresses = e
        .endpoints
        .iter()
        .flat_map(|ep| ep.addresses.iter().cloned())
        .collect();
    vec![
        e.metadata.name.to_string(),
        e.address_type.clone(),
        first_three(ports),
        first_three(addresses),
        age,
    ]
}

/// The Service's EndpointSlices (those labelled with its name), in name order.
fn slices_of<'c>(c: &'c Cluster, svc: &Service) -> Vec<&'c EndpointSlice> {
    c.store
        .list(Kind::EndpointSlice)
        .filter_map(|o| match o {
            Object::EndpointSlice(e)
                if e.metadata.namespace == svc.metadata.namespace
                    && e.service() == Some(&*svc.metadata.name) =>
            {
                Some(&**e)
            }
            _ => None,
        })
        .collect()
}

/// `formatEndpointSlices`: for one Service port (by name), each ready endpoint (a condition
/// left unset reads as ready) as `address:port`, the first three then `+ N more...`;
/// `<none>` when the Service has no slice, empty when none is ready.
fn endpoints_line(slices: &[&EndpointSlice], port_name: &str) -> String {
    if slices.is_empty() {
        return "<none>".into();
    }
    let (mut list, mut count, mut more) = (vec![], 0, false);
    // (As upstream: the list is full once three are in it, whether or not the next endpoint
    // is ready, so three ready and one not read "+ 0 more...".)
    let mut each = |ep: &crate::api::service::Endpoint, port: Option<i32>| {
        if list.len() == 3 {
            more = true;
        }
        if ep.conditions.ready == Some(false) || ep.addresses.is_empty() {
            return;
        }
        if !more {
            list.push(match port {
                Some(n) => format!("{}:{n}", ep.addresses[0]),
                None => ep.addresses[0].clone(),
            });
        }
        count += 1;
    };
    for s in slices {
        if s.ports.is_empty() {
            s.endpoints.iter().for_each(|ep| each(ep, None));
            continue;
        }
        for p in &s.ports {
            if p.name.as_deref().unwrap_or("") == port_name {
                let number = p.port.unwrap_or(0);
                s.endpoints.iter().for_each(|ep| each(ep, Some(number)));
            }
        }
    }
    let out = list.join(",");
    if more {
        format!("{out} + {} more...", count - 3)
    } else {
        out
    }
}

/// `describeService`: its addresses, each port with its target and its ready endpoints,
/// the policies, then its events. (Long: one line after another, in kubectl's order.)
pub(super) fn describe(c: &Cluster, svc: &Service, show_events: bool) -> String {
    let mut w = Describe::default();
    let s = &svc.spec;
    w.w(0, format_args!("Name:\t{}\n", svc.metadata.name));
    w.w(0, format_args!("Namespace:\t{}\n", svc.metadata.namespace));
    w.labels("Labels", &svc.metadata.labels);
    w.annotations("Annotations", &svc.metadata.annotations);
    w.w(
        0,
        format_args!("Selector:\t{}\n", format_labels(s.selector.as_ref())),
    );
    w.w(
        0,
        format_args!("Type:\t{}\n", s.type_.as_deref().unwrap_or("")),
    );
    if let Some(p) = &s.ip_family_policy {
        w.w(0, format_args!("IP Family Policy:\t{p}\n"));
    }
    let joined = |l: Option<&Vec<String>>| match l {
        Some(l) if !l.is_empty() => l.join(","),
        _ => "<none>".into(),
    };
    w.w(
        0,
        format_args!("IP Families:\t{}\n", joined(s.ip_families.as_ref())),
    );
    w.w(
        0,
        format_args!("IP:\t{}\n", s.cluster_ip.as_deref().unwrap_or("")),
    );
    w.w(
        0,
        format_args!("IPs:\t{}\n", joined(s.cluster_ips.as_ref())),
    );
    let external = extra_list(svc, "externalIPs");
    if !external.is_empty() {
        w.w(0, format_args!("External IPs:\t{}\n", external.join(",")));
    }
    if let Some(ip) = extra_str(svc, "loadBalancerIP") {
        w.w(0, format_args!("Desired LoadBalancer IP:\t{ip}\n"));
    }
    if let Some(n) = extra_str(svc, "externalName") {
        w.w(0, format_args!("External Name:\t{n}\n"));
    }
    let slices = slices_of(c, svc);
    for p in &s.ports {
        let name = p.name.as_deref().filter(|n| !n.is_empty());
        let shown = name.unwrap_or("<unset>");
        let proto = p.protocol.as_deref().unwrap_or("");
        w.w(0, format_args!("Port:\t{shown}\t{}/{proto}\n", p.port));
        let target = match &p.target_port {
            Some(IntOrString::Str(n)) => n.clone(),
            Some(IntOrString::Int(n)) => n.to_string(),
            None => "0".into(),
        };
        w.w(0, format_args!("TargetPort:\t{target}/{proto}\n"));
        if let Some(n) = p.node_port.filter(|n| *n != 0) {
            w.w(0, format_args!("NodePort:\t{shown}\t{n}/{proto}\n"));
        }
        let line = endpoints_line(&slices, name.unwrap_or(""));
        w.w(0, format_args!("Endpoints:\t{line}\n"));
    }
    w.w(
        0,
        format_args!(
            "Session Affinity:\t{}\n",
            s.session_affinity.as_deref().unwrap_or("")
        ),
    );
    if let Some(p) = extra_str(svc, "externalTrafficPolicy") {
        w.w(0, format_args!("External Traffic Policy:\t{p}\n"));
    }
    if let Some(p) = &s.internal_traffic_policy {
        w.w(0, format_args!("Internal Traffic Policy:\t{p}\n"));
    }
    if show_events {
        w.events(c, c.events.for_object(Kind::Service, &svc.metadata));
    }
    w.finish()
}

/// `describeEndpointSliceV1`: its ports as a table, then each endpoint's addresses, its
/// `Ready` condition, hostname, pod, node and zone (`<unset>` where there is none).
pub(super) fn describe_slice(c: &Cluster, e: &EndpointSlice, show_events: bool) -> String {
    let mut w = Describe::default();
    w.w(0, format_args!("Name:\t{}\n", e.metadata.name));
    w.w(0, format_args!("Namespace:\t{}\n", e.metadata.namespace));
    w.labels("Labels", &e.metadata.labels);
    w.annotations("Annotations", &e.metadata.annotations);
    w.w(0, format_args!("AddressType:\t{}\n", e.address_type));
    if e.ports.is_empty() {
        w.w(0, "Ports: <unset>\n");
    } else {
        w.w(0, "Ports:\n");
        w.w(1, "Name\tPort\tProtocol\n");
        w.w(1, "----\t----\t--------\n");
        for p in &e.ports {
            let name = p.name.as_deref().filter(|n| !n.is_empty());
            let port = p.port.map_or_else(|| "<unset>".into(), |n| n.to_string());
            let proto = p.protocol.as_deref().unwrap_or("");
            w.w(
                1,
                format_args!("{}\t{port}\t{proto}\n", name.unwrap_or("<unset>")),
            );
        }
    }
    if e.endpoints.is_empty() {
        w.w(0, "Endpoints: <none>\n");
    } else {
        w.w(0, "Endpoints:\n");
        for ep in &e.endpoints {
            let addresses = if ep.addresses.is_empty() {
                "<none>".into()
            } else {
                ep.addresses.join(", ")
            };
            w.w(1, format_args!("- Addresses:\t{addresses}\n"));
            w.w(2, "Conditions:\n");
            let ready = ep
                .conditions
                .ready
                .map_or_else(|| "<unset>".into(), |r| r.to_string());
            w.w(3, format_args!("Ready:\t{ready}\n"));
            let hostname = ep.extra.get("hostname").and_then(Value::as_str);
            w.w(
                2,
                format_args!("Hostname:\t{}\n", hostname.unwrap_or("<unset>")),
            );
            if let Some(r) = &ep.target_ref {
                let field = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("");
                w.w(
                    2,
                    format_args!("TargetRef:\t{}/{}\n", field("kind"), field("name")),
                );
            }
            let node = ep.node_name.as_deref().unwrap_or("<unset>");
            w.w(2, format_args!("NodeName:\t{node}\n"));
            w.w(
                2,
                format_args!("Zone:\t{}\n", ep.zone.as_deref().unwrap_or("<unset>")),
            );
        }
    }
    if show_events {
        w.events(c, c.events.for_object(Kind::EndpointSlice, &e.metadata));
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::service::{Endpoint, EndpointConditions, EndpointPort, ServicePort};

    fn slice(ready: &[bool], port: i32) -> EndpointSlice {
        EndpointSlice {
            address_type: "IPv4".into(),
            endpoints: ready
                .iter()
                .enumerate()
                .map(|(i, r)| Endpoint {
                    addresses: vec![format!("10.244.0.{}", i + 1)],
                    conditions: EndpointConditions {
                        ready: Some(*r),
                        ..Default::default()
                    },
                    ..Default::default()
                })
                .collect(),
            ports: vec![EndpointPort {
                name: Some("port-tcp".into()),
                port: Some(port),
                protocol: Some("TCP".into()),
                app_protocol: None,
            }],
            ..Default::default()
        }
    }

    /// kubectl `pkg/describe/describe_test.go` `TestDescribeService` (kubernetes/kubectl @
    /// dee3483a3): "test1"'s Endpoints line, three ready endpoints on port 9527; "test2"'s,
    /// four ready of five over two slices; no slice at all is `<none>`; slices with no ready
    /// endpoint, an empty value.
    #[test]
    fn test_describe_service_endpoints_line() {
        let one = slice(&[true, true, true], 9527);
        assert_eq!(
            endpoints_line(&[&one], "port-tcp"),
            "10.244.0.1:9527,10.244.0.2:9527,10.244.0.3:9527"
        );
        let a = slice(&[true, true, true], 9527);
        let mut b = slice(&[true, false], 9527);
        b.endpoints[0].addresses = vec!["10.244.0.4".into()];
        b.endpoints[1].addresses = vec!["10.244.0.5".into()];
        assert_eq!(
            endpoints_line(&[&a, &b], "port-tcp"),
            "10.244.0.1:9527,10.244.0.2:9527,10.244.0.3:9527 + 1 more..."
        );
        assert_eq!(endpoints_line(&[], "port-tcp"), "<none>");
        let none_ready = slice(&[false], 9527);
        assert_eq!(endpoints_line(&[&none_ready], "port-tcp"), "");
        // "test-ready-field-empty": an unset ready counts as ready.
        let mut unset = slice(&[true], 9527);
        unset.endpoints[0].conditions.ready = None;
        assert_eq!(endpoints_line(&[&unset], "port-tcp"), "10.244.0.1:9527");
    }

    /// `TestPrintService`'s first case: `test1, ClusterIP, 10.9.8.7, <none>, 2233/tcp`; and
    /// a NodePort's `port:nodePort/PROTO`.
    #[test]
    fn test_print_service() {
        let mut svc = Service::default();
        svc.metadata.name = "test1".into();
        svc.spec.type_ = Some("ClusterIP".into());
        svc.spec.cluster_ips = Some(vec!["10.9.8.7".into()]);
        svc.spec.ports = vec![ServicePort {
            protocol: Some("tcp".into()),
            port: 2233,
            ..Default::default()
        }];
        assert_eq!(
            row(&svc, "<unknown>".into()),
            [
                "test1",
                "ClusterIP",
                "10.9.8.7",
                "<none>",
                "2233/tcp",
                "<unknown>"
            ]
        );
        svc.spec.type_ = Some("NodePort".into());
        svc.spec.ports[0].node_port = Some(30080);
        assert_eq!(row(&svc, String::new())[4], "2233:30080/tcp");
        svc.spec.type_ = Some("LoadBalancer".into());
        assert_eq!(row(&svc, String::new())[3], "<pending>");
        assert_eq!(wide_cells(&svc), ["<none>"]);
    }

    /// `printEndpointSlice`: the first three ports and addresses, `+ N more...`, `<unset>`
    /// for a placeholder slice.
    #[test]
    fn test_print_endpoint_slice() {
        let mut e = slice(&[true, false, true, true], 8080);
        e.metadata.name = "web-abcde".into();
        assert_eq!(
            slice_row(&e, "5s".into()),
            [
                "web-abcde",
                "IPv4",
                "8080",
                "10.244.0.1,10.244.0.2,10.244.0.3 + 1 more...",
                "5s"
            ]
        );
        let placeholder = EndpointSlice {
            address_type: "IPv4".into(),
            ..Default::default()
        };
        assert_eq!(
            slice_row(&placeholder, "1s".into())[2..4],
            ["<unset>", "<unset>"]
        );
    }
}
