//! One evaluator per vector id. Each builds the upstream test's inputs, calls our counterpart of
//! the upstream function, and compares with what the upstream test asserts.

use super::fixtures::*;
use crate::api::*;
use crate::apiserver::events::EventRecorder;
use crate::apiserver::store::{Store, WatchEvent, WatchRef};
use crate::controller::FeatureGates;
use crate::controller::deployment::util as du;
use crate::controller::deployment::{Ctx, DeploymentController};
use crate::controller::expectations::{ControllerExpectations, UidTrackingExpectations};
use crate::controller::ranking::{active_pods_less, ranked_less, sort_by_less};
use crate::controller::replicaset::{self as rsc, ReplicaSetController};
use crate::controller::{compute_hash, filter_active_pods, slow_start_batch};
use serde_json::Value;
use serde_json::json;

/// A store holding the fixtures, and the pieces a controller call needs.
struct World {
    store: Store,
    events: EventRecorder,
    dc: DeploymentController,
}

impl World {
    fn new(now: Time) -> World {
        let store = Store::fake();
        store.clock().set(now);
        World {
            store,
            events: EventRecorder::default(),
            dc: DeploymentController::default(),
        }
    }
    fn put_rs(&mut self, rs: &ReplicaSet) {
        self.store
            .insert_raw(Object::ReplicaSet(Box::new(rs.clone())));
    }
    fn rs(&self, name: &str) -> ReplicaSet {
        self.store
            .replicaset(&format!("default/{name}"))
            .cloned()
            .unwrap_or_default()
    }
    fn with<T>(&mut self, f: impl FnOnce(&mut DeploymentController, &mut Ctx) -> T) -> T {
        let mut cx = Ctx {
            store: &mut self.store,
            events: &mut self.events,
            explain: vec![],
            calls: Default::default(),
            gates: Default::default(),
        };
        f(&mut self.dc, &mut cx)
    }
    /// The expected count of update actions (`updateActions`), then `rs`'s spec.replicas as
    /// stored against the vector's `key`.
    fn updates_and_replicas(&self, e: &Value, what: &str, key: &str, rs: &ReplicaSet) -> R {
        same(
            "update actions",
            e["updateActions"].as_u64().unwrap_or(0) as usize,
            self.updates(),
        )?;
        same(
            what,
            e[key].as_i64().unwrap_or(0) as i32,
            self.rs(&rs.metadata.name).replicas(),
        )
    }
    fn updates(&self) -> usize {
        self.store
            .actions
            .iter()
            .filter(|a| a.verb == "update" && a.resource == "replicasets")
            .count()
    }
}

fn rs_list(v: &Value, d: Option<&Deployment>) -> Vec<ReplicaSet> {
    v.as_array()
        .map(|a| a.iter().map(|x| replica_set(x, d)).collect())
        .unwrap_or_default()
}

/// `allRSs` lists may name "newRS" / "oldRSs[0]" instead of repeating a fixture.
fn resolve_all(
    all: &Value,
    new_rs: Option<&ReplicaSet>,
    olds: &[ReplicaSet],
    d: &Deployment,
) -> Vec<ReplicaSet> {
    all.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| match x.as_str() {
                    Some("newRS") => new_rs.cloned(),
                    Some(s) if s.starts_with("oldRSs[") => {
                        olds.get(s[7..s.len() - 1].parse::<usize>().ok()?).cloned()
                    }
                    Some(_) => None,
                    None => Some(replica_set(x, Some(d))),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// One case as an evaluator sees it: the vector file (some ids keep shared fixtures there), its
/// id, the case itself, its input and expected outputs, and its upstream name.
#[derive(Clone, Copy)]
struct Case<'a> {
    file: &'a Value,
    id: &'a str,
    c: &'a Value,
    i: &'a Value,
    e: &'a Value,
    name: &'a str,
}

/// Checks one case against what upstream asserts.
type Evaluator = fn(&Case) -> R;

/// The evaluator of each vector id, grouped by upstream file.
const EVALUATORS: &[(&str, Evaluator)] = &[
    ("util.NewRSNewReplicas", util_new_rs_new_replicas),
    ("util.ResolveFenceposts", util_resolve_fenceposts),
    ("util.MaxUnavailable", util_max_unavailable),
    ("util.MinAvailable", util_min_available),
    (
        "util.getNonNegativeInt32FromAnnotation",
        util_get_non_negative_int32_from_annotation,
    ),
    ("util.getReplicaSetFraction", util_get_replica_set_fraction),
    ("util.DeploymentComplete", util_deployment_complete),
    ("util.DeploymentProgressing", util_deployment_progressing),
    ("util.DeploymentTimedOut", util_deployment_timed_out),
    ("util.EqualIgnoreHash", util_equal_ignore_hash),
    ("util.FindNewReplicaSet", util_find_new_replica_set),
    ("util.FindOldReplicaSets", util_find_new_replica_set),
    ("util.GetDeploymentCondition", util_get_deployment_condition),
    (
        "util.RemoveDeploymentCondition",
        util_remove_deployment_condition,
    ),
    (
        "util.SetDeploymentCondition",
        util_remove_deployment_condition,
    ),
    (
        "util.GetReplicaCountForReplicaSets",
        util_get_replica_count_for_replica_sets,
    ),
    (
        "util.ReplicasAnnotationsNeedUpdate",
        util_replicas_annotations_need_update,
    ),
    ("util.AnnotationUtils", util_annotation_utils),
    (
        "util.GetDeploymentsForReplicaSet",
        util_get_deployments_for_replica_set,
    ),
    ("sync.TestScale", sync_test_scale),
    ("sync.cleanupDeployment", sync_cleanup_deployment),
    ("sync.cleanupDeploymentOrder", sync_cleanup_deployment),
    (
        "rolling.reconcileNewReplicaSet",
        rolling_reconcile_new_replica_set,
    ),
    (
        "rolling.reconcileOldReplicaSets",
        rolling_reconcile_old_replica_sets,
    ),
    (
        "rolling.cleanupUnhealthyReplicas",
        rolling_cleanup_unhealthy_replicas,
    ),
    (
        "rolling.scaleDownOldReplicaSetsForRollingUpdate",
        rolling_scale_down_old_replica_sets_for_rolling_update,
    ),
    ("recreate.oldPodsRunning", recreate_old_pods_running),
    (
        "recreate.scaleDownOldReplicaSetsForRecreate",
        recreate_scale_down_old_replica_sets_for_recreate,
    ),
    (
        "progress.requeueStuckDeployment",
        progress_requeue_stuck_deployment,
    ),
    ("progress.syncRolloutStatus", progress_sync_rollout_status),
    ("controller.ComputeHash", controller_compute_hash),
    (
        "controller.ControllerExpectations",
        controller_controller_expectations,
    ),
    (
        "controller.UIDTrackingExpectations",
        controller_uid_tracking_expectations,
    ),
    (
        "controller.CountTerminatingPods",
        controller_count_terminating_pods,
    ),
    ("controller.FilterActivePods", controller_filter_active_pods),
    (
        "controller.FilterActiveReplicaSets",
        controller_filter_active_replica_sets,
    ),
    (
        "controller.SortingActivePods",
        controller_sorting_active_pods,
    ),
    (
        "controller.SortingActivePodsWithRanks",
        controller_sorting_active_pods_with_ranks,
    ),
    ("replicaset.burstReplicas", replicaset_burst_replicas),
    ("replicaset.calculateStatus", replicaset_calculate_status),
    (
        "replicaset.calculateStatusConditions",
        replicaset_calculate_status_conditions,
    ),
    ("replicaset.conditions", replicaset_conditions),
    ("replicaset.getPodKeys", replicaset_get_pod_keys),
    ("replicaset.getPodsToDelete", replicaset_get_pods_to_delete),
    ("replicaset.slowStartBatch", replicaset_slow_start_batch),
    ("replicaset.sync.scenarios", replicaset_sync_scenarios),
    (
        "deployment_controller.eventHandlers",
        deployment_controller_event_handlers,
    ),
    (
        "deployment_controller.syncDeployment",
        deployment_controller_sync_deployment,
    ),
];

/// Every vector id `rollout check` evaluates.
pub fn known_ids() -> impl Iterator<Item = &'static str> {
    EVALUATORS.iter().map(|(id, _)| *id)
}

