//! `kubectl describe` for Deployments, ReplicaSets and pods (k8s.io/kubectl/pkg/describe):
//! the same sections in the same order, written as its `PrefixWriter` writes them (two spaces
//! an indent level, cells ended by tabs) and aligned by a tab writer with its settings (no
//! minimum width, two spaces of padding), so that columns line up exactly where kubectl's do:
//! a label column is as wide as the longest label of its run of lines.

use super::args::Args;
use super::builder::{self, Info, Report, Setup};
use super::printer::{Describe, owned_replica_sets};
use super::{KubectlError, Outcome};
use crate::api::time::human_duration;
use crate::api::*;
use crate::cluster::Cluster;
use crate::controller::deployment::util as du;

impl Describe {
    /// `DescribePodTemplate`.
    fn pod_template(&mut self, t: &PodTemplateSpec) {
        self.w(0, "Pod Template:\n");
        self.labels("  Labels", &t.metadata.labels);
        if !t.metadata.annotations.is_empty() {
            self.annotations("  Annotations", &t.metadata.annotations);
        }
        self.containers(&t.spec, None, "  ");
        self.volumes(&t.spec, "  ");
        self.w(0, "  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n");
    }

    /// `describeContainers`: each container, with its status when the pod has one.
    /// `pod` is the pod described (its status, and the values its environment refers to).
    fn containers(&mut self, spec: &PodSpec, pod: Option<&Pod>, space: &str) {
        let statuses = pod.map_or(&[][..], |p| &p.status.container_statuses[..]);
        self.container_list("Containers", &spec.containers, statuses, pod, space);
    }

    /// One list of containers under its label (`Containers`, `Init Containers`).
    fn container_list(
        &mut self,
        label: &str,
        list: &[Container],
        statuses: &[ContainerStatus],
        pod: Option<&Pod>,
        space: &str,
    ) {
        let none = if list.is_empty() { " <none>" } else { "" };
        self.w(0, format_args!("{space}{label}:{none}\n"));
        let name_indent = if space.is_empty() { "" } else { " " };
        for ct in list {
            self.w(1, format_args!("{name_indent}{}:\n", ct.name));
            let cs = statuses.iter().find(|x| x.name == ct.name);
            if cs.is_some() {
                self.w(2, "Container ID:\t\n");
            }
            self.w(2, format_args!("Image:\t{}\n", ct.image));
            if cs.is_some() {
                self.w(2, "Image ID:\t\n");
            }
            self.ports(ct);
            self.seccomp(ct.extra.get("securityContext"), 2);
            self.command(ct);
            if let Some(cs) = cs {
                self.state("State", &cs.state);
                if cs.last_state.terminated.is_some() {
                    self.state("Last State", &cs.last_state);
                }
                let ready = if cs.ready { "True" } else { "False" };
                self.w(2, format_args!("Ready:\t{ready}\n"));
                self.w(2, format_args!("Restart Count:\t{}\n", cs.restart_count));
            }
            self.resources(ct.extra.get("resources"), 2);
            for (field, title) in PROBES.iter().zip(["Liveness", "Readiness", "Startup"]) {
                if let Some(p) = ct.extra.get(*field).filter(|p| p.is_object()) {
                    self.w(2, format_args!("{title}:\t{}\n", probe(p)));
                }
            }
            self.env_from(ct);
            self.env(ct, pod);
            self.mounts(ct);
        }
    }

    /// A `securityContext`'s seccomp profile, when it has one, at `level`.
    fn seccomp(&mut self, sc: Option<&Value>, level: usize) {
        let Some(profile) = sc.and_then(|s| s.get("seccompProfile")) else {
            return;
        };
        let ty = profile["type"].as_str().unwrap_or("");
        self.w(level, format_args!("SeccompProfile:\t{ty}\n"));
        if ty == "Localhost" {
            let path = profile["localhostProfile"].as_str().unwrap_or("");
            self.w(level + 1, format_args!("LocalhostProfile:\t{path}\n"));
        }
    }

    /// `describeContainerCommand`: `Command:` and `Args:`, a line per line of each.
    fn command(&mut self, ct: &Container) {
        for (field, title) in [("command", "Command"), ("args", "Args")] {
            let Some(list) = ct
                .extra
                .get(field)
                .and_then(Value::as_array)
                .filter(|l| !l.is_empty())
            else {
                continue;
            };
            self.w(2, format_args!("{title}:\n"));
            for item in list {
                for line in item.as_str().unwrap_or_default().split('\n') {
                    self.w(3, format_args!("{line}\n"));
                }
            }
        }
    }

