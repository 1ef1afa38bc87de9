//! The rollout chart's drawing, as data: where each ReplicaSet's stacked area, the available
//! and ready lines, the two guard rails and the markers go, in the SVG's coordinates. Pure and
//! native-tested; `chart.rs` only turns it into elements.

use crate::cluster::trace::{Controller, StepKind, TraceStep};
use crate::controller::deployment::Branch;
use crate::scenario::summary::{Point, instants};
use std::borrow::Borrow;
use std::collections::HashMap;
use std::fmt::Write;

/// The palette's size: ReplicaSets take colours `rev-c0` … by their first revision.
pub const PALETTE: i64 = 6;

/// Each ReplicaSet's colour for the whole run: its revision when it first appears, so that a
/// rollback that renumbers it does not repaint it. The cluster view uses the same.
pub fn colours<S: Borrow<TraceStep>>(trace: &[S]) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    for s in trace {
        for rs in &s.borrow().replica_sets {
            // (A name is copied only the first time it is seen.)
            if !out.contains_key(&rs.name) {
                out.insert(rs.name.clone(), rs.revision.rem_euclid(PALETTE) as usize);
            }
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub w: f64,
    pub h: f64,
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
    pub t_end: u64,
    pub y_max: u32,
}

impl Frame {
    pub fn x(&self, t: u64) -> f64 {
        self.left + (self.w - self.left - self.right) * t.min(self.t_end) as f64 / self.t_end as f64
    }

    pub fn y(&self, v: f64) -> f64 {
        let inner = self.h - self.top - self.bottom;
        self.top + inner - inner * v / self.y_max as f64
    }

    /// The virtual time under x (clamped to the axis).
    pub fn t_at(&self, x: f64) -> u64 {
        let f = (x - self.left) / (self.w - self.left - self.right);
        (f.clamp(0.0, 1.0) * self.t_end as f64).round() as u64
    }
}

/// A ReplicaSet's band in the stack.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub name: String,
    pub colour: usize,
    pub path: String,
    /// The ReplicaSet's terminating pods, stacked above every band of pods that count.
    pub terminating: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub step: usize,
    pub x: f64,
    pub class: &'static str,
    pub label: String,
    /// Marks of the same kind drawn over this one (closer than half its width): one is
    /// drawn, its title counts the others.
    pub more: usize,
}

/// A command's mark is 8 px wide, a sync's 2 px: marks of one kind closer than half that are
/// drawn as one.
const ACTION_MERGE: f64 = 4.0;
const SYNC_MERGE: f64 = 1.0;

