//! Scenarios (`shared/spec/simulation.md` §2): a world, manifests and timed kubectl steps, run
//! on the simulated cluster into a trace. Also the `kubectl get rs -w`-style table.

pub mod answer;
pub mod code;
pub mod compare;
pub mod embed;
pub mod gallery;
pub mod guarantees;
pub mod learn;
pub mod locate;
pub mod machinery;
pub mod preview;
pub mod quick;
pub mod session;
pub mod share;
pub mod summary;
pub mod table;
pub mod variant;
pub mod verify;

use crate::api::codec::{from_value, nd};
use crate::api::yaml::parse_document;
use crate::api::yaml::{object_from_value, parse_state};
use crate::cluster::budget::{Budget, OverBudget};
use crate::cluster::kubelet::{World, WorldPatch};
use crate::cluster::trace::{ActionStep, Body, TraceStep};
use crate::cluster::{Cluster, Livelock};
use crate::kubectl;
use serde::Deserialize;
use serde_json::Value;
use std::rc::Rc;

/// How long `until: settled` may run past the last step before giving up (virtual time).
pub const MAX_SETTLE_MS: u64 = 3_600_000;
/// The most steps a scenario may have, and the most replicas a Deployment may ask for.
pub const MAX_STEPS: usize = 1000;

#[derive(Clone, Debug, PartialEq)]
pub enum Until {
    At(u64),
    Settled,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub at_ms: u64,
    pub run: Option<String>,
    pub caption: Option<String>,
    /// World fields that change from this instant (`world: {failingImages: []}`).
    pub world: Option<WorldPatch>,
    /// `run`, read once: every replay of the run (and each copy of the scenario, which a
    /// change makes) runs the command this holds.
    parsed: ParsedOnce,
}

/// A step's command line as kubectl read it, read the first time it runs (or handed in by the
/// console, which read it to try it). Two steps are equal by their text alone.
#[derive(Clone, Debug, Default)]
struct ParsedOnce(std::cell::OnceCell<Result<Rc<kubectl::Command>, kubectl::KubectlError>>);

impl PartialEq for ParsedOnce {
    fn eq(&self, _: &ParsedOnce) -> bool {
        true
    }
}

impl Step {
    /// A kubectl command at `at_ms` (what the console adds).
    pub fn command(at_ms: u64, cmd: &str) -> Step {
        Step {
            at_ms,
            run: Some(cmd.to_string()),
            caption: None,
            world: None,
            parsed: ParsedOnce::default(),
        }
    }

    /// A command already read ([`kubectl::parse`] of `cmd`), at `at_ms`.
    pub fn parsed_command(at_ms: u64, cmd: &str, parsed: Rc<kubectl::Command>) -> Step {
        let step = Step::command(at_ms, cmd);
        let _ = step.parsed.0.set(Ok(parsed));
        step
    }

