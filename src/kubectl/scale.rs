//! `kubectl scale` (k8s.io/kubectl v0.36.3 `pkg/cmd/scale`, `pkg/scale`): the scale
//! subresource of each object the builder finds, with the size precondition
//! (`--current-replicas`). Unlike label, it stops at the first object it cannot scale.

use super::args::{Args, DryRun};
use super::builder::{self, Setup};
use super::command::Command;
use super::{KubectlError, Outcome, dry_run, write};
use crate::api::*;
use crate::cluster::Cluster;

/// (Long: kubectl's checks in its order, then each object scaled until one cannot be.)
pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let Some(n) = a.int("replicas")? else {
        return Err("error: required flag(s) \"replicas\" not set".into());
    };
    let (dry, mut report) = dry_run(c, &a)?;
    let output = match a.flag("output").flatten() {
        None => None,
        Some(o @ ("name" | "yaml" | "json")) => Some(o),
        Some(o) => return Err(super::printer::unknown_output(o, "json,name,yaml")),
    };
    if n < 0 {
        return Err(KubectlError::Go(
            "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
                .into(),
        ));
    }
    // The size precondition (-1, the default: none), checked against the stored spec.
    let current = a.int("current-replicas")?.unwrap_or(-1);
    if current < -1 {
        return Err(KubectlError::Go(
            "The --current-replicas must specify an integer of -1 or greater".into(),
        ));
    }
    // The resourceVersion precondition (empty, the default: none).
    let resource_version = a.flag("resource-version").flatten().unwrap_or("");
    let setup = Setup {
        allow_empty_selector: a.bool_flag("all")?,
        select_all: false,
    };
    let visit = builder::visit(c, &a, &a.positional, setup)?;
    let (infos, errs): (Vec<_>, Vec<_>) = visit.items.into_iter().partition(Result::is_ok);
    let errs: Vec<KubectlError> = errs.into_iter().filter_map(Result::err).collect();
    if !resource_version.is_empty() && infos.len() > 1 {
        return Err(KubectlError::Go(
            "cannot use --resource-version with multiple resources".into(),
        ));
    }
    if infos.is_empty() {
        return Err(nothing_to_scale(c, errs));
    }
    for info in infos.into_iter().flatten() {
        let mut obj = info.object.clone();
        let replicas = match &mut obj {
            Object::Deployment(d) => &mut d.spec.replicas,
            Object::ReplicaSet(rs) => &mut rs.spec.replicas,
            // Pods and nodes have no scale subresource.
            Object::Pod(_)
            | Object::Node(_)
            | Object::PodDisruptionBudget(_)
            | Object::Service(_)
            | Object::EndpointSlice(_) => {
                report.err(KubectlError::Client(
                    "Error from server (NotFound): the server could not find the requested resource"
                        .into(),
                ));
                return report.finish();
            }
        };
        // A client-side dry run prints without asking the scale subresource.
        let found = (
            replicas.unwrap_or(1),
            info.object.meta().resource_version.as_str(),
        );
        if let Some(e) =
            validate((current, resource_version), found).filter(|_| dry != DryRun::Client)
        {
            report.err(e);
            return report.finish();
        }
        *replicas = Some(n);
        // kubectl prints the object it fetched; from v1.36 (PR #136945) with the replicas it
        // asked for, before with the ones it found.
        let shown = match output {
            Some("yaml" | "json") if c.release().scale_prints_the_new_replicas() => {
                Some(obj.clone())
            }
            Some("yaml" | "json") => Some(info.object.clone()),
            _ => None,
        };
        if let Err(e) = write(c, obj, dry) {
            report.err(e);
            return report.finish();
        }
        report.wrote |= dry == DryRun::None;
        report.item(Ok(match output {
            Some("name") => info.object_name(),
            Some(o) => super::get::printed(shown.as_ref().unwrap_or(&info.object), o),
            None => format!("{} scaled{}", info.object_name(), dry.suffix()),
        }));
    }
    // The objects not found are said after the others.
    errs.into_iter().for_each(|e| report.err(e));
    report.finish()
}

/// `ScalePrecondition.validate`: the size (-1: none), then the scale's resourceVersion (empty:
/// none; the object's own), against what the scale subresource holds.
fn validate(
    (size, resource_version): (i32, &str),
    (replicas, found): (i32, &str),
) -> Option<KubectlError> {
    if size != -1 && replicas != size {
        return Some(KubectlError::Go(format!(
            "Expected replicas to be {size}, was {replicas}"
        )));
    }
    if !resource_version.is_empty() && found != resource_version {
        return Some(KubectlError::Go(format!(
            "Expected resource version to be {resource_version}, was {found}"
        )));
    }
    None
}

/// No object to scale: what the builder could not find, or kubectl's own words.
fn nothing_to_scale(c: &Cluster, mut errs: Vec<KubectlError>) -> KubectlError {
    match errs.len() {
        0 => KubectlError::Go("no objects passed to scale".into()),
        1 if c.release().scale_says_not_found_as_is() => errs.remove(0),
        // Before v1.35 kubectl wrapped the error (`no objects passed to scale %w`).
        1 => KubectlError::Go(format!(
            "no objects passed to scale {}",
            match errs.remove(0) {
                KubectlError::Server(e) => e.to_string(),
                other => other.bare(),
            }
        )),
        _ => KubectlError::Many(errs),
    }
}
