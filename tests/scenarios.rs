//! The gallery: every scenario runs, its trace matches the snapshot in tests/snapshots/ (insta:
//! `cargo insta review`, or INSTA_UPDATE=always, accepts an intended change), and two runs are
//! identical.
//! Also the seeds' worked examples, checked step by step.

use rollout_playground::cluster::trace::{Controller, TraceStep, to_jsonl};
use rollout_playground::controller::deployment::Branch;
use rollout_playground::scenario::Scenario;
use rollout_playground::scenario::session::Session;
use std::path::PathBuf;

fn gallery() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    v.sort();
    v
}

fn run(path: &PathBuf) -> Vec<TraceStep> {
    let text = std::fs::read_to_string(path).unwrap();
    Scenario::parse(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .run()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs a scenario of one Deployment `web` (selector and template labels app=web) whose spec
/// also has `spec` (flow-mapping entries: `replicas: 10, minReadySeconds: 5`) and one
/// `container` (a flow mapping), followed by `rest` (steps, until, world).
fn run_web(spec: &str, container: &str, rest: &str) -> Vec<TraceStep> {
    let text = format!(
        "name: web\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: web}}\n    spec: {{{spec}, selector: {{matchLabels: {{app: web}}}}, template: {{metadata: {{labels: {{app: web}}}}, spec: {{containers: [{container}]}}}}}}\n{rest}"
    );
    Scenario::parse(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .run()
        .unwrap()
}

/// The ReplicaSets that "Scaled up/down replica set NAME from a to b" events name, in order,
/// among those whose message starts with `prefix` and ends with `suffix`.
fn scaled<'a>(
    steps: impl IntoIterator<Item = &'a TraceStep>,
    prefix: &str,
    suffix: &str,
) -> Vec<String> {
    steps
        .into_iter()
        .flat_map(|s| &s.events)
        .filter(|e| e.message.ends_with(suffix))
        .filter_map(|e| e.message.strip_prefix(prefix))
        .filter_map(|m| m.split(' ').next().map(String::from))
        .collect()
}

#[test]
fn gallery_traces_match_snapshots_and_are_deterministic() {
    assert!(gallery().len() >= 13, "the gallery has the issue's stories");
    for p in gallery() {
        let a = to_jsonl(&run(&p));
        let b = to_jsonl(&run(&p));
        assert_eq!(a, b, "{}: two runs differ", p.display());
        let name = p.file_stem().unwrap().to_str().unwrap().to_string();
        insta::with_settings!({
            snapshot_path => "snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, a);
        });
    }
}

#[test]
fn no_gallery_command_is_rejected() {
    for p in gallery() {
        for s in run(&p) {
            // A rollout status that reports the rollout failed tells the story; it was not
            // refused.
            let reports = s.command().is_some_and(|c| c.contains("rollout status"))
                && s.errors()
                    .iter()
                    .all(|e| e.contains("exceeded its progress deadline"));
            assert!(
                s.errors().is_empty() || reports,
                "{}: {:?} rejected: {:?}",
                p.display(),
                s.command(),
                s.errors()
            );
            assert!(
                s.error()
                    .is_none_or(|e| e.contains("the object has been modified")),
                "{}: sync error {:?}",
                p.display(),
                s.error()
            );
        }
    }
}

fn sizes(s: &TraceStep) -> Vec<(i32, i64)> {
    s.replica_sets
        .iter()
        .map(|r| (r.replicas, r.revision))
        .collect()
}

/// Seed 000: 10 replicas, maxSurge 3, maxUnavailable 2. The sync after `set image` creates the
/// new ReplicaSet at 3 and drops the old one to 8 in the same sync; then the new one grows to 5.
#[test]
fn seed_000_rolling_update_10_replicas_surge_3_unavailable_2() {
    let steps = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/rolling-update-surge3-unavailable2.yaml"
    )));
    let syncs: Vec<&TraceStep> = steps
        .iter()
        .filter(|s| s.controller() == Some(Controller::Deployment) && s.replica_sets.len() == 2)
        .collect();
    assert_eq!(
        sizes(syncs[0]),
        vec![(8, 1), (3, 2)],
        "first rollout sync: old 8, new 3"
    );
    let later: Vec<Vec<(i32, i64)>> = syncs.iter().map(|s| sizes(s)).collect();
    assert!(
        later.contains(&vec![(8, 1), (5, 2)]),
        "then the new ReplicaSet grows to 13 - 8 = 5: {later:?}"
    );
    let last = steps.last().unwrap();
    assert_eq!(sizes(last), vec![(0, 1), (10, 2)]);
    // Never more than replicas + maxSurge desired, never fewer than replicas - maxUnavailable available.
    for s in &steps {
        let desired: i32 = s.replica_sets.iter().map(|r| r.replicas).sum();
        assert!(desired <= 13, "t={} desired {desired}", s.t);
        let available: i32 = s
            .replica_sets
            .iter()
            .map(|r| r.status.available_replicas)
            .sum();
        if s.t > 5000 {
            assert!(available >= 8, "t={} available {available}", s.t);
        }
    }
}

/// Seed 004, experiment 1: Recreate deletes every old pod and waits until none runs before the
/// new ReplicaSet gets any replica.
#[test]
fn seed_004_recreate_waits_for_old_pods() {
    let steps = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/recreate.yaml"
    )));
    for s in &steps {
        if let [old, new] = &s.replica_sets[..]
            && new.replicas > 0
        {
            assert_eq!(
                old.pods.running + old.pods.pending + old.pods.terminating,
                0,
                "t={}: new replicas while old pods exist",
                s.t
            );
        }
    }
    assert_eq!(sizes(steps.last().unwrap()).last().unwrap().0, 10);
}

/// Seed 004, experiment 2: 25%/25% of 10 → first round creates 3 and terminates 2.
#[test]
fn seed_004_rolling_update_25_percent() {
    let steps = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/rolling-update.yaml"
    )));
    let first = steps
        .iter()
        .find(|s| s.controller() == Some(Controller::Deployment) && s.replica_sets.len() == 2)
        .unwrap();
    assert_eq!(sizes(first), vec![(8, 1), (3, 2)]);
    assert!(
        first
            .explain()
            .iter()
            .any(|e| e.text.contains("maxSurge = ceil(25% × 10) = 3")),
        "{:?}",
        first.explain()
    );
}

/// kubernetes.io proportional scaling: 10 → 15 while stuck at old 8 / new 5 gives old 11, new 7.
#[test]
fn proportional_scaling_kubernetes_io_example() {
    let steps = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/proportional-scaling.yaml"
    )));
    let scale = steps
        .iter()
        .find(|s| s.branch() == Some(Branch::Scale))
        .expect("a scale sync");
    assert_eq!(
        sizes(scale).iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![11, 7]
    );
}

#[test]
fn progress_deadline_is_exceeded_on_the_virtual_clock() {
    let steps = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/progress-deadline-exceeded.yaml"
    )));
    let d = steps.last().unwrap().deployment.as_ref().unwrap();
    assert!(
        d.conditions.iter().any(|c| c.type_ == "Progressing"
            && c.status == "False"
            && c.reason == "ProgressDeadlineExceeded"),
        "{:?}",
        d.conditions
    );
}

