//! The page itself (wasm32 only): the root component, which lays out the parts
//! (`parts.rs`, shared with an embed) and the components, handing them what `handles.rs`
//! declares; and the functions exported to JavaScript.

use super::handles::{Dispatch, Run, seek, sends};
use super::parts::{caption_bar, chart_panel, recording_bar, waiting_note};
use super::{bindings, branch, cluster_view, compare, console, editor, embed, inspector, state};
use super::{code, learn, machinery, status, timeline, world};
use crate::scenario::embed as embed_messages;
use crate::scenario::gallery::{DEFAULT, GROUPS, NAMES};
use state::VariantAction;
use state::{Action, Mode, Model};
use std::rc::Rc;
use yew::prelude::*;

pub fn start() {
    // In the page's check worker (www/check-worker.js) this wasm only checks texts
    // ([`check_manifest`]): there is no page to draw.
    if web_sys::window().is_none() {
        return;
    }
    bindings::report_panics();
    yew::Renderer::<App>::new().render();
}

/// (Long: the root component, whose markup lays out the whole page.)
#[function_component(App)]
pub fn app() -> Html {
    let model = use_reducer(|| {
        let (query, fragment) = bindings::location();
        let dark = bindings::remembered_theme().unwrap_or_else(bindings::prefers_dark);
        Model::from_url(&query, &fragment, dark)
    });
    let dispatch = model.dispatcher();
    bindings::use_animation_loop(model.play.playing, dispatch.clone());
    bindings::use_shortcuts(dispatch.clone());
    bindings::use_hash_links(dispatch.clone());
    bindings::use_remote_commands(dispatch.clone());
    bindings::use_recording(
        model.pending.as_ref().map(|p| (p.id, p.recording.clone())),
        dispatch.clone(),
    );
    use_embed_messages(&model);
    use_effect_with(model.dark, move |dark| bindings::set_theme(*dark));
    // The still picture index.html shows while the wasm loads goes once the page is drawn.
    use_effect_with((), |_| bindings::remove_element("preview"));
    use_embed_errors(model.notice.clone(), model.refusals);
    use_url_follows_work(&model);
    use_work_survives(&model, dispatch.clone());
    let run = Run(model.session.clone());
    // Derived from the run and the step only: recomputed when those change, not on every frame.
    let caption = use_memo((run.clone(), model.play.pos), |(run, pos)| {
        run.0.caption_at(*pos).map(str::to_string)
    });
    // The example's captions are about its own Deployment: set aside while following another.
    let caption = if model.captions_on() {
        caption
    } else {
        Rc::new(None)
    };
    let names = use_memo((run.clone(), model.play.pos), |(run, pos)| {
        state::console::completions(&run.0, *pos)
    });
    // The run's Deployments, found once per run (the whole trace is read).
    let deployments = use_memo(run.clone(), |run| run.0.deployments());
    // An embed's "Open in playground" link, encoded once per step rather than per frame.
    let link = use_memo(
        (run.clone(), model.play.pos, model.view.embed),
        |(run, pos, embed)| {
            if *embed {
                crate::scenario::share::encode(&run.0.scenario, *pos)
            } else {
                String::new()
            }
        },
    );
    if model.view.embed {
        return embed::embed_view(&model, &dispatch, (*caption).clone(), &link);
    }
    let readonly = model.view.readonly;
    // Predict mode asking what the first sync does: the panels that would tell wait.
    let before = model.before_first();
    html! {
        <div class="app">
            { top_bar(&model, &dispatch, &run) }
            if let Some(n) = model.notice.clone() {
                <div class="notice" role="alert">
                    <span>{ n }</span>
                    <button aria-label="Dismiss" onclick={ let d = dispatch.clone(); move |_| d.dispatch(Action::DismissNotice) }>{"×"}</button>
                </div>
            }
            if let (Some(r), true) = (model.session.restored.clone(), model.state_note) {
                <div class="notice state" role="status">
                    <span>{ r.lines().join(" ") }</span>
                    <button aria-label="Dismiss" onclick={ let d = dispatch.clone(); move |_| d.dispatch(Action::DismissStateNote) }>{"×"}</button>
                </div>
            }
            { recording_bar(&model, &dispatch) }
            if let Mode::Compare(c) = model.mode() {
                <main class="compare-main">
                    <compare::CompareView compare={compare::Compared(c.clone())} drafts={model.drafts.clone()} vt_ms={model.play.vt_ms}
                        playing={model.play.playing} speed={model.play.speed} {readonly} on_play={sends(&dispatch, Action::Playback)} on_variant={sends(&dispatch, Action::Variant)} />
                </main>
            } else {
            <main class="grid">
                if !readonly {
                    <section class="left">
                        <editor::EditorPanel text={model.editor.text.clone()} problems={model.editor.problems.clone()} state={model.editor.state.clone()} values={model.editor.values.clone()} checked={model.editor.checked} full={model.editor.full} following={!model.editor.dirty} pending={model.editor.pending_revert.clone()} on={sends(&dispatch, Action::Editor)} />
                        <world::WorldPanel world={model.session.scenario.world.clone()} on_world={sends(&dispatch, Action::SetWorld)} />
                    </section>
                }
                <section class="center">
                    { focus_switcher(&deployments, &model, &dispatch) }
                    { caption_bar(&model, &dispatch, (*caption).clone()) }
                    { learn::predict_card(&model, &dispatch) }
                    <cluster_view::ClusterView run={run.clone()} pos={model.play.pos} selected={model.selected.clone()} on_select={sends(&dispatch, Action::Select)} {before} />
                    <timeline::Timeline run={run.clone()} pos={model.play.pos} vt_ms={model.play.vt_ms} playing={model.play.playing} speed={model.play.speed} last={model.last()} on={sends(&dispatch, Action::Playback)} {before} />
                    <branch::BranchDrawer run={run.clone()} pos={model.play.pos} on_seek={seek(&dispatch)} {before} />
                    if before {
                        { waiting_note() }
                    } else {
                    <inspector::Inspector run={run.clone()} pos={model.play.pos} selected={model.selected.clone()} playing={model.play.playing} readonly={readonly} on_select={sends(&dispatch, Action::Select)} on_command={sends(&dispatch, Action::Command)} />
                    if !readonly {
                        <console::Console lines={model.console.lines.clone()} history={model.console.history.clone()} names={names.clone()} on_command={sends(&dispatch, Action::Command)} />
                    }
                    { chart_panel(&model, &dispatch) }
                    <machinery::MachineryView run={run.clone()} pos={model.play.pos} on_seek={seek(&dispatch)} />
                    }
                </section>
                <section class="right">
                    <branch::BranchPanel run={run.clone()} pos={model.play.pos} on_seek={seek(&dispatch)} {before} />
                    if !before {
                        <code::CodeView run={run.clone()} pos={model.play.pos} />
                        <learn::GuaranteesPanel run={run.clone()} pos={model.play.pos} on_seek={seek(&dispatch)} />
                        <status::StatusPanel run={run} pos={model.play.pos} />
                    }
                </section>
            </main>
            }
        </div>
    }
}

