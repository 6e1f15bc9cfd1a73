//! `upgrade-preview -o markdown` (and rollback-preview's): the report for a pull-request comment. The
//! header, Helm's failure, the plan as a table, the value changes, and one
//! collapsible `<details>` per changed object with a fenced `diff` block.
//! GitHub refuses comments over 65,536 characters: the report stays under
//! [`LIMIT`], and objects that do not fit say so and how to see them.

use crate::cli::output::Theme;
use crate::keypath::Path;
use crate::upgrade::{ApplyMethod, Mode, ModeOutcome, ObjectsReport};

use super::changes::{ChangeWords, MASKED_NOTE};
use super::plan::{ObjectsView, PLAN_PARTS, listed, object_diff};
use super::upgrade::{Head, mode_line};

/// The most characters the report uses (a little under GitHub's 65,536).
pub const LIMIT: usize = 65_000;

/// What is kept back for the closing lines once objects stop fitting.
const RESERVE: usize = 2_000;

pub fn preview_markdown(h: &Head, o: &ModeOutcome, keys: &[Path], objects: Option<&ObjectsReport>, view: &ObjectsView, show_secrets: bool) -> String {
    let mut out = if super::upgrade::installs(h) {
        format!("### Install of `{}` (namespace `{}`) as revision {}\n\n", h.release, h.namespace, h.base.next_revision)
    } else {
        format!("### Upgrade of `{}` (namespace `{}`): revision {} → {}\n\n", h.release, h.namespace, h.base.revision, h.base.next_revision)
    };
    let mode = match o.mode {
        Mode::Default => "default".to_string(),
        other => format!("`{}`", other.flag()),
    };
    let method = objects.map(|r| if r.method == ApplyMethod::ServerSide { ", server-side apply" } else { ", client-side apply" }).unwrap_or_default();
    out.push_str(&format!("Value mode {mode}{method}. {}\n\n", mode_line(o, h.base.revision)));
    if objects.is_some_and(|r| r.offline) {
        out.push_str(&format!("> [!WARNING]\n> {}\n\n", escape(&super::upgrade::offline_line(h))));
    }
    if let Some(f) = objects.and_then(|r| r.plan.failure.as_ref()) {
        out.push_str(&format!("> [!CAUTION]\n> **helm upgrade would fail:** {}\n\n", escape(f)));
    }
    if let Some(r) = objects {
        out.push_str(&plan_table(r));
    }
    let mut values = changes(h, o, keys, show_secrets);
    if values.len() > LIMIT / 2 {
        // Keep room for the objects: the value changes take at most half.
        let end = values[..LIMIT / 2].rfind('\n').unwrap_or(0);
        let rest = values[end..].lines().filter(|l| l.starts_with("- ")).count();
        values.truncate(end + 1);
        values.push_str(&format!("- … and {rest} more (`-o json` or the terminal output lists them)\n\n"));
    }
    out.push_str(&values);
    if let Some(r) = objects {
        let mut used = out.len();
        let part = objects_md(r, view, &mut used);
        out.push_str(&part);
    }
    out
}

pub(super) fn plan_table(r: &ObjectsReport) -> String {
    let p = &r.plan;
    let mut row: Vec<(&str, usize)> = PLAN_PARTS.iter().map(|(action, word, _)| (*word, p.count(*action))).collect();
    row.push(("hooks", r.manifest.hooks.len()));
    let mut out = String::from("| ");
    out.push_str(&row.iter().map(|(w, _)| *w).collect::<Vec<_>>().join(" | "));
    out.push_str(" |\n|");
    out.push_str(&"---|".repeat(row.len()));
    out.push_str("\n| ");
    out.push_str(&row.iter().map(|(_, n)| n.to_string()).collect::<Vec<_>>().join(" | "));
    out.push_str(" |\n\n");
    if p.fails_before_applying {
        out.push_str("Helm stops before applying anything: nothing changes.\n\n");
    }
    out
}