#[test]
fn orphan_delete_keeps_replica_sets_and_foreground_removes_them() {
    let orphan = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/delete-orphan.yaml"
    )));
    let last = orphan.last().unwrap();
    assert!(last.deployment.is_none());
    assert!(
        last.replica_sets
            .iter()
            .any(|r| r.replicas > 0 && r.pods.running > 0)
    );
    let fg = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/delete-foreground.yaml"
    )));
    let last = fg.last().unwrap();
    assert!(
        last.deployment.is_none() && last.replica_sets.is_empty(),
        "{last:?}"
    );
    assert!(
        fg.iter().any(|s| s.branch() == Some(Branch::Delete)),
        "the delete branch fired while the Deployment waited for its dependents"
    );
}

#[test]
fn revision_history_limit_prunes_old_replica_sets() {
    let steps = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/revision-history-limit.yaml"
    )));
    let last = steps.last().unwrap();
    assert_eq!(
        last.replica_sets.len(),
        3,
        "current + revisionHistoryLimit 2: {:?}",
        sizes(last)
    );
}

/// Today's kubectl rolls back on the client: the controller sees a template change (the
/// rollout branch) and reuses the old ReplicaSet under a new revision. The deprecated
/// annotation still takes the controller's rollback branch.
#[test]
fn rollbacks_restore_old_templates() {
    let steps = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/rollback-to-revision.yaml"
    )));
    assert!(!steps.iter().any(|s| s.branch() == Some(Branch::Rollback)));
    let last = steps.last().unwrap();
    let active: Vec<_> = last
        .replica_sets
        .iter()
        .filter(|r| r.replicas > 0)
        .collect();
    assert_eq!(
        (
            active.len(),
            active[0].revision,
            active[0].images.as_slice()
        ),
        (1, 5, ["nginx:1.14.2".to_string()].as_slice()),
        "revision 1's ReplicaSet, renumbered"
    );
    let both = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/rollback-then-and-now.yaml"
    )));
    assert!(both.iter().any(|s| s.branch() == Some(Branch::Rollback)));
    assert!(
        both.iter()
            .flat_map(|s| &s.events)
            .any(|e| e.reason == "DeploymentRollback" && e.message.contains("to revision 2"))
    );
    let prev = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/rollback-previous.yaml"
    )));
    let last = prev.last().unwrap();
    let active: Vec<_> = last
        .replica_sets
        .iter()
        .filter(|r| r.replicas > 0)
        .collect();
    assert_eq!(active.len(), 1);
    assert!(
        !active[0]
            .images
            .iter()
            .any(|i| i.contains("sometag") || i.contains("1.161")),
        "{:?}",
        active[0].images
    );
}

#[test]
fn adoption_of_an_orphaned_replica_set() {
    let steps = run(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/adopt-orphan-replicaset.yaml"
    )));
    assert!(
        steps
            .iter()
            .flat_map(|s| s.explain())
            .any(|e| e.text.starts_with("adopting orphan ReplicaSet"))
    );
}

/// The page's frame-timing scenario: 300 replicas scaled from the gallery's rolling update, then
/// a new image. Ranking 300 pods for scale-down once hit the standard library's total-order
/// check (upstream's ranking is not a strict weak order); it must simply complete.
#[test]
fn three_hundred_pod_rolling_update_completes() {
    use rollout_playground::scenario::session::{Outcome, Session};
    let text = std::fs::read_to_string("scenarios/rolling-update.yaml").unwrap();
    let mut s =
        Session::new(rollout_playground::scenario::Scenario::parse(&text).unwrap()).unwrap();
    let end = s.len() - 1;
    let Outcome::Applied { .. } = s
        .command(end, "kubectl scale deployment/web --replicas=300")
        .unwrap()
    else {
        panic!("scale changes the world")
    };
    let end = s.len() - 1;
    s.command(end, "kubectl set image deployment/web nginx=nginx:1.17.0")
        .unwrap();
    let last = s.trace.last().unwrap();
    let d = last.deployment.as_ref().unwrap();
    assert_eq!(
        (d.status.updated_replicas, d.status.available_replicas),
        (300, 300)
    );
    assert_eq!(s.frames.last().unwrap().len(), 300);
}

/// RetryGenerateName: a generated name that is taken is generated again (8 names in all), so
/// a create with `generateName` fails only when eight names in a row are taken.
#[test]
fn generate_name_collisions_are_retried_up_to_eight_names() {
    use rollout_playground::api::yaml::parse_objects;
    use rollout_playground::apiserver::store::{ApiError, Store};
    let pod = |name: &str, generate: &str| {
        let text = format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: '{name}', generateName: '{generate}'}}\nspec: {{containers: [{{name: app, image: 'app:1'}}]}}\n"
        );
        parse_objects(&text).unwrap().remove(0)
    };
    // The names the store will generate next, learnt from a copy of it.
    let next_names = |s: &Store, n: usize| -> Vec<String> {
        let mut probe = s.clone();
        (0..n)
            .map(|_| {
                probe
                    .create(pod("", "web-"))
                    .unwrap()
                    .meta()
                    .name
                    .to_string()
            })
            .collect()
    };
    let mut s = Store::new();
    let taken = next_names(&s, 9);
    for name in &taken[..7] {
        s.create(pod(name, "")).unwrap();
    }
    let created = s.create(pod("", "web-")).unwrap();
    assert_eq!(
        created.meta().name,
        taken[7],
        "the eighth name is free and used"
    );

    let mut s = Store::new();
    let taken = next_names(&s, 8);
    for name in &taken {
        s.create(pod(name, "")).unwrap();
    }
    let before = s.pods().count();
    match s.create(pod("", "web-")) {
        Err(ApiError::AlreadyExists { name, .. }) => assert_eq!(name, taken[7]),
        other => panic!("eight taken names must fail the create, got {other:?}"),
    }
    assert_eq!(s.pods().count(), before);
}

/// A pod's events read as a kubelet's do: scheduled, image present, created, started; and
/// stopping its container when deleted.
#[test]
fn a_pod_has_the_kubelets_events_from_start_to_stop() {
    use rollout_playground::api::{Kind, yaml::parse_objects};
    use rollout_playground::apiserver::store::Propagation;
    use rollout_playground::cluster::{Cluster, kubelet::World};
    let mut c = Cluster::new(World::default());
    let web = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: app, image: 'app:1'}]}\n";
    c.create(parse_objects(web).unwrap().remove(0)).unwrap();
    c.drain().unwrap();
    c.advance(10_000).unwrap();
    let meta = c.store.pods().next().unwrap().metadata.clone();
    let pod = meta.name.clone();
    c.apiserver()
        .delete(
            Kind::Pod,
            &format!("default/{pod}"),
            Propagation::Background,
            None,
        )
        .unwrap();
    c.drain().unwrap();
    let seen: Vec<(&str, String)> = c
        .events
        .for_object(Kind::Pod, &meta)
        .iter()
        .map(|e| (e.reason, e.message.clone()))
        .collect();
    let reasons: Vec<&str> = seen.iter().map(|e| e.0).collect();
    assert_eq!(
        reasons,
        ["Scheduled", "Pulled", "Created", "Started", "Killing"]
    );
    assert_eq!(
        seen[1].1,
        "Container image \"app:1\" already present on machine"
    );
    assert_eq!(seen[2].1, "Created container: app");
    assert_eq!(seen[3].1, "Started container app");
    assert_eq!(seen[4].1, "Stopping container app");
}

