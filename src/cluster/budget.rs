//! What one run may simulate: pods, objects, recorded steps and virtual time. A scenario comes
//! from anywhere (a shared link, a host page's `load`, a file), and a run is synchronous work,
//! so every run has a ceiling. It is checked before the run where the input says it up front
//! (`spec.replicas`, `until`, a step's `at`) and while it runs (pods and objects in the store,
//! steps recorded), and crossing it stops the run with a message that names the limit and what
//! crossed it: never a frozen tab or an aborted process.

use crate::api::time::go_duration;

/// Where a run happens, which decides the advice a refusal gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// The page (and the JS API): the way out is the CLI, which simulates more.
    Page,
    /// `rollout run`: the way out is the flag that raises the limit.
    Cli,
}

/// The ceilings of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Pods in the store at once (terminating ones included).
    pub pods: usize,
    /// Objects of every kind in the store at once.
    pub objects: usize,
    /// Steps recorded in the trace.
    pub steps: usize,
    /// Virtual time: `until` and any step's `at`.
    pub time_ms: u64,
    pub host: Host,
}

const HOUR_MS: u64 = 3_600_000;

impl Budget {
    /// The page's: a 10 000-replica rolling update at 25 % surge (12 500 pods) fits with room,
    /// and its worst case records in about a second of wasm; a day of virtual time covers a
    /// progress deadline many times over.
    pub const PAGE: Budget = Budget {
        pods: 20_000,
        objects: 30_000,
        steps: 50_000,
        time_ms: 24 * HOUR_MS,
        host: Host::Page,
    };

    /// `rollout run`'s defaults (each raised by a flag): ten times the page's pods, and a
    /// trace that stays within a few GB of memory.
    pub const CLI: Budget = Budget {
        pods: 200_000,
        objects: 300_000,
        steps: 500_000,
        time_ms: 30 * 24 * HOUR_MS,
        host: Host::Cli,
    };

    /// "lower replicas or use the CLI with --max-pods" on the page, "… or raise --max-pods" in
    /// the CLI.
    fn way_out(&self, lower: &str, flag: &str) -> String {
        match self.host {
            Host::Page => format!("{lower} or use the CLI with {flag}"),
            Host::Cli => format!("{lower} or raise {flag}"),
        }
    }

    /// A `spec.replicas` the run would try to reach, refused before the run: the message
    /// that follows the field's path.
    pub fn check_replicas(&self, replicas: i64) -> Result<(), String> {
        if replicas <= self.pods as i64 {
            return Ok(());
        }
        Err(format!(
            "{replicas} is more pods than the playground simulates (at most {}): {}",
            self.pods,
            self.way_out("lower replicas", "--max-pods")
        ))
    }

    /// An instant of virtual time (`until`, a step's `at`), refused before the run.
    pub fn check_time(&self, ms: u64) -> Result<(), String> {
        if ms <= self.time_ms {
            return Ok(());
        }
        Err(format!(
            "{} is more virtual time than the playground simulates (at most {}): {}",
            go_duration(ms / 1000),
            go_duration(self.time_ms / 1000),
            self.way_out("shorten it", "--max-time")
        ))
    }

    /// A text of objects (a pasted cluster state, a scenario file), refused before it is read
    /// when it holds more pods or objects than the run may ([`crate::api::census`]): reading
    /// 200 001 pods into values would take gigabytes before the store could count them.
    pub fn check_text(&self, text: &str) -> Result<(), String> {
        self.check_texts(&[text]).map_err(|(_, message)| message)
    }

    /// [`Budget::check_text`] of several texts counted together (a scenario's objects): the
    /// index of the text whose objects crossed a ceiling, and why. An object takes at least
    /// `{kind: Pod}` and a separator, so texts of fewer than 12 bytes per object the ceilings
    /// allow cannot cross them and are not walked.
    pub fn check_texts(&self, texts: &[&str]) -> Result<(), (usize, String)> {
        let bytes: usize = texts.iter().map(|t| t.len()).sum();
        if bytes < 12 * self.pods.min(self.objects) {
            return Ok(());
        }
        use crate::api::census::{Census, count_all_within};
        let ceiling = Census {
            objects: self.objects as u64,
            pods: self.pods as u64,
        };
        let (c, Some(at)) = count_all_within(texts.iter().copied(), ceiling) else {
            return Ok(());
        };
        let (what, limit, flag) = if c.pods > ceiling.pods {
            ("pods", self.pods, "--max-pods")
        } else {
            ("objects", self.objects, "--max-objects")
        };
        // (The count stops where it crosses the limit: how far past it the texts go is not
        // read.)
        Err((
            at,
            format!(
                "more than {limit} {what}, the most the playground simulates: {}",
                self.way_out("start from fewer", flag)
            ),
        ))
    }

