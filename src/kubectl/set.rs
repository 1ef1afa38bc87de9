//! `kubectl set image|env|resources` (k8s.io/kubectl v0.36.3 `pkg/cmd/set`): the pod spec of
//! each object the builder finds (a Deployment's or ReplicaSet's template, a Pod's own)
//! changed in its containers and init containers, then sent as a patch. An object whose patch
//! is empty is passed over without a word, as kubectl passes it.

use super::args::{Args, DryRun};
use super::builder::{self, Info, Report, Setup};
use super::command::Command;
use super::{KubectlError, Outcome, dry_run, write};
use crate::api::*;
use crate::cluster::Cluster;
use serde_json::Map;

/// `set image`, `set env` or `set resources`.
pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    match cmd.args.first().map(String::as_str) {
        Some("image") => set_image(c, cmd),
        Some("env") => set_env(c, cmd),
        Some("resources") => set_resources(c, cmd),
        other => Err(format!(
            "error: unknown command \"set {}\": the playground supports `kubectl set image|env|resources`",
            other.unwrap_or("")
        )
        .into()),
    }
}

/// The objects a `set` subcommand changes. kubectl reads them before it checks the rest of
/// the command, and one it cannot read fails the whole command.
fn infos(c: &Cluster, a: &Args, resources: &[String]) -> Result<Vec<Info>, KubectlError> {
    let setup = Setup {
        allow_empty_selector: a.bool_flag("all")?,
        select_all: false,
    };
    let visit = builder::visit(c, a, resources, setup)?;
    let mut errs = vec![];
    let mut found = vec![];
    for item in visit.items {
        match item {
            Ok(info) => found.push(info),
            Err(e) => errs.push(e),
        }
    }
    match errs.len() {
        0 => Ok(found),
        1 => Err(errs.remove(0)),
        _ => Err(KubectlError::Many(errs)),
    }
}

/// `-o yaml|json|name`: the object printed after the change, instead of kubectl's line.
fn output(a: &Args) -> Result<Option<&str>, KubectlError> {
    match a.flag("output").flatten() {
        None => Ok(None),
        Some(o @ ("yaml" | "json" | "name")) => Ok(Some(o)),
        Some(o) => Err(super::printer::unknown_output(o, "json,name,yaml")),
    }
}

/// kubectl's `Validate` errors, all of them (one alone printed as `error: …`).
fn validate(errs: Vec<&str>) -> Result<(), KubectlError> {
    match errs.len() {
        0 => Ok(()),
        1 => Err(KubectlError::Go(errs[0].to_string())),
        _ => Err(KubectlError::Many(
            errs.into_iter()
                .map(|e| KubectlError::Go(e.to_string()))
                .collect(),
        )),
    }
}

/// `--all` with `-l`, which every set subcommand refuses.
const ALL_AND_SELECTOR: &str = "cannot set --all and --selector at the same time";
const NO_RESOURCES: &str =
    "one or more resources must be specified as <resource> <name> or <resource>/<name>";

/// A pod spec's containers as kubectl's set commands see them: each container as JSON, the
/// init containers marked, in the order `f` is to visit them (`init_first`: init containers
/// first, as `set image` does). Returns what `f` returned for each.
fn edit_containers<T>(
    spec: &mut PodSpec,
    init_first: bool,
    mut f: impl FnMut(&mut Map<String, Value>, bool) -> T,
) -> Result<Vec<T>, KubectlError> {
    let mut v = serde_json::to_value(&*spec).map_err(|e| format!("error: {e}"))?;
    let mut out = vec![];
    let order: [(&str, bool); 2] = if init_first {
        [("initContainers", true), ("containers", false)]
    } else {
        [("containers", false), ("initContainers", true)]
    };
    for (field, init) in order {
        if let Some(Value::Array(list)) = v.get_mut(field) {
            for ct in list.iter_mut().filter_map(Value::as_object_mut) {
                out.push(f(ct, init));
            }
        }
    }
    *spec = crate::api::codec::from_value(v).map_err(|e| format!("error: {e}"))?;
    Ok(out)
}

