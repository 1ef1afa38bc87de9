//! Scheduler and kubelet on the virtual clock: a new pod is bound to a node after `scheduleMs`,
//! its container starts `startMs` later (or fails to pull, or crash-loops), it turns Ready
//! `readyMs` after that, and a deleted pod is gone `terminationMs` after its deletion began.

use crate::api::*;
use crate::apiserver::events::{EventRecorder, EventType};
use crate::apiserver::store::Store;
use serde::{Deserialize, Serialize};

/// The world a scenario runs in (pod timings, nodes, broken images). As the scenario file's
/// `world:`, every field is optional and unknown ones are refused.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct World {
    pub schedule_ms: u64,
    pub start_ms: u64,
    pub ready_ms: u64,
    pub termination_ms: u64,
    pub use_grace_period: bool,
    pub nodes: u32,
    pub failing_images: Vec<String>,
    pub crashing_images: Vec<String>,
}

impl Default for World {
    fn default() -> Self {
        World {
            schedule_ms: 0,
            start_ms: 2000,
            ready_ms: 1000,
            termination_ms: 1000,
            use_grace_period: false,
            nodes: 3,
            failing_images: vec![],
            crashing_images: vec![],
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
    pub fn image_fails(&self, image: &str) -> bool {
        self.failing_images.iter().any(|g| glob_match(g, image))
    }
    pub fn image_crashes(&self, image: &str) -> bool {
        self.crashing_images.iter().any(|g| glob_match(g, image))
    }
    /// Whether the world has a node of this name (`node-1` … `node-<nodes>`).
    pub fn has_node(&self, name: &str) -> bool {
        (0..self.nodes.max(1)).any(|i| self.node_name(i) == name)
    }
    pub fn node_name(&self, i: u32) -> String {
        format!("node-{}", i % self.nodes.max(1) + 1)
    }
}

/// A kubelet/scheduler action due at some instant.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PodStep {
    Bind,
    Start,
    Ready,
    PullBackOff,
    Crash,
    Restart,
    Gone,
}

/// What happened, in words, for the trace (empty when nobody records it).
pub type Happening = String;

/// Applies one lifecycle step to the pod `key` (if it is still the pod with `uid`). Returns a
/// description (when `describe`) and the follow-up step, if any (delay ms, step).
#[allow(clippy::too_many_arguments)]
pub fn apply(
    store: &mut Store,
    rec: &mut EventRecorder,
    world: &World,
    key: &str,
    uid: &str,
    step: PodStep,
    node_rr: &mut u32,
    describe: bool,
) -> Option<(Happening, Option<(u64, PodStep)>)> {
    // The trace's words are spelled only when a trace is kept.
    macro_rules! say {
        ($($t:tt)*) => {
            if describe { format!($($t)*) } else { String::new() }
        };
    }
    let pod = store.pod(key).filter(|p| p.metadata.uid == uid)?;
    let now = store.now();
    // The name is the key's last part: borrowed from it, not copied from the pod.
    let name = key.rsplit_once('/').map_or(key, |(_, n)| n);
    if step == PodStep::Gone {
        store.remove_pod(key)?;
        return Some((say!("{name} is gone"), None));
    }
    if pod.metadata.deletion_timestamp.is_some() {
        return None;
    }
    let mut p = pod.clone();
    let spec = p.spec.clone();
    let image = spec.containers.first().map_or("", |c| c.image.as_str());
    // What the kubelet reports about this pod.
    let mut kubelet = |type_: EventType, reason: &'static str, message: String| {
        rec.record("kubelet", Kind::Pod, name, type_, reason, message)
    };
    let (what, next): (String, Option<(u64, PodStep)>) = match step {
        PodStep::Bind => {
            // A pod created with its node named is not the scheduler's: that node's kubelet
            // takes it as it is (named to a node the world does not have, it stays Pending).
            let preset = !p.spec.node_name.is_empty();
            let node = if preset {
                if !world.has_node(&p.spec.node_name) {
                    return None;
                }
                p.spec.node_name.to_string()
            } else {
                let node = world.node_name(*node_rr);
                *node_rr += 1;
                p.spec.node_name = node.as_str().into();
                store.update(Object::Pod(p)).ok()?;
                node
            };
            let mut p = store.pod(key)?.clone();
            set_pod_condition(&mut p, "PodScheduled", ConditionStatus::True, now);
            p.status.container_statuses = p
                .spec
                .containers
                .iter()
                .map(|c| ContainerStatus {
                    name: c.name.clone(),
                    image: c.image.clone(),
                    state: ContainerState {
                        waiting: Some(ContainerStateWaiting {
                            reason: "ContainerCreating".into(),
                            message: Str::default(),
                        }),
                        ..Default::default()
                    },
                    ..Default::default()
                })
                .collect();
            store.update_status(Object::Pod(p)).ok()?;
            if !preset {
                rec.record(
                    "default-scheduler",
                    Kind::Pod,
                    name,
                    EventType::Normal,
                    "Scheduled",
                    format!("Successfully assigned {key} to {node}"),
                );
            }
            return Some((
                say!(
                    "{name} {} {node}",
                    if preset {
                        "bound by its spec to"
                    } else {
                        "scheduled to"
                    }
                ),
                Some((world.start_ms, PodStep::Start)),
            ));
        }
        PodStep::Start if world.image_fails(image) => {
            p.status.start_time.get_or_insert(now);
            set_waiting(
                &mut p,
                "ErrImagePull",
                &format!("failed to pull image \"{image}\""),
            );
            kubelet(
                EventType::Normal,
                "Pulling",
                format!("Pulling image \"{image}\""),
            );
            kubelet(
                EventType::Warning,
                "Failed",
                format!("Failed to pull image \"{image}\": not found"),
            );
            // Then the container's start reports why it could not (`startContainer`).
            kubelet(EventType::Warning, "Failed", "Error: ErrImagePull".into());
            (
                say!("{name} cannot pull {image}: ErrImagePull"),
                Some((5000, PodStep::PullBackOff)),
            )
        }
        PodStep::PullBackOff => {
            set_waiting(
                &mut p,
                "ImagePullBackOff",
                &format!("Back-off pulling image \"{image}\""),
            );
            kubelet(
                EventType::Normal,
                "BackOff",
                format!("Back-off pulling image \"{image}\""),
            );
            kubelet(
                EventType::Warning,
                "Failed",
                "Error: ImagePullBackOff".into(),
            );
            (say!("{name}: ImagePullBackOff"), None)
        }
        PodStep::Start | PodStep::Restart => {
            p.status.phase = PHASE_RUNNING.into();
            p.status.start_time.get_or_insert(now);
            for c in &mut p.status.container_statuses {
                c.state = ContainerState {
                    running: Some(ContainerStateRunning {
                        started_at: Some(now),
                    }),
                    ..Default::default()
                };
                c.started = true;
            }
            set_pod_condition(&mut p, "Initialized", ConditionStatus::True, now);
            // As the kubelet reports each container it starts (the image is on the node:
            // only the world's failing images are pulled).
            for c in &spec.containers {
                kubelet(
                    EventType::Normal,
                    "Pulled",
                    format!("Container image \"{}\" already present on machine", c.image),
                );
                kubelet(
                    EventType::Normal,
                    "Created",
                    format!("Created container: {}", c.name),
                );
                kubelet(
                    EventType::Normal,
                    "Started",
                    format!("Started container {}", c.name),
                );
            }
            if world.image_crashes(image) {
                (
                    say!("{name} started (its container will crash)"),
                    Some((1000, PodStep::Crash)),
                )
            } else {
                (
                    say!("{name} is Running"),
                    Some((world.ready_ms, PodStep::Ready)),
                )
            }
        }
        PodStep::Crash => {
            let restarts = p.max_restarts() + 1;
            let backoff_ms = (10_000u64 << (restarts - 1).min(5) as u64).min(300_000);
            // The kubelet names the pod as `format.Pod` does: name_namespace(uid).
            let pod_ref = format!("{name}_{}({uid})", p.metadata.namespace);
            let container = spec.containers.first().map_or("", |c| c.name.as_str());
            for c in &mut p.status.container_statuses {
                c.restart_count = restarts;
                c.ready = false;
                c.started = false;
                c.last_state = ContainerState {
                    terminated: Some(ContainerStateTerminated {
                        exit_code: 1,
                        reason: "Error".into(),
                        finished_at: Some(now),
                    }),
                    ..Default::default()
                };
                c.state = ContainerState {
                    waiting: Some(ContainerStateWaiting {
                        reason: "CrashLoopBackOff".into(),
                        message: format!(
                            "back-off {} restarting failed container={} pod={pod_ref}",
                            go_duration(backoff_ms / 1000),
                            c.name
                        )
                        .into(),
                    }),
                    ..Default::default()
                };
            }
            kubelet(
                EventType::Warning,
                "BackOff",
                format!("Back-off restarting failed container {container} in pod {pod_ref}"),
            );
            (
                say!("{name} crashed (restart {restarts}): CrashLoopBackOff"),
                Some((backoff_ms, PodStep::Restart)),
            )
        }
        PodStep::Ready => {
            for c in &mut p.status.container_statuses {
                c.ready = true;
            }
            set_pod_condition(&mut p, "ContainersReady", ConditionStatus::True, now);
            set_pod_condition(&mut p, "Ready", ConditionStatus::True, now);
            (say!("{name} is Ready"), None)
        }
        PodStep::Gone => unreachable!("handled above"),
    };
    store.update_status(Object::Pod(p)).ok()?;
    Some((what, next))
}