    /// `describeContainerEnvFrom`, when the container has `envFrom`.
    fn env_from(&mut self, ct: &Container) {
        let Some(list) = ct
            .extra
            .get("envFrom")
            .and_then(Value::as_array)
            .filter(|l| !l.is_empty())
        else {
            return;
        };
        self.w(2, "Environment Variables from:\n");
        for e in list {
            let (from, r) = match (e.get("configMapRef"), e.get("secretRef")) {
                (Some(r), _) => ("ConfigMap", r),
                (None, Some(r)) => ("Secret", r),
                (None, None) => ("", &Value::Null),
            };
            let name = r.get("name").and_then(Value::as_str).unwrap_or("");
            let optional = r.get("optional").and_then(Value::as_bool).unwrap_or(false);
            match e
                .get("prefix")
                .and_then(Value::as_str)
                .filter(|p| !p.is_empty())
            {
                None => self.w(3, format_args!("{name}\t{from}\tOptional: {optional}\n")),
                Some(p) => self.w(
                    3,
                    format_args!("{name}\t{from} with prefix '{p}'\tOptional: {optional}\n"),
                ),
            }
        }
    }

    /// `Port:` and `Host Port:` (plural when there are several).
    fn ports(&mut self, ct: &Container) {
        let ports: Vec<&Value> = ct
            .extra
            .get("ports")
            .and_then(Value::as_array)
            .map(|a| a.iter().collect())
            .unwrap_or_default();
        let list = |key: &str| {
            ports
                .iter()
                .map(|p| {
                    let n = p.get(key).and_then(Value::as_i64).unwrap_or(0);
                    let proto = p.get("protocol").and_then(Value::as_str).unwrap_or("TCP");
                    match p
                        .get("name")
                        .and_then(Value::as_str)
                        .filter(|n| !n.is_empty())
                    {
                        Some(name) => format!("{n}/{proto} ({name})"),
                        None => format!("{n}/{proto}"),
                    }
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (title, key) in [("Port", "containerPort"), ("Host Port", "hostPort")] {
            let text = list(key);
            if text.contains(',') {
                self.w(2, format_args!("{title}s:\t{text}\n"));
            } else if text.is_empty() {
                self.w(2, format_args!("{title}:\t<none>\n"));
            } else {
                self.w(2, format_args!("{title}:\t{text}\n"));
            }
        }
    }

    /// `describeStatus`.
    fn state(&mut self, title: &str, s: &ContainerState) {
        // Go's zero time where the kubelet gave none.
        let at = |t: Option<Time>| {
            t.map_or_else(|| "Mon, 01 Jan 0001 00:00:00 +0000".into(), Time::rfc1123z)
        };
        if let Some(r) = &s.running {
            self.w(2, format_args!("{title}:\tRunning\n"));
            self.w(3, format_args!("Started:\t{}\n", at(r.started_at)));
        } else if let Some(t) = &s.terminated {
            self.w(2, format_args!("{title}:\tTerminated\n"));
            if !t.reason.is_empty() {
                self.w(3, format_args!("Reason:\t{}\n", t.reason));
            }
            if !t.message.is_empty() {
                self.w(3, format_args!("Message:\t{}\n", t.message));
            }
            self.w(3, format_args!("Exit Code:\t{}\n", t.exit_code));
            if t.signal > 0 {
                self.w(3, format_args!("Signal:\t{}\n", t.signal));
            }
            self.w(3, format_args!("Started:\t{}\n", at(t.started_at)));
            self.w(3, format_args!("Finished:\t{}\n", at(t.finished_at)));
        } else {
            self.w(2, format_args!("{title}:\tWaiting\n"));
            if let Some(w) = s.waiting.as_ref().filter(|w| !w.reason.is_empty()) {
                self.w(3, format_args!("Reason:\t{}\n", w.reason));
            }
        }
    }

    /// `describeResources`: limits, then requests, each by resource name, at `level`.
    fn resources(&mut self, r: Option<&Value>, level: usize) {
        let Some(r) = r else {
            return;
        };
        for (key, title) in [("limits", "Limits"), ("requests", "Requests")] {
            let Some(m) = r
                .get(key)
                .and_then(Value::as_object)
                .filter(|m| !m.is_empty())
            else {
                continue;
            };
            self.w(level, format_args!("{title}:\n"));
            let mut names: Vec<(&String, &Value)> = m.iter().collect();
            crate::api::sort::sort_by(&mut names, |a, b| a.0.cmp(b.0));
            for (name, q) in names {
                let q = q.as_str().map_or_else(|| q.to_string(), str::to_string);
                let q = crate::api::quantity::canonical(&q).unwrap_or(q);
                self.w(level + 1, format_args!("{name}:\t{q}\n"));
            }
        }
    }

    /// `describeContainerEnvVars`.
    fn env(&mut self, ct: &Container, pod: Option<&Pod>) {
        let env = ct.extra.get("env").and_then(Value::as_array);
        match env.filter(|e| !e.is_empty()) {
            None => self.w(2, "Environment:\t<none>\n"),
            Some(env) => {
                self.w(2, "Environment:\n");
                for e in env {
                    let name = e.get("name").and_then(Value::as_str).unwrap_or("");
                    if let Some(from) = e.get("valueFrom") {
                        self.w(3, format_args!("{name}:\t{}\n", value_from(ct, from, pod)));
                        continue;
                    }
                    let value = e.get("value").and_then(Value::as_str).unwrap_or("");
                    for (i, line) in value.split('\n').enumerate() {
                        if i == 0 {
                            self.w(3, format_args!("{name}:\t{line}\n"));
                        } else {
                            self.w(3, format_args!("\t{line}\n"));
                        }
                    }
                }
            }
        }
    }

    /// `describeContainerVolumes`.
    fn mounts(&mut self, ct: &Container) {
        let s = |m: &Value, k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let sorted = |field: &str, by: &str| {
            let mut l: Vec<&Value> = ct
                .extra
                .get(field)
                .and_then(Value::as_array)
                .map(|l| l.iter().collect())
                .unwrap_or_default();
            crate::api::sort::sort_by_key(&mut l, |m| s(m, by));
            l
        };
        let mounts = sorted("volumeMounts", "mountPath");
        // kubectl's `none`, which its Devices line reuses.
        let none = if mounts.is_empty() { "\t<none>" } else { "" };
        self.w(2, format_args!("Mounts:{none}\n"));
        for m in mounts {
            let ro = m.get("readOnly").and_then(Value::as_bool) == Some(true);
            let mut flags = vec![if ro { "ro" } else { "rw" }.to_string()];
            let sub = s(m, "subPath");
            if !sub.is_empty() {
                flags.push(format!("path={sub:?}"));
            }
            let (path, name) = (s(m, "mountPath"), s(m, "name"));
            self.w(
                3,
                format_args!("{path} from {name} ({})\n", flags.join(",")),
            );
        }
        let devices = sorted("volumeDevices", "devicePath");
        if !devices.is_empty() {
            self.w(2, format_args!("Devices:{none}\n"));
            for d in devices {
                self.w(
                    3,
                    format_args!("{} from {}\n", s(d, "devicePath"), s(d, "name")),
                );
            }
        }
    }

    /// `describeVolumes`: each volume with its source, for the sources a pod's manifest
    /// commonly holds (others, which the simulation does not model, by name and `<unknown>`).
    fn volumes(&mut self, spec: &PodSpec, space: &str) {
        let vols = spec.extra.get("volumes").and_then(Value::as_array);
        let Some(vs) = vols.filter(|v| !v.is_empty()) else {
            self.w(0, format_args!("{space}Volumes:\t<none>\n"));
            return;
        };
        self.w(0, format_args!("{space}Volumes:\n"));
        let indent = if space.is_empty() { "" } else { " " };
        for v in vs {
            let name = v.get("name").and_then(Value::as_str).unwrap_or("");
            self.w(1, format_args!("{indent}{name}:\n"));
            let Some(lines) = volume_source(v) else {
                self.w(1, "<unknown>\n");
                continue;
            };
            self.w(2, lines);
        }
    }

    /// `printPodTolerationsMultiline`: sorted by key, each `key[=value][:effect]`, ` op=Exists`
    /// for a toleration of every value, ` for Ns`.
    fn tolerations(&mut self, list: &Value) {
        self.w(0, "Tolerations:\t");
        let mut list: Vec<&Value> = list
            .as_array()
            .map(|l| l.iter().collect())
            .unwrap_or_default();
        if list.is_empty() {
            self.w(0, "<none>\n");
            return;
        }
        let s = |v: &Value, k: &str| v[k].as_str().unwrap_or("").to_string();
        crate::api::sort::sort_by_key(&mut list, |t| s(t, "key"));
        for (i, t) in list.into_iter().enumerate() {
            if i > 0 {
                self.w(0, "\t");
            }
            let (key, value, effect) = (s(t, "key"), s(t, "value"), s(t, "effect"));
            let mut line = key.clone();
            if !value.is_empty() {
                line += &format!("={value}");
            }
            if !effect.is_empty() {
                line += &format!(":{effect}");
            }
            if s(t, "operator") == "Exists" && value.is_empty() {
                line += if key.is_empty() && effect.is_empty() {
                    "op=Exists"
                } else {
                    " op=Exists"
                };
            }
            if let Some(secs) = t["tolerationSeconds"].as_i64() {
                line += &format!(" for {secs}s");
            }
            self.w(0, format_args!("{line}\n"));
        }
    }

    /// `describeTopologySpreadConstraints`, sorted by topology key.
    fn spread(&mut self, list: &Value) {
        let mut list: Vec<&Value> = list
            .as_array()
            .map(|l| l.iter().collect())
            .unwrap_or_default();
        if list.is_empty() {
            return;
        }
        crate::api::sort::sort_by_key(&mut list, |t| {
            t["topologyKey"].as_str().unwrap_or("").to_string()
        });
        self.w(0, "Topology Spread Constraints:\t");
        for (i, t) in list.into_iter().enumerate() {
            if i > 0 {
                self.w(0, "\t");
            }
            let key = t["topologyKey"].as_str().unwrap_or("");
            let when = t["whenUnsatisfiable"].as_str().unwrap_or("");
            let skew = t["maxSkew"].as_i64().unwrap_or(0);
            self.w(
                0,
                format_args!("{key}:{when} when max skew {skew} is exceeded"),
            );
            if let Some(sel) = t.get("labelSelector").filter(|v| v.is_object()) {
                let sel: LabelSelector = codec::from_value(sel.clone()).unwrap_or_default();
                self.w(
                    0,
                    format_args!(" for selector {}", sel.to_selector_string()),
                );
            }
            self.w(0, "\n");
        }
    }

    /// A Deployment's or ReplicaSet's `Conditions:` table.
    fn conditions<'a>(&mut self, rows: impl Iterator<Item = (&'a str, &'a str, &'a str)>) {
        let mut rows = rows.peekable();
        if rows.peek().is_none() {
            return;
        }
        self.w(0, "Conditions:\n  Type\tStatus\tReason\n");
        self.w(1, "----\t------\t------\n");
        for (t, s, r) in rows {
            self.w(1, format_args!("{t} \t{s}\t{r}\n"));
        }
    }
}

/// A volume's source as `describeVolumes` prints it (`Type:` and its fields), for the
/// sources a pod's manifest commonly holds; `None` for another. (Long: one arm per source,
/// each with kubectl's own lines.)
fn volume_source(v: &Value) -> Option<String> {
    let text = |src: &Value, k: &str| {
        src.get(k)
            .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
            .unwrap_or_default()
    };
    let flag = |src: &Value, k: &str| src.get(k).and_then(Value::as_bool).unwrap_or(false);
    let lines = if let Some(src) = v.get("emptyDir") {
        let limit = text(src, "sizeLimit");
        let limit = crate::api::quantity::canonical(&limit)
            .filter(|q| q != "0" && !q.starts_with('-'))
            .unwrap_or_else(|| "<unset>".into());
        format!(
            "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t{}\n    SizeLimit:\t{limit}\n",
            text(src, "medium")
        )
    } else if let Some(src) = v.get("hostPath") {
        let ty = Some(text(src, "type"))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| "<none>".into());
        format!(
            "Type:\tHostPath (bare host directory volume)\n    Path:\t{}\n    HostPathType:\t{ty}\n",
            text(src, "path")
        )
    } else if let Some(src) = v.get("secret") {
        format!(
            "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t{}\n    Optional:\t{}\n",
            text(src, "secretName"),
            flag(src, "optional")
        )
    } else if let Some(src) = v.get("configMap") {
        format!(
            "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t{}\n    Optional:\t{}\n",
            text(src, "name"),
            flag(src, "optional")
        )
    } else if let Some(src) = v.get("persistentVolumeClaim") {
        format!(
            "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t{}\n    ReadOnly:\t{}\n",
            text(src, "claimName"),
            flag(src, "readOnly")
        )
    } else if let Some(src) = v.get("image") {
        format!(
            "Type:\tImage (a container image or OCI artifact)\n    Reference:\t{}\n    PullPolicy:\t{}\n",
            text(src, "reference"),
            text(src, "pullPolicy")
        )
    } else if let Some(src) = v.get("projected") {
        let mut out =
            "Type:\tProjected (a volume that contains injected data from multiple sources)\n"
                .to_string();
        for source in src["sources"].as_array().into_iter().flatten() {
            if let Some(x) = source.get("secret") {
                out += &format!(
                    "SecretName:\t{}\n    Optional:\t{}\n",
                    text(x, "name"),
                    flag(x, "optional")
                );
            } else if source.get("downwardAPI").is_some() {
                out += "DownwardAPI:\ttrue\n";
            } else if let Some(x) = source.get("configMap") {
                out += &format!(
                    "ConfigMapName:\t{}\n    Optional:\t{}\n",
                    text(x, "name"),
                    flag(x, "optional")
                );
            } else if let Some(x) = source.get("serviceAccountToken") {
                out += &format!(
                    "TokenExpirationSeconds:\t{}\n",
                    x["expirationSeconds"].as_i64().unwrap_or(3607)
                );
            }
        }
        // Each source's first line at the volume's level, as kubectl writes them.
        out.replace("\nSecretName:", "\n    SecretName:")
            .replace("\nDownwardAPI:", "\n    DownwardAPI:")
            .replace("\nConfigMapName:", "\n    ConfigMapName:")
            .replace("\nTokenExpirationSeconds:", "\n    TokenExpirationSeconds:")
    } else {
        return None;
    };
    Some(lines)
}

