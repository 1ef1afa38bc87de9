//! The Code view: the current sync's path through upstream's code. Each call links to its
//! lines upstream, with the numbers it decided beside it and, inside `syncDeployment`, the
//! rungs of its ladder. "Step into" walks the sync's writes one at a time, lighting the call
//! that made each one; "Step back a write" walks them backwards.

use super::handles::Run;
use crate::api::StrategyType;
use crate::cluster::trace::SyncStep;
use crate::controller::deployment::Branch;
use crate::scenario::code::{self, CodeRow};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Run,
    pub pos: usize,
}

/// The sync the view shows: the current step when it is one, else the latest before it.
fn shown(run: &Run, pos: usize) -> Option<(usize, u64, &SyncStep)> {
    let s = &run.0;
    let upto = (pos + 1).min(s.len());
    s.trace[..upto]
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, t)| Some((i, t.t, t.sync().filter(|y| !y.calls.is_empty())?)))
}

/// `syncDeployment`'s rungs as the sync went down them.
fn ladder(t: &SyncStep) -> Html {
    let Some(l) = &t.ladder else {
        return Html::default();
    };
    let rungs = l.checked.iter().map(|r| {
        let fired = r.branch == l.fired;
        html! {
            <li class={classes!("code-rung", fired.then_some("fired"))}>
                <span class="rung-name">{ r.branch.as_str() }</span>{ " " }
                <span>{ if fired { format!("fired: {}", r.found) } else { r.found.clone() } }</span>
            </li>
        }
    });
    let rollout = (l.fired == Branch::Rollout).then(|| {
        html! {
            <li class="code-rung fired">
                <span class="rung-name">{"rollout"}</span>{ " " }
                <span>{ format!("fired: {}", t.strategy.map_or("", StrategyType::as_str)) }</span>
            </li>
        }
    });
    html! {
        <ol class="code-ladder" aria-label="syncDeployment's ladder">
            { for rungs }
            { rollout.unwrap_or_default() }
        </ol>
    }
}

fn row(t: &SyncStep, i: usize, r: &CodeRow, active: bool) -> Html {
    // The ladder drawn above says what syncDeployment's first line says in words.
    let said = (r.func == "syncDeployment")
        .then(|| t.ladder.as_ref()?.checked.first().map(|c| c.found.as_str()))
        .flatten();
    let mut explain = r
        .explain
        .iter()
        .filter(|e| said.is_none_or(|f| !e.starts_with(f)))
        .peekable();
    let name = match &r.url {
        Some(url) => html! {
            <a href={url.clone()} target="_blank" rel="noopener noreferrer"
                title={format!("{} on GitHub", r.place_text())}><code>{ r.func }</code></a>
        },
        None => html! { <code>{ r.func }</code> },
    };
    html! {
        <li class={classes!("call", active.then_some("active"))} data-fn={r.func}
            style={format!("--depth: {}", r.depth)} aria-current={active.then_some("true")}>
            <div class="call-head">
                { name }
                <span class="call-place">{ r.place_text() }</span>
            </div>
            if r.func == "syncDeployment" { { ladder(t) } }
            if explain.peek().is_some() {
                <ul class="call-explain">
                    { for explain.map(|e| html! { <li>{ e.clone() }</li> }) }
                </ul>
            }
            if !r.writes.is_empty() {
                <ul class="call-writes" aria-label={format!("writes of call {}", i + 1)}>
                    { for r.writes.iter().map(|&w| html! {
                        <li><span class="write-verb">{"writes "}</span>{ code::write_text(&t.writes[w]) }</li>
                    }) }
                </ul>
            }
        </li>
    }
}

#[function_component(CodeView)]
pub fn code_view(props: &Props) -> Html {
    // The write stepped into, with the step it belongs to (another step starts afresh).
    let into = use_state(|| None::<(usize, usize)>);
    // Shown when asked: its rows are many elements to redraw at every step.
    let open = use_state(|| false);
    let head = super::machinery::toggle("The code", "code-body", &open);
    if !*open {
        return html! { <section class="code-view" aria-label="Code view">{ head }</section> };
    }
    let Some((idx, at_ms, t)) = shown(&props.run, props.pos) else {
        return html! {
            <section class="code-view" aria-label="Code view">
                { head }
                <p class="muted" id="code-body">{"No sync yet: step forward or play."}</p>
            </section>
        };
    };
    let release = props.run.0.scenario.world.kubernetes;
    let (rows, loose) = code::code_rows_at(t, release);
    let at = into.and_then(|(step, w)| (step == idx && w < t.writes.len()).then_some(w));
    let active = at.map(|w| usize::from(t.writes[w].call));
    let n = t.writes.len();
    let go = |to: Option<usize>| {
        let into = into.clone();
        Callback::from(move |_: MouseEvent| into.set(to.map(|w| (idx, w))))
    };
    let next = match at {
        None if n > 0 => Some(0),
        Some(w) if w + 1 < n => Some(w + 1),
        _ => None,
    };
    let back = at.and_then(|w| w.checked_sub(1));
    let controller = t.controller.as_str();
    html! {
        <section class="code-view" aria-label="Code view">
            { head }
            <div id="code-body">
            <h3 class="code-title">{ format!("{controller} sync {}", t.key) }</h3>
            <p class="muted">{ format!("at {:.1}s, step {}; {}", at_ms as f64 / 1000.0, idx + 1, code::release_text(release)) }</p>
            if let Some(c) = &t.cause {
                <p class="cause">{ format!("Why it ran: {}.", crate::scenario::table::cause_text(c)) }</p>
            }
            <div class="code-steps" role="group" aria-label="Step through the writes">
                <button disabled={next.is_none()} onclick={go(next)}>{"Step into"}</button>
                <button disabled={at.is_none()} onclick={go(back)}>{"Step back a write"}</button>
                <span class="muted" aria-live="polite">{ match at {
                    Some(w) => format!("write {} of {n}: {}, by {}", w + 1, code::write_text(&t.writes[w]),
                        rows.get(usize::from(t.writes[w].call)).map_or("?", |r| r.func)),
                    None if n == 0 => "This sync wrote nothing.".to_string(),
                    None => format!("{n} write{}: step into them one by one.", if n == 1 { "" } else { "s" }),
                } }</span>
            </div>
            <ol class="calls">
                { for rows.iter().enumerate().map(|(i, r)| row(t, i, r, active == Some(i))) }
            </ol>
            if !loose.is_empty() {
                <ul class="explain">
                    { for loose.iter().map(|(f, e)| html! {
                        <li><code class="fn">{ f.clone() }</code>{ " " }<span>{ e.clone() }</span></li>
                    }) }
                </ul>
            }
            </div>
        </section>
    }
}
