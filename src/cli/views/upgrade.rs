//! `upgrade-preview`'s views: the values part (title, mode, values the
//! templates will see, stored config, changes; or the modes side by side)
//! and the objects part (plan, per-object patches, drift, conflicts, hooks,
//! CRDs), as text, JSON or YAML.

use anyhow::Context as _;
use serde_json::{Map, Value, json};

use super::explain::{short, text as entries_text};
use crate::cli::Ctx;
use crate::cli::args::OutputFormat;
use crate::cli::output::{go_yaml_numbers, table, to_json_go, to_yaml};
use crate::explain::entries::Entry;
use crate::keypath::Path;
use crate::release::history::{Baseline, BaselineReason};
use crate::upgrade::manifest::Manifest;
use crate::upgrade::{Action, Change, DriftOutcome, Mode, ModeOutcome, ObjectsReport, Plan, PlanPatchType};
use crate::values::sorted;
use crate::values::tree::map_to_json;

/// The release, namespace and revisions every view starts with.
pub struct Head<'a> {
    pub release: &'a str,
    pub namespace: String,
    pub base: Baseline,
}

fn reason_text(b: &Baseline) -> String {
    match b.reason {
        BaselineReason::LastIsDeployed => "the last revision is deployed".into(),
        BaselineReason::NewestDeployed { last, last_status } => {
            format!("revision {last} is {last_status}, so Helm starts from the newest deployed revision")
        }
        BaselineReason::LastWithoutDeployed { status } => {
            format!("no revision was ever deployed, so Helm starts from the last revision ({status})")
        }
    }
}

