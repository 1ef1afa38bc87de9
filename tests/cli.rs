//! The `rollout` command line: `run --format summary` and `compare`, as a person types them.

use std::process::{Command, Output};

fn rollout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rollout"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn run_format_summary_prints_each_rollouts_numbers() {
    let out = rollout(&[
        "run",
        "scenarios/rolling-update.yaml",
        "--format",
        "summary",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    for want in [
        "Rollout 1 at t = 10.0 s: kubectl set image deployment/web nginx=nginx:1.16.1",
        "ended               complete at t = 16.0 s",
        "lowest available    8 of 10 (t = 10.0 s)",
        "highest total pods  13 (t = 10.0 s)",
        "progress deadline   not exceeded",
    ] {
        assert!(s.contains(want), "{want:?} in\n{s}");
    }
    let out = rollout(&["run", "scenarios/scale.yaml", "--format=summary"]);
    assert!(text(&out.stdout).starts_with("No rollout"));
    let out = rollout(&["run", "scenarios/scale.yaml", "--format=chart"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--format must be table, jsonl or summary, got \"chart\""));
}

#[test]
fn compare_prints_the_variants_side_by_side_and_marks_the_best() {
    let out = rollout(&[
        "compare",
        "scenarios/rolling-update.yaml",
        "--set",
        "spec.strategy.rollingUpdate.maxSurge=0,spec.strategy.rollingUpdate.maxUnavailable=1",
        "--set=spec.strategy.type=Recreate",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let lines: Vec<&str> = s.lines().collect();
    assert!(
        lines[0].contains("as written")
            && lines[0].contains("maxSurge=0, maxUnavailable=1")
            && lines[0].contains("type=Recreate"),
        "{s}"
    );
    let row = |label: &str| {
        *lines
            .iter()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("{label} in\n{s}"))
    };
    // As written: 8 of 10; maxSurge 0 / maxUnavailable 1: 9 of 10 (the best); Recreate: 0.
    let lowest = row("lowest available");
    assert!(
        lowest.contains("8 of 10")
            && lowest.contains("9 of 10 (t = 10.0 s) *")
            && lowest.contains("0 of 10"),
        "{lowest}"
    );
    // No surge and Recreate both stay at 10 pods; as written goes to 13.
    let highest: Vec<&str> = row("highest total pods")
        .split_whitespace()
        .skip(3)
        .collect();
    assert_eq!(highest, ["13", "10", "*", "10", "*"]);
}

#[test]
fn compare_refuses_a_bad_set_naming_it() {
    // (arguments, exit code, what stderr says)
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["--set", "spec.strategy.rollingUpdate.maxSurg=1"],
            1,
            "unknown field \"spec.strategy.rollingUpdate.maxSurg\"",
        ),
        (
            &["--set", "spec.replicas=many"],
            1,
            "spec.replicas: invalid type: string \"many\"",
        ),
        (
            &["--set", "status.replicas=1"],
            2,
            "--set \"status.replicas=1\": status.replicas: a variant changes the focus Deployment",
        ),
        (&["--set", "spec.replicas"], 2, "expected path=value"),
        (&["--set"], 2, "--set needs path=value"),
        (&[], 2, "lists no variants"),
        (
            &[
                "--set",
                "spec.replicas=1",
                "--set",
                "spec.replicas=2",
                "--set",
                "spec.replicas=3",
                "--set",
                "spec.replicas=4",
            ],
            2,
            "at most 3 --set",
        ),
    ];
    for (args, code, want) in cases {
        let mut a = vec!["compare", "scenarios/rolling-update.yaml"];
        a.extend(args.iter());
        let out = rollout(&a);
        assert_eq!(out.status.code(), Some(*code), "{args:?}");
        assert!(
            text(&out.stderr).contains(want),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn run_check_names_a_breach_and_exits_non_zero() {
    // Every pod deleted by hand mid-rollout: the floor does not hold, and the run says why.
    let out = rollout(&[
        "run",
        "tests/fixtures/pods-deleted-mid-rollout.yaml",
        "--check",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    assert!(s.contains("guarantees: 1 breach(es)"), "{s}");
    assert!(
        s.contains(
            "floor (at least replicas − maxUnavailable available (RollingUpdate)): from step"
        ),
        "{s}"
    );
    assert!(
        s.contains("available 0 < replicas − maxUnavailable = 10 − 2 = 8"),
        "{s}"
    );
    assert!(
        s.contains(
            "expected: a pod was deleted by hand (`kubectl delete pods -l app=web` at t = 12.0 s)"
        ),
        "{s}"
    );
    // JSON Lines stay JSON: the report goes to stderr.
    let out = rollout(&[
        "run",
        "tests/fixtures/pods-deleted-mid-rollout.yaml",
        "--check",
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).lines().all(|l| l.starts_with('{')));
    assert!(text(&out.stderr).contains("floor"));
}

/// Issue 31's case: `kubectl delete pod a b c` deletes all three (it deleted `a` alone), so a
/// settled 10-replica Deployment (25%/25%) drops to 7 available until the replacements are
/// ready, and the check names the floor of 8 it went under.
#[test]
fn deleting_three_named_pods_at_once_goes_under_the_floor() {
    let out = rollout(&[
        "run",
        "tests/fixtures/three-pods-deleted.yaml",
        "--check",
        "--format",
        "summary",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    assert!(s.contains("guarantees: 1 breach(es)"), "{s}");
    assert!(
        s.contains("available 7 < replicas − maxUnavailable = 10 − 2 = 8"),
        "{s}"
    );
    assert!(
        s.contains("expected: a pod was deleted by hand (`kubectl delete pod web-"),
        "{s}"
    );
}

#[test]
fn run_check_on_the_gallery_finds_no_unexpected_breach() {
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios")).unwrap() {
        let path = entry.unwrap().path();
        let out = rollout(&[
            "run",
            path.to_str().unwrap(),
            "--check",
            "--format",
            "summary",
        ]);
        let s = text(&out.stdout);
        assert!(s.contains("guarantees: "), "{path:?}: {s}");
        assert!(!s.contains("unexpected"), "{path:?}: {s}");
        // Only the rollout that runs out of its progress deadline ends unlike its spec.
        let deadline = path.ends_with("progress-deadline-exceeded.yaml");
        assert_eq!(out.status.success(), !deadline, "{path:?}: {s}");
        if deadline {
            assert!(
                s.contains("expected: the rollout exceeded its progress deadline"),
                "{s}"
            );
        }
    }
}

/// Issue 33: `rollout explain` prints one step: why it ran, its numbers, and a ReplicaSet
/// sync's expectations and slow-start batches.
#[test]
fn explain_prints_a_steps_cause_numbers_expectations_and_batches() {
    let out = rollout(&["explain", "scenarios/rolling-update.yaml", "--step", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.starts_with("step 2 of "), "{s}");
    assert!(
        s.contains("cause: a watch event, ADDED ReplicaSet default/web-"),
        "{s}"
    );
    assert!(s.contains("through addRS"), "{s}");
    assert!(
        s.contains(
            "expectations: before add 0, del 0, satisfied; after add 10, del 0, not satisfied"
        ),
        "{s}"
    );
    assert!(s.contains("slow-start batches: 1, 2, 4, 3"), "{s}");
    assert!(
        s.contains("work queues when it ran:\n  deployment: processing []"),
        "{s}"
    );
    assert!(s.contains("  replicaset: processing [default/web-"), "{s}");
    let first = rollout(&["explain", "scenarios/rolling-update.yaml", "--t", "0s"]);
    assert!(first.status.success());
    let bad = rollout(&["explain", "scenarios/rolling-update.yaml", "--step", "0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("--step wants a step number from 1"));
}

/// `rollout run … | head -1`: the reader goes away after one line; the command ends as a
/// pipe's writer does (exit 141), without a panic.
#[test]
fn a_reader_that_goes_away_ends_the_command_without_a_panic() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rollout"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "scenarios/rolling-update.yaml", "--format", "jsonl"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("{\"t\":0"), "{first}");
    // The reader is dropped here: the rest of the trace meets a closed pipe.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(141), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
}

/// The page's first paint (index.html, before the wasm) is the default example's first step as
/// `rollout preview` draws it: kept current, and the picture's size reserved in the page.
#[test]
fn the_pages_first_paint_is_the_default_examples_preview() {
    let out = rollout(&["preview", "scenarios/rolling-update.yaml"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    let kept =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/preview.svg")).unwrap();
    assert_eq!(
        svg, kept,
        "www/preview.svg is out of date: rollout preview scenarios/rolling-update.yaml > www/preview.svg"
    );
    let height = svg
        .split("height=\"")
        .nth(1)
        .and_then(|h| h.split('"').next())
        .unwrap();
    let index =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/index.html")).unwrap();
    assert!(
        index.contains(&format!(
            "src=\"preview.svg\" width=\"640\" height=\"{height}\""
        )),
        "index.html reserves the picture's size"
    );
    let bad = rollout(&[
        "preview",
        "scenarios/rolling-update.yaml",
        "--format",
        "png",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).starts_with("rollout preview: --format wants svg or html, got \"png\"")
    );
}
