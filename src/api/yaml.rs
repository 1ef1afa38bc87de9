//! Reading manifests (YAML or JSON, one or many documents) into typed objects, and writing them
//! back out. Errors name the document and the field path, as `kubectl apply` would.

use super::{Kind, Object, Value};
use serde::Deserialize;
use std::fmt;

/// Why a manifest could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct ManifestError {
    /// 1-based line in the text where the problem is, when known.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ManifestError {}

/// Reads one YAML (or JSON) document; the error is libyaml's, with its line and column (or
/// the alias count's, placed as libyaml places its own, for a document whose aliases would
/// expand past [`super::aliases::ALIAS_VALUES`]).
pub fn parse_document(text: &str) -> Result<Value, serde_norway::Error> {
    #[cfg(test)]
    super::parses::yaml();
    super::census::check_aliases(text)
        .map_err(<serde_norway::Error as serde::de::Error>::custom)?;
    serde_norway::from_str(text)
}

/// libyaml's message, and where: `line 3: error parsing YAML: did not find expected key at
/// line 3 column 1, while parsing a block mapping at line 1 column 1`.
fn yaml_error(e: &serde_norway::Error) -> ManifestError {
    ManifestError {
        line: e.location().map(|l| l.line()),
        message: format!("error parsing YAML: {e}"),
    }
}

/// Reads one manifest value as a typed object, by its `apiVersion` and `kind`.
pub fn object_from_value(v: Value) -> Result<Object, ManifestError> {
    let err = |m: String| ManifestError {
        line: None,
        message: m,
    };
    let Some(map) = v.as_object() else {
        return Err(err(
            "a manifest must be a mapping with apiVersion, kind and metadata".into(),
        ));
    };
    let kind = map.get("kind").and_then(Value::as_str).unwrap_or("");
    let api = map.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    if kind.is_empty() {
        return Err(err("Object 'Kind' is missing".into()));
    }
    if api.is_empty() {
        return Err(err(format!("{kind}: apiVersion is missing")));
    }
    let (kind_of, want) = match kind {
        "Deployment" => (Kind::Deployment, "apps/v1"),
        "ReplicaSet" => (Kind::ReplicaSet, "apps/v1"),
        "Pod" => (Kind::Pod, "v1"),
        "Node" => (Kind::Node, "v1"),
        "PodDisruptionBudget" => (Kind::PodDisruptionBudget, "policy/v1"),
        "Service" => (Kind::Service, "v1"),
        "EndpointSlice" => (Kind::EndpointSlice, "discovery.k8s.io/v1"),
        _ => {
            return Err(err(format!(
                "no matches for kind \"{kind}\" in version \"{api}\": {MODELED}"
            )));
        }
    };
    if api != want {
        return Err(err(format!(
            "no matches for kind \"{kind}\" in version \"{api}\" (use apiVersion: {want})"
        )));
    }
    super::codec::object_of(kind_of, v).map_err(|e| ManifestError {
        line: None,
        message: e.to_string(),
    })
}

/// Parses a text holding one or more manifests. A field that does not fit is reported at its
/// line. Fields the Kubernetes API does not have are kept (see [`parse_manifests`]).
pub fn parse_objects(text: &str) -> Result<Vec<Object>, ManifestError> {
    Ok(parse_manifests(text)?
        .into_iter()
        .map(|m| m.object)
        .collect())
}

/// One document of a manifest as the apiserver receives it.
#[derive(Clone, Debug)]
pub struct Manifest {
    pub object: Object,
    /// The document as written.
    pub value: Value,
    /// Its fields that the kind's schema lacks, which strict field validation refuses
    /// (`spec.replica`).
    pub unknown: Vec<String>,
}

/// An object of a pasted cluster state that the run does not continue, and why (a kind the
/// playground does not model: a ConfigMap, a Secret, an Ingress).
#[derive(Clone, Debug, PartialEq)]
pub struct Skipped {
    pub kind: String,
    pub name: String,
    pub reason: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}: {}", self.kind, self.name, self.reason)
    }
}

