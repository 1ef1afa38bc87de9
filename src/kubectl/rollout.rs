//! `kubectl rollout pause|resume|restart|undo|status|history` (k8s.io/kubectl v0.36.3
//! `pkg/cmd/rollout`, `pkg/polymorphichelpers`): each subcommand takes its objects from the
//! resource builder (names, `TYPE/NAME`s, a bare type for all of it, `-l`), goes on past an
//! object it cannot handle and says why after the others. `status` starts a watch on the
//! cluster that this module's status viewer reads.

use super::args::{Args, DryRun};
use super::builder::{self, Info, Report, Setup, Visit};
use super::command::Command;
use super::duration::go_duration_ms;
use super::printer::owned_replica_sets;
use super::watcher::Watch;
use super::{KubectlError, Outcome, dry_run, update_deployment};
use crate::api::*;
use crate::cluster::Cluster;
use crate::controller::deployment::util as du;

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    let Some(sub) = cmd.args.first().map(String::as_str) else {
        return Err(
            "error: kubectl rollout needs a subcommand: pause, resume, restart, undo, status or history"
                .into(),
        );
    };
    match sub {
        "pause" | "resume" => pause_resume(c, cmd, sub == "pause"),
        "restart" => restart(c, cmd),
        "undo" => undo_command(c, cmd),
        "status" => status(c, cmd),
        "history" => history(c, cmd),
        other => Err(format!(
            "error: unknown command \"rollout {other}\": expected pause, resume, restart, undo, status or history"
        )
        .into()),
    }
}

/// The objects a rollout subcommand names (`ResourceTypeOrNameArgs(true, …)`: a bare type is
/// every object of it), after kubectl's own check that one was named.
fn objects(c: &Cluster, a: &Args) -> Result<Visit, KubectlError> {
    if a.positional.is_empty() {
        return Err(KubectlError::Go("required resource not specified".into()));
    }
    let setup = Setup {
        allow_empty_selector: true,
        select_all: false,
    };
    builder::visit(c, a, &a.positional, setup)
}

/// The Deployment an object is, or the error kubectl's polymorphic helper gives for another
/// kind (`what`: "pausing", "resuming", "restarting").
fn as_deployment<'i>(info: &'i Info, what: &str) -> Result<&'i Deployment, KubectlError> {
    match &info.object {
        Object::Deployment(d) => Ok(d),
        o => Err(KubectlError::Go(format!(
            "error: {} {:?} {what} is not supported",
            o.kind().resource(),
            info.name
        ))),
    }
}

/// A kind as a GroupKind prints (`ReplicaSet.apps`, `Pod`), for "not implemented" errors.
fn group_kind(o: &Object) -> &'static str {
    super::resource::row_of(o.kind()).group_kind
}

/// polymorphichelpers' refusal of a kind it has no `what` for (`no rollbacker has been
/// implemented for "ReplicaSet.apps"`).
fn not_implemented(what: &str, o: &Object) -> KubectlError {
    KubectlError::Go(format!(
        "no {what} has been implemented for {:?}",
        group_kind(o)
    ))
}

/// kubectl's line for no object found (on stderr, and not an error).
fn none_found(a: &Args) -> String {
    format!("No resources found in {} namespace.", a.ns())
}

/// `rollout pause` / `rollout resume`: each Deployment's `spec.paused` set; one already so is
/// an error of its own, the others go on.
fn pause_resume(c: &mut Cluster, cmd: &Command, pause: bool) -> Outcome {
    let a = Args::of(cmd)?;
    let visit = objects(c, &a)?;
    let mut report = Report::default();
    if visit.items.is_empty() {
        return Ok(none_found(&a));
    }
    let (verb, done, already) = if pause {
        ("pausing", "paused", "is already paused")
    } else {
        ("resuming", "resumed", "is not paused")
    };
    for item in visit.items {
        let r = item.and_then(|info| {
            let mut d = as_deployment(&info, verb)?.clone();
            if d.spec.paused == pause {
                return Err(KubectlError::Go(format!(
                    "error: deployments.apps {:?} {already}",
                    info.name
                )));
            }
            d.spec.paused = pause;
            update_deployment(c, d).map_err(failed_to_patch)?;
            report.wrote = true;
            Ok(format!("{} {done}", info.object_name()))
        });
        report.item(r);
    }
    report.finish()
}