/// An environment variable's `valueFrom` as `describeContainerEnvVars` prints it.
fn value_from(ct: &Container, from: &Value, pod: Option<&Pod>) -> String {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let optional = |v: &Value| v.get("optional").and_then(Value::as_bool).unwrap_or(false);
    if let Some(r) = from.get("fieldRef") {
        // A pod's own values are resolved from the pod (kubectl's `EnvValueFrom`); a template
        // has none.
        let version = Some(s(r, "apiVersion"))
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "v1".into());
        let path = s(r, "fieldPath");
        let value = pod.map_or_else(String::new, |p| match path.as_str() {
            "metadata.name" => p.metadata.name.to_string(),
            "metadata.namespace" => p.metadata.namespace.to_string(),
            "metadata.uid" => p.metadata.uid.to_string(),
            "spec.nodeName" => p.spec.node_name.to_string(),
            "spec.serviceAccountName" => p
                .spec
                .extra
                .get("serviceAccountName")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            _ => String::new(),
        });
        return format!("{value} ({version}:{path})");
    }
    if let Some(r) = from.get("resourceFieldRef") {
        let resource = s(r, "resource");
        let (part, name) = resource.split_once('.').unwrap_or(("", &resource));
        let value = ct
            .extra
            .get("resources")
            .and_then(|x| x.get(part))
            .and_then(|x| x.get(name))
            .and_then(Value::as_str)
            .and_then(crate::api::quantity::canonical);
        let value = match value {
            None if resource == "limits.cpu" || resource == "limits.memory" => {
                "node allocatable".to_string()
            }
            None => "0".to_string(),
            Some(v) => v,
        };
        return format!("{value} ({resource})");
    }
    if let Some(r) = from.get("secretKeyRef") {
        return format!(
            "<set to the key '{}' in secret '{}'>\tOptional: {}",
            s(r, "key"),
            s(r, "name"),
            optional(r)
        );
    }
    if let Some(r) = from.get("configMapKeyRef") {
        return format!(
            "<set to the key '{}' of config map '{}'>\tOptional: {}",
            s(r, "key"),
            s(r, "name"),
            optional(r)
        );
    }
    String::new()
}

