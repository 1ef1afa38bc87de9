//! Label selectors (metav1.LabelSelector): matchLabels and matchExpressions with the four
//! operators, and the `map[k:v]` / `k=v,k2 in (a,b)` renderings kubectl and the apiserver print.

use std::collections::BTreeMap;

pub type Labels = BTreeMap<String, String>;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector {
    pub match_labels: Labels,
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelSelectorRequirement {
    pub key: String,
    pub operator: String,
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

/// Go's `%q` of a string (labels and selector values need only the quote and backslash
/// escaped).
fn go_quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Go's `%#v` of a `map[string]string`, as a field error prints a bad map value:
/// `map[string]string{"a":"1", "b":"2"}` with sorted keys, `map[string]string(nil)` when empty.
pub fn go_map_literal(labels: &Labels) -> String {
    if labels.is_empty() {
        return "map[string]string(nil)".into();
    }
    let inner: Vec<String> = labels
        .iter()
        .map(|(k, v)| format!("{}:{}", go_quote(k), go_quote(v)))
        .collect();
    format!("map[string]string{{{}}}", inner.join(", "))
}

/// Go's `%#v` of a `metav1.LabelSelector`, as a field error prints a bad selector.
pub fn go_selector_literal(s: &LabelSelector) -> String {
    let expressions = if s.match_expressions.is_empty() {
        "[]v1.LabelSelectorRequirement(nil)".to_string()
    } else {
        let reqs: Vec<String> = s
            .match_expressions
            .iter()
            .map(|r| {
                let values = if r.values.is_empty() {
                    "[]string(nil)".to_string()
                } else {
                    let v: Vec<String> = r.values.iter().map(|v| go_quote(v)).collect();
                    format!("[]string{{{}}}", v.join(", "))
                };
                format!(
                    "v1.LabelSelectorRequirement{{Key:{}, Operator:{}, Values:{values}}}",
                    go_quote(&r.key),
                    go_quote(&r.operator)
                )
            })
            .collect();
        format!("[]v1.LabelSelectorRequirement{{{}}}", reqs.join(", "))
    };
    format!(
        "v1.LabelSelector{{MatchLabels:{}, MatchExpressions:{expressions}}}",
        go_map_literal(&s.match_labels)
    )
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
