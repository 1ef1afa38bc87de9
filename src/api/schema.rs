//! The Kubernetes API's field names, for the apiserver's strict field validation (kubectl's
//! default, `--validate=strict`): a manifest field that the kind's schema does not have is
//! refused with `strict decoding error: unknown field "spec.replica"`, and nothing is stored.
//! Fields the schema has but the playground does not model (affinity, volumes, …) pass and are
//! kept as written. The table is generated at build time from `k8s-openapi` (build.rs).

use super::{Kind, Value};

/// What a field's value is: without fields of its own, or an object (a node of [`NODES`]).
#[derive(Clone, Copy, Debug)]
pub enum Elem {
    Leaf,
    Object(u16),
}

/// A field: one value, a list of them, or a map from any key to them.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    One(Elem),
    List(Elem),
    Map(Elem),
}

include!(concat!(env!("OUT_DIR"), "/api_fields.rs"));

/// The paths of the fields of `v` (a manifest of `kind`) that the kind's schema lacks, in the
/// order they are written, as the apiserver names them: `spec.replica`,
/// `spec.template.spec.containers[0].imagePullPolicyy`.
pub fn unknown_fields(kind: Kind, v: &Value) -> Vec<String> {
    let root = match kind {
        Kind::Deployment => DEPLOYMENT,
        Kind::ReplicaSet => REPLICA_SET,
        Kind::Pod => POD,
        Kind::Node => NODE,
        Kind::PodDisruptionBudget => POD_DISRUPTION_BUDGET,
        Kind::Service => SERVICE,
        Kind::EndpointSlice => ENDPOINT_SLICE,
    };
    let mut out = vec![];
    walk(root, v, &mut String::new(), &mut out);
    out
}

/// Field `name` of a node, read from the node's line (`name`, `name=N`, `name[]=N`,
/// `name{}`: see build.rs).
fn field(node: u16, name: &str) -> Option<Shape> {
    NODES[node as usize].split(' ').find_map(|f| {
        let (head, object) = match f.split_once('=') {
            Some((h, n)) => (h, Elem::Object(n.parse().ok()?)),
            None => (f, Elem::Leaf),
        };
        if let Some(n) = head.strip_suffix("[]") {
            (n == name).then_some(Shape::List(object))
        } else if let Some(n) = head.strip_suffix("{}") {
            (n == name).then_some(Shape::Map(object))
        } else {
            (head == name).then_some(Shape::One(object))
        }
    })
}

fn walk(node: u16, v: &Value, path: &mut String, out: &mut Vec<String>) {
    // A value of the wrong type is the decoder's to report.
    let Value::Object(map) = v else { return };
    for (k, child) in map {
        let len = path.len();
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(k);
        match field(node, k) {
            None => out.push(path.clone()),
            Some(Shape::One(e)) => walk_elem(e, child, path, out),
            Some(Shape::List(e)) => {
                for (i, item) in child.as_array().into_iter().flatten().enumerate() {
                    let at = path.len();
                    path.push_str(&format!("[{i}]"));
                    walk_elem(e, item, path, out);
                    path.truncate(at);
                }
            }
            Some(Shape::Map(e)) => {
                for (key, item) in child.as_object().into_iter().flatten() {
                    let at = path.len();
                    path.push('.');
                    path.push_str(key);
                    walk_elem(e, item, path, out);
                    path.truncate(at);
                }
            }
        }
        path.truncate(len);
    }
}

fn walk_elem(e: Elem, v: &Value, path: &mut String, out: &mut Vec<String>) {
    if let Elem::Object(n) = e {
        walk(n, v, path, out);
    }
}

/// The apiserver's refusal of a body with unknown fields, as it decodes one of `kind`:
/// `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error:
/// unknown field "spec.replica"`.
pub fn strict_decoding_error(kind: Kind, fields: &[String]) -> String {
    let k = kind.as_str();
    format!(
        "{k} in version \"v1\" cannot be handled as a {k}: {}",
        strict_detail(fields)
    )
}

/// `strict decoding error: unknown field "a", unknown field "b"`.
pub fn strict_detail(fields: &[String]) -> String {
    let list: Vec<String> = fields
        .iter()
        .map(|f| format!("unknown field {f:?}"))
        .collect();
    format!("strict decoding error: {}", list.join(", "))
}

/// A patch the apiserver refused for its unknown fields, as kubectl prints the `Invalid` error
/// (`patch: Invalid value: "map[spec:map[replica:3]]": strict decoding error: …`).
pub fn invalid_patch(patch: &Value, fields: &[String]) -> String {
    format!(
        "The request is invalid: patch: Invalid value: {:?}: {}",
        go_value(patch),
        strict_detail(fields)
    )
}

/// Go's `%+v` of a decoded JSON value (`map[string]interface{}` with sorted keys, integers
/// kept as integers, as the apiserver decodes a patch).
pub fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(go_value).collect();
            format!("[{}]", parts.join(" "))
        }
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            crate::api::sort::sort(&mut keys);
            let parts: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{k}:{}", go_value(&m[k])))
                .collect();
            format!("map[{}]", parts.join(" "))
        }
    }
}

