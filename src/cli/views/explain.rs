//! `values explain`'s views: text (one line per key, its value and source,
//! with `--show-overridden` what it overrode), the JSON contract streamed
//! from the tree, and YAML.

use serde_json::Value;

use crate::cli::args::{ExplainArgs, OutputFormat};
use crate::cli::output::{GoJsonWriter, GoYamlNumbers, Theme, go_yaml_number, to_yaml};
use crate::cli::{Ctx, Outcome, StdoutStream};
use crate::explain::entries::{Entry, event_word};
use crate::keypath::Path;
use crate::values::tree::{EventKind, Kind, Source, V, VMap};

pub fn render(args: &ExplainArgs, ctx: &Ctx, explanation: crate::explain::Explanation) -> anyhow::Result<Outcome> {
    let keys: Vec<Path> = args.keys.iter().map(|k| Path::parse(k).map_err(anyhow::Error::msg)).collect::<anyhow::Result<_>>()?;
    // --user: the keys whose winning source is the user's, and those a null of the user's deleted.
    let by_user = |e: &Entry| {
        e.source.as_ref().is_some_and(|s| s.is_user_given()) || e.overridden.iter().any(|l| l.by.as_ref().is_some_and(|b| b.is_user_given()))
    };
    let shown: Vec<usize> = (0..explanation.entries.len())
        .filter(|&i| keys.is_empty() || keys.iter().any(|k| explanation.entries[i].path.starts_with(k)))
        .filter(|&i| !args.user || by_user(&explanation.entries[i]))
        .collect();
    if let Some(message) = crate::explain::entries::unmatched_keys_message(&explanation.entries, &keys) {
        anyhow::bail!(message);
    }
    let mut outcome = Outcome { warnings: explanation.warnings.clone(), ..Outcome::default() };
    let format = ctx.format();
    match format {
        OutputFormat::Markdown => anyhow::bail!("-o markdown is for upgrade-preview"),
        OutputFormat::Yaml => {
            let shown: Vec<&Entry> = shown.iter().map(|&i| &explanation.entries[i]).collect();
            outcome.stdout = to_yaml(&ContractYaml { values: &explanation.values, entries: &shown, warnings: &explanation.warnings })?;
        }
        OutputFormat::Text | OutputFormat::Json => {
            // Streamed as it is printed: the output can be far larger than the input (each line repeats
            // its source, a whole `--set` expression), and need not be held whole.
            let (history, theme, columns) = (args.show_overridden || args.user || !keys.is_empty(), ctx.theme, ctx.columns);
            outcome.stdout_stream = Some(StdoutStream(Box::new(move |sink| {
                let shown: Vec<&Entry> = shown.iter().map(|&i| &explanation.entries[i]).collect();
                let written = if format == OutputFormat::Text {
                    text_into(&shown, history, &theme, columns, sink)
                } else {
                    contract_json_go_into(&explanation.values, &shown, &explanation.warnings, sink)
                };
                drop(shown);
                // Freeing the trees and entries costs more than the rest of the process; it ends soon.
                std::mem::forget(explanation);
                written
            })));
        }
    }
    // The warnings are part of the JSON document; in text they go to stderr.
    if format != OutputFormat::Text {
        outcome.warnings.clear();
    }
    Ok(outcome)
}

/// Output goes to the sink in pieces of about this size.
const FLUSH_BYTES: usize = 1 << 20;

