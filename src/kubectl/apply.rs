//! `kubectl apply -f -` and `kubectl create -f -` (the manifest on the lines after the
//! command), `kubectl create deployment` and `kubectl create namespace`
//! (k8s.io/kubectl/pkg/cmd/apply, pkg/cmd/create).

use super::args::Args;
use super::command::Command;
use super::resource::Resource;
use super::{KubectlError, Outcome, api_err};
use crate::api::schema;
use crate::api::yaml::parse_objects;
use crate::api::*;
use crate::apiserver::store::ApiError;
use crate::cluster::Cluster;

/// `apply` or `create`, by the verb's name.
pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    apply_or_create(c, cmd)
}

/// `kubectl apply -f -` and `kubectl create -f -` (the manifest on the lines after the
/// command), `kubectl create deployment NAME --image=IMAGE`, `create namespace` and `create
/// poddisruptionbudget`.
/// (Long: kubectl's checks in its order, flags, file, namespaces, strict fields, then the
/// writes, all or none.)
fn apply_or_create(c: &mut Cluster, cmd: &Command) -> Outcome {
    let (verb, stdin) = (cmd.verb.name, cmd.stdin.as_deref());
    let a = Args::of(cmd)?;
    match cmd.sub() {
        Some("deployment") => return create_deployment(c, &a),
        Some("poddisruptionbudget") => return super::budget::create(c, &a),
        Some("namespace") => return create_namespace(c, &a),
        _ => {}
    }
    // `-f -` reads the lines after the command (stdin); `-f NAME` a file the page holds, whose
    // text comes the same way (the editor's Apply is `kubectl apply -f deployment.yaml`).
    let Some(file) = a.flag("filename").flatten() else {
        return Err(format!(
            "error: must specify one of -f and -k\n\nthe playground reads the manifest from the lines after `kubectl {verb} -f -`"
        )
        .into());
    };
    let source = if file == "-" { "STDIN" } else { file };
    match stdin.filter(|s| !s.trim().is_empty()) {
        Some(_) => {}
        None if file == "-" => return Err(format!("error: no objects passed to {verb}: put the manifest on the lines after `kubectl {verb} -f -`").into()),
        None => return Err(format!("error: the path \"{file}\" does not exist").into()),
    };
    // Read once for the command, however many times the run is replayed.
    let manifests = cmd
        .manifests()
        .expect("the command has stdin")
        .map_err(|e| format!("error: error validating \"{source}\": {e}"))?;
    let server_side = a.bool_flag("server-side")?;
    let (mut objs, strict): (Vec<Object>, Vec<(Value, Vec<String>)>) = manifests
        .iter()
        .map(|m| (m.object.clone(), (m.value.clone(), m.unknown.clone())))
        .unzip();
    // Each object goes to its own namespace, else the command's; `-n` may not contradict it.
    let flag_ns = a.flag("namespace").flatten();
    for o in &mut objs {
        let m = o.meta_mut();
        match flag_ns {
            Some(ns) if !m.namespace.is_empty() && m.namespace != ns => {
                return Err(format!(
                    "error: the namespace from the provided object \"{}\" does not match the namespace \"{ns}\". You must pass '--namespace={}' to perform this operation.",
                    m.namespace, m.namespace
                )
                .into());
            }
            _ if m.namespace.is_empty() => m.namespace = a.ns().into(),
            _ => {}
        }
        if !c.store.has_namespace(&m.namespace) {
            return Err(format!(
                "Error from server (NotFound): error when creating \"{source}\": namespaces \"{}\" not found",
                m.namespace
            )
            .into());
        }
    }
    // Strict field validation (kubectl's default): the apiserver refuses a body with fields
    // the kind does not have, on create, and on the patch an apply of an existing object sends.
    for (o, (value, unknown)) in objs.iter().zip(&strict) {
        if unknown.is_empty() {
            continue;
        }
        let exists = c.store.get(o.kind(), &o.meta().key()).is_some();
        return Err(if exists && verb == "apply" {
            schema::invalid_patch(&schema::only_fields(value, unknown), unknown)
        } else {
            format!(
                "Error from server (BadRequest): error when creating \"{source}\": {}",
                schema::strict_decoding_error(o.kind(), unknown)
            )
        }
        .into());
    }
    // Every object or none: a bad second document puts the store back as it was.
    let snapshot = c.store.clone();
    let mut out = vec![];
    for (mut obj, (value, _)) in objs.into_iter().zip(&strict) {
        // Client-side apply keeps what it applied on the object, for its next three-way merge;
        // an object it finds without it (made another way) is warned about, then patched.
        if verb == "apply" && !server_side {
            let found = c.store.get(obj.kind(), &obj.meta().key());
            if let Some(found) = found
                && !found
                    .meta()
                    .annotations
                    .contains_key(LAST_APPLIED_ANNOTATION)
            {
                out.push(format!(
                    "Warning: resource {}/{} is missing the {LAST_APPLIED_ANNOTATION} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.",
                    Resource::of(obj.kind()).prefix(),
                    obj.meta().name
                ));
            }
            let config = last_applied(value, &obj.meta().namespace);
            obj.meta_mut()
                .annotations
                .insert(LAST_APPLIED_ANNOTATION.into(), config);
        }
        match apply_one(c, verb, obj) {
            Ok(line) => out.push(line),
            Err(e) => {
                *c.apiserver() = snapshot;
                return Err(match e {
                    ApiError::AlreadyExists { kind, name } => KubectlError::Client(format!(
                        "Error from server (AlreadyExists): error when creating \"{source}\": {} \"{name}\" already exists",
                        kind.resource()
                    )),
                    e => api_err(e),
                });
            }
        }
    }
    Ok(out.join("\n"))
}

