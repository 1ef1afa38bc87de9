//! `rollout`: the playground's core, headless.
//!
//! - `rollout run SCENARIO [--format table|jsonl]` prints what `kubectl get rs -w` would have
//!   shown (with the branch of every Deployment sync), or the trace as JSON Lines.
//!   `--check` also checks the Deployment's guarantees at every step and exits 1 when one did
//!   not hold (each breach named, with why it is expected when the run holds a cause).
//!   `--format summary` prints each rollout's numbers (time to complete, lowest available,
//!   highest total pods, extra pod-seconds, syncs, the progress deadline).
//! - `rollout compare SCENARIO [--set path=value,…]…` runs the scenario as written and once per
//!   `--set` (or as its own `variants:`) and prints the rollouts' numbers side by side.
//! - `rollout check VECTORS.json…` evaluates conformance vectors and prints `N passed, N failed`.
//! - `rollout explain SCENARIO --step N | --t DURATION` prints one step of the run: why it
//!   ran, the explain lines with their numbers, and a ReplicaSet sync's expectations and
//!   slow-start batches.

use rollout_playground::cluster::budget::Budget;
use rollout_playground::cluster::trace;
use rollout_playground::conformance;
use rollout_playground::scenario::locate::locate;
use rollout_playground::scenario::session::Session;
use rollout_playground::scenario::variant::{MAX_VARIANTS, Variant};
use rollout_playground::scenario::{
    Scenario, ScenarioError, guarantees, parse_duration, preview, share, summary, table,
};
use std::process::ExitCode;

/// `print!` that ends the program as a pipe's writer does when its reader has gone
/// (`rollout run … | head`: exit 141, as after SIGPIPE), instead of panicking.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($t)*) {
            gone(e)
        }
    }};
}

/// `println!`, as [`out!`] prints.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($t)*) {
            gone(e)
        }
    }};
}

fn gone(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    panic!("failed printing to stdout: {e}");
}

const USAGE: &str = "usage:\n  rollout run SCENARIO.yaml [--format table|jsonl|summary] [--check] [LIMITS]\n  rollout compare SCENARIO.yaml [--set path=value[,path=value…]]… [LIMITS] (each --set a variant beside the scenario as written, e.g. --set spec.strategy.type=Recreate)\n  rollout check VECTORS.json [VECTORS.json…]\n  rollout explain SCENARIO.yaml|LINK --step N | --t DURATION (one step: why it ran, its path through upstream's code with the numbers each call decided, its writes, a ReplicaSet sync's expectations, batches and deletions, the work queues; N counts from 1, DURATION is the last step at or before it)\n  rollout preview SCENARIO.yaml|LINK [--step N] [--format svg|html|film] (a still picture of step N, 1 by default: the ReplicaSets with their pods by state and the caption; a first paint without the wasm; LINK a share link, v2.… or the playground's address with it; film: every step in one SVG, step N at FILE.svg#sN, which <rollout-playground film=…> plays while the playground loads)\n  rollout share SCENARIO.yaml… (prints each scenario's share-link fragment and its length; warns when the page will refuse it)\n  rollout verify-embeds DIR|FILE… (for a docs site's CI: every embed in the HTML, <rollout-playground> or an iframe with a share link, still opens as written, and holds what its expect attribute states, e.g. expect=\"step 12: ready 8/10, up-to-date 6, available 8, revision 2 6, branch rollout\", and its film, given as the site's own file, is still that run; exit 1 naming each embed that does not)\n  rollout --version\nLIMITS (what one run may simulate; defaults in parentheses): --max-pods N (200000), --max-objects N (300000), --max-steps N (500000), --max-time DURATION (720h)";

