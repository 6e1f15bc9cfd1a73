//! The one decision of what is secret in a Kubernetes object, and the
//! markers that hide it. An object is a Secret by its parsed `kind` (so a
//! kind spelled with escapes, `"Secr\u0065t"`, is the Secret the tool
//! reports); its secret values are `data`, `stringData` and the
//! `kubectl.kubernetes.io/last-applied-configuration` annotation, which
//! repeats them. Every output path masks through this module: manifests and
//! records (`*` of the same length), upgrade-preview plans (`<changed, N
//! bytes>` markers, see [`SizeMarker`]), `patch` output, and YAML error
//! snippets that quote a Secret's lines.

use serde_json::Value;

use crate::keypath::{Path, Seg};

/// The fields of a Secret that hold its values, as JSON pointers.
pub const SECRET_FIELDS: [&str; 2] = ["/data", "/stringData"];
/// The annotation `kubectl apply` writes: the whole object again, values included.
pub const LAST_APPLIED_KEY: &str = "kubectl.kubernetes.io/last-applied-configuration";
pub const LAST_APPLIED: &str = "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration";

/// Whether `kind` (as parsed, escapes resolved) names a Secret.
pub fn is_secret_kind(kind: &str) -> bool {
    kind == "Secret"
}

/// Whether `value` is a Secret object.
pub fn is_secret(value: &Value) -> bool {
    value.get("kind").and_then(Value::as_str).is_some_and(is_secret_kind)
}

/// Whether a path inside a Secret (or a patch of one) holds a secret value:
/// under `data`, `stringData` or the last-applied annotation.
pub fn is_secret_path(path: &Path) -> bool {
    match path.0.as_slice() {
        [Seg::Key(k), ..] if k == "data" || k == "stringData" => true,
        [Seg::Key(m), Seg::Key(a), Seg::Key(l), ..] => m == "metadata" && a == "annotations" && l == LAST_APPLIED_KEY,
        _ => false,
    }
}

/// Masks Secret data in place (also inside `kind: List`); true when anything changed.
pub fn mask_value(value: &mut Value) -> bool {
    if is_secret(value) {
        return mask_secret_fields(value);
    }
    let is_list = value.get("kind").and_then(Value::as_str).is_some_and(|k| k.ends_with("List"));
    match value.get_mut("items") {
        Some(Value::Array(items)) if is_list => items.iter_mut().fold(false, |acc, it| mask_value(it) | acc),
        _ => false,
    }
}

/// Masks the values of `data` and `stringData` and the last-applied
/// annotation of a Secret, or of a patch for one (a patch has no `kind`),
/// with stars of the same length.
pub fn mask_secret_fields(value: &mut Value) -> bool {
    let mut changed = false;
    for_each_secret_value(value, |_, v| {
        *v = Value::String(stars(v));
        changed = true;
    });
    changed
}

/// Calls `f` with the pointer of each secret field (`/data`, `/stringData`,
/// or [`LAST_APPLIED`]) and each non-null value under it.
pub fn for_each_secret_value(value: &mut Value, mut f: impl FnMut(&str, &mut Value)) {
    for field in SECRET_FIELDS {
        if let Some(Value::Object(entries)) = value.pointer_mut(field) {
            for (key, v) in entries.iter_mut().filter(|(_, v)| !v.is_null()) {
                f(&format!("{field}/{}", key.replace('~', "~0").replace('/', "~1")), v);
            }
        }
    }
    if let Some(a) = value.pointer_mut(LAST_APPLIED).filter(|a| !a.is_null()) {
        f(LAST_APPLIED, a);
    }
}

/// Stars with the length of the value they hide, so sizes stay comparable.
pub fn stars(v: &Value) -> String {
    let len = match v {
        Value::String(s) => s.chars().count(),
        Value::Null => 0,
        other => other.to_string().chars().count(),
    };
    "*".repeat(len)
}

/// The size markers of upgrade-preview: the size (decoded bytes for `data`)
/// and whether the upgrade changes the value, so a rotated password of the
/// same length still shows as a change: `<changed, 12 bytes>` where the
/// upgrade writes a new value, `<12 bytes>` for the value it replaces or
/// removes, `<unchanged, 12 bytes>` otherwise.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SizeMarker {
    /// The live object: the value the upgrade replaces (or keeps).
    Live,
    /// The patch or the object after the upgrade.
    New,
    /// A value on its own (drift): its size only.
    Size,
}