/// Evaluates one case of the vector file `file`.
pub fn evaluate_case(file: &Value, c: &Value) -> R {
    let id = file["id"].as_str().unwrap_or("");
    let Some((_, eval)) = EVALUATORS.iter().find(|(known, _)| *known == id) else {
        return Err(format!("unknown vector id {id:?}"));
    };
    eval(&Case {
        file,
        id,
        c,
        i: &c["input"],
        e: &c["expected"],
        name: c["name"].as_str().unwrap_or(""),
    })
}

/// `util.NewRSNewReplicas`.
fn util_new_rs_new_replicas(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let all = rs_list(&i["allRSs"], Some(&d));
    let new_rs = replica_set(&i["newRS"], Some(&d));
    let r = du::new_rs_new_replicas(&d, &all, &new_rs);
    same("error", e["error"].as_bool().unwrap_or(false), r.is_err())?;
    same(
        "replicas",
        e["replicas"].as_i64().unwrap_or(0) as i32,
        r.map(|x| x.0).unwrap_or(0),
    )
}

/// `util.ResolveFenceposts`.
fn util_resolve_fenceposts(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let (ms, mu) = (
        int_or_string(i.get("maxSurge")),
        int_or_string(i.get("maxUnavailable")),
    );
    let r = du::resolve_fenceposts(
        ms.as_ref(),
        mu.as_ref(),
        i["desired"].as_i64().unwrap_or(0) as i32,
    );
    same("error", e["error"].as_bool().unwrap_or(false), r.is_err())?;
    let (s, u) = r.unwrap_or((0, 0));
    same("surge", e["surge"].as_i64().unwrap_or(0) as i32, s)?;
    same(
        "unavailable",
        e["unavailable"].as_i64().unwrap_or(0) as i32,
        u,
    )
}

/// `util.MaxUnavailable`.
fn util_max_unavailable(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    same(
        "maxUnavailable",
        e["maxUnavailable"].as_i64().unwrap_or(0) as i32,
        du::max_unavailable(&deployment(&i["deployment"])),
    )
}

/// `util.MinAvailable`.
fn util_min_available(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    same(
        "minAvailable",
        e["minAvailable"].as_i64().unwrap_or(0) as i32,
        du::min_available(&deployment(&i["deployment"])),
    )
}

/// `util.getNonNegativeInt32FromAnnotation`.
fn util_get_non_negative_int32_from_annotation(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let (v, ok, err) = du::non_negative_int32_annotation(
        &str_map(i.get("annotations")),
        i["key"].as_str().unwrap_or(""),
    );
    same("value", e["value"].as_i64().unwrap_or(0) as i32, v)?;
    same("valid", e["valid"].as_bool().unwrap_or(false), ok)?;
    match e["errorContains"].as_str() {
        None => same("error", None, err),
        Some(s) => err
            .filter(|x| x.contains(s))
            .map(|_| ())
            .ok_or_else(|| format!("error: expected one containing {s:?}")),
    }
}

/// `util.getReplicaSetFraction`.
fn util_get_replica_set_fraction(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let rs = replica_set(&i["rs"], Some(&d));
    same(
        "fraction",
        e["fraction"].as_i64().unwrap_or(0) as i32,
        du::get_replica_set_fraction(&rs, &d).0,
    )
}

