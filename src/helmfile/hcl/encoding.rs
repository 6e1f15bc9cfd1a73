//! go-cty function/stdlib/json.go and csv.go (jsonencode, jsondecode,
//! csvdecode) and zclconf/go-cty-yaml (yamlencode, yamldecode).

use hcl::Value;
use hcl::eval::Context;

use super::cty::{FnErr, Spec, Ty, declare, nullable, number_text, p, parse_number, str_of};

static JSONENCODE: Spec = Spec { name: "jsonencode", params: &[nullable("val", Ty::Any)], var: None, imp: |a| Ok(Value::String(cty_json(&a[0]))) };
static JSONDECODE: Spec = Spec {
    name: "jsondecode",
    params: &[p("str", Ty::Str)],
    var: None,
    imp: |a| {
        let s = str_of(&a[0]);
        // JSONDecodeFunc's Type: the first non-space character must start a JSON value.
        if let Some(c) = s.trim_start().chars().next().filter(|c| !matches!(c, '{' | '[' | '"' | '-' | '0'..='9' | 't' | 'f' | 'n')) {
            // encoding/json's wording (helmfile 0.166's go-cty has no check of its own).
            return Err(FnErr::Call(format!("invalid character {c:?} looking for beginning of value")));
        }
        let j: serde_json::Value = serde_json::from_str(s).map_err(|e| FnErr::Call(e.to_string()))?;
        Ok(from_json(&j))
    },
};
static CSVDECODE: Spec = Spec { name: "csvdecode", params: &[p("str", Ty::Str)], var: None, imp: csvdecode };
static YAMLENCODE: Spec = Spec { name: "yamlencode", params: &[nullable("value", Ty::Any)], var: None, imp: |a| Ok(Value::String(yaml_encode(&a[0]))) };
static YAMLDECODE: Spec = Spec {
    name: "yamldecode",
    params: &[p("src", Ty::Str)],
    var: None,
    imp: |a| {
        let j: serde_json::Value = serde_saphyr::from_str(str_of(&a[0])).map_err(|e| FnErr::Call(e.to_string()))?;
        Ok(yaml11(from_json(&j)))
    },
};

/// cty/json's marshal: object keys sorted, numbers as `Text('f', -1)`,
/// strings as Go's json.Marshal writes them (`<`, `>`, `&` escaped).
pub(super) fn cty_json(v: &Value) -> String {
    let mut out = String::new();
    write_json(v, &mut out);
    out
}

fn write_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number_text(n)),
        Value::String(s) => go_json_string(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            let mut kv: Vec<_> = m.iter().collect();
            kv.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (k, x)) in kv.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                go_json_string(k, out);
                out.push(':');
                write_json(x, out);
            }
            out.push('}');
        }
    }
}

fn go_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

pub(super) fn from_json(j: &serde_json::Value) -> Value {
    match j {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => parse_number(&n.to_string()).unwrap_or(Value::Null),
        serde_json::Value::String(s) => Value::String(s.clone()),
        serde_json::Value::Array(a) => Value::Array(a.iter().map(from_json).collect()),
        serde_json::Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), from_json(v))).collect()),
    }
}

/// go-cty-yaml resolves plain scalars by YAML 1.1 (yaml.v2's resolve.go):
/// `yes`/`no`/`on`/`off` are booleans. The reader here is YAML 1.2, so
/// those strings are turned into what go-cty-yaml reads.
fn yaml11(v: Value) -> Value {
    match v {
        Value::String(s) => match s.as_str() {
            "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Value::Bool(true),
            "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Value::Bool(false),
            _ => Value::String(s),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(yaml11).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, yaml11(v))).collect()),
        other => other,
    }
}

/// go-cty-yaml's encoder (yaml.v2's emitter in cty's style): keys and
/// strings double-quoted, multi-line strings as `|-`/`|` blocks, keys sorted.
fn yaml_encode(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Array(a) if !a.is_empty() => yaml_seq(a, 0, &mut out),
        Value::Object(m) if !m.is_empty() => yaml_map(m, 0, &mut out),
        other => {
            out.push_str(&yaml_scalar(other, 0));
            out.push('\n');
        }
    }
    out
}

