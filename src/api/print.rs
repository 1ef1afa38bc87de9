//! kubectl's printing of objects: YAML as `kubectl get -o yaml` prints it (go-yaml through
//! sigs.k8s.io/yaml) and JSON as `kubectl get -o json` prints it (Go's `json.MarshalIndent`).
//!
//! The YAML writer is ours because no Rust crate writes go-yaml's dialect: block style with
//! two-space indentation, sequences under a key at the key's own indentation, strings plain
//! where they read back as the same string, single-quoted where they would read as something
//! else, double-quoted when they need escapes or when go-yaml's YAML 1.1 resolver would read
//! them as another type (`"True"`, `"1"`, `"yes"`, timestamps such as creationTimestamp), and
//! as literal blocks when they hold line breaks. Whether a plain scalar reads as a string is
//! asked of serde_norway (libyaml), the reader every manifest goes through. The JSON is
//! serde_json's, with a formatter that escapes as Go does.

use serde::Serialize;
use serde_json::Value;
use std::io;

/// The value as a YAML document, quoted as kubectl (go-yaml) quotes.
pub fn to_yaml(v: &Value) -> String {
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

/// JSON as `kubectl get -o json` prints it: four-space indentation, and `<`, `>`, `&`, U+2028
/// and U+2029 escaped as Go's encoder escapes them.
pub fn to_json(v: &Value) -> String {
    to_json_indented(v, b"    ")
}

/// [`to_json`] with another indentation (Go's `json.MarshalIndent`, as `kubectl version` calls
/// it with two spaces).
pub fn to_json_indented(v: &Value, indent: &'static [u8]) -> String {
    let mut out = Vec::new();
    let formatter = GoJson(serde_json::ser::PrettyFormatter::with_indent(indent));
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    v.serialize(&mut ser)
        .expect("a JSON value writes to memory");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// serde_json's pretty formatter with four spaces, escaping what Go's `json.Marshal` also
/// escapes (HTML's three characters and the JavaScript line terminators).
struct GoJson(serde_json::ser::PrettyFormatter<'static>);

impl serde_json::ser::Formatter for GoJson {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        s: &str,
    ) -> io::Result<()> {
        let mut rest = s;
        while let Some(i) = rest.find(['<', '>', '&', '\u{2028}', '\u{2029}']) {
            w.write_all(&rest.as_bytes()[..i])?;
            let c = rest[i..].chars().next().expect("found at i");
            write!(w, "\\u{:04x}", c as u32)?;
            rest = &rest[i + c.len_utf8()..];
        }
        w.write_all(rest.as_bytes())
    }
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Whether a plain scalar reads as something other than a string (null, a boolean, a number)
/// by the YAML 1.2 core schema libyaml's serde reader uses.
fn resolves_to_other(s: &str) -> bool {
    // A text whose aliases would expand past the limit is no scalar either.
    super::census::check_aliases(s).is_ok()
        && matches!(
            serde_norway::from_str::<Value>(s),
            Ok(Value::Null | Value::Bool(_) | Value::Number(_))
        )
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

/// libyaml's `yaml_emitter_analyze_scalar`, which go-yaml's emitter ports: what each character
/// allows of the plain, single-quoted and literal styles. (Kept whole, to be read against it.)
/// (Long: one branch per kind of scalar go-yaml tells apart, in its order.)
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
    if s.is_empty() || a.plain && (resolves_to_other(s) || go_yaml_reads_as_other(s)) {
        // go-yaml asks for double quotes outright when plain would change the type.
        double_quoted(out, s);
    } else if a.plain {
        out.push_str(s);
    } else if a.single {
        single_quoted(out, s);
    } else {
        double_quoted(out, s);
    }
}

/// Where go-yaml v2's resolver (YAML 1.1) reads a plain scalar as something other than a
/// string and the YAML 1.2 core schema does not: the other booleans, `<<`, integers with
/// underscores, octal or binary digits, sexagesimal numbers, and timestamps.
fn go_yaml_reads_as_other(s: &str) -> bool {
    if matches!(
        s,
        "y" | "Y"
            | "yes"
            | "Yes"
            | "YES"
            | "n"
            | "N"
            | "no"
            | "No"
            | "NO"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
            | "<<"
    ) {
        return true;
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    let digits_and = |t: &str, extra: &[char]| {
        !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || extra.contains(&c))
    };
    // Numbers are tried only for text starting with a digit, a sign or a dot.
    if !unsigned.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return false;
    }
    // strconv.ParseInt(s without '_', 0, 64): 0b…, 0o…, 0x…, 0… (octal), decimal.
    let plain: String = unsigned.chars().filter(|c| *c != '_').collect();
    if unsigned.contains('_') && resolves_to_other(&plain) {
        return true;
    }
    if let Some(b) = plain.strip_prefix("0b")
        && !b.is_empty()
        && b.chars().all(|c| c == '0' || c == '1')
    {
        return true;
    }
    // Sexagesimal: [0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?
    let whole = unsigned.split_once('.').map_or(unsigned, |(w, _)| w);
    let mut parts = whole.split(':');
    if let Some(first) = parts.next()
        && whole.contains(':')
        && unsigned
            .split_once('.')
            .is_none_or(|(_, f)| digits_and(f, &['_']) || f.is_empty())
        && first.starts_with(|c: char| c.is_ascii_digit())
        && digits_and(first, &['_'])
        && parts.all(|p| {
            (1..=2).contains(&p.len())
                && digits_and(p, &[])
                && (p.len() == 1 || p.as_bytes()[0] <= b'5')
        })
    {
        return true;
    }
    is_go_timestamp(s)
}

/// go-yaml's timestamp forms: `2006-1-2`, then optionally `T`/`t`/` ` and `15:4:5` with an
/// optional fraction, and after a `T`/`t` a zone (`Z` or `±07:00`), each field in range.
fn is_go_timestamp(s: &str) -> bool {
    fn num(t: &str, min_len: usize, max_len: usize, lo: u32, hi: u32) -> bool {
        (min_len..=max_len).contains(&t.len())
            && t.bytes().all(|b| b.is_ascii_digit())
            && t.parse::<u32>().is_ok_and(|v| (lo..=hi).contains(&v))
    }
    let (date, time) = match s.find(['T', 't', ' ']) {
        Some(i) => (&s[..i], Some((&s[i + 1..], s.as_bytes()[i] != b' '))),
        None => (s, None),
    };
    let d: Vec<&str> = date.split('-').collect();
    if d.len() != 3
        || !num(d[0], 4, 4, 0, 9999)
        || !num(d[1], 1, 2, 1, 12)
        || !num(d[2], 1, 2, 1, 31)
    {
        return false;
    }
    let Some((time, zoned)) = time else {
        return true;
    };
    let (clock, zone) = if zoned {
        match time.find(['Z', '+', '-']) {
            Some(i) => (&time[..i], &time[i..]),
            None => return false,
        }
    } else {
        (time, "")
    };
    let (hms, frac) = clock.split_once('.').unwrap_or((clock, ""));
    let t: Vec<&str> = hms.split(':').collect();
    if t.len() != 3
        || !num(t[0], 1, 2, 0, 23)
        || !num(t[1], 1, 2, 0, 59)
        || !num(t[2], 1, 2, 0, 59)
        || (clock.contains('.') && !num(frac, 1, 9, 0, u32::MAX))
    {
        return false;
    }
    match zone {
        "" | "Z" => true,
        z => {
            z.len() == 6
                && z.as_bytes()[3] == b':'
                && num(&z[1..3], 2, 2, 0, 23)
                && num(&z[4..], 2, 2, 0, 59)
        }
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