/// A pod whose image cannot be pulled tells so as a kubelet does, then backs off.
#[test]
fn a_pod_that_cannot_pull_its_image_has_the_kubelets_events() {
    use rollout_playground::api::{Kind, yaml::parse_objects};
    use rollout_playground::cluster::{Cluster, kubelet::World};
    let world = World {
        failing_images: vec!["app:bad".into()],
        ..World::default()
    };
    let mut c = Cluster::new(world);
    let web = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: app, image: 'app:bad'}]}\n";
    c.create(parse_objects(web).unwrap().remove(0)).unwrap();
    c.drain().unwrap();
    c.advance(10_000).unwrap();
    let pod = c.store.pods().next().unwrap().metadata.clone();
    let seen: Vec<String> = c
        .events
        .for_object(Kind::Pod, &pod)
        .iter()
        .map(|e| format!("{} {}", e.reason, e.message))
        .collect();
    assert_eq!(
        seen[1..],
        [
            "Pulling Pulling image \"app:bad\"",
            "Failed Failed to pull image \"app:bad\": not found",
            "Failed Error: ErrImagePull",
            "BackOff Back-off pulling image \"app:bad\"",
            "Failed Error: ImagePullBackOff",
        ]
    );
}

/// A world of the given manifests (YAML documents), created at the current instant, drained.
fn create_all(c: &mut rollout_playground::cluster::Cluster, yaml: &str) {
    for o in rollout_playground::api::yaml::parse_objects(yaml).unwrap() {
        c.create(o).unwrap();
    }
    c.drain().unwrap();
}

/// A pod manifest (a YAML document) named to a node, with labels given as a flow mapping.
fn pod_on_node(name: &str, labels: &str, node: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, labels: {labels}}}\nspec: {{nodeName: {node}, containers: [{{name: app, image: 'app:1'}}]}}\n---\n"
    )
}

/// Which of the pods named in `before` are being deleted or gone.
fn deleted_since(c: &rollout_playground::cluster::Cluster, before: &[String]) -> Vec<String> {
    let live: Vec<String> = c
        .store
        .pods()
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .map(|p| p.metadata.name.to_string())
        .collect();
    before
        .iter()
        .filter(|n| !live.contains(n))
        .cloned()
        .collect()
}

/// `getReplicaSetsWithSameController` finds nothing for a ReplicaSet without an owner, so
/// upstream ranks every one of its pods 0 by co-location: a scale-down then deletes the newest
/// pod, not one of the two that share a node.
#[test]
fn a_replica_set_without_an_owner_ranks_no_pod_by_its_node() {
    use rollout_playground::cluster::{Cluster, kubelet::World};
    use rollout_playground::kubectl;
    let pod = |name: &str, node: &str| pod_on_node(name, "{app: bare}", node);
    let mut c = Cluster::new(World::default());
    create_all(&mut c, &(pod("b", "node-1") + &pod("c", "node-1")));
    c.advance(100_000).unwrap();
    create_all(&mut c, &pod("a", "node-2"));
    create_all(
        &mut c,
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: bare}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: bare}}\n  template:\n    metadata: {labels: {app: bare}}\n    spec: {containers: [{name: app, image: 'app:1'}]}\n",
    );
    let owned = c
        .store
        .pods()
        .filter(|p| p.metadata.controller_ref().is_some())
        .count();
    assert_eq!(owned, 3, "the ReplicaSet adopts the three pods");
    let names = ["a", "b", "c"].map(String::from);
    kubectl::run(&mut c, "kubectl scale rs/bare --replicas=2").unwrap();
    c.drain().unwrap();
    // Ranked by co-location, b or c (two on node-1) would go first; unranked, the newest does.
    assert_eq!(deleted_since(&c, &names), ["a"]);
}

/// `getIndirectlyRelatedPods` gathers the pods each related ReplicaSet's selector matches,
/// whoever controls them: pods of another ReplicaSet that carry the same labels (overlapping
/// selectors) count on their node, so the Deployment's pod on that node goes first.
#[test]
fn related_pods_are_the_ones_the_selectors_match_whoever_controls_them() {
    use rollout_playground::cluster::{Cluster, kubelet::World};
    use rollout_playground::kubectl;
    let mut c = Cluster::new(World::default());
    create_all(
        &mut c,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: app, image: 'app:1'}]}\n",
    );
    c.advance(60_000).unwrap();
    let hash = c
        .store
        .replicasets()
        .next()
        .unwrap()
        .spec
        .selector
        .match_labels["pod-template-hash"]
        .clone();
    let web: Vec<(String, String)> = c
        .store
        .pods()
        .map(|p| (p.metadata.name.to_string(), p.spec.node_name.to_string()))
        .collect();
    assert_eq!(web.len(), 3);
    // A second ReplicaSet, which the Deployment does not select (its own labels differ), whose
    // one pod carries the same labels as the Deployment's; it lands on the next node in turn.
    create_all(
        &mut c,
        &format!(
            "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{name: other, labels: {{app: other}}}}\nspec:\n  replicas: 1\n  selector: {{matchLabels: {{app: web, pod-template-hash: '{hash}'}}}}\n  template:\n    metadata: {{labels: {{app: web, pod-template-hash: '{hash}'}}}}\n    spec: {{containers: [{{name: app, image: 'app:1'}}]}}\n"
        ),
    );
    c.advance(120_000).unwrap();
    let other_node = c
        .store
        .pods()
        .find(|p| !web.iter().any(|(n, _)| *n == p.metadata.name.as_str()))
        .map(|p| p.spec.node_name.to_string())
        .unwrap();
    let crowded = web.iter().find(|(_, node)| *node == other_node).unwrap();
    // Without the other pod every rank is 1 and the first pod by name would go.
    assert_ne!(web[0].0, crowded.0, "the case must tell the two apart");
    kubectl::run(&mut c, "kubectl scale deployment/web --replicas=2").unwrap();
    c.drain().unwrap();
    let names: Vec<String> = web.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(deleted_since(&c, &names), std::slice::from_ref(&crowded.0));
}

/// A pod created with `spec.nodeName` bypasses the scheduler: that node's kubelet runs it (no
/// Scheduled event); named to a node the world does not have, it stays Pending.
#[test]
fn a_pod_named_to_a_node_runs_there_without_the_scheduler() {
    use rollout_playground::api::Kind;
    use rollout_playground::cluster::{Cluster, kubelet::World};
    let pod = |name: &str, node: &str| pod_on_node(name, "{}", node);
    let mut c = Cluster::new(World::default());
    create_all(&mut c, &(pod("here", "node-2") + &pod("nowhere", "node-9")));
    c.advance(60_000).unwrap();
    let here = c.store.pod("default/here").unwrap();
    assert_eq!(
        (
            here.spec.node_name.as_str(),
            here.status.phase.as_str(),
            here.is_ready()
        ),
        ("node-2", "Running", true)
    );
    let reasons: Vec<&str> = c
        .events
        .for_object(Kind::Pod, &here.metadata)
        .iter()
        .map(|e| e.reason)
        .collect();
    assert_eq!(reasons, ["Pulled", "Created", "Started"]);
    let nowhere = c.store.pod("default/nowhere").unwrap();
    assert_eq!(nowhere.status.phase.as_str(), "Pending");
    assert!(c.events.for_object(Kind::Pod, &nowhere.metadata).is_empty());
}