/// `-o json`: the document of [`contract_json`](crate::explain::entries::contract_json) written as
/// [`to_json_go`](crate::cli::output::to_json_go)
/// writes it, streamed from the tree and the entries (no intermediate value).
fn contract_json_go_into(values: &VMap, entries: &[&Entry], warnings: &[String], sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut w = GoJsonWriter::with_capacity(FLUSH_BYTES + (FLUSH_BYTES >> 2));
    w.begin(b'{');
    w.field("values");
    write_sorted_map(&mut w, values);
    w.field("entries");
    w.begin(b'[');
    for e in entries {
        w.flush_to(sink, FLUSH_BYTES)?;
        w.elem();
        w.begin(b'{');
        w.field("path");
        w.path(&e.path);
        match (&e.value, &e.source) {
            (Some(v), Some(s)) => {
                w.field("value");
                w.value(v);
                w.field("source");
                s.write_json(&mut w);
            }
            _ => {
                // No value left: a null deleted it, or Helm skipped it for its type.
                let deleted = e.overridden.iter().any(|l| l.event == EventKind::DeletedByNull);
                w.field(if deleted { "deleted" } else { "skipped" });
                w.raw("true");
            }
        }
        w.field("overridden");
        w.begin(b'[');
        for l in &e.overridden {
            w.elem();
            w.begin(b'{');
            w.field("value");
            w.value(&l.value);
            w.field("event");
            w.str(event_word(l.event));
            w.field("source");
            l.source.write_json(&mut w);
            // A deletion has no winning value: say which null did it.
            if let (EventKind::DeletedByNull, Some(by)) = (l.event, &l.by) {
                w.field("by");
                by.write_json(&mut w);
            }
            w.end(b'}');
        }
        w.end(b']');
        if !e.notes.is_empty() {
            w.field("notes");
            w.begin(b'[');
            for n in &e.notes {
                w.elem();
                w.str(n);
            }
            w.end(b']');
        }
        w.end(b'}');
    }
    w.end(b']');
    w.field("warnings");
    w.begin(b'[');
    for warning in warnings {
        w.elem();
        w.str(warning);
    }
    w.end(b']');
    w.end(b'}');
    sink.write_all(w.finish().as_bytes())
}

/// `-o yaml`: the document of [`contract_json`](crate::explain::entries::contract_json) as YAML, serialized from the
/// tree and the entries (the same serializer events as that document with
/// [`GoYamlNumbers`], without building it: building, copying and freeing it
/// cost several times the printing).
struct ContractYaml<'a> {
    values: &'a VMap,
    entries: &'a [&'a Entry],
    warnings: &'a [String],
}

impl serde::Serialize for ContractYaml<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("values", &SortedTree(self.values))?;
        m.serialize_entry("entries", &EntriesYaml(self.entries))?;
        m.serialize_entry("warnings", self.warnings)?;
        m.end()
    }
}

/// A tree map, keys in byte order, as [`crate::values::sorted`] of its JSON.
struct SortedTree<'a>(&'a VMap);

impl serde::Serialize for SortedTree<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut keys: Vec<(&String, &V)> = self.0.iter().collect();
        keys.sort_unstable_by(|a, b| a.0.cmp(b.0));
        s.collect_map(keys.into_iter().map(|(k, v)| (k, TreeNode(v))))
    }
}

/// A tree node as [`V::to_json`] and [`GoYamlNumbers`] would serialize it.
struct TreeNode<'a>(&'a V);

impl serde::Serialize for TreeNode<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0.kind {
            Kind::Null => s.serialize_unit(),
            Kind::Bool(b) => s.serialize_bool(*b),
            Kind::Int(i) => serde_json::Number::from(*i).serialize(s),
            Kind::Float(f) => go_yaml_number(*f).serialize(s),
            Kind::Str(x) => s.serialize_str(x),
            Kind::List(items) => s.collect_seq(items.iter().map(TreeNode)),
            Kind::Map(m) => SortedTree(m).serialize(s),
        }
    }
}

struct EntriesYaml<'a>(&'a [&'a Entry]);

impl serde::Serialize for EntriesYaml<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|e| EntryYaml(e)))
    }
}

/// One entry, its keys in [`contract_json`](crate::explain::entries::contract_json)'s order.
struct EntryYaml<'a>(&'a Entry);

