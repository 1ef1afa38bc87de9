//! The page's state: the recorded run and a part per concern, each in its own module with its
//! own actions and tests: [`playback`], [`editor`], [`console`], [`predict`], [`recording`]
//! (a run recorded in slices); Compare's variants are [`variants`]. Every click, key and tick
//! becomes an [`Action`], and [`Model::apply`] hands it to the part it belongs to; what needs
//! the run (a command, a seek that prints the scenario's commands, a question) is the Model's.
//! Components only render a `Model` and send the actions they are given callbacks for; no
//! rule of the playground lives inside a component.

pub mod console;
pub mod editor;
pub mod playback;
pub mod predict;
pub mod recording;
mod variants;

use crate::cluster::kubelet::World;
use crate::cluster::watch::WatchEnd;
use crate::controller::deployment::Branch;
use crate::scenario::compare::Comparison;
pub use crate::scenario::embed::Remote;
use crate::scenario::gallery::DEFAULT;
use crate::scenario::learn::{self, Prediction};
use crate::scenario::quick;
use crate::scenario::session::{Commanded, Outcome, Session, SessionError};
use crate::scenario::share::{self, ViewOptions};
use crate::scenario::{Scenario, ScenarioError};
pub use console::{CONSOLE_LINES, Console, Line};
pub use editor::{Editor, EditorAction};
pub use playback::{Playback, PlaybackAction, SPEEDS};
pub use predict::{Answer, Guess, Predict};
pub use recording::{FIRST_OPEN_SLICE, FIRST_SLICE, Opening, Pending, Underway};
use std::cell::RefCell;
use std::rc::Rc;
pub use variants::{Draft, VariantAction};

/// What the page does with the run: one run played, predict mode (playback stops before
/// each question), or the scenario's variants side by side on one clock. The comparison is the
/// scenario's (its `variants:`, which a link carries); predict mode waits while it is shown
/// and comes back when it is closed. [`Model::mode`] is the one place that decides.
pub enum Mode<'a> {
    One,
    Predict,
    Compare(&'a Rc<Comparison>),
}

#[derive(Clone, PartialEq)]
pub enum Selected {
    Pod(String),
    ReplicaSet(String),
}

/// The page's state: the recorded run, and a part per concern, each with its own actions
/// (playback, the editor, the console, predict mode) and tests.
#[derive(Clone)]
pub struct Model {
    pub session: Rc<Session>,
    /// Which gallery scenario is loaded (index), if any.
    pub gallery: Option<usize>,
    pub play: Playback,
    pub editor: Editor,
    pub console: Console,
    pub predict: Predict,
    pub selected: Option<Selected>,
    /// A message about the last thing that went wrong outside the editor and the console.
    pub notice: Option<String>,
    /// How many links or host-page `load`s were refused: each is answered (an embed tells its
    /// host, the same refusal twice too, which the notice alone would not) and the address bar
    /// goes back to the work, which stays as it was.
    pub refusals: u32,
    /// A scenario being recorded in slices, which opens when it is done.
    pub pending: Option<Pending>,
    pub dark: bool,
    /// URL parameters: embed mode, read-only, which controls and panel, the step range.
    pub view: Rc<ViewOptions>,
    /// The last share link made, to show and copy.
    pub shared: Option<String>,
    /// The scenario's variants run side by side (the Compare view), when it lists any.
    pub compare: Option<Rc<Comparison>>,
    /// Each variant's settings as the reader typed them, with why they were not taken.
    pub drafts: Rc<Vec<Draft>>,
}

/// Everything the page can be asked to do, by the part it belongs to.
pub enum Action {
    Playback(PlaybackAction),
    Editor(EditorAction),
    /// An answer typed in predict mode.
    Answer(Answer),
    Variant(VariantAction),
    /// A gallery scenario's text arrived (index in `gallery::NAMES`).
    LoadGallery(usize, String),
    /// A share-link fragment to open (hashchange); a bad one only shows a message.
    OpenLink(String),
    Remote(Remote),
    Shared(String),
    /// Follow another Deployment (`namespace/name`).
    Focus(String),
    Command(String),
    SetWorld(World),
    Select(Option<Selected>),
    DismissNotice,
    /// Something the reader should know that changed nothing (a gallery file that did not load).
    Notice(String),
    ToggleTheme,
    /// Predict mode on or off.
    TogglePredict,
    /// Check the answer and show the sync.
    Reveal,
    /// Recording `id` came this far (virtual ms, steps) in its last slice.
    Recorded(u32, (u64, usize)),
    /// Recording `id` is done: open it.
    RecordingDone(u32),
    /// Drop the recording under way; the page stays as it is.
    CancelRecording,
}

/// The manifest the editor starts with: the scenario's first Deployment.
pub fn editor_text(s: &Scenario) -> String {
    s.objects
        .iter()
        .find(|o| o.contains("kind: Deployment"))
        .or(s.objects.first())
        .cloned()
        .unwrap_or_default()
}

impl Model {
    /// The page as a URL opens it: a share link (or the default scenario, with a message when
    /// the link is bad) under the URL's view options. A link whose run takes long shows the
    /// default scenario while it is recorded in slices (the default is recorded first either
    /// way: it is small, and the page is never blank).
    pub fn from_url(query: &str, fragment: &str, prefers_dark: bool) -> Model {
        let view = ViewOptions::from_query(query);
        let dark = view.dark.unwrap_or(prefers_dark);
        let view = Rc::new(view);
        let default = || Model::default_page(dark, view.clone());
        let at = |step: usize| Opening {
            pos: view.step.unwrap_or(step),
            autoplay: view.autoplay,
            ..Opening::default()
        };
        let mut m = if fragment.trim_start_matches('#').is_empty() {
            let mut m = default();
            m.landed(&at(0));
            m
        } else {
            match share::decode(fragment) {
                Ok(s) => {
                    let page = default();
                    match page.open(s.scenario, at(s.step)) {
                        Ok(m) => m,
                        Err(e) => {
                            let mut m = page;
                            m.notice = Some(format!(
                                "The scenario could not start ({e}); the default one is shown."
                            ));
                            m
                        }
                    }
                }
                Err(e) => {
                    let mut m = default();
                    m.notice = Some(format!(
                        "This link could not be opened: {e}. The default scenario is shown."
                    ));
                    m
                }
            }
        };
        if !view.ignored.is_empty() && m.notice.is_none() {
            m.notice = Some(format!(
                "Ignored URL parameters: {}",
                view.ignored.join(", ")
            ));
        }
        m
    }

