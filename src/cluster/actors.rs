//! The world's actors, registered in one place: each lives in its own file with its own state
//! and timers and implements [`Actor`] (the kubelets `kubelet.rs`, kube-scheduler
//! `scheduler.rs`, the node lifecycle and taint eviction controllers
//! `controller/nodelifecycle.rs`, the disruption controller `controller/disruption.rs`); the
//! one line each has in [`actors!`]'s list below makes its field of [`Actors`], its variant of
//! [`Due`], and its turn in [`Cluster::actors_saw`] (in the list's order) and
//! [`Cluster::hand_timer`]. kubectl's clients (`client.rs`) are the other kind of actor: they
//! start with a command and end, so they are a list of their own. (The Deployment, ReplicaSet
//! and garbage-collector controllers are the loop's: their queues are drained by
//! `Cluster::drain`.)

use super::client;
use super::kubelet::World;
use super::{Cluster, Cx};
use crate::apiserver::store::{WatchEvent, WatchRef};
use crate::controller::actor::{Actor, Env};
use crate::controller::{disruption, endpointslice, nodelifecycle};

/// What every actor is handed of the world (`controller::actor::Env`), borrowed from `Sim`
/// beside the actors themselves.
macro_rules! env {
    ($sim:expr, $describe:expr) => {
        Env {
            world: &$sim.world,
            release: $sim.rsc.gates.release,
            describe: $describe,
            nodes_down: &$sim.world.nodes_down,
        }
    };
}