/// `DescribeProbe`: the handler, then the numbers.
fn probe(p: &Value) -> String {
    let t = ProbeTiming::of(p);
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        t.initial_delay_seconds,
        t.timeout_seconds,
        t.period_seconds,
        t.success_threshold,
        t.failure_threshold
    );
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    if let Some(e) = p.get("exec") {
        let cmd: Vec<String> = e
            .get("command")
            .and_then(Value::as_array)
            .map(|a| a.iter().map(|x| text(Some(x))).collect())
            .unwrap_or_default();
        format!("exec [{}] {attrs}", cmd.join(" "))
    } else if let Some(h) = p.get("httpGet") {
        // (Validation allows HTTP and HTTPS only: ASCII, so Go's strings.ToLower is this.)
        let scheme = text(h.get("scheme")).to_ascii_lowercase();
        let (host, port) = (text(h.get("host")), text(h.get("port")));
        let host = match (host.contains(':'), port.is_empty()) {
            (_, true) => host,
            (true, false) => format!("[{host}]:{port}"),
            (false, false) => format!("{host}:{port}"),
        };
        let path = text(h.get("path"));
        format!("http-get {scheme}://{host}{path} {attrs}")
    } else if let Some(s) = p.get("tcpSocket") {
        format!(
            "tcp-socket {}:{} {attrs}",
            text(s.get("host")),
            text(s.get("port"))
        )
    } else if let Some(g) = p.get("grpc") {
        format!(
            "grpc <pod>:{} {} {attrs}",
            text(g.get("port")),
            text(g.get("service"))
        )
    } else {
        format!("unknown {attrs}")
    }
}

