//! `kubectl get` (k8s.io/kubectl/pkg/cmd/get and the printers): tables, `-o wide|yaml|json`,
//! `-l`, events.

use super::args::{Args, parse_selector};
use super::command::Command;
use super::resource::Resource;
use super::{KubectlError, Outcome, not_found};
use crate::api::*;
use crate::cluster::Cluster;
use crate::cluster::kubelet::display_status;

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    get(c, &cmd.args)
}

pub(super) fn age(c: &Cluster, m: &ObjectMeta) -> String {
    crate::api::time::human_duration(
        m.creation_timestamp
            .map(|t| c.now().since(t) / 1_000_000)
            .unwrap_or(0),
    )
}

/// Rows as `kubectl get` prints them: its tab writer's settings (at least 6 wide, 3 spaces
/// of padding).
pub(super) fn table(rows: Vec<Vec<String>>) -> String {
    let text: Vec<String> = rows.iter().map(|r| r.join("\t")).collect();
    super::describe::aligned(&text.join("\n"), 6, 3)
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

/// kubectl's refusal of an output format it has no printer for (the formats the playground
/// prints).
pub(super) fn unknown_output(o: &str, allowed: &str) -> KubectlError {
    KubectlError::Go(format!(
        "unable to match a printer suitable for the output format \"{o}\", allowed formats are: {allowed}"
    ))
}

/// (Long: kubectl get's options and output formats, in the order it reads them.)
pub(super) fn get(c: &Cluster, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["o", "output", "l", "selector", "field-selector"])?;
    a.only(&[
        "o",
        "output",
        "w",
        "watch",
        "l",
        "selector",
        "show-labels",
        "A",
        "all-namespaces",
        "field-selector",
    ])?;
    let all = a.flag("A").or(a.flag("all-namespaces")).is_some();
    let Some(first) = a.positional.first() else {
        return Err("error: you must specify the type of resource to get (deployments, replicasets or pods)".into());
    };
    if matches!(first.as_str(), "events" | "event" | "ev") {
        return get_events(c, &a);
    }
    let (res, name) = match first.split_once('/') {
        Some((r, n)) => (Resource::named(r)?, Some(n.to_string())),
        None => (Resource::named(first)?, a.positional.get(1).cloned()),
    };
    let output = a.flag("o").or(a.flag("output")).flatten();
    let selector = a
        .flag("l")
        .or(a.flag("selector"))
        .flatten()
        .map(parse_selector)
        .transpose()?;
    let keep = |m: &ObjectMeta| {
        (all || m.namespace == a.ns())
            && name.as_ref().is_none_or(|n| &m.name == n)
            && selector.as_ref().is_none_or(|s| s.matches(&m.labels))
    };
    let objs: Vec<Object> = c
        .store
        .list(res.kind())
        .filter(|o| keep(o.meta()))
        .cloned()
        .collect();
    if let (Some(n), true) = (&name, objs.is_empty()) {
        return Err(not_found(res.kind(), n));
    }
    // One named object prints as itself; a kind prints as a List.
    let printed = || match (&name, objs.first()) {
        (Some(_), Some(o)) => crate::api::yaml::kubectl_value(o),
        _ => crate::api::yaml::kubectl_list(&objs),
    };
    match output {
        Some("yaml") => return Ok(crate::api::print::to_yaml(&printed())),
        Some("json") => return Ok(crate::api::print::to_json(&printed())),
        Some("name") => {
            return Ok(objs
                .iter()
                .map(|o| format!("{}/{}", res.prefix(), o.meta().name))
                .collect::<Vec<_>>()
                .join("\n"));
        }
        Some("wide") | None => {}
        Some(o) => return Err(unknown_output(o, "json,name,wide,yaml")),
    }
    if objs.is_empty() {
        return Ok(if all {
            "No resources found".into()
        } else {
            format!("No resources found in {} namespace.", a.ns())
        });
    }
    // With every namespace, each row says which; -o wide and --show-labels add columns.
    let wide = output == Some("wide");
    let labels = a.flag("show-labels").is_some();
    let columns = |mut row: Vec<String>, ns: &str, more: Vec<String>, labels_of: String| {
        if all {
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
    let mut rows = vec![columns(
        headers(res).map(String::from).to_vec(),
        "NAMESPACE",
        wide_headers(res).iter().map(|h| h.to_string()).collect(),
        "LABELS".into(),
    )];
    rows.extend(objs.iter().map(|o| {
        let m = o.meta();
        columns(
            row(c, o),
            &m.namespace,
            wide_row(o),
            labels::labels_string(&m.labels),
        )
    }));
    Ok(table(rows))
}

/// `kubectl get events [--field-selector involvedObject.name=…,involvedObject.kind=…,type=…,
/// reason=…]`: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, the most recent last.
pub(super) fn get_events(c: &Cluster, a: &Args) -> Outcome {
    let mut wanted: Vec<(&str, &str)> = vec![];
    if let Some(Some(sel)) = a.flag("field-selector") {
        for part in sel.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once("==")
                .or_else(|| part.split_once('='))
                .ok_or_else(|| format!("error: invalid field selector: '{part}'"))?;
            if ![
                "involvedObject.name",
                "involvedObject.kind",
                "type",
                "reason",
            ]
            .contains(&k)
            {
                return Err(format!(
                    "Error from server (BadRequest): Unable to find \"/v1, Resource=events\" that match label selector \"\", field selector \"{sel}\": field label not supported: {k}"
                )
                .into());
            }
            wanted.push((k, v));
        }
    }
    let mut events: Vec<_> = c
        .events
        .all()
        .into_iter()
        .filter(|e| {
            let (kind, name) = e.object.split_once('/').unwrap_or(("", &e.object));
            wanted.iter().all(|(k, v)| match *k {
                "involvedObject.name" => name == *v,
                "involvedObject.kind" => kind == *v,
                "type" => e.type_.as_str() == *v,
                _ => e.reason == *v,
            })
        })
        .collect();
    if events.is_empty() {
        return Ok(format!("No resources found in {} namespace.", a.ns()));
    }
    events.sort_by_key(|e| e.last_ms);
    let mut rows = vec![
        ["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
            .map(String::from)
            .to_vec(),
    ];
    for e in events {
        let (kind, name) = e.object.split_once('/').unwrap_or(("", &e.object));
        rows.push(vec![
            crate::api::time::human_duration((c.now_ms() - e.last_ms) as i64),
            e.type_.to_string(),
            e.reason.to_string(),
            format!("{}/{name}", kind.to_ascii_lowercase()),
            e.message.clone(),
        ]);
    }
    Ok(table(rows))
}

/// The columns `kubectl get` prints for a resource.
pub(super) fn headers(res: Resource) -> [&'static str; 5] {
    match res {
        Resource::Deployment => ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"],
        Resource::ReplicaSet => ["NAME", "DESIRED", "CURRENT", "READY", "AGE"],
        Resource::Pod => ["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
    }
}

/// The columns `-o wide` adds.
pub(super) fn wide_headers(res: Resource) -> &'static [&'static str] {
    match res {
        Resource::Deployment | Resource::ReplicaSet => &["CONTAINERS", "IMAGES", "SELECTOR"],
        Resource::Pod => &["IP", "NODE", "NOMINATED NODE", "READINESS GATES"],
    }
}

/// An object's cells under [`wide_headers`]. (The simulated pods have no IP.)
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
    let none = || "<none>".to_string();
    match o {
        Object::Deployment(d) => template(&d.spec.template, &d.selector()),
        Object::ReplicaSet(r) => template(&r.spec.template, &r.spec.selector),
        Object::Pod(p) => {
            let node = Some(p.spec.node_name.to_string()).filter(|n| !n.is_empty());
            vec![none(), node.unwrap_or_else(none), none(), none()]
        }
    }
}

/// An object's row under [`headers`].
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
            let ready = p
                .status
                .container_statuses
                .iter()
                .filter(|c| c.ready)
                .count();
            vec![
                p.metadata.name.to_string(),
                format!("{ready}/{}", p.spec.containers.len()),
                display_status(p),
                p.restarts().to_string(),
                age(c, &p.metadata),
            ]
        }
    }
}
