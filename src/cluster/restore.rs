//! Continuing a cluster's state: what `kubectl get deploy,rs,pods -o yaml` printed, taken into
//! the store as that cluster's apiserver holds it, so that the run goes on as a controller
//! manager restarting against that cluster would (its informers list every object, which
//! reaches each handler as ADDED; the kubelets go on with each pod from where it stands). The
//! clock starts at the state's latest timestamp, so ages, readiness times and the progress
//! deadline keep their meaning.

use super::Cluster;
use crate::api::yaml::Skipped;
use crate::api::{Object, Pod, Str, Time};
use crate::apiserver::store::ApiError;
use std::collections::BTreeSet;

/// What continuing a state did besides storing its objects, for the reader: objects set
/// aside and why, and what the world took from the state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Restored {
    /// How many objects the run continues.
    pub objects: usize,
    /// The instant the run starts at (the state's latest timestamp), when it has one.
    pub at: Option<Time>,
    /// Objects not continued, each named with why.
    pub skipped: Vec<Skipped>,
    /// What the world takes from the state (`nodes: …`, an image that cannot be pulled).
    pub world: Vec<String>,
    /// The nodes its pods are bound to, when it holds no Node objects: the world registers
    /// them ([`Cluster::register_nodes`]).
    pub nodes: Vec<String>,
}

impl Restored {
    /// One line per thing the reader should know, as the page and the CLI say it.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![];
        let at = self
            .at
            .map_or(String::new(), |t| format!(", at its latest timestamp {t}"));
        out.push(format!(
            "Continued {} object{} from the cluster state{at}.",
            self.objects,
            if self.objects == 1 { "" } else { "s" }
        ));
        out.extend(self.world.iter().cloned());
        out.extend(self.skipped.iter().map(|s| format!("Not continued: {s}.")));
        out
    }
}

/// The latest instant an object's state records: its creation, its conditions' times, its
/// containers' starts and ends (a deletionTimestamp is left out: it names when the grace
/// period ends, in the future of the state).
fn latest(o: &Object) -> Option<Time> {
    let m = o.meta();
    let mut times: Vec<Option<Time>> = vec![m.creation_timestamp];
    match o {
        Object::Deployment(d) => {
            for c in &d.status.conditions {
                times.extend([c.last_update_time, c.last_transition_time]);
            }
        }
        Object::ReplicaSet(r) => {
            times.extend(r.status.conditions.iter().map(|c| c.last_transition_time));
        }
        Object::Node(n) => {
            times.extend(n.status.conditions.iter().map(|c| c.last_transition_time));
        }
        Object::PodDisruptionBudget(b) => {
            times.extend(b.status.conditions.iter().map(|c| c.last_transition_time));
        }
        Object::Service(_) | Object::EndpointSlice(_) => {}
        Object::Pod(p) => {
            times.push(p.status.start_time);
            times.extend(p.status.conditions.iter().map(|c| c.last_transition_time));
            for c in &p.status.container_statuses {
                times.push(c.state.running.as_ref().and_then(|r| r.started_at));
                times.push(c.last_state.terminated.as_ref().and_then(|t| t.finished_at));
            }
        }
    }
    times.into_iter().flatten().max()
}

/// The objects whose owners are all missing from the state (a pod of a ReplicaSet not pasted):
/// the garbage collector would delete them, which their cluster does not do, so they are set
/// aside. Found again until none is left, as a pod's owner may be one set aside.
fn dangling(objs: &[Object]) -> Vec<(usize, String)> {
    let mut kept: BTreeSet<Str> = BTreeSet::new();
    for o in objs {
        // (Inserted, not collected: see api::sort::map_from.)
        kept.insert(o.meta().uid.clone());
    }
    let mut out: Vec<(usize, String)> = vec![];
    loop {
        let before = out.len();
        for (i, o) in objs.iter().enumerate() {
            let owners = &o.meta().owner_references;
            if owners.is_empty()
                || out.iter().any(|(j, _)| *j == i)
                || owners.iter().any(|r| kept.contains(&r.uid))
            {
                continue;
            }
            let r = &owners[0];
            out.push((
                i,
                format!(
                    "its owner {}/{} is not in the state, and the garbage collector would delete it",
                    r.kind, r.name
                ),
            ));
            kept.remove(&o.meta().uid);
        }
        if out.len() == before {
            return out;
        }
    }
}

