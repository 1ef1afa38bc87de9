//! `kubectl label` and `kubectl annotate` (k8s.io/kubectl v0.36.3 `pkg/cmd/label`,
//! `pkg/cmd/annotate`): the pairs after the resources, checked in kubectl's order, then every
//! object the builder finds changed and named with what happened to it.

use super::args::{Args, DryRun};
use super::builder::{self, Info, Setup};
use super::command::Command;
use super::{KubectlError, Outcome, dry_run, write};
use crate::api::*;
use crate::cluster::Cluster;

/// `label` or `annotate`, by the verb's name.
pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    let a = Args::of(cmd)?;
    let label = cmd.verb.name == "label";
    let (dry, mut report) = dry_run(c, &a)?;
    let pair = if label { "label" } else { "annotation" };
    let (resources, pairs) = resources_and_pairs(&a.positional, pair)?;
    let (set, remove) = if label {
        parse_labels(&pairs)?
    } else {
        parse_annotations(&pairs)?
    };
    let list = a.bool_flag("list")?;
    let all = a.bool_flag("all")?;
    if list && a.flag("output").is_some() {
        return Err(go("--list and --output may not be specified together"));
    }
    if all && a.selector().is_some() {
        return Err(go("cannot set --all and --selector at the same time"));
    }
    if all && a.flag("field-selector").flatten().is_some() {
        return Err(go("cannot set --all and --field-selector at the same time"));
    }
    if resources.is_empty() {
        return Err(go(
            "one or more resources must be specified as <resource> <name> or <resource>/<name>",
        ));
    }
    if set.is_empty() && remove.is_empty() && !list {
        return Err(go(format!("at least one {pair} update is required")));
    }
    if !label {
        let both: Vec<&str> = remove
            .iter()
            .filter(|k| set.iter().any(|(s, _)| s == *k))
            .map(String::as_str)
            .collect();
        if !both.is_empty() {
            return Err(go(format!(
                "can not both modify and remove the following annotation(s) in the same command: {}",
                both.join(", ")
            )));
        }
    }
    let change = Change {
        label,
        set,
        remove,
        overwrite: a.bool_flag("overwrite")?,
        dry: if list { DryRun::Client } else { dry },
    };
    let setup = Setup {
        allow_empty_selector: all,
        select_all: false,
    };
    let visit = builder::visit(c, &a, &resources, setup)?;
    for item in visit.items {
        let r = item.and_then(|info| {
            if list {
                return Ok(listing(&info, label, visit.single));
            }
            change.apply(c, info, &mut report)
        });
        report.item(r);
    }
    report.finish()
}

/// The pairs of one command: keys to set (in the order given; a key given twice keeps its last
/// value, as kubectl's map does) and keys to remove.
struct Change {
    label: bool,
    set: Vec<(String, String)>,
    remove: Vec<String>,
    overwrite: bool,
    dry: DryRun,
}

impl Change {
    /// One object changed: its line, or why it was refused (nothing written).
    fn apply(&self, c: &mut Cluster, info: Info, report: &mut builder::Report) -> Outcome {
        let mut obj = info.object.clone();
        let map = self.map_of(obj.meta_mut());
        // kubectl says which keys to remove are not there, before it changes anything, and
        // only when it is going to send the change.
        let mut said = vec![];
        if self.label && self.dry == DryRun::None {
            for k in &self.remove {
                if !map.contains_key(k) {
                    said.push(format!("label {k:?} not found."));
                }
            }
        }
        if !self.overwrite {
            self.no_overwrites(map)?;
        }
        let (mut added, mut removed) = (false, false);
        for (k, v) in &self.set {
            added |= map.insert(k.clone(), v.clone()).as_deref() != Some(v);
        }
        for k in &self.remove {
            removed |= map.remove(k).is_some();
        }
        let done = match (self.label, added, removed) {
            (false, ..) => "annotated",
            (true, true, true) => "modified",
            (true, true, false) => "labeled",
            (true, false, true) => "unlabeled",
            (true, false, false) => "not labeled",
        };
        // `label` sends nothing when nothing changed; `annotate` always sends its patch.
        if !self.label || added || removed {
            write(c, obj, self.dry)?;
            report.wrote |= self.dry == DryRun::None;
        }
        said.push(format!(
            "{} {done}{}",
            info.object_name(),
            self.dry.suffix()
        ));
        Ok(said.join("\n"))
    }