    /// The page on the default scenario.
    fn default_page(dark: bool, view: Rc<ViewOptions>) -> Model {
        let session = Session::new(default_scenario()).expect("the gallery runs");
        Model::with_session(session, Some(0), dark, view)
    }

    /// The page on a recorded run, at its first step.
    fn with_session(
        session: Session,
        gallery: Option<usize>,
        dark: bool,
        view: Rc<ViewOptions>,
    ) -> Model {
        let mut m = Model {
            editor: Editor::new(editor_text(&session.scenario)),
            notice: session.stopped.clone(),
            session: Rc::new(session),
            gallery,
            play: Playback::default(),
            console: Console::default(),
            predict: Predict {
                on: view.predict,
                ..Predict::default()
            },
            selected: None,
            refusals: 0,
            pending: None,
            dark,
            view,
            shared: None,
            compare: None,
            drafts: Rc::new(vec![]),
        };
        m.refresh_compare();
        m.refresh_learn();
        m.seek(0);
        m.follow();
        m
    }

    /// Another scenario in this page (its theme, view options and predict mode stay): opened
    /// at once when it records within [`FIRST_OPEN_SLICE`], else recorded in slices between frames
    /// ([`Model::pending`]) while the page stays as it is. One that cannot start is an error,
    /// and the page stays as it is.
    fn open(&self, scenario: Scenario, opening: Opening) -> Result<Model, ScenarioError> {
        let mut r = Session::recording(scenario)?;
        if r.go_on(Some(FIRST_OPEN_SLICE)) {
            return Ok(self.opened(r.finish(), &opening));
        }
        let mut m = self.clone();
        m.start_pending(Underway::Open(Box::new(r), opening));
        Ok(m)
    }

    /// Hands a recording to the driver, in place of any before it.
    fn start_pending(&mut self, underway: Underway) {
        self.pending = Some(Pending {
            what: match underway {
                Underway::Open(..) => "the scenario",
                Underway::Change(..) => "the change",
            },
            progress: underway.progress(),
            recording: Rc::new(RefCell::new(Some(underway))),
            id: self.pending.as_ref().map_or(1, |p| p.id + 1),
        });
    }

    /// The page on a newly recorded run, as `opening` says.
    fn opened(&self, session: Session, opening: &Opening) -> Model {
        let mut n = Model::with_session(session, opening.gallery, self.dark, self.view.clone());
        if n.predict.on != self.predict.on {
            n.predict.on = self.predict.on;
            n.refresh_learn();
        }
        if let Some(text) = &opening.manifest {
            n.editor.text = text.clone();
            n.editor.dirty = true;
            n.editor.problems = Rc::new(vec![]);
            n.console.lines = self.console.lines.clone();
            n.console.history = self.console.history.clone();
        }
        n.landed(opening);
        n
    }

    /// Goes to the step an opening asks for, playing if it asks to.
    fn landed(&mut self, opening: &Opening) {
        self.seek(opening.pos);
        self.follow();
        self.play.playing = opening.autoplay && self.play.pos < self.last();
    }

    /// The last step the timeline may reach (`until=N` caps it).
    pub fn last(&self) -> usize {
        let end = self.session.len().saturating_sub(1);
        self.view.until.map_or(end, |u| u.min(end))
    }

    pub fn step(&self) -> Option<&crate::cluster::trace::TraceStep> {
        self.session.trace.get(self.play.pos).map(|s| &**s)
    }

    fn seek(&mut self, i: usize) {
        self.play.pos = i.min(self.last());
        self.play.vt_ms = self.step().map(|s| s.t as f64).unwrap_or(0.0);
        self.play.held = false;
    }

    /// Moves to step `i`; going forward, the scenario's commands passed on the way print in
    /// the console as they would have (the reader's own printed when typed).
    fn reach(&mut self, i: usize) {
        let from = self.play.pos;
        self.seek(i);
        if self.play.pos <= from {
            return;
        }
        let (s, to) = (self.session.clone(), self.play.pos);
        let lo = s.actions.partition_point(|&a| a <= from);
        for &a in s.actions[lo..].iter().take_while(|&&a| a <= to) {
            let step = &s.trace[a];
            let Some(cmd) = step.command.as_deref().filter(|_| !s.is_typed(a)) else {
                continue;
            };
            self.print(Line::Scenario(cmd.lines().next().unwrap_or("").to_string()));
            if let Some(out) = step.output.as_deref().filter(|o| !o.is_empty()) {
                self.print(Line::Output(out.to_string()));
            }
            for e in &step.errors {
                self.print(Line::Error(e.clone()));
            }
        }
    }

    fn print(&mut self, line: Line) {
        self.console.print(line);
    }

    /// Puts the focus Deployment, as it stands at the current step, in the editor.
    fn load_current_spec(&mut self) {
        let Some(d) = self.session.focus_at(self.play.pos).cloned() else {
            self.notice = Some("There is no Deployment at this step.".into());
            return;
        };
        self.editor.show(d);
    }

    /// The editor follows the focus Deployment at the step on screen, unless it holds the
    /// reader's text.
    fn follow(&mut self) {
        self.editor.follow(self.session.focus_at(self.play.pos));
    }

    /// `kubectl apply` of the editor's text at the current step; the text stays the reader's.
    fn apply_editor(&mut self) {
        self.play.playing = false;
        self.editor.pending_revert = None;
        let cmd = format!("kubectl apply -f -\n{}", self.editor.text);
        self.print(Line::Command("kubectl apply -f deployment.yaml".into()));
        self.command(&cmd, true);
    }

    fn replace_session(&mut self, s: Session) {
        self.notice = s.stopped.clone();
        self.session = Rc::new(s);
        self.refresh_compare();
        self.refresh_learn();
    }

