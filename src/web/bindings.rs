//! All JS glue in one place: the animation loop, keyboard shortcuts, the theme and media
//! queries, and small DOM helpers. Components call these; nothing else touches `web_sys`.

use super::handles::Dispatch;
use super::state::Action;
use super::state::EditorAction;
use super::state::Underway;
use super::state::{Answer, PlaybackAction};
use crate::scenario::embed::{ErrorMessage, Heard, hear};
use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{AnimationFrame, request_animation_frame};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

/// Whether a CSS media query matches now.
fn media(query: &str) -> bool {
    window()
        .match_media(query)
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

pub fn prefers_dark() -> bool {
    media("(prefers-color-scheme: dark)")
}

/// A phone-sized screen (the layout's one-column breakpoint).
pub fn narrow() -> bool {
    media("(max-width: 720px)")
}

/// Whether a CSS media query matches, kept current as it changes (a frame resized by its
/// host page, a phone turned).
#[hook]
pub fn use_media(query: &'static str) -> bool {
    let matches = use_state(|| media(query));
    {
        let matches = matches.clone();
        use_effect_with(query, move |q| {
            let list = window().match_media(q).ok().flatten();
            let listener = list.map(|list| {
                let l = list.clone();
                EventListener::new(&list, "change", move |_| matches.set(l.matches()))
            });
            move || drop(listener)
        });
    }
    *matches
}

/// Where a pointer is across an element, from 0 (its left edge) to 1.
pub fn fraction_x(el: &NodeRef, e: &MouseEvent) -> Option<f64> {
    let r = el.cast::<web_sys::Element>()?.get_bounding_client_rect();
    (r.width() > 0.0).then(|| (e.client_x() as f64 - r.left()) / r.width())
}

/// Keeps a drag's pointer events coming to the element it started on.
pub fn capture_pointer(el: &NodeRef, e: &PointerEvent) {
    if let Some(el) = el.cast::<web_sys::Element>() {
        let _ = el.set_pointer_capture(e.pointer_id());
    }
}

pub fn set_theme(dark: bool) {
    if let Some(root) = window().document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-theme", if dark { "dark" } else { "light" });
    }
}

/// A text file from beside the page (a relative URL, so the page works under any sub-path).
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let why = |e: JsValue| e.as_string().unwrap_or_else(|| "the request failed".into());
    let resp = wasm_bindgen_futures::JsFuture::from(window().fetch_with_str(url))
        .await
        .map_err(why)?;
    let resp: web_sys::Response = resp.dyn_into().map_err(why)?;
    if !resp.ok() {
        return Err(format!("HTTP {}", resp.status()));
    }
    let text = wasm_bindgen_futures::JsFuture::from(resp.text().map_err(why)?)
        .await
        .map_err(why)?;
    text.as_string()
        .ok_or_else(|| "the response is not text".into())
}

fn select_by_id(id: &str) -> Option<web_sys::HtmlSelectElement> {
    window()
        .document()?
        .get_element_by_id(id)?
        .dyn_into::<web_sys::HtmlSelectElement>()
        .ok()
}

/// Sets a `<select>`'s value (to show the choice in force again after one failed).
pub fn set_select_value(id: &str, value: &str) {
    if let Some(s) = select_by_id(id) {
        s.set_value(value);
    }
}

