//! Issue 33: every upstream function a trace can name (a call, an explain line, the handler
//! of a cause) is in `data/upstream-functions.tsv`, which says where it is upstream; the file's
//! lines are checked against a kubernetes checkout by `scripts/upstream-lines.sh --check`
//! (run by the test command when `KUBERNETES_CHECKOUT` names one).

mod common;

use rollout_playground::apiserver::queue::Cause;
use rollout_playground::controller::calls::Scope;
use rollout_playground::controller::upstream;
use rollout_playground::scenario::Scenario;
use std::path::Path;

/// The scope of a source file's names: the controller whose directory or file it is.
fn scope_of(path: &Path) -> Option<Scope> {
    let p = path.to_string_lossy();
    if p.contains("controller/deployment/") {
        Some(Scope::Deployment)
    } else if p.contains("controller/replicaset/") {
        Some(Scope::ReplicaSet)
    } else if p.ends_with("controller/garbagecollector.rs") {
        Some(Scope::GarbageCollector)
    } else {
        None
    }
}

/// The names a controller's source puts in a trace: the functions it marks (`calls.enter`,
/// `calls.leaf`), the functions its explain lines name, the handlers that queue its keys.
fn names_in(src: &str) -> Vec<String> {
    let mut out = vec![];
    let openers = [
        "calls.enter(",
        "calls.leaf(",
        "calls.explain(",
        "cx.explain(",
        "Explain::new(",
        "self.enqueue(",
        "add_by(",
    ];
    for o in openers {
        let mut rest = src;
        while let Some(i) = rest.find(o) {
            rest = &rest[i + o.len()..];
            // The first string literal among the arguments, before the call's end.
            let args = &rest[..rest.find(");").unwrap_or(rest.len()).min(200)];
            if let Some(q) = args.find('"') {
                let name = &args[q + 1..];
                let name = &name[..name.find('"').unwrap()];
                if name.chars().all(|c| c.is_ascii_alphanumeric()) && !name.is_empty() {
                    out.push(name.to_string());
                }
            }
        }
    }
    out
}

#[test]
fn every_name_the_controllers_put_in_a_trace_is_in_the_data_file() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/controller");
    let mut missing = vec![];
    let mut seen = 0;
    for file in common::rust_files(&src) {
        let Some(scope) = scope_of(&file) else {
            continue;
        };
        for name in names_in(&std::fs::read_to_string(&file).unwrap()) {
            seen += 1;
            if upstream::find(scope, &name).is_none() {
                missing.push(format!("{} ({:?}): {name}", file.display(), scope));
            }
        }
    }
    assert!(seen > 100, "the scan finds the names ({seen})");
    assert!(
        missing.is_empty(),
        "not in data/upstream-functions.tsv:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_name_in_the_gallerys_traces_is_in_the_data_file_with_its_place() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut names = std::collections::BTreeSet::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        for s in Scenario::parse(&text).unwrap().run().unwrap() {
            let Some(s) = s.sync() else {
                continue;
            };
            let scope = s.controller.scope();
            assert!(!s.calls.is_empty(), "a sync records its path: {s:?}");
            for c in &s.calls {
                names.insert((c.scope, c.func.to_string()));
            }
            for e in &s.explain {
                names.insert((scope, e.func.clone()));
            }
            if let Some(Cause::Event { handler, .. }) = &s.cause {
                names.insert((scope, handler.to_string()));
            }
            for w in &s.writes {
                assert!(usize::from(w.call) < s.calls.len(), "{w:?}");
            }
        }
    }
    let mut with_lines = 0;
    for (scope, name) in &names {
        let p = upstream::find(*scope, name)
            .unwrap_or_else(|| panic!("{scope:?} {name}: not in data/upstream-functions.tsv"));
        assert!(!p.has_lines() || (p.line > 0 && p.end > p.line), "{p:?}");
        with_lines += usize::from(p.has_lines());
    }
    assert!(names.len() > 40, "{}", names.len());
    assert!(with_lines > 20, "most names have their lines: {with_lines}");
}
