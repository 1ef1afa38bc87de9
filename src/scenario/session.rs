//! An interactive session over a scenario: the whole run recorded once (trace plus the pods
//! of every step), so that a timeline can play, step and scrub freely; kubectl commands typed
//! at a step either read the world as it stood at that step or become new scenario steps at
//! that instant, after which the run is recomputed. Time travel is replay: the core is
//! deterministic, so re-running the scenario up to step `i` gives exactly the world of step `i`.

use super::{Cursor, Scenario, ScenarioError, Step, Until};
use crate::api::Deployment;
use crate::cluster::budget::OverBudget;
use crate::cluster::podbook::Frame;
use crate::cluster::trace::{Controller, StepKind, TraceStep};
use crate::cluster::watch::{WatchEnd, WatchLine, WatchLog};
use crate::cluster::{Checkpoint, Cluster, Livelock, RecordOptions};
use crate::controller::deployment::Branch;
use crate::kubectl::{self, KubectlError};
use std::rc::Rc;

/// Store writes between two checkpoints of a recorded run (three per object in a bigger
/// world: `Cluster::checkpoint_every`): a command at step i replays only from the checkpoint
/// before it, and the run after a change resumes from there. A small world's copy costs little,
/// so its checkpoints are close (250 writes: a change in the middle of the default example's
/// long session replays ~300 steps, ~1 ms); a big world's spacing is set by its size.
pub const CHECKPOINT_WRITES: u64 = 250;

#[derive(Clone)]
pub struct Session {
    pub scenario: Scenario,
    /// The recorded steps, each shared: a session is copied before every change the page
    /// tries (and after it, kept), and a copy should cost the steps' count, not their size.
    pub trace: Vec<Rc<TraceStep>>,
    /// The focus Deployment's pods after each step (shared between steps that did not change
    /// them).
    pub frames: Vec<Rc<Frame>>,
    /// Why the run stopped early (a livelock, or the budget), if it did.
    pub stopped: Option<String>,
    /// The budget the run crossed, if it did (then `stopped` says so).
    pub over: Option<OverBudget>,
    /// The run ended with nothing left to happen (every pod where its spec puts it).
    pub settled: bool,
    /// The Deployment the run follows (`namespace/name`), if there is one.
    pub focus: Option<String>,
    /// That Deployment after each step (shared between steps that did not write it).
    pub focus_objects: Vec<Option<Rc<Deployment>>>,
    /// For each scenario step, whether the reader typed it in this session (else it is the
    /// scenario's own).
    pub typed: Vec<bool>,
    /// The trace's action steps (the k-th is scenario step k).
    pub actions: Vec<usize>,
    /// The steps that change something one can see: actions, a focus sync whose branch
    /// differs from the one before, a ReplicaSet whose size or pod count moved.
    pub changes: Vec<usize>,
    /// The world every `checkpoint_steps` steps, to resume from instead of replaying.
    pub checkpoints: Vec<Checkpoint>,
    /// The world where the run ended (when it ended with nothing cut short and no `rollout
    /// status` still watching): a change typed at the last step, as a long session's are,
    /// resumes from here and replays nothing. It is the recording's own cluster, kept rather
    /// than copied.
    pub end: Option<Checkpoint>,
    pub checkpoint_writes: u64,
    /// What continuing a pasted cluster state did, when the run began from one.
    pub restored: Option<Rc<crate::cluster::restore::Restored>>,
}

/// Why a console command or a world change was refused; the run is left as it was.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SessionError {
    /// kubectl refused the command (its words, or the apiserver's).
    #[error(transparent)]
    Kubectl(#[from] KubectlError),
    /// The scenario, with the change, cannot run.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// The session's own refusal (an empty command, a run cut short before the command).
    #[error("{0}")]
    Refused(String),
}

/// What a console command did.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A read-only command: what kubectl printed, the world untouched.
    Printed(String),
    /// A change: it became a step of the scenario; `step` is its action step in the new trace.
    /// A change that goes on as the run does (`kubectl drain`) has what it printed later, each
    /// line at its instant, and how it ended (`None`: still under way when the run stopped).
    Applied {
        step: usize,
        output: String,
        later: Option<WatchLog>,
    },
    /// A command that watched as the run went on (`kubectl rollout status`): every line it
    /// printed at its instant, how it ended (`None`: still waiting when the run stopped), and
    /// the step at which it returned.
    Watched {
        lines: Vec<WatchLine>,
        end: Option<WatchEnd>,
        step: Option<usize>,
    },
}

/// `kubectl get rs -w` in any spelling of the resource (`replicasets`, `replicaset.apps`, …):
/// answered with the trace's table up to the step, which is what the watch would have printed.
fn watches_replica_sets(c: &kubectl::Command) -> bool {
    c.verb.name == "get"
        && c.has_flag("watch")
        && c.words().first().is_some_and(|r| {
            kubectl::Resource::parse(r.split('/').next().unwrap_or(r))
                == Some(kubectl::Resource::ReplicaSet)
        })
}

/// The Deployment a command wrote on `c` (see [`Session::new_focus`]) when it is not `focus`.
fn new_focus(c: &Cluster, before: u64, focus: Option<&String>) -> Option<String> {
    c.store
        .deployments()
        .filter_map(|d| {
            let rv = d.metadata.resource_version.parse::<u64>().ok()?;
            (rv > before).then(|| (rv, d.metadata.key().to_string()))
        })
        .min()
        .map(|(_, key)| key)
        .filter(|key| Some(key) != focus)
}

/// What a console command did, or its change still recording ([`Session::command_in_slices`]).
pub enum Commanded {
    Done(Outcome),
    Underway(Box<Change>),
}

