//! A client draining nodes: what k8s.io/kubectl's `pkg/drain` does for `kubectl drain` once
//! the nodes are cordoned (`RunDrain`, `deleteOrEvictPodsSimple`, `evictPods`,
//! `deletePods`, `waitForDelete` and the pod filters). The pods of each node in turn are
//! evicted (or deleted, `--disable-eviction`), each on its own: an eviction a disruption budget
//! refuses (429) is printed and tried again 5 s later, an evicted pod is waited for, polled
//! each second, until it is gone. `--timeout` bounds a node's evictions. Like a `rollout
//! status` watch, the client runs on the cluster's virtual clock (`cluster::client`), and what
//! it prints after the command's instant goes onto the command's step, each line at its
//! instant.

use crate::api::time::go_duration;
use crate::api::{LabelSelector, Pod, Str, key_of};
use crate::apiserver::store::{ApiError, Store, WatchRef};
use crate::cluster::client::{Client, ClientCx, Step};
use crate::cluster::trace::ActionStep;
use crate::cluster::watch::{WatchEnd, WatchLine};

/// `EvictErrorRetryDelay`: how long the client waits after a refused eviction.
pub const RETRY_MS: u64 = 5_000;
/// `waitForDelete`'s poll interval.
pub const POLL_MS: u64 = 1_000;

/// `kubectl drain`'s flags, as the client uses them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrainOptions {
    /// Evict (false: `--disable-eviction`, delete).
    pub eviction: bool,
    /// `--grace-period` when not negative: the delete options' grace period.
    pub grace_seconds: Option<i64>,
    /// `--timeout` (none: 0, wait for ever).
    pub timeout_ms: Option<u64>,
    pub pod_selector: Option<LabelSelector>,
    pub force: bool,
    /// `--ignore-daemonsets`: kept as given, though it never decides here: the playground has
    /// no DaemonSets, so kubectl's GET of a pod's DaemonSet finds none, which `--force` alone
    /// lets go (as upstream's filter, which asks before it looks at this flag).
    pub ignore_daemonsets: bool,
    pub delete_emptydir_data: bool,
    /// `--skip-wait-for-delete-timeout`: pods terminating longer than this are not waited for.
    pub skip_wait_seconds: i64,
    /// `--dry-run=client`: the pods are listed, nothing is evicted.
    pub client_dry_run: bool,
    /// `--dry-run=server`: the evictions are asked for as dry runs.
    pub server_dry_run: bool,
}

/// Where one pod of the node being drained stands.
#[derive(Clone, Debug, PartialEq)]
enum Stage {
    /// Asking for its eviction (again after a refusal).
    Evicting,
    /// Evicted or deleted; polled from this instant until it is gone.
    Waiting { since_ms: u64 },
    /// Finished, with the error that ended it if one did.
    Done(Option<String>),
}

#[derive(Clone, Debug)]
struct InFlight {
    key: Str,
    uid: Str,
    name: String,
    namespace: String,
    stage: Stage,
}

/// A `kubectl drain` still running on the cluster.
#[derive(Clone, Debug)]
pub struct Drain {
    opts: DrainOptions,
    /// The node whose pods are in flight, and the ones after it.
    node: String,
    then: Vec<String>,
    /// When `--timeout` ends this node's evictions.
    deadline_ms: Option<u64>,
    pods: Vec<InFlight>,
    /// The errors of the nodes that could not be drained (each node's an aggregate, or a
    /// plain error: `deletePods` returns its first), and their names.
    fatal: Vec<(Vec<String>, bool)>,
    remaining: Vec<String>,
    /// The trace step whose output the lines extend (the action step that ran the command).
    pub step: Option<usize>,
    /// Lines printed after the command's instant, since the trace was last given them.
    pub lines: Vec<WatchLine>,
    pub end: Option<WatchEnd>,
}

/// What `GetPodsForDeletion` found on a node: the pods to evict, the warnings, the errors
/// (each `cannot delete …: ns/a, ns/b`).
struct ForDeletion {
    pods: Vec<Pod>,
    warnings: Vec<String>,
    errors: Vec<String>,
}

/// What the drain printed now, and the error kubectl ends with when it is done now.
pub type Started = (Vec<String>, Option<String>);

