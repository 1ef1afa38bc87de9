//! The editor's quick controls: the handful of Deployment fields people change most, read from
//! and written into the manifest text, so that the controls and the YAML stay in step both ways.
//! Also the editor's check before an apply: every problem with the line it is on.

use crate::api::Object;
use crate::api::defaults::default_deployment;
use crate::api::validation::validate_deployment;
use crate::api::yaml::{line_of_field, parse_manifests, parse_objects};
use crate::api::{Map, Value};

/// A quick control's field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Replicas,
    Image,
    Strategy,
    MaxSurge,
    MaxUnavailable,
    MinReadySeconds,
    ProgressDeadlineSeconds,
    RevisionHistoryLimit,
    Paused,
}

impl Field {
    pub const ALL: [Field; 9] = [
        Field::Replicas,
        Field::Image,
        Field::Strategy,
        Field::MaxSurge,
        Field::MaxUnavailable,
        Field::MinReadySeconds,
        Field::ProgressDeadlineSeconds,
        Field::RevisionHistoryLimit,
        Field::Paused,
    ];

    /// The manifest path the control edits.
    pub fn path(self) -> &'static [&'static str] {
        match self {
            Field::Replicas => &["spec", "replicas"],
            Field::Image => &["spec", "template", "spec", "containers", "0", "image"],
            Field::Strategy => &["spec", "strategy", "type"],
            Field::MaxSurge => &["spec", "strategy", "rollingUpdate", "maxSurge"],
            Field::MaxUnavailable => &["spec", "strategy", "rollingUpdate", "maxUnavailable"],
            Field::MinReadySeconds => &["spec", "minReadySeconds"],
            Field::ProgressDeadlineSeconds => &["spec", "progressDeadlineSeconds"],
            Field::RevisionHistoryLimit => &["spec", "revisionHistoryLimit"],
            Field::Paused => &["spec", "paused"],
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Field::Replicas => "replicas",
            Field::Image => "image",
            Field::Strategy => "strategy",
            Field::MaxSurge => "maxSurge",
            Field::MaxUnavailable => "maxUnavailable",
            Field::MinReadySeconds => "minReadySeconds",
            Field::ProgressDeadlineSeconds => "progressDeadlineSeconds",
            Field::RevisionHistoryLimit => "revisionHistoryLimit",
            Field::Paused => "paused",
        }
    }

    /// What the apiserver would default the field to when it is left out.
    pub fn default_value(self) -> &'static str {
        match self {
            Field::Replicas => "1",
            Field::Image => "",
            Field::Strategy => crate::api::ROLLING_UPDATE,
            Field::MaxSurge | Field::MaxUnavailable => "25%",
            Field::MinReadySeconds => "0",
            Field::ProgressDeadlineSeconds => "600",
            Field::RevisionHistoryLimit => "10",
            Field::Paused => "false",
        }
    }
}

fn first_document(text: &str) -> Result<Value, String> {
    let doc = text.split("\n---").next().unwrap_or("");
    crate::api::yaml::parse_document(doc)
        .map_err(|e| format!("the manifest is not valid YAML: {e}"))
}

/// The Deployment the controls edit in a manifest: the document itself, or in a `List` (a
/// pasted cluster state) its first Deployment.
fn the_deployment(v: &mut Value) -> &mut Value {
    let is_list = v
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"));
    let at = v.get("items").and_then(Value::as_array).and_then(|items| {
        items
            .iter()
            .position(|i| i.get("kind").and_then(Value::as_str) == Some("Deployment"))
    });
    match (is_list, at) {
        (true, Some(i)) => &mut v["items"][i],
        _ => v,
    }
}

fn lookup<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| match v {
        Value::Array(a) => a.get(k.parse::<usize>().ok()?),
        Value::Object(m) => m.get(*k),
        _ => None,
    })
}

/// The quick controls' values as the manifest states them (`None` when it leaves the field to
/// its default).
pub fn read(text: &str) -> Result<Vec<(Field, Option<String>)>, String> {
    let mut doc = first_document(text)?;
    Ok(values_of(&mut doc))
}

