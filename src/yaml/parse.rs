//! The reader: a recursive descent over characters, block structure by indentation.

use super::Error;
use crate::small_map::SmallMap;
use crate::value::{Map, Number, Value};

/// Every document of a stream, in order (an empty document is `null`).
pub fn parse_documents(text: &str) -> Result<Vec<Value>, Error> {
    Parser::new(text).stream()
}

/// A stream holding at most one document (none reads as `null`).
pub fn parse(text: &str) -> Result<Value, Error> {
    let mut p = Parser::new(text);
    let docs = p.stream()?;
    if docs.len() > 1 {
        return Err(Error {
            line: 1,
            column: 1,
            message: "deserializing from YAML containing more than one document is not supported"
                .into(),
        });
    }
    Ok(docs.into_iter().next().unwrap_or(Value::Null))
}

/// How a scalar was written, which decides whether it is resolved (plain) or a string.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    Plain,
    Quoted,
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    /// 0-based line and column of `pos`.
    line: usize,
    col: usize,
    anchors: SmallMap<String, Value>,
}

fn is_blank(c: Option<char>) -> bool {
    matches!(c, Some(' ' | '\t'))
}

fn is_break(c: Option<char>) -> bool {
    matches!(c, Some('\n' | '\r'))
}

fn is_blank_or_end(c: Option<char>) -> bool {
    matches!(c, None | Some(' ' | '\t' | '\n' | '\r'))
}

fn is_flow_indicator(c: Option<char>) -> bool {
    matches!(c, Some(',' | '[' | ']' | '{' | '}'))
}

impl Parser {
    fn new(text: &str) -> Parser {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Parser {
            chars: text.chars().collect(),
            pos: 0,
            line: 0,
            col: 0,
            anchors: SmallMap::new(),
        }
    }

