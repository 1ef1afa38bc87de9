//! kubectl's own tests (kubernetes/kubectl v0.36.3: `pkg/cmd/rollout`, `pkg/cmd/label`,
//! `pkg/cmd/annotate`, `pkg/cmd/set`, `pkg/cmd/delete`, `pkg/polymorphichelpers`), as the
//! vectors in tests/kubectl/: for each upstream case, the objects upstream's fake server
//! holds, the command, and what upstream asserts (stdout, the error, the objects after). One
//! test per case, named `<id>::<case name>`; the cases the playground cannot express are
//! listed in each file with the reason, and counted here so none is dropped silently.
//!
//! The objects are stored as given (no controller runs between them and the command, as none
//! runs in upstream's tests); kubectl's namespace is the case's, set as a person sets it
//! (`kubectl config set-context --current --namespace=…`). Upstream's fake server neither
//! defaults nor validates, so the fixtures leave out what an apiserver requires; the runner
//! fills in only that, never a field a case asserts: a workload without a selector gets one
//! matching its template's labels (`app: NAME`), a template without containers one container,
//! an ownerReference its owner's uid (or, named by uid alone, the owning kind), a condition without a status the empty one (Go's zero
//! value). For a delete, a pod without a node is given one, as upstream's fake pods stand for
//! running ones (it then terminates gracefully, and the grace period it was given can be read
//! back).

use libtest_mimic::{Arguments, Trial};
use rollout_playground::api::Object;
use rollout_playground::api::yaml::{object_from_value, parse_document};
use rollout_playground::cluster::{Cluster, kubelet::World};
use rollout_playground::kubectl;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct File {
    id: String,
    cases: Vec<Case>,
    not_expressible: Vec<Value>,
}

#[derive(Clone, Deserialize)]
struct Case {
    name: String,
    namespace: String,
    #[serde(default)]
    now: Option<String>,
    objects: Vec<String>,
    command: String,
    output: Option<String>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    error_contains: Option<String>,
    #[serde(default)]
    stderr: Option<String>,
    #[serde(default)]
    after: Vec<After>,
    /// Substrings upstream asserts the output has (describe tests).
    #[serde(default)]
    contains: Vec<String>,
    #[serde(default)]
    not_contains: Vec<String>,
    /// A table row's cells upstream's printer tests assert (`kubectl get`).
    #[serde(default)]
    row: Option<Vec<String>>,
}

#[derive(Clone, Deserialize)]
struct After {
    #[serde(default)]
    object: Option<String>,
    #[serde(default)]
    request: Option<String>,
    path: String,
    equals: Value,
}

fn main() {
    let args = Arguments::from_args();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kubectl");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/kubectl exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut trials = vec![];
    let (mut cases, mut skipped) = (0, 0);
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        let file: File =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        skipped += file.not_expressible.len();
        for case in file.cases {
            cases += 1;
            let name = format!("{}::{}", file.id, case.name);
            trials.push(Trial::test(name, move || run(&case).map_err(Into::into)));
        }
    }
    eprintln!("kubectl vectors: {cases} cases, {skipped} not expressible (listed in the files)");
    assert!(cases >= 100, "expected the ported kubectl cases in {dir}");
    libtest_mimic::run(&args, trials).exit();
}

fn run(case: &Case) -> Result<(), String> {
    let mut c = Cluster::new(World::default());
    let docs = fixture_times(&mut c, case)?;
    setup(&mut c, case, docs)?;
    let got = kubectl::run(&mut c, &case.command);
    check_output(case, &got)?;
    check_text(case, &got)?;
    for a in &case.after {
        check_after(&c, a)?;
    }
    Ok(())
}

/// The case's documents, and the cluster's clock at the case's `now` (the simulation's start
/// when it has none).
fn fixture_times(c: &mut Cluster, case: &Case) -> Result<Vec<Value>, String> {
    use rollout_playground::api::Time;
    if let Some(n) = &case.now {
        c.store.clock().set(Time::parse(n)?);
    }
    case.objects
        .iter()
        .map(|t| parse_document(t).map_err(|e| e.to_string()))
        .collect()
}

