//! PodDisruptionBudgets in kubectl: `kubectl get pdb` (the apiserver's table,
//! `printPodDisruptionBudget` in `pkg/printers/internalversion/printers.go`) and `kubectl
//! describe pdb` (`describePodDisruptionBudgetV1` in k8s.io/kubectl `pkg/describe`), and
//! `kubectl create poddisruptionbudget` (`pkg/cmd/create/create_pdb.go`).

use super::args::{Args, DryRun, parse_selector};
use super::printer::Describe;
use super::{KubectlError, Outcome};
use crate::api::{IntOrString, Kind, LabelSelector, Object, PodDisruptionBudget};
use crate::apiserver::store::ApiError;
use crate::cluster::Cluster;

/// NAME, MIN AVAILABLE, MAX UNAVAILABLE, ALLOWED DISRUPTIONS, AGE; an unset bound is `N/A`.
pub(super) fn row(b: &PodDisruptionBudget, age: String) -> Vec<String> {
    let bound = |v: &Option<crate::api::IntOrString>| {
        v.as_ref()
            .map_or_else(|| "N/A".to_string(), |v| v.to_string())
    };
    vec![
        b.metadata.name.to_string(),
        bound(&b.spec.min_available),
        bound(&b.spec.max_unavailable),
        b.status.disruptions_allowed.to_string(),
        age,
    ]
}

/// The budget's bound (`Min available` or else `Max unavailable`), its selector and the
/// disruption controller's counts, then its events.
pub(super) fn describe(c: &Cluster, b: &PodDisruptionBudget, show_events: bool) -> String {
    let mut w = Describe::default();
    w.w(0, format_args!("Name:\t{}\n", b.metadata.name));
    w.w(0, format_args!("Namespace:\t{}\n", b.metadata.namespace));
    if let Some(v) = &b.spec.min_available {
        w.w(0, format_args!("Min available:\t{v}\n"));
    } else if let Some(v) = &b.spec.max_unavailable {
        w.w(0, format_args!("Max unavailable:\t{v}\n"));
    }
    match &b.spec.selector {
        Some(s) => {
            let text = s.to_selector_string();
            let text = if text.is_empty() {
                "<none>".into()
            } else {
                text
            };
            w.w(0, format_args!("Selector:\t{text}\n"));
        }
        None => w.w(0, "Selector:\t<unset>\n"),
    }
    let s = &b.status;
    w.w(0, "Status:\n");
    w.w(
        2,
        format_args!("Allowed disruptions:\t{}\n", s.disruptions_allowed),
    );
    w.w(2, format_args!("Current:\t{}\n", s.current_healthy));
    w.w(2, format_args!("Desired:\t{}\n", s.desired_healthy));
    w.w(2, format_args!("Total:\t{}\n", s.expected_pods));
    if show_events {
        w.events(
            c,
            c.events.for_object(Kind::PodDisruptionBudget, &b.metadata),
        );
    }
    w.finish()
}

/// `kubectl create poddisruptionbudget NAME --selector=SELECTOR --min-available=N` (or
/// `--max-unavailable`), with `create_pdb.go`'s checks in their order.
pub(super) fn create(c: &mut Cluster, a: &Args) -> Outcome {
    let (dry, mut report) = super::dry_run(c, a)?;
    let names = &a.positional;
    if names.len() != 1 {
        return Err(KubectlError::Go(format!(
            "error: exactly one NAME is required, got {}\nSee 'kubectl create poddisruptionbudget -h' for help and examples",
            names.len()
        )));
    }
    let name = &names[0];
    let (sel, bound, v) = flags(a)?;
    let mut b = PodDisruptionBudget::default();
    b.metadata.name = name.as_str().into();
    b.metadata.namespace = a.ns().into();
    b.spec.selector = Some(sel);
    if bound == "minAvailable" {
        b.spec.min_available = Some(v);
    } else {
        b.spec.max_unavailable = Some(v);
    }
    if !c.store.has_namespace(a.ns()) {
        return Err(format!(
            "error: failed to create poddisruptionbudgets: namespaces \"{}\" not found",
            a.ns()
        )
        .into());
    }
    let obj = Object::PodDisruptionBudget(Box::new(b));
    let written = match dry {
        DryRun::None => c.create(obj).map(drop),
        DryRun::Server => c.store.create_dry_run(obj).map(drop),
        DryRun::Client => Ok(()),
    };
    written.map_err(|e| match e {
        ApiError::AlreadyExists { kind, name } => KubectlError::Go(format!(
            "error: failed to create poddisruptionbudgets: {} \"{name}\" already exists",
            kind.resource()
        )),
        e => super::api_err(e),
    })?;
    report.wrote = true;
    report.item(Ok(format!(
        "poddisruptionbudget.policy/{name} created{}",
        dry.suffix()
    )));
    report.finish()
}

/// `create_pdb.go`'s `Validate` and what it builds from the flags: the selector, which bound
/// and its value (`intstr.Parse`: a number is an integer, anything else a string).
fn flags(a: &Args) -> Result<(LabelSelector, &'static str, IntOrString), KubectlError> {
    let value = |flag: &str| a.flag(flag).flatten().filter(|v| !v.is_empty());
    let Some(selector) = value("selector") else {
        return Err("error: a selector must be specified".into());
    };
    let (field, flag, text) = match (value("min-available"), value("max-unavailable")) {
        (None, None) => {
            return Err("error: one of min-available or max-unavailable must be specified".into());
        }
        (Some(_), Some(_)) => {
            return Err("error: min-available and max-unavailable cannot be both specified".into());
        }
        (Some(v), None) => ("minAvailable", "min-available", v),
        (None, Some(v)) => ("maxUnavailable", "max-unavailable", v),
    };
    // `^[0-9]+%?$`.
    let digits = text.strip_suffix('%').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("error: invalid format specified for {flag}").into());
    }
    let sel = parse_selector(selector).map_err(|e| KubectlError::Go(format!("error: {e}")))?;
    let v = match text.parse::<i32>() {
        Ok(n) => IntOrString::Int(n),
        Err(_) => IntOrString::Str(text.to_string()),
    };
    Ok((sel, field, v))
}