/// What a text holds: its objects, and the objects of a cluster state that the playground
/// does not model.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub manifests: Vec<Manifest>,
    pub skipped: Vec<Skipped>,
    /// The text is a cluster's state: a `List`, or objects its apiserver stored (with uids).
    pub from_cluster: bool,
    /// The first document as it was read (a `List` whole), for a reader of a text's first
    /// object by its fields (the editor's quick controls), which then need not parse it again.
    pub first: Option<Value>,
}

/// [`parse_objects`], each object with what strict field validation needs. A kind the
/// playground does not model is refused.
pub fn parse_manifests(text: &str) -> Result<Vec<Manifest>, ManifestError> {
    parse_state(text)?.into_manifests()
}

impl Parsed {
    /// The objects, as `kubectl apply` takes them: a kind the playground does not model is
    /// refused ([`parse_manifests`]).
    pub fn into_manifests(self) -> Result<Vec<Manifest>, ManifestError> {
        if let Some(s) = self.skipped.first() {
            return Err(ManifestError {
                line: None,
                message: s.to_string(),
            });
        }
        Ok(self.manifests)
    }
}

/// Reads a text holding manifests, or a cluster's state as `kubectl get … -o yaml` prints it:
/// a `v1` `List` (its `items`), or several documents. An object that comes from a cluster
/// (in a `List`, or with a `metadata.uid`) of a kind the playground does not model is set
/// aside and named (`skipped`); written by hand, it is refused as the apiserver would. A
/// broken object is refused naming it (`items[3] (Pod/web-x): spec…`) and its line.
pub fn parse_state(text: &str) -> Result<Parsed, ManifestError> {
    #[cfg(test)]
    super::parses::yaml();
    super::census::check_aliases(text).map_err(|e| ManifestError {
        line: Some(e.line),
        message: document_words(text, e.document, &e.to_string()),
    })?;
    let mut out = Parsed::default();
    for (i, doc) in serde_norway::Deserializer::from_str(text).enumerate() {
        // In a text of several documents, every refusal says which one.
        let in_doc = |mut e: ManifestError| {
            e.message = document_words(text, i, &e.message);
            e
        };
        let v = Value::deserialize(doc).map_err(|e| in_doc(yaml_error(&e)))?;
        if v.is_null() {
            continue;
        }
        let Some(items) = list_items(&v) else {
            out.from_cluster |= v.pointer("/metadata/uid").is_some_and(|u| u != "");
            if i == 0 {
                out.first = Some(v.clone());
            }
            let m = read_one(v, false, &mut out.skipped).map_err(|mut e| {
                if e.line.is_none() {
                    e.line = error_line(text, i, &e.message);
                }
                in_doc(e)
            })?;
            out.manifests.extend(m);
            continue;
        };
        out.from_cluster = true;
        for (j, item) in items.iter().enumerate() {
            let label = object_label(item);
            let m = read_one(item.clone(), true, &mut out.skipped).map_err(|e| {
                let at = format!("items[{j}].{}", e.message);
                in_doc(ManifestError {
                    line: e.line.or_else(|| error_line(text, i, &at)),
                    message: format!("items[{j}]{label}: {}", e.message),
                })
            })?;
            out.manifests.extend(m);
        }
        if i == 0 {
            out.first = Some(v);
        }
    }
    if out.manifests.is_empty() && out.skipped.is_empty() {
        return Err(ManifestError {
            line: None,
            message: "no objects passed to apply".into(),
        });
    }
    Ok(out)
}

/// `message` about document `index` (from 0) of `text`, which names the document when the
/// text has more than one (`document 2: …`): a refusal of a multi-document state must say
/// which document it is about, as its line alone may not (kubectl's errors name the document
/// by its object, which a document that does not parse lacks).
fn document_words(text: &str, index: usize, message: &str) -> String {
    if index == 0 && !several_documents(text) {
        return message.to_string();
    }
    format!("document {}: {message}", index + 1)
}

