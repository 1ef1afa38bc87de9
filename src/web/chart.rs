//! The rollout chart (SVG): each ReplicaSet's pods stacked in its colour, the available and
//! ready lines, the guard rails replicas + maxSurge and replicas − maxUnavailable dashed,
//! commands and captions on top, the Deployment's syncs by branch underneath, and the
//! playhead. A click or a drag seeks; hovering shows the values at that instant in the line
//! under the chart (the playhead's values otherwise). Beside it, the run's rollout summary.

use super::bindings;
use super::chart_geom::{self, Chart};
use super::handles::Run;
use crate::scenario::summary::{self, Rollout, secs};
use std::rc::Rc;
use yew::prelude::*;

/// The drawing of one run, shared by identity: the SVG's static part re-renders only when
/// the run (or the axes) change, not at every frame.
#[derive(Clone)]
pub struct Drawn(pub Rc<Chart>);

impl PartialEq for Drawn {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Run,
    pub vt_ms: f64,
    /// Seek to a virtual instant (ms).
    pub on_seek: Callback<u64>,
    /// Shared axes (end of time, top of the pod axis), for charts side by side.
    #[prop_or_default]
    pub axes: Option<(u64, u32)>,
    /// What the chart is of (a comparison's variant name).
    #[prop_or_default]
    pub title: Option<AttrValue>,
}

/// The chart's size in SVG units: narrower on a phone, so that its text stays readable.
fn size() -> (f64, f64) {
    if bindings::narrow() {
        (360.0, 190.0)
    } else {
        (640.0, 200.0)
    }
}

