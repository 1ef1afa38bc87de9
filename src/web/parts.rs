//! The parts of the page that both the page and an embed lay out (wasm32 only): the note that
//! holds the views back while the first sync is asked, the recording bar, the chart panel and the
//! caption bar.

use super::chart;
use super::handles::{Dispatch, Run};
use super::state::{Action, Model, PlaybackAction};
use yew::prelude::*;

/// In place of the panels that would give the first sync's answer away while it is asked.
pub fn waiting_note() -> Html {
    html! {
        <p class="muted before-first">{"The console, the chart, the events and the code fill in once you have answered: they would give the first sync away."}</p>
    }
}

/// While a scenario is recorded in slices: how far it has come, and Cancel.
pub fn recording_bar(model: &Model, dispatch: &Dispatch) -> Html {
    let Some(p) = &model.pending else {
        return Html::default();
    };
    let (t_ms, steps) = p.progress;
    let d = dispatch.clone();
    html! {
        <div class="notice recording" role="status">
            <span>{ format!(
                "Recording {}: t = {}, {steps} steps so far. The page shows it when it is done.",
                p.what,
                crate::api::time::go_duration(t_ms / 1000)
            ) }</span>
            <button onclick={move |_| d.dispatch(Action::CancelRecording)}>{"Cancel"}</button>
        </div>
    }
}

/// The rollout chart with the run's summary beside it; both seek.
pub fn chart_panel(model: &Model, dispatch: &Dispatch) -> Html {
    let d = dispatch.clone();
    let on_seek =
        Callback::from(move |t: u64| d.dispatch(Action::Playback(PlaybackAction::SeekTime(t))));
    let run = Run(model.session.clone());
    html! {
        <section class="chart-panel" aria-label="Rollout chart and summary">
            <chart::RolloutChart run={run.clone()} vt_ms={model.play.vt_ms} on_seek={on_seek.clone()} />
            <chart::RolloutSummary {run} {on_seek} />
        </section>
    }
}

/// The caption, in a space of its own so that nothing moves when it changes; on the first
/// view, how to start; when playback holds at a caption, the button that plays on.
pub fn caption_bar(model: &Model, dispatch: &Dispatch, caption: Option<String>) -> Html {
    // A caption often tells what the next sync does: not while the reader predicts it.
    let caption = match model.predict.asking {
        Some(_) => Some("(The caption shows once you have answered.)".to_string()),
        None => caption,
    };
    let first = model.play.pos == 0 && !model.play.playing;
    let d = dispatch.clone();
    let set_aside = (!model.captions_on())
        .then(|| model.example_focus.clone())
        .flatten()
        .filter(|_| model.session.caption_at(model.play.pos).is_some());
    // The caption has a space of its own (three lines: nothing moves when it changes), and a
    // longer one, cut there with an ellipsis, opens in full at a click (or Enter): never cut
    // for good, and no scroll box to reach. Continue sits beside it, always in view.
    html! {
        <div class="caption">
            <div class="caption-text" role="status" aria-live="polite">
                if let Some(c) = caption {
                    <details class="cap" key={model.play.pos.to_string()}>
                        <summary title="The whole caption">{ c }</summary>
                    </details>
                }
                if let Some(example) = set_aside {
                    <p class="hint">{ format!("The example's captions are about {example}; the views follow {}. ", model.session.focus.clone().unwrap_or_default()) }
                        <button class="link" onclick={ let d = dispatch.clone(); move |_| d.dispatch(Action::ShowCaptions) }>{"Show them anyway"}</button>
                    </p>
                }
                if first {
                    <p class="hint">{"Press ▶ Play (space) to watch the rollout, → to step, Shift+→ to jump to the next change."}</p>
                }
            </div>
            if model.play.held && !model.play.playing {
                <button class="continue" onclick={move |_| d.dispatch(Action::Playback(PlaybackAction::Play))}>{"Continue ▶"}</button>
            }
        </div>
    }
}