    /// The step's command, read (once).
    pub fn kubectl(&self) -> Option<Result<&kubectl::Command, &kubectl::KubectlError>> {
        let text = self.run.as_deref()?;
        let read = self
            .parsed
            .0
            .get_or_init(|| kubectl::parse(text).map(Rc::new));
        Some(read.as_ref().map(|c| &**c))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub world: World,
    /// Manifests, each as YAML text.
    pub objects: Vec<String>,
    pub steps: Vec<Step>,
    pub until: Until,
    /// The Deployment the run follows (`name` or `namespace/name`); the first one created when
    /// absent.
    pub focus: Option<String>,
    /// What-ifs to compare side by side (none, or 2 to 4): see [`variant`].
    pub variants: Vec<variant::Variant>,
    /// What a run of it may simulate (not part of the file: the page's unless the CLI says
    /// otherwise).
    pub budget: Budget,
}

/// Why a scenario cannot be read or run, with where: the field's path, or the object's place
/// under `objects:` and the field within it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    /// Not YAML: libyaml's message, with its line and column.
    #[error("the scenario is not valid YAML: {0}")]
    Yaml(String),
    /// A field of the scenario file that does not fit (`steps[2].at: …`; no path for the
    /// file as a whole).
    #[error("{}", at(path, message))]
    Field { path: String, message: String },
    /// An object under `objects:` that does not parse, or that the apiserver refuses
    /// (`objects[0] (Deployment/web): spec.replicas: …`).
    #[error("objects[{index}]{}: {message}", label.as_ref().map(|l| format!(" ({l})")).unwrap_or_default())]
    Object {
        index: usize,
        label: Option<String>,
        message: String,
    },
    /// The run did not settle at one instant.
    #[error(transparent)]
    Livelock(#[from] Livelock),
    /// The run crossed its budget while it ran.
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
}

/// `path: message`, or the message alone at the top.
fn at(path: &str, message: &str) -> String {
    if path.is_empty() {
        message.to_string()
    } else {
        format!("{path}: {message}")
    }
}

impl ScenarioError {
    fn field(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError::Field {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// The scenario file as written: every field but `name` optional, unknown ones refused.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: String,
    #[serde(default, deserialize_with = "nd")]
    description: String,
    #[serde(default, deserialize_with = "nd")]
    world: World,
    #[serde(default, deserialize_with = "nd")]
    objects: Vec<Value>,
    #[serde(default, deserialize_with = "nd")]
    steps: Vec<RawStep>,
    until: Option<Value>,
    focus: Option<String>,
    variants: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    #[serde(default)]
    at: Value,
    run: Option<String>,
    caption: Option<String>,
    world: Option<WorldPatch>,
}

/// Parses a Go duration (`30s`, `1m30s`, `500ms`, `2h`) or a plain number of milliseconds;
/// an instant of the run, so never negative.
pub fn parse_duration(v: &Value) -> Result<u64, String> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .ok_or_else(|| format!("{n} is not a non-negative number of milliseconds")),
        Value::String(s) => {
            let s = s.trim();
            if let Ok(n) = s.parse::<u64>() {
                return Ok(n);
            }
            match crate::api::time::parse_go_duration(s) {
                Ok(ns) if ns < 0.0 => Err(format!("{s:?} is not a duration: it is negative")),
                Ok(ns) => Ok((ns / 1e6).round() as u64),
                Err(e) => Err(format!(
                    "{s:?} is not a duration ({e}; use e.g. 30s, 1m30s, 500ms)"
                )),
            }
        }
        other => Err(format!("{other} is not a duration (use e.g. 30s)")),
    }
}

/// Each load of `world.traffic` is on a Service of the scenario's objects that selects pods
/// of them (a pod's labels, or a Deployment's or ReplicaSet's template's).
fn check_traffic(c: &Cluster) -> Result<(), ScenarioError> {
    use crate::api::{Kind, Object, PodSpec};
    for (i, load) in c.world.traffic.iter().enumerate() {
        let field = format!("world.traffic[{i}].service");
        let Some(Object::Service(svc)) = c.store.get(Kind::Service, &load.key()) else {
            return Err(ScenarioError::field(
                field,
                format!("no Service {:?} among the scenario's objects", load.service),
            ));
        };
        // The pods it selects: those in the objects, and those their controllers will make.
        let ns = &svc.metadata.namespace;
        let pods = c.store.pods().filter(|p| p.metadata.namespace == *ns);
        let pods = pods
            .filter(|p| svc.selects(&p.metadata.labels))
            .map(|p| &*p.spec);
        let templates = c
            .store
            .list(Kind::Deployment)
            .chain(c.store.list(Kind::ReplicaSet));
        let templates = templates.filter_map(|o| {
            let t = match o {
                Object::Deployment(d) => &d.spec.template,
                Object::ReplicaSet(r) => &r.spec.template,
                _ => return None,
            };
            (o.meta().namespace == *ns && svc.selects(&t.metadata.labels)).then_some(&t.spec)
        });
        let specs: Vec<&PodSpec> = pods.chain(templates).collect();
        if specs.is_empty() {
            let selector = svc
                .spec
                .selector
                .as_ref()
                .map_or("<none>".to_string(), |s| {
                    s.iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(",")
                });
            return Err(ScenarioError::field(
                field,
                format!(
                    "Service {:?} selects no pod of the scenario's objects (selector {selector}): the load would have nowhere to go",
                    load.service
                ),
            ));
        }
        // A port named by a targetPort no pod has gets no endpoint port, and kube-proxy no
        // rule: every request would fail for a reason of the manifest, not of the rollout.
        for (j, port) in svc.spec.ports.iter().enumerate() {
            let Some(crate::api::IntOrString::Str(name)) = &port.target_port else {
                continue;
            };
            let protocol = port.protocol.as_deref().unwrap_or("TCP");
            let found = |s: &&PodSpec| {
                crate::controller::endpointslice::find_named_port(s, name, protocol).is_some()
            };
            if !specs.iter().any(found) {
                return Err(ScenarioError::field(
                    field,
                    format!(
                        "Service {:?}'s spec.ports[{j}].targetPort {name:?} names no {protocol} container port of the pods it selects: the load would reach no port",
                        load.service
                    ),
                ));
            }
        }
    }
    Ok(())
}

impl Scenario {
    /// Reads a scenario file (YAML or JSON) to run within the page's budget. Errors name the
    /// field.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        Scenario::parse_within(text, Budget::PAGE)
    }

