//! Predict mode's rules: which Deployment syncs are questions (those that change something: a
//! ReplicaSet resized or created, or another branch than the sync before), what the reader
//! answers (the branch, with the strategy under rollout; each ReplicaSet's new size; the size of
//! a new ReplicaSet, if the sync makes one), and how an answer is checked against the recorded
//! step. Also the plain words that say why a branch fired.

use super::session::Session;
use crate::api::StrategyType;
use crate::cluster::trace::TraceStep;
use crate::controller::deployment::Branch;
use std::collections::BTreeMap;

/// The branches a reader picks from, in `syncDeployment`'s order (digits 1–5 on the page).
pub const CHOICES: [Branch; 5] = Branch::LADDER;

/// The ReplicaSets as the sync finds them: (name, revision, desired replicas).
pub fn before(s: &Session, step: usize) -> Vec<(String, i64, i32)> {
    step.checked_sub(1)
        .and_then(|p| s.trace.get(p))
        .map(|t| {
            t.replica_sets
                .iter()
                .map(|r| (r.name.clone(), r.revision, r.replicas))
                .collect()
        })
        .unwrap_or_default()
}

fn sizes(t: &TraceStep) -> BTreeMap<&str, i32> {
    crate::api::sort::map_from(t.replica_sets.iter().map(|r| (r.name.as_str(), r.replicas)))
}

/// Whether the run's first step is the focus Deployment's first sync and the only ReplicaSets
/// it leaves are those it created: the page can then show the world before it (the Deployment
/// just created, no ReplicaSet) and ask what that sync does, revision 1 included.
pub fn asks_first(s: &Session) -> bool {
    let Some(st) = s.trace.first() else {
        return false;
    };
    let created = |name: &str| {
        st.writes().iter().any(|w| {
            w.verb == "create"
                && w.resource == ("replicasets", "")
                && w.refused.is_none()
                && w.name == name
        })
    };
    s.is_focus_sync(0)
        && st.branch().is_some_and(|b| Branch::LADDER.contains(&b))
        && !st.replica_sets.is_empty()
        && st.replica_sets.iter().all(|r| created(&r.name))
}

/// The focus Deployment's syncs that change something one can predict: the first one too
/// when the page can show the world before it ([`asks_first`]).
pub fn questions(s: &Session) -> Vec<usize> {
    let mut out = vec![];
    let mut branch = None;
    if asks_first(s) {
        out.push(0);
        branch = Some((
            s.trace[0].branch().unwrap_or(Branch::Rollout),
            s.trace[0].strategy(),
        ));
    }
    for i in 1..s.trace.len() {
        if !s.is_focus_sync(i) {
            continue;
        }
        let st = &s.trace[i];
        let Some(b) = st.branch().filter(|b| Branch::LADDER.contains(b)) else {
            continue;
        };
        let resized = sizes(&s.trace[i - 1]) != sizes(st);
        let switched = branch.is_some_and(|p| p != (b, st.strategy()));
        if resized || switched {
            out.push(i);
        }
        branch = Some((b, st.strategy()));
    }
    out
}

/// What the reader predicts for a sync.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    pub branch: Branch,
    /// Under rollout: RollingUpdate or Recreate.
    pub strategy: Option<StrategyType>,
    /// Each ReplicaSet's new size, in the order of [`before`].
    pub sizes: Vec<i32>,
    /// The size of a ReplicaSet the sync creates (`None`: it creates none).
    pub new_replica_set: Option<i32>,
}

/// One size: what the reader said and what the controller did.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeVerdict {
    pub name: String,
    pub predicted: Option<i32>,
    pub actual: Option<i32>,
}