impl serde::Serialize for EntryYaml<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let e = self.0;
        let mut m = s.serialize_map(Some(3 + usize::from(e.value.is_some() && e.source.is_some()) + usize::from(!e.notes.is_empty())))?;
        m.serialize_entry("path", &e.path.to_string())?;
        match (&e.value, &e.source) {
            (Some(v), Some(src)) => {
                m.serialize_entry("value", &GoYamlNumbers(v))?;
                m.serialize_entry("source", &GoYamlNumbers(&src.to_json()))?;
            }
            _ => {
                let deleted = e.overridden.iter().any(|l| l.event == EventKind::DeletedByNull);
                m.serialize_entry(if deleted { "deleted" } else { "skipped" }, &true)?;
            }
        }
        m.serialize_entry("overridden", &LostYaml(&e.overridden))?;
        if !e.notes.is_empty() {
            m.serialize_entry("notes", &e.notes)?;
        }
        m.end()
    }
}

struct LostYaml<'a>(&'a [crate::explain::entries::Lost]);

impl serde::Serialize for LostYaml<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        s.collect_seq(self.0.iter().map(|l| {
            struct One<'a>(&'a crate::explain::entries::Lost);
            impl serde::Serialize for One<'_> {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let l = self.0;
                    let by = match (l.event, &l.by) {
                        (EventKind::DeletedByNull, Some(by)) => Some(by),
                        _ => None,
                    };
                    let mut m = s.serialize_map(Some(3 + usize::from(by.is_some())))?;
                    m.serialize_entry("value", &GoYamlNumbers(&l.value))?;
                    m.serialize_entry("event", event_word(l.event))?;
                    m.serialize_entry("source", &GoYamlNumbers(&l.source.to_json()))?;
                    if let Some(by) = by {
                        m.serialize_entry("by", &GoYamlNumbers(&by.to_json()))?;
                    }
                    m.end()
                }
            }
            One(l)
        }))
    }
}

/// A map with its keys in Go's (byte) order, as [`crate::values::sorted`] orders them.
fn write_sorted_map(w: &mut GoJsonWriter, m: &VMap) {
    let mut keys: Vec<(&String, &V)> = m.iter().collect();
    keys.sort_unstable_by(|a, b| a.0.cmp(b.0));
    w.begin(b'{');
    for (k, v) in keys {
        w.key(k);
        write_node(w, v);
    }
    w.end(b'}');
}

fn write_node(w: &mut GoJsonWriter, v: &V) {
    match &v.kind {
        Kind::Null => w.raw("null"),
        Kind::Bool(b) => w.raw(if *b { "true" } else { "false" }),
        Kind::Int(i) => w.int(*i),
        Kind::Float(f) => w.float(*f),
        Kind::Str(s) => w.str(s),
        Kind::List(items) => {
            w.begin(b'[');
            for x in items {
                w.elem();
                write_node(w, x);
            }
            w.end(b']');
        }
        Kind::Map(m) => write_sorted_map(w, m),
    }
}

/// [`full`] cut to 60 characters, for one-line summaries (upgrade-preview's changes).
pub fn short(v: &Value) -> String {
    let s = full(v);
    if s.chars().count() > 60 { format!("{}…", s.chars().take(59).collect::<String>()) } else { s }
}

/// A value whole, as JSON (strings quoted); explain never cuts a value.
fn full(v: &Value) -> String {
    match v {
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        // Compact JSON (no layout spaces; strings keep theirs), in time linear
        // in the value (the indented form of a value nested n deep is n² bytes).
        other => crate::go::json_pretty::to_json_go_compact(other),
    }
}

/// The widths of the key and value columns. On a terminal they fit its
/// width: the key column holds most keys (a longer one gets a line of its
/// own), the value column leaves room for most sources beside it, and a
/// value longer than its column wraps inside it. Piped, the columns have
/// fixed caps and a long value pushes its row.
fn column_widths(paths: &[String], values: &[Option<String>], sources: &[usize], columns: Option<usize>) -> (usize, usize) {
    let longest_path = paths.iter().map(|p| p.chars().count()).max().unwrap_or(0);
    let longest_value = values.iter().flatten().map(|v| v.chars().count()).max().unwrap_or(0);
    let Some(w) = columns else { return (longest_path.min(48), longest_value.min(40)) };
    let share = |mut v: Vec<usize>, part: usize| {
        v.sort_unstable();
        v.get(v.len().saturating_sub(1) * part / 10).copied().unwrap_or(0)
    };
    let path = share(paths.iter().map(|p| p.chars().count()).collect(), 8).min(48).min(w / 3);
    let source = share(sources.to_vec(), 8);
    let value = longest_value.min(w.saturating_sub(path + 4 + source).max(12));
    (path, value)
}

