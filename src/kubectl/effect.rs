//! What a command line writes, read from the line alone (no cluster): which objects, and which
//! part of them. The page asks it whether a later command of the scenario may undo the
//! reader's change: only when both write the same part of the same object. It errs on the
//! side of "may": a line it cannot read writes everything.

use super::command::Command;
use super::line::parse;
use super::resource::Resource;

/// The part of an object a command writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Replicas,
    Template,
    Paused,
    Labels,
    Annotations,
    /// The whole object (apply, create, patch, delete, a line not understood).
    Whole,
}

/// Which objects: every object (a manifest, a line not understood), every object of a type
/// (`-l`, `--all`, a bare type), or the named ones.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Objects {
    All,
    OfType(Resource),
    Named(Vec<(Resource, String)>),
}

struct Writes {
    namespace: String,
    objects: Objects,
    part: Part,
}

impl Writes {
    fn everything() -> Writes {
        Writes {
            namespace: String::new(),
            objects: Objects::All,
            part: Part::Whole,
        }
    }
}

/// What `line` writes, or `None` when it only reads.
fn writes(line: &str) -> Option<Writes> {
    let Ok(cmd) = parse(line) else {
        return Some(Writes::everything());
    };
    if cmd.read_only() {
        return None;
    }
    let (part, from) = match (cmd.verb.name, cmd.sub()) {
        ("scale", _) => (Part::Replicas, 0),
        ("set", _) => (Part::Template, 1),
        ("rollout", Some("pause" | "resume")) => (Part::Paused, 1),
        ("rollout", _) => (Part::Template, 1),
        ("label", _) => (Part::Labels, 0),
        ("annotate", _) => (Part::Annotations, 0),
        ("delete" | "patch", _) => (Part::Whole, 0),
        ("config", _) => return None,
        _ => return Some(Writes::everything()),
    };
    Some(Writes {
        namespace: namespace(&cmd),
        objects: objects(&cmd, from),
        part,
    })
}

fn namespace(cmd: &Command) -> String {
    let mut it = cmd.args.iter();
    while let Some(a) = it.next() {
        if a == "-n" || a == "--namespace" {
            return it.next().cloned().unwrap_or_default();
        }
        if let Some(ns) = a.strip_prefix("--namespace=").or(a.strip_prefix("-n=")) {
            return ns.to_string();
        }
    }
    "default".to_string()
}

/// The objects the positionals from `from` name (pairs such as `app=v2` and flags left out).
fn objects(cmd: &Command, from: usize) -> Objects {
    let words: Vec<&str> = cmd
        .args
        .iter()
        .skip(from)
        .map(String::as_str)
        .filter(|w| !w.starts_with('-') && !w.contains('=') && !w.ends_with('-'))
        .collect();
    let selects = cmd
        .args
        .iter()
        .any(|a| a == "--all" || a == "-l" || a.starts_with("--selector") || a.starts_with("-l="));
    let Some(first) = words.first() else {
        return Objects::All;
    };
    if first.contains('/') {
        let named = words
            .iter()
            .filter_map(|w| {
                let (r, n) = w.split_once('/')?;
                Some((Resource::parse(r)?, n.to_string()))
            })
            .collect();
        return Objects::Named(named);
    }
    let Some(res) = Resource::parse(first) else {
        return Objects::All;
    };
    if selects || words.len() == 1 {
        return Objects::OfType(res);
    }
    Objects::Named(words[1..].iter().map(|n| (res, n.to_string())).collect())
}

fn overlap(a: &Objects, b: &Objects) -> bool {
    match (a, b) {
        (Objects::All, _) | (_, Objects::All) => true,
        (Objects::OfType(x), Objects::OfType(y)) => x == y,
        (Objects::OfType(t), Objects::Named(n)) | (Objects::Named(n), Objects::OfType(t)) => {
            n.iter().any(|(r, _)| r == t)
        }
        (Objects::Named(x), Objects::Named(y)) => x.iter().any(|o| y.contains(o)),
    }
}

/// Whether the command `later` may undo what `earlier` did: both write, to the same object (or
/// may), the same part of it (or all of it).
pub fn may_undo(earlier: &str, later: &str) -> bool {
    let (Some(a), Some(b)) = (writes(earlier), writes(later)) else {
        return false;
    };
    let same_ns = a.namespace.is_empty() || b.namespace.is_empty() || a.namespace == b.namespace;
    let same_part = a.part == Part::Whole || b.part == Part::Whole || a.part == b.part;
    same_ns && same_part && overlap(&a.objects, &b.objects)
}

#[cfg(test)]
mod tests {
    use super::may_undo;

    #[test]
    fn a_later_command_may_undo_only_the_same_part_of_the_same_object() {
        for (earlier, later, may) in [
            (
                "kubectl scale deployment/web --replicas=4",
                "kubectl set image deployment/web nginx=nginx:2",
                false,
            ),
            (
                "kubectl scale deployment/web --replicas=4",
                "kubectl scale deployment web --replicas=2",
                true,
            ),
            (
                "kubectl scale deployment/web --replicas=4",
                "kubectl scale deployment/api --replicas=2",
                false,
            ),
            (
                "kubectl set image deployment/web nginx=a",
                "kubectl set env deployment/web A=1",
                true,
            ),
            (
                "kubectl set image deployment/web nginx=a",
                "kubectl rollout undo deployment/web",
                true,
            ),
            (
                "kubectl rollout pause deployment/web",
                "kubectl rollout resume deployment/web",
                true,
            ),
            (
                "kubectl rollout pause deployment/web",
                "kubectl scale deployment/web --replicas=1",
                false,
            ),
            (
                "kubectl label deployment/web a=b",
                "kubectl label deployment -l app=web a-",
                true,
            ),
            (
                "kubectl scale deployment/web --replicas=4",
                "kubectl delete pod web-abc",
                false,
            ),
            (
                "kubectl scale deployment/web --replicas=4",
                "kubectl delete deployment web",
                true,
            ),
            (
                "kubectl scale deployment/web --replicas=4",
                "kubectl apply -f -\nkind: Deployment",
                true,
            ),
            (
                "kubectl scale deployment/web --replicas=4",
                "kubectl scale deployment/web --replicas=2 -n shop",
                false,
            ),
            (
                "kubectl scale deployment/web --replicas=4",
                "kubectl get rs",
                false,
            ),
        ] {
            assert_eq!(may_undo(earlier, later), may, "{earlier} then {later}");
        }
    }
}
