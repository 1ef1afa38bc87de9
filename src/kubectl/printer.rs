//! What kubectl's printers share (k8s.io/kubectl/pkg/describe's `PrefixWriter` and tab
//! writer, the printers' age column and table settings, `-o` refused): every verb and every
//! kind's printer takes these from here, and this file takes nothing from its siblings.

use super::KubectlError;
use crate::api::time::human_duration;
use crate::api::*;
use crate::apiserver::events::Event;
use crate::cluster::Cluster;
use crate::controller::deployment::util as du;
use std::collections::BTreeMap;
use std::fmt::{Display, Write};

/// Text with tab-separated cells, aligned by a tab writer with Go's text/tabwriter settings
/// (a cell ends at a tab; a column is as wide as its widest cell in a run of lines that have
/// it plus `padding`, and at least `minwidth` with the padding; a line's text after its last
/// tab is no cell).
pub fn aligned(text: &str, minwidth: usize, padding: usize) -> String {
    use std::io::Write as _;
    // The crate's minimum width leaves the padding out; Go's counts it in.
    let mut tw = tabwriter::TabWriter::new(Vec::new())
        .minwidth(minwidth.saturating_sub(padding))
        .padding(padding);
    tw.write_all(text.as_bytes())
        .expect("writing to memory does not fail");
    let bytes = tw.into_inner().expect("flushing to memory does not fail");
    String::from_utf8(bytes).expect("UTF-8 in, UTF-8 out")
}

/// kubectl's describe writer: lines at indent levels, aligned on `flush` (and at the end).
#[derive(Default)]
pub(super) struct Describe {
    done: String,
    pending: String,
}

impl Describe {
    /// `PrefixWriter.Write(level, …)`.
    pub(super) fn w(&mut self, level: usize, text: impl Display) {
        for _ in 0..level {
            self.pending.push_str("  ");
        }
        let _ = write!(self.pending, "{text}");
    }

    /// Aligns what was written so far on its own (`DescribeEvents` flushes before its table).
    pub(super) fn flush(&mut self) {
        self.done.push_str(&aligned(&self.pending, 0, 2));
        self.pending.clear();
    }

    /// What was written, its cells tab-separated and not aligned.
    pub(super) fn unaligned(self) -> String {
        self.done + &self.pending
    }

    pub(super) fn finish(mut self) -> String {
        self.flush();
        self.done.trim_end().to_string()
    }

    /// `printLabelsMultiline`: the first pair beside the title, the others under it.
    pub(super) fn pairs<'a>(
        &mut self,
        title: &str,
        pairs: impl Iterator<Item = (&'a str, &'a str)>,
        sep: &str,
    ) {
        self.w(0, format_args!("{title}:\t"));
        let mut none = true;
        for (i, (k, v)) in pairs.enumerate() {
            if i > 0 {
                self.w(0, "\t");
            }
            self.w(0, format_args!("{k}{sep}{v}\n"));
            none = false;
        }
        if none {
            self.w(0, "<none>\n");
        }
    }

    pub(super) fn labels(&mut self, title: &str, labels: &Labels) {
        self.pairs(
            title,
            labels.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            "=",
        );
    }

    /// `printAnnotationsMultiline`: sorted, kubectl's last-applied copy left out; a value
    /// that is long (a line over 140 characters with its key) or has several lines goes under
    /// its key, each line cut at 138 characters with `...`.
    pub(super) fn annotations(&mut self, title: &str, annotations: &BTreeMap<String, String>) {
        const MAX: usize = 140;
        self.w(0, format_args!("{title}:\t"));
        let shown: Vec<(&String, &String)> = annotations
            .iter()
            .filter(|(k, _)| k.as_str() != LAST_APPLIED_ANNOTATION)
            .collect();
        if shown.is_empty() {
            self.w(0, "<none>\n");
            return;
        }
        for (i, (key, value)) in shown.into_iter().enumerate() {
            if i > 0 {
                self.w(0, "\t");
            }
            let value = value.strip_suffix('\n').unwrap_or(value);
            if value.len() + key.len() + 2 > MAX || value.contains('\n') {
                self.w(0, format_args!("{key}:\n"));
                for line in value.split('\n') {
                    self.w(0, format_args!("\t  {}\n", shorten(line, MAX - 2)));
                }
            } else {
                self.w(0, format_args!("{key}: {value}\n"));
            }
        }
    }

    /// `DescribeEvents`: its own aligned table, the latest last.
    pub(super) fn events(&mut self, c: &Cluster, mut events: Vec<Event>) {
        if events.is_empty() {
            self.w(0, "Events:\t<none>\n");
            return;
        }
        self.flush();
        crate::apiserver::events::latest_last(&mut events);
        self.w(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
        self.w(1, "----\t------\t----\t----\t-------\n");
        let ago = |ms: i64| human_duration(c.now_ms() as i64 - ms);
        for e in events {
            let age = if e.count > 1 {
                format!("{} (x{} over {})", ago(e.last_ms), e.count, ago(e.first_ms))
            } else {
                ago(e.first_ms)
            };
            self.w(
                1,
                format_args!(
                    "{}\t{}\t{age}\t{}\t{}\n",
                    e.type_,
                    e.reason,
                    e.source,
                    e.message.trim()
                ),
            );
        }
    }
}

/// kubectl's `shorten`: at most `max` bytes, then `...`.
fn shorten(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

pub(super) fn age(c: &Cluster, m: &ObjectMeta) -> String {
    m.creation_timestamp.map_or_else(
        || "<unknown>".to_string(),
        |t| crate::api::table::since(t, c.now()),
    )
}

/// Rows as `kubectl get` prints them: its tab writer's settings (at least 6 wide, 3 spaces
/// of padding).
pub(super) fn table(rows: Vec<Vec<String>>) -> String {
    let text: Vec<String> = rows.iter().map(|r| r.join("\t")).collect();
    aligned(&text.join("\n"), 6, 3)
}

/// kubectl's refusal of an output format it has no printer for (the formats the playground
/// prints).
pub(super) fn unknown_output(o: &str, allowed: &str) -> KubectlError {
    KubectlError::Go(format!(
        "unable to match a printer suitable for the output format \"{o}\", allowed formats are: {allowed}"
    ))
}

/// The ReplicaSets a Deployment owns, by revision (`rollout history`, `describe`).
pub(super) fn owned_replica_sets<'a>(c: &'a Cluster, d: &Deployment) -> Vec<&'a ReplicaSet> {
    let mut v: Vec<&ReplicaSet> = c
        .store
        .dependents_of(&d.metadata.uid)
        .filter_map(|o| {
            if let Object::ReplicaSet(r) = o {
                Some(&**r)
            } else {
                None
            }
        })
        .collect();
    du::sort_by_revision(&mut v);
    v
}
