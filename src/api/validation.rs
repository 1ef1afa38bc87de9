//! Validation as the apiserver does it for apps/v1 Deployments (pkg/apis/apps/validation), with
//! the apiserver's field paths and wording, so a rejected manifest reads like `kubectl apply`.

use super::*;
use std::fmt;

/// One field error: `spec.replicas: Invalid value: -1: must be greater than or equal to 0`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub field: String,
    pub detail: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.detail)
    }
}

fn invalid(field: &str, value: impl fmt::Display, msg: &str) -> FieldError {
    FieldError {
        field: field.into(),
        detail: format!("Invalid value: {value}: {msg}"),
    }
}
fn required(field: &str) -> FieldError {
    FieldError {
        field: field.into(),
        detail: "Required value".into(),
    }
}
fn duplicate(field: &str, value: impl fmt::Display) -> FieldError {
    FieldError {
        field: field.into(),
        detail: format!("Duplicate value: {value}"),
    }
}
fn forbidden(field: &str, msg: &str) -> FieldError {
    FieldError {
        field: field.into(),
        detail: format!("Forbidden: {msg}"),
    }
}
fn unsupported(field: &str, value: &str, supported: &[&str]) -> FieldError {
    let list: Vec<String> = supported.iter().map(|s| format!("\"{s}\"")).collect();
    FieldError {
        field: field.into(),
        detail: format!(
            "Unsupported value: \"{value}\": supported values: {}",
            list.join(", ")
        ),
    }
}

/// All of an object's field errors, printed as the apiserver's `Invalid` status does.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub kind: &'static str,
    pub name: String,
    pub errors: Vec<FieldError>,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let group = match self.kind {
            "Pod" | "Node" | "Service" => "",
            "PodDisruptionBudget" => ".policy",
            "EndpointSlice" => ".discovery.k8s.io",
            _ => ".apps",
        };
        write!(f, "{}{group} \"{}\" is invalid: ", self.kind, self.name)?;
        if self.errors.len() == 1 {
            write!(f, "{}", self.errors[0])
        } else {
            let all: Vec<String> = self.errors.iter().map(|e| e.to_string()).collect();
            write!(f, "[{}]", all.join(", "))
        }
    }
}

impl std::error::Error for Invalid {}

const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

pub fn is_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

pub fn is_dns1123_subdomain(s: &str) -> bool {
    dns1123_subdomain_errors(s).is_empty()
}

/// apimachinery's `IsDNS1123Subdomain`: at most 253 characters, and its regex, whose labels
/// (unlike a DNS label's) have no length limit of their own. Each problem is its own error.
pub fn dns1123_subdomain_errors(s: &str) -> Vec<&'static str> {
    let mut errs = vec![];
    if s.len() > 253 {
        errs.push("must be no more than 253 characters");
    }
    let shaped = s.split('.').all(|l| {
        let b = l.as_bytes();
        !b.is_empty()
            && b.iter()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
    });
    if !shaped {
        errs.push(DNS1123_SUBDOMAIN_MSG);
    }
    errs
}

/// apimachinery's `IsValidLabelValue`: what is wrong with a label value, in its words.
pub fn label_value_errors(v: &str) -> Vec<String> {
    let mut errs = vec![];
    if v.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    if !label_value_shape(v) {
        errs.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')".to_string());
    }
    errs
}

/// The label value regex of `IsValidLabelValue`.
fn label_value_shape(v: &str) -> bool {
    let b = v.as_bytes();
    v.is_empty()
        || (b
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
            && b[0].is_ascii_alphanumeric()
            && b[b.len() - 1].is_ascii_alphanumeric())
}

/// Checked on every write of labels: no allocation.
fn is_label_value(v: &str) -> bool {
    v.len() <= 63 && label_value_shape(v)
}

fn is_qualified_name(k: &str) -> bool {
    let name = match k.split_once('/') {
        Some((prefix, name)) => {
            if !is_dns1123_subdomain(prefix) {
                return false;
            }
            name
        }
        None => k,
    };
    !name.is_empty() && name.len() <= 63 && is_label_value(name)
}

fn validate_labels(labels: &Labels, field: &str, errs: &mut Vec<FieldError>) {
    for (k, v) in labels {
        if !is_qualified_name(k) {
            errs.push(invalid(field, format!("\"{k}\""), "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"));
        }
        if !is_label_value(v) {
            errs.push(invalid(field, format!("\"{v}\""), "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"));
        }
    }
}

