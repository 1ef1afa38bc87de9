//! The console's part of the page: what it printed (kubectl's words, the scenario's own
//! commands, the page's notes) and the commands typed, for recall.

use crate::scenario::session::Session;
use std::rc::Rc;

/// Console lines kept (older ones scroll away).
pub const CONSOLE_LINES: usize = 400;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Line {
    Command(String),
    Output(String),
    Error(String),
    /// A line a watching command printed, at its virtual instant (ms).
    Watched(u64, String),
    /// The page's own remark (not kubectl's words).
    Note(String),
    /// A command of the scenario's own, printed when the timeline reaches it.
    Scenario(String),
}

/// The console: its lines (the last [`CONSOLE_LINES`]) and the commands typed.
#[derive(Clone, Default, PartialEq)]
pub struct Console {
    pub lines: Rc<Vec<Line>>,
    pub history: Rc<Vec<String>>,
}

impl Console {
    /// Prints a line; the oldest scroll away past [`CONSOLE_LINES`].
    pub fn print(&mut self, line: Line) {
        let c = Rc::make_mut(&mut self.lines);
        c.push(line);
        if c.len() > CONSOLE_LINES {
            let extra = c.len() - CONSOLE_LINES;
            c.drain(..extra);
        }
    }

    /// Echoes a typed command and keeps it for recall (once, when typed twice in a row).
    pub fn typed(&mut self, cmd: &str) {
        self.print(Line::Command(cmd.to_string()));
        let h = Rc::make_mut(&mut self.history);
        if h.last().map(String::as_str) != Some(cmd) {
            h.push(cmd.to_string());
        }
    }

    /// `clear`: the lines go, the history stays.
    pub fn clear(&mut self) {
        self.lines = Rc::new(vec![]);
    }
}

/// What the console completes at step `pos` of a run, and its example command: a change to
/// the Deployment on screen, in its namespace.
pub fn completions(s: &Session, pos: usize) -> (crate::kubectl::Names, String) {
    let step = s.trace.get(pos);
    let mut objects: Vec<String> = step
        .iter()
        .flat_map(|st| st.deployment.iter().map(|d| d.name.clone()))
        .collect();
    objects.extend(
        step.iter()
            .flat_map(|st| st.replica_sets.iter().map(|r| r.name.clone())),
    );
    let pods = s
        .frames
        .get(pos)
        .map(|f| f.iter().map(|p| p.name.clone()).collect())
        .unwrap_or_default();
    // The nodes the step's pods run on.
    let mut nodes: Vec<String> = s
        .frames
        .get(pos)
        .map(|f| {
            f.iter()
                .map(|p| p.node.clone())
                .filter(|n| !n.is_empty())
                .collect()
        })
        .unwrap_or_default();
    crate::api::sort::sort(&mut nodes);
    nodes.dedup();
    let mut namespaces = vec!["default".to_string()];
    let created = s.trace.iter().filter_map(|st| {
        let cmd = st.command()?;
        let rest = cmd
            .strip_prefix("kubectl create namespace ")
            .or_else(|| cmd.strip_prefix("kubectl create ns "))?;
        rest.split_whitespace().next().map(str::to_string)
    });
    let of_deployments = s
        .deployments()
        .into_iter()
        .filter_map(|k| k.split_once('/').map(|(ns, _)| ns.to_string()));
    for ns in created.chain(of_deployments) {
        if !namespaces.contains(&ns) {
            namespaces.push(ns);
        }
    }
    crate::api::sort::sort(&mut namespaces);
    let example = match s.focus_at(pos) {
        Some(d) => {
            let ns = match d.metadata.namespace.as_str() {
                "default" | "" => String::new(),
                ns => format!(" -n {ns}"),
            };
            match d.spec.template.spec.containers.first() {
                Some(c) => format!(
                    "kubectl set image deployment/{} {}={}{ns}",
                    d.metadata.name, c.name, c.image
                ),
                None => format!("kubectl get deployment {}{ns}", d.metadata.name),
            }
        }
        None => "kubectl get deployments".to_string(),
    };
    let names = crate::kubectl::Names {
        objects,
        pods,
        namespaces,
        nodes,
        others: other_names(s),
    };
    (names, example)
}

/// The names of the scenario's objects of the kinds completion has no list of its own for
/// (budgets, Services, EndpointSlices: few objects, read again only when the console asks).
fn other_names(s: &Session) -> Vec<(crate::api::Kind, String)> {
    use crate::api::Kind;
    s.scenario
        .objects
        .iter()
        .filter_map(|text| crate::api::yaml::parse_objects(text).ok())
        .flatten()
        .filter(|o| {
            !matches!(
                o.kind(),
                Kind::Deployment | Kind::ReplicaSet | Kind::Pod | Kind::Node
            )
        })
        .map(|o| (o.kind(), o.meta().name.to_string()))
        .collect()
}

/// Whether a console text is still open: a heredoc (`<<EOF`, `<<'EOF'`) whose closing line
/// has not been typed, so Enter goes on to a new line as a shell's does.
pub fn heredoc_open(text: &str) -> bool {
    let mut lines = text.lines();
    let Some(first) = lines.next() else {
        return false;
    };
    let Some((_, marker)) = first.split_once("<<") else {
        return false;
    };
    let marker = marker
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c| c == '\'' || c == '"');
    !marker.is_empty() && !lines.any(|l| l.trim() == marker)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_lines_scroll_away_and_a_repeated_command_is_recalled_once() {
        let mut c = Console::default();
        for i in 0..CONSOLE_LINES + 5 {
            c.print(Line::Output(i.to_string()));
        }
        assert_eq!(c.lines.len(), CONSOLE_LINES);
        assert!(
            c.lines[0] == Line::Output("5".into()),
            "the oldest went first"
        );
        c.typed("kubectl get rs");
        c.typed("kubectl get rs");
        c.typed("kubectl get pods");
        assert_eq!(*c.history, ["kubectl get rs", "kubectl get pods"]);
        c.clear();
        assert!(
            c.lines.is_empty() && c.history.len() == 2,
            "clear keeps the recall"
        );
    }

    /// Enter in an open heredoc is a new line, as in a shell; the closing marker ends it.
    #[test]
    fn a_heredoc_stays_open_until_its_marker() {
        assert!(heredoc_open("kubectl apply -f - <<EOF"));
        assert!(heredoc_open(
            "kubectl apply -f - <<'EOF'\napiVersion: apps/v1"
        ));
        assert!(!heredoc_open(
            "kubectl apply -f - <<EOF\nkind: Deployment\nEOF"
        ));
        assert!(!heredoc_open("kubectl get rs"));
        assert!(!heredoc_open(""));
    }

    /// Namespaces to complete and the example follow the run and the Deployment on screen.
    #[test]
    fn completions_follow_the_run_and_the_deployment_on_screen() {
        let m = crate::web::state::Model::from_url("", "", false);
        let (names, example) = completions(&m.session, m.session.len() - 1);
        assert_eq!(names.namespaces, ["default"]);
        assert!(
            names.objects.first().is_some_and(|n| n == "web"),
            "{names:?}"
        );
        assert!(
            example.starts_with("kubectl set image deployment/web "),
            "{example}"
        );
    }
}
