//! kube-proxy and a load on Services (`world.traffic`, `world.endpointDelayMs`): the requests
//! a rollout drops, and why.
//!
//! kube-proxy learns of an EndpointSlice's change `endpointDelayMs` after it (its informer and
//! its rules' sync, at most once per `minSyncPeriod`, 1 s by default) and routes each request
//! among the endpoints it has seen: the ready ones, or, when none is ready, the serving ones
//! that are terminating (`CategorizeEndpoints`, pkg/proxy/topology.go, at the 2026 master
//! commit 008b3652959ca58af8be3fb5b6ecfe9ae7638282, l.48–81). A request succeeds when its pod's
//! app still serves; it fails when the app has stopped (at SIGTERM, after the preStop hook, or
//! `servingMs` later as `world.shutdown` says) or the pod is gone, "terminated before
//! kube-proxy saw it", and when kube-proxy has no endpoint to send it to, "no ready endpoint".
//!
//! The load is counted per instant, not per request: between two changes everything is
//! constant, so `rps × time` requests went out, spread evenly over the endpoints in use, and
//! the share sent to pods that no longer serve failed. What it keeps is counts, so a change
//! costs the same at 10 endpoints as at 10 000 (a slice's change touches its endpoints only).

use super::kubelet::{Load, Stop, World};
use crate::api::service::{EndpointSlice, SERVICE_NAME_LABEL};
use crate::api::{Kind, Object, PHASE_RUNNING, Pod, Str, key_of};
use crate::apiserver::store::Store;
use crate::apiserver::store::{WatchEvent, WatchRef};
use crate::controller::actor::{Actor, Cx, Env};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// What kube-proxy knows of one endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The pod's `namespace/name` (its `targetRef`).
    pub pod: Str,
    pub ready: bool,
    pub serving: bool,
    pub terminating: bool,
}

impl Seen {
    fn of(slice: &EndpointSlice) -> Vec<Seen> {
        let ns = &slice.metadata.namespace;
        slice
            .endpoints
            .iter()
            .filter_map(|e| {
                let name = e.target_ref.as_ref()?.get("name")?.as_str()?;
                // (An unset condition reads as the API documents it: ready and serving,
                // not terminating.)
                let c = &e.conditions;
                Some(Seen {
                    pod: key_of(ns, name),
                    ready: c.ready != Some(false),
                    serving: c.serving != Some(false),
                    terminating: c.terminating == Some(true),
                })
            })
            .collect()
    }
}

/// kube-proxy's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// kube-proxy applies a slice as it was `endpointDelayMs` ago (`None`: it was deleted).
    /// The timer's key is the Service's, its uid the slice's name.
    Apply(Option<Rc<Vec<Seen>>>),
    /// A pod's app stops serving (the timer's key is the pod's).
    StopsServing,
}

/// A Service's load: what kube-proxy has seen of its slices and what the load has done.
#[derive(Clone, Debug, Default)]
struct Flow {
    rps: u32,
    /// Whether the load has begun: once kube-proxy first has an endpoint for the Service (its
    /// clients come once it answers), so a world's first pods starting are not counted as
    /// failures.
    begun: bool,
    /// The endpoints kube-proxy has applied, by slice (a Service has a few: searched).
    seen: Vec<(Str, Rc<Vec<Seen>>)>,
    /// Endpoints in use when some is ready, and how many of those point at a pod that does
    /// not serve; the same for the serving, terminating ones (used when none is ready).
    ready: Tally,
    fallback: Tally,
    /// How many endpoints in either tally point at each pod (one, unless slices overlap).
    refs: [BTreeMap<Str, i32>; 2],
}

#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    endpoints: i64,
    stopped: i64,
}

impl Flow {
    /// Adds (`sign` 1) or takes away (-1) one slice's endpoints from the tallies.
    fn count(&mut self, seen: &[Seen], sign: i64, serves: &dyn Fn(&Str) -> bool) {
        for s in seen {
            let stopped = !serves(&s.pod);
            let (tally, which) = if s.ready {
                (&mut self.ready, 0)
            } else if s.serving && s.terminating {
                (&mut self.fallback, 1)
            } else {
                continue;
            };
            let refs = &mut self.refs[which];
            let n = refs.entry(s.pod.clone()).or_default();
            *n += sign as i32;
            if *n == 0 {
                refs.remove(&s.pod);
            }
            tally.endpoints += sign;
            tally.stopped += sign * i64::from(stopped);
        }
    }

    /// Whether an endpoint kube-proxy applied points at the pod.
    fn refers_to(&self, pod: &Str) -> bool {
        self.refs.iter().any(|r| r.contains_key(pod))
    }

    /// The endpoints kube-proxy routes by now: the ready ones' references, or the serving
    /// terminating ones' when none is ready.
    fn routed(&self) -> &BTreeMap<Str, i32> {
        &self.refs[usize::from(self.ready.endpoints == 0)]
    }

    /// The tally kube-proxy routes by now.
    fn in_use(&self) -> Tally {
        if self.ready.endpoints > 0 {
            self.ready
        } else {
            self.fallback
        }
    }
}