/// `util.DeploymentComplete`.
fn util_deployment_complete(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let s = DeploymentStatus {
        replicas: i32_of(&i["newStatus"], "replicas").unwrap_or(0),
        updated_replicas: i32_of(&i["newStatus"], "updatedReplicas").unwrap_or(0),
        available_replicas: i32_of(&i["newStatus"], "availableReplicas").unwrap_or(0),
        ..Default::default()
    };
    same(
        "complete",
        e["complete"].as_bool().unwrap_or(false),
        du::deployment_complete(&d, &s),
    )
}

/// `util.DeploymentProgressing`.
fn util_deployment_progressing(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&json!({"status": i["oldStatus"]}));
    let n = deployment(&json!({"status": i["newStatus"]}));
    same(
        "progressing",
        e["progressing"].as_bool().unwrap_or(false),
        du::deployment_progressing(&d, &n.status),
    )
}

/// `util.DeploymentTimedOut`.
fn util_deployment_timed_out(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&json!({"progressDeadlineSeconds": i["progressDeadlineSeconds"]}));
    let pc = &i["progressingCondition"];
    let s = DeploymentStatus {
        conditions: conditions(Some(
            &json!([{"type": "Progressing", "status": pc["status"], "reason": pc["reason"], "lastUpdateTime": pc["lastUpdateTime"]}]),
        )),
        ..Default::default()
    };
    let now = abs_time(i.get("now")).unwrap_or(epoch());
    same(
        "timedOut",
        e["timedOut"].as_bool().unwrap_or(false),
        du::deployment_timed_out(&d, &s, now),
    )
}

/// `util.EqualIgnoreHash`.
fn util_equal_ignore_hash(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let t = |v: &Value| PodTemplateSpec {
        metadata: ObjectMeta {
            name: v["name"].as_str().unwrap_or("").into(),
            labels: str_map(v.get("labels")).into(),
            annotations: str_map(v.get("annotations")),
            ..Default::default()
        },
        spec: PodSpec {
            node_name: v["nodeName"].as_str().unwrap_or("").into(),
            ..Default::default()
        },
    };
    let (a, b) = (t(&i["former"]), t(&i["latter"]));
    let (a0, b0) = (a.clone(), b.clone());
    same(
        "equal",
        e["equal"].as_bool().unwrap_or(false),
        du::equal_ignore_hash(&a, &b),
    )?;
    same(
        "equalReversed",
        e["equalReversed"].as_bool().unwrap_or(false),
        du::equal_ignore_hash(&b, &a),
    )?;
    same("inputs unchanged", (a0, b0), (a, b))
}

/// `util.FindNewReplicaSet` / `util.FindOldReplicaSets`.
fn util_find_new_replica_set(k: &Case) -> R {
    let Case { id, i, e, .. } = *k;
    let d = deployment(&json!({"name": "nginx"}));
    let rss = rs_list(&i["rsList"], Some(&d));
    if id == "util.FindNewReplicaSet" {
        return same(
            "newRS",
            e["newRS"].as_str().map(String::from),
            du::find_new_replica_set(&d, &rss).map(|r| r.metadata.name.to_string()),
        );
    }
    let (req, all) = du::find_old_replica_sets(&d, &rss);
    let mut all: Vec<&ReplicaSet> = all;
    all.sort_by(|a, b| crate::controller::by_creation_timestamp(a, b));
    let names = |v: &[&ReplicaSet]| -> Option<Vec<String>> {
        if v.is_empty() {
            None
        } else {
            Some(v.iter().map(|r| r.metadata.name.to_string()).collect())
        }
    };
    let want = |k: &str| -> Option<Vec<String>> {
        let mut v: Vec<String> = e[k]
            .as_array()?
            .iter()
            .map(|x| x.as_str().unwrap_or("").to_string())
            .collect();
        if k == "allOldRSs" {
            v.sort_by_key(|n| {
                rss.iter()
                    .find(|r| &r.metadata.name == n)
                    .map(|r| (r.metadata.creation_timestamp, r.metadata.name.clone()))
            });
        }
        Some(v)
    };
    same("allOldRSs", want("allOldRSs"), names(&all))?;
    same("requiredRSs", want("requiredRSs"), names(&req))
}

/// `util.GetDeploymentCondition`.
fn util_get_deployment_condition(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let s = DeploymentStatus {
        conditions: conditions(i.get("conditions")),
        ..Default::default()
    };
    same(
        "found",
        e["found"].as_bool().unwrap_or(false),
        du::get_deployment_condition(&s, i["type"].as_str().unwrap_or("")).is_some(),
    )
}

/// `util.RemoveDeploymentCondition` / `util.SetDeploymentCondition`.
fn util_remove_deployment_condition(k: &Case) -> R {
    let Case { id, i, e, .. } = *k;
    let mut s = DeploymentStatus {
        conditions: conditions(i.get("conditions")),
        ..Default::default()
    };
    if id.starts_with("util.Remove") {
        du::remove_deployment_condition(&mut s, i["type"].as_str().unwrap_or(""));
    } else {
        du::set_deployment_condition(
            &mut s,
            conditions(Some(&json!([i["condition"]])))[0].clone(),
        );
    }
    same("conditions", conditions(e.get("conditions")), s.conditions)
}

/// `util.GetReplicaCountForReplicaSets`.
fn util_get_replica_count_for_replica_sets(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let rss = rs_list(&i["replicaSets"], None);
    same(
        "replicaCount",
        e["replicaCount"].as_i64().unwrap_or(0) as i32,
        du::replica_count(&rss),
    )?;
    same(
        "actualReplicaCount",
        e["actualReplicaCount"].as_i64().unwrap_or(0) as i32,
        du::actual_replica_count(&rss),
    )?;
    same(
        "terminatingReplicaCount",
        e["terminatingReplicaCount"].as_i64().map(|x| x as i32),
        du::terminating_replica_count(&rss),
    )
}

/// `util.ReplicasAnnotationsNeedUpdate`.
fn util_replicas_annotations_need_update(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let rs = replica_set(&json!({"annotations": i["annotations"]}), None);
    same(
        "needUpdate",
        e["needUpdate"].as_bool().unwrap_or(false),
        du::replicas_annotations_need_update(
            &rs,
            i["desired"].as_i64().unwrap_or(0) as i32,
            i["max"].as_i64().unwrap_or(0) as i32,
        ),
    )
}

