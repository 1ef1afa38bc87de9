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
    let name_only = match a.flag("o").or(a.flag("output")).flatten() {
        None => false,
        Some("name") => true,
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
            1 => errs.remove(0),
            _ => KubectlError::Many(errs),
        });
    }
    for info in infos.into_iter().flatten() {
        let mut obj = info.object.clone();
        let replicas = match &mut obj {
            Object::Deployment(d) => &mut d.spec.replicas,
            Object::ReplicaSet(rs) => &mut rs.spec.replicas,
            // Pods have no scale subresource.
            Object::Pod(_) => {
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
        if let Err(e) = write(c, obj, dry) {
            report.err(e);
            return report.finish();
        }
        report.wrote |= dry == DryRun::None;
        report.item(Ok(if name_only {
            info.object_name()
        } else {
            format!("{} scaled{}", info.object_name(), dry.suffix())
        }));
    }
    // The objects not found are said after the others.
    errs.into_iter().for_each(|e| report.err(e));
    report.finish()
}
