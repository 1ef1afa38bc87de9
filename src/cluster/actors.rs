//! The world's actors, registered in one place: each lives in its own file with its own state
//! and timers (the kubelet `kubelet.rs`, kube-scheduler `scheduler.rs`, the node lifecycle and
//! taint eviction controllers `controller/nodelifecycle.rs`, the disruption controller
//! `controller/disruption.rs`, kubectl's clients behind `client.rs`); here each is given the
//! watch events it is told of ([`Cluster::actors_saw`]) and its timers ([`Cluster::hand_timer`]),
//! and its timer enum is a variant of [`Due`]. A new actor is its file, a field of `Sim`, its
//! variant and its arms here. (The Deployment, ReplicaSet and garbage-collector controllers
//! are the loop's: their queues are drained by `Cluster::drain`.)

use super::client;
use super::kubelet::{self, Kubelet, PodStep};
use super::scheduler;
use super::{Cluster, Cx};
use crate::apiserver::store::{WatchEvent, WatchRef};
use crate::controller::disruption;
use crate::controller::nodelifecycle;

/// What is due on the agenda, typed by the actor it belongs to (as quinn-proto's connection
/// owns its `Timer`): the loop hands each to its actor ([`Cluster::hand_timer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Due {
    /// A pod's lifecycle step (the timer's key is the pod's).
    Kubelet(PodStep),
    /// The scheduler's.
    Scheduler(scheduler::Step),
    /// The node lifecycle or the taint eviction controller's.
    Lifecycle(nodelifecycle::Step),
    /// The disruption controller's.
    Disruption(disruption::Step),
    /// A client's (kubectl's, still running after its command): the client's id and step.
    Client(u32, client::Step),
}

impl From<PodStep> for Due {
    fn from(s: PodStep) -> Due {
        Due::Kubelet(s)
    }
}

impl From<scheduler::Step> for Due {
    fn from(s: scheduler::Step) -> Due {
        Due::Scheduler(s)
    }
}

impl From<nodelifecycle::Step> for Due {
    fn from(s: nodelifecycle::Step) -> Due {
        Due::Lifecycle(s)
    }
}

impl From<disruption::Step> for Due {
    fn from(s: disruption::Step) -> Due {
        Due::Disruption(s)
    }
}

/// A scheduled step: (key, uid, what is due).
pub type Timer = crate::controller::actor::Timer<Due>;

impl Cluster {
    /// Hands a watch event to the actors that watch (after the controllers' informers): the
    /// scheduler (a new pod to bind; a parked pod may fit now), the kubelet, the disruption
    /// controller, and the clients still running.
    pub(super) fn actors_saw(&mut self, ev: &WatchEvent) {
        let sim = &mut self.sim;
        sim.scheduler.saw(&mut cx!(sim), &sim.world, ev);
        kubelet::saw(&mut cx!(sim), &sim.world, ev);
        sim.disruption.handle(&mut cx!(sim), ev.view());
        if !self.sim.clients.is_empty() {
            self.clients_saw(ev.view());
        }
    }

    /// Hands a timer to its actor; what it did goes into `changes` (when recording). True
    /// for a pod's step (the kubelet's or the scheduler's), after which a run taken in slices
    /// may pause.
    pub(super) fn hand_timer(&mut self, (key, uid, due): Timer, changes: &mut Vec<String>) -> bool {
        let recording = self.recording();
        let stepped = match due {
            Due::Kubelet(step) => {
                let sim = &mut self.sim;
                let mut kubelet = Kubelet {
                    store: &mut sim.store,
                    rec: &mut sim.events,
                    world: &sim.world,
                    describe: recording,
                };
                let stepped = kubelet.apply(&key, &uid, step);
                stepped.map(|(what, next)| (what, next.map(|(ms, s)| (ms, s.into()))))
            }
            Due::Scheduler(step) => {
                let sim = &mut self.sim;
                let mut k = scheduler::Bind {
                    cx: &mut cx!(sim),
                    world: &sim.world,
                    release: sim.rsc.gates.release,
                    describe: recording,
                };
                sim.scheduler.step(&mut k, &key, &uid, step)
            }
            Due::Disruption(step) => {
                self.sim.disruption.timer(&key, step);
                return false;
            }
            Due::Client(id, step) => {
                self.client_timer(id, &key, step);
                // (Only a recording run writes notes.)
                changes.append(&mut self.sim.clients.notes);
                return false;
            }
            Due::Lifecycle(step) => {
                let sim = &mut self.sim;
                let down = &sim.world.nodes_down;
                let did = sim.lifecycle.timer(&mut cx!(sim), &key, &uid, step, down);
                if let Some(what) = did
                    && recording
                {
                    changes.push(what);
                }
                return false;
            }
        };
        // A pod's step (the kubelet's or the scheduler's) and the one that follows it.
        if let Some((what, next)) = stepped {
            if recording {
                changes.push(what);
            }
            if let Some((delay, due)) = next {
                let at = self.now_ms() + delay;
                self.sim.timers.add(at, (key, uid, due));
            }
        }
        true
    }

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