/// An embed reports what it could not do to its host page (a bad URL parameter, a `load`
/// that failed: each of them, the same one twice too), and its content height whenever that
/// changes.
#[hook]
fn use_embed_errors(notice: Option<String>, refusals: u32) {
    use_effect_with((notice, refusals), |(n, _)| {
        if let Some(n) = n
            && bindings::in_frame()
        {
            bindings::post_to_parent(&embed_messages::ErrorMessage::of(n));
        }
    });
    let last = use_mut_ref(|| 0u32);
    use_effect(move || {
        if bindings::in_frame() {
            let h = bindings::content_height();
            if h != *last.borrow() {
                *last.borrow_mut() = h;
                bindings::post_to_parent(&embed_messages::Height {
                    source: embed_messages::SOURCE,
                    kind: "height",
                    height: h,
                });
            }
        }
    });
}

/// The address bar holds the work (the share fragment), so that a reload restores it: kept
/// up to date whenever the run changes or playback stops, and put back after a link the page
/// refused, replacing the history entry rather than adding one, except for an example opened
/// from the gallery, which is a new entry (Back returns to the work before it). An embed
/// leaves its host's URL alone.
#[hook]
fn use_url_follows_work(model: &Model) {
    let run = Run(model.session.clone());
    let pushed = use_mut_ref(|| model.examples_opened);
    let key = (
        run,
        model.play.pos,
        model.play.playing,
        model.view.embed,
        model.refusals,
        model.examples_opened,
    );
    use_effect_with(key, move |(run, pos, playing, embed, _, opened)| {
        if !*playing && !*embed {
            let fragment = crate::scenario::share::encode(&run.0.scenario, *pos);
            if *opened > *pushed.borrow() {
                *pushed.borrow_mut() = *opened;
                bindings::push_fragment(&fragment);
            } else {
                bindings::set_fragment(&fragment);
            }
        }
    });
}

