//! `rollout verify-embeds DIR`, for a docs site's CI: finds every embed of the playground in
//! the site's HTML (the `<rollout-playground>` element, and iframes whose address carries a
//! share link), runs each one's scenario as the page would open it, and checks what the embed
//! states of it: that it still runs, that its step range holds, and the counts its `expect`
//! attribute says the text around it gives (`expect="step 12: ready 8/10, up-to-date 6"`).
//! The HTML is read by `html5gum`; the page never calls this module.

use super::share::{self, ViewOptions};
use super::{Scenario, session::Session};
use crate::cluster::trace::TraceStep;
use std::path::{Path, PathBuf};

/// Where an embed's scenario comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A share link (`v1.…`), from `src`'s fragment, `link` or `data-fragment`.
    Link(String),
    /// A scenario file's text (the element's `scenario` attribute).
    Text(String),
    /// Neither: the playground opens its default example.
    Default,
}

/// One embed as the HTML writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The line of its tag (from 1).
    pub line: usize,
    /// `rollout-playground` or `iframe`.
    pub tag: &'static str,
    /// Its `title` (how the report names it), or its `id`, or "untitled".
    pub name: String,
    pub source: Source,
    /// The view its options make (`step`, `until`, and what the page would ignore).
    pub view: ViewOptions,
    /// What the text says of it (`expect`, `data-expect` on an iframe).
    pub expect: Option<String>,
    /// The playground release it was written against (`version`, `data-playground-version`).
    pub version: Option<String>,
    /// The recorded run the element plays until the playground is ready (`film`), as written.
    pub film: Option<String>,
}

/// The embed options an element's attributes may set (as `rollout-playground.js` reads them).
const OPTIONS: [&str; 9] = [
    "step", "until", "panel", "controls", "theme", "autoplay", "readonly", "predict", "chart",
];
const FLAGS: [&str; 4] = ["autoplay", "readonly", "predict", "chart"];

/// The embeds in an HTML document, in document order. Script and style text is not markup
/// (a `<rollout-playground>` inside a script's string is not an embed). (Long: the element's
/// and the iframe's forms each read their attributes as the page would.)
pub fn find(html: &str) -> Vec<Found> {
    use html5gum::{DefaultEmitter, Token, Tokenizer};
    let mut emitter = DefaultEmitter::<usize>::new_with_span();
    emitter.naively_switch_states(true);
    let mut found = vec![];
    for token in Tokenizer::new_with_emitter(html, emitter).flatten() {
        let Token::StartTag(tag) = token else {
            continue;
        };
        let attr = |name: &str| {
            tag.attributes
                .get(name.as_bytes())
                .map(|v| String::from_utf8_lossy(&v.value).into_owned())
        };
        let line = html[..tag.span.start.min(html.len())].matches('\n').count() + 1;
        let name = attr("title")
            .or_else(|| attr("id"))
            .unwrap_or_else(|| "untitled".into());
        let fragment_of = |src: &str| {
            src.split_once('#')
                .map(|(_, f)| f.to_string())
                .filter(|f| !f.is_empty())
        };
        match &tag.name[..] {
            b"rollout-playground" => {
                let mut query = vec!["embed".to_string()];
                for o in OPTIONS {
                    if let Some(v) = attr(o) {
                        query.push(match FLAGS.contains(&o) {
                            true if v == "false" || v == "0" => format!("{o}=0"),
                            true => o.to_string(),
                            false => format!("{o}={v}"),
                        });
                    }
                }
                let source = match (attr("link"), attr("scenario")) {
                    (Some(l), _) if !l.trim().is_empty() => {
                        Source::Link(l.trim().trim_start_matches('#').into())
                    }
                    (_, Some(t)) if is_link(&t) => Source::Link(t.trim().into()),
                    (_, Some(t)) => Source::Text(t),
                    _ => attr("src")
                        .and_then(|s| fragment_of(&s))
                        .map_or(Source::Default, Source::Link),
                };
                found.push(Found {
                    line,
                    tag: "rollout-playground",
                    name,
                    source,
                    view: ViewOptions::from_query(&query.join("&")),
                    expect: attr("expect"),
                    version: attr("version"),
                    film: attr("film"),
                });
            }
            b"iframe" => {
                let src = attr("src").unwrap_or_default();
                let (fragment, query) = match attr("data-fragment") {
                    // The docs example's form: the script makes the address from these.
                    Some(f) => (Some(f), attr("data-params").unwrap_or_default()),
                    None => {
                        let before = src.split('#').next().unwrap_or("");
                        let query = before.split_once('?').map_or("", |(_, q)| q);
                        (fragment_of(&src), query.to_string())
                    }
                };
                let Some(fragment) = fragment.filter(|f| is_link(f)) else {
                    continue;
                };
                found.push(Found {
                    line,
                    tag: "iframe",
                    name,
                    source: Source::Link(fragment),
                    view: ViewOptions::from_query(&query),
                    expect: attr("data-expect"),
                    version: attr("data-playground-version"),
                    film: None,
                });
            }
            _ => {}
        }
    }
    found
}