/// The quick controls' values in a text's first document, already read.
fn values_of(doc: &mut Value) -> Vec<(Field, Option<String>)> {
    let v = the_deployment(doc);
    Field::ALL
        .iter()
        .map(|f| {
            let val = lookup(v, f.path()).and_then(|x| match x {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                Value::Bool(b) => Some(b.to_string()),
                _ => None,
            });
            (*f, val)
        })
        .collect()
}

/// The manifest with one quick-control field set (an empty value removes the field, leaving it
/// to its default). The text is re-emitted as YAML, so comments in it are not kept.
pub fn write(text: &str, field: Field, value: &str) -> Result<String, String> {
    let mut v = first_document(text)?;
    let value = value.trim();
    let typed = match field {
        _ if value.is_empty() => None,
        Field::Image | Field::Strategy => Some(Value::String(value.into())),
        Field::MaxSurge | Field::MaxUnavailable => Some(match value.parse::<i64>() {
            Ok(n) => Value::from(n),
            Err(_) => Value::String(value.into()),
        }),
        Field::Paused => Some(Value::Bool(match value {
            "true" => true,
            "false" => false,
            other => return Err(format!("{}: {other:?} is not true or false", field.label())),
        })),
        _ => Some(Value::from(value.parse::<i64>().map_err(|_| {
            format!("{}: {value:?} is not a whole number", field.label())
        })?)),
    };
    let path = field.path();
    let d = the_deployment(&mut v);
    let mut cur = &mut *d;
    for k in &path[..path.len() - 1] {
        cur = match cur {
            Value::Array(a) => {
                let i: usize = k
                    .parse()
                    .map_err(|_| format!("{}: not a list", field.label()))?;
                a.get_mut(i)
                    .ok_or_else(|| format!("{}: the manifest has no container", field.label()))?
            }
            Value::Object(m) => m.entry(*k).or_insert_with(|| Value::Object(Map::new())),
            _ => return Err(format!("{}: {} is not a mapping", field.label(), k)),
        };
    }
    let last = path[path.len() - 1];
    let Value::Object(m) = cur else {
        return Err(format!("{}: its parent is not a mapping", field.label()));
    };
    match typed {
        Some(t) => {
            m.insert(last.to_string(), t);
        }
        None => {
            m.shift_remove(last);
        }
    }
    // Recreate takes no rollingUpdate block: the apiserver rejects one.
    if field == Field::Strategy
        && value == crate::api::RECREATE
        && let Some(Value::Object(s)) = the_deployment(&mut v)
            .get_mut("spec")
            .and_then(|s| s.get_mut("strategy"))
    {
        s.shift_remove("rollingUpdate");
    }
    Ok(crate::api::yaml::to_editor_yaml(&v))
}

/// The Deployment as a manifest to edit: what `kubectl get -o yaml` shows without the status
/// and the fields the server sets (uid, resourceVersion, generation, creationTimestamp, the
/// revision annotation, kubectl's last-applied copy), so that applying it changes nothing;
/// unless `full`, also without the fields the apiserver's defaulting would put back as they are
/// ([`without_defaults`]).
pub fn manifest_of(d: &crate::api::Deployment, full: bool) -> String {
    let mut v = editable(d);
    if !full {
        without_defaults(&mut v);
    }
    crate::api::yaml::to_editor_yaml(&v)
}

/// The Deployment's JSON without its status and the fields the server sets.
fn editable(d: &crate::api::Deployment) -> Value {
    let mut v = Object::Deployment(Box::new(d.clone())).to_value();
    if let Value::Object(m) = &mut v {
        m.shift_remove("status");
        if let Some(Value::Object(meta)) = m.get_mut("metadata") {
            for k in [
                "uid",
                "resourceVersion",
                "generation",
                "creationTimestamp",
                "managedFields",
            ] {
                meta.shift_remove(k);
            }
            if let Some(Value::Object(a)) = meta.get_mut("annotations") {
                a.shift_remove(crate::api::REVISION_ANNOTATION);
                a.shift_remove(crate::api::LAST_APPLIED_ANNOTATION);
            }
            if meta
                .get("annotations")
                .is_some_and(|a| a.as_object().is_some_and(|a| a.is_empty()))
            {
                meta.shift_remove("annotations");
            }
        }
    }
    v
}

