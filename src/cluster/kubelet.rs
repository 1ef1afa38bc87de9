//! The kubelets on the virtual clock: a pod the scheduler bound (`scheduleMs` after its
//! creation, [`super::scheduler`]) has its container started `startMs` later (or fails to
//! pull, or crash-loops), it turns Ready `readyMs` after that, and a deleted pod is stopped as
//! `killContainer` stops it ([`Stop`]): its preStop hook, then SIGTERM, after which the app
//! exits `terminationMs` later (or is killed when the grace period left runs out).

use crate::api::*;
use crate::apiserver::events::{EventRecorder, EventType, Involved};
use crate::apiserver::store::Store;
use crate::apiserver::store::{WatchEvent, WatchRef};
use crate::controller::actor::{Actor, Cx, Env};
use serde::{Deserialize, Serialize};

/// The world's settings, declared once: each field's type, default, spelling in a scenario file
/// and when it may change (`step`: a step's `world:` may set it; `run`: the run's, set before it
/// starts, as Compare's variants do; `keyed`: a map set key by key, `world.featureGates.NAME`).
/// From this come [`World`], [`WorldPatch`] (the `step` ones, optional), [`World::apply`] and
/// the names a variant may set ([`World::FIELDS`], [`World::KEYED`]).
macro_rules! world {
    ($( $(#[$attr:meta])* $field:ident: $ty:ty = $default:expr, $name:literal, $when:ident; )*) => {
        /// The world a scenario runs in (pod timings, nodes, broken images). As the scenario
        /// file's `world:`, every field is optional and unknown ones are refused.
        #[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct World {
            $( $(#[$attr])* #[serde(rename = $name)] pub $field: $ty, )*
        }

        impl Default for World {
            fn default() -> Self {
                World { $( $field: $default, )* }
            }
        }

        world!(@split [] [] [] $( $field: $ty, $name, $when; )*);
    };
    (@split [$($p:tt)*] [$($n:tt)*] [$($k:tt)*] $field:ident: $ty:ty, $name:literal, step; $($rest:tt)*) => {
        world!(@split [$($p)* $field: $ty, $name;] [$($n)* $name,] [$($k)*] $($rest)*);
    };
    (@split [$($p:tt)*] [$($n:tt)*] [$($k:tt)*] $field:ident: $ty:ty, $name:literal, run; $($rest:tt)*) => {
        world!(@split [$($p)*] [$($n)* $name,] [$($k)*] $($rest)*);
    };
    (@split [$($p:tt)*] [$($n:tt)*] [$($k:tt)*] $field:ident: $ty:ty, $name:literal, keyed; $($rest:tt)*) => {
        world!(@split [$($p)*] [$($n)*] [$($k)* $name,] $($rest)*);
    };
    (@split [$($field:ident: $ty:ty, $name:literal;)*] [$($n:literal,)*] [$($k:literal,)*]) => {
        /// A step's `world:`: any of the world's `step` fields, taking effect from that instant
        /// (pods already running keep their state; what the kubelet does next follows the new
        /// world).
        #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
        #[serde(deny_unknown_fields)]
        pub struct WorldPatch {
            $(
                #[serde(rename = $name, skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
        }

        impl World {
            /// The settings a variant sets whole (`world.readyMs`), as a scenario file spells
            /// them.
            pub const FIELDS: &[&str] = &[$($n),*];
            /// The settings a variant sets key by key (`world.featureGates.NAME`).
            pub const KEYED: &[&str] = &[$($k),*];

            /// The world with a step's changes.
            pub fn apply(&mut self, p: &WorldPatch) {
                $(
                    if let Some(v) = &p.$field {
                        self.$field.clone_from(v);
                    }
                )*
            }
        }
    };
}

world! {
    schedule_ms: u64 = 0, "scheduleMs", step;
    start_ms: u64 = 2000, "startMs", step;
    ready_ms: u64 = 1000, "readyMs", step;
    termination_ms: u64 = 1000, "terminationMs", step;
    use_grace_period: bool = false, "useGracePeriod", step;
    /// How many Nodes the world registers (`node-1` … `node-<nodes>`) when the scenario's
    /// objects hold none ([`super::nodes`]).
    nodes: u32 = 3, "nodes", step;
    /// The registered Nodes' capacity by resource (`{cpu: "4", memory: 16Gi, pods: "110"}`);
    /// a resource it does not name has room for every pod ([`super::nodes::ROOMY`]).
    #[serde(
        skip_serializing_if = "std::collections::BTreeMap::is_empty",
        deserialize_with = "super::nodes::quantities"
    )]
    node_capacity: std::collections::BTreeMap<String, String> = Default::default(), "nodeCapacity", keyed;
    failing_images: Vec<String> = vec![], "failingImages", step;
    crashing_images: Vec<String> = vec![], "crashingImages", step;
    /// Images whose containers fail their readiness probe while listed (a container without
    /// a readiness probe is ready while it runs, as the kubelet has nothing to ask).
    unready_images: Vec<String> = vec![], "unreadyImages", step;
    /// Nodes (`v1` Node objects, by name) whose kubelet has stopped reporting while they are
    /// listed: the node lifecycle controller marks them Unknown and taints them, and their
    /// pods are evicted after their toleration (300 s by default).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    nodes_down: Vec<String> = vec![], "nodesDown", step;
    /// How long each image's app takes to exit after SIGTERM, where it is not
    /// `terminationMs` (`[{image: "app:2", exitMs: 8000}]`, globs as `failingImages`; the
    /// first that matches).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    shutdown: Vec<Shutdown> = vec![], "shutdown", step;
    /// A load on Services (`[{service: web, rps: 200}]`), which kube-proxy routes among the
    /// endpoints it has seen ([`super::traffic`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    traffic: Vec<Load> = vec![], "traffic", step;
    /// How long after an EndpointSlice changed kube-proxy routes by it (its sync, at most once
    /// per `minSyncPeriod`, 1 s by default).
    endpoint_delay_ms: u64 = 1000, "endpointDelayMs", step;
    /// The Kubernetes release the controllers reproduce (`kubernetes: "1.33"`; the newest by
    /// default). The cluster's, for the whole run: a step cannot change it.
    kubernetes: crate::controller::release::Release = Default::default(), "kubernetes", run;
    /// Feature gates set against the release's defaults
    /// (`featureGates: {DeploymentReplicaSetTerminatingReplicas: false}`).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    feature_gates: std::collections::BTreeMap<String, bool> = Default::default(), "featureGates", keyed;
}

impl World {
    /// The controllers' gates for this world's release and settings; a gate the release does
    /// not have, or one set against its lock, is refused naming it.
    pub fn gates(&self) -> Result<crate::controller::FeatureGates, String> {
        self.kubernetes.gates(&self.feature_gates)
    }
}

/// An image's app after SIGTERM (`world.shutdown`).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Shutdown {
    /// The image, or a glob of images (`app:*`).
    pub image: String,
    /// From SIGTERM to the app's exit.
    pub exit_ms: u64,
    /// From SIGTERM to the app's refusing requests (0: it stops serving at SIGTERM); never
    /// past its exit.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub serving_ms: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A load on a Service (`world.traffic`'s entries).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Load {
    /// The Service's name (`namespace/name` for one outside `default`).
    pub service: String,
    /// Requests per second, spread evenly over time.
    pub rps: u32,
}

impl Load {
    /// The Service's `namespace/name`.
    pub fn key(&self) -> Str {
        match self.service.split_once('/') {
            Some(_) => self.service.as_str().into(),
            None => key_of("default", &self.service),
        }
    }
}

/// `*` matches any run of characters; everything else literally.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == b'*' {
        pi += 1;
    }
    pi == p.len()
}

