//! A command line read once: [`parse`] splits it as a shell would (shlex), takes the stdin a
//! heredoc or a pasted manifest gives it, drops the `kubectl` (or `k`) in front, moves the
//! global flags given before the verb (`kubectl -n prod get rs`) after it, as cobra's
//! persistent flags are read anywhere, and finds the verb in the table
//! ([`super::verbs::VERBS`]). Running, the read-only test, the page's `get rs -w` and the
//! guarantees' reading of a command all start from the same [`Command`].

use super::KubectlError;
use super::command::{Command, NAMESPACE};
use super::verbs;

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
        // `-n prod`, `--namespace prod` (not `--namespace=prod`, nor `-nprod`).
        let takes_value = t.strip_prefix("--") == Some(NAMESPACE.long)
            || t.strip_prefix('-')
                .and_then(|s| s.chars().next())
                .filter(|_| t.len() == 2)
                == NAMESPACE.short;
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
        manifests: Default::default(),
    })
}

/// Whether a command line only reads the world: `get`, `describe`, `rollout status|history`,
/// any verb's `--help` (a line that does not parse changes nothing either, but is not a read).
pub fn is_read_only(cmd: &str) -> bool {
    parse(cmd).is_ok_and(|c| c.read_only())
}