/// `kubectl describe deployment`. (Long: every section kubectl prints, in its order.)
pub fn deployment(c: &Cluster, d: &Deployment, rss: &[&ReplicaSet], show_events: bool) -> String {
    let mut w = Describe::default();
    let s = &d.status;
    w.w(0, format_args!("Name:\t{}\n", d.metadata.name));
    w.w(0, format_args!("Namespace:\t{}\n", d.metadata.namespace));
    let created = d.metadata.creation_timestamp.map(Time::rfc1123z);
    w.w(
        0,
        format_args!("CreationTimestamp:\t{}\n", created.unwrap_or_default()),
    );
    w.labels("Labels", &d.metadata.labels);
    w.annotations("Annotations", &d.metadata.annotations);
    w.w(
        0,
        format_args!("Selector:\t{}\n", d.selector().to_selector_string()),
    );
    w.w(
        0,
        format_args!(
            "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable\n",
            d.replicas(),
            s.updated_replicas,
            s.replicas,
            s.available_replicas,
            s.unavailable_replicas
        ),
    );
    w.w(
        0,
        format_args!("StrategyType:\t{}\n", d.spec.strategy.type_),
    );
    w.w(
        0,
        format_args!("MinReadySeconds:\t{}\n", d.spec.min_ready_seconds),
    );
    if let Some(ru) = &d.spec.strategy.rolling_update {
        let show = |v: &Option<IntOrString>| v.as_ref().map_or("0".into(), |x| x.to_string());
        w.w(
            0,
            format_args!(
                "RollingUpdateStrategy:\t{} max unavailable, {} max surge\n",
                show(&ru.max_unavailable),
                show(&ru.max_surge)
            ),
        );
    }
    w.pod_template(&d.spec.template);
    w.conditions(
        s.conditions
            .iter()
            .map(|c| (c.type_.as_str(), c.status.as_str(), c.reason.as_str())),
    );
    let new = du::find_new_replica_set(d, rss);
    let created = |r: &ReplicaSet| {
        format!(
            "{} ({}/{} replicas created)",
            r.metadata.name,
            r.status.replicas,
            r.replicas()
        )
    };
    // Every old ReplicaSet, those scaled to 0 too (`GetAllReplicaSets`' all-old list), in the
    // apiserver's list order (by name); both lines only when there is a ReplicaSet at all.
    let mut olds: Vec<&ReplicaSet> = rss
        .iter()
        .copied()
        .filter(|r| new.is_none_or(|n| n.metadata.uid != r.metadata.uid))
        .collect();
    crate::api::sort::sort_by(&mut olds, |a, b| a.metadata.name.cmp(&b.metadata.name));
    if !olds.is_empty() || new.is_some() {
        let olds: Vec<String> = olds.into_iter().map(created).collect();
        let olds = if olds.is_empty() {
            "<none>".into()
        } else {
            olds.join(", ")
        };
        w.w(0, format_args!("OldReplicaSets:\t{olds}\n"));
        let new = new.map_or_else(|| "<none>".into(), created);
        w.w(0, format_args!("NewReplicaSet:\t{new}\n"));
    }
    if show_events {
        w.events(c, c.events.for_object(Kind::Deployment, &d.metadata));
    }
    w.finish()
}

