//! A still picture of one step, for a first paint without the wasm: the scenario's name, the
//! step, the Deployment, each ReplicaSet with its pods by state and the caption, as SVG (or an
//! HTML page around it). `rollout preview` writes it; the page shows the default scenario's
//! (`www/preview.svg`, kept up to date by a test) until the playground takes over, and a
//! `<rollout-playground preview="…">` shows one in its button.

use crate::api::StrategyType;
use crate::cluster::trace::{Body, TraceStep};
use std::borrow::Borrow;
use std::fmt::Write;

pub const WIDTH: u32 = 640;
const BAR: f64 = 300.0;
const ROW: u32 = 46;

/// The page's palette (www/style.css, light theme), so the picture matches what replaces it;
/// `<rollout-playground>` draws a film's steps in its own theme by these very values.
const AVAILABLE: &str = "#2e9e4f";
const READY: &str = "#7fcf8f";
const RUNNING: &str = "#f2c14e";
const PENDING: &str = "#b8c0cc";
const TERMINATING: &str = "#9aa3ae";
const FG: &str = "#1c2430";
const MUTED: &str = "#5d6b7e";

/// Text for XML: what a scenario names (its own words) cannot become markup, and every
/// character it holds is one XML allows.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push(' '),
            // Not characters XML allows (Char excludes them): the replacement character.
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = vec![];
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// What step `i` is, in words.
fn what<S: Borrow<TraceStep>>(trace: &[S], i: usize) -> String {
    let s = trace[i].borrow();
    match &s.body {
        Body::Sync(y) => format!(
            "{} sync{}",
            y.controller.as_str(),
            y.branch
                .map(|b| format!(": {}", b.as_str()))
                .unwrap_or_default()
        ),
        Body::Action(a) => a.command.clone().unwrap_or_else(|| "a caption".into()),
        Body::World(_) => s.world_source().into(),
    }
}

/// The latest caption at or before step `i`.
fn caption<S: Borrow<TraceStep>>(trace: &[S], i: usize) -> Option<&str> {
    trace[..=i].iter().rev().find_map(|s| s.borrow().caption())
}

/// A line of text at the left margin.
fn text(body: &mut String, y: u32, size: u32, fill: &str, weight: &str, t: &str) {
    let _ = writeln!(
        body,
        r#"<text x="16" y="{y}" font-size="{size}" fill="{fill}" font-weight="{weight}">{}</text>"#,
        esc(t)
    );
}

/// Each ReplicaSet of step `s`, from `y` down: its name, revision and image, its desired pods
/// (dashed) and its pods by state, with their counts; returns where it ended.
fn replica_sets(body: &mut String, s: &TraceStep, mut y: u32) -> u32 {
    let most = s
        .replica_sets
        .iter()
        .map(|r| {
            (r.pods.pending + r.pods.running + r.pods.terminating).max(r.replicas.max(0) as u32)
        })
        .max()
        .unwrap_or(0)
        .max(1);
    for r in &s.replica_sets {
        y += ROW - 22;
        let image = r.images.join(", ");
        text(
            body,
            y,
            13,
            FG,
            "400",
            &format!("{} · rev {} · {image}", r.name, r.revision),
        );
        let p = &r.pods;
        let parts = [
            (p.available, AVAILABLE),
            (p.ready.saturating_sub(p.available), READY),
            (p.running.saturating_sub(p.ready), RUNNING),
            (p.pending, PENDING),
            (p.terminating, TERMINATING),
        ];
        // The desired pods as an outline, so a ReplicaSet with none yet still shows its size.
        let desired = BAR * f64::from(r.replicas.max(0) as u32) / f64::from(most);
        if desired > 0.0 {
            let _ = writeln!(
                body,
                r##"<rect x="16" y="{}" width="{:.1}" height="12" rx="2" fill="none" stroke="#b8c0cc" stroke-dasharray="3 2"/>"##,
                y + 6,
                desired - 1.0
            );
        }
        let mut x = 16.0;
        for (n, fill) in parts {
            if n == 0 {
                continue;
            }
            let w = BAR * f64::from(n) / f64::from(most);
            let _ = writeln!(
                body,
                r#"<rect x="{x:.1}" y="{}" width="{:.1}" height="12" rx="2" fill="{fill}"/>"#,
                y + 6,
                (w - 1.0).max(1.0)
            );
            x += w;
        }
        let counts = format!(
            "{} desired · {} ready · {} available{}",
            r.replicas,
            p.ready,
            p.available,
            if p.terminating > 0 {
                format!(" · {} terminating", p.terminating)
            } else {
                String::new()
            }
        );
        let _ = writeln!(
            body,
            r#"<text x="{}" y="{}" font-size="12" fill="{MUTED}">{}</text>"#,
            16 + BAR as u32 + 10,
            y + 16,
            esc(&counts)
        );
        y += 22;
    }
    y
}

