//! `kubectl rollout pause|resume|restart|undo|status|history`
//! (k8s.io/kubectl/pkg/cmd/rollout, pkg/polymorphichelpers): `status` starts a watch on the
//! cluster that this module's status viewer reads.

use super::args::Args;
use super::args::parse_bool;
use super::command::Command;
use super::duration::go_duration_ms;
use super::resource::Resource;
use super::{KubectlError, Outcome, get_deployment, update_deployment};
use crate::api::*;
use crate::cluster::Cluster;
use crate::cluster::watch::Watch;
use crate::controller::deployment::util as du;

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    rollout(c, &cmd.args)
}

/// (Long: one arm per subcommand, each with its own flags and messages.)
pub(super) fn rollout(c: &mut Cluster, rest: &[String]) -> Outcome {
    let Some(sub) = rest.first() else {
        return Err(
            "error: kubectl rollout needs a subcommand: pause, resume, restart, undo, status or history"
                .into(),
        );
    };
    let a = Args::parse(&rest[1..], &["to-revision", "revision", "timeout"])?;
    let (res, name, _) = a.target(0, &format!("rollout {sub}"))?;
    if res != Resource::Deployment {
        return Err(format!(
            "error: no rollout {sub} for {}: the playground models deployments",
            res.prefix()
        )
        .into());
    }
    let mut d = get_deployment(c, &a, &name)?;
    match sub.as_str() {
        "pause" | "resume" => {
            a.only(&[])?;
            let pause = sub == "pause";
            if d.spec.paused == pause {
                return Err(format!(
                    "error: deployments.apps \"{name}\" is {}",
                    if pause {
                        "already paused"
                    } else {
                        "not paused"
                    }
                ).into());
            }
            d.spec.paused = pause;
            update_deployment(c, d)?;
            Ok(format!(
                "deployment.apps/{name} {}",
                if pause { "paused" } else { "resumed" }
            ))
        }
        "restart" => {
            a.only(&[])?;
            if d.spec.paused {
                return Err(format!(
                    "error: deployments.apps \"{name}\" can't restart paused deployment (run rollout resume first)"
                )
                .into());
            }
            // kubectl stamps the template with the time (RFC 3339, whole seconds), so the
            // template changes and the controller rolls every pod.
            let now = c.now();
            let stamp = crate::api::Time(now.0 - now.0.rem_euclid(1_000_000_000)).to_string();
            d.spec
                .template
                .metadata
                .annotations
                .insert("kubectl.kubernetes.io/restartedAt".into(), stamp);
            update_deployment(c, d)?;
            Ok(format!("deployment.apps/{name} restarted"))
        }
        "undo" => {
            a.only(&["to-revision"])?;
            let to = match a.flag("to-revision") {
                Some(Some(v)) => v.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| format!("error: invalid argument \"{v}\" for \"--to-revision\" flag: must be a non-negative revision number"))?,
                Some(None) => return Err("error: flag needs an argument: --to-revision".into()),
                None => 0,
            };
            if d.spec.paused {
                return Err("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into());
            }
            undo(c, d, to)
        }
        "status" => {
            a.only(&["watch", "w", "timeout", "revision"])?;
            let watch = match a.flag("watch").or(a.flag("w")) {
                None | Some(None) => true,
                Some(Some(v)) => parse_bool(v).ok_or_else(|| {
                    format!("error: invalid argument \"{v}\" for \"-w, --watch\" flag: strconv.ParseBool: parsing \"{v}\": invalid syntax")
                })?,
            };
            let timeout = match a.flag("timeout") {
                None => None,
                Some(None) => return Err("error: flag needs an argument: --timeout".into()),
                Some(Some(v)) => go_duration_ms(v)
                    .map_err(|e| format!("error: invalid argument \"{v}\" for \"--timeout\" flag: {e}"))?,
            };
            let revision = match a.flag("revision") {
                None => 0,
                Some(v) => {
                    let v = v.unwrap_or("");
                    let n = v.parse::<i64>().map_err(|_| format!("error: invalid argument \"{v}\" for \"--revision\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax"))?;
                    if n < 0 {
                        return Err(format!("error: revision must be a positive integer: {n}").into());
                    }
                    n
                }
            };
            let (line, done) = status_viewer(&d, revision).map_err(|e| format!("error: {e}"))?;
            // Not done yet: the watch goes on as the cluster runs (`Cluster::watches`).
            if watch && !done {
                let now = c.now_ms();
                c.watches.push(Watch::new(&d, status_viewer, revision, timeout, now));
            }
            Ok(line)
        }
        "history" => {
            a.only(&["revision"])?;
            Ok(rollout_history(c, &d, a.flag("revision").flatten())?)
        }
        other => Err(format!(
            "error: unknown command \"rollout {other}\": expected pause, resume, undo, status or history"
        ).into()),
    }
}

