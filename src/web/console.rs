//! The kubectl console: the contract's command subset with history (↑/↓), Tab completion of
//! verbs, resources and names, and outputs as kubectl prints them. Commands that change the
//! world land at the current step; read-only ones print the world as it stood then.

use super::state::{Action, Line};
use super::{Dispatch, bindings};
use crate::cluster::trace::TraceStep;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub lines: Rc<Vec<Line>>,
    pub history: Rc<Vec<String>>,
    /// (Deployment and ReplicaSet names, pod names) at the current step, for completion.
    pub names: Rc<(Vec<String>, Vec<String>)>,
    pub dispatch: Dispatch,
}

pub const VERBS: [&str; 13] = [
    "get",
    "describe",
    "set image",
    "scale",
    "rollout status",
    "rollout history",
    "rollout pause",
    "rollout resume",
    "rollout undo",
    "delete",
    "patch",
    "annotate",
    "apply",
];
pub const RESOURCES: [&str; 6] = [
    "deployment",
    "deployments",
    "rs",
    "replicasets",
    "pods",
    "pod",
];

pub fn names_of(step: &TraceStep) -> Vec<String> {
    let mut v: Vec<String> = step.deployment.iter().map(|d| d.name.clone()).collect();
    v.extend(step.replica_sets.iter().map(|r| r.name.clone()));
    v
}

/// Completes the last word of `input`: the candidates, and the line with their common prefix.
pub fn complete(input: &str, names: &[String], pods: &[String]) -> (String, Vec<String>) {
    let words: Vec<&str> = input.split(' ').collect();
    let last = *words.last().unwrap_or(&"");
    let lead: Vec<&str> = words[..words.len() - 1]
        .iter()
        .copied()
        .filter(|w| *w != "kubectl" && !w.is_empty())
        .collect();
    let mut pool: Vec<String> = match lead.len() {
        0 => VERBS
            .iter()
            .map(|v| v.split(' ').next().unwrap_or(v).to_string())
            .collect(),
        1 if lead[0] == "rollout" => ["status", "history", "pause", "resume", "undo"]
            .map(String::from)
            .to_vec(),
        1 if lead[0] == "set" => vec!["image".into()],
        _ => {
            let (res, name) = match last.split_once('/') {
                Some((r, n)) => (Some(r), n),
                None => (None, last),
            };
            let mut v: Vec<String> = match res {
                Some(r) if r.starts_with("pod") => pods.to_vec(),
                Some(r) if r.starts_with("deploy") => names.iter().take(1).cloned().collect(),
                Some(_) => names.iter().skip(1).cloned().collect(),
                None => {
                    let mut v: Vec<String> = RESOURCES.iter().map(|r| r.to_string()).collect();
                    v.extend(names.iter().take(1).map(|n| format!("deployment/{n}")));
                    v.extend(names.iter().cloned());
                    v.extend(pods.iter().cloned());
                    v
                }
            };
            if let Some(r) = res {
                v = v.into_iter().map(|n| format!("{r}/{n}")).collect();
            }
            let _ = name;
            v
        }
    };
    pool.sort();
    pool.dedup();
    let hits: Vec<String> = pool.into_iter().filter(|c| c.starts_with(last)).collect();
    let mut common = hits.first().cloned().unwrap_or_default();
    for h in &hits {
        while !h.starts_with(&common) {
            common.pop();
        }
    }
    let mut line = words[..words.len() - 1].join(" ");
    if !line.is_empty() {
        line.push(' ');
    }
    if hits.len() == 1 {
        line.push_str(&hits[0]);
        line.push(' ');
    } else if common.len() > last.len() {
        line.push_str(&common);
    } else {
        line.push_str(last);
    }
    (line, hits)
}

#[function_component(Console)]
pub fn console(props: &Props) -> Html {
    let input = use_state(String::new);
    let back = use_state(|| 0usize);
    let hint = use_state(Vec::<String>::new);
    {
        let n = props.lines.len();
        use_effect_with(n, |_| bindings::scroll_to_end("console-out"));
    }
    let oninput = {
        let input = input.clone();
        Callback::from(move |e: InputEvent| input.set(bindings::select_value(&e)))
    };
    let onkeydown = {
        let (input, back, hint) = (input.clone(), back.clone(), hint.clone());
        let history = props.history.clone();
        let d = props.dispatch.clone();
        let names = props.names.clone();
        Callback::from(move |e: KeyboardEvent| match e.key().as_str() {
            "Enter" => {
                e.prevent_default();
                d.dispatch(Action::Command((*input).clone()));
                input.set(String::new());
                back.set(0);
                hint.set(vec![]);
            }
            "ArrowUp" | "ArrowDown" => {
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
            "Tab" => {
                e.prevent_default();
                let (line, hits) = complete(&input, &names.0, &names.1);
                input.set(line);
                hint.set(if hits.len() > 1 { hits } else { vec![] });
            }
            "Escape" => hint.set(vec![]),
            _ => {}
        })
    };
    html! {
        <section class="console" aria-label="kubectl console">
            <pre id="console-out" class="out" aria-live="polite">
                if props.lines.is_empty() {
                    <span class="muted">{"Type a kubectl command, e.g. kubectl set image deployment/web nginx=nginx:1.16.1 — Tab completes, ↑/↓ recall."}</span>
                }
                { for props.lines.iter().map(|l| match l {
                    Line::Command(c) => html! { <div class="cmd">{ format!("$ {c}") }</div> },
                    Line::Output(o) => html! { <div class="res">{ o.clone() }</div> },
                    Line::Error(e) => html! { <div class="err">{ e.clone() }</div> },
                }) }
            </pre>
            if !hint.is_empty() {
                <div class="hint">{ hint.join("  ") }</div>
            }
            <div class="prompt">
                <span aria-hidden="true">{"$ "}</span>
                <input id="console-input" type="text" autocomplete="off" spellcheck="false" aria-label="kubectl command"
                    placeholder="kubectl get rs" value={(*input).clone()} {oninput} {onkeydown} />
            </div>
        </section>
    }
}