    // ------------------------------------------------------------ characters

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }
    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }
    fn bump(&mut self) {
        match self.peek() {
            Some('\r') if self.peek_at(1) == Some('\n') => {
                self.pos += 2;
                self.line += 1;
                self.col = 0;
            }
            Some('\n' | '\r') => {
                self.pos += 1;
                self.line += 1;
                self.col = 0;
            }
            Some(_) => {
                self.pos += 1;
                self.col += 1;
            }
            None => {}
        }
    }
    fn err<T>(&self, message: impl Into<String>) -> Result<T, Error> {
        Err(Error {
            line: self.line + 1,
            column: self.col + 1,
            message: message.into(),
        })
    }
    fn eof(&self) -> bool {
        self.pos >= self.chars.len()
    }
    fn skip_blanks(&mut self) {
        while is_blank(self.peek()) {
            self.bump();
        }
    }
    /// At the end of the line's content: a line break, a comment or the end of the text.
    fn at_line_end(&self) -> bool {
        matches!(self.peek(), None | Some('\n' | '\r' | '#'))
    }
    /// Skips blanks, comments and line breaks up to the next content. A tab in the
    /// indentation of a content line is refused, as YAML does.
    fn skip_to_content(&mut self) -> Result<(), Error> {
        loop {
            let line_start = self.col == 0;
            let mut tab = false;
            while is_blank(self.peek()) {
                tab |= line_start && self.peek() == Some('\t');
                self.bump();
            }
            if self.peek() == Some('#') {
                while !is_break(self.peek()) && !self.eof() {
                    self.bump();
                }
            }
            if is_break(self.peek()) {
                self.bump();
                continue;
            }
            if tab && !self.eof() {
                return self.err("found a tab character that violates indentation");
            }
            return Ok(());
        }
    }
    /// `---` or `...` at the start of a line, followed by a blank or the end.
    fn at_document_marker(&self) -> Option<char> {
        let c = self.peek()?;
        (self.col == 0
            && (c == '-' || c == '.')
            && self.peek_at(1) == Some(c)
            && self.peek_at(2) == Some(c)
            && is_blank_or_end(self.peek_at(3)))
        .then_some(c)
    }
    /// After a node: only a comment may follow on its line. (A node that spans lines leaves
    /// the position at the next line's content, where there is nothing to check.)
    fn expect_line_end(&mut self, what: &str) -> Result<(), Error> {
        let line_start = self.pos - self.col;
        if self.chars[line_start..self.pos].iter().all(|c| *c == ' ') {
            return Ok(());
        }
        self.skip_blanks();
        if self.at_line_end() {
            Ok(())
        } else {
            self.err(format!("did not find expected {what}"))
        }
    }

    // ------------------------------------------------------------ documents

    fn stream(&mut self) -> Result<Vec<Value>, Error> {
        let mut docs = vec![];
        loop {
            self.skip_to_content()?;
            while self.col == 0 && self.peek() == Some('%') {
                while !is_break(self.peek()) && !self.eof() {
                    self.bump();
                }
                self.skip_to_content()?;
            }
            if self.eof() {
                // A stream with no document at all reads as one empty document.
                if docs.is_empty() {
                    docs.push(Value::Null);
                }
                return Ok(docs);
            }
            let explicit = self.at_document_marker() == Some('-');
            if explicit {
                for _ in 0..3 {
                    self.bump();
                }
                self.skip_blanks();
            } else if self.at_document_marker() == Some('.') {
                self.bump_line();
                continue;
            }
            let root = if explicit && !self.at_line_end() {
                self.block_node(-1, false)?
            } else {
                self.skip_to_content()?;
                if self.eof() || self.at_document_marker().is_some() {
                    Value::Null
                } else {
                    self.block_node(-1, false)?
                }
            };
            docs.push(root);
            self.expect_line_end("<document start>")?;
            self.skip_to_content()?;
            match self.at_document_marker() {
                Some('.') => self.bump_line(),
                Some(_) => {}
                None if self.eof() => return Ok(docs),
                None => return self.err("did not find expected <document start>"),
            }
        }
    }

    fn bump_line(&mut self) {
        while !is_break(self.peek()) && !self.eof() {
            self.bump();
        }
    }

    // ------------------------------------------------------------ block nodes

    /// The node at the current position, inside a block whose indentation is `parent`.
    /// `after_key`: the node follows `key: ` on the same line, where no block collection can
    /// start.
    fn block_node(&mut self, parent: i64, after_key: bool) -> Result<Value, Error> {
        let (anchor, tag) = self.properties()?;
        if (anchor.is_some() || tag.is_some()) && self.at_line_end() {
            // The properties stand alone; the node is on the next lines.
            self.skip_to_content()?;
            let v =
                if self.eof() || self.at_document_marker().is_some() || (self.col as i64) <= parent
                {
                    Value::Null
                } else {
                    self.block_node(parent, false)?
                };
            return self.finish_node(v, Style::Quoted, anchor, tag);
        }
        let start = self.col as i64;
        let c = self.peek();
        if c == Some('-') && is_blank_or_end(self.peek_at(1)) {
            if after_key || anchor.is_some() || tag.is_some() {
                return self.err("block sequence entries are not allowed in this context");
            }
            let v = self.block_sequence(start)?;
            return self.finish_node(v, Style::Quoted, anchor, tag);
        }
        if c == Some('?') && is_blank_or_end(self.peek_at(1)) {
            return self.err("complex mapping keys (?) are not supported");
        }
        if matches!(c, Some('|' | '>')) {
            let s = self.block_scalar(parent)?;
            return self.finish_node(Value::String(s), Style::Quoted, anchor, tag);
        }
        if c == Some('*') {
            let v = self.alias()?;
            self.skip_blanks();
            if self.peek() == Some(':') && is_blank_or_end(self.peek_at(1)) {
                return self.err("aliases as mapping keys are not supported");
            }
            return Ok(v);
        }
        if matches!(c, Some('[' | '{')) {
            let v = self.flow_node(false)?;
            self.skip_blanks();
            if self.peek() == Some(':') && is_blank_or_end(self.peek_at(1)) {
                return self.err("flow collections as mapping keys are not supported");
            }
            return self.finish_node(v, Style::Quoted, anchor, tag);
        }
        let (line, col) = (self.line, self.col);
        let (text, style, ended_by_comment) = self.inline_scalar()?;
        self.skip_blanks();
        if self.peek() == Some(':') && is_blank_or_end(self.peek_at(1)) {
            if text.is_empty() && style == Style::Plain {
                return self.err("did not find expected key");
            }
            if after_key {
                return self.err("mapping values are not allowed in this context");
            }
            if self.line != line {
                return self.err("implicit keys must be on one line");
            }
            let v = self.block_mapping(start, text, (line, col))?;
            return self.finish_node(v, Style::Quoted, anchor, tag);
        }
        let text = if style == Style::Plain && !ended_by_comment {
            self.plain_continuation(text, parent)?
        } else {
            text
        };
        self.finish_node(Value::String(text), style, anchor, tag)
    }

    /// Anchor (`&name`) and tag (`!!str`), in either order, before a node.
    fn properties(&mut self) -> Result<(Option<String>, Option<String>), Error> {
        let (mut anchor, mut tag) = (None, None);
        loop {
            match self.peek() {
                Some('&') if anchor.is_none() => {
                    self.bump();
                    anchor = Some(self.name("anchor")?);
                }
                Some('!') if tag.is_none() => {
                    let mut t = String::new();
                    while !is_blank_or_end(self.peek())
                        && !is_flow_indicator(self.peek())
                        && self.peek() != Some('"')
                    {
                        t.push(self.peek().unwrap_or_default());
                        self.bump();
                    }
                    tag = Some(t);
                }
                _ => return Ok((anchor, tag)),
            }
            self.skip_blanks();
        }
    }

    fn name(&mut self, what: &str) -> Result<String, Error> {
        let mut n = String::new();
        while !is_blank_or_end(self.peek()) && !is_flow_indicator(self.peek()) {
            n.push(self.peek().unwrap_or_default());
            self.bump();
        }
        if n.is_empty() {
            return self.err(format!("did not find expected {what} name"));
        }
        Ok(n)
    }

    fn alias(&mut self) -> Result<Value, Error> {
        let (line, col) = (self.line, self.col);
        self.bump();
        let n = self.name("alias")?;
        match self.anchors.get(&n) {
            Some(v) => Ok(v.clone()),
            None => Err(Error {
                line: line + 1,
                column: col + 1,
                message: format!("unknown anchor {n:?}"),
            }),
        }
    }

    /// Resolves a scalar by its tag and style, and records its anchor.
    fn finish_node(
        &mut self,
        v: Value,
        style: Style,
        anchor: Option<String>,
        tag: Option<String>,
    ) -> Result<Value, Error> {
        let v = match (v, tag.as_deref()) {
            (Value::String(s), None) if style == Style::Plain => resolve(&s),
            (v, None | Some("!" | "!!map" | "!!seq")) => v,
            (Value::String(s), Some("!!str")) => Value::String(s),
            (Value::String(s), Some(t @ ("!!int" | "!!float" | "!!bool" | "!!null"))) => {
                let r = resolve(&s);
                let ok = match t {
                    "!!int" => r.is_i64() || r.is_u64(),
                    "!!float" => r.is_number(),
                    "!!bool" => r.is_boolean(),
                    _ => r.is_null(),
                };
                if !ok {
                    return self.err(format!("invalid value {s:?} for tag {t}"));
                }
                r
            }
            (_, Some(t)) => return self.err(format!("tags such as {t} are not supported")),
        };
        if let Some(a) = anchor {
            self.anchors.insert(a, v.clone());
        }
        Ok(v)
    }

    fn block_mapping(
        &mut self,
        indent: i64,
        first_key: String,
        first_at: (usize, usize),
    ) -> Result<Value, Error> {
        let mut map = Map::new();
        let (mut key, mut at) = (first_key, first_at);
        loop {
            self.bump(); // ':'
            self.skip_blanks();
            let value = if self.at_line_end() {
                self.skip_to_content()?;
                let col = self.col as i64;
                if self.eof() || self.at_document_marker().is_some() {
                    Value::Null
                } else if col > indent {
                    self.block_node(indent, false)?
                } else if col == indent
                    && self.peek() == Some('-')
                    && is_blank_or_end(self.peek_at(1))
                {
                    // A sequence may sit at its key's indentation.
                    self.block_sequence(indent)?
                } else {
                    Value::Null
                }
            } else {
                let v = self.block_node(indent, true)?;
                self.expect_line_end("key")?;
                v
            };
            insert_new(&mut map, key, value, at)?;
            self.skip_to_content()?;
            let col = self.col as i64;
            if self.eof() || self.at_document_marker().is_some() || col < indent {
                return Ok(Value::Object(map));
            }
            if col > indent {
                return self.err("did not find expected key (the line is indented too far)");
            }
            if self.peek() == Some('-') && is_blank_or_end(self.peek_at(1)) {
                return self.err("did not find expected key (a sequence entry among mapping keys)");
            }
            if self.peek() == Some('?') && is_blank_or_end(self.peek_at(1)) {
                return self.err("complex mapping keys (?) are not supported");
            }
            at = (self.line, self.col);
            let (k, style, _) = self.inline_scalar()?;
            if k.is_empty() && style == Style::Plain {
                return self.err("did not find expected key");
            }
            self.skip_blanks();
            if self.peek() != Some(':') || !is_blank_or_end(self.peek_at(1)) {
                return self.err("could not find expected ':'");
            }
            if self.line != at.0 {
                return self.err("implicit keys must be on one line");
            }
            key = k;
        }
    }

    fn block_sequence(&mut self, indent: i64) -> Result<Value, Error> {
        let mut items = vec![];
        loop {
            self.bump(); // '-'
            self.skip_blanks();
            let item = if self.at_line_end() {
                self.skip_to_content()?;
                if self.eof() || self.at_document_marker().is_some() || (self.col as i64) <= indent
                {
                    Value::Null
                } else {
                    self.block_node(indent, false)?
                }
            } else {
                self.block_node(indent, false)?
            };
            items.push(item);
            self.expect_line_end("'-' entry")?;
            self.skip_to_content()?;
            let col = self.col as i64;
            if self.eof() || self.at_document_marker().is_some() || col < indent {
                return Ok(Value::Array(items));
            }
            if col > indent {
                return self
                    .err("did not find expected '-' indicator (the line is indented too far)");
            }
            if self.peek() != Some('-') || !is_blank_or_end(self.peek_at(1)) {
                // A mapping key at a sequence's indentation ends the sequence (the compact
                // form `key:\n- a\nnext: b`); the caller checks what follows.
                return Ok(Value::Array(items));
            }
        }
    }

    // ------------------------------------------------------------ scalars

    /// A scalar on the current line (a quoted one may continue on later lines). Returns the
    /// text, its style, and whether a comment ended it.
    fn inline_scalar(&mut self) -> Result<(String, Style, bool), Error> {
        match self.peek() {
            Some('\'') => Ok((self.quoted()?, Style::Quoted, false)),
            Some('"') => Ok((self.quoted()?, Style::Quoted, false)),
            Some(c @ ('%' | '@' | '`' | '|' | '>' | ',' | ']' | '}')) => {
                self.err(format!("found character {c:?} that cannot start any token"))
            }
            Some('[' | '{') => self.err("flow collections as mapping keys are not supported"),
            _ => {
                let (s, comment) = self.plain_line(false);
                Ok((s, Style::Plain, comment))
            }
        }
    }

    /// One line of a plain scalar. In flow context it also stops at flow indicators.
    fn plain_line(&mut self, flow: bool) -> (String, bool) {
        let mut s = String::new();
        let mut blanks = String::new();
        loop {
            let c = self.peek();
            match c {
                None | Some('\n' | '\r') => return (s, false),
                Some(' ' | '\t') => {
                    if self.peek_at(1) == Some('#') {
                        return (s, true);
                    }
                    blanks.push(c.unwrap_or(' '));
                    self.bump();
                    continue;
                }
                Some(':')
                    if is_blank_or_end(self.peek_at(1))
                        || (flow && is_flow_indicator(self.peek_at(1))) =>
                {
                    return (s, false);
                }
                _ if flow && is_flow_indicator(c) => return (s, false),
                Some(ch) => {
                    s.push_str(&blanks);
                    blanks.clear();
                    s.push(ch);
                    self.bump();
                }
            }
        }
    }

    /// Later lines of a plain scalar in block context: more indented than its block, folded.
    fn plain_continuation(&mut self, mut s: String, parent: i64) -> Result<String, Error> {
        loop {
            let saved = (self.pos, self.line, self.col);
            let mut breaks = 0;
            while is_blank(self.peek()) || is_break(self.peek()) {
                if is_break(self.peek()) {
                    breaks += 1;
                }
                self.bump();
            }
            if breaks == 0
                || self.eof()
                || (self.col as i64) <= parent
                || self.peek() == Some('#')
                || self.at_document_marker().is_some()
            {
                (self.pos, self.line, self.col) = saved;
                return Ok(s);
            }
            fold_breaks(&mut s, breaks);
            let (more, comment) = self.plain_line(false);
            s.push_str(&more);
            if self.peek() == Some(':') {
                return self.err("mapping values are not allowed in this context");
            }
            if comment {
                return Ok(s);
            }
        }
    }

    /// Folds the line breaks inside a quoted scalar: one break is a space, more are newlines
    /// less one; blanks around them go. `raw_ws` is where the unescaped blanks before the break
    /// began in `s`.
    fn fold_quoted_break(&mut self, s: &mut String, raw_ws: usize) -> Result<(), Error> {
        s.truncate(raw_ws);
        let mut breaks = 0;
        while is_blank(self.peek()) || is_break(self.peek()) {
            if is_break(self.peek()) {
                breaks += 1;
            }
            self.bump();
        }
        if self.eof() {
            return self.err("found unexpected end of stream while scanning a quoted scalar");
        }
        if self.at_document_marker().is_some() {
            return self.err("found unexpected document indicator while scanning a quoted scalar");
        }
        fold_breaks(s, breaks);
        Ok(())
    }

    /// A single- or double-quoted scalar, which may run over several lines.
    fn quoted(&mut self) -> Result<String, Error> {
        let q = self.peek().unwrap_or('"');
        self.bump();
        let mut s = String::new();
        // Where the unescaped blanks at the end of `s` begin (dropped before a line fold).
        let mut raw_ws = 0;
        loop {
            match self.peek() {
                None => {
                    return self
                        .err("found unexpected end of stream while scanning a quoted scalar");
                }
                Some('\'') if q == '\'' && self.peek_at(1) == Some('\'') => {
                    s.push('\'');
                    self.bump();
                    self.bump();
                }
                Some(c) if c == q => {
                    self.bump();
                    return Ok(s);
                }
                Some('\\') if q == '"' && is_break(self.peek_at(1)) => {
                    // An escaped line break joins the lines without a space.
                    self.bump();
                    self.bump();
                    while is_blank(self.peek()) {
                        self.bump();
                    }
                }
                Some('\\') if q == '"' => {
                    self.bump();
                    let c = self.escape()?;
                    s.push(c);
                }
                Some('\n' | '\r') => self.fold_quoted_break(&mut s, raw_ws)?,
                Some(c) => {
                    s.push(c);
                    self.bump();
                    if matches!(c, ' ' | '\t') {
                        continue;
                    }
                }
            }
            raw_ws = s.len();
        }
    }

    /// The character a double-quoted escape (after its backslash) stands for.
    fn escape(&mut self) -> Result<char, Error> {
        let e = self.peek();
        self.bump();
        Ok(match e {
            Some('0') => '\0',
            Some('a') => '\x07',
            Some('b') => '\x08',
            Some('t' | '\t') => '\t',
            Some('n') => '\n',
            Some('v') => '\x0b',
            Some('f') => '\x0c',
            Some('r') => '\r',
            Some('e') => '\x1b',
            Some(' ') => ' ',
            Some('"') => '"',
            Some('/') => '/',
            Some('\\') => '\\',
            Some('N') => '\u{85}',
            Some('_') => '\u{a0}',
            Some('L') => '\u{2028}',
            Some('P') => '\u{2029}',
            Some(x @ ('x' | 'u' | 'U')) => {
                let n = match x {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut code = self.hex_digits(n)?;
                // JSON writes characters beyond the BMP as a UTF-16 surrogate pair of `\u`
                // escapes; YAML has no such pairs, but JSON text is read here too.
                if x == 'u'
                    && (0xd800..0xdc00).contains(&code)
                    && self.peek() == Some('\\')
                    && self.peek_at(1) == Some('u')
                {
                    self.bump();
                    self.bump();
                    let low = self.hex_digits(4)?;
                    if (0xdc00..0xe000).contains(&low) {
                        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                    }
                }
                match char::from_u32(code) {
                    Some(c) => c,
                    None => {
                        return self.err(
                                        "found invalid Unicode character escape code while parsing a quoted scalar",
                                    );
                    }
                }
            }
            _ => {
                return self.err("found unknown escape character while parsing a quoted scalar");
            }
        })
    }

    /// `n` hexadecimal digits of an escape.
    fn hex_digits(&mut self, n: usize) -> Result<u32, Error> {
        let mut code = 0u32;
        for _ in 0..n {
            let Some(d) = self.peek().and_then(|c| c.to_digit(16)) else {
                return self
                    .err("did not find expected hexdecimal number while parsing a quoted scalar");
            };
            code = code * 16 + d;
            self.bump();
        }
        Ok(code)
    }

    /// `|` (literal) or `>` (folded), with chomping (`-`, `+`) and indentation indicators.
    fn block_scalar(&mut self, parent: i64) -> Result<String, Error> {
        let literal = self.peek() == Some('|');
        self.bump();
        let (mut chomp, mut explicit) = (None, None);
        for _ in 0..2 {
            match self.peek() {
                Some(c @ ('+' | '-')) if chomp.is_none() => {
                    chomp = Some(c);
                    self.bump();
                }
                Some(c @ '1'..='9') if explicit.is_none() => {
                    explicit = Some(c as i64 - '0' as i64);
                    self.bump();
                }
                Some('0') => {
                    return self.err(
                        "found an indentation indicator equal to 0 while scanning a block scalar",
                    );
                }
                _ => {}
            }
        }
        self.skip_blanks();
        if !self.at_line_end() {
            return self
                .err("did not find expected comment or line break while scanning a block scalar");
        }
        self.bump_line();
        self.bump();
        let base = parent.max(0);
        let mut indent = explicit.map(|d| if parent >= 0 { parent + d } else { d });
        let mut out = String::new();
        let mut leading_break = String::new();
        let mut trailing_breaks = String::new();
        let mut leading_blank = false;
        loop {
            // Indentation of this line (up to the block's, once known).
            let mut spaces = 0i64;
            while self.peek() == Some(' ') && indent.is_none_or(|i| spaces < i) {
                self.bump();
                spaces += 1;
            }
            if self.eof() {
                break;
            }
            if is_break(self.peek()) {
                trailing_breaks.push('\n');
                self.bump();
                continue;
            }
            let i = *indent.get_or_insert(spaces.max(base + 1).max(1));
            if spaces < i || self.at_document_marker().is_some() {
                // A less indented line ends the scalar; put its indentation back.
                self.pos -= spaces as usize;
                self.col -= spaces as usize;
                break;
            }
            let trailing_blank = is_blank(self.peek());
            if !literal && leading_break == "\n" && !leading_blank && !trailing_blank {
                if trailing_breaks.is_empty() {
                    out.push(' ');
                }
                leading_break.clear();
            } else {
                out.push_str(&leading_break);
                leading_break.clear();
            }
            out.push_str(&trailing_breaks);
            trailing_breaks.clear();
            leading_blank = trailing_blank;
            while !is_break(self.peek()) && !self.eof() {
                out.push(self.peek().unwrap_or_default());
                self.bump();
            }
            if self.eof() {
                break;
            }
            self.bump();
            leading_break.push('\n');
        }
        if chomp != Some('-') {
            out.push_str(&leading_break);
        }
        if chomp == Some('+') {
            out.push_str(&trailing_breaks);
        }
        Ok(out)
    }

    // ------------------------------------------------------------ flow collections

    /// Blanks, line breaks and comments inside a flow collection.
    fn skip_flow_space(&mut self) {
        loop {
            match self.peek() {
                Some(' ' | '\t' | '\n' | '\r') => self.bump(),
                Some('#') => self.bump_line(),
                _ => return,
            }
        }
    }

    /// A node in a flow collection; a mapping key (`key`) keeps a plain scalar's text as it is.
    fn flow_node(&mut self, key: bool) -> Result<Value, Error> {
        self.skip_flow_space();
        let (anchor, tag) = self.properties()?;
        self.skip_flow_space();
        let (v, style) = match self.peek() {
            Some('[') => (self.flow_sequence()?, Style::Quoted),
            Some('{') => (self.flow_mapping()?, Style::Quoted),
            Some('*') => return self.alias(),
            Some('\'') => (Value::String(self.quoted()?), Style::Quoted),
            Some('"') => (Value::String(self.quoted()?), Style::Quoted),
            Some(',' | ']' | '}') if anchor.is_some() || tag.is_some() => {
                (Value::String(String::new()), Style::Plain)
            }
            None => return self.err("found unexpected end of stream in a flow collection"),
            Some(c @ ('%' | '@' | '`' | '|' | '>' | ',' | ']' | '}')) => {
                return self.err(format!("found character {c:?} that cannot start any token"));
            }
            _ if key => (Value::String(self.flow_plain()?), Style::Quoted),
            _ => (Value::String(self.flow_plain()?), Style::Plain),
        };
        self.finish_node(v, style, anchor, tag)
    }

    /// A plain scalar in a flow collection, which may run over several lines.
    fn flow_plain(&mut self) -> Result<String, Error> {
        let (mut s, _) = self.plain_line(true);
        loop {
            let saved = (self.pos, self.line, self.col);
            let mut breaks = 0;
            while is_blank(self.peek()) || is_break(self.peek()) {
                breaks += is_break(self.peek()) as usize;
                self.bump();
            }
            let c = self.peek();
            if breaks == 0
                || c.is_none()
                || c == Some('#')
                || is_flow_indicator(c)
                || c == Some(':')
            {
                (self.pos, self.line, self.col) = saved;
                return Ok(s);
            }
            fold_breaks(&mut s, breaks);
            s.push_str(&self.plain_line(true).0);
        }
    }

    fn flow_sequence(&mut self) -> Result<Value, Error> {
        self.bump();
        let mut items = vec![];
        loop {
            self.skip_flow_space();
            if self.peek() == Some(']') {
                self.bump();
                return Ok(Value::Array(items));
            }
            let start = (self.pos, self.line, self.col);
            let mut v = self.flow_node(false)?;
            self.skip_flow_space();
            if self.peek() == Some(':') {
                // `[a: b]`: a one-pair mapping, whose key is read again as text.
                (self.pos, self.line, self.col) = start;
                v = self.flow_node(true)?;
                self.skip_flow_space();
                self.bump();
                self.skip_flow_space();
                let value = if matches!(self.peek(), Some(',' | ']')) {
                    Value::Null
                } else {
                    self.flow_node(false)?
                };
                let mut m = Map::new();
                m.insert(key_text(v), value);
                items.push(Value::Object(m));
                self.skip_flow_space();
            } else {
                items.push(v);
            }
            match self.peek() {
                Some(',') => self.bump(),
                Some(']') => {}
                None => return self.err("did not find expected ',' or ']' (end of text)"),
                _ => return self.err("did not find expected ',' or ']'"),
            }
        }
    }

    fn flow_mapping(&mut self) -> Result<Value, Error> {
        self.bump();
        let mut map = Map::new();
        loop {
            self.skip_flow_space();
            if self.peek() == Some('}') {
                self.bump();
                return Ok(Value::Object(map));
            }
            let at = (self.line, self.col);
            let k = key_text(self.flow_node(true)?);
            self.skip_flow_space();
            let value = if self.peek() == Some(':') {
                self.bump();
                self.skip_flow_space();
                if matches!(self.peek(), Some(',' | '}')) {
                    Value::Null
                } else {
                    self.flow_node(false)?
                }
            } else {
                Value::Null
            };
            insert_new(&mut map, k, value, at)?;
            self.skip_flow_space();
            match self.peek() {
                Some(',') => self.bump(),
                Some('}') => {}
                None => return self.err("did not find expected ',' or '}' (end of text)"),
                _ => return self.err("did not find expected ',' or '}'"),
            }
        }
    }
}

