//! `kubectl config` (k8s.io/kubectl v0.36.3 `pkg/cmd/config`) for the playground's one
//! kubeconfig: one cluster, one user, one context, `playground`, whose namespace
//! `set-context --current --namespace=…` changes, so that `-n` is not needed on every line.
//! The namespace is kept with the world (`Sim::context_namespace`).

use super::args::Args;
use super::command::Command;
use super::{KubectlError, Outcome};
use crate::cluster::Cluster;

/// The context, cluster and user of the playground's kubeconfig.
const CONTEXT: &str = "playground";

pub(super) fn run(c: &mut Cluster, cmd: &Command) -> Outcome {
    match cmd.args.first().map(String::as_str) {
        Some("set-context") => set_context(c, cmd),
        Some("view") => view(c, cmd),
        Some("current-context") => {
            Args::of(cmd)?;
            Ok(CONTEXT.into())
        }
        Some("get-contexts") => {
            Args::of(cmd)?;
            let mut rows = vec!["CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE".to_string()];
            rows.push(format!("*\t{CONTEXT}\t{CONTEXT}\t{CONTEXT}\t{}", namespace_shown(c)));
            Ok(super::printer::table(
                rows.into_iter().map(|r| r.split('\t').map(String::from).collect()).collect(),
            ))
        }
        Some(other) => Err(KubectlError::Client(format!(
            "error: unknown command \"config {other}\": the playground supports set-context, view, current-context and get-contexts"
        ))),
        None => Err(KubectlError::Client(
            "error: kubectl config needs a subcommand: set-context, view, current-context or get-contexts".into(),
        )),
    }
}

/// The namespace as kubeconfig holds it: none written while it is `default`.
fn namespace_shown(c: &Cluster) -> &str {
    match c.context_namespace.as_str() {
        "default" => "",
        ns => ns,
    }
}

/// `kubectl config set-context [NAME | --current] --namespace=NS`.
fn set_context(c: &mut Cluster, cmd: &Command) -> Outcome {
    // Here `--namespace` is the context's field, not the command's namespace.
    let a = Args::of(cmd)?;
    let current = a.bool_flag("current")?;
    let name = match (a.positional.as_slice(), current) {
        ([], true) => CONTEXT.to_string(),
        ([_], true) => {
            return Err(KubectlError::Go(
                "you cannot specify both a context name and --current".into(),
            ));
        }
        ([n], false) => n.clone(),
        ([], false) => {
            return Err(KubectlError::Go(
                "you must specify a non-empty context name or --current".into(),
            ));
        }
        _ => {
            return Err(KubectlError::Go(
                "unexpected args: ".to_string() + &a.positional[1..].join(" "),
            ));
        }
    };
    if name != CONTEXT {
        return Err(KubectlError::Client(format!(
            "error: the playground's kubeconfig has the one context \"{CONTEXT}\"; use --current or {CONTEXT}"
        )));
    }
    if let Some(ns) = a.flag("namespace").flatten() {
        let ns = if ns.is_empty() { "default" } else { ns };
        c.use_namespace(ns);
    }
    Ok(format!("Context \"{CONTEXT}\" modified."))
}

/// `kubectl config view [--minify]`: the kubeconfig with its secrets left out, as kubectl
/// prints it (the playground's has one of everything, so `--minify` changes nothing).
fn view(c: &Cluster, cmd: &Command) -> Outcome {
    Args::of(cmd)?;
    let namespace = match namespace_shown(c) {
        "" => String::new(),
        ns => format!("\n    namespace: {ns}"),
    };
    Ok(format!(
        "apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: DATA+OMITTED
    server: https://127.0.0.1:6443
  name: {CONTEXT}
contexts:
- context:
    cluster: {CONTEXT}{namespace}
    user: {CONTEXT}
  name: {CONTEXT}
current-context: {CONTEXT}
kind: Config
preferences: {{}}
users:
- name: {CONTEXT}
  user:
    client-certificate-data: DATA+OMITTED
    client-key-data: DATA+OMITTED"
    ))
}
