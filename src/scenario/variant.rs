//! What-ifs: the same scenario with the focus Deployment's spec or the world changed, run side
//! by side. A variant is a list of `path=value` settings: `spec.…` paths change the focus
//! Deployment's manifest under `objects:`, `world.…` paths change the world
//! (`world.startMs=5000`, `world.failingImages=nginx:1.16.1`), `nodes.…` paths change every
//! Node under `objects:` (`nodes.status.allocatable.cpu=8`), `budgets.…` paths every
//! PodDisruptionBudget (`budgets.spec.minAvailable=3`). Values are read as YAML scalars
//! or flow collections (`0`, `50%`, `Recreate`, `[a, b]`). A scenario file may list its
//! variants (`variants:`), which `rollout compare` and the page's Compare view open.

use super::{Scenario, ScenarioError};
use crate::api::yaml::{parse_document, parse_state, to_editor_yaml};
use crate::api::{Kind, Map, Value};
use crate::cluster::kubelet::World;

/// The fewest and the most variants a comparison shows.
pub const MIN_VARIANTS: usize = 2;
pub const MAX_VARIANTS: usize = 4;

#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// What the column is called (defaults to its settings, or "as written").
    pub name: String,
    /// `(path, value)` in the order written.
    pub set: Vec<(String, Value)>,
}