    /// [`Scenario::parse`] for a run within `budget`: a file whose objects are more than it
    /// holds is refused before they are read ([`Budget::check_text`]).
    pub fn parse_within(text: &str, budget: Budget) -> Result<Scenario, ScenarioError> {
        budget
            .check_text(text)
            .map_err(|e| ScenarioError::field("objects", e))?;
        let mut s = Scenario::read(text)?;
        s.budget = budget;
        Ok(s)
    }

    /// (Long: each field of a scenario file checked, with the path its error names.)
    fn read(text: &str) -> Result<Scenario, ScenarioError> {
        let v = parse_document(text).map_err(|e| ScenarioError::Yaml(e.to_string()))?;
        let raw: RawScenario =
            from_value(v).map_err(|e| ScenarioError::field(e.path(), e.message()))?;
        if raw.name.trim().is_empty() {
            return Err(ScenarioError::field("name", "a scenario needs a short id"));
        }
        if raw.steps.len() > MAX_STEPS {
            return Err(ScenarioError::field(
                "steps",
                format!("at most {MAX_STEPS} steps, got {}", raw.steps.len()),
            ));
        }
        let mut objects = vec![];
        for (i, o) in raw.objects.into_iter().enumerate() {
            match o {
                Value::String(s) => objects.push(s),
                Value::Object(_) => objects.push(crate::api::yaml::to_editor_yaml(&o)),
                other => {
                    return Err(ScenarioError::field(
                        format!("objects[{i}]"),
                        format!("expected a manifest (a YAML block or a mapping), got {other}"),
                    ));
                }
            }
        }
        let mut steps = vec![];
        let mut last = 0;
        for (i, s) in raw.steps.into_iter().enumerate() {
            let at_ms = parse_duration(&s.at)
                .map_err(|e| ScenarioError::field(format!("steps[{i}].at"), e))?;
            if at_ms < last {
                return Err(ScenarioError::field(
                    format!("steps[{i}].at"),
                    format!("steps must be in time order ({at_ms}ms comes after {last}ms)"),
                ));
            }
            last = at_ms;
            if s.run.is_none() && s.caption.is_none() && s.world.is_none() {
                return Err(ScenarioError::field(
                    format!("steps[{i}]"),
                    "a step needs `run`, `caption` or `world`",
                ));
            }
            steps.push(Step {
                at_ms,
                run: s.run,
                caption: s.caption,
                world: s.world,
                parsed: ParsedOnce::default(),
            });
        }
        let until = match raw.until {
            None => Until::Settled,
            Some(Value::String(s)) if s.trim() == "settled" => Until::Settled,
            Some(v) => Until::At(parse_duration(&v).map_err(|e| ScenarioError::field("until", e))?),
        };
        let focus = raw.focus.map(|f| f.trim().to_string());
        if let Some(f) = &focus {
            let (ns, name) = f.split_once('/').unwrap_or(("default", f));
            if !crate::api::validation::is_dns1123_label(ns)
                || !crate::api::validation::is_dns1123_subdomain(name)
            {
                return Err(ScenarioError::field(
                    "focus",
                    format!("{f:?} is not a Deployment's name or namespace/name"),
                ));
            }
        }
        raw.world
            .gates()
            .map_err(|e| ScenarioError::field("world.featureGates", e))?;
        let variants = match raw.variants {
            None | Some(Value::Null) => vec![],
            Some(v) => variant::parse_variants(v)?,
        };
        Ok(Scenario {
            name: raw.name,
            description: raw.description,
            world: raw.world,
            objects,
            steps,
            until,
            focus,
            variants,
            budget: Budget::PAGE,
        })
    }

    /// A run of just these objects from an empty cluster: no steps, until it settles (the
    /// page's "Start from my manifest").
    pub fn from_manifest(text: &str) -> Scenario {
        Scenario {
            name: "my-manifest".into(),
            description: String::new(),
            world: World::default(),
            objects: vec![text.to_string()],
            steps: vec![],
            until: Until::Settled,
            focus: None,
            variants: vec![],
            budget: Budget::PAGE,
        }
    }

