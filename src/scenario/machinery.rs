//! The machinery: each step as the messages that pass between the parts of a cluster, the
//! chain seed 003 walks through ("what happens after you create a Deployment"): kubectl writes
//! to the apiserver; the apiserver's watch event reaches an informer, whose handler queues a
//! key; a controller's worker takes the key, syncs, and writes; the scheduler binds pods and
//! the kubelets report them running and ready; the EndpointSlice controller writes a Service's
//! slices and kube-proxy applies them. The page draws these as lanes; this module says what
//! each step's messages are.

use crate::apiserver::queue::Cause;
use crate::cluster::trace::{ActionStep, Body, Controller, SyncStep, TraceStep};

/// A part of the cluster, in the order the page draws the lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lane {
    Kubectl,
    Apiserver,
    Informers,
    Queues,
    Deployment,
    ReplicaSet,
    GarbageCollector,
    Disruption,
    EndpointSlice,
    Scheduler,
    Kubelet,
    KubeProxy,
}

impl Lane {
    pub const ALL: [Lane; 12] = [
        Lane::Kubectl,
        Lane::Apiserver,
        Lane::Informers,
        Lane::Queues,
        Lane::Deployment,
        Lane::ReplicaSet,
        Lane::GarbageCollector,
        Lane::Disruption,
        Lane::EndpointSlice,
        Lane::Scheduler,
        Lane::Kubelet,
        Lane::KubeProxy,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Lane::Kubectl => "kubectl",
            Lane::Apiserver => "apiserver",
            Lane::Informers => "informers",
            Lane::Queues => "work queues",
            Lane::Deployment => "deployment controller",
            Lane::ReplicaSet => "replicaset controller",
            Lane::GarbageCollector => "garbage collector",
            Lane::Disruption => "disruption controller",
            Lane::EndpointSlice => "endpointslice controller",
            Lane::Scheduler => "scheduler",
            Lane::Kubelet => "kubelet",
            Lane::KubeProxy => "kube-proxy",
        }
    }

    /// The lane's heading in the drawing (its name is in the legend).
    pub fn short(self) -> &'static str {
        match self {
            Lane::Kubectl => "kc",
            Lane::Apiserver => "api",
            Lane::Informers => "inf",
            Lane::Queues => "wq",
            Lane::Deployment => "dc",
            Lane::ReplicaSet => "rsc",
            Lane::GarbageCollector => "gc",
            Lane::Disruption => "pdb",
            Lane::EndpointSlice => "eps",
            Lane::Scheduler => "sch",
            Lane::Kubelet => "kl",
            Lane::KubeProxy => "kp",
        }
    }

    fn of(c: Controller) -> Lane {
        match c {
            Controller::Deployment => Lane::Deployment,
            Controller::ReplicaSet => Lane::ReplicaSet,
            Controller::GarbageCollector => Lane::GarbageCollector,
        }
    }
}

/// What a message is, for its look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// A client call that changes the store.
    Write,
    /// A write the apiserver refused.
    Refused,
    /// A watch event, a handler's enqueue, a worker taking its key.
    Notify,
    /// What a part did or holds, on its own lane (`from == to`).
    Note,
}

/// One message: `from` → `to` (the same lane for a note).
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub from: Lane,
    pub to: Lane,
    pub flow: Flow,
    pub text: String,
}

impl Message {
    fn new(from: Lane, to: Lane, flow: Flow, text: impl Into<String>) -> Message {
        Message {
            from,
            to,
            flow,
            text: text.into(),
        }
    }
}

/// The messages of step `s`.
pub fn messages(s: &TraceStep) -> Vec<Message> {
    match &s.body {
        Body::Action(a) => action(a),
        Body::Sync(y) => sync(y),
        Body::World(changes) => world(changes),
    }
}

