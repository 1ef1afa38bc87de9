//! JSON text: compact (byte for byte what serde_json's `to_string` writes, which the trace and
//! share links use), indented (what `kubectl get -o json` prints), and reading (JSON is YAML
//! flow syntax, so the YAML reader reads it).

use super::Value;

pub fn write_compact(v: &Value, out: &mut String) {
    match v {
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(k, false, out);
                out.push(':');
                write_compact(x, out);
            }
            out.push('}');
        }
        scalar => write_scalar(scalar, false, out),
    }
}

fn write_scalar(v: &Value, go: bool, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => string(s, go, out),
        Value::Array(_) | Value::Object(_) => write_compact(v, out),
    }
}

/// JSON as `kubectl get -o json` prints it: Go's `json.MarshalIndent` with four spaces, which
/// also escapes `<`, `>`, `&` and the line and paragraph separators.
pub fn to_json_pretty(v: &Value) -> String {
    let mut out = String::new();
    pretty(v, 0, &mut out);
    out
}

fn pretty(v: &Value, depth: usize, out: &mut String) {
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n("    ", depth));
    };
    match v {
        Value::Array(a) if !a.is_empty() => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                pretty(x, depth + 1, out);
            }
            newline(out, depth);
            out.push(']');
        }
        Value::Object(m) if !m.is_empty() => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                string(k, true, out);
                out.push_str(": ");
                pretty(x, depth + 1, out);
            }
            newline(out, depth);
            out.push('}');
        }
        scalar => write_scalar(scalar, true, out),
    }
}

/// A quoted JSON string. serde_json escapes only what JSON requires (lower-case `\u00xx` for
/// control characters without a short form); Go (`go`) also escapes HTML's three characters
/// and U+2028/U+2029.
fn string(s: &str, go: bool, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if go => {
                let n = c as u32;
                out.push_str("\\u");
                for shift in [12, 8, 4, 0] {
                    out.push(HEX[(n >> shift) as usize & 15] as char);
                }
            }
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                out.push(HEX[(c as usize) >> 4] as char);
                out.push(HEX[(c as usize) & 15] as char);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Reads one JSON (or YAML) value. The message says where the text stops making sense.
pub fn parse_json(text: &str) -> Result<Value, String> {
    crate::yaml::parse(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn compact_output_is_serde_jsons() {
        let v = json!({
            "s": "quote \" back \\ nl \n tab \t bell \u{7} del \u{7f} é <&>",
            "n": [0, -5, 18446744073709551615u64, 2.5],
            "o": {"t": true, "f": false, "z": null},
            "e": [],
        });
        let text = v.to_string();
        let oracle: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(text, serde_json::to_string(&oracle).unwrap());
        assert_eq!(parse_json(&text).unwrap(), v);
    }

    #[test]
    fn reads_json_escapes_including_surrogate_pairs() {
        let v = parse_json(r#"{"a":"\/\u00e9\ud83d\ude00\n"}"#).unwrap();
        assert_eq!(v["a"], Value::from("/é😀\n"));
        assert!(parse_json(r#""\ud83d""#).is_err());
    }

    #[test]
    fn pretty_output_is_gos_marshal_indent() {
        let v = json!({"a": [1, {"b": "<x> & y"}], "c": {}, "d": []});
        assert_eq!(
            to_json_pretty(&v),
            "{\n    \"a\": [\n        1,\n        {\n            \"b\": \"\\u003cx\\u003e \\u0026 y\"\n        }\n    ],\n    \"c\": {},\n    \"d\": []\n}"
        );
    }
}
