//! What a run records, beside the loop that runs it (`mod.rs`): how it is recorded
//! ([`RecordOptions`]), the [`Recorder`] of its steps, frames and [`Checkpoint`]s, a step's
//! picture of the focus Deployment, its ReplicaSets and pods, and the world's copies a run
//! resumes from. Nothing here acts on the world: the loop calls [`Cluster::push_step`] and
//! `maybe_checkpoint` between its syncs and instants.

use super::trace::{self, *};
use super::{Cluster, Sim, budget::Exceeded, kubelet, podbook};
use crate::api::{
    DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, Deployment, Kind, Object, Pod, ReplicaSet, Str, Time,
};
use crate::apiserver::store::Store;
use crate::controller::deployment::util as du;
use std::collections::BTreeSet;
use std::rc::Rc;

/// How a run is recorded: one value, given when the cluster is made or resumed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordOptions {
    /// Record steps at all (a benchmark's timed run does not).
    pub steps: bool,
    /// Each step's pods and focus Deployment too, for views that animate pods (the page).
    pub frames: bool,
    /// Take a [`Checkpoint`] every this many store writes (work done, which grows with the
    /// world's size as steps do not), between instants; at least three times as many as the
    /// world holds objects, so that a big world keeps few copies of itself (at 10 000
    /// replicas the page held 185 MB with one per object, 124 MB with one per three).
    pub checkpoint_every: Option<u64>,
    /// Stop once this many steps are recorded (replaying the run up to a chosen step).
    pub step_limit: Option<usize>,
}

impl Default for RecordOptions {
    fn default() -> RecordOptions {
        RecordOptions {
            steps: true,
            frames: false,
            checkpoint_every: None,
            step_limit: None,
        }
    }
}

/// What a run records: its steps and, with `frames`, each step's pods and focus Deployment
/// (shared with the step before while they did not change), and its checkpoints. None of it
/// is copied into a checkpoint.
#[derive(Clone, Default)]
pub struct Recorder {
    pub options: RecordOptions,
    /// Steps recorded before this recording began (a run resumed from a checkpoint records
    /// only what comes after it).
    pub base: usize,
    pub trace: Vec<TraceStep>,
    pub frames: Vec<Rc<podbook::Frame>>,
    pub focus_objects: Vec<Option<Rc<Deployment>>>,
    pub checkpoints: Vec<Checkpoint>,
    /// Where the scenario's runner stands (the step it applies next), which it keeps here as
    /// it goes (`Scenario::go_on`): a checkpoint taken now resumes there.
    pub scenario_pos: usize,
    /// The store's resourceVersion at the last checkpoint (`None` before the first, which
    /// is taken at the end of the first instant: a change typed anywhere then resumes from
    /// a checkpoint instead of replaying the run from its start).
    last_checkpoint: Option<u64>,
}

impl Recorder {
    pub fn new(options: RecordOptions) -> Recorder {
        Recorder {
            options,
            ..Recorder::default()
        }
    }
}

/// The world between two instants of a recorded run, to resume the run from instead of
/// replaying it from t = 0: the core is deterministic, so the run from here is the run.
#[derive(Clone)]
pub struct Checkpoint {
    /// Steps recorded before it.
    pub steps: usize,
    /// The scenario step the run applies next.
    pub scenario_pos: usize,
    pub now_ms: u64,
    /// The world, as it stood.
    pub sim: Rc<Sim>,
}

impl Sim {
    /// Whether this world is due a checkpoint after the last one, taken at resourceVersion
    /// `last` (`None`: there is none yet): `every` store writes later, and at least three per
    /// object the world holds.
    pub fn checkpoint_due(&self, every: u64, last: Option<u64>) -> bool {
        let every = every.max(3 * self.store.len() as u64);
        last.is_none_or(|last| self.store.resource_version() >= last + every)
    }
}

impl Cluster {
    /// Steps recorded so far in the whole run (those before a checkpoint too).
    pub fn steps(&self) -> usize {
        self.rec.base + self.rec.trace.len()
    }

    /// A cluster that carries on from `cp`, recording from there as `options` say (its trace
    /// begins after the checkpoint's steps).
    pub fn resume(cp: &Checkpoint, options: RecordOptions) -> Cluster {
        let mut sim = (*cp.sim).clone();
        sim.detach_clock();
        let rec = Recorder {
            base: cp.steps,
            scenario_pos: cp.scenario_pos,
            last_checkpoint: Some(sim.store.resource_version()),
            ..Recorder::new(options)
        };
        Cluster { sim, rec }
    }

    /// The world and the recording, apart (a run that ended: its world may become a
    /// checkpoint, its recording a session's).
    pub fn into_parts(self) -> (Sim, Recorder) {
        (self.sim, self.rec)
    }

    /// A copy of the world as it stands, with a clock of its own, recording steps as this one
    /// does (without frames, checkpoints or a step limit); the recording stays with `self`.
    pub fn world_copy(&self) -> Cluster {
        let mut sim = self.sim.clone();
        sim.detach_clock();
        let options = RecordOptions {
            frames: false,
            step_limit: None,
            ..self.rec.options
        };
        let rec = Recorder {
            last_checkpoint: self.rec.last_checkpoint,
            ..Recorder::new(options)
        };
        Cluster { sim, rec }
    }