impl World {
    /// How long an app of `image` takes to exit after SIGTERM.
    pub fn exit_ms(&self, image: &str) -> u64 {
        self.shutdown
            .iter()
            .find(|s| glob_match(&s.image, image))
            .map_or(self.termination_ms, |s| s.exit_ms)
    }

    /// How long an app of `image` goes on serving after SIGTERM (not past its exit).
    pub fn serving_ms(&self, image: &str) -> u64 {
        self.shutdown
            .iter()
            .find(|s| glob_match(&s.image, image))
            .map_or(0, |s| s.serving_ms.min(s.exit_ms))
    }

    pub fn image_fails(&self, image: &str) -> bool {
        self.failing_images.iter().any(|g| glob_match(g, image))
    }
    pub fn image_crashes(&self, image: &str) -> bool {
        self.crashing_images.iter().any(|g| glob_match(g, image))
    }
    /// Whether a container of this image fails its readiness probe now.
    pub fn image_unready(&self, image: &str) -> bool {
        self.unready_images.iter().any(|g| glob_match(g, image))
    }
}

/// A kubelet/scheduler action due at some instant.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PodStep {
    Start,
    Ready,
    /// The kubelet backs off after the n-th failed pull of the image.
    PullBackOff(u32),
    /// The kubelet pulls the image again after the n-th back-off.
    PullRetry(u32),
    Crash,
    Restart,
    /// The readiness probe fails for the n-th time in a row (at `failureThreshold`, the pod is
    /// not Ready).
    ProbeFailed(u32),
    /// The pod's containers have stopped, as the kubelet decided when its deletion began.
    Gone(Stop),
}

/// The kubelet's back-off after the n-th failure (image pulls, container restarts): 10 s,
/// doubling, at most 5 minutes.
fn back_off_ms(n: u32) -> u64 {
    (10_000u64 << n.saturating_sub(1).min(5)).min(300_000)
}

/// What happened, in words, for the trace (empty when nobody records it).
pub type Happening = String;

/// What follows a lifecycle step: after how many milliseconds, which step.
pub type Next = Option<(u64, PodStep)>;

/// The kubelets as one pod step sees them: the store, the event recorder, the world's
/// timings and nodes.
pub struct Kubelet<'a> {
    pub store: &'a mut Store,
    pub rec: &'a mut EventRecorder,
    pub world: &'a World,
    /// Whether the step's description is wanted (it is spelled only when a trace is kept).
    pub describe: bool,
    pub ips: &'a mut Ipam,
}

/// The kubelets as an actor: a pod's state is in the store, so each watch event and each pod
/// step is read against the world; what they keep is the addresses they hand out.
#[derive(Clone, Debug, Default)]
pub struct Kubelets {
    ips: Ipam,
}

