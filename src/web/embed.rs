//! Sharing and embedding: the Share and Embed buttons, the embed layout (`?embed`: cluster
//! view, branch panel and timeline without the editor chrome), and the messages an embed posts
//! to its host page (see README, "Embedding").

use super::state::{Action, Model, Selected};
use super::{Dispatch, Run, bindings, branch, cluster_view, status, timeline};
use crate::scenario::share::{self, Controls, Panel};
use yew::prelude::*;

/// The iframe snippet for an embed of `fragment`.
pub fn iframe_snippet(base: &str, fragment: &str) -> String {
    format!(
        "<iframe src=\"{base}?embed&controls=full&panel=branch#{fragment}\" title=\"Rollout Playground\" width=\"100%\" height=\"640\" style=\"border:1px solid #d9dee6;border-radius:8px\" loading=\"lazy\"></iframe>"
    )
}

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    pub session: Run,
    pub pos: usize,
    pub shared: Option<String>,
    pub dispatch: Dispatch,
}

#[function_component(ShareButtons)]
pub fn share_buttons(props: &ShareProps) -> Html {
    let mode = use_state(|| None::<&'static str>);
    let make = |kind: &'static str| {
        let (run, pos, d, mode) = (
            props.session.clone(),
            props.pos,
            props.dispatch.clone(),
            mode.clone(),
        );
        Callback::from(move |_| {
            let fragment = share::encode(&run.0.scenario, pos);
            bindings::set_fragment(&fragment);
            let base = bindings::base_url();
            let text = match kind {
                "embed" => iframe_snippet(&base, &fragment),
                _ => format!("{base}#{fragment}"),
            };
            bindings::copy_to_clipboard(&text);
            d.dispatch(Action::Shared(text));
            mode.set(Some(kind));
        })
    };
    let close = {
        let mode = mode.clone();
        Callback::from(move |_| mode.set(None))
    };
    html! {
        <div class="share">
            <button aria-label="Share a link to this state" onclick={make("link")}>{"Share"}</button>
            <button aria-label="Embed this scenario" onclick={make("embed")}>{"Embed"}</button>
            if let (Some(kind), Some(text)) = (*mode, props.shared.clone()) {
                <div class="share-box" role="dialog" aria-label={if kind == "embed" { "Embed snippet" } else { "Share link" }}>
                    <p>{ if kind == "embed" { "Copied: paste this into a documentation page.".to_string() } else { format!("Copied: {} characters, opens this exact state.", text.len()) } }</p>
                    <textarea readonly=true id="share-text" aria-label="Link to copy" value={text} />
                    <button aria-label="Close" onclick={close}>{"Close"}</button>
                </div>
            }
        </div>
    }
}

/// The embed layout.
pub fn embed_view(model: &Model, dispatch: &Dispatch, caption: Option<String>) -> Html {
    let run = Run(model.session.clone());
    let view = &model.view;
    let fragment = share::encode(&model.session.scenario, model.pos);
    let full = format!("{}#{}", bindings::base_url(), fragment);
    let timeline = match view.controls {
        Controls::None => html! {},
        Controls::Minimal => {
            let (d1, d2) = (dispatch.clone(), dispatch.clone());
            html! {
                <section class="timeline minimal" aria-label="timeline">
                    <div class="controls">
                        if model.playing {
                            <button aria-label="Pause" onclick={move |_| d1.dispatch(Action::Pause)}>{"❚❚"}</button>
                        } else {
                            <button aria-label="Play" onclick={move |_| d1.dispatch(Action::Play)}>{"▶"}</button>
                        }
                        <button aria-label="Step forward" onclick={move |_| d2.dispatch(Action::StepForward)}>{"»"}</button>
                        <span class="clock">{ timeline::clock(model.vt_ms, model.pos, model.last() + 1) }</span>
                    </div>
                </section>
            }
        }
        Controls::Full => html! {
            <timeline::Timeline run={run.clone()} pos={model.pos} vt_ms={model.vt_ms} playing={model.playing} speed={model.speed} dispatch={dispatch.clone()} />
        },
    };
    let panel = match view.panel {
        Panel::Branch => {
            html! { <branch::BranchPanel run={run.clone()} pos={model.pos} dispatch={dispatch.clone()} /> }
        }
        Panel::Events => html! { <status::StatusPanel run={run.clone()} pos={model.pos} /> },
        Panel::None => html! {},
    };
    let selected: Option<Selected> = None;
    html! {
        <div class={classes!("app", "embed", (view.panel == Panel::None).then_some("no-panel"))}>
            <header class="embed-top">
                <strong>{ model.session.scenario.name.clone() }</strong>
                <a href={full} target="_blank" rel="noopener" aria-label="Open in the full playground">{"Open in playground ↗"}</a>
            </header>
            if let Some(n) = model.notice.clone() {
                <div class="notice" role="alert"><span>{ n }</span></div>
            }
            if let Some(c) = caption {
                <p class="caption" aria-live="polite">{ c }</p>
            }
            <main class="embed-grid">
                <section class="center">
                    <cluster_view::ClusterView run={run.clone()} pos={model.pos} selected={selected} dispatch={dispatch.clone()} />
                    { timeline }
                </section>
                <section class="right">{ panel }</section>
            </main>
        </div>
    }
}
