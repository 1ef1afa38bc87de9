//! The crate's modules depend on each other one way (ARCHITECTURE.md, "Layers"):
//! `api` ← `apiserver` ← `controller` ← `cluster` ← `kubectl` ← `scenario`, `conformance` ← `web`, the
//! binaries. A module that names a module of a higher layer (`crate::…` or, from a binary,
//! `rollout_playground::…`) fails this test, naming the file, the line and both layers.

mod common;

use std::path::Path;

/// Top-level modules, lowest layer first; modules on one line are one layer.
const LAYERS: &[&[&str]] = &[
    &["api"],
    &["apiserver"],
    &["controller"],
    &["cluster"],
    &["kubectl"],
    &["scenario", "conformance"],
    &["web", "bin"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level modules a line names through `crate::` (or the crate's own name).
fn named(line: &str) -> Vec<&str> {
    let mut out = vec![];
    for prefix in ["crate::", "rollout_playground::"] {
        let mut rest = line;
        while let Some(i) = rest.find(prefix) {
            let after = &rest[i + prefix.len()..];
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            out.push(&after[..end]);
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn dependencies_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let all = common::rust_files(&src);
    let mut wrong = vec![];
    for file in &all {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel.iter().next().unwrap().to_str().unwrap();
        let own = top.trim_end_matches(".rs");
        let Some(mine) = layer(own) else {
            assert!(
                own == "lib",
                "{}: a top-level module the layers do not place: add it to LAYERS",
                rel.display()
            );
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for m in named(code) {
                if let Some(theirs) = layer(m)
                    && theirs > mine
                {
                    wrong.push(format!(
                        "{}:{}: {own} (layer {mine}) names {m} (layer {theirs})",
                        rel.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The ReplicaSet controller (and controller_utils, the garbage collector) know nothing of the
/// Deployment controller, which sits on top of them as upstream's does.
#[test]
fn the_replica_set_controller_takes_nothing_from_the_deployment_controller() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/controller");
    let all = common::rust_files(&dir);
    for file in all
        .iter()
        .filter(|f| !f.starts_with(dir.join("deployment")))
    {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            assert!(
                !code.contains("deployment::") || code.contains("pub mod deployment"),
                "{}:{}: {line}",
                file.display(),
                n + 1
            );
        }
    }
}

#[test]
fn the_check_sees_a_wrong_way_dependency() {
    assert_eq!(named("use crate::scenario::Scenario;"), ["scenario"]);
    assert!(layer("scenario") > layer("controller"));
    assert_eq!(
        named("let x = rollout_playground::cluster::Cluster::new(w); crate::api::Str"),
        ["api", "cluster"]
    );
}
