//! What a command line writes, read from the line alone (no cluster): which objects, and which
//! part of them. The one reader of "what a command writes": the page asks it whether a later
//! command of the scenario may undo the reader's change (only when both write the same part of
//! the same object), and the guarantees ask it whether a breach follows a hand on the pods, a
//! ReplicaSet or the Deployment. It errs on the side of "may": a line it cannot read writes
//! everything.

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
    /// The whole object (apply, create, patch, cordon, a line not understood).
    Whole,
    /// The object is deleted.
    Deleted,
}

/// Which objects: every object (a manifest, a line not understood), every object of a type
/// (`-l`, `--all`, a bare type), or the named ones.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Objects {
    All,
    OfType(Resource),
    Named(Vec<(Resource, String)>),
}

/// What one command line writes.
pub struct Writes {
    namespace: String,
    objects: Objects,
    part: Part,
}

impl Writes {
    /// Whether it names objects of this type (by name, by type or by selector); a line that
    /// may write anything names none.
    pub fn names(&self, res: Resource) -> bool {
        match &self.objects {
            Objects::All => false,
            Objects::OfType(t) => *t == res,
            Objects::Named(n) => n.iter().any(|(r, _)| *r == res),
        }
    }

    /// Whether it writes objects of this type, or may (a manifest, a line not understood).
    pub fn may_write(&self, res: Resource) -> bool {
        matches!(self.objects, Objects::All) || self.names(res)
    }

    /// Whether it deletes what it names.
    pub fn deletes(&self) -> bool {
        self.part == Part::Deleted
    }

    fn everything() -> Writes {
        Writes {
            namespace: String::new(),
            objects: Objects::All,
            part: Part::Whole,
        }
    }
}

/// What `line` writes, or `None` when it only reads.
pub fn writes(line: &str) -> Option<Writes> {
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
        ("delete", _) => (Part::Deleted, 0),
        ("patch", _) => (Part::Whole, 0),
        ("config", _) => return None,
        // The nodes it names, each by its name alone (a drain's evictions are the eviction
        // API's, which the disruption budget guards; they undo no command).
        ("cordon" | "uncordon" | "drain", _) => {
            let nodes = cmd
                .words()
                .into_iter()
                .map(|n| (Resource::Node, n.to_string()));
            return Some(Writes {
                namespace: String::new(),
                objects: Objects::Named(nodes.collect()),
                part: Part::Whole,
            });
        }
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
    let whole = |p: Part| matches!(p, Part::Whole | Part::Deleted);
    let same_part = whole(a.part) || whole(b.part) || a.part == b.part;
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
            (
                "kubectl scale deployment/web --replicas=4",
                "kubectl drain node-1 --ignore-daemonsets",
                false,
            ),
            (
                "kubectl cordon node-1 node-2",
                "kubectl uncordon node-2",
                true,
            ),
            ("kubectl cordon node-1", "kubectl uncordon node-2", false),
        ] {
            assert_eq!(may_undo(earlier, later), may, "{earlier} then {later}");
        }
    }

    #[test]
    fn what_a_line_deletes_names_and_may_write() {
        use super::super::resource::Resource::{Deployment, Pod, ReplicaSet};
        use super::writes;
        // (line, deletes, names pods, names ReplicaSets, may write Deployments)
        for (line, deletes, pods, rs, deploy) in [
            ("kubectl delete pod web-1", true, true, false, false),
            ("kubectl delete po/web-1 po/web-2", true, true, false, false),
            ("kubectl label pod web-1 a=b", false, true, false, false),
            (
                "kubectl scale rs/web-1 --replicas=0",
                false,
                false,
                true,
                false,
            ),
            (
                "kubectl set image deployment/web nginx=x",
                false,
                false,
                false,
                true,
            ),
            (
                "kubectl rollout undo deployment/web",
                false,
                false,
                false,
                true,
            ),
            ("kubectl apply -f -", false, false, false, true),
            (
                "kubectl create deployment api --image=x",
                false,
                false,
                false,
                true,
            ),
            ("kubectl cordon node-1", false, false, false, false),
            ("kubectl drain node-1", false, false, false, false),
        ] {
            let w = writes(line).expect("a write");
            assert_eq!(
                (
                    w.deletes(),
                    w.names(Pod),
                    w.names(ReplicaSet),
                    w.may_write(Deployment)
                ),
                (deletes, pods, rs, deploy),
                "{line}"
            );
        }
        for line in [
            "kubectl get rs",
            "kubectl rollout status deployment/web",
            "kubectl describe deployment web",
        ] {
            assert!(writes(line).is_none(), "{line}");
        }
    }
}
