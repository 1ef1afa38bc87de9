//! Learn mode: the question card of predict mode (the branch and the sizes the reader expects
//! from the next Deployment sync), the answer checked and explained, the score at the end; and
//! the guarantees panel, which checks the Deployment's guarantees at the current step.

use super::bindings;
use super::handles::{Dispatch, Run};
use super::state::{Action, Guess, Mode, Model};
use super::state::{Answer, PlaybackAction};
use crate::api::StrategyType;
use crate::controller::deployment::Branch;
use crate::scenario::guarantees::{self, Kind, State};
use crate::scenario::learn::{self, Verdict};
use crate::scenario::summary::secs;
use yew::prelude::*;

/// The question, the answer revealed, or the score at the end (nothing outside predict mode).
pub fn predict_card(model: &Model, dispatch: &Dispatch) -> Html {
    if !matches!(model.mode(), Mode::Predict) {
        return html! {};
    }
    if let Some(q) = model.predict.asking {
        return question(model, dispatch, q, &model.predict.guess);
    }
    if let Some(v) = model
        .predict
        .revealed
        .and_then(|q| model.predict.verdicts.get(&q))
    {
        return revealed(model, dispatch, v);
    }
    if model.play.pos >= model.last() {
        return score(model, dispatch);
    }
    // The card says what playback is doing, and what comes next.
    let n = model.predict.questions.len();
    let pos = model.play.pos;
    let left = model.predict.questions.iter().filter(|&&q| q > pos).count();
    let text = if model.play.playing {
        format!("Predict mode: playing; it stops before the next of the {left} questions left.")
    } else if pos == 0 {
        format!(
            "Predict mode: playback stops before each of the {n} Deployment syncs that change something. Press ▶ to start."
        )
    } else {
        format!(
            "Predict mode: paused at t = {}; {left} of {n} questions are still ahead. Press ▶ to go on.",
            secs(model.session.trace[pos].t)
        )
    };
    html! {
        <section class="predict idle" aria-label="Predict mode">
            <p>{ text }</p>
        </section>
    }
}

