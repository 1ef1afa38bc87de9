//! The page's state and its one reducer: every click, key and tick becomes an [`Action`], and
//! [`Model::reduce`] turns the old state into the new one. Components only render a `Model`
//! and send actions; no rule of the playground lives inside a component.

use crate::api::Deployment;
use crate::cluster::kubelet::World;
use crate::cluster::watch::WatchEnd;
use crate::controller::deployment::Branch;
use crate::scenario::compare::{self, Comparison};
pub use crate::scenario::embed::Remote;
use crate::scenario::gallery::DEFAULT;
use crate::scenario::learn::{self, Prediction, Verdict};
use crate::scenario::quick;
use crate::scenario::session::{Change, Commanded, Recording};
use crate::scenario::session::{Outcome, Session, SessionError};
use crate::scenario::share::{self, ViewOptions};
use crate::scenario::variant::{MAX_VARIANTS, MIN_VARIANTS, Variant};
use crate::scenario::{Scenario, ScenarioError};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

pub const SPEEDS: [f64; 6] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0];

/// The work ([`crate::cluster::Cluster::work`]) a recording may take in the reducer, at once:
/// about 90 ms of wasm (a unit costs ~6 µs there: a change typed at the end of a 1 000-replica
/// rollout is ~15 000 units and answered in ~88 ms, which stays within one slice). Every gallery
/// scenario (the largest, revision-history-limit, is 746 units) and every change to one is done
/// at once; a 10 000-replica run, or a change to it, is recorded in slices between frames.
pub const FIRST_SLICE: u64 = 15_000;

/// The same for opening a scenario, which has no earlier answer to keep: about 30 ms of wasm.
/// Every gallery scenario opens at once; a 1 000-replica rollout (12 000 units) in slices.
pub const FIRST_OPEN_SLICE: u64 = 5_000;

/// A run being recorded in slices between frames (the page's driver,
/// `bindings::use_recording`, takes them), and what happens once it is done. Cancelling drops
/// it.
#[derive(Clone)]
pub struct Pending {
    pub recording: Rc<RefCell<Option<Underway>>>,
    /// The virtual instant reached and the steps recorded, for the progress line.
    pub progress: (u64, usize),
    /// Which recording this is (a newer one replaces it).
    pub id: u32,
    /// "the scenario" or "the change", for the progress line.
    pub what: &'static str,
}

/// What is being recorded: a scenario to open, or a typed change to the run (with the session
/// it was begun on, and whether it is the editor's Apply).
pub enum Underway {
    Open(Box<Recording>, Opening),
    Change(Box<Change>, Rc<Session>, bool),
}

impl Underway {
    /// Records on for about `work` more; true once done.
    pub fn go_on(&mut self, work: Option<u64>) -> bool {
        match self {
            Underway::Open(r, _) => r.go_on(work),
            Underway::Change(c, ..) => c.go_on(work),
        }
    }

    /// The virtual instant reached and the steps recorded.
    pub fn progress(&self) -> (u64, usize) {
        match self {
            Underway::Open(r, _) => r.progress(),
            Underway::Change(c, ..) => c.progress(),
        }
    }
}

/// How a scenario opens once it is recorded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Opening {
    /// The gallery entry it is, if it is one.
    pub gallery: Option<usize>,
    /// The step to show.
    pub pos: usize,
    /// Play at once (an autoplaying embed).
    pub autoplay: bool,
    /// "Start from my manifest": the editor keeps this text, and the console its lines.
    pub manifest: Option<String>,
}
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

#[derive(Clone, PartialEq)]
pub enum Selected {
    Pod(String),
    ReplicaSet(String),
}

#[derive(Clone)]
pub struct Model {
    pub session: Rc<Session>,
    /// The step the page shows.
    pub pos: usize,
    /// The playhead in virtual time (between steps while playing).
    pub vt_ms: f64,
    pub playing: bool,
    pub speed: f64,
    /// Which gallery scenario is loaded (index), if any.
    pub gallery: Option<usize>,
    pub editor: String,
    /// The editor's text is the reader's (typed, pasted or applied): it stays as it is. While
    /// it is not, the editor follows the timeline, showing the focus Deployment at each step.
    pub editor_dirty: bool,
    /// The Deployment the editor's text was last loaded from (what an Apply would revert to
    /// where the reader has not changed it).
    pub editor_base: Option<Rc<Deployment>>,
    /// Show every field, the apiserver's defaults too.
    pub editor_full: bool,
    /// An Apply held back because it would undo changes made since the text was loaded: what
    /// it would revert, for the reader to confirm or cancel.
    pub pending_revert: Option<Rc<Vec<String>>>,
    pub problems: Rc<Vec<quick::Problem>>,
    pub console: Rc<Vec<Line>>,
    pub history: Rc<Vec<String>>,
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
    /// Playback stopped at a caption, for the reader to read and continue.
    pub held: bool,
    /// An autoplaying embed reads a caption out this long (real ms) before it plays on.
    pub hold_ms: f64,
    /// The scenario's variants run side by side (the Compare view), when it lists any.
    pub compare: Option<Rc<Comparison>>,
    /// Each variant's settings as the reader typed them, with why they were not taken.
    pub drafts: Rc<Vec<Draft>>,
    /// Predict mode: playback stops before each Deployment sync that changes something.
    pub predict: bool,
    /// The syncs asked about (steps), in predict mode.
    pub questions: Rc<Vec<usize>>,
    /// The sync the reader is predicting (the page shows the step before it).
    pub asking: Option<usize>,
    pub guess: Rc<Guess>,
    /// Answers checked, by step.
    pub verdicts: Rc<BTreeMap<usize, Verdict>>,
    /// The sync whose answer was just revealed.
    pub revealed: Option<usize>,
}