fn failed_to_patch(e: KubectlError) -> KubectlError {
    KubectlError::Go(format!(
        "failed to patch: {}",
        e.to_string().trim_start_matches("error: ")
    ))
}

/// `rollout restart`: each Deployment's template stamped with the time, so the controller rolls
/// every pod. A second restart within the same second makes no change, which kubectl refuses.
fn restart(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let visit = objects(c, &a)?;
    if visit.items.is_empty() {
        return Ok(none_found(&a));
    }
    // kubectl's stamp: RFC 3339 with whole seconds.
    let now = c.now();
    let stamp = Time(now.0 - now.0.rem_euclid(1_000_000_000)).to_string();
    let mut report = Report::default();
    for item in visit.items {
        let r = item.and_then(|info| {
            let mut d = as_deployment(&info, "restarting")?.clone();
            if d.spec.paused {
                return Err(KubectlError::Go(format!(
                    "error: deployments.apps {:?} can't restart paused deployment (run rollout resume first)",
                    info.name
                )));
            }
            let annotations = &mut d.spec.template.metadata.annotations;
            if annotations.get(RESTARTED_AT).is_some_and(|s| *s == stamp) {
                return Err(KubectlError::Go(format!(
                    "failed to create patch for {}: if restart has already been triggered within the past second, please wait before attempting to trigger another",
                    info.name
                )));
            }
            annotations.insert(RESTARTED_AT.into(), stamp.clone());
            update_deployment(c, d).map_err(failed_to_patch)?;
            report.wrote = true;
            Ok(format!("{} restarted", info.object_name()))
        });
        report.item(r);
    }
    report.finish()
}

const RESTARTED_AT: &str = "kubectl.kubernetes.io/restartedAt";

/// `rollout undo [--to-revision=N] [--dry-run=…]`.
fn undo_command(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let to = match a.flag("to-revision") {
        Some(Some(v)) => v.parse::<i64>().map_err(|_| {
            format!("error: invalid argument \"{v}\" for \"--to-revision\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax")
        })?,
        Some(None) => return Err("error: flag needs an argument: --to-revision".into()),
        None => 0,
    };
    let (dry, mut report) = dry_run(c, &a)?;
    let visit = objects(c, &a)?;
    for item in visit.items {
        let r = item.and_then(|info| {
            // kubectl v1.36 (kubernetes/kubernetes fbe6f7f9): an object `kubectl apply` wrote
            // is warned about first (its last-applied annotation stays as it was).
            if c.release().undo_warns_of_apply()
                && info
                    .object
                    .meta()
                    .annotations
                    .contains_key(LAST_APPLIED_ANNOTATION)
            {
                report.warnings.push(format!(
                    "Warning: resource {} was previously managed with 'kubectl apply'. Rolling back will not update the {LAST_APPLIED_ANNOTATION} annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.",
                    info.object_name()
                ));
            }
            let Object::Deployment(d) = &info.object else {
                return Err(not_implemented("rollbacker", &info.object));
            };
            let result = rollback(c, (**d).clone(), to, dry)?;
            report.wrote |= result == ROLLED_BACK && dry == DryRun::None;
            Ok(format!("{} {result}{}", info.object_name(), dry.suffix()))
        });
        report.item(r);
    }
    report.finish()
}

const ROLLED_BACK: &str = "rolled back";

