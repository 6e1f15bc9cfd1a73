//! `upgrade-preview`'s views: the values part (title, mode, values the
//! templates will see, stored config, changes; or the modes side by side)
//! and the objects part (plan, per-object patches, drift, conflicts, hooks,
//! CRDs), as text, JSON or YAML.

use anyhow::Context as _;
use serde_json::{Map, Value, json};

use super::explain::{short, text as entries_text};
use crate::cli::Ctx;
use crate::cli::args::OutputFormat;
use crate::cli::output::{GoYamlNumbers, table, to_json_go, to_yaml};
use crate::explain::entries::Entry;
use crate::keypath::Path;
use crate::release::history::{Baseline, BaselineReason};
use super::changes::{ChangeWords, MASKED_NOTE, looks_secret, mask_expression};
use super::plan::{ObjectsView, objects_json, objects_text, plan_line_fitted};
use crate::upgrade::{ApplyMethod, Change, Mode, ModeOutcome, ObjectsReport};
use crate::values::sorted;
use crate::values::tree::map_to_json;

/// The release, namespace and revisions every view starts with.
pub struct Head<'a> {
    pub release: &'a str,
    pub namespace: String,
    pub base: Baseline,
    pub chart: ChartLabel,
    /// `--history-max` and the revisions whose records Helm deletes when it
    /// writes the new one ([`crate::upgrade::pruned_by_history_max`]).
    pub history_max: i64,
    pub pruned: Vec<i64>,
    /// The new record's description and labels, and whether the user gave
    /// either (then the text names them).
    pub record_description: String,
    pub record_labels: std::collections::BTreeMap<String, String>,
    pub record_flags_given: bool,
}

/// The new chart as Helm resolved it; `reference` is what the user named
/// when the chart was downloaded (`repo/web`, `oci://...`), so a
/// `--version` constraint shows the version it chose.
pub struct ChartLabel {
    pub name: String,
    pub version: String,
    pub reference: Option<String>,
}

pub(super) fn reason_text(b: &Baseline) -> String {
    match b.reason {
        BaselineReason::LastIsDeployed => "the last revision is deployed".into(),
        BaselineReason::NewestDeployed { last, last_status } => {
            format!("revision {last} is {last_status}, so Helm starts from the newest deployed revision")
        }
        BaselineReason::LastWithoutDeployed { status } => {
            format!("no revision was ever deployed, so Helm starts from the last revision ({status})")
        }
        BaselineReason::Install { replaces: None } => "no records".into(),
        BaselineReason::Install { replaces: Some(r) } => format!("revision {r} is uninstalled, and superseded"),
        BaselineReason::Rollback { .. } => "helm rollback starts from the last revision, whatever its status".into(),
    }
}

fn baseline_status(b: &Baseline) -> String {
    match b.reason {
        BaselineReason::LastIsDeployed | BaselineReason::NewestDeployed { .. } => "deployed".into(),
        BaselineReason::LastWithoutDeployed { status } => status.to_string(),
        BaselineReason::Install { .. } => "none".into(),
        BaselineReason::Rollback { status, .. } => status.to_string(),
    }
}

pub fn head_json(h: &Head) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("release".into(), json!(h.release));
    m.insert("namespace".into(), json!(h.namespace));
    m.insert(
        "baseline".into(),
        json!({"revision": h.base.revision, "status": baseline_status(&h.base), "reason": reason_text(&h.base)}),
    );
    m.insert("revision".into(), json!(h.base.next_revision));
    m.insert("install".into(), json!(installs(h)));
    m.insert("chart".into(), json!({"name": h.chart.name, "version": h.chart.version, "reference": h.chart.reference}));
    m.insert("history".into(), json!({"max": h.history_max, "deletes_revisions": h.pruned}));
    m.insert("record".into(), json!({"description": h.record_description, "labels": h.record_labels}));
    m
}

pub(super) fn shown(path: &Path, keys: &[Path]) -> bool {
    keys.is_empty() || keys.iter().any(|k| path.starts_with(k))
}