/// The usage and the releases a scenario may name (`world.kubernetes`), each marked as
/// kubernetes.io's schedule has it on this machine's day.
fn help() -> String {
    use rollout_playground::controller::release::Release;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i64);
    let today = rollout_playground::api::time::Time(now).to_string();
    let releases: Vec<String> = Release::all()
        .map(|r| match r {
            _ if r == Release::NEWEST => format!("{r} (the default)"),
            _ if r.out_of_support(&today[..10]) => format!("{r} (out of support)"),
            _ => r.to_string(),
        })
        .collect();
    format!(
        "{USAGE}\nRELEASES (a scenario's world.kubernetes, or --set world.kubernetes=1.35; a release out of support gets no more patches upstream, and still runs): {}",
        releases.join(", ")
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("compare") => compare(&args[1..]),
        Some("check") => check(&args[1..]),
        Some("share") => share(&args[1..]),
        Some("explain") => explain(&args[1..]),
        Some("preview") => preview(&args[1..]),
        Some("verify-embeds") => verify_embeds(&args[1..]),
        Some("-V") | Some("--version") | Some("version") => {
            use rollout_playground::controller::release::Release;
            outln!(
                "rollout {} (the Deployment and ReplicaSet controllers of Kubernetes {} by default, and of {} to {}; upstream's lines at {})",
                env!("CARGO_PKG_VERSION"),
                Release::NEWEST.git_version(),
                Release::all().next().expect("a release"),
                Release::NEWEST,
                rollout_playground::controller::upstream::table().tag
            );
            ExitCode::SUCCESS
        }
        Some("-h") | Some("--help") | Some("help") => {
            outln!("{}", help());
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("rollout: unknown command {other:?}\n{USAGE}");
            ExitCode::from(2)
        }
        None => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// `rollout verify-embeds DIR|FILE…`: each embed's line, name and verdict; a summary; exit 1
/// when one fails, 2 when a path cannot be read.
fn verify_embeds(args: &[String]) -> ExitCode {
    use rollout_playground::scenario::verify;
    if args.is_empty() || args.iter().any(|a| a.starts_with('-')) {
        eprintln!("rollout verify-embeds: give the site's directories or HTML files\n{USAGE}");
        return ExitCode::from(2);
    }
    let this = env!("CARGO_PKG_VERSION");
    let (mut files, mut embeds, mut failed) = (0, 0, 0);
    for dir in args {
        let paths = match verify::html_files(std::path::Path::new(dir)) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("rollout verify-embeds: {dir}: {e}");
                return ExitCode::from(2);
            }
        };
        for path in paths {
            let html = match std::fs::read(&path) {
                Ok(b) => String::from_utf8_lossy(&b).into_owned(),
                Err(e) => {
                    eprintln!("rollout verify-embeds: {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            };
            let found = verify::find(&html);
            files += usize::from(!found.is_empty());
            for e in found {
                embeds += 1;
                let film = e.film.as_deref().and_then(|f| film_file(dir, &path, f));
                let v = verify::check(&e, film);
                let written = match &e.version {
                    Some(w) if w != this => format!(", written against {w}, checked with {this}"),
                    _ => String::new(),
                };
                let at = format!("{}:{}: {} {:?}", path.display(), e.line, e.tag, e.name);
                if v.failures.is_empty() {
                    let states = match v.held {
                        0 => "it states no counts".to_string(),
                        1 => "the count it states holds".to_string(),
                        n => format!("the {n} counts it states hold"),
                    };
                    outln!(
                        "ok   {at}: opens at step {} of {}; {states}{written}",
                        v.opens_at,
                        v.steps,
                    );
                } else {
                    failed += 1;
                    outln!("FAIL {at}{written}");
                    for f in &v.failures {
                        outln!("       {f}");
                    }
                }
            }
        }
    }
    outln!(
        "{embeds} embed{} in {files} file{}: {} ok, {failed} failed",
        if embeds == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" },
        embeds - failed
    );
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `rollout explain SCENARIO --step N | --t DURATION`.
fn explain(args: &[String]) -> ExitCode {
    let refuse = |why: String| {
        eprintln!("rollout explain: {why}\n{USAGE}");
        ExitCode::from(2)
    };
    let (mut file, mut step, mut at) = (None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--step" => match it.next() {
                Some(v) if v.parse::<usize>().is_ok_and(|n| n >= 1) => {
                    step = v.parse::<usize>().ok().map(|n| n - 1)
                }
                other => {
                    return refuse(format!(
                        "--step wants a step number from 1, got {}",
                        given(other)
                    ));
                }
            },
            "--t" => match it
                .next()
                .map(|v| parse_duration(&serde_json::Value::String(v.clone())))
            {
                Some(Ok(ms)) => at = Some(ms),
                Some(Err(e)) => return refuse(format!("--t: {e}")),
                None => return refuse("--t wants a duration, e.g. 12s".into()),
            },
            f if file.is_none() && !f.starts_with('-') => file = Some(f.to_string()),
            other => return refuse(format!("unknown argument {other:?}")),
        }
    }
    let (sc, trace) = match recorded("explain", file) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let release = sc.world.kubernetes;
    let i = match (step, at) {
        (Some(n), None) => n,
        (None, Some(t)) => trace.partition_point(|s| s.t <= t).saturating_sub(1),
        _ => return refuse("give one of --step N and --t DURATION".into()),
    };
    if i >= trace.len() {
        return refuse(format!("the run has {} steps", trace.len()));
    }
    outln!("{}", table::explain_step_at(&trace, i, release));
    ExitCode::SUCCESS
}

/// An embed's film as a file of the site: a path from the page's own directory, or from the
/// site's root (`dir`) when it starts with `/`; read, or why not. An address on another host
/// is not the site's file and is not checked (`None`).
fn film_file(dir: &str, page: &std::path::Path, film: &str) -> Option<Result<String, String>> {
    if film.contains("://") || film.starts_with("//") {
        return None;
    }
    let film = film.split(['#', '?']).next().unwrap_or(film);
    let site = std::path::Path::new(dir);
    let site = if site.is_file() { site.parent()? } else { site };
    let file = match film.strip_prefix('/') {
        Some(rooted) => site.join(rooted),
        None => page
            .parent()
            .unwrap_or(std::path::Path::new("."))
            .join(film),
    };
    Some(std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display())))
}

