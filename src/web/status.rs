//! Status and events: the Deployment's conditions and counters, its events as `kubectl
//! describe` lists them, the `kubectl get rs -w` table, and the rollout history.

use super::handles::Run;
use crate::apiserver::events::{Event, EventRecorder};
use crate::scenario::table;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Run,
    pub pos: usize,
    /// Open on the Events tab (an embed's `panel=events`).
    #[prop_or_default]
    pub events: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Tab {
    Status,
    Events,
    Watch,
    History,
}

/// Events up to step `pos`, each as it stood last (a step lists the events it created or
/// updated).
fn events_upto(run: &Run, pos: usize) -> Vec<Event> {
    let mut out: Vec<Event> = vec![];
    for s in run.0.trace.iter().take(pos + 1) {
        for e in &s.events {
            match out.iter_mut().find(|x| EventRecorder::same_event(x, e)) {
                Some(x) => x.clone_from(e),
                None => out.push(e.clone()),
            }
        }
    }
    out
}

/// How long ago, as kubectl prints ages (the console's `describe` prints the same).
fn age(now_ms: u64, then_ms: i64) -> String {
    crate::api::time::human_duration(now_ms as i64 - then_ms)
}

/// The disruption budgets after the step, as the disruption controller last wrote them.
fn budgets(step: &crate::cluster::trace::TraceStep) -> Html {
    if step.budgets.is_empty() {
        return html! {};
    }
    html! {
        <table class="conditions budgets" aria-label="PodDisruptionBudgets">
            <thead><tr>
                <th title="PodDisruptionBudget">{"budget"}</th>
                <th title="currentHealthy: Ready, not terminating, not just evicted">{"healthy"}</th>
                <th title="desiredHealthy">{"needs"}</th>
                <th title="disruptionsAllowed: evictions it lets through now">{"allows"}</th>
                <th title="expectedPods">{"of"}</th>
            </tr></thead>
            <tbody>
            { for step.budgets.iter().map(|b| html! {
                <tr class={classes!((b.current_healthy < b.desired_healthy).then_some("short"))}>
                    <td>{ b.key.strip_prefix("default/").unwrap_or(&b.key).to_string() }</td>
                    <td>{ b.current_healthy }</td>
                    <td>{ b.desired_healthy }</td>
                    <td>{ b.disruptions_allowed }</td>
                    <td>{ b.expected_pods }</td>
                </tr>
            }) }
            </tbody>
        </table>
    }
}

/// (Long: a component, whose markup is most of its length.)
#[function_component(StatusPanel)]
pub fn status_panel(props: &Props) -> Html {
    let tab = use_state(|| {
        if props.events {
            Tab::Events
        } else {
            Tab::Status
        }
    });
    let s = &props.run.0;
    let Some(step) = s.trace.get(props.pos) else {
        return html! {};
    };
    let now = step.t;
    let body = match *tab {
        Tab::Status => match &step.deployment {
            Some(d) => html! {
                <>
                    <table class="kv">
                        <tr><th>{"replicas"}</th><td>{ d.status.replicas }</td><th>{"updated"}</th><td>{ d.status.updated_replicas }</td></tr>
                        <tr><th>{"ready"}</th><td>{ d.status.ready_replicas }</td><th>{"available"}</th><td>{ d.status.available_replicas }</td></tr>
                        <tr><th>{"unavailable"}</th><td>{ d.status.unavailable_replicas }</td><th>{"terminating"}</th><td>{ d.status.terminating_replicas.map(|x| x.to_string()).unwrap_or_else(|| "–".into()) }</td></tr>
                        <tr><th>{"generation"}</th><td>{ d.generation }</td><th>{"observed"}</th><td>{ d.observed_generation }</td></tr>
                    </table>
                    <table class="conditions">
                        <thead><tr><th>{"Type"}</th><th>{"Status"}</th><th>{"Reason"}</th></tr></thead>
                        <tbody>
                        { for d.conditions.iter().map(|c| html! {
                            <tr title={c.message.clone()}><td>{ c.type_.clone() }</td><td>{ c.status.clone() }</td><td>{ c.reason.clone() }</td></tr>
                        }) }
                        </tbody>
                    </table>
                    { for d.conditions.iter().map(|c| html! { <p class="cond-msg"><b>{ format!("{}: ", c.type_) }</b>{ c.message.clone() }</p> }) }
                    { budgets(step) }
                </>
            },
            None => html! { <p class="muted">{"No Deployment."}</p> },
        },
        Tab::Events => {
            let evs = events_upto(&props.run, props.pos);
            html! {
                <pre class="events" tabindex="0">{ format!("{:<8}{:<20}{:<8}{:<24}{}\n", "Type", "Reason", "Age", "From", "Message") }
                    { for evs.iter().rev().take(60).map(|e| {
                        let a = if e.count > 1 { format!("{} (x{} over {})", age(now, e.last_ms), e.count, age(now, e.first_ms)) } else { age(now, e.first_ms) };
                        format!("{:<8}{:<20}{:<8}{:<24}{}  [{}]\n", e.type_, e.reason, a, e.source, e.message, e.object)
                    }) }
                </pre>
            }
        }
        Tab::Watch => {
            html! { <pre class="watch" tabindex="0">{ table::render(&s.trace[..=props.pos.min(s.len() - 1)]) }</pre> }
        }
        Tab::History => {
            let out = step
                .deployment
                .as_ref()
                .map(|d| {
                    s.read(
                        props.pos,
                        &format!("kubectl rollout history deployment/{}", d.name),
                    )
                    .unwrap_or_else(|e| e.to_string())
                })
                .unwrap_or_default();
            html! { <pre class="history" tabindex="0">{ out }</pre> }
        }
    };
    let tab_btn = |t: Tab, label: &'static str| {
        let tab = tab.clone();
        let on = *tab == t;
        html! { <button role="tab" aria-selected={on.to_string()} class={classes!(on.then_some("on"))} onclick={move |_| tab.set(t)}>{ label }</button> }
    };
    html! {
        <section class="status" aria-label="status and events">
            <div class="tabs" role="tablist">
                { tab_btn(Tab::Status, "Status") }
                { tab_btn(Tab::Events, "Events") }
                { tab_btn(Tab::Watch, "get rs -w") }
                { tab_btn(Tab::History, "History") }
            </div>
            { body }
        </section>
    }
}
