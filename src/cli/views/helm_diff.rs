//! helm-diff's three output shapes for a [`Report`] (diff/report.go):
//! `diff` (`KEY has changed:` and the lines, `- `/`+ `/`  `, `...` for
//! omitted context), `simple` (one line per object and helm-diff's `Plan:`
//! line) and `json` (its built-in template: api, kind, namespace, name,
//! change). Our own facts are lines starting `# releasex: ` (on stderr for
//! json, so the document stays helm-diff's), left out with `--no-explain`.

use std::collections::BTreeMap;

use crate::manifest::line_diff::{self, Delta};
use crate::upgrade::helm_diff::{ChangeType, Entry, Report};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Diff,
    Simple,
    Json,
}

#[derive(Debug, Clone, Copy)]
pub struct ReportView {
    pub format: Format,
    /// helm-diff's colors (mgutz/ansi codes).
    pub color: bool,
    /// Our `# releasex:` lines.
    pub explain: bool,
}

pub struct ReportText {
    pub stdout: String,
    /// Facts for stderr (with `-output json`).
    pub stderr_facts: Vec<String>,
}

/// Our lines are wrapped to fit 80 columns (helm-diff's own lines are not wrapped).
const FACT_WIDTH: usize = 80;

fn wrap(text: &str, width: usize) -> Vec<String> {
    crate::cli::output::wrap_words(text, width, width)
}

/// The marker of our own lines: a diff line never starts with `#` (they
/// start with two spaces, `- ` or `+ `), and the key lines never do.
pub const FACT: &str = "# releasex: ";

fn ansi(color: &str, text: &str, on: bool) -> String {
    // mgutz/ansi: green 32, red 31, yellow 33, magenta 35, blue+h 94.
    let code = match color {
        "green" => "32",
        "red" => "31",
        "yellow" => "33",
        "magenta" => "35",
        "blue+h" => "94",
        _ => "2",
    };
    if on { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() }
}

/// helm-diff: diff/report.go setupDiffReport and setupSimpleReport.
fn style(change: ChangeType, simple: bool) -> (&'static str, &'static str) {
    match (change, simple) {
        (ChangeType::Add, false) => ("green", "has been added:"),
        (ChangeType::Remove, false) => ("red", "has been removed:"),
        (ChangeType::Modify, false) => ("yellow", "has changed:"),
        (ChangeType::Ownership, false) => ("magenta", "changed ownership:"),
        (ChangeType::Add, true) => ("green", "to be added."),
        (ChangeType::Remove, true) => ("red", "to be removed."),
        (ChangeType::Modify, true) => ("yellow", "to be changed."),
        (ChangeType::Ownership, true) => ("magenta", "to change ownership."),
        (ChangeType::ModifySuppressed, _) => ("blue+h", "has changed, but diff is empty after suppression."),
    }
}

/// The report in `view`'s shape; `entry_facts` by key, `head_facts` first.
pub fn report_text(report: &Report, entry_facts: &BTreeMap<String, Vec<String>>, head_facts: &[String], view: &ReportView) -> ReportText {
    let facts = |out: &mut String, list: &[String]| {
        if view.explain {
            for f in list {
                for line in wrap(f, FACT_WIDTH - FACT.len()).iter().enumerate().map(|(i, l)| format!("{}{l}", if i == 0 { FACT } else { "# releasex:   " })) {
                    out.push_str(&ansi("dim", &line, view.color));
                    out.push('\n');
                }
            }
        }
    };
    let mut out = String::new();
    let mut stderr_facts = Vec::new();
    if view.format == Format::Json {
        out = json(&report.entries);
        if view.explain {
            stderr_facts.extend(head_facts.iter().map(|f| format!("releasex: {f}")));
        }
        return ReportText { stdout: out, stderr_facts };
    }
    facts(&mut out, head_facts);
    let shown: std::collections::HashSet<&str> = report.entries.iter().map(|e| e.key.as_str()).collect();
    let simple = view.format == Format::Simple;
    for e in &report.entries {
        let (color, message) = style(e.change, simple);
        out.push_str(&ansi(color, &format!("{} {message}", e.key), view.color));
        out.push('\n');
        if !simple {
            entry_lines(&mut out, e, view.color);
        }
        if let Some(list) = entry_facts.get(&e.key).filter(|_| e.change != ChangeType::Ownership) {
            facts(&mut out, list);
        }
    }
    // What we know about objects that do not change (drift the upgrade leaves, notes).
    let others: Vec<String> =
        entry_facts.iter().filter(|(k, _)| !shown.contains(k.as_str())).flat_map(|(k, list)| list.iter().map(move |f| format!("{k}: {f}"))).collect();
    facts(&mut out, &others);
    if simple {
        let count = |c: ChangeType| report.entries.iter().filter(|e| e.change == c).count();
        out.push_str(&format!(
            "Plan: {} to add, {} to change, {} to destroy, {} to change ownership.\n",
            count(ChangeType::Add),
            count(ChangeType::Modify),
            count(ChangeType::Remove),
            count(ChangeType::Ownership)
        ));
    }
    ReportText { stdout: out, stderr_facts }
}

/// helm-diff: diff/diff.go printDiffRecords and printDiffRecord.
fn entry_lines(out: &mut String, e: &Entry, color: bool) {
    if e.kind_suppressed {
        out.push_str(&ansi("yellow", &format!("+ Changes suppressed on sensitive content of type {}\n", e.kind), color));
        return;
    }
    for line in line_diff::with_context(&e.lines, e.context) {
        match line {
            None => out.push_str("...\n"),
            Some(l) => {
                match l.delta {
                    Delta::Added => out.push_str(&ansi("green", &format!("+ {}", l.text), color)),
                    Delta::Removed => out.push_str(&ansi("red", &format!("- {}", l.text), color)),
                    Delta::Common if l.text.is_empty() => {}
                    Delta::Common => {
                        out.push_str("  ");
                        out.push_str(&l.text);
                    }
                }
                out.push('\n');
            }
        }
    }
}

