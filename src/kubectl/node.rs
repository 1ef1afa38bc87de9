//! Nodes in kubectl: `kubectl get nodes` (the apiserver's table, `printNode` in
//! `pkg/printers/internalversion/printers.go`) and `kubectl cordon` / `uncordon`
//! (k8s.io/kubectl `pkg/cmd/drain`: `RunCordonOrUncordon`, and `pkg/drain/cordon.go`, which
//! changes `spec.unschedulable` only when it differs), and `kubectl describe node`
//! (`describeNode` in k8s.io/kubectl `pkg/describe`).

use super::args::Args;
use super::builder::{self, Setup};
use super::command::Command;
use super::printer::Describe;
use super::resource::Resource;
use super::{KubectlError, Outcome, dry_run, write};
use crate::api::{Kind, Node, Object, Pod, Value, quantity_text};
use crate::cluster::Cluster;
use std::collections::BTreeMap;

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
    crate::api::sort::sort(&mut roles);
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

/// `kubectl cordon NODE...` and `kubectl uncordon NODE...` (or `-l SELECTOR`): each node's
/// `spec.unschedulable` set, or left as it was (`already cordoned`).
pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    let cordon = cmd.verb.name == "cordon";
    let a = Args::of(cmd)?;
    let (dry, mut report) = dry_run(c, &a)?;
    names_or_selector(cmd.verb.name, &a)?;
    let visit = visit_nodes(c, &a)?;
    cordon_each(c, visit.items, cordon, dry, &mut report);
    report.finish()
}

/// `DrainCmdOptions.Complete`'s checks, which cordon, uncordon and drain share: one node
/// or several by name, or a selector, not both.
pub(super) fn names_or_selector(verb: &str, a: &Args) -> Result<(), KubectlError> {
    if a.positional.is_empty() && a.selector().is_none() {
        return Err(KubectlError::Go(format!(
            "error: USAGE: {verb} NODE [flags]\nSee 'kubectl {verb} -h' for help and examples"
        )));
    }
    if !a.positional.is_empty() && a.selector().is_some() {
        return Err(KubectlError::Go(
            "error: cannot specify both a node name and a --selector option".into(),
        ));
    }
    Ok(())
}

/// The nodes the command names, or its `-l` selector picks, as kubectl's builder visits them
/// (`ResourceNames("nodes", args...)`).
pub(super) fn visit_nodes(c: &Cluster, a: &Args) -> Result<builder::Visit, KubectlError> {
    let mut names = vec!["nodes".to_string()];
    names.extend(a.positional.iter().cloned());
    let setup = Setup {
        allow_empty_selector: false,
        select_all: false,
    };
    builder::visit(c, a, &names, setup)
}

/// `RunCordonOrUncordon`: each visited node's `spec.unschedulable` set (or left, `already
/// cordoned`), a line each; returns the names of the nodes visited.
pub(super) fn cordon_each(
    c: &mut Cluster,
    items: Vec<Result<super::builder::Info, KubectlError>>,
    cordon: bool,
    dry: super::args::DryRun,
    report: &mut super::builder::Report,
) -> Vec<String> {
    let suffix = dry.suffix();
    let verb = if cordon { "cordon" } else { "uncordon" };
    let (done, already) = if cordon {
        ("cordoned", "already cordoned")
    } else {
        ("uncordoned", "already uncordoned")
    };
    let mut names = vec![];
    for item in items {
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
        names.push(info.name.clone());
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
                "error: unable to {verb} node {:?}: {}",
                info.name,
                e.bare()
            ))),
        }
    }
    names
}