/// `s` in lines of at most `width` characters, broken at spaces where it can be.
fn word_wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split(' ') {
        let used = line.chars().count();
        let fits = used + usize::from(used > 0) + word.chars().count() <= width;
        if !fits && used > 0 && used >= width / 2 {
            lines.push(std::mem::take(&mut line));
        }
        // A word that does not fit on the line goes on from where the line is.
        let mut rest: Vec<char> = word.chars().collect();
        if !line.is_empty() {
            line.push(' ');
        }
        loop {
            let room = width.saturating_sub(line.chars().count()).max(1);
            let take = room.min(rest.len());
            line.extend(rest.drain(..take));
            if rest.is_empty() {
                break;
            }
            lines.push(std::mem::take(&mut line));
        }
    }
    lines.push(line);
    lines
}

/// `s` cut into pieces of at most `width` characters.
fn chunks(s: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    chars.chunks(width.max(1)).map(|c| c.iter().collect()).collect()
}

/// The text view as one string (for a section of another view).
pub fn text(entries: &[&Entry], history: bool, ctx: &Ctx) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail; only UTF-8 is written.
    let _ = text_into(entries, history, &ctx.theme, ctx.columns, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The text view, written to `sink` in pieces.
fn text_into(entries: &[&Entry], history: bool, theme: &Theme, columns: Option<usize>, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    // Each path and value is formatted once.
    let paths: Vec<String> = entries.iter().map(|e| e.path.to_string()).collect();
    let values: Vec<Option<String>> = entries.iter().map(|e| e.value.as_ref().map(full)).collect();
    // On a terminal the sources are sized before anything is written: described once, here.
    let sources: Vec<Option<String>> = match columns {
        Some(_) => entries
            .iter()
            .map(|e| {
                e.source.as_ref().map(|s| {
                    let mut text = String::new();
                    s.describe_into(&mut text);
                    text
                })
            })
            .collect(),
        None => Vec::new(),
    };
    let source_lens: Vec<usize> = sources.iter().flatten().map(|s| s.chars().count()).collect();
    let (width, vwidth) = column_widths(&paths, &values, &source_lens, columns);
    let wrap = columns.is_some();
    // Lines are appended to one buffer; only styled pieces (colors on) are formatted apart.
    let mut out = String::with_capacity(entries.len().saturating_mul(120).min(FLUSH_BYTES + (FLUSH_BYTES >> 2)));
    let pad = |out: &mut String, s: &str, w: usize| out.extend(std::iter::repeat_n(' ', w.saturating_sub(s.chars().count())));
    let mut scratch = String::new();
    let mut dim_source = |out: &mut String, prefix: &str, s: &Source| {
        scratch.clear();
        scratch.push_str(prefix);
        s.describe_into(&mut scratch);
        theme.push(out, Theme::DIM, &scratch);
    };
    for (i, e) in entries.iter().enumerate() {
        if out.len() >= FLUSH_BYTES {
            sink.write_all(out.as_bytes())?;
            out.clear();
        }
        let path = &paths[i];
        theme.push(&mut out, Theme::HEADING, path);
        if wrap && path.chars().count() > width {
            // A key longer than its column gets a line of its own.
            out.push('\n');
            pad(&mut out, "", width);
        } else {
            pad(&mut out, path, width);
        }
        out.push_str("  ");
        match (&values[i], &e.source) {
            (Some(val), Some(_)) if wrap => {
                // The source stands beside the value when both fit, else on
                // lines of its own below.
                let source = sources[i].as_deref().unwrap_or_default();
                let columns = columns.unwrap_or(80);
                let beside = columns.saturating_sub(width + vwidth + 4);
                // A value wider than its column does not wrap beside the source (a
                // quote or the last few characters alone on the next line): the
                // source goes below and the value takes the rest of the row.
                let fits = source.chars().count() <= beside && val.chars().count() <= vwidth;
                // With the source below, the value may use the whole rest of the row.
                let values = chunks(val, if fits { vwidth } else { columns.saturating_sub(width + 2).max(vwidth) });
                for (row, piece) in values.iter().enumerate() {
                    if row > 0 {
                        out.push('\n');
                        pad(&mut out, "", width + 2);
                    }
                    out.push_str(piece);
                    if row == 0 && fits {
                        pad(&mut out, piece, vwidth);
                        out.push_str("  ");
                        theme.push(&mut out, Theme::DIM, source);
                    }
                }
                if !fits {
                    for line in word_wrap(source, columns.saturating_sub(6).max(20)) {
                        out.push_str("\n      ");
                        theme.push(&mut out, Theme::DIM, &line);
                    }
                }
            }
            (Some(val), Some(src)) => {
                out.push_str(val);
                pad(&mut out, val, vwidth);
                out.push_str("  ");
                dim_source(&mut out, "", src);
            }
            _ => {
                let why = if e.overridden.iter().any(|l| l.event == EventKind::DeletedByNull) {
                    "deleted by null"
                } else if e.overridden.iter().any(|l| l.event == EventKind::SkippedTypeMismatch) {
                    "skipped (type mismatch)"
                } else if e.overridden.is_empty() {
                    "gone"
                } else {
                    "replaced"
                };
                theme.push(&mut out, Theme::WARN, &format!("<{why}>"));
            }
        }
        out.push('\n');
        for n in &e.notes {
            out.push_str("    ");
            theme.push(&mut out, Theme::WARN, "note:");
            out.push(' ');
            out.push_str(n);
            out.push('\n');
        }
        if history {
            for l in e.overridden.iter().rev() {
                let what = match l.event {
                    EventKind::Overridden => "overrode",
                    EventKind::DeletedByNull => "deleted",
                    EventKind::SkippedTypeMismatch => "skipped",
                };
                out.push_str("    ");
                theme.push(&mut out, Theme::DIM, what);
                out.push(' ');
                out.push_str(&full(&l.value));
                out.push_str(" from ");
                dim_source(&mut out, "", &l.source);
                match (l.event, &l.by) {
                    (EventKind::DeletedByNull, Some(b)) => dim_source(&mut out, " by the null at ", b),
                    _ => theme.push(&mut out, Theme::DIM, ""),
                }
                out.push('\n');
            }
        }
    }
    sink.write_all(out.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::tree::{Origin, Recorder, map_from_json};
    use serde_json::json;

    /// A document with every kind of node, number and entry.
    fn fixture() -> (VMap, Vec<Entry>, Vec<String>) {
        let chart = Origin::new(Source::ChartDefault { chart: "c".into(), file: "values.yaml".into(), line: Some(1), column: None });
        let chart = crate::values::coalesce::ChartValues {
            name: "c".into(),
            loaded_at: vec![],
            values: map_from_json(
                json!({"b": {"z": 1.5, "a": [1e21, -0.0, {"q": null}], "e": {}, "l": []}, "gone": 1, "a\"\u{1}é": "x\ny"}).as_object().unwrap(),
                true,
                &chart,
            ),
            dependencies: vec![],
        };
        let set = Origin::new(Source::SetFlag { flag: "--set".into(), index: 2, expr: "b.z=3".into() });
        let user = map_from_json(json!({"b": {"z": 3, "n": 12345678901234567890u64}, "gone": null}).as_object().unwrap(), false, &set);
        let mut rec = Recorder::default();
        let values = crate::values::coalesce::coalesce_values(&chart, user, &mut rec).unwrap();
        let entries = crate::explain::entries::entries(&values, &rec);
        let warnings = vec!["w \"1\"".to_string()];
        (values, entries, warnings)
    }

    #[test]
    fn streamed_json_is_the_contract_document_byte_for_byte() {
        let (values, entries, warnings) = fixture();
        let shown: Vec<&Entry> = entries.iter().collect();
        let expected = crate::cli::output::to_json_go(&crate::explain::entries::contract_json(&values, shown.iter().copied(), &warnings));
        let streamed = |values: &VMap, shown: &[&Entry], warnings: &[String]| {
            let mut out = Vec::new();
            contract_json_go_into(values, shown, warnings, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(streamed(&values, &shown, &warnings), expected);
        assert_eq!(streamed(&VMap::default(), &[], &[]), "{\n  \"values\": {},\n  \"entries\": [],\n  \"warnings\": []\n}\n");
    }

    /// The YAML as it was written before the serializer views: the document
    /// built whole, numbers copied as Go's YAML prints them.
    fn go_yaml_numbers_copy(v: &Value) -> Value {
        match v {
            Value::Number(n) if n.is_f64() => {
                let f = n.as_f64().unwrap();
                if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 { Value::Number((f as i64).into()) } else { v.clone() }
            }
            Value::Array(a) => Value::Array(a.iter().map(go_yaml_numbers_copy).collect()),
            Value::Object(m) => Value::Object(m.iter().map(|(k, x)| (k.clone(), go_yaml_numbers_copy(x))).collect()),
            other => other.clone(),
        }
    }

    #[test]
    fn serialized_yaml_is_the_contract_document_byte_for_byte() {
        let (values, entries, warnings) = fixture();
        let shown: Vec<&Entry> = entries.iter().collect();
        let doc = crate::explain::entries::contract_json(&values, shown.iter().copied(), &warnings);
        let expected = to_yaml(&go_yaml_numbers_copy(&doc)).unwrap();
        assert!(expected.contains("deleted: true") && expected.contains("1.5") && expected.contains("overridden:\n  - value: 1"), "{expected}");
        assert_eq!(to_yaml(&ContractYaml { values: &values, entries: &shown, warnings: &warnings }).unwrap(), expected);
        let empty = ContractYaml { values: &VMap::default(), entries: &[], warnings: &[] };
        assert_eq!(to_yaml(&empty).unwrap(), to_yaml(&json!({"values": {}, "entries": [], "warnings": []})).unwrap());
    }
}

#[cfg(test)]
mod wrap_tests {
    use super::*;
    use crate::values::tree::{Origin, Recorder, map_from_json};
    use serde_json::json;

    /// `image.repository` from the chart's defaults (a short source) among
    /// keys from a file with a long name: the value column gets its minimum
    /// width while the short source still fits beside a value.
    fn rendered(columns: usize) -> String {
        let file = Origin::new(Source::ValuesFile { file: "environments/production/overrides/a-rather-long-values-file-name.yaml".into(), line: Some(2), column: Some(15) });
        let user = map_from_json(json!({"a": "x", "b": "yy", "c": 1, "d": 2, "e": 3}).as_object().unwrap(), false, &file);
        let defaults = Origin::new(Source::ChartDefault { chart: "c".into(), file: "values.yaml".into(), line: Some(1), column: None });
        let chart = crate::values::coalesce::ChartValues {
            name: "c".into(),
            loaded_at: vec![],
            values: map_from_json(json!({"image": {"repository": "example/api"}}).as_object().unwrap(), true, &defaults),
            dependencies: vec![],
        };
        let mut rec = Recorder::default();
        let merged = crate::values::coalesce::coalesce_values(&chart, user, &mut rec).unwrap();
        let entries = crate::explain::entries::entries(&merged, &rec);
        let shown: Vec<&Entry> = entries.iter().collect();
        let mut out = Vec::new();
        text_into(&shown, false, &Theme { enabled: false }, Some(columns), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_value_a_little_wider_than_its_column_is_never_cut_beside_its_source() {
        let text = rendered(80);
        assert!(text.contains("\"example/api\"\n      values.yaml (chart c default)"), "the value whole on its line, its source below:\n{text}");
        assert!(!text.lines().any(|l| l.trim() == "\""), "no quote alone on a line:\n{text}");
    }
}
