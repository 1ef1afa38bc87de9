//! The kubectl subset the playground understands, with real kubectl spellings and messages:
//! `apply -f -`, `create`, `set image`, `scale`, `rollout pause|resume|undo|status|history`,
//! `delete`, `patch`, `annotate`, `label`, `get`, `describe`. A command that cannot be parsed, or
//! that the apiserver rejects, is an error naming the command and the problem; nothing changes.

use crate::api::schema;
use crate::api::yaml::{parse_manifests, parse_objects};
use crate::api::*;
use crate::apiserver::store::{ApiError, Propagation};
use crate::cluster::Cluster;
use crate::cluster::kubelet::display_status;
use crate::cluster::watch::{RolloutWatch, status_viewer};
use crate::controller::deployment::util as du;

/// Splits a command line as a POSIX shell would (quotes, backslash escapes, `#` comments), by
/// shlex; the error says which quote is left open.
pub fn tokenize(line: &str) -> Result<Vec<String>, String> {
    shlex::split(line).ok_or_else(|| {
        let closes = |end: char| shlex::split(&format!("{line}{end}")).is_some();
        if closes('x') {
            "a backslash at the end escapes nothing".into()
        } else if closes('\'') {
            "unterminated single quote".into()
        } else {
            "unterminated double quote".into()
        }
    })
}

/// A kubectl verb the playground understands: the one list that running, completion and the
/// console's read-only test go by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verb {
    pub name: &'static str,
    /// Subcommands (`rollout status`), each read-only or not; empty when the verb has none.
    pub subcommands: &'static [(&'static str, bool)],
    /// Whether the verb only reads the world (for a verb with subcommands, see those).
    pub read_only: bool,
}

const fn verb(name: &'static str, read_only: bool) -> Verb {
    Verb {
        name,
        subcommands: &[],
        read_only,
    }
}

pub const VERBS: [Verb; 11] = [
    verb("get", true),
    verb("describe", true),
    Verb {
        name: "set",
        subcommands: &[("image", false), ("env", false), ("resources", false)],
        read_only: false,
    },
    verb("scale", false),
    Verb {
        name: "rollout",
        subcommands: &[
            ("status", true),
            ("history", true),
            ("pause", false),
            ("resume", false),
            ("restart", false),
            ("undo", false),
        ],
        read_only: false,
    },
    verb("delete", false),
    verb("patch", false),
    verb("annotate", false),
    verb("label", false),
    verb("apply", false),
    verb("create", false),
];

/// Whether a command line only reads the world: `get`, `describe`, `rollout status|history`.
pub fn is_read_only(cmd: &str) -> bool {
    let line = cmd.lines().next().unwrap_or("");
    let Ok(tokens) = tokenize(line) else {
        return false;
    };
    // The words that are not flags, nor the values of the flags that take one.
    let mut words = vec![];
    let mut tokens = tokens
        .iter()
        .map(String::as_str)
        .filter(|w| *w != "kubectl" && *w != "k");
    while let Some(w) = tokens.next() {
        if !w.starts_with('-') {
            words.push(w);
        } else if matches!(
            w,
            "-n" | "--namespace" | "-o" | "--output" | "-l" | "--selector"
        ) {
            tokens.next();
        }
    }
    let mut words = words.into_iter();
    let Some(v) = words
        .next()
        .and_then(|w| VERBS.iter().find(|v| v.name == w))
    else {
        return false;
    };
    if v.subcommands.is_empty() {
        return v.read_only;
    }
    let sub = words.next();
    v.subcommands
        .iter()
        .any(|(name, read_only)| *read_only && Some(*name) == sub)
}

/// Completes the last word of a console line, as kubectl's shell completion would: verbs,
/// subcommands, resource names and `RESOURCE/NAME`s. `names` are the Deployment's (first) and
/// its ReplicaSets', `pods` the pods'. Returns the line with the candidates' common prefix
/// filled in (and a space after a single candidate), and the candidates.
pub fn complete(input: &str, names: &[String], pods: &[String]) -> (String, Vec<String>) {
    let words: Vec<&str> = input.split(' ').collect();
    let last = *words.last().unwrap_or(&"");
    let lead: Vec<&str> = words[..words.len() - 1]
        .iter()
        .copied()
        .filter(|w| *w != "kubectl" && *w != "k" && !w.is_empty())
        .collect();
    let sub_of = |verb: &str| VERBS.iter().find(|v| v.name == verb).map(|v| v.subcommands);
    let mut pool: Vec<String> = match (lead.len(), lead.first().and_then(|v| sub_of(v))) {
        (0, _) => VERBS.iter().map(|v| v.name.to_string()).collect(),
        (1, Some(subs)) if !subs.is_empty() => subs.iter().map(|(s, _)| s.to_string()).collect(),
        _ => match last.split_once('/') {
            Some((r, _)) => {
                let of: Vec<String> = match Resource::parse(r) {
                    Some(Resource::Pod) => pods.to_vec(),
                    Some(Resource::Deployment) => names.iter().take(1).cloned().collect(),
                    Some(Resource::ReplicaSet) => names.iter().skip(1).cloned().collect(),
                    None => vec![],
                };
                of.into_iter().map(|n| format!("{r}/{n}")).collect()
            }
            None => {
                let mut v: Vec<String> = Resource::NAMES
                    .iter()
                    .filter(|(n, _)| !n.contains('.'))
                    .map(|(n, _)| n.to_string())
                    .collect();
                v.extend(names.iter().take(1).map(|n| format!("deployment/{n}")));
                v.extend(names.iter().cloned());
                v.extend(pods.iter().cloned());
                v
            }
        },
    };
    pool.sort();
    pool.dedup();
    let hits: Vec<String> = pool.into_iter().filter(|c| c.starts_with(last)).collect();
    let mut common = hits.first().cloned().unwrap_or_default();
    for h in &hits {
        while !h.starts_with(&common) {
            common.pop();
        }
    }
    let mut line = words[..words.len() - 1].join(" ");
    if !line.is_empty() {
        line.push(' ');
    }
    if hits.len() == 1 {
        line.push_str(&hits[0]);
        line.push(' ');
    } else if common.len() > last.len() {
        line.push_str(&common);
    } else {
        line.push_str(last);
    }
    (line, hits)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    Deployment,
    ReplicaSet,
    Pod,
}

impl Resource {
    /// The resource a command names, or kubectl's error for one the server does not have.
    fn named(s: &str) -> Result<Resource, String> {
        Resource::parse(s)
            .ok_or_else(|| format!("error: the server doesn't have a resource type \"{s}\""))
    }
    /// Every spelling of a resource kubectl accepts (singular, plural, short, with group).
    pub const NAMES: [(&str, Resource); 13] = [
        ("deployment", Resource::Deployment),
        ("deployments", Resource::Deployment),
        ("deploy", Resource::Deployment),
        ("deployment.apps", Resource::Deployment),
        ("deployments.apps", Resource::Deployment),
        ("replicaset", Resource::ReplicaSet),
        ("replicasets", Resource::ReplicaSet),
        ("rs", Resource::ReplicaSet),
        ("replicaset.apps", Resource::ReplicaSet),
        ("replicasets.apps", Resource::ReplicaSet),
        ("pod", Resource::Pod),
        ("pods", Resource::Pod),
        ("po", Resource::Pod),
    ];

    pub fn parse(s: &str) -> Option<Resource> {
        let s = s.to_ascii_lowercase();
        Resource::NAMES
            .iter()
            .find(|(name, _)| *name == s)
            .map(|(_, r)| *r)
    }
    fn kind(self) -> Kind {
        match self {
            Resource::Deployment => Kind::Deployment,
            Resource::ReplicaSet => Kind::ReplicaSet,
            Resource::Pod => Kind::Pod,
        }
    }
    fn prefix(self) -> &'static str {
        match self {
            Resource::Deployment => "deployment.apps",
            Resource::ReplicaSet => "replicaset.apps",
            Resource::Pod => "pod",
        }
    }
}

/// What a command printed, or why it was refused.
pub type Outcome = Result<String, KubectlError>;

/// Why kubectl refused a command: its own check (usage, flags, a precondition), in kubectl's
/// words, or the apiserver's refusal, printed as kubectl prints a server's error.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum KubectlError {
    #[error("{0}")]
    Client(String),
    #[error("{}", server_message(.0))]
    Server(ApiError),
}

impl From<String> for KubectlError {
    fn from(message: String) -> KubectlError {
        KubectlError::Client(message)
    }
}

impl From<&str> for KubectlError {
    fn from(message: &str) -> KubectlError {
        KubectlError::Client(message.to_string())
    }
}

/// An apiserver error as kubectl prints it: `Error from server (NotFound): …`, `The
/// Deployment "web" is invalid: …`.
fn server_message(e: &ApiError) -> String {
    match e {
        ApiError::Invalid(i) => format!(
            "The {} \"{}\" is invalid: {}",
            i.kind,
            i.name,
            i.to_string()
                .split_once("is invalid: ")
                .map(|x| x.1)
                .unwrap_or("")
        ),
        ApiError::NotFound { kind, name } => format!(
            "Error from server (NotFound): {} \"{name}\" not found",
            kind.resource()
        ),
        other => format!("Error from server: {other}"),
    }
}

struct Args {
    positional: Vec<String>,
    flags: Vec<(String, Option<String>)>,
}