/// `describeNode`'s sections the playground keeps: the node, its taints and whether it is
/// cordoned, its capacity and allocatable, its non-terminated pods with what each requests
/// and limits, the sums (`Allocated resources`), and its events.
pub(super) fn describe(c: &Cluster, n: &Node, show_events: bool) -> String {
    let mut w = Describe::default();
    w.w(0, format_args!("Name:\t{}\n", n.metadata.name));
    w.w(0, format_args!("Roles:\t{}\n", roles(n)));
    w.labels("Labels", &n.metadata.labels);
    w.annotations("Annotations", &n.metadata.annotations);
    if let Some(t) = n.metadata.creation_timestamp {
        w.w(0, format_args!("CreationTimestamp:\t{}\n", t.rfc1123z()));
    }
    let taints: Vec<String> = n
        .spec
        .taints
        .iter()
        .map(|t| match t.value.as_str() {
            "" => format!("{}:{}", t.key, t.effect),
            v => format!("{}={v}:{}", t.key, t.effect),
        })
        .collect();
    w.pairs("Taints", taints.iter().map(|t| (t.as_str(), "")), "");
    w.w(
        0,
        format_args!("Unschedulable:\t{}\n", n.spec.unschedulable),
    );
    for (title, m) in [
        ("Capacity", &n.status.capacity),
        ("Allocatable", &n.status.allocatable),
    ] {
        if m.is_empty() {
            continue;
        }
        w.w(0, format_args!("{title}:\n"));
        for (k, v) in m {
            let text = quantity_text(v).unwrap_or_default();
            let shown = crate::api::quantity::canonical(&text).unwrap_or(text);
            w.w(1, format_args!("{k}:\t{shown}\n"));
        }
    }
    node_pods(&mut w, c, n);
    if show_events {
        w.events(c, c.events.for_object(Kind::Node, &n.metadata));
    }
    w.finish()
}

/// A share of a node's allocatable as `describe node` prints it: truncated to a whole percent
/// (cpu in thousandths, the rest in units; 0 when the node has none).
fn share(n: &Node, resource: &str, a: crate::api::quantity::Amount) -> i64 {
    let of = |x: crate::api::quantity::Amount| {
        if resource == "cpu" {
            x.milli()
        } else {
            x.units()
        }
    };
    let total = n
        .allocatable(resource)
        .as_deref()
        .and_then(crate::api::quantity::Amount::of)
        .map_or(0, of);
    if total == 0 {
        0
    } else {
        (of(a) as f64 / total as f64 * 100.0) as i64
    }
}

/// `Non-terminated Pods` (each one's requests and limits with their share) and `Allocated
/// resources` (their sums).
fn node_pods(w: &mut Describe, c: &Cluster, n: &Node) {
    use crate::api::quantity::Amount;
    use crate::cluster::scheduler::{pod_limits, pod_requests};
    let pods: Vec<&Pod> = c
        .store
        .pods()
        .filter(|p| p.spec.node_name == n.metadata.name && !p.is_terminal())
        .collect();
    w.w(
        0,
        format_args!("Non-terminated Pods:\t({} in total)\n", pods.len()),
    );
    w.w(
        1,
        "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n",
    );
    w.w(
        1,
        "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n",
    );
    let mut sums: [BTreeMap<String, Amount>; 2] = Default::default();
    for p in &pods {
        let both = [pod_requests(p), pod_limits(p)];
        let cell = |m: &BTreeMap<String, Amount>, k: &str| {
            let a = m.get(k).copied().unwrap_or_default();
            format!("{a} ({}%)", share(n, k, a))
        };
        let (r, l) = (&both[0], &both[1]);
        w.w(
            1,
            format_args!(
                "{}\t{}\t\t{}\t{}\t{}\t{}\t{}\n",
                p.metadata.namespace,
                p.metadata.name,
                cell(r, "cpu"),
                cell(l, "cpu"),
                cell(r, "memory"),
                cell(l, "memory"),
                super::printer::age(c, &p.metadata)
            ),
        );
        for (sum, m) in sums.iter_mut().zip(both) {
            for (k, a) in m {
                sum.entry(k).or_default().add(a);
            }
        }
    }
    w.w(
        0,
        "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n",
    );
    w.w(1, "Resource\tRequests\tLimits\n");
    w.w(1, "--------\t--------\t------\n");
    for r in ["cpu", "memory", "ephemeral-storage"] {
        let [a, b] = [&sums[0], &sums[1]].map(|m| m.get(r).copied().unwrap_or_default());
        let (x, y) = (share(n, r, a), share(n, r, b));
        w.w(1, format_args!("{r}\t{a} ({x}%)\t{b} ({y}%)\n"));
    }
}