/// A `<select>`'s value now.
pub fn select_value_of(id: &str) -> String {
    select_by_id(id).map(|s| s.value()).unwrap_or_default()
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

/// Focuses an element once the render that adds it is done.
pub fn focus_later(id: &'static str) {
    gloo::timers::callback::Timeout::new(0, move || focus(id)).forget();
}

/// The reader's theme choice, remembered across visits (`None`: never chosen).
pub fn remembered_theme() -> Option<bool> {
    let v = window().local_storage().ok()??.get_item("theme").ok()??;
    Some(v == "dark")
}

pub fn remember_theme(dark: bool) {
    if let Ok(Some(s)) = window().local_storage() {
        let _ = s.set_item("theme", if dark { "dark" } else { "light" });
    }
}

/// The browser's own yes/no question (modal, keyboard- and screen-reader-ready).
pub fn confirm(question: &str) -> bool {
    window().confirm_with_message(question).unwrap_or(true)
}

/// The content's height in CSS pixels: the body's, which (unlike the root element's) is not
/// at least the frame's own height, so a host that follows it can shrink the frame too.
pub fn content_height() -> u32 {
    window()
        .document()
        .and_then(|d| d.body())
        .map_or(0, |e| e.scroll_height().max(0) as u32)
}

/// Removes the element with this id, if there is one.
pub fn remove_element(id: &str) {
    if let Some(el) = window().document().and_then(|d| d.get_element_by_id(id)) {
        el.remove();
    }
}

/// Keeps a scrollable element scrolled to its end (the console).
pub fn scroll_to_end(id: &str) {
    if let Some(el) = window().document().and_then(|d| d.get_element_by_id(id)) {
        el.set_scroll_top(el.scroll_height());
    }
}

/// Brings an element into view when it lies below the window's bottom (the console's prompt,
/// once the output above it has grown), and leaves the page where it is otherwise.
pub fn keep_in_view(id: &str) {
    let Some(el) = window().document().and_then(|d| d.get_element_by_id(id)) else {
        return;
    };
    let below = window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .is_some_and(|h| el.get_bounding_client_rect().bottom() > h);
    // Its section's end, with the section's padding below it.
    if below && let Ok(Some(section)) = el.closest("section") {
        section.scroll_into_view_with_bool(false);
    }
}

/// Real time a slice of a recording may take: the page paints and answers between two.
const SLICE_MS: f64 = 40.0;
/// Work ([`crate::cluster::Cluster::work`]) between two looks at the clock within a slice.
const SLICE_WORK: u64 = 300;

/// Real time between two reports of how far a recording has come (each re-renders the page,
/// which at 10 000 pods costs about as much as a slice).
const PROGRESS_MS: f64 = 250.0;

/// Takes a recording under way (`(id, recording)`) in slices of about [`SLICE_MS`], one per
/// task, so that the page keeps painting and answering; reports how far it has come every
/// [`PROGRESS_MS`] (`Recorded`) and when it is done (`RecordingDone`). A newer recording, or
/// none (cancelled), stops the slices of the one before.
#[hook]
pub fn use_recording(pending: Option<(u32, Rc<RefCell<Option<Underway>>>)>, dispatch: Dispatch) {
    let id = pending.as_ref().map(|p| p.0);
    use_effect_with(id, move |_| {
        let stop = Rc::new(std::cell::Cell::new(false));
        fn slice(
            id: u32,
            rec: Rc<RefCell<Option<Underway>>>,
            stop: Rc<std::cell::Cell<bool>>,
            dispatch: Dispatch,
            reported: f64,
        ) {
            gloo::timers::callback::Timeout::new(0, move || {
                if stop.get() {
                    return;
                }
                let Some(clock) = window().performance() else {
                    return;
                };
                let t0 = clock.now();
                let done = loop {
                    let mut r = rec.borrow_mut();
                    let Some(r) = r.as_mut() else {
                        return;
                    };
                    if r.go_on(Some(SLICE_WORK)) {
                        break true;
                    }
                    if clock.now() - t0 > SLICE_MS {
                        break false;
                    }
                };
                if done {
                    dispatch.dispatch(Action::RecordingDone(id));
                    return;
                }
                let mut reported = reported;
                if clock.now() - reported >= PROGRESS_MS {
                    reported = clock.now();
                    if let Some(p) = rec.borrow().as_ref().map(Underway::progress) {
                        dispatch.dispatch(Action::Recorded(id, p));
                    }
                }
                slice(id, rec, stop, dispatch, reported);
            })
            .forget();
        }
        if let Some((id, rec)) = pending {
            let now = window().performance().map_or(0.0, |p| p.now());
            slice(id, rec, stop.clone(), dispatch, now);
        }
        move || stop.set(true)
    });
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
                        dispatch.dispatch(Action::Playback(PlaybackAction::Tick(ts - prev)));
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
            let target = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            // A control that uses the key keeps it: fields take every key, and a button,
            // link or summary takes space (which presses it).
            let typing = target.as_ref().is_some_and(|el| {
                matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                    || el.get_attribute("contenteditable").is_some()
            });
            let pressable = target.as_ref().is_some_and(|el| {
                matches!(el.tag_name().as_str(), "BUTTON" | "A" | "SUMMARY")
                    || el.get_attribute("role").as_deref() == Some("button")
            });
            if typing || (pressable && e.key() == " ") {
                return;
            }
            // Esc closes the YAML viewer (and leaves Esc to whatever else it closes).
            if e.key() == "Escape" {
                dispatch.dispatch(Action::Select(None));
                return;
            }
            let action = match e.key().as_str() {
                " " => Some(Action::Playback(PlaybackAction::TogglePlay)),
                "ArrowRight" if e.shift_key() => Some(Action::Playback(PlaybackAction::NextChange)),
                "ArrowLeft" if e.shift_key() => {
                    Some(Action::Playback(PlaybackAction::PreviousChange))
                }
                "ArrowRight" => Some(Action::Playback(PlaybackAction::StepForward)),
                "ArrowLeft" => Some(Action::Playback(PlaybackAction::StepBack)),
                // Predict mode: a digit picks a branch, Enter reveals (the reducer ignores
                // both when no question is open).
                k @ ("1" | "2" | "3" | "4" | "5") => {
                    k.parse().ok().map(|n| Action::Answer(Answer::Digit(n)))
                }
                "Enter" if !pressable => Some(Action::Reveal),
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

/// The page's query string and fragment.
pub fn location() -> (String, String) {
    let l = window().location();
    (l.search().unwrap_or_default(), l.hash().unwrap_or_default())
}

/// The page's URL without query and fragment (where the full playground lives).
pub fn base_url() -> String {
    let l = window().location();
    format!(
        "{}{}",
        l.origin().unwrap_or_default(),
        l.pathname().unwrap_or_default()
    )
}

/// Puts a share fragment in the address bar without reloading or firing `hashchange`, and
/// remembers it for this tab as the last state that worked (`www/guard.js` offers it if the
/// wasm ever stops).
pub fn set_fragment(fragment: &str) {
    if let Ok(h) = window().history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&format!("#{fragment}")));
    }
    if let Ok(Some(s)) = window().session_storage() {
        let _ = s.set_item("rollout-last-good", fragment);
    }
}

