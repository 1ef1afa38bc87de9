//! A comparison: the scenario's variants (see [`super::variant`]) each recorded as a run of its
//! own, read on one shared virtual clock. The page's Compare view and its embed show it;
//! `rollout compare` prints its table.

use super::Scenario;
use super::session::Session;
use super::summary::{self, Rollout};
use super::variant::Variant;
use std::rc::Rc;

pub struct Comparison {
    pub variants: Vec<Variant>,
    /// Each variant's run, or why it could not run.
    pub runs: Vec<Result<Rc<Session>, String>>,
    /// The latest end of any run: the shared clock's range.
    pub end_ms: u64,
    /// Every instant (ms) at which some run has a step, in order.
    instants: Vec<u64>,
}

impl Comparison {
    /// The comparison a scenario lists (`None` when it lists no variants).
    pub fn of(base: &Scenario) -> Option<Comparison> {
        if base.variants.is_empty() {
            return None;
        }
        let runs: Vec<Result<Rc<Session>, String>> = base
            .variants
            .iter()
            .map(|v| {
                base.with_variant(v)
                    .and_then(Session::new)
                    .map(Rc::new)
                    .map_err(|e| e.to_string())
            })
            .collect();
        let end_ms = runs.iter().flatten().map(|s| s.end_ms()).max().unwrap_or(0);
        let mut instants: Vec<u64> = runs
            .iter()
            .flatten()
            .flat_map(|s| s.trace.iter().map(|st| st.t))
            .collect();
        crate::api::sort::sort(&mut instants);
        instants.dedup();
        Some(Comparison {
            variants: base.variants.clone(),
            runs,
            end_ms,
            instants,
        })
    }

    /// For each variant, why its settings change nothing, when they do not: a world timing
    /// that the Deployment's readiness probe overrides (`readyMs`), or a run the same, step for
    /// step, as a variant with other settings.
    pub fn no_effect(&self) -> Vec<Option<String>> {
        let probed = |s: &Session| {
            s.focus_at(0).is_some_and(|d| {
                d.spec
                    .template
                    .spec
                    .containers
                    .iter()
                    .any(|c| c.extra.get("readinessProbe").is_some_and(|p| p.is_object()))
            })
        };
        self.variants
            .iter()
            .zip(&self.runs)
            .enumerate()
            .map(|(i, (v, run))| {
                let run = run.as_ref().ok()?;
                if v.set.is_empty() {
                    return None;
                }
                if v.set.iter().any(|(p, _)| p == "world.readyMs") && probed(run) {
                    return Some("world.readyMs has no effect here: the pods' readiness probe decides when they are ready.".into());
                }
                let same = self.runs.iter().enumerate().find(|(j, other)| {
                    *j != i
                        && self.variants[*j].set != v.set
                        && other.as_ref().is_ok_and(|o| o.trace == run.trace)
                })?;
                Some(format!(
                    "These settings change nothing here: the run is the same, step for step, as variant {}'s.",
                    same.0 + 1
                ))
            })
            .collect()
    }

    /// Each run's step at virtual time `t`.
    pub fn steps_at(&self, t: u64) -> Vec<Option<usize>> {
        self.runs
            .iter()
            .map(|r| r.as_ref().ok().map(|s| s.step_at_time(t)))
            .collect()
    }

    /// The next instant after `t` at which some run has a step.
    pub fn next_instant(&self, t: u64) -> u64 {
        let k = self.instants.partition_point(|&x| x <= t);
        self.instants.get(k).copied().unwrap_or(self.end_ms)
    }

    /// The last instant before `t` at which some run has a step (else 0).
    pub fn previous_instant(&self, t: u64) -> u64 {
        let k = self.instants.partition_point(|&x| x < t);
        k.checked_sub(1).map_or(0, |k| self.instants[k])
    }

    /// Each variant's rollouts (none for a variant that could not run).
    pub fn rollouts(&self) -> Vec<Vec<Rollout>> {
        self.runs
            .iter()
            .map(|r| {
                r.as_ref()
                    .map(|s| summary::rollouts(&s.trace))
                    .unwrap_or_default()
            })
            .collect()
    }

    pub fn names(&self) -> Vec<String> {
        self.variants.iter().map(|v| v.name.clone()).collect()
    }
}