/// `Controlled By:`, when the object has a controller.
fn controlled_by(w: &mut Describe, m: &ObjectMeta) {
    if let Some(o) = m.controller_ref() {
        w.w(0, format_args!("Controlled By:\t{}/{}\n", o.kind, o.name));
    }
}

/// `kubectl describe replicaset`.
pub fn replica_set(c: &Cluster, rs: &ReplicaSet, show_events: bool) -> String {
    let mut w = Describe::default();
    w.w(0, format_args!("Name:\t{}\n", rs.metadata.name));
    w.w(0, format_args!("Namespace:\t{}\n", rs.metadata.namespace));
    let selector = rs.spec.selector.to_selector_string();
    w.w(0, format_args!("Selector:\t{selector}\n"));
    w.labels("Labels", &rs.metadata.labels);
    w.annotations("Annotations", &rs.metadata.annotations);
    controlled_by(&mut w, &rs.metadata);
    w.w(
        0,
        format_args!(
            "Replicas:\t{} current / {} desired\n",
            rs.status.replicas,
            rs.replicas()
        ),
    );
    let (mut running, mut waiting, mut succeeded, mut failed) = (0, 0, 0, 0);
    for p in c.store.pods_controlled_by(&rs.metadata.uid) {
        match p.status.phase.as_str() {
            PHASE_RUNNING => running += 1,
            "Succeeded" => succeeded += 1,
            "Failed" => failed += 1,
            _ => waiting += 1,
        }
    }
    w.w(
        0,
        format_args!(
            "Pods Status:\t{running} Running / {waiting} Waiting / {succeeded} Succeeded / {failed} Failed\n"
        ),
    );
    w.pod_template(&rs.spec.template);
    w.conditions(
        rs.status
            .conditions
            .iter()
            .map(|c| (c.type_.as_str(), c.status.as_str(), c.reason.as_str())),
    );
    if show_events {
        w.events(c, c.events.for_object(Kind::ReplicaSet, &rs.metadata));
    }
    w.finish()
}

