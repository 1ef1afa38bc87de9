//! Reading a parsed document (a `serde_json::Value`) into the model's types, with the path of
//! the field at fault in the error: `spec.template.spec.containers[0].ports[0].containerPort:
//! invalid type: string "http", expected i32`.
//!
//! Why our own and not serde_path_to_error, which the page used until stop 59: that crate wraps
//! the deserializer *and* every visitor it is handed, so each type's decoder was built twice in
//! the page (once over the wrapper, once over the value beneath with the wrapped visitors).
//! Measured on the page's release build, decoding without it was 35 KB gzipped smaller
//! (docs/performance.md). Here the value's own deserializer keeps the path: a map hands its
//! values a deserializer that knows its key, and an error takes the path of the innermost value
//! it came out of. Each type's decoder is built once, as over serde_json's own `Value`.
//!
//! What the path names matches serde_path_to_error's: `.` between keys, `[i]` for an item, no
//! path for an error of the whole document, and an error from inside a flattened or untagged
//! part (which serde buffers) is named at the value that holds it.

use serde::de::value::{StrDeserializer, StringDeserializer};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    SeqAccess, Unexpected, VariantAccess, Visitor,
};
use serde_json::{Number, Value};
use std::fmt;

/// Why a value does not fit a type, and where. Boxed, so that every `Result` of the decoders
/// is a pointer wide on its error side (a wider error measured 9 KB more of the page).
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeError(Box<Fault>);

#[derive(Debug, Clone, PartialEq)]
struct Fault {
    /// Set by the innermost value the error came out of; empty for the whole document.
    path: Option<String>,
    message: String,
}

impl DecodeError {
    /// The field at fault (`spec.replicas`, `steps[2].at`), empty for the whole document.
    pub fn path(&self) -> &str {
        self.0.path.as_deref().unwrap_or("")
    }

    /// What is wrong with it, without the path.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// Names the value the error came out of (a key's or an item's, where its reader returns),
    /// unless a value inside it is named already.
    #[cold]
    #[inline(never)]
    fn at(mut self, at: &Chain) -> Self {
        if self.0.path.is_none() {
            self.0.path = Some(at.to_string());
        }
        self
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.path() {
            "" => f.write_str(self.message()),
            path => write!(f, "{path}: {}", self.message()),
        }
    }
}

impl std::error::Error for DecodeError {}

impl de::Error for DecodeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DecodeError(Box::new(Fault {
            path: None,
            message: msg.to_string(),
        }))
    }
}

/// Reads a typed value; the error names the path of the field at fault.
pub fn from_value<T: DeserializeOwned>(v: Value) -> Result<T, DecodeError> {
    T::deserialize(At {
        value: v,
        at: &Chain::Root,
    })
}

/// Where a value lies in its document: a list linked through the stack of the values being
/// read, written out only when an error needs it.
#[derive(Clone, Copy)]
enum Chain<'a> {
    Root,
    Key(&'a Chain<'a>, &'a str),
    Index(&'a Chain<'a>, usize),
}

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Chain::Root => Ok(()),
            Chain::Key(parent, key) => {
                write!(f, "{parent}")?;
                if !matches!(parent, Chain::Root) {
                    f.write_str(".")?;
                }
                f.write_str(key)
            }
            Chain::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// A value and where it lies.
struct At<'a> {
    value: Value,
    at: &'a Chain<'a>,
}

/// serde's word for the value, in "invalid type: string \"abc\", expected i32".
fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// The refusal of a value of the wrong shape, worded as serde's visitors word it
/// ("invalid type: string \"x\", expected i32").
fn refuse(value: &Value, expected: &dyn de::Expected) -> DecodeError {
    de::Error::invalid_type(unexpected(value), expected)
}

macro_rules! deserialize_numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
            match self.value {
                Value::Number(n) => visit_number(n, v),
                other => Err(refuse(&other, &v)),
            }
        }
    )*};
}

fn visit_number<'de, V: Visitor<'de>>(n: Number, v: V) -> Result<V::Value, DecodeError> {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => v.visit_u64(u),
        (None, Some(i)) => v.visit_i64(i),
        _ => v.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
    }
}

