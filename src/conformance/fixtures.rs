//! Turns the vectors' compact fixtures (`{name, specReplicas, createdAt, status, …}`) into real
//! objects, following each file's `conventions` (the upstream test helpers' defaults).

use crate::api::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// A case's verdict: `Err` says what was expected and what came out.
pub type R = Result<(), String>;

/// Compares one asserted value; the error says what was expected and what came out.
pub fn same<T: PartialEq + std::fmt::Debug>(what: &str, expected: T, got: T) -> R {
    if expected == got {
        Ok(())
    } else {
        Err(format!("{what}: expected {expected:?}, got {got:?}"))
    }
}

/// The instant fixture times are relative to (`createdAt: 0`).
pub fn epoch() -> Time {
    Time::parse("2016-05-20T00:00:00Z").expect("valid")
}

pub fn i32_of(v: &Value, k: &str) -> Option<i32> {
    v.get(k).and_then(Value::as_i64).map(|x| x as i32)
}

pub fn str_map(v: Option<&Value>) -> BTreeMap<String, String> {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default()
}

pub fn int_or_string(v: Option<&Value>) -> Option<IntOrString> {
    match v? {
        Value::Number(n) => Some(IntOrString::Int(n.as_i64().unwrap_or(0) as i32)),
        Value::String(s) => Some(IntOrString::Str(s.clone())),
        _ => None,
    }
}

pub fn time_at(secs: Option<&Value>) -> Option<Time> {
    secs.and_then(Value::as_f64)
        .map(|s| Time(epoch().0 + (s * 1e9) as i64))
}

pub fn abs_time(v: Option<&Value>) -> Option<Time> {
    v.and_then(Value::as_str).and_then(|s| Time::parse(s).ok())
}

/// The pod template the upstream helpers use (one nginx container), with `labels`.
pub fn template(labels: BTreeMap<String, String>) -> PodTemplateSpec {
    PodTemplateSpec {
        metadata: ObjectMeta {
            labels: labels.into(),
            ..Default::default()
        },
        spec: PodSpec {
            containers: vec![Container {
                name: "nginx".into(),
                image: "nginx".into(),
                ..Default::default()
            }]
            .into(),
            ..Default::default()
        },
    }
}

pub fn conditions(v: Option<&Value>) -> Vec<DeploymentCondition> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|c| DeploymentCondition {
                    type_: c["type"].as_str().unwrap_or("").into(),
                    status: c["status"].as_str().unwrap_or("").into(),
                    reason: c.get("reason").and_then(Value::as_str).unwrap_or("").into(),
                    last_update_time: abs_time(c.get("lastUpdateTime")),
                    last_transition_time: abs_time(c.get("lastTransitionTime")),
                    message: String::new(),
                })
                .collect()
        })
        .unwrap_or_default()
}

pub fn deployment(v: &Value) -> Deployment {
    let mut d = Deployment {
        ..Default::default()
    };
    d.metadata.name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("foo")
        .into();
    d.metadata.namespace = v
        .get("namespace")
        .and_then(Value::as_str)
        .unwrap_or("default")
        .into();
    d.metadata.uid = format!("uid-{}", d.metadata.name).into();
    d.metadata.annotations = str_map(v.get("annotations"));
    d.spec.replicas = match v.get("replicas") {
        Some(Value::Null) => None,
        Some(x) => x.as_i64().map(|n| n as i32),
        None => Some(1),
    };
    let sel = v
        .get("selector")
        .map(|s| str_map(Some(s)))
        .unwrap_or_else(|| BTreeMap::from([("foo".to_string(), "bar".to_string())]));
    d.spec.selector = Some(LabelSelector::from_labels(&sel));
    let tl = v
        .get("templateLabels")
        .map(|s| str_map(Some(s)))
        .unwrap_or_else(|| sel.clone());
    d.spec.template = template(tl);
    if let Some(st) = v.get("strategy") {
        d.spec.strategy.type_ = st
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or(ROLLING_UPDATE)
            .into();
        if d.spec.strategy.type_ == ROLLING_UPDATE || st.get("maxSurge").is_some() {
            d.spec.strategy.rolling_update = Some(RollingUpdateDeployment {
                max_surge: int_or_string(st.get("maxSurge")),
                max_unavailable: int_or_string(st.get("maxUnavailable")),
            });
        }
    } else {
        d.spec.strategy.type_ = ROLLING_UPDATE.into();
        d.spec.strategy.rolling_update = Some(RollingUpdateDeployment {
            max_surge: Some(IntOrString::Int(0)),
            max_unavailable: Some(IntOrString::Int(0)),
        });
    }
    d.spec.progress_deadline_seconds = v
        .get("progressDeadlineSeconds")
        .and_then(Value::as_i64)
        .map(|x| x as i32);
    d.spec.revision_history_limit = v
        .get("revisionHistoryLimit")
        .and_then(Value::as_i64)
        .map(|x| x as i32);
    if let Some(s) = v.get("status") {
        d.status.replicas = i32_of(s, "replicas").unwrap_or(0);
        d.status.updated_replicas = i32_of(s, "updatedReplicas").unwrap_or(0);
        d.status.ready_replicas = i32_of(s, "readyReplicas").unwrap_or(0);
        d.status.available_replicas = i32_of(s, "availableReplicas").unwrap_or(0);
        d.status.conditions = conditions(s.get("conditions"));
    }
    if v.get("deletionTimestampSet").and_then(Value::as_bool) == Some(true) {
        d.metadata.deletion_timestamp = Some(epoch());
    }
    if let Some(to) = v
        .get("rollbackTo")
        .and_then(|r| r.get("revision"))
        .and_then(Value::as_i64)
    {
        d.metadata
            .annotations
            .insert(DEPRECATED_ROLLBACK_TO.into(), to.to_string());
    }
    d
}

