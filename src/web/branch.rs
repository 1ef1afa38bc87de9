//! The branch panel: `syncDeployment`'s ladder (delete > pause > rollback > scale > rollout,
//! with RollingUpdate / Recreate under rollout) drawn as a flow. For the Deployment sync the
//! step shows (the latest at or before it, or, in a command's instant, the sync the command
//! caused: `Session::shown_sync`), the branch that fired lights up, the checks before it say
//! why they were passed over, and the sync's explain lines give the formulas with their
//! numbers. In a command's instant the panel also lists every sync the command set off.

use super::handles::Run;
use crate::api::StrategyType;
use crate::cluster::trace::TraceStep;
use crate::controller::deployment::Branch;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Run,
    pub pos: usize,
    /// Go to a step (a sync in the list).
    pub on_seek: Callback<usize>,
    /// Before the first step (predict mode asking what the first sync does): no sync yet.
    #[prop_or_default]
    pub before: bool,
}

/// The sync the panel shows at the current step (none before the first step):
/// `Session::shown_sync`.
fn shown(props: &Props) -> Option<(usize, &TraceStep)> {
    if props.before {
        return None;
    }
    let s = &props.run.0;
    s.shown_sync(props.pos).map(|i| (i, &*s.trace[i]))
}

/// The syncs of the Deployment on screen up to step `pos` (other Deployments' syncs are
/// theirs), oldest first.
fn syncs_upto(props: &Props) -> Vec<(usize, &TraceStep)> {
    let s = &props.run.0;
    let upto = if props.before {
        0
    } else {
        (props.pos + 1).min(s.len())
    };
    s.trace[..upto]
        .iter()
        .enumerate()
        .filter(|(i, _)| s.is_focus_sync(*i))
        .map(|(i, step)| (i, &**step))
        .collect()
}

/// The branch of a sync in words: `rollout (RollingUpdate)`.
fn branch_words(t: &TraceStep) -> String {
    let b = t.branch().map_or("?", Branch::as_str);
    match t.strategy().filter(|_| t.branch() == Some(Branch::Rollout)) {
        Some(st) => format!("{b} ({st})"),
        None => b.to_string(),
    }
}

/// The current sync in one line: `syncDeployment: rollout (RollingUpdate) at 3.0s`.
fn summary_line(cur: &TraceStep) -> String {
    format!(
        "syncDeployment: {} at {:.1}s",
        branch_words(cur),
        cur.t as f64 / 1000.0
    )
}

/// The branch panel of an embed: whole in a frame wide enough for it, folded into its one-line
/// summary in a narrow one (as the main page does on a phone), opened by a click or Enter.
#[function_component(EmbedBranch)]
pub fn embed_branch(props: &Props) -> Html {
    let narrow = super::bindings::use_media("(max-width: 640px)");
    let panel = html! { <BranchPanel run={props.run.clone()} pos={props.pos} on_seek={props.on_seek.clone()} before={props.before} /> };
    if !narrow {
        return panel;
    }
    let line = shown(props).map_or_else(
        || "syncDeployment: no sync yet".to_string(),
        |(_, cur)| summary_line(cur),
    );
    html! {
        <details class="branch-fold">
            <summary>{ line }</summary>
            { panel }
        </details>
    }
}

/// On a phone, the current sync's branch and its explanation right under the controls (the
/// full panel is further down the page).
#[function_component(BranchDrawer)]
pub fn branch_drawer(props: &Props) -> Html {
    let Some((_, cur)) = shown(props) else {
        return html! {};
    };
    html! {
        <details class="branch-drawer">
            <summary>{ summary_line(cur) }</summary>
            <ul class="explain">
                { for cur.explain().iter().map(|e| html! {
                    <li><code class="fn">{ e.func.clone() }</code>{ " " }<span>{ e.text.clone() }</span></li>
                }) }
            </ul>
        </details>
    }
}

