//! Links made before the share format moved to miniz_oxide and the base64 crate (recorded with
//! `rollout share` and the page's encoder at 806a132, plus a `v0.` link of the first format) still
//! open to the same scenario and step. The gallery files whose captions changed since are kept as
//! they were then, in `fixtures/recorded/`. Those links name no Kubernetes release: they open on
//! 1.36, the default when they were made.

use rollout_playground::controller::release::Release;
use rollout_playground::scenario::{Scenario, share};

#[test]
fn links_made_by_earlier_builds_open_to_the_same_scenario_and_step() {
    let fixtures = include_str!("fixtures/share-links.tsv");
    let mut seen = 0;
    for line in fixtures.lines().filter(|l| !l.trim().is_empty()) {
        let mut cols = line.split('\t');
        let (file, step, link) = (
            cols.next().unwrap(),
            cols.next().unwrap().parse::<usize>().unwrap(),
            cols.next().unwrap(),
        );
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/").to_owned() + file)
                .unwrap();
        let opened = share::decode(&format!("#{link}")).unwrap_or_else(|e| panic!("{file}: {e}"));
        // Made when 1.36 was the default, a link that names no release opens on 1.36 (issue
        // 46): the scenario as it was, and its trace the same as today's default gives, since
        // 1.37 changes nothing the controllers do.
        let mut then = Scenario::parse(&text).unwrap();
        let now = then.run().unwrap();
        then.world.kubernetes = Release::parse("1.36").unwrap();
        assert_eq!(opened.scenario, then, "{file}");
        assert_eq!(opened.step, step, "{file}");
        assert_eq!(
            opened.scenario.run().unwrap(),
            now,
            "{file}: the same trace"
        );
        seen += 1;
    }
    assert_eq!(
        seen, 19,
        "every gallery scenario, two later steps and a v0 link"
    );
}
