//! A sync's path through upstream's code, laid out for reading: one row per call with its
//! depth, its place upstream (file, lines, link), the explain lines it gave and the writes
//! it made. The page's Code view draws these rows; `rollout explain` prints them.

use crate::cluster::trace::SyncStep;
use crate::controller::calls;
use crate::controller::release::Release;
use crate::controller::upstream::{self, Place};

/// One call of the path.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeRow {
    pub depth: u8,
    pub func: &'static str,
    pub place: Option<&'static Place>,
    /// The function's lines on GitHub.
    pub url: Option<String>,
    /// The explain lines this call gave (their text).
    pub explain: Vec<String>,
    /// The indices, among the sync's writes, of those this call made.
    pub writes: Vec<usize>,
    /// For a release older than the data file's, its tag (`v1.33.0`): the link is to the
    /// function's file there, whose lines the data file does not know.
    pub branch: Option<String>,
}

impl CodeRow {
    /// `pkg/controller/deployment/rolling.go:31–66 @95f08499`, or the file at the tag when
    /// its lines are not known (`… @v1.36.3`).
    pub fn place_text(&self) -> String {
        if let (Some(p), Some(b)) = (self.place, &self.branch) {
            return format!("{} @{b}", p.file);
        }
        match self.place {
            Some(p) if p.has_lines() => {
                format!("{}:{}–{} @{}", p.file, p.line, p.end, &p.commit[..8])
            }
            Some(p) => format!("{} @{}", p.file, upstream::table().tag),
            None => String::new(),
        }
    }
}

/// The rows of `s`'s path, and the explain lines of functions the path does not show
/// (`fn`, text).
pub fn code_rows(s: &SyncStep) -> (Vec<CodeRow>, Vec<(String, String)>) {
    code_rows_at(s, Release::NEWEST)
}

/// [`code_rows`] for a run on `release`: on an older release than the data file's, each
/// function links to its file on that release's branch.
pub fn code_rows_at(s: &SyncStep, release: Release) -> (Vec<CodeRow>, Vec<(String, String)>) {
    let (per_call, loose) = calls::attach(&s.calls, &s.explain);
    // An older release's own tag. A newer one keeps the data file's lines: the releases
    // after it name no change to these controllers (release.rs holds every difference).
    let table = upstream::table();
    let branch = (release < table.release()).then(|| release.git_version());
    let mut rows: Vec<CodeRow> = s
        .calls
        .iter()
        .zip(per_call)
        .map(|(c, lines)| {
            let place = upstream::find(c.scope, c.func);
            CodeRow {
                depth: c.depth,
                func: c.func,
                place,
                url: place.map(|p| match &branch {
                    Some(b) => format!(
                        "https://github.com/kubernetes/kubernetes/blob/{b}/{}",
                        p.file
                    ),
                    None => table.url(p),
                }),
                explain: lines.iter().map(|&i| s.explain[i].text.clone()).collect(),
                writes: vec![],
                branch: branch.clone(),
            }
        })
        .collect();
    for (i, w) in s.writes.iter().enumerate() {
        if let Some(r) = rows.get_mut(usize::from(w.call)) {
            r.writes.push(i);
        }
    }
    let loose = loose
        .into_iter()
        .map(|i| (s.explain[i].func.clone(), s.explain[i].text.clone()))
        .collect();
    (rows, loose)
}

/// The functions that decided a sync, each once, in call order: those that gave its numbers
/// or made its writes (Learn mode links a revealed answer to them).
pub fn deciding(s: &SyncStep) -> Vec<CodeRow> {
    let (rows, _) = code_rows(s);
    let mut out: Vec<CodeRow> = vec![];
    for r in rows {
        if (!r.explain.is_empty() || !r.writes.is_empty()) && !out.iter().any(|o| o.func == r.func)
        {
            out.push(r);
        }
    }
    out
}

/// A write in words: `update replicasets/status web-6bdbfc89d5`, and the refusal when the
/// apiserver refused it.
pub fn write_text(w: &calls::Write) -> String {
    let resource = calls::resource_text(w.resource);
    match &w.refused {
        None => format!("{} {resource} {}", w.verb, w.name),
        Some(e) => format!("{} {resource} {}, refused: {e}", w.verb, w.name),
    }
}

