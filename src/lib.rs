//! # Rollout Playground core
//!
//! The Kubernetes Deployment controller re-implemented faithfully in Rust, with the simulated
//! cluster it runs in. Start reading at [`controller::deployment`] (`sync_deployment`, the
//! ladder **delete > pause > rollback > scale > rollout**), then [`cluster`] (the store,
//! informers, queues and the virtual clock) and [`scenario`] (scenario files, kubectl, traces).
//! `ARCHITECTURE.md` maps every module to its upstream file.
//!
//! **Invariant:** the core never reads the wall clock and never draws randomness: the same
//! scenario yields the same trace, natively and in wasm.

pub mod api;
pub mod apiserver;
pub mod cluster;
pub mod conformance;
pub mod controller;
pub mod kubectl;
pub mod scenario;

/// The browser playground (Yew): its state and reducer on every target, the rest wasm32 only.
pub mod web;
