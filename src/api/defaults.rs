//! Defaulting as the apiserver applies it to apps/v1 Deployments, ReplicaSets and pods
//! (pkg/apis/apps/v1/defaults.go and pkg/apis/core/v1/defaults.go, the fields that matter here).

use super::*;

/// apps/v1 `SetDefaults_Deployment`: replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10,
/// progressDeadlineSeconds 600, plus the pod template defaults.
pub fn default_deployment(d: &mut Deployment) {
    if d.spec.replicas.is_none() {
        d.spec.replicas = Some(1);
    }
    if d.spec.strategy.type_.is_empty() {
        d.spec.strategy.type_ = ROLLING_UPDATE.into();
    }
    if d.spec.strategy.type_ == ROLLING_UPDATE {
        let ru = d
            .spec
            .strategy
            .rolling_update
            .get_or_insert_with(Default::default);
        if ru.max_unavailable.is_none() {
            ru.max_unavailable = Some(IntOrString::Str("25%".into()));
        }
        if ru.max_surge.is_none() {
            ru.max_surge = Some(IntOrString::Str("25%".into()));
        }
    }
    if d.spec.revision_history_limit.is_none() {
        d.spec.revision_history_limit = Some(10);
    }
    if d.spec.progress_deadline_seconds.is_none() {
        d.spec.progress_deadline_seconds = Some(600);
    }
    if d.metadata.namespace.is_empty() {
        d.metadata.namespace = "default".into();
    }
    default_pod_spec(&mut d.spec.template.spec);
}

pub fn default_replicaset(rs: &mut ReplicaSet) {
    if rs.spec.replicas.is_none() {
        rs.spec.replicas = Some(1);
    }
    if rs.metadata.namespace.is_empty() {
        rs.metadata.namespace = "default".into();
    }
    // apps/v1 ReplicaSets default their labels from the template when none are given.
    if rs.metadata.labels.is_empty() {
        rs.metadata.labels = rs.spec.template.metadata.labels.clone();
    }
    default_pod_spec(&mut rs.spec.template.spec);
}

pub fn default_pod(p: &mut Pod) {
    if p.metadata.namespace.is_empty() {
        p.metadata.namespace = "default".into();
    }
    default_pod_spec(&mut p.spec);
}

