//! A verb's flags and arguments as pflag and kubectl's resource builder read them: `--flag
//! value`, `--flag=value`, shorthands, `TYPE/NAME` or `TYPE NAME`, `-l/--selector`.

use super::KubectlError;
use super::resource::Resource;
use crate::api::*;
use crate::cluster::Cluster;

pub(super) struct Args {
    pub(super) positional: Vec<String>,
    pub(super) flags: Vec<(String, Option<String>)>,
}

impl Args {
    pub(super) fn parse(tokens: &[String], with_value: &[&str]) -> Result<Args, String> {
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
    pub(super) fn ns(&self) -> &str {
        self.flag("n")
            .or(self.flag("namespace"))
            .flatten()
            .unwrap_or("default")
    }

    /// The store's key of the object `name` in the command's namespace.
    pub(super) fn key(&self, name: &str) -> String {
        format!("{}/{name}", self.ns())
    }

    pub(super) fn flag(&self, name: &str) -> Option<Option<&str>> {
        self.flags
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_deref())
    }
    /// An integer flag's value, refused as pflag refuses one that does not parse.
    pub(super) fn int(&self, name: &str) -> Result<Option<i32>, String> {
        match self.flag(name) {
            Some(Some(v)) => v.parse().map(Some).map_err(|_| {
                format!("error: invalid argument \"{v}\" for \"--{name}\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax")
            }),
            _ => Ok(None),
        }
    }
    pub(super) fn only(&self, allowed: &[&str]) -> Result<(), String> {
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
    pub(super) fn targets(
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

    /// Every object the positionals name, as kubectl's resource builder reads them
    /// (`ResourceTypeOrNameArgs`): `TYPE NAME…` (several types comma-separated, each with every
    /// name), or `TYPE/NAME…`, every one in that form; with `-l`, a TYPE and the objects whose
    /// labels match. In the order given.
    pub(super) fn resources(
        &self,
        c: &Cluster,
        verb: &str,
    ) -> Result<Vec<(Resource, String)>, KubectlError> {
        if self.flag("l").or(self.flag("selector")).is_some() {
            let (res, names, _) = self.targets(c, 0, verb)?;
            return Ok(names.into_iter().map(|n| (res, n)).collect());
        }
        let Some(first) = self.positional.first() else {
            return Err(self.target(0, verb).unwrap_err().into());
        };
        if first.contains('/') {
            let mut out = vec![];
            for (i, arg) in self.positional.iter().enumerate() {
                if !arg.contains('/') {
                    return Err(MIXED.into());
                }
                let (res, name, _) = self.target(i, verb)?;
                out.push((res, name));
            }
            return Ok(out);
        }
        let types = first
            .split(',')
            .map(Resource::named)
            .collect::<Result<Vec<_>, _>>()?;
        let names = &self.positional[1..];
        if names.is_empty() {
            self.target(0, verb)?;
        }
        if names.iter().any(|n| n.contains('/')) {
            return Err(MIXED.into());
        }
        Ok(types
            .iter()
            .flat_map(|r| names.iter().map(move |n| (*r, n.clone())))
            .collect())
    }

    /// `TYPE/NAME` or `TYPE NAME` from the positionals starting at `i`.
    pub(super) fn target(&self, i: usize, verb: &str) -> Result<(Resource, String, usize), String> {
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

/// The resource builder's refusal of a bare type beside `TYPE/NAME` arguments
/// (cli-runtime v0.36.2 `pkg/resource/builder.go`, `hasCombinedTypeArgs`; its parenthesis is
/// never closed).
const MIXED: &str = "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'";

/// pflag's `strconv.ParseBool`.
pub(super) fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

pub(super) fn parse_selector(s: &str) -> Result<LabelSelector, String> {
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