/// Puts a share fragment in the address bar as a new entry of the tab's history (an example
/// opened), so that Back returns to the work before it.
pub fn push_fragment(fragment: &str) {
    if let Ok(h) = window().history() {
        let _ = h.push_state_with_url(&JsValue::NULL, "", Some(&format!("#{fragment}")));
    }
    if let Ok(Some(s)) = window().session_storage() {
        let _ = s.set_item("rollout-last-good", fragment);
    }
}

/// The work the tab keeps under `key` (its session storage: a reload keeps it, another tab
/// does not see it); what does not read as work is none.
pub fn kept_work(key: &str) -> Option<super::state::Work> {
    let text = window().session_storage().ok()??.get_item(key).ok()??;
    serde_json::from_str(&text).ok()
}

/// Keeps `value` under `key` for the tab; a full storage only means it is not kept.
pub fn keep(key: &str, value: &str) {
    if let Ok(Some(s)) = window().session_storage() {
        let _ = s.set_item(key, value);
    }
}

/// A panic stops the wasm (the page's build aborts on panic): its message is left where
/// `www/guard.js`, which shows the way back, reads it.
pub fn report_panics() {
    std::panic::set_hook(Box::new(|info| {
        let message = match info.payload().downcast_ref::<&str>() {
            Some(s) => s.to_string(),
            None => info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "an internal error".into()),
        };
        let at = info
            .location()
            .map(|l| format!(" ({}:{})", l.file(), l.line()))
            .unwrap_or_default();
        let text = JsValue::from_str(&format!("{message}{at}"));
        let _ = js_sys::Reflect::set(&window(), &JsValue::from_str("__rolloutPanic"), &text);
        web_sys::console::error_1(&text);
    }));
}