    /// The store while the run goes on: the first ceiling crossed, if any.
    pub fn check_store(&self, pods: usize, objects: usize) -> Option<Exceeded> {
        if pods > self.pods {
            Some(Exceeded::Pods { limit: self.pods })
        } else if objects > self.objects {
            Some(Exceeded::Objects {
                limit: self.objects,
            })
        } else {
            None
        }
    }
}

/// Which ceiling a run crossed while it ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exceeded {
    Pods { limit: usize },
    Objects { limit: usize },
    Steps { limit: usize },
}

/// A run stopped at a ceiling: when, which, and the object that asked for the most.
#[derive(Clone, Debug, PartialEq)]
pub struct OverBudget {
    pub t_ms: u64,
    pub exceeded: Exceeded,
    pub host: Host,
    /// The Deployment or ReplicaSet with the highest `spec.replicas` then (`kind
    /// namespace/name`, replicas): what to lower.
    pub largest: Option<(String, i32)>,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = go_duration(self.t_ms / 1000);
        let budget = Budget {
            host: self.host,
            ..Budget::PAGE
        };
        let largest = self
            .largest
            .as_ref()
            .map(|(who, n)| format!(" ({who} asks for {n} replicas)"))
            .unwrap_or_default();
        match self.exceeded {
            Exceeded::Pods { limit } => write!(
                f,
                "the run was stopped at {at}: more than {limit} pods at once{largest}, more than the playground simulates: {}",
                budget.way_out("lower replicas", "--max-pods")
            ),
            Exceeded::Objects { limit } => write!(
                f,
                "the run was stopped at {at}: more than {limit} objects at once{largest}: {}",
                budget.way_out("lower replicas", "--max-objects")
            ),
            Exceeded::Steps { limit } => write!(
                f,
                "the run was stopped at {at}, after {limit} steps, the most the playground records: {}",
                budget.way_out("end it sooner (until)", "--max-steps")
            ),
        }
    }
}

impl std::error::Error for OverBudget {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_limit_and_the_way_out() {
        assert_eq!(
            Budget::PAGE.check_replicas(1_000_000).unwrap_err(),
            "1000000 is more pods than the playground simulates (at most 20000): lower replicas or use the CLI with --max-pods"
        );
        assert_eq!(Budget::PAGE.check_replicas(20_000), Ok(()));
        assert_eq!(
            Budget::CLI.check_time(99_999_999 * HOUR_MS).unwrap_err(),
            "99999999h0m0s is more virtual time than the playground simulates (at most 720h0m0s): shorten it or raise --max-time"
        );
        assert_eq!(Budget::PAGE.check_time(24 * HOUR_MS), Ok(()));
        assert_eq!(
            Budget::PAGE.check_store(20_001, 20_010),
            Some(Exceeded::Pods { limit: 20_000 })
        );
        assert_eq!(
            Budget::PAGE.check_store(10, 30_001),
            Some(Exceeded::Objects { limit: 30_000 })
        );
        assert_eq!(Budget::PAGE.check_store(20_000, 30_000), None);
        let small = Budget {
            pods: 2,
            objects: 3,
            ..Budget::CLI
        };
        let pods =
            "apiVersion: v1\nkind: List\nitems:\n- {kind: Pod}\n- {kind: Pod}\n- {kind: Pod}\n";
        assert_eq!(
            small.check_text(pods).unwrap_err(),
            "more than 2 pods, the most the playground simulates: start from fewer or raise --max-pods"
        );
        let nodes = pods.replace("Pod", "Node") + "---\nkind: Node\n";
        assert_eq!(
            Budget {
                host: Host::Page,
                ..small
            }
            .check_text(&nodes)
            .unwrap_err(),
            "more than 3 objects, the most the playground simulates: start from fewer or use the CLI with --max-objects"
        );
        assert_eq!(
            small.check_text(&pods.replacen("- {kind: Pod}\n", "", 1)),
            Ok(())
        );
        let over = OverBudget {
            t_ms: 75_000,
            exceeded: Exceeded::Steps { limit: 50_000 },
            host: Host::Page,
            largest: None,
        };
        assert_eq!(
            over.to_string(),
            "the run was stopped at 1m15s, after 50000 steps, the most the playground records: end it sooner (until) or use the CLI with --max-steps"
        );
    }
}
