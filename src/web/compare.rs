//! The Compare view: the scenario's variants side by side on one virtual clock. Each has its
//! chart (same axes) and a compact cluster view; a table puts their rollouts' numbers in
//! columns and marks the best of each row. The variants' settings are edited here.

use super::bindings;
use super::chart::RolloutChart;
use super::chart_geom;
use super::handles::Run;
use super::state::{Draft, PlaybackAction, VariantAction};
use crate::api::StrategyType;
use crate::cluster::trace::TraceStep;
use crate::scenario::compare::Comparison;
use crate::scenario::summary;
use crate::scenario::variant::{MAX_VARIANTS, MIN_VARIANTS};
use std::rc::Rc;
use yew::prelude::*;

/// A comparison shared by identity (a new one is a new `Rc`).
#[derive(Clone)]
pub struct Compared(pub Rc<Comparison>);

impl PartialEq for Compared {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub compare: Compared,
    pub drafts: Rc<Vec<Draft>>,
    pub vt_ms: f64,
    pub playing: bool,
    pub speed: f64,
    /// No settings to edit (a read-only page or an embed).
    pub readonly: bool,
    /// Without the clock's controls (an embed with `controls=none`).
    #[prop_or(true)]
    pub controls: bool,
    /// Playback on the shared clock.
    pub on_play: Callback<PlaybackAction>,
    /// The variants changed.
    pub on_variant: Callback<VariantAction>,
}

#[function_component(CompareView)]
pub fn compare_view(props: &Props) -> Html {
    let c = &props.compare.0;
    // One pair of axes for every chart: the latest end, the highest count.
    let axes = {
        let cmp = props.compare.clone();
        use_memo(cmp, |cmp| {
            let top = cmp
                .0
                .runs
                .iter()
                .flatten()
                .map(|s| chart_geom::y_top(&s.trace))
                .max()
                .unwrap_or(1);
            (cmp.0.end_ms.max(1), chart_geom::y_max_for(top))
        })
    };
    let table = {
        let cmp = props.compare.clone();
        use_memo(cmp, |cmp| summary::compare_rows(&cmp.0.rollouts()))
    };
    let no_effect = {
        let cmp = props.compare.clone();
        use_memo(cmp, |cmp| cmp.0.no_effect())
    };
    let d = props.on_play.clone();
    let on_seek = Callback::from(move |t: u64| d.emit(PlaybackAction::SeekTime(t)));
    let t = props.vt_ms.max(0.0) as u64;
    let names = c.names();
    html! {
        <section class="compare" aria-label="Compare variants">
            <div class="compare-head">
                <h2>{ format!("Compare: {} variants", c.variants.len()) }</h2>
                if !props.readonly {
                    <button onclick={ let d = props.on_variant.clone(); move |_| d.emit(VariantAction::Close) }>{"Back to one run"}</button>
                }
            </div>
            if !props.readonly {
                { settings(props) }
            }
            if props.controls {
                { clock(props, axes.0) }
            }
            <div class={classes!("compare-grid", format!("n{}", c.runs.len()))}>
                { for c.runs.iter().zip(&names).enumerate().map(|(i, (r, name))| {
                    let title = AttrValue::from(format!("{}. {name}", i + 1));
                    match r {
                        Ok(s) => html! {
                            <section class="variant" aria-label={format!("Variant {}: {name}", i + 1)}>
                                if let Some(why) = no_effect.get(i).cloned().flatten() {
                                    <p class="note no-effect">{ why }</p>
                                }
                                <RolloutChart run={Run(s.clone())} vt_ms={props.vt_ms} on_seek={on_seek.clone()} axes={Some(*axes)} title={title} />
                                { compact(s.trace.get(s.step_at_time(t)).map(|s| &**s)) }
                            </section>
                        },
                        Err(e) => html! {
                            <section class="variant" aria-label={format!("Variant {}: {name}", i + 1)}>
                                <p class="chart-title">{ title }</p>
                                <p class="error" role="alert">{ e.clone() }</p>
                            </section>
                        },
                    }
                }) }
            </div>
            { compare_table(&names, &table) }
        </section>
    }
}