    /// The questions of the run in predict mode; answers belong to the run they were given in.
    fn refresh_learn(&mut self) {
        let questions = if self.predict.on {
            learn::questions(&self.session)
        } else {
            vec![]
        };
        self.predict.ask(questions);
    }

    /// What the page does with the run ([`Mode`]).
    pub fn mode(&self) -> Mode<'_> {
        match (&self.compare, self.predict.on) {
            (Some(c), _) => Mode::Compare(c),
            (None, true) => Mode::Predict,
            (None, false) => Mode::One,
        }
    }

    /// In predict mode, going forward to `to` stops before the first question on the way that
    /// is not answered yet; true when it did.
    fn ask_before(&mut self, to: usize) -> bool {
        if !matches!(self.mode(), Mode::Predict) {
            return false;
        }
        let k = self
            .predict
            .questions
            .partition_point(|&q| q <= self.play.pos);
        let Some(&q) = self.predict.questions[k..]
            .iter()
            .find(|&&q| q <= to && !self.predict.verdicts.contains_key(&q))
        else {
            return false;
        };
        self.reach(q - 1);
        self.play.playing = false;
        self.predict.asking = Some(q);
        self.predict.revealed = None;
        self.predict.guess = Rc::new(Guess {
            branch: None,
            strategy: self.session.trace[q - 1]
                .deployment
                .as_ref()
                .map(|d| d.strategy.clone()),
            sizes: learn::before(&self.session, q)
                .iter()
                .map(|(_, _, n)| n.to_string())
                .collect(),
            new_replica_set: String::new(),
        });
        true
    }

    /// Checks the reader's answer and moves to the sync it was about.
    fn reveal(&mut self) {
        let Some(q) = self.predict.asking else { return };
        let g = self.predict.guess.clone();
        let Some(branch) = g.branch else {
            self.notice = Some("Pick a branch first (keys 1–5).".into());
            return;
        };
        let found = learn::before(&self.session, q);
        let mut sizes = vec![];
        for ((name, rev, _), text) in found.iter().zip(&g.sizes) {
            match text.trim().parse::<i32>() {
                Ok(n) if n >= 0 => sizes.push(n),
                _ => {
                    self.notice = Some(format!(
                        "The size of rev {rev} ({name}): {text:?} is not a number of replicas."
                    ));
                    return;
                }
            }
        }
        let new_replica_set = match g.new_replica_set.trim() {
            "" => None,
            t => match t.parse::<i32>() {
                Ok(n) if n >= 0 => Some(n),
                _ => {
                    self.notice = Some(format!(
                        "The new ReplicaSet's size: {t:?} is not a number of replicas (leave it empty if the sync creates none)."
                    ));
                    return;
                }
            },
        };
        let p = Prediction {
            branch,
            strategy: (branch == Branch::Rollout)
                .then(|| g.strategy.clone())
                .flatten(),
            sizes,
            new_replica_set,
        };
        let v = learn::check(&self.session, q, &p);
        Rc::make_mut(&mut self.predict.verdicts).insert(q, v);
        self.notice = None;
        self.predict.asking = None;
        self.predict.revealed = Some(q);
        self.reach(q);
    }

    /// The shared clock's end in a comparison, else the run's.
    pub fn end_ms(&self) -> u64 {
        match self.mode() {
            Mode::Compare(c) => c.end_ms,
            Mode::One | Mode::Predict => self.session.trace.get(self.last()).map_or(0, |s| s.t),
        }
    }

    /// A comparison's clock moves to `t`; the run underneath follows.
    fn seek_time(&mut self, t: f64) {
        let t = t.clamp(0.0, self.end_ms() as f64);
        self.seek(self.session.step_at_time(t as u64));
        self.play.vt_ms = t;
    }

    /// Runs a console command at the current step; true when it changed the run.
    /// A console command at the current step (the editor's Apply when `from_editor`). A
    /// change that records long goes on in slices ([`Model::pending`]).
    fn command(&mut self, cmd: &str, from_editor: bool) {
        let mut s = (*self.session).clone();
        match s.command_in_slices(self.play.pos, cmd, Some(FIRST_SLICE)) {
            Ok(Commanded::Underway(change)) => {
                self.start_pending(Underway::Change(change, Rc::new(s), from_editor))
            }
            Ok(Commanded::Done(outcome)) => self.commanded(s, Ok(outcome), from_editor),
            Err(e) => self.print(Line::Error(e.to_string())),
        }
    }

    /// What a command did, on the session `s` it was run on.
    fn commanded(&mut self, s: Session, outcome: Result<Outcome, SessionError>, from_editor: bool) {
        match outcome {
            Ok(Outcome::Printed(out)) => self.print(Line::Output(out)),
            Ok(Outcome::Applied { step, output }) => {
                self.replace_session(s);
                self.seek(step);
                if !output.is_empty() {
                    self.print(Line::Output(output));
                }
                if let Some(later) = self.later_scenario_change(step) {
                    self.print(Line::Note(later));
                }
                if from_editor {
                    self.editor.dirty = true;
                    self.editor.base = self.session.focus_at(self.play.pos).cloned();
                }
            }
            Ok(Outcome::Watched { lines, end, step }) => {
                // The session may have grown (the run extended to where kubectl returns).
                self.replace_session(s);
                for l in lines {
                    self.print(Line::Watched(l.t, l.text));
                }
                match end {
                    Some(WatchEnd { error: Some(e), .. }) => {
                        self.print(Line::Error(format!("error: {e}")))
                    }
                    Some(_) => {}
                    None => self.print(Line::Note(format!(
                        "(kubectl is still waiting when the run ends at t = {:.1}s)",
                        self.session.end_ms() as f64 / 1000.0
                    ))),
                }
                // The world as it stands when kubectl returns.
                if let Some(step) = step {
                    self.seek(step);
                }
            }
            Err(e) => self.print(Line::Error(e.to_string())),
        }
    }
}

impl Model {
    /// Whether there is work a new example would replace: a command typed, or a manifest
    /// edited and not applied.
    pub fn has_work(&self) -> bool {
        self.session.typed.iter().any(|t| *t) || (self.editor.dirty && self.shared.is_none())
    }

