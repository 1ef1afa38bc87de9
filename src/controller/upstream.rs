//! Where upstream's functions are: the file and lines of each function a trace names, at one
//! kubernetes/kubernetes commit, read from `data/upstream-functions.tsv` (which
//! `scripts/upstream-lines.sh` writes from a checkout). The page links each call to its lines;
//! `rollout explain` prints them.

use std::sync::OnceLock;

const DATA: &str = include_str!("../../data/upstream-functions.tsv");

/// Which controller's code a name belongs to: upstream's controllers share some names
/// (`deletePod`, `calculateStatus`, `processNextWorkItem`), each in its own file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Scope {
    #[default]
    Deployment,
    ReplicaSet,
    GarbageCollector,
}

impl Scope {
    /// The data file's name for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Deployment => "deployment",
            Scope::ReplicaSet => "replicaset",
            Scope::GarbageCollector => "garbagecollector",
        }
    }
}

/// One function's place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The data file's scope: a controller's name, or `shared` (controller_utils.go).
    pub scope: &'static str,
    pub func: &'static str,
    pub file: &'static str,
    /// The kubernetes/kubernetes commit the lines are at; `-` when only the file is known
    /// (at the tag; its lines are 0).
    pub commit: &'static str,
    /// The `func` line and the closing brace's, 1-based.
    pub line: u32,
    pub end: u32,
}

impl Place {
    /// Whether its lines are known.
    pub fn has_lines(&self) -> bool {
        self.commit != "-"
    }
}

/// The data file, read.
pub struct Table {
    /// The release the playground reproduces; a row without a commit is its file at this tag.
    pub tag: &'static str,
    pub places: Vec<Place>,
    /// `places`' indices by (scope, name), for `find` (a recorded trace looks up every call).
    by_name: Vec<(&'static str, &'static str, usize)>,
}

impl Table {
    fn parse(text: &'static str) -> Result<Table, String> {
        let mut t = Table {
            tag: "",
            places: vec![],
            by_name: vec![],
        };
        for (i, row) in text.lines().enumerate() {
            if row.is_empty() || row.starts_with('#') {
                continue;
            }
            let cols: Vec<&'static str> = row.split('\t').collect();
            match cols.as_slice() {
                ["tag", tag] => t.tag = tag,
                [scope, func, _recv, file, commit, line, end] => {
                    let num = |s: &str| {
                        s.parse::<u32>()
                            .map_err(|_| format!("line {}: {s:?} is not a line number", i + 1))
                    };
                    t.places.push(Place {
                        scope,
                        func,
                        file,
                        commit,
                        line: num(line)?,
                        end: num(end)?,
                    })
                }
                _ => return Err(format!("line {}: expected 7 columns: {row:?}", i + 1)),
            }
        }
        t.by_name = t
            .places
            .iter()
            .enumerate()
            .map(|(i, p)| (p.scope, p.func, i))
            .collect();
        crate::api::sort::sort(&mut t.by_name);
        Ok(t)
    }

    /// `func` as `scope`'s code names it: its own, else a shared helper's.
    pub fn find(&self, scope: Scope, func: &str) -> Option<&Place> {
        let at = |s: &str| {
            self.by_name
                .binary_search_by(|&(sc, f, _)| (sc, f).cmp(&(s, func)))
                .ok()
                .map(|i| &self.places[self.by_name[i].2])
        };
        at(scope.as_str()).or_else(|| at("shared"))
    }

    /// The release whose code the lines are of (the tag's minor: `v1.36.3` is 1.36).
    pub fn release(&self) -> super::release::Release {
        let minor = self.tag.split('.').nth(1).and_then(|m| m.parse().ok());
        super::release::Release {
            minor: minor.unwrap_or_default(),
        }
    }

    /// The address of `p`'s lines on GitHub at its commit, or of its file at the tag.
    pub fn url(&self, p: &Place) -> String {
        if p.has_lines() {
            format!(
                "https://github.com/kubernetes/kubernetes/blob/{}/{}#L{}-L{}",
                p.commit, p.file, p.line, p.end
            )
        } else {
            format!(
                "https://github.com/kubernetes/kubernetes/blob/{}/{}",
                self.tag, p.file
            )
        }
    }
}

/// The data file compiled in (a test checks it parses and names every function the code
/// can put in a trace).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| Table::parse(DATA).expect("data/upstream-functions.tsv"))
}

/// Where `func`, as `scope`'s code names it, is upstream.
pub fn find(scope: Scope, func: &str) -> Option<&'static Place> {
    table().find(scope, func)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_parses_and_every_function_has_its_lines() {
        let t = Table::parse(DATA).unwrap();
        assert!(!t.tag.is_empty());
        assert!(t.places.len() > 50);
        assert!(t.tag.starts_with("v1."), "{}", t.tag);
        assert!(
            super::super::release::Release::all().any(|r| r == t.release()),
            "the lines are of a release the playground reproduces: {}",
            t.tag
        );
        for p in &t.places {
            if !p.has_lines() {
                assert_eq!((p.line, p.end), (0, 0), "{p:?}");
                continue;
            }
            assert!(
                p.line > 0 && p.end > p.line,
                "{p:?}: run scripts/upstream-lines.sh"
            );
            assert!(
                p.commit.len() == 40 && p.commit.bytes().all(|b| b.is_ascii_hexdigit()),
                "{p:?}: a full commit"
            );
        }
    }

    #[test]
    fn a_name_resolves_in_its_own_controller_first_then_in_the_shared_helpers() {
        let t = table();
        let d = t.find(Scope::Deployment, "deletePod").unwrap();
        let r = t.find(Scope::ReplicaSet, "deletePod").unwrap();
        assert_eq!(d.file, "pkg/controller/deployment/deployment_controller.go");
        assert_eq!(r.file, "pkg/controller/replicaset/replica_set.go");
        let s = t.find(Scope::ReplicaSet, "SatisfiedExpectations").unwrap();
        assert_eq!(s.file, "pkg/controller/controller_utils.go");
        assert!(t.find(Scope::Deployment, "noSuchFunction").is_none());
        let url = t.url(d);
        assert_eq!(
            url,
            format!(
                "https://github.com/kubernetes/kubernetes/blob/{}/{}#L{}-L{}",
                d.commit, d.file, d.line, d.end
            )
        );
        let file_only = Place {
            commit: "-",
            line: 0,
            end: 0,
            ..*d
        };
        assert_eq!(
            t.url(&file_only),
            format!(
                "https://github.com/kubernetes/kubernetes/blob/{}/{}",
                t.tag, d.file
            )
        );
    }

    #[test]
    fn a_malformed_row_is_refused_naming_its_line() {
        let e = Table::parse("tag\tv1\n\ndeployment\tsync\t-\tsync.go\tabc\tx\t3\n")
            .err()
            .unwrap();
        assert!(e.starts_with("line 3: \"x\""), "{e}");
    }
}
