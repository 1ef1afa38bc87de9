//! Where in a scenario file a refusal points: the 1-based line and column of the field it
//! names, so that `rollout run` prints `file:line:column: message` as compilers do and an
//! editor can jump there. Every refusal of the text gets a place; one about the file as a
//! whole (an empty file, a missing `name`) points at its start. What happened while the run
//! ran (a livelock, the budget crossed) is about the run, and has none.

use super::ScenarioError;
use crate::api::yaml::line_of_field;

/// The place `e` refers to in `text` (the scenario file it came from); `None` for an error
/// of the run rather than of the text.
pub fn locate(text: &str, e: &ScenarioError) -> Option<(usize, usize)> {
    Some(match e {
        ScenarioError::Yaml(message) => yaml_place(text, message),
        ScenarioError::Field { path, .. } => field_place(text, path).unwrap_or((1, 1)),
        ScenarioError::Object { index, message, .. } => {
            object_place(text, *index, message).unwrap_or((1, 1))
        }
        ScenarioError::Livelock(_) | ScenarioError::OverBudget(_) => return None,
    })
}

/// The column where line `line` (1-based) has its first non-blank character, skipping a
/// list item's `- `.
fn column_of(text: &str, line: usize) -> usize {
    let l = text.lines().nth(line - 1).unwrap_or("");
    let body = l.trim_start().trim_start_matches("- ").trim_start();
    l.len() - body.len() + 1
}

fn field_place(text: &str, path: &str) -> Option<(usize, usize)> {
    if path.is_empty() {
        return None;
    }
    let line = line_of_field(text, path)?;
    Some((line, column_of(text, line)))
}

/// libyaml names its place (`at line 3 column 5`); the errors it does not place are found in
/// the text.
fn yaml_place(text: &str, message: &str) -> (usize, usize) {
    if let Some(place) = libyaml_place(message) {
        return place;
    }
    if message.contains("more than one document") {
        // The second document's `---` (one may open the file).
        let mut seen_content = false;
        for (i, l) in text.lines().enumerate() {
            let t = l.trim();
            if (t == "---" || t.starts_with("--- ")) && seen_content {
                return (i + 1, 1);
            }
            seen_content |= !t.is_empty() && !t.starts_with('#') && t != "---";
        }
    }
    // A character YAML does not allow (a control character, say).
    for (i, l) in text.lines().enumerate() {
        if let Some(col) = l
            .chars()
            .position(|c| c.is_control() && c != '\t' && c != '\r')
        {
            return (i + 1, col + 1);
        }
    }
    (1, 1)
}

fn libyaml_place(message: &str) -> Option<(usize, usize)> {
    let (line, rest) = number_after(message, "line ")?;
    let (col, _) = number_after(rest, "column ")?;
    Some((line, col))
}

/// The number that follows the first `label` in `text`, and the text after the label.
fn number_after<'a>(text: &'a str, label: &str) -> Option<(usize, &'a str)> {
    let rest = &text[text.find(label)? + label.len()..];
    let n = rest
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    Some((n, rest))
}

/// An object under `objects:`: the field its message names, inside the manifest block, else
/// the object's entry.
fn object_place(text: &str, index: usize, message: &str) -> Option<(usize, usize)> {
    let entry = line_of_field(text, &format!("objects[{index}]"))?;
    let lines: Vec<&str> = text.lines().collect();
    let head = lines.get(entry - 1)?;
    // A block scalar (`- |`): the manifest is the more indented lines under it.
    let block = head.trim_end().ends_with('|') || head.trim_end().ends_with("|-");
    let Some(path) = field_path(message).filter(|_| block) else {
        return Some((entry, column_of(text, entry)));
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let outer = indent(head);
    let body: Vec<&str> = lines[entry..]
        .iter()
        .take_while(|l| l.trim().is_empty() || indent(l) > outer)
        .copied()
        .collect();
    let inner = body
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| indent(l))
        .min()
        .unwrap_or(0);
    let manifest: String = body
        .iter()
        .map(|l| format!("{}\n", l.get(inner..).unwrap_or("")))
        .collect();
    let line = line_of_field(&manifest, &path)?;
    let at = entry + line;
    Some((at, column_of(text, at)))
}

/// The field path at the head of an apiserver or decoding message: `spec.replicas: …`,
/// `Deployment.apps "w" is invalid: spec.replicas: …`, `… unknown field "spec.foo"`.
fn field_path(message: &str) -> Option<String> {
    let looks_like_path = |p: &str| {
        !p.is_empty()
            && p.contains(|c: char| c.is_ascii_alphabetic())
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '[' | ']' | '_' | '-'))
    };
    if let Some(i) = message.find("unknown field \"") {
        let rest = &message[i + 15..];
        let p = &rest[..rest.find('"')?];
        return looks_like_path(p).then(|| p.to_string());
    }
    let rest = match message.find(" is invalid: ") {
        Some(i) => &message[i + 13..],
        None => message,
    };
    let p = &rest[..rest.find(": ")?];
    looks_like_path(p).then(|| p.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    fn place(text: &str) -> (usize, usize) {
        let e = Scenario::parse(text)
            .and_then(|s| s.start().map(drop))
            .unwrap_err();
        locate(text, &e).expect("a refusal of the text")
    }

    #[test]
    fn every_refusal_has_a_place() {
        let deployment = "objects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: w}\n    spec:\n      replicas: REPLICAS\n      selector: {matchLabels: {a: b}}\n      template:\n        metadata: {labels: {a: b}}\n        spec: {containers: [{name: a, image: b}]}\n";
        let with = |r: &str| format!("name: x\n{}", deployment.replace("REPLICAS", r));
        for (text, want) in [
            // The second document of a multi-document file.
            ("name: x\n---\nname: y\n".to_string(), (2, 1)),
            ("---\nname: x\n---\nname: y\n".to_string(), (3, 1)),
            // The whole file: its start.
            (String::new(), (1, 1)),
            // libyaml's own place.
            ("name: [x\n".to_string(), (2, 1)),
            // A control character.
            ("name: x\ndescription: a\u{1b}b\n".to_string(), (2, 15)),
            // A field of the scenario file.
            ("name: x\nuntil: 5q\n".to_string(), (2, 1)),
            (
                "name: x\nsteps:\n  - at: 1s\n    run: a\n  - at: nope\n    run: b\n".to_string(),
                (5, 5),
            ),
            // A field inside a manifest block: the apiserver's and the budget's.
            (with("-1"), (8, 7)),
            (with("1000000"), (8, 7)),
        ] {
            assert_eq!(place(&text), want, "{text:?}");
        }
    }

    #[test]
    fn paths_at_the_head_of_messages() {
        assert_eq!(
            field_path("Deployment.apps \"w\" is invalid: spec.replicas: Invalid value: -1")
                .as_deref(),
            Some("spec.replicas")
        );
        assert_eq!(
            field_path("strict decoding error: unknown field \"spec.foo\"").as_deref(),
            Some("spec.foo")
        );
        assert_eq!(field_path("the scenario is not valid: x"), None);
    }
}
