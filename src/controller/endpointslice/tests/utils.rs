//! utils_test.go and util/controller_utils_test.go (k8s.io/endpointslice v0.36.3).

use super::*;

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
    let sidecar = |name: &str, port: i32| json!([ctr(&[cport(name, port, "TCP")], Some("Always"))]);
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
    let host_port = |number: i32, host: i32| with(cport("a", number, tcp), "hostPort", json!(host));
    let udp_p_q = |q: i32| second(&[cport("", 11, udp), cport("p", 22, tcp), cport("q", q, tcp)]);
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
