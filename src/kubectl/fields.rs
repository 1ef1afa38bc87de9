//! `--field-selector` as the apiserver reads it (apimachinery `fields.ParseSelector` and each
//! kind's field label conversion): `KEY=VALUE`, `KEY==VALUE`, `KEY!=VALUE`, comma-separated,
//! on the fields the kind supports; any other field is refused as the apiserver refuses it.

use super::KubectlError;
use super::resource::Resource;
use crate::api::*;

/// Parsed requirements: field, whether it must equal (`true`) or differ, value.
pub(super) struct FieldSelector {
    raw: String,
    reqs: Vec<(String, bool, String)>,
}

impl FieldSelector {
    pub(super) fn parse(raw: &str) -> Result<FieldSelector, KubectlError> {
        let mut reqs = vec![];
        for part in raw.split(',').filter(|p| !p.is_empty()) {
            let (k, eq, v) = if let Some((k, v)) = part.split_once("!=") {
                (k, false, v)
            } else if let Some((k, v)) = part.split_once("==") {
                (k, true, v)
            } else if let Some((k, v)) = part.split_once('=') {
                (k, true, v)
            } else {
                return Err(KubectlError::Client(format!(
                    "Error from server (BadRequest): invalid selector: '{raw}'; can't understand '{part}'"
                )));
            };
            reqs.push((k.trim().to_string(), eq, v.trim().to_string()));
        }
        Ok(FieldSelector {
            raw: raw.to_string(),
            reqs,
        })
    }

    /// Refuses a field the kind does not support, in the apiserver's words (`resource` as in
    /// `apps/v1, Resource=deployments`; the label selector as sent).
    pub(super) fn supported_by(
        &self,
        resource: &str,
        supported: &[&str],
        labels: &str,
    ) -> Result<(), KubectlError> {
        match self
            .reqs
            .iter()
            .find(|(k, ..)| !supported.contains(&k.as_str()))
        {
            None => Ok(()),
            Some((k, ..)) => Err(KubectlError::Client(format!(
                "Error from server (BadRequest): Unable to find \"{resource}\" that match label selector \"{labels}\", field selector \"{}\": field label not supported: {k}",
                self.raw
            ))),
        }
    }

    /// Whether every requirement holds, `field` giving an object's value of a field.
    pub(super) fn matches(&self, field: impl Fn(&str) -> String) -> bool {
        self.reqs.iter().all(|(k, eq, v)| (field(k) == *v) == *eq)
    }

    /// The selector on objects of `res` (checked, then applied to each).
    pub(super) fn for_objects(
        &self,
        res: Resource,
        labels: &str,
    ) -> Result<impl Fn(&Object) -> bool + '_, KubectlError> {
        self.supported_by(&res.api_resource(), res.row().selectable, labels)?;
        Ok(move |o: &Object| self.matches(|f| object_field(o, f)))
    }
}

fn object_field(o: &Object, field: &str) -> String {
    let m = o.meta();
    match (field, o) {
        ("metadata.name", _) => m.name.to_string(),
        ("metadata.namespace", _) => m.namespace.to_string(),
        ("status.replicas", Object::ReplicaSet(rs)) => rs.status.replicas.to_string(),
        ("status.phase", Object::Pod(p)) => p.status.phase.to_string(),
        ("spec.nodeName", Object::Pod(p)) => p.spec.node_name.to_string(),
        ("spec.unschedulable", Object::Node(n)) => n.spec.unschedulable.to_string(),
        (f, Object::Pod(p)) => {
            // The rest are kept as the manifest gave them (defaults as the apiserver sets).
            let v = serde_json::to_value(p).unwrap_or_default();
            let mut at = &v;
            for part in f.split('.') {
                at = &at[part];
            }
            match (f, at) {
                (_, Value::String(s)) => s.clone(),
                ("spec.restartPolicy", _) => "Always".into(),
                ("spec.schedulerName", _) => "default-scheduler".into(),
                _ => String::new(),
            }
        }
        _ => String::new(),
    }
}
