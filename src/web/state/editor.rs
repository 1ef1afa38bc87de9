//! The editor's part of the page: the manifest's text, whether it is the reader's own or
//! follows the timeline, and the problems found in it. Applying it, loading the spec on screen
//! and starting a run from it need the run ([`super::Model`]); typing is this part's own.

use crate::api::Deployment;
use crate::scenario::quick;
use std::rc::Rc;

#[derive(Clone, Default)]
pub struct Editor {
    pub text: String,
    /// The text is the reader's (typed, pasted or applied): it stays as it is. While it is
    /// not, the editor follows the timeline, showing the focus Deployment at each step.
    pub dirty: bool,
    /// The Deployment the text was last loaded from (what an Apply would revert to where the
    /// reader has not changed it).
    pub base: Option<Rc<Deployment>>,
    /// Show every field, the apiserver's defaults too.
    pub full: bool,
    /// An Apply held back because it would undo changes made since the text was loaded: what
    /// it would revert, for the reader to confirm or cancel.
    pub pending_revert: Option<Rc<Vec<String>>>,
    pub problems: Rc<Vec<quick::Problem>>,
    /// The text is a cluster's state: what "Start from my manifest" will do with it.
    pub state: Option<Rc<str>>,
    /// What the quick controls show, read from the text (none when it is no Deployment).
    pub values: Rc<Option<QuickValues>>,
    /// The problems, the note and the controls' values are of the text as it stands. A long
    /// text typed into is checked once the typing stops ([`EditorAction::Check`]), not on
    /// every keystroke.
    pub checked: bool,
}

/// Each quick control's field and the value the text gives it.
pub type QuickValues = Vec<(quick::Field, Option<String>)>;

/// The longest text checked on every keystroke (parsing it costs well under a frame); a
/// longer one is checked once the typing stops.
pub const CHECK_AT_ONCE: usize = 32 * 1024;

/// What the editor panel asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorAction {
    Changed(String),
    /// The typing stopped: check the text if it has not been.
    Check,
    /// The check of a text, made off the page's thread (`bindings::check_text`): taken if the
    /// text is still the editor's, else let go (the reader typed on, and that text has its own).
    Checked(Rc<str>, Rc<quick::Checked>),
    Quick(quick::Field, String),
    /// Show or hide the defaulted fields.
    ToggleFullSpec,
    Apply,
    /// Apply although it reverts what `pending_revert` lists.
    ApplyAnyway,
    CancelApply,
    LoadCurrentSpec,
    /// A new run with only the editor's objects.
    StartFromManifest,
}

impl Editor {
    /// An editor showing `text`, following the timeline.
    pub fn new(text: String) -> Editor {
        let mut e = Editor {
            text,
            ..Editor::default()
        };
        e.recheck();
        e
    }

    /// The text's problems (or, for a cluster's state, its note and the problems that would
    /// stop "Start from my manifest").
    fn recheck(&mut self) {
        self.take(quick::check_typed(&self.text));
    }

    /// The check of the text as it stands.
    fn take(&mut self, c: quick::Checked) {
        self.problems = Rc::new(c.problems);
        self.state = c.state.map(Rc::from);
        // A text refused unread (past the budget) is not read for the controls either.
        self.values = Rc::new(c.values);
        self.checked = true;
    }

    /// Typing: the actions that need nothing but the text. False for those that need the run
    /// (applying, loading the spec on screen, starting from the manifest).
    pub fn apply(&mut self, a: &EditorAction) -> bool {
        match a {
            EditorAction::Changed(text) => {
                self.pending_revert = None;
                self.text = text.clone();
                if text.len() <= CHECK_AT_ONCE {
                    self.recheck();
                } else {
                    self.checked = false;
                }
                self.dirty = true;
            }
            EditorAction::Check if self.checked => return true,
            EditorAction::Check => self.recheck(),
            EditorAction::Checked(text, c) if **text == *self.text => self.take((**c).clone()),
            EditorAction::Checked(..) => return true,
            EditorAction::Quick(field, value) => match quick::write(&self.text, *field, value) {
                Ok(text) => {
                    self.text = text;
                    self.recheck();
                    self.dirty = true;
                }
                Err(e) => {
                    self.problems = Rc::new(vec![quick::Problem {
                        line: None,
                        field: Some(field.label().into()),
                        message: e,
                    }])
                }
            },
            EditorAction::ToggleFullSpec => {
                self.full = !self.full;
                if !self.dirty {
                    self.base = None;
                }
            }
            EditorAction::CancelApply => self.pending_revert = None,
            _ => return false,
        }
        true
    }