/// `kubectl rollout undo` as today's kubectl does it, on the client (`DeploymentRollbacker`):
/// it finds the ReplicaSet of revision `to` (0: the one before the newest), and unless its
/// template is already the Deployment's, writes that template back (without the
/// pod-template-hash label) with the ReplicaSet's annotations (change-cause among them). The
/// controller then sees a new template: the rollout branch, reusing the old ReplicaSet.
pub(super) fn undo(c: &mut Cluster, mut d: Deployment, to: i64) -> Outcome {
    let name = d.metadata.name.to_string();
    let rs = revision_of(c, &d, to)?;
    if du::equal_ignore_hash(&rs.spec.template, &d.spec.template) {
        return Ok(format!(
            "deployment.apps/{name} skipped rollback (current template already matches revision {to})"
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
    update_deployment(c, d).map_err(|e| format!("error: failed restoring revision {to}: {e}"))?;
    Ok(format!("deployment.apps/{name} rolled back"))
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
        return Err(format!("error: unable to find specified revision {to} in history").into());
    }
    previous.map(|(_, rs)| rs.clone()).ok_or_else(|| {
        format!(
            "error: no rollout history found for deployment \"{}\"",
            d.metadata.name
        )
        .into()
    })
}

pub(super) fn owned_replica_sets<'a>(c: &'a Cluster, d: &Deployment) -> Vec<&'a ReplicaSet> {
    let mut v: Vec<&ReplicaSet> = c
        .store
        .dependents_of(&d.metadata.uid)
        .filter_map(|o| {
            if let Object::ReplicaSet(r) = o {
                Some(&**r)
            } else {
                None
            }
        })
        .collect();
    v.sort_by(|a, b| du::by_revision(a, b));
    v
}

pub(super) fn rollout_history(c: &Cluster, d: &Deployment, revision: Option<&str>) -> Outcome {
    let rss = owned_replica_sets(c, d);
    if let Some(r) = revision {
        let want: i64 = r
            .parse()
            .map_err(|_| format!("error: invalid argument \"{r}\" for \"--revision\" flag"))?;
        let rs = rss
            .iter()
            .find(|rs| du::revision(&rs.metadata).ok() == Some(want))
            .ok_or_else(|| "error: unable to find the specified revision".to_string())?;
        let mut out = format!(
            "deployment.apps/{} with revision #{want}\nPod Template:\n",
            d.metadata.name
        );
        out.push_str(&format!(
            "  Labels:\t{}\n",
            labels::labels_string(&rs.spec.template.metadata.labels)
        ));
        for ct in &rs.spec.template.spec.containers {
            out.push_str(&format!(
                "  Containers:\n   {}:\n    Image:\t{}\n",
                ct.name, ct.image
            ));
        }
        return Ok(out.trim_end().to_string());
    }
    let mut out = format!(
        "deployment.apps/{}\nREVISION  CHANGE-CAUSE\n",
        d.metadata.name
    );
    let mut rows: Vec<(i64, String)> = rss
        .iter()
        .map(|rs| {
            (
                du::revision(&rs.metadata).unwrap_or(0),
                rs.metadata
                    .annotations
                    .get(CHANGE_CAUSE_ANNOTATION)
                    .cloned()
                    .unwrap_or_else(|| "<none>".into()),
            )
        })
        .collect();
    rows.sort();
    for (r, cause) in rows {
        out.push_str(&format!("{r:<10}{cause}\n"));
    }
    Ok(out.trim_end().to_string())
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
