//! Rendered manifests as Helm stores them: splitting into documents and
//! masking the data of Secret objects ([`secrets`] decides what is secret).
//! helm: pkg/release/v1/util/manifest.go SplitManifests

use serde_json::Value;

pub mod line_diff;
pub mod secrets;

pub use secrets::{mask_secret_fields, mask_value};

/// Splits a manifest into documents exactly as Helm 4.2's `SplitManifests`
/// does. Leading whitespace of the whole text is dropped, then the text is
/// cut at every match of `(?:^|\s*\n)---\s*` (no multi-line flag): `---`
/// at the very start, or right after a newline together with the whitespace
/// before that newline, plus all whitespace after the dashes, whatever
/// follows on the line (`---apiVersion: v1` splits; `----` leaves `-`). So a
/// document loses its trailing blank lines before a separator (the last one
/// keeps them), and a `---` right after a separator's own newline is not a
/// separator. Pieces that are only whitespace are dropped and the others are
/// left-trimmed. Document `i` of the result is Helm's `manifest-i`.
///
/// Helm after 4.2 (commit bfebbb7, "Fix vanishing empty lines") uses
/// `(?m)^---[ \t]*` instead; 4.2.x, the version emulated, does not.
pub fn split(manifest: &str) -> Vec<&str> {
    let text = manifest.trim_start();
    let mut docs = Vec::new();
    let mut start = 0;
    let mut from = 0;
    while let Some((m_start, m_end)) = find_separator(text.as_bytes(), from) {
        push_doc(&mut docs, &text[start..m_start]);
        start = m_end;
        from = m_end;
    }
    push_doc(&mut docs, &text[start..]);
    docs
}

/// Documents between lines that are only `---` (and blanks), byte for byte,
/// empty ones dropped: for display, where every other byte must stay as it
/// was (Helm's own split, [`split`], drops trailing blank lines).
fn split_on_separator_lines(manifest: &str) -> Vec<&str> {
    let mut docs = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in manifest.split_inclusive('\n') {
        if line.strip_prefix("---").is_some_and(|rest| rest.trim().is_empty()) {
            docs.push(&manifest[start..offset]);
            start = offset + line.len();
        }
        offset += line.len();
    }
    docs.push(&manifest[start..]);
    docs.retain(|d| !d.trim().is_empty());
    docs
}

/// Go's `\s` (RE2: space, \t, \n, \f, \r).
fn is_go_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r')
}

/// The leftmost match of Helm 4.2's separator at or after `from`, as Go's
/// `FindAll` finds it (it resumes where the previous match ended).
fn find_separator(b: &[u8], from: usize) -> Option<(usize, usize)> {
    let after_dashes = |mut i: usize| {
        while i < b.len() && is_go_space(b[i]) {
            i += 1;
        }
        i
    };
    if from == 0 && b.starts_with(b"---") {
        return Some((0, after_dashes(3)));
    }
    let nl = from + b.get(from..)?.windows(4).position(|w| w == b"\n---")?;
    // The match starts where the run of whitespace ending in that newline starts.
    let mut m_start = nl;
    while m_start > from && is_go_space(b[m_start - 1]) {
        m_start -= 1;
    }
    Some((m_start, after_dashes(nl + 4)))
}

fn push_doc<'a>(docs: &mut Vec<&'a str>, doc: &'a str) {
    if !doc.trim().is_empty() {
        docs.push(doc.trim_start());
    }
}

/// The `# Source: PATH` comment Helm writes at the top of a document, looked
/// for only among the comment lines before its content.
pub fn leading_source(doc: &str) -> Option<&str> {
    doc.lines()
        .map(str::trim)
        .take_while(|l| l.is_empty() || l.starts_with('#'))
        .find_map(|l| l.strip_prefix("# Source:"))
        .map(str::trim)
}

/// The YAML documents of `text` as JSON values. Integers stay integers (as
/// `sigs.k8s.io/yaml` decodes objects into unstructured ones); the YAML is
/// read as YAML 1.2, so YAML 1.1 spellings such as `yes` stay strings.
/// An error's snippet does not quote a Secret's values.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, String> {
    serde_saphyr::from_multiple(text).map_err(|e| secrets::mask_yaml_error(&e.to_string(), text))
}

/// The YAML documents of a rendered manifest as Helm's reader
/// (`sigs.k8s.io/yaml`, go-yaml v2, not strict) sees them: a repeated key
/// keeps its last value, `0777` is octal, and YAML 1.1 booleans (`yes`,
/// `on`) are booleans. Integers stay integers.
pub fn parse_manifest_documents(text: &str) -> Result<Vec<Value>, String> {
    let options = serde_saphyr::options! {
        duplicate_keys: serde_saphyr::options::DuplicateKeyPolicy::LastWins,
        legacy_octal_numbers: true,
    };
    serde_saphyr::from_multiple_with_options(text, options).map_err(|e| secrets::mask_yaml_error(&e.to_string(), text))
}