/// Whether a text is a share link (`v1.…`) rather than a scenario file.
fn is_link(text: &str) -> bool {
    let t = text.trim().trim_start_matches('#');
    t.strip_prefix('v').is_some_and(|rest| {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && rest[digits..].starts_with('.')
    })
}

/// One fact an embed's `expect` states of a step.
#[derive(Clone, Debug, PartialEq)]
pub enum Fact {
    /// `ready 8/10`: kubectl's READY column (ready replicas / desired).
    Ready(i32, i32),
    /// `up-to-date 6`: UP-TO-DATE (status.updatedReplicas).
    UpToDate(i32),
    /// `available 8`: AVAILABLE (status.availableReplicas).
    Available(i32),
    /// `revision 2 6`: the ReplicaSet of revision 2 wants 6 pods (its spec.replicas).
    Revision(i64, i32),
    /// `branch scale`: the branch of `syncDeployment` that fired last, at or before the step.
    Branch(String),
}

/// Which step a clause speaks of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum At {
    /// The step the embed opens at.
    Opening,
    /// `step N` (from 1).
    Step(usize),
    /// `end`: the run's (or the view's `until`) last step.
    End,
}

/// Reads an `expect` text: clauses split by `;`, each `[step N: | end:] fact, fact, …`.
pub fn parse_expect(text: &str) -> Result<Vec<(At, Vec<Fact>)>, String> {
    let mut clauses = vec![];
    for clause in text.split(';').map(str::trim).filter(|c| !c.is_empty()) {
        let (at, facts) = match clause.split_once(':') {
            Some((head, rest)) => {
                let head = head.trim();
                let at = if head == "end" {
                    At::End
                } else if let Some(n) = head.strip_prefix("step ") {
                    match n.trim().parse::<usize>() {
                        Ok(n) if n >= 1 => At::Step(n - 1),
                        _ => {
                            return Err(format!(
                                "expect: \"{head}\" wants a step from 1, such as \"step 12\""
                            ));
                        }
                    }
                } else {
                    return Err(format!(
                        "expect: \"{head}:\" is neither \"step N:\" nor \"end:\""
                    ));
                };
                (at, rest)
            }
            None => (At::Opening, clause),
        };
        let facts = facts
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(parse_fact)
            .collect::<Result<Vec<_>, _>>()?;
        clauses.push((at, facts));
    }
    if clauses.is_empty() {
        return Err("expect: it states nothing".into());
    }
    Ok(clauses)
}

