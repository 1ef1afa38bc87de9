//! Every case of every conformance vector in tests/conformance/ (copied from
//! shared/conformance/), one test per case, named `<id>::<case name>`.

use libtest_mimic::{Arguments, Trial};
use rollout_playground::conformance::evaluate_file;

fn main() {
    let args = Arguments::from_args();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/conformance");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/conformance exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 48,
        "expected the 48 upstream vector files in {dir}"
    );
    let mut trials = vec![];
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        let results = evaluate_file(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for r in results {
            let name = format!("{}::{}", r.id, r.name);
            trials.push(Trial::test(name, move || {
                r.outcome.clone().map_err(Into::into)
            }));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
