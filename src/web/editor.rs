//! The spec editor: the Deployment as YAML with line numbers and colouring, each apiserver
//! error at its line, and quick controls that read from and write into the text. Applying runs
//! `kubectl apply` at the current step; an invalid manifest is never applied and never lost.

use super::bindings;
use super::state::EditorAction;
use crate::scenario::quick::{Field, Problem};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub text: String,
    pub problems: Rc<Vec<Problem>>,
    /// The text is a cluster's state: what "Start from my manifest" will do with it.
    pub state: Option<Rc<str>>,
    /// The quick controls' values, read from the text when it was last checked.
    pub values: Rc<Option<super::state::editor::QuickValues>>,
    /// Whether the problems are of the text as it stands (else it is checked once the typing
    /// stops).
    pub checked: bool,
    /// Every field shown, the defaulted ones too.
    pub full: bool,
    /// The text is the Deployment at the current step (not the reader's).
    pub following: bool,
    /// What an Apply held back would revert.
    pub pending: Option<Rc<Vec<String>>>,
    /// Everything the panel asks for.
    pub on: Callback<EditorAction>,
}

/// One line of YAML as coloured spans.
fn highlight(line: &str) -> Html {
    let indent_len = line.len() - line.trim_start().len();
    let (indent, rest) = line.split_at(indent_len);
    if rest.starts_with('#') {
        return html! { <>{ indent }<span class="y-comment">{ rest }</span></> };
    }
    let (dash, body) = match rest.strip_prefix("- ") {
        Some(b) => ("- ", b),
        None if rest == "-" => ("-", ""),
        None => ("", rest),
    };
    let (key, value) = match body
        .find(": ")
        .or_else(|| body.ends_with(':').then(|| body.len() - 1))
    {
        Some(i) if !body.starts_with('"') && !body.starts_with('{') => (&body[..i], &body[i..]),
        _ => ("", body),
    };
    let value_html = |v: &str| {
        let (colon, v) = match v.strip_prefix(':') {
            Some(r) => (":", r),
            None => ("", v),
        };
        let t = v.trim();
        let class = if t.is_empty() || t == "|" || t == ">" {
            "y-plain"
        } else if t.starts_with('"') || t.starts_with('\'') {
            "y-string"
        } else if t.parse::<f64>().is_ok()
            || t.ends_with('%') && t[..t.len() - 1].parse::<f64>().is_ok()
        {
            "y-number"
        } else if matches!(t, "true" | "false" | "null" | "~") {
            "y-bool"
        } else {
            "y-string"
        };
        html! { <>{ colon }<span class={class}>{ v }</span></> }
    };
    html! {
        <>
            { indent }
            if !dash.is_empty() { <span class="y-dash">{ dash }</span> }
            if !key.is_empty() { <span class="y-key">{ key }</span> }
            { value_html(value) }
        </>
    }
}

/// A line's height in the editor (`.stack .hl` and `.gutter` in style.css), and its padding.
const LINE_PX: f64 = 18.0;
const PAD_PX: usize = 6;
/// Lines the editor's box shows at once (its `max-height`, 460 px) and those highlighted
/// beyond them on either side, so that a scroll shows coloured text before it re-renders.
const SHOWN_LINES: usize = 26;
const SPARE_LINES: usize = 60;
/// Real time after the last keystroke before a long text is checked.
const CHECK_AFTER_MS: u32 = 300;

/// Where each line of the text starts, and the longest line's length in characters.
#[derive(PartialEq)]
struct Lines {
    starts: Vec<usize>,
    widest: usize,
}

impl Lines {
    fn of(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let widest = text.split('\n').map(|l| l.chars().count()).max();
        Lines {
            starts,
            widest: widest.unwrap_or(0),
        }
    }

    fn line<'t>(&self, text: &'t str, i: usize) -> &'t str {
        let start = self.starts[i];
        let end = self.starts.get(i + 1).map_or(text.len(), |e| e - 1);
        &text[start..end]
    }
}