fn action(s: &ActionStep) -> Vec<Message> {
    let Some(cmd) = &s.command else {
        return vec![];
    };
    let mut out = vec![Message::new(
        Lane::Kubectl,
        Lane::Apiserver,
        Flow::Write,
        cmd.clone(),
    )];
    out.extend(
        s.errors
            .iter()
            .map(|e| Message::new(Lane::Apiserver, Lane::Kubectl, Flow::Refused, e.clone())),
    );
    out
}

fn sync(s: &SyncStep) -> Vec<Message> {
    let c = s.controller;
    let lane = Lane::of(c);
    let key = &s.key;
    let mut out = cause(s, c, key);
    out.push(Message::new(
        Lane::Queues,
        lane,
        Flow::Notify,
        format!("a worker takes {key}: {}", handler_of(c)),
    ));
    out.extend(bookkeeping(s, lane));
    out.extend(writes(s, lane));
    out
}

/// How the key came to be taken: the watch event and the handler that queued it, or the
/// requeue.
fn cause(s: &SyncStep, c: Controller, key: &str) -> Vec<Message> {
    let mut out = vec![];
    match &s.cause {
        Some(Cause::Event {
            event,
            kind,
            object,
            handler,
        }) => {
            out.push(Message::new(
                Lane::Apiserver,
                Lane::Informers,
                Flow::Notify,
                format!("watch: {event} {} {object}", kind.as_str()),
            ));
            out.push(Message::new(
                Lane::Informers,
                Lane::Queues,
                Flow::Notify,
                format!("{handler}: add {key} to the {} queue", c.as_str()),
            ));
        }
        Some(Cause::After { delay_ms }) => out.push(Message::new(
            Lane::Queues,
            Lane::Queues,
            Flow::Note,
            format!(
                "{key} due after {:.1} s (AddAfter)",
                *delay_ms as f64 / 1000.0
            ),
        )),
        Some(Cause::RateLimited { delay_ms }) => out.push(Message::new(
            Lane::Queues,
            Lane::Queues,
            Flow::Note,
            format!(
                "{key} retried after {:.3} s (AddRateLimited)",
                *delay_ms as f64 / 1000.0
            ),
        )),
        None => {}
    }
    out
}

/// The ReplicaSet controller's own bookkeeping: its expectations, the slow-start batches it
/// created pods in, the pod its ranking deleted first.
fn bookkeeping(s: &SyncStep, lane: Lane) -> Vec<Message> {
    let mut out = vec![];
    if let Some(e) = &s.expectations {
        out.push(Message::new(
            lane,
            lane,
            Flow::Note,
            format!(
                "expectations: add {}, del {} ({}) → add {}, del {}",
                e.before.add,
                e.before.del,
                if e.before.satisfied {
                    "satisfied: it may act"
                } else {
                    "not satisfied: it waits"
                },
                e.after.add,
                e.after.del
            ),
        ));
    }
    if !s.batches.is_empty() {
        let sizes: Vec<String> = s.batches.iter().map(usize::to_string).collect();
        out.push(Message::new(
            lane,
            lane,
            Flow::Note,
            format!("slow-start batches {}", sizes.join(", ")),
        ));
    }
    if let Some(first) = s.deletions.first() {
        out.push(Message::new(
            lane,
            lane,
            Flow::Note,
            format!(
                "ranks its pods: {} deleted first (of {})",
                first.pod,
                s.deletions.len()
            ),
        ));
    }
    out
}

/// The function a controller's worker hands a key to.
fn handler_of(c: Controller) -> &'static str {
    match c {
        Controller::Deployment => "syncDeployment",
        Controller::ReplicaSet => "syncReplicaSet",
        Controller::GarbageCollector => "attemptToDeleteItem",
    }
}

