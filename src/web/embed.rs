//! Sharing and embedding: the Share and Embed buttons, the embed layout (`?embed`: cluster
//! view, branch panel and timeline without the editor chrome), and the messages an embed posts
//! to its host page (see README, "Embedding").

use super::handles::{Dispatch, Run, sends};
use super::state::PlaybackAction;
use super::state::{Action, Mode, Model, Selected};
use super::{bindings, branch, cluster_view, status, timeline};
use crate::scenario::share::{self, Controls, Panel, ViewOptions};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    pub session: Run,
    pub pos: usize,
    /// A link made in predict mode opens in predict mode (a challenge for someone else).
    #[prop_or_default]
    pub predict: bool,
    pub shared: Option<String>,
    /// The gallery example shown, as its file names it, while the run is the example's own (no
    /// command typed): its still picture goes into the snippet.
    #[prop_or_default]
    pub gallery: Option<&'static str>,
    /// The link made, to show and copy.
    pub on_shared: Callback<String>,
}

/// The Share button (copies a link to this exact state) and the Embed button (a dialog with
/// the embed's options, a live preview and the snippet). Esc closes either and gives the focus
/// back to its button.
/// (Long: a component, whose markup and dialogs are most of its length.)
#[function_component(ShareButtons)]
pub fn share_buttons(props: &ShareProps) -> Html {
    let mode = use_state(|| None::<&'static str>);
    let form = use_state(|| share::SnippetForm::Element);
    let options = use_state(|| ViewOptions {
        embed: true,
        ..ViewOptions::default()
    });
    // The step fields as typed: a range that cannot hold is named, and what was typed stays.
    let range = use_state(|| (String::new(), String::new()));
    let preview_frame = use_node_ref();
    bindings::use_frame_height(preview_frame.clone());
    let share = {
        let (run, pos, d, mode, predict) = (
            props.session.clone(),
            props.pos,
            props.on_shared.clone(),
            mode.clone(),
            props.predict,
        );
        Callback::from(move |_| {
            let fragment = share::encode(&run.0.scenario, pos);
            bindings::set_fragment(&fragment);
            let query = if predict { "?predict" } else { "" };
            let text = format!("{}{query}#{fragment}", bindings::base_url());
            bindings::copy_to_clipboard(&text);
            d.emit(text);
            mode.set(Some("link"));
            bindings::focus_later("share-text");
        })
    };
    let open_embed = {
        let mode = mode.clone();
        Callback::from(move |_| {
            mode.set(Some("embed"));
            bindings::focus_later("embed-autoplay");
        })
    };
    let close = |button: &'static str| {
        let mode = mode.clone();
        move || {
            mode.set(None);
            bindings::focus(button);
        }
    };
    let on_key = |button: &'static str| {
        let close = close(button);
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.prevent_default();
                close();
            }
        })
    };
    let steps = props.session.0.len();
    let (o, problem) = ranged(&options, &range, steps);
    // The link is encoded only while the Embed dialog is open (these buttons re-render at
    // every step). A range that cannot hold writes no snippet.
    let (snippet, preview) = if *mode == Some("embed") {
        written(props, *form, &o)
    } else {
        Default::default()
    };
    let copy = {
        let snippet = snippet.clone();
        Callback::from(move |_| bindings::copy_to_clipboard(&snippet))
    };
    html! {
        <div class="share">
            <button id="share-button" aria-label="Share a link to this state" onclick={share}>{"Share"}</button>
            <button id="embed-button" aria-label="Embed this scenario" aria-haspopup="dialog" onclick={open_embed}>{"Embed"}</button>
            if let (Some("link"), Some(text)) = (*mode, props.shared.clone()) {
                <div class="share-box" role="dialog" aria-label="Share link" onkeydown={on_key("share-button")}>
                    <p>{ format!("Copied: {} characters, opens this exact state.", text.len()) }</p>
                    <textarea readonly=true id="share-text" aria-label="Link to copy" value={text} />
                    <button aria-label="Close" onclick={ let c = close("share-button"); move |_| c() }>{"Close"}</button>
                </div>
            }
            if *mode == Some("embed") {
                <div class="share-box embed-dialog" role="dialog" aria-label="Embed this scenario" onkeydown={on_key("embed-button")}>
                    { embed_options(&o, &options, &range, steps) }
                    <p class="muted embed-release">{ format!(
                        "The embed runs on Kubernetes {}, the scenario's release (the top bar's picker changes it; the link carries it).",
                        props.session.0.scenario.world.kubernetes
                    ) }</p>
                    if let Some(file) = film_file(props, *form) {
                        <p class="muted embed-film">{"A film makes the wait for the playground playable: "}
                            <code>{ format!("rollout preview 'SRC' --format film > {file}") }</code>
                            {" (SRC: the snippet's src), then "}<code>{ format!("film=\"{file}\"") }</code>{" on the element."}</p>
                    }
                    if let Some(p) = &problem {
                        <p class="range-note" id="embed-range-note" role="alert">{ format!("{p} No snippet is written until it is fixed.") }</p>
                    }
                    <iframe class="embed-preview" ref={preview_frame} src={preview} title="Preview of the embed, as tall as the snippet's frame" loading="lazy"></iframe>
                    <label class="snippet-form">{"Snippet for "}
                        <select id="embed-form" onchange={ let form = form.clone(); move |e: Event| {
                            let v = bindings::select_value(&e);
                            if let Some(f) = share::SnippetForm::ALL.into_iter().find(|f| f.label() == v) {
                                form.set(f);
                            }
                        } }>
                            { for share::SnippetForm::ALL.into_iter().map(|f| html! {
                                <option value={f.label()} selected={*form == f}>{ f.label() }</option>
                            }) }
                        </select>
                    </label>
                    <textarea readonly=true id="embed-snippet" aria-label="Snippet to copy"
                        value={if problem.is_some() { String::new() } else { snippet }}
                        aria-describedby={problem.is_some().then_some("embed-range-note")} />
                    <div class="embed-actions">
                        <button onclick={copy} disabled={problem.is_some()}>{"Copy snippet"}</button>
                        <button aria-label="Close" onclick={ let c = close("embed-button"); move |_| c() }>{"Close"}</button>
                    </div>
                </div>
            }
        </div>
    }
}