fn question(model: &Model, dispatch: &Dispatch, q: usize, g: &Guess) -> Html {
    let s = &model.session;
    let found = learn::before(s, q);
    let t = s.trace[q].t;
    let d = dispatch.clone();
    let onsubmit = Callback::from(move |e: SubmitEvent| {
        e.prevent_default();
        d.dispatch(Action::Reveal);
    });
    let number = |k: Option<usize>, label: String, value: String, placeholder: &'static str| {
        let d = dispatch.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let v = bindings::select_value(&e);
            d.dispatch(match k {
                Some(k) => Action::Answer(Answer::Size(k, v)),
                None => Action::Answer(Answer::NewReplicaSet(v)),
            })
        });
        html! {
            <label class="size">
                <span>{ label }</span>
                <input type="number" min="0" inputmode="numeric" {value} {placeholder} {oninput} />
            </label>
        }
    };
    html! {
        <section class="predict asking" id="predict-question" tabindex="-1" aria-labelledby="predict-heading">
            <FocusOnQuestion {q} />
            <form {onsubmit}>
                <h2 id="predict-heading">{ if model.before_first() {
                    let name = s.trace[q].key().unwrap_or("the Deployment").to_string();
                    format!("Predict: {name} has just been created, with no ReplicaSet. What does its first sync do (t = {})?", secs(t))
                } else {
                    format!("Predict: what does the next Deployment sync do (t = {})?", secs(t))
                } }</h2>
                <fieldset class="branches">
                    <legend>{"Which branch of syncDeployment fires? (keys 1–5)"}</legend>
                    { for learn::CHOICES.iter().enumerate().map(|(k, b)| {
                        let (d, b) = (dispatch.clone(), *b);
                        html! {
                            <label class={classes!("choice", (g.branch == Some(b)).then_some("on"))}>
                                <input type="radio" name="branch" checked={g.branch == Some(b)} onchange={move |_| d.dispatch(Action::Answer(Answer::Branch(b)))} />
                                { format!("{} {}", k + 1, b.as_str()) }
                            </label>
                        }
                    }) }
                </fieldset>
                if g.branch == Some(Branch::Rollout) {
                    <fieldset class="branches">
                        <legend>{"With which strategy?"}</legend>
                        { for StrategyType::ALL.into_iter().map(|st| {
                            let d = dispatch.clone();
                            let on = g.strategy == Some(st);
                            html! {
                                <label class={classes!("choice", on.then_some("on"))}>
                                    <input type="radio" name="strategy" checked={on} onchange={move |_| d.dispatch(Action::Answer(Answer::Strategy(st)))} />
                                    { st.as_str() }
                                </label>
                            }
                        }) }
                    </fieldset>
                }
                <fieldset class="sizes">
                    <legend>{ if found.is_empty() {
                        "No ReplicaSet exists yet: the size (spec.replicas) of the one the sync creates, if it creates one"
                    } else {
                        "Each ReplicaSet's size (spec.replicas) after the sync"
                    } }</legend>
                    { for found.iter().enumerate().map(|(k, (name, rev, _))| {
                        number(Some(k), format!("rev {rev} {name}"), g.sizes.get(k).cloned().unwrap_or_default(), "0")
                    }) }
                    { number(None, "a new ReplicaSet (empty: none is created)".into(), g.new_replica_set.clone(), "none") }
                </fieldset>
                <button type="submit" class="primary">{"Reveal (Enter)"}</button>
            </form>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct FocusProps {
    q: usize,
}

/// Moves the focus to a question when it opens (a screen reader reads its heading), once per
/// question: typing an answer keeps the focus where it is.
#[function_component(FocusOnQuestion)]
fn focus_on_question(props: &FocusProps) -> Html {
    use_effect_with(props.q, |_| bindings::focus_later("predict-question"));
    html! {}
}

fn mark(ok: bool) -> Html {
    html! { <span class={classes!("mark", if ok { "right" } else { "wrong" })}>{ if ok { "✓ right" } else { "✗ wrong" } }</span> }
}

fn revealed(model: &Model, dispatch: &Dispatch, v: &Verdict) -> Html {
    let st = &model.session.trace[v.step];
    let taken = match &v.strategy {
        Some(s) => format!("{} ({s})", v.branch.as_str()),
        None => v.branch.as_str().to_string(),
    };
    let d = dispatch.clone();
    html! {
        <section class={classes!("predict", "revealed", if v.right() { "right" } else { "wrong" })} aria-label="The answer" aria-live="polite">
            <h2>{ if v.right() { "Right." } else { "Not quite." } }</h2>
            <p>{"Branch: "}<b>{ taken }</b>{" "}{ mark(v.branch_right) }
                if !v.branch_right {
                    { format!(" (you picked {})", match &v.picked_strategy {
                        Some(s) => format!("{} ({s})", v.picked.as_str()),
                        None => v.picked.as_str().to_string(),
                    }) }
                }
            </p>
            <table class="sizes-table">
                <thead><tr><th scope="col">{"ReplicaSet"}</th><th scope="col">{"you said"}</th><th scope="col">{"the controller"}</th><th></th></tr></thead>
                <tbody>
                    { for v.sizes.iter().map(|sz| html! {
                        <tr>
                            <th scope="row">{ sz.name.clone() }</th>
                            <td>{ sz.predicted.map_or("none".into(), |n| n.to_string()) }</td>
                            <td>{ sz.actual.map_or("none".into(), |n| n.to_string()) }</td>
                            <td>{ mark(sz.right()) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            <p class="why">{ learn::why(st) }</p>
            <p class="why numbers">{ learn::explain_sync(&model.session, v.step) }</p>
            <ul class="explain">
                { for st.explain().iter().map(|e| html! { <li><code class="fn">{ e.func.clone() }</code>{" "}{ e.text.clone() }</li> }) }
            </ul>
            { decided_by(st) }
            <button class="primary" onclick={move |_| d.dispatch(Action::Playback(PlaybackAction::Play))}>{"Continue ▶"}</button>
        </section>
    }
}

/// The upstream functions that decided the sync, each a link to its lines.
fn decided_by(st: &crate::cluster::trace::TraceStep) -> Html {
    let Some(y) = st.sync() else {
        return Html::default();
    };
    let rows = crate::scenario::code::deciding(y);
    if rows.is_empty() {
        return Html::default();
    }
    html! {
        <p class="decided-by">{"Decided in upstream's "}
            { for rows.iter().enumerate().map(|(i, r)| html! {
                <>
                    if i > 0 { {", "} }
                    if let Some(url) = &r.url {
                        <a href={url.clone()} target="_blank" rel="noopener noreferrer" title={r.place_text()}><code>{ r.func }</code></a>
                    } else {
                        <code>{ r.func }</code>
                    }
                </>
            }) }
            {"."}
        </p>
    }
}

fn score(model: &Model, dispatch: &Dispatch) -> Html {
    let right = model
        .predict
        .verdicts
        .values()
        .filter(|v| v.right())
        .count();
    let answered = model.predict.verdicts.len();
    let total = model.predict.questions.len();
    let missed: Vec<(usize, String)> = model
        .predict
        .verdicts
        .values()
        .filter(|v| !v.right())
        .map(|v| (v.step, v.missed()))
        .collect();
    html! {
        <section class="predict score" aria-label="Your score">
            <h2>{ format!("Score: {right} of {answered} right") }</h2>
            <p>{ format!("{answered} of the run's {total} questions answered.") }</p>
            if !missed.is_empty() {
                <p>{"Missed (each opens the step before that sync):"}</p>
                <ul class="missed">
                    { for missed.iter().map(|(q, what)| {
                        let (d, q) = (dispatch.clone(), *q);
                        let st = &model.session.trace[q];
                        html! { <li><button class="link" onclick={move |_| d.dispatch(Action::Playback(PlaybackAction::Seek(q.saturating_sub(1))))}>
                            { format!("t = {}: {}", secs(st.t), st.branch().map_or("", Branch::as_str)) }
                        </button>{ format!(" — {what}") }</li> }
                    }) }
                </ul>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct GuaranteesProps {
    pub run: Run,
    pub pos: usize,
    /// Go to a step (where a breach begins).
    pub on_seek: Callback<usize>,
}

/// The guarantees at the current step, and every breach of the run with its cause.
#[function_component(GuaranteesPanel)]
pub fn guarantees_panel(props: &GuaranteesProps) -> Html {
    let report = {
        let run = props.run.clone();
        use_memo(run, |run| guarantees::evaluate(&run.0))
    };
    let Some(row) = report.checks.get(props.pos) else {
        return html! {};
    };
    let icon = |st: &State| match st {
        State::Holds => ("holds", "✓"),
        State::Breached => ("breached", "✗"),
        State::NotApplicable { .. } => ("na", "–"),
    };
    html! {
        <section class="guarantees" aria-label="Guarantees">
            <h2>{"Guarantees"}</h2>
            <ul class="checks">
                { for row.iter().map(|c| {
                    let (class, sign) = icon(&c.state);
                    let state = match &c.state {
                        State::Holds => "holds".to_string(),
                        State::Breached => "does not hold".to_string(),
                        State::NotApplicable { why } => format!("not promised here: {why}"),
                    };
                    html! {
                        <li class={classes!("check", class)}>
                            <span class="sign" aria-hidden="true">{ sign }</span>
                            <span class="title">{ c.kind.title() }</span>
                            <span class="sr-only">{ format!(": {state}") }</span>
                            if !c.numbers.is_empty() && !matches!(c.state, State::NotApplicable { .. }) {
                                <span class="numbers">{ c.numbers.to_string() }</span>
                            }
                            if let State::NotApplicable { why } = &c.state {
                                <span class="numbers muted">{ *why }</span>
                            }
                        </li>
                    }
                }) }
            </ul>
            if !report.breaches.is_empty() {
                <h3>{"Breaches in this run"}</h3>
                <ul class="breaches">
                    { for report.breaches.iter().map(|b| {
                        let (d, from) = (props.on_seek.clone(), b.from_step);
                        html! {
                            <li class={classes!(if b.expected.is_some() { "expected" } else { "unexpected" })}>
                                <button class="link" onclick={move |_| d.emit(from)}>
                                    { format!("{} from t = {} (step {})", short(b.kind), secs(b.from_ms), b.from_step + 1) }
                                </button>
                                <span>{ format!(": {}. ", b.numbers) }</span>
                                <span>{ match &b.expected {
                                    Some(why) => format!("Expected: {why}."),
                                    None => "Unexpected: upstream keeps this guarantee here.".into(),
                                } }</span>
                            </li>
                        }
                    }) }
                </ul>
            }
        </section>
    }
}

fn short(k: Kind) -> &'static str {
    match k {
        Kind::Ceiling => "Ceiling",
        Kind::Floor => "Floor",
        Kind::NoOverlap => "Recreate overlap",
        Kind::RevisionsGrow => "Revisions",
        Kind::HistoryLimit => "History limit",
        Kind::Settled => "Settled world",
        Kind::Budget => "Disruption budget",
        Kind::Requests => "Requests",
    }
}