/// What the text's box shows: the text's lines, the first and the end of those drawn, their
/// paddings (the lines not drawn, as space), and the box's scroll handler. Only the lines in and
/// near the box's view are drawn (a pasted state of 18 000 lines renders as few as the default
/// manifest); a long text is checked once the typing stops.
struct TextView {
    lines: Rc<Lines>,
    first: usize,
    last: usize,
    gutter_pad: String,
    hl_style: String,
    onscroll: Callback<Event>,
}

#[hook]
fn use_text_view(props: &Props) -> TextView {
    let lines = use_memo(props.text.clone(), |t| Lines::of(t));
    let n = lines.starts.len();
    // The first line in view, from the box's scroll position.
    let top = use_state(|| 0usize);
    let onscroll = {
        let top = top.clone();
        Callback::from(move |e: Event| {
            let y = bindings::scroll_top(&e);
            let line = ((y - PAD_PX as f64).max(0.0) / LINE_PX) as usize;
            // Re-rendered only once the view has moved a good part of the spare lines.
            if line.abs_diff(*top) >= SPARE_LINES / 3 {
                top.set(line);
            }
        })
    };
    let first = top.saturating_sub(SPARE_LINES).min(n);
    let last = (*top + SHOWN_LINES + SPARE_LINES).min(n);
    let pad = |before: usize, after: usize| {
        format!(
            "padding-top: {}px; padding-bottom: {}px;",
            PAD_PX + before * LINE_PX as usize,
            PAD_PX + after * LINE_PX as usize
        )
    };
    let (gutter_pad, hl_style) = (
        pad(first, n - last),
        format!(
            "{} min-width: calc({}ch + 16px);",
            pad(first, n - last),
            lines.widest
        ),
    );
    {
        let on = props.on.clone();
        // (The text's lines, memoised by the text, stand for it: a new text is a new `Lines`.)
        let text = Rc::as_ptr(&lines) as usize;
        use_effect_with((text, props.checked), move |(_, checked)| {
            let pending = (!*checked).then(|| {
                gloo::timers::callback::Timeout::new(CHECK_AFTER_MS, move || {
                    on.emit(EditorAction::Check)
                })
            });
            move || drop(pending)
        });
    }
    TextView {
        lines,
        first,
        last,
        gutter_pad,
        hl_style,
        onscroll,
    }
}

