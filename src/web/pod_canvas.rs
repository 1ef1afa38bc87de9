//! A big ReplicaSet's pods on one canvas (wasm32 only): past [`CANVAS_PODS`] pods the cluster
//! view draws each ReplicaSet's pods as squares on a canvas instead of one button per pod, so
//! that 10 000 pods are one element, not 10 000, and the view still fits the screen: the
//! squares shrink as the pods grow in number. The colours are the legend's (the theme's CSS
//! variables); a click selects the pod under it; the per-state counts are written out beside
//! it, for keyboard and screen-reader users too.

use super::state::Selected;
use crate::cluster::trace::{PodState, PodView};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Above this many pods in the focus Deployment, ReplicaSets draw theirs on a canvas.
pub const CANVAS_PODS: usize = 400;

/// The tallest a ReplicaSet's canvas grows (CSS pixels) before its squares shrink.
const MAX_HEIGHT: f64 = 140.0;

#[derive(Properties)]
pub struct Props {
    pub pods: Rc<Vec<Rc<PodView>>>,
    pub selected: Option<String>,
    /// A pod picked, for its YAML.
    pub on_select: Callback<Option<Selected>>,
}

impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.pods, &other.pods) && self.selected == other.selected
    }
}

/// The CSS variable of a state's colour (the legend's).
fn colour_var(s: PodState) -> &'static str {
    match s {
        PodState::Pending => "--pending",
        PodState::ContainerCreating => "--creating",
        PodState::Running => "--running",
        PodState::Ready => "--ready",
        PodState::Available => "--available",
        PodState::Terminating => "--terminating",
        PodState::ErrImagePull | PodState::ImagePullBackOff => "--pullerr",
        PodState::CrashLoopBackOff => "--crash",
    }
}

/// Square side and columns for `n` pods in `width` pixels.
fn grid(n: usize, width: f64) -> (f64, usize) {
    let n = n.max(1) as f64;
    let side = (width * MAX_HEIGHT / n).sqrt().floor().clamp(3.0, 14.0);
    let cols = (width / side).floor().max(1.0) as usize;
    (side, cols)
}

/// The pods' states counted, as words: `9 990 available, 10 terminating`.
pub fn counts_text(pods: &[Rc<PodView>]) -> String {
    let mut out = vec![];
    for s in PodState::ALL {
        let n = pods.iter().filter(|p| p.state == s).count();
        if n > 0 {
            out.push(format!("{n} {}", s.as_str()));
        }
    }
    if out.is_empty() {
        "no pods".into()
    } else {
        out.join(", ")
    }
}

#[function_component(PodCanvas)]
pub fn pod_canvas(props: &Props) -> Html {
    let canvas = use_node_ref();
    {
        let (canvas, pods, selected) = (canvas.clone(), props.pods.clone(), props.selected.clone());
        use_effect_with((Rc::as_ptr(&pods) as usize, selected.clone()), move |_| {
            draw(&canvas, &pods, selected.as_deref());
        });
    }
    let onclick = {
        let (canvas, pods, d) = (canvas.clone(), props.pods.clone(), props.on_select.clone());
        Callback::from(move |e: MouseEvent| {
            let Some(el) = canvas.cast::<web_sys::HtmlCanvasElement>() else {
                return;
            };
            let (side, cols) = grid(pods.len(), el.client_width() as f64);
            let (x, y) = (e.offset_x() as f64, e.offset_y() as f64);
            let i = (y / side).floor() as usize * cols + (x / side).floor() as usize;
            if (x / side) < cols as f64
                && let Some(p) = pods.get(i)
            {
                d.emit(Some(Selected::Pod(p.name.clone())));
            }
        })
    };
    let counts = counts_text(&props.pods);
    html! {
        <div class="pod-canvas">
            <canvas ref={canvas} role="img" aria-label={format!("{} pods: {counts}", props.pods.len())} {onclick}></canvas>
            <p class="pod-counts">{ counts }</p>
        </div>
    }
}

fn draw(canvas: &NodeRef, pods: &[Rc<PodView>], selected: Option<&str>) {
    let Some(el) = canvas.cast::<web_sys::HtmlCanvasElement>() else {
        return;
    };
    let width = el.client_width().max(1) as f64;
    let (side, cols) = grid(pods.len(), width);
    let rows = pods.len().div_ceil(cols).max(1);
    let height = rows as f64 * side;
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    el.set_width((width * ratio) as u32);
    el.set_height((height * ratio) as u32);
    let _ = el.style().set_property("height", &format!("{height}px"));
    let Some(cx) = el
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let _ = cx.scale(ratio, ratio);
    let style = web_sys::window().and_then(|w| w.get_computed_style(&el).ok().flatten());
    let colour = |s: PodState| {
        style
            .as_ref()
            .and_then(|st| st.get_property_value(colour_var(s)).ok())
            .unwrap_or_else(|| "#888".into())
    };
    let colours: Vec<(PodState, String)> = PodState::ALL.iter().map(|s| (*s, colour(*s))).collect();
    let gap = if side >= 6.0 { 1.0 } else { 0.0 };
    for (i, p) in pods.iter().enumerate() {
        let (x, y) = ((i % cols) as f64 * side, (i / cols) as f64 * side);
        let c = colours
            .iter()
            .find(|(s, _)| *s == p.state)
            .map_or("#888", |(_, c)| c.as_str());
        cx.set_fill_style_str(c.trim());
        cx.fill_rect(x, y, side - gap, side - gap);
        if selected == Some(p.name.as_str()) {
            cx.set_stroke_style_str("#000");
            cx.stroke_rect(x + 0.5, y + 0.5, side - gap - 1.0, side - gap - 1.0);
        }
    }
}
