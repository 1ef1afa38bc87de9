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
    /// Whether to say what continuing a pasted cluster state did (`session.restored`): from
    /// the opening of such a run until the reader dismisses it.
    pub state_note: bool,
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
    /// How many examples the reader opened from the gallery: each one is a new entry in the
    /// tab's history, so that Back returns to the work before it.
    pub examples_opened: u32,
    /// The example's own Deployment (`namespace/name`): its captions are about it.
    pub example_focus: Option<String>,
    /// The reader asked to see the example's captions while following another Deployment.
    pub captions_anyway: bool,
}

/// The reader's work that the address bar does not carry: the editor's text not applied, the
/// console's transcript and recall, and which of the run's commands were typed. The page keeps
/// it for the tab, by scenario ([`Model::work_key`]), so that a reload or Back brings it back.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Work {
    pub editor: Option<String>,
    pub lines: Vec<Line>,
    pub history: Vec<String>,
    pub typed: Vec<bool>,
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
    DismissStateNote,
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
    /// The work kept for this scenario (a reload, Back): put back where nothing was done yet.
    Restore(Work),
    /// Show the example's captions while following another Deployment.
    ShowCaptions,
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
            state_note: session.restored.is_some(),
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
            examples_opened: 0,
            example_focus: None,
            captions_anyway: false,
        };
        m.example_focus = example_focus(&m.session.scenario);
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
        n.examples_opened = self.examples_opened;
        if n.predict.on != self.predict.on {
            n.predict.on = self.predict.on;
            n.refresh_learn();
        }
        if let Some(text) = &opening.manifest {
            n.editor.apply(&EditorAction::Changed(text.clone()));
            n.console = self.console.clone();
        }
        n.landed(opening);
        n
    }

    /// Goes to the step an opening asks for, playing if it asks to.
    fn landed(&mut self, opening: &Opening) {
        self.landed_at(opening);
        self.ask_first();
        if self.predict.asking.is_some() {
            self.play.playing = false;
        }
    }

    fn landed_at(&mut self, opening: &Opening) {
        if opening.pos > self.last() && self.notice.is_none() {
            self.notice = Some(format!(
                "Step {} is past the last step this view shows, {}: it opens there.",
                opening.pos + 1,
                self.last() + 1
            ));
        }
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
            let Some(step) = s.trace[a].action().filter(|_| !s.is_typed(a)) else {
                continue;
            };
            let Some(cmd) = &step.command else {
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
        let cmd = format!("kubectl apply -f deployment.yaml\n{}", self.editor.text);
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
        self.ask(q);
        true
    }

    /// In predict mode at the first step, asks about the first sync when the run allows it
    /// ([`learn::asks_first`]): the page shows the world before it ([`Model::before_first`]).
    fn ask_first(&mut self) {
        if matches!(self.mode(), Mode::Predict)
            && self.play.pos == 0
            && self.predict.questions.first() == Some(&0)
            && !self.predict.verdicts.contains_key(&0)
        {
            self.ask(0);
        }
    }

    /// Whether the page shows the world before the run's first step: predict mode asking what
    /// the first sync does. Views draw the Deployment as created, and nothing it made.
    pub fn before_first(&self) -> bool {
        self.predict.asking == Some(0) && matches!(self.mode(), Mode::Predict)
    }

    /// Opens the question about sync `q` (the page already shows the step before it).
    fn ask(&mut self, q: usize) {
        self.play.playing = false;
        self.predict.asking = Some(q);
        self.predict.revealed = None;
        self.predict.guess = Rc::new(Guess {
            branch: None,
            strategy: self.session.trace[q.saturating_sub(1)]
                .deployment
                .as_ref()
                .map(|d| d.strategy),
            sizes: learn::before(&self.session, q)
                .iter()
                .map(|(_, _, n)| n.to_string())
                .collect(),
            new_replica_set: String::new(),
        });
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
            strategy: (branch == Branch::Rollout).then_some(g.strategy).flatten(),
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
            Ok(Outcome::Applied {
                step,
                output,
                later,
            }) => {
                self.replace_session(s);
                // The controllers answer in the command's instant: the view shows their work.
                let answered = self.session.instant_end(step);
                self.seek(answered);
                if !output.is_empty() {
                    self.print(Line::Output(output));
                }
                if let Some(log) = later {
                    self.print_later(log);
                }
                if answered > step {
                    let t = self.session.trace[answered].t as f64 / 1000.0;
                    self.print(Line::Note(format!(
                        "The controllers answered at once: the view moved {} sync{} on, to step {} (t = {t:.1}s).",
                        answered - step,
                        if answered - step == 1 { "" } else { "s" },
                        answered + 1
                    )));
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
    /// What a change that goes on as the run does (`kubectl drain`) printed after its instant,
    /// each line at its instant, and its end: its errors as kubectl prints them, bare.
    fn print_later(&mut self, log: crate::cluster::watch::WatchLog) {
        for l in log.lines {
            self.print(Line::Watched(l.t, l.text));
        }
        match log.end {
            Some(WatchEnd { error: Some(e), .. }) => self.print(Line::Error(e)),
            Some(_) => {}
            None => self.print(Line::Note(format!(
                "(kubectl is still running when the run ends at t = {:.1}s)",
                self.session.end_ms() as f64 / 1000.0
            ))),
        }
    }

    /// Whether the example's captions show: they are about its own Deployment, so not while
    /// the views follow another (unless the reader asks for them).
    pub fn captions_on(&self) -> bool {
        self.captions_anyway
            || self.example_focus.is_none()
            || self.session.focus == self.example_focus
    }

    /// The reader's work the address bar does not carry ([`Work`]).
    pub fn work(&self) -> Work {
        Work {
            editor: self.editor.dirty.then(|| self.editor.text.clone()),
            lines: self.console.lines.to_vec(),
            history: self.console.history.to_vec(),
            typed: self.session.typed.clone(),
        }
    }

    /// Which scenario the work belongs to: its share link at its first step, hashed (the
    /// link at the step on screen changes as one plays).
    pub fn work_key(&self) -> String {
        work_key(&self.session.scenario)
    }

    /// Puts kept work back, where the reader has not started anew: the transcript and recall,
    /// the editor's text, and which commands were the reader's (so that opening another
    /// example still asks first).
    fn restore(&mut self, w: Work) {
        if !self.console.lines.is_empty() || self.editor.dirty {
            return;
        }
        self.console.lines = Rc::new(w.lines);
        self.console.history = Rc::new(w.history);
        if let Some(text) = w.editor {
            self.editor.apply(&EditorAction::Changed(text));
        }
        if w.typed.len() == self.session.typed.len() && w.typed != self.session.typed {
            Rc::make_mut(&mut self.session).typed = w.typed;
        }
    }

    /// Whether there is work a new example would replace: a command typed, or a manifest
    /// edited and not applied.
    pub fn has_work(&self) -> bool {
        self.session.typed.iter().any(|t| *t) || (self.editor.dirty && self.shared.is_none())
    }

    /// A change the scenario makes after step `i` to the same part of the same object as the
    /// reader's change there (which it may undo), said as a note.
    fn later_scenario_change(&self, i: usize) -> Option<String> {
        let s = &self.session;
        let mine = s.trace.get(i)?.command()?;
        let lo = s.actions.partition_point(|&a| a <= i);
        let (a, cmd) = s.actions[lo..].iter().find_map(|&a| {
            let cmd = s.trace[a].command()?;
            (!s.is_typed(a) && crate::kubectl::may_undo(mine, cmd)).then_some((a, cmd))
        })?;
        Some(format!(
            "Note: the scenario runs `{}` later, at t = {:.1}s, which may undo this.",
            cmd.lines().next().unwrap_or(""),
            s.trace[a].t as f64 / 1000.0
        ))
    }
}

/// The example's own Deployment: among its manifests (the reader's come as commands), the one
/// its `focus:` names, else the first.
fn example_focus(s: &Scenario) -> Option<String> {
    let keys: Vec<String> = s
        .objects
        .iter()
        .filter(|o| o.contains("Deployment"))
        .filter_map(|o| crate::api::yaml::parse_objects(o).ok())
        .flatten()
        .filter(|o| o.kind() == crate::api::Kind::Deployment)
        .map(|o| {
            let m = o.meta();
            let ns = if m.namespace.is_empty() {
                "default"
            } else {
                m.namespace.as_str()
            };
            format!("{ns}/{}", m.name)
        })
        .collect();
    let named = s.focus.as_ref().map(|f| {
        if f.contains('/') {
            f.clone()
        } else {
            format!("default/{f}")
        }
    });
    match named {
        Some(f) if keys.contains(&f) => Some(f),
        _ => keys.into_iter().next(),
    }
}

/// The key [`Model::work_key`] keeps a scenario's work under.
pub fn work_key(s: &Scenario) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    share::encode(s, 0).hash(&mut h);
    format!("rollout-work:{:016x}", h.finish())
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
            Action::Remote(Remote::Theme(dark)) => {
                let changed = m.dark != dark;
                m.dark = dark;
                changed
            }
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
                // The editor's check of this very text is Apply's (one read of the YAML),
                // unless it was a cluster's state, which that check reads for a start.
                let problems = if self.editor.checked && self.editor.state.is_none() {
                    (*self.editor.problems).clone()
                } else {
                    quick::check(&self.editor.text)
                };
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
                let problems = quick::check_start(&self.editor.text);
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
            | EditorAction::Check
            | EditorAction::Checked(..)
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
                    Ok(n) => {
                        *self = n;
                        self.examples_opened += 1;
                    }
                    Err(e) => self.notice = Some(e.to_string()),
                }
            }
            Action::Restore(w) => self.restore(w),
            Action::ShowCaptions => self.captions_anyway = true,
            Action::OpenLink(fragment) => self.open_link(&fragment),
            Action::Shared(link) => self.shared = Some(link),
            Action::Focus(key) => self.rerun(|s| s.set_focus(&key)),
            Action::Command(cmd) => self.typed(cmd.trim()),
            Action::SetWorld(w) => self.rerun(|s| s.set_world(w)),
            Action::Select(sel) => self.selected = sel,
            Action::DismissNotice => self.notice = None,
            Action::DismissStateNote => self.state_note = false,
            Action::Notice(text) => self.notice = Some(text),
            Action::ToggleTheme => self.dark = !self.dark,
            Action::TogglePredict => {
                self.predict.on = !self.predict.on;
                self.play.playing = false;
                self.refresh_learn();
                self.ask_first();
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
mod tests;