/// A scenario and the trace of its run.
type Recorded = (Scenario, Vec<trace::TraceStep>);

/// The scenario file `file` names, or the share link it is (`v1.…`, or a playground address
/// with one as its fragment, as the Embed dialog and `rollout share` write them), read and run
/// (`explain`, `preview`), or the exit code after saying why not: 2 for a missing name, an
/// unreadable file or a link that does not open, 1 for a scenario that does not run.
fn recorded(verb: &str, file: Option<String>) -> Result<Recorded, ExitCode> {
    let Some(file) = file else {
        eprintln!("rollout {verb}: which scenario?\n{USAGE}");
        return Err(ExitCode::from(2));
    };
    let link = file
        .rsplit_once('#')
        .map_or(file.as_str(), |(_, f)| f)
        .trim();
    let scenario = if !std::path::Path::new(&file).exists() && is_share_link(link) {
        share::decode(link).map(|s| s.scenario).map_err(|e| {
            eprintln!("rollout {verb}: the link does not open: {e}");
            ExitCode::from(2)
        })?
    } else {
        let text = std::fs::read_to_string(&file).map_err(|e| {
            eprintln!("rollout {verb}: {file}: {e}\n{USAGE}");
            ExitCode::from(2)
        })?;
        Scenario::parse(&text).map_err(|e| {
            eprintln!("rollout {verb}: {file}: {e}");
            ExitCode::FAILURE
        })?
    };
    let trace = scenario.clone().run().map_err(|e| {
        eprintln!("rollout {verb}: {file}: {e}");
        ExitCode::FAILURE
    })?;
    Ok((scenario, trace))
}

