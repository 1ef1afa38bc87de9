//! `syncDeployment`'s ladder as data: which rungs a sync checked, what it found at each, which
//! branch fired and what that branch does. The sync's `syncDeployment` explain line is written
//! from it, and the page's branch panel draws it.

use serde::Serialize;

/// The branch of the ladder a sync took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Branch {
    NotFound,
    SelectAll,
    Delete,
    Pause,
    Rollback,
    Scale,
    Rollout,
}

impl Branch {
    /// The rungs every found Deployment with a selector goes down, in upstream's order.
    pub const LADDER: [Branch; 5] = [
        Branch::Delete,
        Branch::Pause,
        Branch::Rollback,
        Branch::Scale,
        Branch::Rollout,
    ];

    /// The trace's spelling (`shared/spec/simulation.md` §3).
    pub fn as_str(self) -> &'static str {
        match self {
            Branch::NotFound => "not-found",
            Branch::SelectAll => "select-all",
            Branch::Delete => "delete",
            Branch::Pause => "pause",
            Branch::Rollback => "rollback",
            Branch::Scale => "scale",
            Branch::Rollout => "rollout",
        }
    }

    /// The check upstream makes before taking this branch.
    pub fn check(self) -> &'static str {
        match self {
            Branch::NotFound => "Deployment in the informer's cache?",
            Branch::SelectAll => "empty selector?",
            Branch::Delete => "deletionTimestamp set?",
            Branch::Pause => "spec.paused?",
            Branch::Rollback => "rollback annotation set?",
            Branch::Scale => "isScalingEvent?",
            Branch::Rollout => "otherwise",
        }
    }

    /// What the branch does when it fires.
    pub fn does(self) -> &'static str {
        match self {
            Branch::NotFound => "nothing: the Deployment is gone",
            Branch::SelectAll => "nothing: an empty selector would select every pod",
            Branch::Delete => "syncStatusOnly: only the status is updated",
            Branch::Pause => "sync: scale and clean up, no rollout",
            Branch::Rollback => "rollback: copy the old revision's template back",
            Branch::Scale => "sync: scale ReplicaSets proportionally",
            Branch::Rollout => "rolloutRolling or rolloutRecreate",
        }
    }
}

/// One rung a sync checked, and what it found there (`not paused`, `spec.paused = true`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rung {
    pub branch: Branch,
    pub found: String,
}

/// A sync's way down the ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ladder {
    /// The rungs checked, in order; the last is the one that fired unless the rollout branch
    /// did, which checks nothing.
    pub checked: Vec<Rung>,
    /// The branch that fired (`NotFound` until one does, as when listing the ReplicaSets
    /// fails before the first rung).
    pub fired: Branch,
}

impl Default for Ladder {
    fn default() -> Ladder {
        Ladder {
            checked: vec![],
            fired: Branch::NotFound,
        }
    }
}

impl Ladder {
    /// A rung passed over, with what was found there.
    pub fn pass(&mut self, branch: Branch, found: impl Into<String>) {
        self.checked.push(Rung {
            branch,
            found: found.into(),
        });
    }

    /// `branch` fires on `found` (none for the rollout branch); returns the sync's
    /// `syncDeployment` explain line: what each rung found, then what the branch does
    /// (`not being deleted; spec.paused = true: sync (scale only, no rollout)`).
    pub fn fire(&mut self, branch: Branch, found: Option<String>, action: &str) -> String {
        if let Some(found) = found {
            self.pass(branch, found);
        }
        self.fired = branch;
        let found: Vec<&str> = self.checked.iter().map(|r| r.found.as_str()).collect();
        format!("{}: {action}", found.join("; "))
    }

    /// What was found at `branch`, when it was checked and passed over.
    pub fn passed_over(&self, branch: Branch) -> Option<&str> {
        self.checked
            .iter()
            .find(|r| r.branch == branch && r.branch != self.fired)
            .map(|r| r.found.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_explain_line_lists_what_each_rung_found_then_the_action() {
        let mut l = Ladder::default();
        l.pass(Branch::Delete, "not being deleted");
        l.pass(Branch::Pause, "not paused");
        l.pass(Branch::Rollback, "no rollback requested");
        l.pass(Branch::Scale, "not a scaling event");
        let line = l.fire(Branch::Rollout, None, "rollout (RollingUpdate)");
        assert_eq!(
            line,
            "not being deleted; not paused; no rollback requested; not a scaling event: rollout (RollingUpdate)"
        );
        assert_eq!(l.fired, Branch::Rollout);
        assert_eq!(l.passed_over(Branch::Pause), Some("not paused"));
        assert_eq!(l.passed_over(Branch::Rollout), None);

        let mut l = Ladder::default();
        l.pass(Branch::Delete, "not being deleted");
        let line = l.fire(
            Branch::Pause,
            Some("spec.paused = true".into()),
            "sync (scale only, no rollout)",
        );
        assert_eq!(
            line,
            "not being deleted; spec.paused = true: sync (scale only, no rollout)"
        );
        assert_eq!(l.passed_over(Branch::Pause), None);
        assert_eq!(l.passed_over(Branch::Delete), Some("not being deleted"));
    }

    #[test]
    fn branches_serialize_as_the_trace_spells_them() {
        for b in [Branch::NotFound, Branch::SelectAll]
            .into_iter()
            .chain(Branch::LADDER)
        {
            assert_eq!(
                serde_json::to_value(b).unwrap(),
                serde_json::json!(b.as_str())
            );
        }
    }
}