/// Whether `text` separates documents (a `---` line after some content).
fn several_documents(text: &str) -> bool {
    let mut content = false;
    for l in text.lines() {
        let t = l.trim_end();
        if t == "---" || t.starts_with("--- ") {
            if content {
                return true;
            }
            continue;
        }
        content |= !t.trim_start().is_empty() && !t.trim_start().starts_with('#');
    }
    false
}

/// The items of a `List` (`kind: List`, or a kind's own list such as `PodList`).
fn list_items(v: &Value) -> Option<&Vec<Value>> {
    let kind = v.get("kind")?.as_str()?;
    if !kind.ends_with("List") {
        return None;
    }
    v.get("items")?.as_array()
}

/// ` (Kind/name)` of a manifest value, for messages; empty when it has neither.
fn object_label(v: &Value) -> String {
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
    let name = v
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if kind.is_empty() && name.is_empty() {
        String::new()
    } else {
        format!(" ({kind}/{name})")
    }
}

/// One document as a manifest; one from a cluster (`in_list`, or with a uid) of a kind the
/// playground does not model goes to `skipped` instead.
fn read_one(
    v: Value,
    in_list: bool,
    skipped: &mut Vec<Skipped>,
) -> Result<Option<Manifest>, ManifestError> {
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
    let from_cluster = in_list || v.pointer("/metadata/uid").is_some_and(|u| u != "");
    let modeled = matches!(
        kind,
        "Deployment"
            | "ReplicaSet"
            | "Pod"
            | "Node"
            | "PodDisruptionBudget"
            | "Service"
            | "EndpointSlice"
    );
    if from_cluster && !kind.is_empty() && !modeled {
        let name = v.pointer("/metadata/name").and_then(Value::as_str);
        skipped.push(Skipped {
            kind: kind.to_string(),
            name: name.unwrap_or("").to_string(),
            reason: MODELED.into(),
        });
        return Ok(None);
    }
    let object = object_from_value(v.clone())?;
    Ok(Some(Manifest {
        unknown: super::schema::unknown_fields(object.kind(), &v),
        object,
        value: v,
    }))
}

/// The kinds the playground models, for refusals.
const MODELED: &str = "the playground models apps/v1 Deployment and ReplicaSet, v1 Pod, Node and Service, policy/v1 PodDisruptionBudget and discovery.k8s.io/v1 EndpointSlice";

/// The line of the field a decoding error names (`spec.replicas: invalid type: …`) in document
/// `index` of `text`: that document is found among the text's `---`-separated parts as the one
/// that reads as the same value, and the field within it by [`line_of_field`].
fn error_line(text: &str, index: usize, message: &str) -> Option<usize> {
    #[cfg(test)]
    super::parses::yaml();
    let doc = Value::deserialize(serde_norway::Deserializer::from_str(text).nth(index)?).ok()?;
    let path = message.split(": ").next()?;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut starts: Vec<usize> = (1..lines.len())
        .filter(|&i| lines[i].trim_end() == "---" || lines[i].starts_with("--- "))
        .collect();
    starts.insert(0, 0);
    starts.iter().enumerate().find_map(|(k, &first)| {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        let part = lines[first..end].concat();
        (parse_document(&part).ok()? == doc)
            .then(|| line_of_field(&part, path))
            .flatten()
            .map(|line| line + first)
    })
}

/// The object as `kubectl get -o yaml` prints it: keys sorted, strings quoted as go-yaml
/// quotes them.
pub fn to_yaml(obj: &Object) -> String {
    super::print::to_yaml(&kubectl_value(obj))
}

/// A value as a YAML document the way serde's YAML writes it (libyaml's quoting): scenario
/// files and the editor's manifest.
pub fn to_editor_yaml(v: &Value) -> String {
    serde_norway::to_string(v).expect("a JSON value is a YAML document")
}

/// The object as kubectl prints it (YAML or JSON): its fields with every map's keys sorted.
pub fn kubectl_value(obj: &Object) -> Value {
    let mut v = obj.to_value();
    v.sort_all_objects();
    v
}