impl Variant {
    /// The name a variant gets from its settings: `maxSurge=0, type=Recreate`.
    pub fn default_name(set: &[(String, Value)]) -> String {
        if set.is_empty() {
            return "as written".into();
        }
        set.iter()
            .map(|(p, v)| {
                let leaf = p.rsplit('.').next().unwrap_or(p);
                format!("{leaf}={}", scalar_text(v))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `a=b,c=d` as `rollout compare --set` and the page's variant fields take it. A comma
    /// inside brackets belongs to the value (`world.failingImages=[a:1, b:2]`).
    pub fn parse_settings(text: &str) -> Result<Vec<(String, Value)>, String> {
        let mut out = vec![];
        for part in split_top_level(text) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let Some((path, value)) = part.split_once('=') else {
                return Err(format!(
                    "{part:?}: expected path=value (e.g. spec.strategy.rollingUpdate.maxSurge=0)"
                ));
            };
            let path = path.trim();
            check_path(path)?;
            let value = value.trim();
            let v = if value.is_empty() {
                Value::String(String::new())
            } else {
                parse_document(value)
                    .map_err(|e| format!("{path}: {value:?} is not a value: {e}"))?
            };
            out.push((path.to_string(), v));
        }
        if out.is_empty() {
            return Err("expected at least one path=value".into());
        }
        Ok(out)
    }

    /// The settings written back as `a=b, c=d` (what [`Variant::parse_settings`] reads).
    pub fn settings_text(&self) -> String {
        self.set
            .iter()
            .map(|(p, v)| format!("{p}={}", scalar_text(v)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A value as one would type it after `=`.
fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = vec![];
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

fn check_path(path: &str) -> Result<(), String> {
    if path.is_empty() || path.split('.').any(str::is_empty) {
        return Err(format!("{path:?}: not a field path (e.g. spec.replicas)"));
    }
    match path.split_once('.') {
        Some(("world", f)) if World::FIELDS.contains(&f) => Ok(()),
        Some(("world", f))
            if World::KEYED.iter().any(|p| {
                f.strip_prefix(p)
                    .and_then(|g| g.strip_prefix('.'))
                    .is_some_and(|g| !g.is_empty() && !g.contains('.'))
            }) =>
        {
            Ok(())
        }
        Some(("world", f)) => Err(format!(
            "{path}: the world has no field {f:?} (it has {})",
            World::FIELDS.join(", ")
        )),
        Some(("spec" | "metadata" | "nodes" | "budgets", _)) => Ok(()),
        _ => Err(format!(
            "{path}: a variant changes the focus Deployment (spec.…, metadata.…), the world (world.…), every Node (nodes.…) or every PodDisruptionBudget (budgets.…)"
        )),
    }
}

/// Sets `path` (dotted) in `obj`, making the maps on the way. A segment may index a list as
/// the apiserver's field paths do (`containers[0]`): the item must be there.
fn set_path(obj: &mut Value, path: &[&str], value: Value, full: &str) -> Result<(), String> {
    let Value::Object(m) = obj else {
        return Err(format!("{full}: {} is not a mapping", path.join(".")));
    };
    let (key, index) = match path[0].split_once('[') {
        Some((key, rest)) => {
            let i = rest
                .strip_suffix(']')
                .and_then(|i| i.parse::<usize>().ok())
                .ok_or_else(|| {
                    format!(
                        "{full}: {:?} is not a list index (e.g. containers[0])",
                        path[0]
                    )
                })?;
            (key, Some(i))
        }
        None => (path[0], None),
    };
    let Some(i) = index else {
        if path.len() == 1 {
            m.insert(key.to_string(), value);
            return Ok(());
        }
        let next = m
            .entry(key.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if next.is_null() {
            *next = Value::Object(Map::new());
        }
        return set_path(next, &path[1..], value, full);
    };
    let items = match m.get_mut(key) {
        Some(Value::Array(items)) => items,
        _ => return Err(format!("{full}: {key} is not a list")),
    };
    let n = items.len();
    let Some(item) = items.get_mut(i) else {
        let has = if n == 1 {
            "1 item".to_string()
        } else {
            format!("{n} items")
        };
        return Err(format!(
            "{full}: {key} has {has}, so [{i}] is not one of them"
        ));
    };
    if path.len() == 1 {
        *item = value;
        return Ok(());
    }
    set_path(item, &path[1..], value, full)
}

impl Scenario {
    /// The scenario with a variant's settings applied (its own `variants` dropped). Errors
    /// name the setting.
    pub fn with_variant(&self, v: &Variant) -> Result<Scenario, ScenarioError> {
        let mut s = self.clone();
        s.variants.clear();
        let bad = |path: &str, message: String| ScenarioError::Field {
            path: format!("variant {:?}: {path}", v.name),
            message,
        };
        let mut world = crate::api::codec::to_value(&s.world);
        let mut manifest: Option<(usize, Vec<Value>, usize)> = None;
        for (path, value) in &v.set {
            check_path(path).map_err(|e| bad(path, e))?;
            if let Some(field) = path.strip_prefix("world.") {
                let value = match (field, value) {
                    (
                        "failingImages" | "crashingImages" | "unreadyImages" | "nodesDown",
                        Value::String(x),
                    ) => Value::Array(vec![Value::String(x.clone())]),
                    _ => value.clone(),
                };
                let fields: Vec<&str> = field.split('.').collect();
                set_path(&mut world, &fields, value, path).map_err(|e| bad(path, e))?;
                s.world = crate::api::codec::from_value(world.clone()).map_err(|e| {
                    bad(
                        path,
                        format!("{}: {}", scalar_text(value_of(&world, field)), e.message()),
                    )
                })?;
                continue;
            }
            if let Some(field) = path.strip_prefix("nodes.") {
                s.set_on_nodes(field, value).map_err(|e| bad(path, e))?;
                continue;
            }
            if let Some(field) = path.strip_prefix("budgets.") {
                s.set_on_every(Kind::PodDisruptionBudget, field, value)
                    .map_err(|e| bad(path, e))?;
                continue;
            }
            if manifest.is_none() {
                manifest = Some(self.focus_manifest().map_err(|e| bad(path, e))?);
            }
            let (_, docs, d) = manifest.as_mut().expect("found above");
            let parts: Vec<&str> = path.split('.').collect();
            set_path(&mut docs[*d], &parts, value.clone(), path).map_err(|e| bad(path, e))?;
            // Recreate takes no rollingUpdate: the apiserver refuses both (what one means by
            // "what if Recreate" is the strategy alone).
            if path == "spec.strategy.type"
                && value.as_str() == Some(crate::api::RECREATE)
                && let Some(Value::Object(st)) = docs[*d].pointer_mut("/spec/strategy")
            {
                st.remove("rollingUpdate");
            }
        }
        if let Some((i, docs, _)) = manifest {
            s.objects[i] = docs
                .iter()
                .map(to_editor_yaml)
                .collect::<Vec<_>>()
                .join("---\n");
        }
        // The settings must make a Deployment the apiserver takes: try it now, so that the
        // error names the variant.
        s.start().map_err(|e| ScenarioError::Field {
            path: format!("variant {:?}", v.name),
            message: e.to_string(),
        })?;
        Ok(s)
    }

    /// `nodes.FIELD`: on every Node under `objects:`; in a world whose nodes are registered
    /// for it (`world.nodes`), their capacity (`status.allocatable.RESOURCE` or
    /// `status.capacity.RESOURCE`, both of which such a node has alike) is
    /// `world.nodeCapacity.RESOURCE`, and any other field is refused.
    fn set_on_nodes(&mut self, field: &str, value: &Value) -> Result<(), String> {
        let written = self.objects.iter().any(|text| {
            parse_state(text)
                .is_ok_and(|p| p.manifests.iter().any(|m| m.object.kind() == Kind::Node))
        });
        if written {
            return self.set_on_every(Kind::Node, field, value);
        }
        let resource = field
            .strip_prefix("status.allocatable.")
            .or_else(|| field.strip_prefix("status.capacity."))
            .filter(|r| !r.contains('.'));
        let Some(resource) = resource else {
            return Err(format!(
                "the scenario's nodes are `world.nodes: {}`, registered for it with no Node under `objects:`: a variant sets their capacity (nodes.status.allocatable.RESOURCE), or write Node objects to change more",
                self.world.nodes
            ));
        };
        let Some(q) = crate::api::quantity_text(value) else {
            return Err(format!("{}: not a quantity", scalar_text(value)));
        };
        let mut capacity = self.world.node_capacity.clone();
        capacity.insert(resource.to_string(), q);
        crate::cluster::nodes::check_capacity(&capacity).map_err(|(_, e)| e)?;
        self.world.node_capacity = capacity;
        Ok(())
    }

    /// Sets `field` (dotted, within the object: `status.allocatable.cpu`) on every object of
    /// `kind` under `objects:` (a Node, a PodDisruptionBudget); a scenario without one has
    /// nothing to set.
    fn set_on_every(&mut self, kind: Kind, field: &str, value: &Value) -> Result<(), String> {
        let parts: Vec<&str> = field.split('.').collect();
        let mut found = false;
        for text in &mut self.objects {
            let Ok(parsed) = parse_state(text) else {
                continue;
            };
            if !parsed.manifests.iter().any(|m| m.object.kind() == kind) {
                continue;
            }
            let mut docs = vec![];
            for m in parsed.manifests {
                let mut v = m.value;
                if m.object.kind() == kind {
                    set_path(&mut v, &parts, value.clone(), field)?;
                    found = true;
                }
                docs.push(to_editor_yaml(&v));
            }
            *text = docs.join("---\n");
        }
        if found {
            Ok(())
        } else {
            Err(format!(
                "the scenario has no {} under `objects:` to change",
                kind.as_str()
            ))
        }
    }

    /// The object text holding the focus Deployment (the scenario's `focus`, else the first
    /// Deployment): its index under `objects`, its documents, and which one.
    pub(crate) fn focus_manifest(&self) -> Result<(usize, Vec<Value>, usize), String> {
        let focus = self.focus_key();
        for (i, text) in self.objects.iter().enumerate() {
            let Ok(parsed) = parse_state(text) else {
                continue;
            };
            let docs = parsed.manifests;
            let found = docs.iter().position(|m| {
                m.object.kind() == Kind::Deployment
                    && focus.as_ref().is_none_or(|f| {
                        *f == format!("{}/{}", m.object.meta().namespace, m.object.meta().name)
                    })
            });
            if let Some(d) = found {
                return Ok((i, docs.into_iter().map(|m| m.value).collect(), d));
            }
        }
        Err("the scenario has no Deployment under `objects:` to change".into())
    }

    /// The scenario's own variants, each applied (the comparison it opens as).
    pub fn variant_scenarios(&self) -> Result<Vec<Scenario>, ScenarioError> {
        self.variants.iter().map(|v| self.with_variant(v)).collect()
    }
}

fn value_of<'a>(world: &'a Value, field: &str) -> &'a Value {
    world
        .pointer(&format!("/{}", field.replace('.', "/")))
        .unwrap_or(&Value::Null)
}

/// Reads the scenario file's `variants:` (a list of `{name, set}`, `set` a mapping of paths to
/// values).
pub fn parse_variants(v: Value) -> Result<Vec<Variant>, ScenarioError> {
    let field = |path: String, message: String| ScenarioError::Field { path, message };
    let Value::Array(items) = v else {
        return Err(field(
            "variants".into(),
            "expected a list of {name, set}".into(),
        ));
    };
    if !(MIN_VARIANTS..=MAX_VARIANTS).contains(&items.len()) {
        return Err(field(
            "variants".into(),
            format!(
                "a comparison has {MIN_VARIANTS} to {MAX_VARIANTS} variants, got {}",
                items.len()
            ),
        ));
    }
    let mut out = vec![];
    for (i, item) in items.into_iter().enumerate() {
        let Value::Object(mut m) = item else {
            return Err(field(
                format!("variants[{i}]"),
                "expected {name, set}".into(),
            ));
        };
        if let Some(k) = m.keys().find(|k| *k != "name" && *k != "set") {
            return Err(field(
                format!("variants[{i}]"),
                format!("unknown field {k:?}, expected `name` or `set`"),
            ));
        }
        let set = match m.remove("set") {
            None | Some(Value::Null) => vec![],
            Some(Value::Object(s)) => s.into_iter().collect(),
            Some(other) => {
                return Err(field(
                    format!("variants[{i}].set"),
                    format!("expected a mapping of field paths to values, got {other}"),
                ));
            }
        };
        for (p, _) in &set {
            check_path(p).map_err(|e| field(format!("variants[{i}].set"), e))?;
        }
        let name = match m.remove("name") {
            None | Some(Value::Null) => Variant::default_name(&set),
            Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
            Some(other) => {
                return Err(field(
                    format!("variants[{i}].name"),
                    format!("expected a short text, got {other}"),
                ));
            }
        };
        out.push(Variant { name, set });
    }
    Ok(out)
}

/// The variants as the scenario file writes them.
pub fn variants_value(vs: &[Variant]) -> Value {
    Value::Array(
        vs.iter()
            .map(|v| {
                let mut m = Map::new();
                m.insert("name".into(), v.name.clone().into());
                if !v.set.is_empty() {
                    m.insert("set".into(), Value::Object(v.set.iter().cloned().collect()));
                }
                Value::Object(m)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::gallery::DEFAULT;
    use crate::scenario::summary::rollouts;

    fn variant(settings: &str) -> Variant {
        let set = Variant::parse_settings(settings).unwrap();
        Variant {
            name: Variant::default_name(&set),
            set,
        }
    }

    #[test]
    fn settings_are_read_as_yaml_values() {
        let set = Variant::parse_settings(
            "spec.strategy.rollingUpdate.maxSurge=0, spec.strategy.rollingUpdate.maxUnavailable=50%,world.failingImages=[a:1, b:2]",
        )
        .unwrap();
        assert_eq!(set[0].1, Value::from(0));
        assert_eq!(set[1].1, Value::from("50%"));
        assert_eq!(set[2].1, serde_json::json!(["a:1", "b:2"]));
        assert_eq!(
            Variant::default_name(&set),
            "maxSurge=0, maxUnavailable=50%, failingImages=[\"a:1\",\"b:2\"]"
        );
        let v = Variant {
            name: "x".into(),
            set,
        };
        assert_eq!(Variant::parse_settings(&v.settings_text()).unwrap(), v.set);
    }

    #[test]
    fn bad_settings_are_refused_naming_them() {
        let cases = [
            ("spec.replicas", "\"spec.replicas\": expected path=value"),
            (
                "status.replicas=3",
                "status.replicas: a variant changes the focus Deployment",
            ),
            (
                "world.startTime=3",
                "world.startTime: the world has no field \"startTime\"",
            ),
            ("spec..replicas=3", "\"spec..replicas\": not a field path"),
            ("", "expected at least one path=value"),
        ];
        for (text, want) in cases {
            let e = Variant::parse_settings(text).unwrap_err();
            assert!(e.starts_with(want), "{text}: {e}");
        }
    }

    /// Issue 48: a variant reaches into a list as the apiserver's field paths do
    /// (`containers[0]`), so Compare takes "preStop sleep 0 vs 5 s" and "grace 30 vs 5 s"; an
    /// index past the list, or a list where there is none, is refused naming the path.
    #[test]
    fn a_variant_indexes_a_list_as_field_paths_do() {
        let base = Scenario::parse(DEFAULT).unwrap();
        let s = base
            .with_variant(&variant(
                "spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds=5,spec.template.spec.terminationGracePeriodSeconds=10",
            ))
            .unwrap();
        assert!(s.objects[0].contains("seconds: 5"), "{}", s.objects[0]);
        assert!(
            s.objects[0].contains("terminationGracePeriodSeconds: 10"),
            "{}",
            s.objects[0]
        );
        for (setting, want) in [
            (
                "spec.template.spec.containers[1].image=x",
                "containers has 1 item, so [1] is not one of them",
            ),
            (
                "spec.template.spec.containers[x].image=x",
                "\"containers[x]\" is not a list index (e.g. containers[0])",
            ),
            ("spec.replicas[0]=1", "replicas is not a list"),
        ] {
            let e = base
                .with_variant(&variant(setting))
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "{setting}: {e}");
        }
    }

    #[test]
    fn a_variant_changes_the_focus_deployment_and_the_world() {
        let base = Scenario::parse(DEFAULT).unwrap();
        let s = base
            .with_variant(&variant("spec.strategy.type=Recreate,world.startMs=5000"))
            .unwrap();
        assert!(s.objects[0].contains("type: Recreate"), "{}", s.objects[0]);
        assert!(!s.objects[0].contains("rollingUpdate"), "{}", s.objects[0]);
        assert_eq!(s.world.start_ms, 5000);
        let r = rollouts(&s.run().unwrap());
        assert_eq!(r[0].lowest_available, 0);
        // The base is untouched, and a variant without settings is the base.
        assert!(base.objects[0].contains("maxSurge: 25%"));
        let same = base
            .with_variant(&Variant {
                name: "as written".into(),
                set: vec![],
            })
            .unwrap();
        assert_eq!(same.run().unwrap(), base.run().unwrap());
        let s = base
            .with_variant(&variant("world.failingImages=nginx:1.16.1"))
            .unwrap();
        assert_eq!(s.world.failing_images, vec!["nginx:1.16.1".to_string()]);
        // Issue 35: a variant whose image fails its readiness probe.
        let s = base
            .with_variant(&variant("world.unreadyImages=nginx:*"))
            .unwrap();
        assert_eq!(s.world.unready_images, vec!["nginx:*".to_string()]);
        // Issue 34: a variant on another release, or with a gate set.
        let s = base
            .with_variant(&variant("world.kubernetes=1.33"))
            .unwrap();
        assert_eq!(s.world.kubernetes.to_string(), "1.33");
        let s = base
            .with_variant(&variant(
                "world.kubernetes=1.34,world.featureGates.DeploymentReplicaSetTerminatingReplicas=true",
            ))
            .unwrap();
        assert!(
            s.world
                .gates()
                .unwrap()
                .deployment_replica_set_terminating_replicas
        );
    }

    #[test]
    fn a_variant_the_apiserver_would_refuse_is_refused_naming_it() {
        let base = Scenario::parse(DEFAULT).unwrap();
        let cases = [
            (
                "spec.strategy.rollingUpdate.maxSurge=0,spec.strategy.rollingUpdate.maxUnavailable=0",
                "may not be 0 when `maxSurge` is 0",
            ),
            ("spec.replicas=-1", "spec.replicas: Invalid value: -1"),
            (
                "spec.strategy.rollingUpdate.maxSurg=1",
                "unknown field \"spec.strategy.rollingUpdate.maxSurg\"",
            ),
            ("world.startMs=soon", "world.startMs: soon: invalid type"),
            (
                "world.kubernetes=1.38",
                "world.kubernetes: 1.38: \"1.38\" is not a release the playground reproduces: it takes 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37",
            ),
        ];
        for (text, want) in cases {
            let e = base.with_variant(&variant(text)).unwrap_err().to_string();
            assert!(e.starts_with("variant "), "{text}: {e}");
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn a_scenario_file_lists_its_variants_and_writes_them_back() {
        let text = format!(
            "{DEFAULT}variants:\n  - name: as written\n  - set: {{spec.strategy.rollingUpdate.maxSurge: 0, spec.strategy.rollingUpdate.maxUnavailable: 1}}\n"
        );
        let s = Scenario::parse(&text).unwrap();
        assert_eq!(s.variants.len(), 2);
        assert_eq!(s.variants[1].name, "maxSurge=0, maxUnavailable=1");
        assert_eq!(Scenario::parse(&s.to_yaml()).unwrap(), s);
        assert_eq!(s.variant_scenarios().unwrap().len(), 2);
        let bad = [
            (
                "variants: [{name: a}]",
                "variants: a comparison has 2 to 4 variants, got 1",
            ),
            (
                "variants: [{name: a}, {nam: b}]",
                "variants[1]: unknown field \"nam\"",
            ),
            (
                "variants: [{name: a}, {set: {status.x: 1}}]",
                "variants[1].set: status.x:",
            ),
        ];
        for (tail, want) in bad {
            let e = Scenario::parse(&format!("{DEFAULT}{tail}\n"))
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(want), "{tail}: {e}");
        }
    }

    /// A setting on every Node reaches the nodes `world.nodes` registers as their capacity
    /// (issue 45: "a setting reaches every object it names"); a field they cannot take is
    /// refused naming the setting.
    #[test]
    fn a_node_setting_reaches_the_nodes_the_world_registers() {
        let s = Scenario::parse(DEFAULT).unwrap();
        let v = s
            .with_variant(&variant("nodes.status.allocatable.cpu=600m"))
            .unwrap();
        assert_eq!(
            v.world.node_capacity.get("cpu").map(String::as_str),
            Some("600m")
        );
        let v = s
            .with_variant(&variant("nodes.status.capacity.pods=2"))
            .unwrap();
        assert_eq!(
            v.world.node_capacity.get("pods").map(String::as_str),
            Some("2")
        );
        let c = v.start().unwrap();
        let n = c.store.list(Kind::Node).next().unwrap();
        assert_eq!(
            n.to_value().pointer("/status/allocatable/pods"),
            Some(&Value::from("2"))
        );
        for (setting, want) in [
            (
                "nodes.spec.unschedulable=true",
                "nodes.spec.unschedulable: the scenario's nodes are `world.nodes: 3`, registered for it",
            ),
            (
                "nodes.status.allocatable.cpu=lots",
                "nodes.status.allocatable.cpu: \"lots\" is not a quantity",
            ),
        ] {
            let e = s.with_variant(&variant(setting)).unwrap_err().to_string();
            assert!(e.contains(want), "{setting}: {e}");
        }
    }
}
