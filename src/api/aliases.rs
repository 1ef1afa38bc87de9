//! YAML aliases, counted before any document is read. An alias (`*name`) repeats the node its
//! anchor (`&name`) names, so a few hundred bytes that nest anchors ten deep (a "billion
//! laughs") expand to ten billion values: serde_norway replays each alias as it decodes and
//! stops only after its repetition limit, which grows with the document (gigabytes and seconds
//! first, or never for a long one). Every reader of YAML here asks [`check`] first: it walks
//! libyaml's events once, keeps the expanded size of each anchored node (an alias inside counts
//! its anchor's size), and refuses a document whose aliases would add more than
//! [`ALIAS_VALUES`] values, naming the alias that crossed it, before anything is expanded.
//!
//! The events come from `unsafe-libyaml-norway`, the libyaml that serde_norway itself parses
//! with (its event API is C's, so this module holds the crate's one `unsafe` block of that
//! kind): the page carries no second YAML parser, and a document without a `*` is not walked
//! at all.

use std::ffi::CStr;
use std::fmt;
use std::mem::MaybeUninit;
use unsafe_libyaml_norway as unsafe_sys;

/// The most values a document's aliases may add, all expansions counted (a value is a scalar,
/// a sequence or a mapping). A manifest that reuses a template by alias adds hundreds; a
/// pasted cluster state, none (kubectl never writes aliases).
pub const ALIAS_VALUES: u64 = 100_000;

/// A document whose aliases would expand past [`ALIAS_VALUES`]: where the alias that crossed it
/// is (1-based), and how many values the aliases would have added by then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooManyAliases {
    pub line: usize,
    pub column: usize,
    /// The document's index in the text (from 0).
    pub document: usize,
    pub values: u64,
}

impl fmt::Display for TooManyAliases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // libyaml's way of placing a problem ("at line N column M"), which the readers of its
        // errors already understand.
        write!(
            f,
            "the aliases of this document would expand it by more than {ALIAS_VALUES} values \
             ({} by the alias at line {} column {}); the playground refuses it before reading \
             it: write the repeated part out, or use fewer aliases",
            self.values, self.line, self.column
        )
    }
}

impl std::error::Error for TooManyAliases {}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    DocumentStart,
    DocumentEnd,
    Scalar,
    /// A sequence begins.
    SequenceStart,
    /// A mapping begins.
    MappingStart,
    /// A sequence or a mapping ends.
    End,
    Alias,
    Other,
}

/// One of libyaml's events, as much of it as counting needs.
pub(super) struct Event {
    pub(super) kind: Kind,
    /// A node's anchor, or the anchor an alias names.
    pub(super) anchor: Option<Vec<u8>>,
    /// A scalar's text, when it is short (a key, a kind).
    pub(super) value: Option<Text>,
    pub(super) line: usize,
    pub(super) column: usize,
}

/// The longest scalar whose text an event carries: keys and kinds are shorter.
const VALUE_BYTES: usize = 64;

/// A short scalar's text, held in place: a pasted state has a scalar every dozen bytes, and
/// an allocation for each was an eighth of the census's time.
pub(super) struct Text {
    len: u8,
    bytes: [u8; VALUE_BYTES],
}

impl Text {
    pub(super) fn bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// libyaml's event parser over a text, stopping at the stream's end or its first error.
pub(super) struct Events<'a> {
    parser: Box<MaybeUninit<unsafe_sys::yaml_parser_t>>,
    done: bool,
    _text: &'a str,
}