/// What `kubectl get KIND -o yaml|json` prints when no name is given: a `List`, even of one
/// object or none.
pub fn kubectl_list(objs: &[Object]) -> Value {
    let items: Vec<Value> = objs.iter().map(kubectl_value).collect();
    serde_json::json!({
        "apiVersion": "v1",
        "items": items,
        "kind": "List",
        "metadata": {"resourceVersion": ""},
    })
}

/// The kind of a parsed object, for messages.
pub fn kind_name(k: Kind) -> &'static str {
    k.as_str()
}

/// The 1-based line where a field path such as `spec.template.spec.containers[0].image` is
/// written in block-style YAML (the innermost part of the path that can be found), so that an
/// apiserver error can be shown at its line in an editor. (One pass down the text, a path
/// segment at a time.)
/// (Long: one arm per libyaml event the walk along the path meets.)
pub fn line_of_field(text: &str, path: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    // (raw indent, column where the key starts after any "- " item markers, the key text)
    fn shape(l: &str) -> (usize, usize, &str) {
        let raw = l.len() - l.trim_start().len();
        let mut body = l.trim_start();
        let mut col = raw;
        while let Some(rest) = body.strip_prefix("- ") {
            let pad = rest.len() - rest.trim_start().len();
            col += 2 + pad;
            body = rest.trim_start();
        }
        (raw, col, body)
    }
    let skip = |l: &str| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || t == "---"
    };
    let mut start = 0usize;
    let mut parent: isize = -1;
    let mut found = None;
    for seg in path.split('.').flat_map(|s| {
        let mut parts = vec![];
        let (key, idx) = s.split_once('[').unwrap_or((s, ""));
        if !key.is_empty() {
            parts.push((Some(key), None));
        }
        for i in idx.split('[') {
            if let Ok(n) = i.trim_end_matches(']').parse::<usize>() {
                parts.push((None, Some(n)));
            }
        }
        parts
    }) {
        match seg {
            (Some(key), _) => {
                let needle = format!("{key}:");
                let mut hit = None;
                for (i, l) in lines.iter().enumerate().skip(start) {
                    if skip(l) {
                        continue;
                    }
                    let (raw, col, body) = shape(l);
                    if i > start && raw as isize <= parent {
                        break;
                    }
                    if col as isize > parent && body.starts_with(&needle) {
                        hit = Some((i, col));
                        break;
                    }
                }
                let Some((i, col)) = hit else {
                    return found;
                };
                found = Some(i + 1);
                start = i + 1;
                parent = col as isize;
            }
            (None, Some(n)) => {
                let mut dash_col = None;
                let mut count = 0;
                let mut hit = None;
                for (i, l) in lines.iter().enumerate().skip(start) {
                    if skip(l) {
                        continue;
                    }
                    let (raw, _, _) = shape(l);
                    let is_item = l.trim_start().starts_with("- ") || l.trim() == "-";
                    if (raw as isize) < parent || (!is_item && raw as isize <= parent) {
                        break;
                    }
                    if is_item && dash_col.is_none_or(|d| d == raw) {
                        dash_col = Some(raw);
                        if count == n {
                            hit = Some((i, raw));
                            break;
                        }
                        count += 1;
                    }
                }
                let Some((i, raw)) = hit else {
                    return found;
                };
                found = Some(i + 1);
                start = i;
                parent = raw as isize;
            }
            _ => {}
        }
    }
    found
}

/// A Deployment manifest shared by the tests that find fields and edit manifests.
#[cfg(test)]
pub(crate) mod tests_fixture {
    pub const DOC: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app
        image: nginx:1.14.2
      - name: side
        image: busybox
  strategy:
    rollingUpdate:
      maxSurge: 0
";
}

#[cfg(test)]
mod line_tests {
    use super::line_of_field;

    use super::tests_fixture::DOC;