/// The case's objects stored as given, owners resolved by name, and kubectl's namespace set.
fn setup(c: &mut Cluster, case: &Case, docs: Vec<Value>) -> Result<(), String> {
    c.apiserver().add_namespace(&case.namespace);
    let mut events = vec![];
    for mut v in docs {
        if v["kind"] == "Event" {
            events.push(v);
            continue;
        }
        complete(&mut v);
        {
            let mut obj = object_from_value(v).map_err(|e| e.to_string())?;
            let ns = obj.meta().namespace.to_string();
            if !ns.is_empty() {
                c.apiserver().add_namespace(&ns);
            }
            for r in obj.meta_mut().owner_references.iter_mut() {
                if r.uid.is_empty() {
                    let kind = match r.kind.as_str() {
                        "Deployment" => rollout_playground::api::Kind::Deployment,
                        "ReplicaSet" => rollout_playground::api::Kind::ReplicaSet,
                        _ => rollout_playground::api::Kind::Pod,
                    };
                    if let Some(owner) = c.store.get(kind, &format!("{ns}/{}", r.name)) {
                        r.uid = owner.meta().uid.clone();
                    }
                }
            }
            if let Object::Pod(p) = &mut obj
                && p.spec.node_name.is_empty()
                && case.command.starts_with("kubectl delete")
            {
                p.spec.node_name = "node-1".into();
            }
            c.apiserver().insert_raw(obj);
        }
    }
    for v in &events {
        record_event(c, v)?;
    }
    let set = format!(
        "kubectl config set-context --current --namespace={}",
        case.namespace
    );
    kubectl::run(c, &set).map_err(|e| format!("{set}: {e}"))?;
    Ok(())
}

/// An Event of the fixture, stored as the apiserver holds it (its object's uid, when the
/// fixture leaves it out, is the named object's).
fn record_event(c: &mut Cluster, v: &Value) -> Result<(), String> {
    use rollout_playground::apiserver::events::{EventType, Involved};
    let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
    let text = |v: &Value| v.as_str().unwrap_or("").to_string();
    let o = &v["involvedObject"];
    let kind = match o["kind"].as_str() {
        Some("Deployment") => rollout_playground::api::Kind::Deployment,
        Some("ReplicaSet") => rollout_playground::api::Kind::ReplicaSet,
        Some("Pod") => rollout_playground::api::Kind::Pod,
        other => return Err(format!("an event about a {other:?}")),
    };
    let (ns, name) = (text(&o["namespace"]), text(&o["name"]));
    let mut uid = text(&o["uid"]);
    if uid.is_empty()
        && let Some(obj) = c.store.get(kind, &format!("{ns}/{name}"))
    {
        uid = obj.meta().uid.to_string();
    }
    let ms = |t: &Value| -> Option<i64> {
        let t = rollout_playground::api::Time::parse(t.as_str()?).ok()?;
        Some(t.virtual_ms())
    };
    let first = ms(&v["firstTimestamp"])
        .or_else(|| ms(&v["eventTime"]))
        .unwrap_or(0);
    let last = ms(&v["lastTimestamp"])
        .or_else(|| ms(&v["series"]["lastObservedTime"]))
        .unwrap_or(first);
    let count = v["count"]
        .as_u64()
        .or_else(|| v["series"]["count"].as_u64())
        .unwrap_or(1) as u32;
    let source = match text(&v["source"]["component"]) {
        s if s.is_empty() => text(&v["reportingComponent"]),
        s => s,
    };
    let type_ = if v["type"] == "Warning" {
        EventType::Warning
    } else {
        EventType::Normal
    };
    let about = Involved {
        kind,
        namespace: &ns,
        name: &name,
        uid: &uid,
    };
    c.events_api().insert(
        leak(&source),
        about,
        type_,
        leak(&text(&v["reason"])),
        &text(&v["message"]),
        count,
        (first, last),
    );
    Ok(())
}

