//! YAML in and out, for what the playground exchanges: Kubernetes manifests and scenario
//! files, read into and written from [`crate::value::Value`] (the form every typed object and the
//! scenario reader start from).
//!
//! Hand-written rather than a general YAML library because the browser build pays for every
//! byte (a libyaml port costs ~50 KB gzipped there), and manifests use a small part of YAML:
//! block mappings and sequences (including sequences at their key's indentation), flow
//! collections (so JSON too), plain, quoted and block scalars, comments, several documents,
//! anchors and aliases. Plain scalars resolve by the YAML 1.2 core schema, as the crate it
//! replaced did. Complex keys (`? `) and application tags are refused with a clear message.
//! The writer prints block style the way `kubectl get -o yaml` does.
//!
//! Tests compare both halves with `serde_norway` (libyaml) over the gallery, manifests and
//! generated values.

mod emit;
mod parse;

pub use emit::{to_string, to_string_kubectl};
pub use parse::{parse, parse_documents};

use std::fmt;

/// Why a text is not YAML the playground can read, with where (1-based line and column).
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests;