impl Args {
    fn parse(tokens: &[String], with_value: &[&str]) -> Result<Args, String> {
        // Every verb takes the namespace flags.
        let with_value: Vec<&str> = with_value
            .iter()
            .copied()
            .chain(["n", "namespace"])
            .collect();
        let mut positional = vec![];
        let mut flags = vec![];
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            if let Some(f) = t
                .strip_prefix("--")
                // A shorthand: `-w`, or with its value, `-w=false`.
                .or_else(|| {
                    t.strip_prefix('-')
                        .filter(|f| f.split('=').next().is_some_and(|k| k.len() == 1))
                })
            {
                if let Some((k, v)) = f.split_once('=') {
                    flags.push((k.to_string(), Some(v.to_string())));
                } else if with_value.contains(&f) {
                    let v = tokens
                        .get(i + 1)
                        .ok_or_else(|| format!("error: flag needs an argument: --{f}"))?;
                    flags.push((f.to_string(), Some(v.clone())));
                    i += 1;
                } else {
                    flags.push((f.to_string(), None));
                }
            } else {
                positional.push(t.clone());
            }
            i += 1;
        }
        Ok(Args { positional, flags })
    }
    /// The namespace the command works in: `-n`/`--namespace`, else `default`.
    fn ns(&self) -> &str {
        self.flag("n")
            .or(self.flag("namespace"))
            .flatten()
            .unwrap_or("default")
    }

    /// The store's key of the object `name` in the command's namespace.
    fn key(&self, name: &str) -> String {
        format!("{}/{name}", self.ns())
    }

    fn flag(&self, name: &str) -> Option<Option<&str>> {
        self.flags
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_deref())
    }
    /// An integer flag's value, refused as pflag refuses one that does not parse.
    fn int(&self, name: &str) -> Result<Option<i32>, String> {
        match self.flag(name) {
            Some(Some(v)) => v.parse().map(Some).map_err(|_| {
                format!("error: invalid argument \"{v}\" for \"--{name}\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax")
            }),
            _ => Ok(None),
        }
    }
    fn only(&self, allowed: &[&str]) -> Result<(), String> {
        for (k, _) in &self.flags {
            if !allowed.contains(&k.as_str()) && k != "n" && k != "namespace" {
                // pflag's words: a one-letter flag is a shorthand.
                return Err(if k.len() == 1 {
                    format!("error: unknown shorthand flag: '{k}' in -{k}")
                } else {
                    format!("error: unknown flag: --{k}")
                });
            }
        }
        Ok(())
    }
    /// The objects a command names: with `-l`/`--selector`, a TYPE at `i` and every object of
    /// it whose labels match (in the store's order); else one `TYPE/NAME` or `TYPE NAME`.
    /// Returns the resource, the names and where the positionals after them start.
    fn targets(
        &self,
        c: &Cluster,
        i: usize,
        verb: &str,
    ) -> Result<(Resource, Vec<String>, usize), KubectlError> {
        let Some(Some(sel)) = self.flag("l").or(self.flag("selector")) else {
            let (res, name, next) = self.target(i, verb)?;
            return Ok((res, vec![name], next));
        };
        let selector = parse_selector(sel)?;
        let Some(first) = self.positional.get(i) else {
            return Err(format!(
                "error: you must specify the type of resource to {verb} (e.g. pods)"
            )
            .into());
        };
        let res = Resource::named(first)?;
        let names = c
            .store
            .list(res.kind())
            .filter(|o| o.meta().namespace == self.ns() && selector.matches(&o.meta().labels))
            .map(|o| o.meta().name.to_string())
            .collect();
        Ok((res, names, i + 1))
    }

    /// `TYPE/NAME` or `TYPE NAME` from the positionals starting at `i`.
    fn target(&self, i: usize, verb: &str) -> Result<(Resource, String, usize), String> {
        let Some(first) = self.positional.get(i) else {
            return Err(format!(
                "error: you must specify the type of resource to {verb} (e.g. deployment/web)"
            ));
        };
        if let Some((r, n)) = first.split_once('/') {
            let res = Resource::named(r)?;
            if n.is_empty() {
                return Err(format!(
                    "error: arguments in resource/name form must have a single resource and name: {first:?}"
                ));
            }
            return Ok((res, n.to_string(), i + 1));
        }
        let res = Resource::named(first)?;
        let name = self.positional.get(i + 1).ok_or_else(|| {
            format!("error: resource name may not be empty (kubectl {verb} {first} NAME)")
        })?;
        Ok((res, name.clone(), i + 2))
    }
}

fn not_found(kind: Kind, name: &str) -> KubectlError {
    KubectlError::Server(ApiError::NotFound {
        kind,
        name: name.to_string(),
    })
}

fn api_err(e: ApiError) -> KubectlError {
    KubectlError::Server(e)
}

fn get_deployment(c: &Cluster, a: &Args, name: &str) -> Result<Deployment, KubectlError> {
    c.store
        .deployment(&a.key(name))
        .cloned()
        .ok_or_else(|| not_found(Kind::Deployment, name))
}

fn update_deployment(c: &mut Cluster, d: Deployment) -> Result<(), KubectlError> {
    c.store
        .update(Object::Deployment(Box::new(d)))
        .map(|_| ())
        .map_err(api_err)
}

/// Runs one command line (with optional stdin after the first line). `Ok` holds what kubectl
/// printed; `Err` the error it printed, with the store unchanged.
pub fn run(c: &mut Cluster, text: &str) -> Outcome {
    let text = text.trim();
    let (line, stdin) = match text.split_once('\n') {
        Some((l, rest)) => (l.trim(), Some(rest)),
        None => (text, None),
    };
    let stdin = stdin.map(|s| {
        let s = s.trim_end();
        // `<<EOF … EOF` heredocs: drop the closing marker.
        match s.rsplit_once('\n') {
            Some((body, last)) if last.trim() == "EOF" => body.to_string(),
            _ => s.to_string(),
        }
    });
    let mut tokens = tokenize(line).map_err(|e| format!("error: {e} in {line:?}"))?;
    tokens.retain(|t| t != "<<EOF" && t != "<<'EOF'");
    // `k` is the alias everyone sets up for kubectl.
    if matches!(tokens.first().map(String::as_str), Some("kubectl" | "k")) {
        tokens.remove(0);
    }
    let Some(verb) = tokens.first().cloned() else {
        return Err("error: empty command: expected e.g. kubectl get deployments".into());
    };
    let rest = &tokens[1..];
    match verb.as_str() {
        "apply" | "create" => apply_or_create(c, &verb, rest, stdin.as_deref()),
        "set" => match rest.first().map(String::as_str) {
            Some("env") => set_env(c, &rest[1..]),
            Some("resources") => set_resources(c, &rest[1..]),
            _ => set_image(c, rest),
        },
        "scale" => scale(c, rest),
        "rollout" => rollout(c, rest),
        "delete" => delete(c, rest),
        "patch" => patch(c, rest),
        "annotate" | "label" => annotate(c, &verb, rest),
        "get" => get(c, rest),
        "describe" => describe(c, rest),
        other => Err(format!(
            "error: unknown command \"{other}\" for \"kubectl\" (the playground knows {})",
            VERBS.map(|v| v.name).join(", ")
        )
        .into()),
    }
}

/// `kubectl apply -f -` and `kubectl create -f -` (the manifest on the lines after the
/// command), and `kubectl create deployment NAME --image=IMAGE`.
fn apply_or_create(c: &mut Cluster, verb: &str, rest: &[String], stdin: Option<&str>) -> Outcome {
    let a = Args::parse(
        rest,
        &["f", "filename", "image", "replicas", "n", "namespace"],
    )?;
    match (verb, a.positional.first().map(String::as_str)) {
        ("create", Some("deployment")) => return create_deployment(c, &a),
        ("create", Some("namespace" | "ns")) => return create_namespace(c, &a),
        _ => {}
    }
    a.only(&[
        "f",
        "filename",
        "n",
        "namespace",
        "server-side",
        "force-conflicts",
    ])?;
    let file = a.flag("f").or(a.flag("filename")).flatten();
    if file != Some("-") {
        return Err(format!(
            "error: kubectl {verb} in the playground reads the manifest from the lines after the command: use `kubectl {verb} -f -`"
        ).into());
    }
    let text = stdin.filter(|s| !s.trim().is_empty()).ok_or_else(|| format!("error: no objects passed to {verb}: put the manifest on the lines after `kubectl {verb} -f -`"))?;
    let manifests =
        parse_manifests(text).map_err(|e| format!("error: error validating \"STDIN\": {e}"))?;
    let (mut objs, strict): (Vec<Object>, Vec<(Value, Vec<String>)>) = manifests
        .into_iter()
        .map(|m| (m.object, (m.value, m.unknown)))
        .unzip();
    // Each object goes to its own namespace, else the command's; `-n` may not contradict it.
    let flag_ns = a.flag("n").or(a.flag("namespace")).flatten();
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
                "Error from server (NotFound): error when creating \"STDIN\": namespaces \"{}\" not found",
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
                "Error from server (BadRequest): error when creating \"STDIN\": {}",
                schema::strict_decoding_error(o.kind(), unknown)
            )
        }
        .into());
    }
    // Every object or none: a bad second document puts the store back as it was.
    let snapshot = c.store.clone();
    let mut out = vec![];
    for obj in objs {
        match apply_one(c, verb, obj) {
            Ok(line) => out.push(line),
            Err(e) => {
                c.store = snapshot;
                return Err(match e {
                    ApiError::AlreadyExists { kind, name } => KubectlError::Client(format!(
                        "Error from server (AlreadyExists): error when creating \"STDIN\": {} \"{name}\" already exists",
                        kind.resource()
                    )),
                    e => api_err(e),
                });
            }
        }
    }
    Ok(out.join("\n"))
}