/// `qos.GetPodQOS`: BestEffort without requests or limits, Guaranteed when every container
/// limits CPU and memory and requests what it limits, Burstable otherwise.
fn qos_class(spec: &PodSpec) -> &'static str {
    let part = |c: &Container, k: &str| {
        c.extra
            .get("resources")
            .and_then(|r| r.get(k))
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    };
    let none = spec
        .containers
        .iter()
        .all(|c| part(c, "limits").is_empty() && part(c, "requests").is_empty());
    if none {
        return "BestEffort";
    }
    let guaranteed = spec.containers.iter().all(|c| {
        let (limits, requests) = (part(c, "limits"), part(c, "requests"));
        ["cpu", "memory"].iter().all(|r| limits.contains_key(*r))
            && requests.iter().all(|(k, v)| limits.get(k) == Some(v))
    });
    if guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// A pod's `IP:` and `IPs:` lines.
fn ips(w: &mut Describe, p: &Pod) {
    w.w(0, format_args!("IP:\t{}\n", p.pod_ip()));
    let ips = p.pod_ips();
    if ips.is_empty() {
        w.w(0, "IPs:\t<none>\n");
    } else {
        w.w(0, "IPs:\n");
        for ip in ips {
            w.w(1, format_args!("IP:\t{ip}\n"));
        }
    }
}

/// `kubectl describe pod`. (Long: every line kubectl's pod describer prints, in its order.)
pub fn pod(c: &Cluster, p: &Pod, show_events: bool) -> String {
    let spec = |k: &str| p.spec.extra.get(k).cloned().unwrap_or(Value::Null);
    let status = |k: &str| p.status.extra.get(k).cloned().unwrap_or(Value::Null);
    let text = |v: Value| v.as_str().unwrap_or("").to_string();
    let mut w = Describe::default();
    w.w(0, format_args!("Name:\t{}\n", p.metadata.name));
    w.w(0, format_args!("Namespace:\t{}\n", p.metadata.namespace));
    if let Some(n) = spec("priority").as_i64() {
        w.w(0, format_args!("Priority:\t{n}\n"));
    }
    for (field, title) in [
        ("priorityClassName", "Priority Class Name"),
        ("runtimeClassName", "Runtime Class Name"),
        ("serviceAccountName", "Service Account"),
    ] {
        let v = text(spec(field));
        if !v.is_empty() {
            w.w(0, format_args!("{title}:\t{v}\n"));
        }
    }
    if p.spec.node_name.is_empty() {
        w.w(0, "Node:\t<none>\n");
    } else {
        let host = text(status("hostIP"));
        w.w(0, format_args!("Node:\t{}/{host}\n", p.spec.node_name));
    }
    if let Some(t) = p.status.start_time {
        w.w(0, format_args!("Start Time:\t{}\n", t.rfc1123z()));
    }
    w.labels("Labels", &p.metadata.labels);
    w.annotations("Annotations", &p.metadata.annotations);
    let terminal = matches!(p.status.phase.as_str(), "Failed" | "Succeeded");
    match p.metadata.deletion_timestamp {
        Some(t) if !terminal => {
            let lasts = human_duration(c.now().since(t) / 1_000_000);
            w.w(0, format_args!("Status:\tTerminating (lasts {lasts})\n"));
            let grace = p.metadata.deletion_grace_period_seconds.unwrap_or(0);
            w.w(0, format_args!("Termination Grace Period:\t{grace}s\n"));
        }
        _ => w.w(0, format_args!("Status:\t{}\n", p.status.phase)),
    }
    for (field, title) in [("reason", "Reason"), ("message", "Message")] {
        let v = text(status(field));
        if !v.is_empty() {
            w.w(0, format_args!("{title}:\t{v}\n"));
        }
    }
    w.seccomp(p.spec.extra.get("securityContext"), 0);
    ips(&mut w, p);
    controlled_by(&mut w, &p.metadata);
    let nominated = text(status("nominatedNodeName"));
    if !nominated.is_empty() {
        w.w(0, format_args!("NominatedNodeName:\t{nominated}\n"));
    }
    if let Some(r) = p.spec.extra.get("resources") {
        w.w(0, "Resources:\n");
        w.resources(Some(r), 1);
    }
    pod_containers(&mut w, p);
    if let Some(gates) = spec("readinessGates").as_array().filter(|g| !g.is_empty()) {
        w.w(0, "Readiness Gates:\n  Type\tStatus\n");
        for g in gates {
            let ty = g["conditionType"].as_str().unwrap_or("");
            let st = p
                .status
                .conditions
                .iter()
                .find(|c| c.type_ == ty)
                .map_or("<none>", |c| c.status.as_str());
            w.w(1, format_args!("{ty} \t{st} \n"));
        }
    }
    if !p.status.conditions.is_empty() {
        w.w(0, "Conditions:\n  Type\tStatus\n");
        for cd in &p.status.conditions {
            w.w(1, format_args!("{} \t{} \n", cd.type_, cd.status));
        }
    }
    w.volumes(&p.spec, "");
    w.w(0, format_args!("QoS Class:\t{}\n", qos_class(&p.spec)));
    let selectors: Labels = spec("nodeSelector")
        .as_object()
        .map(|m| crate::api::sort::map_from(m.iter().map(|(k, v)| (k.clone(), text(v.clone())))))
        .unwrap_or_default();
    w.labels("Node-Selectors", &selectors);
    w.tolerations(&spec("tolerations"));
    w.spread(&spec("topologySpreadConstraints"));
    if let Some(group) = spec("schedulingGroup")
        .get("podGroupName")
        .and_then(Value::as_str)
    {
        w.w(
            0,
            format_args!("SchedulingGroup:\n  PodGroupName:\t{group}\n"),
        );
    }
    if show_events {
        w.events(c, c.events.for_object(Kind::Pod, &p.metadata));
    }
    w.finish()
}