/// Adds step `step`'s mark at `x`, or counts it on the last one when it would be drawn over
/// it (closer than `within` px): a long session holds thousands of syncs within a few pixels,
/// which the chart need not draw one by one. The label is written only for a mark drawn.
fn mark(
    ticks: &mut Vec<Tick>,
    (step, x, class): (usize, f64, &'static str),
    within: f64,
    label: impl FnOnce() -> String,
) {
    match ticks.last_mut() {
        Some(last) if last.class == class && x - last.x < within => last.more += 1,
        _ => ticks.push(Tick {
            step,
            x,
            class,
            label: label(),
            more: 0,
        }),
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub frame: Frame,
    /// The focus Deployment after the last step at each instant.
    pub points: Vec<Point>,
    pub bands: Vec<Band>,
    pub available: String,
    pub ready: String,
    pub ceiling: String,
    pub floor: String,
    /// Commands and captions (top), the Deployment's syncs by branch (bottom).
    pub actions: Vec<Tick>,
    pub syncs: Vec<Tick>,
    pub y_ticks: Vec<u32>,
    pub t_ticks: Vec<u64>,
    /// The load's requests a second, when the run has a load on a Service.
    pub requests: Option<Requests>,
}

/// An interval of the load: (start, end, served/s, failed/s).
pub type Rate = (u64, u64, f64, f64);

/// The strip under the chart: requests a second, served and failed, over the same time axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Requests {
    pub frame: Frame,
    pub rates: Vec<Rate>,
    /// The area of all requests sent (failed on top of served), and of the served ones.
    pub sent: String,
    pub served: String,
}

impl Requests {
    /// The rates of the interval holding `t` (the last one's at its end and after).
    pub fn at(&self, t: u64) -> Option<(f64, f64)> {
        let i = self.rates.partition_point(|r| r.1 <= t);
        let r = self.rates.get(i).or(self.rates.last())?;
        Some((r.2, r.3))
    }
}

/// The load's counts at each instant (the last step's), cumulative: (t, served, failed).
fn request_counts<S: Borrow<TraceStep>>(trace: &[S]) -> Vec<(u64, f64, f64)> {
    let mut out: Vec<(u64, f64, f64)> = vec![];
    for st in trace {
        let st = st.borrow();
        let Some(v) = st.traffic else { continue };
        let at = (st.t, v.served as f64, v.failed as f64);
        match out.last_mut() {
            Some(last) if last.0 == st.t => *last = at,
            _ => out.push(at),
        }
    }
    out
}

/// The counts at `t`, between the instants around it: the load is constant between two
/// changes, and every change is a step, so the counts grow linearly in between.
fn counts_at(counts: &[(u64, f64, f64)], t: u64) -> (f64, f64) {
    let i = counts.partition_point(|c| c.0 <= t);
    match (i.checked_sub(1).map(|j| counts[j]), counts.get(i)) {
        (Some(a), Some(b)) => {
            let f = (t - a.0) as f64 / (b.0 - a.0) as f64;
            (a.1 + (b.1 - a.1) * f, a.2 + (b.2 - a.2) * f)
        }
        (Some(a), None) => (a.1, a.2),
        (None, _) => (0.0, 0.0),
    }
}

/// The requests strip over the chart's time axis (`None` without a load): rates over whole
/// seconds (coarser on a long run, so that it has at most about 300 intervals).
fn requests<S: Borrow<TraceStep>>(trace: &[S], chart: &Frame) -> Option<Requests> {
    let counts = request_counts(trace);
    let last = counts.last()?.0;
    let width = (chart.t_end / 300).max(1000).div_ceil(1000) * 1000;
    let mut rates = vec![];
    let mut t = 0;
    while t < last.min(chart.t_end) {
        let end = (t + width).min(last);
        let (s0, f0) = counts_at(&counts, t);
        let (s1, f1) = counts_at(&counts, end);
        let secs = (end - t) as f64 / 1000.0;
        rates.push((t, end, (s1 - s0) / secs, (f1 - f0) / secs));
        t = end;
    }
    let top = rates.iter().map(|r| r.2 + r.3).fold(0.0, f64::max);
    let frame = Frame {
        h: 64.0,
        top: 6.0,
        bottom: 14.0,
        y_max: (top.ceil() as u32).max(1),
        ..*chart
    };
    let area = |v: &dyn Fn(&Rate) -> f64| {
        let base = frame.y(0.0);
        let mut d = String::new();
        for r in &rates {
            d.push('M');
            push_xy(&mut d, frame.x(r.0), base);
            d.push('V');
            push_d1(&mut d, frame.y(v(r)));
            d.push('H');
            push_d1(&mut d, frame.x(r.1));
            d.push('V');
            push_d1(&mut d, base);
            d.push('Z');
        }
        d
    };
    Some(Requests {
        sent: area(&|r| r.2 + r.3),
        served: area(&|r| r.2),
        frame,
        rates,
    })
}

/// A round step for about `n` ticks over `max`.
fn nice_step(max: f64, n: f64) -> f64 {
    let raw = (max / n).max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

/// A step line through `(t, value)` (each value holds until the next instant), broken where
/// there is none.
/// A coordinate with one decimal, as `{:.1}` writes it, but through an integer (itoa): a long
/// run's chart writes tens of thousands of them, and float formatting was most of its time.
fn push_d1(out: &mut String, v: f64) {
    let tenths = (v * 10.0).round() as i64;
    if tenths < 0 {
        out.push('-');
    }
    let tenths = tenths.unsigned_abs();
    out.push_str(itoa::Buffer::new().format(tenths / 10));
    out.push('.');
    out.push(char::from(b'0' + (tenths % 10) as u8));
}

/// `x,y` with one decimal each.
fn push_xy(out: &mut String, x: f64, y: f64) {
    push_d1(out, x);
    out.push(',');
    push_d1(out, y);
}

fn step_path(f: &Frame, pts: &[(u64, Option<f64>)]) -> String {
    let mut d = String::new();
    let mut pen = false;
    for (i, (t, v)) in pts.iter().enumerate() {
        let next = pts.get(i + 1).map_or(f.t_end, |p| p.0);
        match v {
            Some(v) => {
                let y = f.y(*v);
                if pen {
                    d.push('V');
                    push_d1(&mut d, y);
                } else {
                    d.push('M');
                    push_xy(&mut d, f.x(*t), y);
                }
                d.push('H');
                push_d1(&mut d, f.x(next));
                pen = true;
            }
            None => pen = false,
        }
    }
    d
}

/// The chart of the run's first `steps` steps over `[0, t_end]` on a `w` × `h` canvas (a
/// comparison passes the same `t_end` and `y_max` to every variant).
pub fn chart<S: Borrow<TraceStep>>(
    trace: &[S],
    w: f64,
    h: f64,
    t_end: u64,
    y_max: Option<u32>,
) -> Chart {
    let points = instants(trace);
    let y_max = y_max.unwrap_or_else(|| y_max_for(top_of(&points)));
    let frame = Frame {
        w,
        h,
        left: 34.0,
        right: 8.0,
        top: 14.0,
        bottom: 30.0,
        t_end: t_end.max(1),
        y_max,
    };
    let bands = bands(&frame, &points, &colours(trace));
    let line = |v: &dyn Fn(&Point) -> Option<f64>| {
        step_path(
            &frame,
            &points.iter().map(|p| (p.t, v(p))).collect::<Vec<_>>(),
        )
    };
    let available = line(&|p| Some(p.available as f64));
    let ready = line(&|p| Some(p.ready as f64));
    let ceiling = line(&|p| p.ceiling.map(|c| c as f64));
    let floor = line(&|p| p.floor.map(|c| c as f64));
    let (actions, syncs) = ticks(trace, &frame);
    let ys = nice_step(y_max as f64, 4.0) as u32;
    let ts = nice_step(frame.t_end as f64, 6.0) as u64;
    Chart {
        requests: requests(trace, &frame),
        frame,
        y_ticks: (0..=y_max).step_by(ys.max(1) as usize).collect(),
        t_ticks: (0..=frame.t_end).step_by(ts.max(1) as usize).collect(),
        points,
        bands,
        available,
        ready,
        ceiling,
        floor,
        actions,
        syncs,
    }
}

/// Each ReplicaSet's band of pods, stacked: the pods that count (what maxSurge bounds)
/// first, so that the top of their stack meets the rails; the terminating ones, fainter,
/// above them all.
fn bands(frame: &Frame, points: &[Point], colours: &HashMap<String, usize>) -> Vec<Band> {
    // Bands in the order the ReplicaSets first appear (the oldest at the bottom).
    let mut order: Vec<String> = vec![];
    for p in points {
        for s in &p.sets {
            if !order.contains(&s.name) {
                order.push(s.name.clone());
            }
        }
    }
    let count_of = |p: &Point, name: &str, terminating: bool| -> f64 {
        p.sets.iter().find(|s| s.name == name).map_or(0.0, |s| {
            if terminating {
                s.terminating as f64
            } else {
                s.pods as f64
            }
        })
    };
    let mut below: Vec<f64> = vec![0.0; points.len()];
    let mut bands = vec![];
    for terminating in [false, true] {
        for name in &order {
            if terminating && points.iter().all(|p| count_of(p, name, true) == 0.0) {
                continue;
            }
            let above: Vec<f64> = points
                .iter()
                .zip(&below)
                .map(|(p, b)| b + count_of(p, name, terminating))
                .collect();
            let mut d = step_path(
                frame,
                &points
                    .iter()
                    .zip(&above)
                    .map(|(p, v)| (p.t, Some(*v)))
                    .collect::<Vec<_>>(),
            );
            // Back along the lower edge, right to left.
            for i in (0..points.len()).rev() {
                let next = points.get(i + 1).map_or(frame.t_end, |q| q.t);
                let y = frame.y(below[i]);
                d.push('L');
                push_xy(&mut d, frame.x(next), y);
                d.push('L');
                push_xy(&mut d, frame.x(points[i].t), y);
            }
            d.push('Z');
            bands.push(Band {
                name: if terminating {
                    format!("{name} (terminating)")
                } else {
                    name.clone()
                },
                colour: colours.get(name).copied().unwrap_or(0),
                path: d,
                terminating,
            });
            below = above;
        }
    }
    bands
}

/// The marks under the chart: each action (a command or a caption) and each sync of the
/// Deployment the chart follows, up to the frame's end.
fn ticks<S: Borrow<TraceStep>>(trace: &[S], frame: &Frame) -> (Vec<Tick>, Vec<Tick>) {
    let focus = trace
        .iter()
        .rev()
        .find_map(|s| s.borrow().deployment.as_ref())
        .map(|d| d.name.clone());
    let mut actions = vec![];
    let mut syncs = vec![];
    for (i, s) in trace.iter().enumerate() {
        let s = s.borrow();
        if s.t > frame.t_end {
            break;
        }
        if s.kind() == StepKind::Action {
            let class = if s.command().is_some() {
                "command"
            } else {
                "caption"
            };
            mark(&mut actions, (i, frame.x(s.t), class), ACTION_MERGE, || {
                let first = s.command().and_then(|c| c.lines().next());
                first.unwrap_or("caption").to_string()
            });
        } else if s.controller() == Some(Controller::Deployment)
            && s.key().and_then(|k| k.rsplit('/').next()) == focus.as_deref()
            && let Some(b) = s.branch()
        {
            let at = (i, frame.x(s.t), branch_class(b));
            mark(&mut syncs, at, SYNC_MERGE, || {
                format!("Deployment sync: {}", b.as_str())
            });
        }
    }
    (actions, syncs)
}

/// A y axis a little above the highest value, at a round number.
pub fn y_max_for(top: u32) -> u32 {
    let step = nice_step(top as f64 * 1.1, 8.0);
    ((top as f64 * 1.1 / step).ceil() * step).max(1.0) as u32
}

/// The highest value a run's chart shows (for a comparison's shared axis).
pub fn y_top<S: Borrow<TraceStep>>(trace: &[S]) -> u32 {
    top_of(&instants(trace))
}

/// The highest of the pods, the ceiling and spec.replicas over the points (at least 1).
fn top_of(points: &[Point]) -> u32 {
    points
        .iter()
        .map(|p| {
            (p.total + p.sets.iter().map(|s| s.terminating).sum::<u32>())
                .max(p.ceiling.unwrap_or(0).max(0) as u32)
                .max(p.replicas.unwrap_or(0).max(0) as u32)
        })
        .max()
        .unwrap_or(1)
        .max(1)
}

pub fn branch_class(b: Branch) -> &'static str {
    match b {
        Branch::NotFound | Branch::SelectAll => "br-other",
        Branch::Delete => "br-delete",
        Branch::Pause => "br-pause",
        Branch::Rollback => "br-rollback",
        Branch::Scale => "br-scale",
        Branch::Rollout => "br-rollout",
    }
}

/// The point that holds at virtual time `t`.
pub fn point_at(points: &[Point], t: u64) -> Option<&Point> {
    let k = points.partition_point(|p| p.t <= t);
    points.get(k.checked_sub(1)?)
}

/// What the chart shows, in words (its text alternative).
pub fn describe(c: &Chart) -> String {
    let Some(last) = c.points.last() else {
        return "Nothing has happened yet.".into();
    };
    let lowest = c
        .points
        .iter()
        .skip_while(|p| p.available == 0)
        .map(|p| p.available)
        .min();
    let highest = c.points.iter().map(|p| p.total).max().unwrap_or(0);
    let mut s = format!(
        "Pods of each ReplicaSet over {:.1} s of virtual time: at most {highest} pods at once",
        c.frame.t_end as f64 / 1000.0
    );
    if let (Some(ceiling), Some(floor)) = (last.ceiling, last.floor) {
        let _ = write!(
            s,
            " (ceiling replicas + maxSurge = {ceiling}, floor replicas - maxUnavailable = {floor} at the end)"
        );
    }
    match lowest {
        Some(0) => s.push_str("; once pods were up, availability fell to 0"),
        Some(l) => {
            let _ = write!(s, "; once pods were up, never fewer than {l} available");
        }
        None => {}
    }
    let _ = write!(
        s,
        "; at the end {} pods, {} ready, {} available.",
        last.total, last.ready, last.available
    );
    if let Some(r) = &c.requests {
        let total = |v: &dyn Fn(&Rate) -> f64| -> f64 {
            r.rates
                .iter()
                .map(|x| v(x) * (x.1 - x.0) as f64 / 1000.0)
                .sum()
        };
        let (served, failed) = (total(&|x| x.2), total(&|x| x.3));
        let _ = write!(
            s,
            " Requests: {} served and {} failed, at most {} a second.",
            served.round(),
            failed.round(),
            r.frame.y_max
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::scenario::gallery::DEFAULT;

    #[test]
    fn the_rolling_update_chart() {
        let trace = Scenario::parse(DEFAULT).unwrap().run().unwrap();
        let end = trace.last().unwrap().t;
        let c = chart(&trace, 600.0, 200.0, end, None);
        // Two ReplicaSets, the old one at the bottom, each in its first revision's colour;
        // the old one's terminating pods above both.
        assert_eq!(c.bands.len(), 3);
        assert_eq!((c.bands[0].colour, c.bands[1].colour), (1, 2));
        assert!(c.bands[2].terminating && c.bands[2].colour == 1);
        assert_eq!(c.bands[2].name, "web-6bdbfc89d5 (terminating)");
        // Up to 13 pods and the ceiling at 13: the axis goes a little above.
        assert!(
            c.frame.y_max >= 13 && c.frame.y_max <= 20,
            "{}",
            c.frame.y_max
        );
        // One point per instant; the guard rails are drawn throughout.
        assert!(c.points.windows(2).all(|w| w[0].t < w[1].t));
        assert!(c.ceiling.starts_with('M') && !c.ceiling[1..].contains('M'));
        assert_eq!(c.points.last().unwrap().ceiling, Some(13));
        assert_eq!(c.points.last().unwrap().floor, Some(8));
        // The set image at 10 s is a command mark at its place on the axis.
        let set = c.actions.iter().find(|a| a.class == "command").unwrap();
        assert!((set.x - c.frame.x(10_000)).abs() < 1e-9);
        assert!(c.syncs.iter().any(|t| t.class == "br-rollout"));
        // Marks of one kind within a pixel are drawn once and counted: at 600 px the syncs
        // of one instant fall together.
        assert!(
            c.syncs
                .windows(2)
                .all(|w| w[0].class != w[1].class || w[1].x - w[0].x >= 1.0)
        );
        let all_syncs = trace
            .iter()
            .filter(|s| s.controller() == Some(Controller::Deployment) && s.branch().is_some())
            .count();
        let drawn: usize = c.syncs.iter().map(|t| 1 + t.more).sum();
        assert_eq!(drawn, all_syncs, "every sync is drawn or counted");
        assert!(c.syncs.len() < all_syncs);
        // Time and place convert both ways.
        assert_eq!(c.frame.t_at(c.frame.x(12_000)), 12_000);
        assert_eq!(c.frame.t_at(-5.0), 0);
        let k = c.points.iter().position(|p| p.t > 10_000).unwrap();
        let t = c.points[k].t;
        assert_eq!(point_at(&c.points, t).unwrap().t, t);
        assert_eq!(point_at(&c.points, t - 1).unwrap().t, c.points[k - 1].t);
        let words = describe(&c);
        assert!(words.contains("at most 13 pods at once"), "{words}");
        assert!(
            words.contains("ceiling replicas + maxSurge = 13, floor replicas - maxUnavailable = 8"),
            "{words}"
        );
        assert!(words.contains("never fewer than 8 available"), "{words}");
    }

    #[test]
    fn axes_are_round() {
        assert_eq!(y_max_for(13), 16);
        assert_eq!(y_max_for(10), 12);
        assert_eq!(y_max_for(1000), 1200);
        assert_eq!(nice_step(25_000.0, 6.0), 5000.0);
    }
}