fn parse_fact(fact: &str) -> Result<Fact, String> {
    let words: Vec<&str> = fact.split_whitespace().collect();
    let number = |w: &str| {
        w.parse::<i32>()
            .map_err(|_| format!("expect: \"{w}\" in \"{fact}\" is not a count"))
    };
    match words[..] {
        ["ready", n] => match n.split_once('/') {
            Some((a, b)) => Ok(Fact::Ready(number(a)?, number(b)?)),
            None => Err(format!(
                "expect: \"{fact}\" wants ready pods over desired, such as \"ready 8/10\""
            )),
        },
        ["up-to-date", n] => Ok(Fact::UpToDate(number(n)?)),
        ["available", n] => Ok(Fact::Available(number(n)?)),
        ["revision", r, n] => match r.parse::<i64>() {
            Ok(r) if r >= 1 => Ok(Fact::Revision(r, number(n)?)),
            _ => Err(format!(
                "expect: \"{r}\" in \"{fact}\" is not a revision (1, 2, …)"
            )),
        },
        ["branch", b] => {
            let known = crate::controller::deployment::Branch::LADDER
                .iter()
                .map(|b| b.as_str())
                .collect::<Vec<_>>();
            if known.contains(&b) {
                Ok(Fact::Branch(b.into()))
            } else {
                Err(format!(
                    "expect: branch \"{b}\" is not one of {}",
                    known.join(", ")
                ))
            }
        }
        _ => Err(format!(
            "expect: \"{fact}\" is not a fact it knows: ready X/Y, up-to-date N, available N, revision R N, branch NAME"
        )),
    }
}

/// What checking one embed found.
#[derive(Debug, Default, PartialEq)]
pub struct Verdict {
    /// The step it opens at (from 1) and the steps it may reach.
    pub opens_at: usize,
    pub steps: usize,
    /// How many stated facts held.
    pub held: usize,
    /// What no longer holds, each in words; empty when the embed is as its page says.
    pub failures: Vec<String>,
}

/// Runs an embed's scenario as the page would open it and checks what the embed states, and
/// its film (`film`: the file's text, or why it could not be read) against the run.
pub fn check(found: &Found, film: Option<Result<String, String>>) -> Verdict {
    let mut v = Verdict::default();
    let opened = match &found.source {
        Source::Link(l) => share::decode(l)
            .map(|s| (s.scenario, Some(s.step)))
            .map_err(|e| format!("its share link no longer opens: {e}")),
        Source::Text(t) => Scenario::parse(t)
            .map(|s| (s, None))
            .map_err(|e| format!("its scenario no longer reads: {e}")),
        Source::Default => Scenario::parse(super::gallery::DEFAULT)
            .map(|s| (s, None))
            .map_err(|e| format!("the default example no longer reads: {e}")),
    };
    let session = opened.and_then(|(scenario, at)| {
        Session::new(scenario)
            .map(|s| (s, at))
            .map_err(|e| format!("its scenario no longer runs: {e}"))
    });
    let (session, link_step) = match session {
        Ok(s) => s,
        Err(e) => {
            v.failures.push(e);
            return v;
        }
    };
    v.failures.extend(
        found
            .view
            .ignored
            .iter()
            .map(|p| format!("the page would ignore {p}")),
    );
    let len = session.len();
    v.steps = found.view.until.map_or(len, |u| (u + 1).min(len));
    let opening = found.view.step.or(link_step).unwrap_or(0);
    v.opens_at = opening + 1;
    if let Some(p) = found.view.range_problem(len) {
        v.failures.push(p);
        return v;
    }
    if let Some(stopped) = &session.stopped {
        v.failures.push(format!("its run stops early: {stopped}"));
    }
    if let Some(why) = film.and_then(|f| f.map_or_else(Some, |text| film_differs(&text, &session)))
    {
        v.failures.push(format!("its film: {why}"));
    }
    let Some(expect) = &found.expect else {
        return v;
    };
    let clauses = match parse_expect(expect) {
        Ok(c) => c,
        Err(e) => {
            v.failures.push(e);
            return v;
        }
    };
    for (at, facts) in clauses {
        let i = match at {
            At::Opening => opening,
            At::Step(i) => i,
            At::End => v.steps - 1,
        };
        if i >= v.steps {
            v.failures.push(format!(
                "expect: step {} is past the last step the embed shows, {}",
                i + 1,
                v.steps
            ));
            continue;
        }
        for fact in facts {
            match differs(&session, i, &fact) {
                None => v.held += 1,
                Some(why) => v.failures.push(format!("at step {}, {why}", i + 1)),
            }
        }
    }
    v
}