/// The pod spec kubectl's `UpdatePodSpecForObject` changes: a template's, or a pod's own (a
/// Node has none, and is refused as kubectl refuses it).
fn pod_spec(obj: &mut Object) -> Result<&mut PodSpec, KubectlError> {
    match obj {
        Object::Deployment(d) => Ok(&mut d.spec.template.spec),
        Object::ReplicaSet(rs) => Ok(&mut rs.spec.template.spec),
        Object::Pod(p) => Ok(&mut p.spec),
        Object::Node(_) => Err(KubectlError::Client(
            "error: the object is not a pod or does not have a pod template: *v1.Node".into(),
        )),
        Object::PodDisruptionBudget(_) => Err(KubectlError::Client(
            "error: the object is not a pod or does not have a pod template: *v1.PodDisruptionBudget"
                .into(),
        )),
        Object::Service(_) => Err(KubectlError::Client(
            "error: the object is not a pod or does not have a pod template: *v1.Service".into(),
        )),
        Object::EndpointSlice(_) => Err(KubectlError::Client(
            "error: the object is not a pod or does not have a pod template: *v1.EndpointSlice"
                .into(),
        )),
    }
}

/// The kind's name as a scheme gives it (`Deployment`), for set env's messages.
fn kind_name(o: &Object) -> &'static str {
    o.kind().as_str()
}

/// kubectl's container selector (`selectString`): `*` is every container, a name without
/// `*` is itself, else a glob, matched with kubectl's own quirks (a part is looked for from
/// the last match's position onward, and its index compared with that position).
fn picks(name: &str, spec: &str) -> bool {
    if spec == "*" {
        return true;
    }
    if !spec.contains('*') {
        return name == spec;
    }
    let parts: Vec<&str> = spec.split('*').collect();
    let mut pos = 0usize;
    for (i, part) in parts.iter().enumerate() {
        if part.is_empty() {
            continue;
        }
        // Go's `strings.Index(s[pos:], part)`: relative to `pos`, -1 when absent.
        let next = name[pos..].find(part).map_or(-1, |n| n as i64);
        if next < pos as i64
            || (i == 0 && pos != 0)
            || (i == parts.len() - 1 && name.len() as i64 != part.len() as i64 + next)
        {
            return false;
        }
        pos = next as usize;
    }
    true
}

/// Sends one object's change, unless the patch is empty, and says what happened: its line
/// (`deployment.apps/web image updated`), or the error after `failed` (kubectl's wording per
/// subcommand).
fn send(
    c: &mut Cluster,
    report: &mut Report,
    info: &Info,
    obj: Object,
    (dry, output): (DryRun, Option<&str>),
    (done, failed): (&str, &str),
) {
    if obj == info.object {
        return;
    }
    let printed = output.map(|o| match o {
        "name" => info.object_name(),
        _ => super::get::printed(&obj, o),
    });
    let r = write(c, obj, dry)
        .map(|()| {
            printed.unwrap_or_else(|| format!("{} {done}{}", info.object_name(), dry.suffix()))
        })
        .map_err(|e| KubectlError::Go(format!("{failed}{}", e.bare())));
    report.wrote |= r.is_ok() && dry == DryRun::None;
    report.item(r);
}