    /// Takes a checkpoint when one is due: between instants, with no `rollout status`
    /// watching (its lines go on a step the resumed run would not hold).
    pub(super) fn maybe_checkpoint(&mut self) {
        let Some(every) = self.rec.options.checkpoint_every else {
            return;
        };
        if !self.sim.checkpoint_due(every, self.rec.last_checkpoint)
            || !self.sim.clients.is_empty()
            || self.halted()
        {
            return;
        }
        self.rec.last_checkpoint = Some(self.sim.store.resource_version());
        let mut sim = self.sim.clone();
        sim.detach_clock();
        let cp = Checkpoint {
            steps: self.steps(),
            scenario_pos: self.rec.scenario_pos,
            now_ms: self.now_ms(),
            sim: Rc::new(sim),
        };
        self.rec.checkpoints.push(cp);
    }

    /// Records a step, attaching the events it caused and the focus Deployment's state.
    pub fn push_step(&mut self, mut s: TraceStep) {
        s.events = self.sim.events.take_new();
        let (d, rss) = self.snapshot();
        s.deployment = d;
        s.replica_sets = rss;
        if self.sim.store.count(Kind::PodDisruptionBudget) > 0 {
            s.budgets = self
                .sim
                .store
                .list(Kind::PodDisruptionBudget)
                .filter_map(|o| match o {
                    Object::PodDisruptionBudget(b) => Some(trace::BudgetView {
                        key: b.metadata.key().to_string(),
                        current_healthy: b.status.current_healthy,
                        desired_healthy: b.status.desired_healthy,
                        disruptions_allowed: b.status.disruptions_allowed,
                        expected_pods: b.status.expected_pods,
                    }),
                    _ => None,
                })
                .collect();
        }
        if self.sim.actors.proxy.active() {
            let now = self.now_ms();
            let proxy = &mut self.sim.actors.proxy;
            proxy.count_until(now);
            s.traffic = Some(proxy.view());
            s.dropping = proxy.dropping();
        }
        self.rec.trace.push(s);
        if self.steps() >= self.sim.budget.steps && self.sim.over.is_none() {
            let limit = self.sim.budget.steps;
            self.stop_over(Exceeded::Steps { limit });
        }
        if self.rec.options.frames {
            let d = self
                .sim
                .focus
                .as_deref()
                .and_then(|k| self.sim.store.deployment(k));
            let same = match (self.rec.focus_objects.last(), d) {
                (Some(Some(last)), Some(d)) => {
                    last.metadata.resource_version == d.metadata.resource_version
                }
                (Some(None), None) => true,
                _ => false,
            };
            let d = match self.rec.focus_objects.last() {
                Some(last) if same => last.clone(),
                _ => d.map(|d| Rc::new(d.clone())),
            };
            self.rec.focus_objects.push(d);
            let rss = focus_rss(&self.sim.focus_owned, &self.sim.store);
            let frame = self.sim.book.frame(&rss);
            #[cfg(debug_assertions)]
            {
                let walked = self.pod_views();
                if !frame.iter().eq(walked.iter()) {
                    let show = |v: Vec<&PodView>| {
                        v.iter()
                            .map(|p| format!("{} {:?} {}", p.name, p.state, p.status))
                            .collect::<Vec<_>>()
                    };
                    panic!(
                        "the pod book's frame is not the store's pods at step {} (t={}):\nbook  {:?}\nstore {:?}",
                        self.steps(),
                        self.now_ms(),
                        show(frame.iter().collect()),
                        show(walked.iter().collect())
                    );
                }
            }
            self.rec.frames.push(frame);
        }
    }

    /// The focus Deployment's pods, walked in the store (what the book keeps without walking:
    /// debug builds check one against the other).
    pub fn pod_views(&self) -> Vec<PodView> {
        let now = self.now();
        let mut out = vec![];
        for rs in focus_rss(&self.sim.focus_owned, &self.sim.store) {
            let mut pods: Vec<&Pod> = self
                .sim
                .store
                .pods_controlled_by(&rs.metadata.uid)
                .collect();
            pods.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
            let at = self.sim.book.at_min_ready;
            for p in pods {
                out.push(pod_view(p, rs, now, at));
            }
        }
        out
    }