/// Upstream's `cleanupUnhealthyReplicas` refuses a "scale down" that would scale up (an old
/// ReplicaSet whose status still counts more available pods than a scale-down left it), and
/// `reconcileOldReplicaSets` then scales nothing more that sync. Without that guard the old
/// ReplicaSet went 4 → 8 → 3 in one sync.
#[test]
fn cleanup_of_unhealthy_replicas_never_scales_an_old_replica_set_up() {
    let steps = run_web(
        "replicas: 10, strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}",
        r#"{name: nginx, image: "nginx:1.14.2"}"#,
        r#"
steps:
  - {at: 10s, run: kubectl set image deployment/web nginx=nginx:1.16.1}
  - {at: 14s, run: kubectl scale deployment/web --replicas=5}
until: 60s
"#,
    );
    let scaled_up = scaled(&steps, "Scaled up replica set ", "");
    let first = scaled_up
        .first()
        .expect("the first ReplicaSet is scaled up");
    let old_scaled_up = scaled_up.iter().filter(|n| *n == first).count();
    assert_eq!(old_scaled_up, 1, "{scaled_up:?}");
    assert!(
        steps.iter().flat_map(|s| s.explain()).any(|e| e
            .text
            .contains("when cleaning up unhealthy replicas, got invalid request to scale down")),
        "the refusal is explained"
    );
    let d = steps.last().unwrap().deployment.as_ref().unwrap();
    assert_eq!(
        (
            d.replicas,
            d.status.updated_replicas,
            d.status.available_replicas
        ),
        (5, 5, 5)
    );
}

/// `syncReplicaSet` (1.34+) requeues while ready ≠ available under minReadySeconds, for when
/// the first ready pod will have been ready long enough (`FindMinNextPodAvailabilityCheck`),
/// and `IsPodAvailable` counts it then (PR #132122: at exactly minReadySeconds). Before 1.34 it
/// is available only after more than minReadySeconds: a moment later.
#[test]
fn a_replica_set_counts_a_pod_available_as_soon_as_it_has_been_ready_for_min_ready_seconds() {
    for (release, at) in [("1.36", 8_000), ("1.34", 8_000), ("1.33", 8_001)] {
        let steps = run_web(
            "replicas: 1, minReadySeconds: 5",
            r#"{name: nginx, image: "nginx:1.14.2"}"#,
            &format!("world: {{kubernetes: \"{release}\"}}\nuntil: 20s\n"),
        );
        let available_at = steps
            .iter()
            .find(|s| {
                s.replica_sets
                    .iter()
                    .any(|r| r.status.available_replicas == 1)
            })
            .map(|s| s.t);
        // Ready at 3 s (schedule 1 s, start 2 s), available 5 s later: not at the pod
        // handler's requeue a second after that.
        assert_eq!(available_at, Some(at), "{release}");
    }
}

/// With a pod that never becomes ready, ready never equals spec.replicas: the pre-1.34 requeue
/// (only when every replica was ready) left availableReplicas at 0 for good.
#[test]
fn a_replica_set_with_a_pod_that_never_gets_ready_still_counts_the_others_available() {
    let scenario = r#"
name: min-ready-raised
world: {failingImages: ["broken:*"]}
objects:
  - |
    apiVersion: apps/v1
    kind: ReplicaSet
    metadata: {name: web}
    spec:
      replicas: 3
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: nginx, image: "nginx:1.14.2"}]}
  - |
    apiVersion: v1
    kind: Pod
    metadata: {name: stray, labels: {app: web}}
    spec: {containers: [{name: c, image: "broken:1"}]}
steps:
  - at: 10s
    run: |
      kubectl apply -f -
      apiVersion: apps/v1
      kind: ReplicaSet
      metadata: {name: web}
      spec:
        replicas: 3
        minReadySeconds: 20
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: nginx, image: "nginx:1.14.2"}]}
  - {at: 60s, run: kubectl get rs web -o yaml}
until: 61s
"#;
    let steps = Scenario::parse(scenario).unwrap().run().unwrap();
    assert!(
        steps.iter().all(|s| s.errors().is_empty()),
        "a command was rejected"
    );
    let out = steps.iter().rev().find_map(|s| s.output()).unwrap();
    assert!(
        out.contains("availableReplicas: 2") && out.contains("observedGeneration: 2"),
        "{out}"
    );
}

/// Upstream's `FindNewReplicaSet` sorts the Deployment's ReplicaSets by creation in place, so
/// Recreate scales the old ones down oldest first, whatever their names.
#[test]
fn recreate_scales_old_replica_sets_down_oldest_first() {
    let steps = run_web(
        "replicas: 10",
        r#"{name: nginx, image: "nginx:1.16"}"#,
        r#"
world: {failingImages: ["nginx:broken"]}
steps:
  - {at: 10s, run: kubectl set image deployment/web nginx=nginx:broken}
  - at: 20s
    run: "kubectl patch deployment/web --type=merge -p '{\"spec\":{\"strategy\":{\"type\":\"Recreate\",\"rollingUpdate\":null},\"template\":{\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx:1.16.1\"}]}}}}'"
until: 21s
"#,
    );
    let scaled_up = scaled(&steps, "Scaled up replica set ", "");
    let at_20s = steps.iter().filter(|s| s.t == 20_000);
    let scaled_to_zero = scaled(at_20s, "Scaled down replica set ", " to 0");
    // Created in this order: revision 1, then the broken revision 2.
    assert_eq!(scaled_to_zero, scaled_up[..2].to_vec());
}

/// The garbage collector deletes the dependents of an owner deleted in the foreground in the
/// foreground only when they have dependents of their own (`attemptToDeleteItem`): an old
/// ReplicaSet scaled to 0 is deleted in the background, with no finalizer to wait on.
#[test]
fn a_foreground_delete_removes_an_empty_replica_set_in_the_background() {
    let steps = run_web(
        "replicas: 2",
        r#"{name: app, image: "app:1"}"#,
        r#"
steps:
  - {at: 30s, run: kubectl set image deployment/web app=app:2}
  - {at: 120s, run: kubectl delete deployment web --cascade=foreground}
until: settled
"#,
    );
    let explained: Vec<&str> = steps
        .iter()
        .filter(|s| s.t == 120_000)
        .flat_map(|s| s.explain().iter().map(|e| e.text.as_str()))
        .collect();
    let old = steps
        .iter()
        .find(|s| s.t == 120_000)
        .and_then(|s| s.replica_sets.iter().find(|r| r.replicas == 0))
        .map(|r| format!("ReplicaSet/{}", r.name))
        .expect("an old ReplicaSet at 0");
    assert!(
        explained
            .iter()
            .any(|t| t.starts_with(&format!("delete {old} ")) && t.ends_with("in the background")),
        "{explained:#?}"
    );
    assert!(
        !explained
            .iter()
            .any(|t| t.contains(&format!("finalizer of {old}"))),
        "{explained:#?}"
    );
    let last = steps.last().unwrap();
    assert!(last.deployment.is_none() && last.replica_sets.is_empty());
}