/// The load's counts so far (requests, as fractions: they are a rate times a time).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counts {
    pub served: f64,
    /// Failed: routed to a pod whose app had stopped serving, or that was gone (kube-proxy had
    /// not yet seen it leave).
    pub stopped: f64,
    /// Failed: kube-proxy had no endpoint to send them to.
    pub no_endpoint: f64,
}

/// kube-proxy and the load, as one actor.
#[derive(Clone, Debug, Default)]
pub struct KubeProxy {
    /// By Service (a few: searched in order).
    flows: Vec<(Str, Flow)>,
    /// The world's loads the flows follow.
    loads: Vec<Load>,
    /// The pods (`namespace/name`) whose app has stopped serving, while they exist. Whether
    /// the others' apps serve is read off the pod (its containers run).
    stopped: BTreeSet<Str>,
    /// Pods deleted that some slice kube-proxy applied still lists.
    gone: BTreeSet<Str>,
    /// Up to when the load is counted.
    counted_ms: u64,
    pub counts: Counts,
}

impl KubeProxy {
    /// The pods (`namespace/name`) kube-proxy sends requests to that no longer serve: their
    /// share of the load fails.
    pub fn dropping(&self) -> Vec<Str> {
        let mut out: Vec<Str> = vec![];
        for (_, flow) in self.flows.iter().filter(|(_, f)| f.begun) {
            let routed = flow.routed();
            let hit = self.stopped.iter().chain(&self.gone);
            out.extend(hit.filter(|p| routed.contains_key(*p)).cloned());
        }
        crate::api::sort::sort(&mut out);
        out.dedup();
        out
    }

    /// Whether any load runs.
    pub fn active(&self) -> bool {
        !self.flows.is_empty()
    }

    /// The counts so far, in whole requests.
    pub fn view(&self) -> crate::cluster::trace::TrafficView {
        let c = &self.counts;
        let (stopped, none) = (c.stopped.round() as u64, c.no_endpoint.round() as u64);
        crate::cluster::trace::TrafficView {
            served: c.served.round() as u64,
            failed: stopped + none,
            failed_stopped: stopped,
            failed_no_endpoint: none,
        }
    }

    /// Counts the load from where it was counted up to `now`, by the state that held since.
    pub fn count_until(&mut self, now: u64) {
        let from = self.counted_ms;
        if now <= from {
            return;
        }
        self.counted_ms = now;
        for (_, flow) in &self.flows {
            if !flow.begun {
                continue;
            }
            let sent = f64::from(flow.rps) * (now - from) as f64 / 1000.0;
            let t = flow.in_use();
            if t.endpoints == 0 {
                self.counts.no_endpoint += sent;
            } else {
                let failed = sent * t.stopped as f64 / t.endpoints as f64;
                self.counts.served += sent - failed;
                self.counts.stopped += failed;
            }
        }
    }

    /// Sets the loads a world asks for (a Service's load keeps what kube-proxy has seen).
    fn follow(&mut self, world: &World) {
        // (Asked at every event: the loads as last followed, compared without a key built.)
        if self.loads == world.traffic {
            return;
        }
        self.loads = world.traffic.clone();
        let mut flows = std::mem::take(&mut self.flows);
        for l in &world.traffic {
            let key = l.key();
            let flow = match flows.iter().position(|(k, _)| *k == key) {
                Some(i) => flows.swap_remove(i).1,
                None => Flow::default(),
            };
            self.flows.push((key, Flow { rps: l.rps, ..flow }));
        }
    }

    /// Whether the app of pod `key` (as the store has it) serves.
    fn serves(&self, key: &Str, pod: Option<&Pod>) -> bool {
        pod.is_some_and(running) && !self.stopped.contains(key)
    }

    /// Pod `key`'s app began or ceased to serve: the tallies that point at it follow.
    fn set_serving(&mut self, key: &Str, was: bool, now: bool) {
        if was == now {
            return;
        }
        let d = if now { -1 } else { 1 };
        for (_, flow) in &mut self.flows {
            let refs = |which: usize| i64::from(flow.refs[which].get(key).copied().unwrap_or(0));
            let (r, f) = (refs(0), refs(1));
            flow.ready.stopped += d * r;
            flow.fallback.stopped += d * f;
        }
    }

    fn saw_pod<D: From<Step>>(&mut self, cx: &mut Cx<'_, D>, world: &World, ev: WatchRef<'_>) {
        match ev {
            WatchRef::Added(Object::Pod(p)) => {
                let key = p.metadata.key();
                let now = self.serves(&key, Some(p));
                self.set_serving(&key, false, now);
            }
            WatchRef::Modified {
                old: Object::Pod(o),
                new: Object::Pod(n),
            } => {
                let key = n.metadata.key();
                let (was, now) = (self.serves(&key, Some(o)), self.serves(&key, Some(n)));
                self.set_serving(&key, was, now);
                if o.metadata.deletion_timestamp.is_none()
                    && n.metadata.deletion_timestamp.is_some()
                {
                    // The app serves through its preStop hook and `servingMs` past SIGTERM.
                    let stop = Stop::of(n, world);
                    let image = n.spec.containers.first().map_or("", |c| c.image.as_str());
                    let after = (stop.hook_ms + world.serving_ms(image)).min(stop.ms());
                    let at = cx.now_ms() + after;
                    cx.at(at, key, n.metadata.uid.clone(), Step::StopsServing);
                }
            }
            WatchRef::Deleted(Object::Pod(p)) => {
                let key = p.metadata.key();
                let was = self.serves(&key, Some(p));
                self.stopped.remove(&key);
                if self.flows.iter().any(|(_, f)| f.refers_to(&key)) {
                    self.gone.insert(key.clone());
                }
                self.set_serving(&key, was, false);
            }
            _ => {}
        }
    }