/// One object of an apply or a create: created when new (a create of an existing one is
/// AlreadyExists), else replaced, keeping what the server owns (resourceVersion, the
/// controller's annotations, owner references, finalizers); "unchanged" when nothing moved.
fn apply_one(c: &mut Cluster, verb: &str, obj: Object) -> Result<String, ApiError> {
    let kind = obj.kind();
    let name = obj.meta().name.clone();
    let prefix = match kind {
        Kind::Deployment => "deployment.apps",
        Kind::ReplicaSet => "replicaset.apps",
        Kind::Pod => "pod",
    };
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
    c.store.update(new).map(|o| {
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
    a.only(&[])?;
    let name = a
        .positional
        .get(1)
        .ok_or("error: exactly one NAME is required, got 0")?;
    if !crate::api::validation::is_dns1123_label(name) {
        return Err(format!(
            "The Namespace \"{name}\" is invalid: metadata.name: Invalid value: \"{name}\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        )
        .into());
    }
    if !c.store.add_namespace(name) {
        return Err(format!(
            "Error from server (AlreadyExists): namespaces \"{name}\" already exists"
        )
        .into());
    }
    Ok(format!("namespace/{name} created"))
}

fn create_deployment(c: &mut Cluster, a: &Args) -> Outcome {
    a.only(&["image", "replicas", "n", "namespace"])?;
    let name = a.positional.get(1).ok_or(
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

/// The Deployment a `kubectl set …` names, and its template's containers that `-c` picks
/// (all without it; kubectl's `--containers` is a glob, here a name or `*`).
fn set_target(c: &Cluster, a: &Args, what: &str) -> Result<(String, Deployment), KubectlError> {
    let (res, name, _) = a.target(0, &format!("set {what}"))?;
    if res != Resource::Deployment {
        return Err(format!(
            "error: the playground sets {what} on deployments, not {}",
            res.prefix()
        )
        .into());
    }
    let d = get_deployment(c, a, &name)?;
    Ok((name, d))
}

/// Whether `-c/--containers` selects the container `name`.
fn picks(a: &Args, name: &str) -> bool {
    match a.flag("c").or(a.flag("containers")).flatten() {
        None | Some("*") => true,
        Some(want) => want == name,
    }
}

/// `kubectl set env deployment/NAME KEY=VALUE … KEY- …`: each picked container's env gets the
/// variables (a name already there keeps its place) and loses the ones ending in `-`. Nothing
/// printed when nothing changes, as kubectl skips an empty patch.
fn set_env(c: &mut Cluster, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["c", "containers"])?;
    a.only(&["c", "containers", "overwrite"])?;
    let (name, mut d) = set_target(c, &a, "env")?;
    let (_, _, next) = a.target(0, "set env")?;
    let changes = &a.positional[next..];
    if changes.is_empty() {
        return Err("error: at least one environment variable must be provided".into());
    }
    let before = d.clone();
    let mut found = false;
    for ct in d.spec.template.spec.containers.iter_mut() {
        if !picks(&a, &ct.name) {
            continue;
        }
        found = true;
        let env = ct
            .extra
            .entry("env")
            .or_insert_with(|| Value::Array(vec![]));
        let Value::Array(env) = env else {
            return Err(
                format!("error: container {:?}: env is not a list", ct.name.as_str()).into(),
            );
        };
        for ch in changes {
            if let Some(k) = ch.strip_suffix('-').filter(|_| !ch.contains('=')) {
                env.retain(|e| e.get("name").and_then(Value::as_str) != Some(k));
                continue;
            }
            let (k, v) = ch.split_once('=').ok_or_else(|| {
                format!("error: environment variables must be of the form key=value: {ch}")
            })?;
            let var = serde_json::json!({"name": k, "value": v});
            match env
                .iter_mut()
                .find(|e| e.get("name").and_then(Value::as_str) == Some(k))
            {
                Some(e) => *e = var,
                None => env.push(var),
            }
        }
        if env.is_empty() {
            ct.extra.shift_remove("env");
        }
    }
    if !found {
        return Err("error: unable to find container matching --containers".into());
    }
    if d == before {
        return Ok(String::new());
    }
    update_deployment(c, d)?;
    Ok(format!("deployment.apps/{name} env updated"))
}

/// `kubectl set resources deployment/NAME [--limits=cpu=200m,memory=512Mi]
/// [--requests=…]`: each picked container's resources get the quantities given.
fn set_resources(c: &mut Cluster, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["c", "containers", "limits", "requests"])?;
    a.only(&["c", "containers", "limits", "requests"])?;
    let (name, mut d) = set_target(c, &a, "resources")?;
    let parse = |flag: &str| -> Result<Vec<(String, String)>, KubectlError> {
        let Some(Some(list)) = a.flag(flag) else {
            return Ok(vec![]);
        };
        list.split(',')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').ok_or_else(|| {
                    format!("error: invalid argument syntax {p}, expected <resource>=<value>")
                })?;
                if !is_quantity(v) {
                    return Err(KubectlError::from(
                        "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                    ));
                }
                Ok((k.to_string(), v.to_string()))
            })
            .collect()
    };
    let (limits, requests) = (parse("limits")?, parse("requests")?);
    if limits.is_empty() && requests.is_empty() {
        return Err("error: you must specify an update to requests or limits (in the form of --requests/--limits)".into());
    }
    let before = d.clone();
    for ct in d.spec.template.spec.containers.iter_mut() {
        if !picks(&a, &ct.name) {
            continue;
        }
        let resources = ct
            .extra
            .entry("resources")
            .or_insert_with(|| serde_json::json!({}));
        for (part, values) in [("limits", &limits), ("requests", &requests)] {
            if values.is_empty() {
                continue;
            }
            let section = resources
                .as_object_mut()
                .ok_or("error: resources is not a mapping")?
                .entry(part)
                .or_insert_with(|| serde_json::json!({}));
            for (k, v) in values {
                section[k.as_str()] = Value::String(v.clone());
            }
        }
    }
    if d == before {
        return Ok(String::new());
    }
    update_deployment(c, d)?;
    Ok(format!(
        "deployment.apps/{name} resource requirements updated"
    ))
}

/// The shape of a resource quantity (`resource.ParseQuantity`'s expression): `200m`, `1.5`,
/// `512Mi`, `1e3`.
fn is_quantity(v: &str) -> bool {
    let body = v.strip_prefix(['+', '-']).unwrap_or(v);
    let digits = body
        .find(|ch: char| !(ch.is_ascii_digit() || ch == '.'))
        .unwrap_or(body.len());
    let (number, suffix) = body.split_at(digits);
    let number_ok = !number.is_empty() && number.chars().any(|ch| ch.is_ascii_digit());
    let letters = suffix
        .find(|ch: char| !"eEinumkKMGTP".contains(ch))
        .unwrap_or(suffix.len());
    let (_, exponent) = suffix.split_at(letters);
    let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    number_ok && exponent.chars().all(|ch| ch.is_ascii_digit())
}

fn set_image(c: &mut Cluster, rest: &[String]) -> Outcome {
    if rest.first().map(String::as_str) != Some("image") {
        return Err(format!(
            "error: unknown command \"set {}\": the playground supports `kubectl set image|env|resources deployment/NAME …`",
            rest.first().map(String::as_str).unwrap_or("")
        ).into());
    }
    let a = Args::parse(&rest[1..], &[])?;
    a.only(&["record"])?;
    let (res, name, next) = a.target(0, "set image")?;
    if res != Resource::Deployment {
        return Err(format!(
            "error: the playground sets images on deployments, not {}",
            res.prefix()
        )
        .into());
    }
    let pairs = &a.positional[next..];
    if pairs.is_empty() {
        return Err("error: at least one image update is required (CONTAINER=IMAGE)".into());
    }
    let mut d = get_deployment(c, &a, &name)?;
    let before = d.clone();
    for p in pairs {
        let (cname, img) = p.split_once('=').ok_or_else(|| {
            format!("error: invalid image update {p:?}: expected CONTAINER=IMAGE")
        })?;
        if img.is_empty() {
            return Err(
                format!("error: invalid image update {p:?}: the image may not be empty").into(),
            );
        }
        let containers = &mut d.spec.template.spec.containers;
        if cname == "*" {
            containers.iter_mut().for_each(|x| x.image = img.into());
        } else {
            let ct = containers
                .iter_mut()
                .find(|x| x.name == cname)
                .ok_or_else(|| format!("error: unable to find container named \"{cname}\""))?;
            ct.image = img.into();
        }
    }
    // kubectl skips an empty patch without a word.
    if d == before {
        return Ok(String::new());
    }
    update_deployment(c, d)?;
    Ok(format!("deployment.apps/{name} image updated"))
}

fn scale(c: &mut Cluster, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["replicas", "current-replicas"])?;
    a.only(&["replicas", "current-replicas"])?;
    let (res, name, _) = a.target(0, "scale")?;
    let Some(n) = a.int("replicas")? else {
        return Err("error: required flag(s) \"replicas\" not set".into());
    };
    if n < 0 {
        return Err("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0".into());
    }
    // The size precondition (-1, the default: none), checked against the stored spec.
    let current = a.int("current-replicas")?.unwrap_or(-1);
    if current < -1 {
        return Err(
            "error: The --current-replicas must specify an integer of -1 or greater".into(),
        );
    }
    let check = |was: Option<i32>| -> Result<(), KubectlError> {
        let was = was.unwrap_or(1);
        if current == -1 || was == current {
            return Ok(());
        }
        Err(format!("error: Expected replicas to be {current}, was {was}").into())
    };
    match res {
        Resource::Deployment => {
            let mut d = get_deployment(c, &a, &name)?;
            check(d.spec.replicas)?;
            d.spec.replicas = Some(n);
            update_deployment(c, d)?;
        }
        Resource::ReplicaSet => {
            let mut rs = c
                .store
                .replicaset(&a.key(&name))
                .cloned()
                .ok_or_else(|| not_found(Kind::ReplicaSet, &name))?;
            check(rs.spec.replicas)?;
            rs.spec.replicas = Some(n);
            c.store
                .update(Object::ReplicaSet(Box::new(rs)))
                .map_err(api_err)?;
        }
        Resource::Pod => {
            return Err(
                "error: cannot scale pods: only deployments and replicasets have replicas".into(),
            );
        }
    }
    Ok(format!("{}/{name} scaled", res.prefix()))
}