    /// A change the scenario makes after step `i` (which the reader's change at `i` may not
    /// survive), said as a note.
    fn later_scenario_change(&self, i: usize) -> Option<String> {
        let s = &self.session;
        let lo = s.actions.partition_point(|&a| a <= i);
        let (a, cmd) = s.actions[lo..].iter().find_map(|&a| {
            let cmd = s.trace[a].command.as_deref()?;
            (!s.is_typed(a) && !crate::kubectl::is_read_only(cmd)).then_some((a, cmd))
        })?;
        Some(format!(
            "Note: the scenario runs `{}` later, at t = {:.1}s, which may undo this.",
            cmd.lines().next().unwrap_or(""),
            s.trace[a].t as f64 / 1000.0
        ))
    }
}

/// How long an autoplaying embed shows a caption before it plays on (real ms): time to read it.
pub fn reading_ms(caption: Option<&str>) -> f64 {
    let chars = caption.map_or(0, |c| c.chars().count()) as f64;
    (2000.0 + 50.0 * chars).min(15_000.0)
}

pub fn default_scenario() -> Scenario {
    Scenario::parse(DEFAULT).expect("the gallery parses")
}

/// Yew's reducer is [`Model::apply`]: the page's rules compile and are tested natively.
#[cfg(target_arch = "wasm32")]
impl yew::Reducible for Model {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        self.apply(action)
    }
}

impl Model {
    /// The reducer: the state after `action`, each family of actions handed to the part (or
    /// the Model's function) it belongs to. The old state is returned as it was when nothing
    /// changed (a tick while paused, a stale recording), so that the page need not render.
    pub fn apply(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut m = (*self).clone();
        if let Some(refusal) = m.refusal(&action) {
            m.notice = Some(refusal.into());
            return Rc::new(m);
        }
        let changed = match action {
            Action::Playback(a) => m.playback(a),
            Action::Remote(Remote::Load(text)) => m.load(&text),
            Action::Remote(r) => match m.remote_playback(&r) {
                Some(a) => return self.apply(Action::Playback(a)),
                None => true,
            },
            Action::Editor(a) => {
                if !m.editor.apply(&a) {
                    m.editor_with_run(a);
                }
                true
            }
            Action::Answer(a) => {
                m.predict.answer(a);
                true
            }
            Action::Variant(a) => {
                m.variants(a);
                true
            }
            Action::Recorded(..) | Action::RecordingDone(_) | Action::CancelRecording => {
                m.recording(action)
            }
            other => m.run_action(other),
        };
        if !changed {
            return self;
        }
        m.follow();
        Rc::new(m)
    }