/// The variants the Compare action starts from: the scenario as written, and what one most
/// often weighs against it.
pub fn suggested(base: &Scenario) -> Vec<Variant> {
    let recreate = base.focus_manifest().is_ok_and(|(_, docs, d)| {
        docs[d]
            .pointer("/spec/strategy/type")
            .and_then(|t| t.as_str())
            == Some(crate::api::RECREATE)
    });
    let mut out = vec![Variant {
        name: "as written".into(),
        set: vec![],
    }];
    let settings: &[&str] = if recreate {
        &["spec.strategy.type=RollingUpdate"]
    } else {
        &[
            "spec.strategy.rollingUpdate.maxSurge=0,spec.strategy.rollingUpdate.maxUnavailable=1",
            "spec.strategy.type=Recreate",
        ]
    };
    for s in settings {
        let set = Variant::parse_settings(s).expect("the suggestions are well-formed");
        out.push(Variant {
            name: Variant::default_name(&set),
            set,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::gallery::DEFAULT;

    #[test]
    fn a_comparison_runs_each_variant_on_one_clock() {
        let mut base = Scenario::parse(DEFAULT).unwrap();
        assert!(Comparison::of(&base).is_none());
        base.variants = suggested(&base);
        let c = Comparison::of(&base).unwrap();
        assert_eq!(
            c.names(),
            [
                "as written",
                "maxSurge=0, maxUnavailable=1",
                "type=Recreate"
            ]
        );
        assert!(c.runs.iter().all(|r| r.is_ok()));
        let ends: Vec<u64> = c.runs.iter().flatten().map(|s| s.end_ms()).collect();
        assert_eq!(c.end_ms, *ends.iter().max().unwrap());
        // At one instant each run shows its own last step at or before it.
        let at = c.steps_at(12_000);
        for (r, i) in c.runs.iter().zip(&at) {
            let s = r.as_ref().unwrap();
            let i = i.unwrap();
            assert!(s.trace[i].t <= 12_000);
            assert!(s.trace.get(i + 1).is_none_or(|n| n.t > 12_000));
        }
        let next = c.next_instant(12_000);
        assert!(next > 12_000 && c.previous_instant(next) <= 12_000);
        assert_eq!(c.previous_instant(0), 0);
        let lowest: Vec<u32> = c.rollouts().iter().map(|r| r[0].lowest_available).collect();
        assert_eq!(lowest, [8, 9, 0]);
        // A Recreate scenario is compared with a rolling update.
        let recreate = Scenario::parse(
            crate::scenario::gallery::GALLERY
                .iter()
                .find(|g| g.0 == "recreate")
                .unwrap()
                .1,
        )
        .unwrap();
        assert_eq!(suggested(&recreate)[1].name, "type=RollingUpdate");
    }

    /// Issue 32: Compare says when a setting changes nothing, and a rollout that went to zero
    /// available is never the best time to complete.
    #[test]
    fn a_setting_that_changes_nothing_is_said_and_zero_available_is_never_best() {
        let mut base = Scenario::parse(DEFAULT).unwrap();
        base.variants = suggested(&base);
        let c = Comparison::of(&base).unwrap();
        let rows = summary::compare_rows(&c.rollouts());
        let time = rows.iter().find(|r| r.label == "time to complete").unwrap();
        let lowest: Vec<u32> = c.rollouts().iter().map(|r| r[0].lowest_available).collect();
        for (best, low) in time.best.iter().zip(&lowest) {
            assert!(
                !(*best && *low == 0),
                "a rollout through zero available is not starred"
            );
        }
        assert_eq!(c.no_effect(), [None, None, None]);
        // A readiness probe decides when pods are ready: world.readyMs changes nothing.
        let probed = DEFAULT.replacen(
            "image: nginx:1.14.2",
            "image: nginx:1.14.2\n              readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 2}",
            1,
        );
        let mut base = Scenario::parse(&probed).unwrap();
        base.variants = vec![
            Variant {
                name: "as written".into(),
                set: vec![],
            },
            Variant {
                name: "slow".into(),
                set: vec![("world.readyMs".into(), serde_json::json!(9000))],
            },
        ];
        let c = Comparison::of(&base).unwrap();
        let said = c.no_effect();
        assert!(
            said[1]
                .as_deref()
                .is_some_and(|w| w.contains("readiness probe")),
            "{said:?}"
        );
        // The same run as another variant's, step for step (an image no pod uses fails).
        base.variants[1].set = vec![(
            "world.failingImages".into(),
            serde_json::json!(["nothing:1"]),
        )];
        let c = Comparison::of(&base).unwrap();
        assert!(
            c.no_effect()[1]
                .as_deref()
                .is_some_and(|w| w.contains("variant 1")),
            "{:?}",
            c.no_effect()
        );
    }

    #[test]
    fn a_variant_that_cannot_run_says_why_and_the_others_run() {
        let mut base = Scenario::parse(DEFAULT).unwrap();
        base.variants = vec![
            Variant {
                name: "as written".into(),
                set: vec![],
            },
            Variant {
                name: "bad".into(),
                set: Variant::parse_settings("spec.replicas=-3").unwrap(),
            },
        ];
        let c = Comparison::of(&base).unwrap();
        assert!(c.runs[0].is_ok());
        let e = c.runs[1].as_ref().err().unwrap();
        assert!(e.contains("spec.replicas: Invalid value: -3"), "{e}");
        assert!(c.rollouts()[1].is_empty());
    }
}