/// `util.AnnotationUtils`.
fn util_annotation_utils(k: &Case) -> R {
    let Case { i, e, name, .. } = *k;
    annotation_utils(name, i, e)
}

/// `util.GetDeploymentsForReplicaSet`.
fn util_get_deployments_for_replica_set(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let mut store = Store::fake();
    for dv in i["deployments"].as_array().into_iter().flatten() {
        store.insert_raw(Object::Deployment(Box::new(deployment(dv))));
    }
    let mut rs = replica_set(&i["rs"], None);
    rs.metadata.labels = str_map(i["rs"].get("labels")).into();
    let r = DeploymentController::get_deployments_for_replica_set(&store, &rs)
        .map(|v| {
            v.into_iter()
                .map(|d| d.metadata.name.to_string())
                .collect::<Vec<_>>()
        })
        .map_err(|e| e.to_string());
    match e.get("error").and_then(Value::as_str) {
        Some(msg) => same("error", Err(msg.to_string()), r),
        None => same("deployments", Ok(strings(&e["deployments"])), r),
    }
}

/// `sync.TestScale`.
fn sync_test_scale(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let new_rs = (!i["newRS"].is_null()).then(|| replica_set(&i["newRS"], Some(&d)));
    let olds = rs_list(&i["oldRSs"], Some(&d));
    let mut w = World::new(epoch());
    new_rs.iter().chain(olds.iter()).for_each(|r| w.put_rs(r));
    let r = w.with(|dc, cx| dc.scale(cx, &d, new_rs.as_ref(), &olds));
    same("error", e["error"].as_bool().unwrap_or(false), r.is_err())?;
    if let Some(n) = e["newRS"].as_object() {
        same(
            "newRS",
            n["specReplicas"].as_i64().unwrap_or(0) as i32,
            w.rs(n["name"].as_str().unwrap_or("")).replicas(),
        )?;
    }
    for o in e["oldRSs"].as_array().into_iter().flatten() {
        let n = o["name"].as_str().unwrap_or("");
        same(
            n,
            o["specReplicas"].as_i64().unwrap_or(0) as i32,
            w.rs(n).replicas(),
        )?;
    }
    Ok(())
}

/// `sync.cleanupDeployment` / `sync.cleanupDeploymentOrder`.
fn sync_cleanup_deployment(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let mut dv = i["deployment"].clone();
    dv["revisionHistoryLimit"] = i["revisionHistoryLimit"].clone();
    let d = deployment(&dv);
    let olds = rs_list(&i["oldRSs"], Some(&d));
    let mut w = World::new(epoch());
    olds.iter().for_each(|r| w.put_rs(r));
    w.with(|dc, cx| dc.cleanup_deployment(cx, &olds, &d))
        .map_err(|e| e.to_string())?;
    let mut deleted: Vec<String> = w
        .store
        .actions
        .iter()
        .filter(|a| a.verb == "delete")
        .map(|a| a.name.clone())
        .collect();
    if let Some(n) = e.get("deletions") {
        return same("deletions", n.as_u64().unwrap_or(0) as usize, deleted.len());
    }
    deleted.sort();
    let mut want: Vec<String> = strings(&e["deletedReplicaSets"]);
    want.sort();
    same("deletedReplicaSets", want, deleted)
}

/// `rolling.reconcileNewReplicaSet`.
fn rolling_reconcile_new_replica_set(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let new_rs = replica_set(&i["newRS"], Some(&d));
    let all = resolve_all(&i["allRSs"], Some(&new_rs), &[], &d);
    let mut w = World::new(epoch());
    w.put_rs(&new_rs);
    let scaled = w
        .with(|dc, cx| dc.reconcile_new_replica_set(cx, &all, &new_rs, &d))
        .map_err(|e| e.to_string())?;
    same("scaled", e["scaled"].as_bool().unwrap_or(false), scaled)?;
    if let Some(n) = e.get("clientActions") {
        return same(
            "client actions",
            n.as_u64().unwrap_or(0) as usize,
            w.store.actions.len(),
        );
    }
    w.updates_and_replicas(e, "new spec.replicas", "newRSSpecReplicas", &new_rs)
}

/// `rolling.reconcileOldReplicaSets`.
fn rolling_reconcile_old_replica_sets(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let new_rs = replica_set(&i["newRS"], Some(&d));
    let olds = rs_list(&i["oldRSs"], Some(&d));
    let all = resolve_all(&i["allRSs"], Some(&new_rs), &olds, &d);
    let mut w = World::new(epoch());
    all.iter().for_each(|r| w.put_rs(r));
    let scaled = w
        .with(|dc, cx| dc.reconcile_old_replica_sets(cx, &all, &olds, &new_rs, &d))
        .map_err(|e| e.to_string())?;
    same("scaled", e["scaled"].as_bool().unwrap_or(false), scaled)
}

/// `rolling.cleanupUnhealthyReplicas`.
fn rolling_cleanup_unhealthy_replicas(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let olds = rs_list(&i["oldRSs"], Some(&d));
    let mut w = World::new(epoch());
    olds.iter().for_each(|r| w.put_rs(r));
    let max = i["maxCleanupCount"].as_i64().unwrap_or(0) as i32;
    let (_, n) = w
        .with(|dc, cx| dc.cleanup_unhealthy_replicas(cx, &olds, &d, max))
        .map_err(|e| e.to_string())?;
    same(
        "cleanupCount",
        e["cleanupCount"].as_i64().unwrap_or(0) as i32,
        n,
    )
}