/// A typed change under way, in one replay taken in slices: the run resumes from the
/// checkpoint the change does not reach and goes to where the change lands (after every step
/// at or before its instant); there the command is tried on a copy of that world and, when it
/// is taken, the same run goes on with it recorded.
pub struct Change {
    scenario: Scenario,
    /// The checkpoint the run resumed from.
    checkpoint: usize,
    /// The change's scenario step, the trace step it was typed at, and its instant.
    step: usize,
    at: usize,
    at_ms: u64,
    cmd: String,
    /// The command as `command_in_slices` read it (a line kubectl refuses to read, refused
    /// with kubectl's words when the run reaches it).
    parsed: Result<Rc<kubectl::Command>, KubectlError>,
    /// The Deployment the session follows (a command that writes another one is replayed
    /// anew, which makes that one the focus).
    focus: Option<String>,
    /// What kubectl printed, once the run reached the change and the command was taken.
    output: Option<String>,
    cluster: Cluster,
    cursor: Cursor,
    result: Result<(), Livelock>,
    /// kubectl refused the command.
    refused: Option<KubectlError>,
    /// One replay cannot serve (the command makes another Deployment the focus, or the run
    /// was cut before its instant): it is replayed anew when committed.
    anew: bool,
    /// Work already done that the first slice counts: the copy of the world the change
    /// resumed from, about two units an object (at 10 000 replicas the copy takes as long as
    /// ~20 000 units of the run).
    debt: u64,
}

impl Change {
    /// Records on for about `work` more (to the end with `None`); true once done.
    pub fn go_on(&mut self, work: Option<u64>) -> bool {
        let start = self
            .cluster
            .work()
            .saturating_sub(std::mem::take(&mut self.debt));
        while !self.done() {
            // What is left of this slice's work (the trial below may leave some).
            let left = work.map(|w| w.saturating_sub(self.cluster.work() - start));
            if left == Some(0) {
                break;
            }
            self.result = self
                .scenario
                .go_on(&mut self.cluster, &mut self.cursor, left);
            if self.result.is_err() || !self.cursor.done || self.output.is_some() {
                break;
            }
            // The run stands at the change's instant: try the command there.
            if self.cursor.cut {
                self.anew = true;
                break;
            }
            let mut probe = self.cluster.world_copy();
            let before = probe.store.resource_version();
            let ran = match &self.parsed {
                Ok(cmd) => kubectl::run_command(&mut probe, cmd),
                Err(e) => Err(e.clone()),
            };
            match ran {
                Err(e) => self.refused = Some(e),
                Ok(_) if new_focus(&probe, before, self.focus.as_ref()).is_some() => {
                    self.anew = true
                }
                Ok(out) => {
                    self.output = Some(out);
                    self.cursor = Cursor::from_step(self.step);
                }
            }
        }
        self.done()
    }

    fn done(&self) -> bool {
        self.result.is_err()
            || self.refused.is_some()
            || self.anew
            || (self.output.is_some() && self.cursor.done)
    }

    /// How far it has come: the virtual instant and the steps recorded (from the start).
    pub fn progress(&self) -> (u64, usize) {
        (self.cluster.now_ms(), self.cluster.steps())
    }
}

/// A session's first recording under way, taken in slices ([`Scenario::go_on`]): the page
/// records a long run a slice between two frames, shows how far it has come, and can drop it.
pub struct Recording {
    session: Session,
    cluster: Cluster,
    cursor: Cursor,
    result: Result<(), Livelock>,
}

impl Recording {
    /// Records on for about `work` more of [`Cluster::work`] (to the end with `None`); true
    /// once the run has ended.
    pub fn go_on(&mut self, work: Option<u64>) -> bool {
        if !self.done() {
            let (scenario, c) = (&self.session.scenario, &mut self.cluster);
            self.result = scenario.go_on(c, &mut self.cursor, work);
        }
        self.done()
    }

    fn done(&self) -> bool {
        self.cursor.done || self.result.is_err()
    }

    /// How far it has come: the virtual instant and the steps recorded.
    pub fn progress(&self) -> (u64, usize) {
        (self.cluster.now_ms(), self.cluster.steps())
    }

    /// The session, with what was recorded (all of it once [`Recording::go_on`] said so).
    pub fn finish(self) -> Session {
        let mut session = self.session;
        session.take_recording(self.cluster, self.result);
        session
    }
}

impl Session {
    pub fn new(scenario: Scenario) -> Result<Session, ScenarioError> {
        let mut r = Session::recording(scenario)?;
        r.go_on(None);
        Ok(r.finish())
    }

    /// A recording of `scenario` from its start, to take in slices; an error when it cannot
    /// start (an object the apiserver refuses, a scenario past the budget).
    pub fn recording(scenario: Scenario) -> Result<Recording, ScenarioError> {
        let session = Session::blank(scenario);
        let mut cluster = session.scenario.start()?;
        cluster.rec.options = session.record_options();
        Ok(Recording {
            session,
            cluster,
            cursor: Cursor::from_start(),
            result: Ok(()),
        })
    }

    /// A session of `scenario` with nothing recorded yet.
    fn blank(scenario: Scenario) -> Session {
        let mut s = Session {
            scenario,
            trace: vec![],
            frames: vec![],
            stopped: None,
            over: None,
            settled: false,
            focus: None,
            focus_objects: vec![],
            typed: vec![],
            actions: vec![],
            changes: vec![],
            checkpoints: vec![],
            end: None,
            checkpoint_writes: CHECKPOINT_WRITES,
            restored: None,
        };
        s.typed = vec![false; s.scenario.steps.len()];
        s
    }

    /// A session whose checkpoints are `every` store writes apart.
    pub fn with_checkpoints(scenario: Scenario, every: u64) -> Result<Session, ScenarioError> {
        let mut s = Session::blank(scenario);
        s.checkpoint_writes = every.max(1);
        s.recompute()?;
        Ok(s)
    }

    /// Re-runs the scenario from the start, recording every step and its pods.
    pub fn recompute(&mut self) -> Result<(), ScenarioError> {
        let mut c = self.scenario.start()?;
        c.rec.options = self.record_options();
        let result = self.scenario.run_on(&mut c);
        self.trace.clear();
        self.frames.clear();
        self.focus_objects.clear();
        self.checkpoints.clear();
        self.end = None;
        self.take_recording(c, result);
        Ok(())
    }

    /// Checkpoint `j`: those taken on the way, then ([`Session::end`]) the world where the
    /// run ended, at `j == checkpoints.len()`.
    fn checkpoint(&self, j: usize) -> Option<&Checkpoint> {
        match self.checkpoints.get(j) {
            Some(cp) => Some(cp),
            None => self.end.as_ref().filter(|_| j == self.checkpoints.len()),
        }
    }