/// The work the address bar does not carry (the editor's text not applied, the console's
/// transcript, which commands were typed) is kept for the tab by scenario, and put back when
/// that scenario opens again: after a reload, or Back to an example worked on.
#[hook]
fn use_work_survives(model: &Model, dispatch: Dispatch) {
    // Once per run: the key is the scenario's link, deflated.
    let key = (*use_memo(Run(model.session.clone()), |run| {
        state::work_key(&run.0.scenario)
    }))
    .clone();
    let embed = model.view.embed;
    use_effect_with(key.clone(), move |key| {
        if let Some(w) = bindings::kept_work(key).filter(|_| !embed) {
            dispatch.dispatch(Action::Restore(w));
        }
    });
    let deps = WorkDeps {
        key,
        lines: model.console.lines.clone(),
        history: model.console.history.clone(),
        editor: model.editor.dirty.then(|| model.editor.text.clone()),
        typed: model.session.typed.clone(),
    };
    use_effect_with(deps, move |d| {
        if !embed && (d.editor.is_some() || !d.lines.is_empty()) {
            let work = state::Work {
                editor: d.editor.clone(),
                lines: d.lines.to_vec(),
                history: d.history.to_vec(),
                typed: d.typed.clone(),
            };
            if let Ok(text) = serde_json::to_string(&work) {
                bindings::keep(&d.key, &text);
            }
        }
    });
}

/// What the kept work depends on, compared cheaply each render (the transcript by pointer:
/// a new line is a new vector).
struct WorkDeps {
    key: String,
    lines: Rc<Vec<state::Line>>,
    history: Rc<Vec<String>>,
    editor: Option<String>,
    typed: Vec<bool>,
}

impl PartialEq for WorkDeps {
    fn eq(&self, o: &WorkDeps) -> bool {
        self.key == o.key
            && Rc::ptr_eq(&self.lines, &o.lines)
            && Rc::ptr_eq(&self.history, &o.history)
            && self.editor == o.editor
            && self.typed == o.typed
    }
}

/// Tells an embedding page where the page is: once when a run is ready, then on every step
/// (in a comparison, whenever a variant reaches another step). `ready` comes first: effects
/// run in the order they are declared.
#[hook]
fn use_embed_messages(model: &Model) {
    let run = Run(model.session.clone());
    use_effect_with(run.clone(), |run| {
        if bindings::in_frame() {
            bindings::post_to_parent(&embed_messages::Ready::of(&run.0));
        }
    });
    let compare = match model.mode() {
        Mode::Compare(c) => Some(compare::Compared(c.clone())),
        Mode::One | Mode::Predict => None,
    };
    let t = model.play.vt_ms.max(0.0) as u64;
    let steps = compare.as_ref().map(|c| c.0.steps_at(t));
    use_effect_with(
        (run, model.play.pos, compare, steps),
        move |(run, pos, compare, _)| {
            if bindings::in_frame() {
                let step = embed_messages::Step::of(&run.0, *pos);
                match compare {
                    Some(c) => bindings::post_to_parent(&step.with_variants(&c.0, t)),
                    None => bindings::post_to_parent(&step),
                }
            }
        },
    );
}

