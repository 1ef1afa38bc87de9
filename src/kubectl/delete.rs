//! `kubectl delete` (k8s.io/kubectl/pkg/cmd/delete), with `--cascade`.

use super::args::Args;
use super::command::Command;
use super::resource::Resource;
use super::{Outcome, api_err, not_found};
use crate::apiserver::store::Propagation;
use crate::cluster::Cluster;

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    delete(c, &cmd.args)
}

fn delete(c: &mut Cluster, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["cascade", "grace-period", "l", "selector"])?;
    a.only(&[
        "cascade",
        "grace-period",
        "now",
        "force",
        "wait",
        "l",
        "selector",
    ])?;
    let objects = a.resources(c, "delete")?;
    if objects.is_empty() {
        return Ok("No resources found".into());
    }
    let propagation = match a.flag("cascade") {
        None | Some(None) => Propagation::Background,
        Some(Some(v)) => Propagation::parse(v).ok_or_else(|| format!("error: invalid argument \"{v}\" for \"--cascade\" flag: expected background, foreground or orphan"))?,
    };
    let force = a.flag("force").is_some();
    if a.flag("now").is_some() && a.flag("grace-period").is_some() {
        return Err("error: --now and --grace-period cannot be specified together".into());
    }
    // kubectl's DeleteOptions: a negative period is the object's own; 0 without --force is
    // made 1 (no accidental immediate deletion); --force alone means 0.
    let grace = match a.int("grace-period")? {
        Some(g) => Some(g as i64).filter(|g| *g >= 0),
        None if a.flag("now").is_some() => Some(1),
        None => None,
    };
    let grace = match grace {
        Some(0) if !force => Some(1),
        None if force => Some(0),
        g => g,
    };
    // kubectl's builder goes on past an object it cannot find (`ContinueOnError`): the others
    // are deleted, and what was not found is said after them. When none was, nothing changed.
    let (mut out, mut missing) = (vec![], vec![]);
    for (res, name) in objects {
        let key = a.key(&name);
        if c.store.get(res.kind(), &key).is_none() {
            missing.push(not_found(res.kind(), &name));
            continue;
        }
        out.push(delete_one(c, res, &key, &name, propagation, grace)?);
    }
    if out.is_empty() && !missing.is_empty() {
        return Err(missing.swap_remove(0));
    }
    out.extend(missing.iter().map(ToString::to_string));
    Ok(out.join("\n"))
}

/// One object of a delete, with its grace period (a pod's own when none is given).
fn delete_one(
    c: &mut Cluster,
    res: Resource,
    key: &str,
    name: &str,
    propagation: Propagation,
    grace: Option<i64>,
) -> Outcome {
    let grace = match (res, grace) {
        (Resource::Pod, None) => c
            .store
            .pod(key)
            .and_then(|p| p.spec.termination_grace_period_seconds),
        (_, g) => g,
    };
    c.store
        .delete(res.kind(), key, propagation, grace)
        .map_err(api_err)?;
    if grace == Some(0) {
        return Ok(format!(
            "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n{} \"{name}\" force deleted",
            res.prefix()
        ));
    }
    Ok(format!("{} \"{name}\" deleted", res.prefix()))
}
