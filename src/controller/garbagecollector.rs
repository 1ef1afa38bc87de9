//! The garbage collector (pkg/controller/garbagecollector), for ownerReferences: dependents of a
//! deleted owner are deleted (background); an owner deleted in the foreground keeps its
//! `foregroundDeletion` finalizer until its blocking dependents are gone; an owner deleted with
//! `orphan` has its dependents' ownerReferences removed, then its finalizer.

use crate::api::{FINALIZER_FOREGROUND, FINALIZER_ORPHAN, Kind, Object, OwnerReference, Str};
use crate::apiserver::queue::WorkQueue;
use crate::apiserver::store::{ApiError, Propagation, Store, WatchEvent, WatchRef};
use crate::controller::Explain;

#[derive(Default, Clone)]
pub struct GarbageCollector {
    pub queue: WorkQueue,
}

fn gc_key(kind: Kind, key: &str) -> String {
    format!("{}:{key}", kind.as_str())
}

fn parse_key(k: &str) -> Option<(Kind, &str)> {
    let (kind, key) = k.split_once(':')?;
    let kind = match kind {
        "Deployment" => Kind::Deployment,
        "ReplicaSet" => Kind::ReplicaSet,
        "Pod" => Kind::Pod,
        "EndpointSlice" => Kind::EndpointSlice,
        _ => return None,
    };
    Some((kind, key))
}

impl GarbageCollector {
    fn enqueue(&mut self, o: &Object) {
        self.queue
            .add_by(&gc_key(o.kind(), &o.meta().key()), "processGraphChanges");
    }

    pub fn handle(&mut self, store: &Store, ev: &WatchEvent) {
        self.queue.handling(Some(ev));
        self.handle_event(store, ev);
        self.queue.handling(None);
    }

    fn handle_event(&mut self, store: &Store, ev: &WatchEvent) {
        match ev.view() {
            WatchRef::Deleted(o) => {
                let deps: Vec<Object> = store.dependents_of(&o.meta().uid).cloned().collect();
                for d in &deps {
                    self.enqueue(d);
                }
                // An owner waiting for this dependent may now finish.
                for r in &o.meta().owner_references {
                    if let Some(owner) = store.by_uid(&r.uid)
                        && owner.meta().deletion_timestamp.is_some()
                    {
                        self.enqueue(&owner.clone());
                    }
                }
            }
            WatchRef::Added(o) | WatchRef::Modified { new: o, .. } => {
                let m = o.meta();
                if m.deletion_timestamp.is_some()
                    && m.finalizers
                        .iter()
                        .any(|f| f == FINALIZER_FOREGROUND || f == FINALIZER_ORPHAN)
                {
                    self.enqueue(o);
                }
                if m.owner_references
                    .iter()
                    .any(|r| store.by_uid(&r.uid).is_none())
                {
                    self.enqueue(o);
                }
            }
        }
    }

    /// One step of the collector's work on an object: `orphanDependents` for an owner deleted
    /// with the orphan finalizer, `processDeletingDependentsItem` for one deleted in the
    /// foreground, else `attemptToDeleteItem` (a dependent whose owners are all gone).
    pub fn sync(
        &mut self,
        store: &mut Store,
        key: &str,
        calls: &crate::controller::calls::CallLog,
    ) -> (Vec<Explain>, Option<String>) {
        let mut ex = Vec::new();
        let Some((kind, okey)) = parse_key(key) else {
            return (ex, None);
        };
        let Some(obj) = store.get(kind, okey).cloned() else {
            return (ex, None);
        };
        let m = obj.meta();
        let deleting_with =
            |f: &str| m.deletion_timestamp.is_some() && m.finalizers.iter().any(|x| x == f);
        let result = if deleting_with(FINALIZER_ORPHAN) {
            let _call = calls.enter("orphanDependents");
            orphan_dependents(store, &obj, &mut ex)
        } else if deleting_with(FINALIZER_FOREGROUND) {
            let _call = calls.enter("attemptToDeleteItem");
            let _deps = calls.enter("processDeletingDependentsItem");
            process_deleting_dependents(store, &obj, &mut ex)
        } else {
            let _call = calls.enter("attemptToDeleteItem");
            attempt_to_delete_item(store, &obj, &mut ex)
        };
        (ex, result.err().map(|e| e.to_string()))
    }
}

/// `Kind/name`, for the explain lines.
fn label(o: &Object) -> String {
    format!("{}/{}", o.kind().as_str(), o.meta().name)
}

/// A pod's own grace period; other objects have none.
fn grace_of(o: &Object) -> Option<i64> {
    match o {
        Object::Pod(p) => p.spec.termination_grace_period_seconds,
        _ => None,
    }
}