/// The core/v1 pod spec defaults a `kubectl get -o yaml` shows.
/// (Long as upstream's `SetDefaults_PodSpec` is: one statement per defaulted field, in its order.)
pub fn default_pod_spec(s: &mut PodSpec) {
    if s.restart_policy.is_empty() {
        s.restart_policy = "Always".into();
    }
    if s.termination_grace_period_seconds.is_none() {
        s.termination_grace_period_seconds = Some(30);
    }
    let e = &mut s.extra;
    e.default_field("dnsPolicy", || "ClusterFirst".into());
    e.default_field("schedulerName", || "default-scheduler".into());
    e.default_field("securityContext", || serde_json::json!({}));
    // Pods created from a template share its containers: touch them only when a default is
    // missing (writing through `Shared` would copy them for every pod).
    const CONTAINER_DEFAULTS: [&str; 4] = [
        "imagePullPolicy",
        "terminationMessagePath",
        "terminationMessagePolicy",
        "resources",
    ];
    // `SetDefaults_ContainerPort`: a port's protocol is TCP unless given.
    let ports_complete = |c: &Container| {
        c.extra
            .get("ports")
            .and_then(Value::as_array)
            .is_none_or(|ps| {
                ps.iter()
                    .all(|p| !p.is_object() || p.get("protocol").is_some())
            })
    };
    // `SetDefaults_Probe` and `SetDefaults_HTTPGetAction`: a probe's numbers where absent or
    // zero, an HTTP probe's path and scheme.
    const PROBE_DEFAULTS: [(&str, i64); 4] = [
        ("timeoutSeconds", 1),
        ("periodSeconds", 10),
        ("successThreshold", 1),
        ("failureThreshold", 3),
    ];
    let probes_complete = |c: &Container| {
        PROBES.iter().filter_map(|k| c.extra.get(*k)).all(|p| {
            !p.is_object()
                || PROBE_DEFAULTS
                    .iter()
                    .all(|(k, _)| p.get(*k).is_some_and(|v| v.as_i64() != Some(0)))
                    && p.get("httpGet").is_none_or(|h| {
                        !h.is_object() || h.get("path").is_some() && h.get("scheme").is_some()
                    })
        })
    };
    let complete = |c: &Container| {
        CONTAINER_DEFAULTS.iter().all(|k| c.extra.contains_key(*k))
            && ports_complete(c)
            && probes_complete(c)
    };
    if s.containers.iter().all(complete) {
        return;
    }
    for c in s.containers.iter_mut() {
        let policy = if c.image.ends_with(":latest")
            || !c.image.rsplit('/').next().unwrap_or("").contains(':')
        {
            "Always"
        } else {
            "IfNotPresent"
        };
        c.extra.default_field("imagePullPolicy", || policy.into());
        c.extra
            .default_field("terminationMessagePath", || "/dev/termination-log".into());
        c.extra
            .default_field("terminationMessagePolicy", || "File".into());
        c.extra.default_field("resources", || serde_json::json!({}));
        if !ports_complete(c)
            && let Some(ps) = c.extra.get_mut("ports").and_then(Value::as_array_mut)
        {
            for p in ps.iter_mut().filter_map(Value::as_object_mut) {
                p.entry("protocol").or_insert_with(|| "TCP".into());
            }
        }
        if !probes_complete(c) {
            for k in PROBES {
                let Some(p) = c.extra.get_mut(k).and_then(Value::as_object_mut) else {
                    continue;
                };
                for (field, v) in PROBE_DEFAULTS {
                    let n = p.entry(field).or_insert_with(|| v.into());
                    if n.as_i64() == Some(0) {
                        *n = v.into();
                    }
                }
                if let Some(h) = p.get_mut("httpGet").and_then(Value::as_object_mut) {
                    h.entry("path").or_insert_with(|| "/".into());
                    h.entry("scheme").or_insert_with(|| "HTTP".into());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::yaml::parse_objects;

    fn deployment(spec: &str) -> Deployment {
        let text = format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec: {spec}\n"
        );
        match parse_objects(&text).unwrap().remove(0) {
            Object::Deployment(d) => *d,
            _ => unreachable!(),
        }
    }

    #[test]
    fn container_defaults_as_the_apiserver_sets_them() {
        let mut d = deployment(
            "{containers: [{name: a, image: 'nginx', ports: [{containerPort: 80}, {containerPort: 53, protocol: UDP}]}, {name: b, image: 'app:1'}]}",
        );
        default_deployment(&mut d);
        let cs = &d.spec.template.spec.containers;
        assert_eq!(cs[0].extra["imagePullPolicy"], "Always");
        assert_eq!(cs[1].extra["imagePullPolicy"], "IfNotPresent");
        assert_eq!(cs[0].extra["ports"][0]["protocol"], "TCP");
        assert_eq!(cs[0].extra["ports"][1]["protocol"], "UDP");
        assert_eq!(cs[1].extra["terminationMessagePolicy"], "File");
        assert_eq!(d.spec.template.spec.restart_policy, "Always");
        assert_eq!(d.spec.replicas, Some(1));
    }

    #[test]
    fn defaulting_a_pod_leaves_its_shared_containers_alone_when_complete() {
        let mut d =
            deployment("{containers: [{name: a, image: 'app:1', ports: [{containerPort: 80}]}]}");
        default_deployment(&mut d);
        let mut pod_spec = d.spec.template.spec.clone();
        default_pod_spec(&mut pod_spec);
        assert!(std::ptr::eq(
            &*pod_spec.containers,
            &*d.spec.template.spec.containers
        ));
    }
}
