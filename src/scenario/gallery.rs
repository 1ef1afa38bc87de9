//! The example gallery (`scenarios/*.yaml`). Natively every file is compiled in, so the CLI
//! and the tests share it. The page compiles in only the first (it opens without a request)
//! and fetches the others from `scenarios/` beside it, which Trunk copies into `dist/`: the
//! YAML would otherwise be ~6 KB of the gzipped wasm.

/// File stems, in the order the gallery lists them.
pub const NAMES: [&str; 26] = [
    "rolling-update",
    "kubernetes-io-nginx",
    "recreate",
    "scale",
    "proportional-scaling",
    "pause-resume",
    "rollback-to-revision",
    "rollback-previous",
    "rollback-then-and-now",
    "progress-deadline-exceeded",
    "delete-foreground",
    "delete-orphan",
    "revision-history-limit",
    "max-surge-zero",
    "rolling-update-surge3-unavailable2",
    "crash-loop",
    "adopt-orphan-replicaset",
    "compare-strategies",
    "kubernetes-releases",
    "pasted-mid-rollout",
    "capacity-stuck-rollout",
    "node-lost",
    "drain-blocked-by-budget",
    "prestop-and-grace",
    "dropped-requests-prestop",
    "max-surge-zero-no-endpoint",
];

/// The gallery as the page lists it: groups, each with (index in [`NAMES`], readable title).
pub const GROUPS: [(&str, &[(usize, &str)]); 8] = [
    (
        "Basics",
        &[
            (0, "Rolling update: 10 replicas, 25% surge and unavailable"),
            (1, "The kubernetes.io Deployment walk-through"),
            (3, "Scaling a Deployment"),
            (4, "Proportional scaling during a rollout"),
            (5, "Pause and resume"),
        ],
    ),
    (
        "Strategies",
        &[
            (2, "Recreate"),
            (13, "maxSurge 0: replace in place"),
            (14, "maxSurge 3, maxUnavailable 2"),
        ],
    ),
    (
        "Planning a rollout",
        &[
            (17, "Compare: 25%/25%, maxSurge 0, 100% surge, Recreate"),
            (18, "Kubernetes 1.34 and 1.35: terminating pods counted"),
        ],
    ),
    (
        "Failures",
        &[
            (9, "Progress deadline exceeded"),
            (15, "A crash-looping image"),
        ],
    ),
    (
        "Deleting and adopting",
        &[
            (10, "Foreground delete"),
            (11, "Orphan delete"),
            (16, "Adopting an orphaned ReplicaSet"),
            (23, "How a pod stops: preStop, SIGTERM, the grace period"),
        ],
    ),
    (
        "Traffic",
        &[
            (
                24,
                "Dropped requests during a rollout, and the preStop sleep that ends them",
            ),
            (25, "maxSurge 0 with one replica: no endpoint left"),
        ],
    ),
    (
        "History",
        &[
            (7, "Roll back to the previous revision"),
            (6, "Roll back to a given revision"),
            (8, "Rollback: kubectl today and the old annotation"),
            (12, "revisionHistoryLimit prunes old ReplicaSets"),
        ],
    ),
    (
        "Your cluster",
        &[
            (19, "A rollout half done, pasted from kubectl get -o yaml"),
            (20, "Stuck on capacity: surge pods that fit on no node"),
            (21, "A node that stops reporting: tainted, its pods evicted"),
            (
                22,
                "Draining a node mid-rollout: a disruption budget refuses",
            ),
        ],
    ),
];

/// The first scenario, which the page opens with.
pub const DEFAULT: &str = include_str!("../../scenarios/rolling-update.yaml");

