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

use rollout_playground::cluster::trace;
use rollout_playground::conformance;
use rollout_playground::scenario::session::Session;
use rollout_playground::scenario::variant::{MAX_VARIANTS, Variant};
use rollout_playground::scenario::{Scenario, guarantees, summary, table};
use std::process::ExitCode;

const USAGE: &str = "usage:\n  rollout run SCENARIO.yaml [--format table|jsonl|summary] [--check]\n  rollout compare SCENARIO.yaml [--set path=value[,path=value…]]… (each --set a variant beside the scenario as written, e.g. --set spec.strategy.type=Recreate)\n  rollout check VECTORS.json [VECTORS.json…]\n  rollout share SCENARIO.yaml… (prints each scenario's share-link fragment and its length)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("compare") => compare(&args[1..]),
        Some("check") => check(&args[1..]),
        Some("share") => share(&args[1..]),
        Some("-h") | Some("--help") | Some("help") => {
            println!("{USAGE}");
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

fn run(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut format = "table".to_string();
    let mut check = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--check" => check = true,
            "--format" => {
                i += 1;
                format = args.get(i).cloned().unwrap_or_default();
            }
            f if f.starts_with("--format=") => format = f["--format=".len()..].to_string(),
            f if f.starts_with('-') => {
                eprintln!("rollout run: unknown flag {f:?}\n{USAGE}");
                return ExitCode::from(2);
            }
            f => file = Some(f.to_string()),
        }
        i += 1;
    }
    if !["table", "jsonl", "summary"].contains(&format.as_str()) {
        eprintln!("rollout run: --format must be table, jsonl or summary, got {format:?}");
        return ExitCode::from(2);
    }
    let Some(file) = file else {
        eprintln!("rollout run: which scenario?\n{USAGE}");
        return ExitCode::from(2);
    };
    let text = match read(&file) {
        Ok(t) => t,
        Err(code) => return code,
    };
    // The checks read the run as the page records it (pods and the Deployment per step).
    let run = match Scenario::parse(&text).and_then(|s| {
        if check {
            Session::new(s).map(|s| (s.trace.clone(), Some(s)))
        } else {
            s.run().map(|t| (t, None))
        }
    }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (steps, session) = run;
    if format == "jsonl" {
        print!("{}", trace::to_jsonl(&steps));
    } else if format == "summary" {
        print!("{}", summary::render(&summary::rollouts(&steps)));
    } else {
        print!("{}", table::render(&steps));
    }
    let Some(session) = session else {
        return ExitCode::SUCCESS;
    };
    let report = guarantees::evaluate(&session);
    // JSON Lines stay JSON Lines: the report goes to stderr then.
    let text = report.render();
    if format == "jsonl" {
        eprint!("{text}");
    } else {
        print!("\n{text}");
    }
    if let Some(why) = &session.stopped {
        eprintln!("{file}: {why}");
    }
    if report.breaches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A scenario file's text, or the exit code after saying why it could not be read.
fn read(file: &str) -> Result<String, ExitCode> {
    std::fs::read_to_string(file).map_err(|e| {
        eprintln!("{file}: {e}");
        ExitCode::FAILURE
    })
}

fn compare(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut sets = vec![];
    let mut i = 0;
    while i < args.len() {
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
                    eprintln!("rollout compare: --set {v:?}: {e}");
                    return ExitCode::from(2);
                }
            },
            None if a.starts_with('-') => {
                eprintln!("rollout compare: unknown flag {a:?}\n{USAGE}");
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
    let text = match read(&file) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let base = match Scenario::parse(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let variants = if sets.is_empty() {
        if base.variants.is_empty() {
            eprintln!(
                "rollout compare: {file} lists no variants: give one or more --set path=value"
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
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let names: Vec<String> = variants.iter().map(|v| v.name.clone()).collect();
    print!("{}", summary::render_compare(&names, &columns));
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
                eprintln!("{f}: {e}");
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
                            println!("ok {}: {}", r.id, r.name);
                        }
                        Err(why) => {
                            failed += 1;
                            println!("FAIL {}: {}: {why}", r.id, r.name);
                        }
                    }
                }
            }
            Err(e) => {
                eprintln!("{f}: malformed vector file: {e}");
                malformed = true;
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 || malformed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints the share-link fragment (`#v1.…`) of each scenario: append it to the playground's URL
/// (add `?embed` for an embed).
fn share(files: &[String]) -> ExitCode {
    if files.is_empty() {
        eprintln!("rollout share: which scenario?\n{USAGE}");
        return ExitCode::from(2);
    }
    let mut code = ExitCode::SUCCESS;
    for f in files {
        let parsed = std::fs::read_to_string(f)
            .map_err(|e| e.to_string())
            .and_then(|t| Scenario::parse(&t).map_err(|e| e.to_string()));
        match parsed {
            Ok(s) => {
                let link = rollout_playground::scenario::share::encode(&s, 0);
                println!("{f}\t{} chars\t#{link}", link.len() + 1);
            }
            Err(e) => {
                eprintln!("{f}: {e}");
                code = ExitCode::from(1);
            }
        }
    }
    code
}
