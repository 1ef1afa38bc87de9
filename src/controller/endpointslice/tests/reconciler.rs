//! reconciler_test.go (k8s.io/endpointslice v0.36.3).

use super::*;

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
        let got = [found("to-create"), found("to-update"), found("to-delete")].map(|s| s.is_some());
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
