//! The verbs the console offers: one table ([`VERBS`]) that running, completion, `kubectl
//! help` and the read-only test go by, as kubectl's root command lists its subcommands
//! (k8s.io/kubectl/pkg/cmd/cmd.go). A new verb is a file of its own and a row here.

use super::command::Command;
use super::{
    Outcome, apply, config, delete, describe, drain, get, label, node, patch, rollout, scale, set,
    version,
};
use crate::cluster::Cluster;

/// A subcommand (`rollout status`) and whether it only reads the world.
#[derive(Debug, PartialEq, Eq)]
pub struct Sub {
    pub name: &'static str,
    pub read_only: bool,
    /// kubectl's one-line description (its cobra `Short`).
    pub short: &'static str,
}

/// A kubectl verb the playground understands.
#[derive(Debug)]
pub struct Verb {
    pub name: &'static str,
    /// kubectl's one-line description (its cobra `Short`), as `kubectl help` lists it.
    pub short: &'static str,
    /// The group `kubectl help` lists it under.
    pub group: &'static str,
    /// Subcommands (`rollout status`); empty when the verb has none.
    pub subcommands: &'static [Sub],
    /// Whether the verb only reads the world (for a verb with subcommands, see those).
    pub read_only: bool,
    /// Runs the command on the world.
    pub run: fn(&mut Cluster, &Command) -> Outcome,
}

impl PartialEq for Verb {
    fn eq(&self, other: &Verb) -> bool {
        self.name == other.name
    }
}

const fn sub(name: &'static str, read_only: bool, short: &'static str) -> Sub {
    Sub {
        name,
        read_only,
        short,
    }
}

const BEGINNER: &str = "Basic Commands (Beginner)";
const INTERMEDIATE: &str = "Basic Commands (Intermediate)";
const DEPLOY: &str = "Deploy Commands";
const CLUSTER: &str = "Cluster Management Commands";
const TROUBLESHOOTING: &str = "Troubleshooting and Debugging Commands";
const ADVANCED: &str = "Advanced Commands";
const SETTINGS: &str = "Settings Commands";
const OTHER: &str = "Other Commands";

/// In the order `kubectl help` lists them.
pub const VERBS: [Verb; 17] = [
    Verb {
        name: "create",
        short: "Create a resource from a file or from stdin",
        group: BEGINNER,
        subcommands: &[],
        read_only: false,
        run: apply::run,
    },
    Verb {
        name: "set",
        short: "Set specific features on objects",
        group: BEGINNER,
        subcommands: &[
            sub("image", false, "Update the image of a pod template"),
            sub(
                "env",
                false,
                "Update environment variables on a pod template",
            ),
            sub(
                "resources",
                false,
                "Update resource requests/limits on objects with pod templates",
            ),
        ],
        read_only: false,
        run: set::run,
    },
    Verb {
        name: "get",
        short: "Display one or many resources",
        group: INTERMEDIATE,
        subcommands: &[],
        read_only: true,
        run: get::run,
    },
    Verb {
        name: "delete",
        short: "Delete resources by file names, stdin, resources and names, or by resources and label selector",
        group: INTERMEDIATE,
        subcommands: &[],
        read_only: false,
        run: delete::run,
    },
    Verb {
        name: "rollout",
        short: "Manage the rollout of a resource",
        group: DEPLOY,
        subcommands: &[
            sub("status", true, "Show the status of the rollout"),
            sub("history", true, "View rollout history"),
            sub("pause", false, "Mark the provided resource as paused"),
            sub("resume", false, "Resume a paused resource"),
            sub("restart", false, "Restart a resource"),
            sub("undo", false, "Undo a previous rollout"),
        ],
        read_only: false,
        run: rollout::run,
    },
    Verb {
        name: "scale",
        short: "Set a new size for a deployment, replica set, or replication controller",
        group: DEPLOY,
        subcommands: &[],
        read_only: false,
        run: scale::run,
    },
    Verb {
        name: "cordon",
        short: "Mark node as unschedulable",
        group: CLUSTER,
        subcommands: &[],
        read_only: false,
        run: node::run,
    },
    Verb {
        name: "uncordon",
        short: "Mark node as schedulable",
        group: CLUSTER,
        subcommands: &[],
        read_only: false,
        run: node::run,
    },
    Verb {
        name: "drain",
        short: "Drain node in preparation for maintenance",
        group: CLUSTER,
        subcommands: &[],
        read_only: false,
        run: drain::run,
    },
    Verb {
        name: "describe",
        short: "Show details of a specific resource or group of resources",
        group: TROUBLESHOOTING,
        subcommands: &[],
        read_only: true,
        run: describe::run,
    },
    Verb {
        name: "apply",
        short: "Apply a configuration to a resource by file name or stdin",
        group: ADVANCED,
        subcommands: &[],
        read_only: false,
        run: apply::run,
    },
    Verb {
        name: "patch",
        short: "Update fields of a resource",
        group: ADVANCED,
        subcommands: &[],
        read_only: false,
        run: patch::run,
    },
    Verb {
        name: "label",
        short: "Update the labels on a resource",
        group: SETTINGS,
        subcommands: &[],
        read_only: false,
        run: label::run,
    },
    Verb {
        name: "annotate",
        short: "Update the annotations on a resource",
        group: SETTINGS,
        subcommands: &[],
        read_only: false,
        run: label::run,
    },
    Verb {
        name: "config",
        short: "Modify kubeconfig files",
        group: OTHER,
        subcommands: &[
            sub("current-context", true, "Display the current-context"),
            sub("get-contexts", true, "Describe one or many contexts"),
            sub("set-context", false, "Set a context entry in kubeconfig"),
            sub(
                "view",
                true,
                "Display merged kubeconfig settings or a specified kubeconfig file",
            ),
        ],
        read_only: false,
        run: config::run,
    },
    Verb {
        name: "version",
        short: "Print the client and server version information",
        group: OTHER,
        subcommands: &[],
        read_only: true,
        run: version::run,
    },
    Verb {
        name: "help",
        short: "Help about any command",
        group: OTHER,
        subcommands: &[],
        read_only: true,
        run: |_, _| Ok(help()),
    },
];

