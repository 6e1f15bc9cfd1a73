//! Rendered manifests as Helm stores them: splitting into documents and
//! masking the data of Secret objects.
//! helm: pkg/release/v1/util/manifest.go SplitManifests

use serde_json::Value;

/// Splits a manifest on `---` separator lines, dropping empty documents.
pub fn split(manifest: &str) -> Vec<&str> {
    let mut docs = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in manifest.split_inclusive('\n') {
        let is_separator = line.strip_prefix("---").is_some_and(|rest| rest.trim().is_empty());
        if is_separator {
            push_doc(&mut docs, &manifest[start..offset]);
            start = offset + line.len();
        }
        offset += line.len();
    }
    push_doc(&mut docs, &manifest[start..]);
    docs
}

fn push_doc<'a>(docs: &mut Vec<&'a str>, doc: &'a str) {
    if !doc.trim().is_empty() {
        docs.push(doc);
    }
}

/// The `# Source: PATH` comment Helm writes at the top of each document.
pub fn source_of(doc: &str) -> Option<&str> {
    doc.lines().map(str::trim).find_map(|l| l.strip_prefix("# Source:")).map(str::trim)
}

/// Documents with their source path (or `document N` when there is none).
pub fn split_with_sources(manifest: &str) -> Vec<(String, &str)> {
    split(manifest)
        .into_iter()
        .enumerate()
        .map(|(i, d)| (source_of(d).map_or_else(|| format!("document {}", i + 1), str::to_string), d))
        .collect()
}

/// Replaces every value of a Secret's `data` and `stringData` with a marker of
/// the same length, in every document of `manifest`. Documents that are not
/// Secrets are returned unchanged, byte for byte.
pub fn mask_secrets(manifest: &str) -> String {
    if !manifest.contains("Secret") {
        return manifest.to_string();
    }
    let mut out = String::with_capacity(manifest.len());
    for doc in split(manifest) {
        out.push_str("---\n");
        out.push_str(&mask_document(doc));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    // Helm's manifests start with "---"; keep ours that way only if it did.
    if !manifest.trim_start().starts_with("---") {
        out.replace_range(0..4, "");
    }
    out
}

/// Masks one document; returns it unchanged unless it holds a Secret.
pub fn mask_document(doc: &str) -> String {
    if !doc.contains("Secret") {
        return doc.to_string();
    }
    let Ok(mut value) = serde_saphyr::from_str::<Value>(doc) else {
        // A document we cannot read may still hold secret data: hide it all.
        return if mentions_secret_kind(doc) {
            format!("{}# releasex: this Secret could not be parsed as YAML; its contents are hidden (use --show-secrets)\n", leading_comments(doc))
        } else {
            doc.to_string()
        };
    };
    if !mask_value(&mut value) {
        return doc.to_string();
    }
    let body = serde_saphyr::to_string(&value).unwrap_or_default();
    format!("{}{}", leading_comments(doc), body)
}

fn mentions_secret_kind(doc: &str) -> bool {
    doc.lines().any(|l| l.trim_start().starts_with("kind:") && l.contains("Secret"))
}

fn leading_comments(doc: &str) -> String {
    doc.lines().take_while(|l| l.trim_start().starts_with('#') || l.trim().is_empty()).fold(String::new(), |mut s, l| {
        if !l.trim().is_empty() {
            s.push_str(l);
            s.push('\n');
        }
        s
    })
}

/// Masks Secret data in place (also inside `kind: List`); true when anything changed.
pub fn mask_value(value: &mut Value) -> bool {
    let Some(obj) = value.as_object_mut() else { return false };
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
    if kind == "Secret" {
        return mask_secret_fields(value);
    }
    if kind.ends_with("List")
        && let Some(Value::Array(items)) = obj.get_mut("items")
    {
        return items.iter_mut().fold(false, |acc, it| mask_value(it) | acc);
    }
    false
}

/// Masks the values of `data` and `stringData` and the last-applied
/// annotation (which repeats them) of a Secret, or of a patch for one (a
/// patch has no `kind`).
pub fn mask_secret_fields(value: &mut Value) -> bool {
    let Some(obj) = value.as_object_mut() else { return false };
    let mut changed = false;
    for key in ["data", "stringData"] {
        if let Some(Value::Object(data)) = obj.get_mut(key) {
            for v in data.values_mut() {
                *v = Value::String(marker(v));
                changed = true;
            }
        }
    }
    if let Some(a) = value.pointer_mut("/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration") {
        *a = Value::String(marker(a));
        changed = true;
    }
    changed
}

/// A marker with the length of the value it hides, so sizes stay comparable.
pub fn marker(v: &Value) -> String {
    let len = match v {
        Value::String(s) => s.chars().count(),
        Value::Null => 0,
        other => other.to_string().chars().count(),
    };
    "*".repeat(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = "---\n# Source: c/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: \"1\"\n---\n# Source: c/templates/secret.yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  password: aHVudGVyMg==\nstringData:\n  token: abc\n";

    #[test]
    fn split_keeps_source_comments() {
        let docs = split_with_sources(MANIFEST);
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[1].0, "c/templates/secret.yaml");
    }

    #[test]
    fn secret_values_are_masked_with_their_length() {
        let masked = mask_secrets(MANIFEST);
        assert!(!masked.contains("aHVudGVyMg=="), "{masked}");
        assert!(!masked.contains("abc"), "{masked}");
        assert!(masked.contains("password: '************'") || masked.contains("password: \"************\""), "{masked}");
        assert!(masked.contains("# Source: c/templates/secret.yaml"));
        assert!(masked.contains("kind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: \"1\"\n"), "other documents unchanged: {masked}");
    }

    #[test]
    fn unparseable_secret_is_hidden_entirely() {
        let doc = "# Source: x\nkind: Secret\ndata:\n  a: [unclosed\n";
        let masked = mask_document(doc);
        assert!(!masked.contains("unclosed"));
        assert!(masked.starts_with("# Source: x\n"));
    }

    #[test]
    fn manifest_without_secrets_is_unchanged() {
        let m = "---\nkind: ConfigMap\n";
        assert_eq!(mask_secrets(m), m);
    }
}