    /// The focus as the store keys it (`namespace/name`; a bare name is in `default`).
    /// Adds `step` after every step at or before its instant, and returns its index. A run
    /// that would end at or before it goes on until the world settles: the reader asked for
    /// more.
    pub fn insert_step(&mut self, step: Step) -> usize {
        let at = step.at_ms;
        let k = self.steps.partition_point(|s| s.at_ms <= at);
        self.steps.insert(k, step);
        if let Until::At(t) = self.until
            && t <= at
        {
            self.until = Until::Settled;
        }
        k
    }

    pub fn focus_key(&self) -> Option<String> {
        let f = self.focus.as_ref()?;
        Some(if f.contains('/') {
            f.clone()
        } else {
            format!("default/{f}")
        })
    }

    /// Builds the cluster with the scenario's objects created at t = 0 (validated as the
    /// apiserver would; an invalid object is an error naming it and the field).
    pub fn start(&self) -> Result<Cluster, ScenarioError> {
        self.check_time()?;
        self.check_nodes()?;
        self.count_objects()?;
        let gates = self
            .world
            .gates()
            .map_err(|e| ScenarioError::field("world.featureGates", e))?;
        // Nodes down from the start: their kubelets stop once the objects are in.
        let mut world = self.world.clone();
        let down = std::mem::take(&mut world.nodes_down);
        let mut c = Cluster::with_gates(world, gates);
        c.set_budget(self.budget);
        c.follow(self.focus_key());
        self.load_objects(&mut c)?;
        check_traffic(&c)?;
        if !down.is_empty() {
            let patch = crate::cluster::kubelet::WorldPatch {
                nodes_down: Some(down),
                ..Default::default()
            };
            if let Some(e) = c.apply_world(&patch).into_iter().next() {
                let e = e.trim_start_matches("world.nodesDown: ").to_string();
                return Err(ScenarioError::field("world.nodesDown", e));
            }
        }
        Ok(c)
    }

    /// The object texts within the budget, counted together before they are read
    /// ([`Budget::check_texts`]); a refusal names the text whose objects crossed it. A file's
    /// objects written as mappings were counted with the file, and are counted again here as
    /// the texts they became: cheaply, since texts too short to pass the budget are not walked.
    fn count_objects(&self) -> Result<(), ScenarioError> {
        let texts: Vec<&str> = self.objects.iter().map(String::as_str).collect();
        self.budget
            .check_texts(&texts)
            .map_err(|(index, message)| ScenarioError::Object {
                index,
                label: None,
                message,
            })
    }

    /// The scenario's objects into a new cluster: those with a uid are a cluster's state,
    /// which the run continues ([`Cluster::restore`]); the others are created after it, as a
    /// client's `POST` creates them. An object refused is an error naming it.
    fn load_objects(&self, c: &mut Cluster) -> Result<(), ScenarioError> {
        let (mut state, mut skipped, mut created) = (vec![], vec![], vec![]);
        for (i, text) in self.objects.iter().enumerate() {
            let parsed = parse_state(text).map_err(|e| ScenarioError::Object {
                index: i,
                label: None,
                message: e.to_string(),
            })?;
            skipped.extend(parsed.skipped);
            for m in parsed.manifests {
                let o = m.object;
                let label = format!("{}/{}", o.kind().as_str(), o.meta().name);
                let err = |message: String| ScenarioError::Object {
                    index: i,
                    label: Some(label.clone()),
                    message,
                };
                let restored = !o.meta().uid.is_empty();
                // A state's fields are its apiserver's, which may be newer than this schema.
                if !restored && !m.unknown.is_empty() {
                    let kind = o.kind();
                    return Err(err(crate::api::schema::strict_decoding_error(
                        kind, &m.unknown,
                    )));
                }
                let replicas = match &o {
                    crate::api::Object::Deployment(d) => d.spec.replicas,
                    crate::api::Object::ReplicaSet(r) => r.spec.replicas,
                    _ => None,
                };
                if let Some(n) = replicas {
                    self.budget
                        .check_replicas(n.into())
                        .map_err(|e| err(format!("spec.replicas: {e}")))?;
                }
                if restored {
                    state.push((i, o));
                } else {
                    created.push((i, o));
                }
            }
        }
        let is_node = |(_, o): &(usize, crate::api::Object)| o.kind() == crate::api::Kind::Node;
        let nodes_given = state.iter().any(is_node) || created.iter().any(is_node);
        let mut register = crate::cluster::nodes::shorthand_names(1..=self.world.nodes);
        if !state.is_empty() || !skipped.is_empty() {
            let (index, objs): (Vec<usize>, Vec<_>) = state.into_iter().unzip();
            let labels: Vec<String> = objs
                .iter()
                .map(|o| format!("{}/{}", o.kind().as_str(), o.meta().name))
                .collect();
            let done = c
                .restore(objs, skipped, created.iter().any(is_node))
                .map_err(|(k, e)| ScenarioError::Object {
                    index: index[k],
                    label: Some(labels[k].clone()),
                    message: e.to_string(),
                })?;
            if !done.nodes.is_empty() {
                register.clone_from(&done.nodes);
            }
            c.set_restored(std::rc::Rc::new(done));
        }
        // Without Node objects of its own, the world registers its nodes before the
        // scenario's objects are created, as a cluster has its nodes before a client applies.
        if !nodes_given {
            c.register_nodes(&register);
        }
        for (i, o) in created {
            let label = format!("{}/{}", o.kind().as_str(), o.meta().name);
            c.create(o).map_err(|e| ScenarioError::Object {
                index: i,
                label: Some(label),
                message: e.to_string(),
            })?;
        }
        Ok(())
    }

