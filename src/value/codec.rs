//! Typed objects to and from [`Value`]: what serde's derives did. A struct's conversions come
//! from one table of its fields (`codec!`, `to_value!`), which expands to two small helpers:
//! [`Fields`] reads a mapping field by field and [`Obj`] builds one.
//!
//! Errors carry the path of the field at fault in serde_path_to_error's spelling
//! (`spec.template.spec.containers[0].image: invalid type: sequence, expected a string`), in
//! the browser as natively. As the apiserver's decoder, a null field reads as absent.

use super::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// Why a value does not fit a type, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeError {
    /// Innermost segment first (the path grows while the error travels outwards).
    path: Vec<Segment>,
    message: String,
}

#[derive(Clone, Debug, PartialEq)]
enum Segment {
    Key(String),
    Index(usize),
}

impl DecodeError {
    pub fn new(message: impl Into<String>) -> DecodeError {
        DecodeError {
            path: vec![],
            message: message.into(),
        }
    }
    // The three below are out of line: errors are rare, every field's decoder can report one,
    // and the page is sized by its code.
    /// `invalid type: string "x", expected i32`.
    #[inline(never)]
    pub fn invalid_type(found: &Value, expected: &str) -> DecodeError {
        DecodeError::new(format!(
            "invalid type: {}, expected {expected}",
            found.describe()
        ))
    }
    #[inline(never)]
    pub fn at_key(mut self, key: &str) -> DecodeError {
        self.path.push(Segment::Key(key.to_string()));
        self
    }
    #[inline(never)]
    pub fn at_index(mut self, i: usize) -> DecodeError {
        self.path.push(Segment::Index(i));
        self
    }
    /// `spec.template.spec.containers[0].image`; empty at the top.
    pub fn path(&self) -> String {
        let mut out = String::new();
        for s in self.path.iter().rev() {
            match s {
                Segment::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                Segment::Index(i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
            }
        }
        out
    }
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path(), self.message)
        }
    }
}

impl std::error::Error for DecodeError {}

/// A type read from a [`Value`].
pub trait FromValue: Sized {
    fn from_value(v: Value) -> Result<Self, DecodeError>;
}

/// A type written as a [`Value`].
pub trait ToValue {
    fn to_value(&self) -> Value;
}

/// Whether a field is left out when written (serde's `skip_serializing_if`): empty strings,
/// collections and maps, zero numbers, false, None.
pub trait IsEmpty {
    fn is_empty_value(&self) -> bool;
}

/// Reads a mapping into a struct, one field at a time. Fields are taken out as they are read,
/// so what is left is what the type does not model (kept, or refused with `deny_unknown`,
/// which names the fields asked for: the type's own).
pub struct Fields {
    map: Map,
    asked: Vec<&'static str>,
}