    /// The last checkpoint that satisfies `fits`, by index (see [`Session::checkpoint`]).
    fn last_checkpoint(&self, fits: impl Fn(&Checkpoint) -> bool) -> Option<usize> {
        (0..=self.checkpoints.len())
            .rev()
            .find(|&j| self.checkpoint(j).is_some_and(&fits))
    }

    /// The last checkpoint a new scenario step `k` at `at_ms` does not reach: taken before
    /// that step would run (step `k` not yet applied) and at or before its instant.
    fn checkpoint_before(&self, k: usize, at_ms: u64) -> Option<usize> {
        self.last_checkpoint(|cp| cp.scenario_pos <= k && cp.now_ms <= at_ms)
    }

    /// Re-runs from the last checkpoint the change does not reach (new scenario step `k` at
    /// `at_ms`). Everything recorded up to there stays.
    fn recompute_from(&mut self, k: usize, at_ms: u64) -> Result<(), ScenarioError> {
        let Some(j) = self.checkpoint_before(k, at_ms) else {
            return self.recompute();
        };
        let cp = self.checkpoint(j).expect("found above").clone();
        let mut c = Cluster::resume(&cp, self.record_options());
        let result = self.scenario.run_from(&mut c, cp.scenario_pos);
        self.resumed_from(j, c, result);
        Ok(())
    }

    /// Keeps what was recorded up to checkpoint `j` and appends what the run resumed from it
    /// recorded.
    fn resumed_from(&mut self, j: usize, c: Cluster, result: Result<(), Livelock>) {
        let steps = self.checkpoint(j).expect("resumed from it").steps;
        // Resumed from where the run ended: that world stays, as a checkpoint on the way, when
        // the run would have taken one there (else a long session typed at its end would keep
        // only the first, and a change in its middle would replay all of it).
        if j == self.checkpoints.len()
            && let Some(end) = self.end.take()
        {
            let last = self.checkpoints.last();
            let last = last.map(|cp| cp.sim.store.resource_version());
            if end.sim.checkpoint_due(self.checkpoint_writes, last) {
                self.checkpoints.push(end);
            }
        }
        self.trace.truncate(steps);
        self.frames.truncate(steps);
        self.focus_objects.truncate(steps);
        self.checkpoints.truncate(j + 1);
        self.take_recording(c, result);
    }

    /// Appends what a run recorded (after whatever the session already holds).
    fn take_recording(&mut self, mut c: Cluster, result: Result<(), Livelock>) {
        let ended = result.is_ok() && !c.halted() && !c.clients_running();
        self.settled = result.is_ok() && !c.halted() && c.is_settled();
        self.stopped = match (result, &c.over) {
            (Err(e), _) => Some(e.to_string()),
            (Ok(()), Some(over)) => Some(over.to_string()),
            (Ok(()), None) => None,
        };
        self.over = c.take_over();
        self.focus = c.focus.clone();
        self.restored = c.restored.clone();
        let (scenario_pos, now_ms) = (c.rec.scenario_pos, c.now_ms());
        let (sim, mut rec) = c.into_parts();
        self.focus_objects.append(&mut rec.focus_objects);
        self.frames.append(&mut rec.frames);
        let from = self.trace.len();
        self.trace.extend(rec.trace.into_iter().map(Rc::new));
        self.checkpoints.append(&mut rec.checkpoints);
        self.end = ended.then(|| Checkpoint {
            steps: self.trace.len(),
            scenario_pos,
            now_ms,
            sim: Rc::new(sim),
        });
        self.index_steps(from);
    }

    /// Finds the action steps and the steps that change something among the steps from
    /// `from` on (those before it are indexed already: a change resumed from a checkpoint
    /// indexes only what it recorded, so a long session's command does not grow with it).
    fn index_steps(&mut self, from: usize) {
        self.actions
            .truncate(self.actions.partition_point(|&a| a < from));
        self.changes
            .truncate(self.changes.partition_point(|&c| c < from));
        let focus_sync =
            |s: &TraceStep, focus: &Option<String>| s.is_deployment_sync(focus.as_deref());
        // The branch of the last focus sync before `from`.
        let mut branch = self.trace[..from]
            .iter()
            .rev()
            .find(|s| focus_sync(s, &self.focus))
            .and_then(|s| s.branch());
        let sizes_differ = |a: &TraceStep, b: &TraceStep| {
            a.replica_sets.len() != b.replica_sets.len()
                || a.replica_sets.iter().zip(&b.replica_sets).any(|(x, y)| {
                    x.name != y.name
                        || x.replicas != y.replicas
                        || x.status.replicas != y.status.replicas
                })
        };
        for i in from..self.trace.len() {
            let s = &self.trace[i];
            let mut change = match i.checked_sub(1) {
                Some(p) => sizes_differ(&self.trace[p], s),
                None => !s.replica_sets.is_empty(),
            };
            if s.kind() == StepKind::Action {
                self.actions.push(i);
                change = true;
            } else if focus_sync(s, &self.focus) {
                change |= s.branch() != branch;
                branch = s.branch();
            }
            if change && i > 0 {
                self.changes.push(i);
            }
        }
    }

    /// The first step after `i` that changes something (see [`Session::changes`]).
    pub fn next_change(&self, i: usize) -> Option<usize> {
        let k = self.changes.partition_point(|&c| c <= i);
        self.changes.get(k).copied()
    }

    /// The last step before `i` that changes something, else the first step.
    pub fn previous_change(&self, i: usize) -> usize {
        let k = self.changes.partition_point(|&c| c < i);
        if k == 0 { 0 } else { self.changes[k - 1] }
    }

    /// Whether action step `i` is one the reader typed (else the scenario's own, or not an
    /// action).
    pub fn is_typed(&self, i: usize) -> bool {
        self.actions
            .binary_search(&i)
            .ok()
            .and_then(|k| self.typed.get(k).copied())
            .unwrap_or(false)
    }

    pub fn len(&self) -> usize {
        self.trace.len()
    }

    pub fn is_empty(&self) -> bool {
        self.trace.is_empty()
    }

    /// Virtual time of the last step.
    pub fn end_ms(&self) -> u64 {
        self.trace.last().map(|s| s.t).unwrap_or(0)
    }

