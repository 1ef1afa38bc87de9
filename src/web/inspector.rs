//! The inspector: the YAML of the pod or ReplicaSet the reader clicked, as it stood at the
//! current step (rebuilt by replaying the deterministic core to that step), and "delete pod".

use super::handles::Run;
use super::state::Selected;
use crate::api::Kind;
use crate::api::yaml::to_yaml;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub run: Run,
    pub pos: usize,
    pub selected: Option<Selected>,
    /// While playing, the YAML is not rebuilt at every step (each rebuild is a replay).
    pub playing: bool,
    /// A read-only page shows the YAML but offers no "Delete pod".
    pub readonly: bool,
    /// Close the viewer (`None`).
    pub on_select: Callback<Option<Selected>>,
    /// "Delete pod": the command it types.
    pub on_command: Callback<String>,
}

#[function_component(Inspector)]
pub fn inspector(props: &Props) -> Html {
    let yaml = {
        let deps = (
            props.run.clone(),
            props.pos,
            props.selected.clone(),
            props.playing,
        );
        use_memo(deps, |(run, pos, sel, playing)| {
            if *playing {
                return Some("# pause to see this object as it stands at the current step".into());
            }
            let sel = sel.as_ref()?;
            let c = run.0.cluster_at(*pos).ok()?;
            let (kind, name) = match sel {
                Selected::Pod(n) => (Kind::Pod, n),
                Selected::ReplicaSet(n) => (Kind::ReplicaSet, n),
            };
            // The pods and ReplicaSets shown are the followed Deployment's, in its namespace.
            let ns = run
                .0
                .focus
                .as_deref()
                .and_then(|f| f.split_once('/'))
                .map_or("default", |(ns, _)| ns);
            Some(match c.store.get(kind, &format!("{ns}/{name}")) {
                Some(o) => to_yaml(&o.clone()),
                None => format!("# {name} does not exist at this step"),
            })
        })
    };
    let Some(sel) = props.selected.clone() else {
        return html! {};
    };
    let (what, name) = match &sel {
        Selected::Pod(n) => ("pod", n.clone()),
        Selected::ReplicaSet(n) => ("replicaset", n.clone()),
    };
    let close = {
        let d = props.on_select.clone();
        move |_| d.emit(None)
    };
    let delete = (matches!(sel, Selected::Pod(_)) && !props.readonly).then(|| {
        let (d, close) = (props.on_command.clone(), props.on_select.clone());
        let n = name.clone();
        let ns = match props.run.0.focus.as_deref().and_then(|f| f.split_once('/')) {
            Some((ns, _)) if ns != "default" => format!(" -n {ns}"),
            _ => String::new(),
        };
        html! { <button class="danger" aria-label={format!("Delete pod {n}")}
            onclick={move |_| { d.emit(format!("kubectl delete pod {n}{ns}")); close.emit(None); }}>{"Delete pod"}</button> }
    });
    html! {
        <section class="inspector" aria-label={format!("{what} {name}")}>
            <div class="inspector-head">
                <h2>{ format!("{what}/{name}") }</h2>
                { delete.unwrap_or_default() }
                <button aria-label="Close" onclick={close}>{"×"}</button>
            </div>
            <pre class="yaml" tabindex="0">{ (*yaml).clone().unwrap_or_default() }</pre>
        </section>
    }
}
