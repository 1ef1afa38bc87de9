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

/// A file's module path below the crate: `src/kubectl/get.rs` is `kubectl::get`,
/// `src/kubectl/mod.rs` is `kubectl`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut m: Vec<String> = rel
        .iter()
        .map(|s| s.to_str().unwrap().trim_end_matches(".rs").to_string())
        .collect();
    if m.last().is_some_and(|l| l == "mod" || l == "lib") {
        m.pop();
    }
    m
}

/// The code of a file without its comments, string literals and `#[cfg(test)]` modules (a test
/// module's `super` is its file, and what tests take is not the design's shape).
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut out = String::new();
    for line in text.lines() {
        let mut code = String::new();
        let mut in_str = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_str {
                if c == '\\' {
                    chars.next();
                } else if c == '"' {
                    in_str = false;
                }
                continue;
            }
            if c == '/' && chars.peek() == Some(&'/') {
                break;
            }
            if c == '"' {
                in_str = true;
                continue;
            }
            code.push(c);
        }
        out.push_str(&code);
        out.push('\n');
    }
    out
}

/// Every path the code names from `crate`, `super` or `self`, `use` trees spread out, made
/// absolute from the crate's root (`module` is the file's own module path).
fn paths_named(code: &str, module: &[String]) -> Vec<Vec<String>> {
    #[derive(PartialEq)]
    enum Tok {
        Id(String),
        Sep,
        Open,
        Close,
        Comma,
        Other,
    }
    let mut toks = vec![];
    let b: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_alphanumeric() || c == '_' {
            let s = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            toks.push(Tok::Id(b[s..i].iter().collect()));
            continue;
        }
        toks.push(match c {
            ':' if b.get(i + 1) == Some(&':') => {
                i += 1;
                Tok::Sep
            }
            '{' => Tok::Open,
            '}' => Tok::Close,
            ',' => Tok::Comma,
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            _ => Tok::Other,
        });
        i += 1;
    }
    // Reads a path (and its `{…}` groups) from `toks[*at]`, pushing each full path.
    fn tree(toks: &[Tok], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let mut path = prefix;
        loop {
            match toks.get(*at) {
                Some(Tok::Id(s)) => {
                    path.push(s.clone());
                    *at += 1;
                }
                Some(Tok::Open) => {
                    *at += 1;
                    loop {
                        tree(toks, at, path.clone(), out);
                        match toks.get(*at) {
                            Some(Tok::Comma) => *at += 1,
                            _ => break,
                        }
                        if toks.get(*at) == Some(&Tok::Close) {
                            break;
                        }
                    }
                    if toks.get(*at) == Some(&Tok::Close) {
                        *at += 1;
                    }
                    return;
                }
                _ => break,
            }
            if toks.get(*at) == Some(&Tok::Sep) {
                *at += 1;
            } else {
                break;
            }
        }
        out.push(path);
    }
    let mut out = vec![];
    let mut at = 0;
    while at < toks.len() {
        let start = matches!(&toks[at], Tok::Id(s) if s == "crate" || s == "super" || s == "self")
            && toks.get(at + 1) == Some(&Tok::Sep)
            && (at == 0 || toks[at - 1] != Tok::Sep);
        if !start {
            at += 1;
            continue;
        }
        let mut raw = vec![];
        tree(&toks, &mut at, vec![], &mut raw);
        for p in raw {
            let mut abs: Vec<String> = vec![];
            let mut rest = p.as_slice();
            match rest.first().map(String::as_str) {
                Some("crate") => rest = &rest[1..],
                Some("self") => {
                    abs = module.to_vec();
                    rest = &rest[1..];
                }
                _ => {
                    abs = module.to_vec();
                    while rest.first().is_some_and(|s| s == "super") {
                        abs.pop();
                        rest = &rest[1..];
                    }
                }
            }
            abs.extend(rest.iter().cloned());
            out.push(abs);
        }
    }
    out
}

/// The import circles inside each folder: files (or sub-folders) of one folder that name each
/// other round a loop, as strongly connected components of the "names a sibling" graph. A
/// folder's `mod.rs` is its parent, not a sibling.
fn import_circles() -> Vec<Vec<String>> {
    use std::collections::{BTreeMap, BTreeSet};
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = common::rust_files(&src);
    let modules: BTreeSet<Vec<String>> = files
        .iter()
        .map(|f| module_of(f.strip_prefix(&src).unwrap()))
        .collect();
    // folder → sibling → siblings it names
    let mut graph: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in &files {
        let me = module_of(file.strip_prefix(&src).unwrap());
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        for path in paths_named(&code, &me) {
            // The deepest folder both lie in, and the sibling on each side.
            let common = me.iter().zip(&path).take_while(|(a, b)| a == b).count();
            if common >= me.len() || common >= path.len() {
                continue;
            }
            let folder = me[..common].to_vec();
            let mut theirs = folder.clone();
            theirs.push(path[common].clone());
            if !modules.iter().any(|m| m.starts_with(&theirs)) {
                continue; // an item of the folder's mod.rs
            }
            graph
                .entry(folder)
                .or_default()
                .entry(me[common].clone())
                .or_default()
                .insert(path[common].clone());
        }
    }
    let mut circles = vec![];
    for (folder, edges) in &graph {
        // Strongly connected sets by reachability: a folder has a few dozen files at most.
        let reach = |from: &String| {
            let mut seen = BTreeSet::new();
            let mut todo = vec![from.clone()];
            while let Some(n) = todo.pop() {
                for m in edges.get(&n).into_iter().flatten() {
                    if seen.insert(m.clone()) {
                        todo.push(m.clone());
                    }
                }
            }
            seen
        };
        let reaches: BTreeMap<&String, BTreeSet<String>> =
            edges.keys().map(|n| (n, reach(n))).collect();
        let mut placed = BTreeSet::new();
        for n in edges.keys() {
            if placed.contains(n) || !reaches[n].contains(n) {
                continue;
            }
            let members: Vec<String> = reaches[n]
                .iter()
                .filter(|m| reaches.get(m).is_some_and(|r| r.contains(n)))
                .cloned()
                .collect();
            placed.extend(members.iter().cloned());
            let dir = folder.join("/");
            circles.push(members.iter().map(|m| format!("{dir}/{m}")).collect());
        }
    }
    circles
}

/// Review 4 counted 9; issue 47 asked for at most 2, and the last two (`kubectl/`'s printers,
/// `web/embed ↔ page`) opened: a new one is a file that should take what it shares from a leaf.
#[test]
fn no_import_circle_inside_a_folder() {
    let circles = import_circles();
    let shown: Vec<String> = circles.iter().map(|c| c.join(" ↔ ")).collect();
    println!("{}", shown.join("\n"));
    assert!(
        circles.is_empty(),
        "{} import circles:\n{}",
        circles.len(),
        shown.join("\n")
    );
}