/// A sync's writes, a run of the same call on one resource told once (`create pods ×10:
/// web-…-a, web-…-b, …`).
fn writes(s: &SyncStep, lane: Lane) -> Vec<Message> {
    let mut out: Vec<Message> = vec![];
    let mut run: Vec<&str> = vec![];
    let flush =
        |out: &mut Vec<Message>, run: &mut Vec<&str>, w: &crate::controller::calls::Write| {
            if run.is_empty() {
                return;
            }
            let text = if run.len() == 1 {
                super::code::write_text(w)
            } else {
                let shown: Vec<&str> = run.iter().take(3).copied().collect();
                let more = if run.len() > 3 { ", …" } else { "" };
                format!(
                    "{} {} ×{}: {}{more}",
                    w.verb,
                    crate::controller::calls::resource_text(w.resource),
                    run.len(),
                    shown.join(", ")
                )
            };
            out.push(Message::new(lane, Lane::Apiserver, Flow::Write, text));
            run.clear();
        };
    for (i, w) in s.writes.iter().enumerate() {
        if w.refused.is_some() {
            flush(&mut out, &mut run, w);
            out.push(Message::new(
                lane,
                Lane::Apiserver,
                Flow::Refused,
                super::code::write_text(w),
            ));
            continue;
        }
        run.push(&w.name);
        let same_next = s
            .writes
            .get(i + 1)
            .is_some_and(|n| n.refused.is_none() && n.verb == w.verb && n.resource == w.resource);
        if !same_next {
            flush(&mut out, &mut run, w);
        }
    }
    out
}

/// A World step's line told as it is: the disruption controller's status writes, a drain's
/// evictions, an EndpointSlice's write and kube-proxy applying it, an app that stops serving.
fn as_told(c: &str) -> Option<Message> {
    // The disruption controller's status writes, and a drain's evictions, told as they are.
    if c.starts_with("PodDisruptionBudget ") {
        return Some(Message::new(
            Lane::Disruption,
            Lane::Apiserver,
            Flow::Write,
            c,
        ));
    }
    // An endpoint's path: the EndpointSlice controller writes the slice, and kube-proxy
    // applies what it watched endpointDelayMs later.
    if let Some(what) = c.strip_prefix("endpointslice-controller: ") {
        return Some(Message::new(
            Lane::EndpointSlice,
            Lane::Apiserver,
            Flow::Write,
            what,
        ));
    }
    if let Some(what) = c.strip_prefix("kube-proxy: ") {
        return Some(Message::new(
            Lane::Apiserver,
            Lane::KubeProxy,
            Flow::Notify,
            what,
        ));
    }
    if c.ends_with("'s app stops serving") {
        return Some(Message::new(Lane::Kubelet, Lane::Kubelet, Flow::Note, c));
    }
    if let Some(what) = c.strip_prefix("kubectl drain: ") {
        let flow = if what.contains("refused") {
            Flow::Refused
        } else {
            Flow::Write
        };
        return Some(Message::new(Lane::Kubectl, Lane::Apiserver, flow, what));
    }
    None
}

