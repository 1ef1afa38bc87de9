//! The cells `kubectl get pods` prints for a pod, as the apiserver's table printer makes them
//! (kubernetes/kubernetes `pkg/printers/internalversion/printers.go`, `printPod`): READY,
//! STATUS (the phase, or the reason that explains it: a waiting or terminated container's,
//! `Init:1/2`, `Completed`, `NotReady`, `Terminating`), RESTARTS with the latest restart's
//! age, and the wide columns. Here, below the kubectl layer, because the cluster view's pods
//! show the same STATUS.

use super::time::human_duration;
use super::{ConditionStatus, ContainerStatus, Pod, Time};
use serde_json::Value;

/// A pod's row: READY, STATUS, RESTARTS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodCells {
    pub ready: String,
    pub status: String,
    pub restarts: String,
}

/// What `printPod` works out of a pod's statuses.
struct Scan {
    ready: usize,
    total: usize,
    reason: String,
    restarts: i32,
    last_restart: Option<Time>,
}

fn later(a: Option<Time>, b: Option<Time>) -> Option<Time> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.0 > x.0 { y } else { x }),
        (x, y) => x.or(y),
    }
}

fn finished(s: &ContainerStatus) -> Option<Time> {
    s.last_state.terminated.as_ref()?.finished_at
}

fn has_condition(p: &Pod, type_: &str) -> bool {
    p.status
        .conditions
        .iter()
        .any(|c| c.type_ == type_ && c.status == ConditionStatus::True.as_str())
}

/// A terminated container without a reason: `Signal:N` or `ExitCode:N`.
fn exit(s: &ContainerStatus, prefix: &str) -> Option<String> {
    let t = s.state.terminated.as_ref()?;
    Some(if t.signal != 0 {
        format!("{prefix}Signal:{}", t.signal)
    } else {
        format!("{prefix}ExitCode:{}", t.exit_code)
    })
}