/// A pod's init containers (as written; the simulation does not run them), then its
/// containers.
fn pod_containers(w: &mut Describe, p: &Pod) {
    let init: Vec<Container> = p
        .spec
        .extra
        .get("initContainers")
        .and_then(|v| codec::from_value(v.clone()).ok())
        .unwrap_or_default();
    if !init.is_empty() {
        let statuses: Vec<ContainerStatus> = p
            .status
            .extra
            .get("initContainerStatuses")
            .and_then(|v| codec::from_value(v.clone()).ok())
            .unwrap_or_default();
        w.container_list("Init Containers", &init, &statuses, Some(p), "");
    }
    w.containers(&p.spec, Some(p), "");
}

/// `DescribePodTemplate` written straight to a buffer, as `rollout history --revision` and
/// `rollout undo --dry-run=client` print it: tab-separated, not aligned.
pub(super) fn pod_template_text(t: &PodTemplateSpec) -> String {
    let mut w = Describe::default();
    w.pod_template(t);
    w.unaligned()
}

/// `kubectl describe deployment|replicaset|pod NAME`.
pub(super) fn run(c: &mut Cluster, cmd: &super::Command) -> super::Outcome {
    describe(c, cmd)
}

/// (Long: kubectl's describe visits what the builder finds, each description after the
/// other, and falls back to names starting with the one given.)
fn describe(c: &Cluster, cmd: &super::Command) -> Outcome {
    let a = Args::of(cmd)?;
    if a.positional.is_empty() {
        return Err(KubectlError::Go("You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.".into()));
    }
    let setup = Setup {
        allow_empty_selector: true,
        select_all: false,
    };
    let visit = builder::visit(c, &a, &a.positional, setup)?;
    let (mut found, mut errs) = (vec![], vec![]);
    for item in visit.items {
        match item {
            Ok(info) => found.push(info),
            Err(e) => errs.push(e),
        }
    }
    // Several objects (or an error) leave the events out, unless asked for.
    let show_events = match a.flag("show-events") {
        Some(_) => a.bool_flag("show-events")?,
        None => {
            !c.release().describe_of_several_hides_events() || (errs.is_empty() && found.len() <= 1)
        }
    };
    // `describe TYPE NAME` where no object has that name: those whose name starts with it.
    if found.is_empty()
        && a.positional.len() == 2
        && !a.positional[0].contains('/')
        && let [KubectlError::Server(e)] = errs.as_slice()
        && e.is_not_found()
    {
        let all = builder::visit(c, &a, &a.positional[..1], setup)?;
        let matching: Vec<String> = all
            .items
            .into_iter()
            .flatten()
            .filter(|i| i.name.starts_with(a.positional[1].as_str()))
            .map(|i| one(c, &i, show_events))
            .collect();
        if !matching.is_empty() {
            return Ok(matching.join("\n"));
        }
    }
    let mut report = Report::default();
    if found.is_empty() && errs.is_empty() {
        report.item(Ok(if a.flag("all-namespaces").is_some() {
            "No resources found".into()
        } else {
            format!("No resources found in {} namespace.", a.ns())
        }));
    }
    let described: Vec<String> = found.iter().map(|i| one(c, i, show_events)).collect();
    if !described.is_empty() {
        report.item(Ok(described.join("\n\n")));
    }
    errs.into_iter().for_each(|e| report.err(e));
    report.finish()
}

/// One object's description.
fn one(c: &Cluster, info: &Info, show_events: bool) -> String {
    match &info.object {
        Object::Deployment(d) => deployment(c, d, &owned_replica_sets(c, d), show_events),
        Object::ReplicaSet(rs) => replica_set(c, rs, show_events),
        Object::Pod(p) => pod(c, p, show_events),
        Object::Node(n) => super::node::describe(c, n, show_events),
        Object::PodDisruptionBudget(b) => super::budget::describe(c, b, show_events),
        Object::Service(s) => super::service::describe(c, s, show_events),
        Object::EndpointSlice(e) => super::service::describe_slice(c, e, show_events),
    }
}