/// Which Deployment the views follow, when the run has several.
fn focus_switcher(all: &[String], model: &Model, dispatch: &Dispatch) -> Html {
    if all.len() < 2 {
        return Html::default();
    }
    let focus = model.session.focus.clone().unwrap_or_default();
    let d = dispatch.clone();
    let onchange =
        Callback::from(move |e: Event| d.dispatch(Action::Focus(bindings::select_value(&e))));
    html! {
        <label class="focus-switch">
            <span>{"Deployment"}</span>
            <select aria-label="Deployment shown" {onchange}>
                { for all.iter().map(|k| html! { <option value={k.clone()} selected={*k == focus}>{ k.clone() }</option> }) }
            </select>
        </label>
    }
}

/// The title, the example picker, the scenario's description, sharing and the theme switch.
fn top_bar(model: &Model, dispatch: &Dispatch, run: &Run) -> Html {
    let compared = matches!(model.mode(), Mode::Compare(_));
    html! {
        <header class="top">
            <h1>{"Rollout Playground"}</h1>
            <label class="gallery">
                <span>{"Example"}</span>
                <select aria-label="Example scenario" onchange={gallery_picked(dispatch, model)} id="gallery">
                    { for GROUPS.iter().map(|(group, items)| html! {
                        <optgroup label={*group}>
                            { for items.iter().map(|(i, title)| html! {
                                <option value={i.to_string()} selected={model.gallery == Some(*i)}>{ *title }</option>
                            }) }
                        </optgroup>
                    }) }
                    if model.gallery.is_none() {
                        <option value="" selected=true>{ model.session.scenario.name.clone() }</option>
                    }
                </select>
            </label>
            if !compared {
                { release_picker(model, dispatch) }
            }
            // Two lines in the bar; opened (a click, Enter or space), the whole text.
            <details class="description"><summary title="Show the whole description">{ model.session.scenario.description.clone() }</summary></details>
            if !compared && !model.view.readonly {
                <button class="compare-button" title="Run this scenario with other strategies side by side"
                    onclick={ let d = dispatch.clone(); move |_| d.dispatch(Action::Variant(VariantAction::Open)) }>{"Compare"}</button>
            }
            if !compared {
                <button class={classes!("predict-button", model.predict.on.then_some("on"))} aria-pressed={model.predict.on.to_string()}
                    title="Predict mode: answer before each Deployment sync that changes something"
                    onclick={ let d = dispatch.clone(); move |_| d.dispatch(Action::TogglePredict) }>{"Predict"}</button>
            }
            <embed::ShareButtons session={run.clone()} pos={model.play.pos} predict={model.predict.on} shared={model.shared.clone()} on_shared={sends(dispatch, Action::Shared)}
                gallery={model.gallery.filter(|_| !model.session.typed.iter().any(|t| *t)).and_then(|i| NAMES.get(i).copied())} />
            <button class="theme" aria-label={if model.dark { "Light theme" } else { "Dark theme" }}
                onclick={ let (d, dark) = (dispatch.clone(), model.dark); move |_| { bindings::remember_theme(!dark); d.dispatch(Action::ToggleTheme) } }>
                { if model.dark { "☀ Light" } else { "☾ Dark" } }
            </button>
        </header>
    }
}

/// The Kubernetes release the run reproduces (the scenario's `world.kubernetes`): another one
/// runs the scenario again on it, at the same step; a link made then carries it.
fn release_picker(model: &Model, dispatch: &Dispatch) -> Html {
    use crate::controller::release::Release;
    let world = model.session.scenario.world.clone();
    let current = world.kubernetes;
    let today = bindings::today();
    let d = dispatch.clone();
    let onchange = Callback::from(move |e: Event| {
        if let Ok(r) = Release::parse(&bindings::select_value(&e))
            && r != world.kubernetes
        {
            let mut w = world.clone();
            w.kubernetes = r;
            d.dispatch(Action::SetWorld(w));
        }
    });
    html! {
        <label class="release" title="The Kubernetes release whose controllers run this scenario">
            <span>{"Kubernetes"}</span>
            <select id="release" aria-label="Kubernetes release" {onchange} disabled={model.view.readonly}>
                { for Release::all().map(|r| html! {
                    <option value={r.to_string()} selected={r == current}>{
                        if r.out_of_support(&today) { format!("{r} (out of support)") } else { r.to_string() }
                    }</option>
                }) }
            </select>
        </label>
    }
}