    #[test]
    fn finds_nested_keys_and_list_items() {
        assert_eq!(line_of_field(DOC, "spec.replicas"), Some(6));
        assert_eq!(line_of_field(DOC, "spec.selector.matchLabels"), Some(8));
        assert_eq!(
            line_of_field(DOC, "spec.template.metadata.labels"),
            Some(12)
        );
        assert_eq!(
            line_of_field(DOC, "spec.template.spec.containers[0].name"),
            Some(16)
        );
        assert_eq!(
            line_of_field(DOC, "spec.template.spec.containers[1].image"),
            Some(19)
        );
        assert_eq!(
            line_of_field(DOC, "spec.strategy.rollingUpdate.maxSurge"),
            Some(22)
        );
        assert_eq!(line_of_field(DOC, "metadata.name"), Some(4));
    }

    #[test]
    fn falls_back_to_the_deepest_part_found() {
        assert_eq!(line_of_field(DOC, "spec.minReadySeconds"), Some(5));
        assert_eq!(
            line_of_field(DOC, "spec.template.spec.containers[5]"),
            Some(15)
        );
        assert_eq!(
            line_of_field(DOC, "spec.strategy.rollingUpdate.maxUnavailable"),
            Some(21)
        );
        assert_eq!(line_of_field(DOC, "status"), None);
    }
}

#[cfg(test)]
mod path_tests {
    use super::*;

    #[test]
    fn type_errors_name_the_field_at_fault() {
        for (doc, want) in [
            (
                "{kind: Deployment, apiVersion: apps/v1, spec: {replicas: abc}}",
                "spec.replicas: invalid type: string \"abc\", expected i32",
            ),
            (
                "{kind: Deployment, apiVersion: apps/v1, spec: {template: {spec: {containers: [{name: a, image: x}, {name: b, image: [1]}]}}}}",
                "spec.template.spec.containers[1].image: invalid type: sequence, expected a string",
            ),
            (
                "{kind: Deployment, apiVersion: apps/v1, metadata: {labels: {app: [x]}}}",
                "metadata.labels.app: invalid type: sequence, expected a string",
            ),
            (
                "{kind: Deployment, apiVersion: apps/v1, spec: {strategy: {rollingUpdate: {maxSurge: 1.5}}}}",
                "spec.strategy.rollingUpdate.maxSurge: invalid type: floating point `1.5`, expected i32, or a string such as \"25%\"",
            ),
            (
                "{kind: Pod, apiVersion: v1, metadata: {ownerReferences: [{kind: ReplicaSet}]}}",
                "metadata.ownerReferences[0]: missing field `apiVersion`",
            ),
        ] {
            let v = parse_document(doc).unwrap();
            let e = object_from_value(v).unwrap_err();
            assert_eq!(e.message, want, "{doc}");
        }
    }

    #[test]
    fn a_field_that_does_not_fit_is_reported_at_its_own_line() {
        for (path, line) in [
            ("spec.template.spec.containers[1].image", 19),
            ("spec.replicas", 6),
        ] {
            let (key, bad) = match path {
                "spec.replicas" => ("  replicas: 3", "  replicas: three"),
                _ => ("        image: busybox", "        image: [1]"),
            };
            let doc = format!("---\n# a comment\n{}", tests_fixture::DOC.replace(key, bad));
            let e = parse_objects(&doc).unwrap_err();
            assert!(e.message.starts_with(path), "{e}");
            assert_eq!(e.line, Some(line + 2), "{e}");
        }
        // In the second of two documents that both have the field.
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    image: x\n  - name: b\n    image: y\n";
        let bad = tests_fixture::DOC.replace("        image: busybox", "        image: [1]");
        let e = parse_objects(&format!("{pod}---\n{bad}")).unwrap_err();
        assert_eq!(e.line, Some(10 + 19), "{e}");
    }

    #[test]
    fn null_fields_read_as_absent_and_unknown_fields_are_kept() {
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: null\nspec:\n  replicas: null\n  futureField: {a: 1}\n";
        let Object::Deployment(d) = parse_objects(text).unwrap().remove(0) else {
            panic!("not a Deployment")
        };
        assert_eq!(d.spec.replicas, None);
        assert!(d.metadata.labels.is_empty());
        assert!(to_yaml(&Object::Deployment(d)).contains("  futureField:\n    a: 1"));
    }
}