    /// The world's nodes: at most [`crate::cluster::nodes::MAX_NODES`], and a capacity of
    /// quantities.
    fn check_nodes(&self) -> Result<(), ScenarioError> {
        use crate::cluster::nodes::{MAX_NODES, check_capacity};
        if self.world.nodes > MAX_NODES {
            return Err(ScenarioError::field(
                "world.nodes",
                format!(
                    "{} is more nodes than a cluster has (at most {MAX_NODES})",
                    self.world.nodes
                ),
            ));
        }
        check_capacity(&self.world.node_capacity).map_err(|(f, e)| ScenarioError::field(&f, e))
    }

    /// The virtual time the scenario asks for, within its budget: `until` and every step's
    /// `at` (refused before anything runs).
    fn check_time(&self) -> Result<(), ScenarioError> {
        if let Until::At(t) = self.until {
            self.budget
                .check_time(t)
                .map_err(|e| ScenarioError::field("until", e))?;
        }
        for (i, s) in self.steps.iter().enumerate() {
            self.budget
                .check_time(s.at_ms)
                .map_err(|e| ScenarioError::field(format!("steps[{i}].at"), e))?;
        }
        Ok(())
    }

    /// Runs the whole scenario and returns the trace; a run that crossed its budget is an
    /// error saying where.
    pub fn run(&self) -> Result<Vec<TraceStep>, ScenarioError> {
        self.run_started(self.start()?)
    }

    /// [`Scenario::run`] on a cluster [`Scenario::start`] made.
    pub fn run_started(&self, mut c: Cluster) -> Result<Vec<TraceStep>, ScenarioError> {
        self.run_on(&mut c)?;
        match c.take_over() {
            Some(over) => Err(over.into()),
            None => Ok(c.into_parts().1.trace),
        }
    }

    /// Plays the steps and the tail (`until`) on a started cluster.
    pub fn run_on(&self, c: &mut Cluster) -> Result<(), Livelock> {
        self.go_on(c, &mut Cursor::from_start(), None)
    }

    /// Runs from scenario step `from` up to step `k` (not applied): the world stands at step
    /// `k`'s instant, everything due before it done, and `run_from(c, k)` goes on from there.
    /// False when the run was cut (`Cluster::halted`) on the way.
    pub fn run_until(&self, c: &mut Cluster, from: usize, k: usize) -> Result<bool, Livelock> {
        let mut cursor = Cursor::until(from, k);
        self.go_on(c, &mut cursor, None)?;
        Ok(!cursor.cut)
    }

    /// Plays the run on from scenario step `from` (a cluster resumed from a checkpoint).
    pub fn run_from(&self, c: &mut Cluster, from: usize) -> Result<(), Livelock> {
        self.go_on(c, &mut Cursor::from_step(from), None)
    }

    /// Plays the run on from where `cursor` stands, doing at most about `work` more
    /// [`Cluster::work`] (all of it with `None`), and moves the cursor; `cursor.done` once the
    /// run has ended. The page records a long run this way, a slice between two frames; a run
    /// taken in slices records exactly what a run in one go records.
    pub fn go_on(
        &self,
        c: &mut Cluster,
        cursor: &mut Cursor,
        work: Option<u64>,
    ) -> Result<(), Livelock> {
        c.set_pause_at(work.and_then(|w| c.work().checked_add(w)));
        let result = self.slice(c, cursor);
        c.set_pause_at(None);
        result
    }