/// The file a film would be for an element whose scenario is not a gallery example's (which
/// names its own), for the dialog to say how to record it from the snippet's own address. None
/// for a comparison, which a film does not hold, and for the iframe, which takes none.
fn film_file(props: &ShareProps, form: share::SnippetForm) -> Option<String> {
    let scenario = &props.session.0.scenario;
    if props.gallery.is_some()
        || !scenario.variants.is_empty()
        || form == share::SnippetForm::Iframe
    {
        return None;
    }
    let name: String = scenario
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    Some(format!("{name}.film.svg"))
}

/// The Embed dialog's snippet in `form` and its preview's address, for the view `o`: a
/// gallery example names its film (one run, not a comparison) and, opened at its first step,
/// its still picture, both made at build time.
fn written(props: &ShareProps, form: share::SnippetForm, o: &ViewOptions) -> (String, String) {
    let mut o = o.clone();
    if let Some(name) = props.gallery {
        let pinned = share::pinned_base(&bindings::base_url());
        if o.step.unwrap_or(props.pos) == 0 {
            o.preview = Some(format!("{pinned}previews/{name}.svg"));
        }
        if props.session.0.scenario.variants.is_empty() {
            o.film = Some(format!("{pinned}previews/{name}.film.svg"));
        }
    }
    let fragment = share::encode(&props.session.0.scenario, props.pos);
    let base = bindings::base_url();
    (
        share::snippet(form, &base, &fragment, &o, &props.session.0.scenario.name),
        format!("{base}?{}#{fragment}", o.to_query()),
    )
}