/// Pod addresses, as the network plugin hands them out on each node: node `i` (in the order
/// the kubelets first started a pod on it) has `10.<i+1>.0.0/16`, and its pods take the next
/// address of it (from `.0.2`), the range starting over when it runs out, as a plugin reuses
/// the addresses of pods long gone.
#[derive(Clone, Debug, Default)]
pub struct Ipam {
    nodes: std::collections::BTreeMap<Str, (u8, u16)>,
}

impl Ipam {
    /// The next address on `node`.
    pub fn next(&mut self, node: &Str) -> std::net::Ipv4Addr {
        let count = self.nodes.len();
        let (i, next) = self
            .nodes
            .entry(node.clone())
            .or_insert(((count % 254) as u8 + 1, 2));
        let host = *next;
        *next = if host >= 0xfffe { 2 } else { host + 1 };
        std::net::Ipv4Addr::new(10, *i, (host >> 8) as u8, host as u8)
    }
}

impl<D: From<PodStep>> Actor<D, World> for Kubelets {
    type Step = PodStep;
    const POD_STEPS: bool = true;

    fn saw(&mut self, cx: &mut Cx<'_, D>, env: &Env<'_, World>, ev: &WatchEvent) {
        saw(cx, env.world, ev);
    }

    /// The step, and the one that follows it on the agenda.
    fn timer(
        &mut self,
        cx: &mut Cx<'_, D>,
        env: &Env<'_, World>,
        key: &Str,
        uid: &Str,
        step: PodStep,
    ) -> Option<String> {
        let mut kubelet = Kubelet {
            store: &mut *cx.store,
            rec: &mut *cx.events,
            world: env.world,
            describe: env.describe,
            ips: &mut self.ips,
        };
        let (what, next) = kubelet.apply(key, uid, step)?;
        cx.then(key, uid, next);
        Some(what)
    }
}

/// The pod a timer about `key` (`uid`) is for, if a kubelet may act on it: still that pod,
/// and not on a node whose kubelet is down (`world.nodesDown`), which does nothing for its
/// pods.
pub fn pod_for_step<'s>(store: &'s Store, world: &World, key: &str, uid: &str) -> Option<&'s Pod> {
    let pod = store.pod(key).filter(|p| p.metadata.uid == uid)?;
    let down = |n: &String| *n == *pod.spec.node_name;
    if !pod.spec.node_name.is_empty() && world.nodes_down.iter().any(down) {
        return None;
    }
    Some(pod)
}

