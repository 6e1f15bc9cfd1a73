//! Paths into a values tree, written as `values explain` prints them: keys
//! joined by `.`, a `.` (or `\`, `[`) inside a key escaped with `\`, list
//! indexes as `[i]`.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seg {
    Key(String),
    Index(usize),
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Path(pub Vec<Seg>);

impl Path {
    pub fn root() -> Path {
        Path(Vec::new())
    }

    pub fn key(&self, k: &str) -> Path {
        self.with(Seg::Key(k.to_string()))
    }

    pub fn index(&self, i: usize) -> Path {
        self.with(Seg::Index(i))
    }

    /// This path and one more segment, allocated once at its final size.
    fn with(&self, last: Seg) -> Path {
        let mut segs = Vec::with_capacity(self.0.len() + 1);
        segs.extend_from_slice(&self.0);
        segs.push(last);
        Path(segs)
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `self` is `other` or lies below it.
    pub fn starts_with(&self, other: &Path) -> bool {
        self.0.starts_with(&other.0)
    }

    /// Parses the printed form back (for `--key`); `""` is the root.
    pub fn parse(text: &str) -> Result<Path, String> {
        if text.is_empty() {
            return Ok(Path::root());
        }
        let mut segs = Vec::new();
        let mut key = String::new();
        // After `]` only `.`, `[` or the end may follow, and no key is pending.
        let mut after_index = false;
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(e) => key.push(e),
                    None => return Err(format!("{text:?}: a trailing \\ escapes nothing")),
                },
                '.' => {
                    if !after_index {
                        segs.push(Seg::Key(std::mem::take(&mut key)));
                    }
                    after_index = false;
                }
                '[' => {
                    if !after_index {
                        segs.push(Seg::Key(std::mem::take(&mut key)));
                    }
                    let digits: String = chars.by_ref().take_while(|d| *d != ']').collect();
                    let i = digits.parse().map_err(|_| format!("{text:?}: expected a list index like [0]"))?;
                    segs.push(Seg::Index(i));
                    after_index = true;
                }
                other if after_index => return Err(format!("{text:?}: expected . or [ after ], found {other:?}")),
                other => key.push(other),
            }
        }
        if !after_index {
            segs.push(Seg::Key(key));
        }
        Ok(Path(segs))
    }
}

/// A path's segments stand for it as a map key (`Vec`'s and the slice's hashes agree).
impl std::borrow::Borrow<[Seg]> for Path {
    fn borrow(&self) -> &[Seg] {
        &self.0
    }
}

impl Path {
    /// Appends the path as [`Display`](fmt::Display) prints it (without the
    /// formatting machinery: `explain` prints thousands of paths).
    pub fn write_into(&self, out: &mut String) {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) => {
                    if i > 0 {
                        out.push('.');
                    }
                    // Most keys are short and have no escape: checked byte by byte
                    // (cheaper than a search's set-up), written whole.
                    if !k.bytes().any(|b| matches!(b, b'.' | b'\\' | b'[')) {
                        out.push_str(k);
                        continue;
                    }
                    // Unescaped runs are written whole.
                    let mut rest = k.as_str();
                    while let Some(i) = memchr::memchr3(b'.', b'\\', b'[', rest.as_bytes()) {
                        out.push_str(&rest[..i]);
                        out.push('\\');
                        out.push_str(&rest[i..=i]);
                        rest = &rest[i + 1..];
                    }
                    out.push_str(rest);
                }
                Seg::Index(n) => {
                    out.push('[');
                    out.push_str(itoa::Buffer::new().format(*n));
                    out.push(']');
                }
            }
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(64);
        self.write_into(&mut s);
        f.write_str(&s)
    }
}

/// `value.pointer(pointer)` (RFC 6901) without its allocations: serde_json's
/// `Value::pointer` builds a `String` per token (`~1`/`~0` unescaping), which
/// was 8% of a 500-object upgrade-preview's instructions (callgrind). Paths
/// through objects only, without `~`, are walked with `get`; anything else
/// (an array index, an escape) takes serde_json's own walk, so the answer is
/// the same for every input.
pub fn pointer<'a>(value: &'a serde_json::Value, pointer: &str) -> Option<&'a serde_json::Value> {
    let Some(rest) = pointer.strip_prefix('/') else {
        return value.pointer(pointer);
    };
    if rest.contains('~') {
        return value.pointer(pointer);
    }
    let mut at = value;
    for token in rest.split('/') {
        at = match at {
            serde_json::Value::Object(map) => map.get(token)?,
            serde_json::Value::Array(_) => return value.pointer(pointer),
            _ => return None,
        };
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses_keys_indexes_and_escapes() {
        let p = Path::root().key("image").key("tag");
        assert_eq!(p.to_string(), "image.tag");
        let p = Path::root().key("ingress").key("annotations").key("kubernetes.io/tls").index(0).key("a");
        assert_eq!(p.to_string(), "ingress.annotations.kubernetes\\.io/tls[0].a");
        assert_eq!(Path::parse(&p.to_string()).unwrap(), p);
        assert_eq!(Path::parse("image.tag").unwrap(), Path::root().key("image").key("tag"));
        assert_eq!(Path::parse("list[2]").unwrap(), Path::root().key("list").index(2));
        assert!(Path::parse("a[x]").is_err());
    }
    #[test]
    fn pointer_answers_as_serde_json_does() {
        let v = serde_json::json!({"a": {"b": [1, {"c": "x"}], "": 2, "d~e": 3, "f/g": 4}, "s": "t"});
        for p in ["", "/", "/a", "/a/b", "/a/b/0", "/a/b/1/c", "/a/b/01", "/a/", "/a/d~0e", "/a/f~1g", "/s/x", "/z", "a", "/a/b/9"] {
            assert_eq!(pointer(&v, p), v.pointer(p), "{p}");
        }
    }
}