pub fn copy_to_clipboard(text: &str) {
    let _ = window().navigator().clipboard().write_text(text);
}

/// Opens a share link when the fragment changes (a pasted link, the back button).
#[hook]
pub fn use_hash_links(dispatch: Dispatch) {
    use_effect_with((), move |_| {
        let listener = EventListener::new(&window(), "hashchange", move |_| {
            let (_, hash) = location();
            if !hash.trim_start_matches('#').is_empty() {
                dispatch.dispatch(Action::OpenLink(hash));
            }
        });
        move || drop(listener)
    });
}

/// True when the page runs inside another page's iframe.
pub fn in_frame() -> bool {
    window()
        .parent()
        .ok()
        .flatten()
        .is_some_and(|p| !js_sys::Object::is(&p, &window()))
}

/// A value as JavaScript objects, as `JSON.parse` of its serde_json text would make them
/// (maps as plain objects, absent options as null).
pub fn to_js<T: serde::Serialize + ?Sized>(v: &T) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .expect("the core's types are JSON")
}

/// Sends a message to the embedding page (callers check [`in_frame`] first, so that a page
/// nobody embeds never builds the message).
pub fn post_to_parent<T: serde::Serialize>(msg: &T) {
    if let Ok(Some(parent)) = window().parent() {
        let _ = parent.post_message(&to_js(msg), "*");
    }
}

/// Whether a message came from the page that embeds this one: not from a window that opened
/// the playground, a sibling frame, a child, or any page when the playground is not framed.
fn from_parent(e: &web_sys::MessageEvent) -> bool {
    let Ok(Some(parent)) = window().parent() else {
        return false;
    };
    let framed = !js_sys::Object::is(&parent, &window());
    framed && e.source().is_some_and(|s| js_sys::Object::is(&s, &parent))
}

/// Keeps an iframe of this page (the Embed dialog's preview) as tall as the embed in it says
/// its content is, as the snippet's frame on a host page is kept: `height` messages from that
/// frame's window, and from no other, set its height.
#[hook]
pub fn use_frame_height(frame: NodeRef) {
    use_effect_with((), move |_| {
        let listener = EventListener::new(&window(), "message", move |e| {
            let Some(e) = e.dyn_ref::<web_sys::MessageEvent>() else {
                return;
            };
            let Some(el) = frame.cast::<web_sys::HtmlIFrameElement>() else {
                return;
            };
            let ours = match (el.content_window(), e.source()) {
                (Some(w), Some(src)) => JsValue::from(w) == JsValue::from(src),
                _ => false,
            };
            if !ours {
                return;
            }
            let Ok(data) = serde_wasm_bindgen::from_value::<serde_json::Value>(e.data()) else {
                return;
            };
            if let Some(h) = crate::scenario::embed::asked_height(&data) {
                let _ = el.style().set_property("height", &format!("{h}px"));
            }
        });
        move || drop(listener)
    });
}

/// Takes `play`, `pause`, `step`, `seek` and `load` from the embedding page, and from nobody
/// else. A command the API documents whose values do not make sense gets an `error` reply;
/// other messages are not commands and are ignored.
#[hook]
pub fn use_remote_commands(dispatch: Dispatch) {
    use_effect_with((), move |_| {
        let listener = EventListener::new(&window(), "message", move |e| {
            let Some(e) = e.dyn_ref::<web_sys::MessageEvent>() else {
                return;
            };
            if !from_parent(e) {
                return;
            }
            let Ok(data) = serde_wasm_bindgen::from_value::<serde_json::Value>(e.data()) else {
                return;
            };
            match hear(&data) {
                Heard::NotOurs => {}
                Heard::Refused(why) => post_to_parent(&ErrorMessage::of(&why)),
                Heard::Command(cmd) => dispatch.dispatch(Action::Remote(cmd)),
            }
        });
        move || drop(listener)
    });
}