impl Fields {
    /// `what` names the type in the message when `v` is not a mapping (`struct ObjectMeta`).
    pub fn new(v: Value, what: &str) -> Result<Fields, DecodeError> {
        match v {
            Value::Object(map) => Ok(Fields { map, asked: vec![] }),
            other => Err(DecodeError::invalid_type(&other, what)),
        }
    }
    fn take(&mut self, key: &'static str) -> Option<Value> {
        self.asked.push(key);
        self.map.remove(key).filter(|v| !v.is_null())
    }
    /// An optional field: its default when absent or null.
    pub fn opt<T: FromValue + Default>(&mut self, key: &'static str) -> Result<T, DecodeError> {
        self.or(key, T::default)
    }
    /// An optional field with its own default.
    pub fn or<T: FromValue>(
        &mut self,
        key: &'static str,
        default: impl FnOnce() -> T,
    ) -> Result<T, DecodeError> {
        match self.take(key) {
            Some(v) => T::from_value(v).map_err(|e| e.at_key(key)),
            None => Ok(default()),
        }
    }
    /// A required field.
    pub fn req<T: FromValue>(&mut self, key: &'static str) -> Result<T, DecodeError> {
        match self.take(key) {
            Some(v) => T::from_value(v).map_err(|e| e.at_key(key)),
            None => Err(DecodeError::new(format!("missing field `{key}`"))),
        }
    }
    /// The fields not read: kept as they came.
    pub fn rest(self) -> Map {
        self.map
    }
    /// Refuses any field not read, naming the ones read (the type's fields, in its order).
    pub fn deny_unknown(self) -> Result<(), DecodeError> {
        match self.map.keys().next() {
            None => Ok(()),
            Some(k) => Err(DecodeError::new(format!(
                "unknown field `{k}`, expected one of {}",
                self.asked
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

/// Builds a mapping, fields in the order they are put.
#[derive(Default)]
pub struct Obj(Map);

impl Obj {
    pub fn new() -> Obj {
        Obj(Map::new())
    }
    /// Always written.
    pub fn put<T: ToValue + ?Sized>(&mut self, key: &str, v: &T) -> &mut Obj {
        self.push(key, v.to_value())
    }
    // (One copy for every type's `put`.)
    #[inline(never)]
    fn push(&mut self, key: &str, v: Value) -> &mut Obj {
        self.0.0.push((key.to_string(), v));
        self
    }
    /// Written unless empty, zero, false or None.
    pub fn put_nonempty<T: ToValue + IsEmpty + ?Sized>(&mut self, key: &str, v: &T) -> &mut Obj {
        if !v.is_empty_value() {
            self.put(key, v);
        }
        self
    }
    /// Unmodelled fields, after the modelled ones.
    pub fn rest(&mut self, extra: &Map) -> &mut Obj {
        for (k, v) in extra {
            self.0.insert(k.clone(), v.clone());
        }
        self
    }
    pub fn build(&mut self) -> Value {
        Value::Object(std::mem::take(&mut self.0))
    }
}

/// Both conversions of a struct from one table of its fields, in the order they are written
/// out: `field: "jsonName" read write,` where `read` is `opt` (default when absent) or `req`,
/// and `write` is `put` (always) or `put_nonempty` (Go's `omitempty`). A last `..extra` keeps
/// the fields the struct does not model, in a `From<Map>` field, written after the others.
macro_rules! codec {
    ($t:ident { $($field:ident: $json:literal $read:ident $write:ident,)* $(..$rest:ident)? }) => {
        impl $crate::value::FromValue for $t {
            fn from_value(
                v: $crate::value::Value,
            ) -> Result<$t, $crate::value::DecodeError> {
                #[allow(unused_mut)]
                let mut f = $crate::value::Fields::new(v, concat!("struct ", stringify!($t)))?;
                Ok($t {
                    $($field: f.$read($json)?,)*
                    $($rest: f.rest().into(),)?
                })
            }
        }

        $crate::value::codec::to_value!($t { $($field: $json $write,)* $(..$rest)? });
    };
}

/// The writing half of [`codec!`] alone, for what is only ever written (the trace):
/// `field: "jsonName" write,` then an optional `..extra`.
macro_rules! to_value {
    ($t:ident { $($field:ident: $json:literal $write:ident,)* $(..$rest:ident)? }) => {
        impl $crate::value::ToValue for $t {
            fn to_value(&self) -> $crate::value::Value {
                $crate::value::Obj::new()
                    $(.$write($json, &self.$field))*
                    $(.rest(&self.$rest))?
                    .build()
            }
        }
    };
}

pub(crate) use {codec, to_value};

// ---------------------------------------------------------------- scalars

impl FromValue for Value {
    fn from_value(v: Value) -> Result<Value, DecodeError> {
        Ok(v)
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl FromValue for Map {
    fn from_value(v: Value) -> Result<Map, DecodeError> {
        match v {
            Value::Object(m) => Ok(m),
            other => Err(DecodeError::invalid_type(&other, "a map")),
        }
    }
}

impl ToValue for Map {
    fn to_value(&self) -> Value {
        Value::Object(self.clone())
    }
}

impl IsEmpty for Map {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl FromValue for String {
    fn from_value(v: Value) -> Result<String, DecodeError> {
        match v {
            Value::String(s) => Ok(s),
            other => Err(DecodeError::invalid_type(&other, "a string")),
        }
    }
}

impl FromValue for crate::api::Str {
    fn from_value(v: Value) -> Result<crate::api::Str, DecodeError> {
        String::from_value(v).map(Into::into)
    }
}

impl ToValue for crate::api::Str {
    fn to_value(&self) -> Value {
        Value::String(self.to_string())
    }
}

impl IsEmpty for crate::api::Str {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::String(self.to_string())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }
}

impl IsEmpty for String {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl IsEmpty for str {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl FromValue for bool {
    fn from_value(v: Value) -> Result<bool, DecodeError> {
        match v {
            Value::Bool(b) => Ok(b),
            other => Err(DecodeError::invalid_type(&other, "a boolean")),
        }
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }
}

impl IsEmpty for bool {
    fn is_empty_value(&self) -> bool {
        !*self
    }
}

/// Integers: any integral number in range; a float or an out-of-range number is refused as
/// serde refuses it.
fn integer(v: Value, name: &str, min: i128, max: i128) -> Result<i128, DecodeError> {
    let n = match &v {
        Value::Number(n) => n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)),
        _ => None,
    };
    match n {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        Some(n) => Err(DecodeError::new(format!(
            "invalid value: integer `{n}`, expected {name}"
        ))),
        None => Err(DecodeError::invalid_type(&v, name)),
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: Value) -> Result<$t, DecodeError> {
                integer(v, stringify!($t), <$t>::MIN as i128, <$t>::MAX as i128).map(|n| n as $t)
            }
        }
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::from(*self)
            }
        }
        impl IsEmpty for $t {
            fn is_empty_value(&self) -> bool {
                *self == 0
            }
        }
    )*};
}

integers!(i32, i64, u32, u64, usize);

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::from(*self)
    }
}

// ---------------------------------------------------------------- containers

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl<T: IsEmpty + ?Sized> IsEmpty for &T {
    fn is_empty_value(&self) -> bool {
        (**self).is_empty_value()
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: Value) -> Result<Option<T>, DecodeError> {
        match v {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_value)
    }
}

impl<T> IsEmpty for Option<T> {
    fn is_empty_value(&self) -> bool {
        self.is_none()
    }
}

impl<T: FromValue> FromValue for Vec<T> {
    fn from_value(v: Value) -> Result<Vec<T>, DecodeError> {
        match v {
            Value::Array(a) => a
                .into_iter()
                .enumerate()
                .map(|(i, x)| T::from_value(x).map_err(|e| e.at_index(i)))
                .collect(),
            other => Err(DecodeError::invalid_type(&other, "a sequence")),
        }
    }
}

impl<T: ToValue> ToValue for [T] {
    fn to_value(&self) -> Value {
        Value::Array(self.iter().map(T::to_value).collect())
    }
}

impl<T: ToValue> ToValue for Vec<T> {
    fn to_value(&self) -> Value {
        self.as_slice().to_value()
    }
}

impl<T, const N: usize> ToValue for [T; N]
where
    T: ToValue,
{
    fn to_value(&self) -> Value {
        self.as_slice().to_value()
    }
}

impl<T> IsEmpty for Vec<T> {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

impl<T: FromValue> FromValue for BTreeMap<String, T> {
    fn from_value(v: Value) -> Result<BTreeMap<String, T>, DecodeError> {
        match v {
            // Inserted one by one: collecting into a map would bring in a sort.
            Value::Object(m) => {
                let mut out = BTreeMap::new();
                for (k, x) in m {
                    match T::from_value(x) {
                        Ok(t) => out.insert(k, t),
                        Err(e) => return Err(e.at_key(&k)),
                    };
                }
                Ok(out)
            }
            other => Err(DecodeError::invalid_type(&other, "a map")),
        }
    }
}

impl<T: ToValue> ToValue for BTreeMap<String, T> {
    fn to_value(&self) -> Value {
        Value::Object(
            self.iter()
                .map(|(k, v)| (k.clone(), v.to_value()))
                .collect(),
        )
    }
}

impl<T> IsEmpty for BTreeMap<String, T> {
    fn is_empty_value(&self) -> bool {
        self.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn errors_name_the_path_and_the_mismatch() {
        let v = json!([{"a": 1}, {"a": "x"}]);
        let e = Vec::<BTreeMap<String, i32>>::from_value(v).unwrap_err();
        assert_eq!(
            e.to_string(),
            "[1].a: invalid type: string \"x\", expected i32"
        );
        let e = i32::from_value(json!(3000000000u64)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid value: integer `3000000000`, expected i32"
        );
        let e = u32::from_value(json!(-1)).unwrap_err();
        assert_eq!(e.to_string(), "invalid value: integer `-1`, expected u32");
        let e = i64::from_value(json!(1.5)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid type: floating point `1.5`, expected i64"
        );
        let e = String::from_value(json!([1])).unwrap_err();
        assert_eq!(e.to_string(), "invalid type: sequence, expected a string");
    }

    #[test]
    fn fields_read_defaults_keep_the_rest_and_refuse_unknowns() {
        let mut f = Fields::new(json!({"a": 1, "b": null, "c": "x", "d": true}), "S").unwrap();
        assert_eq!(f.opt::<i32>("a").unwrap(), 1);
        assert_eq!(f.or::<i32>("b", || 7).unwrap(), 7);
        assert_eq!(f.req::<String>("c").unwrap(), "x");
        assert_eq!(
            f.req::<String>("zz").unwrap_err().to_string(),
            "missing field `zz`"
        );
        assert_eq!(f.rest().keys().collect::<Vec<_>>(), ["d"]);
        let mut f = Fields::new(json!({"x": 1}), "S").unwrap();
        assert_eq!(f.opt::<i32>("a").unwrap(), 0);
        assert_eq!(f.opt::<i32>("b").unwrap(), 0);
        assert_eq!(
            f.deny_unknown().unwrap_err().to_string(),
            "unknown field `x`, expected one of `a`, `b`"
        );
        assert_eq!(
            Fields::new(json!("s"), "struct S")
                .err()
                .unwrap()
                .to_string(),
            "invalid type: string \"s\", expected struct S"
        );
    }
}
