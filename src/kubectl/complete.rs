//! The console's Tab: completes a line's last word as kubectl's shell completion would.

use super::command::NAMESPACE;
use super::resource::Resource;
use super::verbs::VERBS;

/// What completion offers at a step: the names of the Deployment (first) and its
/// ReplicaSets, the pods', the namespaces', the nodes', and those of the scenario's other
/// objects by kind (disruption budgets, Services, EndpointSlices).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Names {
    pub objects: Vec<String>,
    pub pods: Vec<String>,
    pub namespaces: Vec<String>,
    pub nodes: Vec<String>,
    pub others: Vec<(crate::api::Kind, String)>,
}

/// The names of one resource's objects at a step.
fn names_of(r: Resource, all: &Names) -> Vec<String> {
    match r {
        Resource::Pod => all.pods.clone(),
        Resource::Deployment => all.objects.iter().take(1).cloned().collect(),
        Resource::ReplicaSet => all.objects.iter().skip(1).cloned().collect(),
        Resource::Node => all.nodes.clone(),
        r => all
            .others
            .iter()
            .filter(|(k, _)| *k == r.row().kind)
            .map(|(_, n)| n.clone())
            .collect(),
    }
}

/// Completes the last word of a console line, as kubectl's shell completion would: verbs,
/// subcommands, flags (the verb's table row's), resource names and `RESOURCE/NAME`s,
/// namespaces after `-n`/`--namespace`.
/// Returns the line with the candidates' common prefix filled in (and a space after a single
/// candidate), and the candidates.
pub fn complete(input: &str, all: &Names) -> (String, Vec<String>) {
    let (names, pods) = (&all.objects[..], &all.pods[..]);
    let words: Vec<&str> = input.split(' ').collect();
    let last = *words.last().unwrap_or(&"");
    let after_namespace_flag =
        words.len() >= 2 && matches!(words[words.len() - 2], "-n" | "--namespace");
    let lead: Vec<&str> = words[..words.len() - 1]
        .iter()
        .copied()
        .filter(|w| *w != "kubectl" && *w != "k" && !w.is_empty())
        .collect();
    let verb = lead
        .first()
        .and_then(|v| VERBS.iter().find(|x| x.name == *v));
    let sub_of = |verb: &str| VERBS.iter().find(|v| v.name == verb).map(|v| v.subcommands);
    let mut pool: Vec<String> = match (lead.len(), lead.first().and_then(|v| sub_of(v))) {
        _ if after_namespace_flag => all.namespaces.clone(),
        // A flag: the ones its subcommand (or verb) takes, by long name and shorthand.
        _ if last.starts_with('-') && verb.is_some() => {
            let verb = verb.expect("just checked");
            let own = lead.get(1).and_then(|s| verb.sub(s));
            let flags = own.map_or(verb.flags, |s| s.flags);
            let mut v: Vec<String> = vec![];
            for f in flags.iter().chain([&NAMESPACE]) {
                v.push(format!("--{}", f.long));
                v.extend(f.short.map(|c| format!("-{c}")));
            }
            v
        }
        (0, _) => VERBS.iter().map(|v| v.name.to_string()).collect(),
        (1, Some(subs)) if !subs.is_empty() => subs.iter().map(|s| s.name.to_string()).collect(),
        _ => match last.split_once('/') {
            Some((r, _)) => {
                let of = Resource::parse(r).map_or_else(Vec::new, |r| names_of(r, all));
                of.into_iter().map(|n| format!("{r}/{n}")).collect()
            }
            None => {
                let mut v: Vec<String> = super::resource::KINDS
                    .iter()
                    .flat_map(|r| r.names)
                    .filter(|n| !n.contains('.'))
                    .map(|n| n.to_string())
                    .collect();
                v.extend(names.iter().take(1).map(|n| format!("deployment/{n}")));
                v.extend(names.iter().cloned());
                v.extend(pods.iter().cloned());
                v
            }
        },
    };
    crate::api::sort::sort(&mut pool);
    pool.dedup();
    let hits: Vec<String> = pool.into_iter().filter(|c| c.starts_with(last)).collect();
    let mut common = hits.first().cloned().unwrap_or_default();
    for h in &hits {
        while !h.starts_with(&common) {
            common.pop();
        }
    }
    let mut line = words[..words.len() - 1].join(" ");
    if !line.is_empty() {
        line.push(' ');
    }
    if hits.len() == 1 {
        line.push_str(&hits[0]);
        line.push(' ');
    } else if common.len() > last.len() {
        line.push_str(&common);
    } else {
        line.push_str(last);
    }
    (line, hits)
}
