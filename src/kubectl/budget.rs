//! PodDisruptionBudgets in kubectl: `kubectl get pdb` (the apiserver's table,
//! `printPodDisruptionBudget` in `pkg/printers/internalversion/printers.go`) and `kubectl
//! describe pdb` (`describePodDisruptionBudgetV1` in k8s.io/kubectl `pkg/describe`).

use super::describe::Describe;
use crate::api::{Kind, PodDisruptionBudget};
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
