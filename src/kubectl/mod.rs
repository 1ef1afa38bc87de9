//! kubectl, as the console and the scenarios speak it: the layer between the simulated
//! cluster and the scenarios, mirroring k8s.io/kubectl/pkg/cmd with real kubectl spellings and
//! messages. A command line is read once ([`command::parse`]); the verb table
//! ([`verbs::VERBS`]) runs it, completes it, lists it in `kubectl help` and says whether it
//! only reads; each verb family is a file: `apply` (apply, create), `get`, `describe`, `set`,
//! `scale`, `rollout`, `delete`, `label` (label, annotate), `patch`. A command that cannot be
//! parsed, or that the apiserver rejects, is an error naming the command and the problem;
//! nothing changes.

mod apply;
mod args;
pub mod command;
mod complete;
mod delete;
pub mod describe;
pub mod duration;
mod get;
mod label;
mod patch;
mod resource;
pub mod rollout;
mod scale;
mod set;
pub mod verbs;

pub use command::{Command, parse, tokenize};
pub use complete::complete;
pub use resource::Resource;
pub use verbs::{VERBS, is_read_only};

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

fn get_deployment(c: &Cluster, a: &Args, name: &str) -> Result<Deployment, KubectlError> {
    c.store
        .deployment(&a.key(name))
        .cloned()
        .ok_or_else(|| not_found(Kind::Deployment, name))
}

fn update_deployment(c: &mut Cluster, d: Deployment) -> Result<(), KubectlError> {
    c.store.api().update(d).map(|_| ()).map_err(api_err)
}

/// Runs one command line (with optional stdin after the first line). `Ok` holds what kubectl
/// printed; `Err` the error it printed, with the store unchanged.
pub fn run(c: &mut Cluster, text: &str) -> Outcome {
    run_command(c, &parse(text)?)
}

/// Runs a command already read ([`parse`]).
pub fn run_command(c: &mut Cluster, cmd: &Command) -> Outcome {
    (cmd.verb.run)(c, cmd)
}

#[cfg(test)]
mod tests;