impl Kubelet<'_> {
    /// Applies one lifecycle step to the pod `key` (if it is still the pod with `uid`).
    /// Returns a description (when `describe`) and the follow-up step, if any.
    pub fn apply(&mut self, key: &str, uid: &str, step: PodStep) -> Option<(Happening, Next)> {
        let pod = pod_for_step(self.store, self.world, key, uid)?;
        // The name is the key's last part: borrowed from it, not copied from the pod.
        let name = key.rsplit_once('/').map_or(key, |(_, n)| n);
        if let PodStep::Gone(stop) = step {
            self.store.remove_pod(key)?;
            let said = || match stop.words() {
                Some(how) => format!("{name} is gone: {how}"),
                None => format!("{name} is gone"),
            };
            return Some((self.say(said), None));
        }
        if pod.metadata.deletion_timestamp.is_some() {
            return None;
        }
        let mut p = pod.clone();
        let image = p
            .spec
            .containers
            .first()
            .map_or("", |c| c.image.as_str())
            .to_string();
        let (what, next) = match step {
            PodStep::Start if self.world.image_fails(&image) => {
                self.pull_failed(name, &image, &mut p, 1)
            }
            PodStep::PullRetry(n) if self.world.image_fails(&image) => {
                self.pull_failed(name, &image, &mut p, n + 1)
            }
            PodStep::PullBackOff(n) => self.pull_back_off(name, &image, &mut p, n),
            PodStep::PullRetry(_) => {
                // The registry has the image now: pulled, then started as any other.
                self.event(
                    &p.metadata,
                    EventType::Normal,
                    "Pulling",
                    format!("Pulling image \"{image}\""),
                );
                let pulled =
                    format!("Successfully pulled image \"{image}\" in 0s (0s including waiting)");
                self.event(&p.metadata, EventType::Normal, "Pulled", pulled);
                self.start(name, &image, &mut p)
            }
            PodStep::Start | PodStep::Restart => self.start(name, &image, &mut p),
            PodStep::Crash => self.crash(name, uid, &mut p),
            // A probe the world fails keeps the pod unready; when the world has it pass again,
            // the pod is made Ready then (`Cluster::apply_world`).
            PodStep::Ready if self.world.image_unready(&image) && readiness_probe(&p).is_some() => {
                return None;
            }
            PodStep::Ready => self.ready(name, &mut p),
            PodStep::ProbeFailed(_) if !self.world.image_unready(&image) || !p.is_ready() => {
                return None;
            }
            PodStep::ProbeFailed(n) => self.probe_failed(name, &mut p, n),
            PodStep::Gone(_) => unreachable!("handled above"),
        };
        self.store.update_status(Object::Pod(p)).ok()?;
        Some((what, next))
    }

    fn say(&self, text: impl FnOnce() -> String) -> Happening {
        if self.describe { text() } else { String::new() }
    }

    /// What the kubelet reports about the pod `name`.
    fn event(&mut self, m: &ObjectMeta, type_: EventType, reason: &'static str, message: String) {
        self.rec.record(
            "kubelet",
            Involved::of(Kind::Pod, m),
            type_,
            reason,
            message,
        );
    }

    /// The image cannot be pulled (the `n`-th time): ErrImagePull, then a back-off.
    fn pull_failed(&mut self, name: &str, image: &str, p: &mut Pod, n: u32) -> (Happening, Next) {
        p.status.start_time.get_or_insert(self.store.now());
        set_waiting(
            p,
            "ErrImagePull",
            &format!("failed to pull image \"{image}\""),
        );
        self.event(
            &p.metadata,
            EventType::Normal,
            "Pulling",
            format!("Pulling image \"{image}\""),
        );
        self.event(
            &p.metadata,
            EventType::Warning,
            "Failed",
            format!("Failed to pull image \"{image}\": not found"),
        );
        // Then the container's start reports why it could not (`startContainer`).
        self.event(
            &p.metadata,
            EventType::Warning,
            "Failed",
            "Error: ErrImagePull".into(),
        );
        (
            self.say(|| format!("{name} cannot pull {image}: ErrImagePull")),
            Some((5000, PodStep::PullBackOff(n))),
        )
    }

    /// ImagePullBackOff after the `n`-th failed pull; the kubelet tries again after its
    /// back-off, when the world may have the image.
    fn pull_back_off(&mut self, name: &str, image: &str, p: &mut Pod, n: u32) -> (Happening, Next) {
        set_waiting(
            p,
            "ImagePullBackOff",
            &format!("Back-off pulling image \"{image}\""),
        );
        self.event(
            &p.metadata,
            EventType::Normal,
            "BackOff",
            format!("Back-off pulling image \"{image}\""),
        );
        self.event(
            &p.metadata,
            EventType::Warning,
            "Failed",
            "Error: ImagePullBackOff".into(),
        );
        // The next pull comes a back-off after the failed one (the ImagePullBackOff shown
        // 5 s after it is part of that wait).
        (
            self.say(|| format!("{name}: ImagePullBackOff")),
            Some((
                back_off_ms(n).saturating_sub(5000).max(1),
                PodStep::PullRetry(n),
            )),
        )
    }

    /// The containers start (the image is on the node: only the world's failing images are
    /// pulled); the pod turns Ready later, or its container crashes.
    fn start(&mut self, name: &str, image: &str, p: &mut Pod) -> (Happening, Next) {
        let now = self.store.now();
        p.status.phase = PHASE_RUNNING.into();
        p.status.start_time.get_or_insert(now);
        // The sandbox's address, once (a restarted container keeps it).
        if p.ip.is_none() && !p.status.extra.contains_key("podIP") {
            p.ip = Some(self.ips.next(&p.spec.node_name));
        }
        for c in &mut p.status.container_statuses {
            c.state = ContainerState {
                running: Some(ContainerStateRunning {
                    started_at: Some(now),
                }),
                ..Default::default()
            };
            c.started = true;
        }
        p.status
            .set_condition("Initialized", ConditionStatus::True, now);
        // Not ready until the readiness probes pass (`GeneratePodReadyCondition`).
        set_not_ready(p, now);
        // As the kubelet reports each container it starts.
        for c in p.spec.containers.iter() {
            let pulled = format!("Container image \"{}\" already present on machine", c.image);
            self.event(&p.metadata, EventType::Normal, "Pulled", pulled);
            let created = format!("Created container: {}", c.name);
            self.event(&p.metadata, EventType::Normal, "Created", created);
            let started = format!("Started container {}", c.name);
            self.event(&p.metadata, EventType::Normal, "Started", started);
        }
        if self.world.image_crashes(image) {
            (
                self.say(|| format!("{name} started (its container will crash)")),
                Some((1000, PodStep::Crash)),
            )
        } else {
            (
                self.say(|| format!("{name} is Running")),
                Some((self.ready_after_ms(p), PodStep::Ready)),
            )
        }
    }

    /// The container exits: CrashLoopBackOff, restarted after the kubelet's back-off (10 s,
    /// doubling, at most 5 minutes).
    fn crash(&mut self, name: &str, uid: &str, p: &mut Pod) -> (Happening, Next) {
        let now = self.store.now();
        let restarts = p.max_restarts() + 1;
        let backoff_ms = back_off_ms(restarts.max(1) as u32);
        // The kubelet names the pod as `format.Pod` does: name_namespace(uid).
        let pod_ref = format!("{name}_{}({uid})", p.metadata.namespace);
        let container = p
            .spec
            .containers
            .first()
            .map_or("", |c| c.name.as_str())
            .to_string();
        for c in &mut p.status.container_statuses {
            c.restart_count = restarts;
            c.ready = false;
            c.started = false;
            c.last_state = ContainerState {
                terminated: Some(ContainerStateTerminated {
                    exit_code: 1,
                    reason: "Error".into(),
                    finished_at: Some(now),
                    ..Default::default()
                }),
                ..Default::default()
            };
            c.state = ContainerState {
                waiting: Some(ContainerStateWaiting {
                    reason: "CrashLoopBackOff".into(),
                    message: format!(
                        "back-off {} restarting failed container={} pod={pod_ref}",
                        crate::api::time::go_duration(backoff_ms / 1000),
                        c.name
                    )
                    .into(),
                }),
                ..Default::default()
            };
        }
        self.event(
            &p.metadata,
            EventType::Warning,
            "BackOff",
            format!("Back-off restarting failed container {container} in pod {pod_ref}"),
        );
        (
            self.say(|| format!("{name} crashed (restart {restarts}): CrashLoopBackOff")),
            Some((backoff_ms, PodStep::Restart)),
        )
    }

    /// How long after its containers start the pod turns Ready: when the last container is
    /// ready, a container with a readiness probe once the probe has passed
    /// ([`ProbeTiming::ready_after_ms`]), one without after the world's `readyMs`.
    fn ready_after_ms(&self, p: &Pod) -> u64 {
        p.spec
            .containers
            .iter()
            .map(|c| {
                c.readiness_probe()
                    .map_or(self.world.ready_ms, |probe| probe.ready_after_ms())
            })
            .max()
            .unwrap_or(self.world.ready_ms)
    }

    /// The readiness probe fails for the `n`-th time in a row: the prober's `Unhealthy` event
    /// (aggregated by the event recorder, as upstream's), and at `failureThreshold` the
    /// container and the pod are not ready; they stay so until the probe passes again. (The
    /// kubelet goes on probing, and its count of events goes on growing; here they stop there.)
    fn probe_failed(&mut self, name: &str, p: &mut Pod, n: u32) -> (Happening, Next) {
        let now = self.store.now();
        let probe = readiness_probe(p).unwrap_or_else(|| ProbeTiming::of(&serde_json::Value::Null));
        let output = p
            .spec
            .containers
            .first()
            .and_then(|c| c.extra.get("readinessProbe"))
            .map_or(String::new(), probe_failure);
        self.event(
            &p.metadata,
            EventType::Warning,
            "Unhealthy",
            format!("Readiness probe failed: {output}"),
        );
        if i64::from(n) < probe.failure_threshold {
            let period = probe.period_seconds.max(1) as u64 * 1000;
            return (
                self.say(|| format!("{name}'s readiness probe failed ({n} in a row)")),
                Some((period, PodStep::ProbeFailed(n + 1))),
            );
        }
        for c in &mut p.status.container_statuses {
            c.ready = false;
        }
        set_not_ready(p, now);
        (
            self.say(|| format!("{name} is no longer Ready (its readiness probe fails)")),
            None,
        )
    }

    /// The readiness probes pass.
    fn ready(&mut self, name: &str, p: &mut Pod) -> (Happening, Next) {
        let now = self.store.now();
        for c in &mut p.status.container_statuses {
            c.ready = true;
        }
        for type_ in ["ContainersReady", "Ready"] {
            p.status.set_condition(type_, ConditionStatus::True, now);
            if let Some(c) = p.status.conditions.iter_mut().find(|c| c.type_ == type_) {
                c.reason = Str::default();
                c.message = Str::default();
            }
        }
        (self.say(|| format!("{name} is Ready")), None)
    }
}

