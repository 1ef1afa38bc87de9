//! The Kubernetes release the controllers reproduce (a scenario's `world.kubernetes`), and the
//! feature gates a scenario may set (`world.featureGates`, kube-controller-manager's
//! `--feature-gates`). Each behaviour that differs between the releases the playground offers
//! is one predicate here, named after the upstream change that made it, so that the
//! controllers ask "does this release do X" and a reader finds every difference in one place.

use super::FeatureGates;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// A minor release of Kubernetes, 1.`minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Release {
    pub minor: u32,
}

/// What names one release the playground reproduces. Adding a release is a row of
/// [`RELEASES`] and its named differences below (a predicate, a gate's default).
#[derive(Debug, PartialEq)]
pub struct Facts {
    pub minor: u32,
    /// The patch release whose behaviour the playground was checked against, which `kubectl
    /// version` names: a minor's `.0` unless a later one was read.
    pub patch: u32,
    /// The kustomize its kubectl embeds (`kubectl version`'s `Kustomize Version`).
    pub kustomize: &'static str,
    /// The last day its patches are made (kubernetes.io's release schedule: a minor is
    /// patched for about 14 months, to the 28th of its 14th month).
    pub end_of_life: &'static str,
}

const fn row(minor: u32, patch: u32, kustomize: &'static str, end_of_life: &'static str) -> Facts {
    Facts {
        minor,
        patch,
        kustomize,
        end_of_life,
    }
}

/// Oldest first. (docs/research/kubernetes-1.37.md gives each value's source.)
pub const RELEASES: [Facts; 7] = [
    row(31, 0, "v5.4.2", "2025-10-28"),
    row(32, 0, "v5.5.0", "2026-02-28"),
    row(33, 0, "v5.6.0", "2026-06-28"),
    row(34, 0, "v5.7.1", "2026-10-28"),
    row(35, 0, "v5.7.1", "2027-02-28"),
    row(36, 3, "v5.8.1", "2027-06-28"),
    row(37, 0, "v5.8.1", "2027-10-28"),
];

/// The oldest and newest minor releases the playground reproduces.
const OLDEST: u32 = RELEASES[0].minor;
const NEWEST: u32 = RELEASES[RELEASES.len() - 1].minor;

impl Default for Release {
    fn default() -> Self {
        Release::NEWEST
    }
}

impl Release {
    /// The newest release: a scenario that names none runs on it.
    pub const NEWEST: Release = Release { minor: NEWEST };

    /// Every release the playground reproduces, oldest first.
    pub fn all() -> impl Iterator<Item = Release> {
        (OLDEST..=NEWEST).map(|minor| Release { minor })
    }