fn yaml_scalar(v: &Value, indent: usize) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number_text(n),
        Value::String(s) if s.contains('\n') && !s.contains(['\r', '\t']) && !s.starts_with(' ') => {
            let chomp = if s.ends_with('\n') { "|" } else { "|-" };
            let pad = " ".repeat(indent + 2);
            let body: Vec<String> = s.trim_end_matches('\n').split('\n').map(|l| if l.is_empty() { String::new() } else { format!("{pad}{l}") }).collect();
            format!("{chomp}\n{}", body.join("\n"))
        }
        Value::String(s) => {
            let mut q = String::new();
            go_json_string(s, &mut q);
            q.replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&")
        }
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

fn yaml_map(m: &hcl::Map<String, Value>, indent: usize, out: &mut String) {
    let mut kv: Vec<_> = m.iter().collect();
    kv.sort_by(|a, b| a.0.cmp(b.0));
    let pad = " ".repeat(indent);
    for (k, v) in kv {
        out.push_str(&format!("{pad}{}:", yaml_scalar(&Value::String(k.clone()), 0)));
        yaml_child(v, indent, out, true);
    }
}

fn yaml_seq(a: &[Value], indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    for v in a {
        out.push_str(&format!("{pad}-"));
        yaml_child(v, indent, out, false);
    }
}

fn yaml_child(v: &Value, indent: usize, out: &mut String, in_map: bool) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            yaml_map(m, indent + 2, out);
        }
        // yaml.v2 writes a sequence under a key at the key's own indentation.
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            yaml_seq(a, if in_map { indent } else { indent + 2 }, out);
        }
        other => {
            out.push(' ');
            out.push_str(&yaml_scalar(other, indent));
            out.push('\n');
        }
    }
}

/// CSVDecodeFunc: the first record names the columns; every field a string.
fn csvdecode(a: &[Value]) -> Result<Value, FnErr> {
    let records = csv_records(str_of(&a[0])).map_err(FnErr::Call)?;
    let Some(((_, header), rows)) = records.split_first() else { return Err(FnErr::Call("missing header line".into())) };
    for (i, name) in header.iter().enumerate() {
        if header[..i].contains(name) {
            return Err(FnErr::Call(format!("duplicate column name {name:?}")));
        }
    }
    let mut out = Vec::new();
    for (line, row) in rows {
        if row.len() != header.len() {
            return Err(FnErr::Call(format!("CSV parse error on line {line}: wrong number of fields")));
        }
        out.push(Value::Object(header.iter().cloned().zip(row.iter().map(|f| Value::String(f.clone()))).collect()));
    }
    Ok(Value::Array(out))
}

/// encoding/csv's reader: records (with their line numbers), quoted fields
/// with `""` escapes, blank lines skipped.
fn csv_records(s: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    let mut line = 1;
    while chars.peek().is_some() {
        let start = line;
        if chars.peek() == Some(&'\n') {
            chars.next();
            line += 1;
            continue;
        }
        let mut fields = Vec::new();
        loop {
            let mut field = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                loop {
                    match chars.next() {
                        Some('"') if chars.peek() == Some(&'"') => {
                            chars.next();
                            field.push('"');
                        }
                        Some('"') => break,
                        Some(c) => {
                            if c == '\n' {
                                line += 1;
                            }
                            field.push(c);
                        }
                        None => return Err(format!("CSV parse error on line {start}: extraneous or missing \" in quoted-field")),
                    }
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c == ',' || c == '\n' {
                        break;
                    }
                    if c == '"' {
                        return Err(format!("CSV parse error on line {line}: bare \" in non-quoted-field"));
                    }
                    chars.next();
                    field.push(c);
                }
            }
            fields.push(field.trim_end_matches('\r').to_string());
            match chars.next() {
                Some(',') => continue,
                Some('\n') => {
                    line += 1;
                    break;
                }
                None => break,
                Some(c) => return Err(format!("CSV parse error on line {line}: unexpected {c:?} after quoted field")),
            }
        }
        out.push((start, fields));
    }
    Ok(out)
}

pub(super) fn register(ctx: &mut Context) {
    declare!(ctx, JSONENCODE, JSONDECODE, CSVDECODE, YAMLENCODE, YAMLDECODE);
}