fn baseline_status(b: &Baseline) -> String {
    match b.reason {
        BaselineReason::LastIsDeployed | BaselineReason::NewestDeployed { .. } => "deployed".into(),
        BaselineReason::LastWithoutDeployed { status } => status.to_string(),
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
    m
}

fn shown(path: &Path, keys: &[Path]) -> bool {
    keys.is_empty() || keys.iter().any(|k| path.starts_with(k))
}

pub fn mode_json(h: &Head, o: &ModeOutcome, keys: &[Path]) -> Value {
    let mut doc = head_json(h);
    doc.insert("mode".into(), json!(o.mode.word()));
    doc.insert("values".into(), sorted(&Value::Object(map_to_json(&o.values))));
    doc.insert("config".into(), sorted(&Value::Object(map_to_json(&o.config))));
    let changes: Vec<Value> = o
        .changes
        .iter()
        .filter(|c| shown(&c.path, keys))
        .map(|c| json!({"path": c.path.to_string(), "before": c.before, "after": c.after, "kind": c.kind.word(), "cause": c.cause}))
        .collect();
    doc.insert("changes".into(), Value::Array(changes));
    let entries: Vec<Value> = o
        .entries
        .iter()
        .filter(|e| shown(&e.path, keys))
        .filter_map(|e| Some(json!({"path": e.path.to_string(), "value": e.value.clone()?, "source": e.source.as_ref()?.to_json()})))
        .collect();
    doc.insert("entries".into(), Value::Array(entries));
    if o.mode == Mode::Default {
        doc.insert("reused_config".into(), json!(o.reused_config));
    }
    doc.insert("warnings".into(), json!(o.warnings));
    Value::Object(doc)
}

pub fn serialize(doc: &Value, format: OutputFormat) -> anyhow::Result<String> {
    Ok(if format == OutputFormat::Json { to_json_go(doc) } else { to_yaml(&go_yaml_numbers(doc)).context("cannot write YAML")? })
}

fn title(h: &Head, ctx: &Ctx) -> String {
    format!(
        "{} {} (namespace {}): from revision {} ({}: {}) to revision {}\n",
        ctx.theme.heading("Upgrade of"),
        h.release,
        h.namespace,
        h.base.revision,
        baseline_status(&h.base),
        reason_text(&h.base),
        h.base.next_revision
    )
}

fn mode_line(o: &ModeOutcome, revision: i64) -> String {
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

pub fn mode_text(h: &Head, o: &ModeOutcome, keys: &[Path], ctx: &Ctx) -> String {
    let theme = &ctx.theme;
    let mut out = title(h, ctx);
    out.push_str(&mode_line(o, h.base.revision));
    out.push_str("\n\n");
    let entries: Vec<&Entry> = o.entries.iter().filter(|e| shown(&e.path, keys)).collect();
    out.push_str(&theme.heading("Values the templates will see"));
    out.push('\n');
    out.push_str(&entries_text(&entries, false, ctx));
    out.push('\n');
    out.push_str(&theme.heading(&format!("Config stored for revision {}", h.base.next_revision)));
    out.push('\n');
    let config = sorted(&Value::Object(map_to_json(&o.config)));
    out.push_str(&to_yaml(&go_yaml_numbers(&config)).unwrap_or_default());
    out.push('\n');
    let changes: Vec<&Change> = o.changes.iter().filter(|c| shown(&c.path, keys)).collect();
    out.push_str(&theme.heading(&format!("Changes against revision {} ({})", h.base.revision, changes.len())));
    out.push('\n');
    if changes.is_empty() {
        out.push_str("  none: the templates see the same values as the baseline\n");
    }
    for c in changes {
        let show = |v: &Option<Value>| v.as_ref().map_or_else(|| "(absent)".to_string(), short);
        out.push_str(&format!("  {}  {} → {}\n", theme.heading(&c.path.to_string()), show(&c.before), show(&c.after)));
        let line = format!("      {}", c.cause);
        out.push_str(&match c.kind {
            crate::upgrade::ChangeKind::Dropped | crate::upgrade::ChangeKind::IgnoredNewDefault | crate::upgrade::ChangeKind::NullNotApplied => {
                theme.warn(&line)
            }
            _ => theme.dim(&line),
        });
        out.push('\n');
    }
    out
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

/// One mode's preview: the values part, then (unless `--values-only`) the
/// objects part; the stdout text or document, and the warnings for stderr
/// (in JSON and YAML the plan's warnings are part of the document).
pub fn preview(
    head: &Head,
    o: &ModeOutcome,
    keys: &[Path],
    objects: Option<&ObjectsReport>,
    diff: bool,
    ctx: &Ctx,
) -> anyhow::Result<(String, Vec<String>)> {
    let mut warnings = Vec::new();
    let stdout = match ctx.format() {
        OutputFormat::Text => {
            let mut out = mode_text(head, o, keys, ctx);
            warnings.extend(o.warnings.iter().cloned());
            if let Some(ObjectsReport { plan, manifest, .. }) = objects {
                out.push('\n');
                out.push_str(&objects_text(plan, manifest, diff, ctx));
                warnings.extend(plan.warnings.iter().cloned());
                warnings.extend(manifest.warnings.iter().cloned());
            }
            out
        }
        format => {
            let mut doc = mode_json(head, o, keys);
            if let (Some(ObjectsReport { plan, manifest, .. }), Some(m)) = (objects, doc.as_object_mut()) {
                let server_side = plan.objects.iter().any(|x| x.patch_type == Some(PlanPatchType::Apply));
                m.insert("server_side".into(), json!(server_side));
                if let Value::Object(parts) = objects_json(plan, manifest) {
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

pub fn objects_json(plan: &Plan, manifest: &Manifest) -> Value {
    let objects: Vec<Value> = plan
        .objects
        .iter()
        .map(|o| {
            json!({
                "apiVersion": o.api_version, "kind": o.kind, "namespace": o.namespace, "name": o.name, "source": o.source,
                "action": o.action.word(),
                "patch_type": o.patch_type.map(|t| t.word()),
                "patch": o.patch,
                "drift": o.drift.iter().map(|d| json!({"path": d.path.to_string(), "baseline": d.baseline, "live": d.live, "upgrade": d.outcome.word(),
                    "to": match &d.outcome { DriftOutcome::Reset(v) => v.clone(), _ => Value::Null }})).collect::<Vec<_>>(),
                "conflicts": o.conflicts,
                "notes": o.notes,
            })
        })
        .collect();
    let hooks: Vec<Value> = manifest
        .hooks
        .iter()
        .map(|h| {
            json!({"kind": h.object.kind, "name": h.object.name, "source": h.object.source,
                   "events": h.events.iter().map(|e| e.as_str()).collect::<Vec<_>>(), "weight": h.weight,
                   "delete_policies": h.delete_policies.iter().map(|p| p.as_str()).collect::<Vec<_>>()})
        })
        .collect();
    let crds: Vec<Value> = manifest.crds.iter().map(|c| json!({"kind": c.kind, "name": c.name, "source": c.source})).collect();
    json!({"objects": objects, "hooks": hooks, "crds": crds, "failure": plan.failure})
}

pub fn objects_text(plan: &Plan, manifest: &Manifest, diff: bool, ctx: &Ctx) -> String {
    let t = &ctx.theme;
    let mut out = String::new();
    out.push_str(&format!(
        "{} {} to create, {} to update, {} to delete, {} unchanged, {} kept, {} to adopt, {} hooks{}\n",
        t.heading("Plan:"),
        plan.count(Action::Create),
        plan.count(Action::Update),
        plan.count(Action::Delete),
        plan.count(Action::Unchanged),
        plan.count(Action::Keep),
        plan.count(Action::Adopt),
        manifest.hooks.len(),
        if plan.count(Action::Conflict) > 0 { format!(", {} conflicts", plan.count(Action::Conflict)) } else { String::new() }
    ));
    for o in &plan.objects {
        let ns = o.namespace.as_deref().map(|n| format!("{n}/")).unwrap_or_default();
        let action = match o.action {
            Action::Create | Action::Adopt => t.good(o.action.word()),
            Action::Delete | Action::Conflict => t.bad(o.action.word()),
            Action::Update => t.warn(o.action.word()),
            _ => t.dim(o.action.word()),
        };
        out.push_str(&format!("\n{} {ns}{}: {action}", o.kind, o.name));
        if let Some(pt) = o.patch_type.filter(|_| o.action != Action::Create) {
            out.push_str(&t.dim(&format!(" ({} patch)", pt.word())));
        }
        out.push('\n');
        for n in &o.notes {
            out.push_str(&format!("  {}\n", t.dim(n)));
        }
        if matches!(o.action, Action::Update | Action::Adopt)
            && let Some(p) = &o.patch
        {
            let body = to_yaml(p).unwrap_or_default();
            // Removals red, order directives dim, the rest (what is set) green.
            for line in body.lines() {
                let styled = if line.trim_end().ends_with(": null") || line.contains("$patch: delete") || line.contains("$deleteFromPrimitiveList") {
                    t.bad(line)
                } else if line.contains("$setElementOrder") || line.contains("$retainKeys") {
                    t.dim(line)
                } else {
                    t.good(line)
                };
                out.push_str(&format!("    {styled}\n"));
            }
        }
        for d in &o.drift {
            let live = d.live.as_ref().map_or_else(|| "(absent)".to_string(), compact);
            let what = match &d.outcome {
                DriftOutcome::Reset(v) => format!("the upgrade sets it to {}", compact(v)),
                DriftOutcome::Removed => "the upgrade removes it".into(),
                DriftOutcome::Kept => "the live value stays".into(),
            };
            out.push_str(&format!("  {} {}: {} in the release, {} live; {}\n", t.warn("drift"), d.path, compact(&d.baseline), live, what));
        }
        for c in &o.conflicts {
            out.push_str(&format!("  {} {c}\n", t.bad("conflict")));
        }
        if diff && let (Some(live), Some(predicted)) = (&o.live, &o.predicted) {
            out.push_str(&unified(live, predicted, ctx));
        }
    }
    if !manifest.hooks.is_empty() {
        out.push_str(&format!("\n{}\n", t.heading("Hooks (deleted and created again by Helm according to their delete policy, never patched):")));
        for h in &manifest.hooks {
            let events: Vec<&str> = h.events.iter().map(|e| e.as_str()).collect();
            let policies: Vec<&str> = h.delete_policies.iter().map(|p| p.as_str()).collect();
            out.push_str(&format!(
                "  {} {} {} (weight {}, delete policy {})\n",
                events.join(","),
                h.object.kind,
                h.object.name,
                h.weight,
                if policies.is_empty() { "before-hook-creation (default)".to_string() } else { policies.join(",") }
            ));
        }
    }
    if !manifest.crds.is_empty() {
        out.push_str(&format!("\n{}\n", t.heading("CRDs in crds/ (Helm installs them only on install; an upgrade leaves them as they are):")));
        for c in &manifest.crds {
            out.push_str(&format!("  {} {} ({})\n", c.kind, c.name, c.source));
        }
    }
    if let Some(f) = &plan.failure {
        out.push_str(&format!("\n{} {f}\n", t.bad("helm upgrade would fail:")));
    }
    out
}

fn compact(v: &Value) -> String {
    to_json_go(v).replace(['\n'], "").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Live vs predicted, as YAML, unified.
fn unified(live: &Value, predicted: &Value, ctx: &Ctx) -> String {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(m) = v.pointer_mut("/metadata").and_then(Value::as_object_mut) {
            m.remove("managedFields");
        }
        to_yaml(&v).unwrap_or_default()
    };
    let (a, b) = (strip(live), strip(predicted));
    let diff = similar::TextDiff::from_lines(&a, &b);
    let mut out = String::new();
    for hunk in diff.unified_diff().context_radius(3).header("live", "after upgrade").iter_hunks() {
        for line in hunk.to_string().lines() {
            let styled = match line.chars().next() {
                Some('+') => ctx.theme.good(line),
                Some('-') => ctx.theme.bad(line),
                Some('@') => ctx.theme.dim(line),
                _ => line.to_string(),
            };
            out.push_str(&format!("    {styled}\n"));
        }
    }
    out
}

