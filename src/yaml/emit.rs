//! What Helm 4.2.3's template function `toYaml` prints, byte for byte.
//!
//! Helm's `toYaml` is `sigs.k8s.io/yaml` v1.6.0 `Marshal(v)` with one
//! trailing newline trimmed (an error prints nothing). `Marshal` is Go's
//! `json.Marshal(v)` then [`json_to_yaml`]: sigs.k8s.io/yaml `JSONToYAML`
//! decodes the JSON text with go-yaml v2 (`go.yaml.in/yaml/v2` v2.4.2) into
//! `interface{}` ([`read`]: JSON numbers become yaml.v2's `int`, `uint64` or
//! `float64` by the text) and `yaml.Marshal`s the result with yaml.v2's
//! default emitter settings, which sigs.k8s.io/yaml does not change: block
//! style, 2-space indent, lines folded at 80 columns (v2.4 wraps unless
//! `FutureLineWrap` is called, and nothing in Helm calls it), unicode
//! written as is where yaml.v2 counts it printable.
//!
//! The port follows yaml.v2's encoder (encode.go: which style each scalar
//! asks for; sorter.go: map key order) and its emitter (emitterc.go: the
//! state machine for block collections, `analyze_scalar`, the scalar
//! writers, [`scalar`]). The emitter's state (column, `whitespace`,
//! `indention`, the indent stack, the flow level, the node's context) is
//! kept as the Go code keeps it, so indentation and folding come out the
//! same.

mod read;
mod scalar;
#[cfg(test)]
mod tests;

use scalar::{Analysis, analyze};

/// Why go-yaml v2 (and so Helm's `toYaml`, which then prints nothing)
/// refuses the JSON text, or why we do not model it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EmitError {
    /// yaml.v2's reader: DEL, C1 controls, U+FFFE, U+FFFF (Go's JSON
    /// encoder writes them raw).
    #[error("yaml: control characters are not allowed ({0:?})")]
    ControlCharacter(char),
    /// A JSON object key that is not a YAML simple key (a raw line break in
    /// it, or its `:` more than 1024 characters after its start): yaml.v2
    /// then fails with "did not find expected ',' or '}'".
    #[error("yaml: did not find expected ',' or '}}' (a key over 1024 characters or with a line break)")]
    LongKey,
    /// Text yaml.v2 fails to parse, or JSON that Go's encoder never prints.
    #[error("yaml: {0}")]
    Syntax(String),
    /// Map keys that yaml.v2's `keyList.Less` does not order consistently
    /// (its digit-run rule makes cycles such as `9` < `10` < `1a` < `9`):
    /// `sort.Sort` then puts them in an order that depends on Go's random
    /// map iteration, so Helm's own output varies from run to run.
    #[error("map keys {0:?} have no stable order under yaml.v2's key sort (Go's output depends on map iteration order)")]
    KeyOrder(Vec<String>),
    /// Nesting deeper than we follow (yaml.v2 itself allows 10000 levels).
    #[error("nesting deeper than {0} levels is not supported")]
    TooDeep(usize),
}

/// sigs.k8s.io/yaml JSONToYAML: JSON text (as Go's json.Marshal prints it) to the YAML yaml.v2 prints.
///
/// The result ends with a newline, as yaml.v2 writes it; Helm's `toYaml`
/// trims that one newline.
pub fn json_to_yaml(json: &str) -> Result<String, EmitError> {
    let node = read::read(json)?;
    let mut e = Emitter::new();
    // encode.go marshalDoc: an implicit document; the root node.
    e.node(&node, Context::default())?;
    // emitterc.go yaml_emitter_emit_document_end (implicit, so no "...").
    e.write_indent();
    String::from_utf8(e.out).map_err(|_| EmitError::Syntax("internal error: the emitter split a character".into()))
}

/// A value as yaml.v2 decodes the JSON into `interface{}`: every key is a
/// string (JSON keys are double-quoted, so never resolved).
#[derive(Debug, Clone, PartialEq)]
enum Node {
    Null,
    Bool(bool),
    /// Go `int`.
    Int(i64),
    /// Go `uint64` (integers above `i64::MAX`).
    Uint(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(String, Node)>),
}

/// The style encode.go asks the emitter for.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// emitterc.go yaml_emitter_emit_node's context flags that change the
/// output (`root_context` only sets `open_ended`, which yaml.v2's encoder
/// clears before the stream end; `sequence_context` is never read).
#[derive(Debug, Clone, Copy, Default)]
struct Context {
    mapping: bool,
    simple_key: bool,
}

/// The part of emitterc.go's `yaml_emitter_t` that block output uses.
struct Emitter {
    out: Vec<u8>,
    column: usize,
    whitespace: bool,
    indention: bool,
    indent: i64,
    indents: Vec<i64>,
    flow_level: usize,
    ctx: Context,
    best_indent: usize,
    best_width: usize,
}

