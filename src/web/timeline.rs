//! The timeline: play/pause, step back and forward, speed, and a scrubber over virtual time with
//! markers for user actions and branch changes.

use super::bindings;
use super::handles::Run;
use super::state::{PlaybackAction, SPEEDS};
use crate::cluster::trace::Body;
use crate::controller::deployment::Branch;
use crate::scenario::session::Marker;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Run,
    pub pos: usize,
    pub vt_ms: f64,
    pub playing: bool,
    pub speed: f64,
    /// The last step the timeline reaches (an embed's `until` may stop it early).
    pub last: usize,
    /// Playback asked for (play, step, seek, speed).
    pub on: Callback<PlaybackAction>,
    /// Before the first step (predict mode asking what the first sync does).
    #[prop_or_default]
    pub before: bool,
}

/// The clock line: virtual seconds and which step of how many.
pub fn clock(vt_ms: f64, pos: usize, steps: usize) -> String {
    format!("t = {:.1}s · step {}/{steps}", vt_ms / 1000.0, pos + 1)
}

/// The slider's spoken value.
pub fn value_text(vt_ms: f64, pos: usize, steps: usize) -> String {
    format!("t = {:.1} s, step {} of {steps}", vt_ms / 1000.0, pos + 1)
}

/// The playback speed picker (the page's timeline and the Compare view's clock).
pub fn speed_select(speed: f64, on: &Callback<PlaybackAction>) -> Html {
    let d = on.clone();
    let on_speed = Callback::from(move |e: Event| {
        if let Ok(x) = bindings::select_value(&e).parse::<f64>() {
            d.emit(PlaybackAction::SetSpeed(x));
        }
    });
    html! {
        <label class="speed">
            <span>{"speed"}</span>
            <select aria-label="Speed" onchange={on_speed}>
                { for SPEEDS.iter().map(|x| html! {
                    <option value={x.to_string()} selected={*x == speed}>{ format!("{x}×") }</option>
                }) }
            </select>
        </label>
    }
}

/// Markers closer than this (percent of the width) share one place: the first stands for them.
const MARKER_GAP: f64 = 1.2;

/// The timeline: play, step, speed, the scrubber with its markers. (A component; its markup is
/// most of its length.)
/// (Long: a component, whose markup and key handling are most of its length.)
#[function_component(Timeline)]
pub fn timeline(props: &Props) -> Html {
    let s = &props.run.0;
    let last = props.last.min(s.len().saturating_sub(1));
    let end = s.trace.get(last).map_or(0, |t| t.t).max(1);
    let markers = {
        let run = props.run.clone();
        use_memo(run, |run| run.0.markers())
    };
    let d = props.on.clone();
    let on_scrub = Callback::from(move |e: InputEvent| {
        let v = bindings::select_value(&e);
        if let Ok(t) = v.parse::<f64>() {
            d.emit(PlaybackAction::SeekTime(t as u64));
        }
    });
    let what = if props.before {
        "before the first step: the objects have just been created".to_string()
    } else {
        s.trace
            .get(props.pos)
            .map(|t| match &t.body {
                Body::Action(a) => format!(
                    "{}: {}",
                    if s.is_typed(props.pos) {
                        "you"
                    } else {
                        "scenario"
                    },
                    a.command
                        .as_deref()
                        .unwrap_or("(caption)")
                        .lines()
                        .next()
                        .unwrap_or("")
                ),
                Body::World(changes) => changes.first().cloned().unwrap_or_default(),
                Body::Sync(y) => format!("{} controller synced {}", y.controller.as_str(), y.key),
            })
            .unwrap_or_default()
    };
    let btn = |label: &'static str,
               name: &'static str,
               a: fn() -> PlaybackAction,
               key: &'static str| {
        let d = props.on.clone();
        html! { <button aria-label={name} title={format!("{name} ({key})")} onclick={move |_| d.emit(a())}>{ label }</button> }
    };
    let time = props.vt_ms.min(end as f64);
    let d = props.on.clone();
    // The slider steps as the page does: one step per arrow key (its own keys are not the
    // page's shortcuts, which ignore inputs).
    let on_slider_key = Callback::from(move |e: KeyboardEvent| {
        let a = match e.key().as_str() {
            "ArrowRight" | "ArrowUp" if e.shift_key() => PlaybackAction::NextChange,
            "ArrowLeft" | "ArrowDown" if e.shift_key() => PlaybackAction::PreviousChange,
            "ArrowRight" | "ArrowUp" => PlaybackAction::StepForward,
            "ArrowLeft" | "ArrowDown" => PlaybackAction::StepBack,
            _ => return,
        };
        e.prevent_default();
        d.emit(a);
    });
    let mut placed: Vec<f64> = vec![];
    let shown: Vec<(usize, Marker, f64)> = markers
        .iter()
        .filter(|(i, _)| *i <= last)
        .filter_map(|(i, m)| {
            let left = s.trace[*i].t as f64 * 100.0 / end as f64;
            if placed.last().is_some_and(|p| left - p < MARKER_GAP) {
                return None;
            }
            placed.push(left);
            Some((*i, *m, left))
        })
        .collect();
    html! {
        <section class="timeline" aria-label="timeline">
            <div class="controls">
                { btn("⇤", "Previous change", || PlaybackAction::PreviousChange, "Shift+←") }
                { btn("«", "Step back", || PlaybackAction::StepBack, "←") }
                if props.playing {
                    { btn("❚❚", "Pause", || PlaybackAction::Pause, "space") }
                } else {
                    { btn("▶", "Play", || PlaybackAction::Play, "space") }
                }
                { btn("»", "Step forward", || PlaybackAction::StepForward, "→") }
                { btn("⇥", "Next change", || PlaybackAction::NextChange, "Shift+→") }
                { speed_select(props.speed, &props.on) }
                <span class="clock" aria-live="off">{ clock(time, props.pos, last + 1) }</span>
            </div>
            <div class="scrub">
                <input type="range" aria-label="Virtual time" min="0" max={end.to_string()} step="1"
                    value={(time as u64).to_string()} oninput={on_scrub} onkeydown={on_slider_key}
                    aria-valuetext={value_text(time, props.pos, last + 1)} />
                <div class="markers" role="group" aria-label="Marked steps">
                    { for shown.iter().map(|(i, m, left)| {
                        let t = s.trace[*i].t as f64 / 1000.0;
                        let (class, what) = match m {
                            Marker::Action => ("action", s.trace[*i].command().and_then(|c| c.lines().next()).unwrap_or("caption").to_string()),
                            Marker::Branch => ("branch", format!("{} branch", s.trace[*i].branch().map_or("", Branch::as_str))),
                        };
                        let label = format!("Go to t = {t:.1}s: {what}");
                        let (d, i) = (props.on.clone(), *i);
                        html! {
                            <button class={classes!("marker", class)} style={format!("left:{left:.3}%")}
                                title={label.clone()} aria-label={label} onclick={move |_| d.emit(PlaybackAction::Seek(i))}></button>
                        }
                    }) }
                </div>
            </div>
            <p class="what">{ what }</p>
        </section>
    }
}