    pub fn snapshot(&mut self) -> (Option<DeploymentView>, Vec<ReplicaSetView>) {
        let Some(name) = self.sim.focus.clone() else {
            // No Deployment to follow (a scenario of ReplicaSets or pods): no ReplicaSet is
            // drawn, and the book says so (a recorded frame is then empty).
            let now = self.now();
            self.sim
                .book
                .refresh(&self.sim.store, &[], now, self.rec.options.frames);
            return (None, vec![]);
        };
        let d = self.sim.store.deployment(&name).cloned();
        if let Some(d) = &d
            && self.sim.focus_uid.as_deref() != Some(d.metadata.uid.as_str())
        {
            self.sim.focus_uid = Some(d.metadata.uid.to_string());
            self.sim.focus_owned.clear();
        }
        if let Some(uid) = self.sim.focus_uid.clone() {
            for o in self.sim.store.dependents_of(&uid) {
                if o.kind() == Kind::ReplicaSet {
                    self.sim.focus_owned.insert(o.meta().key());
                }
            }
        }
        let now = self.now();
        let rss = focus_rss(&self.sim.focus_owned, &self.sim.store);
        self.sim
            .book
            .refresh(&self.sim.store, &rss, now, self.rec.options.frames);
        let views = rss
            .iter()
            .map(|rs| {
                let counts = self.sim.book.counts(rs);
                #[cfg(debug_assertions)]
                {
                    let walked: PodCounts = self
                        .sim
                        .store
                        .pods_controlled_by(&rs.metadata.uid)
                        .fold(PodCounts::default(), |mut c, p| {
                            let one = podbook::counts_of(
                                p,
                                rs.spec.min_ready_seconds,
                                now,
                                self.sim.book.at_min_ready,
                            );
                            c.pending += one.pending;
                            c.running += one.running;
                            c.ready += one.ready;
                            c.available += one.available;
                            c.terminating += one.terminating;
                            c
                        });
                    debug_assert_eq!(counts, walked, "the pod book of {}", rs.metadata.name);
                }
                replica_set_view_counted(rs, counts)
            })
            .collect();
        (d.as_ref().map(deployment_view), views)
    }
}

/// The focus Deployment as the trace shows it.
pub fn deployment_view(d: &Deployment) -> DeploymentView {
    let s = &d.status;
    DeploymentView {
        name: d.metadata.name.to_string(),
        replicas: d.replicas(),
        paused: d.spec.paused,
        generation: d.metadata.generation,
        observed_generation: s.observed_generation,
        strategy: d.spec.strategy.kind().unwrap_or_default(),
        max_surge: du::max_surge(d),
        max_unavailable: du::max_unavailable(d),
        revision: d
            .metadata
            .annotations
            .get(crate::api::REVISION_ANNOTATION)
            .cloned(),
        deleting: d.metadata.deletion_timestamp.is_some(),
        status: DeploymentStatusView {
            replicas: s.replicas,
            updated_replicas: s.updated_replicas,
            ready_replicas: s.ready_replicas,
            available_replicas: s.available_replicas,
            unavailable_replicas: s.unavailable_replicas,
            terminating_replicas: s.terminating_replicas,
        },
        conditions: s
            .conditions
            .iter()
            .map(|c| ConditionView {
                type_: c.type_.clone(),
                status: c.status.clone(),
                reason: c.reason.clone(),
                message: c.message.clone(),
            })
            .collect(),
    }
}

/// The ReplicaSets the focus Deployment owns or has owned (`owned`, their keys), by revision.
fn focus_rss<'a>(owned: &BTreeSet<Str>, store: &'a Store) -> Vec<&'a ReplicaSet> {
    let mut rss: Vec<&ReplicaSet> = owned.iter().filter_map(|k| store.replicaset(k)).collect();
    du::sort_by_revision(&mut rss);
    rss
}

/// A ReplicaSet as the trace shows it, with its pods counted (`PodBook::counts`).
pub fn replica_set_view_counted(rs: &ReplicaSet, pods: PodCounts) -> ReplicaSetView {
    ReplicaSetView {
        name: rs.metadata.name.to_string(),
        revision: du::revision(&rs.metadata).unwrap_or(0),
        replicas: rs.replicas(),
        status: ReplicaSetStatusView {
            replicas: rs.status.replicas,
            ready_replicas: rs.status.ready_replicas,
            available_replicas: rs.status.available_replicas,
        },
        images: rs.images(),
        pods,
        deleting: rs.metadata.deletion_timestamp.is_some(),
    }
}

/// One pod as the cluster view draws it.
pub fn pod_view(p: &Pod, rs: &ReplicaSet, now: Time, at_min_ready: bool) -> PodView {
    let status = kubelet::display_status(p);
    let state = if p.metadata.deletion_timestamp.is_some() {
        PodState::Terminating
    } else {
        match status.as_str() {
            "ErrImagePull" => PodState::ErrImagePull,
            "ImagePullBackOff" => PodState::ImagePullBackOff,
            "CrashLoopBackOff" => PodState::CrashLoopBackOff,
            "ContainerCreating" => PodState::ContainerCreating,
            _ if p.is_ready() && p.is_available(rs.spec.min_ready_seconds, now, at_min_ready) => {
                PodState::Available
            }
            _ if p.is_ready() => PodState::Ready,
            _ if p.status.phase == crate::api::PHASE_RUNNING => PodState::Running,
            _ => PodState::Pending,
        }
    };
    PodView {
        name: p.metadata.name.to_string(),
        replica_set: rs.metadata.name.to_string(),
        state,
        status,
        node: p.spec.node_name.to_string(),
    }
}

/// The pod-template-hash of a ReplicaSet, if it carries one.
pub fn template_hash(rs: &ReplicaSet) -> Option<&str> {
    rs.metadata
        .labels
        .get(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY)
        .map(String::as_str)
}