/// `ValidateObjectMeta`'s name: required, and then a DNS subdomain.
fn validate_name(name: &str, errs: &mut Vec<FieldError>) {
    if name.is_empty() {
        errs.push(required("metadata.name").with_detail("name or generateName is required"));
    } else {
        for m in dns1123_subdomain_errors(name) {
            errs.push(invalid("metadata.name", format!("\"{name}\""), m));
        }
    }
}

fn validate_selector(sel: &LabelSelector, field: &str, errs: &mut Vec<FieldError>) {
    validate_labels(&sel.match_labels, &format!("{field}.matchLabels"), errs);
    for (i, r) in sel.match_expressions.iter().enumerate() {
        let f = format!("{field}.matchExpressions[{i}]");
        match r.operator.as_str() {
            "In" | "NotIn" => {
                if r.values.is_empty() {
                    errs.push(
                        required(&format!("{f}.values"))
                            .with_detail("must be specified when `operator` is 'In' or 'NotIn'"),
                    );
                }
            }
            "Exists" | "DoesNotExist" => {
                if !r.values.is_empty() {
                    errs.push(forbidden(
                        &format!("{f}.values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    ));
                }
            }
            op => errs.push(invalid(
                &format!("{f}.operator"),
                format!("\"{op}\""),
                "not a valid selector operator",
            )),
        }
        if !is_qualified_name(&r.key) {
            errs.push(invalid(
                &format!("{f}.key"),
                format!("\"{}\"", r.key),
                "name part must consist of alphanumeric characters, '-', '_' or '.'",
            ));
        }
    }
}

impl FieldError {
    fn with_detail(mut self, extra: &str) -> FieldError {
        self.detail = format!("{}: {extra}", self.detail);
        self
    }
}

fn non_negative(v: i64, field: &str, errs: &mut Vec<FieldError>) {
    if v < 0 {
        errs.push(invalid(field, v, "must be greater than or equal to 0"));
    }
}

fn validate_int_or_percent(v: &IntOrString, field: &str, errs: &mut Vec<FieldError>) {
    match v {
        IntOrString::Int(i) => non_negative(*i as i64, field, errs),
        IntOrString::Str(s) => {
            if v.percent().is_none() {
                errs.push(invalid(field, format!("\"{s}\""), "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"));
            }
        }
    }
}

fn is_zero(v: &Option<IntOrString>) -> bool {
    match v {
        None => true,
        Some(IntOrString::Int(i)) => *i == 0,
        Some(s) => s.percent() == Some(0),
    }
}

/// `validateLifecycle`'s `validateHandler` for a hook: exactly one handler (`exec`, `httpGet`,
/// `tcpSocket`, `sleep`), an `exec` with a command, and a `sleep` of no more than the grace
/// period (`validateSleepAction`, as PodLifecycleSleepActionAllowZero has it from 1.33: zero
/// is allowed).
fn validate_lifecycle_handler(
    h: &Value,
    grace: Option<i64>,
    field: &str,
    errs: &mut Vec<FieldError>,
) {
    let given: Vec<&str> = ["exec", "httpGet", "tcpSocket", "sleep"]
        .into_iter()
        .filter(|k| h.get(*k).is_some_and(|v| !v.is_null()))
        .collect();
    let Some((first, more)) = given.split_first() else {
        errs.push(required(field).with_detail("must specify a handler type"));
        return;
    };
    for k in more {
        errs.push(forbidden(
            &format!("{field}.{k}"),
            "may not specify more than 1 handler type",
        ));
    }
    match *first {
        "exec" => {
            let command = h.pointer("/exec/command").and_then(Value::as_array);
            if command.is_none_or(|c| c.is_empty()) {
                errs.push(required(&format!("{field}.exec.command")));
            }
        }
        "sleep" => {
            let secs = h
                .pointer("/sleep/seconds")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            if let Some(g) = grace
                && (secs < 0 || secs > g)
            {
                errs.push(invalid(
                    &format!("{field}.sleep"),
                    secs,
                    &format!(
                        "must be non-negative and less than terminationGracePeriodSeconds ({g})"
                    ),
                ));
            }
        }
        _ => {}
    }
}

/// `validateProbe` (and `validateHandler`): exactly one handler, numbers not negative, and
/// a liveness or startup probe needs a single success.
fn validate_probe(p: &Value, which: &str, field: &str, errs: &mut Vec<FieldError>) {
    let handlers: Vec<&str> = PROBE_HANDLERS
        .into_iter()
        .filter(|h| p.get(*h).is_some_and(|v| !v.is_null()))
        .collect();
    match handlers.as_slice() {
        [] => errs.push(required(field).with_detail("must specify a handler type")),
        [_] => {}
        [_, more @ ..] => {
            for h in more {
                errs.push(forbidden(
                    &format!("{field}.{h}"),
                    "may not specify more than 1 handler type",
                ));
            }
        }
    }
    let t = ProbeTiming::of(p);
    for (name, v) in [
        ("initialDelaySeconds", t.initial_delay_seconds),
        ("timeoutSeconds", t.timeout_seconds),
        ("periodSeconds", t.period_seconds),
        ("successThreshold", t.success_threshold),
        ("failureThreshold", t.failure_threshold),
    ] {
        non_negative(v, &format!("{field}.{name}"), errs);
    }
    if which != "readinessProbe" && t.success_threshold != 1 {
        errs.push(invalid(
            &format!("{field}.successThreshold"),
            t.success_threshold,
            "must be 1",
        ));
    }
}

/// Validates a pod template (the parts a Deployment's template must get right).
pub fn validate_pod_template(t: &PodTemplateSpec, field: &str, errs: &mut Vec<FieldError>) {
    validate_pod_parts(&t.metadata.labels, &t.spec, true, field, errs);
}

/// The template checks on a template's or a pod's labels and spec. Field paths are spelled
/// only for an error: every pod create runs this.
fn validate_pod_parts(
    labels: &Labels,
    spec: &PodSpec,
    restart_policy: bool,
    field: &str,
    errs: &mut Vec<FieldError>,
) {
    if labels
        .iter()
        .any(|(k, v)| !is_qualified_name(k) || !is_label_value(v))
    {
        validate_labels(labels, &format!("{field}.metadata.labels"), errs);
    }
    let at = |suffix: &str| format!("{field}.spec{suffix}");
    if spec.containers.is_empty() {
        errs.push(required(&at(".containers")));
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, c) in spec.containers.iter().enumerate() {
        let f = |suffix: &str| at(&format!(".containers[{i}]{suffix}"));
        if c.name.is_empty() {
            errs.push(required(&f(".name")));
        } else if !is_dns1123_label(&c.name) {
            errs.push(invalid(
                &f(".name"),
                format!("\"{}\"", c.name),
                DNS1123_LABEL_MSG,
            ));
        } else if seen.contains(&c.name.as_str()) {
            errs.push(duplicate(&f(".name"), format_args!("\"{}\"", c.name)));
        } else {
            seen.push(&c.name);
        }
        if c.image.trim().is_empty() {
            errs.push(required(&f(".image")));
        }
        for k in PROBES {
            if let Some(p) = c.extra.get(k).filter(|p| p.is_object()) {
                validate_probe(p, k, &f(&format!(".{k}")), errs);
            }
        }
        if let Some(l) = c.extra.get("lifecycle").filter(|l| l.is_object()) {
            for hook in ["postStart", "preStop"] {
                if let Some(h) = l.get(hook).filter(|h| h.is_object()) {
                    let grace = spec.termination_grace_period_seconds;
                    validate_lifecycle_handler(h, grace, &f(&format!(".lifecycle.{hook}")), errs);
                }
            }
        }
    }
    if restart_policy && !spec.restart_policy.is_empty() && spec.restart_policy != "Always" {
        errs.push(unsupported(
            &at(".restartPolicy"),
            &spec.restart_policy,
            &["Always"],
        ));
    }
    if let Some(g) = spec.termination_grace_period_seconds
        && g < 0
    {
        non_negative(g, &at(".terminationGracePeriodSeconds"), errs);
    }
}

/// `ValidateDeployment` (create), with the checks the playground's users run into. (Long as
/// upstream's `ValidateDeploymentSpec` is: the checks run in its order, so that errors are
/// listed in the apiserver's order.)
pub fn validate_deployment(d: &Deployment) -> Result<(), Invalid> {
    let mut errs = Vec::new();
    validate_name(&d.metadata.name, &mut errs);
    validate_labels(&d.metadata.labels, "metadata.labels", &mut errs);
    let s = &d.spec;
    if let Some(r) = s.replicas {
        non_negative(r as i64, "spec.replicas", &mut errs);
    }
    match &s.selector {
        None => errs.push(required("spec.selector")),
        Some(sel) if sel.is_empty() => errs.push(invalid(
            "spec.selector",
            labels::go_selector_literal(sel),
            "empty selector is invalid for deployment",
        )),
        Some(sel) => {
            validate_selector(sel, "spec.selector", &mut errs);
            if !sel.matches(&s.template.metadata.labels) {
                errs.push(invalid(
                    "spec.template.metadata.labels",
                    labels::go_map_literal(&s.template.metadata.labels),
                    "`selector` does not match template `labels`",
                ));
            }
        }
    }
    validate_pod_template(&s.template, "spec.template", &mut errs);
    match s.strategy.type_.as_str() {
        RECREATE => {
            if s.strategy.rolling_update.is_some() {
                errs.push(forbidden(
                    "spec.strategy.rollingUpdate",
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        ROLLING_UPDATE | "" => {
            if let Some(ru) = &s.strategy.rolling_update {
                let f = "spec.strategy.rollingUpdate";
                if let Some(mu) = &ru.max_unavailable {
                    validate_int_or_percent(mu, &format!("{f}.maxUnavailable"), &mut errs);
                    if mu.percent().is_some_and(|p| p > 100) {
                        errs.push(invalid(
                            &format!("{f}.maxUnavailable"),
                            format!("\"{mu}\""),
                            "must not be greater than 100%",
                        ));
                    }
                }
                if let Some(ms) = &ru.max_surge {
                    validate_int_or_percent(ms, &format!("{f}.maxSurge"), &mut errs);
                }
                if is_zero(&ru.max_unavailable) && is_zero(&ru.max_surge) {
                    let shown = ru
                        .max_unavailable
                        .as_ref()
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| "0".into());
                    errs.push(invalid(
                        &format!("{f}.maxUnavailable"),
                        shown,
                        "may not be 0 when `maxSurge` is 0",
                    ));
                }
            }
        }
        other => errs.push(unsupported(
            "spec.strategy.type",
            other,
            &[RECREATE, ROLLING_UPDATE],
        )),
    }
    non_negative(
        s.min_ready_seconds as i64,
        "spec.minReadySeconds",
        &mut errs,
    );
    if let Some(r) = s.revision_history_limit {
        non_negative(r as i64, "spec.revisionHistoryLimit", &mut errs);
    }
    if let Some(p) = s.progress_deadline_seconds {
        non_negative(p as i64, "spec.progressDeadlineSeconds", &mut errs);
        if p >= 0 && p <= s.min_ready_seconds {
            errs.push(invalid(
                "spec.progressDeadlineSeconds",
                p,
                "must be greater than minReadySeconds",
            ));
        }
    }
    if let Some(v) = d.metadata.annotations.get(DEPRECATED_ROLLBACK_TO)
        && v.parse::<i64>().is_ok_and(|r| r < 0)
    {
        errs.push(invalid(
            &format!("metadata.annotations[{DEPRECATED_ROLLBACK_TO}]"),
            v,
            "must be greater than or equal to 0",
        ));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Invalid {
            kind: "Deployment",
            name: d.metadata.name.to_string(),
            errors: errs,
        })
    }
}

/// `ValidateDeploymentUpdate`: everything above, and the selector may not change.
pub fn validate_deployment_update(new: &Deployment, old: &Deployment) -> Result<(), Invalid> {
    let result = validate_deployment(new);
    if new.spec.selector == old.spec.selector {
        return result;
    }
    let value = format_selector(new.spec.selector.as_ref());
    and_immutable(
        result,
        "Deployment",
        &new.metadata.name,
        "spec.selector",
        value,
    )
}

/// `result` with a `field is immutable` error at `path` added (`ValidateImmutableField`).
fn and_immutable(
    result: Result<(), Invalid>,
    kind: &'static str,
    name: &str,
    path: &str,
    value: String,
) -> Result<(), Invalid> {
    let e = invalid(path, value, "field is immutable");
    match result {
        Err(mut inv) => {
            inv.errors.push(e);
            Err(inv)
        }
        Ok(()) => Err(Invalid {
            kind,
            name: name.to_string(),
            errors: vec![e],
        }),
    }
}

fn format_selector(s: Option<&LabelSelector>) -> String {
    match s {
        None => "null".into(),
        Some(s) => labels::go_selector_literal(s),
    }
}

/// The ReplicaSet strategy's `ValidateUpdate`: the ReplicaSet as on create, and in apps/v1 an
/// immutable `spec.selector`.
pub fn validate_replicaset_update(new: &ReplicaSet, old: &ReplicaSet) -> Result<(), Invalid> {
    let result = validate_replicaset(new);
    if new.spec.selector == old.spec.selector {
        return result;
    }
    let value = labels::go_selector_literal(&new.spec.selector);
    and_immutable(
        result,
        "ReplicaSet",
        &new.metadata.name,
        "spec.selector",
        value,
    )
}

/// `ValidateReplicaSet`, enough for manifests the playground accepts.
pub fn validate_replicaset(rs: &ReplicaSet) -> Result<(), Invalid> {
    let mut errs = Vec::new();
    validate_name(&rs.metadata.name, &mut errs);
    if let Some(r) = rs.spec.replicas {
        non_negative(r as i64, "spec.replicas", &mut errs);
    }
    if rs.spec.selector.is_empty() {
        errs.push(invalid(
            "spec.selector",
            "{}",
            "empty selector is invalid for deployment",
        ));
    } else {
        validate_selector(&rs.spec.selector, "spec.selector", &mut errs);
        if !rs.spec.selector.matches(&rs.spec.template.metadata.labels) {
            errs.push(invalid(
                "spec.template.metadata.labels",
                labels::go_map_literal(&rs.spec.template.metadata.labels),
                "`selector` does not match template `labels`",
            ));
        }
    }
    validate_pod_template(&rs.spec.template, "spec.template", &mut errs);
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Invalid {
            kind: "ReplicaSet",
            name: rs.metadata.name.to_string(),
            errors: errs,
        })
    }
}

/// Minimal pod validation: a name and containers with images.
pub fn validate_pod(p: &Pod) -> Result<(), Invalid> {
    let mut errs = Vec::new();
    if p.metadata.name.is_empty() && p.metadata.generate_name.is_empty() {
        errs.push(required("metadata.name").with_detail("name or generateName is required"));
    } else if !p.metadata.name.is_empty() {
        for m in dns1123_subdomain_errors(&p.metadata.name) {
            errs.push(invalid(
                "metadata.name",
                format!("\"{}\"", p.metadata.name),
                m,
            ));
        }
    }
    validate_pod_parts(&p.metadata.labels, &p.spec, false, "", &mut errs);
    for e in &mut errs {
        e.field = e.field.trim_start_matches('.').to_string();
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Invalid {
            kind: "Pod",
            name: p.metadata.name.to_string(),
            errors: errs,
        })
    }
}

/// A Node as the apiserver validates one (its name, its taints), and what the playground's
/// scheduler needs of it: `status.allocatable`, in quantities that parse.
pub fn validate_node(n: &Node) -> Result<(), Invalid> {
    let mut errs = Vec::new();
    validate_name(&n.metadata.name, &mut errs);
    for (i, t) in n.spec.taints.iter().enumerate() {
        if t.key.is_empty() {
            errs.push(required(&format!("spec.taints[{i}].key")));
        }
        const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
        if !EFFECTS.contains(&t.effect.as_str()) {
            let field = format!("spec.taints[{i}].effect");
            errs.push(unsupported(&field, &t.effect, &EFFECTS));
        }
    }
    if n.status.allocatable.is_empty() {
        errs.push(FieldError {
            field: "status.allocatable".into(),
            detail: "Required value: the scheduler fits pods by it (a node's kubelet reports it; `kubectl get node NAME -o yaml` prints it)".into(),
        });
    }
    for (k, v) in &n.status.allocatable {
        let text = quantity_text(v).unwrap_or_default();
        if super::quantity::canonical(&text).is_none() {
            errs.push(invalid(
                &format!("status.allocatable[{k}]"),
                format!("\"{text}\""),
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
            ));
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Invalid {
            kind: "Node",
            name: n.metadata.name.to_string(),
            errors: errs,
        })
    }
}

/// `ValidatePodDisruptionBudget` (pkg/apis/policy/validation): its name, at most one of
/// `minAvailable` and `maxUnavailable`, each a count or a percent not past 100%, the selector,
/// and the unhealthy-pod eviction policy.
pub fn validate_pdb(b: &crate::api::PodDisruptionBudget) -> Result<(), Invalid> {
    use crate::api::policy::{ALWAYS_ALLOW, IF_HEALTHY_BUDGET};
    let mut errs = Vec::new();
    validate_name(&b.metadata.name, &mut errs);
    let s = &b.spec;
    if let (Some(min), Some(max)) = (&s.min_available, &s.max_unavailable) {
        errs.push(invalid(
            "spec",
            format_args!("{{minAvailable: {min}, maxUnavailable: {max}}}"),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    for (v, f) in [
        (&s.min_available, "spec.minAvailable"),
        (&s.max_unavailable, "spec.maxUnavailable"),
    ] {
        let Some(v) = v else { continue };
        validate_int_or_percent(v, f, &mut errs);
        if v.percent().is_some_and(|p| p > 100) {
            errs.push(invalid(
                f,
                format!("\"{v}\""),
                "must not be greater than 100%",
            ));
        }
    }
    if let Some(sel) = &s.selector {
        validate_selector(sel, "spec.selector", &mut errs);
    }
    if let Some(p) = &s.unhealthy_pod_eviction_policy
        && p != ALWAYS_ALLOW
        && p != IF_HEALTHY_BUDGET
    {
        errs.push(unsupported(
            "spec.unhealthyPodEvictionPolicy",
            p,
            &[ALWAYS_ALLOW, IF_HEALTHY_BUDGET],
        ));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Invalid {
            kind: "PodDisruptionBudget",
            name: b.metadata.name.to_string(),
            errors: errs,
        })
    }
}

/// apimachinery's `IsDNS1035Label` message: a Service's name until 1.37 made its rules a
/// DNS-1123 label's (`RelaxedServiceNameValidation`).
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/// apimachinery's `IsValidPortName`: what is wrong with a named port, in its words.
fn port_name_errors(name: &str) -> Vec<&'static str> {
    let mut errs = vec![];
    if name.len() > 15 {
        errs.push("must be no more than 15 characters");
    }
    if !name
        .bytes()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
    {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    }
    if name.contains("--") {
        errs.push("must not contain consecutive hyphens");
    }
    if !name.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)");
    }
    if name.starts_with('-') || name.ends_with('-') {
        errs.push("must not begin or end with a hyphen");
    }
    errs
}

const PORT_RANGE: &str = "must be between 1 and 65535, inclusive";

/// `ValidateService` (pkg/apis/core/validation), for what the playground routes: the name, the
/// type, the ports (names, numbers, protocols, target ports, duplicates) and the selector.
/// (Long: one check after another, each with the apiserver's field path and words.)
pub fn validate_service(svc: &crate::api::service::Service) -> Result<(), Invalid> {
    use crate::api::service::SERVICE_TYPES;
    let mut errs = Vec::new();
    let name = &*svc.metadata.name;
    if name.is_empty() {
        errs.push(required("metadata.name").with_detail("name or generateName is required"));
    } else if !(name.len() <= 63
        && name.as_bytes()[0].is_ascii_lowercase()
        && is_dns1123_label(name))
    {
        errs.push(invalid(
            "metadata.name",
            format!("\"{name}\""),
            DNS1035_LABEL_MSG,
        ));
    }
    let s = &svc.spec;
    let type_ = svc.type_name();
    if !SERVICE_TYPES.contains(&type_) {
        errs.push(unsupported("spec.type", type_, &SERVICE_TYPES));
    }
    let headless = s.cluster_ip.as_deref() == Some("None");
    if s.ports.is_empty() && !headless && type_ != "ExternalName" {
        errs.push(required("spec.ports"));
    }
    let mut seen_names = std::collections::BTreeSet::new();
    let mut seen_ports = std::collections::BTreeSet::new();
    for (i, p) in s.ports.iter().enumerate() {
        let f = |leaf: &str| format!("spec.ports[{i}].{leaf}");
        match p.name.as_deref().filter(|n| !n.is_empty()) {
            None if s.ports.len() > 1 => errs.push(required(&f("name"))),
            None => {}
            Some(n) => {
                if !is_dns1123_label(n) {
                    errs.push(invalid(&f("name"), format!("\"{n}\""), DNS1123_LABEL_MSG));
                }
                if !seen_names.insert(n) {
                    errs.push(duplicate(&f("name"), format_args!("\"{n}\"")));
                }
            }
        }
        if !(1..=65535).contains(&p.port) {
            errs.push(invalid(&f("port"), p.port, PORT_RANGE));
        }
        let protocol = p.protocol.as_deref().unwrap_or("TCP");
        if !["TCP", "UDP", "SCTP"].contains(&protocol) {
            errs.push(unsupported(
                &f("protocol"),
                protocol,
                &["SCTP", "TCP", "UDP"],
            ));
        }
        match &p.target_port {
            Some(IntOrString::Int(n)) if !(1..=65535).contains(n) => {
                errs.push(invalid(&f("targetPort"), n, PORT_RANGE))
            }
            Some(IntOrString::Str(n)) => {
                for m in port_name_errors(n) {
                    errs.push(invalid(&f("targetPort"), format!("\"{n}\""), m));
                }
            }
            _ => {}
        }
        if p.node_port.is_some() && type_ == "ClusterIP" {
            errs.push(forbidden(
                &f("nodePort"),
                "may not be used when `type` is 'ClusterIP'",
            ));
        }
        if !seen_ports.insert((protocol, p.port)) {
            errs.push(duplicate(
                &format!("spec.ports[{i}]"),
                format_args!(
                    "core.ServicePort{{Name:\"\", Protocol:\"{protocol}\", AppProtocol:(*string)(nil), Port:{}, TargetPort:intstr.IntOrString{{Type:0, IntVal:0, StrVal:\"\"}}, NodePort:0}}",
                    p.port
                ),
            ));
        }
    }
    if let Some(sel) = &s.selector {
        validate_labels(sel, "spec.selector", &mut errs);
    }
    if let Some(a) = s.session_affinity.as_deref()
        && !["ClientIP", "None"].contains(&a)
    {
        errs.push(unsupported(
            "spec.sessionAffinity",
            a,
            &["ClientIP", "None"],
        ));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Invalid {
            kind: "Service",
            name: name.to_string(),
            errors: errs,
        })
    }
}

