//! Issue 48: Services and EndpointSlices are kinds like the others: applied, defaulted and
//! validated as the apiserver does, listed by `kubectl get svc,endpointslices`, described, and
//! deleted.

use rollout_playground::api::yaml::parse_objects;
use rollout_playground::cluster::{Cluster, kubelet::World};
use rollout_playground::kubectl;

const WEB: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: nginx, image: 'nginx:1.25', ports: [{name: http, containerPort: 8080}]}]}\n";

const SVC: &str = "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80, targetPort: http}]\n";

fn cluster() -> Cluster {
    let mut c = Cluster::new(World::default());
    c.create(parse_objects(WEB).unwrap().remove(0)).unwrap();
    c.drain().unwrap();
    c
}

fn run(c: &mut Cluster, line: &str) -> String {
    kubectl::run(c, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn a_service_is_applied_defaulted_listed_described_and_deleted() {
    let mut c = cluster();
    let out = run(&mut c, &format!("kubectl apply -f - <<EOF\n{SVC}EOF"));
    assert_eq!(out, "service/web created");
    let table = run(&mut c, "kubectl get svc");
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        [
            "NAME",
            "TYPE",
            "CLUSTER-IP",
            "EXTERNAL-IP",
            "PORT(S)",
            "AGE"
        ]
    );
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(row[..2], ["web", "ClusterIP"]);
    assert!(
        row[2].starts_with("10.96."),
        "an allocated address: {row:?}"
    );
    assert_eq!(row[3..5], ["<none>", "80/TCP"]);
    let wide = run(&mut c, "kubectl get services -o wide");
    assert!(wide.lines().next().unwrap().ends_with("SELECTOR"), "{wide}");
    assert!(wide.lines().nth(1).unwrap().ends_with("app=web"), "{wide}");
    let d = run(&mut c, "kubectl describe svc web");
    for line in [
        "Name:                     web",
        "Selector:                 app=web",
        "Type:                     ClusterIP",
        "IP Family Policy:         SingleStack",
        "IP Families:              IPv4",
        "Port:                     <unset>  80/TCP",
        "TargetPort:               http/TCP",
        "Session Affinity:         None",
        "Internal Traffic Policy:  Cluster",
        "Events:                   <none>",
    ] {
        assert!(d.lines().any(|l| l == line), "{line:?} in\n{d}");
    }
    assert_eq!(
        run(&mut c, "kubectl delete service web"),
        "service \"web\" deleted from default namespace"
    );
    assert_eq!(
        run(&mut c, "kubectl get svc"),
        "No resources found in default namespace."
    );
}

#[test]
fn a_service_the_apiserver_would_refuse_is_refused_naming_the_field() {
    let cases = [
        (
            SVC.replace("port: 80,", "port: 0,"),
            "spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
        ),
        (
            SVC.replace("targetPort: http", "targetPort: web--http"),
            "spec.ports[0].targetPort: Invalid value: \"web--http\": must not contain consecutive hyphens",
        ),
        (
            SVC.replace(
                "ports: [{port: 80, targetPort: http}]",
                "ports: [{port: 80}, {port: 81}]",
            ),
            "spec.ports[0].name: Required value",
        ),
        (
            SVC.replace("name: web}", "name: 1web}"),
            "metadata.name: Invalid value: \"1web\": a DNS-1035 label",
        ),
        (
            SVC.replace("  ports: [{port: 80, targetPort: http}]\n", ""),
            "spec.ports: Required value",
        ),
        (
            SVC.replace("selector:", "type: Magic\n  selector:"),
            "spec.type: Unsupported value: \"Magic\"",
        ),
    ];
    for (text, want) in cases {
        let mut c = cluster();
        let e = kubectl::run(&mut c, &format!("kubectl apply -f - <<EOF\n{text}EOF"))
            .expect_err(want)
            .to_string();
        assert!(
            e.contains("Service \"") && e.contains(want),
            "{want:?} in {e:?}"
        );
        assert_eq!(
            run(&mut c, "kubectl get svc"),
            "No resources found in default namespace."
        );
    }
}

#[test]
fn an_endpoint_slice_is_a_kind_kubectl_lists_and_describes() {
    let mut c = cluster();
    let slice = "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: web-abcde\n  labels: {kubernetes.io/service-name: web}\naddressType: IPv4\nendpoints:\n- addresses: [10.244.0.5]\n  conditions: {ready: true}\n  nodeName: node-1\nports:\n- {name: '', port: 8080, protocol: TCP}\n";
    let out = run(&mut c, &format!("kubectl apply -f - <<EOF\n{slice}EOF"));
    assert_eq!(out, "endpointslice.discovery.k8s.io/web-abcde created");
    let table = run(&mut c, "kubectl get endpointslices");
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(row[..4], ["web-abcde", "IPv4", "8080", "10.244.0.5"]);
    run(&mut c, &format!("kubectl apply -f - <<EOF\n{SVC}EOF"));
    let d = run(&mut c, "kubectl describe svc web");
    assert!(
        d.lines()
            .any(|l| l == "Endpoints:                10.244.0.5:8080"),
        "{d}"
    );
    let e = run(&mut c, "kubectl describe endpointslice web-abcde");
    assert!(e.contains("AddressType:  IPv4"), "{e}");
    assert!(e.contains("  - Addresses:  10.244.0.5"), "{e}");
    let both = run(&mut c, "kubectl get svc,endpointslices");
    assert!(
        both.contains("service/web") && both.contains("endpointslice.discovery.k8s.io/web-abcde"),
        "{both}"
    );
}
