//! kubectl, as the console and the scenarios speak it: the layer between the simulated
//! cluster and the scenarios, mirroring k8s.io/kubectl/pkg/cmd with real kubectl spellings and
//! messages. A command line is read once ([`line::parse`]); the verb table
//! ([`verbs::VERBS`]) runs it, completes it, lists it in `kubectl help` and says whether it
//! only reads; each verb family is a file: `apply` (apply, create), `get`, `describe`, `set`,
//! `scale`, `rollout`, `delete`, `label` (label, annotate), `patch`, `version`. A command that cannot be
//! parsed, or that the apiserver rejects, is an error naming the command and the problem;
//! nothing changes.

mod apply;
mod args;
mod budget;
mod builder;
pub mod command;
mod complete;
mod config;
mod delete;
pub mod describe;
mod drain;
pub mod drainer;
pub mod duration;
pub mod effect;
mod fields;
mod get;
mod label;
mod line;
mod node;
mod patch;
mod printer;
mod resource;
pub mod rollout;
mod scale;
mod service;
mod set;
pub mod verbs;
mod version;
pub mod watcher;

pub use command::Command;
pub use complete::{Names, complete};
pub use effect::may_undo;
pub use line::{is_read_only, parse, tokenize};
pub use resource::Resource;
pub use verbs::VERBS;

use crate::api::*;
use crate::apiserver::store::ApiError;
use crate::cluster::Cluster;
use args::Args;

/// What a command printed, or why it was refused.
pub type Outcome = Result<String, KubectlError>;

/// Why kubectl refused a command: its own check (usage, flags, a precondition), in kubectl's
/// words, or the apiserver's refusal, printed as kubectl prints a server's error.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum KubectlError {
    #[error("{0}")]
    Client(String),
    #[error("{}", server_message(.0))]
    Server(ApiError),
    /// A Go error that kubectl's `CheckErr` prints alone as `error: …`, and bare among others.
    #[error("{}", if .0.starts_with("error: ") { .0.clone() } else { format!("error: {}", .0) })]
    Go(String),
    /// Several errors (kubectl's aggregate, a visit that went on past failures), one a line.
    #[error("{}", .0.iter().map(KubectlError::bare).collect::<Vec<_>>().join("\n"))]
    Many(Vec<KubectlError>),
}

impl KubectlError {
    /// The message as kubectl's `MultipleErrors` prints it among others: a Go error without
    /// the `error: ` that `CheckErr` adds to one alone.
    fn bare(&self) -> String {
        match self {
            KubectlError::Go(s) => s.clone(),
            other => other.to_string(),
        }
    }
}

impl From<String> for KubectlError {
    fn from(message: String) -> KubectlError {
        KubectlError::Client(message)
    }
}

impl From<&str> for KubectlError {
    fn from(message: &str) -> KubectlError {
        KubectlError::Client(message.to_string())
    }
}

/// An apiserver error as kubectl prints it: `Error from server (NotFound): …`, `The
/// Deployment "web" is invalid: …`.
fn server_message(e: &ApiError) -> String {
    match e {
        ApiError::Invalid(i) => format!(
            "The {} \"{}\" is invalid: {}",
            i.kind,
            i.name,
            i.to_string()
                .split_once("is invalid: ")
                .map(|x| x.1)
                .unwrap_or("")
        ),
        ApiError::NotFound { kind, name } => format!(
            "Error from server (NotFound): {} \"{name}\" not found",
            kind.resource()
        ),
        other => format!("Error from server: {other}"),
    }
}

fn not_found(kind: Kind, name: &str) -> KubectlError {
    KubectlError::Server(ApiError::NotFound {
        kind,
        name: name.to_string(),
    })
}

fn api_err(e: ApiError) -> KubectlError {
    KubectlError::Server(e)
}

fn update_deployment(c: &mut Cluster, d: Deployment) -> Result<(), KubectlError> {
    c.apiserver().api().update(d).map(|_| ()).map_err(api_err)
}

/// A warning as kubectl's klog writes it to stderr (`W1126 10:04:55.000000       1
/// helpers.go:719] …`), at the cluster's time; the process id is the playground's one kubectl.
fn klog_warning(c: &Cluster, source: &str, message: &str) -> String {
    format!("W{}       1 {source}] {message}", c.now().klog())
}

/// `--dry-run` and the report of a command that takes it, which starts with the warning
/// kubectl logs for a deprecated spelling.
fn dry_run(c: &Cluster, a: &Args) -> Result<(args::DryRun, builder::Report), KubectlError> {
    let (dry, warning) = a.dry_run()?;
    let mut report = builder::Report::default();
    if let Some((line, w)) = warning {
        report
            .warnings
            .push(klog_warning(c, &format!("helpers.go:{line}"), &w));
    }
    Ok((dry, report))
}

/// Writes an object as `--dry-run` says: stored (`None`), validated by the apiserver and not
/// stored (`Server`), or not sent at all (`Client`).
fn write(c: &mut Cluster, obj: Object, dry: args::DryRun) -> Result<(), KubectlError> {
    match dry {
        args::DryRun::None => c.apiserver().update(obj).map(drop),
        args::DryRun::Server => c.apiserver().update_dry_run(obj).map(drop),
        args::DryRun::Client => Ok(()),
    }
    .map_err(api_err)
}

/// Runs one command line (with optional stdin after the first line). `Ok` holds what kubectl
/// printed; `Err` the error it printed, with the store unchanged.
pub fn run(c: &mut Cluster, text: &str) -> Outcome {
    run_command(c, &parse(text)?)
}

/// Runs a command already read ([`parse`]), in the current context's namespace unless it
/// names one (`-n`, `--namespace`, `-A`).
pub fn run_command(c: &mut Cluster, cmd: &Command) -> Outcome {
    // cobra answers `-h`/`--help` before it reads any other flag.
    if cmd.asks_help() && cmd.verb.name != "help" {
        return Ok(verbs::usage(cmd.verb, cmd.subcommand()));
    }
    let names_one = cmd.args.iter().any(|t| {
        ["-n", "--namespace", "-A", "--all-namespaces"]
            .iter()
            .any(|f| t == f || t.starts_with(&format!("{f}=")))
            || (t.starts_with("-n") && !t.starts_with("--"))
    });
    if c.context_namespace == "default" || names_one || cmd.verb.name == "config" {
        return (cmd.verb.run)(c, cmd);
    }
    let mut cmd = cmd.clone();
    cmd.args
        .push(format!("--namespace={}", c.context_namespace));
    (cmd.verb.run)(c, &cmd)
}

#[cfg(test)]
mod tests;