/// One mode's values part; values under keys that look secret are masked
/// (`<masked>`, and the value in the `--set` expression that set them)
/// unless `show_secrets`, as in the text: JSON goes to CI logs too.
pub fn mode_json(h: &Head, o: &ModeOutcome, keys: &[Path], show_secrets: bool) -> Value {
    let mut doc = head_json(h);
    doc.insert("mode".into(), json!(o.mode.word()));
    let tree = |map| {
        let mut v = sorted(&Value::Object(map_to_json(map)));
        if !show_secrets {
            mask_secret_keys(&mut v, &Path::root());
        }
        v
    };
    doc.insert("values".into(), tree(&o.values));
    doc.insert("config".into(), tree(&o.config));
    let hide = |p: &Path| !show_secrets && looks_secret(p);
    let masked = |v: &Option<Value>| v.as_ref().map(|_| Value::String("<masked>".into()));
    let changes: Vec<Value> = o
        .changes
        .iter()
        .filter(|c| shown(&c.path, keys))
        .map(|c| match hide(&c.path) {
            true => json!({"path": c.path.to_string(), "before": masked(&c.before), "after": masked(&c.after), "kind": c.kind.word(), "cause": mask_expression(&c.cause)}),
            false => json!({"path": c.path.to_string(), "before": c.before, "after": c.after, "kind": c.kind.word(), "cause": c.cause}),
        })
        .collect();
    doc.insert("changes".into(), Value::Array(changes));
    let entries: Vec<Value> = o
        .entries
        .iter()
        .filter(|e| shown(&e.path, keys))
        .filter_map(|e| {
            let (value, source) = (e.value.clone()?, e.source.as_ref()?);
            Some(match hide(&e.path) {
                true => json!({"path": e.path.to_string(), "value": "<masked>", "source": masked_expression(source).to_json()}),
                false => json!({"path": e.path.to_string(), "value": value, "source": source.to_json()}),
            })
        })
        .collect();
    doc.insert("entries".into(), Value::Array(entries));
    if o.mode == Mode::Default {
        doc.insert("reused_config".into(), json!(o.reused_config));
    }
    doc.insert("warnings".into(), json!(o.warnings));
    Value::Object(doc)
}

pub fn serialize(doc: &Value, format: OutputFormat) -> anyhow::Result<String> {
    Ok(if format == OutputFormat::Json { to_json_go(doc) } else { to_yaml(&GoYamlNumbers(doc)).context("cannot write YAML")? })
}

/// Whether the previewed command installs (`--install` on a release with
/// no records or an uninstalled one).
pub(super) fn installs(h: &Head) -> bool {
    matches!(h.base.reason, BaselineReason::Install { .. })
}

pub(super) fn title(h: &Head, ctx: &Ctx) -> String {
    title_with(h, "", ctx)
}

/// The title line with `tail` added, fitted to the terminal, its first words as a heading.
fn title_with(h: &Head, tail: &str, ctx: &Ctx) -> String {
    let text = format!("{}{tail}", title_plain(h));
    let lead = if installs(h) { "Install of" } else { "Upgrade of" };
    crate::cli::output::fit_led("", &text, lead, ctx.columns, &|l| ctx.theme.heading(l))
}

fn title_plain(h: &Head) -> String {
    if installs(h) {
        return format!(
            "Install of {} (namespace {}) as revision {} ({})",
            h.release,
            h.namespace,
            h.base.next_revision,
            reason_text(&h.base)
        );
    }
    format!(
        "Upgrade of {} (namespace {}): from revision {} ({}: {}) to revision {}",
        h.release,
        h.namespace,
        h.base.revision,
        baseline_status(&h.base),
        reason_text(&h.base),
        h.base.next_revision
    )
}

pub(super) fn mode_line(o: &ModeOutcome, revision: i64) -> String {
    match o.mode {
        Mode::Default if o.reused_config => format!(
            "mode: default (no value-mode flag). No value flag gave a value, so Helm reuses revision {revision}'s config as it is"
        ),
        Mode::Default if !o.flags_gave_values => {
            format!("mode: default (no value-mode flag). No value flags, and revision {revision} stored no config: the new chart's defaults apply")
        }
        Mode::Default => format!(
            "mode: default (no value-mode flag). Value flags were given, so Helm does not reuse revision {revision}'s config: every stored value you do not repeat is dropped"
        ),
        Mode::Reuse => format!(
            "mode: --reuse-values. Revision {revision}'s config goes under your flags, and the old chart's values replace the new chart's values.yaml"
        ),
        Mode::Reset => "mode: --reset-values. Your flags over the new chart's defaults; the stored config is ignored".into(),
        Mode::ResetThenReuse => format!("mode: --reset-then-reuse-values. Revision {revision}'s config goes under your flags, over the new chart's defaults"),
    }
}