fn rollout(c: &mut Cluster, rest: &[String]) -> Outcome {
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
                c.watches.push(RolloutWatch::new(&d, revision, timeout, now));
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
fn undo(c: &mut Cluster, mut d: Deployment, to: i64) -> Outcome {
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
fn revision_of(c: &Cluster, d: &Deployment, to: i64) -> Result<ReplicaSet, KubectlError> {
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

/// pflag's `strconv.ParseBool`.
fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

/// Go's `time.ParseDuration` (`30s`, `1m30s`, `1.5h`, `500ms`, `0`), in milliseconds; `None`
/// for zero, which kubectl's `--timeout` reads as "never". A negative duration has passed
/// already (0 ms).
fn go_duration_ms(s: &str) -> Result<Option<u64>, String> {
    let invalid = || format!("time: invalid duration {s:?}");
    let (negative, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if body == "0" {
        return Ok(None);
    }
    if body.is_empty() {
        return Err(invalid());
    }
    let mut total_ns = 0f64;
    let mut rest = body;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number = &rest[..num_len];
        if number.is_empty() || number == "." {
            return Err(invalid());
        }
        let n: f64 = number.parse().map_err(|_| invalid())?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        rest = &rest[unit_len..];
        let ns = match unit {
            "" => return Err(format!("time: missing unit in duration {s:?}")),
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            other => return Err(format!("time: unknown unit {other:?} in duration {s:?}")),
        };
        total_ns += n * ns;
    }
    if negative || total_ns == 0.0 {
        return Ok(if negative { Some(0) } else { None });
    }
    Ok(Some((total_ns / 1e6).ceil() as u64))
}

fn owned_replica_sets<'a>(c: &'a Cluster, d: &Deployment) -> Vec<&'a ReplicaSet> {
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

fn rollout_history(c: &Cluster, d: &Deployment, revision: Option<&str>) -> Outcome {
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

fn delete(c: &mut Cluster, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["cascade", "grace-period", "l", "selector"])?;
    a.only(&[
        "cascade",
        "grace-period",
        "now",
        "force",
        "wait",
        "l",
        "selector",
    ])?;
    let (res, names, _) = a.targets(c, 0, "delete")?;
    if names.is_empty() {
        return Ok("No resources found".into());
    }
    let propagation = match a.flag("cascade") {
        None | Some(None) => Propagation::Background,
        Some(Some(v)) => Propagation::parse(v).ok_or_else(|| format!("error: invalid argument \"{v}\" for \"--cascade\" flag: expected background, foreground or orphan"))?,
    };
    let force = a.flag("force").is_some();
    if a.flag("now").is_some() && a.flag("grace-period").is_some() {
        return Err("error: --now and --grace-period cannot be specified together".into());
    }
    // kubectl's DeleteOptions: a negative period is the object's own; 0 without --force is
    // made 1 (no accidental immediate deletion); --force alone means 0.
    let grace = match a.int("grace-period")? {
        Some(g) => Some(g as i64).filter(|g| *g >= 0),
        None if a.flag("now").is_some() => Some(1),
        None => None,
    };
    let grace = match grace {
        Some(0) if !force => Some(1),
        None if force => Some(0),
        g => g,
    };
    let mut out = vec![];
    for name in names {
        out.push(delete_one(
            c,
            res,
            &a.key(&name),
            &name,
            propagation,
            grace,
        )?);
    }
    Ok(out.join("\n"))
}

/// One object of a delete, with its grace period (a pod's own when none is given).
fn delete_one(
    c: &mut Cluster,
    res: Resource,
    key: &str,
    name: &str,
    propagation: Propagation,
    grace: Option<i64>,
) -> Outcome {
    let grace = match (res, grace) {
        (Resource::Pod, None) => c
            .store
            .pod(key)
            .and_then(|p| p.spec.termination_grace_period_seconds),
        (_, g) => g,
    };
    c.store
        .delete(res.kind(), key, propagation, grace)
        .map_err(api_err)?;
    if grace == Some(0) {
        return Ok(format!(
            "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n{} \"{name}\" force deleted",
            res.prefix()
        ));
    }
    Ok(format!("{} \"{name}\" deleted", res.prefix()))
}

/// The lists a strategic merge patch merges by key (their `patchMergeKey` in the API's
/// types), instead of replacing them.
const MERGE_KEYS: [(&str, &str); 8] = [
    ("containers", "name"),
    ("initContainers", "name"),
    ("env", "name"),
    ("volumes", "name"),
    ("volumeMounts", "mountPath"),
    ("ports", "containerPort"),
    ("ownerReferences", "uid"),
    ("conditions", "type"),
];

/// A strategic merge patch (kubectl's default): maps merge, `null` deletes, and the lists of
/// [`MERGE_KEYS`] merge item by item on their key; other values are replaced.
fn strategic_patch(target: &mut Value, patch: &Value) {
    let (Value::Object(t), Value::Object(p)) = (&mut *target, patch) else {
        *target = patch.clone();
        return;
    };
    for (k, v) in p {
        if v.is_null() {
            t.shift_remove(k);
            continue;
        }
        let merge_key = MERGE_KEYS
            .iter()
            .find(|(list, _)| list == k)
            .map(|(_, key)| *key);
        match (merge_key, v) {
            (Some(key), Value::Array(new)) => {
                let cur = t.entry(k.as_str()).or_insert_with(|| Value::Array(vec![]));
                match cur {
                    Value::Array(items) => merge_by_key(items, new, key),
                    other => *other = v.clone(),
                }
            }
            _ => strategic_patch(t.entry(k.as_str()).or_insert(Value::Null), v),
        }
    }
}

/// Each new item patches the item with the same `key`, or is added.
fn merge_by_key(items: &mut Vec<Value>, new: &[Value], key: &str) {
    for n in new {
        let id = n.get(key);
        match items.iter_mut().find(|i| id.is_some() && i.get(key) == id) {
            Some(i) => strategic_patch(i, n),
            None => items.push(n.clone()),
        }
    }
}

/// `kubectl patch KIND NAME -p PATCH [--type strategic|merge|json]` on Deployments,
/// ReplicaSets and pods: the patch is read as YAML (of which JSON is a part), applied to the
/// stored object, and the result sent as an update.
fn patch(c: &mut Cluster, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["type", "p", "patch"])?;
    a.only(&["type", "p", "patch"])?;
    let (res, name, _) = a.target(0, "patch")?;
    let ty = a.flag("type").flatten().unwrap_or("strategic");
    if !["json", "merge", "strategic"].contains(&ty.to_ascii_lowercase().as_str()) {
        return Err(
            format!("error: --type must be one of [json merge strategic], not {ty:?}").into(),
        );
    }
    let Some(Some(p)) = a.flag("p").or(a.flag("patch")) else {
        return Err("error: must specify -p to patch".into());
    };
    let patch: Value = crate::api::yaml::parse_document(p)
        .map_err(|e| format!("error: unable to parse \"{p}\": {e}"))?;
    let kind = res.kind();
    let old = c
        .store
        .get(kind, &a.key(&name))
        .cloned()
        .ok_or_else(|| not_found(kind, &name))?;
    let mut v = old.to_value();
    match ty.to_ascii_lowercase().as_str() {
        "merge" => json_patch::merge(&mut v, &patch),
        "json" => {
            let ops: json_patch::Patch = serde_json::from_value(patch.clone())
                .map_err(|e| format!("error: unable to parse \"{p}\" as a JSON patch: {e}"))?;
            json_patch::patch(&mut v, &ops).map_err(|e| format!("Error from server: {e}"))?;
        }
        _ => strategic_patch(&mut v, &patch),
    }
    // Strict field validation of the patched object.
    let unknown = schema::unknown_fields(kind, &v);
    if !unknown.is_empty() {
        return Err(schema::invalid_patch(&patch, &unknown).into());
    }
    // Decoded as the stored kind: a patch cannot turn a Deployment into something else.
    let new = match kind {
        Kind::Deployment => codec::from_value(v).map(|d| Object::Deployment(Box::new(d))),
        Kind::ReplicaSet => codec::from_value(v).map(|r| Object::ReplicaSet(Box::new(r))),
        Kind::Pod => codec::from_value(v).map(Object::Pod),
    }
    .map_err(|e| format!("error: the patch does not fit a {}: {e}", kind.as_str()))?;
    if new == old {
        return Ok(format!("{}/{name} patched (no change)", res.prefix()));
    }
    c.store.update(new).map_err(api_err)?;
    Ok(format!("{}/{name} patched", res.prefix()))
}

fn annotate(c: &mut Cluster, verb: &str, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &["l", "selector"])?;
    a.only(&["overwrite", "l", "selector"])?;
    let (res, names, next) = a.targets(c, 0, verb)?;
    let changes = &a.positional[next..];
    if changes.is_empty() {
        return Err(format!(
            "error: at least one {} update is required (KEY=VALUE or KEY-)",
            if verb == "label" {
                "label"
            } else {
                "annotation"
            }
        )
        .into());
    }
    let overwrite = a.flag("overwrite").is_some();
    let mut out = vec![];
    for name in names {
        out.push(annotate_one(
            c,
            verb,
            res,
            &a.key(&name),
            &name,
            changes,
            overwrite,
        )?);
    }
    Ok(out.join("\n"))
}

