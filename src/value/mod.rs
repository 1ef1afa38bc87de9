//! The generic value every manifest, scenario file and trace passes through: what YAML and JSON
//! read into and are written from, and what typed objects convert to and from (`codec`).
//!
//! Our own rather than serde_json's because the browser build pays for every byte: serde's
//! derived impls, its data model and serde_json came to about a quarter of the page's wasm.
//! The API follows serde_json's `Value` (same variants, accessors, `json!`), objects keep their
//! keys in the order they were written, and the JSON text is the same as serde_json writes.

pub mod codec;
mod json;

pub use codec::{DecodeError, Fields, FromValue, Obj, ToValue};
pub use json::{parse_json, to_json_pretty};

use std::fmt;

/// A YAML or JSON value.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Map),
}

/// A JSON number: an integer (kept exactly, signed or unsigned) or a finite float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number(N);

#[derive(Clone, Copy, Debug, PartialEq)]
enum N {
    PosInt(u64),
    NegInt(i64),
    Float(f64),
}

impl Number {
    /// `None` for NaN and the infinities, which JSON cannot hold.
    pub fn from_f64(f: f64) -> Option<Number> {
        f.is_finite().then_some(Number(N::Float(f)))
    }
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            N::PosInt(u) => i64::try_from(u).ok(),
            N::NegInt(i) => Some(i),
            N::Float(_) => None,
        }
    }
    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            N::PosInt(u) => Some(u),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        Some(match self.0 {
            N::PosInt(u) => u as f64,
            N::NegInt(i) => i as f64,
            N::Float(f) => f,
        })
    }
    pub fn is_f64(&self) -> bool {
        matches!(self.0, N::Float(_))
    }
}

impl From<i64> for Number {
    fn from(i: i64) -> Number {
        Number(if i < 0 {
            N::NegInt(i)
        } else {
            N::PosInt(i as u64)
        })
    }
}

impl From<u64> for Number {
    fn from(u: u64) -> Number {
        Number(N::PosInt(u))
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            N::PosInt(u) => write!(f, "{u}"),
            N::NegInt(i) => write!(f, "{i}"),
            N::Float(x) => f.write_str(&shortest_float(x)),
        }
    }
}

/// A finite float in the shortest form that reads back the same, laid out as serde_json (ryu)
/// serde_norway's YAML print it: `1.0`, `0.001`, `1e+21`, `1.5e-7`.
fn shortest_float(x: f64) -> String {
    // `{:e}` gives a shortest round-trip digit string ("d.ddde-7"). When several of that
    // length read back the same, ryu takes the one nearest the exact value: the correctly
    // rounded one, when it reads back.
    let mut sci = format!("{:e}", x.abs());
    let len = sci
        .split('e')
        .next()
        .map_or(1, |m| m.len() - usize::from(m.contains('.')));
    let nearest = format!("{:.*e}", len - 1, x.abs());
    if nearest != sci && nearest.parse::<f64>() == Ok(x.abs()) {
        sci = nearest;
    }
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    let len = digits.len() as i32;
    // The decimal point sits after `point` digits.
    let point = exp + 1;
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    if point >= len && point <= 16 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (point - len) as usize));
        out.push_str(".0");
    } else if point > 0 && point <= 16 {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    } else if point > -5 && point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-point) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if len > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        if point > 1 {
            out.push('+');
        }
        out.push_str(&(point - 1).to_string());
    }
    out
}

/// A mapping whose keys keep the order they were inserted in (as serde_json's
/// `preserve_order`). Lookups are linear: the maps of manifests and scenarios are small.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map(Vec<(String, Value)>);

impl Map {
    pub fn new() -> Map {
        Map(Vec::new())
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    fn position(&self, key: &str) -> Option<usize> {
        self.0.iter().position(|(k, _)| k == key)
    }
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }
    /// Replaces the value in place when the key is present (keeping its position), else
    /// appends; returns the value replaced.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.position(&key) {
            Some(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }
    /// Removes a key, keeping the order of the others.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.position(key).map(|i| self.0.remove(i).1)
    }
    /// The value at `key`, inserted with `default` first when absent.
    pub fn entry_or_insert_with(
        &mut self,
        key: &str,
        default: impl FnOnce() -> Value,
    ) -> &mut Value {
        let i = match self.position(key) {
            Some(i) => i,
            None => {
                self.0.push((key.to_string(), default()));
                self.0.len() - 1
            }
        };
        &mut self.0[i].1
    }
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&String, &Value)> + ExactSizeIterator {
        self.0.iter().map(|(k, v)| (k, v))
    }
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&String, &mut Value)> {
        self.0.iter_mut().map(|(k, v)| (&*k, v))
    }
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.0.iter().map(|(_, v)| v)
    }
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &mut Value) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v));
    }
}