/// `rolling.scaleDownOldReplicaSetsForRollingUpdate`.
fn rolling_scale_down_old_replica_sets_for_rolling_update(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let olds = rs_list(&i["oldRSs"], Some(&d));
    let all = resolve_all(&i["allRSs"], None, &olds, &d);
    let mut w = World::new(epoch());
    olds.iter().for_each(|r| w.put_rs(r));
    let n = w
        .with(|dc, cx| dc.scale_down_old_replica_sets_for_rolling_update(cx, &all, &olds, &d))
        .map_err(|e| e.to_string())?;
    if let Some(z) = e.get("scaledDownCount") {
        same("scaledDownCount", z.as_i64().unwrap_or(0) as i32, n)?;
        return same("update actions", 0, w.updates());
    }
    same("scaledDownCount != 0", true, n != 0)?;
    w.updates_and_replicas(e, "spec.replicas", "updatedSpecReplicas", &olds[0])
}

/// `recreate.oldPodsRunning`.
fn recreate_old_pods_running(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let olds = rs_list(&i["oldRSs"], None);
    let mut map = std::collections::BTreeMap::new();
    for (uid, pods) in i["podMap"].as_object().into_iter().flatten() {
        map.insert(
            uid.into(),
            pods.as_array()
                .into_iter()
                .flatten()
                .map(pod)
                .collect::<Vec<_>>(),
        );
    }
    same(
        "hasOldPodsRunning",
        e["hasOldPodsRunning"].as_bool().unwrap_or(false),
        crate::controller::deployment::recreate::old_pods_running(None, &olds, &map).is_some(),
    )
}

/// `recreate.scaleDownOldReplicaSetsForRecreate`.
fn recreate_scale_down_old_replica_sets_for_recreate(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let olds = rs_list(&i["oldRSs"], Some(&d));
    let mut w = World::new(epoch());
    olds.iter().for_each(|r| w.put_rs(r));
    w.with(|dc, cx| dc.scale_down_old_replica_sets_for_recreate(cx, &olds, &d))
        .map_err(|e| e.to_string())?;
    let after: Vec<i64> = olds
        .iter()
        .map(|r| w.rs(&r.metadata.name).replicas() as i64)
        .collect();
    same(
        "spec.replicas after",
        e["oldRSsSpecReplicasAfter"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_i64)
            .collect::<Vec<_>>(),
        after,
    )
}

/// `progress.requeueStuckDeployment`.
fn progress_requeue_stuck_deployment(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let n = deployment(&json!({"status": i["newStatus"]}));
    let mut w = World::new(abs_time(i.get("now")).unwrap_or(epoch()));
    let r = w.with(|dc, cx| dc.requeue_stuck_deployment(cx, &d, &n.status));
    same(
        "duration (ns)",
        e["durationNanos"].as_i64().unwrap_or(0),
        r.as_nanos(),
    )
}

/// `progress.syncRolloutStatus`.
fn progress_sync_rollout_status(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let d = deployment(&i["deployment"]);
    let new_rs = (!i["newRS"].is_null()).then(|| replica_set(&i["newRS"], Some(&d)));
    let all = resolve_all(&i["allRSs"], new_rs.as_ref(), &[], &d);
    let mut w = World::new(abs_time(i.get("now")).unwrap_or(epoch()));
    w.store.insert_raw(Object::Deployment(Box::new(d.clone())));
    let mut dd = w
        .store
        .deployment(&d.metadata.key())
        .cloned()
        .unwrap_or_default();
    w.with(|dc, cx| dc.sync_rollout_status(cx, &all, new_rs.as_ref(), &mut dd))
        .map_err(|e| e.to_string())?;
    let cond = du::get_deployment_condition(&dd.status, du::PROGRESSING)
        .map(|c| (c.status.clone(), c.reason.clone()));
    match e.get("progressingCondition") {
        Some(pc) => same(
            "Progressing",
            Some((
                pc["status"].as_str().unwrap_or("").to_string(),
                pc["reason"].as_str().unwrap_or("").to_string(),
            )),
            cond,
        ),
        // The case upstream leaves vacuous: its intent (no deadline → no condition).
        None => same("Progressing", None, cond),
    }
}

/// `controller.ComputeHash`.
fn controller_compute_hash(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let t = PodTemplateSpec::default();
    let a = compute_hash(&t, i["collisionCount"].as_i64().map(|x| x as i32));
    let b = compute_hash(&t, i["otherCollisionCount"].as_i64().map(|x| x as i32));
    same(
        "hashes differ",
        e["hashesDiffer"].as_bool().unwrap_or(true),
        a != b,
    )
}

/// `controller.ControllerExpectations`.
fn controller_controller_expectations(k: &Case) -> R {
    let Case { i, .. } = *k;
    controller_expectations(i)
}

/// `controller.UIDTrackingExpectations`.
fn controller_uid_tracking_expectations(k: &Case) -> R {
    let Case { i, .. } = *k;
    uid_expectations(i)
}

/// `controller.CountTerminatingPods`.
fn controller_count_terminating_pods(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let pods: Vec<Pod> = i["pods"]
        .as_array()
        .into_iter()
        .flatten()
        .map(pod)
        .collect();
    let n = pods.iter().filter(|p| p.is_terminating()).count();
    same("count", e["count"].as_u64().unwrap_or(0) as usize, n)?;
    same(
        "filteredLength",
        e["filteredLength"].as_u64().unwrap_or(0) as usize,
        n,
    )
}

/// `controller.FilterActivePods`.
fn controller_filter_active_pods(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let pods: Vec<Pod> = i["pods"]
        .as_array()
        .into_iter()
        .flatten()
        .map(pod)
        .collect();
    let mut got: Vec<String> = filter_active_pods(&pods)
        .iter()
        .map(|p| p.metadata.name.to_string())
        .collect();
    got.sort();
    same("active", strings(&e["activePodNames(sorted)"]), got)
}

