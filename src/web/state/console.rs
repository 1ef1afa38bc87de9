//! The console's part of the page: what it printed (kubectl's words, the scenario's own
//! commands, the page's notes) and the commands typed, for recall.

use std::rc::Rc;

/// Console lines kept (older ones scroll away).
pub const CONSOLE_LINES: usize = 400;

#[derive(Clone, PartialEq)]
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
}
