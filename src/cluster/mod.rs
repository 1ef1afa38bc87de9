//! The simulated control plane: the store (apiserver), informers (watch events dispatched to
//! every controller's handlers), work queues, the Deployment, ReplicaSet and garbage-collector
//! controllers, and scheduler + kubelet on a virtual clock.
//!
//! **Invariant:** nothing here reads the wall clock or a random source; time only moves in
//! [`Cluster::advance`], so the same inputs always give the same trace.
//!
//! Control plane is fast, pods are slow: after anything changes, [`Cluster::drain`] serves the
//! queues round-robin (Deployment, ReplicaSet, garbage collector; FIFO within each) until all
//! are empty, before the clock may move to the next scheduled event.

/// An actor's [`Cx`] over the world's apiserver and agenda (disjoint from the actors' own
/// fields, which the caller borrows beside it).
macro_rules! cx {
    ($sim:expr) => {
        Cx {
            store: &mut $sim.store,
            events: &mut $sim.events,
            agenda: &mut $sim.timers,
        }
    };
}

pub mod actors;
pub mod budget;
pub mod client;
pub mod kubelet;
pub mod nodes;
pub mod podbook;
pub mod record;
pub mod restore;
pub mod scheduler;
#[cfg(test)]
mod toy;
pub mod trace;
pub mod traffic;
pub mod watch;
pub mod world;

use crate::api::{Object, Pod, Str, Time};
use crate::apiserver::agenda::Agenda;
use crate::apiserver::events::EventRecorder;
use crate::apiserver::queue::WorkQueue;
use crate::apiserver::store::{Store, WatchEvent, WatchRef};
use crate::controller::FeatureGates;
use crate::controller::actor::Cx;
use crate::controller::calls::{CallLog, Scope};
use crate::controller::deployment::util as du;
use crate::controller::deployment::{Ctx, DeploymentController};
use crate::controller::garbagecollector::GarbageCollector;
use crate::controller::replicaset::ReplicaSetController;
use actors::{Due, Timer};
use budget::{Budget, Exceeded, OverBudget};
use kubelet::{PodStep, World};
pub use record::{
    Checkpoint, RecordOptions, Recorder, deployment_view, pod_view, replica_set_view_counted,
    template_hash,
};
use std::collections::BTreeSet;
use std::rc::Rc;
use trace::*;

/// Syncs allowed at one instant before the run is declared a livelock.
pub const MAX_SYNCS_PER_INSTANT: u32 = 10_000;

#[derive(Clone, Debug, PartialEq)]
pub struct Livelock {
    pub t_ms: u64,
    pub syncs: u32,
}

impl std::fmt::Display for Livelock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "livelock: {} controller syncs at t={}ms without the queues draining",
            self.syncs, self.t_ms
        )
    }
}

impl std::error::Error for Livelock {}

/// An instant's pod timers, part-way through (a run taken in slices paused there): the ones
/// of the batch not handled yet, and what the handled ones changed (one world step at the
/// end, as without the pause).
#[derive(Clone, Default)]
struct InstantUnderWay {
    due: std::collections::VecDeque<Timer>,
    changes: Vec<String>,
}