/// `controller.FilterActiveReplicaSets`.
fn controller_filter_active_replica_sets(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let rss: Vec<ReplicaSet> = i["replicaSets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|x| !x.is_null())
        .map(|x| replica_set(x, None))
        .collect();
    let got: Vec<String> = crate::controller::filter_active_replica_sets(&rss)
        .into_iter()
        .map(|r| r.metadata.name.to_string())
        .collect();
    same("replicaSets", strings(&e["replicaSets"]), got)
}

/// `controller.SortingActivePods`.
fn controller_sorting_active_pods(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let pods: Vec<Pod> = i["pods"]
        .as_array()
        .into_iter()
        .flatten()
        .map(pod)
        .collect();
    let want: Vec<String> = strings(&e["order"]);
    // Every rotation and the reversal must sort to the same order.
    for k in 0..=pods.len() {
        let mut v = pods.clone();
        if k == pods.len() {
            v.reverse();
        } else {
            v.rotate_left(k);
        }
        sort_by_less(&mut v, active_pods_less);
        same(
            "order",
            &want,
            &v.iter()
                .map(|p| p.metadata.name.to_string())
                .collect::<Vec<_>>(),
        )?;
    }
    Ok(())
}

/// `controller.SortingActivePodsWithRanks`.
fn controller_sorting_active_pods_with_ranks(k: &Case) -> R {
    let Case { c, i, e, .. } = *k;
    let pods: Vec<Pod> = i["pods"]
        .as_array()
        .into_iter()
        .flatten()
        .map(pod)
        .collect();
    let ranks: Vec<i32> = i["ranks"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|x| x.as_i64().unwrap_or(0) as i32)
        .collect();
    let g = &c["featureGates"];
    let gates = FeatureGates {
        pod_deletion_cost: g
            .get("PodDeletionCost")
            .and_then(Value::as_bool)
            .unwrap_or(true),
        logarithmic_scale_down: g
            .get("LogarithmicScaleDown")
            .and_then(Value::as_bool)
            .unwrap_or(true),
        ..FeatureGates::default()
    };
    let now = Some(epoch());
    same(
        "less(0,1)",
        e["less(0,1)"].as_bool().unwrap_or(false),
        ranked_less(&pods[0], ranks[0], &pods[1], ranks[1], now, gates),
    )?;
    same(
        "less(1,0)",
        e["less(1,0)"].as_bool().unwrap_or(false),
        ranked_less(&pods[1], ranks[1], &pods[0], ranks[0], now, gates),
    )
}

/// `replicaset.burstReplicas`.
fn replicaset_burst_replicas(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    burst_replicas(i, e)
}

/// `replicaset.calculateStatus`.
fn replicaset_calculate_status(k: &Case) -> R {
    let Case { c, i, e, .. } = *k;
    let rv = &i["rs"];
    let mut rs = replica_set(
        &json!({"specReplicas": rv["specReplicas"], "selector": rv["selector"]}),
        None,
    );
    rs.spec.template.metadata.labels = str_map(rv.get("templateLabels")).into();
    rs.spec.min_ready_seconds = rv["minReadySeconds"].as_i64().unwrap_or(0) as i32;
    let active: Vec<Pod> = i["activePods"]
        .as_array()
        .into_iter()
        .flatten()
        .map(pod)
        .collect();
    let term: Vec<Pod> = i["terminatingPods"]
        .as_array()
        .into_iter()
        .flatten()
        .map(pod)
        .collect();
    let track = c["featureGates"]["terminatingReplicasTracking"]
        .as_bool()
        .unwrap_or(true);
    let s = rsc::calculate_status(
        &rs,
        &active.iter().collect::<Vec<_>>(),
        &term.iter().collect::<Vec<_>>(),
        None,
        track,
        epoch().plus_secs(1),
    );
    let w = &e["status"];
    same(
        "status",
        (
            i32_of(w, "replicas"),
            i32_of(w, "fullyLabeledReplicas"),
            i32_of(w, "readyReplicas"),
            i32_of(w, "availableReplicas"),
            i32_of(w, "terminatingReplicas"),
        ),
        (
            Some(s.replicas),
            Some(s.fully_labeled_replicas),
            Some(s.ready_replicas),
            Some(s.available_replicas),
            s.terminating_replicas,
        ),
    )
}

/// `replicaset.calculateStatusConditions`.
fn replicaset_calculate_status_conditions(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let mut rs = replica_set(&json!({"specReplicas": i["rsSpecReplicas"]}), None);
    rs.status.conditions = rs_conditions(&i["existingConditions"]);
    let pods: Vec<Pod> = (0..i["activePods"].as_u64().unwrap_or(0))
        .map(|n| pod(&json!({"name": format!("p{n}"), "phase": "Running"})))
        .collect();
    let s = rsc::calculate_status(
        &rs,
        &pods.iter().collect::<Vec<_>>(),
        &[],
        i["manageReplicasErr"].as_str(),
        true,
        epoch(),
    );
    let strip = |v: Vec<ReplicaSetCondition>| {
        v.into_iter()
            .map(|c| (c.type_, c.status, c.reason, c.message))
            .collect::<Vec<_>>()
    };
    same(
        "conditions",
        strip(rs_conditions(&e["conditions"])),
        strip(s.conditions),
    )
}

/// `replicaset.conditions`.
fn replicaset_conditions(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let mut s = ReplicaSetStatus {
        conditions: rs_conditions(&i["conditions"]),
        ..Default::default()
    };
    match i["op"].as_str() {
        Some("get") => {
            return same(
                "found",
                e["found"].as_bool().unwrap_or(false),
                crate::controller::replicaset::util::get_replica_set_condition(
                    &s,
                    i["type"].as_str().unwrap_or(""),
                )
                .is_some(),
            );
        }
        Some("set") => crate::controller::replicaset::util::set_replica_set_condition(
            &mut s,
            rs_conditions(&json!([i["condition"]]))[0].clone(),
        ),
        _ => crate::controller::replicaset::util::remove_replica_set_condition(
            &mut s,
            i["type"].as_str().unwrap_or(""),
        ),
    }
    same("conditions", rs_conditions(&e["conditions"]), s.conditions)
}

/// `replicaset.getPodKeys`.
fn replicaset_get_pod_keys(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let pods: Vec<Pod> = i["pods"]
        .as_array()
        .into_iter()
        .flatten()
        .map(pod)
        .collect();
    same(
        "keys",
        strings(&e["keys"]),
        rsc::get_pod_keys(&pods.iter().collect::<Vec<_>>())
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>(),
    )
}

/// `replicaset.getPodsToDelete`.
fn replicaset_get_pods_to_delete(k: &Case) -> R {
    let Case { file, i, e, .. } = *k;
    let conv = file["conventions"].as_str().unwrap_or("");
    let defs: Value = conv
        .split_once("podDefinitions: ")
        .and_then(|(_, j)| serde_json::from_str(j).ok())
        .ok_or("conventions: podDefinitions missing")?;
    let by_name = |v: &Value| pod(&defs[v.as_str().unwrap_or("")]);
    let pods: Vec<Pod> = i["pods"]
        .as_array()
        .into_iter()
        .flatten()
        .map(by_name)
        .collect();
    let related: Vec<Pod> = match i["relatedPods"].as_array() {
        Some(a) => a.iter().map(by_name).collect(),
        None => pods.clone(),
    };
    let got = rsc::get_pods_to_delete(
        &pods.iter().collect::<Vec<_>>(),
        &related.iter().collect::<Vec<_>>(),
        i["diff"].as_u64().unwrap_or(0) as usize,
        Some(epoch()),
        FeatureGates::default(),
    );
    same(
        "podsToDelete",
        strings(&e["podsToDelete"]),
        got.iter().map(|p| p.metadata.name.to_string()).collect(),
    )
}

/// `replicaset.slowStartBatch`.
fn replicaset_slow_start_batch(k: &Case) -> R {
    let Case { i, e, .. } = *k;
    let limit = i["fnSucceedsForFirstNCalls"].as_u64().unwrap_or(0) as usize;
    let mut calls = 0;
    let (ok, err) = slow_start_batch(
        i["count"].as_u64().unwrap_or(0) as usize,
        i["initialBatchSize"].as_u64().unwrap_or(1) as usize,
        || {
            calls += 1;
            if calls <= limit {
                Ok(())
            } else {
                Err("fake error")
            }
        },
    );
    same(
        "successes",
        e["successes"].as_u64().unwrap_or(0) as usize,
        ok,
    )?;
    same(
        "error",
        e["error"].as_bool().unwrap_or(false),
        err.is_some(),
    )?;
    same(
        "callCount",
        e["callCount"].as_u64().unwrap_or(0) as usize,
        calls,
    )
}

/// `replicaset.sync.scenarios`.
fn replicaset_sync_scenarios(k: &Case) -> R {
    let Case { i, e, name, .. } = *k;
    super::handlers::rs_sync_scenario(name, i, e)
}

/// `deployment_controller.eventHandlers`.
fn deployment_controller_event_handlers(k: &Case) -> R {
    let Case { i, e, name, .. } = *k;
    super::handlers::event_handlers(name, i, e)
}

/// `deployment_controller.syncDeployment`.
fn deployment_controller_sync_deployment(k: &Case) -> R {
    let Case { i, e, name, .. } = *k;
    super::handlers::sync_deployment(name, i, e)
}

pub fn rs_conditions(v: &Value) -> Vec<ReplicaSetCondition> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|c| ReplicaSetCondition {
            type_: c["type"].as_str().unwrap_or("").into(),
            status: c["status"].as_str().unwrap_or("").into(),
            reason: c.get("reason").and_then(Value::as_str).unwrap_or("").into(),
            message: c
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("")
                .into(),
            last_transition_time: None,
        })
        .collect()
}

