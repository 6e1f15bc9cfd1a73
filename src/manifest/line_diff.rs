//! The line diff helm-diff prints: its Hirschberg LCS over lines, which
//! gives the same records as `github.com/aryann/difflib`'s `Diff` (removed
//! lines before added ones, a single line matched at its latest position),
//! so our output lines up with helm-diff's line for line.
//! helm-diff: diff/lcs.go diffLines, hirschbergDiff, singleRowDiff

/// One line of a diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delta {
    Common,
    /// Only in the old text (printed `- `).
    Removed,
    /// Only in the new text (printed `+ `).
    Added,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub delta: Delta,
    pub text: String,
}

impl Line {
    fn new(delta: Delta, text: &str) -> Line {
        Line { delta, text: text.to_string() }
    }
}

/// The lines of `text` as helm-diff splits them: on `\n`, with a trailing
/// `\r` dropped when `strip_trailing_cr` (helm-diff: diff/diff.go split).
pub fn split(text: &str, strip_trailing_cr: bool) -> Vec<&str> {
    text.split('\n').map(|l| if strip_trailing_cr { l.strip_suffix('\r').unwrap_or(l) } else { l }).collect()
}

/// The diff of two texts, line by line.
pub fn diff_texts(before: &str, after: &str, strip_trailing_cr: bool) -> Vec<Line> {
    diff_lines(&split(before, strip_trailing_cr), &split(after, strip_trailing_cr))
}

/// helm-diff: diff/lcs.go diffLines (equal head and tail kept apart, the
/// middle through Hirschberg's linear-space LCS).
pub fn diff_lines(a: &[&str], b: &[&str]) -> Vec<Line> {
    let mut start = 0;
    while start < a.len() && start < b.len() && a[start] == b[start] {
        start += 1;
    }
    let mut end = 0;
    // helm-diff: `i > start && j > start` (the tail never reaches into the head).
    while a.len() > start + end + 1 && b.len() > start + end + 1 && a[a.len() - 1 - end] == b[b.len() - 1 - end] {
        end += 1;
    }
    let mut out: Vec<Line> = a[..start].iter().map(|l| Line::new(Delta::Common, l)).collect();
    hirschberg(&a[start..a.len() - end], &b[start..b.len() - end], &mut out);
    out.extend(a[a.len() - end..].iter().map(|l| Line::new(Delta::Common, l)));
    out
}

fn hirschberg(a: &[&str], b: &[&str], out: &mut Vec<Line>) {
    match (a.len(), b.len()) {
        (0, _) => out.extend(b.iter().map(|l| Line::new(Delta::Added, l))),
        (_, 0) => out.extend(a.iter().map(|l| Line::new(Delta::Removed, l))),
        (1, _) => single_row(a[0], b, out),
        (n, m) => {
            let mid = n / 2;
            let forward = lcs_row(&a[..mid], b);
            let backward = lcs_row_suffix(&a[mid..], b);
            let mut split = 0;
            let mut best = -1i64;
            for j in 0..=m {
                let score = (forward[j] + backward[j]) as i64;
                if score > best {
                    best = score;
                    split = j;
                }
            }
            hirschberg(&a[..mid], &b[..split], out);
            hirschberg(&a[mid..], &b[split..], out);
        }
    }
}

/// One old line against many: matched at its latest position in `b`.
fn single_row(line: &str, b: &[&str], out: &mut Vec<Line>) {
    match b.iter().rposition(|l| *l == line) {
        Some(found) => {
            out.extend(b[..found].iter().map(|l| Line::new(Delta::Added, l)));
            out.push(Line::new(Delta::Common, line));
            out.extend(b[found + 1..].iter().map(|l| Line::new(Delta::Added, l)));
        }
        None => {
            out.push(Line::new(Delta::Removed, line));
            out.extend(b.iter().map(|l| Line::new(Delta::Added, l)));
        }
    }
}

/// `row[j]` = LCS length of `a` and `b[..j]` (helm-diff: lcsLift).
fn lcs_row(a: &[&str], b: &[&str]) -> Vec<usize> {
    let mut prev = vec![0; b.len() + 1];
    let mut curr = vec![0; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            curr[j + 1] = if x == y { prev[j] + 1 } else { prev[j + 1].max(curr[j]) };
        }
        std::mem::swap(&mut prev, &mut curr);
        curr.iter_mut().for_each(|c| *c = 0);
    }
    prev
}

/// `row[j]` = LCS length of `a` and `b[j..]` (helm-diff: lcsLiftSuffix).
fn lcs_row_suffix(a: &[&str], b: &[&str]) -> Vec<usize> {
    let ra: Vec<&str> = a.iter().rev().copied().collect();
    let rb: Vec<&str> = b.iter().rev().copied().collect();
    let row = lcs_row(&ra, &rb);
    (0..=b.len()).map(|j| row[b.len() - j]).collect()
}

/// Whether the diff changes anything.
pub fn changes(lines: &[Line]) -> usize {
    lines.iter().filter(|l| l.delta != Delta::Common).count()
}

/// The lines helm-diff prints with `--context N` (`None`: all of them):
/// each line with its distance to the nearest change at most N, and `None`
/// for a run of omitted lines (printed `...`). helm-diff: diff/diff.go
/// printDiffRecords, calculateDistances
pub fn with_context(lines: &[Line], context: Option<usize>) -> Vec<Option<&Line>> {
    let Some(context) = context else {
        return lines.iter().map(Some).collect();
    };
    let mut distance = vec![usize::MAX; lines.len()];
    let mut last = None;
    for (i, l) in lines.iter().enumerate() {
        if l.delta != Delta::Common {
            last = Some(i);
        }
        if let Some(c) = last {
            distance[i] = i - c;
        }
    }
    let mut next = None;
    for (i, l) in lines.iter().enumerate().rev() {
        if l.delta != Delta::Common {
            next = Some(i);
        }
        if let Some(c) = next {
            distance[i] = distance[i].min(c - i);
        }
    }
    let mut out = Vec::new();
    let mut omitting = false;
    for (i, l) in lines.iter().enumerate() {
        if distance[i] > context {
            if !omitting {
                out.push(None);
                omitting = true;
            }
        } else {
            omitting = false;
            out.push(Some(l));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(lines: &[Line]) -> String {
        lines
            .iter()
            .map(|l| match l.delta {
                Delta::Common => format!("  {}", l.text),
                Delta::Removed => format!("- {}", l.text),
                Delta::Added => format!("+ {}", l.text),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn replaced_lines_print_removals_before_additions() {
        let d = diff_texts("a\nb\nc", "a\nx\ny\nc", false);
        assert_eq!(render(&d), "  a\n- b\n+ x\n+ y\n  c");
    }

    #[test]
    fn a_single_line_matches_at_its_latest_position() {
        // Inside the middle part (diff_lines first keeps an equal head and tail apart).
        let mut d = Vec::new();
        hirschberg(&["k"], &["k", "z", "k"], &mut d);
        assert_eq!(render(&d), "+ k\n+ z\n  k");
        assert_eq!(render(&diff_lines(&["k"], &["k", "z", "k"])), "  k\n+ z\n+ k");
    }

    #[test]
    fn context_omits_far_lines_with_one_marker_per_run() {
        let d = diff_texts("1\n2\n3\n4\n5\n6", "1\n2\n3\n4\n5\nX", false);
        let shown: Vec<String> = with_context(&d, Some(1)).into_iter().map(|l| l.map_or("...".to_string(), |l| l.text.clone())).collect();
        assert_eq!(shown, ["...", "5", "6", "X"]);
    }
}
