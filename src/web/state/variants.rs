//! Compare's part of the page: the scenario's variants run side by side on one clock, and
//! each variant's settings as the reader typed them. The variants are the scenario's
//! (`variants:`), so that a share link keeps them; changing them records the comparison anew.

use super::Model;
use crate::scenario::compare::{self, Comparison};
use crate::scenario::variant::{MAX_VARIANTS, MIN_VARIANTS, Variant};
use std::rc::Rc;

/// A variant's settings field: its text and, when the text was refused, why.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub text: String,
    pub error: Option<String>,
}

/// What the Compare view asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum VariantAction {
    /// Open the scenario as variants side by side (suggested ones when it lists none).
    Open,
    Close,
    /// Variant `i`'s settings (`path=value, …`; empty for the scenario as written).
    Set(usize, String),
    Add,
    Remove(usize),
}

impl Model {
    pub(super) fn variants(&mut self, a: VariantAction) {
        match a {
            VariantAction::Open => {
                if self.compare.is_none() {
                    let v = compare::suggested(&self.session.scenario);
                    self.set_variants(v);
                }
            }
            VariantAction::Close => self.set_variants(vec![]),
            VariantAction::Set(i, text) => self.set_variant(i, text),
            VariantAction::Add => {
                let mut v = self.session.scenario.variants.clone();
                if v.len() < MAX_VARIANTS {
                    v.push(Variant {
                        name: "as written".into(),
                        set: vec![],
                    });
                    self.set_variants(v);
                }
            }
            VariantAction::Remove(i) => {
                let mut v = self.session.scenario.variants.clone();
                if i < v.len() && v.len() > MIN_VARIANTS {
                    v.remove(i);
                    self.set_variants(v);
                }
            }
        }
    }

    /// Re-runs the variants the scenario lists (after any change to the run or to them).
    pub(super) fn refresh_compare(&mut self) {
        let c = Comparison::of(&self.session.scenario);
        if let Some(c) = &c
            && let Some(e) = c.runs.iter().find_map(|r| r.as_ref().err())
            && self.notice.is_none()
        {
            self.notice = Some(format!("A variant could not run: {e}"));
        }
        self.drafts = Rc::new(
            self.session
                .scenario
                .variants
                .iter()
                .map(|v| Draft {
                    text: v.settings_text(),
                    error: None,
                })
                .collect(),
        );
        self.compare = c.map(Rc::new);
    }

    /// The run with these variants (the run itself does not change).
    fn set_variants(&mut self, variants: Vec<Variant>) {
        let mut s = (*self.session).clone();
        s.scenario.variants = variants;
        self.play.playing = false;
        self.replace_session(s);
    }

    /// Variant `i`'s settings typed: taken when the apiserver would take the Deployment they
    /// make, else kept as typed with the reason.
    fn set_variant(&mut self, i: usize, text: String) {
        let mut variants = self.session.scenario.variants.clone();
        if i >= variants.len() {
            return;
        }
        let set = if text.trim().is_empty() {
            Ok(vec![])
        } else {
            Variant::parse_settings(&text)
        };
        let taken = set.and_then(|set| {
            let v = Variant {
                name: Variant::default_name(&set),
                set,
            };
            self.session
                .scenario
                .with_variant(&v)
                .map(|_| v)
                .map_err(|e| e.to_string())
        });
        match taken {
            Ok(v) => {
                variants[i] = v;
                self.set_variants(variants);
            }
            Err(e) => {
                Rc::make_mut(&mut self.drafts)[i] = Draft {
                    text,
                    error: Some(e),
                }
            }
        }
    }
}