/// `kubectl label` / `annotate` on one object.
fn annotate_one(
    c: &mut Cluster,
    verb: &str,
    res: Resource,
    key: &str,
    name: &str,
    changes: &[String],
    overwrite: bool,
) -> Outcome {
    let mut obj = c
        .store
        .get(res.kind(), key)
        .cloned()
        .ok_or_else(|| not_found(res.kind(), name))?;
    // kubectl tells a label change from the object's JSON before and after: the same, "not
    // labeled"; shorter (without --overwrite), "unlabeled". Only `"labels":{…}` can differ, and
    // the command writes it even emptied, so labels added to or removed from none "labeled".
    let json = |m: &Labels| m.iter().map(|(k, v)| k.len() + v.len() + 6).sum::<usize>();
    let (mut out, mut changed, before) = (String::new(), false, json(&obj.meta().labels));
    {
        let m = obj.meta_mut();
        let map = if verb == "label" {
            &mut m.labels
        } else {
            &mut m.annotations
        };
        for ch in changes {
            if let Some(k) = ch.strip_suffix('-').filter(|_| !ch.contains('=')) {
                if map.remove(k).is_some() {
                    changed = true;
                } else if verb == "label" {
                    out += &format!("label {k:?} not found.\n");
                }
            } else {
                let (k, v) = ch.split_once('=').ok_or_else(|| {
                    format!("error: invalid {verb} update {ch:?}: expected KEY=VALUE or KEY-")
                })?;
                if k.is_empty() {
                    return Err(format!(
                        "error: invalid {verb} update {ch:?}: the key may not be empty"
                    )
                    .into());
                }
                // A key already there is refused whatever its value, bar the change-cause
                // annotation, which kubectl always lets a command set.
                if let Some(old) = map.get(k)
                    && !overwrite
                {
                    if verb == "label" {
                        return Err(format!(
                            "error: '{k}' already has a value ({old}), and --overwrite is false"
                        )
                        .into());
                    }
                    if k != "kubernetes.io/change-cause" {
                        return Err(format!(
                            "error: --overwrite is false but found the following declared annotation(s): '{k}' already has a value ({old})"
                        ).into());
                    }
                }
                changed |= map.insert(k.to_string(), v.to_string()).as_deref() != Some(v);
            }
        }
    }
    let done = match json(&obj.meta().labels) {
        _ if verb != "label" => "annotated",
        _ if before == 0 => "labeled",
        _ if !changed => "not labeled",
        after if after < before && !overwrite => "unlabeled",
        _ => "labeled",
    };
    c.store.update(obj).map_err(api_err)?;
    Ok(format!("{out}{}/{name} {done}", res.prefix()))
}

fn age(c: &Cluster, m: &ObjectMeta) -> String {
    crate::api::time::human_duration(
        m.creation_timestamp
            .map(|t| c.now().since(t) / 1_000_000)
            .unwrap_or(0),
    )
}

/// Rows as `kubectl get` prints them: its tab writer's settings (at least 6 wide, 3 spaces
/// of padding).
fn table(rows: Vec<Vec<String>>) -> String {
    let text: Vec<String> = rows.iter().map(|r| r.join("\t")).collect();
    super::describe::aligned(&text.join("\n"), 6, 3)
}