/// Whether an argument is a share link's fragment (`v0.…`, `v1.…`) rather than a file name.
fn is_share_link(arg: &str) -> bool {
    let arg = arg.trim_start_matches('#');
    arg.len() > 3
        && arg.starts_with('v')
        && arg[1..]
            .split_once('.')
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A flag's value as an error names it: quoted, or "nothing" when the flag ends the line.
fn given(v: Option<&String>) -> String {
    v.map_or("nothing".into(), |v| format!("{v:?}"))
}

/// `rollout preview`: step N of a scenario as an SVG picture (or an HTML page around it).
fn preview(args: &[String]) -> ExitCode {
    let refuse = |why: String| {
        eprintln!("rollout preview: {why}\n{USAGE}");
        ExitCode::from(2)
    };
    let (mut file, mut step, mut format) = (None, 0, "svg");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--step" => match it.next() {
                Some(v) if v.parse::<usize>().is_ok_and(|n| n >= 1) => {
                    step = v.parse::<usize>().unwrap_or(1) - 1
                }
                other => {
                    return refuse(format!(
                        "--step wants a step number from 1, got {}",
                        given(other)
                    ));
                }
            },
            "--format" => match it.next().map(String::as_str) {
                Some("svg") => format = "svg",
                Some("html") => format = "html",
                Some("film") => format = "film",
                other => {
                    return refuse(format!(
                        "--format wants svg, html or film, got {}",
                        given(other.map(|s| s.to_string()).as_ref())
                    ));
                }
            },
            f if file.is_none() && !f.starts_with('-') => file = Some(f.to_string()),
            other => return refuse(format!("unknown argument {other:?}")),
        }
    }
    let (sc, trace) = match recorded("preview", file) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let name = sc.name;
    if step >= trace.len() {
        return refuse(format!("the run has {} steps", trace.len()));
    }
    match format {
        "html" => out!("{}", preview::html(&name, &trace, step)),
        "film" if step > 0 => {
            return refuse("--step and --format film: a film holds every step".into());
        }
        // The page shows such a scenario as its comparison, on a shared clock, not as the
        // one run a film holds.
        "film" if !sc.variants.is_empty() => {
            return refuse(format!(
                "{name} has variants: it embeds as a comparison, which a film does not hold"
            ));
        }
        "film" => match preview::bounded_film(&name, &trace, preview::FILM_BYTES) {
            Ok(film) => out!("{film}"),
            Err(e) => return refuse(e),
        },
        _ => out!("{}", preview::svg(&name, &trace, step)),
    }
    ExitCode::SUCCESS
}