/// kubectl's `DeploymentRollbacker.Rollback`, on the client: the ReplicaSet of revision `to`
/// (0: the one before the newest) is found first; a client dry run prints its template; a
/// paused Deployment is refused; a template already the Deployment's is skipped; else the
/// template (without the pod-template-hash label) and the ReplicaSet's annotations are
/// written back. The controller then sees a new template: the rollout branch, reusing the
/// old ReplicaSet. Returns what kubectl prints after the object's name.
pub(super) fn rollback(
    c: &mut Cluster,
    mut d: Deployment,
    to: i64,
    dry: DryRun,
) -> Result<String, KubectlError> {
    if to < 0 {
        return Err(KubectlError::Go(not_in_history(to)));
    }
    let rs = revision_of(c, &d, to)?;
    if dry == DryRun::Client {
        return Ok(super::describe::pod_template_text(&rs.spec.template));
    }
    if d.spec.paused {
        return Err(KubectlError::Go("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into()));
    }
    if du::equal_ignore_hash(&rs.spec.template, &d.spec.template) {
        return Ok(format!(
            "skipped rollback (current template already matches revision {to})"
        ));
    }
    let mut template = rs.spec.template.clone();
    template
        .metadata
        .labels
        .remove(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY);
    d.spec.template = template;
    // The same annotations the controller's rollback branch restores (`annotationsToSkip`).
    du::set_deployment_annotations_to(&mut d, &rs);
    super::write(c, Object::Deployment(Box::new(d)), dry).map_err(|e| {
        KubectlError::Go(format!(
            "failed restoring revision {to}: {}",
            e.to_string().trim_start_matches("error: ")
        ))
    })?;
    Ok(ROLLED_BACK.into())
}

fn not_in_history(to: i64) -> String {
    format!("unable to find specified revision {to} in history")
}

/// kubectl's `deploymentRevision`: the Deployment's ReplicaSet at revision `to`, or for 0 the
/// one of the second-highest revision.
pub(super) fn revision_of(
    c: &Cluster,
    d: &Deployment,
    to: i64,
) -> Result<ReplicaSet, KubectlError> {
    let mut latest: Option<(i64, &ReplicaSet)> = None;
    let mut previous: Option<(i64, &ReplicaSet)> = None;
    for rs in owned_replica_sets(c, d) {
        let Ok(v) = du::revision(&rs.metadata) else {
            continue;
        };
        if to > 0 {
            if v == to {
                return Ok(rs.clone());
            }
            continue;
        }
        if latest.is_none_or(|(l, _)| l < v) {
            previous = latest;
            latest = Some((v, rs));
        } else if previous.is_none_or(|(p, _)| p < v) {
            previous = Some((v, rs));
        }
    }
    if to > 0 {
        return Err(KubectlError::Go(not_in_history(to)));
    }
    previous.map(|(_, rs)| rs.clone()).ok_or_else(|| {
        KubectlError::Go(format!(
            "no rollout history found for deployment \"{}\"",
            d.metadata.name
        ))
    })
}

/// `--revision`, refused as pflag refuses a non-integer and kubectl a negative one.
fn revision_flag(a: &Args) -> Result<i64, KubectlError> {
    let Some(v) = a.flag("revision") else {
        return Ok(0);
    };
    let v = v.unwrap_or("");
    let n = v.parse::<i64>().map_err(|_| {
        format!("error: invalid argument \"{v}\" for \"--revision\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax")
    })?;
    if n < 0 {
        return Err(KubectlError::Go(format!(
            "revision must be a positive integer: {n}"
        )));
    }
    Ok(n)
}

/// `rollout history [--revision=N] [-o yaml|json|name]`: the revisions and their change
/// causes, one revision's pod template, or the ReplicaSets behind them as objects.
fn history(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    if a.positional.is_empty() {
        return Err(KubectlError::Go("required resource not specified".into()));
    }
    let revision = revision_flag(&a)?;
    let output = a.flag("output").flatten();
    if let Some(o) = output.filter(|o| !matches!(*o, "yaml" | "json" | "name")) {
        return Err(super::printer::unknown_output(o, "json,name,yaml"));
    }
    let visit = objects(c, &a)?;
    let mut report = Report::default();
    for item in visit.items {
        let r = item.and_then(|info| {
            let Object::Deployment(d) = &info.object else {
                return Err(not_implemented("history viewer", &info.object));
            };
            if let Some(o) = output {
                return history_objects(c, d, revision, o);
            }
            let text = view_history(c, d, revision)?;
            let with = if revision > 0 {
                format!("with revision #{revision}")
            } else {
                String::new()
            };
            // The name printer's line, the viewer's text and `Fprintln`'s line break: a blank
            // line after each object's table (the console leaves out the last).
            Ok(format!(
                "{} {with}\n{}\n",
                info.object_name(),
                text.trim_end()
            ))
        });
        report.item(r);
    }
    report
        .finish()
        .map(|out| out.trim_end_matches('\n').to_string())
}

/// The Deployment's ReplicaSets by revision (`historyInfo`), those without one left out.
fn by_revision<'a>(c: &'a Cluster, d: &Deployment) -> Vec<(i64, &'a ReplicaSet)> {
    let mut v: Vec<(i64, &ReplicaSet)> = owned_replica_sets(c, d)
        .into_iter()
        .filter_map(|rs| Some((du::revision(&rs.metadata).ok()?, rs)))
        .collect();
    crate::api::sort::sort_by_key(&mut v, |(r, _)| *r);
    // Two ReplicaSets of one revision: kubectl's map keeps the last it read.
    v.dedup_by_key(|(r, _)| *r);
    v
}

/// kubectl's `DeploymentHistoryViewer.ViewHistory`: the table of revisions, or one revision's
/// pod template (with its change cause among the annotations).
fn view_history(c: &Cluster, d: &Deployment, revision: i64) -> Result<String, KubectlError> {
    let revisions = by_revision(c, d);
    if revisions.is_empty() {
        return Ok("No rollout history found.".into());
    }
    if revision > 0 {
        let (_, rs) = revisions
            .iter()
            .find(|(r, _)| *r == revision)
            .ok_or_else(|| KubectlError::Go("unable to find the specified revision".into()))?;
        let mut template = rs.spec.template.clone();
        if let Some(cause) = rs.metadata.annotations.get(CHANGE_CAUSE_ANNOTATION) {
            template
                .metadata
                .annotations
                .insert(CHANGE_CAUSE_ANNOTATION.into(), cause.clone());
        }
        return Ok(super::describe::pod_template_text(&template));
    }
    let mut rows = vec!["REVISION\tCHANGE-CAUSE".to_string()];
    for (r, rs) in revisions {
        let cause = rs
            .metadata
            .annotations
            .get(CHANGE_CAUSE_ANNOTATION)
            .filter(|c| !c.is_empty())
            .map_or("<none>", String::as_str);
        rows.push(format!("{r}\t{cause}"));
    }
    Ok(super::printer::aligned(&rows.join("\n"), 0, 2))
}

/// `rollout history -o …`: the ReplicaSets of the revisions (or of one), printed as objects.
fn history_objects(c: &Cluster, d: &Deployment, revision: i64, output: &str) -> Outcome {
    let revisions = by_revision(c, d);
    let chosen: Vec<&ReplicaSet> = if revision > 0 {
        let (_, rs) = revisions
            .iter()
            .find(|(r, _)| *r == revision)
            .ok_or_else(|| KubectlError::Go("unable to find the specified revision".into()))?;
        vec![rs]
    } else {
        revisions.iter().map(|(_, rs)| *rs).collect()
    };
    let printed: Vec<String> = chosen
        .into_iter()
        .map(|rs| {
            let o = Object::ReplicaSet(Box::new(rs.clone()));
            match output {
                "name" => format!("replicaset.apps/{}", rs.metadata.name),
                "json" => crate::api::print::to_json(&crate::api::yaml::kubectl_value(&o)),
                _ => crate::api::print::to_yaml(&crate::api::yaml::kubectl_value(&o)),
            }
        })
        .collect();
    // The YAML printer separates documents; the others print one after another.
    let sep = if output == "yaml" { "\n---\n" } else { "\n" };
    Ok(printed
        .iter()
        .map(|s| s.trim_end())
        .collect::<Vec<_>>()
        .join(sep))
}

/// `rollout status [--watch] [--timeout=D] [--revision=N]`: each object in turn, as kubectl
/// visits them; the first not done is watched as the cluster runs, and the rest after it.
fn status(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    if a.positional.is_empty() {
        return Err(KubectlError::Go("required resource not specified".into()));
    }
    let revision = revision_flag(&a)?;
    let watch = match a.flag("watch") {
        None | Some(None) => true,
        Some(Some(v)) => super::args::parse_bool(v).ok_or_else(|| {
            format!("error: invalid argument \"{v}\" for \"-w, --watch\" flag: strconv.ParseBool: parsing \"{v}\": invalid syntax")
        })?,
    };
    let timeout = match a.flag("timeout") {
        None => None,
        Some(None) => return Err("error: flag needs an argument: --timeout".into()),
        Some(Some(v)) => go_duration_ms(v)
            .map_err(|e| format!("error: invalid argument \"{v}\" for \"--timeout\" flag: {e}"))?,
    };
    let visit = objects(c, &a)?;
    if visit.items.is_empty() {
        return Ok(none_found(&a));
    }
    let mut report = Report::default();
    let mut waiting: Vec<String> = vec![];
    for item in visit.items {
        // Once one is watched, the rest wait their turn (a watch's `then`).
        if !waiting.is_empty() {
            match item {
                Ok(info) if info.object.kind() == Kind::Deployment => waiting.push(info.key),
                Ok(info) => report.err(no_status_viewer(&info.object)),
                Err(e) => report.err(e),
            }
            continue;
        }
        let r = item.and_then(|info| {
            let Object::Deployment(d) = &info.object else {
                return Err(no_status_viewer(&info.object));
            };
            let (line, done) = status_viewer(d, revision).map_err(KubectlError::Go)?;
            if watch && !done {
                waiting.push(info.key.clone());
            }
            Ok(line)
        });
        report.item(r);
    }
    if let Some((first, then)) = waiting.split_first() {
        let d = c.store.deployment(first).cloned().expect("just read");
        let now = c.now_ms();
        let mut w = Watch::new(&d, status_viewer, revision, timeout, now);
        w.then = then.to_vec();
        w.errors = report.errs.drain(..).map(|e| e.bare()).collect();
        c.start_client(|_| ((), Some(Box::new(w))));
    }
    report.finish()
}

fn no_status_viewer(o: &Object) -> KubectlError {
    KubectlError::Go(format!(
        "no status viewer has been implemented for {}",
        group_kind(o)
    ))
}

/// kubectl's `DeploymentStatusViewer.Status`: the line to print and whether the rollout is
/// done, or the error that ends the watch. `revision` > 0 pins the revision
/// (`--revision`).
pub fn status_viewer(d: &Deployment, revision: i64) -> Result<(String, bool), String> {
    let n = &d.metadata.name;
    if revision > 0 {
        let current = du::revision(&d.metadata)
            .map_err(|e| format!("cannot get the revision of deployment \"{n}\": {e}"))?;
        if current != revision {
            return Err(format!(
                "desired revision ({revision}) is different from the running revision ({current})"
            ));
        }
    }
    let s = &d.status;
    if d.metadata.generation > s.observed_generation {
        return Ok((
            "Waiting for deployment spec update to be observed...".to_string(),
            false,
        ));
    }
    if du::get_deployment_condition(s, du::PROGRESSING)
        .is_some_and(|c| c.reason == du::TIMED_OUT_REASON)
    {
        return Err(format!("deployment \"{n}\" exceeded its progress deadline"));
    }
    let want = d.replicas();
    let line = if s.updated_replicas < want {
        format!(
            "Waiting for deployment \"{n}\" rollout to finish: {} out of {want} new replicas have been updated...",
            s.updated_replicas
        )
    } else if s.replicas > s.updated_replicas {
        format!(
            "Waiting for deployment \"{n}\" rollout to finish: {} old replicas are pending termination...",
            s.replicas - s.updated_replicas
        )
    } else if s.available_replicas < s.updated_replicas {
        format!(
            "Waiting for deployment \"{n}\" rollout to finish: {} of {} updated replicas are available...",
            s.available_replicas, s.updated_replicas
        )
    } else {
        return Ok((format!("deployment \"{n}\" successfully rolled out"), true));
    };
    Ok((line, false))
}