    fn map_of<'m>(&self, m: &'m mut ObjectMeta) -> &'m mut Labels {
        if self.label {
            &mut m.labels
        } else {
            &mut m.annotations
        }
    }

    /// Without `--overwrite`, a key that already has another value is refused (every such key
    /// named); the same value is not a change. `annotate` lets the change-cause annotation be
    /// set whatever it holds.
    fn no_overwrites(&self, map: &Labels) -> Result<(), KubectlError> {
        let clashes: Vec<String> = self
            .set
            .iter()
            .filter(|(k, _)| self.label || k != CHANGE_CAUSE_ANNOTATION)
            .filter_map(|(k, v)| {
                let old = map.get(k).filter(|old| *old != v)?;
                Some(format!("'{k}' already has a value ({old})"))
            })
            .collect();
        match clashes.len() {
            0 => Ok(()),
            _ if !self.label => Err(go(format!(
                "--overwrite is false but found the following declared annotation(s): {}",
                clashes.join("; ")
            ))),
            1 => Err(go(format!("{}, and --overwrite is false", clashes[0]))),
            // apimachinery's aggregate of several errors.
            _ => Err(go(format!(
                "[{}]",
                clashes
                    .iter()
                    .map(|c| format!("{c}, and --overwrite is false"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

/// `--list`: the object's labels or annotations, one `KEY=VALUE` a line; among several
/// objects, each under a heading and indented.
fn listing(info: &Info, label: bool, single: bool) -> String {
    let m = info.object.meta();
    let map = if label { &m.labels } else { &m.annotations };
    let indent = if single { "" } else { " " };
    let mut out: Vec<String> = vec![];
    if !single {
        // kubectl prints `Kind.group` even for the core group (`Pod.`).
        let kind = info.object.kind();
        let group = super::resource::row_of(kind).group;
        out.push(format!(
            "Listing {} for {}.{group}/{}:",
            if label { "labels" } else { "annotations" },
            kind.as_str(),
            info.name
        ));
    }
    out.extend(map.iter().map(|(k, v)| format!("{indent}{k}={v}")));
    out.join("\n")
}

/// kubectl's `GetResourcesAndPairs`: the resources come first, then the pairs (`KEY=VALUE`
/// or `KEY-`); a resource after a pair is refused.
pub(super) fn resources_and_pairs(
    args: &[String],
    pair: &str,
) -> Result<(Vec<String>, Vec<String>), KubectlError> {
    let (mut resources, mut pairs) = (vec![], vec![]);
    for s in args {
        let is_pair = (s.contains('=') && !s.starts_with('=')) || (s.ends_with('-') && s != "-");
        match (pairs.is_empty(), is_pair) {
            (_, true) => pairs.push(s.clone()),
            (true, false) => resources.push(s.clone()),
            (false, false) => {
                return Err(go(format!(
                    "all resources must be specified before {pair} changes: {s}"
                )));
            }
        }
    }
    Ok((resources, pairs))
}

pub(super) type Pairs = (Vec<(String, String)>, Vec<String>);

/// `label`'s `parseLabels`: `KEY=VALUE` (one `=`, a valid label value) or `KEY-`; a key both
/// set and removed is refused.
fn parse_labels(spec: &[String]) -> Result<Pairs, KubectlError> {
    let (mut set, mut remove) = (Vec::<(String, String)>::new(), vec![]);
    for s in spec {
        if s.contains('=') {
            let parts: Vec<&str> = s.split('=').collect();
            if parts.len() != 2 {
                return Err(go(format!("invalid label spec: {s}")));
            }
            let errs = crate::api::validation::label_value_errors(parts[1]);
            if !errs.is_empty() {
                return Err(go(format!(
                    "invalid label value: {s:?}: {}",
                    errs.join(";")
                )));
            }
            put(&mut set, parts[0], parts[1]);
        } else if let Some(k) = s.strip_suffix('-') {
            remove.push(k.to_string());
        } else {
            return Err(go(format!("unknown label spec: {s}")));
        }
    }
    if remove.iter().any(|k| set.iter().any(|(s, _)| s == k)) {
        return Err(go(
            "can not both modify and remove a label in the same command",
        ));
    }
    Ok((set, remove))
}

/// `annotate`'s pairs (kubectl's `ParsePairs`): `KEY=VALUE` (the value may hold `=`) or
/// `KEY-`; every malformed one is named.
fn parse_annotations(spec: &[String]) -> Result<Pairs, KubectlError> {
    let (mut set, mut remove, mut invalid) = (Vec::<(String, String)>::new(), vec![], vec![]);
    for s in spec {
        match s.split_once('=') {
            Some((k, v)) if !s.starts_with('=') => put(&mut set, k, v),
            _ => match s.strip_suffix('-').filter(|_| s != "-") {
                Some(k) => remove.push(k.to_string()),
                None => invalid.push(s.as_str()),
            },
        }
    }
    if !invalid.is_empty() {
        return Err(go(format!(
            "invalid annotation format: {}",
            invalid.join(", ")
        )));
    }
    Ok((set, remove))
}

pub(super) fn put(set: &mut Vec<(String, String)>, k: &str, v: &str) {
    match set.iter_mut().find(|(s, _)| s == k) {
        Some(slot) => slot.1 = v.to_string(),
        None => set.push((k.to_string(), v.to_string())),
    }
}

fn go(message: impl Into<String>) -> KubectlError {
    KubectlError::Go(message.into())
}
