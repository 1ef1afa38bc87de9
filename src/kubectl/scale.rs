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
    let a = Args::parse(
        &cmd.args,
        &[
            "replicas",
            "current-replicas",
            "l",
            "selector",
            "o",
            "output",
        ],
    )?;
    a.only(&[
        "replicas",
        "current-replicas",
        "l",
        "selector",
        "all",
        "dry-run",
        "o",
        "output",
    ])?;
    let Some(n) = a.int("replicas")? else {
        return Err("error: required flag(s) \"replicas\" not set".into());
    };
    let (dry, mut report) = dry_run(c, &a)?;
    let output = match a.flag("o").or(a.flag("output")).flatten() {
        None => None,
        Some(o @ ("name" | "yaml" | "json")) => Some(o),
        Some(o) => return Err(super::get::unknown_output(o, "json,name,yaml")),
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
    let setup = Setup {
        allow_empty_selector: a.bool_flag("all")?,
        select_all: false,
    };
    let visit = builder::visit(c, &a, &a.positional, setup)?;
    let (infos, errs): (Vec<_>, Vec<_>) = visit.items.into_iter().partition(Result::is_ok);
    let mut errs: Vec<KubectlError> = errs.into_iter().filter_map(Result::err).collect();
    if infos.is_empty() {
        return Err(match errs.len() {
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
        });
    }
    for info in infos.into_iter().flatten() {
        let mut obj = info.object.clone();
        let replicas = match &mut obj {
            Object::Deployment(d) => &mut d.spec.replicas,
            Object::ReplicaSet(rs) => &mut rs.spec.replicas,
            // Pods and nodes have no scale subresource.
            Object::Pod(_) | Object::Node(_) | Object::PodDisruptionBudget(_) => {
                report.err(KubectlError::Client(
                    "Error from server (NotFound): the server could not find the requested resource"
                        .into(),
                ));
                return report.finish();
            }
        };
        if dry != DryRun::Client && current != -1 && replicas.unwrap_or(1) != current {
            report.err(KubectlError::Go(format!(
                "Expected replicas to be {current}, was {}",
                replicas.unwrap_or(1)
            )));
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
