//! Hostile and careless input (issue "safe by construction"): links, scenario files and host
//! messages that once froze, blanked or misled, each refused with a message that names the
//! limit and the input; and a small seeded fuzz run over scenario files, share links and host
//! messages, so that a regression shows in the test command.

use rollout_playground::apiserver::store::splitmix;
use rollout_playground::cluster::budget::Budget;
use rollout_playground::scenario::embed::{Heard, Remote, hear};
use rollout_playground::scenario::gallery::GALLERY;
use rollout_playground::scenario::locate::locate;
use rollout_playground::scenario::session::Session;
use rollout_playground::scenario::{Scenario, ScenarioError, share};
use std::process::Command;

const WEB: &str = "name: web\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec:\n      replicas: REPLICAS\n      selector: {matchLabels: {app: web}}\n      template:\n        metadata: {labels: {app: web}}\n        spec: {containers: [{name: app, image: 'app:1'}]}\n";

fn web(replicas: &str) -> String {
    WEB.replace("REPLICAS", replicas)
}

#[test]
fn a_million_replicas_is_refused_before_the_run_naming_the_field_and_the_limit() {
    for replicas in ["1000000", "100000"] {
        let text = web(replicas);
        let e = Session::new(Scenario::parse(&text).unwrap()).err().unwrap();
        assert_eq!(
            e.to_string(),
            format!(
                "objects[0] (Deployment/web): spec.replicas: {replicas} is more pods than the playground simulates (at most 20000): lower replicas or use the CLI with --max-pods"
            )
        );
        assert_eq!(locate(&text, &e), Some((8, 7)), "the line of replicas");
    }
    // Through a share link, as the page opens one.
    let link = share::encode(&Scenario::parse(&web("1000000")).unwrap(), 0);
    let (s, _) = share::open(&link).unwrap();
    assert!(Session::new(s).is_err());
}

#[test]
fn virtual_time_past_the_budget_is_refused_naming_until_or_the_step() {
    let text = format!("{}until: 99999999h\n", web("3"));
    let e = Session::new(Scenario::parse(&text).unwrap()).err().unwrap();
    assert_eq!(
        e.to_string(),
        "until: 99999999h0m0s is more virtual time than the playground simulates (at most 24h0m0s): shorten it or use the CLI with --max-time"
    );
    let text = format!(
        "{}steps:\n  - at: 25h\n    run: kubectl scale deployment/web --replicas=2\n",
        web("3")
    );
    let e = Scenario::parse(&text).unwrap().run().unwrap_err();
    assert!(
        e.to_string().starts_with("steps[0].at: 25h0m0s is more"),
        "{e}"
    );
}

#[test]
fn pods_past_the_budget_stop_the_run_naming_what_asked_for_them() {
    // A command scales past the budget: the run stops there, and says so.
    let text = format!(
        "{}steps:\n  - at: 1s\n    run: kubectl scale deployment/web --replicas=25000\n",
        web("3")
    );
    let e = Scenario::parse(&text).unwrap().run().unwrap_err();
    assert!(matches!(e, ScenarioError::OverBudget(_)), "{e}");
    assert!(
        e.to_string().starts_with("the run was stopped at 1s: more than 20000 pods at once (deployment default/web asks for 25000 replicas)"),
        "{e}"
    );
    // The same command typed in the page is refused, and the run stays as it was.
    let mut s = Session::new(Scenario::parse(&web("3")).unwrap()).unwrap();
    let before = (s.len(), s.scenario.steps.len());
    let e = s
        .command(s.len() - 1, "kubectl scale deployment/web --replicas=25000")
        .unwrap_err();
    assert!(
        e.to_string().contains("more than 20000 pods at once"),
        "{e}"
    );
    assert_eq!((s.len(), s.scenario.steps.len()), before);
    assert!(s.over.is_none() && s.stopped.is_none());
}