/// The reader's answer as it is being typed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Guess {
    pub branch: Option<Branch>,
    pub strategy: Option<String>,
    /// Each ReplicaSet's new size as typed, in the order of [`learn::before`].
    pub sizes: Vec<String>,
    /// The size of a ReplicaSet the sync would create (empty: none).
    pub new_replica_set: String,
}

/// A variant's settings field: its text and, when the text was refused, why.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub text: String,
    pub error: Option<String>,
}

pub enum Action {
    /// A gallery scenario's text arrived (index in `gallery::NAMES`).
    LoadGallery(usize, String),
    /// A share-link fragment to open (hashchange); a bad one only shows a message.
    OpenLink(String),
    Remote(Remote),
    Shared(String),
    TogglePlay,
    Play,
    Pause,
    /// Jump to the next (previous) step that changes something one can see.
    NextChange,
    PreviousChange,
    /// Real milliseconds elapsed since the last animation frame.
    Tick(f64),
    StepForward,
    StepBack,
    Seek(usize),
    SeekTime(u64),
    SetSpeed(f64),
    EditorChanged(String),
    Quick(quick::Field, String),
    Apply,
    /// Apply although it reverts what `pending_revert` lists.
    ApplyAnyway,
    CancelApply,
    LoadCurrentSpec,
    /// Show or hide the defaulted fields in the editor.
    ToggleFullSpec,
    /// Follow another Deployment (`namespace/name`).
    Focus(String),
    /// A new run with only the editor's objects.
    StartFromManifest,
    Command(String),
    SetWorld(World),
    Select(Option<Selected>),
    DismissNotice,
    /// Something the reader should know that changed nothing (a gallery file that did not load).
    Notice(String),
    ToggleTheme,
    /// Open the scenario as variants side by side (suggested ones when it lists none).
    OpenCompare,
    CloseCompare,
    /// Variant `i`'s settings (`path=value, …`; empty for the scenario as written).
    SetVariant(usize, String),
    AddVariant,
    RemoveVariant(usize),
    /// Predict mode on or off.
    TogglePredict,
    /// The branch picked (1–5 in `syncDeployment`'s order from the keyboard).
    PickBranch(Branch),
    PickStrategy(String),
    /// A digit typed outside a field: picks the n-th branch while a question is open.
    Digit(usize),
    GuessSize(usize, String),
    GuessNewReplicaSet(String),
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
        let editor = editor_text(&session.scenario);
        let notice = session.stopped.clone();
        let mut m = Model {
            pos: 0,
            vt_ms: 0.0,
            session: Rc::new(session),
            playing: false,
            speed: 1.0,
            gallery,
            problems: Rc::new(quick::check(&editor)),
            editor,
            editor_dirty: false,
            editor_base: None,
            editor_full: false,
            pending_revert: None,
            console: Rc::new(vec![]),
            history: Rc::new(vec![]),
            selected: None,
            notice,
            refusals: 0,
            pending: None,
            dark,
            view,
            shared: None,
            held: false,
            hold_ms: 0.0,
            compare: None,
            drafts: Rc::new(vec![]),
            predict: false,
            questions: Rc::new(vec![]),
            asking: None,
            guess: Rc::new(Guess::default()),
            verdicts: Rc::new(BTreeMap::new()),
            revealed: None,
        };
        m.predict = m.view.predict;
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
        if n.predict != self.predict {
            n.predict = self.predict;
            n.refresh_learn();
        }
        if let Some(text) = &opening.manifest {
            n.editor = text.clone();
            n.editor_dirty = true;
            n.problems = Rc::new(vec![]);
            n.console = self.console.clone();
            n.history = self.history.clone();
        }
        n.landed(opening);
        n
    }

    /// Goes to the step an opening asks for, playing if it asks to.
    fn landed(&mut self, opening: &Opening) {
        self.seek(opening.pos);
        self.follow();
        self.playing = opening.autoplay && self.pos < self.last();
    }

    /// The last step the timeline may reach (`until=N` caps it).
    pub fn last(&self) -> usize {
        let end = self.session.len().saturating_sub(1);
        self.view.until.map_or(end, |u| u.min(end))
    }

    pub fn step(&self) -> Option<&crate::cluster::trace::TraceStep> {
        self.session.trace.get(self.pos).map(|s| &**s)
    }

    fn seek(&mut self, i: usize) {
        self.pos = i.min(self.last());
        self.vt_ms = self.step().map(|s| s.t as f64).unwrap_or(0.0);
        self.held = false;
    }

    /// Moves to step `i`; going forward, the scenario's commands passed on the way print in
    /// the console as they would have (the reader's own printed when typed).
    fn reach(&mut self, i: usize) {
        let from = self.pos;
        self.seek(i);
        if self.pos <= from {
            return;
        }
        let (s, to) = (self.session.clone(), self.pos);
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
        let c = Rc::make_mut(&mut self.console);
        c.push(line);
        if c.len() > CONSOLE_LINES {
            let extra = c.len() - CONSOLE_LINES;
            c.drain(..extra);
        }
    }

    /// Puts the focus Deployment, as it stands at the current step, in the editor.
    fn load_current_spec(&mut self) {
        let Some(d) = self.session.focus_at(self.pos).cloned() else {
            self.notice = Some("There is no Deployment at this step.".into());
            return;
        };
        self.show(d);
    }

    fn show(&mut self, d: Rc<Deployment>) {
        self.editor = quick::manifest_of(&d, self.editor_full);
        self.problems = Rc::new(quick::check(&self.editor));
        self.editor_dirty = false;
        self.editor_base = Some(d);
    }

    /// While the editor is not the reader's, it shows the focus Deployment at the current step
    /// (written anew only when what it shows changed: a status update changes nothing there).
    fn follow(&mut self) {
        if self.editor_dirty {
            return;
        }
        let Some(d) = self.session.focus_at(self.pos).cloned() else {
            return;
        };
        let same = self.editor_base.as_ref().is_some_and(|b| {
            Rc::ptr_eq(b, &d)
                || b.metadata.key() == d.metadata.key()
                    && b.spec == d.spec
                    && b.metadata.labels == d.metadata.labels
                    && b.metadata.annotations == d.metadata.annotations
        });
        if same {
            self.editor_base = Some(d);
        } else {
            self.show(d);
        }
    }

    /// `kubectl apply` of the editor's text at the current step; the text stays the reader's.
    fn apply_editor(&mut self) {
        self.playing = false;
        self.pending_revert = None;
        let cmd = format!("kubectl apply -f -\n{}", self.editor);
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
        self.questions = Rc::new(if self.predict {
            learn::questions(&self.session)
        } else {
            vec![]
        });
        self.verdicts = Rc::new(BTreeMap::new());
        self.asking = None;
        self.revealed = None;
    }

    /// In predict mode, going forward to `to` stops before the first question on the way that
    /// is not answered yet; true when it did.
    fn ask_before(&mut self, to: usize) -> bool {
        if !self.predict || self.compare.is_some() {
            return false;
        }
        let k = self.questions.partition_point(|&q| q <= self.pos);
        let Some(&q) = self.questions[k..]
            .iter()
            .find(|&&q| q <= to && !self.verdicts.contains_key(&q))
        else {
            return false;
        };
        self.reach(q - 1);
        self.playing = false;
        self.asking = Some(q);
        self.revealed = None;
        self.guess = Rc::new(Guess {
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
        let Some(q) = self.asking else { return };
        let g = self.guess.clone();
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
        Rc::make_mut(&mut self.verdicts).insert(q, v);
        self.notice = None;
        self.asking = None;
        self.revealed = Some(q);
        self.reach(q);
    }

    /// Re-runs the variants the scenario lists (after any change to the run or to them).
    fn refresh_compare(&mut self) {
        let c = Comparison::of(&self.session.scenario);
        if let Some(c) = &c
            && let Some(e) = c.runs.iter().find_map(|r| r.as_ref().err())
            && self.notice.is_none()
        {
            self.notice = Some(format!("A variant could not run: {e}"));
        }
        self.drafts = Rc::new(
            self.session
                .scenario
                .variants
                .iter()
                .map(|v| Draft {
                    text: v.settings_text(),
                    error: None,
                })
                .collect(),
        );
        self.compare = c.map(Rc::new);
    }

    /// The run with these variants (the run itself does not change).
    fn set_variants(&mut self, variants: Vec<Variant>) {
        let mut s = (*self.session).clone();
        s.scenario.variants = variants;
        self.playing = false;
        self.replace_session(s);
    }

    /// Variant `i`'s settings typed: taken when the apiserver would take the Deployment they
    /// make, else kept as typed with the reason.
    fn set_variant(&mut self, i: usize, text: String) {
        let mut variants = self.session.scenario.variants.clone();
        if i >= variants.len() {
            return;
        }
        let set = if text.trim().is_empty() {
            Ok(vec![])
        } else {
            Variant::parse_settings(&text)
        };
        let taken = set.and_then(|set| {
            let v = Variant {
                name: Variant::default_name(&set),
                set,
            };
            self.session
                .scenario
                .with_variant(&v)
                .map(|_| v)
                .map_err(|e| e.to_string())
        });
        match taken {
            Ok(v) => {
                variants[i] = v;
                self.set_variants(variants);
            }
            Err(e) => {
                Rc::make_mut(&mut self.drafts)[i] = Draft {
                    text,
                    error: Some(e),
                }
            }
        }
    }

    /// The shared clock's end in a comparison, else the run's.
    pub fn end_ms(&self) -> u64 {
        match &self.compare {
            Some(c) => c.end_ms,
            None => self.session.trace.get(self.last()).map_or(0, |s| s.t),
        }
    }

    /// A comparison's clock moves to `t`; the run underneath follows.
    fn seek_time(&mut self, t: f64) {
        let t = t.clamp(0.0, self.end_ms() as f64);
        self.seek(self.session.step_at_time(t as u64));
        self.vt_ms = t;
    }

    /// Runs a console command at the current step; true when it changed the run.
    /// A console command at the current step (the editor's Apply when `from_editor`). A
    /// change that records long goes on in slices ([`Model::pending`]).
    fn command(&mut self, cmd: &str, from_editor: bool) {
        let mut s = (*self.session).clone();
        match s.command_in_slices(self.pos, cmd, Some(FIRST_SLICE)) {
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
                    self.editor_dirty = true;
                    self.editor_base = self.session.focus_at(self.pos).cloned();
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
        self.session.typed.iter().any(|t| *t) || (self.editor_dirty && self.shared.is_none())
    }

    /// A change the scenario makes after step `i` (which the reader's change at `i` may not
    /// survive), said as a note.
    fn later_scenario_change(&self, i: usize) -> Option<String> {
        let s = &self.session;
        let lo = s.actions.partition_point(|&a| a <= i);
        let (a, cmd) = s.actions[lo..].iter().find_map(|&a| {
            let cmd = s.trace[a].command.as_deref()?;
            (!s.is_typed(a) && !crate::scenario::kubectl::is_read_only(cmd)).then_some((a, cmd))
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
    /// The reducer: the state after `action`. (Long as reducers are: one short arm per thing
    /// a reader can do, read as a table.)
    pub fn apply(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut m = (*self).clone();
        let last = m.last();
        if m.view.readonly
            && matches!(
                action,
                Action::Apply
                    | Action::ApplyAnyway
                    | Action::StartFromManifest
                    | Action::Command(_)
                    | Action::SetWorld(_)
                    | Action::Quick(..)
                    | Action::OpenCompare
                    | Action::CloseCompare
                    | Action::SetVariant(..)
                    | Action::AddVariant
                    | Action::RemoveVariant(_)
            )
        {
            m.notice = Some("This playground is read-only.".into());
            return Rc::new(m);
        }
        // A change to the run waits for the recording under way, which would replace it.
        if m.pending.is_some()
            && matches!(
                action,
                Action::Command(_) | Action::Apply | Action::ApplyAnyway | Action::SetWorld(_)
            )
        {
            m.notice = Some(
                "A run is still being recorded: wait for it, or Cancel it, before changing the run."
                    .into(),
            );
            return Rc::new(m);
        }
        // Going back or jumping closes a question (it is asked again when played up to).
        if matches!(
            action,
            Action::StepBack
                | Action::PreviousChange
                | Action::Seek(_)
                | Action::SeekTime(_)
                | Action::Remote(Remote::Seek(_))
        ) {
            m.asking = None;
            m.revealed = None;
        }
        match action {
            Action::LoadGallery(i, text) => {
                let opening = Opening {
                    gallery: Some(i),
                    ..Opening::default()
                };
                match Scenario::parse(&text).and_then(|s| m.open(s, opening)) {
                    Ok(n) => return Rc::new(n),
                    Err(e) => m.notice = Some(e.to_string()),
                }
            }
            Action::OpenLink(fragment) => match share::decode(&fragment)
                .map_err(|e| e.to_string())
                .and_then(|s| {
                    let opening = Opening {
                        pos: s.step,
                        ..Opening::default()
                    };
                    m.open(s.scenario, opening).map_err(|e| e.to_string())
                }) {
                Ok(n) => return Rc::new(n),
                Err(e) => {
                    m.notice = Some(format!(
                        "This link could not be opened: {e}. Your work is as you left it."
                    ));
                    m.refusals += 1;
                }
            },
            Action::Shared(link) => m.shared = Some(link),
            Action::Recorded(id, progress) => match &mut m.pending {
                Some(p) if p.id == id => p.progress = progress,
                _ => return self,
            },
            Action::RecordingDone(id) => {
                let Some(p) = m.pending.take().filter(|p| p.id == id) else {
                    return self;
                };
                let Some(underway) = p.recording.borrow_mut().take() else {
                    return self;
                };
                match underway {
                    Underway::Open(r, opening) => return Rc::new(m.opened(r.finish(), &opening)),
                    Underway::Change(change, session, from_editor) => {
                        let mut s = Rc::unwrap_or_clone(session);
                        let outcome = s.commit_change(*change);
                        m.commanded(s, outcome, from_editor);
                    }
                }
            }
            Action::CancelRecording => {
                if m.pending.take().is_some() {
                    m.notice = Some("Recording cancelled: the page is as it was.".into());
                }
            }
            Action::Remote(r) => match r {
                Remote::Play => return self.apply(Action::Play),
                Remote::Pause => return self.apply(Action::Pause),
                Remote::Step => return self.apply(Action::StepForward),
                Remote::Seek(i) => {
                    m.playing = false;
                    m.seek(i);
                }
                Remote::Load(text) => match share::open(&text).and_then(|(s, step)| {
                    let opening = Opening {
                        pos: step,
                        autoplay: m.view.autoplay,
                        ..Opening::default()
                    };
                    m.open(s, opening).map_err(|e| e.to_string())
                }) {
                    Ok(n) => return Rc::new(n),
                    Err(e) => {
                        m.notice = Some(format!(
                            "The host page sent a scenario that does not load: {e}"
                        ));
                        m.refusals += 1;
                    }
                },
            },
            Action::TogglePlay if m.playing => m.playing = false,
            Action::TogglePlay | Action::Play if m.compare.is_some() => {
                m.playing = true;
                if m.vt_ms >= m.end_ms() as f64 {
                    m.seek_time(0.0);
                }
            }
            Action::Tick(real_ms) if m.compare.is_some() => {
                if !m.playing {
                    return self;
                }
                let t = m.vt_ms + real_ms.min(250.0) * m.speed;
                m.seek_time(t);
                if t >= m.end_ms() as f64 {
                    m.playing = false;
                }
            }
            Action::StepForward | Action::NextChange if m.compare.is_some() => {
                m.playing = false;
                let t = m
                    .compare
                    .as_ref()
                    .map_or(0, |c| c.next_instant(m.vt_ms as u64));
                m.seek_time(t as f64);
            }
            Action::StepBack | Action::PreviousChange if m.compare.is_some() => {
                m.playing = false;
                let t = m
                    .compare
                    .as_ref()
                    .map_or(0, |c| c.previous_instant(m.vt_ms.ceil() as u64));
                m.seek_time(t as f64);
            }
            Action::TogglePlay | Action::Play if m.asking.is_some() => m.reveal(),
            Action::TogglePlay | Action::Play => {
                m.revealed = None;
                m.playing = true;
                m.held = false;
                m.hold_ms = 0.0;
                if m.pos >= last {
                    m.seek(0);
                }
            }
            Action::Pause => m.playing = false,
            Action::Tick(real_ms) => {
                if !m.playing {
                    return self;
                }
                if m.hold_ms > 0.0 {
                    m.hold_ms -= real_ms;
                    return Rc::new(m);
                }
                // A long frame (a hidden tab) must not jump the whole rollout.
                m.vt_ms += real_ms.min(250.0) * m.speed;
                let to = m.session.step_at_time(m.vt_ms as u64).max(m.pos).min(last);
                // A caption holds the play until the reader continues; an autoplaying embed
                // holds it long enough to read.
                let caption = (m.pos + 1..=to).find(|&i| m.session.trace[i].caption.is_some());
                if m.ask_before(caption.unwrap_or(to)) {
                    return Rc::new(m);
                }
                let vt = m.vt_ms;
                m.reach(caption.unwrap_or(to));
                // Between steps the playhead runs on in virtual time.
                m.vt_ms = vt;
                if let Some(c) = caption {
                    m.vt_ms = m.session.trace[c].t as f64;
                    if m.view.embed && m.view.autoplay {
                        m.hold_ms = reading_ms(m.session.trace[c].caption.as_deref());
                    } else {
                        m.playing = false;
                        m.held = true;
                    }
                }
                let last_t = m.end_ms() as f64;
                if m.pos >= last && m.vt_ms >= last_t {
                    m.pos = last;
                    m.vt_ms = last_t;
                    m.playing = false;
                }
            }
            Action::StepForward if m.asking.is_some() => m.reveal(),
            Action::StepForward => {
                m.playing = false;
                m.revealed = None;
                let to = (m.pos + 1).min(last);
                if !m.ask_before(to) {
                    m.reach(to);
                }
            }
            Action::StepBack => {
                m.playing = false;
                m.seek(m.pos.saturating_sub(1));
            }
            Action::NextChange => {
                m.playing = false;
                m.revealed = None;
                let next = m.session.next_change(m.pos).unwrap_or(last).min(last);
                if !m.ask_before(next) {
                    m.reach(next);
                }
            }
            Action::PreviousChange => {
                m.playing = false;
                m.seek(m.session.previous_change(m.pos));
            }
            Action::Seek(i) => m.reach(i),
            Action::SeekTime(t) => {
                m.reach(m.session.step_at_time(t));
                m.vt_ms = t as f64;
            }
            Action::SetSpeed(s) => m.speed = s,
            Action::EditorChanged(text) => {
                m.pending_revert = None;
                m.problems = Rc::new(quick::check(&text));
                m.editor = text;
                m.editor_dirty = true;
            }
            Action::LoadCurrentSpec => {
                m.pending_revert = None;
                m.load_current_spec();
            }
            Action::ToggleFullSpec => {
                m.editor_full = !m.editor_full;
                if !m.editor_dirty {
                    m.editor_base = None;
                }
            }
            Action::Focus(key) => {
                let mut s = (*m.session).clone();
                match s.set_focus(&key) {
                    Ok(()) => {
                        let pos = m.pos;
                        m.replace_session(s);
                        m.seek(pos);
                        m.selected = None;
                        // The editor shows the Deployment now followed, unless it holds the
                        // reader's own text.
                        if !m.editor_dirty {
                            m.editor_base = None;
                        }
                    }
                    Err(e) => m.notice = Some(e.to_string()),
                }
            }
            Action::StartFromManifest => {
                let problems = quick::check(&m.editor);
                if problems.is_empty() {
                    let text = m.editor.clone();
                    let scenario = Scenario::from_manifest(&text);
                    let opening = Opening {
                        manifest: Some(text),
                        ..Opening::default()
                    };
                    match m.open(scenario, opening) {
                        Ok(n) => return Rc::new(n),
                        Err(e) => m.notice = Some(e.to_string()),
                    }
                }
                m.problems = Rc::new(problems);
            }
            Action::Quick(field, value) => match quick::write(&m.editor, field, &value) {
                Ok(text) => {
                    m.problems = Rc::new(quick::check(&text));
                    m.editor = text;
                    m.editor_dirty = true;
                }
                Err(e) => {
                    m.problems = Rc::new(vec![quick::Problem {
                        line: None,
                        field: Some(field.label().into()),
                        message: e,
                    }])
                }
            },
            Action::Apply => {
                let problems = quick::check(&m.editor);
                if problems.is_empty() {
                    let reverts = match (&m.editor_base, m.session.focus_at(m.pos)) {
                        (Some(base), Some(now)) if m.editor_dirty && !Rc::ptr_eq(base, now) => {
                            quick::reverts(&m.editor, base, now)
                        }
                        _ => vec![],
                    };
                    if reverts.is_empty() {
                        m.apply_editor();
                    } else {
                        m.playing = false;
                        m.pending_revert = Some(Rc::new(reverts));
                    }
                }
                m.problems = Rc::new(problems);
            }
            Action::ApplyAnyway => m.apply_editor(),
            Action::CancelApply => m.pending_revert = None,
            Action::Command(cmd) => {
                let cmd = cmd.trim().to_string();
                if cmd.is_empty() {
                    return self;
                }
                m.playing = false;
                m.print(Line::Command(cmd.clone()));
                let h = Rc::make_mut(&mut m.history);
                if h.last() != Some(&cmd) {
                    h.push(cmd.clone());
                }
                if cmd == "clear" {
                    m.console = Rc::new(vec![]);
                } else {
                    m.command(&cmd, false);
                }
            }
            Action::SetWorld(w) => {
                let mut s = (*m.session).clone();
                match s.set_world(w) {
                    Ok(()) => {
                        let pos = m.pos;
                        m.replace_session(s);
                        m.seek(pos);
                    }
                    Err(e) => m.notice = Some(e.to_string()),
                }
            }
            Action::Select(sel) => m.selected = sel,
            Action::DismissNotice => m.notice = None,
            Action::Notice(text) => m.notice = Some(text),
            Action::ToggleTheme => m.dark = !m.dark,
            Action::OpenCompare => {
                if m.compare.is_none() {
                    let v = compare::suggested(&m.session.scenario);
                    m.set_variants(v);
                }
            }
            Action::CloseCompare => m.set_variants(vec![]),
            Action::SetVariant(i, text) => m.set_variant(i, text),
            Action::AddVariant => {
                let mut v = m.session.scenario.variants.clone();
                if v.len() < MAX_VARIANTS {
                    v.push(Variant {
                        name: "as written".into(),
                        set: vec![],
                    });
                    m.set_variants(v);
                }
            }
            Action::TogglePredict => {
                m.predict = !m.predict;
                m.playing = false;
                m.refresh_learn();
            }
            Action::PickBranch(b) => Rc::make_mut(&mut m.guess).branch = Some(b),
            Action::Digit(n) => {
                if m.asking.is_some()
                    && let Some(b) = n.checked_sub(1).and_then(|k| learn::CHOICES.get(k))
                {
                    Rc::make_mut(&mut m.guess).branch = Some(*b);
                }
            }
            Action::PickStrategy(st) => Rc::make_mut(&mut m.guess).strategy = Some(st),
            Action::GuessSize(k, text) => {
                if let Some(t) = Rc::make_mut(&mut m.guess).sizes.get_mut(k) {
                    *t = text;
                }
            }
            Action::GuessNewReplicaSet(text) => Rc::make_mut(&mut m.guess).new_replica_set = text,
            Action::Reveal => m.reveal(),
            Action::RemoveVariant(i) => {
                let mut v = m.session.scenario.variants.clone();
                if i < v.len() && v.len() > MIN_VARIANTS {
                    v.remove(i);
                    m.set_variants(v);
                }
            }
        }
        m.follow();
        Rc::new(m)
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
        m = m.apply(Action::Play);
        for _ in 0..frames {
            if !m.playing {
                break;
            }
            m = m.apply(Action::Tick(100.0));
        }
        m
    }

    #[test]
    fn playback_holds_at_each_caption_until_the_reader_continues() {
        let m = play(page(""), 10_000);
        assert!(m.held && !m.playing, "held at a caption");
        let at = m.pos;
        assert!(m.session.trace[at].caption.is_some());
        assert_eq!(m.vt_ms, m.session.trace[at].t as f64);
        let m = play(m, 10_000);
        assert!(
            m.pos > at && m.held,
            "continue plays on to the next caption"
        );
        // The scenario's command there printed as it was reached.
        assert!(
            m.console
                .iter()
                .any(|l| matches!(l, Line::Scenario(c) if c.starts_with("kubectl set image"))),
            "scenario commands print when reached"
        );
        // An autoplaying embed holds long enough to read, then plays on by itself.
        let mut e = Rc::new(Model::from_url("?embed&autoplay", "", false));
        let mut held_frames = 0;
        for _ in 0..20_000 {
            if !e.playing {
                break;
            }
            let before = e.pos;
            e = e.apply(Action::Tick(100.0));
            if e.hold_ms > 0.0 && e.pos == before {
                held_frames += 1;
            }
        }
        assert_eq!(e.pos, e.last(), "the embed plays to the end");
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
        while m.pos < m.last() && visited < 200 {
            let from = m.pos;
            m = m.apply(Action::NextChange);
            visited += 1;
            let to = m.pos;
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
        let back = m.clone().apply(Action::PreviousChange);
        assert!(back.pos < m.pos);
    }

    #[test]
    fn a_change_typed_before_a_later_scenario_command_says_it_may_be_undone() {
        let m = page("").apply(Action::Command(
            "kubectl scale deployment/web --replicas=4".into(),
        ));
        assert!(
            m.console
                .iter()
                .any(|l| matches!(l, Line::Note(n) if n.contains("kubectl set image"))),
            "a note names the later scenario command"
        );
        assert!(m.session.is_typed(m.pos));
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
        let m = page("").apply(Action::Seek(5));
        let m = m.apply(Action::Command("kubectl get deployment web".into()));
        assert!(matches!(m.console.last(), Some(Line::Output(o)) if o.contains("web")));
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
            m.history.last().map(String::as_str),
            Some("kubectl scale deployment/web --replicas=2")
        );
    }

    #[test]
    fn the_editor_follows_the_timeline_until_edited_then_asks_before_reverting() {
        let m = page("");
        assert!(m.editor.contains("nginx:1.14.2"), "{}", m.editor);
        let last = m.last();
        let m = m.apply(Action::Seek(last));
        assert!(
            m.editor.contains("nginx:1.16.1"),
            "it follows: {}",
            m.editor
        );
        let m = m
            .apply(Action::Seek(0))
            .apply(Action::Quick(quick::Field::Replicas, "12".into()))
            .apply(Action::Seek(last));
        assert!(m.editor.contains("replicas: 12") && m.editor.contains("nginx:1.14.2"));
        let m = m.apply(Action::Apply);
        let asked = m.pending_revert.clone().expect("the apply is held back");
        assert!(
            asked
                .iter()
                .any(|l| l.ends_with("nginx:1.16.1 → nginx:1.14.2")),
            "{asked:?}"
        );
        let len = m.session.len();
        let m = m.apply(Action::ApplyAnyway);
        assert!(m.pending_revert.is_none());
        assert_ne!(m.session.len(), len, "applied");
        assert!(
            m.editor.contains("replicas: 12"),
            "the applied text is kept"
        );
    }

    #[test]
    fn a_bad_link_from_anywhere_leaves_the_work_as_it_was() {
        let m = page("").apply(Action::EditorChanged("kind: Deployment # mine".into()));
        let session = m.session.clone();
        for action in [
            Action::OpenLink("#v1.@@@".into()),
            Action::Remote(Remote::Load("v9.x".into())),
        ] {
            let after = m.clone().apply(action);
            assert!(Rc::ptr_eq(&after.session, &session));
            assert_eq!(after.editor, "kind: Deployment # mine");
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
        let m = page("").apply(Action::EditorChanged("kind: Deployment # mine".into()));
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
        assert_eq!(cancelled.editor, "kind: Deployment # mine");
        // A stale driver's report changes nothing.
        let stale = cancelled
            .clone()
            .apply(Action::RecordingDone(m.pending.as_ref().unwrap().id));
        assert!(Rc::ptr_eq(&stale, &cancelled));
        // Done: the run opens at the link's step, and is the run recorded in one go.
        let opened = record_pending(m);
        assert!(opened.pending.is_none());
        assert_eq!(opened.session.scenario.name, "big");
        assert_eq!(opened.pos, 3);
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
            (opened.session.scenario.name.as_str(), opened.pos),
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
        let m = m.apply(Action::Seek(usize::MAX));
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
            matches!(done.console.last(), Some(Line::Output(o)) if o.contains("image updated"))
        );
    }

    #[test]
    fn playing_from_the_end_starts_over_and_seeking_stays_within_until() {
        // `until` counts from 1, as the page shows steps: step 10 is index 9.
        let m = page("?until=10");
        assert_eq!(m.last(), 9);
        let m = m.apply(Action::Seek(500));
        assert_eq!(m.pos, 9);
        let m = m.apply(Action::TogglePlay);
        assert!(m.playing);
        assert_eq!(m.pos, 0);
        let m = m.apply(Action::Remote(Remote::Seek(3)));
        assert!(!m.playing);
        assert_eq!(m.pos, 3);
    }

    #[test]
    fn compare_runs_the_variants_on_one_clock_and_a_link_keeps_them() {
        let m = page("").apply(Action::OpenCompare);
        let c = m.compare.clone().expect("a comparison");
        assert_eq!(c.variants.len(), 3);
        assert_eq!(m.drafts[2].text, "spec.strategy.type=Recreate");
        // Playing moves one clock to the latest end of any variant.
        let m = play(m, 10_000);
        assert_eq!(m.vt_ms, c.end_ms as f64);
        assert!(c.end_ms > m.session.end_ms(), "maxSurge 0 takes longer");
        assert!(!m.playing);
        // Stepping goes from instant to instant across the variants.
        let back = m.clone().apply(Action::StepBack);
        assert!(back.vt_ms < m.vt_ms);
        let fwd = back.clone().apply(Action::StepForward);
        assert_eq!(fwd.vt_ms, m.vt_ms);
        // The link carries the variants and opens the same comparison.
        let link = share::encode(&m.session.scenario, 0);
        let opened = Model::from_url("", &link, false);
        assert_eq!(opened.compare.unwrap().names(), c.names());
        // Back to one run: a link made then opens without variants.
        let one = m.apply(Action::CloseCompare);
        assert!(one.compare.is_none() && one.session.scenario.variants.is_empty());
    }

    #[test]
    fn a_refused_variant_keeps_its_text_and_says_why() {
        let m = page("").apply(Action::OpenCompare);
        let before = m.compare.clone().unwrap();
        let typo = "spec.strategy.rollingUpdate.maxSurg=1";
        let m = m.apply(Action::SetVariant(1, typo.into()));
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
        let m = m.apply(Action::SetVariant(
            1,
            "spec.replicas=4, world.startMs=500".into(),
        ));
        assert_eq!(m.drafts[1].error, None);
        assert_eq!(
            m.compare.as_ref().unwrap().variants[1].name,
            "replicas=4, startMs=500"
        );
        // Empty is the scenario as written; two to four variants.
        let m = m.apply(Action::SetVariant(2, " ".into()));
        assert_eq!(m.compare.as_ref().unwrap().variants[2].name, "as written");
        let m = m.apply(Action::AddVariant).apply(Action::AddVariant);
        assert_eq!(m.drafts.len(), 4);
        let m = m
            .apply(Action::RemoveVariant(0))
            .apply(Action::RemoveVariant(0))
            .apply(Action::RemoveVariant(0));
        assert_eq!(m.drafts.len(), 2);
    }

    /// Plays on (past captions) until predict mode asks, or the run ends.
    fn until_asked(mut m: Rc<Model>) -> Rc<Model> {
        while m.asking.is_none() && m.pos < m.last() {
            m = play(m, 2000);
        }
        m
    }

    #[test]
    fn predict_mode_stops_before_a_sync_and_checks_the_answer() {
        let m = page("predict");
        assert!(m.predict && !m.questions.is_empty());
        let q = m.questions[0];
        // Playing stops before the first question, with the sizes as they stand.
        let m = until_asked(m);
        assert_eq!(m.asking, Some(q));
        assert_eq!(m.pos, q - 1);
        assert!(!m.playing);
        assert_eq!(m.guess.sizes, ["10"]);
        // Revealing without a branch asks for one; a digit picks one.
        let m = m.apply(Action::Reveal);
        assert!(m.notice.as_deref().unwrap().contains("Pick a branch"));
        assert_eq!(m.asking, Some(q));
        // A wrong answer: scale (4), sizes unchanged.
        let m = m.apply(Action::Digit(4)).apply(Action::Reveal);
        assert_eq!(m.revealed, Some(q));
        assert_eq!(m.pos, q);
        let v = &m.verdicts[&q];
        assert!(!v.branch_right && !v.right());
        // Continue: the next question, answered right this time.
        let m = until_asked(m);
        let q2 = m.asking.expect("the next question");
        assert!(q2 > q);
        let before = learn::before(&m.session, q2);
        let mut m = m.apply(Action::Digit(5));
        for (k, (name, _, _)) in before.iter().enumerate() {
            let after = m.session.trace[q2]
                .replica_sets
                .iter()
                .find(|r| r.name == *name)
                .map_or(0, |r| r.replicas);
            m = m.apply(Action::GuessSize(k, after.to_string()));
        }
        let created = m.session.trace[q2]
            .replica_sets
            .iter()
            .find(|r| !before.iter().any(|b| b.0 == r.name))
            .map(|r| r.replicas);
        if let Some(n) = created {
            m = m.apply(Action::GuessNewReplicaSet(n.to_string()));
        }
        let m = m.apply(Action::Reveal);
        assert!(m.verdicts[&q2].right(), "{:?}", m.verdicts[&q2]);
        // A bad size is refused naming it, and nothing is counted.
        let m = until_asked(m);
        let q3 = m.asking.expect("a third question");
        let m = m
            .apply(Action::Digit(5))
            .apply(Action::GuessSize(0, "lots".into()))
            .apply(Action::Reveal);
        assert!(
            m.notice
                .as_deref()
                .unwrap()
                .contains("\"lots\" is not a number"),
            "{:?}",
            m.notice
        );
        assert!(!m.verdicts.contains_key(&q3));
        // Seeking back closes the question; the answers stay until the run changes.
        let m = m.apply(Action::Seek(0));
        assert_eq!(m.asking, None);
        assert_eq!(m.verdicts.len(), 2);
        // Another example keeps predict mode on.
        let other = crate::scenario::gallery::GALLERY
            .iter()
            .find(|g| g.0 == "scale")
            .unwrap()
            .1;
        let n = m.clone().apply(Action::LoadGallery(3, other.to_string()));
        assert!(n.predict && !n.questions.is_empty() && n.verdicts.is_empty());
        let m = m.apply(Action::TogglePredict);
        assert!(!m.predict && m.questions.is_empty() && m.verdicts.is_empty());
    }
}
