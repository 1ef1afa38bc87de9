//! How many objects and pods a text holds, counted from libyaml's events before anything is
//! read into values. A pasted cluster state is read whole (every item a value, then a typed
//! object) before the run can count what is in its store, so 200 001 pods cost gigabytes and
//! a minute before the budget could refuse them; counted here, the refusal comes from one pass
//! over the text that allocates only its keys.
//!
//! What counts is what the readers of a text would create: a document that is an object (one,
//! a pod if its `kind` is `Pod`), a `List` (each of its `items`), and a scenario file's
//! `objects` written as mappings, each of them one or a `List` (one written as text is counted
//! where it is read, as the text it is). Nested objects (a pod template, an owner
//! reference) are not objects of their own, and are not counted.

use super::aliases::{ALIAS_VALUES, Events, Kind, Text, TooManyAliases};
use std::collections::BTreeMap;

/// What a text would put in the store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    pub objects: u64,
    pub pods: u64,
}

/// What a sequence or mapping is to the count.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A mapping that may be an object or a `List`; the document's own (`root`) may also be a
    /// scenario, with `objects`.
    Candidate {
        root: bool,
    },
    /// A scenario's `objects`: each mapping a candidate.
    Objects,
    /// A candidate's `items`: each mapping an item.
    Items,
    /// One of a `List`'s items.
    Item,
    Other,
}

/// The scalars the count reads: the keys it follows, and the kinds it tells apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    /// No scalar (a key not read yet, a node as a value, an empty kind).
    None,
    Kind,
    Items,
    Objects,
    Pod,
    /// A kind that ends in `List`.
    List,
    Other,
}

impl Word {
    fn of(scalar: Option<&[u8]>) -> Word {
        match scalar {
            None | Some(b"") => Word::None,
            Some(b"kind") => Word::Kind,
            Some(b"items") => Word::Items,
            Some(b"objects") => Word::Objects,
            Some(b"Pod") => Word::Pod,
            Some(s) if s.ends_with(b"List") => Word::List,
            Some(_) => Word::Other,
        }
    }
}

struct Frame {
    role: Role,
    mapping: bool,
    /// In a mapping: whether the next node is a key, and the key of the value being read.
    want_key: bool,
    key: Word,
    /// A candidate's or an item's kind.
    kind: Word,
    /// A candidate's (or its `items` sequence's) items and pods among them.
    items: Census,
    /// For the alias count ([`super::aliases`]): the node's anchor, and the values it holds
    /// so far (itself included).
    anchor: Option<Vec<u8>>,
    values: u64,
}

impl Frame {
    fn new(role: Role, mapping: bool, anchor: Option<Vec<u8>>) -> Frame {
        Frame {
            role,
            mapping,
            want_key: true,
            key: Word::None,
            kind: Word::None,
            items: Census::default(),
            anchor,
            values: 1,
        }
    }

    /// The role of a node that starts inside this one.
    fn child(&self, mapping: bool) -> Role {
        let key = self.key;
        match (self.role, mapping) {
            _ if self.mapping && self.want_key => Role::Other,
            (Role::Candidate { .. }, false) if key == Word::Items => Role::Items,
            (Role::Candidate { root: true }, false) if key == Word::Objects => Role::Objects,
            (Role::Objects, true) => Role::Candidate { root: false },
            (Role::Items, true) => Role::Item,
            _ => Role::Other,
        }
    }

    /// A value (a scalar, an alias or a node that ended) was read in this node.
    fn took_value(&mut self, scalar: Option<&[u8]>) {
        if !self.mapping {
            return;
        }
        let word = Word::of(scalar);
        if self.want_key {
            self.key = word;
            self.want_key = false;
            return;
        }
        if self.key == Word::Kind && matches!(self.role, Role::Candidate { .. } | Role::Item) {
            self.kind = word;
        }
        self.want_key = true;
        self.key = Word::None;
    }

    /// This node ended: a candidate adds what it is to `total`, a List's item or its items to
    /// the node they are in, and the parent has read a value.
    fn close(&self, total: &mut Census, parent: Option<&mut Frame>) {
        if let Role::Candidate { .. } = self.role {
            if self.kind == Word::List {
                total.objects += self.items.objects;
                total.pods += self.items.pods;
            } else if self.kind != Word::None {
                total.objects += 1;
                total.pods += u64::from(self.kind == Word::Pod);
            }
        }
        let Some(parent) = parent else { return };
        match self.role {
            Role::Items => {
                parent.items.objects += self.items.objects;
                parent.items.pods += self.items.pods;
            }
            Role::Item => {
                parent.items.objects += 1;
                parent.items.pods += u64::from(self.kind == Word::Pod);
            }
            _ => {}
        }
        parent.took_value(None);
    }
}