/// A Deployment manifest as the apiserver would store it: decoded, defaulted, written back.
fn defaulted(v: &Value) -> Option<Value> {
    let Ok(Object::Deployment(mut d)) = crate::api::yaml::object_from_value(v.clone()) else {
        return None;
    };
    default_deployment(&mut d);
    Some(editable(&d))
}

/// Removes every field that defaulting puts back as it is, deepest first, so that what is left
/// is what someone chose (a field set to its default value goes too: the two cannot be told
/// apart). List items stay; the fields inside them are tried like any other.
pub fn without_defaults(v: &mut Value) {
    let Some(target) = defaulted(v) else {
        return;
    };
    let mut paths = vec![];
    collect_paths(v, &mut vec![], &mut paths);
    // Children come before their parents, so a block emptied of defaults is tried whole.
    for path in paths.iter().rev() {
        let Some((last, parent)) = path.split_last() else {
            continue;
        };
        let Some(Value::Object(m)) = pointer_mut(v, parent) else {
            continue;
        };
        let Some(i) = m.keys().position(|k| k == last) else {
            continue;
        };
        let Some((k, old)) = m.shift_remove_entry(last.as_str()) else {
            continue;
        };
        if defaulted(v).as_ref() != Some(&target) {
            let Some(Value::Object(m)) = pointer_mut(v, parent) else {
                continue;
            };
            m.shift_insert(i, k, old);
        }
    }
}

/// One step of a path into a manifest: a mapping's key, or a list's index.
type PathStep = String;

fn collect_paths(v: &Value, at: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                at.push(k.clone());
                out.push(at.clone());
                collect_paths(child, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                at.push(i.to_string());
                collect_paths(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn pointer_mut<'a>(v: &'a mut Value, path: &[PathStep]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |cur, step| match cur {
        Value::Object(m) => m.get_mut(step.as_str()),
        Value::Array(a) => a.get_mut(step.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Every leaf of a manifest with its path (`spec.template.spec.containers[0].image`).
fn leaves(v: &Value, at: &str, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, child) in m {
                let p = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                leaves(child, &p, out);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (i, child) in items.iter().enumerate() {
                leaves(child, &format!("{at}[{i}]"), out);
            }
        }
        _ => out.push((at.to_string(), v.clone())),
    }
}

/// What applying `text` would undo: each field that changed since the editor showed `base`
/// (a scenario step or a command wrote it) while the text still has `base`'s value, as
/// `path: now → base` (`spec.template.spec.containers[0].image: nginx:1.16.1 → nginx:1.14.2`).
/// Fields the reader changed in the text are theirs to apply and are not listed.
pub fn reverts(
    text: &str,
    base: &crate::api::Deployment,
    current: &crate::api::Deployment,
) -> Vec<String> {
    let Ok(objects) = parse_objects(text) else {
        return vec![];
    };
    let Some(Object::Deployment(mut mine)) = objects.into_iter().next() else {
        return vec![];
    };
    default_deployment(&mut mine);
    if mine.metadata.key() != base.metadata.key() {
        return vec![];
    }
    let flat = |d: &crate::api::Deployment| {
        let mut out = vec![];
        leaves(&editable(d), "", &mut out);
        out
    };
    let (mine, base, current) = (flat(&mine), flat(base), flat(current));
    let find = |list: &[(String, Value)], p: &str| {
        list.iter()
            .find(|(q, _)| q == p)
            .map(|(_, v)| v.clone())
            .unwrap_or(Value::Null)
    };
    let show = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Null => "(none)".to_string(),
        other => other.to_string(),
    };
    let mut out = vec![];
    for (p, _) in base.iter().chain(current.iter()) {
        let (was, now, kept) = (find(&base, p), find(&current, p), find(&mine, p));
        if was != now && kept == was {
            let line = format!("{p}: {} → {}", show(&now), show(&was));
            if !out.contains(&line) {
                out.push(line);
            }
        }
    }
    out
}

/// A problem with the manifest, at its line when known.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub line: Option<usize>,
    pub field: Option<String>,
    pub message: String,
}

/// Checks the manifest as `kubectl apply` would have the apiserver check it: it parses, it is
/// a Deployment, and it passes defaulting and validation. Every problem comes with its line.
pub fn check(text: &str) -> Vec<Problem> {
    check_as(text, false)
}

/// [`check`] for "Start from my manifest", which starts a cluster from the text: any kind the
/// playground models, or a cluster's state as `kubectl get … -o yaml` prints it (whose
/// objects, with uids, carry the fields their apiserver has; kinds it does not model are set
/// aside and named when the run starts).
pub fn check_start(text: &str) -> Vec<Problem> {
    check_as(text, true)
}

/// What the editor says of its text as it is typed: [`check`]'s problems, or, for a cluster's
/// state (which Apply does not take: it is a List of many kinds), [`check_start`]'s and a note
/// saying what "Start from my manifest" will do with it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checked {
    pub problems: Vec<Problem>,
    pub state: Option<String>,
    /// The quick controls' values, from the first document (none when the text is refused
    /// unread, as past the budget, or its first document is not YAML).
    pub values: Option<Vec<(Field, Option<String>)>>,
}