    /// Shows `d` (as it stands at the step on screen), following the timeline again.
    pub fn show(&mut self, d: Rc<Deployment>) {
        self.text = quick::manifest_of(&d, self.full);
        self.recheck();
        self.dirty = false;
        self.base = Some(d);
    }

    /// While the text is not the reader's, it shows the focus Deployment `d` at the step on
    /// screen (written anew only when what it shows changed: a status update changes nothing
    /// there).
    pub fn follow(&mut self, d: Option<&Rc<Deployment>>) {
        let Some(d) = d.filter(|_| !self.dirty).cloned() else {
            return;
        };
        let same = self.base.as_ref().is_some_and(|b| {
            Rc::ptr_eq(b, &d)
                || b.metadata.key() == d.metadata.key()
                    && b.spec == d.spec
                    && b.metadata.labels == d.metadata.labels
                    && b.metadata.annotations == d.metadata.annotations
        });
        if same {
            self.base = Some(d);
        } else {
            self.show(d);
        }
    }

    /// What an Apply of the text would revert of the changes made to the Deployment since the
    /// text was loaded (`now`: the Deployment at the step on screen).
    pub fn reverts(&self, now: Option<&Rc<Deployment>>) -> Vec<String> {
        match (&self.base, now) {
            (Some(base), Some(now)) if self.dirty && !Rc::ptr_eq(base, now) => {
                quick::reverts(&self.text, base, now)
            }
            _ => vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::scenario::session::Session;

    fn deployment_at_start() -> Rc<Deployment> {
        let s = Session::new(Scenario::parse(crate::scenario::gallery::DEFAULT).unwrap()).unwrap();
        s.focus_at(s.len() - 1).cloned().unwrap()
    }

    #[test]
    fn typing_makes_the_text_the_readers_and_a_bad_quick_value_names_its_field() {
        let d = deployment_at_start();
        let mut e = Editor::default();
        e.follow(Some(&d));
        assert!(!e.dirty && e.text.contains("kind: Deployment"));
        assert!(e.apply(&EditorAction::Quick(quick::Field::Replicas, "seven".into())));
        assert!(!e.dirty, "a refused value changes nothing");
        assert_eq!(e.problems.len(), 1);
        assert_eq!(
            e.problems[0].field.as_deref(),
            Some(quick::Field::Replicas.label())
        );
        let typed = e.text.replace("replicas: 10", "replicas: 5");
        assert!(e.apply(&EditorAction::Changed(typed.clone())));
        assert!(e.dirty && e.problems.is_empty());
        e.follow(Some(&d));
        assert_eq!(e.text, typed, "the reader's text stays");
        assert!(!e.apply(&EditorAction::Apply), "applying needs the run");
    }

    /// Issue 45: a long text is not checked on every keystroke, but once the typing stops;
    /// a short one at once.
    #[test]
    fn a_long_text_is_checked_when_the_typing_stops() {
        let mut e = Editor::new(String::new());
        let long = format!(
            "kind: Deployment\nmetadata: {{name: x}}\n{}",
            "# pad\n".repeat(8000)
        );
        assert!(long.len() > CHECK_AT_ONCE);
        let before = e.problems.clone();
        e.apply(&EditorAction::Changed(long.clone()));
        assert!(
            !e.checked && Rc::ptr_eq(&e.problems, &before),
            "not checked while typing"
        );
        e.apply(&EditorAction::Check);
        assert!(
            e.checked && !e.problems.is_empty(),
            "checked once it stops: {:?}",
            e.problems
        );
        e.apply(&EditorAction::Changed("kind: Deployment".into()));
        assert!(e.checked, "a short text is checked at once");
    }

    /// Issue 45: a check made off the page's thread is taken only for the text it checked.
    #[test]
    fn a_check_from_the_worker_is_taken_only_for_the_text_it_checked() {
        let mut e = Editor::new(String::new());
        let long = |n| format!("kind: Deployment\n{}", "# pad\n".repeat(n));
        let (first, second) = (long(8000), long(8001));
        e.apply(&EditorAction::Changed(first.clone()));
        e.apply(&EditorAction::Changed(second.clone()));
        let of = |t: &str| Rc::new(quick::check_typed(t));
        // The reader typed on: the first text's check comes too late and is let go.
        e.apply(&EditorAction::Checked(first.as_str().into(), of(&first)));
        assert!(!e.checked);
        let c = of(&second);
        e.apply(&EditorAction::Checked(second.as_str().into(), c.clone()));
        assert!(e.checked);
        assert_eq!(*e.problems, c.problems);
        assert!(!e.problems.is_empty(), "a Deployment without a name");
    }
}
