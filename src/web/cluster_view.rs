//! The cluster view: the Deployment, its ReplicaSets by revision, and each ReplicaSet's pods as
//! shapes whose colour, icon and label say their state. Pods are keyed by name, so the browser
//! animates a pod appearing, changing state and fading out while it terminates.

use super::handles::Run;
use super::state::Selected;
use crate::api::StrategyType;
use crate::cluster::trace::{PodState, PodView};
use yew::prelude::*;

/// Above this many pods, pods change state without transitions (see `.dense` in style.css).
pub const DENSE_PODS: usize = 120;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Run,
    pub pos: usize,
    pub selected: Option<Selected>,
    /// A pod or ReplicaSet picked, for its YAML.
    pub on_select: Callback<Option<Selected>>,
    /// The world before the first step (predict mode asking what the first sync does): the
    /// Deployment as created, nothing the sync made.
    #[prop_or_default]
    pub before: bool,
}

pub fn icon(s: PodState) -> &'static str {
    match s {
        PodState::Pending => "…",
        PodState::ContainerCreating => "◔",
        PodState::Running => "◑",
        PodState::Ready => "◕",
        PodState::Available => "●",
        PodState::Terminating => "✕",
        PodState::ErrImagePull | PodState::ImagePullBackOff => "⚠",
        PodState::CrashLoopBackOff => "↻",
    }
}

fn class(s: PodState) -> &'static str {
    match s {
        PodState::Pending => "pending",
        PodState::ContainerCreating => "creating",
        PodState::Running => "running",
        PodState::Ready => "ready",
        PodState::Available => "available",
        PodState::Terminating => "terminating",
        PodState::ErrImagePull | PodState::ImagePullBackOff => "pullerr",
        PodState::CrashLoopBackOff => "crash",
    }
}

/// Said of a pod kube-proxy still sends requests to that it no longer serves.
const DROPPING: &str = "kube-proxy still sends it requests, and it no longer serves them";

fn pod(
    p: &PodView,
    selected: bool,
    dropping: bool,
    on_select: &Callback<Option<Selected>>,
) -> Html {
    let name = p.name.clone();
    let d = on_select.clone();
    let mut label = format!("pod {} {}", p.name, p.state.as_str());
    let node = if p.node.is_empty() {
        "no node yet"
    } else {
        p.node.as_str()
    };
    let mut title = format!("{} — {} ({}) on {node}", p.name, p.state.as_str(), p.status);
    if dropping {
        for t in [&mut label, &mut title] {
            t.push_str("; ");
            t.push_str(DROPPING);
        }
    }
    html! {
        <button key={p.name.clone()} class={classes!("pod", class(p.state), selected.then_some("selected"), dropping.then_some("dropping"))}
            title={title}
            aria-label={label}
            onclick={move |_| d.emit(Some(Selected::Pod(name.clone())))}>
            <span class="icon" aria-hidden="true">{ icon(p.state) }</span>
        </button>
    }
}

/// The load on the Service: its requests so far, and the pods kube-proxy still sends some to
/// that no longer serve (gone ones too, which have no tile left).
fn traffic(t: &crate::cluster::trace::TrafficView, dropping: &[crate::api::Str]) -> Html {
    let names: Vec<&str> = dropping
        .iter()
        .map(|k| k.rsplit('/').next().unwrap_or(k))
        .collect();
    html! {
        <p class={classes!("traffic", (!names.is_empty()).then_some("dropping"))}>
            { format!("Requests so far: {} served, {} failed", t.served, t.failed) }
            if t.failed > 0 {
                { format!(" ({} sent to pods that had stopped serving, {} with no ready endpoint)", t.failed_stopped, t.failed_no_endpoint) }
            }
            if !names.is_empty() {
                { format!(". kube-proxy still sends requests to {}, which no longer serve: that share fails.", names.join(", ")) }
            }
        </p>
    }
}