/// `ValidateEndpointSlice` (pkg/apis/discovery/validation), its main rules: the name, the
/// address type, and each endpoint's 1 to 100 addresses; at most 1000 endpoints and 100 ports.
pub fn validate_endpoint_slice(e: &crate::api::service::EndpointSlice) -> Result<(), Invalid> {
    let mut errs = Vec::new();
    validate_name(&e.metadata.name, &mut errs);
    const TYPES: [&str; 3] = ["IPv4", "IPv6", "FQDN"];
    if e.address_type.is_empty() {
        errs.push(required("addressType"));
    } else if !TYPES.contains(&e.address_type.as_str()) {
        errs.push(unsupported("addressType", &e.address_type, &TYPES));
    }
    if e.endpoints.len() > 1000 {
        errs.push(FieldError {
            field: "endpoints".into(),
            detail: format!(
                "Too many: {}: must have at most 1000 items",
                e.endpoints.len()
            ),
        });
    }
    for (i, ep) in e.endpoints.iter().enumerate() {
        let f = format!("endpoints[{i}].addresses");
        match ep.addresses.len() {
            0 => errs.push(required(&f).with_detail("must contain at least 1 address")),
            1..=100 => {}
            n => errs.push(FieldError {
                field: f,
                detail: format!("Too many: {n}: must have at most 100 items"),
            }),
        }
    }
    if e.ports.len() > 100 {
        errs.push(FieldError {
            field: "ports".into(),
            detail: format!("Too many: {}: must have at most 100 items", e.ports.len()),
        });
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Invalid {
            kind: "EndpointSlice",
            name: e.metadata.name.to_string(),
            errors: errs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// apimachinery's `IsDNS1123Subdomain`: 253 characters at most, and a label of a subdomain
    /// may be longer than a DNS label's 63 (a Deployment named with 250 characters is valid).
    #[test]
    fn a_subdomain_is_checked_as_apimachinery_checks_it() {
        assert!(is_dns1123_subdomain(&"a".repeat(250)));
        assert!(is_dns1123_subdomain("web-1.example"));
        assert_eq!(
            dns1123_subdomain_errors(&"a".repeat(254)),
            vec!["must be no more than 253 characters"]
        );
        for bad in ["Web", "-web", "web-", "a..b", ""] {
            assert_eq!(
                dns1123_subdomain_errors(bad),
                vec![DNS1123_SUBDOMAIN_MSG],
                "{bad}"
            );
        }
        assert!(!is_dns1123_label(&"a".repeat(64)));
    }
}