/// The branch panel. (Long: a component, whose markup is most of its length.)
#[function_component(BranchPanel)]
pub fn branch_panel(props: &Props) -> Html {
    let on_seek = &props.on_seek;
    let syncs = syncs_upto(props);
    let Some((idx, cur)) = shown(props) else {
        return html! {
            <section class="branch-panel" aria-label="syncDeployment branch">
                <h2>{"syncDeployment"}</h2>
                <p class="muted">{"No Deployment sync yet: step forward or play."}</p>
            </section>
        };
    };
    let fired = cur.branch().unwrap_or(Branch::NotFound);
    let ladder = cur.sync().and_then(|y| y.ladder.as_ref());
    let rungs = Branch::LADDER.iter().map(|&b| {
        let passed = ladder.and_then(|l| l.passed_over(b));
        let (state, why, said) = match passed {
            _ if b == fired => ("fired", b.does(), "fired"),
            Some(found) => ("skipped", found, "passed over"),
            None => ("unreached", "", "not reached"),
        };
        let sub = (b == Branch::Rollout).then(|| {
            let strat = cur.strategy();
            html! {
                <div class="sub">
                    { for StrategyType::ALL.into_iter().map(|x| html! {
                        <span class={classes!("substrategy", (state == "fired" && strat == Some(x)).then_some("fired"))}>{ x.as_str() }</span>
                    }) }
                </div>
            }
        });
        html! {
            <li class={classes!("rung", state)} data-branch={b.as_str()} aria-current={(state == "fired").then_some("step")}>
                <span class="rung-name">{ b.as_str() }<span class="rung-state">{ said }</span></span>
                <span class="rung-check">{ b.check() }</span>
                if !why.is_empty() { <span class="rung-why">{ why }</span> }
                { sub.unwrap_or_default() }
            </li>
        }
    });
    let special = match fired {
        Branch::NotFound => Some("The Deployment is gone: nothing to do."),
        Branch::SelectAll => Some("An empty selector would select every pod: the sync stops here."),
        _ => None,
    };
    let recent = syncs.iter().rev().take(12).map(|&(i, t)| {
        let label = format!("{:>6.1}s  {}", t.t as f64 / 1000.0, branch_words(t));
        html! { <li>{ sync_link(i, label, i == idx, on_seek) }</li> }
    });
    html! {
        <section class="branch-panel" aria-label="syncDeployment branch">
            <h2>{ format!("syncDeployment {}", cur.key().unwrap_or_default()) }</h2>
            <p class="muted">{ format!("at {:.1}s, step {}{}", cur.t as f64 / 1000.0, idx + 1,
                if idx == props.pos { String::new() } else { format!(" (now at step {})", props.pos + 1) }) }</p>
            if let Some(m) = special { <p class="warn">{ m }</p> }
            if let Some(c) = cur.sync().and_then(|y| y.cause.as_ref()) {
                <p class="cause">{ format!("Why it ran: {}.", crate::scenario::table::cause_text(c)) }</p>
            }
            <ol class="ladder">{ for rungs }</ol>
            <h3>{"Why, with the numbers"}</h3>
            <ul class="explain">
                { for cur.explain().iter().map(|e| html! {
                    <li><code class="fn">{ e.func.clone() }</code>{ " " }<span>{ e.text.clone() }</span></li>
                }) }
            </ul>
            if let Some(err) = cur.error() {
                // The optimistic-concurrency conflict is routine (the sync is retried at
                // once): muted, with why, not a red error.
                if let Some(note) = crate::scenario::learn::routine_error(err) {
                    <div class="routine" role="note">
                        <p><span class="routine-tag">{"routine conflict"}</span>{ format!(" {err}") }</p>
                        <p>{ note }</p>
                    </div>
                } else {
                    <p class="error">{ format!("error: {err}") }</p>
                }
            }
            <h3>{"Recent syncs"}</h3>
            <ol class="recent">{ for recent }</ol>
            // Last in the panel: the list comes and goes as the timeline passes commands, and
            // nothing of the panel moves for it.
            { command_syncs(props, idx, on_seek) }
        </section>
    }
}

/// In a command's instant: the command, and every sync of the followed Deployment it set off
/// in that instant, each with its branch and what it wrote, a link to its step; the one the
/// ladder shows is marked.
fn command_syncs(props: &Props, shown: usize, on_seek: &Callback<usize>) -> Html {
    let s = &props.run.0;
    let Some(c) = s.command_syncs(props.pos).filter(|c| !c.syncs.is_empty()) else {
        return html! {};
    };
    let whose = if s.is_typed(c.command) {
        "Your command"
    } else {
        "The scenario's command"
    };
    let cmd = s.trace[c.command].command().unwrap_or_default();
    let items = c.syncs.iter().enumerate().map(|(k, &i)| {
        let t = &s.trace[i];
        let role = if k == 0 { " (the sync it caused)" } else { "" };
        let label = format!("{} at step {}", branch_words(t), i + 1);
        html! {
            <li>{ sync_link(i, label, i == shown, on_seek) }
                { format!(": {}{role}", crate::scenario::answer::wrote(t)) }</li>
        }
    });
    html! {
        <div class="command-syncs" role="note" data-command-step={(c.command + 1).to_string()}>
            <p>{ format!("{whose} (step {}): ", c.command + 1) }<code>{ cmd }</code>
                { format!(" set off {} sync{} in its instant:", c.syncs.len(), if c.syncs.len() == 1 { "" } else { "s" }) }</p>
            <ol>{ for items }</ol>
        </div>
    }
}

/// A sync in one of the panel's lists: a button that goes to its step (`current`: the sync
/// the ladder shows).
fn sync_link(i: usize, label: String, current: bool, on_seek: &Callback<usize>) -> Html {
    let d = on_seek.clone();
    html! {
        <button class={classes!(current.then_some("current"))} onclick={move |_| d.emit(i)}
            title={format!("Go to step {}", i + 1)} aria-current={current.then_some("step")}>
            { label }
        </button>
    }
}