impl Drain {
    /// Starts draining `nodes` (cordoned already) at this instant: the lines printed now, and
    /// the error kubectl ends with when it is done now; else the drain goes on, on the clock
    /// (the client returned).
    pub fn start(
        cx: &mut ClientCx<'_, '_>,
        nodes: Vec<String>,
        opts: DrainOptions,
    ) -> (Started, Option<Box<dyn Client>>) {
        let mut d = Drain {
            opts,
            node: String::new(),
            then: nodes,
            deadline_ms: None,
            pods: vec![],
            fatal: vec![],
            remaining: vec![],
            step: None,
            lines: vec![],
            end: None,
        };
        let mut out = vec![];
        d.next_node(cx, &mut out);
        match d.end.as_ref().map(|e| e.error.clone()) {
            Some(end) => ((out, end), None),
            None => ((out, None), Some(Box::new(d))),
        }
    }

    /// Begins the next node's pods, and the next, until one has pods in flight or none is
    /// left (then the drain ends).
    fn next_node(&mut self, cx: &mut ClientCx<'_, '_>, out: &mut Vec<String>) {
        while !self.then.is_empty() {
            self.node = self.then.remove(0);
            let list = Self::pods_for_deletion(cx.cx.store, &self.node, &self.opts);
            if !list.errors.is_empty() {
                out.push(format!(
                    "error: unable to drain node {:?} due to error: {}, continuing command...",
                    self.node,
                    aggregate(&list.errors)
                ));
                self.fatal.push((list.errors, true));
                self.remaining.push(self.node.clone());
                continue;
            }
            if !list.warnings.is_empty() {
                out.push(format!("Warning: {}", list.warnings.join("; ")));
            }
            let suffix = dry_suffix(&self.opts);
            if self.opts.client_dry_run {
                for p in &list.pods {
                    out.push(format!(
                        "evicting pod {}/{} (dry run)",
                        p.metadata.namespace, p.metadata.name
                    ));
                }
            }
            if self.opts.client_dry_run || list.pods.is_empty() {
                out.push(format!("node/{} drained{suffix}", self.node));
                continue;
            }
            self.begin_pods(cx, &list.pods, out);
            if !self.node_finished(cx.cx.store, out) {
                return;
            }
        }
        if !self.remaining.is_empty() {
            out.push("There are pending nodes to be drained:".into());
            out.extend(self.remaining.iter().map(|n| format!(" {n}")));
        }
        // `CheckErr` of the aggregate of the nodes' errors: one node's aggregate is unwrapped
        // and its errors printed a line each; one plain error gets `error: `; several nodes'
        // errors are a line each (`[a, b]` for a node's several).
        let error = match self.fatal.as_slice() {
            [] => None,
            [(errors, true)] => Some(errors.join("\n")),
            [(errors, false)] => Some(format!("error: {}", aggregate(errors))),
            all => Some(
                all.iter()
                    .map(|(e, _)| aggregate(e))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
        };
        self.end = Some(WatchEnd {
            t: cx.now_ms(),
            error,
        });
    }

    /// The node's pods in flight: `--timeout` from now, and each evicted (or all deleted).
    fn begin_pods(&mut self, cx: &mut ClientCx<'_, '_>, pods: &[Pod], out: &mut Vec<String>) {
        self.deadline_ms = self.opts.timeout_ms.map(|t| cx.now_ms() + t);
        if let Some(at) = self.deadline_ms {
            let key = key_of("", &self.node);
            cx.at(at, key, Str::default(), Step::Deadline);
        }
        self.pods = pods
            .iter()
            .map(|p| InFlight {
                key: p.metadata.key(),
                uid: p.metadata.uid.clone(),
                name: p.metadata.name.to_string(),
                namespace: p.metadata.namespace.to_string(),
                stage: Stage::Evicting,
            })
            .collect();
        if self.opts.eviction {
            for i in 0..self.pods.len() {
                self.try_evict(cx, i, out);
            }
        } else {
            self.delete_all(cx, out);
        }
    }

    /// `GetPodsForDeletion`: the node's pods (every namespace, `--pod-selector`), through the
    /// filters in kubectl's order: long-terminating (skipped), DaemonSet, mirror, local
    /// storage, unreplicated.
    fn pods_for_deletion(store: &Store, node: &str, o: &DrainOptions) -> ForDeletion {
        let mut pods: Vec<&Pod> = store
            .pods()
            .filter(|p| p.spec.node_name == node)
            .filter(|p| {
                o.pod_selector
                    .as_ref()
                    .is_none_or(|s| s.matches(&p.metadata.labels))
            })
            .collect();
        crate::api::sort::sort_by_key(&mut pods, |p| p.metadata.key());
        let mut warnings: Vec<(String, Vec<String>)> = vec![];
        let mut errors: Vec<(String, Vec<String>)> = vec![];
        let mut keep = vec![];
        let now = store.now();
        for p in pods {
            let at = format!("{}/{}", p.metadata.namespace, p.metadata.name);
            let terminal = matches!(p.status.phase.as_str(), "Succeeded" | "Failed");
            let controller = p.metadata.controller_ref();
            let skip_deleted = o.skip_wait_seconds > 0
                && p.metadata
                    .deletion_timestamp
                    .is_some_and(|t| now.since(t) / 1_000_000_000 > o.skip_wait_seconds);
            let daemon =
                controller.is_some_and(|r| r.kind == "DaemonSet" && r.api_version == "apps/v1");
            let mirror = p
                .metadata
                .annotations
                .contains_key("kubernetes.io/config.mirror");
            let (delete, note): (bool, Option<(bool, String)>) = if skip_deleted || mirror {
                (false, None)
            } else if daemon && !terminal {
                // The playground has no DaemonSets: kubectl's GET of it finds none.
                let name = controller.map_or("", |r| r.name.as_str());
                let missing = format!("daemonsets.apps {name:?} not found");
                if o.force {
                    (true, Some((false, missing)))
                } else {
                    (false, Some((true, missing)))
                }
            } else if has_local_storage(p) && !terminal && !o.delete_emptydir_data {
                let msg = "Pods with local storage (use --delete-emptydir-data to override)";
                (false, Some((true, msg.into())))
            } else if controller.is_none() && !terminal && !o.force {
                let msg = "Pods that declare no controller (use --force to override)";
                (false, Some((true, msg.into())))
            } else if controller.is_none() && !terminal {
                (
                    true,
                    Some((false, "deleting Pods that declare no controller".into())),
                )
            } else if has_local_storage(p) && !terminal {
                (
                    true,
                    Some((false, "deleting Pods with local storage".into())),
                )
            } else {
                (true, None)
            };
            if let Some((fatal, msg)) = note {
                let into = if fatal { &mut errors } else { &mut warnings };
                match into.iter_mut().find(|(m, _)| *m == msg) {
                    Some((_, at_list)) => at_list.push(at),
                    None => into.push((msg, vec![at])),
                }
            }
            if delete {
                keep.push(p.clone());
            }
        }
        ForDeletion {
            pods: keep,
            warnings: warnings
                .into_iter()
                .map(|(m, at)| format!("{m}: {}", at.join(", ")))
                .collect(),
            errors: errors
                .into_iter()
                .map(|(m, at)| format!("cannot delete {m}: {}", at.join(", ")))
                .collect(),
        }
    }

    /// One try of one pod's eviction (`evictPods`' loop body): printed, then asked for.
    fn try_evict(&mut self, cx: &mut ClientCx<'_, '_>, i: usize, out: &mut Vec<String>) {
        let now = cx.now_ms();
        let (ns, name) = (self.pods[i].namespace.clone(), self.pods[i].name.clone());
        let dry = self.opts.server_dry_run;
        out.push(format!(
            "evicting pod {ns}/{name}{}",
            if dry { " (server dry run)" } else { "" }
        ));
        if self.deadline_ms.is_some_and(|at| now >= at) {
            let t = go_duration(self.opts.timeout_ms.unwrap_or(0) / 1000);
            self.pods[i].stage = Stage::Done(Some(format!(
                "error when evicting pods/{name:?} -n {ns:?}: global timeout reached: {t}"
            )));
            return;
        }
        let grace = self.opts.grace_seconds;
        let result = cx.cx.store.evict(&ns, &name, grace, dry);
        if cx.recording {
            let why = match &result {
                Ok(e) => Some(match &e.budget {
                    None => "evicted: no PodDisruptionBudget covers it".to_string(),
                    Some((b, true)) => {
                        format!(
                            "evicted: PodDisruptionBudget {b} allowed it (one disruption taken)"
                        )
                    }
                    Some((b, false)) => format!(
                        "evicted: not Ready, and PodDisruptionBudget {b} is met, so it takes no disruption"
                    ),
                }),
                Err(ApiError::TooManyRequests { cause, .. }) => {
                    Some(format!("eviction refused (429 TooManyRequests): {cause}"))
                }
                Err(e) if !e.is_not_found() => Some(format!("eviction failed: {e}")),
                Err(_) => None,
            };
            if let Some(why) = why {
                cx.notes
                    .push(format!("kubectl drain: pod {ns}/{name} {why}"));
            }
        }
        self.pods[i].stage = match result {
            Ok(_) if dry => Stage::Done(None),
            Ok(_) => {
                let waiting = Stage::Waiting { since_ms: now };
                // The first poll, at once: a pod deleted outright is gone already.
                if cx.cx.store.pod(&self.pods[i].key).is_none() {
                    out.push(format!("pod/{name} evicted"));
                    Stage::Done(None)
                } else {
                    waiting
                }
            }
            Err(e) if e.is_not_found() => Stage::Done(None),
            Err(e @ ApiError::TooManyRequests { .. }) => {
                out.push(format!(
                    "error when evicting pods/{name:?} -n {ns:?} (will retry after 5s): {e}"
                ));
                let (key, uid) = (self.pods[i].key.clone(), self.pods[i].uid.clone());
                cx.at(now + RETRY_MS, key, uid, Step::Retry);
                Stage::Evicting
            }
            Err(e) => Stage::Done(Some(format!(
                "error when evicting pods/{name:?} -n {ns:?}: {e}"
            ))),
        };
    }

    /// `deletePods`: every pod deleted at once (an error other than NotFound stops there),
    /// then all waited for.
    fn delete_all(&mut self, cx: &mut ClientCx<'_, '_>, out: &mut Vec<String>) {
        let now = cx.now_ms();
        let grace = self.opts.grace_seconds;
        for i in 0..self.pods.len() {
            let key = self.pods[i].key.clone();
            let deleted = if self.opts.server_dry_run {
                Ok(())
            } else {
                cx.cx.store.delete(
                    crate::api::Kind::Pod,
                    &key,
                    crate::apiserver::store::Propagation::Background,
                    grace,
                )
            };
            match deleted {
                Ok(()) | Err(ApiError::NotFound { .. }) => {
                    self.pods[i].stage = if self.opts.server_dry_run {
                        Stage::Done(None)
                    } else {
                        Stage::Waiting { since_ms: now }
                    };
                }
                Err(e) => {
                    for p in &mut self.pods[i..] {
                        p.stage = Stage::Done(None);
                    }
                    self.pods[i].stage = Stage::Done(Some(e.to_string()));
                    return;
                }
            }
        }
        for p in &mut self.pods {
            if p.stage != (Stage::Waiting { since_ms: now }) {
                continue;
            }
            if cx
                .cx
                .store
                .pod(&p.key)
                .is_none_or(|q| q.metadata.uid != p.uid)
            {
                out.push(format!("pod/{} deleted", p.name));
                p.stage = Stage::Done(None);
            }
        }
    }

    /// When every pod of the node is done: `node/NAME drained`, or the node's errors with the
    /// pods still on it. Returns whether the node is finished.
    fn node_finished(&mut self, store: &Store, out: &mut Vec<String>) -> bool {
        let mut errors = vec![];
        for p in &self.pods {
            match &p.stage {
                Stage::Done(e) => errors.extend(e.clone()),
                _ => return false,
            }
        }
        self.pods.clear();
        if errors.is_empty() {
            out.push(format!(
                "node/{} drained{}",
                self.node,
                dry_suffix(&self.opts)
            ));
            return true;
        }
        let pending = Self::pods_for_deletion(store, &self.node, &self.opts).pods;
        if !pending.is_empty() {
            out.push(format!(
                "There are pending pods in node {:?} when an error occurred: {}",
                self.node,
                aggregate(&errors)
            ));
            out.extend(pending.iter().map(|p| format!("pod/{}", p.metadata.name)));
        }
        out.push(format!(
            "error: unable to drain node {:?} due to error: {}, continuing command...",
            self.node,
            aggregate(&errors)
        ));
        self.fatal.push((errors, self.opts.eviction));
        self.remaining.push(self.node.clone());
        true
    }
}

impl Client for Drain {
    fn boxed_clone(&self) -> Box<dyn Client> {
        Box::new(self.clone())
    }