/// Line folding in flow scalars: one line break reads as a space, `n` as `n - 1` newlines.
fn fold_breaks(s: &mut String, breaks: usize) {
    if breaks == 1 {
        s.push(' ');
    } else {
        s.extend(std::iter::repeat_n('\n', breaks - 1));
    }
}

/// Adds a mapping entry, refusing a key already there (as kubectl's strict decoding does);
/// `at` is the key's 0-based line and column.
fn insert_new(map: &mut Map, key: String, value: Value, at: (usize, usize)) -> Result<(), Error> {
    if map.contains_key(&key) {
        return Err(Error {
            line: at.0 + 1,
            column: at.1 + 1,
            message: format!("mapping key {key:?} already defined"),
        });
    }
    map.insert(key, value);
    Ok(())
}

/// A mapping key as text (JSON object keys are strings; a `80:` key reads as "80").
fn key_text(v: Value) -> String {
    match v {
        Value::String(s) => s,
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The YAML 1.2 core schema for plain scalars: null, booleans, integers (decimal, 0x, 0o),
/// floats (with .inf and .nan, which JSON cannot hold and so read as null), else a string.
pub(super) fn resolve(s: &str) -> Value {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Some(n) = parse_int(s) {
        return n;
    }
    if let Some(f) = parse_float(s) {
        return Number::from_f64(f).map_or(Value::Null, Value::Number);
    }
    Value::String(s.to_string())
}

fn parse_int(s: &str) -> Option<Value> {
    let (neg, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(h) = digits.strip_prefix("0x") {
        (16, h)
    } else if let Some(o) = digits.strip_prefix("0o") {
        (8, o)
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let mag = u128::from_str_radix(digits, radix).ok()?;
    if neg {
        let v = i64::try_from(mag)
            .ok()
            .map(|m| -m)
            .or_else(|| (mag == i64::MAX as u128 + 1).then_some(i64::MIN))?;
        Some(Value::from(v))
    } else if let Ok(v) = u64::try_from(mag) {
        Some(Value::from(v))
    } else {
        None
    }
}

fn parse_float(s: &str) -> Option<f64> {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let neg = s.starts_with('-');
    match body {
        ".inf" | ".Inf" | ".INF" => {
            return Some(if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            });
        }
        ".nan" | ".NaN" | ".NAN" if body.len() == s.len() => return Some(f64::NAN),
        _ => {}
    }
    // [0-9]+ (. [0-9]*)? | . [0-9]+ ; then an optional exponent.
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            frac_digits += 1;
        }
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    s.parse::<f64>().ok()
}