/// The dialog's options with the step fields as typed (`range`: from, until), and why that
/// range cannot hold, if it cannot (then neither step is in the options).
fn ranged(
    options: &ViewOptions,
    range: &(String, String),
    steps: usize,
) -> (ViewOptions, Option<String>) {
    let mut o = options.clone();
    let fields = ViewOptions::step_field("From", &range.0)
        .and_then(|from| Ok((from, ViewOptions::step_field("Until", &range.1)?)));
    match fields {
        Ok((step, until)) => {
            o.step = step;
            o.until = until;
            let problem = o.range_problem(steps);
            if problem.is_some() {
                (o.step, o.until) = (None, None);
            }
            (o, problem)
        }
        Err(e) => {
            (o.step, o.until) = (None, None);
            (o, Some(e))
        }
    }
}

/// The Embed dialog's options: what the embedded page shows and does, kept in `options` (the
/// step fields as typed in `range`).
fn embed_options(
    o: &ViewOptions,
    options: &UseStateHandle<ViewOptions>,
    range: &UseStateHandle<(String, String)>,
    steps: usize,
) -> Html {
    let typed = |until: bool| {
        let range = range.clone();
        Callback::from(move |e: Event| {
            let mut r = (*range).clone();
            let v = bindings::select_value(&e);
            if until {
                r.1 = v;
            } else {
                r.0 = v;
            }
            range.set(r);
        })
    };
    let set = |f: fn(&mut ViewOptions, String)| {
        let options = options.clone();
        Callback::from(move |e: Event| {
            let mut o = (*options).clone();
            f(&mut o, bindings::select_value(&e));
            options.set(o);
        })
    };
    let check = |f: fn(&mut ViewOptions, bool)| {
        let options = options.clone();
        Callback::from(move |e: Event| {
            let mut o = (*options).clone();
            f(&mut o, bindings::select_value(&e) == "true");
            options.set(o);
        })
    };
    html! {
        <fieldset class="embed-options">
            <legend>{"Embed options"}</legend>
            <label><input type="checkbox" id="embed-autoplay" checked={o.autoplay} onchange={check(|o, v| o.autoplay = v)} />{" autoplay"}</label>
            <label><input type="checkbox" checked={o.readonly} onchange={check(|o, v| o.readonly = v)} />{" read-only"}</label>
            <label><input type="checkbox" checked={o.chart} onchange={check(|o, v| o.chart = v)} />{" chart under the pods"}</label>
            <label><input type="checkbox" checked={o.predict} onchange={check(|o, v| o.predict = v)} />{" predict mode"}</label>
            <label>{"theme "}<select onchange={set(|o, v| o.dark = match v.as_str() { "dark" => Some(true), "light" => Some(false), _ => None })}>
                <option value="auto" selected={o.dark.is_none()}>{"reader's"}</option>
                <option value="light" selected={o.dark == Some(false)}>{"light"}</option>
                <option value="dark" selected={o.dark == Some(true)}>{"dark"}</option>
            </select></label>
            <label>{"controls "}<select onchange={set(|o, v| o.controls = match v.as_str() { "none" => Controls::None, "minimal" => Controls::Minimal, _ => Controls::Full })}>
                <option value="full" selected={o.controls == Controls::Full}>{"full"}</option>
                <option value="minimal" selected={o.controls == Controls::Minimal}>{"minimal"}</option>
                <option value="none" selected={o.controls == Controls::None}>{"none"}</option>
            </select></label>
            <label>{"panel "}<select onchange={set(|o, v| o.panel = match v.as_str() { "events" => Panel::Events, "chart" => Panel::Chart, "none" => Panel::None, _ => Panel::Branch })}>
                <option value="branch" selected={o.panel == Panel::Branch}>{"branch"}</option>
                <option value="events" selected={o.panel == Panel::Events}>{"events"}</option>
                <option value="chart" selected={o.panel == Panel::Chart}>{"chart"}</option>
                <option value="none" selected={o.panel == Panel::None}>{"none"}</option>
            </select></label>
            <label>{"from step "}<input type="number" id="embed-from" min="1" max={steps.to_string()} placeholder="1" size="5"
                value={range.0.clone()} onchange={typed(false)} /></label>
            <label>{"until step "}<input type="number" id="embed-until" min="1" max={steps.to_string()} placeholder={steps.to_string()} size="5"
                value={range.1.clone()} onchange={typed(true)} /></label>
        </fieldset>
    }
}