    fn slice(&self, c: &mut Cluster, cur: &mut Cursor) -> Result<(), Livelock> {
        if cur.done {
            return Ok(());
        }
        if cur.drain_first {
            cur.drain_first = false;
            c.drain()?;
        }
        // What the last slice's pause stopped (an instant, a drain after a step) goes on first.
        if !c.go_on_paused()? {
            return Ok(());
        }
        let stop = cur.stop_before.unwrap_or(self.steps.len());
        while cur.next < stop {
            let step = &self.steps[cur.next];
            c.rec.scenario_pos = cur.next;
            if !c.advance_until(step.at_ms)? {
                return Ok(());
            }
            if c.halted() {
                cur.cut = true;
                cur.done = true;
                return Ok(());
            }
            apply_step(c, step);
            c.rec.scenario_pos = cur.next + 1;
            cur.next += 1;
            c.drain()?;
            if c.draining {
                return Ok(());
            }
        }
        if let Some(k) = cur.stop_before {
            c.rec.scenario_pos = k;
            if let Some(step) = self.steps.get(k)
                && !c.advance_until(step.at_ms)?
            {
                return Ok(());
            }
            cur.done = true;
            return Ok(());
        }
        let last = self.steps.last().map(|s| s.at_ms).unwrap_or(0);
        match self.until {
            Until::At(t) => {
                if !c.advance_until(t.max(c.now_ms()))? {
                    return Ok(());
                }
            }
            Until::Settled => {
                let limit = last + MAX_SETTLE_MS;
                while !c.is_settled() && !c.halted() {
                    match c.next_event_ms() {
                        Some(t) if t <= limit => {
                            if !c.advance_until(t)? {
                                return Ok(());
                            }
                        }
                        _ => break,
                    }
                }
            }
        }
        if !c.halted() {
            c.expire_clients();
        }
        cur.done = true;
        Ok(())
    }
}

/// Where a run taken in slices stands between two of them ([`Scenario::go_on`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Cursor {
    /// The scenario step applied next.
    next: usize,
    /// Stop before applying this step, at its instant ([`Scenario::run_until`]); else every
    /// step, then the tail (`until`).
    stop_before: Option<usize>,
    /// A run from t = 0 first drains what creating the objects queued.
    drain_first: bool,
    /// The run has ended.
    pub done: bool,
    /// It was cut ([`Cluster::halted`]) before every step was applied.
    pub cut: bool,
}

impl Cursor {
    /// A run of a started cluster from t = 0.
    pub fn from_start() -> Cursor {
        Cursor {
            drain_first: true,
            ..Cursor::from_step(0)
        }
    }

    /// A run resumed before scenario step `from`.
    pub fn from_step(from: usize) -> Cursor {
        Cursor {
            next: from,
            stop_before: None,
            drain_first: false,
            done: false,
            cut: false,
        }
    }

    /// A run resumed before scenario step `from` that stops before applying step `k`, at
    /// its instant.
    pub fn until(from: usize, k: usize) -> Cursor {
        Cursor {
            stop_before: Some(k),
            ..Cursor::from_step(from)
        }
    }
}

/// Applies one user step at the cluster's current instant and records it as an `action` step.
pub fn apply_step(c: &mut Cluster, step: &Step) {
    let mut s = ActionStep {
        caption: step.caption.clone(),
        ..Default::default()
    };
    if let Some(w) = &step.world {
        s.errors.extend(c.apply_world(w));
        s.changes.push(format!(
            "world: {}",
            serde_json::to_string(w).expect("a world patch is JSON")
        ));
    }
    if let (Some(text), Some(cmd)) = (&step.run, step.kubectl()) {
        s.command = Some(text.clone());
        match cmd
            .map_err(Clone::clone)
            .and_then(|cmd| kubectl::run_command(c, cmd))
        {
            Ok(out) => s.output = Some(out),
            Err(e) => s.errors.push(e.to_string()),
        }
    }
    c.dispatch();
    // A `rollout status` that goes on watching, or a drain still under way, prints its
    // next lines onto this step.
    let recording = c.rec.options.steps;
    if c.clients_onto_step(recording.then(|| c.steps()), &mut s.changes) {
        s.watch = Some(Default::default());
    }
    if recording {
        c.push_step(TraceStep::new(c.now_ms(), Body::Action(s)));
    }
}

/// Reads objects given as standalone values (used by the JS API).
pub fn object_from_json(v: Value) -> Result<crate::api::Object, String> {
    object_from_value(v).map_err(|e| e.to_string())
}
