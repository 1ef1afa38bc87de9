//! The garbage collector (pkg/controller/garbagecollector), for ownerReferences: dependents of a
//! deleted owner are deleted (background); an owner deleted in the foreground keeps its
//! `foregroundDeletion` finalizer until its blocking dependents are gone; an owner deleted with
//! `orphan` has its dependents' ownerReferences removed, then its finalizer.

use crate::api::{FINALIZER_FOREGROUND, FINALIZER_ORPHAN, Kind, Object};
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
        _ => return None,
    };
    Some((kind, key))
}

impl GarbageCollector {
    fn enqueue(&mut self, o: &Object) {
        self.queue.add(&gc_key(o.kind(), &o.meta().key()));
    }

    pub fn handle(&mut self, store: &Store, ev: &WatchEvent) {
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

    /// One `attemptToDeleteItem` / `processDeletingDependents` / `orphanDependents` step.
    pub fn sync(&mut self, store: &mut Store, key: &str) -> (Vec<Explain>, Option<String>) {
        let mut ex = Vec::new();
        let Some((kind, okey)) = parse_key(key) else {
            return (ex, None);
        };
        let Some(obj) = store.get(kind, okey).cloned() else {
            return (ex, None);
        };
        let m = obj.meta().clone();
        let name = format!("{}/{}", kind.as_str(), m.name);
        let result: Result<(), ApiError> = (|| {
            if m.deletion_timestamp.is_some() && m.finalizers.iter().any(|f| f == FINALIZER_ORPHAN)
            {
                let deps: Vec<Object> = store.dependents_of(&m.uid).cloned().collect();
                for mut d in deps {
                    d.meta_mut().owner_references.retain(|r| r.uid != m.uid);
                    ex.push(Explain::new(
                        "orphanDependents",
                        format!(
                            "remove the ownerReference to {name} from {}/{}",
                            d.kind().as_str(),
                            d.meta().name
                        ),
                    ));
                    store.update(d)?;
                }
                let mut o = store.get(kind, okey).cloned().ok_or(ApiError::NotFound {
                    kind,
                    name: m.name.to_string(),
                })?;
                o.meta_mut().finalizers.retain(|f| f != FINALIZER_ORPHAN);
                ex.push(Explain::new(
                    "orphanDependents",
                    format!("dependents orphaned: remove the orphan finalizer of {name}"),
                ));
                store.update(o)?;
                return Ok(());
            }
            if m.deletion_timestamp.is_some()
                && m.finalizers.iter().any(|f| f == FINALIZER_FOREGROUND)
            {
                // Every dependent is deleted (`attemptToDeleteItem` runs for each once the owner
                // waits), but the owner waits only for those that block its deletion.
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
                    let mut o = obj.clone();
                    o.meta_mut()
                        .finalizers
                        .retain(|f| f != FINALIZER_FOREGROUND);
                    ex.push(Explain::new("processDeletingDependents", format!("no blocking dependents left: remove the foregroundDeletion finalizer of {name}")));
                    store.update(o)?;
                    return Ok(());
                }
                ex.push(Explain::new(
                    "processDeletingDependents",
                    format!("{name} waits for {blocking} dependents"),
                ));
                for d in deps
                    .iter()
                    .filter(|d| d.meta().deletion_timestamp.is_none())
                {
                    // A dependent with dependents of its own is deleted in the foreground too;
                    // one without, in the background (or as its own finalizers say).
                    let nested = store.dependents_of(&d.meta().uid).next().is_some();
                    let (policy, how) = if nested {
                        (Propagation::Foreground, "foreground: it has dependents")
                    } else {
                        (Propagation::Background, "background")
                    };
                    ex.push(Explain::new(
                        "attemptToDeleteItem",
                        format!(
                            "delete {}/{} (its owner is deleted in the foreground) in the {how}",
                            d.kind().as_str(),
                            d.meta().name
                        ),
                    ));
                    let grace = if let Object::Pod(p) = d {
                        p.spec.termination_grace_period_seconds
                    } else {
                        None
                    };
                    match store.delete(d.kind(), &d.meta().key(), policy, grace) {
                        Ok(()) | Err(ApiError::NotFound { .. }) => {}
                        Err(e) => return Err(e),
                    }
                }
                return Ok(());
            }
            if m.owner_references.is_empty() || m.deletion_timestamp.is_some() {
                return Ok(());
            }
            let alive = m.owner_references.iter().any(|r| {
                store
                    .by_uid(&r.uid)
                    .is_some_and(|o| o.meta().name == r.name && o.kind().as_str() == r.kind)
            });
            if alive {
                return Ok(());
            }
            ex.push(Explain::new(
                "attemptToDeleteItem",
                format!("every owner of {name} is gone: delete it (background)"),
            ));
            let grace = if let Object::Pod(p) = &obj {
                p.spec.termination_grace_period_seconds
            } else {
                None
            };
            match store.delete(kind, okey, Propagation::Background, grace) {
                Ok(()) | Err(ApiError::NotFound { .. }) => Ok(()),
                Err(e) => Err(e),
            }
        })();
        (ex, result.err().map(|e| e.to_string()))
    }
}
