//! The kubectl console: the contract's command subset with history (↑/↓), Tab completion of
//! verbs, resources, names and namespaces, and outputs as kubectl prints them. It takes what
//! people paste: Shift+Enter starts a new line, and a heredoc (`kubectl apply -f - <<EOF`)
//! goes on until its closing `EOF`. Commands that change the world land at the current step;
//! read-only ones print the world as it stood then.

use super::bindings;
use super::state::Line;
use super::state::console::heredoc_open;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub lines: Rc<Vec<Line>>,
    pub history: Rc<Vec<String>>,
    /// The names completion offers at the current step, and an example command for the
    /// Deployment on screen.
    pub names: Rc<(crate::kubectl::Names, String)>,
    /// A command typed (Enter).
    pub on_command: Callback<String>,
}

/// A line of kubectl's output that is one of its errors.
fn is_error_line(l: &str) -> bool {
    l.starts_with("Error from server") || l.starts_with("error: ")
}

/// (Long: a component, whose markup and key handling are most of its length.)
#[function_component(Console)]
pub fn console(props: &Props) -> Html {
    let input = use_state(String::new);
    let back = use_state(|| 0usize);
    let hint = use_state(Vec::<String>::new);
    // Once the reader has typed a command, the output is a dozen lines tall at least (the
    // scenario's own commands, printed as the timeline reaches them, leave it as it was).
    let used = props.lines.iter().any(|l| matches!(l, Line::Command(_)));
    {
        let n = props.lines.len();
        use_effect_with(n, move |_| {
            bindings::scroll_to_end("console-out");
            if used {
                bindings::keep_in_view("console-input");
            }
        });
    }
    let oninput = {
        let input = input.clone();
        Callback::from(move |e: InputEvent| input.set(bindings::select_value(&e)))
    };
    let onkeydown = {
        let (input, back, hint) = (input.clone(), back.clone(), hint.clone());
        let history = props.history.clone();
        let d = props.on_command.clone();
        let names = props.names.clone();
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            // Shift+Enter, or Enter inside an open heredoc, is a new line of the same command.
            "Enter" if e.shift_key() || heredoc_open(&input) => {}
            "Enter" => {
                e.prevent_default();
                d.emit((*input).clone());
                input.set(String::new());
                back.set(0);
                hint.set(vec![]);
            }
            // History on a one-line command; in several lines the arrows move the caret.
            "ArrowUp" | "ArrowDown" if !input.contains('\n') => {
                e.prevent_default();
                let n = history.len();
                let b = if e.key() == "ArrowUp" {
                    (*back + 1).min(n)
                } else {
                    back.saturating_sub(1)
                };
                back.set(b);
                input.set(if b == 0 {
                    String::new()
                } else {
                    history[n - b].clone()
                });
            }
            // Tab completes; with nothing to complete it moves on, as Tab does.
            "Tab" if !e.shift_key() && !input.trim().is_empty() && !input.contains('\n') => {
                let (line, hits) = crate::kubectl::complete(&input, &names.0);
                if line == *input && hits.len() < 2 {
                    return;
                }
                e.prevent_default();
                input.set(line);
                hint.set(if hits.len() > 1 { hits } else { vec![] });
            }
            "Escape" => hint.set(vec![]),
            _ => {}
        })
    };
    let rows = input.lines().count().clamp(1, 12).to_string();
    html! {
        <section class={classes!("console", used.then_some("used"))} aria-label="kubectl console">
            <pre id="console-out" class="out" aria-live="polite" tabindex="0">
                if props.lines.is_empty() {
                    <span class="muted">{ format!("Type a kubectl command, e.g. {} — Tab completes, ↑/↓ recall, Shift+Enter starts a new line (paste a manifest after kubectl apply -f -).", props.names.1) }</span>
                }
                { for props.lines.iter().map(|l| match l {
                    Line::Command(c) => html! { <div class="cmd">{ format!("$ {c}") }</div> },
                    // A command that changed some objects and failed on others printed both:
                    // kubectl's errors come after its lines, and look like errors.
                    Line::Output(o) if o.lines().any(is_error_line) => html! {
                        <div class="res">{ for o.lines().map(|l| if is_error_line(l) {
                            html! { <div class="err">{ l.to_string() }</div> }
                        } else {
                            html! { <div>{ l.to_string() }</div> }
                        }) }</div>
                    },
                    Line::Output(o) => html! { <div class="res">{ o.clone() }</div> },
                    Line::Error(e) => html! { <div class="err">{ e.clone() }</div> },
                    Line::Watched(t, text) => html! {
                        <div class="res watched"><span class="t">{ format!("{:.1}s ", *t as f64 / 1000.0) }</span>{ text.clone() }</div>
                    },
                    Line::Note(n) => html! { <div class="note">{ n.clone() }</div> },
                    Line::Scenario(c) => html! {
                        <div class="cmd scenario"><span class="who">{"scenario"}</span>{ format!("$ {c}") }</div>
                    },
                }) }
            </pre>
            if !hint.is_empty() {
                <div class="hint">{ hint.join("  ") }</div>
            }
            <div class="prompt">
                <span aria-hidden="true">{"$ "}</span>
                <textarea id="console-input" autocomplete="off" spellcheck="false" aria-label="kubectl command (Shift+Enter for a new line)"
                    rows={rows} placeholder="kubectl get rs" value={(*input).clone()} {oninput} {onkeydown} />
            </div>
        </section>
    }
}
