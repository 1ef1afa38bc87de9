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
    // A row where the variants differ starts with ≠.
    let row = |label: &str| {
        lines
            .iter()
            .find_map(|l| {
                let l = l.trim_start_matches('≠').trim_start();
                l.starts_with(label).then_some(l)
            })
            .unwrap_or_else(|| panic!("{label} in\n{s}"))
    };
    assert!(
        lines.iter().any(|l| l.starts_with("≠ lowest available")),
        "{s}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("  progress deadline")),
        "alike: no mark\n{s}"
    );
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
        // Only the rollout that runs out of its progress deadline ends unlike its spec, and
        // the one whose maxSurge drops to 0 with surge pods standing goes above its ceiling.
        let deadline = path.ends_with("progress-deadline-exceeded.yaml");
        let surge_dropped = path.ends_with("capacity-stuck-rollout.yaml");
        // And the one whose node is lost, whose pods are unavailable until replaced.
        let node_lost = path.ends_with("node-lost.yaml");
        // And the drain whose eviction takes a pod the rollout's floor counted.
        let drained = path.ends_with("drain-blocked-by-budget.yaml");
        // And the loads whose requests fail while old pods stop and while no endpoint is left.
        let dropped = path.ends_with("dropped-requests-prestop.yaml")
            || path.ends_with("max-surge-zero-no-endpoint.yaml");
        let clean = !deadline && !surge_dropped && !node_lost && !drained && !dropped;
        assert_eq!(out.status.success(), clean, "{path:?}: {s}");
        if surge_dropped {
            assert!(s.contains("expected: the spec changed mid-rollout"), "{s}");
        }
        if dropped {
            assert!(
                s.contains("no-request-failed")
                    && s.contains("expected: the Deployment controller promises pods, not requests: terminated before kube-proxy saw it"),
                "{s}"
            );
        }
        if node_lost {
            assert!(
                s.contains("expected: the world changed at t = 10.0 s"),
                "{s}"
            );
        }
        if path.ends_with("max-surge-zero-no-endpoint.yaml") {
            assert!(
                s.contains("with no ready endpoint")
                    && s.contains("; no ready endpoint: kube-proxy had no endpoint"),
                "{s}"
            );
        }
        if drained {
            assert!(
                s.contains("expected: a pod was evicted (`kubectl drain` evicted pod default/web-"),
                "{s}"
            );
        }
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
        text(&bad.stderr)
            .starts_with("rollout preview: --format wants svg, html or film, got \"png\"")
    );
}

