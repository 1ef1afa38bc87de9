//! All JS glue in one place: the animation loop, keyboard shortcuts, the theme and media
//! queries, and small DOM helpers. Components call these; nothing else touches `web_sys`.

use super::Dispatch;
use super::state::Action;
use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{AnimationFrame, request_animation_frame};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

pub fn prefers_dark() -> bool {
    window()
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

pub fn set_theme(dark: bool) {
    if let Some(root) = window().document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-theme", if dark { "dark" } else { "light" });
    }
}

/// The value of the `<select>` or `<input>` an event came from.
pub fn select_value(e: &Event) -> String {
    let Some(t) = e.target() else {
        return String::new();
    };
    if let Some(s) = t.dyn_ref::<web_sys::HtmlSelectElement>() {
        return s.value();
    }
    if let Some(i) = t.dyn_ref::<web_sys::HtmlInputElement>() {
        if i.type_() == "checkbox" {
            return i.checked().to_string();
        }
        return i.value();
    }
    if let Some(a) = t.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        return a.value();
    }
    String::new()
}

pub fn focus(id: &str) {
    if let Some(el) = window()
        .document()
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// Keeps a scrollable element scrolled to its end (the console).
pub fn scroll_to_end(id: &str) {
    if let Some(el) = window().document().and_then(|d| d.get_element_by_id(id)) {
        el.set_scroll_top(el.scroll_height());
    }
}

/// While `playing`, dispatches `Tick(real ms since the previous frame)` on every animation frame.
#[hook]
pub fn use_animation_loop(playing: bool, dispatch: Dispatch) {
    use_effect_with(playing, move |playing| {
        let handle: Rc<RefCell<Option<AnimationFrame>>> = Rc::new(RefCell::new(None));
        if *playing {
            fn schedule(
                handle: Rc<RefCell<Option<AnimationFrame>>>,
                dispatch: Dispatch,
                last: Option<f64>,
            ) {
                let h = handle.clone();
                let frame = request_animation_frame(move |ts| {
                    if let Some(prev) = last {
                        dispatch.dispatch(Action::Tick(ts - prev));
                    }
                    schedule(h, dispatch, Some(ts));
                });
                *handle.borrow_mut() = Some(frame);
            }
            schedule(handle.clone(), dispatch, None);
        }
        move || {
            handle.borrow_mut().take();
        }
    });
}

/// Space plays and pauses, → steps, ← steps back, `/` goes to the console, unless the reader
/// is typing in a field.
#[hook]
pub fn use_shortcuts(dispatch: Dispatch) {
    use_effect_with((), move |_| {
        let doc = window().document().expect("a document");
        let options = EventListenerOptions::enable_prevent_default();
        let listener = EventListener::new_with_options(&doc, "keydown", options, move |e| {
            let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                return;
            };
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let typing = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| {
                    matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                        || el.get_attribute("contenteditable").is_some()
                });
            if typing {
                return;
            }
            let action = match e.key().as_str() {
                " " => Some(Action::TogglePlay),
                "ArrowRight" => Some(Action::StepForward),
                "ArrowLeft" => Some(Action::StepBack),
                "/" => {
                    focus("console-input");
                    e.prevent_default();
                    None
                }
                _ => None,
            };
            if let Some(a) = action {
                e.prevent_default();
                dispatch.dispatch(a);
            }
        });
        move || drop(listener)
    });
}