/// The simulated world: the apiserver's store and events, the controllers with their queues,
/// the pod timers and world settings, the run's state (its budget, watching clients, a drain
/// or an instant a pause stopped), and what the trace follows (the
/// focus Deployment and its pod book, kept by the writes, so they resume with it). Its clone
/// is a checkpoint.
#[derive(Clone)]
pub struct Sim {
    pub store: Store,
    pub world: World,
    pub dc: DeploymentController,
    pub rsc: ReplicaSetController,
    pub gc: GarbageCollector,
    pub events: EventRecorder,
    timers: Agenda<Timer>,
    /// The Deployment the trace follows (`namespace/name`): the scenario's `focus`, else the
    /// first Deployment created.
    pub focus: Option<String>,
    focus_uid: Option<String>,
    focus_owned: BTreeSet<Str>,
    pub total_syncs: u64,
    /// Instants of virtual time the run has stepped through.
    instants: u64,
    /// Stop between two syncs once [`Cluster::work`] reaches this (a run taken in slices).
    pub pause_at: Option<u64>,
    /// A drain a pause stopped, to go on with ([`Cluster::go_on_paused`]).
    pub draining: bool,
    /// An instant whose pod timers a pause stopped, to go on with ([`Cluster::go_on_paused`]).
    instant: Option<InstantUnderWay>,
    /// Syncs in the drain under way (a livelock past [`MAX_SYNCS_PER_INSTANT`]).
    drain_syncs: u32,
    /// The drain under way is an instant's (a checkpoint may follow it).
    instant_drain: bool,
    /// The empty half of `dispatch`'s pair of event buffers.
    spare_watch: Vec<WatchEvent>,
    next_queue: usize,
    /// What the run may simulate; crossing it stops the run (`over`).
    pub budget: Budget,
    /// Why the run stopped at its budget, once it did.
    pub over: Option<OverBudget>,
    /// The focus Deployment's pods as the trace records them, kept by the writes.
    book: podbook::PodBook,
    /// The clients still running after their command (`rollout status`, `drain`).
    clients: client::Clients,
    /// The namespace of kubectl's current context (`kubectl config set-context --current
    /// --namespace=…`): where a command without `-n` works. Kept with the world, as a
    /// person's kubeconfig outlives each command.
    pub context_namespace: String,
    /// What continuing a pasted cluster state did, when the run began from one.
    pub restored: Option<Rc<restore::Restored>>,
    /// The world's actors (the kubelets, kube-scheduler, the node lifecycle and disruption
    /// controllers), registered in `actors.rs`.
    pub actors: actors::Actors,
}

/// A simulated cluster: the world ([`Sim`], which it derefs to, to be read) and its
/// recording. What a caller may change goes through a few named setters below (the
/// apiserver a client writes to, the run's settings, the clients it starts), so every
/// actor's own state stays its own.
pub struct Cluster {
    sim: Sim,
    pub rec: Recorder,
}

impl std::ops::Deref for Cluster {
    type Target = Sim;
    fn deref(&self) -> &Sim {
        &self.sim
    }
}

/// What a caller outside the world may set.
impl Cluster {
    /// The apiserver, as a client (kubectl, the scenario's objects) writes to it: its writes
    /// reach the controllers through their watches at the next dispatch.
    pub fn apiserver(&mut self) -> &mut Store {
        &mut self.sim.store
    }

    /// The apiserver's Events, as a client posts one.
    pub fn events_api(&mut self) -> &mut EventRecorder {
        &mut self.sim.events
    }

    /// What the run may simulate.
    pub fn set_budget(&mut self, budget: Budget) {
        self.sim.budget = budget;
    }

    /// The Deployment the trace follows (`namespace/name`).
    pub fn follow(&mut self, focus: Option<String>) {
        self.sim.focus = focus;
    }

    /// The namespace of kubectl's current context.
    pub fn use_namespace(&mut self, ns: &str) {
        self.sim.context_namespace = ns.to_string();
    }

    /// Why the run stopped at its budget, taken (once it did).
    pub fn take_over(&mut self) -> Option<OverBudget> {
        self.sim.over.take()
    }

    /// Stop between two syncs once [`Cluster::work`] reaches `at` (`None`: run on).
    pub fn set_pause_at(&mut self, at: Option<u64>) {
        self.sim.pause_at = at;
    }

    /// What continuing a pasted cluster state did.
    pub fn set_restored(&mut self, restored: Rc<restore::Restored>) {
        self.sim.restored = Some(restored);
    }