/// (Long: a component, whose markup is most of its length.)
#[function_component(RolloutChart)]
pub fn rollout_chart(props: &Props) -> Html {
    let drawn = {
        let deps = (props.run.clone(), props.axes);
        use_memo(deps, |(run, axes)| {
            let (w, h) = size();
            let t_end = axes.map_or(run.0.end_ms(), |a| a.0);
            Drawn(Rc::new(chart_geom::chart(
                &run.0.trace,
                w,
                h,
                t_end,
                axes.map(|a| a.1),
            )))
        })
    };
    let hover = use_state(|| None::<u64>);
    let dragging = use_mut_ref(|| false);
    let svg = use_node_ref();
    let c = &drawn.0;
    let f = c.frame;
    // Events reach Yew at the page's root: the place is measured on the SVG itself.
    let t_of = {
        let svg = svg.clone();
        move |e: &MouseEvent| bindings::fraction_x(&svg, e).map(|x| f.t_at(x * f.w))
    };
    let onpointerdown = {
        let (seek, dragging, svg, t_of) = (
            props.on_seek.clone(),
            dragging.clone(),
            svg.clone(),
            t_of.clone(),
        );
        Callback::from(move |e: PointerEvent| {
            if let Some(t) = t_of(&e) {
                *dragging.borrow_mut() = true;
                bindings::capture_pointer(&svg, &e);
                seek.emit(t);
            }
        })
    };
    let onpointermove = {
        let (seek, dragging, hover) = (props.on_seek.clone(), dragging.clone(), hover.clone());
        Callback::from(move |e: PointerEvent| {
            let t = t_of(&e);
            if *dragging.borrow()
                && let Some(t) = t
            {
                seek.emit(t);
            }
            hover.set(t);
        })
    };
    let onpointerup = {
        let dragging = dragging.clone();
        Callback::from(move |_: PointerEvent| *dragging.borrow_mut() = false)
    };
    let onpointerleave = {
        let hover = hover.clone();
        Callback::from(move |_: PointerEvent| {
            *dragging.borrow_mut() = false;
            hover.set(None);
        })
    };
    let at = hover.unwrap_or(props.vt_ms.max(0.0) as u64).min(f.t_end);
    let x = f.x(props.vt_ms.max(0.0) as u64);
    let values = values_at(c, at, hover.is_some());
    let id = format!(
        "chart-text-{}",
        props
            .title
            .as_deref()
            .unwrap_or("main")
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    html! {
        <figure class="chart">
            if let Some(t) = &props.title {
                <figcaption class="chart-title">{ t.clone() }</figcaption>
            }
            <svg ref={svg} viewBox={format!("0 0 {} {}", f.w, f.h)} role="img" aria-label="Rollout chart" aria-describedby={id.clone()}
                {onpointerdown} {onpointermove} {onpointerup} {onpointerleave}>
                <ChartBody drawn={(*drawn).clone()} />
                <line class="playhead" x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1={f.top.to_string()} y2={(f.h - f.bottom).to_string()} />
                if let Some(t) = *hover {
                    <line class="hover" x1={format!("{:.1}", f.x(t))} x2={format!("{:.1}", f.x(t))} y1={f.top.to_string()} y2={(f.h - f.bottom).to_string()} />
                }
            </svg>
            if c.requests.is_some() {
                <RequestStrip chart={(*drawn).clone()} x={x} />
            }
            <p class="chart-values" aria-live="off">{ values }</p>
            <ul class="chart-legend">
                { for c.bands.iter().filter(|b| !b.terminating).map(|b| html! {
                    <li><span class={classes!("swatch", format!("rev-c{}", b.colour))} aria-hidden="true"></span>{ b.name.clone() }</li>
                }) }
                if c.bands.iter().any(|b| b.terminating) {
                    <li><span class="swatch terminating" aria-hidden="true"></span>{"terminating (faint, on top)"}</li>
                }
                <li><span class="swatch line available" aria-hidden="true"></span>{"available"}</li>
                <li><span class="swatch line ready" aria-hidden="true"></span>{"ready"}</li>
                <li><span class="swatch rail" aria-hidden="true"></span>{"replicas + maxSurge, replicas − maxUnavailable"}</li>
                if c.requests.is_some() {
                    <li><span class="swatch req-served" aria-hidden="true"></span>{"requests/s served"}</li>
                    <li><span class="swatch req-failed" aria-hidden="true"></span>{"requests/s failed"}</li>
                }
            </ul>
            <p class="sr-only" id={id}>{ chart_geom::describe(c) }</p>
        </figure>
    }
}

/// The values at `t` in words: the pods per ReplicaSet, ready, available, and the rails.
fn values_at(c: &Chart, t: u64, hovering: bool) -> String {
    let Some(p) = chart_geom::point_at(&c.points, t) else {
        return String::new();
    };
    let mut s = format!("{}t = {}: ", if hovering { "at " } else { "" }, secs(t));
    let sets: Vec<String> = p
        .sets
        .iter()
        .filter(|r| r.pods > 0 || r.terminating > 0)
        .map(|r| {
            if r.terminating > 0 {
                format!("{} {} (+{} terminating)", r.name, r.pods, r.terminating)
            } else {
                format!("{} {}", r.name, r.pods)
            }
        })
        .collect();
    s.push_str(&if sets.is_empty() {
        "no pods".into()
    } else {
        sets.join(", ")
    });
    s.push_str(&format!("; {} ready, {} available", p.ready, p.available));
    if let (Some(ceil), Some(floor)) = (p.ceiling, p.floor) {
        s.push_str(&format!("; ceiling {ceil}, floor {floor}"));
    }
    if let Some((served, failed)) = c.requests.as_ref().and_then(|r| r.at(t)) {
        s.push_str(&format!(
            "; requests/s {} served, {} failed",
            served.round(),
            failed.round()
        ));
    }
    s
}

#[derive(Properties, PartialEq)]
struct StripProps {
    /// The chart, whose requests strip it draws.
    chart: Drawn,
    /// The playhead.
    x: f64,
}

/// The load's requests a second under the chart, on its time axis: all sent (failed on top,
/// red) and the served ones.
#[function_component(RequestStrip)]
fn request_strip(props: &StripProps) -> Html {
    let Some(r) = &props.chart.0.requests else {
        return html! {};
    };
    let f = r.frame;
    let (x0, x1, y1) = (f.left, f.w - f.right, f.h - f.bottom);
    html! {
        <svg class="requests" viewBox={format!("0 0 {} {}", f.w, f.h)} role="img" aria-label="Requests a second, served and failed">
            <text x={(x0 - 4.0).to_string()} y={format!("{:.1}", f.y(f.y_max as f64) + 4.0)} text-anchor="end">{ f.y_max }</text>
            <text x={(x0 - 4.0).to_string()} y={(y1 + 4.0).to_string()} text-anchor="end">{"0"}</text>
            <text x={(x1).to_string()} y={(f.h - 2.0).to_string()} text-anchor="end">{"requests/s"}</text>
            <path class="req sent" d={r.sent.clone()} />
            <path class="req served" d={r.served.clone()} />
            <line class="axis" x1={x0.to_string()} x2={x1.to_string()} y1={y1.to_string()} y2={y1.to_string()} />
            <line class="playhead" x1={format!("{:.1}", props.x)} x2={format!("{:.1}", props.x)} y1={f.top.to_string()} y2={y1.to_string()} />
        </svg>
    }
}

#[derive(Properties, PartialEq)]
struct BodyProps {
    drawn: Drawn,
}

/// The part of the chart that changes only with the run: grid, bands, lines, marks.
#[function_component(ChartBody)]
fn chart_body(props: &BodyProps) -> Html {
    let c = &props.drawn.0;
    let f = c.frame;
    let (x0, x1, y0, y1) = (f.left, f.w - f.right, f.top, f.h - f.bottom);
    html! {
        <g>
            <g class="grid">
                { for c.y_ticks.iter().map(|v| {
                    let y = f.y(*v as f64);
                    html! { <g>
                        <line x1={x0.to_string()} x2={x1.to_string()} y1={format!("{y:.1}")} y2={format!("{y:.1}")} />
                        <text x={(x0 - 4.0).to_string()} y={format!("{:.1}", y + 4.0)} text-anchor="end">{ v }</text>
                    </g> }
                }) }
                { for c.t_ticks.iter().map(|t| html! {
                    <text x={format!("{:.1}", f.x(*t))} y={(y1 + 24.0).to_string()} text-anchor="middle">{ format!("{}s", t / 1000) }</text>
                }) }
            </g>
            { for c.bands.iter().map(|b| html! {
                <path class={classes!("band", format!("rev-c{}", b.colour), b.terminating.then_some("terminating"))} d={b.path.clone()}><title>{ b.name.clone() }</title></path>
            }) }
            <path class="rail" d={c.ceiling.clone()}><title>{"replicas + maxSurge"}</title></path>
            <path class="rail" d={c.floor.clone()}><title>{"replicas − maxUnavailable"}</title></path>
            <path class="line ready" d={c.ready.clone()} />
            <path class="line available" d={c.available.clone()} />
            <line class="axis" x1={x0.to_string()} x2={x1.to_string()} y1={y1.to_string()} y2={y1.to_string()} />
            { for c.syncs.iter().map(|s| html! {
                <rect class={classes!("sync", s.class)} x={format!("{:.1}", s.x - 1.0)} y={(y1 + 2.0).to_string()} width="2" height="7"><title>{ titled(s) }</title></rect>
            }) }
            { for c.actions.iter().map(|a| html! {
                <path class={classes!("mark", a.class)} d={format!("M{:.1},{y0}l-4,-8h8z", a.x)}><title>{ titled(a) }</title></path>
            }) }
        </g>
    }
}

/// A mark's title, with the marks drawn under it counted.
fn titled(t: &chart_geom::Tick) -> String {
    match t.more {
        0 => t.label.clone(),
        n => format!("{} (and {n} more here)", t.label),
    }
}

#[derive(Properties, PartialEq)]
pub struct SummaryProps {
    pub run: Run,
    pub on_seek: Callback<u64>,
}

/// Each rollout's numbers; the instants are links that seek there.
#[function_component(RolloutSummary)]
pub fn rollout_summary(props: &SummaryProps) -> Html {
    let rollouts = {
        let run = props.run.clone();
        use_memo(run, |run| summary::rollouts(&run.0.trace))
    };
    if rollouts.is_empty() {
        return html! { <section class="summary" aria-label="Rollout summary"><p class="muted">{"No rollout yet: the Deployment has not moved to a new ReplicaSet."}</p></section> };
    }
    let at = |t: u64| {
        let seek = props.on_seek.clone();
        html! { <button class="link" onclick={move |_| seek.emit(t)}>{ format!("t = {}", secs(t)) }</button> }
    };
    let one = |(n, r): (usize, &Rollout)| {
        html! {
            <div class="rollout">
                <h3>{ format!("Rollout {} ", n + 1) }{ at(r.start_ms) }</h3>
                <p class="change"><code>{ r.change.clone() }</code></p>
                <dl>
                    <dt>{ if r.ending == summary::Ending::Complete { "complete in" } else { "ran for" } }</dt>
                    <dd>{ secs(r.duration_ms) }{" "}<span class="muted">{ format!("({})", r.ending.as_str()) }</span></dd>
                    <dt>{"lowest available"}</dt>
                    <dd>{ format!("{} of {} ", r.lowest_available, r.replicas) }{ at(r.lowest_available_ms) }</dd>
                    <dt>{"highest total pods"}</dt>
                    <dd>{ format!("{} ", r.highest_total) }{ at(r.highest_total_ms) }</dd>
                    <dt>{"extra pod-seconds"}</dt>
                    <dd>{ format!("{:.1}", r.extra_pod_seconds) }</dd>
                    <dt>{"Deployment syncs"}</dt>
                    <dd>{ r.syncs }</dd>
                    <dt>{"progress deadline"}</dt>
                    <dd>{ if r.deadline_exceeded { "exceeded" } else { "not exceeded" } }</dd>
                    if let Some(f) = &r.failed_requests {
                        <dt>{"failed requests"}</dt>
                        <dd class={classes!((f.count > 0).then_some("error"))}>{ f.text() }</dd>
                    }
                </dl>
            </div>
        }
    };
    html! {
        <section class="summary" aria-label="Rollout summary">
            { for rollouts.iter().enumerate().map(one) }
        </section>
    }
}