fn annotation_utils(name: &str, i: &Value, e: &Value) -> R {
    let d = deployment(&i.get("deployment").cloned().unwrap_or(json!({})));
    match name {
        "SetNewReplicaSetAnnotations" => {
            let mut rs = ReplicaSet::default();
            for (k, s) in i["steps"].as_array().into_iter().flatten().enumerate() {
                du::set_new_replica_set_annotations(
                    &d,
                    &mut rs,
                    s["newRevision"].as_str().unwrap_or(""),
                    s["exists"].as_bool().unwrap_or(true),
                    s["maxRevHistoryLengthInChars"].as_u64().unwrap_or(2000) as usize,
                );
                same(
                    &format!("step {k} revision"),
                    s["expectedRevision"].as_str(),
                    rs.metadata
                        .annotations
                        .get(REVISION_ANNOTATION)
                        .map(String::as_str),
                )?;
                if let Some(h) = s["expectedRevisionHistory"].as_str() {
                    same(
                        &format!("step {k} revision-history"),
                        Some(h),
                        rs.metadata
                            .annotations
                            .get(REVISION_HISTORY_ANNOTATION)
                            .map(String::as_str),
                    )?;
                }
            }
            Ok(())
        }
        "SetReplicasAnnotations" => {
            let mut rs = ReplicaSet::default();
            let changed = du::set_replicas_annotations(
                &mut rs,
                i["desiredReplicas"].as_i64().unwrap_or(0) as i32,
                i["maxReplicas"].as_i64().unwrap_or(0) as i32,
            );
            same(
                "returned",
                e["returned"].as_bool().unwrap_or(false),
                changed,
            )?;
            same(
                "annotations",
                str_map(e.get("annotations")),
                rs.metadata.annotations,
            )
        }
        _ => {
            let mut rs = replica_set(
                &json!({"annotations": i["rs"]["annotations"], "specReplicas": i["rs"]["specReplicas"]}),
                None,
            );
            rs.status.available_replicas =
                i["rs"]["status"]["availableReplicas"].as_i64().unwrap_or(0) as i32;
            same(
                "saturated",
                e["saturated"].as_bool().unwrap_or(false),
                du::is_saturated(&d, Some(&rs)),
            )
        }
    }
}