    /// What the clients did since the last step, for the step a command makes: the drain's
    /// notes (the refusals' causes kubectl does not print); and, recording at step `at`, the
    /// clients started by it print their next lines onto it (true when one does).
    pub fn clients_onto_step(&mut self, at: Option<usize>, changes: &mut Vec<String>) -> bool {
        changes.append(&mut self.sim.clients.notes);
        let Some(at) = at else {
            return false;
        };
        let mut printing = false;
        for (_, c) in &mut self.sim.clients.running {
            let step = c.step();
            if step.is_none() {
                *step = Some(at);
                printing = true;
            }
        }
        printing
    }
}

impl Sim {
    /// Whether a client (a `rollout status` watching, a `drain` waiting) still runs.
    pub fn clients_running(&self) -> bool {
        !self.clients.is_empty()
    }

    /// The id of the last client started (0: none yet).
    pub fn last_client(&self) -> u32 {
        self.clients.last_id()
    }

    /// Whether a client started after client `id` still runs.
    pub fn client_started_after(&self, id: u32) -> bool {
        self.clients.running.iter().any(|(i, _)| *i > id)
    }

    /// A copy of a world shares its original's clock (a handle): this gives it its own.
    fn detach_clock(&mut self) {
        let clock = self.store.detach_clock();
        self.events.set_clock(clock);
    }
}

impl Cluster {
    /// A cluster of the world's nodes (`node-1` … `node-<world.nodes>`), its controllers
    /// with the default gates.
    pub fn new(world: World) -> Cluster {
        let mut c = Cluster::with_gates(world, FeatureGates::default());
        c.register_nodes(&nodes::shorthand_names(1..=c.sim.world.nodes));
        c
    }

    /// A cluster whose controllers run with `gates` (kube-controller-manager's
    /// `--feature-gates`), with no Nodes yet (the scenario registers them once it knows
    /// whether its objects hold any).
    pub fn with_gates(world: World, gates: FeatureGates) -> Cluster {
        let store = Store::new();
        let sim = Sim {
            events: EventRecorder::with_clock(store.clock().clone()),
            store,
            world,
            dc: DeploymentController::default(),
            rsc: ReplicaSetController {
                gates,
                ..ReplicaSetController::default()
            },
            gc: GarbageCollector::default(),
            timers: Agenda::default(),
            focus: None,
            focus_uid: None,
            focus_owned: BTreeSet::new(),
            total_syncs: 0,
            instants: 0,
            pause_at: None,
            draining: false,
            drain_syncs: 0,
            instant_drain: false,
            instant: None,
            spare_watch: vec![],
            next_queue: 0,
            budget: Budget::PAGE,
            over: None,
            book: podbook::PodBook::new(gates.release.available_at_min_ready_seconds()),
            clients: client::Clients::default(),
            context_namespace: "default".into(),
            restored: None,
            actors: actors::Actors::default(),
        };
        Cluster {
            sim,
            rec: Recorder::default(),
        }
    }

    /// The virtual clock's instant (the store's clock, which the event recorder shares).
    pub fn now(&self) -> Time {
        self.sim.store.now()
    }

    /// Virtual milliseconds since scenario start.
    pub fn now_ms(&self) -> u64 {
        self.sim.store.clock().now_ms()
    }

    /// Where time moves: only [`Cluster::advance`] calls this.
    fn set_clock(&mut self, t_ms: u64) {
        let clock = self.sim.store.clock();
        clock.set(clock.instant(t_ms));
    }

    /// True once the trace reached `step_limit` or the run crossed its budget: every further
    /// drain, advance and user step is a no-op, so the world stands exactly as it was right
    /// after that step.
    pub fn halted(&self) -> bool {
        let limit = self.rec.options.step_limit;
        self.sim.over.is_some() || limit.is_some_and(|n| self.steps() >= n)
    }

    /// Stops the run when the store holds more than the budget allows.
    fn check_budget(&mut self) {
        let pods = self.sim.store.count(crate::api::Kind::Pod);
        if let Some(exceeded) = self.sim.budget.check_store(pods, self.sim.store.len()) {
            self.stop_over(exceeded);
        }
    }