    /// A pod the drain waits for is gone: its poll prints it at the next tick of the poll.
    fn saw(&mut self, cx: &mut ClientCx<'_, '_>, ev: WatchRef<'_>) {
        let WatchRef::Deleted(crate::api::Object::Pod(p)) = ev else {
            return;
        };
        let (now, key) = (cx.now_ms(), p.metadata.key());
        for f in &self.pods {
            if let Stage::Waiting { since_ms } = f.stage
                && f.key == key
                && f.uid == p.metadata.uid
            {
                let ticks = (now - since_ms).div_ceil(POLL_MS);
                let at = since_ms + ticks * POLL_MS;
                cx.at(at, f.key.clone(), f.uid.clone(), Step::Poll);
            }
        }
    }

    /// A refused eviction tried again, a deleted pod's poll, or the end of `--timeout`. `key`
    /// is the pod's (the node's for the deadline).
    fn timer(&mut self, cx: &mut ClientCx<'_, '_>, key: &str, step: Step) {
        let mut out = vec![];
        let i = self.pods.iter().position(|p| *p.key == *key);
        match (step, i) {
            (Step::Retry, Some(i)) if self.pods[i].stage == Stage::Evicting => {
                self.try_evict(cx, i, &mut out)
            }
            (Step::Poll, Some(i)) => {
                let verb = if self.opts.eviction {
                    "evicted"
                } else {
                    "deleted"
                };
                out.push(format!("pod/{} {verb}", self.pods[i].name));
                self.pods[i].stage = Stage::Done(None);
            }
            (Step::Deadline, _) if *key == *key_of("", &self.node) => {
                // Each evicted pod's own wait ends with its error; `deletePods`' one wait
                // for them all, with one.
                let mut first = true;
                for p in self.pods.iter_mut() {
                    if let Stage::Waiting { .. } = p.stage {
                        p.stage = Stage::Done(if self.opts.eviction {
                            Some(format!(
                                "error when waiting for pod {:?} in namespace {:?} to terminate: context deadline exceeded",
                                p.name, p.namespace
                            ))
                        } else {
                            std::mem::take(&mut first)
                                .then(|| "context deadline exceeded".to_string())
                        });
                    }
                }
            }
            _ => {}
        }
        if self.node_finished(cx.cx.store, &mut out) {
            self.next_node(cx, &mut out);
        }
        let now = cx.now_ms();
        self.lines
            .extend(out.into_iter().map(|text| WatchLine { t: now, text }));
    }