/// How a film (`rollout preview --format film`) differs from the run the embed opens, in
/// words; `None` when it is that run: its scenario, its steps and each step's instant, which
/// are what the element plays it by and hands over at.
fn film_differs(text: &str, session: &Session) -> Option<String> {
    let again = "make it again: rollout preview SCENARIO --format film";
    let root = text.find("<svg").map_or("", |i| &text[i..]);
    let root = &root[..root.find('>').unwrap_or(root.len())];
    let attr = |tag: &str, name: &str| {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next().map(str::to_string)
    };
    let name = &session.scenario.name;
    if !session.scenario.variants.is_empty() {
        return Some(format!(
            "{name} has variants: the page shows it as a comparison, which a film does not hold"
        ));
    }
    match attr(root, "data-scenario") {
        None => return Some(format!("not a film ({again})")),
        // Written escaped, as the film writes it.
        Some(n) if n != super::preview::esc(name) => {
            return Some(format!(
                "it is a run of {n}, the embed's is {name}; {again}"
            ));
        }
        Some(_) => {}
    }
    let instants: Vec<Option<u64>> = text
        .split("<g id=\"f")
        .skip(1)
        .map(|g| {
            attr(&g[..g.find('>').unwrap_or(g.len())], "data-t")?
                .parse()
                .ok()
        })
        .collect();
    let trace = &session.trace;
    if instants.len() != trace.len() {
        return Some(format!(
            "it has {} steps, the run {}; {again}",
            instants.len(),
            trace.len()
        ));
    }
    let (i, t) = instants
        .iter()
        .zip(trace.iter())
        .enumerate()
        .find(|(_, (t, s))| **t != Some(s.t))
        .map(|(i, (t, _))| (i, *t))?;
    Some(format!(
        "its step {} is at {}, the run's at t = {} ms; {again}",
        i + 1,
        t.map_or("no instant".to_string(), |t| format!("t = {t} ms")),
        trace[i].t
    ))
}

/// How step `i` differs from a fact, in words; `None` when it holds.
fn differs(session: &Session, i: usize, fact: &Fact) -> Option<String> {
    let step: &TraceStep = &session.trace[i];
    let d = step.deployment.as_ref();
    let say = |what: &str, is: String, said: String| {
        (is != said).then(|| format!("{what} is {is}; the page says {said}"))
    };
    match fact {
        Fact::Ready(r, of) => {
            let is = d.map_or("none".into(), |d| {
                format!("{}/{}", d.status.ready_replicas, d.replicas)
            });
            say("ready", is, format!("{r}/{of}"))
        }
        Fact::UpToDate(n) => say(
            "up-to-date",
            d.map_or("none".into(), |d| d.status.updated_replicas.to_string()),
            n.to_string(),
        ),
        Fact::Available(n) => say(
            "available",
            d.map_or("none".into(), |d| d.status.available_replicas.to_string()),
            n.to_string(),
        ),
        Fact::Revision(r, n) => say(
            &format!("revision {r}'s ReplicaSet"),
            step.replica_sets
                .iter()
                .find(|rs| rs.revision == *r)
                .map_or("absent".into(), |rs| format!("{} pods", rs.replicas)),
            format!("{n} pods"),
        ),
        Fact::Branch(b) => {
            let fired = session.trace[..=i]
                .iter()
                .enumerate()
                .rev()
                .find(|(j, _)| session.is_focus_sync(*j))
                .and_then(|(_, s)| s.branch())
                .map_or("no sync yet", |b| b.as_str());
            say("the branch that fired last", fired.into(), b.clone())
        }
    }
}