/// Today's date, `YYYY-MM-DD` (UTC), off the browser's clock: the release picker marks the
/// releases whose patches have ended by then.
pub fn today() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    iso.get(..10).unwrap_or_default().to_string()
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The manifest editor's text box (`www/editor/editor.js`, CodeMirror 6: it lays out only
    /// the lines in view, where a `<textarea>` laid out every line of a pasted state).
    type CodeEditor;
    #[wasm_bindgen(catch, js_namespace = RolloutEditor, js_name = create)]
    fn create_code_editor(
        host: &web_sys::Element,
        text: &str,
        label: &str,
        changed: &wasm_bindgen::closure::Closure<dyn FnMut(String)>,
        apply: &wasm_bindgen::closure::Closure<dyn FnMut()>,
    ) -> Result<CodeEditor, JsValue>;
    #[wasm_bindgen(method)]
    fn set(this: &CodeEditor, text: &str);
    #[wasm_bindgen(method, js_name = setBad)]
    fn set_bad(this: &CodeEditor, lines: &[u32]);
    #[wasm_bindgen(method)]
    fn destroy(this: &CodeEditor);
}

/// The manifest's text box in `host`: `changed` hears each edit of the reader's, `apply` is
/// Ctrl+Enter. The text last heard from it is kept, so that the page's text is sent back only
/// when it is another (a quick control, Current spec), not after every keystroke.
pub struct TextBox {
    js: CodeEditor,
    heard: Rc<RefCell<String>>,
    _changed: wasm_bindgen::closure::Closure<dyn FnMut(String)>,
    _apply: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

impl TextBox {
    /// The text box, or why it could not be made (its script did not load).
    pub fn new(
        host: &web_sys::Element,
        text: &str,
        label: &str,
        changed: Callback<String>,
        apply: Callback<()>,
    ) -> Result<TextBox, String> {
        use wasm_bindgen::closure::Closure;
        let heard = Rc::new(RefCell::new(text.to_string()));
        let h = heard.clone();
        let changed = Closure::<dyn FnMut(String)>::new(move |t: String| {
            h.borrow_mut().clone_from(&t);
            changed.emit(t);
        });
        let apply = Closure::<dyn FnMut()>::new(move || apply.emit(()));
        let js = create_code_editor(host, text, label, &changed, &apply)
            .map_err(|e| format!("{e:?}"))?;
        Ok(TextBox {
            js,
            heard,
            _changed: changed,
            _apply: apply,
        })
    }

    /// Shows `text` and marks `bad` lines (1-based), each only when it changed.
    pub fn show(&self, text: &str, bad: &[u32]) {
        if *self.heard.borrow() != text {
            self.heard.borrow_mut().replace_range(.., text);
            self.js.set(text);
        }
        self.js.set_bad(bad);
    }
}

impl Drop for TextBox {
    fn drop(&mut self) {
        self.js.destroy();
    }
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// `window.RolloutCheck` (www/boot.js): the check of a text in the page's check worker
    /// (www/check-worker.js, this same wasm, instantiated there), a promise of its result.
    #[wasm_bindgen(catch, js_namespace = window, js_name = RolloutCheck)]
    fn check_in_worker(text: &str) -> Result<js_sys::Promise, JsValue>;
}

/// Checks the editor's `text` off the page's thread, and tells the editor (`Checked`) when the
/// check comes back: a pasted state of 500 KB takes the check longer than a frame may (121 ms
/// here), and typing goes on meanwhile. Where there is no worker (an embed, a failed start),
/// the editor checks it itself (`Check`).
pub fn check_text(text: String, on: Callback<EditorAction>) {
    let Ok(promise) = check_in_worker(&text) else {
        return on.emit(EditorAction::Check);
    };
    wasm_bindgen_futures::spawn_local(async move {
        let answer = wasm_bindgen_futures::JsFuture::from(promise).await;
        let checked = answer.ok().and_then(|v| v.as_string());
        let json = checked.and_then(|s| serde_json::from_str(&s).ok());
        match json.and_then(|v| crate::scenario::quick::Checked::from_json(&v)) {
            Some(c) => on.emit(EditorAction::Checked(text.into(), Rc::new(c))),
            None => on.emit(EditorAction::Check),
        }
    });
}