impl Checked {
    /// As JSON, to cross from the page's check worker (`web::bindings::check_text`). Written
    /// and read by hand over `serde_json::Value`, whose reader and writer the page already
    /// has: serde's derives for these types, with serde-wasm-bindgen, cost the page 4.3 KB
    /// gzipped.
    pub fn to_json(&self) -> Value {
        let problems: Vec<Value> = self
            .problems
            .iter()
            .map(|p| serde_json::json!([p.line, p.field, p.message]))
            .collect();
        let values = self.values.as_ref().map(|vs| {
            vs.iter()
                .map(|(f, v)| serde_json::json!([f.label(), v]))
                .collect::<Vec<_>>()
        });
        serde_json::json!([problems, self.state, values])
    }

    /// [`Checked::to_json`] read back; `None` for anything else.
    pub fn from_json(v: &Value) -> Option<Checked> {
        let str_of = |v: &Value| v.as_str().map(String::from);
        let problems = v.get(0)?.as_array()?.iter().map(|p| {
            Some(Problem {
                line: p.get(0)?.as_u64().map(|l| l as usize),
                field: str_of(p.get(1)?),
                message: str_of(p.get(2)?)?,
            })
        });
        let values = match v.get(2)? {
            Value::Null => None,
            vs => Some(
                vs.as_array()?
                    .iter()
                    .map(|fv| {
                        let label = fv.get(0)?.as_str()?;
                        let f = Field::ALL.into_iter().find(|f| f.label() == label)?;
                        Some((f, str_of(fv.get(1)?)))
                    })
                    .collect::<Option<Vec<_>>>()?,
            ),
        };
        Some(Checked {
            problems: problems.collect::<Option<Vec<_>>>()?,
            state: str_of(v.get(1)?),
            values,
        })
    }
}

pub fn check_typed(text: &str) -> Checked {
    if let Err(message) = too_many(text) {
        return Checked {
            problems: vec![message],
            state: None,
            values: None,
        };
    }
    // One parse per keystroke: a text that is no cluster state is checked from it as
    // [`check`] checks it, and the quick controls read the first document it read.
    let mut parsed = crate::api::yaml::parse_state(text);
    let values = match parsed.as_mut().map(|p| p.first.take()) {
        Ok(first) => first.map(|mut doc| values_of(&mut doc)),
        // A broken later document leaves the first one readable.
        Err(_) => read(text).ok(),
    };
    match parsed {
        Ok(p) if p.from_cluster => Checked {
            state: Some(state_note(&p)),
            problems: problems_of(text, p.manifests, true),
            values,
        },
        parsed => Checked {
            problems: problems_or(text, parsed.and_then(|p| p.into_manifests()), false),
            state: None,
            values,
        },
    }
}

/// A cluster state's note: what it holds, and what starting from it does.
fn state_note(p: &crate::api::yaml::Parsed) -> String {
    let n = p.manifests.len();
    let aside = if p.skipped.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = p
            .skipped
            .iter()
            .take(3)
            .map(|s| format!("{}/{}", s.kind, s.name))
            .collect();
        let more = p.skipped.len().saturating_sub(3);
        format!(
            "; {} of kinds the playground does not model ({}{}) will be set aside",
            p.skipped.len(),
            names.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        )
    };
    format!(
        "A cluster's state: {n} object{} as its apiserver holds them{aside}. \"Start from my manifest\" continues it, as a controller manager restarting against that cluster would (from its latest timestamp, with its nodes); Apply takes one Deployment.",
        if n == 1 { "" } else { "s" }
    )
}

