//! An `include`'s spans carried into what prints its result: `{{ include
//! "grafana.pod" . | nindent 6 }}` prints the partial's text moved right,
//! and manifest blame wants each leaf of it to point at the partial's own
//! line and the keys that line read, not at the caller's one action.
//! Only functions that move whitespace keep the text recognisable: the
//! printed text must be the included text with whitespace added or dropped
//! (`nindent`, `indent`, `trim`); anything else (`quote`, `upper`,
//! `trimSuffix "-"`) prints as the one action it is.

use super::{Rendered, Span};

/// Where each byte of `inner` (and its end) landed in `printed`, when
/// `printed` is `inner` with whitespace added or dropped; `None` otherwise.
pub fn align(inner: &str, printed: &str) -> Option<Vec<usize>> {
    let (a, b) = (inner.as_bytes(), printed.as_bytes());
    let mut map = vec![0; a.len() + 1];
    let (mut i, mut j) = (0, 0);
    while i < a.len() {
        if j < b.len() && a[i] == b[j] {
            map[i] = j;
            i += 1;
            j += 1;
        } else if j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        } else if a[i].is_ascii_whitespace() {
            map[i] = j;
            i += 1;
        } else {
            return None;
        }
    }
    if !b[j..].iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    map[a.len()] = j;
    Some(map)
}

/// Pushes `outer` (the span of the action that printed an include's
/// result) as the included spans moved to where their text landed; the
/// whitespace the action added between them keeps the action's own span
/// (without its reads, which the included spans hold, each its own).
pub fn splice(spans: &mut Vec<Span>, outer: Span, inner: &Rendered, map: &[usize]) {
    let base = outer.out.start;
    let gap = |spans: &mut Vec<Span>, from: usize, to: usize| {
        if from < to {
            let mut g = outer.clone_without_reads();
            g.out = from..to;
            spans.push(g);
        }
    };
    let mut at = base;
    for s in &inner.spans {
        let (start, end) = (base + map[s.out.start], base + map[s.out.end]);
        if start >= end {
            continue;
        }
        gap(spans, at, start);
        let mut moved = s.clone();
        moved.out = start..end;
        moved.secret |= outer.secret;
        moved.nondeterministic |= outer.nondeterministic;
        spans.push(moved);
        at = end;
    }
    gap(spans, at, outer.out.end);
}

impl Span {
    fn clone_without_reads(&self) -> Span {
        Span { out: self.out.clone(), src: self.src, action: self.action.clone(), secret: self.secret, nondeterministic: self.nondeterministic, reads: Vec::new(), template: self.template.clone(), guard: self.guard.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::align;

    #[test]
    fn nindent_and_trim_align_and_other_changes_do_not() {
        let map = align("a: 1\nb: 2\n", "\n    a: 1\n    b: 2").expect("nindent aligns");
        assert_eq!((map[0], map[5], map[10]), (5, 14, 18));
        assert!(align("  x  ", "x").is_some());
        assert!(align("web", "\"web\"").is_none());
        assert!(align("web-", "web").is_none());
        assert!(align("web", "WEB").is_none());
    }
}