/// (Long: each flag read and refused in turn, then each output format.)
fn run(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut format = "table".to_string();
    let mut check = false;
    let mut budget = Budget::CLI;
    let mut i = 0;
    while i < args.len() {
        match limit_flag("rollout run", args, &mut i, &mut budget) {
            Ok(true) => {
                i += 1;
                continue;
            }
            Ok(false) => {}
            Err(code) => return code,
        }
        match args[i].as_str() {
            "-h" | "--help" => {
                outln!("{}", help());
                return ExitCode::SUCCESS;
            }
            "--check" => check = true,
            "--format" => {
                i += 1;
                format = args.get(i).cloned().unwrap_or_default();
            }
            f if f.starts_with("--format=") => format = f["--format=".len()..].to_string(),
            f if f.starts_with('-') => {
                eprintln!(
                    "rollout run: unknown flag {}\n{USAGE}",
                    safe(&format!("{f:?}"))
                );
                return ExitCode::from(2);
            }
            f => file = Some(f.to_string()),
        }
        i += 1;
    }
    if !["table", "jsonl", "summary"].contains(&format.as_str()) {
        eprintln!(
            "rollout run: --format must be table, jsonl or summary, got {}",
            safe(&format!("{format:?}"))
        );
        return ExitCode::from(2);
    }
    let Some(file) = file else {
        eprintln!("rollout run: which scenario?\n{USAGE}");
        return ExitCode::from(2);
    };
    let (text, scenario) = match read_scenario(&file, budget) {
        Ok(r) => r,
        Err(code) => return code,
    };
    // Started once: a scenario refused at its start (past the budget, an object the
    // apiserver refuses) is refused now, having counted its objects once. A pasted cluster
    // state says what was continued from when, and what was not (on stderr, so that the
    // output stays the run's).
    let started = match scenario.start() {
        Ok(c) => c,
        Err(e) => return refuse(&file, &text, &e),
    };
    if let Some(r) = &started.restored {
        for line in r.lines() {
            eprintln!("{file}: {}", safe(&line));
        }
    }
    // The checks read the run as the page records it (pods and the Deployment per step).
    let run = if check {
        drop(started);
        Session::new(scenario).map(|s| {
            let steps = s.trace.iter().map(|s| (**s).clone()).collect();
            (steps, Some(s))
        })
    } else {
        scenario.run_started(started).map(|t| (t, None))
    };
    let (steps, session) = match run {
        Ok(r) => r,
        Err(e) => return refuse(&file, &text, &e),
    };
    if format == "jsonl" {
        out!("{}", safe(&trace::to_jsonl(&steps)));
    } else if format == "summary" {
        out!("{}", safe(&summary::render(&summary::rollouts(&steps))));
    } else {
        out!("{}", safe(&table::render(&steps)));
    }
    let Some(session) = session else {
        return ExitCode::SUCCESS;
    };
    let report = guarantees::evaluate(&session);
    // JSON Lines stay JSON Lines: the report goes to stderr then.
    let text = safe(&report.render()).into_owned();
    if format == "jsonl" {
        eprint!("{text}");
    } else {
        out!("\n{text}");
    }
    if let Some(why) = &session.stopped {
        eprintln!("{file}: {}", safe(why));
    }
    if report.breaches.is_empty() && session.over.is_none() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A limit flag at `args[*i]` (`--max-pods N`, `--max-pods=N`, …) set on `budget`: true when
/// the argument is one, and the exit code after saying why (as `cmd`) when its value is not
/// one. A flag that takes its value from the next argument moves `i` to it.
fn limit_flag(
    cmd: &str,
    args: &[String],
    i: &mut usize,
    budget: &mut Budget,
) -> Result<bool, ExitCode> {
    match read_limit(args, i, budget) {
        None => Ok(false),
        Some(Ok(())) => Ok(true),
        Some(Err(e)) => {
            eprintln!("{cmd}: {}\n{USAGE}", safe(&e));
            Err(ExitCode::from(2))
        }
    }
}

/// [`limit_flag`]'s reading: `None` when the argument is not a limit flag.
fn read_limit(args: &[String], i: &mut usize, budget: &mut Budget) -> Option<Result<(), String>> {
    let (name, inline) = match args[*i].split_once('=') {
        Some((n, v)) => (n.to_string(), Some(v.to_string())),
        None => (args[*i].clone(), None),
    };
    if !["--max-pods", "--max-objects", "--max-steps", "--max-time"].contains(&name.as_str()) {
        return None;
    }
    let value = match inline {
        Some(v) => v,
        None => {
            *i += 1;
            match args.get(*i) {
                Some(v) => v.clone(),
                None => return Some(Err(format!("{name} needs a value"))),
            }
        }
    };
    let count = || {
        value
            .parse::<usize>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("{name} {value:?}: expected a whole number above 0"))
    };
    let set = match name.as_str() {
        "--max-pods" => count().map(|n| budget.pods = n),
        "--max-objects" => count().map(|n| budget.objects = n),
        "--max-steps" => count().map(|n| budget.steps = n),
        _ => parse_duration(&serde_json::Value::String(value.clone()))
            .map(|ms| budget.time_ms = ms)
            .map_err(|e| format!("{name}: {e}")),
    };
    Some(set)
}

/// A scenario file's text and the scenario it holds, to run within `budget`; or the exit code
/// after saying why not, at the line and column it refers to.
fn read_scenario(file: &str, budget: Budget) -> Result<(String, Scenario), ExitCode> {
    let text = read(file)?;
    match Scenario::parse_within(&text, budget) {
        Ok(s) => Ok((text, s)),
        Err(e) => Err(refuse(file, &text, &e)),
    }
}

