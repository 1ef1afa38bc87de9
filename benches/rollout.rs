//! A full rolling update at 100, 1 000 and 10 000 replicas (default world, 25%/25%), without
//! trace recording: wall time, controller syncs and syncs per second. Run with `cargo bench`.
//! `scripts/bench-instructions.sh` counts the instructions of the timed part (`roll_out`)
//! under callgrind, which this VM's drifting speed cannot blur.

use rollout_playground::api::yaml::parse_objects;
use rollout_playground::cluster::{Cluster, kubelet::World};
use rollout_playground::kubectl;
use std::time::Instant;

fn rollout(replicas: u32) -> (f64, u64) {
    let manifest = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec: {{containers: [{{name: app, image: 'app:1'}}]}}\n"
    );
    let mut c = Cluster::new(World::default());
    c.rec.options.steps = false;
    c.create(parse_objects(&manifest).unwrap().remove(0))
        .unwrap();
    c.drain().unwrap();
    c.advance(60_000).unwrap();
    let syncs_before = c.total_syncs;
    let start = Instant::now();
    roll_out(&mut c);
    let secs = start.elapsed().as_secs_f64();
    let d = c.store.deployment("default/web").unwrap();
    assert_eq!(d.status.updated_replicas as u32, replicas);
    assert_eq!(d.status.available_replicas as u32, replicas);
    (secs, c.total_syncs - syncs_before)
}

/// The measured part: a new image, until the world settles.
#[inline(never)]
fn roll_out(c: &mut Cluster) {
    kubectl::run(c, "kubectl set image deployment/web app=app:2").unwrap();
    c.drain().unwrap();
    while !c.is_settled() {
        let Some(t) = c.next_event_ms() else { break };
        c.advance(t).unwrap();
    }
}

fn main() {
    // ROLLOUT_BENCH_SIZES=1000,10000 picks sizes; ROLLOUT_BENCH_ROUNDS=N the rounds.
    let sizes: Vec<u32> = std::env::var("ROLLOUT_BENCH_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![100, 1_000, 10_000]);
    let rounds: usize = std::env::var("ROLLOUT_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    // The sizes run interleaved, round after round, and each reports its median: this VM's
    // speed drifts by 2x over minutes, and interleaving lets the drift hit every size alike.
    let mut times: Vec<Vec<f64>> = vec![vec![]; sizes.len()];
    let mut syncs = vec![0; sizes.len()];
    for _ in 0..rounds {
        for (i, &n) in sizes.iter().enumerate() {
            let (secs, s) = rollout(n);
            times[i].push(secs);
            syncs[i] = s;
        }
    }
    let mut prev: Option<f64> = None;
    for (i, &n) in sizes.iter().enumerate() {
        let t = &mut times[i];
        t.sort_by(f64::total_cmp);
        let secs = t[t.len() / 2];
        let growth = prev
            .map(|p| format!("  ({:.1}x the previous size's time)", secs / p))
            .unwrap_or_default();
        println!(
            "rolling update of {n:>6} replicas: {:>8.1} ms (median of {rounds}; {:.1} to {:.1}), {:>5} syncs, {:>9.0} syncs/s{growth}",
            secs * 1000.0,
            t[0] * 1000.0,
            t[t.len() - 1] * 1000.0,
            syncs[i],
            syncs[i] as f64 / secs
        );
        prev = Some(secs);
    }
    session_figures(&sizes, rounds);
}

/// The page's reducer once the recording under way, if any, is done (the page's driver takes
/// it in slices between frames; here in one go).
fn finish(
    m: std::rc::Rc<rollout_playground::web::state::Model>,
) -> std::rc::Rc<rollout_playground::web::state::Model> {
    let Some(p) = m.pending.clone() else {
        return m;
    };
    if let Some(r) = p.recording.borrow_mut().as_mut() {
        r.go_on(None);
    }
    m.apply(rollout_playground::web::state::Action::RecordingDone(p.id))
}

/// The page's path: recording the whole run (trace, pods and Deployment per step, checkpoints)
/// and a `kubectl set image` typed at the last step (`Session::command`), wall time as medians.
fn session_figures(sizes: &[u32], rounds: usize) {
    use rollout_playground::scenario::{Scenario, session::Session, share};
    use rollout_playground::web::state::{Action, Model, PlaybackAction};
    for &n in sizes {
        let text = format!(
            "name: big\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: web}}\n    spec:\n      replicas: {n}\n      selector: {{matchLabels: {{app: web}}}}\n      template:\n        metadata: {{labels: {{app: web}}}}\n        spec: {{containers: [{{name: app, image: 'app:1'}}]}}\nsteps:\n  - {{at: 60s, run: kubectl set image deployment/web app=app:2}}\nuntil: settled\n"
        );
        let scenario = Scenario::parse(&text).unwrap();
        let (mut record, mut command, mut reducer, mut derived) = (vec![], vec![], vec![], vec![]);
        let mut info = String::new();
        for _ in 0..rounds {
            let start = Instant::now();
            let s = Session::new(scenario.clone()).unwrap();
            record.push(start.elapsed().as_secs_f64());
            let mut t = s.clone();
            let last = t.len() - 1;
            if std::env::var("ROLLOUT_BENCH_PARTS").is_ok() {
                let start = Instant::now();
                let _ = t.cluster_at(last).unwrap();
                eprintln!(
                    "  cluster_at(last): {:.1} ms",
                    start.elapsed().as_secs_f64() * 1000.0
                );
            }
            let start = Instant::now();
            t.command(last, "kubectl set image deployment/web app=app:3")
                .unwrap();
            command.push(start.elapsed().as_secs_f64());
            // The same command through the page's reducer (a clone of the session, the
            // command, the seek that follows): what a typed command costs before rendering.
            // (A big run is recorded in slices: `finish` takes them all at once.)
            let m = std::rc::Rc::new(Model::from_url("", &share::encode(&scenario, 0), false));
            let m = finish(m).apply(Action::Playback(PlaybackAction::SeekTime(u64::MAX)));
            let start = Instant::now();
            let m = finish(m.apply(Action::Command(
                "kubectl set image deployment/web app=app:3".into(),
            )));
            reducer.push(start.elapsed().as_secs_f64());
            assert!(m.session.len() > s.len());
            // What the page derives from a new run before it draws: the guarantees, the
            // chart's layout, the rollout summary.
            let start = Instant::now();
            let report = rollout_playground::scenario::guarantees::evaluate(&m.session);
            let chart = rollout_playground::web::chart_geom::chart(
                &m.session.trace,
                640.0,
                200.0,
                m.session.end_ms(),
                None,
            );
            let rollouts = rollout_playground::scenario::summary::rollouts(&m.session.trace);
            derived.push(start.elapsed().as_secs_f64());
            assert!(
                report.checks.len() == m.session.len()
                    && !chart.points.is_empty()
                    && !rollouts.is_empty()
            );
            info = format!(
                "{} steps, {} checkpoints; after the command {} steps",
                s.len(),
                s.checkpoints.len(),
                t.len()
            );
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2] * 1000.0
        };
        println!(
            "page session of  {n:>6} replicas: recorded in {:>8.1} ms, a command at the last step {:>8.1} ms, through the page's reducer {:>8.1} ms, what the page derives from the new run {:>6.1} ms (medians of {rounds}; {info})",
            median(&mut record),
            median(&mut command),
            median(&mut reducer),
            median(&mut derived)
        );
    }
}
