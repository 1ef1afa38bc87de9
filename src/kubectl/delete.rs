//! `kubectl delete` (k8s.io/kubectl v0.36.3 `pkg/cmd/delete`): the objects the builder finds,
//! with `--cascade`, the grace period flags, `--dry-run` and `-o name`; an object not found
//! is said after the others are deleted (`ContinueOnError`).

use super::args::{Args, DryRun};
use super::builder::{self, Info, Setup};
use super::command::Command;
use super::{KubectlError, Outcome, api_err, dry_run};
use crate::api::Kind;
use crate::apiserver::store::Propagation;
use crate::cluster::Cluster;

/// (Long: kubectl's option checks, in its order, then one delete per object found.)
pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let mut warnings = vec![];
    let propagation = cascade(a.flag("cascade"), &mut warnings)?;
    let force = a.bool_flag("force")?;
    // kubectl's DeleteOptions: --now is a grace period of 1; 0 without --force is made 1 (no
    // accidental immediate deletion); --force alone means 0; -1 is the object's own.
    let mut grace = a.int("grace-period")?.unwrap_or(-1);
    if a.bool_flag("now")? {
        if grace != -1 {
            return Err(go("--now and --grace-period cannot be specified together"));
        }
        grace = 1;
    }
    if grace == 0 && !force {
        grace = 1;
    }
    if force && grace < 0 {
        grace = 0;
    }
    let (dry, mut report) = dry_run(c, &a)?;
    report.warnings.splice(0..0, warnings);
    let all = a.bool_flag("all")?;
    let setup = Setup {
        allow_empty_selector: false,
        select_all: all,
    };
    let visit = builder::visit(c, &a, &a.positional, setup)?;
    let output = a.flag("output").flatten();
    if let Some(o) = output.filter(|o| *o != "name") {
        return Err(go(format!(
            "unexpected -o output mode: {o}. We only support '-o name'"
        )));
    }
    if all && a.selector().is_some() {
        return Err(go("cannot set --all and --selector at the same time"));
    }
    if all && a.flag("field-selector").flatten().is_some() {
        return Err(go("cannot set --all and --field-selector at the same time"));
    }
    match grace {
        0 if force => report.warnings.push("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.".into()),
        g if g > 0 && force => {
            return Err(go("--force and --grace-period greater than 0 cannot be specified together"));
        }
        _ => {}
    }
    // With a selector or --all, a name gone meanwhile is not an error (--ignore-not-found).
    let ignore_missing = match a.flag("ignore-not-found") {
        Some(_) => a.bool_flag("ignore-not-found")?,
        None => all || a.selector().is_some() || a.flag("field-selector").is_some(),
    };
    let how = How {
        propagation,
        grace: grace.into(),
        dry,
        name_only: output.is_some(),
    };
    let mut found = 0;
    for item in visit.items {
        let r = item.and_then(|info| {
            found += 1;
            how.delete(c, &info)
        });
        match r {
            Err(KubectlError::Server(e)) if ignore_missing && e.is_not_found() => {}
            r => {
                report.wrote |= r.is_ok() && dry == DryRun::None;
                report.item(r);
            }
        }
    }
    if found == 0 && report.errs.is_empty() {
        report.item(Ok("No resources found".into()));
    }
    report.finish()
}

/// `--cascade[=background|foreground|orphan]`, and the booleans kubectl still takes with a
/// warning.
fn cascade(
    flag: Option<Option<&str>>,
    warnings: &mut Vec<String>,
) -> Result<Propagation, KubectlError> {
    let v = match flag {
        None | Some(None) => return Ok(Propagation::Background),
        Some(Some(v)) => v,
    };
    if let Some(b) = super::args::parse_bool(v) {
        let (p, instead) = if b {
            (Propagation::Background, "background")
        } else {
            (Propagation::Orphan, "orphan")
        };
        warnings.push(format!(
            "warning: --cascade={v} is deprecated (boolean value) and can be replaced with --cascade={instead}."
        ));
        return Ok(p);
    }
    Propagation::parse(v).ok_or_else(|| {
        go(format!(
            "invalid cascade value ({v}). Must be \"background\", \"foreground\", or \"orphan\""
        ))
    })
}

/// How every object of one `kubectl delete` goes.
struct How {
    propagation: Propagation,
    /// The grace period the command asks (-1: each object's own).
    grace: i64,
    dry: DryRun,
    name_only: bool,
}

impl How {
    /// One object deleted (or, in a dry run, checked), and kubectl's line for it.
    fn delete(&self, c: &mut Cluster, info: &Info) -> Result<String, KubectlError> {
        if self.dry != DryRun::Client {
            let key = &info.key;
            let grace = match (info.object.kind(), self.grace) {
                (Kind::Pod, -1) => c
                    .store
                    .pod(key)
                    .and_then(|p| p.spec.termination_grace_period_seconds),
                (_, -1) => None,
                (_, g) => Some(g),
            };
            if self.dry == DryRun::Server {
                c.store
                    .get(info.object.kind(), key)
                    .ok_or_else(|| super::not_found(info.object.kind(), &info.name))?;
            } else {
                c.apiserver()
                    .delete(info.object.kind(), key, self.propagation, grace)
                    .map_err(api_err)?;
            }
        }
        let kind = info.res.prefix();
        if self.name_only {
            return Ok(format!("{kind}/{}", info.name));
        }
        let operation = if self.grace == 0 {
            "force deleted"
        } else {
            "deleted"
        };
        Ok(format!(
            "{kind} \"{}\" {operation} from {} namespace{}",
            info.name,
            info.object.meta().namespace,
            self.dry.suffix()
        ))
    }
}

fn go(message: impl Into<String>) -> KubectlError {
    KubectlError::Go(message.into())
}
