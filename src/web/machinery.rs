//! The machinery view: the last few steps as messages between the parts of the cluster, one
//! lane each (kubectl, the apiserver, the informers, the work queues, the controllers, the
//! scheduler, the kubelet, kube-proxy), so that a write can be followed to the watch event, the
//! handler that queued a key, the sync that took it and the writes that sync made.

use super::handles::Run;
use crate::cluster::trace::{Body, TraceStep};
use crate::scenario::machinery::{self, Flow, Lane, Message};
use yew::prelude::*;

/// How many steps, up to the current one, the view draws.
const WINDOW: usize = 8;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Run,
    pub pos: usize,
    pub on_seek: Callback<usize>,
}

fn column(l: Lane) -> usize {
    Lane::ALL.iter().position(|&x| x == l).unwrap_or(0) + 1
}

fn step_title(i: usize, t: &TraceStep) -> String {
    let what = match &t.body {
        Body::Action(_) => "kubectl".to_string(),
        Body::World(_) => t.world_source().trim_start_matches("the ").to_string(),
        Body::Sync(y) => format!("{} sync {}", y.controller.as_str(), y.key),
    };
    format!("step {} · t = {:.1} s · {what}", i + 1, t.t as f64 / 1000.0)
}

fn message(m: &Message) -> Html {
    let (a, b) = (column(m.from), column(m.to));
    let (lo, hi) = (a.min(b), a.max(b));
    let dir = match (m.flow, a.cmp(&b)) {
        (Flow::Note, _) | (_, std::cmp::Ordering::Equal) => "note",
        (_, std::cmp::Ordering::Less) => "right",
        _ => "left",
    };
    let flow = match m.flow {
        Flow::Write => "write",
        Flow::Refused => "refused",
        Flow::Notify => "notify",
        Flow::Note => "note",
    };
    let route = if m.from == m.to {
        format!("{}: ", m.from.name())
    } else {
        format!("{} → {}: ", m.from.name(), m.to.name())
    };
    html! {
        <li class={classes!("msg", flow, dir)} data-from={m.from.name()} data-to={m.to.name()}>
            <span class="strip" aria-hidden="true">
                <span class="arrow" style={format!("grid-column: {lo} / {}", hi + 1)}></span>
            </span>
            <span class="msg-body"><span class="route">{ route }</span>{ m.text.clone() }</span>
        </li>
    }
}

/// A panel's heading as a button that shows or hides it (`body` is the id of what it shows).
pub fn toggle(title: &str, body: &'static str, open: &UseStateHandle<bool>) -> Html {
    let flip = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    html! {
        <h2 class="panel-toggle">
            <button aria-expanded={(**open).to_string()} aria-controls={body} onclick={flip}>
                <span aria-hidden="true">{ if **open { "▾ " } else { "▸ " } }</span>{ title.to_string() }
            </button>
        </h2>
    }
}

#[function_component(MachineryView)]
pub fn machinery_view(props: &Props) -> Html {
    // Shown when asked: eight steps of messages are many elements to redraw at every step.
    let open = use_state(|| false);
    let head = toggle("The machinery", "machinery-body", &open);
    if !*open {
        return html! { <section class="machinery" aria-label="The machinery">{ head }</section> };
    }
    let s = &props.run.0;
    let end = (props.pos + 1).min(s.len());
    let from = end.saturating_sub(WINDOW);
    let lanes = Lane::ALL
        .iter()
        .map(|l| html! { <li class="lane-head" title={l.name()}>{ l.short() }</li> });
    let legend: Vec<String> = Lane::ALL
        .iter()
        .map(|l| format!("{} {}", l.short(), l.name()))
        .collect();
    let steps = (from..end).map(|i| {
        let t = &*s.trace[i];
        let msgs = machinery::messages(t);
        let seek = props.on_seek.clone();
        let current = i + 1 == end;
        html! {
            <>
                <li class={classes!("step-head", current.then_some("current"))}>
                    <button onclick={move |_| seek.emit(i)} aria-current={current.then_some("step")}
                        title={format!("Go to step {}", i + 1)}>{ step_title(i, t) }</button>
                </li>
                { for msgs.iter().map(message) }
            </>
        }
    });
    html! {
        <section class="machinery" aria-label="The machinery">
            { head }
            <div id="machinery-body">
            <p class="muted">{ format!("Steps {} to {}: each write, the watch event it raises, the handler that queues a key, the worker that takes it, and what that sync writes.", from + 1, end) }</p>
            <p class="lane-legend muted" aria-hidden="true">{ legend.join(" · ") }</p>
            <ol class="lanes" aria-hidden="true">{ for lanes }</ol>
            <ol class="messages">{ for steps }</ol>
            </div>
        </section>
    }
}
