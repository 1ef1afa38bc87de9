//! Playback: the step on screen, the playhead in virtual time, and how they move (play,
//! step, jump to the next change, seek), in one run or on a comparison's shared clock. A
//! caption holds playback until the reader continues; predict mode stops it before a
//! question ([`super::Model::ask_before`]).

use super::{Mode, Model, Remote};
use crate::scenario::embed::reading_ms;

pub const SPEEDS: [f64; 6] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0];

#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    /// The step the page shows.
    pub pos: usize,
    /// The playhead in virtual time (between steps while playing).
    pub vt_ms: f64,
    pub playing: bool,
    pub speed: f64,
    /// Playback stopped at a caption, for the reader to read and continue.
    pub held: bool,
    /// An autoplaying embed reads a caption out this long (real ms) before it plays on.
    pub hold_ms: f64,
}

impl Default for Playback {
    fn default() -> Playback {
        Playback {
            pos: 0,
            vt_ms: 0.0,
            playing: false,
            speed: 1.0,
            held: false,
            hold_ms: 0.0,
        }
    }
}

/// What the transport controls, the keys and the timeline ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum PlaybackAction {
    TogglePlay,
    Play,
    Pause,
    /// Real milliseconds elapsed since the last animation frame.
    Tick(f64),
    StepForward,
    StepBack,
    /// Jump to the next (previous) step that changes something one can see.
    NextChange,
    PreviousChange,
    Seek(usize),
    SeekTime(u64),
    SetSpeed(f64),
}

impl PlaybackAction {
    /// Going back or jumping closes a predict question (it is asked again when played up to).
    fn jumps(&self) -> bool {
        matches!(
            self,
            PlaybackAction::StepBack
                | PlaybackAction::PreviousChange
                | PlaybackAction::Seek(_)
                | PlaybackAction::SeekTime(_)
        )
    }
}

impl Model {
    /// A playback action; false when it changed nothing (a tick while paused), so that the
    /// page need not render.
    pub(super) fn playback(&mut self, a: PlaybackAction) -> bool {
        if a.jumps() {
            self.predict.close();
        }
        match a {
            PlaybackAction::Pause => self.play.playing = false,
            PlaybackAction::Seek(i) => self.reach(i),
            PlaybackAction::SeekTime(t) => {
                self.reach(self.session.step_at_time(t));
                self.play.vt_ms = t as f64;
            }
            PlaybackAction::SetSpeed(s) => self.play.speed = s,
            a if matches!(self.mode(), Mode::Compare(_)) => return self.playback_compared(a),
            a => return self.playback_one(a),
        }
        true
    }

    /// Playing and stepping through one run.
    fn playback_one(&mut self, a: PlaybackAction) -> bool {
        let last = self.last();
        match a {
            PlaybackAction::TogglePlay if self.play.playing => self.play.playing = false,
            PlaybackAction::TogglePlay | PlaybackAction::Play if self.predict.asking.is_some() => {
                self.reveal()
            }
            // Continue after the last caption ends there: only ▶ at the end starts over.
            PlaybackAction::Play if self.play.held && self.play.pos >= last => {
                self.play.held = false;
                self.play.playing = false;
            }
            PlaybackAction::TogglePlay | PlaybackAction::Play => {
                self.predict.revealed = None;
                self.play.playing = true;
                self.play.held = false;
                self.play.hold_ms = 0.0;
                if self.play.pos >= last {
                    self.seek(0);
                }
            }
            PlaybackAction::Tick(real_ms) => return self.tick(real_ms),
            PlaybackAction::StepForward if self.predict.asking.is_some() => self.reveal(),
            PlaybackAction::StepForward => {
                self.play.playing = false;
                self.predict.revealed = None;
                let to = (self.play.pos + 1).min(last);
                if !self.ask_before(to) {
                    self.reach(to);
                }
            }
            PlaybackAction::StepBack => {
                self.play.playing = false;
                self.seek(self.play.pos.saturating_sub(1));
            }
            PlaybackAction::NextChange => {
                self.play.playing = false;
                self.predict.revealed = None;
                let next = self.session.next_change(self.play.pos);
                let next = next.unwrap_or(last).min(last);
                if !self.ask_before(next) {
                    self.reach(next);
                }
            }
            PlaybackAction::PreviousChange => {
                self.play.playing = false;
                self.seek(self.session.previous_change(self.play.pos));
            }
            // Handled for every mode by `playback`.
            PlaybackAction::Pause
            | PlaybackAction::Seek(_)
            | PlaybackAction::SeekTime(_)
            | PlaybackAction::SetSpeed(_) => {}
        }
        true
    }