impl SizeVerdict {
    pub fn right(&self) -> bool {
        self.predicted == self.actual
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub step: usize,
    pub branch: Branch,
    pub strategy: Option<StrategyType>,
    /// What the reader picked, to show beside what happened.
    pub picked: Branch,
    pub picked_strategy: Option<StrategyType>,
    pub branch_right: bool,
    /// The ReplicaSets the sync found, then the one it created (if either side says so).
    pub sizes: Vec<SizeVerdict>,
}

impl Verdict {
    pub fn right(&self) -> bool {
        self.branch_right && self.sizes.iter().all(SizeVerdict::right)
    }
}

/// Checks a prediction for the sync at `step` against what it did.
pub fn check(s: &Session, step: usize, p: &Prediction) -> Verdict {
    let st = &s.trace[step];
    let found = before(s, step);
    let after = sizes(st);
    let branch = st.branch().unwrap_or(Branch::Rollout);
    let strategy = st.strategy().filter(|_| branch == Branch::Rollout);
    let branch_right = p.branch == branch
        && (branch != Branch::Rollout || p.strategy.is_none() || p.strategy == strategy);
    let mut out: Vec<SizeVerdict> = found
        .iter()
        .enumerate()
        .map(|(k, (name, _, _))| SizeVerdict {
            name: name.clone(),
            predicted: p.sizes.get(k).copied(),
            // A ReplicaSet the sync deleted (cleanup) is at 0.
            actual: Some(after.get(name.as_str()).copied().unwrap_or(0)),
        })
        .collect();
    let created = st
        .replica_sets
        .iter()
        .find(|r| !found.iter().any(|(n, _, _)| *n == r.name));
    if created.is_some() || p.new_replica_set.is_some() {
        out.push(SizeVerdict {
            name: created.map_or("a new ReplicaSet".into(), |r| format!("{} (new)", r.name)),
            predicted: p.new_replica_set,
            actual: created.map(|r| r.replicas),
        });
    }
    Verdict {
        step,
        branch,
        strategy,
        picked: p.branch,
        picked_strategy: p.strategy,
        branch_right,
        sizes: out,
    }
}

impl Verdict {
    /// What the reader missed, in a few words: the branch (what was picked, what fired) and
    /// each size that was off.
    pub fn missed(&self) -> String {
        let mut parts = vec![];
        if !self.branch_right {
            let named = |b: Branch, s: &Option<StrategyType>| match s {
                Some(s) => format!("{} ({s})", b.as_str()),
                None => b.as_str().to_string(),
            };
            parts.push(format!(
                "branch: you picked {}, it was {}",
                named(self.picked, &self.picked_strategy),
                named(self.branch, &self.strategy)
            ));
        }
        let show = |n: Option<i32>| n.map_or("none".to_string(), |n| n.to_string());
        for sz in self.sizes.iter().filter(|s| !s.right()) {
            parts.push(format!(
                "{}: you said {}, it was {}",
                sz.name,
                show(sz.predicted),
                show(sz.actual)
            ));
        }
        parts.join("; ")
    }
}

/// That sync in its own words and numbers: the sizes it found and left, and for a rollout the
/// bounds its strategy kept (replicas + maxSurge pods at most, replicas − maxUnavailable
/// available at least).
pub fn explain_sync(s: &Session, step: usize) -> String {
    let st = &s.trace[step];
    let found = before(s, step);
    let after = sizes(st);
    let mut out = vec![];
    let moves: Vec<String> = found
        .iter()
        .map(|(name, rev, n)| {
            let to = after.get(name.as_str()).copied().unwrap_or(0);
            if to == *n {
                format!("rev {rev} ({name}) stays at {n}")
            } else {
                format!("rev {rev} ({name}) {n} → {to}")
            }
        })
        .chain(
            st.replica_sets
                .iter()
                .filter(|r| !found.iter().any(|(n, _, _)| *n == r.name))
                .map(|r| format!("a new ReplicaSet {} is created at {}", r.name, r.replicas)),
        )
        .collect();
    if !moves.is_empty() {
        out.push(format!("This sync: {}.", moves.join(", ")));
    }
    // The availability the sync found (its own step shows what it left).
    let available = step
        .checked_sub(1)
        .and_then(|p| s.trace[p].deployment.as_ref())
        .map_or(0, |d| d.status.available_replicas);
    if let (Some(d), Some(Branch::Rollout)) = (&st.deployment, st.branch()) {
        if d.strategy == StrategyType::RollingUpdate {
            out.push(format!(
                "With replicas {r}, maxSurge {s} and maxUnavailable {u}: at most {r} + {s} = {} pods, and at least {r} − {u} = {} available ({} were).",
                super::summary::ceiling(d.replicas, d.max_surge),
                super::summary::floor(d.replicas, d.max_unavailable),
                available,
                r = d.replicas,
                s = d.max_surge,
                u = d.max_unavailable,
            ));
        } else {
            out.push(format!(
                "Recreate: the old ReplicaSets go to 0 first; {} pods of the old ones are still there.",
                d.status.replicas - d.status.updated_replicas
            ));
        }
    }
    if let (Some(d), Some(Branch::Scale)) = (&st.deployment, st.branch()) {
        let total: i32 = found.iter().map(|(_, _, n)| n).sum();
        out.push(format!(
            "spec.replicas is {} and the ReplicaSets held {total}: {:+} spread in proportion to their sizes.",
            d.replicas,
            d.replicas - total
        ));
    }
    out.join(" ")
}

/// Why the branch fired, in plain words.
pub fn why(st: &TraceStep) -> &'static str {
    match (st.branch(), st.strategy()) {
        (Some(Branch::Delete), _) => {
            "The Deployment has a deletionTimestamp: the controller only updates its status; the garbage collector removes its ReplicaSets and pods."
        }
        (Some(Branch::Pause), _) => {
            "spec.paused is true: the controller still scales (in proportion) and keeps the status, but it does not roll out a new template."
        }
        (Some(Branch::Rollback), _) => {
            "The Deployment asks for an earlier revision (the rollback annotation): this sync copies that revision's template into the spec and stops; the next sync rolls it out."
        }
        (Some(Branch::Scale), _) => {
            "spec.replicas no longer matches the ReplicaSets' size (a scaling event): the difference is spread over the ReplicaSets that have pods, in proportion to their size, without rolling out."
        }
        (Some(Branch::Rollout), Some(StrategyType::Recreate)) => {
            "Nothing earlier applied, so the controller rolls out with Recreate: every old pod goes first, and the new ReplicaSet is scaled up only once none of them is left."
        }
        (Some(Branch::Rollout), _) => {
            "Nothing earlier applied, so the controller rolls out: the new ReplicaSet grows up to replicas + maxSurge in all, and old ones shrink while at least replicas − maxUnavailable stay available."
        }
        _ => "The Deployment was not found or selects nothing: nothing to do.",
    }
}