/// What an apiserver would have required of a fixture, filled in (see the module's note).
fn complete(v: &mut Value) {
    let name = v["metadata"]["name"].as_str().unwrap_or("x").to_string();
    // An owner named by uid alone is the kind that owns this one.
    let owner_kind = match v["kind"].as_str() {
        Some("Pod") => "ReplicaSet",
        _ => "Deployment",
    };
    for r in v["metadata"]["ownerReferences"]
        .as_array_mut()
        .into_iter()
        .flatten()
    {
        if let Some(r) = r.as_object_mut() {
            r.entry("uid").or_insert_with(|| Value::from(""));
            r.entry("apiVersion")
                .or_insert_with(|| Value::from("apps/v1"));
            r.entry("kind").or_insert_with(|| Value::from(owner_kind));
            r.entry("name").or_insert_with(|| Value::from(""));
        }
    }
    for cond in v["status"]["conditions"]
        .as_array_mut()
        .into_iter()
        .flatten()
    {
        cond.as_object_mut()
            .map(|c| c.entry("status").or_insert_with(|| Value::from("")));
    }
    if !matches!(v["kind"].as_str(), Some("Deployment" | "ReplicaSet")) {
        return;
    }
    let spec = &mut v["spec"];
    if spec.get("selector").is_none() {
        let labels = match &spec["template"]["metadata"]["labels"] {
            Value::Object(l) if !l.is_empty() => Value::Object(l.clone()),
            _ => serde_json::json!({ "app": name }),
        };
        spec["template"]["metadata"]["labels"] = labels.clone();
        spec["selector"] = serde_json::json!({ "matchLabels": labels });
    }
    if spec["template"]["spec"]["containers"]
        .as_array()
        .is_none_or(Vec::is_empty)
    {
        spec["template"]["spec"]["containers"] =
            serde_json::json!([{ "name": "app", "image": "app" }]);
    }
}

fn trimmed(s: &str) -> &str {
    s.trim_end_matches('\n')
}

/// What the command printed against what upstream asserts: stderr lines of a command that
/// succeeded come first in the console, as they come first on a terminal.
fn check_output(case: &Case, got: &Result<String, kubectl::KubectlError>) -> Result<(), String> {
    let expected_out: Vec<&str> = [case.stderr.as_deref(), case.output.as_deref()]
        .into_iter()
        .flatten()
        .map(trimmed)
        .filter(|s| !s.is_empty())
        .collect();
    match (got, &case.error, &case.error_contains) {
        (Err(e), Some(want), _) if trimmed(want) == e.to_string() => Ok(()),
        (Err(e), None, Some(want)) if e.to_string().contains(want.as_str()) => Ok(()),
        // Objects changed before an error: the console prints both, the error last.
        (Ok(out), Some(want), _) if case.output.is_some() => {
            let mut lines = expected_out.clone();
            lines.push(trimmed(want));
            compare(out, &lines.join("\n"))
        }
        (Ok(out), Some(want), _) if out.ends_with(trimmed(want)) => Ok(()),
        (Ok(out), None, None) if case.output.is_some() || case.stderr.is_some() => {
            compare(out, &expected_out.join("\n"))
        }
        (Ok(_), None, None) => Ok(()),
        (got, want, contains) => Err(format!(
            "command: {}\n got: {got:?}\nwant error: {want:?} (contains {contains:?}), output {:?}",
            case.command, case.output
        )),
    }
}

/// Substrings and table cells upstream asserts of what the command printed.
fn check_text(case: &Case, got: &Result<String, kubectl::KubectlError>) -> Result<(), String> {
    // kubectl's output ends with a line break, which the console leaves out.
    let text = match got {
        Ok(t) => format!("{t}\n"),
        Err(e) => format!("{e}\n"),
    };
    for want in &case.contains {
        if !text.contains(want.as_str()) {
            return Err(format!("output lacks {want:?}\n{text}"));
        }
    }
    for unwanted in &case.not_contains {
        if text.contains(unwanted.as_str()) {
            return Err(format!("output has {unwanted:?}\n{text}"));
        }
    }
    let Some(want) = &case.row else {
        return Ok(());
    };
    let cells =
        table_row(&text, &want[0]).ok_or_else(|| format!("no row {:?} in\n{text}", want[0]))?;
    if &cells != want {
        return Err(format!(
            "row differs\n got: {cells:?}\nwant: {want:?}\n{text}"
        ));
    }
    Ok(())
}

