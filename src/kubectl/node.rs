//! Nodes in kubectl: `kubectl get nodes` (the apiserver's table, `printNode` in
//! `pkg/printers/internalversion/printers.go`) and `kubectl cordon` / `uncordon`
//! (k8s.io/kubectl `pkg/cmd/drain`: `RunCordonOrUncordon`, and `pkg/drain/cordon.go`, which
//! changes `spec.unschedulable` only when it differs).

use super::args::Args;
use super::builder::{self, Setup};
use super::command::Command;
use super::resource::Resource;
use super::{KubectlError, Outcome, dry_run, write};
use crate::api::{Node, Object, Value};
use crate::cluster::Cluster;

/// STATUS: `Ready`, `NotReady` or `Unknown` (no Ready condition), then `SchedulingDisabled`
/// for a cordoned node.
pub(super) fn status(n: &Node) -> String {
    let ready = n.status.conditions.iter().find(|c| c.type_ == "Ready");
    let mut out = vec![match ready {
        Some(c) if c.status == "True" => "Ready",
        Some(_) => "NotReady",
        None => "Unknown",
    }];
    if n.spec.unschedulable {
        out.push("SchedulingDisabled");
    }
    out.join(",")
}

/// ROLES: from `node-role.kubernetes.io/ROLE` labels and `kubernetes.io/role`, sorted.
pub(super) fn roles(n: &Node) -> String {
    let mut roles: Vec<String> = vec![];
    for (k, v) in n.metadata.labels.iter() {
        if let Some(r) = k.strip_prefix("node-role.kubernetes.io/") {
            if !r.is_empty() {
                roles.push(r.to_string());
            }
        } else if k == "kubernetes.io/role" && !v.is_empty() {
            roles.push(v.to_string());
        }
    }
    roles.sort();
    roles.dedup();
    if roles.is_empty() {
        "<none>".into()
    } else {
        roles.join(",")
    }
}

/// A field of `status.nodeInfo`, or `<unknown>` as the printer shows a missing one.
fn node_info(n: &Node, field: &str) -> String {
    n.status
        .extra
        .get("nodeInfo")
        .and_then(|i| i.get(field))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or("<unknown>")
        .to_string()
}

/// The node's address of a type (`InternalIP`), or `<none>`.
fn address(n: &Node, kind: &str) -> String {
    let list = n.status.extra.get("addresses").and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .find(|a| a.get("type").and_then(Value::as_str) == Some(kind))
        .and_then(|a| a.get("address").and_then(Value::as_str))
        .unwrap_or("<none>")
        .to_string()
}

/// A node's row: NAME STATUS ROLES AGE VERSION.
pub(super) fn row(n: &Node, age: String) -> Vec<String> {
    let version = n
        .status
        .extra
        .get("nodeInfo")
        .and_then(|i| i.get("kubeletVersion"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    vec![
        n.metadata.name.to_string(),
        status(n),
        roles(n),
        age,
        version,
    ]
}

/// What `-o wide` adds: INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME.
pub(super) fn wide_cells(n: &Node) -> Vec<String> {
    vec![
        address(n, "InternalIP"),
        address(n, "ExternalIP"),
        node_info(n, "osImage"),
        node_info(n, "kernelVersion"),
        node_info(n, "containerRuntimeVersion"),
    ]
}

/// `kubectl cordon NODE` and `kubectl uncordon NODE` (or `-l SELECTOR`): each node's
/// `spec.unschedulable` set, or left as it was (`already cordoned`).
pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    let cordon = cmd.verb.name == "cordon";
    let a = Args::parse(&cmd.args, &["l", "selector"])?;
    a.only(&["l", "selector", "dry-run"])?;
    let (dry, mut report) = dry_run(c, &a)?;
    if a.positional.len() > 1 {
        return Err(KubectlError::Go(format!(
            "error: USAGE: {} NODE [flags]",
            cmd.verb.name
        )));
    }
    let mut names = vec!["nodes".to_string()];
    names.extend(a.positional.iter().cloned());
    let setup = Setup {
        allow_empty_selector: false,
        select_all: false,
    };
    let visit = builder::visit(c, &a, &names, setup)?;
    let suffix = match dry {
        super::args::DryRun::None => "",
        super::args::DryRun::Client => " (dry run)",
        super::args::DryRun::Server => " (server dry run)",
    };
    let (done, already) = if cordon {
        ("cordoned", "already cordoned")
    } else {
        ("uncordoned", "already uncordoned")
    };
    for item in visit.items {
        let info = match item {
            Ok(i) if i.res == Resource::Node => i,
            Ok(_) => continue,
            Err(e) => {
                report.err(e);
                continue;
            }
        };
        let Object::Node(mut n) = info.object else {
            continue;
        };
        if n.spec.unschedulable == cordon {
            report.item(Ok(format!("node/{} {already}{suffix}", info.name)));
            continue;
        }
        n.spec.unschedulable = cordon;
        match write(c, Object::Node(n), dry) {
            Ok(()) => {
                report.wrote = true;
                report.item(Ok(format!("node/{} {done}{suffix}", info.name)));
            }
            Err(e) => report.err(KubectlError::Go(format!(
                "error: unable to {} node {:?}: {}",
                cmd.verb.name,
                info.name,
                e.bare()
            ))),
        }
    }
    report.finish()
}