/// kubectl's `GetModifiedConfiguration`: the manifest as applied (its namespace filled in, its
/// own last-applied annotation left out, `annotations` present even when empty), as compact
/// JSON with each map's keys sorted (Go's encoding of a map) and a newline.
fn last_applied(value: &Value, namespace: &str) -> String {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                crate::api::sort::sort(&mut keys);
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&m[k])))
                        .collect(),
                )
            }
            Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    let mut v = value.clone();
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        m.entry("namespace")
            .or_insert_with(|| Value::String(namespace.into()));
        let annotations = m
            .entry("annotations")
            .or_insert_with(|| Value::Object(Default::default()));
        match annotations {
            Value::Object(a) => {
                a.remove(LAST_APPLIED_ANNOTATION);
            }
            other => *other = Value::Object(Default::default()),
        }
    }
    serde_json::to_string(&sorted(&v)).unwrap_or_default() + "\n"
}

/// One object of an apply or a create: created when new (a create of an existing one is
/// AlreadyExists), else replaced, keeping what the server owns (resourceVersion, the
/// controller's annotations, owner references, finalizers); "unchanged" when nothing moved.
fn apply_one(c: &mut Cluster, verb: &str, obj: Object) -> Result<String, ApiError> {
    let kind = obj.kind();
    let name = obj.meta().name.clone();
    let prefix = Resource::of(kind).prefix();
    let key = obj.meta().key();
    let Some(old) = c.store.get(kind, &key).cloned() else {
        return c.create(obj).map(|_| format!("{prefix}/{name} created"));
    };
    if verb == "create" {
        return Err(ApiError::AlreadyExists {
            kind,
            name: name.to_string(),
        });
    }
    let mut new = obj;
    let (om, nm) = (old.meta(), new.meta_mut());
    nm.resource_version = om.resource_version.clone();
    for (k, v) in &om.annotations {
        if k.starts_with("deployment.kubernetes.io/") {
            nm.annotations.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    nm.owner_references = om.owner_references.clone();
    nm.finalizers = om.finalizers.clone();
    let before = om.resource_version.clone();
    c.apiserver().update(new).map(|o| {
        if o.meta().resource_version == before {
            format!("{prefix}/{name} unchanged")
        } else {
            format!("{prefix}/{name} configured")
        }
    })
}

/// `kubectl create deployment NAME --image=IMAGE [--replicas=N]`: labels `app=NAME`, one
/// container named after the image.
/// `kubectl create namespace NAME`.
fn create_namespace(c: &mut Cluster, a: &Args) -> Outcome {
    let name = a
        .positional
        .first()
        .ok_or("error: exactly one NAME is required, got 0")?;
    if !crate::api::validation::is_dns1123_label(name) {
        return Err(format!(
            "The Namespace \"{name}\" is invalid: metadata.name: Invalid value: \"{name}\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        )
        .into());
    }
    if !c.apiserver().add_namespace(name) {
        return Err(format!(
            "Error from server (AlreadyExists): namespaces \"{name}\" already exists"
        )
        .into());
    }
    Ok(format!("namespace/{name} created"))
}

fn create_deployment(c: &mut Cluster, a: &Args) -> Outcome {
    let name = a.positional.first().ok_or(
        "error: exactly one NAME is required, got 0 (kubectl create deployment NAME --image=IMAGE)",
    )?;
    let Some(Some(image)) = a.flag("image") else {
        return Err("error: required flag(s) \"image\" not set".into());
    };
    let replicas = a.int("replicas")?.unwrap_or(1);
    let container = image
        .rsplit('/')
        .next()
        .unwrap_or(image)
        .split([':', '@'])
        .next()
        .unwrap_or("app")
        .to_string();
    let manifest = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  labels: {{app: {name}}}\nspec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: {name}}}}}\n  template:\n    metadata: {{labels: {{app: {name}}}}}\n    spec:\n      containers:\n      - name: {container}\n        image: {image}\n"
    );
    let mut obj = parse_objects(&manifest)
        .map_err(|e| format!("error: {e}"))?
        .remove(0);
    if !c.store.has_namespace(a.ns()) {
        return Err(format!(
            "error: failed to create deployment: namespaces \"{}\" not found",
            a.ns()
        )
        .into());
    }
    obj.meta_mut().namespace = a.ns().into();
    c.create(obj).map_err(|e| match e {
        ApiError::AlreadyExists { kind, name } => KubectlError::Client(format!(
            "error: failed to create deployment: {} \"{name}\" already exists",
            kind.resource()
        )),
        e => api_err(e),
    })?;
    Ok(format!("deployment.apps/{name} created"))
}