#[test]
fn steps_past_the_budget_stop_the_recording_with_a_message() {
    let mut scenario = Scenario::parse(&format!("{}until: 30s\n", web("50"))).unwrap();
    scenario.budget = Budget {
        steps: 10,
        ..Budget::PAGE
    };
    let s = Session::new(scenario).unwrap();
    assert_eq!(s.len(), 10);
    assert!(!s.settled);
    assert!(
        s.stopped
            .as_deref()
            .unwrap()
            .contains("after 10 steps, the most the playground records"),
        "{:?}",
        s.stopped
    );
}

/// Runs the CLI on a scenario text written to a temporary file.
fn rollout_on(text: &str, args: &[&str]) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("rollout-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!(
        "{:x}.yaml",
        splitmix(text.len() as u64 ^ args.len() as u64)
    ));
    std::fs::write(&file, text).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rollout"));
    cmd.arg(args[0]).arg(&file).args(&args[1..]);
    cmd.output().unwrap()
}

#[test]
fn the_cli_prints_escape_sequences_from_a_scenario_as_text() {
    let text = format!(
        "{}steps:\n  - at: 1s\n    run: \"kubectl set image deployment/web app=app:2\\e]0;pwned\\a\"\n    caption: \"\\e[2J\\rdone \\u202e\"\n",
        web("3")
    );
    for format in ["table", "summary", "jsonl"] {
        let out = rollout_on(&text, &["run", "--format", format, "--check"]);
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        for s in [&stdout, &stderr] {
            assert!(
                !s.contains(|c: char| (c.is_control() && c != '\n' && c != '\t') || c == '\u{202e}'),
                "{format}: {s:?}"
            );
        }
        if format == "jsonl" {
            for line in stdout.lines() {
                serde_json::from_str::<serde_json::Value>(line).expect("JSON Lines stay JSON");
            }
            assert!(stdout.contains("\\u001b[2J\\rdone \\u202e"), "{stdout}");
        } else if format == "summary" {
            assert!(
                stdout.contains("app=app:2\\u001b]0;pwned\\u0007"),
                "{stdout}"
            );
        }
    }
}