/// The part of `v` that holds the fields at `paths` (as [`unknown_fields`] writes them): what
/// a patch that adds them carries. A list keeps the items on the way, each with its `name`
/// (the merge key of containers, ports, volumes and env).
pub fn only_fields(v: &Value, paths: &[String]) -> Value {
    let mut out = Value::Object(Default::default());
    for p in paths {
        let steps = split_path(p);
        copy_path(v, &mut out, &steps);
    }
    out
}

enum PathStep<'a> {
    Key(&'a str),
    Index(usize),
}

fn split_path(p: &str) -> Vec<PathStep<'_>> {
    let mut out = vec![];
    for part in p.split('.') {
        let (key, rest) = part.split_once('[').unwrap_or((part, ""));
        out.push(PathStep::Key(key));
        for idx in rest.split('[').filter(|s| !s.is_empty()) {
            if let Ok(i) = idx.trim_end_matches(']').parse() {
                out.push(PathStep::Index(i));
            }
        }
    }
    out
}

fn copy_path(from: &Value, to: &mut Value, steps: &[PathStep<'_>]) {
    let Some((first, rest)) = steps.split_first() else {
        *to = from.clone();
        return;
    };
    match first {
        PathStep::Key(k) => {
            let (Some(child), Some(map)) = (from.get(*k), to.as_object_mut()) else {
                return;
            };
            let slot = map
                .entry(k.to_string())
                .or_insert_with(|| match rest.first() {
                    Some(PathStep::Index(_)) => Value::Array(vec![]),
                    _ => Value::Object(Default::default()),
                });
            copy_path(child, slot, rest);
        }
        PathStep::Index(i) => {
            let (Some(item), Some(list)) = (from.get(*i), to.as_array_mut()) else {
                return;
            };
            let name = item.get("name");
            let at = match list
                .iter()
                .position(|x| name.is_some() && x.get("name") == name)
            {
                Some(at) => at,
                None => {
                    let mut fresh = serde_json::Map::new();
                    if let Some(n) = name {
                        fresh.insert("name".into(), n.clone());
                    }
                    list.push(Value::Object(fresh));
                    list.len() - 1
                }
            };
            copy_path(item, &mut list[at], rest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_fields_are_named_by_their_path_as_the_apiserver_names_them() {
        let d = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "labels": {"any-key": "x"}, "spec": {}},
            "spec": {
                "replica": 3,
                "selector": {"matchLabels": {"app": "web"}},
                "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxSurgee": 1}},
                "template": {"metadata": {"labels": {"app": "web"}}, "spec": {
                    "affinity": {"nodeAffinity": {}},
                    "volumes": [{"name": "v", "emptyDir": {}}],
                    "containers": [
                        {"name": "a", "image": "x", "resources": {"limits": {"cpu": "1"}}},
                        {"name": "b", "image": "y", "imagePullPolicyy": "Always",
                         "readinessProbe": {"httpGet": {"path": "/", "port": 80}, "periodSecond": 1}}
                    ]
                }}
            },
            "status": {"replicas": 1, "phase": "x"}
        });
        assert_eq!(
            unknown_fields(Kind::Deployment, &d),
            [
                "metadata.spec",
                "spec.replica",
                "spec.strategy.rollingUpdate.maxSurgee",
                "spec.template.spec.containers[1].imagePullPolicyy",
                "spec.template.spec.containers[1].readinessProbe.periodSecond",
                "status.phase",
            ]
        );
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "a", "image": "x"}], "replicas": 1},
            "status": {"phase": "Running"}});
        assert_eq!(unknown_fields(Kind::Pod, &pod), ["spec.replicas"]);
        let rs = json!({"spec": {"replicas": 1, "minReadySeconds": 0, "paused": true}});
        assert_eq!(unknown_fields(Kind::ReplicaSet, &rs), ["spec.paused"]);
    }

    #[test]
    fn a_refused_patch_shows_the_fields_as_go_prints_a_map() {
        let d = json!({"metadata": {"name": "web"}, "spec": {"replica": 3, "template": {"spec": {
            "containers": [{"name": "a", "image": "x"}, {"name": "b", "imagee": "y"}]}}}});
        let fields = unknown_fields(Kind::Deployment, &d);
        assert_eq!(
            invalid_patch(&only_fields(&d, &fields), &fields),
            "The request is invalid: patch: Invalid value: \"map[spec:map[replica:3 template:map[spec:map[containers:[map[imagee:y name:b]]]]]]\": strict decoding error: unknown field \"spec.replica\", unknown field \"spec.template.spec.containers[1].imagee\""
        );
    }

    #[test]
    fn the_refusal_reads_as_the_apiserver_writes_it() {
        assert_eq!(
            strict_decoding_error(Kind::Deployment, &["spec.replica".into(), "spec.x".into()]),
            "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replica\", unknown field \"spec.x\""
        );
    }
}
