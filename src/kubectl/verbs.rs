//! The verbs the console offers: one table ([`VERBS`]) that running, completion, `kubectl
//! help` and the read-only test go by, as kubectl's root command lists its subcommands
//! (k8s.io/kubectl/pkg/cmd/cmd.go). A new verb is a file of its own and a row here.

use super::command::{Flag, NAMESPACE, Sub, Takes, Verb};
use super::{
    apply, config, delete, describe, drain, get, label, node, patch, rollout, scale, set, version,
};

const fn switch(long: &'static str, short: Option<char>, help: &'static str) -> Flag {
    Flag {
        long,
        short,
        takes: Takes::Switch,
        default: "false",
        help,
    }
}

const fn value(
    long: &'static str,
    short: Option<char>,
    default: &'static str,
    help: &'static str,
) -> Flag {
    Flag {
        long,
        short,
        takes: Takes::Value,
        default,
        help,
    }
}

const fn sub(
    name: &'static str,
    read_only: bool,
    short: &'static str,
    flags: &'static [Flag],
) -> Sub {
    Sub {
        name,
        aliases: &[],
        read_only,
        short,
        flags,
    }
}

impl Sub {
    const fn aka(self, aliases: &'static [&'static str]) -> Sub {
        Sub { aliases, ..self }
    }
}

// The flags several verbs take, each declared once.
const SELECTOR: Flag = value(
    "selector",
    Some('l'),
    "''",
    "Selector (label query) to filter on, e.g. -l app=web,tier=front.",
);
const FIELD_SELECTOR: Flag = value(
    "field-selector",
    None,
    "''",
    "Selector (field query) to filter on, e.g. --field-selector=status.phase=Running.",
);
const OUTPUT: Flag = value(
    "output",
    Some('o'),
    "''",
    "Output format: json, yaml or name.",
);
const DRY_RUN: Flag = Flag {
    long: "dry-run",
    short: None,
    takes: Takes::Switch,
    default: "'none'",
    help: "none, server (the apiserver checks the change and stores nothing) or client (only print what would be sent).",
};
const ALL: Flag = switch(
    "all",
    None,
    "Select every object of the named types in the namespace.",
);
const ALL_NAMESPACES: Flag = switch(
    "all-namespaces",
    Some('A'),
    "Across every namespace (the current one is ignored, even with --namespace).",
);
const IGNORE_NOT_FOUND: Flag = switch(
    "ignore-not-found",
    None,
    "An object that is not there is not an error.",
);
const GRACE_PERIOD: Flag = value(
    "grace-period",
    None,
    "-1",
    "Seconds a pod is given to end; negative: its own terminationGracePeriodSeconds.",
);
const CONTAINERS: Flag = value(
    "containers",
    Some('c'),
    "'*'",
    "The containers of the pod templates to change (wildcards allowed).",
);
const RECORD: Flag = switch("record", None, "Deprecated; changes nothing.");
const TIMEOUT: Flag = value(
    "timeout",
    None,
    "0s",
    "How long to wait before giving up (0: for ever).",
);
const APPLY: &[Flag] = &[
    value(
        "filename",
        Some('f'),
        "[]",
        "The manifest's file: - reads the lines after the command.",
    ),
    switch(
        "server-side",
        None,
        "Server-side apply: the apiserver merges the fields this manager owns.",
    ),
    switch(
        "force-conflicts",
        None,
        "With --server-side, take over the fields other managers own.",
    ),
];
const REVISION: Flag = value(
    "revision",
    None,
    "0",
    "The revision to show (0: the latest).",
);

