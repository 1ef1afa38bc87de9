//! Issue 48: a load on a Service during a rollout. kube-proxy routes by what it has seen of the
//! EndpointSlices, `endpointDelayMs` late; the requests sent to a pod that stopped serving, or
//! sent while no endpoint is left, fail. Counted per instant, the same on every run.

use rollout_playground::cluster::trace::{TraceStep, TrafficView};
use rollout_playground::scenario::Scenario;
use rollout_playground::scenario::summary::rollouts;

/// Service `web` in front of the pods labelled `app: web`, at their port named `http`.
const SERVICE: &str = "  - |
    apiVersion: v1
    kind: Service
    metadata: {name: web}
    spec:
      selector: {app: web}
      ports: [{port: 80, targetPort: http}]
";

/// A Deployment of `replicas` behind Service `web`, 200 rps on it, and a new image at 10 s.
fn scenario(replicas: u32, strategy: &str, lifecycle: &str) -> String {
    format!(
        "name: load
world: {{traffic: [{{service: web, rps: 200}}], endpointDelayMs: 1000}}
objects:
  - |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {{name: web}}
    spec:
      replicas: {replicas}
      {strategy}
      selector: {{matchLabels: {{app: web}}}}
      template:
        metadata: {{labels: {{app: web}}}}
        spec:
          containers: [{{name: web, image: 'nginx:1.14', ports: [{{containerPort: 80, name: http}}]{lifecycle}}}]
{SERVICE}steps:
  - at: 10s
    run: kubectl set image deployment/web web=nginx:1.16
until: 40s
"
    )
}

fn run(text: &str) -> Vec<TraceStep> {
    Scenario::parse(text).unwrap().run().unwrap()
}

fn last(trace: &[TraceStep]) -> TrafficView {
    trace
        .last()
        .unwrap()
        .traffic
        .expect("a run with a load counts it")
}

/// Every instant at which the count of failed requests grew.
fn failing_instants(trace: &[TraceStep]) -> Vec<u64> {
    let mut before = 0;
    let mut out = vec![];
    for s in trace {
        let now = s.traffic.map_or(0, |t| t.failed);
        if now > before {
            out.push(s.t);
        }
        before = now;
    }
    out
}

/// The instants old pods' deletions began (`Killing` events).
fn kills(trace: &[TraceStep]) -> Vec<u64> {
    trace
        .iter()
        .filter(|s| s.events.iter().any(|e| e.reason == "Killing"))
        .map(|s| s.t)
        .collect()
}

#[test]
fn a_rolling_update_under_load_fails_requests_only_in_the_windows_after_old_pods_stop() {
    let trace = run(&scenario(10, "", ""));
    let t = last(&trace);
    assert!(t.failed > 0, "{t:?}");
    assert_eq!(
        t.failed_no_endpoint, 0,
        "ready pods were always left: {t:?}"
    );
    assert!(t.served > 2_000, "{t:?}");
    // A failure is seen by the step that ends it: within the delay plus the app's exit (1 s)
    // after an old pod's deletion began, never before the first.
    let kills = kills(&trace);
    assert!(!kills.is_empty());
    for at in failing_instants(&trace) {
        assert!(
            kills.iter().any(|k| (*k..=k + 2_000).contains(&at)),
            "a failure at {at} ms, deletions began at {kills:?}"
        );
    }
    let r = rollouts(&trace);
    let f = r[0].failed_requests.as_ref().unwrap();
    assert_eq!((f.count, f.stopped), (t.failed, t.failed_stopped));
    assert!(f.from_ms >= 10_000 && f.to_ms > f.from_ms, "{f:?}");
}

#[test]
fn a_pre_stop_sleep_of_five_seconds_ends_the_failures() {
    let trace = run(&scenario(
        10,
        "",
        ", lifecycle: {preStop: {sleep: {seconds: 5}}}",
    ));
    let t = last(&trace);
    assert_eq!(t.failed, 0, "{t:?}");
    assert!(t.served > 2_000, "{t:?}");
    let summary = rollout_playground::scenario::summary::render(&rollouts(&trace));
    assert!(summary.contains("  failed requests: 0\n"), "{summary}");
}

#[test]
fn max_surge_zero_with_one_replica_leaves_no_endpoint() {
    let trace = run(&scenario(
        1,
        "strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}",
        "",
    ));
    let t = last(&trace);
    assert!(t.failed_no_endpoint > 0, "{t:?}");
    // The old pod was gone before the new one was Ready and seen: 2 s start, 1 s ready, 1 s
    // for kube-proxy, less the second kube-proxy still routed to the old pod.
    assert_eq!(t.failed_no_endpoint, 400, "{t:?}");
    let summary = rollout_playground::scenario::summary::render(&rollouts(&trace));
    assert!(
        summary.contains("failed requests: 800 (t = 10.0 s to 14.0 s: 400 sent to pods that had stopped serving, 400 no ready endpoint)"),
        "{summary}"
    );
}

