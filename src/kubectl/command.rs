//! A command line read once: `parse` splits it as a shell would (shlex), takes the stdin a
//! heredoc or a pasted manifest gives it, drops the `kubectl` (or `k`) in front, moves the
//! global flags given before the verb (`kubectl -n prod get rs`) after it, as cobra's
//! persistent flags are read anywhere, and finds the verb in the table
//! ([`super::verbs::VERBS`]). Running, the read-only test, the page's `get rs -w` and the
//! guarantees' reading of a command all start from the same [`Command`].

use super::KubectlError;
use super::verbs::{self, Verb};

/// Splits a command line as a POSIX shell would (quotes, backslash escapes, `#` comments), by
/// shlex; the error says which quote is left open.
pub fn tokenize(line: &str) -> Result<Vec<String>, String> {
    shlex::split(line).ok_or_else(|| {
        let closes = |end: char| shlex::split(&format!("{line}{end}")).is_some();
        if closes('x') {
            "a backslash at the end escapes nothing".into()
        } else if closes('\'') {
            "unterminated single quote".into()
        } else {
            "unterminated double quote".into()
        }
    })
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
}

/// The global flags that take a value (`-n prod`), which may stand before the verb.
const GLOBAL_WITH_VALUE: [&str; 2] = ["-n", "--namespace"];

impl Command {
    /// The subcommand, for a verb that has them (`rollout status`): its first word, when the
    /// table knows it.
    pub fn sub(&self) -> Option<&'static str> {
        let first = self.args.first()?;
        self.verb
            .subcommands
            .iter()
            .find(|s| s.name == first)
            .map(|s| s.name)
    }

    /// Whether the command only reads the world (`get`, `describe`, `rollout status`).
    pub fn read_only(&self) -> bool {
        if self.verb.subcommands.is_empty() {
            return self.verb.read_only;
        }
        let sub = self.sub();
        self.verb
            .subcommands
            .iter()
            .any(|s| s.read_only && Some(s.name) == sub)
    }

    /// The words that are not flags, nor the values of the flags that take one (`-n`, `-o`,
    /// `-l`, `-f`).
    pub fn words(&self) -> Vec<&str> {
        let mut out = vec![];
        let mut args = self.args.iter().map(String::as_str);
        while let Some(w) = args.next() {
            if !w.starts_with('-') {
                out.push(w);
            } else if matches!(
                w,
                "-n" | "--namespace"
                    | "-o"
                    | "--output"
                    | "-l"
                    | "--selector"
                    | "-f"
                    | "--filename"
            ) {
                args.next();
            }
        }
        out
    }

    /// Whether a flag is given, in any of its spellings (`-w`, `--watch`, `--watch=true`).
    pub fn has_flag(&self, names: &[&str]) -> bool {
        self.args.iter().any(|a| {
            let flag = a.split('=').next().unwrap_or(a);
            let on = a.split_once('=').is_none_or(|(_, v)| v != "false");
            on && names.iter().any(|n| {
                flag.strip_prefix("--") == Some(n)
                    || (n.len() == 1 && flag.strip_prefix('-') == Some(n))
            })
        })
    }
}

/// Reads a command line (with stdin on the lines after the first).
pub fn parse(text: &str) -> Result<Command, KubectlError> {
    #[cfg(test)]
    crate::api::parses::command();
    let text = text.trim();
    let (line, stdin) = match text.split_once('\n') {
        Some((l, rest)) => (l.trim(), Some(rest)),
        None => (text, None),
    };
    let stdin = stdin.map(|s| {
        let s = s.trim_end();
        // `<<EOF … EOF` heredocs: drop the closing marker.
        match s.rsplit_once('\n') {
            Some((body, last)) if last.trim() == "EOF" => body.to_string(),
            _ => s.to_string(),
        }
    });
    let mut tokens = tokenize(line).map_err(|e| format!("error: {e} in {line:?}"))?;
    tokens.retain(|t| t != "<<EOF" && t != "<<'EOF'");
    // `k` is the alias everyone sets up for kubectl.
    if matches!(tokens.first().map(String::as_str), Some("kubectl" | "k")) {
        tokens.remove(0);
    }
    // Global flags before the verb go after it.
    let mut global = vec![];
    while let Some(t) = tokens.first().filter(|t| t.starts_with('-')) {
        let takes_value = GLOBAL_WITH_VALUE.contains(&t.as_str());
        global.push(tokens.remove(0));
        if takes_value && !tokens.is_empty() {
            global.push(tokens.remove(0));
        }
    }
    // `kubectl --help` (or `-h`) is `kubectl help`.
    if tokens.is_empty() && global.iter().any(|g| g == "--help" || g == "-h") {
        tokens.push("help".into());
    }
    if tokens.is_empty() {
        return Err("error: empty command: expected e.g. kubectl get deployments".into());
    }
    let name = tokens.remove(0);
    let verb = verbs::find(&name).ok_or_else(|| {
        format!(
            "error: unknown command \"{name}\" for \"kubectl\" (the playground knows {})",
            verbs::VERBS.map(|v| v.name).join(", ")
        )
    })?;
    tokens.extend(global);
    Ok(Command {
        verb,
        args: tokens,
        stdin,
    })
}
