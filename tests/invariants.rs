//! The invariants ARCHITECTURE.md states, as tests (beside `tests/layers.rs`, which keeps the
//! layers pointing one way): each names the file and line that breaks it.
//!
//! - The page and native builds run the same core: no `target_arch` outside the page, its entry
//!   point, the store's x86-64 prefetch and the gallery (compiled in natively).
//! - Data is parsed by the crates the design names: every entry into a JSON or YAML parser is
//!   serde_json's, serde_norway's or serde-wasm-bindgen's, in the modules listed here.
//! - The page never computes controller behaviour: `web/` names, from the layers below the
//!   scenario, only the data a run records, never the cluster, the apiserver or a controller.

mod common;

use std::path::Path;

/// Every `.rs` file under `src/`, with its path relative to `src/` (with `/`) and its text.
fn sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    common::rust_files(&src)
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The lines (1-based, with their text) of the code before its tests module, where `needle`
/// stands outside a comment.
fn code_lines<'a>(text: &'a str, needle: &str) -> Vec<(usize, &'a str)> {
    text.lines()
        .take_while(|l| !l.starts_with("mod tests") && !l.starts_with("#[cfg(test)]"))
        .enumerate()
        .filter(|(_, l)| {
            let code = l.split("//").next().unwrap_or("");
            code.contains(needle)
        })
        .map(|(i, l)| (i + 1, l.trim()))
        .collect()
}