/// The variants' settings: one field each (`path=value, …`; empty is the scenario as
/// written), taken on Enter or when the field is left.
fn settings(props: &Props) -> Html {
    let n = props.drafts.len();
    html! {
        <div class="variant-settings">
            <p class="muted">{"Each variant changes the Deployment (spec.replicas, spec.minReadySeconds, spec.progressDeadlineSeconds, spec.strategy.type, spec.strategy.rollingUpdate.maxSurge / maxUnavailable, spec.template.spec.terminationGracePeriodSeconds, spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds, …) or the world (world.startMs, world.readyMs, world.failingImages, world.kubernetes=1.33, world.featureGates.NAME=true, …). Comma-separated path=value; empty is the scenario as written."}</p>
            { for props.drafts.iter().enumerate().map(|(i, dr)| {
                let d = props.on_variant.clone();
                let onchange = Callback::from(move |e: Event| d.emit(VariantAction::Set(i, bindings::select_value(&e))));
                let d = props.on_variant.clone();
                let id = format!("variant-{}", i + 1);
                html! {
                    <div class="variant-field">
                        <label for={id.clone()}>{ format!("Variant {}", i + 1) }</label>
                        <input id={id.clone()} type="text" spellcheck="false" value={dr.text.clone()} {onchange}
                            placeholder="as written" aria-invalid={dr.error.is_some().to_string()}
                            aria-describedby={dr.error.as_ref().map(|_| format!("{id}-error"))} />
                        if n > MIN_VARIANTS {
                            <button aria-label={format!("Remove variant {}", i + 1)} onclick={move |_| d.emit(VariantAction::Remove(i))}>{"×"}</button>
                        }
                        if let Some(e) = &dr.error {
                            <p class="error" id={format!("{id}-error")} role="alert">{ e.clone() }</p>
                        }
                    </div>
                }
            }) }
            if n < MAX_VARIANTS {
                <button onclick={ let d = props.on_variant.clone(); move |_| d.emit(VariantAction::Add) }>{"Add a variant"}</button>
            }
        </div>
    }
}

/// The shared clock: play, step between instants, speed, and a scrubber over virtual time.
fn clock(props: &Props, end: u64) -> Html {
    let btn = |label: &'static str, name: &'static str, a: fn() -> PlaybackAction| {
        let d = props.on_play.clone();
        html! { <button aria-label={name} title={name} onclick={move |_| d.emit(a())}>{ label }</button> }
    };
    let d = props.on_play.clone();
    let on_scrub = Callback::from(move |e: InputEvent| {
        if let Ok(t) = bindings::select_value(&e).parse::<f64>() {
            d.emit(PlaybackAction::SeekTime(t as u64));
        }
    });
    let t = props.vt_ms.clamp(0.0, end as f64);
    html! {
        <section class="timeline compare-clock" aria-label="Shared clock">
            <div class="controls">
                { btn("«", "Step back", || PlaybackAction::StepBack) }
                if props.playing {
                    { btn("❚❚", "Pause", || PlaybackAction::Pause) }
                } else {
                    { btn("▶", "Play", || PlaybackAction::Play) }
                }
                { btn("»", "Step forward", || PlaybackAction::StepForward) }
                { super::timeline::speed_select(props.speed, &props.on_play) }
                <span class="clock">{ format!("t = {:.1}s of {:.1}s", t / 1000.0, end as f64 / 1000.0) }</span>
            </div>
            <div class="scrub">
                <input type="range" aria-label="Virtual time" min="0" max={end.to_string()} step="1"
                    value={(t as u64).to_string()} oninput={on_scrub}
                    aria-valuetext={format!("t = {:.1} s of {:.1} s", t / 1000.0, end as f64 / 1000.0)} />
            </div>
        </section>
    }
}