    /// A frame of playback, `real_ms` after the last: the playhead moves on in virtual time
    /// (at most 250 ms of it, so that a hidden tab does not jump the whole rollout), stopping
    /// at a caption (an autoplaying embed holds long enough to read it) or a question.
    fn tick(&mut self, real_ms: f64) -> bool {
        if !self.play.playing {
            return false;
        }
        if self.play.hold_ms > 0.0 {
            self.play.hold_ms -= real_ms;
            return true;
        }
        let last = self.last();
        self.play.vt_ms += real_ms.min(250.0) * self.play.speed;
        let to = self.session.step_at_time(self.play.vt_ms as u64);
        let to = to.max(self.play.pos).min(last);
        let trace = &self.session.trace;
        let captions = self.captions_on();
        let caption = (self.play.pos + 1..=to).find(|&i| captions && trace[i].caption().is_some());
        if self.ask_before(caption.unwrap_or(to)) {
            return true;
        }
        let vt = self.play.vt_ms;
        self.reach(caption.unwrap_or(to));
        // Between steps the playhead runs on in virtual time.
        self.play.vt_ms = vt;
        if let Some(c) = caption {
            let step = &self.session.trace[c];
            self.play.vt_ms = step.t as f64;
            if self.view.embed && self.view.autoplay {
                self.play.hold_ms = reading_ms(step.caption());
            } else {
                self.play.playing = false;
                self.play.held = true;
            }
        }
        let last_t = self.end_ms() as f64;
        if self.play.pos >= last && self.play.vt_ms >= last_t {
            self.play.pos = last;
            self.play.vt_ms = last_t;
            self.play.playing = false;
        }
        true
    }

    /// Playback on a comparison's shared clock: steps move to the next instant any variant
    /// has.
    fn playback_compared(&mut self, a: PlaybackAction) -> bool {
        let Mode::Compare(c) = self.mode() else {
            return false;
        };
        let c = c.clone();
        match a {
            PlaybackAction::TogglePlay if self.play.playing => self.play.playing = false,
            PlaybackAction::TogglePlay | PlaybackAction::Play => {
                self.play.playing = true;
                if self.play.vt_ms >= self.end_ms() as f64 {
                    self.seek_time(0.0);
                }
            }
            PlaybackAction::Tick(real_ms) => {
                if !self.play.playing {
                    return false;
                }
                let t = self.play.vt_ms + real_ms.min(250.0) * self.play.speed;
                self.seek_time(t);
                if t >= self.end_ms() as f64 {
                    self.play.playing = false;
                }
            }
            PlaybackAction::StepForward | PlaybackAction::NextChange => {
                self.play.playing = false;
                self.seek_time(c.next_instant(self.play.vt_ms as u64) as f64);
            }
            PlaybackAction::StepBack | PlaybackAction::PreviousChange => {
                self.play.playing = false;
                self.seek_time(c.previous_instant(self.play.vt_ms.ceil() as u64) as f64);
            }
            // Handled for every mode by `playback`.
            PlaybackAction::Pause
            | PlaybackAction::Seek(_)
            | PlaybackAction::SeekTime(_)
            | PlaybackAction::SetSpeed(_) => {}
        }
        true
    }

    /// The host page's remote control (an embed).
    pub(super) fn remote_playback(&mut self, r: &Remote) -> Option<PlaybackAction> {
        match r {
            Remote::Play => Some(PlaybackAction::Play),
            Remote::Pause => Some(PlaybackAction::Pause),
            Remote::Step => Some(PlaybackAction::StepForward),
            Remote::Seek(i) => {
                self.predict.close();
                self.play.playing = false;
                self.seek(*i);
                None
            }
            Remote::Load(_) | Remote::Theme(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn going_back_or_jumping_closes_a_question_and_playing_on_does_not() {
        assert!(PlaybackAction::Seek(3).jumps());
        assert!(PlaybackAction::StepBack.jumps());
        assert!(!PlaybackAction::StepForward.jumps());
        assert!(!PlaybackAction::Tick(16.0).jumps());
    }

    #[test]
    fn playback_starts_at_the_first_step_paused_at_normal_speed() {
        let p = Playback::default();
        assert_eq!((p.pos, p.playing, p.speed, p.held), (0, false, 1.0, false));
        assert!(SPEEDS.contains(&p.speed));
    }
}