    fn stop_over(&mut self, exceeded: Exceeded) {
        let deployments = self.sim.store.deployments().map(|d| {
            let key = format!("deployment {}", d.metadata.key());
            (d.spec.replicas.unwrap_or(1), key)
        });
        let replica_sets = self.sim.store.replicasets().map(|r| {
            let key = format!("replicaset {}", r.metadata.key());
            (r.spec.replicas.unwrap_or(1), key)
        });
        // The first of the largest: a Deployment before the ReplicaSet it sized.
        let largest = deployments
            .chain(replica_sets)
            .min_by_key(|(n, _)| std::cmp::Reverse(*n))
            .map(|(n, key)| (key, n));
        self.sim.over = Some(OverBudget {
            t_ms: self.now_ms(),
            exceeded,
            host: self.sim.budget.host,
            largest,
        });
    }

    /// The Kubernetes release this cluster runs (its controllers', and kubectl's).
    pub fn release(&self) -> crate::controller::release::Release {
        self.sim.rsc.gates.release
    }

    fn add_timer(&mut self, at_ms: u64, pod: &Pod, due: impl Into<Due>) {
        let timer = (pod.metadata.key(), pod.metadata.uid.clone(), due.into());
        self.sim.timers.add(at_ms, timer);
    }

    /// Delivers pending watch events to every informer handler (and to the kubelet).
    pub fn dispatch(&mut self) {
        // Two buffers take turns (events raised while handling land in the other), so a
        // burst of hundreds of events does not regrow a vector every round.
        let mut evs = std::mem::take(&mut self.sim.spare_watch);
        // Why each key is queued goes into the steps a recording run keeps.
        let causes = self.rec.options.steps;
        self.sim.dc.queue.record_causes = causes;
        self.sim.rsc.queue.record_causes = causes;
        self.sim.gc.queue.record_causes = causes;
        loop {
            std::mem::swap(&mut evs, &mut self.sim.store.watch);
            if evs.is_empty() {
                self.sim.spare_watch = evs;
                return;
            }
            for ev in evs.drain(..) {
                let sim = &mut self.sim;
                sim.dc.handle(&sim.store, &ev);
                sim.rsc.handle(&sim.store, &ev);
                sim.gc.handle(&sim.store, &ev);
                self.actors_saw(&ev);
                if self.rec.options.steps
                    && let WatchRef::Added(Object::Pod(p))
                    | WatchRef::Modified {
                        new: Object::Pod(p),
                        ..
                    }
                    | WatchRef::Deleted(Object::Pod(p)) = ev.view()
                {
                    self.sim.book.touch(&p.metadata.key());
                }
            }
        }
    }

    /// Whether steps are recorded (only the benchmark turns `record` off).
    fn recording(&self) -> bool {
        self.rec.options.steps
    }

    /// Runs controller syncs until every queue is empty. Each sync is one trace step. In a run
    /// taken in slices ([`Cluster::pause_at`]) it may stop between two syncs: `draining` says
    /// so, and [`Cluster::go_on_paused`] goes on with it.
    pub fn drain(&mut self) -> Result<(), Livelock> {
        self.sim.drain_syncs = 0;
        self.sim.draining = true;
        self.resume_drain().map(drop)
    }

    /// Goes on with a drain that a pause stopped (nothing to do when none did): true once it
    /// is done, false when paused again. An instant's drain, once done, is where a checkpoint
    /// may be taken.
    fn resume_drain(&mut self) -> Result<bool, Livelock> {
        if !self.sim.draining {
            return Ok(true);
        }
        let done = self.drain_syncs_until_done();
        if !matches!(done, Ok(false)) {
            self.sim.draining = false;
            if std::mem::take(&mut self.sim.instant_drain) && done.is_ok() {
                self.maybe_checkpoint();
            }
        }
        done
    }

