//! A rendered manifest document read by the line reader ([`super::fast`])
//! instead of serde_saphyr, when that gives the same JSON for certain.
//!
//! The manifest reader (`crate::manifest::parse_manifest_documents`) is
//! serde_saphyr with go-yaml v2's duplicate-key and octal rules; it costs
//! about 700 instructions per byte, and upgrade-preview reads two whole
//! manifests (the new one and the baseline's), which on a chart like
//! kube-prometheus-stack is most of what it does beyond rendering. Rendered
//! manifests are nearly all plain block YAML of strings, `true`/`false`,
//! decimal integers and nulls, where YAML 1.1 (go-yaml v2, as the values
//! reader resolves it) and serde_saphyr agree. So a document is taken here
//! only when every scalar and key is one of those, read the same way by
//! both: anything else (floats, other bases, `_` separators, YAML 1.1 words
//! such as `yes`, timestamps, tags, anchors' aliases, merge keys, repeated
//! keys, non-string keys, or text the line reader declines) answers `None`, and the caller
//! reads the document as before. A test compares the two readers over every
//! bundled YAML document and generated manifests.

use serde_json::{Map, Number, Value};

use super::doc::{Doc, NodeKind};
use super::resolve::{self, Reading, Scalar};

/// The first document of `text` as the manifest reader would read it, or
/// `None` when it is not certainly the same (then read it the usual way).
pub fn plain_manifest_document(text: &str) -> Option<Value> {
    let doc = super::fast::parse(text, 0)?;
    // An empty document, or one libyaml refuses, is the general reader's to report.
    if doc.violation.is_some() || doc.ignored_after_end.is_some() {
        return None;
    }
    to_json(&doc, doc.root?)
}

fn to_json(doc: &Doc, id: usize) -> Option<Value> {
    let node = doc.nodes.get(id)?;
    Some(match &node.kind {
        NodeKind::Scalar { text, tag, plain } => {
            if tag.is_some() {
                return None;
            }
            let resolved = resolve::resolve_node(text, None, *plain).ok()?;
            if resolved.reading != Reading::Plain {
                return None;
            }
            match resolved.value {
                Scalar::Null => Value::Null,
                Scalar::Bool(b) => Value::Bool(b),
                Scalar::Int(i) => Value::Number(Number::from(i)),
                // serde_saphyr's float and big-integer forms are its own; leave them to it.
                Scalar::Uint(_) | Scalar::Float(_) => return None,
                Scalar::Str(_) if *plain && serde_saphyr_may_not_read_as_string(text) => return None,
                Scalar::Str(s) => Value::String(s),
            }
        }
        NodeKind::Seq(items) => Value::Array(items.iter().map(|&i| to_json(doc, i)).collect::<Option<Vec<_>>>()?),
        NodeKind::Map(entries) => {
            let mut out = Map::with_capacity(entries.len());
            for &(k, v) in entries {
                let key = match &doc.nodes.get(k)?.kind {
                    // `<<` is a merge key for go-yaml, a plain key for serde_saphyr.
                    NodeKind::Scalar { text, tag: None, plain } if !(*plain && text == "<<") => {
                        match resolve::resolve_node(text, None, *plain).ok()? {
                            resolve::Resolved { value: Scalar::Str(s), reading: Reading::Plain } => s,
                            _ => return None,
                        }
                    }
                    _ => return None,
                };
                // A repeated key: go-yaml keeps the last, and so would the
                // general reader, but where it keeps it is not this reader's to say.
                if out.insert(key, to_json(doc, v)?).is_some() {
                    return None;
                }
            }
            Value::Object(out)
        }
        NodeKind::Alias { .. } => return None,
    })
}

