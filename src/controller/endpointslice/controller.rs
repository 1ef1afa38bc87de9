//! endpointslice_controller.go (pkg/controller/endpointslice, at the 2026 master commit
//! 008b3652959ca58af8be3fb5b6ecfe9ae7638282 that docs/research/traffic.md reads): the
//! controller around the reconciler. Its handlers queue a Service when the Service changes
//! (`onServiceUpdate` / `onServiceDelete`, l.507, l.518) and every Service that selects a pod
//! whose endpoint changed (`onPodUpdate`, l.529, through `podEndpointsChanged`); `syncService`
//! (l.368–450) lists the Service's pods and its slices and writes what [`super::reconcile`]
//! returns.
//!
//! Here its queue is emptied once an instant, after the other controllers' syncs: upstream's
//! `endpointUpdatesBatchPeriod` is 0 by default, so a change is synced at once, and its queue
//! holds a Service once however many of its pods change meanwhile; kube-proxy reads the
//! instant's end state (`endpointDelayMs` later) either way. Left out: the pod projection
//! queue (its keys lead to the same Services), the topology queue, the slice tracker (the
//! store here is never stale) and the trigger-time annotation.

use super::utils::small_field;
use super::{Changes, MAX_ENDPOINTS_PER_SLICE, Reconciled, reconcile, reconcile_changes};
use crate::api::service::{ENDPOINTSLICE_CONTROLLER, MANAGED_BY_LABEL, SERVICE_NAME_LABEL};
use crate::api::service::{Endpoint, EndpointSlice, Service};
use crate::api::{Kind, Node, Object, Pod, Str, key_of};
use crate::apiserver::store::{Propagation, Store, WatchEvent, WatchRef};
use crate::controller::actor::{Actor, Cx, Env};
use std::collections::BTreeSet;

/// The EndpointSlice controller: its queue of Services (`namespace/name`), and what it knows
/// of each Service's slices since it last wrote them.
#[derive(Clone, Debug, Default)]
pub struct EndpointSliceController {
    queue: BTreeSet<Str>,
    /// By Service (a few: searched in order).
    written: Vec<(Str, Written)>,
}

/// What a Service's last sync left: the slices this controller wrote, and whether they list
/// every one of its pods as written, with the pods that had an event since. Then a sync
/// reconciles those [`Changes`], rather than all the Service's pods. (Upstream lists them all
/// at each sync; at 10 000 pods, ten times a second, that is most of a run's time here, for
/// the same writes.) `complete` holds only while nothing else can have changed what the
/// slices say: the Service's resourceVersion and its slices' names and resourceVersions are
/// as that sync left them, no Node changed since (an endpoint's zone is its Node's), every
/// slice was written by this controller, and no pod was left out (for want of its Node, or
/// of an IPv4 address). Otherwise the sync reads all the pods, as upstream.
#[derive(Clone, Debug, Default)]
struct Written {
    service: Str,
    /// The slices written by this controller and not changed since, (name, resourceVersion).
    slices: Vec<(Str, Str)>,
    complete: bool,
    /// The pods' `namespace/name`.
    changed: BTreeSet<Str>,
}

/// Its timers: none (a sync that cannot place a pod, for want of its Node, is queued again by
/// the Node's own events in upstream's informers; here Nodes come before their pods).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {}

impl EndpointSliceController {
    /// Services are queued to sync.
    pub fn has_work(&self) -> bool {
        !self.queue.is_empty()
    }

    /// Queues the Services a watch event concerns (nothing while there is none).
    pub fn handle(&mut self, store: &Store, ev: WatchRef<'_>) {
        if store.count(Kind::Service) == 0 && !matches!(ev, WatchRef::Deleted(Object::Service(_))) {
            return;
        }
        match ev {
            WatchRef::Added(Object::Service(s))
            | WatchRef::Modified {
                new: Object::Service(s),
                ..
            }
            | WatchRef::Deleted(Object::Service(s)) => {
                self.queue.insert(s.metadata.key());
            }
            WatchRef::Added(Object::Pod(p)) | WatchRef::Deleted(Object::Pod(p)) => {
                self.queue_services_of(store, p, None, true);
            }
            WatchRef::Modified {
                old: Object::Pod(o),
                new: Object::Pod(n),
            } => self.queue_services_of(store, n, Some(o), pod_endpoints_changed(o, n)),
            WatchRef::Added(Object::Node(_))
            | WatchRef::Modified {
                new: Object::Node(_),
                ..
            }
            | WatchRef::Deleted(Object::Node(_)) => {
                self.written
                    .iter_mut()
                    .for_each(|(_, w)| w.complete = false);
            }
            _ => {}
        }
    }