/// The embed layout; `fragment` is the share link of the state shown ("Open in playground").
pub fn embed_view(
    model: &Model,
    dispatch: &Dispatch,
    caption: Option<String>,
    fragment: &str,
) -> Html {
    let run = Run(model.session.clone());
    let view = &model.view;
    let before = model.before_first();
    let full = format!("{}#{}", bindings::base_url(), fragment);
    let timeline = match view.controls {
        Controls::None => html! {},
        Controls::Minimal => {
            let (d1, d2) = (dispatch.clone(), dispatch.clone());
            html! {
                <section class="timeline minimal" aria-label="timeline">
                    <div class="controls">
                        if model.play.playing {
                            <button aria-label="Pause" onclick={move |_| d1.dispatch(Action::Playback(PlaybackAction::Pause))}>{"❚❚"}</button>
                        } else {
                            <button aria-label="Play" onclick={move |_| d1.dispatch(Action::Playback(PlaybackAction::Play))}>{"▶"}</button>
                        }
                        <button aria-label="Step forward" onclick={move |_| d2.dispatch(Action::Playback(PlaybackAction::StepForward))}>{"»"}</button>
                        <span class="clock">{ timeline::clock(model.play.vt_ms, model.play.pos, model.last() + 1) }</span>
                    </div>
                </section>
            }
        }
        Controls::Full => html! {
            <timeline::Timeline run={run.clone()} pos={model.play.pos} vt_ms={model.play.vt_ms} playing={model.play.playing} speed={model.play.speed} last={model.last()} on={sends(dispatch, Action::Playback)} {before} />
        },
    };
    let panel = match view.panel {
        Panel::Branch => {
            html! { <branch::EmbedBranch run={run.clone()} pos={model.play.pos} on_seek={sends(dispatch, |i| Action::Playback(PlaybackAction::Seek(i)))} {before} /> }
        }
        Panel::Events | Panel::Chart if before => super::parts::waiting_note(),
        Panel::Events => {
            html! { <status::StatusPanel run={run.clone()} pos={model.play.pos} events=true /> }
        }
        Panel::Chart => super::parts::chart_panel(model, dispatch),
        Panel::None => html! {},
    };
    let selected: Option<Selected> = None;
    html! {
        <div class={classes!("app", "embed", (view.panel == Panel::None).then_some("no-panel"))}>
            <header class="embed-top">
                <strong>{ model.session.scenario.name.clone() }</strong>
                <a href={full} target="_blank" rel="noopener" aria-label="Open in playground, in this state">{"Open in playground ↗"}</a>
            </header>
            if let Some(n) = model.notice.clone() {
                <div class="notice" role="alert"><span>{ n }</span></div>
            }
            { super::parts::recording_bar(model, dispatch) }
            if caption.is_some() || model.session.trace.iter().any(|s| s.caption().is_some()) {
                { super::parts::caption_bar(model, dispatch, caption) }
            }
            { super::learn::predict_card(model, dispatch) }
            if let Mode::Compare(c) = model.mode() {
                <main class="compare-main">
                    <super::compare::CompareView compare={super::compare::Compared(c.clone())} drafts={model.drafts.clone()} vt_ms={model.play.vt_ms}
                        playing={model.play.playing} speed={model.play.speed} readonly=true controls={view.controls != Controls::None} on_play={sends(dispatch, Action::Playback)} on_variant={sends(dispatch, Action::Variant)} />
                </main>
            } else {
            <main class="embed-grid">
                <section class="center">
                    <cluster_view::ClusterView run={run.clone()} pos={model.play.pos} selected={selected} on_select={sends(dispatch, Action::Select)} {before} />
                    { timeline }
                    if view.chart && view.panel != Panel::Chart && !before {
                        { super::parts::chart_panel(model, dispatch) }
                    }
                </section>
                <section class="right">{ panel }</section>
            </main>
            }
        </div>
    }
}
