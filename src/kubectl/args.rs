//! A verb's flags and arguments as pflag and kubectl's resource builder read them: `--flag
//! value`, `--flag=value`, shorthands, `TYPE/NAME` or `TYPE NAME`, `-l/--selector`.

use super::KubectlError;
use crate::api::*;

pub(super) struct Args {
    pub(super) positional: Vec<String>,
    pub(super) flags: Vec<(String, Option<String>)>,
}

impl Args {
    pub(super) fn parse(tokens: &[String], with_value: &[&str]) -> Result<Args, String> {
        // Every verb takes the namespace flags.
        let with_value: Vec<&str> = with_value
            .iter()
            .copied()
            .chain(["n", "namespace"])
            .collect();
        let mut positional = vec![];
        let mut flags = vec![];
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            if let Some(f) = t
                .strip_prefix("--")
                // A shorthand: `-w`, or with its value, `-w=false`.
                .or_else(|| {
                    t.strip_prefix('-')
                        .filter(|f| f.split('=').next().is_some_and(|k| k.len() == 1))
                })
            {
                if let Some((k, v)) = f.split_once('=') {
                    flags.push((k.to_string(), Some(v.to_string())));
                } else if with_value.contains(&f) {
                    let v = tokens
                        .get(i + 1)
                        .ok_or_else(|| format!("error: flag needs an argument: --{f}"))?;
                    flags.push((f.to_string(), Some(v.clone())));
                    i += 1;
                } else {
                    flags.push((f.to_string(), None));
                }
            } else {
                positional.push(t.clone());
            }
            i += 1;
        }
        Ok(Args { positional, flags })
    }
    /// The namespace the command works in: `-n`/`--namespace`, else `default`.
    pub(super) fn ns(&self) -> &str {
        self.flag("n")
            .or(self.flag("namespace"))
            .flatten()
            .unwrap_or("default")
    }

    pub(super) fn flag(&self, name: &str) -> Option<Option<&str>> {
        self.flags
            .iter()
            .rev()
            .find(|(k, _)| k == name)
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
    pub(super) fn only(&self, allowed: &[&str]) -> Result<(), String> {
        for (k, _) in &self.flags {
            if !allowed.contains(&k.as_str()) && k != "n" && k != "namespace" {
                // pflag's words: a one-letter flag is a shorthand.
                return Err(if k.len() == 1 {
                    format!("error: unknown shorthand flag: '{k}' in -{k}")
                } else {
                    format!("error: unknown flag: --{k}")
                });
            }
        }
        Ok(())
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
        self.flag("l").or(self.flag("selector")).flatten()
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
