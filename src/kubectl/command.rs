//! What a command is, as the verb table declares it: a [`Verb`] (or its [`Sub`]command) with
//! its [`Flag`]s, each declared once with its shorthand, its value and its help (as cobra's
//! `cmd.Flags().StringVarP(…)` declares it), and a [`Command`]: a line read against the table
//! ([`super::line::parse`]). Parsing the flags ([`super::args::Args`]), completion, a verb's
//! `--help` and the guarantees' reading of a command all go by the same rows.

use super::Outcome;
use crate::api::yaml::{Manifest, ManifestError, parse_manifests};
use crate::cluster::Cluster;
use std::rc::Rc;

/// How a flag takes its value, as pflag reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// Only as `--flag=value`; bare, it is its default when given (pflag's `NoOptDefVal`: a
    /// boolean's `true`, `--dry-run`'s `unchanged`, `--cascade`'s `background`).
    Switch,
    /// `--flag value` or `--flag=value` (and `-f value`, `-fvalue`).
    Value,
}

/// One flag of a verb: its long name, its shorthand, how it takes a value, the default
/// kubectl's help shows, and what it does here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    pub long: &'static str,
    pub short: Option<char>,
    pub takes: Takes,
    /// As kubectl's help prints it after the `=`: `false`, `''`, `-1`, `'none'`.
    pub default: &'static str,
    pub help: &'static str,
}

/// The flag every verb takes (kubectl's persistent `-n, --namespace`).
pub const NAMESPACE: Flag = Flag {
    long: "namespace",
    short: Some('n'),
    takes: Takes::Value,
    default: "''",
    help: "If present, the namespace scope for this CLI request.",
};

/// A subcommand (`rollout status`) and whether it only reads the world.
#[derive(Debug, PartialEq, Eq)]
pub struct Sub {
    pub name: &'static str,
    /// Its other names (`create pdb`, `create ns`).
    pub aliases: &'static [&'static str],
    pub read_only: bool,
    /// kubectl's one-line description (its cobra `Short`).
    pub short: &'static str,
    pub flags: &'static [Flag],
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
    /// Its flags (without a subcommand: `create -f`).
    pub flags: &'static [Flag],
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

impl Verb {
    /// The subcommand named `name` (or one of its aliases).
    pub fn sub(&self, name: &str) -> Option<&'static Sub> {
        self.subcommands
            .iter()
            .find(|s| s.name == name || s.aliases.contains(&name))
    }
}

/// One command line, read.
#[derive(Clone, Debug)]
pub struct Command {
    pub verb: &'static Verb,
    /// The words after the verb (its subcommand first, for `set` and `rollout`), unquoted.
    pub args: Vec<String>,
    /// The lines after the first (a manifest for `apply -f -`), without a heredoc's closing
    /// `EOF`.
    pub stdin: Option<String>,
    /// `stdin` read as manifests, once: the run, its replays and a trial on a copy of the
    /// world share what the first of them read ([`Command::manifests`]).
    pub(super) manifests: std::cell::OnceCell<Result<Rc<[Manifest]>, ManifestError>>,
}

impl Command {
    /// The manifests on the command's stdin (`apply -f -`), read the first time they are
    /// asked for; `None` without stdin.
    pub fn manifests(&self) -> Option<Result<&[Manifest], &ManifestError>> {
        let text = self.stdin.as_deref()?;
        let read = self
            .manifests
            .get_or_init(|| parse_manifests(text).map(Rc::from));
        Some(read.as_ref().map(|m| &**m))
    }

    /// The subcommand, for a verb that has them (`rollout status`): its first word, when the
    /// table knows it.
    pub fn subcommand(&self) -> Option<&'static Sub> {
        self.verb.sub(self.args.first()?)
    }

    /// The subcommand's name (an alias read as its name: `create pdb` is
    /// `poddisruptionbudget`).
    pub fn sub(&self) -> Option<&'static str> {
        self.subcommand().map(|s| s.name)
    }

    /// The words after the subcommand (all of them for a verb without one).
    pub fn rest(&self) -> &[String] {
        &self.args[usize::from(self.subcommand().is_some())..]
    }

    /// The flags the command takes: its subcommand's, or the verb's; `--namespace` last.
    pub fn flags(&self) -> impl Iterator<Item = &'static Flag> + Clone {
        let own = self.subcommand().map_or(self.verb.flags, |s| s.flags);
        own.iter().chain([&NAMESPACE])
    }

    /// Whether the command only reads the world (`get`, `describe`, `rollout status`, any
    /// `--help`).
    pub fn read_only(&self) -> bool {
        if self.asks_help() {
            return true;
        }
        match (self.verb.subcommands.is_empty(), self.subcommand()) {
            (true, _) => self.verb.read_only,
            (false, sub) => sub.is_some_and(|s| s.read_only),
        }
    }

    /// Whether it asks for its help (`-h`, `--help`), which cobra answers before anything.
    pub fn asks_help(&self) -> bool {
        self.args.iter().any(|a| a == "-h" || a == "--help")
    }

    /// The words that are not flags, nor the values of the flags that take one (`-n prod`,
    /// `-o yaml`), its subcommand first.
    pub fn words(&self) -> Vec<&str> {
        let mut out = vec![];
        let mut args = self.args.iter().map(String::as_str);
        while let Some(w) = args.next() {
            if !w.starts_with('-') || w == "-" {
                out.push(w);
            } else if !w.contains('=')
                && self.flag_named(w).is_some_and(|f| f.takes == Takes::Value)
                && (w.starts_with("--") || w.len() == 2)
            {
                args.next();
            }
        }
        out
    }

    /// The flag a word names (`--watch`, `--watch=false`, `-w`, `-oyaml`), if the command
    /// takes it.
    fn flag_named(&self, word: &str) -> Option<&'static Flag> {
        if let Some(long) = word.strip_prefix("--") {
            let long = long.split('=').next().unwrap_or(long);
            return self.flags().find(|f| f.long == long);
        }
        let short = word.strip_prefix('-')?.chars().next()?;
        self.flags().find(|f| f.short == Some(short))
    }

    /// Whether a flag (by its long name) is given and not turned off (`-w`, `--watch`,
    /// `--watch=true`; not `--watch=false`).
    pub fn has_flag(&self, long: &str) -> bool {
        self.args.iter().any(|a| {
            let on = a.split_once('=').is_none_or(|(_, v)| v != "false");
            on && a.starts_with('-') && self.flag_named(a).is_some_and(|f| f.long == long)
        })
    }
}