    /// `GetServicesToUpdate`: the Services in the pod's namespace that select it, before or
    /// after the change, queued when `queue`. Each notes the pod as changed whatever the
    /// event (a change of any field leaves it out of [`Written`]'s settled pods).
    fn queue_services_of(&mut self, store: &Store, p: &Pod, old: Option<&Pod>, queue: bool) {
        for o in store.list(Kind::Service) {
            let Object::Service(s) = o else { continue };
            if s.metadata.namespace == p.metadata.namespace
                && (s.selects(&p.metadata.labels)
                    || old.is_some_and(|o| s.selects(&o.metadata.labels)))
            {
                let key = s.metadata.key();
                if let Some((_, w)) = self.written.iter_mut().find(|(k, _)| *k == key) {
                    w.changed.insert(p.metadata.key());
                }
                if queue {
                    self.queue.insert(key);
                }
            }
        }
    }

    /// Syncs every queued Service; returns what it wrote, a line each (for the trace).
    pub fn sync_all<D>(&mut self, cx: &mut Cx<'_, D>, describe: bool) -> Vec<String> {
        let mut lines = vec![];
        while let Some(key) = self.queue.pop_first() {
            let at = self.written.iter().position(|(k, _)| *k == key);
            let prior = at.map(|i| self.written.swap_remove(i).1);
            if let Some(w) = sync_service(cx.store, &key, prior, describe, &mut lines) {
                self.written.push((key, w));
            }
        }
        lines
    }
}

impl<D, W> Actor<D, W> for EndpointSliceController {
    type Step = Step;

    fn saw(&mut self, cx: &mut Cx<'_, D>, _: &Env<'_, W>, ev: &WatchEvent) {
        self.handle(cx.store, ev.view());
    }

    fn timer(
        &mut self,
        _: &mut Cx<'_, D>,
        _: &Env<'_, W>,
        _: &Str,
        _: &Str,
        s: Step,
    ) -> Option<String> {
        match s {}
    }
}

/// `podEndpointsChanged` (util/controller_utils.go l.208–243): what of a pod its endpoint
/// shows changed (its address, readiness, deletion, labels, hostname or subdomain).
pub fn pod_endpoints_changed(old: &Pod, new: &Pod) -> bool {
    let field = |p: &'_ Pod, k: &str| p.spec.extra.get(k).cloned();
    let ips_differ = match (old.ip, new.ip) {
        // (Where the kubelet gave both their address, it is the whole of status.podIPs.)
        (Some(a), Some(b)) => a != b,
        _ => old.pod_ips() != new.pod_ips(),
    };
    let extra_differs = |k| old.spec.extra != new.spec.extra && field(old, k) != field(new, k);
    ips_differ
        || old.is_ready() != new.is_ready()
        || old.metadata.deletion_timestamp.is_some() != new.metadata.deletion_timestamp.is_some()
        || old.metadata.labels != new.metadata.labels
        || extra_differs("hostname")
        || extra_differs("subdomain")
}

/// The reconcile's creates, updates and deletes, in that order, each a line in the trace when
/// `describe`; the names of the slices written, and whether every write went through.
fn write(
    store: &mut Store,
    svc: &Service,
    done: Reconciled,
    describe: bool,
    lines: &mut Vec<String>,
) -> (BTreeSet<Str>, bool) {
    let name = svc.metadata.name.as_str();
    // What a write says in the trace: the slice's endpoints, and how many are ready.
    let tally = |s: &EndpointSlice| {
        let ready = s.endpoints.iter();
        let ready = ready.filter(|e| e.conditions.ready != Some(false)).count();
        (s.endpoints.len(), ready)
    };
    let say = |lines: &mut Vec<String>, verb: &str, (all, ready): (usize, usize), slice: &str| {
        lines.push(format!(
            "endpointslice-controller: {verb} {slice} of Service {name}: {all} endpoints, {ready} ready"
        ));
    };
    let ns = &svc.metadata.namespace;
    let mut settled = true;
    let mut wrote: BTreeSet<Str> = BTreeSet::new();
    for s in done.creates {
        let counts = tally(&s);
        match store.create(Object::EndpointSlice(Box::new(s))) {
            Ok(o) => {
                wrote.insert(o.meta().name.clone());
                if describe {
                    say(lines, "created", counts, &o.meta().name);
                }
            }
            Err(_) => settled = false,
        }
    }
    for mut s in done.updates {
        let slice = s.metadata.name.clone();
        if let Some(Object::EndpointSlice(old)) =
            store.get(Kind::EndpointSlice, &key_of(ns, &slice))
        {
            s.metadata.uid = old.metadata.uid.clone();
            s.metadata.resource_version = old.metadata.resource_version.clone();
            s.metadata.creation_timestamp = old.metadata.creation_timestamp;
        }
        let counts = tally(&s);
        match store.update(Object::EndpointSlice(Box::new(s))) {
            Ok(_) => {
                if describe {
                    say(lines, "updated", counts, &slice);
                }
                wrote.insert(slice);
            }
            Err(_) => settled = false,
        }
    }
    for s in done.deletes {
        let slice = s.metadata.name.clone();
        let gone = store.delete(
            Kind::EndpointSlice,
            &key_of(ns, &slice),
            Propagation::Background,
            None,
        );
        settled &= gone.is_ok();
        if gone.is_ok() && describe {
            lines.push(format!(
                "endpointslice-controller: deleted {slice} of Service {name}"
            ));
        }
    }
    (wrote, settled)
}