/// Why [`parse_object`] refused its input.
#[derive(Debug, thiserror::Error)]
pub enum ObjectError {
    #[error("not valid JSON")]
    Json(#[source] serde_json::Error),
    #[error("not valid YAML: {0}")]
    Yaml(String),
    #[error("holds a YAML/JSON value that is not an object")]
    NotAnObject,
    #[error("holds {0} documents; give one object")]
    ManyDocuments(usize),
}

/// One object, YAML or JSON. An empty text is "no object" (`null`), as Helm
/// passes for an object missing from the cluster.
pub fn parse_object(text: &str) -> Result<Value, ObjectError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(Value::Null);
    }
    let docs: Vec<Value> = if trimmed.starts_with('{') {
        vec![serde_json::from_str(trimmed).map_err(ObjectError::Json)?]
    } else {
        parse_documents(text).map_err(ObjectError::Yaml)?
    };
    match docs.as_slice() {
        [one] if one.is_object() || one.is_null() => Ok(one.clone()),
        [_] => Err(ObjectError::NotAnObject),
        [] => Ok(Value::Null),
        many => Err(ObjectError::ManyDocuments(many.len())),
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
    if !secrets::may_hold_secret(manifest) {
        return manifest.to_string();
    }
    let mut out = String::with_capacity(manifest.len());
    for doc in split_on_separator_lines(manifest) {
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
    if !secrets::may_hold_secret(doc) {
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
    doc.lines().any(|l| l.trim_start().starts_with("kind:") && secrets::may_hold_secret(l))
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

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = "---\n# Source: c/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: \"1\"\n---\n# Source: c/templates/secret.yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  password: aHVudGVyMg==\nstringData:\n  token: abc\n";

    #[test]
    fn split_cuts_at_three_dashes_whatever_follows_like_helm() {
        // Helm 4.2's regex takes `---` after a newline plus any whitespace
        // around it, so text after the dashes starts the next document.
        assert_eq!(split("---apiVersion: v1\n--- # c\nkind: A\n"), vec!["apiVersion: v1", "# c\nkind: A\n"]);
        assert_eq!(split("a: 1\n----\nb: 2"), vec!["a: 1", "-\nb: 2"]);
    }

    #[test]
    fn split_eats_blank_lines_before_a_separator_but_not_at_the_end() {
        assert_eq!(split("a: 1\n\n  \n---\n\n  b: 2\n\n"), vec!["a: 1", "b: 2\n\n"]);
    }

    #[test]
    fn split_does_not_see_dashes_right_after_a_separators_newline() {
        // The first match ends after `---\n`; Go resumes there and `---` is
        // then not preceded by a newline of its own.
        assert_eq!(split("---\n---\nx: 1\n"), vec!["---\nx: 1\n"]);
        assert_eq!(split("\n\n  ---\n---  \t\n\n  a: 1\n\n---\n   \n"), vec!["---  \t\n\n  a: 1"]);
    }

    #[test]
    fn split_drops_blank_pieces() {
        assert_eq!(split("---\n\n---\n\na: 1\n---\n"), vec!["---\n\na: 1"]);
        assert_eq!(split("a: 1\n---\n \n---\n"), vec!["a: 1", "---\n"]);
        assert_eq!(split("a: 1\n---\n \n"), vec!["a: 1"]);
        assert!(split("").is_empty());
        assert!(split("---\n").is_empty());
    }

    #[test]
    fn split_ignores_dashes_inside_a_line_and_indented_dashes() {
        assert_eq!(split("a: ---\nb: |\n  ---\n"), vec!["a: ---\nb: |\n  ---\n"]);
    }

    #[test]
    fn leading_source_reads_only_the_header_comments() {
        assert_eq!(leading_source("# Source: c/templates/a.yaml\nkind: A\n"), Some("c/templates/a.yaml"));
        assert_eq!(leading_source("kind: A\n# Source: nope\n"), None);
    }

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
    fn a_secret_kind_written_with_an_escape_is_masked() {
        let masked = mask_secrets("---\nkind: \"Secr\\u0065t\"\nstringData:\n  token: hunter2\n");
        assert!(!masked.contains("hunter2"), "{masked}");
    }

    #[test]
    fn manifest_without_secrets_is_unchanged() {
        let m = "---\nkind: ConfigMap\n";
        assert_eq!(mask_secrets(m), m);
    }
}
