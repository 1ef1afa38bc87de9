//! World controls: pod timings, nodes, and images that fail to pull or crash. Changing one
//! re-runs the scenario in the new world.

use super::bindings;
use crate::cluster::kubelet::World;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub world: World,
    /// The world settings as the reader changed them.
    pub on_world: Callback<World>,
}

fn list(v: &[String]) -> String {
    v.join(", ")
}

fn parse_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

#[function_component(WorldPanel)]
pub fn world_panel(props: &Props) -> Html {
    let number = |label: &'static str, value: u64, set: fn(&mut World, u64)| {
        let w = props.world.clone();
        let d = props.on_world.clone();
        let onchange = Callback::from(move |e: Event| {
            if let Ok(v) = bindings::select_value(&e).trim().parse::<u64>() {
                let mut w = w.clone();
                set(&mut w, v);
                d.emit(w);
            }
        });
        html! {
            <label><span>{ label }</span><input type="number" min="0" value={value.to_string()} aria-label={label} {onchange} /></label>
        }
    };
    let list_field = |label: &'static str,
                      example: &'static str,
                      value: &[String],
                      set: fn(&mut World, Vec<String>)| {
        let w = props.world.clone();
        let d = props.on_world.clone();
        let onchange = Callback::from(move |e: Event| {
            let mut w = w.clone();
            set(&mut w, parse_list(&bindings::select_value(&e)));
            d.emit(w);
        });
        html! {
            <label class="wide"><span>{ label }</span><input type="text" placeholder={example} value={list(value)} aria-label={label} {onchange} /></label>
        }
    };
    const IMAGES: &str = "e.g. nginx:bad, *:broken";
    let w = &props.world;
    html! {
        <details class="world">
            <summary>{"World: pod timings, nodes, broken images"}</summary>
            <div class="world-grid">
                { number("schedule (ms)", w.schedule_ms, |w, v| w.schedule_ms = v) }
                { number("container start (ms)", w.start_ms, |w, v| w.start_ms = v) }
                { number("ready after start (ms)", w.ready_ms, |w, v| w.ready_ms = v) }
                { number("termination (ms)", w.termination_ms, |w, v| w.termination_ms = v) }
                { number("nodes", w.nodes as u64, |w, v| w.nodes = v.clamp(1, 100) as u32) }
                { list_field("images that fail to pull", IMAGES, &w.failing_images, |w, v| w.failing_images = v) }
                { list_field("images that crash", IMAGES, &w.crashing_images, |w, v| w.crashing_images = v) }
                { list_field("images whose readiness probe fails", IMAGES, &w.unready_images, |w, v| w.unready_images = v) }
                { list_field("nodes whose kubelet is down (Node objects)", "e.g. node-2", &w.nodes_down, |w, v| w.nodes_down = v) }
            </div>
        </details>
    }
}