/// The Service's slices managed by this controller and not being deleted (upstream's
/// slice lister with the Service's name and the controller's labels).
fn managed_slices<'s>(store: &'s Store, svc: &Service) -> Vec<&'s EndpointSlice> {
    let name = svc.metadata.name.as_str();
    let managed = |s: &EndpointSlice| {
        s.metadata.namespace == svc.metadata.namespace
            && s.metadata.deletion_timestamp.is_none()
            && s.metadata
                .labels
                .get(SERVICE_NAME_LABEL)
                .map(String::as_str)
                == Some(name)
            && s.metadata.labels.get(MANAGED_BY_LABEL).map(String::as_str)
                == Some(ENDPOINTSLICE_CONTROLLER)
    };
    let slices = store.list(Kind::EndpointSlice).filter_map(|o| match o {
        Object::EndpointSlice(s) if managed(s) => Some(&**s),
        _ => None,
    });
    slices.collect()
}

/// The slices' (name, resourceVersion), by name.
fn versions(slices: &[&EndpointSlice]) -> Vec<(Str, Str)> {
    let mut v: Vec<(Str, Str)> = slices
        .iter()
        .map(|s| (s.metadata.name.clone(), s.metadata.resource_version.clone()))
        .collect();
    crate::api::sort::sort(&mut v);
    v
}

/// The pod an endpoint's targetRef names, as `namespace/name`.
fn target_of(ep: &Endpoint) -> Option<Str> {
    let t = ep.target_ref.as_ref()?;
    Some(key_of(small_field(t, "namespace"), small_field(t, "name")))
}

/// `syncService` (l.368–450): the Service's slices made to list its pods; what they say
/// afterwards ([`Written`]). (Long: the listing of pods and slices, and the reconcile of all
/// the pods or of the changed ones, as upstream's one function does them.)
fn sync_service(
    store: &mut Store,
    key: &str,
    prior: Option<Written>,
    describe: bool,
    lines: &mut Vec<String>,
) -> Option<Written> {
    let Some(Object::Service(svc)) = store.get(Kind::Service, key) else {
        // Gone: the garbage collector deletes its slices (they are owned by it).
        return None;
    };
    let svc: Service = (**svc).clone();
    if !svc.managed_endpoints() {
        return None;
    }
    let ns = svc.metadata.namespace.clone();
    let selected = |p: &&Pod| p.metadata.namespace == ns && svc.selects(&p.metadata.labels);
    let existing = managed_slices(store, &svc);
    let before = versions(&existing);
    let ours_before = prior.as_ref().map_or(vec![], |w| w.slices.clone());
    let prior = prior
        .filter(|w| w.complete && w.service == svc.metadata.resource_version && w.slices == before);
    let node = |name: &str| match store.get(Kind::Node, &key_of("", name)) {
        Some(Object::Node(n)) => Some(&**n as &Node),
        _ => None,
    };
    // (The store adds a generated name's suffix, as the apiserver does.)
    let max = MAX_ENDPOINTS_PER_SLICE;
    let all = || store.pods().filter(selected);
    let done = match &prior {
        Some(w) => {
            let pods = w.changed.iter().filter_map(|k| store.pod(k));
            let pods = pods.filter(selected).collect();
            let settled = |ep: &Endpoint| target_of(ep).is_some_and(|t| !w.changed.contains(&t));
            let changes = Changes {
                pods,
                settled: &settled,
            };
            let done = reconcile_changes(&svc, changes, &existing, max, &node, &mut |_| "".into());
            // Tests check what the changes give against a reconcile of every pod.
            if cfg!(debug_assertions) {
                let full = reconcile(&svc, all(), &existing, max, node, &mut |_| "".into());
                assert_eq!(done, full, "Service {key}: the changes reconciled differ");
            }
            done
        }
        None => reconcile(&svc, all(), &existing, max, node, &mut |_| "".into()),
    };
    let settled = done.errors.is_empty() && !done.unlisted;
    let (wrote, written) = write(store, &svc, done, describe, lines);
    // The slices this controller wrote: now, or before and not touched since.
    let after = versions(&managed_slices(store, &svc));
    let every = after.len();
    let slices: Vec<(Str, Str)> = after
        .into_iter()
        .filter(|s| wrote.contains(&s.0) || ours_before.contains(s))
        .collect();
    Some(Written {
        service: svc.metadata.resource_version.clone(),
        complete: settled && written && slices.len() == every,
        slices,
        changed: BTreeSet::new(),
    })
}