impl Emitter {
    /// emitterc.go yaml_emitter_emit_stream_start with yaml.v2's defaults
    /// (best_indent 2, best_width 80, LF breaks).
    fn new() -> Self {
        Emitter {
            out: Vec::new(),
            column: 0,
            whitespace: true,
            indention: true,
            indent: -1,
            indents: Vec::new(),
            flow_level: 0,
            ctx: Context::default(),
            best_indent: 2,
            best_width: 80,
        }
    }

    fn put(&mut self, b: u8) {
        self.out.push(b);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push(b'\n');
        self.column = 0;
    }

    /// emitterc.go yaml_emitter_increase_indent.
    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { self.best_indent as i64 } else { 0 };
        } else if !indentless {
            self.indent += self.best_indent as i64;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    /// emitterc.go yaml_emitter_write_indent.
    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(b' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    /// emitterc.go yaml_emitter_write_indicator.
    fn write_indicator(&mut self, indicator: &[u8], need_whitespace: bool, is_whitespace: bool, is_indention: bool) {
        if need_whitespace && !self.whitespace {
            self.put(b' ');
        }
        let mut i = 0;
        while i < indicator.len() {
            self.out.push(indicator[i]);
            self.column += 1;
            i += scalar::width(indicator[i]);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    /// emitterc.go yaml_emitter_emit_node, for the node encode.go's marshal
    /// turns `v` into.
    fn node(&mut self, v: &Node, ctx: Context) -> Result<(), EmitError> {
        self.ctx = ctx;
        match v {
            Node::Null => self.scalar("null", Style::Plain),
            Node::Bool(b) => self.scalar(if *b { "true" } else { "false" }, Style::Plain),
            Node::Int(i) => self.scalar(&i.to_string(), Style::Plain),
            Node::Uint(u) => self.scalar(&u.to_string(), Style::Plain),
            Node::Float(f) => self.scalar(&float_text(*f), Style::Plain),
            Node::Str(s) => self.scalar(s, string_style(s)),
            Node::Seq(items) if items.is_empty() => self.empty_flow(b"[", b"]"),
            Node::Map(entries) if entries.is_empty() => self.empty_flow(b"{", b"}"),
            Node::Seq(items) => return self.block_sequence(items),
            Node::Map(entries) => return self.block_mapping(entries),
        }
        Ok(())
    }

    /// emitterc.go yaml_emitter_emit_flow_sequence_item / _flow_mapping_key
    /// for an empty collection (the only flow collections yaml.v2 writes
    /// here: yaml_emitter_check_empty_sequence / _mapping).
    fn empty_flow(&mut self, open: &[u8], close: &[u8]) {
        self.write_indicator(open, true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        self.flow_level -= 1;
        self.pop_indent();
        self.write_indicator(close, false, false, false);
    }

    /// emitterc.go yaml_emitter_emit_block_sequence_item: in a mapping
    /// value the items are not indented (`key:\n- a`).
    fn block_sequence(&mut self, items: &[Node]) -> Result<(), EmitError> {
        self.increase_indent(false, self.ctx.mapping && !self.indention);
        for item in items {
            self.write_indent();
            self.write_indicator(b"-", true, false, true);
            self.node(item, Context::default())?;
        }
        self.pop_indent();
        Ok(())
    }

    /// emitterc.go yaml_emitter_emit_block_mapping_key / _value, keys in
    /// encode.go mapv's order (`sort.Sort(keyList)`).
    fn block_mapping(&mut self, entries: &[(String, Node)]) -> Result<(), EmitError> {
        self.increase_indent(false, false);
        let mut order: Vec<&(String, Node)> = entries.iter().collect();
        crate::go::sort::sort(&mut order, |a, b| key_less(&a.0, &b.0));
        check_key_order(&order)?;
        for (k, v) in order {
            self.write_indent();
            let key_analysis = analyze(k.as_bytes());
            // emitterc.go yaml_emitter_check_simple_key: one line, at most 128 bytes.
            if !key_analysis.multiline && k.len() <= 128 {
                self.ctx = Context { mapping: true, simple_key: true };
                self.scalar_analyzed(k, string_style(k), key_analysis);
                self.write_indicator(b":", false, false, false);
            } else {
                self.write_indicator(b"?", true, false, true);
                self.ctx = Context { mapping: true, ..Context::default() };
                self.scalar_analyzed(k, string_style(k), key_analysis);
                self.write_indent();
                self.write_indicator(b":", true, false, true);
            }
            self.node(v, Context { mapping: true, ..Context::default() })?;
        }
        self.pop_indent();
        Ok(())
    }

    fn scalar(&mut self, value: &str, style: Style) {
        let a = analyze(value.as_bytes());
        self.scalar_analyzed(value, style, a);
    }

    /// emitterc.go yaml_emitter_emit_scalar: select the style, then write.
    fn scalar_analyzed(&mut self, value: &str, requested: Style, a: Analysis) {
        let style = self.select_style(value, requested, a);
        self.increase_indent(true, false);
        let v = value.as_bytes();
        let allow_breaks = !self.ctx.simple_key;
        match style {
            Style::Plain => self.write_plain(v, allow_breaks),
            Style::SingleQuoted => self.write_single_quoted(v, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(v, allow_breaks),
            Style::Literal => self.write_literal(v),
        }
        self.pop_indent();
    }

    /// emitterc.go yaml_emitter_select_scalar_style (no tags: every scalar
    /// event yaml.v2 makes here is implicit and quoted-implicit).
    fn select_style(&self, value: &str, requested: Style, a: Analysis) -> Style {
        let mut style = requested;
        if self.ctx.simple_key && a.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Plain {
            let flow = self.flow_level > 0;
            if (flow && !a.flow_plain_allowed) || (!flow && !a.block_plain_allowed) {
                style = Style::SingleQuoted;
            }
            if value.is_empty() && (flow || self.ctx.simple_key) {
                style = Style::SingleQuoted;
            }
        }
        if style == Style::SingleQuoted && !a.single_quoted_allowed {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!a.block_allowed || self.flow_level > 0 || self.ctx.simple_key) {
            style = Style::DoubleQuoted;
        }
        style
    }
}

/// encode.go floatv: `strconv.FormatFloat(f, 'g', -1, 64)` (`1e+21`,
/// `-1e-07`), infinities and NaN in YAML's spelling. `go::ftoa` rather than
/// `go::fmt::go_float`: when the shortest digits tie (the exact value is
/// halfway, `-1651109404107626.25`), Go rounds half to even
/// (`-1.6511094041076262e+15`) and only ftoa does so.
fn float_text(f: f64) -> String {
    if f.is_nan() {
        ".nan".into()
    } else if f.is_infinite() {
        if f > 0.0 { ".inf".into() } else { "-.inf".into() }
    } else {
        let mut out = Vec::new();
        crate::go::ftoa::append_float(&mut out, f, b'g', -1, false);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// encode.go stringv: literal for text with a newline, plain when the
/// text would read back as the same string (resolve.go says `!!str` and
/// it is not a base-60 float), double-quoted otherwise. The emitter may
/// still quote a plain request ([`Emitter::select_style`]).
fn string_style(s: &str) -> Style {
    if s.contains('\n') {
        Style::Literal
    } else if resolves_to_str(s) && !is_base60_float(s) {
        Style::Plain
    } else {
        Style::DoubleQuoted
    }
}

/// resolve.go `resolve("", s)` gives `!!str` (timestamps are not: they
/// resolve to `!!timestamp`).
fn resolves_to_str(s: &str) -> bool {
    use crate::yaml::resolve::{Reading, Scalar, resolve_plain};
    let r = resolve_plain(s);
    matches!(r.value, Scalar::Str(_)) && r.reading != Reading::Timestamp
}

/// encode.go isBase60Float:
/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        // `[0-5]?[0-9]`: one digit, or two with the first in 0-5.
        let d1 = b.get(i + 1).filter(|c| c.is_ascii_digit());
        let d2 = b.get(i + 2).filter(|c| c.is_ascii_digit());
        match (d1, d2) {
            (Some(a), Some(_)) if *a <= b'5' => i += 3,
            (Some(_), _) => i += 2,
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// Whether `sorted` (sorted with [`key_less`]) is the one order Go's
/// `sort.Sort` gives whatever order the keys come in: `key_less` is total
/// on distinct strings (exactly one of `a < b`, `b < a`), so that holds
/// exactly when every earlier key is less than every later one. Without
/// digits `key_less` is a lexicographic order and cannot cycle.
fn check_key_order(sorted: &[&(String, Node)]) -> Result<(), EmitError> {
    if !sorted.iter().any(|(k, _)| k.chars().any(is_digit)) {
        return Ok(());
    }
    for (i, (a, _)) in sorted.iter().enumerate() {
        if let Some((b, _)) = sorted[i + 1..].iter().find(|(b, _)| !key_less(a, b)) {
            return Err(EmitError::KeyOrder(vec![a.clone(), b.clone()]));
        }
    }
    Ok(())
}

/// sorter.go keyList.Less for two string keys: letters sort before
/// non-letters, runs of digits compare as numbers (`a2` < `a10`), runes
/// otherwise by code point.
fn key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = is_letter(ar[i]);
        let bl = is_letter(br[i]);
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && is_digit(ar[j - 1]) {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        // Go's int64 arithmetic wraps; a non-ASCII digit adds `r - '0'`.
        let mut ai = i;
        while ai < ar.len() && is_digit(ar[ai]) {
            an = an.wrapping_mul(10).wrapping_add(i64::from(ar[ai] as u32) - i64::from(b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && is_digit(br[bi]) {
            bn = bn.wrapping_mul(10).wrapping_add(i64::from(br[bi] as u32) - i64::from(b'0'));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

/// Go `unicode.IsLetter` (general category L).
fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    static LETTER: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"^\p{L}$").expect("a valid pattern"));
    LETTER.is_match(c.encode_utf8(&mut [0; 4]))
}

/// Go `unicode.IsDigit` (general category Nd).
fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    static DIGIT: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"^\p{Nd}$").expect("a valid pattern"));
    DIGIT.is_match(c.encode_utf8(&mut [0; 4]))
}