/// Counts the objects and pods of `text` ([`Census`]). A text libyaml cannot parse is counted
/// as far as it parses: its reader reports the error.
pub fn count(text: &str) -> Census {
    count_within(text, Census::ALL)
}

/// [`count`], stopping as soon as the count passes `limit` in pods or in objects: a text over
/// the budget is refused after reading as much of it as it takes to cross it, so 200 001
/// pasted pods cost the walk over the first 20 001 (a text ten times the budget took ten
/// times as long to refuse). The census returned then holds the count that crossed, one past
/// its limit. A List's items count as they end, before its `kind` (which kubectl writes
/// last) says it is a List: a mapping with more `items` than the budget that turns out to be
/// another kind is refused for its size rather than for its field, which its reader would
/// refuse as well.
pub fn count_within(text: &str, limit: Census) -> Census {
    walk(text, Some(limit)).unwrap_or_default()
}

impl Census {
    /// No limit.
    pub const ALL: Census = Census {
        objects: u64::MAX,
        pods: u64::MAX,
    };

    fn passes(&self, limit: Census) -> bool {
        self.pods > limit.pods || self.objects > limit.objects
    }

    fn add(&mut self, other: Census) {
        self.objects = self.objects.saturating_add(other.objects);
        self.pods = self.pods.saturating_add(other.pods);
    }
}

/// One pass over `text`'s events: its [`Census`], or the alias that takes a document past
/// [`ALIAS_VALUES`] (the alias count is [`check_aliases`]'s, which walks here: one
/// loop over libyaml's events in the page, not two). With a `limit` (the census), the walk
/// stops once the count passes it. A scenario's object written as text is counted where it is
/// read, as the text it is ([`count_all_within`]), not here: a file that is started would
/// have its texts walked twice. (Long: one match over libyaml's kinds of event, each arm what
/// both counts do with it.)
fn walk(text: &str, limit: Option<Census>) -> Result<Census, TooManyAliases> {
    let mut events = Events::new(text);
    let mut total = Census::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: BTreeMap<Vec<u8>, u64> = BTreeMap::new();
    let (mut added, mut document) = (0u64, 0);
    while let Some(e) = events.next() {
        // The node that ended with this event: its anchor and its size in values.
        let ended = match e.kind {
            Kind::DocumentStart => {
                stack.clear();
                anchors.clear();
                added = 0;
                None
            }
            Kind::DocumentEnd => {
                document += 1;
                None
            }
            Kind::SequenceStart | Kind::MappingStart => {
                let mapping = e.kind == Kind::MappingStart;
                let role = match stack.last() {
                    None => Role::Candidate { root: true },
                    Some(parent) => parent.child(mapping),
                };
                stack.push(Frame::new(role, mapping, e.anchor));
                None
            }
            Kind::End => stack.pop().map(|done| {
                let counts = matches!(done.role, Role::Candidate { .. } | Role::Item);
                done.close(&mut total, stack.last_mut());
                match limit
                    .filter(|_| counts)
                    .and_then(|l| crossed(total, &stack, l))
                {
                    Some(c) => Err(c),
                    None => Ok((done.anchor, done.values)),
                }
            }),
            Kind::Alias => {
                // An unknown anchor is serde_norway's to refuse.
                let size = e.anchor.and_then(|a| anchors.get(&a).copied()).unwrap_or(0);
                added = added.saturating_add(size);
                if added > ALIAS_VALUES {
                    return Err(TooManyAliases {
                        line: e.line,
                        column: e.column,
                        document,
                        values: added,
                    });
                }
                if let Some(p) = stack.last_mut() {
                    p.took_value(None);
                }
                Some(Ok((None, size)))
            }
            Kind::Scalar => {
                if let Some(p) = stack.last_mut() {
                    p.took_value(e.value.as_ref().map(Text::bytes));
                }
                Some(Ok((e.anchor, 1)))
            }
            Kind::Other => None,
        };
        let (anchor, size) = match ended {
            None => continue,
            Some(Ok(node)) => node,
            Some(Err(crossed)) => return Ok(crossed),
        };
        if let Some(a) = anchor {
            anchors.insert(a, size);
        }
        if let Some(parent) = stack.last_mut() {
            parent.values = parent.values.saturating_add(size);
        }
    }
    Ok(total)
}

/// The count so far, with the items of Lists still open, when it passes `limit`.
fn crossed(total: Census, open: &[Frame], limit: Census) -> Option<Census> {
    let mut pending = total;
    open.iter().for_each(|f| pending.add(f.items));
    pending.passes(limit).then_some(pending)
}