fn changes(h: &Head, o: &ModeOutcome, keys: &[Path], show_secrets: bool) -> String {
    let words = ChangeWords::new(h, o, keys, show_secrets);
    let mut out = format!("#### Value changes against revision {} ({})\n\n", h.base.revision, words.changes.len());
    if words.changes.is_empty() {
        out.push_str("None: the templates see the same values as the baseline.\n\n");
        return out;
    }
    for g in words.groups() {
        let mark = if g.risky { "⚠️ " } else { "" };
        out.push_str(&format!("**{mark}{} ({})**", g.heading, g.changes.len()));
        if let Some(why) = g.why {
            out.push_str(&format!(": {why}"));
        }
        out.push_str("\n\n");
        for c in g.changes {
            let (before, after) = words.values(c);
            out.push_str(&format!("- `{}`: `{}` → `{}` — {}\n", c.path, code(&before), code(&after), escape(&words.brief(c))));
        }
        out.push('\n');
    }
    if words.any_masked() {
        out.push_str(&format!("_{MASKED_NOTE}_\n\n"));
    }
    if !words.new_defaults().is_empty() {
        out.push_str(&format!("_{}_\n\n", words.new_defaults_line()));
    }
    out
}

/// One `<details>` per object that changes; when the next would pass the
/// limit, the rest are named in one line each.
pub(super) fn objects_md(r: &ObjectsReport, view: &ObjectsView, used: &mut usize) -> String {
    let plain = Theme { enabled: false };
    let mut out = String::from("#### Objects\n\n");
    let mut cut: Vec<String> = Vec::new();
    for o in listed(&r.plan, view) {
        let ns = o.namespace.as_deref().map(|n| format!("{n}/")).unwrap_or_default();
        let name = format!("{} {ns}{}: {}", o.kind, o.name, o.action.word());
        let mut body = String::new();
        for n in &o.notes {
            body.push_str(&format!("- {}\n", escape(n)));
        }
        for d in &o.drift {
            body.push_str(&format!("- drift `{}`: {} in the release, {} live\n", d.path, code(&d.baseline.to_string()), code(&d.live.as_ref().map_or("(absent)".into(), ToString::to_string))));
        }
        for c in &o.conflicts {
            body.push_str(&format!("- conflict: {}\n", escape(c)));
        }
        let secret_hidden = view.suppress_secrets && o.kind == "Secret";
        if let Some(diff) = object_diff(o, view.context, view.show_secrets, &plain, None).filter(|_| !secret_hidden) {
            let text: String = diff.lines().map(|l| l.strip_prefix("    ").unwrap_or(l)).collect::<Vec<_>>().join("\n");
            // A fence longer than any run of backticks inside.
            body.push_str(&format!("\n```diff\n{}\n```\n", text.replace("```", "`\u{200b}``")));
        }
        let block = format!("<details><summary>{}</summary>\n\n{body}\n</details>\n\n", escape(&name));
        if cut.is_empty() && *used + out.len() + block.len() + RESERVE <= LIMIT {
            out.push_str(&block);
        } else {
            cut.push(name);
        }
    }
    if !cut.is_empty() {
        out.push_str(&format!(
            "{} more object{} not shown here (the comment would pass GitHub's size limit); `kubectl releasex {}` in a terminal shows them:\n\n",
            cut.len(),
            if cut.len() == 1 { "" } else { "s" },
            if r.plan.operation == crate::upgrade::Operation::Rollback { "rollback-preview" } else { "upgrade-preview" }
        ));
        for (i, name) in cut.iter().enumerate() {
            let line = format!("- {}\n", escape(name));
            if *used + out.len() + line.len() + 100 > LIMIT {
                out.push_str(&format!("- … and {} more\n", cut.len() - i));
                break;
            }
            out.push_str(&line);
        }
    }
    *used += out.len();
    out
}

/// Text for inside backticks (a backtick would end the code span).
pub(super) fn code(s: &str) -> String {
    s.replace('`', "'")
}

/// Text for markdown prose: characters that would start HTML or markup are escaped.
pub(super) fn escape(s: &str) -> String {
    s.replace('<', "&lt;").replace('>', "&gt;").replace('|', "\\|")
}