/// Go's `time.Duration` text of whole seconds under an hour (a back-off is at most 5 minutes):
/// `40s`, `1m20s`, `5m0s`.
fn go_duration(secs: u64) -> String {
    if secs < 60 {
        format!("{secs}s")
    } else {
        format!("{}m{}s", secs / 60, secs % 60)
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

fn set_pod_condition(p: &mut Pod, type_: &str, status: ConditionStatus, now: Time) {
    if let Some(c) = p.status.conditions.iter_mut().find(|c| c.type_ == type_) {
        if c.status != status {
            c.status = status.into();
            c.last_transition_time = Some(now);
        }
        return;
    }
    p.status.conditions.push(PodCondition {
        type_: type_.into(),
        status: status.into(),
        last_transition_time: Some(now),
        ..Default::default()
    });
}

/// What `kubectl get pods` shows in STATUS for a pod.
pub fn display_status(p: &Pod) -> String {
    if p.metadata.deletion_timestamp.is_some() {
        return "Terminating".into();
    }
    for c in &p.status.container_statuses {
        if let Some(w) = &c.state.waiting
            && !w.reason.is_empty()
        {
            return w.reason.to_string();
        }
    }
    if p.status.phase.is_empty() {
        PHASE_PENDING.into()
    } else {
        p.status.phase.to_string()
    }
}

#[cfg(test)]
mod duration_tests {
    use super::go_duration;

    /// The crash-loop back-off as the kubelet prints it (`time.Duration.String`).
    #[test]
    fn back_offs_read_as_go_durations() {
        let got: Vec<String> = [10, 40, 80, 160, 300].map(go_duration).to_vec();
        assert_eq!(got, ["10s", "40s", "1m20s", "2m40s", "5m0s"]);
    }
}