/// Creates the one object of `yaml` without running the controllers yet; returns its uid.
fn create_one(c: &mut rollout_playground::cluster::Cluster, yaml: &str) -> String {
    let obj = rollout_playground::api::yaml::parse_objects(yaml)
        .unwrap()
        .remove(0);
    c.create(obj).unwrap().meta().uid.to_string()
}

/// An owner reference to `kind`/`name` with `uid`, not the controller one.
fn plain_owner_ref(kind: &str, name: &str, uid: &str) -> String {
    let api = if kind == "Deployment" || kind == "ReplicaSet" {
        "apps/v1"
    } else {
        "v1"
    };
    format!("{{apiVersion: {api}, kind: {kind}, name: {name}, uid: {uid}, controller: false}}")
}

/// The one reference to `uid` in `refs` must be the controller reference.
fn assert_adopted_once(refs: &[rollout_playground::api::OwnerReference], uid: &str) {
    let to_owner: Vec<_> = refs.iter().filter(|r| r.uid == uid).collect();
    assert_eq!(to_owner.len(), 1, "one reference to the owner: {refs:?}");
    assert_eq!(
        (to_owner[0].controller, to_owner[0].block_owner_deletion),
        (Some(true), Some(true)),
        "{refs:?}"
    );
}

/// TestAdoption (test/integration/replicaset): a pod that already refers to the ReplicaSet
/// selecting it, but not as its controller, is adopted by upstream's strategic-merge patch,
/// which merges ownerReferences on uid: the reference becomes the controller one, and the
/// ReplicaSet creates no other pod.
#[test]
fn test_adoption_merges_a_pods_owner_reference_by_uid() {
    use rollout_playground::cluster::{Cluster, kubelet::World};
    let mut c = Cluster::new(World::default());
    let rs = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec: {replicas: 1, selector: {matchLabels: {app: a}}, template: {metadata: {labels: {app: a}}, spec: {containers: [{name: app, image: 'app:1'}]}}}\n";
    let uid = create_one(&mut c, rs);
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, labels: {{app: a}}, ownerReferences: [{}]}}\nspec: {{containers: [{{name: app, image: 'app:1'}}]}}\n",
        plain_owner_ref("ReplicaSet", "rs", &uid)
    );
    create_all(&mut c, &pod);
    let p = c.store.pod("default/p").unwrap();
    assert_adopted_once(&p.metadata.owner_references, &uid);
    assert_eq!(c.store.pods().count(), 1, "the adopted pod is the replica");
}

/// TestGeneralReplicaSetAdoption (test/integration/deployment): a ReplicaSet that refers to
/// the Deployment selecting it, but not as its controller, is adopted with one reference to it.
#[test]
fn test_general_replica_set_adoption_merges_the_owner_reference_by_uid() {
    use rollout_playground::cluster::{Cluster, kubelet::World};
    let mut c = Cluster::new(World::default());
    let d = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: app, image: 'app:1'}]}}}\n";
    let uid = create_one(&mut c, d);
    let rs = format!(
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{name: web-old, labels: {{app: web}}, ownerReferences: [{}]}}\nspec: {{replicas: 0, selector: {{matchLabels: {{app: web}}}}, template: {{metadata: {{labels: {{app: web}}}}, spec: {{containers: [{{name: app, image: 'app:0'}}]}}}}}}\n",
        plain_owner_ref("Deployment", "web", &uid)
    );
    create_all(&mut c, &rs);
    let rs = c.store.replicaset("default/web-old").unwrap();
    assert_adopted_once(&rs.metadata.owner_references, &uid);
}

/// TestRSSelectorImmutability (test/integration/replicaset): in apps/v1 an update that changes
/// a ReplicaSet's selector is refused with the apiserver's `field is immutable` at
/// `spec.selector`, and nothing is stored.
#[test]
fn test_rs_selector_immutability() {
    use rollout_playground::api::Object;
    use rollout_playground::cluster::{Cluster, kubelet::World};
    let mut c = Cluster::new(World::default());
    create_all(
        &mut c,
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec: {replicas: 0, selector: {matchLabels: {app: a}}, template: {metadata: {labels: {app: a, v: '2'}}, spec: {containers: [{name: app, image: 'app:1'}]}}}\n",
    );
    let before = c.store.replicaset("default/rs").unwrap().clone();
    let mut changed = before.clone();
    changed
        .spec
        .selector
        .match_labels
        .insert("v".into(), "2".into());
    let err = c
        .apiserver()
        .update(Object::ReplicaSet(Box::new(changed)))
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "ReplicaSet.apps \"rs\" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"a\", \"v\":\"2\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable"
    );
    assert_eq!(c.store.replicaset("default/rs"), Some(&before));
}

/// The garbage collector's `attemptToDeleteItem`: an object with an owner that exists and one
/// that is gone keeps living, and the reference to the gone owner is patched away (upstream's
/// `GenerateDeleteOwnerRefStrategicMergeBytes`); it used to stay forever.
#[test]
fn attempt_to_delete_item_removes_dangling_owner_references() {
    use rollout_playground::cluster::{Cluster, kubelet::World};
    let mut c = Cluster::new(World::default());
    let rs = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: keeper}\nspec: {replicas: 0, selector: {matchLabels: {app: k}}, template: {metadata: {labels: {app: k}}, spec: {containers: [{name: app, image: 'app:1'}]}}}\n";
    let uid = create_one(&mut c, rs);
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, labels: {{app: other}}, ownerReferences: [{}, {}]}}\nspec: {{containers: [{{name: app, image: 'app:1'}}]}}\n",
        plain_owner_ref("ReplicaSet", "keeper", &uid),
        plain_owner_ref("ReplicaSet", "gone", "00000000-0000-4000-8000-000000000000")
    );
    create_all(&mut c, &pod);
    let p = c.store.pod("default/p").expect("the pod keeps living");
    let owners: Vec<&str> = p
        .metadata
        .owner_references
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(owners, ["keeper"]);
    // With no owner left at all, it is deleted.
    let orphaned = format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: q, ownerReferences: [{}]}}\nspec: {{containers: [{{name: app, image: 'app:1'}}]}}\n",
        plain_owner_ref("ReplicaSet", "gone", "00000000-0000-4000-8000-000000000000")
    );
    create_all(&mut c, &orphaned);
    assert!(
        c.store
            .pod("default/q")
            .is_none_or(|q| q.metadata.deletion_timestamp.is_some())
    );
}