/// (file stem, scenario text), in the order the gallery lists them.
#[cfg(not(target_arch = "wasm32"))]
pub const GALLERY: &[(&str, &str)] = &[
    (
        "rolling-update",
        include_str!("../../scenarios/rolling-update.yaml"),
    ),
    (
        "kubernetes-io-nginx",
        include_str!("../../scenarios/kubernetes-io-nginx.yaml"),
    ),
    ("recreate", include_str!("../../scenarios/recreate.yaml")),
    ("scale", include_str!("../../scenarios/scale.yaml")),
    (
        "proportional-scaling",
        include_str!("../../scenarios/proportional-scaling.yaml"),
    ),
    (
        "pause-resume",
        include_str!("../../scenarios/pause-resume.yaml"),
    ),
    (
        "rollback-to-revision",
        include_str!("../../scenarios/rollback-to-revision.yaml"),
    ),
    (
        "rollback-previous",
        include_str!("../../scenarios/rollback-previous.yaml"),
    ),
    (
        "rollback-then-and-now",
        include_str!("../../scenarios/rollback-then-and-now.yaml"),
    ),
    (
        "progress-deadline-exceeded",
        include_str!("../../scenarios/progress-deadline-exceeded.yaml"),
    ),
    (
        "delete-foreground",
        include_str!("../../scenarios/delete-foreground.yaml"),
    ),
    (
        "delete-orphan",
        include_str!("../../scenarios/delete-orphan.yaml"),
    ),
    (
        "revision-history-limit",
        include_str!("../../scenarios/revision-history-limit.yaml"),
    ),
    (
        "max-surge-zero",
        include_str!("../../scenarios/max-surge-zero.yaml"),
    ),
    (
        "rolling-update-surge3-unavailable2",
        include_str!("../../scenarios/rolling-update-surge3-unavailable2.yaml"),
    ),
    (
        "crash-loop",
        include_str!("../../scenarios/crash-loop.yaml"),
    ),
    (
        "adopt-orphan-replicaset",
        include_str!("../../scenarios/adopt-orphan-replicaset.yaml"),
    ),
    (
        "compare-strategies",
        include_str!("../../scenarios/compare-strategies.yaml"),
    ),
    (
        "kubernetes-releases",
        include_str!("../../scenarios/kubernetes-releases.yaml"),
    ),
    (
        "pasted-mid-rollout",
        include_str!("../../scenarios/pasted-mid-rollout.yaml"),
    ),
    (
        "capacity-stuck-rollout",
        include_str!("../../scenarios/capacity-stuck-rollout.yaml"),
    ),
    ("node-lost", include_str!("../../scenarios/node-lost.yaml")),
    (
        "drain-blocked-by-budget",
        include_str!("../../scenarios/drain-blocked-by-budget.yaml"),
    ),
    (
        "prestop-and-grace",
        include_str!("../../scenarios/prestop-and-grace.yaml"),
    ),
    (
        "dropped-requests-prestop",
        include_str!("../../scenarios/dropped-requests-prestop.yaml"),
    ),
    (
        "max-surge-zero-no-endpoint",
        include_str!("../../scenarios/max-surge-zero-no-endpoint.yaml"),
    ),
];

#[cfg(test)]
mod tests {
    use super::{DEFAULT, GALLERY, NAMES};

    use crate::scenario::Scenario;

    #[test]
    fn the_gallery_lists_every_scenario_file_and_each_parses() {
        let mut on_disk: Vec<String> =
            std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios"))
                .unwrap()
                .filter_map(|e| {
                    e.ok()?
                        .file_name()
                        .to_str()?
                        .strip_suffix(".yaml")
                        .map(String::from)
                })
                .collect();
        on_disk.sort();
        let mut listed: Vec<String> = GALLERY.iter().map(|(n, _)| n.to_string()).collect();
        listed.sort();
        assert_eq!(listed, on_disk);
        let names: Vec<&str> = GALLERY.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, NAMES, "the page's list is the gallery's, in order");
        assert_eq!(GALLERY[0].1, DEFAULT);
        let mut listed: Vec<usize> = super::GROUPS
            .iter()
            .flat_map(|(_, items)| items.iter().map(|(i, _)| *i))
            .collect();
        listed.sort();
        assert_eq!(
            listed,
            (0..NAMES.len()).collect::<Vec<_>>(),
            "every example listed once"
        );
        for (name, text) in GALLERY {
            let s = Scenario::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!s.description.is_empty(), "{name} has a description");
        }
    }
}