/// The manifest editor: quick controls, the text with its problems at their lines
/// ([`use_text_view`]), Apply. (Long: a component, whose markup is most of its length.)
#[function_component(EditorPanel)]
pub fn editor_panel(props: &Props) -> Html {
    let view = use_text_view(props);
    let bad: Vec<usize> = props.problems.iter().filter_map(|p| p.line).collect();
    let values = props.values.clone();
    let d = props.on.clone();
    let oninput = Callback::from(move |e: InputEvent| {
        d.emit(EditorAction::Changed(bindings::select_value(&e)));
    });
    let d = props.on.clone();
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
            e.prevent_default();
            d.emit(EditorAction::Apply);
        }
    });
    let quick_controls = values.as_ref().as_ref().map(|vals| {
        html! {
            <div class="quick" aria-label="quick controls">
                { for vals.iter().map(|(f, v)| {
                    let f = *f;
                    let d = props.on.clone();
                    let current = v.clone().unwrap_or_default();
                    let placeholder = f.default_value();
                    match f {
                        Field::Strategy => {
                            let onchange = Callback::from(move |e: Event| d.emit(EditorAction::Quick(f, bindings::select_value(&e))));
                            let cur = if current.is_empty() { crate::api::ROLLING_UPDATE.to_string() } else { current };
                            html! { <label><span>{ f.label() }</span>
                                <select aria-label={f.label()} {onchange}>
                                    { for crate::api::StrategyType::ALL.map(|x| x.as_str()).into_iter().map(|x| html! { <option value={x} selected={cur == x}>{ x }</option> }) }
                                </select></label> }
                        }
                        Field::Paused => {
                            let onchange = Callback::from(move |e: Event| d.emit(EditorAction::Quick(f, bindings::select_value(&e))));
                            html! { <label class="check"><input type="checkbox" aria-label="paused" checked={current == "true"} {onchange} /><span>{"paused"}</span></label> }
                        }
                        _ => {
                            let onchange = Callback::from(move |e: Event| d.emit(EditorAction::Quick(f, bindings::select_value(&e))));
                            html! { <label class={classes!((f == Field::Image).then_some("wide"))}><span>{ f.label() }</span>
                                <input type="text" aria-label={f.label()} value={current} placeholder={placeholder} {onchange} /></label> }
                        }
                    }
                }) }
            </div>
        }
    });
    let d = props.on.clone();
    let load = {
        let d = props.on.clone();
        move |_| d.emit(EditorAction::LoadCurrentSpec)
    };
    let full = {
        let d = props.on.clone();
        Callback::from(move |_: Event| d.emit(EditorAction::ToggleFullSpec))
    };
    let start = {
        let d = props.on.clone();
        move |_| d.emit(EditorAction::StartFromManifest)
    };
    let revert = props.pending.as_ref().map(|list| {
        let (yes, no, load) = (props.on.clone(), props.on.clone(), props.on.clone());
        html! {
            <div class="revert" role="alertdialog" aria-labelledby="revert-title">
                <p id="revert-title">{"Applying this text would undo changes made since you loaded it:"}</p>
                <ul>{ for list.iter().map(|r| html! { <li><code>{ r.clone() }</code></li> }) }</ul>
                <div class="revert-actions">
                    <button class="primary" onclick={move |_| yes.emit(EditorAction::ApplyAnyway)}>{"Apply anyway"}</button>
                    <button onclick={move |_| no.emit(EditorAction::CancelApply)}>{"Keep editing"}</button>
                    <button onclick={move |_| load.emit(EditorAction::LoadCurrentSpec)}>{"Load the current spec"}</button>
                </div>
            </div>
        }
    });
    html! {
        <section class="editor" aria-label="Deployment manifest">
            <div class="editor-head">
                <h2>{"deployment.yaml"}</h2>
                <button aria-label="Current spec: load the Deployment as it stands at this step" title="Load the Deployment as it stands at this step" onclick={load}>{"Current spec"}</button>
                <button class="primary" aria-label="Apply manifest" title="kubectl apply (Ctrl+Enter)" onclick={move |_| d.emit(EditorAction::Apply)}>{"Apply"}</button>
            </div>
            <div class="editor-tools">
                <span class="muted">{ if props.following { "Follows the timeline" } else { "Your text: kept as you left it" } }</span>
                <label class="check" title="Also show the fields the apiserver defaulted"><input type="checkbox" aria-label="Show defaulted fields" checked={props.full} onchange={full} /><span>{"defaults"}</span></label>
                <button aria-label="Start from my manifest" title="A new, empty cluster with only these objects" onclick={start}>{"Start from my manifest"}</button>
            </div>
            { revert.unwrap_or_default() }
            { quick_controls.unwrap_or_default() }
            <div class="code" onscroll={view.onscroll.clone()}>
                <div class="gutter" aria-hidden="true" style={view.gutter_pad.clone()}>
                    { for (view.first + 1..=view.last).map(|n| html! { <div class={classes!(bad.contains(&n).then_some("bad"))}>{ n }</div> }) }
                </div>
                <div class="stack">
                    <pre class="hl" aria-hidden="true" style={view.hl_style.clone()}>{ for (view.first..view.last).map(|i| html! {
                        <div class={classes!("ln", bad.contains(&(i + 1)).then_some("bad"))}>{ highlight(view.lines.line(&props.text, i)) }{ "\u{200b}" }</div>
                    }) }</pre>
                    <textarea id="manifest" aria-label="Manifest YAML" spellcheck="false" autocapitalize="off"
                        rows={(view.lines.starts.len() + 1).to_string()} value={props.text.clone()} {oninput} {onkeydown} />
                </div>
            </div>
            if let Some(note) = &props.state {
                <p class="state-note" role="note">{ note.to_string() }</p>
            }
            if !props.problems.is_empty() {
                <ul class="problems" role="alert" aria-label="manifest errors">
                    { for props.problems.iter().map(|p| html! {
                        <li>
                            if let Some(l) = p.line { <span class="at">{ format!("line {l}") }</span> }
                            if let Some(f) = &p.field { <code class="field">{ f.clone() }</code> }
                            <span>{ p.message.clone() }</span>
                        </li>
                    }) }
                </ul>
            }
        </section>
    }
}