/// Says why a scenario was refused (`file:line:column: message`, or `file: message` for what
/// happened in the run) and returns the failing exit code.
fn refuse(file: &str, text: &str, e: &ScenarioError) -> ExitCode {
    let place = match locate(text, e) {
        Some((line, col)) => format!("{file}:{line}:{col}"),
        None => file.to_string(),
    };
    eprintln!("{}", safe(&format!("{place}: {e}")));
    ExitCode::FAILURE
}

/// Text from a scenario, printed to a terminal: control characters (escape sequences that
/// could clear the screen or set its title, a carriage return that overwrites a line) and
/// the marks that reorder text (bidirectional overrides) print as `\u001b`, line breaks and
/// tabs as they are. JSON Lines stay JSON: the characters it does not escape itself can only
/// stand inside its strings, where `\u…` means the same.
fn safe(text: &str) -> std::borrow::Cow<'_, str> {
    if !needs_escape(text) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if (c.is_control() && c != '\n' && c != '\t') || bidi {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// Whether `text` holds a character [`safe`] escapes, read as bytes: C0 controls but line
/// break and tab, DEL, C1 controls (`C2 80`–`C2 9F`) and the bidi marks (`E2 80 AA`–`AE`,
/// `E2 81 A6`–`A9`). A run's whole output is read, so blocks of 64 bytes are first looked at
/// for a byte that may start one (a loop without an early exit, which the compiler vectorises),
/// and only those blocks read closely.
fn needs_escape(text: &str) -> bool {
    let b = text.as_bytes();
    let may_start = |c: u8| {
        ((c < 0x20) & (c != b'\n') & (c != b'\t')) | (c == 0x7f) | (c == 0xc2) | (c == 0xe2)
    };
    let starts_one = |i: usize| match b[i] {
        b'\n' | b'\t' => false,
        0..=0x1f | 0x7f => true,
        0xc2 => matches!(b.get(i + 1), Some(0x80..=0x9f)),
        0xe2 => matches!(
            (b.get(i + 1), b.get(i + 2)),
            (Some(0x80), Some(0xaa..=0xae)) | (Some(0x81), Some(0xa6..=0xa9))
        ),
        _ => false,
    };
    b.chunks(64).enumerate().any(|(k, chunk)| {
        chunk.iter().fold(false, |any, &c| any | may_start(c))
            && (k * 64..k * 64 + chunk.len()).any(starts_one)
    })
}

/// A file's text, or the exit code after saying why it could not be read.
fn read(file: &str) -> Result<String, ExitCode> {
    std::fs::read_to_string(file).map_err(|e| {
        eprintln!("{}", safe(&format!("{file}: {e}")));
        ExitCode::FAILURE
    })
}

/// (Long: each flag read and refused in turn, then each output format.)
fn compare(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut sets = vec![];
    let mut budget = Budget::CLI;
    let mut i = 0;
    while i < args.len() {
        match limit_flag("rollout compare", args, &mut i, &mut budget) {
            Ok(true) => {
                i += 1;
                continue;
            }
            Ok(false) => {}
            Err(code) => return code,
        }
        let a = args[i].as_str();
        let value = if a == "--set" {
            i += 1;
            match args.get(i) {
                Some(v) => Some(v.clone()),
                None => {
                    eprintln!("rollout compare: --set needs path=value\n{USAGE}");
                    return ExitCode::from(2);
                }
            }
        } else {
            a.strip_prefix("--set=").map(str::to_string)
        };
        match value {
            Some(v) => match Variant::parse_settings(&v) {
                Ok(set) => sets.push(Variant {
                    name: Variant::default_name(&set),
                    set,
                }),
                Err(e) => {
                    eprintln!("rollout compare: {}", safe(&format!("--set {v:?}: {e}")));
                    return ExitCode::from(2);
                }
            },
            None if a.starts_with('-') => {
                eprintln!(
                    "rollout compare: unknown flag {}\n{USAGE}",
                    safe(&format!("{a:?}"))
                );
                return ExitCode::from(2);
            }
            None => file = Some(a.to_string()),
        }
        i += 1;
    }
    let Some(file) = file else {
        eprintln!("rollout compare: which scenario?\n{USAGE}");
        return ExitCode::from(2);
    };
    if sets.len() >= MAX_VARIANTS {
        eprintln!(
            "rollout compare: at most {} --set (the scenario as written is the first of {MAX_VARIANTS} columns)",
            MAX_VARIANTS - 1
        );
        return ExitCode::from(2);
    }
    let (text, base) = match read_scenario(&file, budget) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let variants = if sets.is_empty() {
        if base.variants.is_empty() {
            eprintln!(
                "rollout compare: {} lists no variants: give one or more --set path=value",
                safe(&file)
            );
            return ExitCode::from(2);
        }
        base.variants.clone()
    } else {
        let mut v = vec![Variant {
            name: "as written".into(),
            set: vec![],
        }];
        v.extend(sets);
        v
    };
    let mut columns = vec![];
    for v in &variants {
        match base.with_variant(v).and_then(|s| s.run()) {
            Ok(steps) => columns.push(summary::rollouts(&steps)),
            Err(e) => return refuse(&file, &text, &e),
        }
    }
    let names: Vec<String> = variants.iter().map(|v| v.name.clone()).collect();
    out!("{}", safe(&summary::render_compare(&names, &columns)));
    ExitCode::SUCCESS
}

fn check(files: &[String]) -> ExitCode {
    if files.is_empty() {
        eprintln!("rollout check: which vector file?\n{USAGE}");
        return ExitCode::from(2);
    }
    let (mut passed, mut failed) = (0, 0);
    let mut malformed = false;
    for f in files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}", safe(&format!("{f}: {e}")));
                malformed = true;
                continue;
            }
        };
        match conformance::evaluate_file(&text) {
            Ok(results) => {
                for r in results {
                    match r.outcome {
                        Ok(()) => {
                            passed += 1;
                            outln!("{}", safe(&format!("ok {}: {}", r.id, r.name)));
                        }
                        Err(why) => {
                            failed += 1;
                            outln!("{}", safe(&format!("FAIL {}: {}: {why}", r.id, r.name)));
                        }
                    }
                }
            }
            Err(e) => {
                eprintln!("{}", safe(&format!("{f}: malformed vector file: {e}")));
                malformed = true;
            }
        }
    }
    outln!("{passed} passed, {failed} failed");
    if failed > 0 || malformed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints the share-link fragment (`#v1.…`) of each scenario: append it to the playground's URL