/// The groups in the order `kubectl help` prints them.
const GROUPS: [&str; 8] = [
    BEGINNER,
    INTERMEDIATE,
    DEPLOY,
    CLUSTER,
    TROUBLESHOOTING,
    ADVANCED,
    SETTINGS,
    OTHER,
];

/// The verb named `name`.
pub fn find(name: &str) -> Option<&'static Verb> {
    VERBS.iter().find(|v| v.name == name)
}

/// Whether a command line only reads the world: `get`, `describe`, `rollout status|history`
/// (a line that does not parse changes nothing either, but is not a read).
pub fn is_read_only(cmd: &str) -> bool {
    super::command::parse(cmd).is_ok_and(|c| c.read_only())
}

/// The README's list of the console's verbs (between its `kubectl-verbs` markers), made from
/// the table so that the two cannot differ: each verb with its subcommands and description.
pub fn readme_list() -> String {
    VERBS
        .iter()
        .filter(|v| v.name != "help")
        .map(|v| {
            let subs: Vec<&str> = v.subcommands.iter().map(|s| s.name).collect();
            let name = if subs.is_empty() {
                v.name.to_string()
            } else {
                format!("{} {}", v.name, subs.join("|"))
            };
            format!("- `kubectl {name}`: {}\n", v.short)
        })
        .collect()
}

/// The verbs the playground offers, grouped and described as `kubectl help` lists kubectl's
/// (k8s.io/kubectl v0.36.3, pkg/cmd/cmd.go and pkg/util/templates: each row is the name padded
/// to kubectl's widest command name, 13, then three spaces and the command's `Short`; the
/// plugins' group is printed even when there are none).
pub fn help() -> String {
    let mut out = String::from(
        "kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n",
    );
    for group in GROUPS {
        // `help` is cobra's own, which kubectl does not list.
        let verbs: Vec<&Verb> = VERBS
            .iter()
            .filter(|v| v.group == group && v.name != "help")
            .collect();
        if verbs.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{group}:\n"));
        for v in verbs {
            out.push_str(&format!("  {:<13}   {}\n", v.name, v.short));
        }
    }
    out.push_str(concat!(
        "\nSubcommands provided by plugins:\n",
        "\nUsage:\n  kubectl [flags] [options]\n",
        "\nUse \"kubectl <command> --help\" for more information about a given command.",
        "\nUse \"kubectl options\" for a list of global command-line options (applies to all commands).",
    ));
    out
}