/// Whether a pod the kubelets were just told of is the scheduler's to bind first (one
/// neither terminating nor finished, without containers or without a node; a pod created with
/// its node named is bound already, and the scheduler's attempt passes it on).
pub fn awaits_binding(p: &Pod) -> bool {
    p.metadata.deletion_timestamp.is_none()
        && p.status.phase != PHASE_SUCCEEDED
        && p.status.phase != PHASE_FAILED
        && (p.status.container_statuses.is_empty() || p.spec.node_name.is_empty())
}

/// What a kubelet does next with a pod it has just been told of (an informer's ADDED) that
/// does not [await binding](awaits_binding): after how many milliseconds from `now`, which
/// step. A pod of a pasted cluster state goes on from where it stands: a terminating one is
/// gone when its termination ends; one creating its containers starts them; one in an image
/// pull back-off pulls again, one in CrashLoopBackOff restarts after its back-off; one running
/// but not Ready turns Ready once its probe passes; a Ready one whose probe the world fails
/// turns NotReady; a finished one stays as it is.
pub fn next_for_seen(p: &Pod, world: &World, now: Time) -> Next {
    let ms_until = |t: Time| (t.since(now) / 1_000_000).max(0) as u64;
    if let Some(deletion) = p.metadata.deletion_timestamp {
        // The deletion began a grace period before its deletionTimestamp.
        let began = deletion.plus_secs(-deletion_grace_s(p));
        let stop = Stop::of(p, world);
        let gone = began.plus_ms(stop.ms() as i64);
        return Some((ms_until(gone), PodStep::Gone(stop)));
    }
    if p.status.phase == PHASE_SUCCEEDED || p.status.phase == PHASE_FAILED {
        return None;
    }
    let status = p.status.container_statuses.first();
    let (Some(status), false) = (status, p.spec.node_name.is_empty()) else {
        return None; // the scheduler's (`awaits_binding`)
    };
    if let Some(w) = &status.state.waiting {
        return Some(match w.reason.as_str() {
            "ErrImagePull" | "ImagePullBackOff" => (back_off_ms(1) - 5000, PodStep::PullRetry(1)),
            "CrashLoopBackOff" => (
                back_off_ms(status.restart_count.max(1) as u32),
                PodStep::Restart,
            ),
            _ => (world.start_ms, PodStep::Start),
        });
    }
    let Some(running) = &status.state.running else {
        return None;
    };
    let image = p.spec.containers.first().map_or("", |c| c.image.as_str());
    let probe = readiness_probe(p);
    if p.is_ready() {
        let period = probe.filter(|_| world.image_unready(image))?.period_seconds;
        return Some((period.max(1) as u64 * 1000, PodStep::ProbeFailed(1)));
    }
    let after = probe.map_or(world.ready_ms, |probe| probe.ready_after_ms());
    let started = running.started_at.unwrap_or(now);
    Some((ms_until(started.plus_ms(after as i64)), PodStep::Ready))
}