/// A variant's ReplicaSets at the shared instant: counts, and a bar of their pods by state.
fn compact(step: Option<&TraceStep>) -> Html {
    let Some(step) = step else {
        return html! { <p class="muted">{"Nothing has happened yet."}</p> };
    };
    let head = step.deployment.as_ref().map(|d| {
        let strategy = if d.strategy == StrategyType::RollingUpdate {
            format!(
                "RollingUpdate, maxSurge {} · maxUnavailable {}",
                d.max_surge, d.max_unavailable
            )
        } else {
            d.strategy.to_string()
        };
        format!(
            "replicas {} · {strategy} · available {}",
            d.replicas, d.status.available_replicas
        )
    });
    let newest = step.newest().map_or(0, |r| r.revision);
    html! {
        <div class="compact">
            if let Some(h) = head { <p class="compact-head">{ h }</p> }
            <ul>
                { for step.replica_sets.iter().rev().map(|rs| {
                    let p = &rs.pods;
                    let total = (p.pending + p.running + p.terminating).max(1) as f64;
                    let part = |n: u32, class: &'static str| (n > 0).then(|| html! {
                        <span class={classes!("seg", class)} style={format!("width:{:.1}%", n as f64 * 100.0 / total)}></span>
                    });
                    let words = format!("{} available, {} ready, {} running, {} pending, {} terminating",
                        p.available, p.ready.saturating_sub(p.available), p.running.saturating_sub(p.ready), p.pending, p.terminating);
                    html! {
                        <li class={classes!((rs.revision == newest).then_some("newest"))}>
                            <span class="rs-line">
                                <b>{ format!("rev {}", rs.revision) }</b>{" "}
                                <span class="rs-name">{ rs.name.clone() }</span>{" "}
                                <span class="rs-counts">{ format!("{} / {} / {} / {}", rs.replicas, rs.status.replicas, rs.status.ready_replicas, rs.status.available_replicas) }</span>
                            </span>
                            <span class="state-bar" role="img" aria-label={words.clone()} title={words}>
                                { part(p.available, "available") }
                                { part(p.ready.saturating_sub(p.available), "ready") }
                                { part(p.running.saturating_sub(p.ready), "running") }
                                { part(p.pending, "pending") }
                                { part(p.terminating, "terminating") }
                            </span>
                        </li>
                    }
                }) }
            </ul>
        </div>
    }
}

/// The numbers in columns, the best of each row marked (in words too, for screen readers).
fn compare_table(names: &[String], rows: &[summary::CompareRow]) -> Html {
    if rows.is_empty() {
        return html! { <p class="muted">{"No variant moved the Deployment to a new ReplicaSet: nothing to compare yet."}</p> };
    }
    html! {
        <div class="table-wrap" tabindex="0" role="region" aria-label="The variants' numbers">
            <table class="compare-table">
                <thead>
                    <tr><th scope="col">{"measure"}</th>{ for names.iter().enumerate().map(|(i, n)| html! { <th scope="col">{ format!("{}. {n}", i + 1) }</th> }) }</tr>
                </thead>
                <tbody>
                    { for rows.iter().map(|r| if r.heading {
                        html! { <tr class="heading"><th colspan={(names.len() + 1).to_string()} scope="colgroup">{ r.label.clone() }</th></tr> }
                    } else {
                        html! {
                            <tr>
                                <th scope="row" class={classes!(r.differs().then_some("differs"))}>
                                    { r.label.clone() }
                                    if r.differs() { <span class="differs-mark" aria-hidden="true">{" ≠"}</span><span class="sr-only">{" (the variants differ)"}</span> }
                                </th>
                                { for r.cells.iter().zip(&r.best).map(|(c, b)| html! {
                                    <td class={classes!(b.then_some("best"))}>{ c.clone() }
                                        if *b { <span class="best-mark" aria-hidden="true">{" ★"}</span><span class="sr-only">{" (best)"}</span> }
                                    </td>
                                }) }
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            <p class="muted">{"★ the best of the row (no mark where every variant is alike); ≠ a row where the variants differ. Times are virtual."}</p>
        </div>
    }
}