/// Deletes an object, as the collector does: one already gone is fine.
fn delete(store: &mut Store, o: &Object, policy: Propagation) -> Result<(), ApiError> {
    match store.delete(o.kind(), &o.meta().key(), policy, grace_of(o)) {
        Ok(()) | Err(ApiError::NotFound { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}

/// `orphanDependents`: removes the owner's reference from each dependent, then the owner's
/// orphan finalizer.
fn orphan_dependents(
    store: &mut Store,
    owner: &Object,
    ex: &mut Vec<Explain>,
) -> Result<(), ApiError> {
    let m = owner.meta();
    let name = label(owner);
    let deps: Vec<Object> = store.dependents_of(&m.uid).cloned().collect();
    for mut d in deps {
        d.meta_mut().owner_references.retain(|r| r.uid != m.uid);
        ex.push(Explain::new(
            "orphanDependents",
            format!("remove the ownerReference to {name} from {}", label(&d)),
        ));
        store.update(d)?;
    }
    let mut o = store
        .get(owner.kind(), &m.key())
        .cloned()
        .ok_or(ApiError::NotFound {
            kind: owner.kind(),
            name: m.name.to_string(),
        })?;
    o.meta_mut().finalizers.retain(|f| f != FINALIZER_ORPHAN);
    ex.push(Explain::new(
        "orphanDependents",
        format!("dependents orphaned: remove the orphan finalizer of {name}"),
    ));
    store.update(o)?;
    Ok(())
}

/// `processDeletingDependentsItem`: an owner deleted in the foreground keeps its finalizer while
/// dependents that block its deletion remain. Every dependent is deleted (`attemptToDeleteItem`
/// runs for each once the owner waits), but the owner waits only for the blocking ones.
fn process_deleting_dependents(
    store: &mut Store,
    owner: &Object,
    ex: &mut Vec<Explain>,
) -> Result<(), ApiError> {
    let m = owner.meta();
    let name = label(owner);
    let deps: Vec<Object> = store.dependents_of(&m.uid).cloned().collect();
    let blocking = deps
        .iter()
        .filter(|d| {
            d.meta()
                .owner_references
                .iter()
                .any(|r| r.uid == m.uid && r.block_owner_deletion == Some(true))
        })
        .count();
    if blocking == 0 {
        let mut o = owner.clone();
        o.meta_mut()
            .finalizers
            .retain(|f| f != FINALIZER_FOREGROUND);
        ex.push(Explain::new(
            "processDeletingDependentsItem",
            format!(
                "no blocking dependents left: remove the foregroundDeletion finalizer of {name}"
            ),
        ));
        store.update(o)?;
        return Ok(());
    }
    ex.push(Explain::new(
        "processDeletingDependentsItem",
        format!("{name} waits for {blocking} dependents"),
    ));
    for d in deps
        .iter()
        .filter(|d| d.meta().deletion_timestamp.is_none())
    {
        // A dependent with dependents of its own is deleted in the foreground too; one
        // without, in the background (or as its own finalizers say).
        let nested = store.dependents_of(&d.meta().uid).next().is_some();
        let (policy, how) = if nested {
            (Propagation::Foreground, "foreground: it has dependents")
        } else {
            (Propagation::Background, "background")
        };
        ex.push(Explain::new(
            "attemptToDeleteItem",
            format!(
                "delete {} (its owner is deleted in the foreground) in the {how}",
                label(d)
            ),
        ));
        delete(store, d, policy)?;
    }
    Ok(())
}

/// `attemptToDeleteItem`: an object none of whose owners exists any more is deleted in the
/// background; one with an owner that exists keeps living, and the references to owners that
/// are gone (dangling) are patched away.
fn attempt_to_delete_item(
    store: &mut Store,
    obj: &Object,
    ex: &mut Vec<Explain>,
) -> Result<(), ApiError> {
    let m = obj.meta();
    if m.owner_references.is_empty() || m.deletion_timestamp.is_some() {
        return Ok(());
    }
    // `classifyReferences`: an owner is solid when an object of its kind and name has its uid.
    let (solid, dangling): (Vec<&OwnerReference>, Vec<&OwnerReference>) =
        m.owner_references.iter().partition(|r| {
            store
                .by_uid(&r.uid)
                .is_some_and(|o| o.meta().name == r.name && o.kind().as_str() == r.kind)
        });
    if solid.is_empty() {
        ex.push(Explain::new(
            "attemptToDeleteItem",
            format!(
                "every owner of {} is gone: delete it (background)",
                label(obj)
            ),
        ));
        return delete(store, obj, Propagation::Background);
    }
    if dangling.is_empty() {
        return Ok(());
    }
    let gone: Vec<String> = dangling
        .iter()
        .map(|r| format!("{}/{}", r.kind, r.name))
        .collect();
    ex.push(Explain::new(
        "attemptToDeleteItem",
        format!(
            "{} has an owner that exists: remove its references to the owners that are gone ({})",
            label(obj),
            gone.join(", ")
        ),
    ));
    let gone_uids: Vec<Str> = dangling.iter().map(|r| r.uid.clone()).collect();
    let mut patched = obj.clone();
    patched
        .meta_mut()
        .owner_references
        .retain(|r| !gone_uids.contains(&r.uid));
    match store.update(patched) {
        Ok(_) | Err(ApiError::NotFound { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}