/// (Long: a component, whose markup is most of its length.)
#[function_component(ClusterView)]
pub fn cluster_view(props: &Props) -> Html {
    let colours = {
        let run = props.run.clone();
        use_memo(run, |run| super::chart_geom::colours(&run.0.trace))
    };
    let s = &props.run.0;
    let Some(step) = s.trace.get(props.pos) else {
        return html! { <div class="cluster empty">{"Nothing has happened yet."}</div> };
    };
    let pods = if props.before {
        Default::default()
    } else {
        s.frames.get(props.pos).cloned().unwrap_or_default()
    };
    let zero = crate::cluster::trace::DeploymentStatusView::default();
    let deploy = match &step.deployment {
        Some(d) => {
            let status = if props.before { &zero } else { &d.status };
            html! {
            <div class="deploy-head">
                <h2>{ format!("deployment/{}", d.name) }</h2>
                <span class="chip">{ format!("replicas {}", d.replicas) }</span>
                <span class="chip">{ d.strategy.as_str() }</span>
                if d.strategy == StrategyType::RollingUpdate {
                    <span class="chip">{ format!("maxSurge {} · maxUnavailable {}", d.max_surge, d.max_unavailable) }</span>
                }
                if let (Some(r), false) = (&d.revision, props.before) {
                    <span class="chip">{ format!("revision {r}") }</span>
                }
                if d.paused { <span class="chip warn">{"paused"}</span> }
                if d.deleting { <span class="chip warn">{"deleting"}</span> }
                <span class="counters">{ format!("updated {} · ready {} · available {} · unavailable {}",
                    status.updated_replicas, status.ready_replicas, status.available_replicas, status.unavailable_replicas) }</span>
            </div>
            }
        }
        None => html! { <div class="deploy-head"><h2>{"no Deployment"}</h2></div> },
    };
    let newest = step.newest().map_or(0, |r| r.revision);
    let dropping = |name: &str| {
        let pod = |k: &crate::api::Str| k.rsplit('/').next() == Some(name);
        !props.before && step.dropping.iter().any(pod)
    };
    // Past a few hundred pods, each ReplicaSet's are one canvas (the frame's list for it, in
    // the same order as the step's ReplicaSets).
    let canvas =
        pods.len() > super::pod_canvas::CANVAS_PODS && pods.0.len() == step.replica_sets.len();
    let selected_pod = match &props.selected {
        Some(Selected::Pod(p)) => Some(p.clone()),
        _ => None,
    };
    let shown: &[_] = if props.before {
        &[]
    } else {
        &step.replica_sets
    };
    let rows = shown.iter().enumerate().rev().map(|(j, rs)| {
        let mine: Vec<&PodView> = if canvas {
            vec![]
        } else {
            pods.iter().filter(|p| p.replica_set == rs.name).collect()
        };
        let sel = props.selected == Some(Selected::ReplicaSet(rs.name.clone()));
        let d = props.on_select.clone();
        let name = rs.name.clone();
        // Width grows with the desired count, so a ReplicaSet visibly grows and shrinks.
        let bar = format!("--desired:{};", rs.replicas.max(0));
        let colour = format!("rev-c{}", colours.get(&rs.name).copied().unwrap_or(0));
        html! {
            <div key={rs.name.clone()} class={classes!("rs", colour, (rs.revision == newest).then_some("newest"), rs.deleting.then_some("deleting"), sel.then_some("selected"))} style={bar}>
                <button class="rs-head"
                    onclick={move |_| d.emit(Some(Selected::ReplicaSet(name.clone())))}>
                    <span class="rev">{ format!("rev {}", rs.revision) }</span>{ " " }
                    <span class="rs-name">{ rs.name.clone() }</span>{ " " }
                    <span class="image">{ rs.images.join(", ") }</span>{ " " }
                    <span class="rs-counts" title="desired / current / ready / available">
                        { format!("{} / {} / {} / {}", rs.replicas, rs.status.replicas, rs.status.ready_replicas, rs.status.available_replicas) }
                        <span class="sr-only">{" desired / current / ready / available"}</span>
                    </span>
                </button>
                if canvas {
                    <super::pod_canvas::PodCanvas pods={pods.0[j].clone()} selected={selected_pod.clone()} on_select={props.on_select.clone()} />
                } else {
                    <div class="pods" role="group" aria-label={format!("pods of {}", rs.name)}>
                        { for mine.iter().map(|p| pod(p, props.selected == Some(Selected::Pod(p.name.clone())), dropping(&p.name), &props.on_select)) }
                    </div>
                }
            </div>
        }
    });
    html! {
        <div class={classes!("cluster", (pods.len() > DENSE_PODS).then_some("dense"))} aria-label="cluster view">
            { deploy }
            if let (Some(t), false) = (&step.traffic, props.before) {
                { traffic(t, &step.dropping) }
            }
            <div class="rs-list">
                if props.before {
                    <p class="muted before-first">{"No ReplicaSet yet: the Deployment has just been created, and its first sync has not run."}</p>
                }
                { for rows }
            </div>
            <details class="legend">
                <summary>{"Legend"}</summary>
                <ul>
                    { for PodState::ALL.iter().map(|s| html! {
                        <li><span class={classes!("pod", "mini", class(*s))} aria-hidden="true"><span class="icon">{ icon(*s) }</span></span>
                            <b>{ s.as_str() }</b>{ " — " }{ s.meaning() }</li>
                    }) }
                    <li>{"ReplicaSet counts: desired / current / ready / available."}</li>
                </ul>
            </details>
        </div>
    }
}
