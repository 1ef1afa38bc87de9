//! `kubectl get` (k8s.io/kubectl/pkg/cmd/get and the printers): tables, `-o wide|yaml|json`,
//! `-l`, events.

use super::args::Args;
use super::builder::{self, Info, Report, Setup};
use super::command::Command;
use super::fields::FieldSelector;
use super::printer::{age, table, unknown_output};
use super::resource::Resource;
use super::{KubectlError, Outcome};
use crate::api::*;
use crate::cluster::Cluster;

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    get(c, cmd)
}

/// One object as `-o yaml` or `-o json` prints it.
pub(super) fn printed(obj: &Object, format: &str) -> String {
    let v = crate::api::yaml::kubectl_value(obj);
    match format {
        "json" => crate::api::print::to_json(&v),
        _ => crate::api::print::to_yaml(&v),
    }
    .trim_end()
    .to_string()
}

/// kubectl's `all` category, as far as the playground serves its members (kubectl v0.36.3
/// expands it to pods, services, daemonsets, deployments, replicasets, statefulsets,
/// horizontalpodautoscalers, cronjobs and jobs; the playground has no other kind).
const ALL: &str = "pods,deployments.apps,replicasets.apps";

/// (Long: kubectl get's options and output formats, in the order it reads them.)
pub(super) fn get(c: &Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let every_ns = a.flag("all-namespaces").is_some();
    let Some(first) = a.positional.first() else {
        return Err("error: you must specify the type of resource to get (deployments, replicasets or pods)".into());
    };
    if matches!(first.as_str(), "events" | "event" | "ev") {
        return get_events(c, &a);
    }
    let output = a.flag("output").flatten();
    if let Some(o) = output.filter(|o| !matches!(*o, "yaml" | "json" | "name" | "wide")) {
        return Err(unknown_output(o, "json,name,wide,yaml"));
    }
    // The category `all` stands for its members (the builder's `ReplaceAliases`).
    let mut args = a.positional.clone();
    if !first.contains('/') {
        args[0] = first
            .split(',')
            .map(|t| if t == "all" { ALL } else { t })
            .collect::<Vec<_>>()
            .join(",");
    }
    let setup = Setup {
        allow_empty_selector: true,
        select_all: false,
    };
    let visit = builder::visit(c, &a, &args, setup)?;
    let mut errs = vec![];
    let mut found: Vec<Info> = vec![];
    let ignore_missing = a.bool_flag("ignore-not-found")?;
    for item in visit.items {
        match item {
            Ok(info) => found.push(info),
            Err(KubectlError::Server(e)) if ignore_missing && e.is_not_found() => {}
            Err(e) => errs.push(e),
        }
    }
    let objs: Vec<Object> = found.iter().map(|i| i.object.clone()).collect();
    let mut report = Report::default();
    match output {
        // Nothing, when what was named is not there and that is fine.
        Some("yaml" | "json") if objs.is_empty() && ignore_missing && visit.single => {}
        // One object named prints as itself; anything else as a List.
        Some(fmt @ ("yaml" | "json")) if !objs.is_empty() || errs.is_empty() => {
            let v = match (visit.single, objs.first()) {
                (true, Some(o)) => crate::api::yaml::kubectl_value(o),
                _ => crate::api::yaml::kubectl_list(&objs),
            };
            report.item(Ok(match fmt {
                "json" => crate::api::print::to_json(&v),
                _ => crate::api::print::to_yaml(&v),
            }
            .trim_end()
            .to_string()));
        }
        Some("name") => found.iter().for_each(|i| report.item(Ok(i.object_name()))),
        _ if found.is_empty() && errs.is_empty() => {
            // Nodes are in no namespace, so none is named.
            let cluster_scoped = args[0]
                .split(',')
                .all(|t| Resource::parse(t).is_some_and(|r| !r.kind().namespaced()));
            report.item(Ok(if every_ns || cluster_scoped {
                "No resources found".into()
            } else {
                format!("No resources found in {} namespace.", a.ns())
            }));
        }
        _ => report.item(Ok(tables(c, &a, &found, output == Some("wide")))),
    }
    errs.into_iter().for_each(|e| report.err(e));
    report.finish()
}

