//! `blame`'s views: per object, each field, what printed it and the values
//! keys behind it with where their values came from.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::cli::output::Theme;
use crate::explain::entries::Entry;
use crate::render::blame::{FieldBlame, ObjectBlame};

fn by_path(entries: &[Entry]) -> HashMap<String, &Entry> {
    entries.iter().map(|e| (e.path.to_string(), e)).collect()
}

fn describe(o: &crate::values::tree::Origin) -> String {
    let mut s = String::new();
    o.describe_into(&mut s);
    s
}

/// The key's provenance: its winning source and what it overrode.
fn provenance(entry: Option<&&Entry>) -> (Option<String>, Vec<String>) {
    match entry {
        None => (None, Vec::new()),
        Some(e) => (e.source.as_ref().map(describe), e.overridden.iter().map(|l| describe(&l.source)).collect()),
    }
}

pub fn json(objects: &[ObjectBlame], entries: &[Entry]) -> Value {
    let index = by_path(entries);
    let objects: Vec<Value> = objects
        .iter()
        .map(|o| {
            let fields: Vec<Value> = o
                .fields
                .iter()
                .map(|f| {
                    let keys: Vec<Value> = f
                        .keys
                        .iter()
                        .map(|k| {
                            let (source, overrode) = provenance(index.get(k));
                            json!({"path": k, "source": source, "overrode": overrode})
                        })
                        .collect();
                    json!({"field": f.field, "value": f.value, "template": f.template, "line": f.line, "column": f.column,
                           "literal": f.literal, "action": f.action, "keys": keys})
                })
                .collect();
            json!({"kind": o.kind, "name": o.name, "source": o.source, "fields": fields})
        })
        .collect();
    json!({ "objects": objects })
}

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => crate::go::quote::quote(s),
        other => other.to_string(),
    }
}

pub fn text(objects: &[ObjectBlame], entries: &[Entry], theme: &Theme) -> String {
    let index = by_path(entries);
    let mut out = String::new();
    for o in objects {
        out.push_str(&theme.heading(&format!("{}/{}", o.kind, o.name)));
        out.push_str(&theme.dim(&format!("  ({})", o.source)));
        out.push('\n');
        for f in &o.fields {
            field(&mut out, f, &index, theme);
        }
        out.push('\n');
    }
    out
}

fn field(out: &mut String, f: &FieldBlame, index: &HashMap<String, &Entry>, theme: &Theme) {
    out.push_str(&format!("  {} = {}\n", f.field, shown(&f.value)));
    let place = format!("{}:{}:{}", f.template, f.line, f.column);
    match &f.action {
        None => out.push_str(&format!("      {}  {}\n", theme.dim("literal"), theme.dim(&place))),
        Some(action) => out.push_str(&format!("      {}  {}\n", action, theme.dim(&place))),
    }
    if f.keys.is_empty() && f.action.is_some() {
        out.push_str(&format!("      {}\n", theme.dim("no values key (.Release, .Chart, .Capabilities, .Files or a function)")));
    }
    for k in &f.keys {
        let (source, overrode) = provenance(index.get(k));
        let mut line = format!("      {} {}", theme.good(k), source.unwrap_or_else(|| "(no explain entry)".into()));
        if !overrode.is_empty() {
            line.push_str(&theme.dim(&format!(" (overrode {})", overrode.join(", "))));
        }
        out.push_str(&line);
        out.push('\n');
    }
}