/// Whether serde_saphyr might read this plain text, a string for go-yaml,
/// as something else: YAML 1.1's boolean and null words in any letter case
/// (serde-saphyr 2.2 `parse_yaml11_bool`), and anything that reads as a
/// number once `_` are dropped (Rust's float and integer forms, which take
/// more than YAML's, radix prefixes, `inf`/`nan`). Over-inclusive on
/// purpose: a document with such a string is read the usual way.
fn serde_saphyr_may_not_read_as_string(s: &str) -> bool {
    const WORDS: [&str; 14] = ["y", "yes", "n", "no", "on", "off", "true", "false", "null", "~", "inf", "infinity", "nan", ""];
    let t = s.trim_matches([' ', '\t', '\r', '\n']);
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    let unsigned = unsigned.strip_prefix('.').unwrap_or(unsigned);
    let digits: String = t.chars().filter(|&c| c != '_').collect();
    WORDS.iter().any(|w| unsigned.eq_ignore_ascii_case(w))
        || digits.parse::<f64>().is_ok()
        || digits.parse::<i128>().is_ok()
        || matches!(unsigned.as_bytes(), [b'0', b'x' | b'X' | b'o' | b'O' | b'b' | b'B', ..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saphyr(text: &str) -> Option<Value> {
        crate::manifest::parse_manifest_documents(text).ok().and_then(|d| d.into_iter().next())
    }

    /// Every document the fast path takes must read exactly as the general reader reads it.
    fn check(text: &str, what: &str) -> bool {
        match plain_manifest_document(text) {
            Some(fast) => {
                assert_eq!(Some(&fast), saphyr(text).as_ref(), "{what}:\n{text}");
                // The key order too (serde_json's preserve_order maps compare without it).
                assert_eq!(serde_json::to_string(&fast).ok(), saphyr(text).map(|v| v.to_string()), "{what}:\n{text}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn a_typical_rendered_object_is_taken_and_reads_as_the_general_reader_reads_it() {
        let text = "# Source: c/templates/d.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app.kubernetes.io/name: \"web\"\n    helm.sh/chart: web-1.0.0\nspec:\n  replicas: 3\n  paused: false\n  template:\n    spec:\n      containers:\n        - name: web\n          image: 'nginx:1.27'\n          args:\n          - --port=8080\n          resources: {}\n          env: []\n          command: [\"/bin/sh\", \"-c\"]\n      nodeSelector: null\n  script: |\n    echo hi\n    exit 0\n";
        assert!(check(text, "deployment"));
    }

    #[test]
    fn scalars_whose_reading_depends_on_the_yaml_version_are_left_to_the_general_reader() {
        for scalar in ["yes", "yEs", "On", "n", "0777", "0x1F", "0X1f", "1_000", "1.5", "1e3", ".inf", "-.Inf", "NaN", "2001-12-14", "1_0.5", "!!str 1", "18446744073709551616"] {
            assert_eq!(plain_manifest_document(&format!("a: {scalar}\n")), None, "{scalar}");
        }
        for scalar in ["500m", "128Mi", "v1.2.3", "nginx:1.27", "--port=8080", "&a 1", "\"yes\"", "'1.5'", "+1", "-0", "0.93.1", "10.0.0.1", "1e5x"] {
            assert!(check(&format!("a: {scalar}\n"), scalar), "{scalar} is declined");
        }
        for text in ["a: 1\na: 2\n", "1: a\n", "true: a\n", "<<: {b: 1}\n", "---\na: 1\n---\nb: 2\n", "a:\tb\n", "a: b\r\nc: d\r\n"] {
            if plain_manifest_document(text).is_some() {
                check(text, "declined form");
            }
        }
    }

    #[test]
    fn every_bundled_yaml_document_the_fast_path_takes_reads_as_the_general_reader_reads_it() {
        let mut taken = 0;
        for path in crate::yaml::bundled_test_files(crate::yaml::is_yaml_file) {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            for doc in crate::manifest::split(&text) {
                taken += usize::from(check(doc, &path.display().to_string()));
            }
        }
        assert!(taken > 300, "only {taken} documents taken");
    }

    #[test]
    fn generated_manifest_documents_read_as_the_general_reader_reads_them() {
        // Scalars of every shape a template prints, in keys, values and lists.
        let scalars = [
            "a", "\"a b\"", "'it''s'", "1", "-1", "+1", "0", "-0", "007", "12e", "1:2", "true", "True", "TRUE", "false", "null", "Null", "~", "", "\"\"", "''", "\"1\"", "'true'",
            "\"\\u00e9\\t\"", "é", "a#b", "a #c", "http://x:80/y", "-", "--x", "?", "a:b", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "0o17", "0b1", "NaN", "inf",
            "\"a\\\"b\"", "0.93.1", "10.0.0.1", "1.2.3", "2001-12-14", "2001-12-14T10:00:00Z", "1e5x", "1_0", "0x1g", "x y z", "[]", "{}", "[a, \"b\", 1]", "|\n    x\n    y", ">-\n    x\n    y", "|+\n    x\n", "'multi\n    line'",
        ];
        let mut taken = 0;
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..3000 {
            let mut text = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
            for k in 0..1 + next(6) {
                let key = if next(4) == 0 { scalars[next(scalars.len())].lines().next().unwrap_or("k").to_string() } else { format!("k{k}") };
                match next(3) {
                    0 => text.push_str(&format!("{key}: {}\n", scalars[next(scalars.len())])),
                    1 => text.push_str(&format!("{key}:\n  - {}\n  - n: {}\n", scalars[next(scalars.len())], scalars[next(scalars.len())])),
                    _ => text.push_str(&format!("{key}:\n  inner: {}\n", scalars[next(scalars.len())])),
                }
            }
            taken += usize::from(check(&text, "generated"));
        }
        assert!(taken > 300, "only {taken} documents taken");
    }
}