/// `kubectl set image TYPE NAME CONTAINER=IMAGE …` (`*=IMAGE` for every container).
fn set_image(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let (dry, mut report) = dry_run(c, &a)?;
    let output = output(&a)?;
    let (resources, pairs) = super::label::resources_and_pairs(&a.positional, "image")?;
    let mut images: Vec<(String, String)> = vec![];
    let mut invalid = vec![];
    for p in &pairs {
        match p.split_once('=') {
            Some((k, v)) if !p.starts_with('=') => super::label::put(&mut images, k, v),
            _ => invalid.push(p.as_str()),
        }
    }
    if !invalid.is_empty() {
        return Err(KubectlError::Go(format!(
            "invalid image format: {}",
            invalid.join(", ")
        )));
    }
    let found = infos(c, &a, &resources)?;
    let mut errs = vec![];
    if a.bool_flag("all")? && a.selector().is_some() {
        errs.push(ALL_AND_SELECTOR);
    }
    if resources.is_empty() {
        errs.push(NO_RESOURCES);
    }
    if images.is_empty() {
        errs.push("at least one image update is required");
    } else if images.len() > 1 && images.iter().any(|(k, _)| k == "*") {
        errs.push("all containers are already specified by *, but saw more than one container_name=container_image pairs");
    }
    validate(errs)?;
    let mut missing = vec![];
    for info in &found {
        let mut obj = info.object.clone();
        for (name, image) in &images {
            let hits = edit_containers(pod_spec(&mut obj)?, true, |ct, _| {
                let hit =
                    ct.get("name").and_then(Value::as_str) == Some(name.as_str()) || name == "*";
                if hit {
                    ct.insert("image".into(), Value::String(image.clone()));
                }
                hit
            })?;
            if !hits.contains(&true) {
                missing.push(KubectlError::Go(format!(
                    "error: unable to find container named {name:?}"
                )));
            }
        }
        send(
            c,
            &mut report,
            info,
            obj,
            (dry, output),
            (
                "image updated",
                "failed to patch image update to pod template: ",
            ),
        );
    }
    // kubectl's errors: the containers not found first, then the patches refused.
    let patched = std::mem::take(&mut report.errs);
    report.errs = missing.into_iter().chain(patched).collect();
    report.finish()
}

/// One environment variable as `set env` reads it (`KEY=VALUE`), or the error kubectl gives.
fn parse_env(specs: &[String]) -> Result<super::label::Pairs, KubectlError> {
    let (mut env, mut remove) = (vec![], vec![]);
    for s in specs {
        if let Some((k, v)) = s.split_once('=') {
            let errs = env_name_errors(k);
            if !errs.is_empty() {
                return Err(KubectlError::Go(format!(
                    "{k:?} is not a valid key name: {}",
                    errs.join(";")
                )));
            }
            env.push((k.to_string(), v.to_string()));
        } else if let Some(k) = s.strip_suffix('-') {
            remove.push(k.to_string());
        } else if s == "-" {
            return Err(KubectlError::Go(
                "when '-' is used, STDIN must be open".into(),
            ));
        } else {
            return Err(KubectlError::Go(format!(
                "unknown environment variable: {s}"
            )));
        }
    }
    if remove.iter().any(|r| env.iter().any(|(k, _)| k == r)) {
        return Err(KubectlError::Go(
            "can not both modify and remove the same environment variable in the same command"
                .into(),
        ));
    }
    Ok((env, remove))
}

/// apimachinery's `IsEnvVarName`.
fn env_name_errors(k: &str) -> Vec<String> {
    let b = k.as_bytes();
    let mut errs = vec![];
    let ok = !b.is_empty()
        && !b[0].is_ascii_digit()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
    if !ok {
        errs.push("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')".to_string());
    }
    if k == "." {
        errs.push("must not be '.'".into());
    } else if k == ".." {
        errs.push("must not be '..'".into());
    } else if k.starts_with("..") {
        errs.push("must not start with '..'".into());
    }
    errs
}

/// `kubectl set env TYPE NAME KEY=VALUE … KEY- …` (and `-e KEY=VALUE`, `--list`): each picked
/// container's variables updated in place, new ones after; `--overwrite=false` refuses a
/// variable that has another value. (Long: kubectl's checks and parsing, in its order.)
fn set_env(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    if a.bool_flag("all")? && a.selector().is_some() {
        return Err(KubectlError::Go(ALL_AND_SELECTOR.into()));
    }
    let split = a
        .positional
        .iter()
        .position(|s| s.contains('=') && !s.starts_with('=') || s.ends_with('-'))
        .unwrap_or(a.positional.len());
    let (resources, env_args) = a.positional.split_at(split);
    if env_args
        .iter()
        .any(|s| !(s.contains('=') && !s.starts_with('=') || s.ends_with('-')))
    {
        return Err(KubectlError::Go(format!(
            "all resources must be specified before environment changes: {}",
            a.positional.join(" ")
        )));
    }
    let (dry, mut report) = dry_run(c, &a)?;
    let output = output(&a)?;
    let list = a.bool_flag("list")?;
    if resources.is_empty() {
        return Err(KubectlError::Go(NO_RESOURCES.into()));
    }
    if list && a.flag("output").is_some() {
        return Err(KubectlError::Go(
            "--list and --output may not be specified together".into(),
        ));
    }
    let params: Vec<String> = a
        .flags
        .iter()
        .filter(|(k, _)| *k == "env")
        .filter_map(|(_, v)| v.clone())
        .chain(env_args.iter().cloned())
        .collect();
    let (mut env, remove) = parse_env(&params)?;
    if let Some(prefix) = a.flag("prefix").flatten() {
        env.iter_mut()
            .for_each(|(k, _)| *k = format!("{prefix}{k}"));
    }
    let found = infos(c, &a, resources)?;
    let edit = EnvEdit {
        env,
        remove,
        overwrite: a.flag("overwrite").is_none() || a.bool_flag("overwrite")?,
        selector: a.flag("containers").flatten().unwrap_or("*"),
        list,
        send: (dry, output),
    };
    for info in &found {
        edit.apply(c, &mut report, info)?;
    }
    report.finish()
}