pub fn status_of(v: Option<&Value>) -> ReplicaSetStatus {
    let mut s = ReplicaSetStatus::default();
    if let Some(v) = v {
        s.replicas = i32_of(v, "replicas").unwrap_or(0);
        s.available_replicas = i32_of(v, "availableReplicas").unwrap_or(0);
        s.ready_replicas = i32_of(v, "readyReplicas").unwrap_or(0);
        s.terminating_replicas = i32_of(v, "terminatingReplicas");
        s.observed_generation = v
            .get("observedGeneration")
            .and_then(Value::as_i64)
            .unwrap_or(0);
    }
    s
}

/// A ReplicaSet owned by `owner` (when given), with the owner's template unless the fixture
/// says `template: "different"`.
pub fn replica_set(v: &Value, owner: Option<&Deployment>) -> ReplicaSet {
    let mut rs = ReplicaSet {
        ..Default::default()
    };
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("rs")
        .to_string();
    rs.metadata.name = name.clone().into();
    rs.metadata.namespace = v
        .get("namespace")
        .and_then(Value::as_str)
        .unwrap_or("default")
        .into();
    rs.metadata.uid = (v
        .get("uid")
        .and_then(Value::as_str)
        .map(String::from)
        .unwrap_or_else(|| format!("uid-{name}")))
    .into();
    rs.metadata.annotations = str_map(v.get("annotations"));
    rs.metadata.creation_timestamp = time_at(v.get("createdAt"));
    rs.spec.replicas = Some(i32_of(v, "specReplicas").unwrap_or(0));
    rs.status = status_of(v.get("status"));
    let sel_labels = v
        .get("selector")
        .map(|s| str_map(Some(s)))
        .or_else(|| owner.map(|d| d.selector().match_labels))
        .unwrap_or_else(|| BTreeMap::from([("foo".to_string(), "bar".to_string())]));
    rs.spec.selector = LabelSelector::from_labels(&sel_labels);
    rs.metadata.labels = v
        .get("labels")
        .map(|s| str_map(Some(s)))
        .unwrap_or_else(|| sel_labels.clone())
        .into();
    let mut t = owner
        .map(|d| d.spec.template.clone())
        .unwrap_or_else(|| template(sel_labels.clone()));
    if v.get("template").and_then(Value::as_str) == Some("different") {
        t.spec.containers[0].name = "nginx-old-1".into();
    }
    if let Some(h) = v.get("templateHash").and_then(Value::as_str) {
        t.metadata
            .labels
            .insert(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY.into(), h.into());
    }
    rs.spec.template = t;
    if let Some(d) = owner {
        rs.metadata.owner_references = vec![OwnerReference::controller_of(
            "apps/v1",
            "Deployment",
            &d.metadata,
        )]
        .into();
    }
    if v.get("deletionTimestampSet").and_then(Value::as_bool) == Some(true) {
        rs.metadata.deletion_timestamp = Some(epoch());
    }
    rs
}

/// A pod from `{name, phase, nodeName, ready, readySince, createdAt, restartCounts, …}`.
pub fn pod(v: &Value) -> Pod {
    let mut p = Pod {
        ..Default::default()
    };
    p.metadata.name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("pod")
        .into();
    p.metadata.namespace = v
        .get("namespace")
        .and_then(Value::as_str)
        .unwrap_or("default")
        .into();
    p.metadata.uid = v.get("uid").and_then(Value::as_str).unwrap_or("").into();
    p.metadata.labels = str_map(v.get("labels")).into();
    p.metadata.annotations = str_map(v.get("annotations"));
    p.metadata.creation_timestamp = time_at(v.get("createdAt"));
    p.spec.node_name = v
        .get("nodeName")
        .and_then(Value::as_str)
        .unwrap_or("")
        .into();
    p.status.phase = v.get("phase").and_then(Value::as_str).unwrap_or("").into();
    let ready = v
        .get("ready")
        .and_then(Value::as_bool)
        .or_else(|| v.get("readyConditionTrue").and_then(Value::as_bool));
    let ready_cond = v.get("readyCondition").and_then(Value::as_str);
    let since = v
        .get("readySince")
        .or_else(|| v.get("readyLastTransitionTime"));
    if ready == Some(true) || ready_cond == Some("True") {
        p.status.conditions.push(PodCondition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: time_at(since),
            ..Default::default()
        });
    } else if ready_cond == Some("False") {
        p.status.conditions.push(PodCondition {
            type_: "Ready".into(),
            status: "False".into(),
            ..Default::default()
        });
    }
    if let Some(rc) = v.get("restartCounts").and_then(Value::as_array) {
        p.status.container_statuses = rc
            .iter()
            .map(|n| ContainerStatus {
                restart_count: n.as_i64().unwrap_or(0) as i32,
                ..Default::default()
            })
            .collect();
    }
    if v.get("deletionTimestampSet").and_then(Value::as_bool) == Some(true) {
        p.metadata.deletion_timestamp = Some(epoch());
    }
    p
}

/// The strings of a JSON list (none when it is not one; a non-string item is "").
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|x| x.as_str().unwrap_or("").to_string())
        .collect()
}