/// (add `?embed` for an embed). A link the page would refuse (too long, past the page's budget)
/// or stop short (its run crosses the budget) is printed with a warning, and the exit code is 1.
fn share(files: &[String]) -> ExitCode {
    if files.is_empty() {
        eprintln!("rollout share: which scenario?\n{USAGE}");
        return ExitCode::from(2);
    }
    let mut code = ExitCode::SUCCESS;
    for f in files {
        let Ok((text, s)) = read_scenario(f, Budget::PAGE) else {
            code = ExitCode::FAILURE;
            continue;
        };
        let link = share::encode(&s, 0);
        outln!("{f}\t{} chars\t#{link}", link.len() + 1);
        // (where in the file, when the text is the reason; why)
        let refusal = match share::decode(&link) {
            Err(e) => Some((None, format!("the page will refuse this link: {e}"))),
            Ok(_) => match s.run() {
                Err(e @ ScenarioError::OverBudget(_)) => {
                    Some((None, format!("the page will stop this run early: {e}")))
                }
                Err(e) => Some((
                    locate(&text, &e),
                    format!("the page will refuse this link: {e}"),
                )),
                Ok(_) => None,
            },
        };
        if let Some((place, why)) = refusal {
            let place = place.map_or(String::new(), |(l, c)| format!(":{l}:{c}"));
            eprintln!("{}", safe(&format!("{f}{place}: warning: {why}")));
            code = ExitCode::FAILURE;
        }
    }
    code
}