/// Step `i`'s picture without its frame: the body (from y = 0 down), how tall it is, its
/// title (what the step is) and the caption it shows.
struct Frame {
    body: String,
    height: u32,
    title: String,
    caption: Option<String>,
}

fn frame<S: Borrow<TraceStep>>(name: &str, trace: &[S], i: usize) -> Frame {
    let s = trace[i].borrow();
    let mut body = String::new();
    let mut y = 24;
    text(&mut body, y, 16, FG, "600", name);
    y += 20;
    let head = format!(
        "step {} of {} · t = {:.1} s · {}",
        i + 1,
        trace.len(),
        s.t as f64 / 1000.0,
        what(trace, i)
    );
    text(&mut body, y, 13, MUTED, "400", &head);
    y += 22;
    if let Some(d) = &s.deployment {
        let strategy = if d.strategy == StrategyType::RollingUpdate {
            format!(
                "RollingUpdate (maxSurge {}, maxUnavailable {})",
                d.max_surge, d.max_unavailable
            )
        } else {
            d.strategy.to_string()
        };
        let line = format!(
            "Deployment {}: {} replicas, {strategy}; available {}",
            d.name, d.replicas, d.status.available_replicas
        );
        text(&mut body, y, 13, FG, "400", &line);
        y += 12;
    }
    y = replica_sets(&mut body, s, y);
    let caption = caption(trace, i);
    if let Some(c) = caption {
        y += 12;
        for line in wrap(c, 86).into_iter().take(4) {
            y += 18;
            text(&mut body, y, 13, FG, "400", &line);
        }
    }
    Frame {
        body,
        height: y + 16,
        title: format!("{name}: {head}"),
        caption: caption.map(str::to_string),
    }
}

/// The frame every picture is drawn in: a rounded card of the page's background.
fn card(height: u32) -> String {
    format!(r##"<rect width="{WIDTH}" height="{height}" rx="8" fill="#ffffff" stroke="#d9dee6"/>"##)
}

/// Step `i` of a run of scenario `name` as an SVG picture.
pub fn svg<S: Borrow<TraceStep>>(name: &str, trace: &[S], i: usize) -> String {
    let f = frame(name, trace, i);
    format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" font-family="system-ui, sans-serif">"#,
            "\n<title>{title}</title>\n{card}\n{body}</svg>\n"
        ),
        w = WIDTH,
        h = f.height,
        title = esc(&f.title),
        card = card(f.height),
        body = f.body
    )
}