    /// Why an action is refused as things stand: a read-only page changes nothing, and a
    /// change to the run waits for the recording under way, which would replace it.
    fn refusal(&self, action: &Action) -> Option<&'static str> {
        let changes_run = matches!(
            action,
            Action::Editor(EditorAction::Apply | EditorAction::ApplyAnyway)
                | Action::Command(_)
                | Action::SetWorld(_)
        );
        let edits = matches!(
            action,
            Action::Editor(
                EditorAction::Apply
                    | EditorAction::ApplyAnyway
                    | EditorAction::StartFromManifest
                    | EditorAction::Quick(..)
            ) | Action::Command(_)
                | Action::SetWorld(_)
                | Action::Variant(_)
        );
        if self.view.readonly && edits {
            return Some("This playground is read-only.");
        }
        if self.pending.is_some() && changes_run {
            return Some(
                "A run is still being recorded: wait for it, or Cancel it, before changing the run.",
            );
        }
        None
    }

    /// The editor's actions that need the run: applying the text, loading the spec on screen,
    /// starting a run from the manifest.
    fn editor_with_run(&mut self, a: EditorAction) {
        match a {
            EditorAction::Apply => {
                let problems = quick::check(&self.editor.text);
                if problems.is_empty() {
                    let reverts = self.editor.reverts(self.session.focus_at(self.play.pos));
                    if reverts.is_empty() {
                        self.apply_editor();
                    } else {
                        self.play.playing = false;
                        self.editor.pending_revert = Some(Rc::new(reverts));
                    }
                }
                self.editor.problems = Rc::new(problems);
            }
            EditorAction::ApplyAnyway => self.apply_editor(),
            EditorAction::LoadCurrentSpec => {
                self.editor.pending_revert = None;
                self.load_current_spec();
            }
            EditorAction::StartFromManifest => {
                let problems = quick::check(&self.editor.text);
                if problems.is_empty() {
                    let text = self.editor.text.clone();
                    let scenario = Scenario::from_manifest(&text);
                    let opening = Opening {
                        manifest: Some(text),
                        ..Opening::default()
                    };
                    match self.open(scenario, opening) {
                        Ok(n) => return *self = n,
                        Err(e) => self.notice = Some(e.to_string()),
                    }
                }
                self.editor.problems = Rc::new(problems);
            }
            // The editor's own (`Editor::apply`).
            EditorAction::Changed(_)
            | EditorAction::Quick(..)
            | EditorAction::ToggleFullSpec
            | EditorAction::CancelApply => {}
        }
    }

    /// A scenario to open in place of this one: an example picked, a link, the host page's
    /// `load` (a refused one leaves the work as it was, and says why).
    fn load(&mut self, text: &str) -> bool {
        let opened = share::open(text).and_then(|(s, step)| {
            let opening = Opening {
                pos: step,
                autoplay: self.view.autoplay,
                ..Opening::default()
            };
            self.open(s, opening).map_err(|e| e.to_string())
        });
        self.open_or_refuse(opened, |e| {
            format!("The host page sent a scenario that does not load: {e}")
        });
        true
    }

    /// Opens what a link or the host page sent, or counts the refusal and says why (`why`
    /// words the error); the work stays as it was.
    fn open_or_refuse(
        &mut self,
        opened: Result<Model, String>,
        why: impl FnOnce(String) -> String,
    ) {
        match opened {
            Ok(n) => *self = n,
            Err(e) => {
                self.notice = Some(why(e));
                self.refusals += 1;
            }
        }
    }

    /// The actions on the run itself and the page around it; false when nothing changed.
    fn run_action(&mut self, action: Action) -> bool {
        match action {
            Action::LoadGallery(i, text) => {
                let opening = Opening {
                    gallery: Some(i),
                    ..Opening::default()
                };
                match Scenario::parse(&text).and_then(|s| self.open(s, opening)) {
                    Ok(n) => *self = n,
                    Err(e) => self.notice = Some(e.to_string()),
                }
            }
            Action::OpenLink(fragment) => self.open_link(&fragment),
            Action::Shared(link) => self.shared = Some(link),
            Action::Focus(key) => self.rerun(|s| s.set_focus(&key)),
            Action::Command(cmd) => self.typed(cmd.trim()),
            Action::SetWorld(w) => self.rerun(|s| s.set_world(w)),
            Action::Select(sel) => self.selected = sel,
            Action::DismissNotice => self.notice = None,
            Action::Notice(text) => self.notice = Some(text),
            Action::ToggleTheme => self.dark = !self.dark,
            Action::TogglePredict => {
                self.predict.on = !self.predict.on;
                self.play.playing = false;
                self.refresh_learn();
            }
            Action::Reveal => self.reveal(),
            // Handed to their parts by `apply`.
            Action::Playback(_)
            | Action::Editor(_)
            | Action::Answer(_)
            | Action::Variant(_)
            | Action::Remote(_)
            | Action::Recorded(..)
            | Action::RecordingDone(_)
            | Action::CancelRecording => return false,
        }
        true
    }

    /// A share-link fragment opened (hashchange); a bad one leaves the work as it was.
    fn open_link(&mut self, fragment: &str) {
        let opened = share::decode(fragment)
            .map_err(|e| e.to_string())
            .and_then(|s| {
                let opening = Opening {
                    pos: s.step,
                    ..Opening::default()
                };
                self.open(s.scenario, opening).map_err(|e| e.to_string())
            });
        self.open_or_refuse(opened, |e| {
            format!("This link could not be opened: {e}. Your work is as you left it.")
        });
    }

    /// The run recorded anew as `change` says (another focus, other world settings), at the
    /// same step; a refusal leaves it as it was, and says why.
    fn rerun(&mut self, change: impl FnOnce(&mut Session) -> Result<(), SessionError>) {
        let mut s = (*self.session).clone();
        match change(&mut s) {
            Ok(()) => {
                let (pos, focus) = (self.play.pos, s.focus.clone());
                let refocused = focus != self.session.focus;
                self.replace_session(s);
                self.seek(pos);
                if refocused {
                    self.selected = None;
                    // The editor shows the Deployment now followed, unless it holds the
                    // reader's own text.
                    if !self.editor.dirty {
                        self.editor.base = None;
                    }
                }
            }
            Err(e) => self.notice = Some(e.to_string()),
        }
    }

    /// A command typed in the console.
    fn typed(&mut self, cmd: &str) {
        if cmd.is_empty() {
            return;
        }
        self.play.playing = false;
        self.console.typed(cmd);
        if cmd == "clear" {
            self.console.clear();
        } else {
            self.command(cmd, false);
        }
    }

    /// A recording under way came further, is done, or was cancelled; false when it is not
    /// the one under way (a stale slice).
    fn recording(&mut self, action: Action) -> bool {
        match action {
            Action::Recorded(id, progress) => match &mut self.pending {
                Some(p) if p.id == id => p.progress = progress,
                _ => return false,
            },
            Action::RecordingDone(id) => {
                let Some(p) = self.pending.take().filter(|p| p.id == id) else {
                    return false;
                };
                let Some(underway) = p.recording.borrow_mut().take() else {
                    return false;
                };
                match underway {
                    Underway::Open(r, opening) => *self = self.opened(r.finish(), &opening),
                    Underway::Change(change, session, from_editor) => {
                        let mut s = Rc::unwrap_or_clone(session);
                        let outcome = s.commit_change(*change);
                        self.commanded(s, outcome, from_editor);
                    }
                }
            }
            Action::CancelRecording => {
                if self.pending.take().is_some() {
                    self.notice = Some("Recording cancelled: the page is as it was.".into());
                }
            }
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::cluster::trace::StepKind;

    fn page(query: &str) -> Rc<Model> {
        Rc::new(Model::from_url(query, "", false))
    }

    /// Plays with 100 ms frames until playback stops (or `frames` run out).
    fn play(mut m: Rc<Model>, frames: usize) -> Rc<Model> {
        m = m.apply(Action::Playback(PlaybackAction::Play));
        for _ in 0..frames {
            if !m.play.playing {
                break;
            }
            m = m.apply(Action::Playback(PlaybackAction::Tick(100.0)));
        }
        m
    }

    #[test]
    fn playback_holds_at_each_caption_until_the_reader_continues() {
        let m = play(page(""), 10_000);
        assert!(m.play.held && !m.play.playing, "held at a caption");
        let at = m.play.pos;
        assert!(m.session.trace[at].caption.is_some());
        assert_eq!(m.play.vt_ms, m.session.trace[at].t as f64);
        let m = play(m, 10_000);
        assert!(
            m.play.pos > at && m.play.held,
            "continue plays on to the next caption"
        );
        // The scenario's command there printed as it was reached.
        assert!(
            m.console
                .lines
                .iter()
                .any(|l| matches!(l, Line::Scenario(c) if c.starts_with("kubectl set image"))),
            "scenario commands print when reached"
        );
        // An autoplaying embed holds long enough to read, then plays on by itself.
        let mut e = Rc::new(Model::from_url("?embed&autoplay", "", false));
        let mut held_frames = 0;
        for _ in 0..20_000 {
            if !e.play.playing {
                break;
            }
            let before = e.play.pos;
            e = e.apply(Action::Playback(PlaybackAction::Tick(100.0)));
            if e.play.hold_ms > 0.0 && e.play.pos == before {
                held_frames += 1;
            }
        }
        assert_eq!(e.play.pos, e.last(), "the embed plays to the end");
        assert!(
            held_frames >= 20,
            "it paused on captions: {held_frames} frames"
        );
    }

    #[test]
    fn next_change_skips_steps_that_change_nothing_one_can_see() {
        let m = page("");
        let sizes = |m: &Model, i: usize| -> Vec<(i32, i32)> {
            m.session.trace[i]
                .replica_sets
                .iter()
                .map(|r| (r.replicas, r.status.replicas))
                .collect()
        };
        let mut m = m;
        let mut visited = 0;
        while m.play.pos < m.last() && visited < 200 {
            let from = m.play.pos;
            m = m.apply(Action::Playback(PlaybackAction::NextChange));
            visited += 1;
            let to = m.play.pos;
            assert!(to > from);
            let s = &m.session.trace[to];
            assert!(
                s.kind == StepKind::Action
                    || sizes(&m, to) != sizes(&m, to - 1)
                    || s.branch.is_some(),
                "step {to} changes something"
            );
            // Nothing between changed the sizes.
            for i in from + 1..to {
                assert_eq!(sizes(&m, i), sizes(&m, from), "step {i} was skipped");
            }
        }
        assert!(
            visited < m.session.len() / 2,
            "{visited} of {}",
            m.session.len()
        );
        let back = m
            .clone()
            .apply(Action::Playback(PlaybackAction::PreviousChange));
        assert!(back.play.pos < m.play.pos);
    }

    #[test]
    fn a_change_typed_before_a_later_scenario_command_says_it_may_be_undone() {
        let m = page("").apply(Action::Command(
            "kubectl scale deployment/web --replicas=4".into(),
        ));
        assert!(
            m.console
                .lines
                .iter()
                .any(|l| matches!(l, Line::Note(n) if n.contains("kubectl set image"))),
            "a note names the later scenario command"
        );
        assert!(m.session.is_typed(m.play.pos));
    }

    #[test]
    fn a_read_only_page_refuses_changes_and_says_so() {
        let m = page("?readonly");
        let before = m.session.clone();
        let m = m.apply(Action::Command(
            "kubectl scale deployment/web --replicas=1".into(),
        ));
        assert!(Rc::ptr_eq(&m.session, &before), "the run is untouched");
        assert_eq!(m.notice.as_deref(), Some("This playground is read-only."));
    }

    #[test]
    fn a_change_in_the_console_lands_at_the_current_step_and_a_read_prints() {
        let m = page("").apply(Action::Playback(PlaybackAction::Seek(5)));
        let m = m.apply(Action::Command("kubectl get deployment web".into()));
        assert!(matches!(m.console.lines.last(), Some(Line::Output(o)) if o.contains("web")));
        let len = m.session.len();
        let m = m.apply(Action::Command(
            "kubectl scale deployment/web --replicas=2".into(),
        ));
        assert_ne!(
            m.session.len(),
            len,
            "the run was recomputed with the new step"
        );
        assert_eq!(
            m.step().and_then(|s| s.command.as_deref()),
            Some("kubectl scale deployment/web --replicas=2")
        );
        assert_eq!(
            m.console.history.last().map(String::as_str),
            Some("kubectl scale deployment/web --replicas=2")
        );
    }

    #[test]
    fn the_editor_follows_the_timeline_until_edited_then_asks_before_reverting() {
        let m = page("");
        assert!(m.editor.text.contains("nginx:1.14.2"), "{}", m.editor.text);
        let last = m.last();
        let m = m.apply(Action::Playback(PlaybackAction::Seek(last)));
        assert!(
            m.editor.text.contains("nginx:1.16.1"),
            "it follows: {}",
            m.editor.text
        );
        let m = m
            .apply(Action::Playback(PlaybackAction::Seek(0)))
            .apply(Action::Editor(EditorAction::Quick(
                quick::Field::Replicas,
                "12".into(),
            )))
            .apply(Action::Playback(PlaybackAction::Seek(last)));
        assert!(m.editor.text.contains("replicas: 12") && m.editor.text.contains("nginx:1.14.2"));
        let m = m.apply(Action::Editor(EditorAction::Apply));
        let asked = m
            .editor
            .pending_revert
            .clone()
            .expect("the apply is held back");
        assert!(
            asked
                .iter()
                .any(|l| l.ends_with("nginx:1.16.1 → nginx:1.14.2")),
            "{asked:?}"
        );
        let len = m.session.len();
        let m = m.apply(Action::Editor(EditorAction::ApplyAnyway));
        assert!(m.editor.pending_revert.is_none());
        assert_ne!(m.session.len(), len, "applied");
        assert!(
            m.editor.text.contains("replicas: 12"),
            "the applied text is kept"
        );
    }

    #[test]
    fn a_bad_link_from_anywhere_leaves_the_work_as_it_was() {
        let m = page("").apply(Action::Editor(EditorAction::Changed(
            "kind: Deployment # mine".into(),
        )));
        let session = m.session.clone();
        for action in [
            Action::OpenLink("#v1.@@@".into()),
            Action::Remote(Remote::Load("v9.x".into())),
        ] {
            let after = m.clone().apply(action);
            assert!(Rc::ptr_eq(&after.session, &session));
            assert_eq!(after.editor.text, "kind: Deployment # mine");
            assert!(after.notice.is_some());
        }
    }

    /// A Deployment of `replicas` pods whose first rollout records past [`FIRST_SLICE`] when
    /// large.
    fn big(replicas: u32) -> String {
        format!(
            "name: big\nobjects:\n  - |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {{name: big}}\n    spec:\n      replicas: {replicas}\n      selector: {{matchLabels: {{app: big}}}}\n      template:\n        metadata: {{labels: {{app: big}}}}\n        spec: {{containers: [{{name: app, image: 'app:1'}}]}}\n"
        )
    }

    /// Takes the pending recording's slices as the page's driver does, until it is done.
    fn record_pending(mut m: Rc<Model>) -> Rc<Model> {
        let id = m.pending.as_ref().expect("a recording under way").id;
        loop {
            let p = m.pending.clone().unwrap();
            let done = p.recording.borrow_mut().as_mut().unwrap().go_on(Some(500));
            if done {
                return m.apply(Action::RecordingDone(id));
            }
            let progress = p.recording.borrow().as_ref().unwrap().progress();
            m = m.apply(Action::Recorded(id, progress));
            assert_eq!(m.pending.as_ref().unwrap().progress, progress);
        }
    }

    #[test]
    fn a_long_run_is_recorded_in_slices_while_the_page_stays_as_it_was() {
        let m = page("").apply(Action::Editor(EditorAction::Changed(
            "kind: Deployment # mine".into(),
        )));
        let session = m.session.clone();
        let link = share::encode(&Scenario::parse(&big(4000)).unwrap(), 3);
        let m = m.apply(Action::OpenLink(link.clone()));
        assert!(
            m.pending.is_some(),
            "4 000 pods take more than the first slice"
        );
        assert!(
            Rc::ptr_eq(&m.session, &session),
            "the page is as it was meanwhile"
        );
        // Cancelled: nothing changes but the note.
        let cancelled = m.clone().apply(Action::CancelRecording);
        assert!(cancelled.pending.is_none() && Rc::ptr_eq(&cancelled.session, &session));
        assert_eq!(cancelled.editor.text, "kind: Deployment # mine");
        // A stale driver's report changes nothing.
        let stale = cancelled
            .clone()
            .apply(Action::RecordingDone(m.pending.as_ref().unwrap().id));
        assert!(Rc::ptr_eq(&stale, &cancelled));
        // Done: the run opens at the link's step, and is the run recorded in one go.
        let opened = record_pending(m);
        assert!(opened.pending.is_none());
        assert_eq!(opened.session.scenario.name, "big");
        assert_eq!(opened.play.pos, 3);
        let whole = Session::new(Scenario::parse(&big(4000)).unwrap()).unwrap();
        assert_eq!(
            crate::cluster::trace::to_jsonl(&opened.session.trace),
            crate::cluster::trace::to_jsonl(&whole.trace)
        );
        // A link opened at the page's start shows the default scenario meanwhile.
        let start = Rc::new(Model::from_url("?step=2", &link, false));
        assert_eq!(start.session.scenario.name, "rolling-update");
        let opened = record_pending(start);
        assert_eq!(
            (opened.session.scenario.name.as_str(), opened.play.pos),
            ("big", 1)
        );
        // A small scenario opens at once.
        let small = page("").apply(Action::OpenLink(share::encode(
            &Scenario::parse(&big(10)).unwrap(),
            0,
        )));
        assert!(small.pending.is_none() && small.session.scenario.name == "big");
    }

    #[test]
    fn a_long_change_is_recorded_in_slices_and_nothing_else_changes_the_run_meanwhile() {
        let link = share::encode(&Scenario::parse(&big(4000)).unwrap(), 0);
        let m = record_pending(Rc::new(Model::from_url("", &link, false)));
        let m = m.apply(Action::Playback(PlaybackAction::Seek(usize::MAX)));
        let before = m.session.clone();
        let cmd = "kubectl set image deployment/big app=app:2";
        let m = m.apply(Action::Command(cmd.into()));
        assert_eq!(m.pending.as_ref().map(|p| p.what), Some("the change"));
        assert!(
            Rc::ptr_eq(&m.session, &before),
            "the run is as it was meanwhile"
        );
        let refused = m.clone().apply(Action::Command(
            "kubectl scale deployment/big --replicas=1".into(),
        ));
        assert!(
            refused
                .notice
                .as_deref()
                .unwrap()
                .contains("still being recorded")
        );
        assert!(Rc::ptr_eq(&refused.session, &before));
        let done = record_pending(m);
        assert!(done.pending.is_none());
        let mut direct = (*before).clone();
        direct.command(before.len() - 1, cmd).unwrap();
        assert_eq!(
            crate::cluster::trace::to_jsonl(&done.session.trace),
            crate::cluster::trace::to_jsonl(&direct.trace)
        );
        assert!(
            matches!(done.console.lines.last(), Some(Line::Output(o)) if o.contains("image updated"))
        );
    }

    #[test]
    fn playing_from_the_end_starts_over_and_seeking_stays_within_until() {
        // `until` counts from 1, as the page shows steps: step 10 is index 9.
        let m = page("?until=10");
        assert_eq!(m.last(), 9);
        let m = m.apply(Action::Playback(PlaybackAction::Seek(500)));
        assert_eq!(m.play.pos, 9);
        let m = m.apply(Action::Playback(PlaybackAction::TogglePlay));
        assert!(m.play.playing);
        assert_eq!(m.play.pos, 0);
        let m = m.apply(Action::Remote(Remote::Seek(3)));
        assert!(!m.play.playing);
        assert_eq!(m.play.pos, 3);
    }

    #[test]
    fn compare_runs_the_variants_on_one_clock_and_a_link_keeps_them() {
        let m = page("").apply(Action::Variant(VariantAction::Open));
        let c = m.compare.clone().expect("a comparison");
        assert_eq!(c.variants.len(), 3);
        assert_eq!(m.drafts[2].text, "spec.strategy.type=Recreate");
        // Playing moves one clock to the latest end of any variant.
        let m = play(m, 10_000);
        assert_eq!(m.play.vt_ms, c.end_ms as f64);
        assert!(c.end_ms > m.session.end_ms(), "maxSurge 0 takes longer");
        assert!(!m.play.playing);
        // Stepping goes from instant to instant across the variants.
        let back = m.clone().apply(Action::Playback(PlaybackAction::StepBack));
        assert!(back.play.vt_ms < m.play.vt_ms);
        let fwd = back
            .clone()
            .apply(Action::Playback(PlaybackAction::StepForward));
        assert_eq!(fwd.play.vt_ms, m.play.vt_ms);
        // The link carries the variants and opens the same comparison.
        let link = share::encode(&m.session.scenario, 0);
        let opened = Model::from_url("", &link, false);
        assert_eq!(opened.compare.unwrap().names(), c.names());
        // Back to one run: a link made then opens without variants.
        let one = m.apply(Action::Variant(VariantAction::Close));
        assert!(one.compare.is_none() && one.session.scenario.variants.is_empty());
    }

    #[test]
    fn a_refused_variant_keeps_its_text_and_says_why() {
        let m = page("").apply(Action::Variant(VariantAction::Open));
        let before = m.compare.clone().unwrap();
        let typo = "spec.strategy.rollingUpdate.maxSurg=1";
        let m = m.apply(Action::Variant(VariantAction::Set(1, typo.into())));
        assert_eq!(m.drafts[1].text, typo);
        let e = m.drafts[1].error.clone().unwrap();
        assert!(
            e.contains("unknown field \"spec.strategy.rollingUpdate.maxSurg\""),
            "{e}"
        );
        assert!(
            Rc::ptr_eq(&before, m.compare.as_ref().unwrap()),
            "nothing re-ran"
        );
        let m = m.apply(Action::Variant(VariantAction::Set(
            1,
            "spec.replicas=4, world.startMs=500".into(),
        )));
        assert_eq!(m.drafts[1].error, None);
        assert_eq!(
            m.compare.as_ref().unwrap().variants[1].name,
            "replicas=4, startMs=500"
        );
        // Empty is the scenario as written; two to four variants.
        let m = m.apply(Action::Variant(VariantAction::Set(2, " ".into())));
        assert_eq!(m.compare.as_ref().unwrap().variants[2].name, "as written");
        let m = m
            .apply(Action::Variant(VariantAction::Add))
            .apply(Action::Variant(VariantAction::Add));
        assert_eq!(m.drafts.len(), 4);
        let m = m
            .apply(Action::Variant(VariantAction::Remove(0)))
            .apply(Action::Variant(VariantAction::Remove(0)))
            .apply(Action::Variant(VariantAction::Remove(0)));
        assert_eq!(m.drafts.len(), 2);
    }

    /// Plays on (past captions) until predict mode asks, or the run ends.
    fn until_asked(mut m: Rc<Model>) -> Rc<Model> {
        while m.predict.asking.is_none() && m.play.pos < m.last() {
            m = play(m, 2000);
        }
        m
    }

    #[test]
    fn the_mode_is_one_run_predict_or_compare_and_predict_waits_while_compared() {
        let m = page("");
        assert!(matches!(m.mode(), Mode::One));
        let m = page("predict");
        assert!(matches!(m.mode(), Mode::Predict));
        let m = m.apply(Action::Variant(VariantAction::Open));
        assert!(
            matches!(m.mode(), Mode::Compare(_)),
            "Compare shows over predict mode"
        );
        let m = m.apply(Action::Playback(PlaybackAction::StepForward));
        assert!(m.predict.asking.is_none(), "no question while compared");
        let m = m.apply(Action::Variant(VariantAction::Close));
        assert!(matches!(m.mode(), Mode::Predict), "predict mode comes back");
    }

    #[test]
    fn predict_mode_stops_before_a_sync_and_checks_the_answer() {
        let m = page("predict");
        assert!(m.predict.on && !m.predict.questions.is_empty());
        let q = m.predict.questions[0];
        // Playing stops before the first question, with the sizes as they stand.
        let m = until_asked(m);
        assert_eq!(m.predict.asking, Some(q));
        assert_eq!(m.play.pos, q - 1);
        assert!(!m.play.playing);
        assert_eq!(m.predict.guess.sizes, ["10"]);
        // Revealing without a branch asks for one; a digit picks one.
        let m = m.apply(Action::Reveal);
        assert!(m.notice.as_deref().unwrap().contains("Pick a branch"));
        assert_eq!(m.predict.asking, Some(q));
        // A wrong answer: scale (4), sizes unchanged.
        let m = m
            .apply(Action::Answer(Answer::Digit(4)))
            .apply(Action::Reveal);
        assert_eq!(m.predict.revealed, Some(q));
        assert_eq!(m.play.pos, q);
        let v = &m.predict.verdicts[&q];
        assert!(!v.branch_right && !v.right());
        // Continue: the next question, answered right this time.
        let m = until_asked(m);
        let q2 = m.predict.asking.expect("the next question");
        assert!(q2 > q);
        let before = learn::before(&m.session, q2);
        let mut m = m.apply(Action::Answer(Answer::Digit(5)));
        for (k, (name, _, _)) in before.iter().enumerate() {
            let after = m.session.trace[q2]
                .replica_sets
                .iter()
                .find(|r| r.name == *name)
                .map_or(0, |r| r.replicas);
            m = m.apply(Action::Answer(Answer::Size(k, after.to_string())));
        }
        let created = m.session.trace[q2]
            .replica_sets
            .iter()
            .find(|r| !before.iter().any(|b| b.0 == r.name))
            .map(|r| r.replicas);
        if let Some(n) = created {
            m = m.apply(Action::Answer(Answer::NewReplicaSet(n.to_string())));
        }
        let m = m.apply(Action::Reveal);
        assert!(
            m.predict.verdicts[&q2].right(),
            "{:?}",
            m.predict.verdicts[&q2]
        );
        // A bad size is refused naming it, and nothing is counted.
        let m = until_asked(m);
        let q3 = m.predict.asking.expect("a third question");
        let m = m
            .apply(Action::Answer(Answer::Digit(5)))
            .apply(Action::Answer(Answer::Size(0, "lots".into())))
            .apply(Action::Reveal);
        assert!(
            m.notice
                .as_deref()
                .unwrap()
                .contains("\"lots\" is not a number"),
            "{:?}",
            m.notice
        );
        assert!(!m.predict.verdicts.contains_key(&q3));
        // Seeking back closes the question; the answers stay until the run changes.
        let m = m.apply(Action::Playback(PlaybackAction::Seek(0)));
        assert_eq!(m.predict.asking, None);
        assert_eq!(m.predict.verdicts.len(), 2);
        // Another example keeps predict mode on.
        let other = crate::scenario::gallery::GALLERY
            .iter()
            .find(|g| g.0 == "scale")
            .unwrap()
            .1;
        let n = m.clone().apply(Action::LoadGallery(3, other.to_string()));
        assert!(n.predict.on && !n.predict.questions.is_empty() && n.predict.verdicts.is_empty());
        let m = m.apply(Action::TogglePredict);
        assert!(!m.predict.on && m.predict.questions.is_empty() && m.predict.verdicts.is_empty());
    }
}
