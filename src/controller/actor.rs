//! The seam between the simulated cluster's loop and the actors that are not a Deployment,
//! ReplicaSet or garbage-collector sync: the disruption, node lifecycle and taint eviction
//! controllers here, the scheduler, the kubelet and the clients (`kubectl drain`, `rollout
//! status`) in `cluster/`. Each owns its state and a typed enum of its timers; when it acts it
//! is handed a [`Cx`]: the apiserver (store and events) and the one agenda, on which it sets
//! its own timers. The agenda's entries are the loop's enum of every actor's timers (`D`),
//! which each actor's enum converts into, so the loop hands each timer back to its actor.

use crate::api::{Str, Time};
use crate::apiserver::agenda::Agenda;
use crate::apiserver::events::EventRecorder;
use crate::apiserver::store::{Store, WatchEvent};
use crate::controller::release::Release;

/// A timer on the agenda: the key and uid of the object it is about, and what is due.
pub type Timer<D> = (Str, Str, D);

/// What an actor works with when it acts.
pub struct Cx<'a, D> {
    pub store: &'a mut Store,
    pub events: &'a mut EventRecorder,
    pub agenda: &'a mut Agenda<Timer<D>>,
}

impl<D> Cx<'_, D> {
    /// The virtual clock's instant.
    pub fn now(&self) -> Time {
        self.store.now()
    }

    /// Virtual milliseconds since the run began.
    pub fn now_ms(&self) -> u64 {
        self.store.clock().now_ms()
    }

    /// Sets one of the actor's timers, due at `at_ms`, about the object `key` (`uid`).
    pub fn at(&mut self, at_ms: u64, key: Str, uid: Str, step: impl Into<D>) {
        self.agenda.add(at_ms, (key, uid, step.into()));
    }

    /// Sets the timer that follows a step, `next` = (after how many milliseconds, what).
    pub fn then(&mut self, key: &Str, uid: &Str, next: Option<(u64, impl Into<D>)>) {
        if let Some((delay, step)) = next {
            let at = self.now_ms() + delay;
            self.at(at, key.clone(), uid.clone(), step);
        }
    }
}

/// What an actor knows besides the apiserver: the world's settings (`W`, the harness's), the
/// release the cluster runs, whether the run records what it does, and the nodes whose kubelet
/// has gone silent (which the node lifecycle controller learns from the missing heartbeats).
pub struct Env<'a, W> {
    pub world: &'a W,
    pub release: Release,
    pub describe: bool,
    pub nodes_down: &'a [String],
}

/// An actor of the world that is not a work-queue sync of the loop's: it owns its state and
/// its timers (`Step`), is told of each watch event after the controllers' informers, and is
/// handed its timers when they are due. `D` is the loop's enum of every actor's timers, `W`
/// its world. An actor registers with one line in `cluster/actors.rs`.
pub trait Actor<D, W> {
    /// Its timers.
    type Step;
    /// Whether its timers are a pod's lifecycle steps (the kubelet's, the scheduler's), after
    /// which a run taken in slices may pause.
    const POD_STEPS: bool = false;

    /// A watch event.
    fn saw(&mut self, _cx: &mut Cx<'_, D>, _env: &Env<'_, W>, _ev: &WatchEvent) {}

    /// One of its timers, about the object `key` (`uid`), is due. Returns what it did, in
    /// words, for the trace (spelled when `env.describe`).
    fn timer(
        &mut self,
        cx: &mut Cx<'_, D>,
        env: &Env<'_, W>,
        key: &Str,
        uid: &Str,
        step: Self::Step,
    ) -> Option<String>;
}
