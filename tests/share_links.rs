//! Links made before the share format moved to miniz_oxide and the base64 crate (recorded with
//! `rollout share` and the page's encoder at 806a132, plus a `v0.` link of the first format) still
//! open to the same scenario and step. The gallery files whose captions changed since are kept as
//! they were then, in `fixtures/recorded/`.

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
        assert_eq!(opened.scenario, Scenario::parse(&text).unwrap(), "{file}");
        assert_eq!(opened.step, step, "{file}");
        seen += 1;
    }
    assert_eq!(
        seen, 19,
        "every gallery scenario, two later steps and a v0 link"
    );
}