    /// Its row of [`RELEASES`].
    pub fn facts(self) -> &'static Facts {
        &RELEASES[(self.minor - OLDEST) as usize]
    }

    /// Its version as a binary of it names itself: `v1.37.0`.
    pub fn git_version(self) -> String {
        format!("v1.{}.{}", self.minor, self.facts().patch)
    }

    /// Whether its patches have ended by `today` (`YYYY-MM-DD`, which the shell reads off its
    /// clock: the core has none). It still runs.
    pub fn out_of_support(self, today: &str) -> bool {
        today > self.facts().end_of_life
    }

    /// `1.33` (or `v1.33`); anything else is refused naming the releases it takes.
    pub fn parse(text: &str) -> Result<Release, String> {
        let t = text.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let minor = t
            .strip_prefix("1.")
            .and_then(|m| m.parse::<u32>().ok())
            .filter(|m| (OLDEST..=NEWEST).contains(m));
        minor.map(|minor| Release { minor }).ok_or_else(|| {
            format!(
                "{text:?} is not a release the playground reproduces: it takes {}",
                Release::all()
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    /// PR #125118 (v1.32): the `ScalingReplicaSet` event says "from OLD to NEW"; before, "to
    /// NEW from OLD", and a created ReplicaSet was "Scaled up replica set X to N".
    pub fn scaling_event_says_from_to(self) -> bool {
        self.minor >= 32
    }

    /// PR #132122 (v1.34): `IsPodAvailable` counts a pod available once it has been Ready for
    /// minReadySeconds (`<=`); before, only for longer (`<`).
    pub fn available_at_min_ready_seconds(self) -> bool {
        self.minor >= 34
    }

    /// PR #132121 (v1.34): the ReplicaSet controller checks availability again at the moment
    /// the next Ready pod reaches minReadySeconds, whenever ready and available differ;
    /// before, only once every replica was Ready, and then minReadySeconds later.
    pub fn rechecks_availability_when_due(self) -> bool {
        self.minor >= 34
    }

    /// PR #132560 (v1.34): `generateReplicaSetName` shortens a long Deployment name so that
    /// `name-hash` fits in 253 characters; before, such a ReplicaSet could not be created.
    pub fn shortens_replica_set_names(self) -> bool {
        self.minor >= 34
    }

    /// PR #134740 (v1.35): the scheduler's TaintToleration filter says "node(s) had untolerated
    /// taint(s)"; before, it named the first such taint, `node(s) had untolerated taint {key:
    /// value}` (1.34's later patches took the change too; its .0 did not).
    pub fn scheduler_hides_taints(self) -> bool {
        self.minor >= 35
    }

    /// DynamicResourceAllocation, on by default from v1.34: its PostFilter runs before
    /// preemption, and for a pod without claims says "no new claims to deallocate", which a
    /// FailedScheduling message carries before "preemption: …".
    pub fn scheduler_runs_dra_post_filter(self) -> bool {
        self.minor >= 34
    }

    /// PR #136945 (kubectl v1.36): `kubectl scale -o yaml|json` prints the object with the
    /// replicas asked for; before, as it was found.
    pub fn scale_prints_the_new_replicas(self) -> bool {
        self.minor >= 36
    }

    /// kubectl v1.36 (kubernetes/kubernetes fbe6f7f9): `rollout undo` warns, before rolling
    /// back, of an object `kubectl apply` wrote (its last-applied annotation is not rolled back).
    pub fn undo_warns_of_apply(self) -> bool {
        self.minor >= 36
    }

    /// kubectl v1.35 (kubernetes/kubernetes bb210806): `scale` of an object not found prints
    /// the server's error as it is; before, after "no objects passed to scale".
    pub fn scale_says_not_found_as_is(self) -> bool {
        self.minor >= 35
    }

    /// kubectl v1.36 (PR #137145): `describe` of several objects, or by a name's prefix, leaves
    /// the events out unless `--show-events` is given; before, it showed them for each.
    pub fn describe_of_several_hides_events(self) -> bool {
        self.minor >= 36
    }

    /// The feature gates at this release's defaults, with `set` (by upstream's names) on top.
    /// A gate the release does not have, or a locked one set against its lock, is refused as
    /// kube-controller-manager refuses it at start.
    pub fn gates(self, set: &BTreeMap<String, bool>) -> Result<FeatureGates, String> {
        let mut g = FeatureGates {
            release: self,
            ..FeatureGates::default()
        };
        g.deployment_replica_set_terminating_replicas = self.minor >= 35;
        for (name, &on) in set {
            match GATES.iter().find(|gate| gate.name == name.as_str()) {
                Some(gate) if self.minor >= gate.since => {
                    if let Some(locked) = gate.locked_from.filter(|&l| self.minor >= l)
                        && !on
                    {
                        return Err(format!(
                            "cannot set feature gate {name} to false: it is locked to true since 1.{locked}"
                        ));
                    }
                    (gate.set)(&mut g, on);
                }
                _ => {
                    return Err(format!(
                        "unrecognized feature gate {name:?} in {self}: it has {}",
                        GATES
                            .iter()
                            .filter(|g| self.minor >= g.since)
                            .map(|g| g.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
        Ok(g)
    }
}

impl std::fmt::Display for Release {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "1.{}", self.minor)
    }
}

impl Serialize for Release {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Release {
    /// A string (`"1.33"`), or the number YAML reads from `kubernetes: 1.33`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Release, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let text = match &v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n
                .as_f64()
                .map(|f| format!("{f:.2}"))
                .unwrap_or_else(|| n.to_string()),
            other => other.to_string(),
        };
        Release::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// A feature gate a scenario may set, for the releases that have it.
struct Gate {
    name: &'static str,
    /// The first minor release that has it.
    since: u32,
    /// The minor release from which it is GA and locked to true.
    locked_from: Option<u32>,
    set: fn(&mut FeatureGates, bool),
}

/// The gates the controllers read, as kube-controller-manager names them.
const GATES: [Gate; 4] = [
    // KEP-3973: alpha (off) in 1.33 and 1.34, beta (on) from 1.35.
    Gate {
        name: "DeploymentReplicaSetTerminatingReplicas",
        since: 33,
        locked_from: None,
        set: |g, on| g.deployment_replica_set_terminating_replicas = on,
    },
    // Beta and on since 1.22.
    Gate {
        name: "PodDeletionCost",
        since: 22,
        locked_from: None,
        set: |g, on| g.pod_deletion_cost = on,
    },
    // GA, locked on, since 1.31.
    Gate {
        name: "LogarithmicScaleDown",
        since: 22,
        locked_from: Some(31),
        set: |g, on| g.logarithmic_scale_down = on,
    },
    // PR #137212: beta and on since 1.36. The ReplicaSet controller records the
    // resourceVersions of its own writes and skips a sync (requeued rate-limited) until its
    // informers have seen them. Here an informer's cache is the store, so every sync already
    // reads its own writes: the gate is taken, as kube-controller-manager takes it, and
    // either way a run is the same (tests/releases.rs).
    Gate {
        name: "StaleControllerConsistencyReplicaSet",
        since: 36,
        locked_from: None,
        set: |_, _| {},
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_is_read_as_a_scenario_writes_it_and_refused_naming_the_ones_it_takes() {
        for (text, minor) in [("1.33", 33), ("v1.31", 31), (" 1.36 ", 36)] {
            assert_eq!(Release::parse(text), Ok(Release { minor }), "{text}");
        }
        let from_yaml: Release = serde_json::from_value(serde_json::json!(1.35)).unwrap();
        assert_eq!(from_yaml.minor, 35);
        for bad in ["1.30", "1.38", "2.0", "latest", "1.3"] {
            assert_eq!(
                Release::parse(bad),
                Err(format!(
                    "{bad:?} is not a release the playground reproduces: it takes 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37"
                ))
            );
        }
        assert_eq!(serde_json::to_value(Release::NEWEST).unwrap(), "1.37");
    }

    #[test]
    fn each_release_has_its_gates_defaults_and_refuses_what_it_does_not_have() {
        let none = BTreeMap::new();
        let terminating = |minor| {
            Release { minor }
                .gates(&none)
                .unwrap()
                .deployment_replica_set_terminating_replicas
        };
        // KEP-3973: off while alpha (1.33, 1.34), on from beta (1.35).
        assert_eq!(
            (31..=37).map(terminating).collect::<Vec<_>>(),
            [false, false, false, false, true, true, true]
        );
        let on = BTreeMap::from([("DeploymentReplicaSetTerminatingReplicas".to_string(), true)]);
        assert!(
            Release { minor: 33 }
                .gates(&on)
                .unwrap()
                .deployment_replica_set_terminating_replicas
        );
        assert_eq!(
            Release { minor: 32 }.gates(&on),
            Err("unrecognized feature gate \"DeploymentReplicaSetTerminatingReplicas\" in 1.32: it has PodDeletionCost, LogarithmicScaleDown".into())
        );
        let off = BTreeMap::from([("LogarithmicScaleDown".to_string(), false)]);
        assert_eq!(
            Release::NEWEST.gates(&off),
            Err("cannot set feature gate LogarithmicScaleDown to false: it is locked to true since 1.31".into())
        );
        let cost = BTreeMap::from([("PodDeletionCost".to_string(), false)]);
        assert!(!Release::NEWEST.gates(&cost).unwrap().pod_deletion_cost);
        // #137212's gate is 1.36's: taken from there, refused before.
        let stale = BTreeMap::from([("StaleControllerConsistencyReplicaSet".to_string(), false)]);
        assert!(Release { minor: 36 }.gates(&stale).is_ok());
        assert!(Release { minor: 35 }.gates(&stale).is_err());
    }

    #[test]
    fn each_release_names_its_version_kustomize_and_support() {
        assert_eq!(Release::NEWEST, Release { minor: 37 });
        assert_eq!(
            Release::all().map(|r| r.git_version()).collect::<Vec<_>>(),
            [
                "v1.31.0", "v1.32.0", "v1.33.0", "v1.34.0", "v1.35.0", "v1.36.3", "v1.37.0"
            ]
        );
        assert_eq!(Release::NEWEST.facts().kustomize, "v5.8.1");
        // On 2 December 2026 (1.38 not yet out), 1.35 to 1.37 are patched.
        let out: Vec<String> = Release::all()
            .filter(|r| r.out_of_support("2026-12-02"))
            .map(|r| r.to_string())
            .collect();
        assert_eq!(out, ["1.31", "1.32", "1.33", "1.34"]);
        // Its last day is still in support.
        assert!(!Release { minor: 35 }.out_of_support("2027-02-28"));
        assert!(Release { minor: 35 }.out_of_support("2027-03-01"));
    }
}