impl SizeMarker {
    /// The marker for `v` at `pointer` (base64 under `/data`); `other`: the
    /// same field on the other side of the upgrade.
    pub fn mark(self, v: &Value, pointer: &str, other: Option<&Value>) -> String {
        let bytes = secret_len(v, pointer.starts_with("/data/"));
        match (self, other == Some(v)) {
            (SizeMarker::Size, _) => format!("<{bytes} bytes>"),
            (_, true) => format!("<unchanged, {bytes} bytes>"),
            (SizeMarker::New, false) => format!("<changed, {bytes} bytes>"),
            (SizeMarker::Live, false) => format!("<{bytes} bytes>"),
        }
    }
}

/// The size of a secret value: decoded bytes for `data` (base64), else its UTF-8 length.
fn secret_len(v: &Value, base64: bool) -> usize {
    use base64::Engine as _;
    match v {
        Value::String(s) if base64 => base64::engine::general_purpose::STANDARD.decode(s).map_or(s.len(), |b| b.len()),
        Value::String(s) => s.len(),
        Value::Null => 0,
        other => other.to_string().len(),
    }
}

/// The pointer of a path (`data.password` -> `/data/password`).
pub fn pointer_of(path: &Path) -> String {
    path.0.iter().fold(String::new(), |mut s, seg| {
        s.push('/');
        match seg {
            Seg::Key(k) => s.push_str(&k.replace('~', "~0").replace('/', "~1")),
            Seg::Index(i) => s.push_str(&i.to_string()),
        }
        s
    })
}

/// Whether a document's text may hold a Secret: it names the kind, or has
/// an escape (`"Secr\u0065t"`) that parsing may turn into it. Only a cheap
/// filter before parsing; the parsed kind decides.
pub fn may_hold_secret(text: &str) -> bool {
    text.contains("Secret") || text.contains('\\')
}

/// A YAML error message with its source snippet (`N | text` lines, as
/// serde_saphyr prints them) masked where the line lies in a Secret's
/// values in `source`: the value is replaced by stars, the line, column and
/// key stay. The document is broken, so its Secret-ness and sections are
/// read from its lines.
pub fn mask_yaml_error(message: &str, source: &str) -> String {
    if !may_hold_secret(source) {
        return message.to_string();
    }
    let secret_lines = secret_line_numbers(source);
    let mut out = String::with_capacity(message.len());
    for line in message.split_inclusive('\n') {
        let masked = snippet_line_number(line).filter(|n| secret_lines.contains(n)).and_then(|_| {
            let bar = line.find('|')?;
            let (head, text) = line.split_at(bar + 1);
            Some(format!("{head}{}", mask_line_value(text)))
        });
        out.push_str(masked.as_deref().unwrap_or(line));
    }
    out
}

/// `7 |   other: x` -> 7.
fn snippet_line_number(line: &str) -> Option<usize> {
    let (number, _) = line.split_once('|')?;
    number.trim().parse().ok()
}

/// Keeps the key of `key: value` (and the indentation), stars the rest.
fn mask_line_value(text: &str) -> String {
    let body = text.trim_end_matches(['\n', '\r']);
    let ending = &text[body.len()..];
    let keep = body.find(": ").map_or_else(|| body.len() - body.trim_start().len(), |i| i + 2);
    let (kept, value) = body.split_at(keep);
    let hidden: String = value.chars().map(|c| if c.is_whitespace() { c } else { '*' }).collect();
    format!("{kept}{hidden}{ending}")
}

/// 1-based numbers of the lines of `source` that hold a Secret's values:
/// in a document whose `kind:` line reads `Secret` (quotes and escapes
/// resolved), the lines under a top-level `data:` or `stringData:` and the
/// last-applied annotation's lines.
fn secret_line_numbers(source: &str) -> Vec<usize> {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = Vec::new();
    let mut start = 0;
    while start < lines.len() {
        let end = (start + 1..lines.len()).find(|&i| lines[i].starts_with("---")).unwrap_or(lines.len());
        let doc = &lines[start..end];
        if doc.iter().any(|l| l.trim_start().strip_prefix("kind:").is_some_and(|k| is_secret_kind(&unquote(k.trim())))) {
            let mut in_values = false;
            let mut in_last_applied = false;
            for (i, l) in doc.iter().enumerate() {
                let top_level = !l.starts_with([' ', '\t']) && !l.trim().is_empty();
                if top_level {
                    let key = l.split(':').next().unwrap_or("").trim().trim_matches(['"', '\'']);
                    in_values = key == "data" || key == "stringData";
                }
                let indent = l.len() - l.trim_start().len();
                if l.contains(LAST_APPLIED_KEY) {
                    in_last_applied = true;
                    out.push(start + i + 1);
                    continue;
                }
                // A block scalar of the annotation goes on while indented deeper.
                if in_last_applied && (l.trim().is_empty() || indent > 4) {
                    out.push(start + i + 1);
                    continue;
                }
                in_last_applied = false;
                if in_values && !top_level {
                    out.push(start + i + 1);
                }
            }
        }
        start = end;
    }
    out
}