/// helm-diff's `--output json`: its default template over the entries
/// whose key its pattern reads (diff/report.go loadFromKey; diff/constant.go).
fn json(entries: &[Entry]) -> String {
    let pattern = regex::Regex::new(r"(?P<namespace>[a-z0-9-]+), (?P<name>[a-z0-9.-]+), (?P<kind>\w+) \((?P<api>[^)]+)\)").expect("helm-diff's key pattern");
    let items: Vec<String> = entries
        .iter()
        .filter_map(|e| {
            let c = pattern.captures(&e.key)?;
            Some(format!(
                "{{\n  \"api\": \"{}\",\n  \"kind\": \"{}\",\n  \"namespace\": \"{}\",\n  \"name\": \"{}\",\n  \"change\": \"{}\"\n}}",
                &c["api"],
                &c["kind"],
                &c["namespace"],
                &c["name"],
                e.change.word()
            ))
        })
        .collect();
    format!("[{}]\n", items.join(","))
}

/// The facts of an upgrade preview that helm-diff cannot know: which
/// revision Helm starts from and why, what the value mode keeps and
/// drops, whether live state was read.
pub(in crate::cli) fn plan_facts(parts: &crate::cli::upgrade_cmd::Parts) -> Vec<String> {
    let head = parts.head;
    let mut facts = Vec::new();
    if super::upgrade::installs(head) {
        facts.push(format!("install as revision {} ({})", head.base.next_revision, super::upgrade::reason_text(&head.base)));
    } else {
        facts.push(format!("upgrade from revision {} ({}) to {}", head.base.revision, super::upgrade::reason_text(&head.base), head.base.next_revision));
    }
    let mode = parts.mode;
    if mode.reused_config {
        facts.push("no value flag gives a value, so Helm reuses the stored values (helm-diff passes `helm get values --all` instead, which also keeps the old chart's defaults)".into());
    }
    if mode.dropped_config_values > 0 {
        facts.push(format!(
            "{} stored value{} dropped: with a value flag, Helm does not reuse the stored config; add --reuse-values or --reset-then-reuse-values to keep {}",
            mode.dropped_config_values,
            if mode.dropped_config_values == 1 { " is" } else { "s are" },
            if mode.dropped_config_values == 1 { "it" } else { "them" }
        ));
        // The first few, each with what it becomes (values under secret-looking keys masked).
        let dropped: Vec<&crate::upgrade::Change> = mode.changes.iter().filter(|c| c.kind == crate::upgrade::ChangeKind::Dropped).collect();
        for c in dropped.iter().take(5) {
            let show = |v: &Option<serde_json::Value>| match v {
                _ if super::changes::looks_secret(&c.path) => "<masked>".to_string(),
                Some(v) => crate::go::json_pretty::to_json_go_compact(v),
                None => "(unset)".to_string(),
            };
            facts.push(format!("dropped: {}: {} -> {}", c.path, show(&c.before), show(&c.after)));
        }
        if dropped.len() > 5 {
            facts.push(format!("... and {} more dropped (kubectl releasex upgrade-preview lists them all)", dropped.len() - 5));
        }
    }
    if mode.ignored_new_defaults > 0 {
        facts.push(format!("--reuse-values: {} new chart default{} not applied (Helm uses the old chart's values)", mode.ignored_new_defaults, if mode.ignored_new_defaults == 1 { " is" } else { "s are" }));
    }
    if parts.objects.is_some_and(|o| o.offline) {
        facts.push("no cluster was read (--dry-run): objects compared with the stored manifest".into());
    } else {
        facts.push("live objects -> what Helm's patch makes of them (as --three-way-merge)".into());
    }
    facts
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::upgrade::helm_diff::{Options, index_manifest, report};

    /// helm-diff's own test expectations (diff/diff_test.go), ported as data.
    #[test]
    fn helm_diffs_report_cases() {
        let doc: Value = serde_json::from_str(include_str!("../../../tests/data/helm-diff/report-cases.json")).expect("cases");
        let mut failures = Vec::new();
        for case in doc["cases"].as_array().expect("cases") {
            let o = &case["options"];
            let strings = |k: &str| -> Vec<String> { o[k].as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default() };
            let options = Options {
                show_secrets: o["show_secrets"].as_bool().unwrap_or(false),
                show_secrets_decoded: o["show_secrets_decoded"].as_bool().unwrap_or(false),
                suppressed_kinds: strings("suppress"),
                context: o["context"].as_u64().map(|c| c as usize),
                strip_trailing_cr: false,
                find_renames: o["find_renames"].as_f64().unwrap_or(0.0) as f32,
                suppress_lines: strings("suppress_output_line_regex").iter().map(|r| regex::Regex::new(r).expect("regex")).collect(),
            };
            let format = match o["output"].as_str() {
                Some("simple") => Format::Simple,
                Some("json") => Format::Json,
                _ => Format::Diff,
            };
            let old = index_manifest(case["old"].as_str().unwrap_or(""), "default", false);
            let new = index_manifest(case["new"].as_str().unwrap_or(""), "default", false);
            let r = report(&old, &new, &[], &options);
            let text = report_text(&r, &BTreeMap::new(), &[], &ReportView { format, color: false, explain: false }).stdout;
            let want_changes = case["changes"].as_bool().expect("changes");
            if text != case["expected"].as_str().unwrap_or("") || r.changes != want_changes {
                failures.push(format!("{}: changes {} (want {want_changes})\n{text}", case["name"], r.changes));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n----\n"));
    }
}
