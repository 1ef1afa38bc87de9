//! `kubectl patch` (k8s.io/kubectl/pkg/cmd/patch): strategic merge, JSON merge.

use super::args::Args;
use super::command::Command;
use super::{Outcome, api_err, not_found};
use crate::api::*;
use crate::cluster::Cluster;

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    patch(c, &cmd.args)
}

/// The lists a strategic merge patch merges by key (their `patchMergeKey` in the API's
/// types), instead of replacing them.
const MERGE_KEYS: [(&str, &str); 8] = [
    ("containers", "name"),
    ("initContainers", "name"),
    ("env", "name"),
    ("volumes", "name"),
    ("volumeMounts", "mountPath"),
    ("ports", "containerPort"),
    ("ownerReferences", "uid"),
    ("conditions", "type"),
];

/// A strategic merge patch (kubectl's default): maps merge, `null` deletes, and the lists of
/// [`MERGE_KEYS`] merge item by item on their key; other values are replaced.
pub(super) fn strategic_patch(target: &mut Value, patch: &Value) {
    let (Value::Object(t), Value::Object(p)) = (&mut *target, patch) else {
        *target = patch.clone();
        return;
    };
    for (k, v) in p {
        if v.is_null() {
            t.shift_remove(k);
            continue;
        }
        let merge_key = MERGE_KEYS
            .iter()
            .find(|(list, _)| list == k)
            .map(|(_, key)| *key);
        match (merge_key, v) {
            (Some(key), Value::Array(new)) => {
                let cur = t.entry(k.as_str()).or_insert_with(|| Value::Array(vec![]));
                match cur {
                    Value::Array(items) => merge_by_key(items, new, key),
                    other => *other = v.clone(),
                }
            }
            _ => strategic_patch(t.entry(k.as_str()).or_insert(Value::Null), v),
        }
    }
}

/// Each new item patches the item with the same `key`, or is added.
fn merge_by_key(items: &mut Vec<Value>, new: &[Value], key: &str) {
    for n in new {
        let id = n.get(key);
        match items.iter_mut().find(|i| id.is_some() && i.get(key) == id) {
            Some(i) => strategic_patch(i, n),
            None => items.push(n.clone()),
        }
    }
}

/// `kubectl patch KIND NAME -p PATCH [--type strategic|merge|json]` on Deployments,
/// ReplicaSets and pods: the patch is read as YAML (of which JSON is a part), applied to the
/// stored object, and the result sent as an update.
fn patch(c: &mut Cluster, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["type", "p", "patch"])?;
    a.only(&["type", "p", "patch"])?;
    let (res, name, _) = a.target(0, "patch")?;
    let ty = a.flag("type").flatten().unwrap_or("strategic");
    if !["json", "merge", "strategic"].contains(&ty.to_ascii_lowercase().as_str()) {
        return Err(
            format!("error: --type must be one of [json merge strategic], not {ty:?}").into(),
        );
    }
    let Some(Some(p)) = a.flag("p").or(a.flag("patch")) else {
        return Err("error: must specify -p to patch".into());
    };
    let patch: Value = crate::api::yaml::parse_document(p)
        .map_err(|e| format!("error: unable to parse \"{p}\": {e}"))?;
    let kind = res.kind();
    let old = c
        .store
        .get(kind, &a.key(&name))
        .cloned()
        .ok_or_else(|| not_found(kind, &name))?;
    let mut v = old.to_value();
    match ty.to_ascii_lowercase().as_str() {
        "merge" => json_patch::merge(&mut v, &patch),
        "json" => {
            let ops: json_patch::Patch = serde_json::from_value(patch.clone())
                .map_err(|e| format!("error: unable to parse \"{p}\" as a JSON patch: {e}"))?;
            json_patch::patch(&mut v, &ops).map_err(|e| format!("Error from server: {e}"))?;
        }
        _ => strategic_patch(&mut v, &patch),
    }
    // Strict field validation of the patched object.
    let unknown = schema::unknown_fields(kind, &v);
    if !unknown.is_empty() {
        return Err(schema::invalid_patch(&patch, &unknown).into());
    }
    // Decoded as the stored kind: a patch cannot turn a Deployment into something else.
    let new = match kind {
        Kind::Deployment => codec::from_value(v).map(|d| Object::Deployment(Box::new(d))),
        Kind::ReplicaSet => codec::from_value(v).map(|r| Object::ReplicaSet(Box::new(r))),
        Kind::Pod => codec::from_value(v).map(Object::Pod),
    }
    .map_err(|e| format!("error: the patch does not fit a {}: {e}", kind.as_str()))?;
    if new == old {
        return Ok(format!("{}/{name} patched (no change)", res.prefix()));
    }
    c.store.update(new).map_err(api_err)?;
    Ok(format!("{}/{name} patched", res.prefix()))
}
