//! `kubectl label` and `kubectl annotate` (k8s.io/kubectl/pkg/cmd/label, pkg/cmd/annotate).

use super::args::Args;
use super::command::Command;
use super::resource::Resource;
use super::{Outcome, api_err, not_found};
use crate::api::*;
use crate::cluster::Cluster;

/// `label` or `annotate`, by the verb's name.
pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    annotate(c, cmd.verb.name, &cmd.args)
}

fn annotate(c: &mut Cluster, verb: &str, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["l", "selector"])?;
    a.only(&["overwrite", "l", "selector"])?;
    let (res, names, next) = a.targets(c, 0, verb)?;
    let changes = &a.positional[next..];
    if changes.is_empty() {
        return Err(format!(
            "error: at least one {} update is required (KEY=VALUE or KEY-)",
            if verb == "label" {
                "label"
            } else {
                "annotation"
            }
        )
        .into());
    }
    let overwrite = a.flag("overwrite").is_some();
    let mut out = vec![];
    for name in names {
        out.push(annotate_one(
            c,
            verb,
            res,
            &a.key(&name),
            &name,
            changes,
            overwrite,
        )?);
    }
    Ok(out.join("\n"))
}

/// `kubectl label` / `annotate` on one object.
fn annotate_one(
    c: &mut Cluster,
    verb: &str,
    res: Resource,
    key: &str,
    name: &str,
    changes: &[String],
    overwrite: bool,
) -> Outcome {
    let mut obj = c
        .store
        .get(res.kind(), key)
        .cloned()
        .ok_or_else(|| not_found(res.kind(), name))?;
    // kubectl tells a label change from the object's JSON before and after: the same, "not
    // labeled"; shorter (without --overwrite), "unlabeled". Only `"labels":{…}` can differ, and
    // the command writes it even emptied, so labels added to or removed from none "labeled".
    let json = |m: &Labels| m.iter().map(|(k, v)| k.len() + v.len() + 6).sum::<usize>();
    let (mut out, mut changed, before) = (String::new(), false, json(&obj.meta().labels));
    {
        let m = obj.meta_mut();
        let map = if verb == "label" {
            &mut m.labels
        } else {
            &mut m.annotations
        };
        for ch in changes {
            if let Some(k) = ch.strip_suffix('-').filter(|_| !ch.contains('=')) {
                if map.remove(k).is_some() {
                    changed = true;
                } else if verb == "label" {
                    out += &format!("label {k:?} not found.\n");
                }
            } else {
                let (k, v) = ch.split_once('=').ok_or_else(|| {
                    format!("error: invalid {verb} update {ch:?}: expected KEY=VALUE or KEY-")
                })?;
                if k.is_empty() {
                    return Err(format!(
                        "error: invalid {verb} update {ch:?}: the key may not be empty"
                    )
                    .into());
                }
                // A key already there is refused whatever its value, bar the change-cause
                // annotation, which kubectl always lets a command set.
                if let Some(old) = map.get(k)
                    && !overwrite
                {
                    if verb == "label" {
                        return Err(format!(
                            "error: '{k}' already has a value ({old}), and --overwrite is false"
                        )
                        .into());
                    }
                    if k != "kubernetes.io/change-cause" {
                        return Err(format!(
                            "error: --overwrite is false but found the following declared annotation(s): '{k}' already has a value ({old})"
                        ).into());
                    }
                }
                changed |= map.insert(k.to_string(), v.to_string()).as_deref() != Some(v);
            }
        }
    }
    let done = match json(&obj.meta().labels) {
        _ if verb != "label" => "annotated",
        _ if before == 0 => "labeled",
        _ if !changed => "not labeled",
        after if after < before && !overwrite => "unlabeled",
        _ => "labeled",
    };
    c.store.update(obj).map_err(api_err)?;
    Ok(format!("{out}{}/{name} {done}", res.prefix()))
}
