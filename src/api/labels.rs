//! Label selectors (metav1.LabelSelector): matchLabels and matchExpressions with the four
//! operators, and the `map[k:v]` / `k=v,k2 in (a,b)` renderings kubectl and the apiserver print.

use super::codec::{nd, omit};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub type Labels = BTreeMap<String, String>;

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    #[serde(default, deserialize_with = "nd", skip_serializing_if = "omit")]
    pub match_labels: Labels,
    #[serde(default, deserialize_with = "nd", skip_serializing_if = "omit")]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub struct LabelSelectorRequirement {
    pub key: String,
    pub operator: String,
    #[serde(default, deserialize_with = "nd", skip_serializing_if = "omit")]
    pub values: Vec<String>,
}

impl LabelSelector {
    pub fn from_labels(labels: &Labels) -> LabelSelector {
        LabelSelector {
            match_labels: labels.clone(),
            match_expressions: vec![],
        }
    }

    /// A selector with no requirement at all selects everything.
    pub fn is_empty(&self) -> bool {
        self.match_labels.is_empty() && self.match_expressions.is_empty()
    }

    /// Whether `labels` satisfy every requirement. An empty selector matches everything, as
    /// `metav1.LabelSelectorAsSelector` makes it; callers that must refuse that check `is_empty`.
    pub fn matches(&self, labels: &Labels) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v))
            && self.match_expressions.iter().all(|r| {
                let have = labels.get(&r.key);
                match r.operator.as_str() {
                    "In" => have.is_some_and(|v| r.values.contains(v)),
                    "NotIn" => have.is_none_or(|v| !r.values.contains(v)),
                    "Exists" => have.is_some(),
                    "DoesNotExist" => have.is_none(),
                    _ => false,
                }
            })
    }

    /// The selector with one more `key=value` requirement (upstream `CloneSelectorAndAddLabel`).
    pub fn with_label(&self, key: &str, value: &str) -> LabelSelector {
        let mut s = self.clone();
        s.match_labels.insert(key.to_string(), value.to_string());
        s
    }

    /// The string form kubectl prints (`app=web,tier in (a,b)`).
    pub fn to_selector_string(&self) -> String {
        let mut parts: Vec<String> = self
            .match_labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        for r in &self.match_expressions {
            parts.push(match r.operator.as_str() {
                "In" => format!("{} in ({})", r.key, r.values.join(",")),
                "NotIn" => format!("{} notin ({})", r.key, r.values.join(",")),
                "Exists" => r.key.clone(),
                "DoesNotExist" => format!("!{}", r.key),
                op => format!("{} {op}", r.key),
            });
        }
        parts.join(",")
    }
}

/// Go's `%v` of a `map[string]string`: `map[a:1 b:2]` with sorted keys.
pub fn go_map_string(labels: &Labels) -> String {
    let inner: Vec<String> = labels.iter().map(|(k, v)| format!("{k}:{v}")).collect();
    format!("map[{}]", inner.join(" "))
}

/// Go's `%#v` of a `map[string]string`, as a field error prints a bad map value:
/// `map[string]string{"a":"1", "b":"2"}` with sorted keys, `map[string]string(nil)` when empty.
pub fn go_map_literal(labels: &Labels) -> String {
    go_literal(
        "map[string]string",
        labels.iter().map(|(k, v)| format!("{k:?}:{v:?}")),
    )
}

/// Go's `%#v` of a `metav1.LabelSelector`, as a field error prints a bad selector.
pub fn go_selector_literal(s: &LabelSelector) -> String {
    let reqs = s.match_expressions.iter().map(|r| {
        format!(
            "v1.LabelSelectorRequirement{{Key:{:?}, Operator:{:?}, Values:{}}}",
            r.key,
            r.operator,
            go_literal("[]string", r.values.iter().map(|v| format!("{v:?}")))
        )
    });
    format!(
        "v1.LabelSelector{{MatchLabels:{}, MatchExpressions:{}}}",
        go_map_literal(&s.match_labels),
        go_literal("[]v1.LabelSelectorRequirement", reqs)
    )
}

/// Go's `%#v` of a map or slice of type `ty` whose elements print as `items`: `ty{a, b}`, or
/// `ty(nil)` when there are none. (Rust's `{:?}` of a label's text is Go's `%q` of it.)
fn go_literal(ty: &str, items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        format!("{ty}(nil)")
    } else {
        format!("{ty}{{{}}}", items.join(", "))
    }
}

/// `k=v,k2=v2` as kubectl prints labels.
pub fn labels_string(labels: &Labels) -> String {
    if labels.is_empty() {
        return "<none>".to_string();
    }
    labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's `%#v` of the values a field error prints: nil when empty, quoted, `, `-separated.
    #[test]
    fn literals_print_as_gos_sharp_v() {
        let labels: Labels = [("app".to_string(), "web".to_string())].into();
        assert_eq!(go_map_literal(&labels), r#"map[string]string{"app":"web"}"#);
        let mut s = LabelSelector::from_labels(&Labels::new());
        assert_eq!(
            go_selector_literal(&s),
            "v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}"
        );
        s.match_expressions = vec![
            LabelSelectorRequirement {
                key: "tier".into(),
                operator: "In".into(),
                values: vec!["a".into(), "b".into()],
            },
            LabelSelectorRequirement {
                key: "x".into(),
                operator: "Exists".into(),
                values: vec![],
            },
        ];
        assert_eq!(
            go_selector_literal(&s),
            r#"v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"tier", Operator:"In", Values:[]string{"a", "b"}}, v1.LabelSelectorRequirement{Key:"x", Operator:"Exists", Values:[]string(nil)}}}"#
        );
    }
}