#[test]
fn the_cli_has_a_ceiling_and_flags_that_raise_it() {
    let text = format!("{}until: 99999999h\n", web("3"));
    let out = rollout_on(&text, &["run"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(":13:1: until: 99999999h0m0s is more virtual time than the playground simulates (at most 720h0m0s): shorten it or raise --max-time"), "{err}");
    let out = rollout_on(&web("300000"), &["run"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains(":8:7: objects[0] (Deployment/web): spec.replicas: 300000 is more pods than the playground simulates (at most 200000): lower replicas or raise --max-pods"), "{err}");
    let out = rollout_on(
        &format!("{}until: 30s\n", web("5")),
        &["run", "--max-steps", "10", "--format=jsonl"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("after 10 steps")
    );
    let out = rollout_on(&web("5"), &["run", "--max-pods=0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("--max-pods \"0\": expected a whole number above 0")
    );
    let out = rollout_on(&web("5"), &["run", "--max-time", "2d"]);
    assert_eq!(out.status.code(), Some(2));
    // rollout share warns when the page will refuse the link.
    let out = rollout_on(&web("30000"), &["share"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stdout).unwrap().contains("#v2."));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(":8:7: warning: the page will refuse this link: objects[0] (Deployment/web): spec.replicas: 30000 is more pods than the playground simulates (at most 20000)"), "{err}");
}

#[test]
fn host_messages_from_the_embedding_page_are_read_or_refused_never_trusted() {
    let refused = hear(&serde_json::json!({"type": "load", "scenario": "x".repeat(300_000)}));
    assert!(
        matches!(refused, Heard::Refused(ref m) if m.contains("300000 bytes")),
        "{refused:?}"
    );
}

/// Ten levels of ten aliases (a "billion laughs": 10^10 values once expanded), as a scenario's
/// own field and inside an object, with `filler` lines of plain values before it.
fn laughs(filler: usize) -> (String, String) {
    let mut lol = String::from("&a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]");
    let mut levels = vec![format!("a0: {lol}")];
    for i in 1..=10 {
        lol = format!("&a{i} [{}]", vec![format!("*a{}", i - 1); 10].join(", "));
        levels.push(format!("a{i}: {lol}"));
    }
    let fill: String = (0..filler).map(|i| format!("f{i}: [1, 2, 3]\n")).collect();
    let top = format!("name: laughs\n{fill}{}\n", levels.join("\n"));
    let object: String = levels.iter().map(|l| format!("    x{l}\n")).collect();
    let inside = web("1").replacen(
        "    metadata: {name: web}\n",
        &format!("    metadata: {{name: web}}\n{object}"),
        1,
    );
    (top, inside)
}

/// Issue 45: aliases that would expand past the budget are refused before they are expanded,
/// naming the line of the alias that crossed it: in a scenario file, an object, a share link,
/// a host page's `load` and the CLI alike (each well within 100 ms of work, whatever the
/// filler; serde_norway alone grew to gigabytes first).
#[test]
fn nested_anchors_are_refused_before_they_expand_naming_the_line() {
    for filler in [0, 20_000] {
        let (top, inside) = laughs(filler);
        let e = Scenario::parse(&top).unwrap_err();
        let line = filler + 6;
        assert!(
            e.to_string()
                .contains(&format!("by the alias at line {line} column ")),
            "{e}"
        );
        assert_eq!(locate(&top, &e).map(|p| p.0), Some(line), "{e}");
        // An object's text is read when the run starts.
        let e = Session::new(Scenario::parse(&inside).unwrap())
            .err()
            .unwrap();
        assert!(
            e.to_string().starts_with("objects[0]: line 8: the aliases of this document would expand it by more than 100000 values"),
            "{e}"
        );
        let out = rollout_on(&top, &["run"]);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!(":{line}:"))
                && err.contains("would expand it by more than 100000 values"),
            "{err}"
        );
        // A link carries the text as it was written: its aliases are counted as they are read.
        // (A link holds at most 64 KiB: the filler's case is the file's.)
        if filler > 0 {
            continue;
        }
        let payload = serde_json::json!({ "scenario": top, "step": 0 }).to_string();
        let packed = miniz_oxide::deflate::compress_to_vec(payload.as_bytes(), 9);
        use base64::Engine;
        let link = format!(
            "v1.{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed)
        );
        let e = share::open(&link).unwrap_err();
        assert!(e.starts_with("the linked scenario: "), "{e}");
        assert!(
            e.contains("would expand it by more than 100000 values"),
            "{e}"
        );
        // A host page's `load` is heard (it is small), and opened as the page opens it.
        let heard = hear(&serde_json::json!({"type": "load", "scenario": inside}));
        let Heard::Command(Remote::Load(text)) = heard else {
            panic!("a load of a small text is heard: {heard:?}");
        };
        let (opened, _) = share::open(&text).unwrap();
        let e = Session::new(opened).err().unwrap().to_string();
        assert!(e.contains("line 8: the aliases of this document"), "{e}");
    }
}

/// A deterministic stream of numbers (the seed is fixed, so a failure is the same failure).
struct Rng(u64);
impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 = splitmix(self.0);
        (self.0 % n.max(1) as u64) as usize
    }
}

