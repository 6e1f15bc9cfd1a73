//! `rollback-preview`'s views: one header line (from which revision to
//! which, as which new revision, apply method), Helm's failure, the plan
//! counts, the stored config that changes back, then the objects as
//! upgrade-preview shows them; or the JSON/YAML contract.

use serde_json::{Map, Value, json};

use super::changes::{MASKED_NOTE, looks_secret};
use super::plan::{ObjectsView, objects_json, objects_text, plan_line_fitted};
use super::upgrade::serialize;
use crate::cli::Ctx;
use crate::cli::args::OutputFormat;
use crate::go::json_pretty::to_json_go_compact;
use crate::keypath::Path;
use crate::release::Release;
use crate::upgrade::{ApplyMethod, ObjectsReport};

pub struct RollbackHead<'a> {
    pub release: &'a str,
    pub namespace: String,
    /// The last revision, whatever its status (Helm's `current`).
    pub current: &'a Release,
    pub target: &'a Release,
    pub next_revision: i64,
    pub history_max: i64,
    /// Revisions whose records Helm deletes when it writes the new one.
    pub pruned: Vec<i64>,
}

#[derive(Debug, Clone, Default)]
pub struct RollbackView {
    pub show_secrets: bool,
    pub objects: ObjectsView,
}

/// A stored config value that differs between the current and the target revision.
struct ConfigChange {
    path: Path,
    current: Option<Value>,
    target: Option<Value>,
}

fn config_changes(h: &RollbackHead) -> Vec<ConfigChange> {
    let mut current = Vec::new();
    let mut target = Vec::new();
    let empty = Map::new();
    leaves(h.current.config().unwrap_or(&empty), &Path::root(), &mut current);
    leaves(h.target.config().unwrap_or(&empty), &Path::root(), &mut target);
    let find = |list: &[(Path, Value)], p: &Path| list.iter().find(|(q, _)| q == p).map(|(_, v)| v.clone());
    let mut paths: Vec<Path> = current.iter().chain(&target).map(|(p, _)| p.clone()).collect();
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .filter_map(|path| {
            let (c, t) = (find(&current, &path), find(&target, &path));
            (c != t).then_some(ConfigChange { path, current: c, target: t })
        })
        .collect()
}

/// Leaves of a config map; lists are leaves (Helm replaces them whole).
fn leaves(map: &Map<String, Value>, at: &Path, out: &mut Vec<(Path, Value)>) {
    for (k, v) in map {
        match v {
            Value::Object(m) if !m.is_empty() => leaves(m, &at.key(k), out),
            _ => out.push((at.key(k), v.clone())),
        }
    }
}

fn shown(v: &Option<Value>, path: &Path, show_secrets: bool) -> String {
    match v {
        None => "(not set: the chart's default)".into(),
        Some(_) if !show_secrets && looks_secret(path) => "<masked>".into(),
        Some(v) => to_json_go_compact(v),
    }
}

pub fn report(h: &RollbackHead, objects: &ObjectsReport, view: &RollbackView, ctx: &Ctx) -> anyhow::Result<(String, Vec<String>)> {
    let mut warnings = Vec::new();
    let changes = config_changes(h);
    let stdout = match ctx.format() {
        OutputFormat::Markdown => markdown(h, objects, &changes, view),
        OutputFormat::Text => {
            warnings.extend(objects.plan.warnings.iter().cloned());
            warnings.extend(objects.manifest.warnings.iter().cloned());
            text(h, objects, &changes, view, ctx)
        }
        format => {
            let mut doc = Map::new();
            doc.insert("release".into(), json!(h.release));
            doc.insert("namespace".into(), json!(h.namespace));
            doc.insert("current".into(), json!({"revision": h.current.version(), "status": h.current.status().to_string()}));
            doc.insert(
                "target".into(),
                json!({"revision": h.target.version(), "status": h.target.status().to_string(), "chart": {"name": h.target.chart_name(), "version": h.target.chart_version()}}),
            );
            doc.insert("revision".into(), json!(h.next_revision));
            doc.insert("history".into(), json!({"max": h.history_max, "deletes_revisions": h.pruned}));
            doc.insert("record".into(), json!({"description": format!("Rollback to {}", h.target.version())}));
            doc.insert("server_side".into(), json!(objects.method == ApplyMethod::ServerSide));
            doc.insert("offline".into(), json!(objects.offline));
            let masked = |c: &ConfigChange, v: &Option<Value>| match v {
                Some(_) if !view.show_secrets && looks_secret(&c.path) => json!("<masked>"),
                other => json!(other),
            };
            let config: Vec<Value> =
                changes.iter().map(|c| json!({"path": c.path.to_string(), "current": masked(c, &c.current), "target": masked(c, &c.target)})).collect();
            doc.insert("config_changes".into(), Value::Array(config));
            if let Value::Object(parts) = objects_json(&objects.plan, &objects.manifest, view.objects.context) {
                doc.extend(parts);
            }
            let all: Vec<Value> = objects.plan.warnings.iter().chain(&objects.manifest.warnings).map(|w| json!(w)).collect();
            doc.insert("warnings".into(), Value::Array(all));
            serialize(&Value::Object(doc), format)?
        }
    };
    Ok((stdout, warnings))
}