/// One `set env` command's change to each object's containers.
struct EnvEdit<'a> {
    env: Vec<(String, String)>,
    remove: Vec<String>,
    overwrite: bool,
    selector: &'a str,
    list: bool,
    send: (DryRun, Option<&'a str>),
}

impl EnvEdit<'_> {
    /// The object's picked containers changed (or, with `--list`, listed), then sent; a
    /// container refused is the object's error.
    fn apply(&self, c: &mut Cluster, report: &mut Report, info: &Info) -> Result<(), KubectlError> {
        let mut obj = info.object.clone();
        let mut listing = vec![];
        let results = edit_containers(pod_spec(&mut obj)?, false, |ct, _| {
            let name = ct
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if !picks(&name, self.selector) {
                return None;
            }
            let Value::Array(vars) = ct.entry("env").or_insert_with(|| Value::Array(vec![])) else {
                return Some(Err(format!("container {name:?}: env is not a list")));
            };
            if !self.overwrite
                && let Some(e) = clash(vars, &self.env)
            {
                return Some(Err(e));
            }
            update_env(vars, &self.env, &self.remove);
            if self.list {
                listing.push(format!(
                    "# {} {}, container {name}",
                    kind_name(&info.object),
                    info.name
                ));
                listing.extend(vars.iter().map(env_line));
            }
            if vars.is_empty() {
                ct.remove("env");
            }
            Some(Ok(()))
        })?;
        if self.list {
            report.item(Ok(listing.join("\n")));
            return Ok(());
        }
        if results.iter().all(Option::is_none) {
            report.warnings.push(format!(
                "Warning: {}/{} does not have any containers matching {:?}",
                kind_name(&info.object),
                info.name,
                self.selector
            ));
            return Ok(());
        }
        if let Some(Err(e)) = results.into_iter().flatten().find(Result::is_err) {
            report.err(KubectlError::Go(format!(
                "error: {} {e}\n",
                info.object_name()
            )));
            return Ok(());
        }
        send(
            c,
            report,
            info,
            obj,
            self.send,
            (
                "env updated",
                "failed to patch env update to pod template: ",
            ),
        );
        Ok(())
    }
}

/// `validateNoOverwrites`: a variable set with another value than the one there.
fn clash(vars: &[Value], env: &[(String, String)]) -> Option<String> {
    env.iter().find_map(|(k, v)| {
        let current = vars
            .iter()
            .find(|e| e.get("name").and_then(Value::as_str) == Some(k))?;
        let value = current.get("value").and_then(Value::as_str).unwrap_or("");
        (value != v)
            .then(|| format!("'{k}' already has a value ({value}), and --overwrite is false"))
    })
}

/// kubectl's `updateEnv`: variables removed or replaced in place, new ones after, each once.
fn update_env(vars: &mut Vec<Value>, env: &[(String, String)], remove: &[String]) {
    let mut covered: Vec<String> = remove.to_vec();
    let mut out = vec![];
    let var = |k: &str, v: &str| serde_json::json!({"name": k, "value": v});
    for e in vars.iter() {
        let name = e
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if covered.contains(&name) {
            continue;
        }
        match env.iter().find(|(k, _)| *k == name) {
            Some((k, v)) => {
                covered.push(name);
                out.push(var(k, v));
            }
            None => out.push(e.clone()),
        }
    }
    for (k, v) in env {
        if !covered.contains(k) {
            covered.push(k.clone());
            out.push(var(k, v));
        }
    }
    *vars = out;
}