/// The whole run as one SVG, a film: every step's picture, one below the other at one height,
/// each with a `<view id="sN">` (N from 1), so that `film.svg#s12` is step 12's picture
/// wherever an image can be shown (SVG's own fragment identifiers: no script, and a host
/// page's `img-src 'self'` is all it needs). Each step's group `fN` carries its title, its
/// caption as a `<desc>`, its instant in ms (`data-t`) and, when the caption is the step's own,
/// how long an autoplaying embed holds there to read it (`data-hold`, ms), which
/// `<rollout-playground film=…>` reads to play the run at the playground's pace and stop where
/// it stops, before the wasm is there to run it.
pub fn film<S: Borrow<TraceStep>>(name: &str, trace: &[S]) -> String {
    let frames: Vec<Frame> = (0..trace.len()).map(|i| frame(name, trace, i)).collect();
    let h = frames.iter().map(|f| f.height).max().unwrap_or(0);
    let mut out = format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" font-family="system-ui, sans-serif" data-scenario="{name}" data-steps="{n}">"#,
            "\n<title>{name}: a recorded run of {n} steps</title>\n",
        ),
        w = WIDTH,
        h = h,
        n = frames.len(),
        name = esc(name)
    );
    for (i, f) in frames.iter().enumerate() {
        let y = h * i as u32;
        let _ = writeln!(
            out,
            r#"<view id="s{n}" viewBox="0 {y} {WIDTH} {h}"/>"#,
            n = i + 1
        );
        let step = trace[i].borrow();
        let _ = writeln!(
            out,
            r#"<g id="f{n}" data-t="{t}"{own} transform="translate(0 {y})"><title>{title}</title>"#,
            n = i + 1,
            t = step.t,
            // A caption of the step's own: the playground's playback stops (or holds) there.
            own = step.caption().map_or(String::new(), |c| {
                format!(r#" data-hold="{}""#, super::embed::reading_ms(Some(c)))
            }),
            title = esc(&f.title)
        );
        if let Some(c) = &f.caption {
            let _ = writeln!(out, "<desc>{}</desc>", esc(c));
        }
        let _ = write!(out, "{}\n{}</g>\n", card(h), f.body);
    }
    out.push_str("</svg>\n");
    out
}

/// The most a film may weigh: `<rollout-playground>` plays none longer (its `FILM_BYTES`), so
/// `rollout preview --format film` makes none longer either.
pub const FILM_BYTES: usize = 8 * 1024 * 1024;

/// [`film`], refused when it would weigh more than `limit` bytes, naming its size and the way
/// out.
pub fn bounded_film<S: Borrow<TraceStep>>(
    name: &str,
    trace: &[S],
    limit: usize,
) -> Result<String, String> {
    let out = film(name, trace);
    if out.len() <= limit {
        return Ok(out);
    }
    Err(format!(
        "the film of {name} would be {:.1} MB ({} steps), more than the {:.1} MB <rollout-playground> plays: record a shorter run (an earlier `until`, or fewer steps)",
        out.len() as f64 / 1_048_576.0,
        trace.len(),
        limit as f64 / 1_048_576.0
    ))
}

