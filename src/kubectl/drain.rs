//! `kubectl drain NODE` (k8s.io/kubectl `pkg/cmd/drain`: `NewCmdDrain`'s flags, `Complete`,
//! `RunDrain`): the nodes cordoned, then their pods evicted by a client that goes on with the
//! cluster's clock (`drainer.rs`), retrying what a disruption budget refuses.

use super::args::{Args, DryRun, parse_selector};
use super::command::Command;
use super::drainer::{Drain, DrainOptions};
use super::duration::go_duration_ms;
use super::{KubectlError, Outcome, dry_run};
use crate::cluster::Cluster;

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let (dry, mut report) = dry_run(c, &a)?;
    let opts = options(&a, dry)?;
    super::node::names_or_selector("drain", &a)?;
    let visit = super::node::visit_nodes(c, &a)?;
    // `Complete` visits every node first: one not found ends the command before any cordon.
    if let Some(Err(_)) = visit.items.iter().find(|i| i.is_err()) {
        let err = visit.items.into_iter().find_map(Result::err);
        return Err(err.expect("just found"));
    }
    let nodes = super::node::cordon_each(c, visit.items, true, dry, &mut report);
    if !report.errs.is_empty() {
        return report.finish();
    }
    let (lines, error) = c.start_client(|cx| Drain::start(cx, nodes, opts));
    report.wrote = true;
    report.out.extend(lines);
    let out = report.finish()?;
    match error {
        // Printed after what the command printed, as kubectl's `CheckErr` does.
        Some(e) => Ok(format!("{out}\n{e}")),
        None => Ok(out),
    }
}

/// The flags, checked as cobra and `Complete` check them.
fn options(a: &Args, dry: DryRun) -> Result<DrainOptions, KubectlError> {
    let int = |name: &str| -> Result<Option<i64>, KubectlError> {
        match a.flag(name) {
            None => Ok(None),
            Some(None) => Err(format!("error: flag needs an argument: --{name}").into()),
            Some(Some(v)) => v.parse::<i64>().map(Some).map_err(|_| {
                format!(
                    "error: invalid argument {v:?} for \"--{name}\" flag: strconv.ParseInt: parsing {v:?}: invalid syntax"
                )
                .into()
            }),
        }
    };
    let grace = int("grace-period")?.unwrap_or(-1);
    let skip = int("skip-wait-for-delete-timeout")?.unwrap_or(0);
    let timeout_ms = match a.flag("timeout") {
        None => None,
        Some(None) => return Err("error: flag needs an argument: --timeout".into()),
        Some(Some(v)) => go_duration_ms(v).map_err(|e| {
            KubectlError::from(format!(
                "error: invalid argument {v:?} for \"--timeout\" flag: {e}"
            ))
        })?,
    };
    let pod_selector = match a.flag("pod-selector") {
        None | Some(None) => None,
        Some(Some("")) => None,
        Some(Some(s)) => Some(parse_selector(s).map_err(|_| {
            KubectlError::from(
                "error: --pod-selector=<pod_selector> must be a valid label selector".to_string(),
            )
        })?),
    };
    Ok(DrainOptions {
        eviction: !a.bool_flag("disable-eviction")?,
        grace_seconds: (grace >= 0).then_some(grace),
        timeout_ms,
        pod_selector,
        force: a.bool_flag("force")?,
        ignore_daemonsets: a.bool_flag("ignore-daemonsets")?,
        delete_emptydir_data: a.bool_flag("delete-emptydir-data")?,
        skip_wait_seconds: skip,
        client_dry_run: dry == DryRun::Client,
        server_dry_run: dry == DryRun::Server,
    })
}
