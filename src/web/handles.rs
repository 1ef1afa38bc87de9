//! What the page's components are handed (wasm32 only): the recorded run, compared by identity,
//! and the callbacks that turn a component's own events into the page's actions. It sits below
//! every component, so none of them imports the root component (`page.rs`).

use super::state::{Action, Model, PlaybackAction};
use crate::scenario::session::Session;
use std::rc::Rc;
use yew::prelude::*;

/// A shared recorded run, compared by identity (a new run is a new `Rc`).
#[derive(Clone)]
pub struct Run(pub Rc<Session>);

impl PartialEq for Run {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

pub type Dispatch = UseReducerDispatcher<Model>;

/// The callback a component is given for what it asks: each part's actions reach the page as
/// the action `to` makes of them (a component never holds the whole dispatcher).
pub fn sends<T: 'static>(dispatch: &Dispatch, to: fn(T) -> Action) -> Callback<T> {
    let d = dispatch.clone();
    Callback::from(move |x| d.dispatch(to(x)))
}

/// The callback of a view that moves to a step.
pub fn seek(dispatch: &Dispatch) -> Callback<usize> {
    sends(dispatch, |i| Action::Playback(PlaybackAction::Seek(i)))
}