    /// The loop of [`Cluster::resume_drain`]: syncs until the queues are empty (true), the run
    /// is halted (true) or paused (false).
    fn drain_syncs_until_done(&mut self) -> Result<bool, Livelock> {
        loop {
            if !self.recording() {
                self.sim.events.forget_new();
            }
            self.dispatch();
            self.check_budget();
            if self.halted() {
                return Ok(true);
            }
            // The disruption controller first: its writes are dispatched before any other
            // sync, so every sync sees budgets that say the instant's pods.
            if self.sim.actors.disruption.has_work() {
                let sim = &mut self.sim;
                let changes = sim.actors.disruption.sync_all(&mut cx!(sim));
                if self.recording() && !changes.is_empty() {
                    self.push_step(TraceStep::new(self.now_ms(), Body::World(changes)));
                }
                continue;
            }
            // Round-robin from the controller after the last that synced.
            let picked = (0..Controller::ALL.len())
                .map(|i| Controller::ALL[(self.sim.next_queue + i) % Controller::ALL.len()])
                .find(|c| !self.queue(*c).is_empty());
            let Some(c) = picked else {
                // Then, once the instant's other syncs are done, the EndpointSlice
                // controller, once for all the instant's changes: upstream's queue holds a
                // Service once however many of its pods changed while a sync ran, and the
                // end state of an instant is what kube-proxy (endpointDelayMs later) reads.
                if self.sim.actors.endpoints.has_work() {
                    let recording = self.recording();
                    let sim = &mut self.sim;
                    let changes = sim.actors.endpoints.sync_all(&mut cx!(sim), recording);
                    if recording && !changes.is_empty() {
                        self.push_step(TraceStep::new(self.now_ms(), Body::World(changes)));
                    }
                    continue;
                }
                return Ok(true);
            };
            if self.paused() {
                return Ok(false);
            }
            self.sim.next_queue = (c as usize + 1) % Controller::ALL.len();
            self.sim.drain_syncs += 1;
            self.sim.total_syncs += 1;
            if self.sim.drain_syncs > MAX_SYNCS_PER_INSTANT {
                return Err(Livelock {
                    t_ms: self.now_ms(),
                    syncs: self.sim.drain_syncs,
                });
            }
            self.sync(c);
        }
    }

    /// Controller `c`'s work queue.
    pub fn queue(&self, c: Controller) -> &WorkQueue {
        match c {
            Controller::Deployment => &self.sim.dc.queue,
            Controller::ReplicaSet => &self.sim.rsc.queue,
            Controller::GarbageCollector => &self.sim.gc.queue,
        }
    }

    fn queue_mut(&mut self, c: Controller) -> &mut WorkQueue {
        match c {
            Controller::Deployment => &mut self.sim.dc.queue,
            Controller::ReplicaSet => &mut self.sim.rsc.queue,
            Controller::GarbageCollector => &mut self.sim.gc.queue,
        }
    }

    /// Where a sync's path through upstream's code and its writes go: a log of their own in a
    /// run that records its steps (so a cluster's copy never writes into the original's),
    /// which the store tells of each write until the sync ends; else nowhere.
    fn call_log(&mut self, scope: Scope) -> CallLog {
        if !self.recording() {
            return CallLog::default();
        }
        let calls = CallLog::recording(scope);
        let log = calls.clone();
        self.sim.store.observer = Some(Rc::new(move |r| {
            if r.verb != "get" {
                log.wrote(r)
            }
        }));
        calls
    }