/// `rollout preview --format film`: the whole run in one SVG (step N at `#sN`), what
/// `<rollout-playground film=…>` plays until the playground is ready; scripts/films.sh makes the
/// gallery's at each build. Not for a comparison, and not one step of it.
#[test]
fn a_film_is_the_whole_run_of_one_scenario() {
    let out = rollout(&["preview", "scenarios/scale.yaml", "--format", "film"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let film = text(&out.stdout);
    let steps = film.matches("<view id=\"s").count();
    assert!(steps > 10, "{steps} steps");
    assert!(film.contains(&format!(
        "<title>scale: a recorded run of {steps} steps</title>"
    )));
    // A share link names the scenario as well as its file does (the Embed dialog's address).
    let shared = text(&rollout(&["share", "scenarios/scale.yaml"]).stdout);
    let link = shared.trim_end().rsplit('\t').next().unwrap().to_string();
    let address = format!("https://x.example/play/{link}");
    for by in [link.trim_start_matches('#'), address.as_str()] {
        let out = rollout(&["preview", by, "--format", "film"]);
        assert!(out.status.success(), "{by}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), film, "{by}");
    }
    let bad = rollout(&["preview", "v1.xyz", "--format", "film"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).starts_with("rollout preview: the link does not open: "),
        "{}",
        text(&bad.stderr)
    );
    for (args, why) in [
        (
            vec!["scenarios/scale.yaml", "--step", "3"],
            "rollout preview: --step and --format film: a film holds every step",
        ),
        (
            vec!["scenarios/compare-strategies.yaml"],
            "rollout preview: compare-strategies has variants: it embeds as a comparison, which a film does not hold",
        ),
    ] {
        let mut argv = vec!["preview", "--format", "film"];
        argv.extend(args);
        let bad = rollout(&argv);
        assert_eq!(bad.status.code(), Some(2), "{argv:?}");
        assert!(text(&bad.stderr).starts_with(why), "{}", text(&bad.stderr));
    }
}

/// The gallery's still pictures (`www/previews/NAME.svg`, each example's first step), which
/// the Embed dialog's snippets name in `preview`: made at build time, kept current here.
#[test]
fn each_gallery_example_has_its_still_picture() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/www/previews");
    let mut names = vec![];
    for e in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios")).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let out = rollout(&["preview", path.to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let kept = std::fs::read_to_string(format!("{dir}/{name}.svg")).unwrap_or_default();
        assert!(
            text(&out.stdout) == kept,
            "www/previews/{name}.svg is out of date: for f in scenarios/*.yaml; do rollout preview $f > www/previews/$(basename $f .yaml).svg; done"
        );
        names.push(name);
    }
    let kept = std::fs::read_dir(dir).unwrap().count();
    assert_eq!(kept, names.len(), "one picture per example, and no other");
}

/// A scratch directory under target/ (removed first), for tests that write files.
fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/test-scratch")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `rollout verify-embeds` passes on the repository's docs examples, whose embeds state the
/// counts their text gives; the same page with a count the run no longer gives fails, naming
/// the embed, its line and both numbers; a page with no embed is not an error.
#[test]
fn verify_embeds_passes_on_the_docs_examples_and_names_an_embed_whose_text_drifted() {
    let out = rollout(&["verify-embeds", "www"]);
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(
        said.contains("ok   www/docs-example.html:39: iframe \"Proportional scaling example\": opens at step 1 of 82; the 5 counts it states hold"),
        "{said}"
    );
    assert!(
        said.ends_with("5 embeds in 2 files: 5 ok, 0 failed\n"),
        "{said}"
    );

    let dir = scratch("verify-embeds");
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/www/docs-example.html"
    ))
    .unwrap()
    .replace("revision 1 11, revision 2 7", "revision 1 12, revision 2 7");
    std::fs::create_dir_all(dir.join("guide")).unwrap();
    std::fs::write(dir.join("guide/scaling.html"), page).unwrap();
    std::fs::write(dir.join("index.html"), "<p>no embed here</p>").unwrap();
    let out = rollout(&["verify-embeds", dir.to_str().unwrap()]);
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("guide/scaling.html:39: iframe \"Proportional scaling example\"\n       at step 52, revision 1's ReplicaSet is 11 pods; the page says 12 pods\n"),
        "{said}"
    );
    assert!(
        said.contains("guide/scaling.html:31: iframe \"Rolling update example\": opens"),
        "{said}"
    );
    assert!(
        said.ends_with("2 embeds in 1 file: 1 ok, 1 failed\n"),
        "{said}"
    );

    // An element's film, the site's own file: the run it recorded, or not.
    let film = |scenario: &str| {
        let out = rollout(&["preview", scenario, "--format", "film"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        out.stdout
    };
    let site = scratch("verify-embeds-film");
    std::fs::create_dir_all(site.join("play/previews")).unwrap();
    std::fs::create_dir_all(site.join("guide")).unwrap();
    std::fs::write(
        site.join("play/previews/rolling-update.film.svg"),
        film("scenarios/rolling-update.yaml"),
    )
    .unwrap();
    std::fs::write(
        site.join("guide/scale.film.svg"),
        film("scenarios/scale.yaml"),
    )
    .unwrap();
    std::fs::write(
        site.join("guide/index.html"),
        concat!(
            "<rollout-playground src=\"/play/\" title=\"rooted\" film=\"/play/previews/rolling-update.film.svg\"></rollout-playground>\n",
            "<rollout-playground src=\"/play/\" title=\"another run\" film=\"scale.film.svg\"></rollout-playground>\n",
            "<rollout-playground src=\"/play/\" title=\"missing\" film=\"none.film.svg\"></rollout-playground>\n",
            "<rollout-playground src=\"/play/\" title=\"elsewhere\" film=\"https://x.example/a.film.svg\"></rollout-playground>\n",
        ),
    )
    .unwrap();
    let out = rollout(&["verify-embeds", site.to_str().unwrap()]);
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    for line in [
        "guide/index.html:1: rollout-playground \"rooted\": opens at step 1 of 88",
        "guide/index.html:2: rollout-playground \"another run\"\n       its film: it is a run of scale, the embed's is rolling-update; make it again: rollout preview SCENARIO --format film\n",
        "guide/index.html:3: rollout-playground \"missing\"\n       its film: ",
        "guide/index.html:4: rollout-playground \"elsewhere\": opens at step 1 of 88",
        "4 embeds in 1 file: 2 ok, 2 failed\n",
    ] {
        assert!(said.contains(line), "{line}\n---\n{said}");
    }

    let out = rollout(&["verify-embeds", "no/such/site"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("rollout verify-embeds: no/such/site: "));
}

/// `rollout --version` names the playground's release and the Kubernetes release it
/// reproduces; the page names the same release (`scripts/publish.sh` reads it there).
#[test]
fn the_version_is_stated_by_the_cli_and_the_page() {
    let out = rollout(&["--version"]);
    assert!(out.status.success());
    let v = env!("CARGO_PKG_VERSION");
    assert_eq!(
        text(&out.stdout),
        format!(
            "rollout {v} (the Deployment and ReplicaSet controllers of Kubernetes v1.37.0 by default, and of 1.31 to 1.37; upstream's lines at v1.36.3)\n"
        )
    );
    // `rollout run --help` names the releases, the default and those out of support (on this
    // machine's day: 1.31 is out of support whenever this runs, 1.37 in support until 2027-10-28).
    let help = rollout(&["run", "--help"]);
    assert!(help.status.success());
    let help = text(&help.stdout);
    assert!(
        help.starts_with("usage:\n  rollout run SCENARIO.yaml"),
        "{help}"
    );
    assert!(
        help.contains("RELEASES (a scenario's world.kubernetes"),
        "{help}"
    );
    assert!(help.contains("1.31 (out of support), "), "{help}");
    assert!(help.trim_end().ends_with(", 1.37 (the default)"), "{help}");
    let index =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/index.html")).unwrap();
    assert!(
        index.contains(&format!(
            "<meta name=\"rollout-playground-version\" content=\"{v}\">"
        )),
        "www/index.html names release {v}"
    );
}

/// `scripts/publish.sh` hosts each release under its own path and `latest/` at the newest:
/// publishing a newer build leaves an older one's files as they were (old embeds keep their
/// playground), the same build again changes nothing, and other files under a published
/// version are refused.
#[test]
fn publish_keeps_each_release_under_its_own_path() {
    let dir = scratch("publish");
    let build = |name: &str, version: &str, wasm: &str| {
        let d = dir.join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("index.html"),
            format!("<meta name=\"rollout-playground-version\" content=\"{version}\">"),
        )
        .unwrap();
        std::fs::write(d.join("playground.wasm"), wasm).unwrap();
        d
    };
    let site = dir.join("site");
    let publish = |dist: &std::path::Path| {
        Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/publish.sh"))
            .args([dist, site.as_path()])
            .output()
            .unwrap()
    };
    let read = |p: &str| std::fs::read_to_string(site.join(p)).unwrap();
    let old = build("old", "0.9.0", "old wasm");
    let new = build("new", "0.10.0", "new wasm");
    assert!(publish(&old).status.success());
    assert_eq!(read("latest/playground.wasm"), "old wasm");
    let out = publish(&new);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(read("0.9.0/playground.wasm"), "old wasm");
    assert_eq!(read("0.10.0/playground.wasm"), "new wasm");
    assert_eq!(
        read("latest/playground.wasm"),
        "new wasm",
        "0.10.0 is newer than 0.9.0"
    );
    assert_eq!(read("versions.txt"), "0.9.0\n0.10.0\n");
    let again = publish(&old);
    assert!(again.status.success());
    assert!(text(&again.stdout).contains("0.9.0 is already published with these files"));
    assert_eq!(
        read("latest/playground.wasm"),
        "new wasm",
        "an older build does not move latest back"
    );
    let changed = build("changed", "0.9.0", "other wasm");
    let out = publish(&changed);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("a published release is never rewritten"));
    assert_eq!(read("0.9.0/playground.wasm"), "old wasm");
}
