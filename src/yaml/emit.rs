//! The writer: block style with two-space indentation, sequences under a key at the key's own
//! indentation, and strings plain where they read back as the same string, single-quoted
//! where they would read as something else, double-quoted when they need escapes, and as
//! literal blocks when they hold line breaks (the choices libyaml makes for serde's YAML).

use super::parse::resolve;
use crate::value::Value;

/// The value as a YAML document.
pub fn to_string(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => mapping(&mut out, v, 0),
        Value::Array(a) if !a.is_empty() => sequence(&mut out, v, 0),
        _ => {
            scalar(&mut out, v, 0, false);
            out.push('\n');
        }
    }
    out
}

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// Entries at `indent`; the caller has placed the cursor where the first key goes.
fn mapping(out: &mut String, v: &Value, indent: usize) {
    let Value::Object(m) = v else { return };
    for (i, (k, val)) in m.iter().enumerate() {
        if i > 0 {
            pad(out, indent);
        }
        string(out, k, indent, true);
        out.push(':');
        match val {
            Value::Object(c) if !c.is_empty() => {
                out.push('\n');
                pad(out, indent + 2);
                mapping(out, val, indent + 2);
            }
            Value::Array(a) if !a.is_empty() => {
                out.push('\n');
                pad(out, indent);
                sequence(out, val, indent);
            }
            _ => {
                out.push(' ');
                scalar(out, val, indent, false);
                out.push('\n');
            }
        }
    }
}

/// Items at `indent`; the caller has placed the cursor where the first `-` goes.
fn sequence(out: &mut String, v: &Value, indent: usize) {
    let Value::Array(a) = v else { return };
    for (i, item) in a.iter().enumerate() {
        if i > 0 {
            pad(out, indent);
        }
        out.push_str("- ");
        match item {
            Value::Object(c) if !c.is_empty() => mapping(out, item, indent + 2),
            Value::Array(c) if !c.is_empty() => sequence(out, item, indent + 2),
            _ => {
                scalar(out, item, indent, false);
                out.push('\n');
            }
        }
    }
}

/// A scalar (or an empty collection) on the current line. `indent` is that of the enclosing
/// block, for the lines of a literal block scalar.
fn scalar(out: &mut String, v: &Value, indent: usize, key: bool) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => string(out, s, indent, key),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

/// What libyaml's scalar analysis finds in a string, reduced to what the style choice needs.
struct Analysis {
    /// Plain in block context (the writer never emits flow collections with content).
    plain: bool,
    single: bool,
    block: bool,
}

/// libyaml's `IS_PRINTABLE`: what may appear unescaped (tab and carriage return may not).
fn printable(c: char) -> bool {
    matches!(
        c,
        '\n' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..
    ) && c != '\u{feff}'
}

/// libyaml's `IS_BREAK`.
fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn analyze(s: &str) -> Analysis {
    let mut a = Analysis {
        plain: true,
        single: true,
        block: true,
    };
    if s.is_empty() {
        a.plain = false;
        return a;
    }
    if s.starts_with("---") || s.starts_with("...") {
        a.plain = false;
    }
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let (mut special, mut line_breaks, mut indicators) = (false, false, false);
    let mut preceded_by_ws = true;
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        let followed_by_ws = next.is_none_or(|c| matches!(c, ' ' | '\t' | '\n'));
        // (Only the indicators that matter in block context.)
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => indicators = true,
                '?' | ':' | '-' if followed_by_ws => indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_ws => indicators = true,
                '#' if preceded_by_ws => indicators = true,
                _ => {}
            }
        }
        if !printable(c) {
            special = true;
        }
        if is_break(c) {
            line_breaks = true;
        }
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i == n - 1 {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            if i == 0 {
                leading_break = true;
            }
            if i == n - 1 {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_ws = matches!(c, ' ' | '\t' | '\n');
    }
    if leading_space || leading_break || trailing_space || trailing_break {
        a.plain = false;
    }
    if trailing_space {
        a.block = false;
    }
    if break_space {
        a.plain = false;
        a.single = false;
    }
    if space_break || special {
        a.plain = false;
        a.single = false;
        a.block = false;
    }
    if line_breaks || indicators {
        a.plain = false;
    }
    // (libyaml writes a line or paragraph separator inside single quotes as an indented line
    // break; double quotes escape it, which reads back the same with less to get wrong.)
    if s.contains(['\u{2028}', '\u{2029}']) {
        a.single = false;
    }
    a
}

fn string(out: &mut String, s: &str, indent: usize, key: bool) {
    let a = analyze(s);
    // Text with line breaks is asked for as a literal block; where one cannot hold it (a
    // trailing space, a key), libyaml falls back to double quotes.
    if s.contains('\n') {
        return if a.block && !key {
            literal(out, s, indent)
        } else {
            double_quoted(out, s)
        };
    }
    let ambiguous = !matches!(resolve(s), Value::String(_));
    if a.plain && !ambiguous {
        out.push_str(s);
    } else if a.single {
        single_quoted(out, s);
    } else {
        double_quoted(out, s);
    }
}

fn single_quoted(out: &mut String, s: &str) {
    out.push('\'');
    out.push_str(&s.replace('\'', "''"));
    out.push('\'');
}

fn double_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        if printable(c) && !is_break(c) && c != '"' && c != '\\' {
            out.push(c);
            continue;
        }
        out.push('\\');
        match c {
            '\0' => out.push('0'),
            '\x07' => out.push('a'),
            '\x08' => out.push('b'),
            '\t' => out.push('t'),
            '\n' => out.push('n'),
            '\x0b' => out.push('v'),
            '\x0c' => out.push('f'),
            '\r' => out.push('r'),
            '\x1b' => out.push('e'),
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            '\u{85}' => out.push('N'),
            '\u{a0}' => out.push('_'),
            '\u{2028}' => out.push('L'),
            '\u{2029}' => out.push('P'),
            c if (c as u32) <= 0xff => out.push_str(&format!("x{:02X}", c as u32)),
            c if (c as u32) <= 0xffff => out.push_str(&format!("u{:04X}", c as u32)),
            c => out.push_str(&format!("U{:08X}", c as u32)),
        }
    }
    out.push('"');
}

/// `|` with the chomping that keeps the trailing line breaks exact, and an indentation
/// indicator when the text starts with a space.
fn literal(out: &mut String, s: &str, indent: usize) {
    out.push('|');
    if s.starts_with(' ') || s.starts_with('\n') {
        out.push('2');
    }
    let trailing = s.len() - s.trim_end_matches('\n').len();
    match trailing {
        0 => out.push('-'),
        1 if s.len() > 1 => {}
        _ => out.push('+'),
    }
    let body = if trailing > 0 { &s[..s.len() - 1] } else { s };
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            pad(out, indent + 2);
            out.push_str(line);
        }
    }
}