/// A step's `world:` takes effect from its instant: a rollout stuck on an image the registry
/// does not have completes once the image is there, at the kubelet's next pull (its back-off
/// after the failed ones), with the kubelet's Pulling and Pulled events.
#[test]
fn an_image_fixed_mid_rollout_lets_a_stuck_rollout_complete() {
    let steps = run_web(
        "replicas: 3",
        r#"{name: app, image: "app:1"}"#,
        r#"world: {failingImages: ["app:2"]}
steps:
  - {at: 10s, run: kubectl set image deployment/web app=app:2}
  - {at: 60s, world: {failingImages: []}, caption: The registry has app:2 now.}
until: settled
"#,
    );
    let updated_at = |t: u64| {
        steps
            .iter()
            .rev()
            .find(|s| s.t <= t && s.deployment.is_some())
            .and_then(|s| s.deployment.as_ref())
            .map(|d| (d.status.updated_replicas, d.status.available_replicas))
    };
    let stuck = updated_at(59_000).unwrap();
    assert!(stuck.0 >= 1 && stuck.1 <= 3, "{stuck:?}");
    let fixed = steps
        .iter()
        .find(|s| s.t == 60_000 && s.kind() == rollout_playground::cluster::trace::StepKind::Action)
        .unwrap();
    assert_eq!(fixed.changes(), [r#"world: {"failingImages":[]}"#]);
    let last = steps.last().unwrap().deployment.as_ref().unwrap();
    assert_eq!(
        (
            last.status.updated_replicas,
            last.status.available_replicas,
            last.status.replicas
        ),
        (3, 3, 3),
        "the rollout completed"
    );
    let pulled = steps
        .iter()
        .filter(|s| s.t > 60_000)
        .flat_map(|s| &s.events)
        .any(|e| {
            e.reason == "Pulled" && e.message.starts_with("Successfully pulled image \"app:2\"")
        });
    assert!(pulled, "the kubelet pulled the image on its next try");
}

/// A step may be only a world change, and one with a field the world does not have is refused.
#[test]
fn a_world_step_is_read_and_its_unknown_fields_refused() {
    let s = Scenario::parse("name: w\nsteps:\n  - {at: 5s, world: {readyMs: 3000}}\n").unwrap();
    assert_eq!(
        s.steps[0].world.as_ref().and_then(|w| w.ready_ms),
        Some(3000)
    );
    assert_eq!(
        Scenario::parse(&s.to_yaml()).unwrap(),
        s,
        "kept by share links"
    );
    let e = Scenario::parse("name: w\nsteps:\n  - {at: 5s, world: {readyMS: 3000}}\n").unwrap_err();
    assert!(
        e.to_string().starts_with("steps[0].world")
            && e.to_string().contains("unknown field `readyMS`"),
        "{e}"
    );
}

/// A container's readiness probe decides when its pod turns Ready: the first probe runs
/// `initialDelaySeconds` after the container starts (2 s after creation here), so the pods are
/// Ready at 7 s and, with `minReadySeconds: 10`, available 10 s later; the pod's conditions and
/// `kubectl describe pod` say so.
#[test]
fn a_readiness_probe_decides_when_pods_turn_ready() {
    let text = r#"
name: probe
objects:
  - |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 2
      minReadySeconds: 10
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers:
            - name: app
              image: app:1
              readinessProbe:
                httpGet: {path: /healthz, port: 8080}
                initialDelaySeconds: 5
                periodSeconds: 10
until: 30s
"#;
    let scenario = Scenario::parse(text).unwrap();
    let trace = scenario.run().unwrap();
    let first = |f: &dyn Fn(&TraceStep) -> bool| trace.iter().find(|s| f(s)).map(|s| s.t);
    let pods = |s: &TraceStep| s.replica_sets.first().map(|r| r.pods.clone());
    assert_eq!(
        first(&|s| pods(s).is_some_and(|p| p.running == 2)),
        Some(2000)
    );
    assert_eq!(
        first(&|s| pods(s).is_some_and(|p| p.ready == 2)),
        Some(7000)
    );
    let available = first(&|s| {
        s.deployment
            .as_ref()
            .is_some_and(|d| d.status.available_replicas == 2)
    });
    assert!(
        available.is_some_and(|t| (17_000..=17_001).contains(&t)),
        "available at {available:?}"
    );

    use rollout_playground::kubectl;
    let mut c = scenario.start().unwrap();
    c.drain().unwrap();
    c.advance(4_000).unwrap();
    let pod = c.store.pods().next().unwrap().metadata.name.to_string();
    let out = kubectl::run(&mut c, &format!("kubectl describe pod {pod}")).unwrap();
    for line in [
        "    Readiness:      http-get http://:8080/healthz delay=5s timeout=1s period=10s #success=1 #failure=3",
        "    Ready:          False",
        "  Ready             False \n",
        // (`IPs:` ends a block of kubectl's tab writer: the lines above align among
        // themselves, the ones below among themselves.)
        "Status:       Running\nIP:           10.2.0.2\nIPs:\n  IP:           10.2.0.2\n",
        "Controlled By:  ReplicaSet/web-",
    ] {
        assert!(out.contains(line), "{line:?} in\n{out}");
    }
    c.advance(8_000).unwrap();
    let out = kubectl::run(&mut c, &format!("kubectl describe pod {pod}")).unwrap();
    assert!(out.contains("    Ready:          True"), "{out}");
    let yaml = kubectl::run(&mut c, &format!("kubectl get pod {pod} -o yaml")).unwrap();
    assert!(yaml.contains("successThreshold: 1"), "defaulted: {yaml}");
}

/// The apiserver's probe checks (`validateProbe`): one handler, numbers not negative, a
/// liveness probe needs a single success.
#[test]
fn a_probe_the_apiserver_would_refuse_is_refused() {
    for (probe, want) in [
        (
            "readinessProbe: {periodSeconds: 5}",
            "spec.template.spec.containers[0].readinessProbe: Required value: must specify a handler type",
        ),
        (
            "readinessProbe: {exec: {command: [true]}, tcpSocket: {port: 80}}",
            "spec.template.spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type",
        ),
        (
            "readinessProbe: {tcpSocket: {port: 80}, initialDelaySeconds: -1}",
            "spec.template.spec.containers[0].readinessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0",
        ),
        (
            "livenessProbe: {tcpSocket: {port: 80}, successThreshold: 2}",
            "spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
        ),
    ] {
        let text = format!(
            "name: p\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: web}}\n    spec:\n      selector: {{matchLabels: {{app: web}}}}\n      template:\n        metadata: {{labels: {{app: web}}}}\n        spec:\n          containers:\n            - name: app\n              image: app:1\n              {probe}\n"
        );
        let err = Scenario::parse(&text)
            .unwrap()
            .run()
            .unwrap_err()
            .to_string();
        assert!(err.contains(want), "{probe}: {err}");
    }
}

/// `kubectl rollout status` watches in virtual time: a line for every change of the
/// Deployment (kubectl's `UntilWithSync` prints on each Added/Modified event) until the
/// rollout is done, the viewer reports an error, the Deployment goes, or `--timeout` passes.
/// Each case: the steps after a rollout to app:2 starts at 10 s, the watch's last line, the
/// error it ended with, and when it ended (None: still waiting when the run stopped).
#[test]
fn rollout_status_watches_until_kubectl_would_return() {
    type Case = (
        &'static str,
        &'static str,
        &'static str,
        Option<&'static str>,
        Option<u64>,
    );
    let cases: &[Case] = &[
        (
            "done",
            "  - {at: 10s, run: kubectl rollout status deployment/web}\n",
            "deployment \"web\" successfully rolled out",
            None,
            Some(16_000),
        ),
        (
            "timeout",
            "  - {at: 10s, run: kubectl rollout status deployment/web --timeout=2s}\n",
            "Waiting for deployment \"web\" rollout to finish: 2 out of 4 new replicas have been updated...",
            Some("error: timed out waiting for the condition"),
            Some(12_000),
        ),
        (
            "deleted",
            "  - {at: 10s, run: kubectl rollout status deployment/web}\n  - {at: 11s, run: kubectl delete deployment/web}\n",
            "Waiting for deployment \"web\" rollout to finish: 2 out of 4 new replicas have been updated...",
            Some("error: object has been deleted"),
            Some(11_000),
        ),
        (
            "revision moved",
            "  - {at: 10s, run: kubectl rollout status deployment/web --revision=2}\n  - {at: 11s, run: kubectl set image deployment/web app=app:3}\n",
            // The template changed (revision still 2), then the controller wrote revision 3.
            "Waiting for deployment spec update to be observed...",
            Some("error: desired revision (2) is different from the running revision (3)"),
            Some(11_000),
        ),
        (
            "paused",
            "  - {at: 10s, run: kubectl rollout pause deployment/web}\n  - {at: 10s, run: kubectl rollout status deployment/web}\n",
            "Waiting for deployment \"web\" rollout to finish: 2 out of 4 new replicas have been updated...",
            None,
            None,
        ),
    ];
    for (name, steps, last, error, end) in cases {
        let trace = run_web(
            "replicas: 4",
            "{name: app, image: 'app:1'}",
            &format!(
                "steps:\n  - {{at: 10s, run: kubectl set image deployment/web app=app:2}}\n{steps}until: 60s\n"
            ),
        );
        let s = trace
            .iter()
            .find(|s| s.command().is_some_and(|c| c.contains("rollout status")))
            .unwrap();
        let out = s.output().unwrap_or_default();
        assert_eq!(out.lines().last(), Some(*last), "{name}: {out}");
        assert_eq!(s.errors().first().map(String::as_str), *error, "{name}");
        let log = s.action().unwrap().watch.as_ref().unwrap();
        assert_eq!(log.end.as_ref().map(|e| e.t), *end, "{name}");
        assert_eq!(out.lines().count(), log.lines.len() + 1, "{name}");
        assert!(
            log.lines.windows(2).all(|w| w[0].t <= w[1].t) && log.lines.iter().all(|l| l.t >= s.t),
            "{name}: {:?}",
            log.lines
        );
    }
}

/// `--watch=false`, and a rollout already done, print one line and leave nothing watching.
#[test]
fn rollout_status_without_watch_prints_one_line() {
    let trace = run_web(
        "replicas: 4",
        "{name: app, image: 'app:1'}",
        "steps:\n  - {at: 10s, run: kubectl set image deployment/web app=app:2}\n  - {at: 10s, run: kubectl rollout status deployment/web --watch=false}\n  - {at: 30s, run: kubectl rollout status deployment/web}\nuntil: 60s\n",
    );
    let outs: Vec<_> = trace
        .iter()
        .filter(|s| s.command().is_some_and(|c| c.contains("rollout status")))
        .map(|s| {
            (
                s.output().unwrap().to_string(),
                s.action().unwrap().watch.is_some(),
            )
        })
        .collect();
    assert_eq!(
        outs,
        [
            (
                "Waiting for deployment \"web\" rollout to finish: 2 out of 4 new replicas have been updated...".to_string(),
                false
            ),
            ("deployment \"web\" successfully rolled out".to_string(), false),
        ]
    );
}

/// Issue 33, the machinery: a new 20-replica Deployment's first ReplicaSet sync creates its
/// pods in slow-start batches 1, 2, 4, 8, 5 and expects 20 creations; the pods' ADDED events
/// (through `addPod`) satisfy the expectations by the next sync; the first Deployment sync ran
/// because of the Deployment's ADDED event, through `addDeployment`.
#[test]
fn the_machinery_why_each_sync_ran_and_the_replica_set_controllers_bookkeeping() {
    use rollout_playground::cluster::trace::Controller;
    let trace = run_web(
        "replicas: 20",
        "{name: app, image: 'app:1'}",
        "until: settled\n",
    );
    let syncs = |c| trace.iter().filter_map(move |s| s.sync_of(c));
    let first_d = syncs(Controller::Deployment).next().unwrap();
    let cause = serde_json::to_value(first_d.cause.as_ref().unwrap()).unwrap();
    assert_eq!(
        cause,
        serde_json::json!({"event": "ADDED", "object": "Deployment default/web", "handler": "addDeployment"})
    );
    // What the work queues held: the key being processed is the sync's own.
    let q = first_d.queues.as_ref().unwrap();
    assert_eq!(q.deployment.processing, ["default/web"]);
    let mut rs = syncs(Controller::ReplicaSet);
    let first = rs.next().unwrap();
    let q = first.queues.as_ref().unwrap();
    assert_eq!(q.replicaset.processing, std::slice::from_ref(&first.key));
    assert_eq!(first.batches, [1, 2, 4, 8, 5]);
    assert_eq!(first.burst_replicas, None);
    let e = first.expectations.unwrap();
    assert_eq!((e.before.add, e.before.satisfied), (0, true));
    assert_eq!(
        (e.after.add, e.after.del, e.after.satisfied),
        (20, 0, false)
    );
    let cause = serde_json::to_value(first.cause.as_ref().unwrap()).unwrap();
    assert_eq!(
        (cause["event"].as_str(), cause["handler"].as_str()),
        (Some("ADDED"), Some("addRS"))
    );
    let next = rs.next().unwrap();
    let e = next.expectations.unwrap();
    assert_eq!(
        (e.before.add, e.before.satisfied),
        (0, true),
        "the ADDED events came in"
    );
    assert!(next.batches.is_empty(), "nothing left to create");
    let cause = serde_json::to_value(next.cause.as_ref().unwrap()).unwrap();
    assert_eq!(
        (cause["event"].as_str(), cause["handler"].as_str()),
        (Some("ADDED"), Some("addPod"))
    );
}

/// Issue 33, the machinery: a scale-down's ReplicaSet sync records the pods it deleted in
/// the order `ActivePodsWithRanks` put them, which is the order of its SuccessfulDelete
/// events, each with the keys that ranked it; `rollout explain` prints them.
#[test]
fn a_scale_down_records_the_pods_it_deleted_with_their_ranking_keys() {
    use rollout_playground::cluster::trace::Controller;
    let trace = run_web(
        "replicas: 6",
        "{name: app, image: 'app:1'}",
        "steps:\n  - at: 60s\n    run: kubectl scale deployment/web --replicas=2\nuntil: settled\n",
    );
    let down: Vec<usize> = (0..trace.len())
        .filter(|&i| {
            trace[i]
                .sync_of(Controller::ReplicaSet)
                .is_some_and(|y| !y.deletions.is_empty())
        })
        .collect();
    assert_eq!(down.len(), 1, "one sync deletes the four pods");
    let s = &trace[down[0]];
    let y = s.sync().unwrap();
    let recorded: Vec<&str> = y.deletions.iter().map(|d| d.pod.as_str()).collect();
    let events: Vec<&str> = s
        .events
        .iter()
        .filter(|e| e.reason == "SuccessfulDelete")
        .filter_map(|e| e.message.strip_prefix("Deleted pod: "))
        .collect();
    assert_eq!(recorded.len(), 4);
    assert_eq!(recorded, events);
    for d in &y.deletions {
        let r = &d.rank;
        assert!(r.assigned && r.ready && r.phase == "Running", "{d:?}");
        assert!(r.ready_since.is_some() && r.created.is_some(), "{d:?}");
    }
    let e = y.expectations.unwrap();
    assert_eq!((e.after.del, e.after.satisfied), (4, false));
    let text = rollout_playground::scenario::table::explain_step(&trace, down[0]);
    assert!(
        text.contains(&format!("  {}: assigned, Running, ready, ", recorded[0])),
        "{text}"
    );
}

/// Issue 35: a readiness probe that starts failing at an instant turns Ready pods NotReady after
/// `failureThreshold` failed probes, one each `periodSeconds` (the kubelet's `Unhealthy` event
/// each time, aggregated), and Ready again `successThreshold` probes after it passes; the
/// ReplicaSet and the Deployment follow. A container without a probe is not asked.
#[test]
fn a_readiness_probe_that_fails_from_an_instant_turns_pods_not_ready_and_back() {
    let text = |probe: &str| {
        format!(
            "name: unready\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: web}}\n    spec:\n      replicas: 3\n      selector: {{matchLabels: {{app: web}}}}\n      template:\n        metadata: {{labels: {{app: web}}}}\n        spec:\n          containers:\n            - name: app\n              image: \"app:1\"\n{probe}steps:\n  - {{at: 20s, world: {{unreadyImages: [\"app:*\"]}}}}\n  - {{at: 60s, world: {{unreadyImages: []}}}}\nuntil: settled\n"
        )
    };
    let probe = "              readinessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 5, failureThreshold: 3, successThreshold: 2}\n";
    let session = Session::new(Scenario::parse(&text(probe)).unwrap()).unwrap();
    let ready_at = |t: u64| {
        let i = session.trace.partition_point(|s| s.t <= t) - 1;
        let d = session.trace[i].deployment.clone().unwrap();
        (d.status.ready_replicas, d.status.available_replicas)
    };
    assert_eq!(ready_at(19_000), (3, 3));
    // Failed probes at 25, 30 and 35 s: NotReady at 35 s.
    assert_eq!(ready_at(34_999), (3, 3));
    assert_eq!(ready_at(35_000), (0, 0));
    // Passing again from 60 s: two probes, Ready at 70 s.
    assert_eq!(ready_at(69_999), (0, 0));
    assert_eq!(ready_at(70_000), (3, 3));
    // At 35 s, the third failure: three events over the ten seconds since the first.
    let i = session.trace.partition_point(|s| s.t <= 40_000) - 1;
    let events = session
        .read(i, "kubectl describe pods -l app=web --show-events=true")
        .unwrap();
    assert!(
        events.contains("Warning  Unhealthy  0s (x3 over 10s)  kubelet            Readiness probe failed: HTTP probe failed with statuscode: 503"),
        "{events}"
    );
    let available = session.trace[i]
        .deployment
        .as_ref()
        .unwrap()
        .conditions
        .iter()
        .find(|c| c.type_ == "Available")
        .map(|c| (c.status.clone(), c.reason.clone()));
    assert_eq!(
        available,
        Some(("False".into(), "MinimumReplicasUnavailable".into()))
    );
    // Without a probe the kubelet has nothing to ask: the pods stay Ready.
    let plain = Scenario::parse(&text("")).unwrap().run().unwrap();
    assert!(plain.iter().filter(|s| s.t >= 20_000).all(|s| {
        s.deployment
            .as_ref()
            .is_some_and(|d| d.status.ready_replicas == 3)
    }));
}

/// Issue 48, the termination sequence as the kubelet runs it (`killContainer`): a pod scaled
/// away at 10 s runs its preStop hook (`sleep: {seconds: 5}`), then gets SIGTERM and exits the
/// world's `terminationMs` (1 s) later: it is Terminating until 16 s, not 11 s. An exec hook
/// that runs `sleep 40` is cut at the grace period (30 s); SIGTERM then has 2 s
/// (`minimumGracePeriodInSeconds`), and the app exits within them.
#[test]
fn a_pre_stop_hook_holds_a_pod_terminating_before_sigterm() {
    for (hook, gone_at, words) in [
        (
            "sleep: {seconds: 5}",
            16_000,
            "its preStop hook ran 5 s, then SIGTERM; exited 1 s later",
        ),
        (
            "exec: {command: [/bin/sh, -c, 'sleep 40']}",
            41_000,
            "its preStop hook ran 30 s, then SIGTERM; exited 1 s later",
        ),
    ] {
        let trace = run_web(
            "replicas: 2",
            &format!("{{name: app, image: 'app:1', lifecycle: {{preStop: {{{hook}}}}}}}"),
            "steps:\n  - {at: 10s, run: kubectl scale deployment/web --replicas=1}\nuntil: settled\n",
        );
        let gone: Vec<(u64, &str)> = trace
            .iter()
            .flat_map(|s| s.changes().iter().map(move |c| (s.t, c.as_str())))
            .filter(|(_, c)| c.contains(" is gone"))
            .collect();
        assert_eq!(gone.len(), 1, "{hook}: {gone:?}");
        assert_eq!(gone[0].0, gone_at, "{hook}: {gone:?}");
        assert!(gone[0].1.ends_with(words), "{hook}: {gone:?}");
        // Until then the pod is counted terminating.
        let before = trace.iter().rev().find(|s| s.t < gone_at).unwrap();
        let terminating: u32 = before.replica_sets.iter().map(|r| r.pods.terminating).sum();
        assert_eq!(terminating, 1, "{hook}");
    }
}

/// The kubelet decides how a pod stops when its deletion begins: a world changed while the
/// pod is Terminating changes neither when it is gone nor what its step says of it.
#[test]
fn a_pods_stop_is_decided_when_its_deletion_begins() {
    let trace = run_web(
        "replicas: 2",
        "{name: app, image: 'app:1', lifecycle: {preStop: {sleep: {seconds: 5}}}}",
        "steps:\n  - {at: 10s, run: kubectl scale deployment/web --replicas=1}\n  - {at: 12s, world: {terminationMs: 9000}}\nuntil: settled\n",
    );
    let gone: Vec<(u64, &str)> = trace
        .iter()
        .flat_map(|s| s.changes().iter().map(move |c| (s.t, c.as_str())))
        .filter(|(_, c)| c.contains(" is gone"))
        .collect();
    assert_eq!(gone.len(), 1, "{gone:?}");
    assert_eq!(gone[0].0, 16_000, "{gone:?}");
    assert!(
        gone[0]
            .1
            .ends_with("its preStop hook ran 5 s, then SIGTERM; exited 1 s later"),
        "{gone:?}"
    );
}