    /// A slice of a loaded Service changed: kube-proxy applies it `endpointDelayMs` later.
    fn saw_slice<D: From<Step>>(&mut self, cx: &mut Cx<'_, D>, world: &World, ev: WatchRef<'_>) {
        let (slice, gone) = match ev {
            WatchRef::Added(Object::EndpointSlice(s))
            | WatchRef::Modified {
                new: Object::EndpointSlice(s),
                ..
            } => (s, false),
            WatchRef::Deleted(Object::EndpointSlice(s)) => (s, true),
            _ => return,
        };
        let Some(service) = slice.metadata.labels.get(SERVICE_NAME_LABEL) else {
            return;
        };
        let key = key_of(&slice.metadata.namespace, service);
        if !self.flows.iter().any(|(k, _)| *k == key) {
            return;
        }
        let seen = (!gone).then(|| Rc::new(Seen::of(slice)));
        let at = cx.now_ms() + world.endpoint_delay_ms;
        cx.at(at, key, slice.metadata.name.clone(), Step::Apply(seen));
    }

    /// kube-proxy applies a slice (`name`) of Service `key`.
    fn apply(&mut self, store: &Store, key: &Str, name: &Str, seen: Option<Rc<Vec<Seen>>>) {
        let Some(at) = self.flows.iter().position(|(k, _)| k == key) else {
            return;
        };
        let mut flow = std::mem::take(&mut self.flows[at].1);
        let serves = |pod: &Str| self.serves(pod, store.pod(pod));
        let mut dropped = None;
        if let Some(i) = flow.seen.iter().position(|(n, _)| n == name) {
            let (_, old) = flow.seen.swap_remove(i);
            flow.count(&old, -1, &serves);
            dropped = Some(old);
        }
        if let Some(new) = seen {
            flow.count(&new, 1, &serves);
            flow.seen.push((name.clone(), new));
        }
        // A deleted pod is forgotten once no slice kube-proxy applied lists it any more: only
        // the endpoints the old slice had can have been the last.
        for e in dropped.iter().flat_map(|old| old.iter()) {
            let listed =
                || flow.refers_to(&e.pod) || self.flows.iter().any(|(_, f)| f.refers_to(&e.pod));
            if self.gone.contains(&e.pod) && !listed() {
                self.gone.remove(&e.pod);
            }
        }
        flow.begun |= flow.in_use().endpoints > 0;
        self.flows[at].1 = flow;
    }
}

/// Whether a pod's app runs: the pod is Running with its containers started.
fn running(p: &Pod) -> bool {
    p.status.phase == PHASE_RUNNING
        && !p.status.container_statuses.is_empty()
        && p.status
            .container_statuses
            .iter()
            .all(|c| c.state.running.is_some())
}

impl<D: From<Step>> Actor<D, World> for KubeProxy {
    type Step = Step;

    fn saw(&mut self, cx: &mut Cx<'_, D>, env: &Env<'_, World>, ev: &WatchEvent) {
        if env.world.traffic.is_empty() && self.flows.is_empty() {
            return;
        }
        self.count_until(cx.now_ms());
        self.follow(env.world);
        let (WatchRef::Added(o) | WatchRef::Modified { new: o, .. } | WatchRef::Deleted(o)) =
            ev.view();
        match o.kind() {
            Kind::Pod => self.saw_pod(cx, env.world, ev.view()),
            Kind::EndpointSlice => self.saw_slice(cx, env.world, ev.view()),
            _ => {}
        }
    }

    fn timer(
        &mut self,
        cx: &mut Cx<'_, D>,
        env: &Env<'_, World>,
        key: &Str,
        uid: &Str,
        step: Step,
    ) -> Option<String> {
        self.count_until(cx.now_ms());
        self.follow(env.world);
        match step {
            Step::Apply(seen) => {
                let what = env.describe.then(|| {
                    let n = seen
                        .as_ref()
                        .map_or(0, |s| s.iter().filter(|e| e.ready).count());
                    format!("kube-proxy: Service {key} routes by {uid} ({n} ready)")
                });
                self.apply(cx.store, key, uid, seen);
                what
            }
            Step::StopsServing => {
                let pod = cx.store.pod(key)?;
                let was = self.serves(key, Some(pod));
                self.stopped.insert(key.clone());
                self.set_serving(key, was, false);
                env.describe.then(|| format!("{key}'s app stops serving"))
            }
        }
    }
}