impl<'a> Events<'a> {
    /// Events that carry the text of short scalars ([`VALUE_BYTES`]), for a reader that
    /// looks at keys and kinds.
    pub(super) fn new(text: &'a str) -> Events<'a> {
        let mut parser = Box::new(MaybeUninit::<unsafe_sys::yaml_parser_t>::uninit());
        // SAFETY: the parser is initialized in place before any other call, and reads the
        // text, which outlives it (`_text`), without copying it.
        let done = unsafe {
            let p = parser.as_mut_ptr();
            if unsafe_sys::yaml_parser_initialize(p).fail {
                true
            } else {
                unsafe_sys::yaml_parser_set_encoding(p, unsafe_sys::YAML_UTF8_ENCODING);
                unsafe_sys::yaml_parser_set_input_string(p, text.as_ptr(), text.len() as u64);
                false
            }
        };
        Events {
            parser,
            done,
            _text: text,
        }
    }

    pub(super) fn next(&mut self) -> Option<Event> {
        if self.done {
            return None;
        }
        let mut raw = MaybeUninit::<unsafe_sys::yaml_event_t>::uninit();
        // SAFETY: the parser was initialized; a successful parse fills the event, whose union
        // is read by its type, and whose memory is released before returning.
        unsafe {
            let p = self.parser.as_mut_ptr();
            if unsafe_sys::yaml_parser_parse(p, raw.as_mut_ptr()).fail {
                self.done = true;
                return None;
            }
            let e = &*raw.as_ptr();
            let name = |ptr: *mut u8| {
                (!ptr.is_null()).then(|| CStr::from_ptr(ptr.cast()).to_bytes().to_vec())
            };
            let (kind, anchor) = match e.type_ {
                unsafe_sys::YAML_DOCUMENT_START_EVENT => (Kind::DocumentStart, None),
                unsafe_sys::YAML_DOCUMENT_END_EVENT => (Kind::DocumentEnd, None),
                unsafe_sys::YAML_SCALAR_EVENT => (Kind::Scalar, name(e.data.scalar.anchor)),
                unsafe_sys::YAML_SEQUENCE_START_EVENT => {
                    (Kind::SequenceStart, name(e.data.sequence_start.anchor))
                }
                unsafe_sys::YAML_MAPPING_START_EVENT => {
                    (Kind::MappingStart, name(e.data.mapping_start.anchor))
                }
                unsafe_sys::YAML_SEQUENCE_END_EVENT | unsafe_sys::YAML_MAPPING_END_EVENT => {
                    (Kind::End, None)
                }
                unsafe_sys::YAML_ALIAS_EVENT => (Kind::Alias, name(e.data.alias.anchor)),
                unsafe_sys::YAML_STREAM_END_EVENT => {
                    self.done = true;
                    (Kind::Other, None)
                }
                _ => (Kind::Other, None),
            };
            // The union is read as a scalar only for a scalar event.
            let value = if kind == Kind::Scalar && e.data.scalar.length as usize <= VALUE_BYTES {
                let s = &e.data.scalar;
                let text = std::slice::from_raw_parts(s.value, s.length as usize);
                let mut bytes = [0; VALUE_BYTES];
                bytes[..text.len()].copy_from_slice(text);
                Some(Text {
                    len: text.len() as u8,
                    bytes,
                })
            } else {
                None
            };
            let event = Event {
                kind,
                anchor,
                value,
                line: e.start_mark.line as usize + 1,
                column: e.start_mark.column as usize + 1,
            };
            unsafe_sys::yaml_event_delete(raw.as_mut_ptr());
            Some(event)
        }
    }
}

impl Drop for Events<'_> {
    fn drop(&mut self) {
        // SAFETY: initialized in `new` (a failed initialization frees what it allocated, and
        // deleting it again is what libyaml's own callers do).
        unsafe { unsafe_sys::yaml_parser_delete(self.parser.as_mut_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::super::census::check_aliases as check;
    use super::*;

    /// Ten levels of ten aliases each: 10^10 values once expanded.
    pub fn laughs(depth: usize) -> String {
        let mut t = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for i in 1..=depth {
            let p = i - 1;
            t.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        t
    }

    #[test]
    fn nested_anchors_are_refused_naming_the_alias_that_crossed_the_limit() {
        let e = check(&laughs(10)).unwrap_err();
        // a0 is 11 values, a1 111, a2 1 111, a3 11 111: a1 to a3 add 12 330; a4's eighth
        // alias of a3 (line 5) takes the count past the limit, before a5 to a10 are read.
        assert_eq!(
            (e.line, e.document, e.values),
            (5, 0, 12_330 + 8 * 11_111),
            "{e}"
        );
        assert!(e.values > ALIAS_VALUES);
        assert!(
            e.to_string()
                .contains(&format!("at line 5 column {}", e.column))
        );
    }

    #[test]
    fn a_few_aliases_pass_and_so_does_text_without_any() {
        assert_eq!(check(&laughs(3)), Ok(()), "12 330 values added");
        assert_eq!(check("a: 1\nb: [x, '*']\n"), Ok(()));
        assert_eq!(check("a: &t {x: 1}\nb: *t\nc: *t\n"), Ok(()));
        // Broken YAML is its reader's to report.
        assert_eq!(check("a: *nowhere\nb: [\n"), Ok(()));
    }

    #[test]
    fn each_document_has_its_own_anchors_and_count() {
        let doc = laughs(4); // 123 440 values added: over the limit alone
        let small = laughs(3);
        let text = format!("{small}---\n{small}---\n{doc}");
        let e = check(&text).unwrap_err();
        assert_eq!(e.document, 2, "{e}");
        // An alias of an anchor of the document before is unknown in the next one.
        assert_eq!(check("a: &x [1, 2]\n---\nb: *x\n"), Ok(()));
    }
}
