//! Predict mode's part of the page: the syncs it asks about, the answer being typed, and the
//! answers checked. Moving to a question and checking an answer need the run
//! ([`super::Model`]); what the reader types is this part's own.

use crate::controller::deployment::Branch;
use crate::scenario::learn::{self, Verdict};
use std::collections::BTreeMap;
use std::rc::Rc;

/// The reader's answer as it is being typed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Guess {
    pub branch: Option<Branch>,
    pub strategy: Option<crate::api::StrategyType>,
    /// Each ReplicaSet's new size as typed, in the order of [`learn::before`].
    pub sizes: Vec<String>,
    /// The size of a ReplicaSet the sync would create (empty: none).
    pub new_replica_set: String,
}

/// Predict mode: playback stops before each Deployment sync that changes something.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Predict {
    pub on: bool,
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

/// What the reader types into the question card.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The branch picked.
    Branch(Branch),
    /// A digit typed outside a field: picks the n-th branch (1–5, in `syncDeployment`'s
    /// order) while a question is open.
    Digit(usize),
    Strategy(crate::api::StrategyType),
    /// The k-th ReplicaSet's size, as typed.
    Size(usize, String),
    NewReplicaSet(String),
}

impl Predict {
    /// The answer as the reader types it.
    pub fn answer(&mut self, a: Answer) {
        let g = Rc::make_mut(&mut self.guess);
        match a {
            Answer::Branch(b) => g.branch = Some(b),
            Answer::Digit(n) => {
                if self.asking.is_some()
                    && let Some(b) = n.checked_sub(1).and_then(|k| learn::CHOICES.get(k))
                {
                    g.branch = Some(*b);
                }
            }
            Answer::Strategy(s) => g.strategy = Some(s),
            Answer::Size(k, text) => {
                if let Some(t) = g.sizes.get_mut(k) {
                    *t = text;
                }
            }
            Answer::NewReplicaSet(text) => g.new_replica_set = text,
        }
    }

    /// The questions of a run (none when predict mode is off); answers belong to the run they
    /// were given in.
    pub fn ask(&mut self, questions: Vec<usize>) {
        self.questions = Rc::new(if self.on { questions } else { vec![] });
        self.verdicts = Rc::new(BTreeMap::new());
        self.asking = None;
        self.revealed = None;
    }

    /// Going back or jumping closes a question (it is asked again when played up to).
    pub fn close(&mut self) {
        self.asking = None;
        self.revealed = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_pick_a_branch_only_while_a_question_is_open() {
        let mut p = Predict {
            on: true,
            ..Predict::default()
        };
        p.answer(Answer::Digit(2));
        assert_eq!(p.guess.branch, None, "no question open");
        p.asking = Some(7);
        p.answer(Answer::Digit(2));
        assert_eq!(p.guess.branch, Some(learn::CHOICES[1]));
        p.answer(Answer::Digit(9));
        assert_eq!(p.guess.branch, Some(learn::CHOICES[1]), "no ninth branch");
        p.guess = Rc::new(Guess {
            sizes: vec!["3".into(), "1".into()],
            ..Guess::default()
        });
        p.answer(Answer::Size(1, "2".into()));
        p.answer(Answer::Size(5, "9".into()));
        assert_eq!(
            p.guess.sizes,
            ["3", "2"],
            "a size past the ReplicaSets is ignored"
        );
        p.ask(vec![3, 9]);
        assert_eq!((p.asking, p.questions.len()), (None, 2));
        p.on = false;
        p.ask(vec![3, 9]);
        assert!(p.questions.is_empty(), "predict mode off asks nothing");
    }
}