    /// The caption that describes step `i`: the latest one at or before it, unless a command
    /// without a caption (the reader's own, typically) came after it and changed the story.
    pub fn caption_at(&self, i: usize) -> Option<&str> {
        self.trace
            .iter()
            .take(i + 1)
            .rev()
            .find_map(|s| match (s.caption(), s.command()) {
                (Some(c), _) => Some(Some(c)),
                (None, Some(_)) => Some(None),
                (None, None) => None,
            })?
    }

    /// The last step of step `i`'s instant before the next command: where the controllers
    /// have answered a command at `i` (they react in the same virtual instant, as on a real
    /// cluster a moment later).
    pub fn instant_end(&self, i: usize) -> usize {
        let Some(t) = self.trace.get(i).map(|s| s.t) else {
            return i;
        };
        let mut j = i;
        while let Some(next) = self.trace.get(j + 1) {
            if next.t != t || next.kind() == StepKind::Action {
                break;
            }
            j += 1;
        }
        j
    }

    /// The last step at or before virtual time `t_ms` (the first step if none is).
    pub fn step_at_time(&self, t_ms: u64) -> usize {
        self.trace
            .partition_point(|s| s.t <= t_ms)
            .saturating_sub(1)
    }

    /// The world exactly as it stood right after step `i`, rebuilt by replaying the scenario
    /// from the last checkpoint before it.
    pub fn cluster_at(&self, i: usize) -> Result<Cluster, ScenarioError> {
        let cp = self
            .last_checkpoint(|cp| cp.steps <= i + 1)
            .and_then(|j| self.checkpoint(j));
        // Steps only (no frames, no checkpoints), up to step `i`.
        let options = RecordOptions {
            step_limit: Some(i + 1),
            ..RecordOptions::default()
        };
        let mut c = match cp {
            Some(cp) => Cluster::resume(cp, options),
            None => self.scenario.start()?,
        };
        c.rec.options = options;
        match cp {
            Some(cp) => self.scenario.run_from(&mut c, cp.scenario_pos)?,
            None => self.scenario.run_on(&mut c)?,
        }
        Ok(c)
    }

    /// What a read-only command prints at step `i` (the world left as it was).
    pub fn read(&self, i: usize, cmd: &str) -> Result<String, SessionError> {
        let i = i.min(self.len().saturating_sub(1));
        let parsed = kubectl::parse(cmd)?;
        if watches_replica_sets(&parsed) {
            return Ok(self.replica_set_table(i));
        }
        let mut c = self.cluster_at(i)?;
        Ok(kubectl::run_command(&mut c, &parsed)?)
    }

    /// What `kubectl get rs -w` would have printed up to step `i`: the trace's table, said to
    /// be the playground's own (kubectl's has no T or WHY column, and prints as changes come).
    fn replica_set_table(&self, i: usize) -> String {
        format!(
            "# The playground's table of every ReplicaSet change up to this step, with when and why
# (kubectl get rs -w prints NAME DESIRED CURRENT READY AGE, a line as each change comes).
{}",
            super::table::render(&self.trace[..(i + 1).min(self.len())])
        )
    }

    /// Runs a console command at step `i`. A read-only command prints what kubectl would have
    /// printed then; a change is first tried on that world (an error leaves everything as it
    /// was) and then added as a scenario step at that instant, and the run recomputed.
    pub fn command(&mut self, i: usize, cmd: &str) -> Result<Outcome, SessionError> {
        match self.command_in_slices(i, cmd, None)? {
            Commanded::Done(outcome) => Ok(outcome),
            Commanded::Underway(change) => self.commit_change(*change),
        }
    }

    /// [`Session::command`], whose change, when it records past `work` (and resumes from a
    /// checkpoint, as most do), is handed back under way: [`Change::go_on`] takes the rest in
    /// slices and [`Session::commit_change`] makes it the session's. The session is unchanged
    /// until then.
    pub fn command_in_slices(
        &mut self,
        i: usize,
        cmd: &str,
        work: Option<u64>,
    ) -> Result<Commanded, SessionError> {
        let cmd = cmd.trim();
        if cmd.is_empty() {
            return Err(SessionError::Refused(
                "error: empty command: expected e.g. kubectl get deployments".into(),
            ));
        }
        let i = i.min(self.len().saturating_sub(1));
        // Read once: whether it only reads, what it reads, and the change it makes.
        let parsed = kubectl::parse(cmd).map(Rc::new);
        if let Some(parsed) = parsed.as_ref().ok().filter(|c| c.read_only()) {
            if watches_replica_sets(parsed) {
                let table = self.replica_set_table(i);
                return Ok(Commanded::Done(Outcome::Printed(table)));
            }
            let mut c = self.cluster_at(i)?;
            // (A drain an earlier command started may be running there: only a client this
            // command starts, a `rollout status` that goes on, makes it a watch.)
            let before = c.last_client();
            let out = kubectl::run_command(&mut c, parsed)?;
            if !c.client_started_after(before) {
                return Ok(Commanded::Done(Outcome::Printed(out)));
            }
            return self.watch(i, cmd).map(Commanded::Done);
        }
        let at_ms = self.trace.get(i).map(|s| s.t).unwrap_or(0);
        let Some(mut change) = self.begin_change(i, at_ms, cmd, parsed.clone()) else {
            return self
                .replay_change(i, at_ms, cmd, parsed)
                .map(Commanded::Done);
        };
        if change.go_on(work) {
            return self.commit_change(change).map(Commanded::Done);
        }
        Ok(Commanded::Underway(Box::new(change)))
    }

    /// The Deployment a command wrote (the first, for a manifest with several; writes after
    /// resourceVersion `before`), when it is not the one the run follows: the reader works on
    /// it now, and the run follows it.
    fn new_focus(&self, c: &Cluster, before: u64) -> Option<String> {
        new_focus(c, before, self.focus.as_ref())
    }

    /// How the session records a run: every step with its frame, and checkpoints.
    fn record_options(&self) -> RecordOptions {
        RecordOptions {
            steps: true,
            frames: true,
            checkpoint_every: Some(self.checkpoint_writes),
            step_limit: None,
        }
    }