/// The conflict upstream routinely hits and retries, in plain words (for the branch panel).
pub fn routine_error(error: &str) -> Option<&'static str> {
    error.contains("the object has been modified").then_some(
        "Upstream does this too: the sync that created the new ReplicaSet updated the Deployment's status, but getNewReplicaSet drops the object that update returned, so the next write in the same sync still carries the old resourceVersion and the apiserver refuses it (optimistic concurrency). The key is requeued and the next sync succeeds; nothing is lost.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::scenario::gallery::{DEFAULT, GALLERY};

    fn session(name: &str) -> Session {
        let text = GALLERY.iter().find(|g| g.0 == name).unwrap().1;
        Session::new(Scenario::parse(text).unwrap()).unwrap()
    }

    #[test]
    fn the_syncs_that_change_something_are_the_questions() {
        let s = Session::new(Scenario::parse(DEFAULT).unwrap()).unwrap();
        let q = questions(&s);
        assert!(!q.is_empty());
        for &i in &q {
            assert!(s.is_focus_sync(i));
        }
        // The first is the creation at step 0: nothing before it, and revision 1 made at 10.
        assert!(asks_first(&s));
        assert_eq!(q[0], 0);
        assert!(before(&s, 0).is_empty());
        let first = Prediction {
            branch: Branch::Rollout,
            strategy: Some(StrategyType::RollingUpdate),
            sizes: vec![],
            new_replica_set: Some(10),
        };
        assert!(check(&s, 0, &first).right());
        assert!(
            explain_sync(&s, 0).contains("is created at 10"),
            "{}",
            explain_sync(&s, 0)
        );
        // The next: the set image makes a new ReplicaSet at 3 (maxSurge) and, in the same
        // sync, takes the old one to 8.
        let k = q[1];
        assert_eq!(s.trace[k].t, 10_000);
        assert_eq!(before(&s, k).iter().map(|b| b.2).collect::<Vec<_>>(), [10]);
        let right = Prediction {
            branch: Branch::Rollout,
            strategy: Some(StrategyType::RollingUpdate),
            sizes: vec![8],
            new_replica_set: Some(3),
        };
        assert!(check(&s, k, &right).right());
        // Wrong branch; wrong sizes; a new ReplicaSet predicted where there is none.
        let wrong_branch = Prediction {
            branch: Branch::Scale,
            strategy: None,
            ..right.clone()
        };
        let v = check(&s, k, &wrong_branch);
        assert!(!v.branch_right && !v.right() && v.sizes.iter().all(SizeVerdict::right));
        // Issue 32: what was picked is said beside what happened, and the sync in numbers.
        assert_eq!(
            v.missed(),
            "branch: you picked scale, it was rollout (RollingUpdate)"
        );
        let numbers = explain_sync(&s, k);
        assert!(numbers.contains("10 → 8"), "{numbers}");
        assert!(numbers.contains("a new ReplicaSet"), "{numbers}");
        assert!(numbers.contains("at most 10 + 3 = 13 pods"), "{numbers}");
        let wrong_size = Prediction {
            sizes: vec![10],
            ..right.clone()
        };
        let v = check(&s, k, &wrong_size);
        assert!(v.branch_right && !v.right());
        assert!(
            v.missed().ends_with(": you said 10, it was 8"),
            "{}",
            v.missed()
        );
        assert_eq!(
            (v.sizes[0].predicted, v.sizes[0].actual),
            (Some(10), Some(8))
        );
        let v = check(
            &s,
            k,
            &Prediction {
                new_replica_set: Some(4),
                ..right.clone()
            },
        );
        assert!(v.branch_right && !v.right());
        let wrong_strategy = Prediction {
            strategy: Some(StrategyType::Recreate),
            ..right
        };
        assert!(!check(&s, k, &wrong_strategy).branch_right);
        let after = q.iter().copied().find(|&i| i > k).unwrap();
        let v = check(
            &s,
            after,
            &Prediction {
                branch: Branch::Rollout,
                strategy: None,
                sizes: before(&s, after).iter().map(|b| b.2).collect(),
                new_replica_set: Some(1),
            },
        );
        assert_eq!(v.sizes.last().unwrap().name, "a new ReplicaSet");
        assert!(!v.right());
    }

    #[test]
    fn every_branch_is_asked_where_the_gallery_takes_it() {
        let cases = [
            ("scale", Branch::Scale),
            ("pause-resume", Branch::Pause),
            ("rollback-then-and-now", Branch::Rollback),
            ("delete-foreground", Branch::Delete),
            ("recreate", Branch::Rollout),
        ];
        for (name, branch) in cases {
            let s = session(name);
            let q = questions(&s);
            let i = q
                .iter()
                .copied()
                .find(|&i| s.trace[i].branch() == Some(branch))
                .unwrap_or_else(|| panic!("{name}: no {branch:?} question"));
            let found = before(&s, i);
            let sizes: Vec<i32> = found
                .iter()
                .map(|(n, _, _)| {
                    s.trace[i]
                        .replica_sets
                        .iter()
                        .find(|r| r.name == *n)
                        .map_or(0, |r| r.replicas)
                })
                .collect();
            let created = s.trace[i]
                .replica_sets
                .iter()
                .find(|r| !found.iter().any(|b| b.0 == r.name))
                .map(|r| r.replicas);
            let p = Prediction {
                branch,
                strategy: s.trace[i].strategy(),
                sizes,
                new_replica_set: created,
            };
            assert!(check(&s, i, &p).right(), "{name}");
            assert!(!why(&s.trace[i]).is_empty());
        }
        let recreate = session("recreate");
        let st = recreate
            .trace
            .iter()
            .find(|t| t.strategy() == Some(StrategyType::Recreate))
            .unwrap();
        assert!(why(st).contains("Recreate"));
    }

    #[test]
    fn the_routine_conflict_is_explained() {
        assert!(routine_error("Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified; please apply your changes to the latest version and try again").unwrap().contains("getNewReplicaSet"));
        assert!(routine_error("some other error").is_none());
    }
}