#[test]
fn no_target_arch_outside_the_page() {
    let allowed = |f: &str| {
        f.starts_with("web/")
            || f == "bin/playground.rs"
            // The x86-64 prefetch in the store's pod walk: speed only, same results.
            || f == "apiserver/store.rs"
            // Natively the gallery is compiled in; the page fetches all but the first.
            || f == "scenario/gallery.rs"
    };
    let wrong: Vec<String> = sources()
        .iter()
        .filter(|(f, _)| !allowed(f))
        .flat_map(|(f, text)| {
            code_lines(text, "target_arch")
                .into_iter()
                .map(move |(n, l)| format!("src/{f}:{n}: {l}"))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "target_arch outside the page:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn json_and_yaml_are_parsed_by_the_named_crates_only() {
    // The entries into a parser, and the modules that may call them.
    let entries = [
        "serde_json::from_",
        "serde_norway::from_",
        "serde_norway::Deserializer",
        "serde_json::Deserializer",
        "serde_wasm_bindgen::from_",
        "unsafe_libyaml_norway",
    ];
    let allowed = [
        "api/yaml.rs",       // manifests and scenario files
        "api/aliases.rs",    // libyaml's events, to count a document's aliases
        "api/print.rs",      // kubectl's YAML round-trip of a value it prints
        "scenario/share.rs", // share links
        "kubectl/patch.rs",  // kubectl patch's JSON patch
        "conformance.rs",    // the shared vectors
        "conformance/vectors.rs",
        "web/bindings.rs", // postMessage data, through serde-wasm-bindgen
    ];
    // A parser of our own would show as a tokenizer of JSON or YAML.
    let hand_written = [
        "fn parse_json",
        "fn parse_yaml",
        "JsonToken",
        "YamlToken",
        "fn tokenize_json",
    ];
    let mut wrong = vec![];
    for (f, text) in sources() {
        for e in entries {
            if allowed.contains(&f.as_str()) {
                continue;
            }
            for (n, l) in code_lines(&text, e) {
                wrong.push(format!(
                    "src/{f}:{n}: {l} (a parser called outside the listed modules)"
                ));
            }
        }
        for h in hand_written {
            for (n, l) in code_lines(&text, h) {
                wrong.push(format!("src/{f}:{n}: {l} (a parser of our own)"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_page_never_computes_controller_behaviour() {
    // What the page may name below the scenario layer: the data a run records.
    let data = [
        "crate::cluster::trace",
        "crate::cluster::kubelet::World",
        "crate::cluster::watch::WatchEnd",
        "crate::cluster::watch::WatchLog",
        "crate::controller::deployment::Branch",
        // The release a world names (a setting the picker lists; what it changes is the
        // controllers').
        "crate::controller::release::Release",
        // The recorded events, and when two are one (the count the Events panel shows).
        "crate::apiserver::events::{Event, EventRecorder}",
    ];
    let mut wrong = vec![];
    for (f, text) in sources().iter().filter(|(f, _)| f.starts_with("web/")) {
        for layer in ["crate::cluster", "crate::controller", "crate::apiserver"] {
            for (n, l) in code_lines(text, layer) {
                let mut rest = l;
                while let Some(i) = rest.find(layer) {
                    let at = &rest[i..];
                    if !data.iter().any(|d| at.starts_with(d)) {
                        wrong.push(format!("src/{f}:{n}: {l}"));
                        break;
                    }
                    rest = &at[layer.len()..];
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the page names the simulation itself (it renders what Session recorded):\n{}",
        wrong.join("\n")
    );
}

/// Each production function (not a test's) with its first line (1-based), its length in lines
/// and its doc comment.
fn functions(text: &str) -> Vec<(usize, usize, String, String)> {
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("mod tests") && !l.starts_with("#[cfg(test)]"))
        .collect();
    let mut out = vec![];
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let indent = &l[..l.len() - t.len()];
        let head = [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ]
        .iter()
        .fold(t, |t, p| t.strip_prefix(p).unwrap_or(t));
        let Some(name) = head.strip_prefix("fn ") else {
            continue;
        };
        let name: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        let Some(end) = lines[i..].iter().position(|x| *x == close) else {
            continue;
        };
        // The doc above it, past its attributes.
        let doc: Vec<&str> = lines[..i]
            .iter()
            .rev()
            .map(|x| x.trim())
            .skip_while(|x| x.starts_with("#["))
            .take_while(|x| x.starts_with("///"))
            .collect();
        out.push((i + 1, end + 1, name, doc.join(" ")));
    }
    out
}

/// Issue 30: a function past ~80 lines is hard to read beside upstream's; none may pass 120,
/// and one past 80 says in its doc why it is long.
#[test]
fn no_function_is_over_120_lines_and_a_long_one_says_why() {
    let mut wrong = vec![];
    for (f, text) in sources() {
        // Unit tests, in a module's `tests.rs` or its `tests/` directory.
        if f.ends_with("/tests.rs") || f.contains("/tests/") {
            continue;
        }
        for (line, len, name, doc) in functions(&text) {
            let says_why = doc.to_lowercase().contains("long");
            if len > 120 {
                wrong.push(format!(
                    "src/{f}:{line}: fn {name} is {len} lines (at most 120)"
                ));
            } else if len > 80 && !says_why {
                wrong.push(format!(
                    "src/{f}:{line}: fn {name} is {len} lines: its doc should say why it is long"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The world's actors: their line in `cluster/actors.rs`'s `actors!` list (field and
/// variant of `cluster::Due`), the file each lives in (under `src/`) and its `Actor` impl
/// there. The toy (unit tests only) shows that a new actor is its file and that line.
const ACTORS: &[(&str, &str, &str)] = &[
    (
        "scheduler: Scheduler(",
        "cluster/scheduler.rs",
        "impl Actor<Due, World> for Scheduler",
    ),
    (
        "kubelet: Kubelet(",
        "cluster/kubelet.rs",
        "impl<D: From<PodStep>> Actor<D, World> for Kubelets",
    ),
    (
        "lifecycle: Lifecycle(",
        "controller/nodelifecycle.rs",
        "impl<D: From<Step>, W> Actor<D, W> for NodeLifecycleController",
    ),
    (
        "disruption: Disruption(",
        "controller/disruption.rs",
        "impl<D, W> Actor<D, W> for DisruptionController",
    ),
    (
        "proxy: Proxy(",
        "cluster/traffic.rs",
        "impl<D: From<Step>> Actor<D, World> for KubeProxy",
    ),
    (
        "endpoints: Endpoints(",
        "controller/endpointslice/controller.rs",
        "impl<D, W> Actor<D, W> for EndpointSliceController",
    ),
    (
        "toy: Toy(",
        "cluster/toy.rs",
        "impl<D: From<Step>> Actor<D, World> for Toy",
    ),
];

/// Where `impl Cluster` may stand: the loop, the actors' registration, and the making of a
/// world (its nodes, a pasted state) and the change of its settings. An actor's file holds
/// none: it acts through `controller::actor::Cx`, not the whole world.
const CLUSTER_IMPLS: &[&str] = &[
    "cluster/mod.rs",
    "cluster/actors.rs",
    "cluster/nodes.rs",
    "cluster/record.rs",
    "cluster/restore.rs",
    "cluster/world.rs",
];

#[test]
fn each_actor_lives_in_its_own_file_and_registers_in_one_place() {
    let src: std::collections::BTreeMap<String, String> = sources().into_iter().collect();
    let actors = &src["cluster/actors.rs"];
    let list = actors
        .split("\nactors! {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("cluster/actors.rs registers the actors in one `actors! { … }` list");
    let lines: Vec<&str> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("#["))
        .collect();
    assert_eq!(
        lines.len(),
        ACTORS.len(),
        "one line per actor in the list: {lines:?}"
    );
    for ((line, file, implements), registered) in ACTORS.iter().zip(&lines) {
        assert!(
            registered.starts_with(line),
            "the list names {line}…, in this order: {lines:?}"
        );
        let text = src
            .get(*file)
            .unwrap_or_else(|| panic!("{line}… lives in src/{file}"));
        assert!(text.contains(implements), "src/{file}: {implements}");
    }
    // What the line makes (the field, the variant of `Due`, its turns at a watch event and
    // a timer) is the macro's alone: `hand_timer` and `actors_saw` are written once, in it.
    assert_eq!(actors.matches("fn hand_timer(").count(), 1);
    assert_eq!(actors.matches("fn actors_saw(").count(), 1);
    let mut wrong = vec![];
    for (file, text) in &src {
        for (n, line) in code_lines(text, "DerefMut for Cluster") {
            wrong.push(format!(
                "src/{file}:{n}: {line}: Cluster offers setters, not DerefMut"
            ));
        }
        for needle in [
            "impl Cluster {",
            "impl super::Cluster {",
            "impl crate::cluster::Cluster {",
        ] {
            for (n, _) in code_lines(text, needle) {
                if !CLUSTER_IMPLS.contains(&file.as_str()) {
                    wrong.push(format!(
                        "src/{file}:{n}: an `impl Cluster` outside {CLUSTER_IMPLS:?}"
                    ));
                }
            }
        }
    }
    // `cluster/mod.rs` holds the world, the loop and the dispatch: what a run records, and
    // the views of a step, are `record.rs`'s.
    let loop_file = &src["cluster/mod.rs"];
    for (n, line) in loop_file.lines().enumerate() {
        let declares = ["pub struct ", "struct ", "pub fn ", "fn "]
            .iter()
            .any(|d| line.starts_with(d));
        let allowed = [
            "struct Sim ",
            "struct Cluster ",
            "struct Livelock ",
            "struct InstantUnderWay ",
        ]
        .iter()
        .any(|a| line.contains(a));
        if declares && !allowed {
            wrong.push(format!(
                "src/cluster/mod.rs:{}: {line}: the loop's file declares the world and its loop only",
                n + 1
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The clients that go on after their command are kubectl's.
    for (file, implements) in [
        ("kubectl/drainer.rs", "impl Client for Drain"),
        ("kubectl/watcher.rs", "impl Client for Watch"),
    ] {
        assert!(src[file].contains(implements), "src/{file}: {implements}");
    }
}