    /// The change `cmd` typed at step `i` (instant `at_ms`), in one replay from the last
    /// checkpoint it does not reach ([`Change`]); `None` when there is no such checkpoint.
    fn begin_change(
        &self,
        i: usize,
        at_ms: u64,
        cmd: &str,
        parsed: Result<Rc<kubectl::Command>, KubectlError>,
    ) -> Option<Change> {
        let mut scenario = self.scenario.clone();
        let k = scenario.insert_step(step_of(at_ms, cmd, &parsed));
        let j = self.checkpoint_before(k, at_ms)?;
        let cp = self.checkpoint(j)?;
        let cluster = Cluster::resume(cp, self.record_options());
        let debt = 2 * cluster.store.len() as u64;
        Some(Change {
            cursor: Cursor::until(cp.scenario_pos, k),
            scenario,
            checkpoint: j,
            step: k,
            at: i,
            at_ms,
            cmd: cmd.to_string(),
            parsed,
            focus: self.focus.clone(),
            output: None,
            cluster,
            result: Ok(()),
            refused: None,
            anew: false,
            debt,
        })
    }

    /// Makes a change recorded to its end the session's. A change kubectl refused, or that
    /// took the run past its budget (or into a livelock), is refused, the session left as it
    /// was; one that one replay could not serve is replayed anew.
    pub fn commit_change(&mut self, mut change: Change) -> Result<Outcome, SessionError> {
        if let Some(e) = change.refused {
            return Err(e.into());
        }
        change.result.map_err(ScenarioError::from)?;
        if change.anew {
            return self.replay_change(change.at, change.at_ms, &change.cmd, change.parsed);
        }
        if let Some(over) = change.cluster.take_over().filter(|_| self.over.is_none()) {
            return Err(SessionError::from(ScenarioError::from(over)));
        }
        let k = change.step;
        self.scenario = change.scenario;
        self.typed.insert(k.min(self.typed.len()), true);
        self.resumed_from(change.checkpoint, change.cluster, Ok(()));
        let step = self.action_step(k)?;
        Ok(Outcome::Applied {
            step,
            output: change.output.unwrap_or_default(),
            later: self.trace[step].action().and_then(|a| a.watch.clone()),
        })
    }

    /// The change tried on the world at step `i` and the run recorded anew from the last
    /// checkpoint it does not reach (or from the start, for a new focus).
    fn replay_change(
        &mut self,
        i: usize,
        at_ms: u64,
        cmd: &str,
        parsed: Result<Rc<kubectl::Command>, KubectlError>,
    ) -> Result<Outcome, SessionError> {
        let mut c = self.cluster_at(i)?;
        let before = c.store.resource_version();
        let step = step_of(at_ms, cmd, &parsed);
        let output = kubectl::run_command(&mut c, &*parsed?)?;
        let written = self.new_focus(&c, before);
        let step = self.insert_step(step, written)?;
        let later = self.trace.get(step).and_then(|s| s.action()?.watch.clone());
        Ok(Outcome::Applied {
            step,
            output,
            later,
        })
    }

    /// The trace index of scenario step `k`'s action step.
    fn action_step(&self, k: usize) -> Result<usize, SessionError> {
        self.trace
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind() == StepKind::Action)
            .nth(k)
            .map(|(idx, _)| idx)
            .ok_or_else(|| {
                SessionError::Refused("the run stopped before the command's instant".into())
            })
    }

    /// A `kubectl rollout status` that watches from step `i`: played on a copy of the run with
    /// the command as a step at that instant (it changes nothing, so the copy is the run plus
    /// that step), going on until the run settles. When kubectl would return after the
    /// recorded run's end, the run is extended to settle, as after a change.
    fn watch(&mut self, i: usize, cmd: &str) -> Result<Outcome, SessionError> {
        let at_ms = self.trace.get(i).map(|s| s.t).unwrap_or(0);
        let mut copy = self.scenario.clone();
        let k = copy.insert_step(Step::command(at_ms, cmd));
        copy.until = Until::Settled;
        // From the last checkpoint the command does not reach, as after a change.
        let cp = self
            .checkpoint_before(k, at_ms)
            .and_then(|j| self.checkpoint(j));
        let options = RecordOptions::default();
        let mut c = match cp {
            Some(cp) => Cluster::resume(cp, options),
            None => copy.start()?,
        };
        c.rec.options = options;
        let before = match cp {
            Some(cp) => {
                copy.run_from(&mut c, cp.scenario_pos)
                    .map_err(ScenarioError::from)?;
                cp.scenario_pos
            }
            None => {
                copy.run_on(&mut c).map_err(ScenarioError::from)?;
                0
            }
        };
        let step = c
            .rec
            .trace
            .iter()
            .filter_map(|s| Some((s.t, s.action()?)))
            .nth(k - before)
            .ok_or_else(|| {
                SessionError::Refused("the run stopped before the command's instant".into())
            })?;
        // Refused when it never watched; an error that ended the watch (`--timeout`) comes
        // with the lines printed before it.
        let (t, step) = step;
        if step.watch.is_none()
            && let Some(e) = step.errors.first()
        {
            return Err(SessionError::Refused(e.clone()));
        }
        let first = step.output.as_deref().unwrap_or("");
        let first = first.split('\n').next().unwrap_or("").to_string();
        let log = step.watch.clone().unwrap_or_default();
        let mut lines = vec![WatchLine { t, text: first }];
        lines.extend(log.lines);
        let returned = log.end.as_ref().map(|e| e.t);
        let reach = returned.unwrap_or(c.now_ms());
        if reach > self.end_ms() && self.scenario.until != Until::Settled {
            self.rerun(|s| s.until = Until::Settled)?;
        }
        Ok(Outcome::Watched {
            lines,
            end: log.end,
            step: returned.map(|t| self.step_at_time(t)),
        })
    }

    /// Follows another Deployment (`namespace/name`) through the whole run.
    pub fn set_focus(&mut self, key: &str) -> Result<(), SessionError> {
        self.rerun(|s| s.focus = Some(focus_name(key)))
    }

    /// The run of the scenario as `edit` changes it, recorded anew, in place of this one;
    /// when it cannot run, this session stays as it was (it is not touched until then).
    fn rerun(&mut self, edit: impl FnOnce(&mut Scenario)) -> Result<(), SessionError> {
        let mut scenario = self.scenario.clone();
        edit(&mut scenario);
        let mut next = Session::blank(scenario);
        next.checkpoint_writes = self.checkpoint_writes;
        next.typed = self.typed.clone();
        next.recompute()?;
        *self = next;
        Ok(())
    }

    /// The Deployments of the run (`namespace/name`), in the order they were first synced.
    pub fn deployments(&self) -> Vec<String> {
        let mut out: Vec<String> = vec![];
        for s in &self.trace {
            if s.controller() == Some(Controller::Deployment)
                && let Some(k) = s.key()
                && !out.iter().any(|o| o == k)
            {
                out.push(k.to_string());
            }
        }
        out
    }

    /// The focus Deployment as it stood right after step `i` (none before it exists).
    pub fn focus_at(&self, i: usize) -> Option<&Rc<Deployment>> {
        self.focus_objects.get(i)?.as_ref()
    }

    /// Whether step `i` is a sync of the focus Deployment.
    pub fn is_focus_sync(&self, i: usize) -> bool {
        self.trace
            .get(i)
            .is_some_and(|s| s.is_deployment_sync(self.focus.as_deref()))
    }

    /// Adds a step after every existing step at or before its instant (following the
    /// Deployment `focus` from then on, when given), recomputes, and returns the index of its
    /// action step in the new trace.
    fn insert_step(&mut self, step: Step, focus: Option<String>) -> Result<usize, SessionError> {
        let at = step.at_ms;
        // Tried on a copy (which shares the recorded steps): a refused change leaves this
        // session as it was, with nothing to record again.
        let mut next = self.clone();
        // A new focus changes what every step records: the run is recorded anew.
        let refocus = focus.is_some();
        if let Some(key) = focus {
            next.scenario.focus = Some(focus_name(&key));
        }
        let k = next.scenario.insert_step(step);
        next.typed.insert(k.min(next.typed.len()), true);
        if refocus {
            next.recompute()?;
        } else {
            next.recompute_from(k, at)?;
        }
        // A change that takes the run past its budget is refused, the run left as it was.
        if let Some(over) = next.over.as_ref().filter(|_| self.over.is_none()) {
            return Err(ScenarioError::from(over.clone()).into());
        }
        let step = next.action_step(k)?;
        *self = next;
        Ok(step)
    }

    /// Replaces the world settings (pod delays, failing images, nodes) and recomputes.
    pub fn set_world(&mut self, world: crate::cluster::kubelet::World) -> Result<(), SessionError> {
        self.rerun(|s| s.world = world)
    }

    /// Indices of the steps a timeline marks: user actions and syncs of the focus Deployment
    /// whose branch differs from its previous sync's.
    pub fn markers(&self) -> Vec<(usize, Marker)> {
        let mut out = vec![];
        let mut last_branch: Option<Branch> = None;
        for (i, s) in self.trace.iter().enumerate() {
            if s.kind() == StepKind::Action {
                out.push((i, Marker::Action));
            } else if self.is_focus_sync(i) {
                if s.branch() != last_branch {
                    out.push((i, Marker::Branch));
                }
                last_branch = s.branch();
            }
        }
        out
    }
}

