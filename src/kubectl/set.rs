//! `kubectl set image|env|resources` (k8s.io/kubectl/pkg/cmd/set): a Deployment's pod
//! template changed in place.

use super::args::Args;
use super::command::Command;
use super::resource::Resource;
use super::{KubectlError, Outcome, get_deployment, update_deployment};
use crate::api::*;
use crate::cluster::Cluster;

/// `set image`, `set env` or `set resources`.
pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    let rest = &cmd.args;
    match cmd.sub() {
        Some("env") => set_env(c, &rest[1..]),
        Some("resources") => set_resources(c, &rest[1..]),
        _ => set_image(c, rest),
    }
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
