//! A toy actor, compiled in unit tests only, to show what a new actor costs: this file and its
//! one line in `actors.rs`'s list (with the `mod` line Rust asks for). Half a second after a
//! pod labelled `toy: wave` is created, it waves at it.

use super::kubelet::World;
use crate::api::{Object, Str};
use crate::apiserver::store::{WatchEvent, WatchRef};
use crate::controller::actor::{Actor, Cx, Env};

/// The pods it has waved at.
#[derive(Clone, Debug, Default)]
pub struct Toy {
    pub waved: Vec<String>,
}

/// Its one timer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Wave,
}

impl<D: From<Step>> Actor<D, World> for Toy {
    type Step = Step;

    fn saw(&mut self, cx: &mut Cx<'_, D>, _: &Env<'_, World>, ev: &WatchEvent) {
        if let WatchRef::Added(Object::Pod(p)) = ev.view()
            && p.metadata.labels.get("toy").is_some_and(|v| v == "wave")
        {
            let at = cx.now_ms() + 500;
            cx.at(at, p.metadata.key(), p.metadata.uid.clone(), Step::Wave);
        }
    }

    fn timer(
        &mut self,
        _: &mut Cx<'_, D>,
        env: &Env<'_, World>,
        key: &Str,
        _: &Str,
        step: Step,
    ) -> Option<String> {
        let Step::Wave = step;
        self.waved.push(key.to_string());
        env.describe.then(|| format!("toy: waved at {key}"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::Cluster;
    use super::World;
    use crate::api::{Object, Pod};

    fn pod(name: &str, toy: bool) -> Object {
        let labels = if toy {
            "{app: web, toy: wave}"
        } else {
            "{app: web}"
        };
        let yaml = format!(
            "{{apiVersion: v1, kind: Pod, metadata: {{name: {name}, namespace: default, labels: {labels}}}, spec: {{containers: [{{name: app, image: 'app:1'}}]}}}}"
        );
        let p: Pod =
            crate::api::codec::from_value(crate::api::yaml::parse_document(&yaml).unwrap())
                .unwrap();
        Object::Pod(p)
    }

    /// The toy is told of the pods' ADDED events and handed its timers, and what it did is a
    /// World step's change, as any actor's.
    #[test]
    fn a_toy_actor_registered_with_one_line_is_told_of_events_and_handed_its_timers() {
        let mut c = Cluster::new(World::default());
        for (name, toy) in [("a", true), ("b", false), ("c", true)] {
            c.apiserver().create(pod(name, toy)).unwrap();
        }
        c.dispatch();
        c.advance(5_000).unwrap();
        assert_eq!(c.actors.toy.waved, ["default/a", "default/c"]);
        let waves: Vec<(u64, &str)> = c
            .rec
            .trace
            .iter()
            .flat_map(|s| s.changes().iter().map(move |c| (s.t, c.as_str())))
            .filter(|(_, c)| c.starts_with("toy: "))
            .collect();
        assert_eq!(
            waves,
            [
                (500, "toy: waved at default/a"),
                (500, "toy: waved at default/c")
            ]
        );
    }
}