/// `map["key"]`: null when absent, as serde_json.
impl std::ops::Index<&str> for Map {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NULL)
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, Value)>,
        fn(&'a (String, Value)) -> (&'a String, &'a Value),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl FromIterator<(String, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Map {
        let mut m = Map::new();
        m.extend(iter);
        m
    }
}

impl Extend<(String, Value)> for Map {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

static NULL: Value = Value::Null;

impl Value {
    /// The member `key` of an object, or element `i` of an array.
    pub fn get<I: Index>(&self, at: I) -> Option<&Value> {
        at.index_into(self)
    }
    pub fn get_mut<I: Index>(&mut self, at: I) -> Option<&mut Value> {
        at.index_into_mut(self)
    }
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
    }
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.as_f64(),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }
    /// Every object's keys in byte order, as Go's encoders write maps: kubectl prints what
    /// the server returns as maps, so its YAML and JSON come out sorted.
    pub fn sort_keys(&mut self) {
        match self {
            Value::Object(m) => {
                crate::controller::ranking::sort_by_cmp(&mut m.0, |a, b| a.0.cmp(&b.0));
                m.0.iter_mut().for_each(|(_, v)| v.sort_keys());
            }
            Value::Array(a) => a.iter_mut().for_each(Value::sort_keys),
            _ => {}
        }
    }
    /// Takes the value out, leaving null.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
    /// What kind of value this is, for messages ("a string", "a map").
    pub fn describe(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => format!("boolean `{b}`"),
            Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
            Value::Number(n) => format!("integer `{n}`"),
            Value::String(s) => format!("string {s:?}"),
            Value::Array(_) => "sequence".into(),
            Value::Object(_) => "map".into(),
        }
    }
}

/// What `Value::get` and `value[..]` accept: an object key or an array position.
pub trait Index {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;
}

impl Index for str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_object()?.get(self)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_object_mut()?.get_mut(self)
    }
}

impl Index for String {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(v)
    }
}

impl Index for usize {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array()?.get(*self)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_array_mut()?.get_mut(*self)
    }
}

impl<T: Index + ?Sized> Index for &T {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(v)
    }
}

/// `value["key"]` and `value[0]`: null when absent, as serde_json.
impl<I: Index> std::ops::Index<I> for Value {
    type Output = Value;
    fn index(&self, at: I) -> &Value {
        at.index_into(self).unwrap_or(&NULL)
    }
}

/// `value["key"] = x` on an object inserts the key (a null value becomes an object first).
impl std::ops::IndexMut<&str> for Value {
    fn index_mut(&mut self, key: &str) -> &mut Value {
        if self.is_null() {
            *self = Value::Object(Map::new());
        }
        match self {
            Value::Object(m) => m.entry_or_insert_with(key, || Value::Null),
            other => panic!("cannot index {} with {key:?}", other.describe()),
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Number(i.into())
    }
}
impl From<i32> for Value {
    fn from(i: i32) -> Value {
        Value::Number((i as i64).into())
    }
}
impl From<u64> for Value {
    fn from(u: u64) -> Value {
        Value::Number(u.into())
    }
}
impl From<u32> for Value {
    fn from(u: u32) -> Value {
        Value::Number((u as u64).into())
    }
}
impl From<usize> for Value {
    fn from(u: usize) -> Value {
        Value::Number((u as u64).into())
    }
}
impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}
impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Object(m)
    }
}
impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Value {
        Value::Array(v.into_iter().map(Into::into).collect())
    }
}

/// Compact JSON, as serde_json's `to_string`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        json::write_compact(self, &mut out);
        f.write_str(&out)
    }
}

/// Builds a [`Value`] from JSON-like syntax: `json!({"a": 1, "b": [x, null]})`. A value is an
/// object or array literal, `null`, or any expression whose type is [`ToValue`].
#[macro_export]
macro_rules! json {
    (null) => { $crate::value::Value::Null };
    ([ $($tt:tt)* ]) => {
        $crate::value::Value::Array($crate::json_items!([] [] $($tt)*))
    };
    ({ $($tt:tt)* }) => {
        $crate::value::Value::Object({
            #[allow(unused_mut)]
            let mut map = $crate::value::Map::new();
            $crate::json_members!(map () $($tt)*);
            map
        })
    };
    ($e:expr) => { $crate::value::ToValue::to_value(&$e) };
}