    /// One sync of controller `c`: the next key of its queue, handed to the controller's
    /// handler (`syncDeployment`, `syncReplicaSet`, the garbage collector's `attemptToDelete`),
    /// marked done, and recorded as a step (the collector's only when it did something).
    fn sync(&mut self, c: Controller) {
        let Some(key) = self.queue_mut(c).get() else {
            return;
        };
        let mut s = SyncStep::new(c, String::new());
        s.cause = self.queue_mut(c).take_cause(&key);
        if self.recording() {
            s.queues = Some(Box::new(trace::Queues {
                deployment: self.sim.dc.queue.view(),
                replicaset: self.sim.rsc.queue.view(),
                garbagecollector: self.sim.gc.queue.view(),
            }));
        }
        let worth_a_step = match c {
            Controller::Deployment => {
                let calls = self.call_log(Scope::Deployment);
                let sim = &mut self.sim;
                let mut cx = Ctx {
                    store: &mut sim.store,
                    events: &mut sim.events,
                    explain: vec![],
                    calls,
                    gates: sim.rsc.gates,
                };
                let report = sim.dc.process(&mut cx, &key);
                s.explain = std::mem::take(&mut cx.explain);
                (s.calls, s.writes) = cx.calls.take();
                s.branch = Some(report.ladder.fired);
                s.ladder = Some(report.ladder);
                s.strategy = report.strategy;
                s.error = report.error.map(|e| e.to_string());
                true
            }
            Controller::ReplicaSet => {
                let calls = self.call_log(Scope::ReplicaSet);
                let sim = &mut self.sim;
                sim.rsc.calls = calls;
                let report = sim
                    .rsc
                    .sync_replica_set(&mut sim.store, &mut sim.events, &key);
                (s.calls, s.writes) = sim.rsc.calls.take();
                sim.rsc.calls = CallLog::default();
                s.explain = report.explain;
                s.error = report.error;
                s.expectations = report
                    .expectations
                    .map(|(before, after)| trace::ExpectationsTrace { before, after });
                s.batches = report.batches;
                s.burst_replicas = report.burst_replicas;
                s.deletions = report.deletions;
                true
            }
            Controller::GarbageCollector => {
                let calls = self.call_log(Scope::GarbageCollector);
                let sim = &mut self.sim;
                let (explain, error) = sim.gc.sync(&mut sim.store, &key, &calls);
                (s.calls, s.writes) = calls.take();
                if error.is_some() {
                    self.sim.gc.queue.add_rate_limited(&key, self.now_ms());
                }
                let acted = !explain.is_empty() || error.is_some();
                (s.explain, s.error) = (explain, error);
                acted
            }
        };
        self.sim.store.observer = None;
        self.queue_mut(c).done(&key);
        if self.recording() && worth_a_step {
            s.key = key.into();
            self.push_step(TraceStep::new(self.now_ms(), Body::Sync(s)));
        }
    }

    /// When the next thing happens on its own (a pod timer or a delayed queue key).
    pub fn next_event_ms(&self) -> Option<u64> {
        let queues = Controller::ALL.map(|c| self.queue(c).next_due());
        queues
            .into_iter()
            .chain([self.sim.timers.next_due()])
            .flatten()
            .min()
    }

    /// True when nothing but crash-loop and image-pull back-off cycles (of images that still
    /// fail) is still scheduled (a
    /// progress-deadline check of a Deployment that has completed changes nothing either).
    pub fn is_settled(&self) -> bool {
        let idle_check = |key: &Str| {
            self.sim
                .store
                .deployment(key)
                .is_none_or(|d| du::deployment_complete(d, &d.status))
        };
        Controller::ALL.iter().all(|c| self.queue(*c).is_empty())
            && self.sim.dc.queue.delayed_keys().all(idle_check)
            && !self.sim.rsc.queue.has_delayed()
            && !self.sim.gc.queue.has_delayed()
            && self.sim.timers.iter().all(|(_, (key, _, s))| match s {
                Due::Kubelet(PodStep::Crash | PodStep::Restart | PodStep::PullBackOff(_)) => true,
                // The scheduler's periodic retry of a pod that fits nowhere changes nothing:
                // what could make it fit (a pod gone, a node changed) wakes it anyway.
                Due::Scheduler(scheduler::Step::Schedule) => {
                    self.sim.actors.scheduler.parked.contains_key(key)
                }
                // A drain's retry that its budget will refuse again, with no timeout.
                Due::Client(id, step) => self
                    .sim
                    .clients
                    .running
                    .iter()
                    .find(|c| c.0 == *id)
                    .map_or(*step == client::Step::Retry, |(_, c)| {
                        c.idle(&self.sim.store, key, *step)
                    }),
                // A pull that will fail again changes nothing; one the world now has does.
                Due::Kubelet(PodStep::PullRetry(_)) => self.sim.store.pod(key).is_none_or(|p| {
                    let image = p.spec.containers.first().map_or("", |c| c.image.as_str());
                    self.sim.world.image_fails(image)
                }),
                _ => false,
            })
    }