fn get(c: &Cluster, rest: &[String]) -> Outcome {
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
        Some(o) => {
            return Err(format!(
                "error: unable to match a printer suitable for the output format \"{o}\", allowed formats are: json,name,wide,yaml"
            ).into());
        }
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
fn get_events(c: &Cluster, a: &Args) -> Outcome {
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
fn headers(res: Resource) -> [&'static str; 5] {
    match res {
        Resource::Deployment => ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"],
        Resource::ReplicaSet => ["NAME", "DESIRED", "CURRENT", "READY", "AGE"],
        Resource::Pod => ["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
    }
}

/// The columns `-o wide` adds.
fn wide_headers(res: Resource) -> &'static [&'static str] {
    match res {
        Resource::Deployment | Resource::ReplicaSet => &["CONTAINERS", "IMAGES", "SELECTOR"],
        Resource::Pod => &["IP", "NODE", "NOMINATED NODE", "READINESS GATES"],
    }
}

/// An object's cells under [`wide_headers`]. (The simulated pods have no IP.)
fn wide_row(o: &Object) -> Vec<String> {
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
fn row(c: &Cluster, o: &Object) -> Vec<String> {
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

fn parse_selector(s: &str) -> Result<LabelSelector, String> {
    let mut sel = LabelSelector::default();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').ok_or_else(|| {
            format!("error: unable to parse requirement {part:?}: expected KEY=VALUE")
        })?;
        sel.match_labels.insert(
            k.trim_end_matches('=').to_string(),
            v.trim_start_matches('=').to_string(),
        );
    }
    Ok(sel)
}

fn describe(c: &Cluster, rest: &[String]) -> Outcome {
    let a = Args::parse(rest, &[])?;
    a.only(&[])?;
    let (res, name, _) = a.target(0, "describe")?;
    Ok(match res {
        Resource::Deployment => {
            let d = get_deployment(c, &a, &name)?;
            super::describe::deployment(c, &d, &owned_replica_sets(c, &d))
        }
        Resource::ReplicaSet => {
            let rs = c
                .store
                .replicaset(&a.key(&name))
                .ok_or_else(|| not_found(Kind::ReplicaSet, &name))?;
            super::describe::replica_set(c, rs)
        }
        Resource::Pod => {
            let p = c
                .store
                .pod(&a.key(&name))
                .ok_or_else(|| not_found(Kind::Pod, &name))?;
            super::describe::pod(c, p)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{KubectlError, VERBS, complete, is_read_only, tokenize};
    use crate::api::Kind;
    use crate::api::yaml::parse_objects;
    use crate::apiserver::store::ApiError;
    use crate::cluster::{Cluster, kubelet::World};

    /// A command's output, or its error as kubectl prints it.
    fn run(c: &mut Cluster, cmd: &str) -> Result<String, String> {
        super::run(c, cmd).map_err(|e| e.to_string())
    }

    #[test]
    fn the_apiserver_s_refusals_stay_apiserver_errors() {
        let e =
            super::run(&mut cluster(), "kubectl scale deployment/nope --replicas=1").unwrap_err();
        assert_eq!(
            e,
            KubectlError::Server(ApiError::NotFound {
                kind: Kind::Deployment,
                name: "nope".into()
            })
        );
        assert_eq!(
            e.to_string(),
            "Error from server (NotFound): deployments.apps \"nope\" not found"
        );
        let e = super::run(&mut cluster(), "kubectl scale deployment/web").unwrap_err();
        assert!(matches!(e, KubectlError::Client(_)), "{e}");
    }

    #[test]
    fn describe_lays_a_deployment_out_as_kubectl_does() {
        let mut c = cluster();
        c.advance(5_000).unwrap();
        let out = run(&mut c, "kubectl describe deployment web").unwrap();
        for line in [
            "Name:                   web",
            "Labels:                 tier=1",
            "Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable",
            "RollingUpdateStrategy:  25% max unavailable, 25% max surge",
            "  Labels:  app=web",
            // The template's `Node-Selectors:` line is in the same run of aligned lines.
            "   app:\n    Image:         app:1\n    Port:          <none>",
            "  Node-Selectors:  <none>",
            "  Available      True    MinimumReplicasAvailable",
            "OldReplicaSets:  <none>",
            "  Normal  ScalingReplicaSet  5s    deployment-controller  Scaled up replica set web-",
        ] {
            assert!(out.contains(line), "{line:?} in\n{out}");
        }
        assert!(
            out.lines().any(|l| l.starts_with("NewReplicaSet:   web-")
                && l.ends_with(" (2/2 replicas created)")),
            "{out}"
        );
    }

    #[test]
    fn patch_takes_kubectl_s_three_types_on_every_kind() {
        let mut c = cluster();
        let rs = c
            .store
            .replicasets()
            .next()
            .unwrap()
            .metadata
            .name
            .to_string();
        let pod = c.store.pods().next().unwrap().metadata.name.to_string();
        for (cmd, want) in [
            (
                r#"kubectl patch deployment web --type json -p '[{"op":"replace","path":"/spec/replicas","value":3}]'"#.to_string(),
                "deployment.apps/web patched".to_string(),
            ),
            (
                format!(r#"kubectl patch rs {rs} --type merge -p '{{"metadata":{{"labels":{{"team":"a"}}}}}}'"#),
                format!("replicaset.apps/{rs} patched"),
            ),
            (
                format!(r#"kubectl patch pod/{pod} -p '{{"metadata":{{"annotations":{{"note":"x"}}}}}}'"#),
                format!("pod/{pod} patched"),
            ),
            (
                format!(r#"kubectl patch pod/{pod} -p '{{"metadata":{{"annotations":{{"note":"x"}}}}}}'"#),
                format!("pod/{pod} patched (no change)"),
            ),
        ] {
            assert_eq!(run(&mut c, &cmd), Ok(want), "{cmd}");
        }
        assert_eq!(
            c.store.deployment("default/web").unwrap().spec.replicas,
            Some(3)
        );
        for (cmd, err) in [
            (
                "kubectl patch deployment web --type apply -p '{}'",
                "error: --type must be one of [json merge strategic], not \"apply\"",
            ),
            (
                "kubectl patch deployment web --type json -p '[{\"op\":\"remove\",\"path\":\"/spec/nope\"}]'",
                "Error from server: ",
            ),
            (
                "kubectl patch deployment web --type json -p '{\"spec\":{}}'",
                "as a JSON patch",
            ),
            (
                "kubectl patch deployment web -p '{\"spec\": {'",
                "error: unable to parse \"{\"spec\": {\": ",
            ),
        ] {
            let e = run(&mut c, cmd).unwrap_err();
            assert!(e.contains(err), "{cmd}: {e}");
        }
    }

    #[test]
    fn a_strategic_merge_patch_merges_lists_on_their_keys() {
        let mut target = serde_json::json!({"spec": {"containers": [
            {"name": "app", "image": "a:1", "env": [{"name": "A", "value": "1"}]},
            {"name": "side", "image": "s:1"}
        ]}, "metadata": {"ownerReferences": [{"uid": "u1", "name": "x"}]}});
        let patch = serde_json::json!({"spec": {"containers": [
            {"name": "app", "env": [{"name": "B", "value": "2"}, {"name": "A", "value": "3"}]}
        ]}, "metadata": {"ownerReferences": [{"uid": "u1", "controller": true}]}});
        super::strategic_patch(&mut target, &patch);
        assert_eq!(
            target,
            serde_json::json!({"spec": {"containers": [
                {"name": "app", "image": "a:1", "env": [{"name": "A", "value": "3"}, {"name": "B", "value": "2"}]},
                {"name": "side", "image": "s:1"}
            ]}, "metadata": {"ownerReferences": [{"uid": "u1", "name": "x", "controller": true}]}})
        );
    }

    #[test]
    fn delete_label_and_annotate_take_a_selector() {
        let mut c = cluster();
        let pods: Vec<String> = c
            .store
            .pods()
            .map(|p| p.metadata.name.to_string())
            .collect();
        assert_eq!(pods.len(), 2);
        let labeled = run(&mut c, "kubectl label pods -l app=web tier=x").unwrap();
        assert_eq!(
            labeled,
            pods.iter()
                .map(|p| format!("pod/{p} labeled"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert!(
            c.store
                .pods()
                .all(|p| p.metadata.labels.get("tier").map(String::as_str) == Some("x"))
        );
        let annotated = run(
            &mut c,
            "kubectl annotate deployment --selector tier=1 note=hi",
        )
        .unwrap();
        assert_eq!(annotated, "deployment.apps/web annotated");
        assert_eq!(
            run(&mut c, "kubectl label pods -l app=none a=b"),
            Ok(String::new())
        );
        assert_eq!(
            run(&mut c, "kubectl delete pods -l app=none"),
            Ok("No resources found".into())
        );
        let deleted = run(&mut c, "kubectl delete pods -l app=web").unwrap();
        assert_eq!(
            deleted,
            pods.iter()
                .map(|p| format!("pod \"{p}\" deleted"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert_eq!(
            run(&mut c, "kubectl scale deployment web -x 3"),
            Err("error: unknown shorthand flag: 'x' in -x".into())
        );
    }

    #[test]
    fn set_env_and_set_resources_change_the_template_as_kubectl_does() {
        let mut c = cluster();
        let container = |c: &Cluster| {
            let d = c.store.deployment("default/web").unwrap();
            crate::api::codec::to_value(&d.spec.template.spec.containers[0])
        };
        assert_eq!(
            run(&mut c, "kubectl set env deployment/web A=1 B=2"),
            Ok("deployment.apps/web env updated".into())
        );
        assert_eq!(
            run(&mut c, "kubectl set env deployment/web B=3 A-"),
            Ok("deployment.apps/web env updated".into())
        );
        assert_eq!(
            container(&c)["env"],
            serde_json::json!([{"name": "B", "value": "3"}])
        );
        assert_eq!(
            run(&mut c, "kubectl set env deployment/web B=3"),
            Ok(String::new())
        );
        assert_eq!(
            run(&mut c, "kubectl set env deployment/web -c nope X=1"),
            Err("error: unable to find container matching --containers".into())
        );
        assert_eq!(
            run(
                &mut c,
                "kubectl set resources deployment/web --limits=cpu=200m,memory=512Mi --requests=cpu=100m"
            ),
            Ok("deployment.apps/web resource requirements updated".into())
        );
        assert_eq!(
            container(&c)["resources"],
            serde_json::json!({"limits": {"cpu": "200m", "memory": "512Mi"}, "requests": {"cpu": "100m"}})
        );
        assert!(
            run(
                &mut c,
                "kubectl set resources deployment/web --limits=cpu=lots"
            )
            .unwrap_err()
            .contains("quantities must match")
        );
        assert_eq!(
            c.store
                .deployment("default/web")
                .unwrap()
                .metadata
                .generation,
            4,
            "three template changes"
        );
    }

    #[test]
    fn namespaces_as_kubectl_knows_them() {
        let mut c = cluster();
        let shop = "kubectl apply -f - -n shop\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec: {replicas: 1, selector: {matchLabels: {app: api}}, template: {metadata: {labels: {app: api}}, spec: {containers: [{name: app, image: 'api:1'}]}}}\n";
        assert_eq!(
            run(&mut c, shop),
            Err("Error from server (NotFound): error when creating \"STDIN\": namespaces \"shop\" not found".into())
        );
        assert_eq!(
            run(&mut c, "kubectl create namespace shop"),
            Ok("namespace/shop created".into())
        );
        assert_eq!(
            run(&mut c, "kubectl create ns shop"),
            Err("Error from server (AlreadyExists): namespaces \"shop\" already exists".into())
        );
        assert_eq!(run(&mut c, shop), Ok("deployment.apps/api created".into()));
        assert!(c.store.deployment("shop/api").is_some());
        c.drain().unwrap();
        let in_shop = run(&mut c, "kubectl get deployments -n shop").unwrap();
        assert!(
            in_shop.starts_with("NAME") && in_shop.contains("api") && !in_shop.contains("web"),
            "{in_shop}"
        );
        let everywhere = run(&mut c, "kubectl get deploy -A").unwrap();
        let lines: Vec<&str> = everywhere.lines().collect();
        assert!(lines[0].starts_with("NAMESPACE   NAME"), "{everywhere}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("default ") && l.contains("web")),
            "{everywhere}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("shop ") && l.contains("api")),
            "{everywhere}"
        );
        assert_eq!(
            run(&mut c, "kubectl get pods -n kube-system"),
            Ok("No resources found in kube-system namespace.".into())
        );
        assert_eq!(
            run(&mut c, "kubectl scale deployment api --replicas=2"),
            Err("Error from server (NotFound): deployments.apps \"api\" not found".into())
        );
        assert_eq!(
            run(
                &mut c,
                "kubectl scale deployment api --replicas=2 --namespace=shop"
            ),
            Ok("deployment.apps/api scaled".into())
        );
        let elsewhere = "kubectl apply -n default -f -\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec: {containers: [{name: app, image: 'a:1'}]}\n";
        assert_eq!(
            run(&mut c, elsewhere),
            Err("error: the namespace from the provided object \"shop\" does not match the namespace \"default\". You must pass '--namespace=shop' to perform this operation.".into())
        );
    }

    #[test]
    fn rollout_undo_rolls_back_on_the_client_as_kubectl_does() {
        let mut c = cluster();
        assert_eq!(
            run(&mut c, "kubectl rollout undo deployment/web"),
            Err("error: no rollout history found for deployment \"web\"".into())
        );
        run(
            &mut c,
            "kubectl annotate deployment/web kubernetes.io/change-cause=first",
        )
        .unwrap();
        c.drain().unwrap();
        run(&mut c, "kubectl set image deployment/web app=app:2").unwrap();
        run(
            &mut c,
            "kubectl annotate deployment/web kubernetes.io/change-cause=second --overwrite",
        )
        .unwrap();
        c.drain().unwrap();
        assert_eq!(
            run(
                &mut c,
                "kubectl rollout undo deployment/web --to-revision=5"
            ),
            Err("error: unable to find specified revision 5 in history".into())
        );
        assert_eq!(
            run(&mut c, "kubectl rollout undo deployment/web --to-revision=2"),
            Ok("deployment.apps/web skipped rollback (current template already matches revision 2)".into())
        );
        run(&mut c, "kubectl rollout pause deployment/web").unwrap();
        assert_eq!(
            run(&mut c, "kubectl rollout undo deployment/web"),
            Err("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into())
        );
        run(&mut c, "kubectl rollout resume deployment/web").unwrap();
        assert_eq!(
            run(&mut c, "kubectl rollout undo deployment/web"),
            Ok("deployment.apps/web rolled back".into())
        );
        let d = c.store.deployment("default/web").unwrap();
        assert_eq!(d.spec.template.spec.containers[0].image, "app:1");
        assert!(
            !d.spec
                .template
                .metadata
                .labels
                .contains_key("pod-template-hash")
        );
        assert_eq!(
            d.metadata
                .annotations
                .get("kubernetes.io/change-cause")
                .map(String::as_str),
            Some("first"),
            "revision 1's change-cause comes back with its template"
        );
        assert!(
            !d.metadata
                .annotations
                .contains_key("deprecated.deployment.rollback.to")
        );
    }

    #[test]
    fn rollout_status_reads_its_flags_as_kubectl_does() {
        let waiting = "Waiting for deployment \"web\" rollout to finish: 0 of 2 updated replicas are available...";
        let cases: &[(&str, Result<&str, &str>, bool)] = &[
            ("rollout status deployment/web", Ok(waiting), true),
            ("rollout status deploy web -w", Ok(waiting), true),
            (
                "rollout status deployment/web --watch=false",
                Ok(waiting),
                false,
            ),
            ("rollout status deployment/web -w=0", Ok(waiting), false),
            (
                "rollout status deployment/web --timeout=1m30s",
                Ok(waiting),
                true,
            ),
            (
                "rollout status deployment/web --timeout 0",
                Ok(waiting),
                true,
            ),
            (
                "rollout status deployment/web --revision=1",
                Ok(waiting),
                true,
            ),
            (
                "rollout status deployment/web --watch=maybe",
                Err(
                    "error: invalid argument \"maybe\" for \"-w, --watch\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax",
                ),
                false,
            ),
            (
                "rollout status deployment/web --timeout=30",
                Err(
                    "error: invalid argument \"30\" for \"--timeout\" flag: time: missing unit in duration \"30\"",
                ),
                false,
            ),
            (
                "rollout status deployment/web --timeout=1d",
                Err(
                    "error: invalid argument \"1d\" for \"--timeout\" flag: time: unknown unit \"d\" in duration \"1d\"",
                ),
                false,
            ),
            (
                "rollout status deployment/web --revision=-1",
                Err("error: revision must be a positive integer: -1"),
                false,
            ),
            (
                "rollout status deployment/web --revision=2",
                Err("error: desired revision (2) is different from the running revision (1)"),
                false,
            ),
        ];
        for (cmd, want, watching) in cases {
            let mut c = cluster();
            let got = run(&mut c, cmd);
            assert_eq!(got.as_deref().map_err(String::as_str), *want, "{cmd}");
            assert_eq!(!c.watches.is_empty(), *watching, "{cmd}");
        }
        assert_eq!(super::go_duration_ms("1.5h"), Ok(Some(5_400_000)));
        assert_eq!(super::go_duration_ms("300ms"), Ok(Some(300)));
        assert_eq!(super::go_duration_ms("0"), Ok(None));
        assert!(super::go_duration_ms("").is_err());
    }

    #[test]
    fn rollout_restart_stamps_the_template_and_k_is_kubectl() {
        let mut c = cluster();
        c.advance(30_500).unwrap();
        assert_eq!(
            run(&mut c, "k rollout restart deployment/web"),
            Ok("deployment.apps/web restarted".into())
        );
        let d = c.store.deployment("default/web").unwrap();
        assert_eq!(
            d.spec
                .template
                .metadata
                .annotations
                .get("kubectl.kubernetes.io/restartedAt")
                .map(String::as_str),
            Some("2026-01-01T00:00:30Z")
        );
        run(&mut c, "k rollout pause deployment/web").unwrap();
        assert_eq!(
            run(&mut c, "kubectl rollout restart deployment/web"),
            Err("error: deployments.apps \"web\" can't restart paused deployment (run rollout resume first)".into())
        );
    }

    #[test]
    fn get_prints_wide_columns_labels_and_events() {
        let mut c = cluster();
        c.advance(10_000).unwrap();
        let wide = run(&mut c, "kubectl get deploy -o wide").unwrap();
        let lines: Vec<&str> = wide.lines().collect();
        assert!(
            lines[0].ends_with("AGE   CONTAINERS   IMAGES   SELECTOR"),
            "{wide}"
        );
        assert!(
            lines[1].ends_with("app          app:1    app=web"),
            "{wide}"
        );
        let pods = run(&mut c, "kubectl get pods -o wide --show-labels").unwrap();
        let lines: Vec<&str> = pods.lines().collect();
        assert!(
            lines[0].ends_with("IP       NODE     NOMINATED NODE   READINESS GATES   LABELS"),
            "{pods}"
        );
        assert!(
            lines[1].contains("<none>   node-") && lines[1].contains("app=web,pod-template-hash="),
            "{pods}"
        );
        let events = run(
            &mut c,
            "kubectl get events --field-selector involvedObject.kind=Deployment,involvedObject.name=web",
        )
        .unwrap();
        let lines: Vec<&str> = events.lines().collect();
        assert_eq!(
            lines[0].split_whitespace().collect::<Vec<_>>(),
            ["LAST", "SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
        );
        assert!(
            lines[1].contains(
                "Normal   ScalingReplicaSet   deployment/web   Scaled up replica set web-"
            ),
            "{events}"
        );
        assert_eq!(lines.len(), 2, "{events}");
        assert_eq!(
            run(&mut c, "kubectl get events --field-selector spec.x=1"),
            Err("Error from server (BadRequest): Unable to find \"/v1, Resource=events\" that match label selector \"\", field selector \"spec.x=1\": field label not supported: spec.x".into())
        );
    }

    #[test]
    fn read_only_commands_are_the_verbs_table_s() {
        assert!(is_read_only("kubectl get rs -w"));
        assert!(is_read_only("kubectl rollout history deployment/web"));
        assert!(is_read_only("describe deployment web"));
        assert!(is_read_only(
            "kubectl -n default rollout status deployment/web"
        ));
        assert!(!is_read_only("kubectl rollout undo deployment/web"));
        assert!(!is_read_only("kubectl scale deployment/web --replicas=3"));
        assert!(!is_read_only("kubectl rollout"));
        assert!(!is_read_only("kubectl frobnicate"));
        assert!(is_read_only("k get pods"));
    }

    #[test]
    fn every_verb_in_the_table_is_run() {
        for v in VERBS {
            let mut c = cluster();
            let err = run(&mut c, v.name)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(!err.contains("for \"kubectl\""), "{}: {err}", v.name);
        }
        let err = run(&mut cluster(), "kubectl frobnicate").unwrap_err();
        assert!(err.contains("get, describe, set, scale, rollout"), "{err}");
    }

    #[test]
    fn completion_offers_verbs_subcommands_resources_and_names() {
        let names = vec!["web".to_string(), "web-abc".to_string()];
        let pods = vec!["web-abc-x1".to_string()];
        assert_eq!(complete("kubectl ro", &names, &pods).0, "kubectl rollout ");
        assert_eq!(complete("rollout h", &names, &pods).0, "rollout history ");
        assert_eq!(
            complete("set ", &names, &pods).1,
            ["env", "image", "resources"]
        );
        assert_eq!(complete("get deploy/", &names, &pods).0, "get deploy/web ");
        assert_eq!(complete("get rs/", &names, &pods).1, ["rs/web-abc"]);
        assert_eq!(
            complete("delete pod/w", &names, &pods).1,
            ["pod/web-abc-x1"]
        );
        let (line, hits) = complete("get re", &names, &pods);
        assert_eq!(
            (line.as_str(), hits),
            (
                "get replicaset",
                vec!["replicaset".to_string(), "replicasets".to_string()]
            )
        );
    }

    #[test]
    fn command_lines_split_as_a_shell_splits_them() {
        assert_eq!(
            tokenize(r#"kubectl patch deployment/web -p '{"spec": {"paused": true}}' # pause"#)
                .unwrap(),
            [
                "kubectl",
                "patch",
                "deployment/web",
                "-p",
                r#"{"spec": {"paused": true}}"#
            ]
        );
        assert_eq!(
            tokenize(r#"annotate d/web note="a \"b\" \c" x\ y"#).unwrap(),
            ["annotate", "d/web", r#"note=a "b" \c"#, "x y"]
        );
        assert_eq!(
            tokenize("get 'pods").unwrap_err(),
            "unterminated single quote"
        );
        assert_eq!(
            tokenize("get \"pods").unwrap_err(),
            "unterminated double quote"
        );
        assert_eq!(
            tokenize("get pods \\").unwrap_err(),
            "a backslash at the end escapes nothing"
        );
    }

    fn cluster() -> Cluster {
        let mut c = Cluster::new(World::default());
        let web = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, labels: {tier: '1'}}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: app, image: 'app:1'}]}\n";
        c.create(parse_objects(web).unwrap().remove(0)).unwrap();
        c.drain().unwrap();
        c
    }

    #[test]
    fn get_yaml_prints_as_kubectl_sorted_and_double_quoted() {
        let mut c = cluster();
        let out = run(&mut c, "kubectl get deployment web -o yaml").unwrap();
        assert!(out.starts_with("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  annotations:\n    deployment.kubernetes.io/revision: \"1\"\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\n  generation: 1\n  labels:\n    tier: \"1\"\n  name: web\n"), "{out}");
        assert!(
            out.contains("\nspec:\n  progressDeadlineSeconds: 600\n  replicas: 2\n"),
            "{out}"
        );
        assert!(out.contains("    status: \"True\"\n"), "{out}");
    }

    #[test]
    fn get_of_a_kind_prints_a_list_and_of_a_name_the_object() {
        let mut c = cluster();
        let list = run(&mut c, "kubectl get rs -o yaml").unwrap();
        assert!(
            list.starts_with("apiVersion: v1\nitems:\n- apiVersion: apps/v1\n  kind: ReplicaSet\n"),
            "{list}"
        );
        assert!(
            list.ends_with("kind: List\nmetadata:\n  resourceVersion: \"\"\n"),
            "{list}"
        );
        let json = run(&mut c, "kubectl get deploy -o json").unwrap();
        assert!(json.starts_with("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"apiVersion\": \"apps/v1\",\n            \"kind\": \"Deployment\",\n            \"metadata\": {\n                \"annotations\": {"), "{json}");
        let one = run(&mut c, "kubectl get deploy/web -o json").unwrap();
        assert!(
            one.starts_with("{\n    \"apiVersion\": \"apps/v1\",\n    \"kind\": \"Deployment\","),
            "{one}"
        );
        let none = run(&mut c, "kubectl get pods -l app=nothing -o yaml").unwrap();
        assert_eq!(
            none,
            "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
        );
    }

    /// kubectl's DeleteOptions: `--grace-period=0` alone becomes 1 (the pod terminates), with
    /// `--force` the pod goes at once and kubectl says so, with its warning.
    #[test]
    fn delete_makes_a_zero_grace_period_one_unless_forced() {
        let mut c = cluster();
        c.advance(10_000).unwrap();
        let pods: Vec<String> = c
            .store
            .pods()
            .map(|p| p.metadata.name.to_string())
            .collect();
        let out = run(
            &mut c,
            &format!("kubectl delete pod {} --grace-period=0", pods[0]),
        )
        .unwrap();
        assert_eq!(out, format!("pod \"{}\" deleted", pods[0]));
        let p = c
            .store
            .pod(&format!("default/{}", pods[0]))
            .expect("still terminating");
        assert_eq!(p.metadata.deletion_grace_period_seconds, Some(1));
        let out = run(
            &mut c,
            &format!("kubectl delete pod {} --grace-period=0 --force", pods[1]),
        )
        .unwrap();
        assert!(
            out.starts_with("Warning: Immediate deletion does not wait"),
            "{out}"
        );
        assert!(
            out.ends_with(&format!("pod \"{}\" force deleted", pods[1])),
            "{out}"
        );
        assert!(c.store.pod(&format!("default/{}", pods[1])).is_none());
        let err = run(&mut c, "kubectl delete deploy web --now --grace-period=5").unwrap_err();
        assert_eq!(
            err,
            "error: --now and --grace-period cannot be specified together"
        );
    }

    /// kubectl set image prints nothing for an object it leaves as it was (an empty patch).
    #[test]
    fn set_image_to_the_same_image_says_nothing() {
        let mut c = cluster();
        let out = run(&mut c, "kubectl set image deployment/web app=app:1").unwrap();
        assert_eq!(out, "");
        let out = run(&mut c, "kubectl set image deployment/web app=app:2").unwrap();
        assert_eq!(out, "deployment.apps/web image updated");
    }

    /// `scale --current-replicas` is kubectl's size precondition: a different current size is
    /// refused and nothing changes; -1 (the default) is no condition.
    #[test]
    fn scale_checks_the_current_replicas_precondition() {
        let mut c = cluster();
        let rs = c
            .store
            .replicasets()
            .next()
            .unwrap()
            .metadata
            .name
            .to_string();
        let replicas = |c: &Cluster| c.store.deployment("default/web").unwrap().spec.replicas;
        for (cmd, err) in [
            (
                "kubectl scale deployment/web --current-replicas=3 --replicas=5",
                "error: Expected replicas to be 3, was 2",
            ),
            (
                "kubectl scale deployment/web --current-replicas=-2 --replicas=5",
                "error: The --current-replicas must specify an integer of -1 or greater",
            ),
            (
                "kubectl scale deployment/web --current-replicas two --replicas=5",
                "error: invalid argument \"two\" for \"--current-replicas\" flag: strconv.ParseInt: parsing \"two\": invalid syntax",
            ),
            (
                &format!("kubectl scale rs {rs} --current-replicas=1 --replicas=5"),
                "error: Expected replicas to be 1, was 2",
            ),
        ] {
            assert_eq!(run(&mut c, cmd).unwrap_err(), err, "{cmd}");
            assert_eq!(replicas(&c), Some(2), "{cmd}");
        }
        let out = run(
            &mut c,
            "kubectl scale deployment/web --current-replicas=2 --replicas=5",
        );
        assert_eq!(out.unwrap(), "deployment.apps/web scaled");
        assert_eq!(replicas(&c), Some(5));
        let out = run(
            &mut c,
            "kubectl scale deployment/web --current-replicas=-1 --replicas=4",
        );
        assert_eq!(out.unwrap(), "deployment.apps/web scaled");
        assert_eq!(replicas(&c), Some(4));
    }

    /// kubectl label and annotate refuse a key that is already there without --overwrite, even
    /// with the same value, each in its own words; the change-cause annotation is always set.
    #[test]
    fn label_and_annotate_refuse_a_key_already_there_without_overwrite() {
        let mut c = cluster();
        for (cmd, want) in [
            (
                "label deployment/web env=prod",
                Ok("deployment.apps/web labeled"),
            ),
            (
                "label deployment/web env=prod",
                Err("error: 'env' already has a value (prod), and --overwrite is false"),
            ),
            (
                "label deployment/web env=dev --overwrite",
                Ok("deployment.apps/web labeled"),
            ),
            (
                "annotate deployment/web note=x",
                Ok("deployment.apps/web annotated"),
            ),
            (
                "annotate deployment/web note=x",
                Err(
                    "error: --overwrite is false but found the following declared annotation(s): 'note' already has a value (x)",
                ),
            ),
            (
                "annotate deployment/web kubernetes.io/change-cause=a",
                Ok("deployment.apps/web annotated"),
            ),
            (
                "annotate deployment/web kubernetes.io/change-cause=b",
                Ok("deployment.apps/web annotated"),
            ),
        ] {
            let cmd = format!("kubectl {cmd}");
            let got = run(&mut c, &cmd);
            assert_eq!(
                got.as_deref(),
                want.map_err(String::from).as_deref(),
                "{cmd}"
            );
        }
        let d = c.store.deployment("default/web").unwrap();
        assert_eq!(d.metadata.labels["env"], "dev");
        assert_eq!(d.metadata.annotations["note"], "x");
        assert_eq!(d.metadata.annotations["kubernetes.io/change-cause"], "b");
    }

    /// kubectl label says whether the labels changed, as it tells it from the object's JSON
    /// before and after: the same, "not labeled"; shorter, "unlabeled" (but "labeled" with
    /// --overwrite); written from none, even emptied, "labeled". A label to remove that is not
    /// there is reported first.
    #[test]
    fn label_tells_how_the_labels_changed_as_kubectl_does() {
        let mut c = cluster();
        for (cmd, want) in [
            ("tier=1 --overwrite", "deployment.apps/web not labeled"),
            ("env=prod", "deployment.apps/web labeled"),
            ("env-", "deployment.apps/web unlabeled"),
            (
                "env-",
                "label \"env\" not found.\ndeployment.apps/web not labeled",
            ),
            ("tier=12 --overwrite", "deployment.apps/web labeled"),
            ("tier=1 --overwrite", "deployment.apps/web labeled"),
            ("tier- --overwrite", "deployment.apps/web labeled"),
            (
                "tier-",
                "label \"tier\" not found.\ndeployment.apps/web labeled",
            ),
        ] {
            let cmd = format!("kubectl label deployment/web {cmd}");
            assert_eq!(run(&mut c, &cmd).unwrap(), want, "{cmd}");
        }
        assert!(
            c.store
                .deployment("default/web")
                .unwrap()
                .metadata
                .labels
                .is_empty()
        );
    }

    /// A resource type the server does not have, in either spelling of the target.
    #[test]
    fn an_unknown_resource_type_is_refused_in_kubectls_words() {
        let mut c = cluster();
        for cmd in [
            "kubectl get widgets",
            "kubectl get widgets/a",
            "kubectl scale widgets a --replicas=1",
            "kubectl delete widgets/a",
        ] {
            let err = run(&mut c, cmd).unwrap_err();
            assert_eq!(
                err, "error: the server doesn't have a resource type \"widgets\"",
                "{cmd}"
            );
        }
    }

    /// pflag's words for an integer flag that does not parse, for every integer flag.
    #[test]
    fn an_integer_flag_that_does_not_parse_is_refused_as_pflag_does() {
        let mut c = cluster();
        let err = run(&mut c, "kubectl delete deployment/web --grace-period=soon").unwrap_err();
        assert_eq!(
            err,
            "error: invalid argument \"soon\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"soon\": invalid syntax"
        );
        assert!(c.store.deployment("default/web").is_some());
    }
}