/// The same picture as an HTML page of its own.
pub fn html<S: Borrow<TraceStep>>(name: &str, trace: &[S], i: usize) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>{}</title></head>\n<body style=\"margin:0\">\n{}</body>\n</html>\n",
        esc(name),
        svg(name, trace, i)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    #[test]
    fn a_step_shows_each_replica_set_with_its_pods_and_the_caption() {
        let text = crate::scenario::gallery::DEFAULT;
        let sc = Scenario::parse(text).unwrap();
        let trace = sc.clone().run().unwrap();
        let i = trace.len() - 1;
        let out = svg(&sc.name, &trace, i);
        assert!(out.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        for r in &trace[i].replica_sets {
            assert!(out.contains(&r.name), "{} in the picture", r.name);
        }
        assert!(out.contains(&format!("step {} of {}", i + 1, trace.len())));
        assert!(
            out.contains("10 desired · 10 ready · 10 available"),
            "{out}"
        );
    }

    /// A scenario's words are escaped to characters XML allows: markup and controls never
    /// come through, and neither do U+FFFE and U+FFFF (which XML's Char excludes), so a film
    /// or a picture is always a well-formed SVG.
    #[test]
    fn text_is_escaped_to_characters_xml_allows() {
        assert_eq!(esc("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
        assert_eq!(esc("x\u{1}y\u{FFFE}z\u{FFFF}"), "x y\u{FFFD}z\u{FFFD}");
        // YAML takes the two only as escapes in a double-quoted scalar.
        let text = crate::scenario::gallery::DEFAULT.replacen(
            "name: rolling-update",
            r#"name: "bad\uFFFEname\uFFFF""#,
            1,
        );
        let sc = Scenario::parse(&text).unwrap();
        assert!(sc.name.contains('\u{FFFE}'), "{}", sc.name);
        let trace = sc.clone().run().unwrap();
        for out in [film(&sc.name, &trace), svg(&sc.name, &trace, 0)] {
            assert!(!out.contains(['\u{FFFE}', '\u{FFFF}']));
        }
    }

    /// A film is bounded: past the limit it is refused with its size, and the limit is the
    /// element's own (`FILM_BYTES` in www/rollout-playground.js).
    #[test]
    fn a_film_past_the_limit_is_refused_and_the_limit_is_the_elements() {
        let sc = Scenario::parse(crate::scenario::gallery::DEFAULT).unwrap();
        let trace = sc.clone().run().unwrap();
        let whole = film(&sc.name, &trace);
        assert_eq!(
            bounded_film(&sc.name, &trace, FILM_BYTES),
            Ok(whole.clone())
        );
        let e = bounded_film(&sc.name, &trace, whole.len() - 1).unwrap_err();
        assert!(e.starts_with("the film of rolling-update would be "), "{e}");
        assert!(e.contains(&format!("({} steps)", trace.len())), "{e}");
        let element = include_str!("../../www/rollout-playground.js");
        assert!(element.contains("const FILM_BYTES = 8 * 1024 * 1024;"));
        assert_eq!(FILM_BYTES, 8 * 1024 * 1024);
    }

    #[test]
    fn a_film_holds_every_step_as_a_view_with_its_instant_title_and_caption() {
        let sc = Scenario::parse(crate::scenario::gallery::DEFAULT).unwrap();
        let trace = sc.clone().run().unwrap();
        let out = film(&sc.name, &trace);
        let n = trace.len();
        assert!(out.contains(&format!(r#"data-steps="{n}""#)));
        assert_eq!(out.matches("<view id=\"s").count(), n);
        assert_eq!(out.matches("<g id=\"f").count(), n);
        // One height for every step, so a view never rescales the picture.
        let h = (0..n)
            .map(|i| frame(&sc.name, &trace, i).height)
            .max()
            .unwrap();
        let last = trace.last().unwrap();
        assert!(out.contains(&format!(
            r#"<view id="s{n}" viewBox="0 {} {WIDTH} {h}"/>"#,
            h * (n as u32 - 1)
        )));
        assert!(out.contains(&format!(r#"<g id="f{n}" data-t="{}""#, last.t)));
        assert!(out.contains(&format!("step {n} of {n}")));
        // A step with a caption of its own says so (the playback holds there) and carries it.
        let (i, c) = trace
            .iter()
            .enumerate()
            .find_map(|(i, s)| s.caption().map(|c| (i, c)))
            .expect("the default example has captions");
        let g = &out[out.find(&format!("<g id=\"f{}\"", i + 1)).unwrap()..];
        let g = &g[..g.find("</g>").unwrap()];
        let hold = super::super::embed::reading_ms(Some(c));
        assert!(g.contains(&format!("data-hold=\"{hold}\"")), "{g}");
        assert!(g.contains(&format!("<desc>{}</desc>", esc(c))), "{g}");
        // The step before it has none of its own.
        let before = &out[out.find(&format!("<g id=\"f{i}\"")).unwrap()..];
        assert!(!before[..before.find("</g>").unwrap()].contains("data-hold"));
    }

    #[test]
    fn the_element_redraws_every_colour_of_a_film_in_its_theme() {
        let element = include_str!("../../www/rollout-playground.js");
        for c in [AVAILABLE, READY, RUNNING, FG, MUTED, "#ffffff"] {
            assert!(
                element.contains(&format!("svg.still [fill=\"{c}\"]")),
                "{c}"
            );
        }
        for c in [PENDING, TERMINATING] {
            assert!(element.contains(&format!("[fill=\"{c}\"]")), "{c}");
        }
        for c in ["#d9dee6", PENDING] {
            assert!(
                element.contains(&format!("svg.still [stroke=\"{c}\"]")),
                "{c}"
            );
        }
    }

    #[test]
    fn what_a_scenario_names_cannot_become_markup() {
        assert_eq!(esc("<script>&\"'\u{1b}"), "&lt;script&gt;&amp;&quot;&#39; ");
        assert_eq!(wrap("one two three four", 9), ["one two", "three", "four"]);
    }
}