/// (Long: the printer's passes over init containers, then containers, then deletion, in its
/// order.)
fn scan(p: &Pod) -> Scan {
    // Init containers are kept as the manifest and the kubelet wrote them (the simulation does
    // not run them), so they are read from the pod's own fields when it has any.
    let init_specs = p.spec.extra.get("initContainers").and_then(Value::as_array);
    let restartable = |name: &str| {
        init_specs.is_some_and(|l| {
            l.iter().any(|c| {
                c["name"].as_str() == Some(name) && c["restartPolicy"].as_str() == Some("Always")
            })
        })
    };
    let init_count = init_specs.map_or(0, Vec::len);
    let sidecars = init_specs.map_or(0, |l| {
        l.iter()
            .filter(|c| c["restartPolicy"].as_str() == Some("Always"))
            .count()
    });
    let mut s = Scan {
        ready: 0,
        total: p.spec.containers.len() + sidecars,
        reason: match p.status.extra.get("reason").and_then(Value::as_str) {
            Some(r) if !r.is_empty() => r.to_string(),
            _ => p.status.phase.to_string(),
        },
        restarts: 0,
        last_restart: None,
    };
    if p.status
        .conditions
        .iter()
        .any(|c| c.type_ == "PodScheduled" && c.reason == "SchedulingGated")
    {
        s.reason = "SchedulingGated".into();
    }
    let init_statuses: Vec<ContainerStatus> = p
        .status
        .extra
        .get("initContainerStatuses")
        .and_then(|v| super::codec::from_value(v.clone()).ok())
        .unwrap_or_default();
    let (mut sidecar_restarts, mut sidecar_last) = (0, None);
    let mut initializing = false;
    for (i, c) in init_statuses.iter().enumerate() {
        s.restarts += c.restart_count;
        s.last_restart = later(s.last_restart, finished(c));
        let sidecar = restartable(&c.name);
        if sidecar {
            sidecar_restarts += c.restart_count;
            sidecar_last = later(sidecar_last, finished(c));
        }
        let terminated = c.state.terminated.as_ref();
        if terminated.is_some_and(|t| t.exit_code == 0) {
            continue;
        }
        if sidecar && c.started {
            s.ready += usize::from(c.ready);
            continue;
        }
        s.reason = match (terminated, c.state.waiting.as_ref()) {
            (Some(t), _) if !t.reason.is_empty() => format!("Init:{}", t.reason),
            (Some(_), _) => exit(c, "Init:").unwrap_or_default(),
            (None, Some(w)) if !w.reason.is_empty() && w.reason != "PodInitializing" => {
                format!("Init:{}", w.reason)
            }
            _ => format!("Init:{i}/{init_count}"),
        };
        initializing = true;
        break;
    }
    if !initializing || has_condition(p, "Initialized") {
        s.restarts = sidecar_restarts;
        s.last_restart = sidecar_last;
        let mut running = false;
        for c in p.status.container_statuses.iter().rev() {
            s.restarts += c.restart_count;
            s.last_restart = later(s.last_restart, finished(c));
            let terminated = c.state.terminated.as_ref();
            if let Some(w) = c.state.waiting.as_ref().filter(|w| !w.reason.is_empty()) {
                s.reason = w.reason.to_string();
            } else if let Some(t) = terminated.filter(|t| !t.reason.is_empty()) {
                s.reason = t.reason.to_string();
            } else if terminated.is_some() {
                s.reason = exit(c, "").unwrap_or_default();
            } else if c.ready && c.state.running.is_some() {
                running = true;
                s.ready += 1;
            }
        }
        if s.reason == "Completed" && running {
            s.reason = if has_condition(p, "Ready") {
                "Running"
            } else {
                "NotReady"
            }
            .into();
        }
    }
    if p.metadata.deletion_timestamp.is_some() {
        if p.status.extra.get("reason").and_then(Value::as_str) == Some("NodeLost") {
            s.reason = "Unknown".into();
        } else if !matches!(p.status.phase.as_str(), "Succeeded" | "Failed") {
            s.reason = "Terminating".into();
        }
    }
    s
}

/// The STATUS column alone.
pub fn pod_status(p: &Pod) -> String {
    scan(p).reason
}

/// `printPod`'s cells for `p` at `now`.
pub fn pod_cells(p: &Pod, now: Time) -> PodCells {
    let s = scan(p);
    let restarts = match s.last_restart {
        Some(t) if s.restarts != 0 => format!("{} ({} ago)", s.restarts, since(t, now)),
        _ => s.restarts.to_string(),
    };
    PodCells {
        ready: format!("{}/{}", s.ready, s.total),
        status: s.reason,
        restarts,
    }
}

/// `translateTimestampSince`: how long ago, as kubectl prints ages.
pub fn since(t: Time, now: Time) -> String {
    human_duration(now.since(t) / 1_000_000)
}

/// The wide columns: IP, NODE, NOMINATED NODE, READINESS GATES (`true/all`), `<none>` where
/// empty.
pub fn pod_wide_cells(p: &Pod) -> [String; 4] {
    let or_none = |s: &str| {
        if s.is_empty() {
            "<none>".to_string()
        } else {
            s.to_string()
        }
    };
    let extra = |k: &str| p.status.extra.get(k).cloned().unwrap_or(Value::Null);
    let ip = p.pod_ips().into_iter().next().unwrap_or_default();
    let nominated = extra("nominatedNodeName")
        .as_str()
        .unwrap_or("")
        .to_string();
    let gates = match p.spec.extra.get("readinessGates").and_then(Value::as_array) {
        Some(g) if !g.is_empty() => {
            let met = g
                .iter()
                .filter(|gate| has_condition(p, gate["conditionType"].as_str().unwrap_or("")))
                .count();
            format!("{met}/{}", g.len())
        }
        _ => "<none>".into(),
    };
    [
        or_none(&ip),
        or_none(&p.spec.node_name),
        or_none(&nominated),
        gates,
    ]
}
