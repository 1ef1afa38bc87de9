//! The browser playground's entry point: Trunk builds this binary for wasm32 (see
//! `index.html`); natively it only says how to serve the page.

#[cfg(target_arch = "wasm32")]
fn main() {
    rollout_playground::web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the playground runs in the browser: ./scripts/serve.sh builds and serves it");
    std::process::exit(2);
}