    /// Moves the clock to `t_ms`, firing every pod timer and delayed queue key due by then (one
    /// world step per instant that had pod changes), draining the queues at each instant.
    pub fn advance(&mut self, t_ms: u64) -> Result<(), Livelock> {
        self.advance_until(t_ms).map(drop)
    }

    /// [`Cluster::advance`] that stops between two instants once the run has done `pause_at`
    /// [`Cluster::work`]: false when it did, and a later call goes on from there.
    pub fn advance_until(&mut self, t_ms: u64) -> Result<bool, Livelock> {
        // An instant a pause stopped is finished first.
        if !self.go_on_paused()? {
            return Ok(false);
        }
        while let Some(next) = self.next_event_ms() {
            if next > t_ms || self.halted() {
                break;
            }
            if self.paused() {
                return Ok(false);
            }
            self.sim.instants += 1;
            self.set_clock(next.max(self.now_ms()));
            let now = self.now_ms();
            for c in Controller::ALL {
                self.queue_mut(c).promote(now);
            }
            self.sim.instant = Some(InstantUnderWay::default());
            if !self.go_on_paused()? {
                return Ok(false);
            }
        }
        if t_ms > self.now_ms() && !self.halted() {
            self.set_clock(t_ms);
        }
        Ok(true)
    }

    /// Goes on with what a pause stopped: an instant's pod timers and its drain, or a drain.
    /// True once nothing is left of it, false when paused again.
    pub fn go_on_paused(&mut self) -> Result<bool, Livelock> {
        let Some(mut instant) = self.sim.instant.take() else {
            return self.resume_drain();
        };
        let recording = self.recording();
        // The pods due now, a batch at a time: timers added for this instant while a batch
        // is handled come out in the next one.
        loop {
            if instant.due.is_empty() {
                match self.sim.timers.take_due(self.now_ms()) {
                    Some(batch) => instant.due = batch.into(),
                    None => break,
                }
            }
            while let Some(timer) = instant.due.pop_front() {
                if !self.hand_timer(timer, &mut instant.changes) {
                    continue;
                }
                if self.paused() {
                    self.sim.instant = Some(instant);
                    return Ok(false);
                }
            }
        }
        if !instant.changes.is_empty() && recording {
            self.push_step(TraceStep::new(self.now_ms(), Body::World(instant.changes)));
        }
        // A checkpoint may follow an instant's drain (`resume_drain` takes it).
        self.sim.instant_drain = true;
        self.drain()?;
        Ok(!self.sim.draining)
    }

    /// Whether a run taken in slices has done its slice's work.
    fn paused(&self) -> bool {
        self.sim.pause_at.is_some_and(|p| self.work() >= p)
    }

    /// The work the run has done so far: store writes (which grow with the world's size),
    /// controller syncs and instants of virtual time. A run taken in slices is paused by it
    /// ([`Cluster::pause_at`]), since the core does not read a clock.
    pub fn work(&self) -> u64 {
        self.sim.store.resource_version() + self.sim.total_syncs + self.sim.instants
    }

    /// Creates the objects of a scenario (or an `apply`), in order, each as the apiserver would.
    pub fn create(&mut self, obj: Object) -> Result<Object, crate::apiserver::store::ApiError> {
        // A scenario's objects bring their namespaces with them.
        let ns = obj.meta().namespace.clone();
        if !ns.is_empty() {
            self.sim.store.add_namespace(&ns);
        }
        let created = Rc::unwrap_or_clone(self.sim.store.create(obj)?);
        if let Object::Deployment(d) = &created
            && self.sim.focus.is_none()
        {
            self.sim.focus = Some(d.metadata.key().to_string());
        }
        Ok(created)
    }
}