/// `-o markdown`: the pull-request comment, laid out as upgrade-preview's.
fn markdown(h: &RollbackHead, objects: &ObjectsReport, changes: &[ConfigChange], view: &RollbackView) -> String {
    use super::markdown::{code, escape, objects_md, plan_table};
    let (current, to) = (h.current.version(), h.target.version());
    let mut out = format!("### Rollback of `{}` (namespace `{}`): revision {current} → {to}, as revision {}\n\n", h.release, h.namespace, h.next_revision);
    let method = if objects.method == ApplyMethod::ServerSide { "server-side apply" } else { "client-side apply" };
    out.push_str(&format!("Revision {} takes revision {to}'s chart `{} {}`, config, manifest and hooks; {method}.\n\n", h.next_revision, h.target.chart_name(), h.target.chart_version()));
    if objects.offline {
        out.push_str(&format!("> [!WARNING]\n> offline: diffed against revision {current}'s stored manifest; live state not read\n\n"));
    }
    if let Some(f) = &objects.plan.failure {
        out.push_str(&format!("> [!CAUTION]\n> **helm rollback would fail:** {}\n\n", escape(f)));
    }
    out.push_str(&plan_table(objects));
    out.push_str(&format!("#### Stored config changes (revision {current} → {to}) ({})\n\n", changes.len()));
    for c in changes {
        let (a, b) = (shown(&c.current, &c.path, view.show_secrets), shown(&c.target, &c.path, view.show_secrets));
        out.push_str(&format!("- `{}`: `{}` → `{}`\n", c.path, code(&a), code(&b)));
    }
    out.push('\n');
    let mut used = out.len();
    out.push_str(&objects_md(objects, &view.objects, &mut used));
    out
}

fn text(h: &RollbackHead, objects: &ObjectsReport, changes: &[ConfigChange], view: &RollbackView, ctx: &Ctx) -> String {
    let t = &ctx.theme;
    let mut out = String::new();
    if objects.offline {
        out.push_str(&t.bad(&format!("offline: diffed against revision {}'s stored manifest; live state not read", h.current.version())));
        out.push('\n');
    }
    let (current, to) = (h.current.version(), h.target.version());
    let fit = |text: &str, style: &dyn Fn(&str) -> String| crate::cli::output::fit("", text, ctx.columns, style);
    let lead = "Rollback of";
    out.push_str(&crate::cli::output::fit_led(
        "",
        &format!("{lead} {} (namespace {}): {current} ({}) → {to}, written as revision {}", h.release, h.namespace, h.current.status(), h.next_revision),
        lead,
        ctx.columns,
        &|l| t.heading(l),
    ));
    let plain = |l: &str| l.to_string();
    out.push_str(&fit(
        &format!("revision {} takes revision {to}'s chart {} {}, config, manifest and hooks", h.next_revision, h.target.chart_name(), h.target.chart_version()),
        &plain,
    ));
    let method = if objects.method == ApplyMethod::ServerSide { "server-side apply" } else { "client-side apply" };
    out.push_str(&fit(&format!("{method} (revision {to}'s method); description \"Rollback to {to}\""), &plain));
    if !h.pruned.is_empty() {
        let list: Vec<String> = h.pruned.iter().map(i64::to_string).collect();
        out.push_str(&format!(
            "after writing revision {}, Helm deletes the record{} of revision{} {} (--history-max {})\n",
            h.next_revision,
            if list.len() == 1 { "" } else { "s" },
            if list.len() == 1 { "" } else { "s" },
            list.join(", "),
            h.history_max
        ));
    }
    if let Some(f) = &objects.plan.failure {
        let lead = "helm rollback would fail:";
        out.push('\n');
        out.push_str(&crate::cli::output::fit_led("", &format!("{lead} {f}"), lead, ctx.columns, &|l| t.bad(l)));
    }
    out.push('\n');
    out.push_str(&plan_line_fitted(&objects.plan, &objects.manifest, ctx));
    out.push('\n');
    out.push_str(&format!(
        "{} ({})\n",
        t.heading(&format!("Stored config changes (revision {} → {})", h.current.version(), h.target.version())),
        changes.len()
    ));
    if changes.is_empty() {
        out.push_str("  none: both revisions stored the same config\n");
    }
    let mut masked = false;
    for c in changes {
        masked |= !view.show_secrets && looks_secret(&c.path) && (c.current.is_some() || c.target.is_some());
        out.push_str(&format!(
            "    {}: {} → {}\n",
            t.heading(&c.path.to_string()),
            shown(&c.current, &c.path, view.show_secrets),
            shown(&c.target, &c.path, view.show_secrets)
        ));
    }
    if masked {
        out.push_str(&format!("  {}\n", t.dim(MASKED_NOTE)));
    }
    out.push_str(&objects_text(&objects.plan, &objects.manifest, &view.objects, ctx));
    out
}