/// [`count_within`] over several texts counted together (a scenario's objects): the count,
/// and the index of the text where it passed `limit`, if it did. Each text is walked only as
/// far as the limit its predecessors left it.
pub fn count_all_within<'t>(
    texts: impl IntoIterator<Item = &'t str>,
    limit: Census,
) -> (Census, Option<usize>) {
    let mut total = Census::default();
    for (i, text) in texts.into_iter().enumerate() {
        let left = Census {
            objects: limit.objects.saturating_sub(total.objects),
            pods: limit.pods.saturating_sub(total.pods),
        };
        total.add(count_within(text, left));
        if total.passes(limit) {
            return (total, Some(i));
        }
    }
    (total, None)
}

/// Refuses `text` when the aliases of one of its documents would add more than
/// [`ALIAS_VALUES`] values. A text libyaml cannot parse is let through: its reader reports
/// the syntax error, at its place, as it always has. (The walk is the census's, which keeps each
/// node's size beside what it counts.)
pub fn check_aliases(text: &str) -> Result<(), TooManyAliases> {
    if !text.contains('*') {
        return Ok(());
    }
    walk(text, None).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(name: &str) -> String {
        format!(
            "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: {name}\n    ownerReferences:\n    - {{apiVersion: apps/v1, kind: ReplicaSet, name: web-1, uid: u}}\n  spec: {{containers: [{{name: app, image: app:1}}]}}\n"
        )
    }

    #[test]
    fn a_list_counts_its_items_not_their_owner_references_or_templates() {
        // kubectl writes `items` before `kind`, so the List is known only at its end.
        let deployment = "- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web}\n  spec:\n    template:\n      metadata: {labels: {app: web}}\n      spec: {containers: [{name: app, image: app:1}]}\n";
        let text = format!(
            "apiVersion: v1\nitems:\n{}{}{deployment}kind: List\nmetadata: {{resourceVersion: \"\"}}\n",
            pod("a"),
            pod("b")
        );
        assert_eq!(
            count(&text),
            Census {
                objects: 3,
                pods: 2
            }
        );
        let json = r#"{"apiVersion": "v1", "kind": "PodList", "items": [{"kind": "Pod", "metadata": {"name": "a"}}, {"kind": "Node"}]}"#;
        assert_eq!(
            count(json),
            Census {
                objects: 2,
                pods: 1
            }
        );
    }

    #[test]
    fn documents_and_a_scenarios_objects_each_count() {
        let docs = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\nkind: Node\nmetadata: {name: n}\n---\n# nothing\n";
        assert_eq!(
            count(docs),
            Census {
                objects: 2,
                pods: 1
            }
        );
        // A scenario's objects as mappings, a List among them by its items; one written as
        // text (a pasted state) is counted where it is read ([`count_all_within`]).
        let scenario = "name: s\nobjects:\n- kind: Deployment\n  metadata: {name: web}\n- |\n  kind: PodList\n  items: [{kind: Pod}, {kind: Pod}]\n- kind: List\n  items:\n  - {kind: Pod, metadata: {name: a}}\n  - {kind: ReplicaSet, metadata: {name: r}}\nsteps: []\n";
        assert_eq!(
            count(scenario),
            Census {
                objects: 3,
                pods: 1
            }
        );
        // A mapping without a kind is no object; neither is a nested `objects` key.
        assert_eq!(count("spec: {objects: [{kind: Pod}]}\n"), Census::default());
    }

    #[test]
    fn the_count_stops_where_it_passes_the_limit() {
        let pods = |n: usize| {
            format!(
                "apiVersion: v1\nitems:\n{}kind: List\n",
                "- {kind: Pod}\n".repeat(n)
            )
        };
        let limit = Census {
            objects: 10,
            pods: 3,
        };
        // Past the limit: the count that crossed it, read before the List's kind.
        assert_eq!(
            count_within(&pods(1000), limit),
            Census {
                objects: 4,
                pods: 4
            }
        );
        // At the limit: the whole count.
        assert_eq!(
            count_within(&pods(3), limit),
            Census {
                objects: 3,
                pods: 3
            }
        );
        // Across documents, objects as well as pods.
        let nodes = "kind: Node\n---\n".repeat(20);
        assert_eq!(count_within(&nodes, limit).objects, 11);
        // Across texts counted together: the third crosses the limit, one past it.
        let (one, five) = ("kind: Pod\n".to_string(), pods(5));
        let (c, at) = count_all_within([one.as_str(), one.as_str(), five.as_str(), &one], limit);
        assert_eq!((c.pods, at), (4, Some(2)));
        assert_eq!(
            count_all_within([one.as_str(); 3], limit),
            (
                Census {
                    objects: 3,
                    pods: 3
                },
                None
            )
        );
    }

    #[test]
    fn broken_text_is_counted_as_far_as_it_parses() {
        assert_eq!(
            count("kind: Pod\n---\nkind: [\n"),
            Census {
                objects: 1,
                pods: 1
            }
        );
    }
}