/// `--show-values`: every value the templates will see and the config Helm stores.
fn values_text(h: &Head, o: &ModeOutcome, keys: &[Path], show_secrets: bool, ctx: &Ctx) -> String {
    let theme = &ctx.theme;
    let mut out = String::new();
    // Values under keys that look secret are masked here too (preview output
    // goes to CI logs); only those entries are copied.
    let hide = |e: &Entry| !show_secrets && looks_secret(&e.path);
    let shown_entries: Vec<&Entry> = o.entries.iter().filter(|e| shown(&e.path, keys)).collect();
    let masked: Vec<Entry> = shown_entries
        .iter()
        .filter(|e| hide(e))
        .map(|e| {
            let mut e = (*e).clone();
            e.value = e.value.map(|_| Value::String("<masked>".into()));
            e.source = e.source.map(|s| masked_expression(&s));
            for l in e.overridden.iter_mut() {
                l.value = Value::String("<masked>".into());
                l.source = masked_expression(&l.source);
            }
            e
        })
        .collect();
    let mut copies = masked.iter();
    let entries: Vec<&Entry> = shown_entries.iter().map(|e| if hide(e) { copies.next().unwrap_or(e) } else { e }).collect();
    out.push_str(&theme.heading("Values the templates will see"));
    out.push('\n');
    out.push_str(&entries_text(&entries, false, ctx));
    out.push('\n');
    out.push_str(&theme.heading(&format!("Config stored for revision {}", h.base.next_revision)));
    out.push('\n');
    let mut config = sorted(&Value::Object(map_to_json(&o.config)));
    if !show_secrets {
        mask_secret_keys(&mut config, &Path::root());
    }
    out.push_str(&to_yaml(&GoYamlNumbers(&config)).unwrap_or_default());
    out.push('\n');
    out
}

/// A `--set` source without the value its expression holds.
fn masked_expression(s: &crate::values::tree::Origin) -> crate::values::tree::Origin {
    match &**s {
        crate::values::tree::Source::SetFlag { flag, index, expr } => std::rc::Rc::new(crate::values::tree::Source::SetFlag {
            flag: flag.clone(),
            index: *index,
            expr: mask_expression(expr),
        }),
        _ => s.clone(),
    }
}

/// Replaces the values under keys that look secret with `<masked>`.
fn mask_secret_keys(v: &mut Value, at: &Path) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                let here = at.key(k);
                if looks_secret(&here) && !x.is_object() {
                    *x = Value::String("<masked>".into());
                } else {
                    mask_secret_keys(x, &here);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| mask_secret_keys(x, at)),
        _ => {}
    }
}

pub fn compare_text(h: &Head, outcomes: &[ModeOutcome], advice: &str, keys: &[Path], ctx: &Ctx) -> String {
    let theme = &ctx.theme;
    let mut out = title(h, ctx);
    // One row per key whose value differs between modes.
    // Each mode's values by path (large charts have thousands of keys).
    let by_path: Vec<std::collections::HashMap<&Path, &Entry>> =
        outcomes.iter().map(|o| o.entries.iter().map(|e| (&e.path, e)).collect()).collect();
    let mut seen = std::collections::HashSet::new();
    let mut paths: Vec<&Path> =
        outcomes.iter().flat_map(|o| &o.entries).map(|e| &e.path).filter(|p| shown(p, keys) && seen.insert(*p)).collect();
    paths.sort_by(|a, b| crate::explain::entries::path_order(&a.0, &b.0));
    let mut rows = Vec::new();
    for p in paths {
        let vals: Vec<Option<Value>> = by_path.iter().map(|m| m.get(p).and_then(|e| e.value.clone())).collect();
        if vals.windows(2).all(|w| same_json(&w[0], &w[1])) {
            continue;
        }
        let mut row = vec![(p.to_string(), theme.heading(&p.to_string()))];
        for v in vals {
            let s = v.as_ref().map_or_else(|| "(absent)".to_string(), short);
            row.push((s.clone(), s));
        }
        rows.push(row);
    }
    out.push('\n');
    if rows.is_empty() {
        out.push_str("every mode gives the templates the same values\n");
    } else {
        let header: Vec<&str> = std::iter::once("KEY").chain(outcomes.iter().map(|o| match o.mode {
            Mode::Default => "DEFAULT",
            Mode::Reuse => "--REUSE-VALUES",
            Mode::Reset => "--RESET-VALUES",
            Mode::ResetThenReuse => "--RESET-THEN-REUSE-VALUES",
        }))
        .collect();
        out.push_str(&table(&header, &rows, theme));
    }
    out.push('\n');
    for o in outcomes {
        out.push_str(&format!(
            "{:26} {} dropped from the stored config, {} not applied from the new chart's defaults, {}\n",
            o.mode.flag(),
            o.dropped_config_values,
            o.ignored_new_defaults,
            plural(o.changes.len(), "change")
        ));
    }
    out.push_str(&format!("\n{} {advice}\n", theme.good("recommendation:")));
    out
}