    /// A retry of an eviction is all that is left of it when the budget still refuses and no
    /// `--timeout` will end it.
    fn idle(&self, store: &Store, key: &str, step: Step) -> bool {
        step == Step::Retry && self.deadline_ms.is_none() && store.eviction_refused(key)
    }

    /// Its `--timeout` is a timer of its own.
    fn expire(&mut self, _: &Store, _: u64) {}

    /// After each of its timers: what it printed, and its end.
    fn print_onto(&mut self, s: Option<&mut ActionStep>) {
        let lines = std::mem::take(&mut self.lines);
        let Some(s) = s.filter(|_| !lines.is_empty() || self.end.is_some()) else {
            return;
        };
        let out = s.output.get_or_insert_with(String::new);
        let log = s.watch.get_or_insert_with(Default::default);
        for l in lines {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&l.text);
            log.lines.push(l);
        }
        if let Some(end) = &self.end {
            // kubectl's `CheckErr` of an aggregate prints its errors bare, a line each.
            s.errors.extend(end.error.clone());
            log.end = Some(end.clone());
        }
    }

    fn ended(&self) -> bool {
        self.end.is_some()
    }

    fn step(&mut self) -> &mut Option<usize> {
        &mut self.step
    }
}

/// ` (dry run)` or ` (server dry run)` after a printed object.
fn dry_suffix(o: &DrainOptions) -> &'static str {
    if o.client_dry_run {
        " (dry run)"
    } else if o.server_dry_run {
        " (server dry run)"
    } else {
        ""
    }
}

/// An aggregate's `Error()`: its messages once each, one as itself, several as `[a, b]`.
fn aggregate(errors: &[String]) -> String {
    let mut seen: Vec<&str> = vec![];
    for e in errors {
        if !seen.contains(&e.as_str()) {
            seen.push(e);
        }
    }
    match seen.as_slice() {
        [one] => one.to_string(),
        _ => format!("[{}]", seen.join(", ")),
    }
}

/// Whether the pod has an `emptyDir` volume (local data a drain would lose).
fn has_local_storage(p: &Pod) -> bool {
    p.spec
        .extra
        .get("volumes")
        .and_then(crate::api::Value::as_array)
        .is_some_and(|vs| vs.iter().any(|v| v.get("emptyDir").is_some()))
}
