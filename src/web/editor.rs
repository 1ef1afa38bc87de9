//! The spec editor: the Deployment as YAML with line numbers and colouring, each apiserver
//! error at its line, and quick controls that read from and write into the text. Applying runs
//! `kubectl apply` at the current step; an invalid manifest is never applied and never lost.

use super::bindings;
use super::state::EditorAction;
use crate::scenario::quick::{Field, Problem};
use std::cell::RefCell;
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

/// Real time after the last keystroke before a long text is checked.
const CHECK_AFTER_MS: u32 = 300;

/// The text's box ([`bindings::TextBox`], made once the panel is in the page), kept showing the
/// page's text and the lines its problems name; and the check of a long text once the typing
/// stops, off the page's thread ([`bindings::check_text`]). The box lays out only the lines in
/// view, so a pasted state of 18 000 lines costs as little to show and to type into as the
/// default manifest. If the box's script did not load, why.
#[hook]
fn use_text_box(props: &Props, bad: &[u32]) -> (NodeRef, Rc<RefCell<Result<(), String>>>) {
    let host = use_node_ref();
    let text_box = use_mut_ref(|| None::<bindings::TextBox>);
    let failed = use_mut_ref(|| Ok(()));
    let redraw = use_force_update();
    {
        let (host, text_box, failed) = (host.clone(), text_box.clone(), failed.clone());
        let (text, on) = (props.text.clone(), props.on.clone());
        use_effect_with((), move |_| {
            if let Some(el) = host.cast::<web_sys::Element>() {
                let apply = on.reform(|()| EditorAction::Apply);
                let made = bindings::TextBox::new(
                    &el,
                    &text,
                    "Manifest YAML",
                    on.reform(EditorAction::Changed),
                    apply,
                );
                match made {
                    Ok(b) => *text_box.borrow_mut() = Some(b),
                    Err(e) => {
                        *failed.borrow_mut() = Err(e);
                        redraw.force_update();
                    }
                }
            }
            move || drop(text_box.borrow_mut().take())
        });
    }
    if let Some(b) = text_box.borrow().as_ref() {
        b.show(&props.text, bad);
    }
    {
        let on = props.on.clone();
        use_effect_with(
            (props.text.clone(), props.checked),
            move |(text, checked)| {
                let text = text.clone();
                let pending = (!*checked).then(|| {
                    gloo::timers::callback::Timeout::new(CHECK_AFTER_MS, move || {
                        bindings::check_text(text, on)
                    })
                });
                move || drop(pending)
            },
        );
    }
    (host, failed)
}

/// The manifest editor: quick controls, the text with its problems at their lines
/// ([`use_text_box`]), Apply. (Long: a component, whose markup is most of its length.)
#[function_component(EditorPanel)]
pub fn editor_panel(props: &Props) -> Html {
    let bad: Vec<u32> = props
        .problems
        .iter()
        .filter_map(|p| u32::try_from(p.line?).ok())
        .collect();
    let (host, failed) = use_text_box(props, &bad);
    let values = props.values.clone();
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
            <div class="code" ref={host}></div>
            if let Err(why) = &*failed.borrow() {
                <p class="problems" role="alert">{ format!("The text box could not load (editor.js: {why}); reload the page.") }</p>
            }
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