/// A text of more objects than the page runs, refused before it is read (a pasted state of
/// 200 001 pods would otherwise be read whole, for seconds and gigabytes, at every check;
/// starting from it is refused as a scenario's objects are, by [`super::Scenario::start`]).
fn too_many(text: &str) -> Result<(), Problem> {
    crate::cluster::budget::Budget::PAGE
        .check_text(text)
        .map_err(|message| Problem {
            line: None,
            field: None,
            message,
        })
}

fn check_as(text: &str, start: bool) -> Vec<Problem> {
    let parsed = if start {
        crate::api::yaml::parse_state(text).map(|p| p.manifests)
    } else {
        parse_manifests(text)
    };
    problems_or(text, parsed, start)
}

/// The problems of a text's objects, or the one problem that it could not be read.
fn problems_or(
    text: &str,
    parsed: Result<Vec<crate::api::yaml::Manifest>, crate::api::yaml::ManifestError>,
    start: bool,
) -> Vec<Problem> {
    match parsed {
        Ok(manifests) => problems_of(text, manifests, start),
        Err(e) => vec![Problem {
            line: e.line,
            field: None,
            message: e.message,
        }],
    }
}

/// The problems of a text's objects: strict field validation, and a Deployment's defaulting
/// and validation; another kind is one only in the editor (`start`: any kind goes).
fn problems_of(
    text: &str,
    manifests: Vec<crate::api::yaml::Manifest>,
    start: bool,
) -> Vec<Problem> {
    let mut out = vec![];
    for mut m in manifests {
        if !m.object.meta().uid.is_empty() {
            m.unknown.clear();
        }
        // Strict field validation: a field the API does not have is refused before defaults.
        for f in &m.unknown {
            out.push(Problem {
                line: line_of_field(text, f),
                message: format!(
                    "{f}: {}",
                    crate::api::schema::strict_detail(std::slice::from_ref(f))
                ),
                field: Some(f.clone()),
            });
        }
        if !m.unknown.is_empty() {
            continue;
        }
        match m.object {
            Object::Deployment(mut d) => {
                default_deployment(&mut d);
                if let Err(inv) = validate_deployment(&d) {
                    for fe in inv.errors {
                        out.push(Problem {
                            line: line_of_field(text, &fe.field),
                            message: fe.to_string(),
                            field: Some(fe.field),
                        });
                    }
                }
            }
            _ if start => {}
            other => out.push(Problem {
                line: Some(1),
                field: Some("kind".into()),
                message: format!(
                    "kind: the editor holds a Deployment; {} objects are created with kubectl in the console",
                    other.kind().as_str()
                ),
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::api::yaml::tests_fixture::DOC;

    fn value(text: &str, f: Field) -> Option<String> {
        read(text)
            .unwrap()
            .into_iter()
            .find(|(x, _)| *x == f)
            .unwrap()
            .1
    }

    #[test]
    fn the_controls_edit_the_deployment_of_a_pasted_list() {
        let list = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web}\n  spec: {replicas: 10}\n";
        assert_eq!(value(list, Field::Replicas).as_deref(), Some("10"));
        let written = write(list, Field::Replicas, "12").unwrap();
        assert_eq!(value(&written, Field::Replicas).as_deref(), Some("12"));
        let v = crate::api::yaml::parse_document(&written).unwrap();
        assert!(v.get("spec").is_none(), "{written}");
        assert_eq!(v["items"][0]["kind"], "Pod");
    }

    #[test]
    fn reads_what_the_manifest_says() {
        assert_eq!(value(DOC, Field::Replicas).as_deref(), Some("3"));
        assert_eq!(value(DOC, Field::Image).as_deref(), Some("nginx:1.14.2"));
        assert_eq!(value(DOC, Field::MaxSurge).as_deref(), Some("0"));
        assert_eq!(value(DOC, Field::MinReadySeconds), None);
    }

    #[test]
    fn writes_round_trip_through_read() {
        let t = write(DOC, Field::MaxSurge, "2").unwrap();
        assert_eq!(value(&t, Field::MaxSurge).as_deref(), Some("2"));
        let t = write(&t, Field::MaxUnavailable, "50%").unwrap();
        assert_eq!(value(&t, Field::MaxUnavailable).as_deref(), Some("50%"));
        let t = write(&t, Field::Image, "nginx:1.16.1").unwrap();
        assert_eq!(value(&t, Field::Image).as_deref(), Some("nginx:1.16.1"));
        let t = write(&t, Field::Paused, "true").unwrap();
        assert_eq!(value(&t, Field::Paused).as_deref(), Some("true"));
        let t = write(&t, Field::Replicas, "").unwrap();
        assert_eq!(value(&t, Field::Replicas), None);
        assert!(check(&t).is_empty(), "{:?}", check(&t));
    }

    #[test]
    fn recreate_drops_the_rolling_update_block() {
        let t = write(DOC, Field::MaxSurge, "1").unwrap();
        let t = write(&t, Field::Strategy, "Recreate").unwrap();
        assert_eq!(value(&t, Field::MaxSurge), None);
        assert!(check(&t).is_empty(), "{:?}", check(&t));
    }

    #[test]
    fn the_current_spec_round_trips_and_applying_it_changes_nothing() {
        use crate::kubectl;
        use crate::scenario::Scenario;
        let text = crate::scenario::gallery::GALLERY[0].1;
        let mut c = Scenario::parse(text).unwrap().start().unwrap();
        c.drain().unwrap();
        kubectl::run(
            &mut c,
            "kubectl set image deployment/web nginx=nginx:1.16.1",
        )
        .unwrap();
        c.drain().unwrap();
        let d = c.store.deployment("default/web").unwrap().clone();
        let m = manifest_of(&d, true);
        assert!(check(&m).is_empty(), "{:?}", check(&m));
        assert!(
            m.contains("nginx:1.16.1") && !m.contains("status:") && !m.contains("uid:"),
            "{m}"
        );
        kubectl::run(&mut c, &format!("kubectl apply -f -\n{m}")).unwrap();
        let after = c.store.deployment("default/web").unwrap().clone();
        assert_eq!(after.spec, d.spec, "applying the current spec keeps it");
        // The first apply keeps its last-applied annotation on the object (a Deployment's
        // generation counts annotation changes too); the same apply again changes nothing.
        assert!(
            after
                .metadata
                .annotations
                .contains_key(crate::api::LAST_APPLIED_ANNOTATION)
        );
        kubectl::run(&mut c, &format!("kubectl apply -f -\n{m}")).unwrap();
        let again = c.store.deployment("default/web").unwrap();
        assert_eq!(again.metadata.generation, after.metadata.generation);
        assert_eq!(
            again.metadata.resource_version,
            after.metadata.resource_version
        );
    }

    #[test]
    fn the_editor_shows_what_was_chosen_and_asks_before_reverting() {
        use crate::kubectl;
        use crate::scenario::Scenario;
        let text = crate::scenario::gallery::GALLERY[0].1;
        let mut c = Scenario::parse(text).unwrap().start().unwrap();
        c.drain().unwrap();
        let base = c.store.deployment("default/web").unwrap().clone();
        let short = manifest_of(&base, false);
        for gone in [
            "revisionHistoryLimit",
            "progressDeadlineSeconds",
            "terminationMessagePath",
            "dnsPolicy",
            "namespace",
            "maxSurge",
        ] {
            assert!(!short.contains(gone), "{gone} is a default: {short}");
        }
        assert!(manifest_of(&base, true).contains("revisionHistoryLimit"));
        // What is left reads back as the same Deployment.
        let mut again = match crate::api::yaml::parse_objects(&short).unwrap().remove(0) {
            Object::Deployment(d) => d,
            _ => unreachable!(),
        };
        default_deployment(&mut again);
        assert_eq!(again.spec, base.spec);

        kubectl::run(
            &mut c,
            "kubectl set image deployment/web nginx=nginx:1.16.1",
        )
        .unwrap();
        let now = c.store.deployment("default/web").unwrap().clone();
        let edited = write(&short, Field::Replicas, "12").unwrap();
        assert_eq!(
            reverts(&edited, &base, &now),
            ["spec.template.spec.containers[0].image: nginx:1.16.1 → nginx:1.14.2"]
        );
        let mine = write(&edited, Field::Image, "nginx:1.17").unwrap();
        assert!(
            reverts(&mine, &base, &now).is_empty(),
            "the image is the reader's"
        );
    }

    #[test]
    fn bad_values_name_the_field() {
        assert!(
            write(DOC, Field::Replicas, "three")
                .unwrap_err()
                .contains("replicas")
        );
        assert!(
            write(DOC, Field::Paused, "yes")
                .unwrap_err()
                .contains("paused")
        );
    }

    #[test]
    fn check_puts_each_problem_on_its_line() {
        let bad = DOC.replace(
            "        app: web\n    spec:",
            "        app: other\n    spec:",
        );
        let p = check(&bad);
        assert!(!p.is_empty());
        assert!(
            p.iter().any(
                |p| p.field.as_deref() == Some("spec.template.metadata.labels")
                    && p.line == Some(12)
            ),
            "{p:?}"
        );
        let p = check("kind: [");
        assert!(p[0].line.is_some(), "{p:?}");
        let p = check(&DOC.replacen("  replicas:", "  replica:", 1));
        assert_eq!(
            p.iter()
                .map(|p| (p.field.as_deref(), p.line, p.message.as_str()))
                .collect::<Vec<_>>(),
            [(
                Some("spec.replica"),
                DOC.lines()
                    .position(|l| l.starts_with("  replicas:"))
                    .map(|i| i + 1),
                "spec.replica: strict decoding error: unknown field \"spec.replica\""
            )]
        );
        let zero = write(
            &write(DOC, Field::MaxSurge, "0").unwrap(),
            Field::MaxUnavailable,
            "0",
        )
        .unwrap();
        let p = check(&zero);
        assert!(
            p.iter().any(|p| p.message.contains("may not be 0")),
            "{p:?}"
        );
    }

    /// Issue 45: a pasted cluster state is not reported as errors before it is started: the
    /// editor says what "Start from my manifest" will do with it, and only the problems that
    /// would stop that; a Deployment is checked as before.
    #[test]
    fn a_pasted_cluster_state_gets_a_note_not_a_kind_error_per_object() {
        let text = crate::scenario::gallery::GALLERY
            .iter()
            .find(|(n, _)| *n == "pasted-mid-rollout")
            .unwrap()
            .1;
        let scenario = crate::scenario::Scenario::parse(text).unwrap();
        let state = &scenario.objects[0];
        assert!(!check(state).is_empty(), "Apply does not take a List");
        let c = check_typed(state);
        assert_eq!(c.problems, vec![], "nothing stops starting from it");
        let note = c.state.unwrap();
        assert!(
            note.starts_with("A cluster's state: 18 objects as its apiserver holds them")
                && note.contains("\"Start from my manifest\" continues it"),
            "{note}"
        );
        let broken = state.replacen("replicas: 10", "replicas: -1", 1);
        let c = check_typed(&broken);
        assert!(c.state.is_some() && !c.problems.is_empty(), "{c:?}");
        let c = check_typed(DOC);
        assert_eq!((c.problems, c.state), (vec![], None));
    }

    /// The check crosses from the worker and back unchanged: a state's note, a problem with
    /// and without its line and field, the controls' values.
    #[test]
    fn a_check_crosses_from_the_worker_as_it_was() {
        for text in [
            crate::scenario::gallery::GALLERY[0].1,
            "kind: Deployment\nmetadata: {name: x}\nspec: {replicas: -1}\n",
            "not: [yaml",
        ] {
            let c = check_typed(text);
            assert_eq!(Checked::from_json(&c.to_json()), Some(c.clone()), "{text}");
        }
        let refused = Checked {
            problems: vec![Problem {
                line: None,
                field: None,
                message: "more than 20000 pods".into(),
            }],
            state: Some("A cluster's state".into()),
            values: None,
        };
        assert_eq!(Checked::from_json(&refused.to_json()), Some(refused));
        assert_eq!(Checked::from_json(&serde_json::json!([1])), None);
    }
}