/// A variable as `set env --list` prints it: `KEY=VALUE`, or where a reference points.
fn env_line(e: &Value) -> String {
    let name = e.get("name").and_then(Value::as_str).unwrap_or("");
    let Some(from) = e.get("valueFrom") else {
        return format!(
            "{name}={}",
            e.get("value").and_then(Value::as_str).unwrap_or("")
        );
    };
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let what = if let Some(r) = from.get("configMapKeyRef") {
        format!("configmap {}, key {}", s(r, "name"), s(r, "key"))
    } else if let Some(r) = from.get("secretKeyRef") {
        format!("secret {}, key {}", s(r, "name"), s(r, "key"))
    } else if let Some(r) = from.get("fieldRef") {
        format!("field path {}", s(r, "fieldPath"))
    } else if let Some(r) = from.get("resourceFieldRef") {
        let container = s(r, "containerName");
        let prefix = if container.is_empty() {
            String::new()
        } else {
            format!("{container}/")
        };
        format!("resource field {prefix}{}", s(r, "resource"))
    } else {
        "invalid valueFrom".to_string()
    };
    format!("# {name} from {what}")
}

/// `kubectl set resources TYPE NAME [--limits=cpu=200m,memory=512Mi] [--requests=…]`: each
/// picked container's requirements get the quantities given. (Long: kubectl's checks in
/// its order, then each object's containers.)
fn set_resources(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let (dry, mut report) = dry_run(c, &a)?;
    let output = output(&a)?;
    let found = infos(c, &a, &a.positional)?;
    if a.bool_flag("all")? && a.selector().is_some() {
        return Err(KubectlError::Go(ALL_AND_SELECTOR.into()));
    }
    let limits = a.flag("limits").flatten().unwrap_or("");
    let requests = a.flag("requests").flatten().unwrap_or("");
    if limits.is_empty() && requests.is_empty() {
        return Err(KubectlError::Go(
            "you must specify an update to requests or limits (in the form of --requests/--limits)"
                .into(),
        ));
    }
    let (limits, requests) = (resource_list(limits)?, resource_list(requests)?);
    let selector = a.flag("containers").flatten().unwrap_or("*");
    for info in &found {
        let mut obj = info.object.clone();
        let hits = edit_containers(pod_spec(&mut obj)?, false, |ct, _| {
            let name = ct.get("name").and_then(Value::as_str).unwrap_or("");
            if !picks(name, selector) {
                return false;
            }
            let resources = ct
                .entry("resources")
                .or_insert_with(|| serde_json::json!({}));
            for (part, values) in [("limits", &limits), ("requests", &requests)] {
                if values.is_empty() {
                    continue;
                }
                if let Some(r) = resources.as_object_mut() {
                    let section = r.entry(part).or_insert_with(|| serde_json::json!({}));
                    for (k, v) in values {
                        section[k.as_str()] = Value::String(v.clone());
                    }
                }
            }
            true
        })?;
        if !hits.contains(&true) {
            report.err(KubectlError::Go(format!(
                "error: unable to find container named {selector}"
            )));
            continue;
        }
        send(
            c,
            &mut report,
            info,
            obj,
            (dry, output),
            (
                "resource requirements updated",
                "failed to patch resources update to pod template ",
            ),
        );
    }
    report.finish()
}

/// kubectl's `populateResourceListV1`: `NAME=QUANTITY,…`, each quantity in canonical form.
fn resource_list(spec: &str) -> Result<Vec<(String, String)>, KubectlError> {
    if spec.is_empty() {
        return Ok(vec![]);
    }
    spec.split(',')
        .map(|statement| {
            let parts: Vec<&str> = statement.split('=').collect();
            if parts.len() != 2 {
                return Err(KubectlError::Go(format!(
                    "Invalid argument syntax {statement}, expected <resource>=<value>"
                )));
            }
            let q = crate::api::quantity::canonical(parts[1]).ok_or_else(|| {
                KubectlError::Go(
                    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
                        .into(),
                )
            })?;
            Ok((parts[0].to_string(), q))
        })
        .collect()
}