/// The HTML files under `dir` (or `dir` itself, a file), sorted, so a report reads the same
/// on every run.
pub fn html_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = vec![];
    if dir.is_file() {
        files.push(dir.to_path_buf());
        return Ok(files);
    }
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            if path.is_dir() {
                todo.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
            {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link() -> String {
        let s = Scenario::parse(super::super::gallery::DEFAULT).unwrap();
        share::encode(&s, 3)
    }

    #[test]
    fn finds_the_element_and_the_iframe_forms_and_not_a_script_s_text() {
        let l = link();
        let html = format!(
            "<!doctype html><p>a</p>\n<rollout-playground src=\"/play/#{l}\" step=\"5\" title=\"A &quot;rolling&quot; update\" expect=\"ready 8/10\" version=\"0.1.0\"></rollout-playground>\n\
             <script>const s = '<rollout-playground link=\"v1.x\">';</script>\n\
             <iframe src=\"/play/?embed&amp;until=9#{l}\" data-expect=\"end: available 10\"></iframe>\n\
             <iframe src=\"https://video.example/watch#t=3\"></iframe>\n\
             <iframe id=\"rolling\" data-fragment=\"{l}\" data-params=\"embed&amp;panel=branch\"></iframe>\n\
             <rollout-playground scenario=\"name: x\" autoplay=\"false\"></rollout-playground>"
        );
        let found = find(&html);
        assert_eq!(found.len(), 4, "{found:#?}");
        assert_eq!(
            (found[0].line, found[0].tag, found[0].name.as_str()),
            (2, "rollout-playground", "A \"rolling\" update")
        );
        assert_eq!(found[0].source, Source::Link(l.clone()));
        assert_eq!(found[0].view.step, Some(4));
        assert_eq!(found[0].expect.as_deref(), Some("ready 8/10"));
        assert_eq!(found[0].version.as_deref(), Some("0.1.0"));
        assert_eq!((found[1].tag, found[1].view.until), ("iframe", Some(8)));
        assert_eq!(found[1].expect.as_deref(), Some("end: available 10"));
        assert_eq!((found[2].name.as_str(), found[2].line), ("rolling", 6));
        assert_eq!(found[3].source, Source::Text("name: x".into()));
        assert!(!found[3].view.autoplay);
    }

    #[test]
    fn reads_what_an_embed_expects_and_refuses_what_it_cannot_read() {
        assert_eq!(
            parse_expect(
                "ready 8/10, up-to-date 6; step 12: revision 2 6, branch scale; end: available 10"
            ),
            Ok(vec![
                (At::Opening, vec![Fact::Ready(8, 10), Fact::UpToDate(6)]),
                (
                    At::Step(11),
                    vec![Fact::Revision(2, 6), Fact::Branch("scale".into())]
                ),
                (At::End, vec![Fact::Available(10)]),
            ])
        );
        let refused = [
            ("", "expect: it states nothing"),
            (
                "ready 8",
                "expect: \"ready 8\" wants ready pods over desired, such as \"ready 8/10\"",
            ),
            (
                "up-to-date six",
                "expect: \"six\" in \"up-to-date six\" is not a count",
            ),
            (
                "step 0: ready 1/1",
                "expect: \"step 0\" wants a step from 1, such as \"step 12\"",
            ),
            (
                "later: ready 1/1",
                "expect: \"later:\" is neither \"step N:\" nor \"end:\"",
            ),
            (
                "branch rolling",
                "expect: branch \"rolling\" is not one of delete, pause, rollback, scale, rollout",
            ),
            (
                "replicas 3",
                "expect: \"replicas 3\" is not a fact it knows: ready X/Y, up-to-date N, available N, revision R N, branch NAME",
            ),
        ];
        for (text, why) in refused {
            assert_eq!(parse_expect(text), Err(why.to_string()), "{text}");
        }
    }

    fn embed(source: Source, query: &str, expect: Option<&str>) -> Found {
        Found {
            line: 1,
            tag: "rollout-playground",
            name: "t".into(),
            source,
            view: ViewOptions::from_query(query),
            expect: expect.map(str::to_string),
            version: None,
            film: None,
        }
    }

    #[test]
    fn an_embed_whose_text_still_holds_passes_and_one_that_drifted_fails_naming_the_numbers() {
        let s = Session::new(Scenario::parse(super::super::gallery::DEFAULT).unwrap()).unwrap();
        let end = s.trace.last().unwrap().deployment.clone().unwrap();
        let truth = format!(
            "end: ready {}/{}, up-to-date {}, available {}",
            end.status.ready_replicas,
            end.replicas,
            end.status.updated_replicas,
            end.status.available_replicas
        );
        let ok = check(&embed(Source::Link(link()), "embed", Some(&truth)), None);
        assert_eq!(
            (ok.held, ok.failures.len(), ok.opens_at),
            (3, 0, 4),
            "{ok:?}"
        );
        let off = format!(
            "end: ready {}/{}",
            end.status.ready_replicas + 1,
            end.replicas
        );
        let bad = check(&embed(Source::Default, "embed", Some(&off)), None);
        assert_eq!(
            bad.failures,
            vec![format!(
                "at step {}, ready is {}/{}; the page says {}/{}",
                s.len(),
                end.status.ready_replicas,
                end.replicas,
                end.status.ready_replicas + 1,
                end.replicas
            )]
        );
    }

    #[test]
    fn a_film_is_checked_against_the_run_by_its_scenario_steps_and_instants() {
        let sc = Scenario::parse(super::super::gallery::DEFAULT).unwrap();
        let trace = sc.clone().run().unwrap();
        let film = super::super::preview::film(&sc.name, &trace);
        let e = embed(Source::Default, "embed", None);
        assert_eq!(
            check(&e, Some(Ok(film.clone()))).failures,
            Vec::<String>::new()
        );
        let again = "make it again: rollout preview SCENARIO --format film";
        let last = trace.len();
        let cut = film.rfind("<view id=").unwrap();
        let late = film.replacen(
            &format!("<g id=\"f2\" data-t=\"{}\"", trace[1].t),
            &format!("<g id=\"f2\" data-t=\"{}\"", trace[1].t + 1),
            1,
        );
        for (text, why) in [
            (
                format!("{}</svg>", &film[..cut]),
                format!(
                    "its film: it has {} steps, the run {last}; {again}",
                    last - 1
                ),
            ),
            (
                late,
                format!(
                    "its film: its step 2 is at t = {} ms, the run's at t = {} ms; {again}",
                    trace[1].t + 1,
                    trace[1].t
                ),
            ),
            ("<p>".into(), format!("its film: not a film ({again})")),
        ] {
            assert_eq!(check(&e, Some(Ok(text))).failures, vec![why]);
        }
        let unread = check(&e, Some(Err("f.svg: No such file".into())));
        assert_eq!(unread.failures, vec!["its film: f.svg: No such file"]);
    }

    #[test]
    fn an_embed_that_cannot_open_as_written_fails_with_why() {
        let cases = [
            (
                Source::Link("v1.%%%".into()),
                "embed",
                "its share link no longer opens",
            ),
            (
                Source::Text("kind: Nothing".into()),
                "embed",
                "its scenario no longer reads",
            ),
            (
                Source::Default,
                "embed&step=9000",
                "From step 9000 is past the run's last step",
            ),
            (
                Source::Default,
                "embed&zoom=2",
                "the page would ignore zoom=2",
            ),
            (
                Source::Default,
                "embed&step=8&until=3",
                "the page would ignore until=3 (it is before step=8",
            ),
        ];
        for (source, query, why) in cases {
            let v = check(&embed(source, query, None), None);
            assert!(
                v.failures.iter().any(|f| f.starts_with(why)),
                "{query}: {:?}",
                v.failures
            );
        }
    }
}