const LABEL: &[Flag] = &[
    switch(
        "overwrite",
        None,
        "Replace a key that has another value (else refuse it).",
    ),
    SELECTOR,
    ALL,
    switch("list", None, "List each object's pairs."),
    DRY_RUN,
    OUTPUT,
    FIELD_SELECTOR,
];

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
        subcommands: &[
            sub(
                "deployment",
                false,
                "Create a deployment with the specified name",
                &[
                    value(
                        "image",
                        None,
                        "[]",
                        "The image of its one container (required).",
                    ),
                    value("replicas", Some('r'), "1", "How many replicas it wants."),
                ],
            )
            .aka(&["deploy"]),
            sub(
                "namespace",
                false,
                "Create a namespace with the specified name",
                &[],
            )
            .aka(&["ns"]),
            sub(
                "poddisruptionbudget",
                false,
                "Create a pod disruption budget with the specified name",
                &[
                    value(
                        "selector",
                        None,
                        "''",
                        "The label selector of the pods it guards.",
                    ),
                    value(
                        "min-available",
                        None,
                        "''",
                        "The pods that must stay available (a number or a percentage).",
                    ),
                    value(
                        "max-unavailable",
                        None,
                        "''",
                        "The pods that may be unavailable (a number or a percentage).",
                    ),
                    DRY_RUN,
                ],
            )
            .aka(&["pdb"]),
        ],
        flags: APPLY,
        read_only: false,
        run: apply::run,
    },
    Verb {
        name: "set",
        short: "Set specific features on objects",
        group: BEGINNER,
        subcommands: &[
            sub(
                "image",
                false,
                "Update the image of a pod template",
                &[SELECTOR, ALL, DRY_RUN, RECORD, OUTPUT],
            ),
            sub(
                "env",
                false,
                "Update environment variables on a pod template",
                &[
                    CONTAINERS,
                    value(
                        "env",
                        Some('e'),
                        "[]",
                        "A variable to set, KEY=VALUE (repeatable).",
                    ),
                    value(
                        "prefix",
                        None,
                        "''",
                        "Put this in front of each variable's name.",
                    ),
                    Flag {
                        long: "overwrite",
                        short: None,
                        takes: Takes::Switch,
                        default: "true",
                        help: "Replace a variable that has another value (else refuse it).",
                    },
                    switch("list", None, "List the variables of each container."),
                    ALL,
                    SELECTOR,
                    DRY_RUN,
                    OUTPUT,
                ],
            ),
            sub(
                "resources",
                false,
                "Update resource requests/limits on objects with pod templates",
                &[
                    CONTAINERS,
                    value(
                        "limits",
                        None,
                        "''",
                        "The limits, e.g. cpu=200m,memory=512Mi.",
                    ),
                    value(
                        "requests",
                        None,
                        "''",
                        "The requests, e.g. cpu=100m,memory=256Mi.",
                    ),
                    ALL,
                    SELECTOR,
                    DRY_RUN,
                    RECORD,
                    OUTPUT,
                ],
            ),
        ],
        flags: &[],
        read_only: false,
        run: set::run,
    },
    Verb {
        name: "get",
        short: "Display one or many resources",
        group: INTERMEDIATE,
        subcommands: &[],
        flags: &[
            OUTPUT,
            switch("watch", Some('w'), "After listing, watch for changes."),
            SELECTOR,
            switch("show-labels", None, "Show all labels as the last column."),
            ALL_NAMESPACES,
            FIELD_SELECTOR,
            IGNORE_NOT_FOUND,
            switch("show-kind", None, "List the resource type of each object."),
        ],
        read_only: true,
        run: get::run,
    },
    Verb {
        name: "delete",
        short: "Delete resources by file names, stdin, resources and names, or by resources and label selector",
        group: INTERMEDIATE,
        subcommands: &[],
        flags: &[
            Flag {
                long: "cascade",
                short: None,
                takes: Takes::Switch,
                default: "'background'",
                help: "background, foreground or orphan: how the garbage collector treats the dependents.",
            },
            GRACE_PERIOD,
            switch(
                "now",
                None,
                "Signal the pods to end at once (--grace-period=1).",
            ),
            switch(
                "force",
                None,
                "Remove at once, without waiting for the end (--grace-period=0).",
            ),
            Flag {
                long: "wait",
                short: None,
                takes: Takes::Switch,
                default: "true",
                help: "Wait for the objects to be gone before returning.",
            },
            SELECTOR,
            FIELD_SELECTOR,
            ALL,
            DRY_RUN,
            IGNORE_NOT_FOUND,
            OUTPUT,
        ],
        read_only: false,
        run: delete::run,
    },
    Verb {
        name: "rollout",
        short: "Manage the rollout of a resource",
        group: DEPLOY,
        subcommands: &[
            sub(
                "status",
                true,
                "Show the status of the rollout",
                &[
                    Flag {
                        long: "watch",
                        short: Some('w'),
                        takes: Takes::Switch,
                        default: "true",
                        help: "Watch the rollout until it is done.",
                    },
                    TIMEOUT,
                    REVISION,
                    SELECTOR,
                ],
            ),
            sub(
                "history",
                true,
                "View rollout history",
                &[REVISION, SELECTOR, OUTPUT],
            ),
            sub(
                "pause",
                false,
                "Mark the provided resource as paused",
                &[SELECTOR],
            ),
            sub("resume", false, "Resume a paused resource", &[SELECTOR]),
            sub("restart", false, "Restart a resource", &[SELECTOR]),
            sub(
                "undo",
                false,
                "Undo a previous rollout",
                &[
                    value(
                        "to-revision",
                        None,
                        "0",
                        "The revision to go back to (0: the previous one).",
                    ),
                    SELECTOR,
                    DRY_RUN,
                ],
            ),
        ],
        flags: &[],
        read_only: false,
        run: rollout::run,
    },
    Verb {
        name: "scale",
        short: "Set a new size for a deployment, replica set, or replication controller",
        group: DEPLOY,
        subcommands: &[],
        flags: &[
            value(
                "replicas",
                None,
                "0",
                "The new number of replicas (required).",
            ),
            value(
                "current-replicas",
                None,
                "-1",
                "Only if the current size is this.",
            ),
            value(
                "resource-version",
                None,
                "''",
                "Only if the object is at this resourceVersion.",
            ),
            SELECTOR,
            ALL,
            DRY_RUN,
            OUTPUT,
        ],
        read_only: false,
        run: scale::run,
    },
    Verb {
        name: "cordon",
        short: "Mark node as unschedulable",
        group: CLUSTER,
        subcommands: &[],
        flags: &[SELECTOR, DRY_RUN],
        read_only: false,
        run: node::run,
    },
    Verb {
        name: "uncordon",
        short: "Mark node as schedulable",
        group: CLUSTER,
        subcommands: &[],
        flags: &[SELECTOR, DRY_RUN],
        read_only: false,
        run: node::run,
    },
    Verb {
        name: "drain",
        short: "Drain node in preparation for maintenance",
        group: CLUSTER,
        subcommands: &[],
        flags: &[
            SELECTOR,
            TIMEOUT,
            GRACE_PERIOD,
            value(
                "pod-selector",
                None,
                "''",
                "Only evict the pods this label selector picks.",
            ),
            value(
                "skip-wait-for-delete-timeout",
                None,
                "0",
                "Do not wait for a pod whose deletion began more than this many seconds ago.",
            ),
            value(
                "chunk-size",
                None,
                "500",
                "List the pods in chunks of this size.",
            ),
            DRY_RUN,
            switch("force", None, "Also delete pods no controller manages."),
            switch(
                "ignore-daemonsets",
                None,
                "Leave the pods DaemonSets manage.",
            ),
            switch(
                "delete-emptydir-data",
                None,
                "Also delete pods with emptyDir volumes.",
            ),
            switch(
                "disable-eviction",
                None,
                "Delete rather than evict (bypasses the budgets).",
            ),
        ],
        read_only: false,
        run: drain::run,
    },
    Verb {
        name: "describe",
        short: "Show details of a specific resource or group of resources",
        group: TROUBLESHOOTING,
        subcommands: &[],
        flags: &[
            SELECTOR,
            Flag {
                long: "show-events",
                short: None,
                takes: Takes::Switch,
                default: "true",
                help: "Show the events of each object.",
            },
            ALL_NAMESPACES,
        ],
        read_only: true,
        run: describe::run,
    },
    Verb {
        name: "apply",
        short: "Apply a configuration to a resource by file name or stdin",
        group: ADVANCED,
        subcommands: &[],
        flags: APPLY,
        read_only: false,
        run: apply::run,
    },
    Verb {
        name: "patch",
        short: "Update fields of a resource",
        group: ADVANCED,
        subcommands: &[],
        flags: &[
            value(
                "type",
                None,
                "'strategic'",
                "The patch's type: json, merge or strategic.",
            ),
            value("patch", Some('p'), "''", "The patch (JSON or YAML)."),
            DRY_RUN,
        ],
        read_only: false,
        run: patch::run,
    },
    Verb {
        name: "label",
        short: "Update the labels on a resource",
        group: SETTINGS,
        subcommands: &[],
        flags: LABEL,
        read_only: false,
        run: label::run,
    },
    Verb {
        name: "annotate",
        short: "Update the annotations on a resource",
        group: SETTINGS,
        subcommands: &[],
        flags: LABEL,
        read_only: false,
        run: label::run,
    },
    Verb {
        name: "config",
        short: "Modify kubeconfig files",
        group: OTHER,
        subcommands: &[
            sub("current-context", true, "Display the current-context", &[]),
            sub(
                "get-contexts",
                true,
                "Describe one or many contexts",
                &[switch("no-headers", None, "Print no header row.")],
            ),
            sub(
                "set-context",
                false,
                "Set a context entry in kubeconfig",
                &[
                    switch("current", None, "Change the current context."),
                    value("cluster", None, "''", "The context's cluster."),
                    value("user", None, "''", "The context's user."),
                ],
            ),
            sub(
                "view",
                true,
                "Display merged kubeconfig settings or a specified kubeconfig file",
                &[
                    switch("minify", None, "Only what the current context uses."),
                    switch("raw", None, "Show the secrets as they are."),
                    switch(
                        "flatten",
                        None,
                        "Write the files a kubeconfig names into it.",
                    ),
                    OUTPUT,
                ],
            ),
        ],
        flags: &[],
        read_only: false,
        run: config::run,
    },
    Verb {
        name: "version",
        short: "Print the client and server version information",
        group: OTHER,
        subcommands: &[],
        flags: &[switch("client", None, "Only the client's version."), OUTPUT],
        read_only: true,
        run: version::run,
    },
    Verb {
        name: "help",
        short: "Help about any command",
        group: OTHER,
        subcommands: &[],
        flags: &[],
        read_only: true,
        run: |_, cmd| Ok(help_topic(cmd.words())),
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

/// `kubectl help [COMMAND [SUBCOMMAND]]`: kubectl's help, or a command's.
fn help_topic(words: Vec<&str>) -> String {
    let Some(first) = words.first() else {
        return help();
    };
    match find(first) {
        Some(v) => usage(v, words.get(1).and_then(|s| v.sub(s))),
        None => format!("Unknown help topic [`{}`]\n{}", words.join(" "), help()),
    }
}

/// A command's `--help`, laid out as kubectl's templates lay it out: what it does, its
/// subcommands (as cobra pads their names, to 11 at least) or its options (sorted by name, as
/// pflag sorts them; each `-s, --long=default:` then its help on a line of its own), and its
/// usage. The namespace flag is global: `kubectl options` lists it, not a command's help.
pub fn usage(verb: &Verb, sub: Option<&Sub>) -> String {
    let (short, flags) = sub.map_or((verb.short, verb.flags), |s| (s.short, s.flags));
    let mut out = format!("{short}.\n");
    let path = match sub {
        Some(s) => format!("{} {}", verb.name, s.name),
        None => verb.name.to_string(),
    };
    if sub.is_none() && !verb.subcommands.is_empty() {
        let pad = verb
            .subcommands
            .iter()
            .map(|s| s.name.len())
            .max()
            .unwrap_or(0)
            .max(11);
        out.push_str("\nAvailable Commands:\n");
        let mut subs: Vec<&Sub> = verb.subcommands.iter().collect();
        crate::api::sort::sort_by_key(&mut subs, |s| s.name);
        for s in subs {
            out.push_str(&format!("  {:<pad$} {}\n", s.name, s.short));
        }
    }
    let mut flags: Vec<&Flag> = flags.iter().filter(|f| **f != NAMESPACE).collect();
    crate::api::sort::sort_by_key(&mut flags, |f| f.long);
    if !flags.is_empty() {
        out.push_str("\nOptions:\n");
        for f in flags {
            let short = f.short.map(|c| format!("-{c}, ")).unwrap_or_default();
            out.push_str(&format!(
                "    {short}--{}={}:\n\t{}\n\n",
                f.long, f.default, f.help
            ));
        }
    } else {
        out.push('\n');
    }
    let what = if sub.is_none() && !verb.subcommands.is_empty() {
        " SUBCOMMAND"
    } else {
        ""
    };
    out.push_str(&format!(
        "Usage:\n  kubectl {path}{what} [options]\n\nUse \"kubectl options\" for a list of global command-line options (applies to all commands)."
    ));
    out
}
