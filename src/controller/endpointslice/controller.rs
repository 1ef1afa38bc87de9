//! endpointslice_controller.go (pkg/controller/endpointslice, at the 2026 master commit
//! 008b3652959ca58af8be3fb5b6ecfe9ae7638282 that docs/research/traffic.md reads): the
//! controller around the reconciler. Its handlers queue a Service when the Service changes
//! (`onServiceUpdate` / `onServiceDelete`, l.507, l.518) and every Service that selects a pod
//! whose endpoint changed (`onPodUpdate`, l.529, through `podEndpointsChanged`); `syncService`
//! (l.368–450) lists the Service's pods and its slices and writes what [`super::reconcile`]
//! returns.
//!
//! Here, as the disruption controller, it runs as the fastest of the controllers: its queue is
//! emptied at each instant before any other sync (upstream's `endpointUpdatesBatchPeriod` is 0
//! by default, so a change is synced at once). Left out: the pod projection queue (its keys
//! lead to the same Services), the topology queue, the slice tracker (the store here is never
//! stale) and the trigger-time annotation.

use super::{MAX_ENDPOINTS_PER_SLICE, reconcile};
use crate::api::service::{ENDPOINTSLICE_CONTROLLER, MANAGED_BY_LABEL, SERVICE_NAME_LABEL};
use crate::api::service::{EndpointSlice, Service};
use crate::api::{Kind, Node, Object, Pod, Str};
use crate::apiserver::store::{Propagation, Store, WatchEvent, WatchRef};
use crate::controller::actor::{Actor, Cx, Env};
use std::collections::BTreeSet;

/// The EndpointSlice controller: its queue of Services (`namespace/name`).
#[derive(Clone, Debug, Default)]
pub struct EndpointSliceController {
    queue: BTreeSet<Str>,
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
                self.queue_services_of(store, p, None);
            }
            WatchRef::Modified {
                old: Object::Pod(o),
                new: Object::Pod(n),
            } if pod_endpoints_changed(o, n) => self.queue_services_of(store, n, Some(o)),
            _ => {}
        }
    }

    /// `GetServicesToUpdate`: the Services in the pod's namespace that select it, before or
    /// after the change.
    fn queue_services_of(&mut self, store: &Store, p: &Pod, old: Option<&Pod>) {
        for o in store.list(Kind::Service) {
            let Object::Service(s) = o else { continue };
            if s.metadata.namespace == p.metadata.namespace
                && (s.selects(&p.metadata.labels)
                    || old.is_some_and(|o| s.selects(&o.metadata.labels)))
            {
                self.queue.insert(s.metadata.key());
            }
        }
    }

    /// Syncs every queued Service; returns what it wrote, a line each (for the trace).
    pub fn sync_all<D>(&mut self, cx: &mut Cx<'_, D>, describe: bool) -> Vec<String> {
        let mut lines = vec![];
        while let Some(key) = self.queue.pop_first() {
            sync_service(cx.store, &key, describe, &mut lines);
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
    let field = |p: &Pod, k: &str| p.spec.extra.get(k).cloned();
    old.pod_ips() != new.pod_ips()
        || old.is_ready() != new.is_ready()
        || old.metadata.deletion_timestamp.is_some() != new.metadata.deletion_timestamp.is_some()
        || old.metadata.labels != new.metadata.labels
        || field(old, "hostname") != field(new, "hostname")
        || field(old, "subdomain") != field(new, "subdomain")
}

/// `syncService` (l.368–450): the Service's slices made to list its pods. (Long: the
/// listing of pods and slices, the reconcile, and its three kinds of writes, each said in
/// the trace, as upstream's one function does them.)
fn sync_service(store: &mut Store, key: &str, describe: bool, lines: &mut Vec<String>) {
    let Some(Object::Service(svc)) = store.get(Kind::Service, key) else {
        // Gone: the garbage collector deletes its slices (they are owned by it).
        return;
    };
    let svc: Service = (**svc).clone();
    if !svc.managed_endpoints() {
        return;
    }
    let ns = svc.metadata.namespace.clone();
    let pods: Vec<&Pod> = store
        .pods()
        .filter(|p| p.metadata.namespace == ns && svc.selects(&p.metadata.labels))
        .collect();
    let existing: Vec<EndpointSlice> = store
        .list(Kind::EndpointSlice)
        .filter_map(|o| match o {
            Object::EndpointSlice(s) => Some(&**s),
            _ => None,
        })
        .filter(|s| {
            s.metadata.namespace == ns
                && s.metadata.deletion_timestamp.is_none()
                && s.metadata.labels.get(SERVICE_NAME_LABEL) == Some(&svc.metadata.name.to_string())
                && s.metadata.labels.get(MANAGED_BY_LABEL).map(String::as_str)
                    == Some(ENDPOINTSLICE_CONTROLLER)
        })
        .cloned()
        .collect();
    let node = |name: &str| match store.get(Kind::Node, &crate::api::key_of("", name)) {
        Some(Object::Node(n)) => Some(&**n as &Node),
        _ => None,
    };
    // (The store adds a generated name's suffix, as the apiserver does.)
    let done = reconcile(
        &svc,
        pods,
        &existing,
        MAX_ENDPOINTS_PER_SLICE,
        node,
        &mut |_| String::new(),
    );
    let name = svc.metadata.name.as_str();
    let say = |lines: &mut Vec<String>, verb: &str, s: &EndpointSlice, slice: &str| {
        if describe {
            let ready = s
                .endpoints
                .iter()
                .filter(|e| e.conditions.ready != Some(false))
                .count();
            lines.push(format!(
                "endpointslice-controller: {verb} {slice} of Service {name}: {} endpoints, {ready} ready",
                s.endpoints.len()
            ));
        }
    };
    for s in done.creates {
        if let Ok(o) = store.create(Object::EndpointSlice(Box::new(s.clone()))) {
            say(lines, "created", &s, &o.meta().name);
        }
    }
    for mut s in done.updates {
        let slice = s.metadata.name.clone();
        if let Some(Object::EndpointSlice(old)) =
            store.get(Kind::EndpointSlice, &format!("{ns}/{slice}"))
        {
            s.metadata.uid = old.metadata.uid.clone();
            s.metadata.resource_version = old.metadata.resource_version.clone();
            s.metadata.creation_timestamp = old.metadata.creation_timestamp;
        }
        if store
            .update(Object::EndpointSlice(Box::new(s.clone())))
            .is_ok()
        {
            say(lines, "updated", &s, &slice);
        }
    }
    for s in done.deletes {
        let slice = s.metadata.name.clone();
        if store
            .delete(
                Kind::EndpointSlice,
                &format!("{ns}/{slice}"),
                Propagation::Background,
                None,
            )
            .is_ok()
            && describe
        {
            lines.push(format!(
                "endpointslice-controller: deleted {slice} of Service {name}"
            ));
        }
    }
}
