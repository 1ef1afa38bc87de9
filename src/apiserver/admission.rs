//! The apiserver's admission and registry strategies on a create, beside the store: defaults,
//! validation and the status a new object starts with (`PrepareForCreate`), a cluster-scoped
//! object's namespace, the DefaultTolerationSeconds admission plugin, and the restore of a
//! pasted cluster state's objects as their apiserver holds them.

use super::*;
use crate::api::Value;

impl Store {
    /// The DefaultTolerationSeconds admission plugin (on by default): a pod that tolerates
    /// neither taint of a node gone wrong gets `node.kubernetes.io/not-ready` and
    /// `node.kubernetes.io/unreachable` NoExecute tolerations for 300 s (each unless a
    /// toleration of that key, or of every key, with effect NoExecute or any, is there).
    pub(super) fn default_tolerations(&mut self, p: &mut Pod) {
        // A ReplicaSet's pods each get a copy of its template's spec whose parts (containers,
        // unmodelled fields) are the template's own: equal at the cost of comparing pointers.
        if let Some((from, to)) = &self.tolerated
            && (Shared::same(from, &p.spec) || **from == *p.spec)
        {
            p.spec = to.clone();
            return;
        }
        let given = p.spec.clone();
        let list = p.spec.extra.get("tolerations").and_then(Value::as_array);
        let has = |key: &str| {
            list.into_iter().flatten().any(|t| {
                let s = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("");
                (s("key").is_empty() || s("key") == key)
                    && (s("effect").is_empty() || s("effect") == "NoExecute")
            })
        };
        let missing: Vec<&str> = [
            "node.kubernetes.io/not-ready",
            "node.kubernetes.io/unreachable",
        ]
        .into_iter()
        .filter(|k| !has(k))
        .collect();
        if !missing.is_empty() {
            let extra = &mut p.spec.extra;
            let list = extra
                .entry("tolerations")
                .or_insert_with(|| Value::Array(vec![]));
            if let Value::Array(l) = list {
                for key in missing {
                    l.push(serde_json::json!({
                        "effect": "NoExecute",
                        "key": key,
                        "operator": "Exists",
                        "tolerationSeconds": 300,
                    }));
                }
            }
        }
        self.tolerated = Some((given, p.spec.clone()));
    }

    /// Takes an object of a pasted cluster state as that cluster's apiserver holds it: uid,
    /// resourceVersion, generation, timestamps, ownerReferences and status kept (defaulted and
    /// validated as a stored object is), then announced as an informer's first list announces
    /// it (ADDED), as to a controller manager that restarts against that cluster. Later writes
    /// take resourceVersions after the state's highest.
    pub fn restore(&mut self, mut obj: Object) -> Result<Rc<Object>, ApiError> {
        let kind = obj.kind();
        default_namespace(&mut obj);
        admit(&mut obj, true)?;
        if self.objects[slot(kind)]
            .by_key
            .contains_key(&obj.meta().key())
        {
            return Err(ApiError::AlreadyExists {
                kind,
                name: obj.meta().name.to_string(),
            });
        }
        let uid = obj.meta().uid.clone();
        if let Some(other) = self.by_uid(&uid) {
            return Err(ApiError::Invalid(crate::api::validation::Invalid {
                kind: kind.as_str(),
                name: obj.meta().name.to_string(),
                errors: vec![crate::api::validation::FieldError {
                    field: "metadata.uid".into(),
                    detail: format!(
                        "Duplicate value: \"{uid}\": {} {} has it already",
                        other.kind().as_str(),
                        other.meta().name
                    ),
                }],
            }));
        }
        let now = self.now();
        let rv = obj.meta().resource_version.parse::<u64>().ok();
        let m = obj.meta_mut();
        if m.uid.is_empty() {
            m.uid = self.next_uid();
        }
        match rv {
            Some(n) => self.rv = self.rv.max(n),
            None => m.resource_version = self.next_rv(),
        }
        m.generation = m.generation.max(1);
        m.creation_timestamp.get_or_insert(now);
        Ok(self.announce(obj))
    }
}

/// An object without a namespace is in `default`; a cluster-scoped one (a Node) has none, as
/// the apiserver's `BeforeCreate` clears it.
pub(super) fn default_namespace(obj: &mut Object) {
    let namespaced = obj.kind().namespaced();
    let m = obj.meta_mut();
    if !namespaced {
        m.namespace = Str::default();
    } else if m.namespace.is_empty() {
        m.namespace = "default".into();
    }
}

/// A created object's registry strategy: defaults, validation, the status a new object starts
/// with (`restored`: a stored object's, whose status is kept).
pub(super) fn admit(obj: &mut Object, restored: bool) -> Result<(), ApiError> {
    match obj {
        Object::Deployment(d) => {
            defaults::default_deployment(d);
            validation::validate_deployment(d).map_err(ApiError::Invalid)?;
            if !restored {
                d.status = Default::default();
            }
        }
        Object::ReplicaSet(r) => {
            defaults::default_replicaset(r);
            validation::validate_replicaset(r).map_err(ApiError::Invalid)?;
            if !restored {
                r.status = Default::default();
            }
        }
        // A node's kubelet registers it with its status, which the strategy keeps.
        Object::Node(n) => validation::validate_node(n).map_err(ApiError::Invalid)?,
        Object::PodDisruptionBudget(b) => {
            validation::validate_pdb(b).map_err(ApiError::Invalid)?;
            if !restored {
                b.status = Default::default();
            }
        }
        Object::Service(svc) => {
            let key = format!("{}/{}", svc.metadata.namespace, svc.metadata.name);
            svc.set_defaults(|| cluster_ip(&key));
            validation::validate_service(svc).map_err(ApiError::Invalid)?;
        }
        Object::EndpointSlice(e) => {
            validation::validate_endpoint_slice(e).map_err(ApiError::Invalid)?
        }
        Object::Pod(p) => {
            defaults::default_pod(p);
            validation::validate_pod(p).map_err(ApiError::Invalid)?;
            // (Looked at first: the controllers' pods come without a status, and a new default
            // one would cost each an allocation.)
            let s = &p.status;
            let has_status = !s.phase.is_empty()
                || !s.conditions.is_empty()
                || s.start_time.is_some()
                || !s.container_statuses.is_empty()
                || !s.extra.is_empty();
            if !restored && has_status {
                p.status = Default::default();
            }
            if p.status.phase.is_empty() {
                p.status.phase = crate::api::PHASE_PENDING.into();
            }
        }
    }
    Ok(())
}

/// The ClusterIP the allocator gives a new Service. The apiserver picks a free address of the
/// service range (10.96.0.0/12 by default) at random; here the address comes from the
/// Service's namespace and name (FNV-1a), in 10.96.0.0/16 past the first ten, so a run gives
/// the same addresses every time. (Two Services may share one, which the real allocator
/// would not allow; nothing here routes by address.)
fn cluster_ip(key: &str) -> String {
    let h = key.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let n = 10 + h % (65_536 - 11);
    format!("10.96.{}.{}", n >> 8, n & 0xff)
}