/// The objects as kubectl's table printer lays them out: a table per resource, in the order
/// visited, a blank line between; with more than one resource each name says its kind.
fn tables(c: &Cluster, a: &Args, found: &[Info], wide: bool) -> String {
    let every_ns = a.flag("all-namespaces").is_some();
    let labels = a.flag("show-labels").is_some();
    let mut kinds: Vec<Resource> = vec![];
    for i in found {
        if !kinds.contains(&i.res) {
            kinds.push(i.res);
        }
    }
    let with_kind = kinds.len() > 1 || a.bool_flag("show-kind").unwrap_or(false);
    // With every namespace, each row says which; -o wide and --show-labels add columns.
    let columns =
        |res: Resource, mut row: Vec<String>, ns: &str, more: Vec<String>, labels_of: String| {
            // A cluster-scoped resource has no NAMESPACE column, even with -A.
            if every_ns && res.kind().namespaced() {
                row.insert(0, ns.to_string());
            }
            if wide {
                row.extend(more);
            }
            if labels {
                row.push(labels_of);
            }
            row
        };
    let mut out = vec![];
    for res in kinds {
        let mut rows = vec![columns(
            res,
            res.row().columns.iter().map(|c| c.to_string()).collect(),
            "NAMESPACE",
            res.row().wide.iter().map(|h| h.to_string()).collect(),
            "LABELS".into(),
        )];
        rows.extend(found.iter().filter(|i| i.res == res).map(|i| {
            let m = i.object.meta();
            let mut cells = row(c, &i.object);
            if with_kind {
                cells[0] = i.object_name();
            }
            columns(
                res,
                cells,
                &m.namespace,
                wide_row(&i.object),
                labels::labels_string(&m.labels),
            )
        }));
        out.push(table(rows));
    }
    out.join("\n\n")
}

/// `kubectl get events [--field-selector involvedObject.name=…,involvedObject.kind=…,type=…,
/// reason=…]`: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, the most recent last.
pub(super) fn get_events(c: &Cluster, a: &Args) -> Outcome {
    let every_ns = a.flag("all-namespaces").is_some();
    let fields = FieldSelector::parse(a.flag("field-selector").flatten().unwrap_or(""))?;
    fields.supported_by(
        "/v1, Resource=events",
        &[
            "involvedObject.name",
            "involvedObject.kind",
            "type",
            "reason",
        ],
        "",
    )?;
    let mut events: Vec<_> = c
        .events
        .all()
        .into_iter()
        .filter(|e| {
            let (kind, name) = e.object.split_once('/').unwrap_or(("", &e.object));
            (every_ns || *e.namespace == *a.ns())
                && fields.matches(|f| match f {
                    "involvedObject.name" => name.to_string(),
                    "involvedObject.kind" => kind.to_string(),
                    "type" => e.type_.to_string(),
                    _ => e.reason.to_string(),
                })
        })
        .collect();
    if events.is_empty() {
        return Ok(format!("No resources found in {} namespace.", a.ns()));
    }
    crate::apiserver::events::latest_last(&mut events);
    let mut rows = vec![
        ["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
            .map(String::from)
            .to_vec(),
    ];
    for e in events {
        let (kind, name) = e.object.split_once('/').unwrap_or(("", &e.object));
        rows.push(vec![
            crate::api::time::human_duration(c.now_ms() as i64 - e.last_ms),
            e.type_.to_string(),
            e.reason.to_string(),
            format!("{}/{name}", kind.to_ascii_lowercase()),
            e.message.clone(),
        ]);
    }
    Ok(table(rows))
}

/// An object's cells under its kind's `wide` columns.
pub(super) fn wide_row(o: &Object) -> Vec<String> {
    let template = |t: &PodTemplateSpec, sel: &LabelSelector| {
        let list = |f: fn(&Container) -> &Str| {
            t.spec
                .containers
                .iter()
                .map(|ct| f(ct).to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        vec![
            list(|ct| &ct.name),
            list(|ct| &ct.image),
            sel.to_selector_string(),
        ]
    };
    match o {
        Object::Deployment(d) => template(&d.spec.template, &d.selector()),
        Object::ReplicaSet(r) => template(&r.spec.template, &r.spec.selector),
        Object::Pod(p) => crate::api::table::pod_wide_cells(p).to_vec(),
        Object::Node(n) => super::node::wide_cells(n),
        Object::PodDisruptionBudget(_) | Object::EndpointSlice(_) => vec![],
        Object::Service(s) => super::service::wide_cells(s),
    }
}

/// An object's row under its kind's columns.
pub(super) fn row(c: &Cluster, o: &Object) -> Vec<String> {
    match o {
        Object::Deployment(d) => {
            let s = &d.status;
            vec![
                d.metadata.name.to_string(),
                format!("{}/{}", s.ready_replicas, d.replicas()),
                s.updated_replicas.to_string(),
                s.available_replicas.to_string(),
                age(c, &d.metadata),
            ]
        }
        Object::ReplicaSet(r) => vec![
            r.metadata.name.to_string(),
            r.replicas().to_string(),
            r.status.replicas.to_string(),
            r.status.ready_replicas.to_string(),
            age(c, &r.metadata),
        ],
        Object::Pod(p) => {
            let cells = crate::api::table::pod_cells(p, c.now());
            vec![
                p.metadata.name.to_string(),
                cells.ready,
                cells.status,
                cells.restarts,
                age(c, &p.metadata),
            ]
        }
        Object::Node(n) => super::node::row(n, age(c, &n.metadata)),
        Object::PodDisruptionBudget(b) => super::budget::row(b, age(c, &b.metadata)),
        Object::Service(s) => super::service::row(s, age(c, &s.metadata)),
        Object::EndpointSlice(e) => super::service::slice_row(e, age(c, &e.metadata)),
    }
}