/// The first container's readiness probe, with its numbers (the pod's image is that
/// container's).
pub fn readiness_probe(p: &Pod) -> Option<ProbeTiming> {
    p.spec.containers.first().and_then(|c| c.readiness_probe())
}

/// What a failing probe says, as the prober words it for its kind: an HTTP check answered
/// 503 (the world's "not ready"), a refused connection, or an exec check that exits 1 with
/// nothing printed.
fn probe_failure(probe: &serde_json::Value) -> String {
    if probe.get("httpGet").is_some() {
        "HTTP probe failed with statuscode: 503".into()
    } else if let Some(t) = probe.get("tcpSocket") {
        let port = t.get("port").map_or(String::new(), |p| match p {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        format!("dial tcp :{port}: connect: connection refused")
    } else if probe.get("grpc").is_some() {
        "service unhealthy (responded with \"NOT_SERVING\")".into()
    } else {
        String::new()
    }
}

/// The pod's ContainersReady and Ready conditions false, as `GeneratePodReadyCondition` words
/// them: `ContainersNotReady`, naming the containers not ready.
fn set_not_ready(p: &mut Pod, now: Time) {
    let unready: Vec<&str> = p.spec.containers.iter().map(|c| c.name.as_str()).collect();
    let why = format!("containers with unready status: [{}]", unready.join(" "));
    for type_ in ["ContainersReady", "Ready"] {
        p.status.set_condition(type_, ConditionStatus::False, now);
        if let Some(c) = p.status.conditions.iter_mut().find(|c| c.type_ == type_) {
            c.reason = "ContainersNotReady".into();
            c.message = why.as_str().into();
        }
    }
}

fn set_waiting(p: &mut Pod, reason: &str, message: &str) {
    for c in &mut p.status.container_statuses {
        c.state = ContainerState {
            waiting: Some(ContainerStateWaiting {
                reason: reason.into(),
                message: message.into(),
            }),
            ..Default::default()
        };
    }
}

/// What `kubectl get pods` shows in STATUS for a pod.
pub fn display_status(p: &Pod) -> String {
    crate::api::table::pod_status(p)
}

/// The kubelets' informer: a Node written without a Ready condition gets one (as its kubelet
/// posts it once it has registered the node); a new pod is taken up (its next step: see
/// [`next_for_seen`]); a pod whose deletion began is stopped, and gone after its grace period
/// (unless its node's kubelet is down: then it stays Terminating).
pub fn saw<D: From<PodStep>>(cx: &mut Cx<'_, D>, world: &World, ev: &WatchEvent) {
    match ev.view() {
        WatchRef::Added(Object::Node(n)) => register_node(cx, n),
        WatchRef::Added(Object::Pod(p)) if !awaits_binding(p) => {
            if let Some((after, due)) = next_for_seen(p, world, cx.now()) {
                let at = cx.now_ms() + after;
                cx.at(at, p.metadata.key(), p.metadata.uid.clone(), due);
            }
        }
        WatchRef::Modified {
            old: Object::Pod(o),
            new: Object::Pod(n),
        } if o.metadata.deletion_timestamp.is_none()
                && n.metadata.deletion_timestamp.is_some()
                // A node whose kubelet is down cannot stop the pod: it stays Terminating.
                && !world.nodes_down.iter().any(|x| *x == *n.spec.node_name) =>
        {
            let stop = Stop::of(n, world);
            let at = cx.now_ms() + stop.ms();
            cx.at(
                at,
                n.metadata.key(),
                n.metadata.uid.clone(),
                PodStep::Gone(stop),
            );
            // The kubelet stops the containers that run (`killContainer`).
            for c in &n.status.container_statuses {
                if c.state.running.is_some() {
                    cx.events.record(
                        "kubelet",
                        Involved::of(Kind::Pod, &n.metadata),
                        EventType::Normal,
                        "Killing",
                        format!("Stopping container {}", c.name),
                    );
                }
            }
        }
        _ => {}
    }
}

/// A deleted pod's grace period in seconds (the apiserver's default, 30, where none is set).
fn deletion_grace_s(p: &Pod) -> i64 {
    p.metadata
        .deletion_grace_period_seconds
        .unwrap_or(30)
        .max(0)
}

/// `minimumGracePeriodInSeconds` (pkg/kubelet/kuberuntime): what is left of the grace period
/// after a preStop hook is never less.
const MINIMUM_GRACE_MS: u64 = 2000;

/// How the kubelet stops a pod's containers (`killContainer`, one per container, side by
/// side): a running container's preStop hook runs first, cut at the grace period; then
/// SIGTERM, after which the app exits `terminationMs` later (the world's; with
/// `useGracePeriod` it never exits of its own accord), or is killed (SIGKILL) when what is
/// left of the grace period ends, at least 2 s after the hook. A pod with no running
/// container has no hook to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stop {
    /// The preStop hook of the container that stopped last, as it ran (cut at the grace
    /// period).
    pub hook_ms: u64,
    /// From SIGTERM to the last container's exit.
    pub exit_ms: u64,
    /// Killed when the grace period ran out, not exited.
    pub killed: bool,
}

impl Stop {
    pub fn of(p: &Pod, world: &World) -> Stop {
        let grace = deletion_grace_s(p) as u64 * 1000;
        let running = |c: &Container| {
            p.status
                .container_statuses
                .iter()
                .any(|s| s.name == c.name && s.state.running.is_some())
        };
        // Each running container as `killContainer` stops it; the pod is gone with the last.
        let each = p.spec.containers.iter().filter(|c| running(c)).map(|c| {
            let hook_ms = pre_stop_ms(c).min(grace);
            let left = grace.saturating_sub(hook_ms).max(MINIMUM_GRACE_MS);
            let exit = world.exit_ms(&c.image);
            let killed = world.use_grace_period || exit > left;
            Stop {
                hook_ms,
                exit_ms: if killed { left } else { exit },
                killed,
            }
        });
        each.max_by_key(Stop::ms).unwrap_or_else(|| {
            let (exit_ms, killed) = if world.use_grace_period {
                (grace, true)
            } else {
                (world.termination_ms, false)
            };
            Stop {
                hook_ms: 0,
                exit_ms,
                killed,
            }
        })
    }

    /// From the deletion's beginning to the pod gone.
    pub fn ms(&self) -> u64 {
        self.hook_ms + self.exit_ms
    }

    /// What it was, in words, when a hook ran (a pod stopped at SIGTERM says nothing more).
    fn words(&self) -> Option<String> {
        let secs = |ms: u64| format!("{:.1}", ms as f64 / 1000.0).replace(".0", "");
        (self.hook_ms > 0).then(|| {
            let end = if self.killed {
                format!(
                    "SIGKILL {} s later, when what was left of its grace period (at least 2 s) ran out",
                    secs(self.exit_ms)
                )
            } else {
                format!("exited {} s later", secs(self.exit_ms))
            };
            format!(
                "its preStop hook ran {} s, then SIGTERM; {end}",
                secs(self.hook_ms)
            )
        })
    }
}

/// How long a container's preStop hook runs: a `sleep` action its seconds, an `exec` hook
/// that runs `sleep N` (alone or through a shell, the common way to wait before SIGTERM) its
/// N seconds; any other hook, and none, returns at once.
fn pre_stop_ms(c: &Container) -> u64 {
    let Some(hook) = c.extra.get("lifecycle").and_then(|l| l.get("preStop")) else {
        return 0;
    };
    if let Some(secs) = hook.pointer("/sleep/seconds").and_then(Value::as_i64) {
        return secs.max(0) as u64 * 1000;
    }
    let words: Vec<&str> = hook
        .pointer("/exec/command")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    // `["sleep", "5"]`, or `["/bin/sh", "-c", "sleep 5"]`.
    let line = match words.as_slice() {
        [sh, "-c", line] if sh.ends_with("sh") => line.split_whitespace().collect(),
        _ => words,
    };
    match line.as_slice() {
        [sleep, secs] if sleep.rsplit('/').next() == Some("sleep") => secs
            .trim_end_matches('s')
            .parse::<f64>()
            .map_or(0, |s| (s.max(0.0) * 1000.0) as u64),
        _ => 0,
    }
}

/// A node written without a Ready condition: its kubelet posts one, as it does once it has
/// registered the node.
fn register_node<D>(cx: &mut Cx<'_, D>, n: &Node) {
    if n.status.conditions.iter().any(|c| c.type_ == "Ready") {
        return;
    }
    let mut n = n.clone();
    n.status.conditions.push(PodCondition {
        type_: "Ready".into(),
        status: "True".into(),
        last_transition_time: Some(cx.now()),
        reason: "KubeletReady".into(),
        message: "kubelet is posting ready status".into(),
    });
    let _ = cx.store.update_status(Object::Node(Box::new(n)));
}

#[cfg(test)]
mod duration_tests {
    use crate::api::time::go_duration;

    /// The crash-loop back-off as the kubelet prints it (`time.Duration.String`).
    #[test]
    fn back_offs_read_as_go_durations() {
        let got: Vec<String> = [10, 40, 80, 160, 300, 86_400, 3_723]
            .map(go_duration)
            .to_vec();
        assert_eq!(
            got,
            ["10s", "40s", "1m20s", "2m40s", "5m0s", "24h0m0s", "1h2m3s"]
        );
    }
}

#[cfg(test)]
mod stop_tests {
    use super::{Stop, World};
    use crate::api::Pod;

    /// A pod being deleted with `grace` seconds, its one container running with `lifecycle`
    /// (YAML, or empty for none).
    fn pod(grace: i64, lifecycle: &str, running: bool) -> Pod {
        let state = if running {
            "{running: {startedAt: '2026-01-01T00:00:00Z'}}"
        } else {
            "{waiting: {reason: ContainerCreating}}"
        };
        let lifecycle = if lifecycle.is_empty() {
            String::new()
        } else {
            format!(", lifecycle: {lifecycle}")
        };
        let yaml = format!(
            "{{apiVersion: v1, kind: Pod, metadata: {{name: p, deletionGracePeriodSeconds: {grace}}}, spec: {{containers: [{{name: app, image: 'app:1'{lifecycle}}}]}}, status: {{containerStatuses: [{{name: app, state: {state}}}]}}}}"
        );
        crate::api::codec::from_value(crate::api::yaml::parse_document(&yaml).unwrap()).unwrap()
    }

    /// How the kubelet stops a container (`killContainer`): the preStop hook, cut at the grace
    /// period, then SIGTERM with what is left of it (at least `minimumGracePeriodInSeconds`,
    /// 2 s); the app exits `terminationMs` (1 s) after SIGTERM, or never with `useGracePeriod`.
    #[test]
    fn a_pre_stop_hook_runs_before_sigterm_within_the_grace_period() {
        let world = World::default();
        let graceful = World {
            use_grace_period: true,
            ..World::default()
        };
        // (grace s, lifecycle, running, useGracePeriod, (hook ms, exit ms, killed))
        for (grace, lifecycle, running, patient, want) in [
            (30, "", true, false, (0, 1000, false)),
            (30, "", true, true, (0, 30_000, true)),
            (
                30,
                "{preStop: {sleep: {seconds: 5}}}",
                true,
                false,
                (5000, 1000, false),
            ),
            (
                30,
                "{preStop: {exec: {command: [sleep, '10']}}}",
                true,
                false,
                (10_000, 1000, false),
            ),
            (
                30,
                "{preStop: {exec: {command: [/bin/sh, -c, 'sleep 15']}}}",
                true,
                false,
                (15_000, 1000, false),
            ),
            (
                30,
                "{preStop: {sleep: {seconds: 5}}}",
                true,
                true,
                (5000, 25_000, true),
            ),
            // A hook longer than the grace period is cut at it; SIGTERM then has 2 s.
            (
                30,
                "{preStop: {sleep: {seconds: 40}}}",
                true,
                false,
                (30_000, 1000, false),
            ),
            (
                30,
                "{preStop: {sleep: {seconds: 40}}}",
                true,
                true,
                (30_000, 2000, true),
            ),
            // Another hook returns at once; a container that never ran has no hook.
            (
                30,
                "{preStop: {httpGet: {path: /drain, port: 80}}}",
                true,
                false,
                (0, 1000, false),
            ),
            (
                30,
                "{preStop: {sleep: {seconds: 5}}}",
                false,
                false,
                (0, 1000, false),
            ),
            (
                1,
                "{preStop: {sleep: {seconds: 1}}}",
                true,
                true,
                (1000, 2000, true),
            ),
        ] {
            let w = if patient { &graceful } else { &world };
            let s = Stop::of(&pod(grace, lifecycle, running), w);
            assert_eq!(
                (s.hook_ms, s.exit_ms, s.killed),
                want,
                "grace {grace}, {lifecycle:?}, running {running}, useGracePeriod {patient}"
            );
        }
    }

    /// `world.shutdown`: an image's app takes its own time to exit after SIGTERM; past what
    /// is left of the grace period it is killed.
    #[test]
    fn an_images_app_exits_in_its_own_time() {
        let world = World {
            shutdown: vec![super::Shutdown {
                image: "app:*".into(),
                exit_ms: 8000,
                serving_ms: 0,
            }],
            ..World::default()
        };
        for (grace, lifecycle, want) in [
            (30, "", (0, 8000, false)),
            (5, "", (0, 5000, true)),
            (
                30,
                "{preStop: {sleep: {seconds: 25}}}",
                (25_000, 5000, true),
            ),
        ] {
            let s = Stop::of(&pod(grace, lifecycle, true), &world);
            assert_eq!(
                (s.hook_ms, s.exit_ms, s.killed),
                want,
                "grace {grace}, {lifecycle:?}"
            );
        }
        assert_eq!(world.exit_ms("other:1"), 1000, "terminationMs for the rest");
    }

    #[test]
    fn a_stop_after_a_hook_says_so() {
        let world = World::default();
        let p = pod(30, "{preStop: {sleep: {seconds: 5}}}", true);
        assert_eq!(
            Stop::of(&p, &world).words().as_deref(),
            Some("its preStop hook ran 5 s, then SIGTERM; exited 1 s later")
        );
        assert_eq!(Stop::of(&pod(30, "", true), &world).words(), None);
    }
}