fn visit_items<'de, V: Visitor<'de>>(
    items: Vec<Value>,
    at: &Chain,
    v: V,
) -> Result<V::Value, DecodeError> {
    let len = items.len();
    let mut seq = Items {
        items: items.into_iter(),
        next: 0,
        at,
    };
    let out = v.visit_seq(&mut seq)?;
    match seq.items.len() {
        0 => Ok(out),
        _ => Err(de::Error::invalid_length(len, &"fewer elements in array")),
    }
}

fn visit_fields<'de, V: Visitor<'de>>(
    map: serde_json::Map<String, Value>,
    at: &Chain,
    v: V,
) -> Result<V::Value, DecodeError> {
    let len = map.len();
    let mut fields = Fields {
        fields: map.into_iter(),
        key: String::new(),
        value: None,
        at,
    };
    let out = v.visit_map(&mut fields)?;
    match fields.fields.len() {
        0 => Ok(out),
        _ => Err(de::Error::invalid_length(len, &"fewer elements in map")),
    }
}

impl<'de> Deserializer<'de> for At<'_> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
        let at = self.at;
        match self.value {
            Value::Null => v.visit_unit(),
            Value::Bool(b) => v.visit_bool(b),
            Value::Number(n) => visit_number(n, v),
            Value::String(s) => v.visit_string(s),
            Value::Array(items) => visit_items(items, at, v),
            Value::Object(map) => visit_fields(map, at, v),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
        match self.value {
            Value::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, DecodeError> {
        v.visit_newtype_struct(self)
    }

    /// A unit variant is a string, any other a mapping of its one name to its content.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DecodeError> {
        let at = self.at;
        match self.value {
            Value::String(s) => v.visit_enum(IntoDeserializer::<DecodeError>::into_deserializer(s)),
            Value::Object(map) if map.len() == 1 => {
                let (name, value) = map.into_iter().next().expect("one entry");
                v.visit_enum(Variant { name, value, at })
            }
            Value::Object(_) => Err(de::Error::invalid_value(
                Unexpected::Map,
                &"map with a single key",
            )),
            other => Err(de::Error::invalid_type(
                unexpected(&other),
                &"string or map",
            )),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
        v.visit_unit()
    }

    // Each reader visits only the shapes its type can take and refuses any other in one place,
    // as serde_json's own `Value` does: forwarding all of them to `deserialize_any` builds every
    // visit (and its refusal) of every type, 33 KB more of the page.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DecodeError> {
        match self.value {
            Value::Object(map) => visit_fields(map, self.at, v),
            Value::Array(items) => visit_items(items, self.at, v),
            other => Err(refuse(&other, &v)),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
        match self.value {
            Value::Object(map) => visit_fields(map, self.at, v),
            other => Err(refuse(&other, &v)),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
        match self.value {
            Value::Array(items) => visit_items(items, self.at, v),
            other => Err(refuse(&other, &v)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
        match self.value {
            Value::String(s) => v.visit_string(s),
            other => Err(refuse(&other, &v)),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
        self.deserialize_string(v)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
        self.deserialize_string(v)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
        match self.value {
            Value::Bool(b) => v.visit_bool(b),
            other => Err(refuse(&other, &v)),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DecodeError> {
        match self.value {
            Value::Null => v.visit_unit(),
            other => Err(refuse(&other, &v)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_unit(v)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        v: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(v)
    }

    deserialize_numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    serde::forward_to_deserialize_any! { char bytes byte_buf }
}

/// The items of a list, each named by its index.
struct Items<'a> {
    items: std::vec::IntoIter<Value>,
    next: usize,
    at: &'a Chain<'a>,
}

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DecodeError> {
        let Some(value) = self.items.next() else {
            return Ok(None);
        };
        let at = Chain::Index(self.at, self.next);
        self.next += 1;
        seed.deserialize(At { value, at: &at })
            .map_err(|e| e.at(&at))
            .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// The fields of a mapping, each value named by its key.
struct Fields<'a> {
    fields: serde_json::map::IntoIter,
    /// The key last read, which names its value.
    key: String,
    value: Option<Value>,
    at: &'a Chain<'a>,
}

impl<'de> MapAccess<'de> for Fields<'_> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DecodeError> {
        let Some((key, value)) = self.fields.next() else {
            return Ok(None);
        };
        self.key = key;
        self.value = Some(value);
        seed.deserialize(StrDeserializer::new(&self.key)).map(Some)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<T::Value, DecodeError> {
        let value = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("a value read before its key"))?;
        let at = Chain::Key(self.at, &self.key);
        seed.deserialize(At { value, at: &at })
            .map_err(|e| e.at(&at))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

/// A variant written as `{name: content}`.
struct Variant<'a> {
    name: String,
    value: Value,
    at: &'a Chain<'a>,
}

impl<'de, 'a> EnumAccess<'de> for Variant<'a> {
    type Error = DecodeError;
    type Variant = At<'a>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, At<'a>), DecodeError> {
        let name: StringDeserializer<DecodeError> = self.name.into_deserializer();
        let variant = seed.deserialize(name)?;
        Ok((
            variant,
            At {
                value: self.value,
                at: self.at,
            },
        ))
    }
}

impl<'de> VariantAccess<'de> for At<'_> {
    type Error = DecodeError;

    fn unit_variant(self) -> Result<(), DecodeError> {
        match self.value {
            Value::Null => Ok(()),
            other => Err(<DecodeError as de::Error>::invalid_type(
                unexpected(&other),
                &"unit variant",
            )
            .at(self.at)),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, DecodeError> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(v)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_map(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Doc {
        #[serde(default)]
        replicas: i32,
        #[serde(default)]
        items: Vec<Item>,
        #[serde(default)]
        mode: Option<Mode>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Item {
        name: String,
        #[serde(default)]
        labels: std::collections::BTreeMap<String, String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    enum Mode {
        Plain,
        Sized(u8),
        Shaped { w: u8 },
    }

    fn error(v: Value) -> String {
        from_value::<Doc>(v).unwrap_err().to_string()
    }

    #[test]
    fn an_error_names_the_innermost_field_it_came_out_of() {
        let cases = [
            (
                json!({"replicas": "abc"}),
                "replicas: invalid type: string \"abc\", expected i32",
            ),
            (
                json!({"items": [{"name": "a"}, {"name": 3}]}),
                "items[1].name: invalid type: integer `3`, expected a string",
            ),
            (
                json!({"items": [{"name": "a", "labels": {"app": false}}]}),
                "items[0].labels.app: invalid type: boolean `false`, expected a string",
            ),
            (json!({"items": [{}]}), "items[0]: missing field `name`"),
            (
                json!({"replica": 1}),
                "unknown field `replica`, expected one of `replicas`, `items`, `mode`",
            ),
            (
                json!({"mode": "Square"}),
                "mode: unknown variant `Square`, expected one of `Plain`, `Sized`, `Shaped`",
            ),
            (
                json!({"mode": {"Sized": -1}}),
                "mode: invalid value: integer `-1`, expected u8",
            ),
            (
                json!({"mode": {"Shaped": {"w": "x"}}}),
                "mode.w: invalid type: string \"x\", expected u8",
            ),
            (
                json!("text"),
                "invalid type: string \"text\", expected struct Doc",
            ),
            (
                json!({"replicas": 3_000_000_000u64}),
                "replicas: invalid value: integer `3000000000`, expected i32",
            ),
        ];
        for (v, want) in cases {
            assert_eq!(error(v.clone()), want, "{v}");
        }
    }

    #[test]
    fn a_value_that_fits_reads_as_serde_json_reads_it() {
        let v = json!({
            "replicas": 2,
            "items": [{"name": "a", "labels": {"app": "web"}}],
            "mode": {"Shaped": {"w": 4}},
        });
        assert_eq!(
            from_value::<Doc>(v.clone()).unwrap(),
            serde_json::from_value::<Doc>(v.clone()).unwrap()
        );
        assert_eq!(from_value::<Value>(v.clone()).unwrap(), v);
        assert_eq!(
            from_value::<Doc>(json!({"mode": "Plain"})).unwrap().mode,
            Some(Mode::Plain)
        );
    }
}
