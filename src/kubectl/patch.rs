//! `kubectl patch` (k8s.io/kubectl v0.36.3 `pkg/cmd/patch`): strategic merge, JSON merge and
//! JSON patch, on each object the builder finds.

use super::args::{Args, DryRun};
use super::builder::{self, Setup};
use super::command::Command;
use super::{KubectlError, Outcome, dry_run, write};
use crate::api::*;
use crate::cluster::Cluster;

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    patch(c, cmd)
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

/// `kubectl patch TYPE NAME… -p PATCH [--type strategic|merge|json] [--dry-run=…]` on
/// Deployments, ReplicaSets and pods: the patch is read as YAML (of which JSON is a part),
/// applied to each object the builder finds, and the result sent as an update.
fn patch(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let ty = a.flag("type").flatten().unwrap_or("strategic");
    if !["json", "merge", "strategic"].contains(&ty.to_ascii_lowercase().as_str()) {
        return Err(
            format!("error: --type must be one of [json merge strategic], not {ty:?}").into(),
        );
    }
    let Some(Some(p)) = a.flag("patch") else {
        return Err("error: must specify -p to patch".into());
    };
    let (dry, mut report) = dry_run(c, &a)?;
    let patch: Value = crate::api::yaml::parse_document(p)
        .map_err(|e| format!("error: unable to parse \"{p}\": {e}"))?;
    let visit = builder::visit(c, &a, &a.positional, Setup::default())?;
    if visit.items.is_empty() {
        return Err(KubectlError::Go("no objects passed to patch".into()));
    }
    for item in visit.items {
        let r = item.and_then(|info| {
            let new = patched(&info.object, &patch, p, &ty.to_ascii_lowercase())?;
            let changed = new != info.object;
            if changed {
                write(c, new, dry)?;
                report.wrote |= dry == DryRun::None;
            }
            let done = if changed {
                "patched"
            } else {
                "patched (no change)"
            };
            Ok(format!("{} {done}{}", info.object_name(), dry.suffix()))
        });
        report.item(r);
    }
    report.finish()
}

/// An object with a patch of type `ty` applied (`p` as typed, for errors), checked against
/// the kind's fields and decoded as the same kind.
fn patched(old: &Object, patch: &Value, p: &str, ty: &str) -> Result<Object, KubectlError> {
    let kind = old.kind();
    let mut v = old.to_value();
    match ty {
        "merge" => json_patch::merge(&mut v, patch),
        "json" => {
            let ops: json_patch::Patch = serde_json::from_value(patch.clone())
                .map_err(|e| format!("error: unable to parse \"{p}\" as a JSON patch: {e}"))?;
            json_patch::patch(&mut v, &ops).map_err(|e| format!("Error from server: {e}"))?;
        }
        _ => strategic_patch(&mut v, patch),
    }
    // Strict field validation of the patched object.
    let unknown = schema::unknown_fields(kind, &v);
    if !unknown.is_empty() {
        return Err(schema::invalid_patch(patch, &unknown).into());
    }
    // Decoded as the stored kind: a patch cannot turn a Deployment into something else.
    codec::object_of(kind, v)
        .map_err(|e| format!("error: the patch does not fit a {}: {e}", kind.as_str()).into())
}