/// Where the rows' lines are, for a run on `release`.
pub fn release_text(release: Release) -> String {
    let t = upstream::table();
    if release < t.release() {
        return format!(
            "Kubernetes {release}: each function's file at {}; the lines are known for {} only",
            release.git_version(),
            t.release()
        );
    }
    let lines = if t
        .places
        .iter()
        .all(|p| p.has_lines() && p.commit == t.places[0].commit)
    {
        format!("kubernetes/kubernetes {}", t.tag)
    } else {
        format!(
            "kubernetes/kubernetes: each function at the commit its link names, or its file at {}",
            t.tag
        )
    };
    if release > t.release() {
        format!(
            "Kubernetes {release}, whose controllers are {}'s: {lines}",
            t.release()
        )
    } else {
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::trace::{Body, Controller};
    use crate::scenario::Scenario;

    fn first_sync(controller: Controller) -> SyncStep {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/rolling-update.yaml"
        ))
        .unwrap();
        let trace = Scenario::parse(&text).unwrap().run().unwrap();
        trace
            .into_iter()
            .find_map(|s| match s.body {
                Body::Sync(y) if y.controller == controller => Some(y),
                _ => None,
            })
            .unwrap()
    }

    #[test]
    fn a_new_deployments_first_sync_creates_its_replica_set_in_get_new_replica_set() {
        let s = first_sync(Controller::Deployment);
        let (rows, loose) = code_rows(&s);
        assert!(loose.is_empty(), "{loose:?}");
        assert_eq!((rows[0].func, rows[0].depth), ("syncDeployment", 0));
        let get_new = rows
            .iter()
            .rposition(|r| r.func == "getNewReplicaSet")
            .unwrap();
        let made: Vec<String> = rows[get_new]
            .writes
            .iter()
            .map(|&i| write_text(&s.writes[i]))
            .collect();
        assert!(made[0].starts_with("create replicasets web-"), "{made:?}");
        assert!(rows[get_new].explain[0].contains("create web-"));
        let p = rows[get_new].place.unwrap();
        assert_eq!(p.file, "pkg/controller/deployment/sync.go");
        assert_eq!(
            rows[get_new].url.as_deref(),
            Some(upstream::table().url(p).as_str())
        );
        // Each call is one level under the call it is in.
        for w in rows.windows(2) {
            assert!(w[1].depth <= w[0].depth + 1, "{:?} then {:?}", w[0], w[1]);
        }
    }

    #[test]
    fn the_functions_that_decided_a_sync_are_those_with_numbers_or_writes() {
        let s = first_sync(Controller::Deployment);
        let funcs: Vec<&str> = deciding(&s).iter().map(|r| r.func).collect();
        assert_eq!(
            funcs,
            [
                "syncDeployment",
                "getNewReplicaSet",
                "NewRSNewReplicas",
                "reconcileNewReplicaSet",
                "reconcileOldReplicaSets",
                "syncRolloutStatus"
            ]
        );
    }

    /// Issue 45: in upstream's order, `manageReplicas` calls `ExpectCreations`, then
    /// `slowStartBatch`, whose function argument creates the pods: the creations are listed
    /// under it, after the expectation is set.
    #[test]
    fn a_replica_sets_pods_are_created_by_slow_start_batch_and_its_status_by_update_replica_set_status()
     {
        let s = first_sync(Controller::ReplicaSet);
        let (rows, _) = code_rows(&s);
        let by = |func: &str| -> Vec<String> {
            rows.iter()
                .filter(|r| r.func == func)
                .flat_map(|r| r.writes.iter().map(|&i| write_text(&s.writes[i])))
                .collect()
        };
        assert_eq!(by("manageReplicas").len(), 0);
        assert_eq!(by("slowStartBatch").len(), 10);
        assert!(
            by("slowStartBatch")
                .iter()
                .all(|w| w.starts_with("create pods web-"))
        );
        let order: Vec<&str> = rows.iter().map(|r| r.func).collect();
        let at = |f: &str| order.iter().position(|x| *x == f).unwrap();
        assert!(at("manageReplicas") < at("ExpectCreations"));
        assert!(at("ExpectCreations") < at("slowStartBatch"), "{order:?}");
        assert_eq!(by("updateReplicaSetStatus").len(), 1);
        assert!(by("updateReplicaSetStatus")[0].starts_with("update replicasets/status web-"));
    }
}