/// A YAML scalar as written on a `kind:` line: quotes removed and a double
/// quoted one's escapes resolved (as JSON does; YAML's are a superset).
fn unquote(text: &str) -> String {
    let text = text.split(" #").next().unwrap_or(text).trim();
    if text.starts_with('"') {
        return serde_json::from_str::<String>(text).unwrap_or_else(|_| text.trim_matches('"').to_string());
    }
    text.trim_matches('\'').to_string()
}

/// Key names whose values outputs mask unless `--show-secrets` (matched
/// case-insensitively anywhere in the last key): preview output goes to CI logs.
pub const SECRET_KEY_WORDS: &[&str] = &["password", "passwd", "secret", "token", "apikey", "api_key", "credential", "privatekey", "private_key"];

/// Whether the last key of `path` (as outputs spell it: `db.password`) looks secret.
pub fn key_looks_secret(path: &str) -> bool {
    let last = path.rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
    SECRET_KEY_WORDS.iter().any(|w| last.contains(w))
}

/// A value's source as outputs describe it (`--set[0] db.password=hunter2`),
/// with the flag's value masked when the key looks secret.
pub fn masked_flag_source(path: &str, source: &str) -> String {
    if source.starts_with("--set") && key_looks_secret(path) { mask_expression(source) } else { source.to_string() }
}

/// A `key=value` flag expression (or a text ending in one) without its value.
pub fn mask_expression(text: &str) -> String {
    text.split_once('=').map_or_else(|| text.to_string(), |(key, _)| format!("{key}=<masked>"))
}


#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_kind_written_with_an_escape_is_a_secret_once_parsed() {
        let mut v: Value = serde_saphyr::from_str("kind: \"Secr\\u0065t\"\nstringData:\n  a: hunter2\n").unwrap();
        assert!(mask_value(&mut v));
        assert_eq!(v["stringData"]["a"], "*******");
        assert!(may_hold_secret("kind: \"Secr\\u0065t\""));
    }

    #[test]
    fn list_items_and_the_last_applied_annotation_are_masked() {
        let mut v = json!({"kind": "List", "items": [{"kind": "Secret", "metadata": {"annotations": {LAST_APPLIED_KEY: "{\"data\":1}"}}, "data": {"a": "eA=="}}]});
        assert!(mask_value(&mut v));
        assert_eq!(v["items"][0]["data"]["a"], "****");
        assert_eq!(v["items"][0]["metadata"]["annotations"][LAST_APPLIED_KEY], "**********");
    }

    #[test]
    fn size_markers_say_size_and_change() {
        let v = json!("aHVudGVyMg==");
        assert_eq!(SizeMarker::New.mark(&v, "/data/p", None), "<changed, 7 bytes>");
        assert_eq!(SizeMarker::New.mark(&v, "/data/p", Some(&v)), "<unchanged, 7 bytes>");
        assert_eq!(SizeMarker::Live.mark(&v, "/stringData/p", None), "<12 bytes>");
        assert_eq!(SizeMarker::Size.mark(&v, "/data/p", Some(&v)), "<7 bytes>");
    }

    #[test]
    fn yaml_snippets_hide_secret_values_but_keep_keys_and_positions() {
        let source = "apiVersion: v1\nkind: \"Secr\\u0065t\"\nstringData:\n  password: hunter2\n  bad: [x\n  more: y: z\n---\nkind: ConfigMap\ndata:\n  a: visible\n";
        let message = "error: line 6 column 10: bad\n --> <input>:6:10\n  |\n4 |   password: hunter2\n5 |   bad: [x\n6 |   more: y: z\n  |          ^ bad\n10 |   a: visible\n";
        let masked = mask_yaml_error(message, source);
        assert!(masked.contains("4 |   password: *******\n"), "{masked}");
        assert!(masked.contains("6 |   more: ** *\n") && masked.contains("  |          ^ bad\n"), "{masked}");
        assert!(masked.contains("10 |   a: visible"), "a ConfigMap stays: {masked}");
    }
}