#[test]
fn the_same_load_gives_the_same_counts_on_every_run() {
    let text = scenario(10, "", "");
    let a: Vec<Option<TrafficView>> = run(&text).iter().map(|s| s.traffic).collect();
    let b: Vec<Option<TrafficView>> = run(&text).iter().map(|s| s.traffic).collect();
    assert_eq!(a, b);
}

#[test]
fn a_load_the_world_cannot_carry_is_refused_naming_the_field() {
    let ok = scenario(3, "", "");
    let cases = [
        (
            ok.replace("rps: 200", "rps: -5"),
            "world.traffic[0].rps: invalid value: integer `-5`, expected u32",
        ),
        (
            ok.replace("service: web,", "service: api,"),
            "world.traffic[0].service: no Service \"api\" among the scenario's objects",
        ),
        (
            ok.replace(
                "selector: {app: web}\n      ports",
                "selector: {app: api}\n      ports",
            ),
            "world.traffic[0].service: Service \"web\" selects no pod of the scenario's objects (selector app=api)",
        ),
        (
            ok.replace("targetPort: http", "targetPort: web"),
            "world.traffic[0].service: Service \"web\"'s spec.ports[0].targetPort \"web\" names no TCP container port of the pods it selects",
        ),
        (
            ok.replace("rps: 200}", "rps: 200, burst: 3}"),
            "world.traffic[0]: unknown field `burst`, expected `service` or `rps`",
        ),
    ];
    for (text, want) in cases {
        let err = Scenario::parse(&text)
            .and_then(|s| s.start().map(drop))
            .expect_err(want)
            .to_string();
        assert!(err.contains(want), "{err}\nwanted {want}");
    }
}

/// The EndpointSlice controller reconciles only the pods with an event since its last sync
/// when its own slices list every other pod (`reconcile_changes`); in a debug build (as tests
/// run) each such sync is checked against a reconcile of every pod, and a difference panics.
/// This run puts it through what can change a Service's endpoints: pods created, started,
/// Ready, deleted and replaced, pods relabelled, a Node lost and back (a Node's change makes
/// the next sync read every pod), a scale to zero and back, the Service's selector patched to
/// select none of the pods left, and the Service deleted.
#[test]
fn a_sync_of_the_changed_pods_writes_what_a_sync_of_every_pod_writes() {
    let nodes: String = (1..=3)
        .map(|i| {
            format!(
                "  - |\n    apiVersion: v1\n    kind: Node\n    metadata: {{name: node-{i}, labels: {{topology.kubernetes.io/zone: z{i}}}}}\n    status: {{allocatable: {{cpu: '4', memory: 16Gi, pods: '110'}}}}\n"
            )
        })
        .collect();
    let text = format!(
        "name: churn
world: {{traffic: [{{service: web, rps: 100}}]}}
objects:
{nodes}  - |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {{name: web}}
    spec:
      replicas: 6
      selector: {{matchLabels: {{app: web}}}}
      template:
        metadata: {{labels: {{app: web, tier: a}}}}
        spec:
          containers: [{{name: web, image: 'nginx:1.14', ports: [{{containerPort: 80, name: http}}]}}]
{SERVICE}steps:
  - at: 10s
    run: kubectl set image deployment/web web=nginx:1.16
  - at: 30s
    run: kubectl label pods -l app=web tier=b --overwrite
  - at: 32s
    world: {{nodesDown: [node-2]}}
  - at: 100s
    world: {{nodesDown: []}}
  - at: 110s
    run: kubectl scale deployment/web --replicas=0
  - at: 120s
    run: kubectl scale deployment/web --replicas=4
  - at: 130s
    run: kubectl patch service web -p '{{\"spec\":{{\"selector\":{{\"app\":\"web\",\"tier\":\"b\"}}}}}}'
  - at: 140s
    run: kubectl delete service web
until: 150s
"
    );
    let trace = run(&text);
    for s in &trace {
        if let Some(a) = s.action() {
            assert!(a.errors.is_empty(), "at {} ms: {a:?}", s.t);
        }
    }
    let writes = |verb: &str| {
        trace
            .iter()
            .flat_map(|s| s.changes())
            .filter(|l| l.starts_with(&format!("endpointslice-controller: {verb}")))
            .count()
    };
    assert!(writes("created") > 0 && writes("updated") > 5, "{trace:#?}");
}
