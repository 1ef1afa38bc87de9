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
    let mut out = Vec::new();
    for doc in serde_norway::Deserializer::from_str(text) {
        let v: Value = serde::Deserialize::deserialize(doc).map_err(|e| ManifestError {
            line: e.location().map(|l| l.line()),
            message: format!("error parsing YAML: {}", strip_location(&e.to_string())),
        })?;
        if !v.is_null() {
            out.push(v);
        }
    }
    Ok(out)
}

fn strip_location(msg: &str) -> String {
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
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
        serde_path_to_error::deserialize(v).map_err(|e| {
            let path = e.path().to_string();
            ManifestError {
                line: None,
                message: format!("{path}: {}", e.inner()),
            }
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
    serde_norway::to_string(&obj.to_value()).unwrap_or_default()
}

/// The kind of a parsed object, for messages.
pub fn kind_name(k: Kind) -> &'static str {
    k.as_str()
}