/// The cells of the row named `name` in a table kubectl printed: columns start where the
/// header's words do after the padding (three spaces or more).
fn table_row(text: &str, name: &str) -> Option<Vec<String>> {
    let mut lines = text.lines();
    let header = lines.next()?;
    let b = header.as_bytes();
    let mut starts = vec![0];
    for i in 3..b.len() {
        if b[i] != b' ' && b[i - 1] == b' ' && b[i - 2] == b' ' && b[i - 3] == b' ' {
            starts.push(i);
        }
    }
    let line = lines.find(|l| l.split("   ").next().map(str::trim) == Some(name))?;
    Some(
        starts
            .iter()
            .enumerate()
            .map(|(k, &at)| {
                let end = starts
                    .get(k + 1)
                    .copied()
                    .unwrap_or(line.len())
                    .min(line.len());
                line.get(at.min(line.len())..end)
                    .unwrap_or("")
                    .trim()
                    .to_string()
            })
            .collect(),
    )
}

fn compare(got: &str, want: &str) -> Result<(), String> {
    if got == want {
        return Ok(());
    }
    Err(format!("output differs\n got: {got:?}\nwant: {want:?}"))
}

fn check_after(c: &Cluster, a: &After) -> Result<(), String> {
    if let Some(req) = &a.request {
        return check_request(c, req, a);
    }
    let object = a
        .object
        .as_deref()
        .ok_or("an after entry names no object")?;
    let value = stored(c, object).map(|o| o.to_value());
    let got = value.as_ref().and_then(|v| at(v, &a.path));
    if got.cloned().unwrap_or(Value::Null) == a.equals {
        return Ok(());
    }
    Err(format!(
        "{object} {}: got {got:?}, want {}",
        a.path, a.equals
    ))
}

/// A fact about the request sent, read from what it did: a DELETE's grace period is the
/// terminating pod's (0: gone at once).
fn check_request(c: &Cluster, req: &str, a: &After) -> Result<(), String> {
    let object = req
        .strip_prefix("DELETE ")
        .ok_or_else(|| format!("cannot check request {req}"))?;
    if a.path != "gracePeriodSeconds" {
        return Err(format!("cannot check {} of {req}", a.path));
    }
    let got = match stored(c, object) {
        None => Value::from(0),
        Some(o) => o
            .meta()
            .deletion_grace_period_seconds
            .map(Value::from)
            .ok_or_else(|| format!("{object} was not deleted"))?,
    };
    if got == a.equals {
        return Ok(());
    }
    Err(format!(
        "{req} gracePeriodSeconds: got {got}, want {}",
        a.equals
    ))
}

/// `resource/namespace/name` in the store.
fn stored<'c>(c: &'c Cluster, path: &str) -> Option<&'c Object> {
    let (res, key) = path.split_once('/')?;
    let kind = kubectl::Resource::parse(res)?.kind();
    c.store.get(kind, key)
}

/// A dotted path (list indexes as numbers; after `labels.`/`annotations.` the rest is one key).
fn at<'v>(v: &'v Value, path: &str) -> Option<&'v Value> {
    let mut cur = v;
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(key) = ["labels.", "annotations."].iter().find_map(|p| {
            rest.strip_prefix(p)
                .filter(|_| cur.get(&p[..p.len() - 1]).is_some())
                .map(|k| (&p[..p.len() - 1], k))
        }) {
            return cur.get(key.0)?.get(key.1);
        }
        let (head, tail) = rest.split_once('.').unwrap_or((rest, ""));
        cur = match head.parse::<usize>() {
            Ok(i) => cur.get(i)?,
            Err(_) => cur.get(head)?,
        };
        rest = tail;
    }
    Some(cur)
}