fn controller_expectations(i: &Value) -> R {
    let mut exp = ControllerExpectations::default();
    exp.ttl_secs = i["ttlSeconds"].as_i64().unwrap_or(300);
    let key = "default/rc";
    let mut now = epoch();
    for (k, s) in i["steps"].as_array().into_iter().flatten().enumerate() {
        let n = |f: &str| s[f].as_i64().unwrap_or(0);
        match s["op"].as_str().unwrap_or("") {
            "SetExpectations" => exp.set(key, n("add"), n("del"), now),
            "CreationObserved" => (0..n("times")).for_each(|_| exp.creation_observed(key)),
            "DeletionObserved" => (0..n("times")).for_each(|_| exp.deletion_observed(key)),
            "SatisfiedExpectations" => same(
                &format!("step {k} satisfied"),
                s["expect"].as_bool().unwrap_or(false),
                exp.satisfied(key, now),
            )?,
            "GetExpectations" => {
                let got = exp.get(key).map(|x| (x.add, x.del));
                same(
                    &format!("step {k} exists"),
                    s["expectExists"].as_bool().unwrap_or(false),
                    got.is_some(),
                )?;
                same(
                    &format!("step {k} add/del"),
                    Some((n("expectAdd"), n("expectDel"))),
                    got,
                )?;
            }
            "AdvanceClock" => now = Time(now.plus_secs(exp.ttl_secs).0 + 1),
            op => return Err(format!("step {k}: unknown op {op:?}")),
        }
    }
    Ok(())
}

fn uid_expectations(i: &Value) -> R {
    let mut exp = UidTrackingExpectations::default();
    let now = epoch();
    let mut key = String::new();
    let mut pods: Vec<Str> = vec![];
    for (k, s) in i["steps"].as_array().into_iter().flatten().enumerate() {
        match s["op"].as_str().unwrap_or("") {
            "ExpectDeletions" => {
                key = s["controllerKey"].as_str().unwrap_or("").into();
                pods = s["podKeys"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|x| x.as_str().unwrap_or("").into())
                    .collect();
                exp.expect_deletions(&key, pods.clone(), now);
            }
            "SatisfiedExpectations" => same(
                &format!("step {k} satisfied"),
                s["expect"].as_bool().unwrap_or(false),
                exp.satisfied(&key, now),
            )?,
            "DeletionObserved" => pods.iter().for_each(|p| exp.deletion_observed(&key, p)),
            "DeleteExpectations" => exp.delete_expectations(&key),
            "GetUIDs" => same(
                &format!("step {k} uids"),
                true,
                exp.get_uids(&key).is_none(),
            )?,
            op => return Err(format!("step {k}: unknown op {op:?}")),
        }
    }
    Ok(())
}

/// `TestControllerBurstReplicas`: creates and deletes in bursts of 500, checked against the
/// expectations after each step of upstream's script. (Its fixture and script, in its order.)
/// (Long as upstream's TestControllerBurstReplicas is: its steps, one after another.)
fn burst_replicas(i: &Value, e: &Value) -> R {
    let burst = i["burstReplicas"].as_u64().unwrap_or(500) as usize;
    let replicas = i["replicas"].as_i64().unwrap_or(0) as i32;
    let mut store = Store::fake();
    let mut events = EventRecorder::default();
    let mut c = ReplicaSetController {
        burst_replicas: burst,
        ..Default::default()
    };
    let rs = replica_set(&json!({"name": "foo", "specReplicas": replicas}), None);
    store.insert_raw(Object::ReplicaSet(Box::new(rs.clone())));
    let key = "default/foo";
    let mut run = |store: &mut Store, want_key: &str| -> Result<Vec<usize>, String> {
        let mut per_sync = vec![];
        for round in 0..1000 {
            let before = store.actions.len();
            c.sync_replica_set(store, &mut events, key);
            let n = store.actions[before..]
                .iter()
                .filter(|a| a.resource == "pods" && (a.verb == "create" || a.verb == "delete"))
                .count();
            let evs: Vec<WatchEvent> = store
                .drain_watch()
                .into_iter()
                .filter(|e| {
                    matches!(
                        e.view(),
                        WatchRef::Added(Object::Pod(_)) | WatchRef::Deleted(Object::Pod(_))
                    )
                })
                .collect();
            if n == 0 {
                break;
            }
            per_sync.push(n);
            // Observe all but one: the next sync must not act.
            for ev in &evs[..evs.len() - 1] {
                c.handle(store, ev);
            }
            let before = store.actions.len();
            c.sync_replica_set(store, &mut events, key);
            if store.actions[before..].iter().any(|a| a.resource == "pods") {
                return Err(format!(
                    "{want_key} round {round}: a sync acted while one expectation was pending"
                ));
            }
            store.drain_watch();
            let pending = c
                .expectations
                .counts
                .get(key)
                .map(|x| x.add.max(0) + x.del.max(0))
                .unwrap_or(0);
            same(
                "pending expectations after observing all but one",
                e["pendingExpectationAfterObservingAllButOne"]
                    .as_i64()
                    .unwrap_or(1),
                pending,
            )?;
            c.handle(store, &evs[evs.len() - 1]);
        }
        Ok(per_sync)
    };
    let ups = run(&mut store, "scale up")?;
    same(
        "creates per sync",
        e["createsPerSync"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|x| x.as_u64().unwrap_or(0) as usize)
            .collect::<Vec<_>>(),
        ups,
    )?;
    let mut rs = store.replicaset(key).cloned().unwrap_or_default();
    rs.spec.replicas = Some(0);
    store.api().update(rs).map_err(|e| e.to_string())?;
    store.drain_watch();
    let downs = run(&mut store, "scale down")?;
    same(
        "deletes per sync",
        e["deletesPerSync"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|x| x.as_u64().unwrap_or(0) as usize)
            .collect::<Vec<_>>(),
        downs,
    )
}