/// The world as the state shows it: without Node objects, a node for each node its pods are
/// bound to (`done.nodes`), and the images its pods cannot pull or keep crashing on, which go
/// on doing so. Each change is said.
fn world_from(c: &mut Cluster, pods: &[&Pod], has_nodes: bool, done: &mut Restored) {
    let said = &mut done.world;
    let mut names: Vec<String> = vec![];
    for p in pods {
        let n = p.spec.node_name.as_str();
        if !has_nodes && !n.is_empty() && !names.iter().any(|x| x == n) {
            names.push(n.to_string());
        }
    }
    if !names.is_empty() {
        said.push(format!(
            "Nodes: {} (registered for the pods bound to them: the state holds no Node objects).",
            names.join(", ")
        ));
        c.sim.world.nodes = names.len() as u32;
        done.nodes = names;
    }
    for p in pods {
        for (s, spec) in p.status.container_statuses.iter().zip(&p.spec.containers) {
            let Some(w) = &s.state.waiting else { continue };
            let image = spec.image.to_string();
            let (list, how) = match w.reason.as_str() {
                "ErrImagePull" | "ImagePullBackOff" => {
                    (&mut c.sim.world.failing_images, "cannot be pulled")
                }
                "CrashLoopBackOff" => (&mut c.sim.world.crashing_images, "crashes"),
                _ => continue,
            };
            if !list.contains(&image) {
                said.push(format!(
                    "{image} {how} ({} is {}), and goes on so.",
                    p.metadata.name, w.reason
                ));
                list.push(image);
            }
        }
    }
}

impl Cluster {
    /// Takes a cluster's state into the store (see the module's doc): objects whose owners the
    /// state lacks are set aside, the world takes the state's nodes and failing images, the
    /// clock starts at the state's latest timestamp, and each object is stored as it was.
    /// `skipped` are the objects the text held that the playground does not model;
    /// `nodes_given`, whether the scenario's other objects hold Nodes. An object the apiserver would not hold is an error
    /// with its index in `objs`.
    pub fn restore(
        &mut self,
        objs: Vec<Object>,
        skipped: Vec<Skipped>,
        nodes_given: bool,
    ) -> Result<Restored, (usize, ApiError)> {
        let mut done = Restored {
            skipped,
            ..Restored::default()
        };
        let aside = dangling(&objs);
        for (i, why) in &aside {
            let m = objs[*i].meta();
            done.skipped.push(Skipped {
                kind: objs[*i].kind().as_str().to_string(),
                name: m.name.to_string(),
                reason: why.clone(),
            });
        }
        let objs: Vec<(usize, Object)> = objs
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !aside.iter().any(|(j, _)| j == i))
            .collect();
        let has_nodes = nodes_given || objs.iter().any(|(_, o)| o.kind() == crate::api::Kind::Node);
        let pods: Vec<&Pod> = objs
            .iter()
            .filter_map(|(_, o)| match o {
                Object::Pod(p) => Some(p),
                _ => None,
            })
            .collect();
        world_from(self, &pods, has_nodes, &mut done);
        done.at = objs.iter().filter_map(|(_, o)| latest(o)).max();
        if let Some(t) = done.at {
            self.sim.store.clock().start_at(t);
        }
        for (i, o) in objs {
            let ns = o.meta().namespace.clone();
            if !ns.is_empty() {
                self.sim.store.add_namespace(&ns);
            }
            let stored = self.sim.store.restore(o).map_err(|e| (i, e))?;
            if let Object::Deployment(d) = &*stored
                && self.sim.focus.is_none()
            {
                self.sim.focus = Some(d.metadata.key().to_string());
            }
            done.objects += 1;
        }
        Ok(done)
    }
}