/// `json!` array items: the items done, then one item's tokens up to a top-level comma.
#[doc(hidden)]
#[macro_export]
macro_rules! json_items {
    ([$($done:expr),*] []) => { ::std::vec![$($done),*] };
    ([$($done:expr),*] [$($v:tt)+]) => { ::std::vec![$($done,)* $crate::json!($($v)+)] };
    ([$($done:expr),*] [$($v:tt)+] , $($rest:tt)*) => {
        $crate::json_items!([$($done,)* $crate::json!($($v)+)] [] $($rest)*)
    };
    ([$($done:expr),*] [$($v:tt)*] $next:tt $($rest:tt)*) => {
        $crate::json_items!([$($done),*] [$($v)* $next] $($rest)*)
    };
}

/// `json!` object members: a key (a literal or a parenthesised expression), `:`, then the
/// value's tokens up to a top-level comma.
#[doc(hidden)]
#[macro_export]
macro_rules! json_members {
    ($map:ident ()) => {};
    ($map:ident () $key:literal : $($rest:tt)*) => {
        $crate::json_member_value!($map ($key) [] $($rest)*);
    };
    ($map:ident () ($key:expr) : $($rest:tt)*) => {
        $crate::json_member_value!($map ($key) [] $($rest)*);
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! json_member_value {
    ($map:ident ($key:expr) [$($v:tt)+]) => {
        $map.insert(::std::string::String::from($key), $crate::json!($($v)+));
    };
    ($map:ident ($key:expr) [$($v:tt)+] , $($rest:tt)*) => {
        $map.insert(::std::string::String::from($key), $crate::json!($($v)+));
        $crate::json_members!($map () $($rest)*);
    };
    ($map:ident ($key:expr) [$($v:tt)*] $next:tt $($rest:tt)*) => {
        $crate::json_member_value!($map ($key) [$($v)* $next] $($rest)*);
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_serde_json_prints_them() {
        for (x, want) in [
            (1.0, "1.0"),
            (0.5, "0.5"),
            (-2.25, "-2.25"),
            (100.0, "100.0"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (1e21, "1e+21"),
            (0.001, "0.001"),
            (0.0001, "0.0001"),
            (0.00001, "0.00001"),
            (0.000001, "1e-6"),
            (1.5e-7, "1.5e-7"),
            (123456.789, "123456.789"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (f64::MAX, "1.7976931348623157e+308"),
        ] {
            assert_eq!(Value::from(x).to_string(), want, "{x}");
            let oracle = serde_json::to_string(&x).unwrap();
            assert_eq!(want, oracle, "{x}");
        }
        // Across magnitudes and bit patterns.
        let mut bits = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            bits = bits
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let uniform = (bits >> 11) as f64 / (1u64 << 53) as f64 * 2e6 - 1e6;
            for x in [f64::from_bits(bits), uniform] {
                if x.is_finite() {
                    assert_eq!(shortest_float(x), serde_json::to_string(&x).unwrap());
                }
            }
        }
        for e in -30..30 {
            for m in [1.0, 1.5, 2.0, 9.999] {
                let x = m * 10f64.powi(e);
                assert_eq!(shortest_float(x), serde_json::to_string(&x).unwrap());
            }
        }
    }

    #[test]
    fn json_macro_builds_nested_values() {
        let n = 3;
        let names = ["a", "b"];
        let v = json!({
            "n": n + 1,
            "list": [1, "two", null, {"deep": true}],
            "names": names.iter().map(|s| s.to_uppercase()).collect::<Vec<_>>(),
            ("computed".to_string() + "Key"): -1,
            "empty": {},
        });
        assert_eq!(
            v.to_string(),
            r#"{"n":4,"list":[1,"two",null,{"deep":true}],"names":["A","B"],"computedKey":-1,"empty":{}}"#
        );
        assert_eq!(v["list"][3]["deep"], Value::Bool(true));
        assert_eq!(v["missing"]["x"], Value::Null);
        assert_eq!(json!([]), Value::Array(vec![]));
    }

    #[test]
    fn maps_keep_insertion_order_and_replace_in_place() {
        let mut m = Map::new();
        m.insert("b".into(), 1.into());
        m.insert("a".into(), 2.into());
        assert_eq!(m.insert("b".into(), 3.into()), Some(1.into()));
        assert_eq!(m.keys().collect::<Vec<_>>(), ["b", "a"]);
        assert_eq!(m.remove("b"), Some(3.into()));
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a"]);
    }
}
