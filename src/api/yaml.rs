//! Reading manifests (YAML or JSON, one or many documents) into typed objects, and writing them
//! back out. Errors name the document and the field path, as `kubectl apply` would.

use super::{Deployment, Kind, Object, Pod, ReplicaSet};
use serde_json::Value;
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

/// Parses every document of a YAML (or JSON, which is YAML) text into generic values.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, ManifestError> {
    let docs = crate::yaml::parse_documents(text).map_err(|e| ManifestError {
        line: Some(e.line),
        message: format!("error parsing YAML: {}", e.message),
    })?;
    Ok(docs.into_iter().filter(|v| !v.is_null()).collect())
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
    let want = match kind {
        "Deployment" | "ReplicaSet" => "apps/v1",
        "Pod" => "v1",
        _ => {
            return Err(err(format!(
                "no matches for kind \"{kind}\" in version \"{api}\": the playground models apps/v1 Deployment and ReplicaSet, and v1 Pod"
            )));
        }
    };
    if api != want {
        return Err(err(format!(
            "no matches for kind \"{kind}\" in version \"{api}\" (use apiVersion: {want})"
        )));
    }
    fn typed<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, ManifestError> {
        from_value_at(v).map_err(|message| ManifestError {
            line: None,
            message,
        })
    }
    Ok(match kind {
        "Deployment" => Object::Deployment(typed::<Deployment>(v)?),
        "ReplicaSet" => Object::ReplicaSet(typed::<ReplicaSet>(v)?),
        _ => Object::Pod(typed::<Pod>(v)?),
    })
}

/// Parses a text holding one or more manifests.
pub fn parse_objects(text: &str) -> Result<Vec<Object>, ManifestError> {
    let docs = parse_documents(text)?;
    if docs.is_empty() {
        return Err(ManifestError {
            line: None,
            message: "no objects passed to apply".into(),
        });
    }
    docs.into_iter()
        .map(|d| {
            object_from_value(d.clone()).map_err(|mut e| {
                if e.line.is_none() {
                    e.line = locate_path(text, &e.message);
                }
                e
            })
        })
        .collect()
}

/// Best effort: the line of the last key of a `a.b.c: message` path in the text.
fn locate_path(text: &str, message: &str) -> Option<usize> {
    let path = message.split(": ").next()?;
    let last = path.rsplit('.').next()?.split('[').next()?;
    if last.is_empty() {
        return None;
    }
    let needle = format!("{last}:");
    text.lines()
        .position(|l| l.trim_start().trim_start_matches("- ").starts_with(&needle))
        .map(|i| i + 1)
}

/// The object as YAML, fields in the order Kubernetes prints them.
pub fn to_yaml(obj: &Object) -> String {
    crate::yaml::to_string(&obj.to_value())
}

/// The kind of a parsed object, for messages.
pub fn kind_name(k: Kind) -> &'static str {
    k.as_str()
}

/// The 1-based line where a field path such as `spec.template.spec.containers[0].image` is
/// written in block-style YAML (the innermost part of the path that can be found), so that an
/// apiserver error can be shown at its line in an editor.
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

/// Deserializes a typed value from JSON, naming the path of the field at fault on error
/// (`spec.template.spec.containers[0].image: invalid type: …`).
///
/// Natively this uses serde_path_to_error. In the browser build that crate's wrappers double
/// the code of every Deserialize impl (about a quarter of the page's weight), so there the
/// path is found after the fact: the first field whose removal makes the error go away is on
/// the path, and the search descends into it. Every modelled field is optional, so removing a
/// field never causes an error of its own.
pub fn from_value_at<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        serde_path_to_error::deserialize(v).map_err(|e| format!("{}: {}", e.path(), e.inner()))
    }
    #[cfg(target_arch = "wasm32")]
    {
        match serde_json::from_value::<T>(v.clone()) {
            Ok(t) => Ok(t),
            Err(e) => {
                let msg = e.to_string();
                Err(format!("{}: {msg}", locate_error::<T>(&v, &msg)))
            }
        }
    }
}

/// The path (in serde_path_to_error's spelling) of the field that makes `T` fail on `root`.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn locate_error<T: serde::de::DeserializeOwned>(root: &Value, msg: &str) -> String {
    #[derive(Clone)]
    enum Seg {
        Key(String),
        Index(usize),
    }
    fn node<'a>(v: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
        path.iter().try_fold(v, |v, s| match (v, s) {
            (Value::Object(m), Seg::Key(k)) => m.get_mut(k),
            (Value::Array(a), Seg::Index(i)) => a.get_mut(*i),
            _ => None,
        })
    }
    let fixes = |trial: Value| match serde_json::from_value::<T>(trial) {
        Ok(_) => true,
        Err(e) => {
            let m = e.to_string();
            m != msg && !m.starts_with("missing field")
        }
    };
    let mut path: Vec<Seg> = vec![];
    'descend: loop {
        let mut probe = root.clone();
        let children: Vec<Seg> = match node(&mut probe, &path) {
            Some(Value::Object(m)) => m.keys().cloned().map(Seg::Key).collect(),
            Some(Value::Array(a)) => (0..a.len()).map(Seg::Index).collect(),
            _ => break,
        };
        for c in children {
            let mut trial = root.clone();
            match (node(&mut trial, &path), &c) {
                (Some(Value::Object(m)), Seg::Key(k)) => {
                    m.shift_remove(k);
                }
                (Some(Value::Array(a)), Seg::Index(i)) => {
                    a.remove(*i);
                }
                _ => continue,
            }
            if fixes(trial) {
                path.push(c);
                continue 'descend;
            }
        }
        break;
    }
    let mut out = String::new();
    for s in &path {
        match s {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    if out.is_empty() { ".".into() } else { out }
}

#[cfg(test)]
mod locate_tests {
    use super::*;
    use crate::api::Deployment;

    #[test]
    fn finds_the_field_at_fault_like_serde_path_to_error() {
        for (doc, want) in [
            ("{spec: {replicas: abc}}", "spec.replicas"),
            (
                "{spec: {template: {spec: {containers: [{name: a, image: x}, {name: b, image: [1]}]}}}}",
                "spec.template.spec.containers[1].image",
            ),
            ("{metadata: {labels: {app: [x]}}}", "metadata.labels.app"),
        ] {
            let v: Value = crate::yaml::parse(doc).unwrap();
            let msg = serde_json::from_value::<Deployment>(v.clone())
                .unwrap_err()
                .to_string();
            assert_eq!(locate_error::<Deployment>(&v, &msg), want, "{doc}");
            let native = from_value_at::<Deployment>(v).unwrap_err();
            assert!(native.starts_with(want), "{native}");
        }
    }
}