/// An example picked: the first is compiled in, the others are fetched from `scenarios/`
/// (Trunk copies them into `dist/`). Over work not shared yet (commands typed, an edited
/// manifest), the reader is asked first. One that does not arrive leaves the work as it was
/// and puts the list back on the current entry.
fn gallery_picked(dispatch: &Dispatch, model: &Model) -> Callback<Event> {
    let d = dispatch.clone();
    let current = model.gallery.map(|i| i.to_string()).unwrap_or_default();
    let work = model.has_work();
    Callback::from(move |e: Event| {
        let v = bindings::select_value(&e);
        let Some((i, name)) = v
            .parse::<usize>()
            .ok()
            .and_then(|i| Some((i, *NAMES.get(i)?)))
        else {
            return;
        };
        if work
            && !bindings::confirm(
                "Open this example? Your commands and edits here are not shared yet and will be replaced (Share keeps a link to them).",
            )
        {
            bindings::set_select_value("gallery", &current);
            return;
        }
        if i == 0 {
            return d.dispatch(Action::LoadGallery(0, DEFAULT.to_string()));
        }
        let (d, current) = (d.clone(), current.clone());
        wasm_bindgen_futures::spawn_local(async move {
            match bindings::fetch_text(&format!("scenarios/{name}.yaml")).await {
                // Unless the reader has picked another example meanwhile.
                Ok(text) if bindings::select_value_of("gallery") == i.to_string() => {
                    d.dispatch(Action::LoadGallery(i, text))
                }
                Ok(_) => {}
                Err(e) => {
                    bindings::set_select_value("gallery", &current);
                    d.dispatch(Action::Notice(format!(
                        "The example {name} could not be loaded ({e}). Your work is as you left it."
                    )));
                }
            }
        });
    })
}

/// JavaScript API for documentation generators: runs a scenario file (YAML or JSON text) and
/// returns its trace as an array of step objects, exactly the `rollout run --format jsonl`
/// lines. Throws an Error naming the field when the scenario does not parse or cannot start.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = runScenario)]
pub fn run_scenario(text: &str) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
    let trace = crate::scenario::Scenario::parse(text)
        .and_then(|s| s.run())
        .map_err(|e| js_sys::Error::new(&e.to_string()))?;
    Ok(bindings::to_js(&trace))
}

/// The editor's check of a text (`quick::check_typed`), as the page's check worker
/// (www/check-worker.js) runs it for the page: problems, the note on a cluster state, the quick
/// controls' values, as `Checked::to_json` writes them.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = checkManifest)]
pub fn check_manifest(text: &str) -> String {
    crate::scenario::quick::check_typed(text)
        .to_json()
        .to_string()
}

/// JavaScript API: the share-link fragment (`v1.…`, without `#`) of a scenario file at a step.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = shareLink)]
pub fn share_link(text: &str, step: usize) -> Result<String, wasm_bindgen::JsValue> {
    let s =
        crate::scenario::Scenario::parse(text).map_err(|e| js_sys::Error::new(&e.to_string()))?;
    Ok(crate::scenario::share::encode(&s, step))
}

/// JavaScript API: the rollout summary of a scenario file, per variant (`[{name, rollouts}]`;
/// one entry, "as written", when it lists none). Each rollout holds the numbers `rollout run
/// --format summary` prints (startMs, endMs, ending, durationMs, lowestAvailable,
/// highestTotal, extraPodSeconds, syncs, deadlineExceeded, …). Throws an Error naming the
/// field or the variant when the scenario does not run.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = rolloutSummary)]
pub fn rollout_summary(text: &str) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
    let out = crate::scenario::summary::of_scenario(text)
        .map_err(|e| js_sys::Error::new(&e.to_string()))?;
    Ok(bindings::to_js(&out))
}
