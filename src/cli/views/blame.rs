//! `blame`'s views: per object, each field, what printed it and the values
//! keys behind it with where their values came from.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::manifest::secrets::masked_flag_source;
use crate::cli::output::Theme;
use crate::explain::entries::Entry;
use crate::render::blame::{FieldBlame, KeyRead, ObjectBlame};

fn by_path(entries: &[Entry]) -> HashMap<String, &Entry> {
    entries.iter().map(|e| (e.path.to_string(), e)).collect()
}

fn describe(o: &crate::values::tree::Origin) -> String {
    let mut s = String::new();
    o.describe_into(&mut s);
    s
}

/// The key's provenance: where its value came from and what it overrode.
/// A key inside a list (`ports[0].name`) has no explain entry of its own:
/// the list's entry says what the whole list overrode.
fn provenance(index: &HashMap<String, &Entry>, key: &KeyRead, show_secrets: bool) -> (String, Vec<String>) {
    let mut at = key.path.as_str();
    let entry = loop {
        if let Some(e) = index.get(at) {
            break Some(e);
        }
        match at.rfind(['.', '[']) {
            Some(i) if i > 0 => at = &at[..i],
            _ => break None,
        }
    };
    // Blame's own sources are masked already (`render::blame::mask_secrets`); what they overrode here.
    let overrode = entry
        .map(|e| e.overridden.iter().map(|l| describe(&l.source)).map(|s| if show_secrets { s } else { masked_flag_source(&key.path, &s) }).collect())
        .unwrap_or_default();
    (key.source.clone(), overrode)
}

pub fn json(objects: &[ObjectBlame], entries: &[Entry], show_secrets: bool) -> Value {
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
                            let (source, overrode) = provenance(&index, k, show_secrets);
                            json!({"path": k.path, "source": source, "overrode": overrode})
                        })
                        .collect();
                    json!({"field": f.field, "value": f.value, "template": f.template, "line": f.line, "column": f.column,
                           "literal": f.literal, "action": f.action, "keys": keys, "facts": f.facts, "conditions": f.conditions, "random": f.random})
                })
                .collect();
            json!({"kind": o.kind, "name": o.name, "source": o.source, "fields": fields})
        })
        .collect();
    json!({ "objects": objects })
}

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) if s == "<masked>" => s.clone(),
        Value::String(s) => crate::go::quote::quote(s),
        other => other.to_string(),
    }
}

pub fn text(objects: &[ObjectBlame], entries: &[Entry], theme: &Theme, columns: Option<usize>, show_secrets: bool) -> String {
    let index = by_path(entries);
    let mut out = String::new();
    for o in objects {
        out.push_str(&theme.heading(&format!("{}/{}", o.kind, o.name)));
        out.push_str(&theme.dim(&format!("  ({})", o.source)));
        out.push('\n');
        for f in &o.fields {
            field(&mut out, f, &index, (theme, columns, show_secrets));
        }
        out.push('\n');
    }
    out
}

fn field(out: &mut String, f: &FieldBlame, index: &HashMap<String, &Entry>, (theme, columns, show_secrets): (&Theme, Option<usize>, bool)) {
    out.push_str(&format!("  {} = {}\n", f.field, shown(&f.value)));
    let place = format!("{}:{}:{}", f.template, f.line, f.column);
    match &f.action {
        None => out.push_str(&format!("      {}  {}\n", theme.dim("literal"), theme.dim(&place))),
        Some(action) => out.push_str(&format!("      {}  {}\n", action, theme.dim(&place))),
    }
    if f.random {
        out.push_str(&format!("      {}\n", theme.warn("random: a new value on every render (randAlphaNum, uuidv4, or made from one)")));
    }
    if f.keys.is_empty() && f.facts.is_empty() && f.action.is_some() {
        out.push_str(&format!("      {}\n", theme.dim("no values key and no fact (a constant or a function)")));
    }
    for fact in &f.facts {
        out.push_str(&format!("      {}  {}\n", theme.good(fact), theme.dim("(render data)")));
    }
    for c in &f.conditions {
        out.push_str(&crate::cli::output::fit_led("      ", &format!("if  {}  {}", c.path, c.source), "if", columns, &|l| theme.dim(l)));
    }
    for k in &f.keys {
        let (source, overrode) = provenance(index, k, show_secrets);
        let mut text = format!("{}  {source}", k.path);
        if !overrode.is_empty() {
            text.push_str(&format!(" (overrode {})", overrode.join(", ")));
        }
        out.push_str(&crate::cli::output::fit_led("      ", &text, &k.path, columns, &|l| theme.good(l)));
    }
}