/// A mutation as a careless or hostile author makes one: a line dropped or doubled, a number
/// made huge or negative, markup or a control escape put in, a cut.
fn mutate(text: &str, r: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let i = r.next(lines.len());
    match r.next(7) {
        0 => {
            lines.remove(i);
        }
        1 => {
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        2 => {
            let huge = ["1000000", "-1", "99999999h", "0", "1e400", "2147483648"][r.next(6)];
            lines[i] = lines[i]
                .split(' ')
                .map(|w| {
                    if w.chars().any(|c| c.is_ascii_digit()) {
                        huge
                    } else {
                        w
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
        }
        3 => lines[i].push_str(" <img src=x onerror=alert(1)>"),
        4 => lines[i].push_str(" \"\\e]0;t\\a\""),
        5 => lines.truncate(i),
        _ => lines[i] = lines[i].replacen(':', "", 1),
    }
    lines.join("\n") + "\n"
}

#[test]
fn seeded_fuzz_of_scenario_files_links_and_host_messages() {
    let mut r = Rng(29);
    for round in 0..60 {
        let (name, source) = GALLERY[round % GALLERY.len()];
        let text = mutate(source, &mut r);
        let text = mutate(&text, &mut r);
        // A scenario file: refused with a place in the text, or run within the page's budget.
        match Scenario::parse(&text).and_then(|s| Session::new(s).map(drop)) {
            Ok(()) => {}
            Err(e) => {
                if let Some((line, col)) = locate(&text, &e) {
                    assert!(
                        line >= 1 && col >= 1 && line <= text.lines().count() + 1,
                        "{name} round {round}: {e} at {line}:{col}"
                    );
                }
            }
        }
        // Through the CLI itself, now and then: it answers (0, 1) and never panics; a refusal
        // of the text names its place.
        if round % 6 == 0 {
            let out = rollout_on(&text, &["run", "--format", "summary"]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{name} round {round}: {err}"
            );
            assert!(!err.contains("panicked"), "{name} round {round}: {err}");
            if out.status.code() == Some(1)
                && !err.contains("livelock")
                && !err.contains("was stopped")
            {
                let place = err.split(": ").next().unwrap_or("");
                assert!(
                    place.split(':').count() == 3,
                    "{name} round {round}: no place in {err}"
                );
            }
        }
        // Its share link, cut or changed: decoded or refused, never a panic.
        if let Ok(s) = Scenario::parse(&text) {
            let link = share::encode(&s, 0);
            let cut = &link[..r.next(link.len())];
            let _ = share::decode(cut);
            let mut bytes = link.into_bytes();
            let k = r.next(bytes.len());
            bytes[k] = b"A-_.%#"[r.next(6)];
            let _ = share::decode(&String::from_utf8_lossy(&bytes));
        }
        // A host message of any shape.
        let data = match r.next(5) {
            0 => serde_json::json!({"type": "seek", "step": (r.next(100) as f64) - 50.5}),
            1 => serde_json::json!({"type": "load", "scenario": text}),
            2 => serde_json::json!({"type": ["play"]}),
            3 => serde_json::json!([1, 2, {"type": "play"}]),
            _ => {
                serde_json::json!({"type": "load", "link": "v1.".to_string() + &"A".repeat(r.next(5000))})
            }
        };
        let _ = hear(&data);
    }
}

/// The scenario that once drove ~200 syncs a second (issue 29): a Recreate Deployment undone to
/// a crashing revision keeps the Progressing condition of its last completion, so it never
/// times out, and once the progress deadline is past requeueStuckDeployment requeues it
/// rate-limited after every sync. Upstream loops the same way; client-go's token bucket (10 a
/// second after a burst of 100) sets the pace, as it does here.
const UNDO_TO_A_CRASHING_REVISION: &str = include_str!("fixtures/undo-to-a-crashing-revision.yaml");

#[test]
fn a_stuck_deployment_is_requeued_at_client_gos_pace() {
    use rollout_playground::cluster::trace::Controller;
    let trace = Scenario::parse(UNDO_TO_A_CRASHING_REVISION)
        .unwrap()
        .run()
        .unwrap();
    let syncs = |from: u64, to: u64| {
        trace
            .iter()
            .filter(|s| s.controller() == Some(Controller::Deployment) && (from..to).contains(&s.t))
            .count()
    };
    // Before the deadline (600 s after the last progress), nothing requeues it.
    assert!(syncs(30_000, 600_000) < 5, "{}", syncs(30_000, 600_000));
    // Well past the burst: one sync every 100 ms, not every 5 ms.
    assert_eq!(syncs(650_000, 700_000), 500);
    assert!(trace.len() < 1_500, "{} steps", trace.len());
}