fn world(changes: &[String]) -> Vec<Message> {
    // The scheduler binds; the kubelets report what their pods did. Runs of one kind are
    // told once.
    let mut groups: Vec<(Lane, &str, Vec<&str>)> = vec![];
    let mut out = vec![];
    for c in changes {
        if let Some(m) = as_told(c) {
            out.push(m);
            continue;
        }
        let (lane, what, pod) = if let Some((pod, node)) = c.split_once(" scheduled to ") {
            (Lane::Scheduler, node, pod)
        } else if let Some((pod, state)) = c.split_once(" is ") {
            (Lane::Kubelet, state, pod)
        } else {
            (Lane::Kubelet, c.as_str(), "")
        };
        match groups.last_mut() {
            Some((l, w, pods)) if *l == lane && (lane == Lane::Scheduler || *w == what) => {
                pods.push(pod)
            }
            _ => groups.push((lane, what, vec![pod])),
        }
    }
    groups
        .into_iter()
        .map(|(lane, what, pods)| {
            let shown: Vec<&str> = pods.iter().take(3).copied().collect();
            let more = if pods.len() > 3 { ", …" } else { "" };
            let n = pods.len();
            let text = match lane {
                Lane::Scheduler if n == 1 => format!("bind {} to {what}", pods[0]),
                Lane::Scheduler => format!("bind {n} pods: {}{more}", shown.join(", ")),
                _ if pods[0].is_empty() => what.to_string(),
                _ if n == 1 => format!("pod {} is {what}", pods[0]),
                _ => format!("{n} pods are {what}: {}{more}", shown.join(", ")),
            };
            Message::new(lane, Lane::Apiserver, Flow::Write, text)
        })
        .chain(out)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    /// Seed 003's chain: a new Deployment, from its creation to its first Ready pod, passes
    /// through every lane in order.
    #[test]
    fn a_new_deployment_reaches_a_ready_pod_through_every_part_of_the_machine() {
        let text = "name: chain\nobjects: []\nsteps:\n  - at: 1s\n    run: |\n      kubectl create deployment web --image=nginx:1.27 --replicas=2\nuntil: settled\n";
        let trace = Scenario::parse(text).unwrap().run().unwrap();
        let msgs: Vec<Message> = trace.iter().flat_map(messages).collect();
        let first = |pred: &dyn Fn(&Message) -> bool| msgs.iter().position(pred);
        let created = first(&|m| m.from == Lane::Kubectl && m.text.contains("create deployment"))
            .expect("kubectl writes");
        let watched =
            first(&|m| m.to == Lane::Informers && m.text == "watch: ADDED Deployment default/web")
                .unwrap();
        let queued = first(&|m| m.text.starts_with("addDeployment: add default/web")).unwrap();
        let taken = first(&|m| m.from == Lane::Queues && m.to == Lane::Deployment).unwrap();
        let rs =
            first(&|m| m.from == Lane::Deployment && m.text.starts_with("create replicasets web-"))
                .unwrap();
        let pods =
            first(&|m| m.from == Lane::ReplicaSet && m.text.starts_with("create pods ×2: web-"))
                .unwrap();
        let bound = first(&|m| m.from == Lane::Scheduler).unwrap();
        let ready = first(&|m| m.from == Lane::Kubelet && m.text.contains("Ready")).unwrap();
        let order = [created, watched, queued, taken, rs, pods, bound, ready];
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
        assert!(msgs.iter().any(|m| m.from == Lane::ReplicaSet
            && m.text.starts_with("expectations: add 0, del 0 (satisfied")));
    }

    /// Issue 48: an endpoint's path, pod Ready → the EndpointSlice controller's write →
    /// kube-proxy applying it, in that order, each on its lane.
    #[test]
    fn a_ready_pod_reaches_kube_proxy_through_the_endpointslice_controller() {
        let text = crate::scenario::gallery::GALLERY
            .iter()
            .find(|(n, _)| *n == "max-surge-zero-no-endpoint")
            .unwrap()
            .1;
        let trace = Scenario::parse(text).unwrap().run().unwrap();
        let msgs: Vec<Message> = trace.iter().flat_map(messages).collect();
        let first = |pred: &dyn Fn(&Message) -> bool| msgs.iter().position(pred);
        let ready = first(&|m| m.from == Lane::Kubelet && m.text.contains("Ready")).unwrap();
        let written = first(&|m| {
            m.from == Lane::EndpointSlice
                && m.to == Lane::Apiserver
                && m.text.contains("1 endpoints, 1 ready")
        })
        .unwrap();
        let applied = first(&|m| {
            m.from == Lane::Apiserver && m.to == Lane::KubeProxy && m.text.contains("(1 ready)")
        })
        .unwrap();
        assert!(
            ready < written && written < applied,
            "{ready} {written} {applied}"
        );
        assert!(msgs.iter().any(|m| m.from == Lane::Kubelet
            && m.to == Lane::Kubelet
            && m.text.ends_with("'s app stops serving")));
    }
}
