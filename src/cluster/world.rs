//! What a change of the world's settings does (a scenario's `world:` step, Compare's
//! settings): the setting changes, and the actors it concerns are told. More nodes register;
//! a node whose kubelet stops (`world.nodesDown`) is the node lifecycle controller's to find,
//! and one back is taken up again by its kubelet; an image whose probe starts or stops failing
//! turns its running pods' readiness.

use super::Cluster;
use super::kubelet::{PodStep, WorldPatch, readiness_probe};
use super::nodes::{MAX_NODES, shorthand_names};
use crate::api::{ConditionStatus, Kind, Object, key_of};
use crate::controller::actor::Cx;
use crate::controller::nodelifecycle::pods_on;

impl Cluster {
    /// A step's `world:` from this instant. An image whose readiness probe starts failing
    /// turns its Ready pods NotReady after `failureThreshold` probes, one each `periodSeconds`;
    /// one that passes again makes its running pods Ready after `successThreshold` probes (the
    /// kubelet's prober; a container without a readiness probe is not asked).
    /// Returns what it could not do (a node named in `nodesDown` that is not a Node).
    pub fn apply_world(&mut self, patch: &WorldPatch) -> Vec<String> {
        let before = self.sim.world.clone();
        self.sim.world.apply(patch);
        let mut errors = if patch.nodes_down.is_some() {
            self.nodes_changed(&before.nodes_down)
        } else {
            vec![]
        };
        if patch.nodes.is_some() {
            errors.extend(self.nodes_counted(before.nodes));
        }
        let now = self.now_ms();
        let mut due = vec![];
        for p in self.sim.store.pods() {
            let Some(probe) = readiness_probe(p) else {
                continue;
            };
            let image = p.spec.containers.first().map_or("", |c| c.image.as_str());
            let (was, is) = (
                before.image_unready(image),
                self.sim.world.image_unready(image),
            );
            if p.metadata.deletion_timestamp.is_some()
                || p.status.phase != crate::api::PHASE_RUNNING
            {
                continue;
            }
            let period = probe.period_seconds.max(1) as u64 * 1000;
            if is && !was && p.is_ready() {
                due.push((now + period, p.clone(), PodStep::ProbeFailed(1)));
            } else if was && !is && !p.is_ready() && !self.sim.world.image_crashes(image) {
                due.push((
                    now + probe.success_threshold.max(1) as u64 * period,
                    p.clone(),
                    PodStep::Ready,
                ));
            }
        }
        for (at, p, step) in due {
            self.add_timer(at, &p, step);
        }
        errors
    }

    /// `world.nodes` raised by a step: the new nodes register (`node-<k>` for each k up to
    /// the new count that the store does not hold). Lowered, it is refused: a node leaves a
    /// cluster by `kubectl drain` and `kubectl delete node`, or stops with `world.nodesDown`.
    pub(super) fn nodes_counted(&mut self, before: u32) -> Vec<String> {
        let now = self.sim.world.nodes;
        if now > MAX_NODES {
            self.sim.world.nodes = before;
            return vec![format!(
                "world.nodes: {now} is more nodes than a cluster has (at most {MAX_NODES})"
            )];
        }
        if now < before {
            self.sim.world.nodes = before;
            return vec![format!(
                "world.nodes: {now} is fewer than the {before} nodes registered; a step adds nodes but takes none away (world.nodesDown stops a node's kubelet; kubectl drain empties it)"
            )];
        }
        self.register_nodes(&shorthand_names(before + 1..=now));
        vec![]
    }

    /// `world.nodesDown` changed from `before`: the node lifecycle controller looks at a node
    /// newly down a grace period later; one back up reports Ready again at once. A name that
    /// is not a Node is an error to show on the step.
    pub(super) fn nodes_changed(&mut self, before: &[String]) -> Vec<String> {
        let mut unknown = vec![];
        for name in self.sim.world.nodes_down.clone() {
            let sim = &mut self.sim;
            let Some(Object::Node(n)) = sim.store.get(Kind::Node, &key_of("", &name)) else {
                unknown.push(name);
                continue;
            };
            if !before.contains(&name) {
                let (key, uid) = (n.metadata.key(), n.metadata.uid.clone());
                sim.actors
                    .lifecycle
                    .kubelet_stopped(&mut cx!(sim), key, uid);
            }
        }
        self.sim.world.nodes_down.retain(|n| !unknown.contains(n));
        let errors = unknown
            .iter()
            .map(|name| {
                format!(
                    "world.nodesDown: {name:?} is not a Node (kubectl get nodes lists the world's nodes)"
                )
            })
            .collect();
        for name in before {
            if !self.sim.world.nodes_down.contains(name) {
                self.node_back(name);
            }
        }
        errors
    }

    /// A node's kubelet reports again: the node lifecycle controller's part (its conditions,
    /// its taints), then the kubelet takes each of its pods up from where it stands (a
    /// terminating one finishes).
    fn node_back(&mut self, name: &str) {
        let sim = &mut self.sim;
        if !sim.actors.lifecycle.node_back(&mut cx!(sim), name) {
            return;
        }
        let (now, now_ms) = (self.now(), self.now_ms());
        let pods = pods_on(&self.sim.store, name);
        for p in pods {
            let mut seen = p.clone();
            // Its kubelet reports a running container's readiness afresh.
            let ready = p.status.conditions.iter().find(|c| c.type_ == "Ready");
            if ready.is_some_and(|c| c.status == "False")
                && p.status.container_statuses.iter().all(|s| s.ready)
                && !p.status.container_statuses.is_empty()
            {
                seen.status
                    .set_condition("Ready", ConditionStatus::True, now);
                let _ = self.sim.store.update_status(Object::Pod(seen.clone()));
            }
            if let Some((after, step)) = super::kubelet::next_for_seen(&seen, &self.sim.world, now)
            {
                let timer = (p.metadata.key(), p.metadata.uid.clone(), step.into());
                self.sim.timers.add(now_ms + after, timer);
            }
        }
    }
}