/// A focus as a scenario file writes it: the name alone in `default`, else `namespace/name`.
fn focus_name(key: &str) -> String {
    key.strip_prefix("default/").unwrap_or(key).to_string()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Action,
    Branch,
}

/// The scenario step a typed command becomes, carrying the command as it was read (so that
/// no replay reads it again).
fn step_of(at_ms: u64, cmd: &str, parsed: &Result<Rc<kubectl::Command>, KubectlError>) -> Step {
    match parsed {
        Ok(p) => Step::parsed_command(at_ms, cmd, p.clone()),
        Err(_) => Step::command(at_ms, cmd),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENARIO: &str = r#"
name: web
objects:
  - |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 4
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: app, image: "app:1"}]}
"#;

    fn session() -> Session {
        Session::new(Scenario::parse(SCENARIO).unwrap()).unwrap()
    }

    /// A recording taken in small slices (paused between syncs, mid-instant) records exactly
    /// what one in a single go records: every gallery scenario, and a 1 000-replica rollout
    /// with its checkpoints, to the byte.
    #[test]
    fn a_recording_in_slices_is_the_recording_in_one_go() {
        use crate::cluster::trace::to_jsonl;
        let big = SCENARIO.replace("replicas: 4", "replicas: 1000")
            + "steps:\n  - at: 10s\n    run: kubectl set image deployment/web app=app:2\n";
        let mut all = crate::scenario::gallery::GALLERY.to_vec();
        all.push(("1000 replicas", big.as_str()));
        for (name, text) in all {
            let whole = Session::new(Scenario::parse(text).unwrap()).unwrap();
            let mut r = Session::recording(Scenario::parse(text).unwrap()).unwrap();
            let mut slices = 1;
            let mut last = r.progress();
            while !r.go_on(Some(7)) {
                slices += 1;
                assert!(r.progress() >= last, "{name}: progress only grows");
                last = r.progress();
            }
            let sliced = r.finish();
            assert!(slices > 1, "{name}: {slices} slices");
            assert_eq!(to_jsonl(&sliced.trace), to_jsonl(&whole.trace), "{name}");
            assert_eq!(sliced.frames.len(), whole.frames.len(), "{name}");
            let at = |s: &Session| -> Vec<(usize, usize, u64)> {
                s.checkpoints
                    .iter()
                    .map(|c| (c.steps, c.scenario_pos, c.now_ms))
                    .collect()
            };
            assert_eq!(at(&sliced), at(&whole), "{name}: the same checkpoints");
            if name == "1000 replicas" {
                assert!(whole.checkpoints.len() > 1, "{name}: checkpoints compared");
            }
            assert_eq!(
                (sliced.settled, &sliced.stopped),
                (whole.settled, &whole.stopped),
                "{name}"
            );
        }
    }

    #[test]
    fn every_step_has_a_frame() {
        let s = session();
        assert_eq!(s.frames.len(), s.trace.len());
        assert_eq!(s.frames.last().unwrap().len(), 4);
        assert!(s.stopped.is_none());
    }

    /// A long session typed at its end (issue 30: the page once took 270 ms for the 20th
    /// command and 930 ms for the 160th): each change resumes from where the run ended and
    /// records only what comes after it, however long the session; the world every few
    /// thousand writes stays a checkpoint, so that a change in the middle replays little too.
    #[test]
    fn a_long_session_typed_at_its_end_records_only_each_commands_own_steps() {
        let mut s =
            Session::new(Scenario::parse(crate::scenario::gallery::DEFAULT).unwrap()).unwrap();
        for n in 1..=200 {
            let (at, before) = (s.len() - 1, s.len());
            let cmd = format!("kubectl scale deployment/web --replicas={}", 3 + n % 3);
            let Ok(Commanded::Underway(mut change)) = s.command_in_slices(at, &cmd, Some(0)) else {
                panic!("command {n} is a change taken in slices");
            };
            assert!(change.go_on(None));
            let recorded = change.cluster.rec.trace.len();
            s.commit_change(*change).unwrap();
            assert_eq!(
                recorded,
                s.len() - before,
                "command {n} replayed nothing before it"
            );
        }
        let writes = s.end.as_ref().unwrap().sim.store.resource_version();
        assert!(
            s.checkpoints.len() as u64 >= writes / s.checkpoint_writes,
            "{} checkpoints over {writes} writes",
            s.checkpoints.len()
        );
    }

    #[test]
    fn replay_to_a_step_matches_the_recorded_pods() {
        let s = session();
        for i in [0, s.len() / 2, s.len() - 1] {
            let c = s.cluster_at(i).unwrap();
            assert_eq!(c.steps(), i + 1, "replay stops right after step {i}");
            assert_eq!(c.now_ms(), s.trace[i].t, "the clock of step {i}");
            let recorded: Vec<_> = s.frames[i].iter().cloned().collect();
            assert_eq!(c.pod_views(), recorded, "pods at step {i}");
        }
    }

    #[test]
    fn read_only_commands_print_the_world_of_that_step() {
        let mut s = session();
        let before = s.len();
        let Outcome::Printed(out) = s.command(0, "kubectl get pods").unwrap() else {
            panic!("get is read-only")
        };
        assert!(out.is_empty() || out.contains("No resources") || !out.contains("Running"));
        let last = s.len() - 1;
        let Outcome::Printed(out) = s.command(last, "kubectl get pods").unwrap() else {
            panic!("get is read-only")
        };
        assert_eq!(out.matches("Running").count(), 4, "{out}");
        assert_eq!(s.len(), before, "reading changes nothing");
    }

    #[test]
    fn a_change_lands_at_the_current_instant_and_recomputes() {
        let mut s = session();
        let last = s.len() - 1;
        let t = s.trace[last].t;
        let Outcome::Applied { step, .. } = s
            .command(last, "kubectl set image deployment/web app=app:2")
            .unwrap()
        else {
            panic!("set image changes the world")
        };
        assert_eq!(s.trace[step].kind(), StepKind::Action);
        assert_eq!(s.trace[step].t, t);
        assert!(
            s.trace[step..]
                .iter()
                .any(|x| x.branch() == Some(Branch::Rollout) && x.t >= t)
        );
        assert_eq!(s.scenario.steps.len(), 1);
    }

    #[test]
    fn rollout_status_watches_from_the_step_to_where_kubectl_returns() {
        let mut s = session();
        let before = (s.len(), s.scenario.clone());
        let Outcome::Watched { lines, end, step } = s
            .command(0, "kubectl rollout status deployment/web")
            .unwrap()
        else {
            panic!("the rollout is not done at step 0: status watches")
        };
        assert!(
            lines[0].text.starts_with("Waiting for deployment \"web\""),
            "{lines:?}"
        );
        assert_eq!(
            lines.last().unwrap().text,
            "deployment \"web\" successfully rolled out"
        );
        let end = end.unwrap();
        assert_eq!((end.error, end.t), (None, lines.last().unwrap().t));
        let step = step.unwrap();
        assert_eq!(s.trace[step].t, end.t);
        let d = &s.trace[step].deployment.as_ref().unwrap().status;
        assert_eq!((d.updated_replicas, d.available_replicas), (4, 4));
        assert_eq!(
            (s.len(), s.scenario.clone()),
            before,
            "reading changes nothing"
        );
        // Done by then: one line, no watch.
        assert_eq!(
            s.command(step, "kubectl rollout status deployment/web"),
            Ok(Outcome::Printed(
                "deployment \"web\" successfully rolled out".into()
            ))
        );
    }

    /// Issue 32: `rollout status --timeout` prints its waiting lines, then the timeout, and
    /// says where kubectl returned (it printed the timeout alone).
    #[test]
    fn rollout_status_with_a_timeout_prints_its_lines_then_the_timeout() {
        let mut s = session();
        let Outcome::Watched { lines, end, step } = s
            .command(0, "kubectl rollout status deployment/web --timeout=2s")
            .unwrap()
        else {
            panic!("the rollout is not done at step 0: status watches")
        };
        assert!(
            lines[0].text.starts_with("Waiting for deployment \"web\""),
            "{lines:?}"
        );
        let end = end.unwrap();
        assert_eq!(end.error.as_deref(), Some(crate::cluster::watch::TIMED_OUT));
        assert_eq!(end.t, s.trace[0].t + 2_000);
        assert_eq!(step, Some(s.step_at_time(end.t)));
    }

    /// Issue 32: after a typed change, the controllers' syncs of that instant are where the
    /// view goes: `rollout history` there shows the revision the change made.
    #[test]
    fn the_controllers_answer_a_change_in_its_instant() {
        let mut s = session();
        let last = s.len() - 1;
        let Outcome::Applied { step, .. } = s
            .command(last, "kubectl set image deployment/web app=app:9")
            .unwrap()
        else {
            panic!("a change")
        };
        let answered = s.instant_end(step);
        assert!(answered > step, "the deployment controller syncs at once");
        assert!(
            s.trace[step..=answered]
                .iter()
                .all(|x| x.t == s.trace[step].t)
        );
        let Outcome::Printed(history) = s
            .command(answered, "kubectl rollout history deployment/web")
            .unwrap()
        else {
            panic!("a read")
        };
        assert!(history.lines().any(|l| l.starts_with('2')), "{history}");
        let Outcome::Printed(at_command) = s
            .command(step, "kubectl rollout history deployment/web")
            .unwrap()
        else {
            panic!("a read")
        };
        assert!(
            !at_command.lines().any(|l| l.starts_with('2')),
            "{at_command}"
        );
    }

    #[test]
    fn a_watch_past_the_recorded_end_extends_the_run() {
        let mut s =
            Session::new(Scenario::parse(&format!("{SCENARIO}until: 1s\n")).unwrap()).unwrap();
        let end_before = s.end_ms();
        let last = s.len() - 1;
        let Outcome::Watched { end, step, .. } = s
            .command(last, "kubectl rollout status deployment/web")
            .unwrap()
        else {
            panic!("not done at 1 s")
        };
        let t = end.unwrap().t;
        assert!(t > end_before && s.end_ms() >= t, "{t} {end_before}");
        assert_eq!(s.scenario.until, Until::Settled);
        assert_eq!(s.trace[step.unwrap()].t, t);
    }

    /// Every gallery run recorded as the page records it: debug builds check the pod book's
    /// frame against a walk of the store at every step (a rollback that renumbers revisions
    /// reorders the ReplicaSets without a pod written: the frame must follow).
    #[test]
    fn every_gallery_run_records_the_pods_the_store_holds() {
        for (name, text) in crate::scenario::gallery::GALLERY {
            let s = Session::new(Scenario::parse(text).unwrap()).unwrap();
            assert_eq!(s.frames.len(), s.len(), "{name}");
        }
    }

    #[test]
    fn a_failing_change_leaves_the_session_alone() {
        let mut s = session();
        let before = (s.len(), s.scenario.clone());
        let err = s
            .command(3, "kubectl scale deployment/nope --replicas=2")
            .unwrap_err();
        assert!(matches!(err, SessionError::Kubectl(_)), "{err}");
        assert!(err.to_string().contains("nope"), "{err}");
        assert_eq!((s.len(), s.scenario.clone()), before);
    }

    #[test]
    fn every_spelling_of_a_replica_set_watch_prints_the_table() {
        for cmd in [
            "kubectl get rs -w",
            "kubectl get replicasets --watch",
            "get replicaset.apps -w",
            "kubectl get -w ReplicaSets",
        ] {
            assert!(watches_replica_sets(&kubectl::parse(cmd).unwrap()), "{cmd}");
        }
        for cmd in [
            "kubectl get rs",
            "kubectl get pods -w",
            "kubectl describe rs -w",
        ] {
            assert!(
                !watches_replica_sets(&kubectl::parse(cmd).unwrap()),
                "{cmd}"
            );
        }
        let s = session();
        let table = s.read(s.len() - 1, "kubectl get replicasets -w").unwrap();
        assert_eq!(table, s.read(s.len() - 1, "kubectl get rs -w").unwrap());
        assert!(table.contains("DESIRED"), "{table}");
    }

    #[test]
    fn a_readers_command_ends_the_scenarios_caption() {
        let text = include_str!("../../scenarios/rolling-update.yaml");
        let mut s = Session::new(Scenario::parse(text).unwrap()).unwrap();
        // A captioned step followed by a sync (which keeps the caption).
        let captioned = (0..s.len() - 1)
            .find(|&i| {
                s.trace[i].caption().is_some()
                    && s.trace[i + 1].caption().is_none()
                    && s.trace[i + 1].command().is_none()
            })
            .expect("the gallery scenario has captions");
        let caption = s.trace[captioned].caption();
        assert_eq!(s.caption_at(captioned), caption);
        assert_eq!(s.caption_at(captioned + 1), caption, "syncs keep it");
        let Outcome::Applied { step, .. } = s
            .command(captioned + 1, "kubectl scale deployment/web --replicas=7")
            .unwrap()
        else {
            panic!("a change")
        };
        assert_eq!(s.caption_at(step), None);
        assert_eq!(s.caption_at(step + 1), None);
    }

    #[test]
    fn the_deployment_a_command_writes_becomes_the_focus() {
        let mut s = session();
        assert_eq!(s.focus.as_deref(), Some("default/web"));
        let last = s.len() - 1;
        s.command(last, "kubectl create namespace shop").unwrap();
        let manifest = "kubectl apply -f -\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout-api, namespace: shop}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: c}}\n  template:\n    metadata: {labels: {app: c}}\n    spec: {containers: [{name: c, image: 'c:1'}]}\n";
        let Outcome::Applied { step, .. } = s.command(s.len() - 1, manifest).unwrap() else {
            panic!("apply changes the world")
        };
        assert_eq!(s.focus.as_deref(), Some("shop/checkout-api"));
        assert_eq!(s.scenario.focus.as_deref(), Some("shop/checkout-api"));
        let end = s.trace.last().unwrap();
        assert_eq!(end.deployment.as_ref().unwrap().name, "checkout-api");
        assert_eq!(end.replica_sets.len(), 1);
        assert_eq!(s.focus_at(s.len() - 1).unwrap().metadata.namespace, "shop");
        assert!(s.focus_at(0).is_none(), "it did not exist yet");
        assert!(
            (step..s.len()).any(|i| s.is_focus_sync(i)),
            "the new Deployment's syncs are the focus's"
        );
        // A command on the other Deployment moves the focus back; so does the switcher.
        assert_eq!(s.deployments(), ["default/web", "shop/checkout-api"]);
        s.command(s.len() - 1, "kubectl scale deployment/web --replicas=2")
            .unwrap();
        assert_eq!(s.focus.as_deref(), Some("default/web"));
        s.set_focus("shop/checkout-api").unwrap();
        assert_eq!(s.focus.as_deref(), Some("shop/checkout-api"));
        let reopened = crate::scenario::Scenario::parse(&s.scenario.to_yaml()).unwrap();
        assert_eq!(reopened.focus.as_deref(), Some("shop/checkout-api"));
    }

    #[test]
    fn step_at_time_picks_the_last_step_of_an_instant() {
        let s = session();
        let t = s.trace[s.len() / 2].t;
        let i = s.step_at_time(t);
        assert_eq!(s.trace[i].t, t);
        assert!(i + 1 == s.len() || s.trace[i + 1].t > t);
    }
}