/// Equal as JSON numbers compare in Go (float64); absent equals absent.
fn same_json(a: &Option<Value>, b: &Option<Value>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => crate::values::same_as_float64(x, y),
        (None, None) => true,
        _ => false,
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// What the single-mode text shows (flags of `upgrade-preview`).
#[derive(Debug, Clone, Default)]
pub struct PreviewView {
    pub show_values: bool,
    /// Values under keys that look secret are masked in the value changes.
    pub show_secrets: bool,
    pub objects: ObjectsView,
}

/// One mode's preview: the values part, then (unless `--values-only`) the
/// objects part; the stdout text or document, and the warnings for stderr
/// (in JSON and YAML the plan's warnings are part of the document).
pub fn preview(head: &Head, o: &ModeOutcome, keys: &[Path], objects: Option<&ObjectsReport>, view: &PreviewView, ctx: &Ctx) -> anyhow::Result<(String, Vec<String>)> {
    let mut warnings = Vec::new();
    if matches!(ctx.format(), OutputFormat::Text | OutputFormat::Markdown) {
        warnings.extend(o.warnings.iter().cloned());
        if let Some(ObjectsReport { plan, manifest, .. }) = objects {
            warnings.extend(plan.warnings.iter().cloned());
            warnings.extend(manifest.warnings.iter().cloned());
        }
    }
    let stdout = match ctx.format() {
        OutputFormat::Text => preview_text(head, o, keys, objects, view, ctx),
        OutputFormat::Markdown => super::markdown::preview_markdown(head, o, keys, objects, &view.objects, view.show_secrets),
        format => {
            let mut doc = mode_json(head, o, keys, view.show_secrets);
            if let (Some(ObjectsReport { plan, manifest, method, .. }), Some(m)) = (objects, doc.as_object_mut()) {
                m.insert("server_side".into(), json!(*method == ApplyMethod::ServerSide));
                m.insert("offline".into(), json!(objects.is_some_and(|r| r.offline)));
                if let Value::Object(parts) = objects_json(plan, manifest, view.objects.context) {
                    m.extend(parts);
                }
                if let Some(w) = m.get_mut("warnings").and_then(Value::as_array_mut) {
                    w.extend(plan.warnings.iter().chain(&manifest.warnings).map(|x| json!(x)));
                }
            }
            serialize(&doc, format)?
        }
    };
    Ok((stdout, warnings))
}

/// The text, so that the first screen answers "is this safe?": one header
/// line, Helm's failure if it would fail, the plan counts, the value changes
/// that matter (risky first), then each object that changes with its diff.
fn preview_text(h: &Head, o: &ModeOutcome, keys: &[Path], objects: Option<&ObjectsReport>, view: &PreviewView, ctx: &Ctx) -> String {
    let t = &ctx.theme;
    let mut out = String::new();
    if objects.is_some_and(|r| r.offline) {
        out.push_str(&t.bad(&offline_line(h)));
        out.push('\n');
    }
    let mut tail = String::new();
    if !installs(h) {
        tail.push_str(&format!(", value mode {}", match o.mode {
            Mode::Default => "default",
            other => other.flag(),
        }));
    }
    if let Some(r) = objects {
        tail.push_str(if r.method == ApplyMethod::ServerSide { ", server-side apply" } else { ", client-side apply" });
    }
    out.push_str(&title_with(h, &tail, ctx));
    out.push_str(&chart_and_history_lines(h));
    if let Some(ObjectsReport { plan, manifest, .. }) = objects {
        if let Some(f) = &plan.failure {
            let lead = "helm upgrade would fail:";
            out.push('\n');
            out.push_str(&crate::cli::output::fit_led("", &format!("{lead} {f}"), lead, ctx.columns, &|l| t.bad(l)));
        }
        out.push('\n');
        out.push_str(&plan_line_fitted(plan, manifest, ctx));
    }
    out.push('\n');
    out.push_str(&changes_text(h, o, keys, view, ctx));
    if view.show_values {
        out.push('\n');
        out.push_str(&values_text(h, o, keys, view.show_secrets, ctx));
    }
    if let Some(ObjectsReport { plan, manifest, .. }) = objects {
        out.push_str(&objects_text(plan, manifest, &view.objects, ctx));
    }
    out
}

/// The first line of an `--offline` report.
pub(super) fn offline_line(h: &Head) -> String {
    if installs(h) {
        return "offline: live state not read; existing objects are unknown".into();
    }
    format!(
        "offline: diffed against revision {}'s stored manifest; live state not read",
        h.base.revision
    )
}

/// Where a downloaded chart came from (so `--version ^1.2` shows what it
/// chose), and the records `--history-max` makes Helm delete; nothing for
/// a local chart within the limit.
pub(super) fn chart_and_history_lines(h: &Head) -> String {
    let mut out = String::new();
    if let Some(reference) = &h.chart.reference {
        out.push_str(&format!("chart {} {} from {reference}\n", h.chart.name, h.chart.version));
    }
    if h.record_flags_given {
        let labels: Vec<String> = h.record_labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push_str(&format!(
            "revision {}'s record: description {:?}, labels {}\n",
            h.base.next_revision,
            h.record_description,
            if labels.is_empty() { "none".to_string() } else { labels.join(", ") }
        ));
    }
    if !h.pruned.is_empty() {
        let list: Vec<String> = h.pruned.iter().map(i64::to_string).collect();
        let (noun, verb) = if h.pruned.len() == 1 { ("revision", "record") } else { ("revisions", "records") };
        out.push_str(&format!(
            "after writing revision {}, Helm deletes the {verb} of {noun} {} (--history-max {})\n",
            h.base.next_revision,
            list.join(", "),
            h.history_max
        ));
    }
    out
}

fn changes_text(h: &Head, o: &ModeOutcome, keys: &[Path], view: &PreviewView, ctx: &Ctx) -> String {
    let t = &ctx.theme;
    let words = ChangeWords::new(h, o, keys, view.show_secrets);
    let (heading, mode) = if installs(h) {
        ("Values of the install".to_string(), "install: your flags over the chart's defaults, as helm install computes them".to_string())
    } else {
        (format!("Value changes against revision {}", h.base.revision), mode_line(o, h.base.revision))
    };
    let mut out = format!("{} ({})\n", t.heading(&heading), words.changes.len());
    out.push_str(&crate::cli::output::fit("  ", &mode, ctx.columns, &|l| t.dim(l)));
    if words.changes.is_empty() {
        out.push_str("  none: the templates see the same values as the baseline\n");
        return out;
    }
    let line = |out: &mut String, c: &Change| {
        let (before, after) = words.values(c);
        out.push_str(&format!("    {}: {before} → {after}\n", t.heading(&c.path.to_string())));
        out.push_str(&crate::cli::output::fit("      ", &words.brief(c), ctx.columns, &|l| t.dim(l)));
    };
    for g in words.groups() {
        let title = format!("{} ({})", g.heading, g.changes.len());
        out.push_str(&format!("  {}\n", if g.risky { t.warn(&title) } else { t.heading(&title) }));
        if let Some(why) = g.why {
            out.push_str(&crate::cli::output::fit("    ", &format!("{why}:"), ctx.columns, &|l| t.dim(l)));
        }
        for c in g.changes {
            line(&mut out, c);
        }
    }
    if words.any_masked() {
        out.push_str(&format!("  {}\n", t.dim(MASKED_NOTE)));
    }
    let new_defaults = words.new_defaults();
    if !new_defaults.is_empty() {
        if view.show_values {
            out.push_str(&format!("  {}\n", t.heading(&format!("New chart defaults ({})", new_defaults.len()))));
            for c in new_defaults {
                line(&mut out, c);
            }
        } else {
            out.push_str(&format!("  {}\n", t.dim(&words.new_defaults_line())));
        }
    }
    out
}