/// Declares the actors: `field: Variant(Type, its Step),` each, in the order they are told of
/// a watch event. (The step is named, not read from the trait: the trait's bounds on `Due`
/// would make the two depend on each other.)
macro_rules! actors {
    ($(
        $(#[doc = $doc:literal])* $(#[cfg($cfg:meta)])?
        $field:ident: $variant:ident($actor:ty, $step:ty),
    )*) => {
        /// Every registered actor's state.
        #[derive(Clone, Debug, Default)]
        pub struct Actors {
            $( $(#[doc = $doc])* $(#[cfg($cfg)])? pub $field: $actor, )*
        }

        /// What is due on the agenda, typed by the actor it belongs to (as quinn-proto's
        /// connection owns its `Timer`): the loop hands each to its actor
        /// ([`Cluster::hand_timer`]).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Due {
            $( $(#[doc = $doc])* $(#[cfg($cfg)])? $variant($step), )*
            /// A client's (kubectl's, still running after its command): the client's id and
            /// step.
            Client(u32, client::Step),
        }

        $(
            $(#[cfg($cfg)])?
            impl From<$step> for Due {
                fn from(s: $step) -> Due {
                    Due::$variant(s)
                }
            }
        )*

        impl Cluster {
            /// Hands a watch event to the actors (after the controllers' informers), in their
            /// order, then to the clients still running.
            pub(super) fn actors_saw(&mut self, ev: &WatchEvent) {
                let recording = self.recording();
                let sim = &mut self.sim;
                let env = env!(sim, recording);
                $(
                    $(#[cfg($cfg)])?
                    Actor::<Due, World>::saw(&mut sim.actors.$field, &mut cx!(sim), &env, ev);
                )*
                if !self.sim.clients.is_empty() {
                    self.clients_saw(ev.view());
                }
            }

            /// Hands a timer to its actor; what it did goes into `changes` (when recording).
            /// True for a pod's step (the kubelet's or the scheduler's), after which a run
            /// taken in slices may pause.
            pub(super) fn hand_timer(&mut self, (key, uid, due): Timer, changes: &mut Vec<String>) -> bool {
                let recording = self.recording();
                let sim = &mut self.sim;
                let env = env!(sim, recording);
                let (what, pod_step) = match due {
                    $(
                        $(#[cfg($cfg)])?
                        Due::$variant(step) => (
                            Actor::<Due, World>::timer(
                                &mut sim.actors.$field, &mut cx!(sim), &env, &key, &uid, step,
                            ),
                            <$actor as Actor<Due, World>>::POD_STEPS,
                        ),
                    )*
                    Due::Client(id, step) => {
                        self.client_timer(id, &key, step);
                        // (Only a recording run writes notes.)
                        changes.append(&mut self.sim.clients.notes);
                        return false;
                    }
                };
                if let Some(what) = what
                    && recording
                {
                    changes.push(what);
                }
                pod_step
            }
        }
    };
}

actors! {
    /// kube-scheduler: its round-robin start and its unschedulable queue.
    scheduler: Scheduler(super::scheduler::Scheduler, super::scheduler::Step),
    /// The kubelets: a pod's lifecycle steps (the timer's key is the pod's).
    kubelet: Kubelet(super::kubelet::Kubelets, super::kubelet::PodStep),
    /// The node lifecycle and taint eviction controllers.
    lifecycle: Lifecycle(nodelifecycle::NodeLifecycleController, nodelifecycle::Step),
    /// The disruption controller: its queue of budgets.
    disruption: Disruption(disruption::DisruptionController, disruption::Step),
    /// kube-proxy and the load on Services (`world.traffic`).
    proxy: Proxy(super::traffic::KubeProxy, super::traffic::Step),
    /// The EndpointSlice controller: its queue of Services.
    endpoints: Endpoints(endpointslice::controller::EndpointSliceController, endpointslice::controller::Step),
    /// A toy, to show what a new actor costs: its file and this line (`toy.rs`).
    #[cfg(test)]
    toy: Toy(super::toy::Toy, super::toy::Step),
}

/// A scheduled step: (key, uid, what is due).
pub type Timer = crate::controller::actor::Timer<Due>;

impl Cluster {
    /// Hands a watch event to every client still running, writing what they print onto the
    /// steps that ran them; the ones that ended leave.
    fn clients_saw(&mut self, ev: WatchRef<'_>) {
        let recording = self.recording();
        let sim = &mut self.sim;
        let mut cx = cx!(sim);
        for (id, c) in &mut sim.clients.running {
            let mut ccx = client::client_cx(&mut sim.clients.notes, &mut cx, recording, *id);
            c.saw(&mut ccx, ev);
            client::print(&mut **c, &mut self.rec.trace, self.rec.base);
        }
        sim.clients.running.retain(|(_, c)| !c.ended());
    }

    /// One of client `id`'s timers is due.
    fn client_timer(&mut self, id: u32, key: &str, step: client::Step) {
        let recording = self.recording();
        let sim = &mut self.sim;
        let Some(at) = sim.clients.running.iter().position(|c| c.0 == id) else {
            return;
        };
        let mut cx = cx!(sim);
        let mut ccx = client::client_cx(&mut sim.clients.notes, &mut cx, recording, id);
        let c = &mut sim.clients.running[at].1;
        c.timer(&mut ccx, key, step);
        client::print(&mut **c, &mut self.rec.trace, self.rec.base);
        if c.ended() {
            sim.clients.running.remove(at);
        }
    }

    /// Ends the clients whose `--timeout` has passed by now (at the end of a run, when no
    /// further event would have woken them).
    pub fn expire_clients(&mut self) {
        let now = self.now_ms();
        let sim = &mut self.sim;
        for (_, c) in &mut sim.clients.running {
            c.expire(&sim.store, now);
            client::print(&mut **c, &mut self.rec.trace, self.rec.base);
        }
        sim.clients.running.retain(|(_, c)| !c.ended());
    }

    /// Starts a client (kubectl's): `start` runs now, in the client's context, and returns
    /// what the command prints now and the client, if it goes on after the command.
    pub fn start_client<T>(
        &mut self,
        start: impl FnOnce(&mut client::ClientCx<'_, '_>) -> (T, Option<Box<dyn client::Client>>),
    ) -> T {
        let recording = self.recording();
        let sim = &mut self.sim;
        let id = sim.clients.next_id();
        let mut cx = cx!(sim);
        let mut ccx = client::client_cx(&mut sim.clients.notes, &mut cx, recording, id);
        let (out, client) = start(&mut ccx);
        if let Some(c) = client {
            sim.clients.running.push((id, c));
        }
        out
    }
}
