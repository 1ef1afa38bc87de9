//! A verb's flags and arguments as pflag and kubectl's resource builder read them: `--flag
//! value`, `--flag=value`, shorthands, `TYPE/NAME` or `TYPE NAME`, `-l/--selector`.

use super::KubectlError;
use super::command::{Command, Flag, Takes};
use crate::api::*;

pub(super) struct Args {
    pub(super) positional: Vec<String>,
    /// Each flag given, by its long name, with its value (none for a bare switch).
    pub(super) flags: Vec<(&'static str, Option<String>)>,
}

impl Args {
    /// A command's words after its subcommand, read against its flags.
    pub(super) fn of(cmd: &Command) -> Result<Args, String> {
        Args::parse(cmd.rest(), cmd.flags())
    }

    /// Reads `tokens` as pflag does against the flags a command takes (its table row's):
    /// `--flag value`, `--flag=value`, `-f value`, `-fvalue`, `-f=value`, shorthands together
    /// (`-wA`), and everything after `--` as words. The first flag it does not know, or one left
    /// without its value, is refused in pflag's words.
    pub(super) fn parse<'f>(
        tokens: &[String],
        known: impl Iterator<Item = &'f Flag> + Clone,
    ) -> Result<Args, String> {
        let mut positional = vec![];
        let mut flags = vec![];
        let mut rest = tokens.iter();
        while let Some(t) = rest.next() {
            if t == "--" {
                positional.extend(rest.by_ref().cloned());
                break;
            }
            if let Some(long) = t.strip_prefix("--") {
                let (name, value) = match long.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (long, None),
                };
                let f = known
                    .clone()
                    .find(|f| f.long == name)
                    .ok_or_else(|| format!("error: unknown flag: --{name}"))?;
                let value = match (value, f.takes) {
                    (None, Takes::Value) => Some(
                        rest.next()
                            .ok_or_else(|| format!("error: flag needs an argument: --{name}"))?
                            .clone(),
                    ),
                    (v, _) => v,
                };
                flags.push((f.long, value));
                continue;
            }
            let Some(shorts) = t.strip_prefix('-').filter(|s| !s.is_empty()) else {
                positional.push(t.clone());
                continue;
            };
            // pflag's `parseShortArg`: each letter a flag until one takes the rest as its value.
            let mut at = shorts;
            while let Some(c) = at.chars().next() {
                let after = &at[c.len_utf8()..];
                let f = known
                    .clone()
                    .find(|f| f.short == Some(c))
                    .ok_or_else(|| format!("error: unknown shorthand flag: '{c}' in -{shorts}"))?;
                if let Some(v) = after.strip_prefix('=') {
                    flags.push((f.long, Some(v.to_string())));
                    break;
                }
                if f.takes == Takes::Value {
                    let v = if after.is_empty() {
                        rest.next().cloned().ok_or_else(|| {
                            format!("error: flag needs an argument: '{c}' in -{shorts}")
                        })?
                    } else {
                        after.to_string()
                    };
                    flags.push((f.long, Some(v)));
                    break;
                }
                flags.push((f.long, None));
                at = after;
            }
        }
        Ok(Args { positional, flags })
    }

    /// The namespace the command works in: `-n`/`--namespace`, else `default`.
    pub(super) fn ns(&self) -> &str {
        self.flag("namespace").flatten().unwrap_or("default")
    }

    pub(super) fn flag(&self, name: &str) -> Option<Option<&str>> {
        self.flags
            .iter()
            .rev()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_deref())
    }
    /// An integer flag's value, refused as pflag refuses one that does not parse.
    pub(super) fn int(&self, name: &str) -> Result<Option<i32>, String> {
        match self.flag(name) {
            Some(Some(v)) => v.parse().map(Some).map_err(|_| {
                format!("error: invalid argument \"{v}\" for \"--{name}\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax")
            }),
            _ => Ok(None),
        }
    }
}

/// What `--dry-run` asks (kubectl's `GetDryRunStrategy`): write, let the server validate
/// without storing, or only print what would be sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DryRun {
    None,
    Client,
    Server,
}

impl DryRun {
    /// What kubectl's printer adds to the line of an object not written.
    pub(super) fn suffix(self) -> &'static str {
        match self {
            DryRun::None => "",
            DryRun::Client => " (dry run)",
            DryRun::Server => " (server dry run)",
        }
    }
}

impl Args {
    /// `--dry-run[=none|client|server]`, with the warning kubectl logs for the deprecated
    /// spellings (a bare `--dry-run`, or a boolean).
    /// The warning comes with its line in kubectl v0.36.3 `pkg/cmd/util/helpers.go`.
    pub(super) fn dry_run(&self) -> Result<(DryRun, Option<(u32, String)>), KubectlError> {
        let Some(v) = self.flag("dry-run") else {
            return Ok((DryRun::None, None));
        };
        let v = v.unwrap_or("unchanged");
        if let Some(b) = parse_bool(v) {
            let (strategy, instead, line) = if b {
                (DryRun::Client, "client", 733)
            } else {
                (DryRun::None, "none", 736)
            };
            return Ok((
                strategy,
                Some((
                    line,
                    format!(
                        "--dry-run={v} is deprecated (boolean value) and can be replaced with --dry-run={instead}."
                    ),
                )),
            ));
        }
        Ok(match v {
            "unchanged" => (
                DryRun::Client,
                Some((
                    719,
                    "--dry-run is deprecated and can be replaced with --dry-run=client.".into(),
                )),
            ),
            "client" => (DryRun::Client, None),
            "server" => (DryRun::Server, None),
            "none" => (DryRun::None, None),
            _ => {
                return Err(KubectlError::Go(format!(
                    "Invalid dry-run value ({v}). Must be \"none\", \"server\", or \"client\"."
                )));
            }
        })
    }

    /// A boolean flag: absent is `false`, bare is `true`, else pflag's `ParseBool`.
    pub(super) fn bool_flag(&self, name: &str) -> Result<bool, KubectlError> {
        match self.flag(name) {
            None => Ok(false),
            Some(None) => Ok(true),
            Some(Some(v)) => parse_bool(v).ok_or_else(|| {
                format!("error: invalid argument \"{v}\" for \"--{name}\" flag: strconv.ParseBool: parsing \"{v}\": invalid syntax").into()
            }),
        }
    }

    /// `-l/--selector`'s value, if given.
    pub(super) fn selector(&self) -> Option<&str> {
        self.flag("selector").flatten()
    }
}

/// pflag's `strconv.ParseBool`.
pub(super) fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

pub(super) fn parse_selector(s: &str) -> Result<LabelSelector, String> {
    let mut sel = LabelSelector::default();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').ok_or_else(|| {
            format!("error: unable to parse requirement {part:?}: expected KEY=VALUE")
        })?;
        sel.match_labels.insert(
            k.trim_end_matches('=').to_string(),
            v.trim_start_matches('=').to_string(),
        );
    }
    Ok(sel)
}
