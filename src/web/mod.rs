//! The browser playground: Yew function components over the deterministic core. The page holds
//! one [`state::Model`]; components render it and send [`state::Action`]s. All JS glue (the
//! animation loop, keyboard shortcuts, media queries) lives in [`bindings`]. The state and its
//! reducer compile on every target, so the page's rules are unit-tested natively; the
//! components, the bindings and the page are wasm32 only.

pub mod chart_geom;
pub mod state;

#[cfg(target_arch = "wasm32")]
pub mod bindings;
#[cfg(target_arch = "wasm32")]
pub mod branch;
#[cfg(target_arch = "wasm32")]
pub mod chart;
#[cfg(target_arch = "wasm32")]
pub mod cluster_view;
#[cfg(target_arch = "wasm32")]
pub mod code;
#[cfg(target_arch = "wasm32")]
pub mod compare;
#[cfg(target_arch = "wasm32")]
pub mod console;
#[cfg(target_arch = "wasm32")]
pub mod editor;
#[cfg(target_arch = "wasm32")]
pub mod embed;
#[cfg(target_arch = "wasm32")]
pub mod handles;
#[cfg(target_arch = "wasm32")]
pub mod inspector;
#[cfg(target_arch = "wasm32")]
pub mod learn;
#[cfg(target_arch = "wasm32")]
pub mod machinery;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
pub mod parts;
#[cfg(target_arch = "wasm32")]
pub mod pod_canvas;
#[cfg(target_arch = "wasm32")]
pub mod status;
#[cfg(target_arch = "wasm32")]
pub mod timeline;
#[cfg(target_arch = "wasm32")]
pub mod world;

#[cfg(target_arch = "wasm32")]
pub use page::*;
