//! `upgrade-preview`'s objects part: the plan counts, then each object that
//! changes with a unified diff of what it becomes (created objects whole,
//! deleted objects whole), drift, ownership and server-side apply
//! conflicts next to it; hooks and CRDs. The wire patch Helm sends is shown
//! with `--show-patch` and is always in JSON.

use serde_json::{Value, json};

use crate::cli::Ctx;
use crate::cli::output::{Theme, to_yaml};
use crate::upgrade::manifest::Manifest;
use crate::upgrade::{Action, DriftOutcome, ObjectPlan, Plan};

/// What the text shows of each object (flags of `upgrade-preview`).
#[derive(Debug, Clone, Default)]
pub struct ObjectsView {
    /// Lines of context around each change in the diffs.
    pub context: usize,
    /// The wire patch (or apply body) under each changed object.
    pub show_patch: bool,
    pub show_unchanged: bool,
    /// Kinds listed by name only in the plan counts, not in the listing.
    pub suppress: Vec<String>,
    /// Secrets by name only.
    pub suppress_secrets: bool,
    /// Secret values are shown (decoded from base64 in the diffs).
    pub show_secrets: bool,
}

/// The parts of the plan counts, in the order people read them: the action,
/// its word in a table heading, its words in the plan line.
pub const PLAN_PARTS: [(Action, &str, &str); 7] = [
    (Action::Create, "create", "to create"),
    (Action::Update, "update", "to update"),
    (Action::Delete, "delete", "to delete"),
    (Action::Adopt, "adopt", "to adopt"),
    (Action::Conflict, "conflict", "in conflict"),
    (Action::Keep, "kept", "kept (resource-policy)"),
    (Action::Unchanged, "unchanged", "unchanged"),
];

/// The objects the listing shows: changed ones (all with
/// `--show-unchanged`), less the `--suppress`ed kinds.
pub fn listed<'a>(plan: &'a Plan, view: &'a ObjectsView) -> impl Iterator<Item = &'a ObjectPlan> {
    plan.objects
        .iter()
        .filter(|o| o.action != Action::Unchanged || view.show_unchanged)
        .filter(|o| !view.suppress.iter().any(|k| k.eq_ignore_ascii_case(&o.kind)))
}

/// The counts of the plan, the parts that are zero left out:
/// `Plan: 1 to create, 2 to update, 1 to delete, 1 kept (resource-policy), 3 unchanged; 1 hook will run`.
pub fn plan_line(plan: &Plan, manifest: &Manifest, theme: &Theme) -> String {
    let mut parts = Vec::new();
    for (action, _, words) in PLAN_PARTS {
        let n = plan.count(action);
        if n > 0 {
            parts.push(format!("{n} {words}"));
        }
    }
    if parts.is_empty() {
        parts.push("no objects".into());
    }
    let mut line = if plan.fails_before_applying {
        format!("{} nothing changes: Helm stops before applying anything (otherwise: {})", theme.heading("Plan:"), parts.join(", "))
    } else {
        format!("{} {}", theme.heading("Plan:"), parts.join(", "))
    };
    let hooks = manifest.hooks.len();
    if hooks > 0 {
        let runs = manifest.hooks.iter().filter(|h| hook_runs(plan, h)).count();
        let s = |n: usize| if n == 1 { "" } else { "s" };
        if plan.hooks_disabled {
            line.push_str(&format!("; {hooks} hook{} stored, not run (--no-hooks)", s(hooks)));
        } else if runs == hooks {
            line.push_str(&format!("; {hooks} hook{} will run", s(hooks)));
        } else {
            let op = plan.operation.word();
            line.push_str(&if runs == 0 { format!("; {hooks} hook{}, none runs on {op}", s(hooks)) } else { format!("; {runs} of {hooks} hooks run on {op}") });
        }
    }
    let crds = manifest.crds.len();
    if crds > 0 {
        let what = if plan.installs_crds { "created first where missing" } else { "left as they are" };
        line.push_str(&format!("; {crds} CRD{} in crds/ {what}", if crds == 1 { "" } else { "s" }));
    }
    line.push('\n');
    line
}

/// Whether the previewed command runs this hook: not with `--no-hooks`, and
/// only for its own events (an upgrade runs pre-/post-upgrade hooks, not a
/// post-install-only hook).
pub fn hook_runs(plan: &Plan, hook: &crate::render::Hook) -> bool {
    let events = plan.operation.hook_events();
    !plan.hooks_disabled && hook.events.iter().any(|e| events.contains(&e.as_str()))
}

/// [`plan_line`] fitted to the terminal.
pub fn plan_line_fitted(plan: &Plan, manifest: &Manifest, ctx: &Ctx) -> String {
    let plain = plan_line(plan, manifest, &Theme { enabled: false });
    crate::cli::output::fit_led("", plain.trim_end(), "Plan:", ctx.columns, &|l| ctx.theme.heading(l))
}

/// The plan counts of the JSON contract.
pub fn plan_counts(plan: &Plan, manifest: &Manifest) -> Value {
    json!({
        "create": plan.count(Action::Create),
        "update": plan.count(Action::Update),
        "delete": plan.count(Action::Delete),
        "adopt": plan.count(Action::Adopt),
        "keep": plan.count(Action::Keep),
        "unchanged": plan.count(Action::Unchanged),
        "conflict": plan.count(Action::Conflict),
        "hooks": manifest.hooks.len(),
        "crds": manifest.crds.len(),
    })
}

pub fn objects_json(plan: &Plan, manifest: &Manifest, context: usize) -> Value {
    let plain = Theme { enabled: false };
    // The diffs (YAML of both sides, then a line diff) are most of the
    // output's cost and independent of each other.
    let diffs = crate::parallel::map_in_order(plan.objects.iter().collect(), crate::parallel::available_threads(), |_| 1, |o| diff_and_why(o, context, false, &plain, None));
    let objects: Vec<Value> = plan
        .objects
        .iter()
        .zip(diffs)
        .map(|(o, diff)| {
            let (diff, why) = diff.map_or((None, WhyFields::default()), |(d, w)| (Some(d), w));
            let mut object = json!({
                "apiVersion": o.api_version, "kind": o.kind, "namespace": o.namespace, "name": o.name, "source": o.source,
                "action": o.action.word(),
                "patch_type": o.patch_type.map(|t| t.word()),
                "patch": o.patch,
                "noop_patch": o.noop_patch,
                "diff": diff,
                "drift": o.drift.iter().map(|d| json!({"path": d.path.to_string(), "baseline": d.baseline, "live": d.live, "upgrade": d.outcome.word(),
                    "to": match &d.outcome { DriftOutcome::Reset(v) => v.clone(), _ => Value::Null }})).collect::<Vec<_>>(),
                "conflicts": o.conflicts,
                "notes": o.notes,
            });
            // `--why`: what printed each field an added line of the diff holds.
            if !o.why.is_empty() {
                object["why"] = serde_json::to_value(why.added).unwrap_or_default();
            }
            // And what printed each field a removed line held, in the baseline.
            if !o.why_before.is_empty() {
                object["why_before"] = serde_json::to_value(why.removed).unwrap_or_default();
            }
            object
        })
        .collect();
    let hooks: Vec<Value> = manifest
        .hooks
        .iter()
        .map(|h| {
            json!({"kind": h.object.kind, "name": h.object.name, "source": h.object.source,
                   "events": h.events.iter().map(|e| e.as_str()).collect::<Vec<_>>(), "weight": h.weight,
                   "delete_policies": h.delete_policies.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
                   "runs": hook_runs(plan, h)})
        })
        .collect();
    let crds: Vec<Value> = manifest.crds.iter().map(|c| json!({"kind": c.kind, "name": c.name, "source": c.source})).collect();
    json!({"plan": plan_counts(plan, manifest), "objects": objects, "hooks": hooks, "crds": crds, "failure": plan.failure})
}

/// Each object the upgrade changes (all with `--show-unchanged`), in
/// Helm's order; then hooks and CRDs.
pub fn objects_text(plan: &Plan, manifest: &Manifest, view: &ObjectsView, ctx: &Ctx) -> String {
    let t = &ctx.theme;
    let mut out = String::new();
    // Each object's text (its diff most of all) is independent of the others'.
    for text in crate::parallel::map_in_order(listed(plan, view).collect(), crate::parallel::available_threads(), |_| 1, |o| object_text(o, view, ctx)) {
        out.push_str(&text);
    }
    let hidden = if view.show_unchanged { 0 } else { plan.count(Action::Unchanged) };
    if hidden > 0 {
        out.push_str(&format!("\n{}\n", t.dim(&format!("{hidden} unchanged object{} not shown (--show-unchanged lists them)", if hidden == 1 { "" } else { "s" }))));
    }
    if !manifest.hooks.is_empty() {
        let heading = if plan.hooks_disabled {
            "Hooks (--no-hooks: stored in the new record, none of them runs):"
        } else {
            "Hooks (deleted and created again by Helm according to their delete policy, never patched):"
        };
        out.push('\n');
        out.push_str(&crate::cli::output::fit("", heading, ctx.columns, &|l| t.heading(l)));
        for h in &manifest.hooks {
            let events: Vec<&str> = h.events.iter().map(|e| e.as_str()).collect();
            let policies: Vec<&str> = h.delete_policies.iter().map(|p| p.as_str()).collect();
            let idle = if !plan.hooks_disabled && !hook_runs(plan, h) { format!(", does not run on {}", plan.operation.word()) } else { String::new() };
            let line = format!(
                "{} {} {} (weight {}, delete policy {}{idle})",
                events.join(","),
                h.object.kind,
                h.object.name,
                h.weight,
                if policies.is_empty() { "before-hook-creation (default)".to_string() } else { policies.join(",") }
            );
            out.push_str(&crate::cli::output::fit("  ", &line, ctx.columns, &|l| l.to_string()));
        }
    }
    if !manifest.crds.is_empty() && !plan.installs_crds && !view.show_unchanged {
        // An upgrade leaves them as they are: a count, like unchanged objects.
        let n = manifest.crds.len();
        let line = format!("{n} CRD{} in crds/ left as {} (Helm installs them only on install; --show-unchanged lists them)", if n == 1 { "" } else { "s" }, if n == 1 { "it is" } else { "they are" });
        out.push('\n');
        out.push_str(&crate::cli::output::fit("", &line, ctx.columns, &|l| t.dim(l)));
    } else if !manifest.crds.is_empty() {
        out.push('\n');
        let heading = if plan.installs_crds {
            "CRDs in crds/ (the install creates each first unless it exists; --skip-crds skips them):"
        } else {
            "CRDs in crds/ (Helm installs them only on install; an upgrade leaves them as they are):"
        };
        out.push_str(&crate::cli::output::fit("", heading, ctx.columns, &|l| t.heading(l)));
        for c in &manifest.crds {
            out.push_str(&crate::cli::output::fit("  ", &format!("{} {} ({})", c.kind, c.name, c.source), ctx.columns, &|l| l.to_string()));
        }
    }
    out
}

fn object_text(o: &ObjectPlan, view: &ObjectsView, ctx: &Ctx) -> String {
    let t = &ctx.theme;
    let mut out = String::new();
    let ns = o.namespace.as_deref().map(|n| format!("{n}/")).unwrap_or_default();
    let action = match o.action {
        Action::Create | Action::Adopt => t.good(o.action.word()),
        Action::Delete | Action::Conflict => t.bad(o.action.word()),
        Action::Update => t.warn(o.action.word()),
        _ => t.dim(o.action.word()),
    };
    out.push_str(&format!("\n{} {ns}{}: {action}", t.heading(&o.kind), o.name));
    if let Some(pt) = o.patch_type.filter(|_| o.action != Action::Create) {
        out.push_str(&t.dim(&format!(" ({} patch)", pt.word())));
    }
    out.push('\n');
    if view.suppress_secrets && o.kind == "Secret" {
        return out;
    }
    for n in &o.notes {
        out.push_str(&crate::cli::output::fit("  ", n, ctx.columns, &|l| t.dim(l)));
    }
    // `--why` of a created object: what made the chart render it.
    if o.action == Action::Create
        && let Some(when) = o.why.first().and_then(|f| Why::conditions(&f.conditions))
    {
        out.push_str(&crate::cli::output::fit("  ", &format!("# \u{2190} rendered because of {when}"), ctx.columns, &|l| t.dim(l)));
    }
    // And of a deleted one: what made the baseline's chart render it.
    if o.action == Action::Delete
        && let Some(when) = o.why_before.first().and_then(|f| Why::conditions(&f.conditions))
    {
        out.push_str(&crate::cli::output::fit("  ", &format!("# \u{2190} was rendered because of {when}"), ctx.columns, &|l| t.dim(l)));
    }
    for d in &o.drift {
        let live = d.live.as_ref().map_or_else(|| "(absent)".to_string(), compact);
        let what = match &d.outcome {
            DriftOutcome::Reset(v) => format!("the upgrade sets it to {}", compact(v)),
            DriftOutcome::Removed => "the upgrade removes it".into(),
            DriftOutcome::Kept => "the live value stays".into(),
        };
        let text = format!("drift {}: {} in the release, {} live; {what}", d.path, compact(&d.baseline), live);
        out.push_str(&crate::cli::output::fit_led("  ", &text, "drift", ctx.columns, &|l| t.warn(l)));
    }
    for c in &o.conflicts {
        out.push_str(&crate::cli::output::fit_led("  ", &format!("conflict {c}"), "conflict", ctx.columns, &|l| t.bad(l)));
    }
    if let Some(diff) = object_diff(o, view.context, view.show_secrets, t, ctx.columns) {
        out.push_str(&diff);
    }
    if view.show_patch
        && matches!(o.action, Action::Update | Action::Adopt | Action::Create)
        && let Some(p) = &o.patch
    {
        out.push_str(&format!("  {}\n", t.dim(&format!("the {} Helm sends:", if o.patch_type.is_some_and(|p| p.word() == "apply") { "apply body" } else { "patch" }))));
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
    out
}

/// A value on one line, as Go's encoding/json writes it (strings keep their spaces).
fn compact(v: &Value) -> String {
    crate::go::json_pretty::to_json_go_compact(v)
}

/// What the object is now and what it becomes, as YAML, unified: the live
/// object against the prediction; a created object whole (against
/// nothing), a deleted or kept one's live body whole. `None` when there is
/// nothing to compare (unchanged objects have an empty diff).
/// `--why`'s notes are wrapped to `columns` (a terminal's width).
pub fn object_diff(o: &ObjectPlan, context: usize, decode_secrets: bool, theme: &Theme, columns: Option<usize>) -> Option<String> {
    diff_and_why(o, context, decode_secrets, theme, Some(columns)).map(|(text, _)| text)
}

/// The diff, with `--why`'s notes under added lines when `notes`; and the
/// blame of each field an added line holds, in order (`-o json`'s `why`).
fn diff_and_why<'o>(o: &'o ObjectPlan, context: usize, decode_secrets: bool, theme: &Theme, notes: Option<Option<usize>>) -> Option<(String, WhyFields<'o>)> {
    let (before, after) = match o.action {
        Action::Delete => (o.live.as_ref(), None),
        // An object of the release missing from the cluster: against what the release had.
        Action::Create => (o.baseline.as_ref(), o.predicted.as_ref()),
        Action::Keep | Action::Conflict if o.predicted.is_none() => return None,
        _ => (o.live.as_ref(), o.predicted.as_ref()),
    };
    if before.is_none() && after.is_none() {
        return None;
    }
    let text = |v: Option<&Value>| v.map(|v| object_yaml(v, decode_secrets && o.kind == "Secret")).unwrap_or_default();
    let (a, b) = (text(before), text(after));
    if a == b {
        return None;
    }
    let diff = similar::TextDiff::from_lines(&a, &b);
    let (from, to) = match o.action {
        Action::Create if o.baseline.is_some() => ("previous release", "created again"),
        Action::Create => ("(absent)", "created"),
        Action::Delete => ("live", "(deleted)"),
        _ => ("live", "after upgrade"),
    };
    let why = Why::of(&b, &o.why);
    // A deleted object's lines all go: its heading says why it was rendered.
    let why_before = Why::of(&a, if o.action == Action::Delete { &[] } else { &o.why_before });
    let mut out = String::new();
    let mut fields = WhyFields::default();
    for hunk in diff.unified_diff().context_radius(context).header(from, to).iter_hunks() {
        let text = hunk.to_string();
        let lines: Vec<&str> = text.lines().collect();
        // The hunk's header lines, then one line per change.
        let new_lines: Vec<Option<usize>> = hunk.iter_changes().map(|c| c.new_index()).collect();
        let old_lines: Vec<Option<usize>> = hunk.iter_changes().map(|c| c.old_index()).collect();
        let headers = lines.len().saturating_sub(new_lines.len());
        let mut last_why = None;
        for (i, line) in lines.iter().enumerate() {
            let styled = match line.chars().next() {
                Some('+') => theme.good(line),
                Some('-') => theme.bad(line),
                Some('@') => theme.dim(line),
                _ => line.to_string(),
            };
            out.push_str(&format!("    {styled}\n"));
            let (added, removed) = (line.starts_with('+') && i >= headers, line.starts_with('-') && i >= headers);
            let field = match (added, removed) {
                (true, _) => new_lines.get(i - headers).copied().flatten().and_then(|n| why.field(n + 1)),
                (_, true) => old_lines.get(i - headers).copied().flatten().and_then(|n| why_before.field(n + 1)),
                _ => None,
            };
            let Some(field) = field else {
                last_why = None;
                continue;
            };
            let list = if added { &mut fields.added } else { &mut fields.removed };
            if !list.iter().any(|f| std::ptr::eq(*f, field)) {
                list.push(field);
            }
            // A removed line says what printed it in the baseline.
            let note = if removed { Why::note(field, false).map(|n| format!("was {n}")) } else { Why::note(field, o.action == Action::Create) };
            let Some(note) = note else {
                last_why = None;
                continue;
            };
            // One note for a run of lines with the same reason.
            if let Some(columns) = notes
                && last_why.as_ref() != Some(&note)
            {
                // A YAML comment under the line, at its indentation, every wrapped line a comment too.
                let pad = line[1..].len() - line[1..].trim_start().len();
                let indent = format!("     {}# ", " ".repeat(pad));
                out.push_str(&crate::cli::output::fit(&indent, &format!("\u{2190} {note}"), columns, &|l| theme.dim(l)));
            }
            last_why = Some(note);
        }
    }
    (!out.is_empty()).then_some((out, fields))
}

/// The blame of the fields the changed lines of a diff hold, in order.
#[derive(Default)]
struct WhyFields<'o> {
    added: Vec<&'o crate::render::blame::FieldBlame>,
    removed: Vec<&'o crate::render::blame::FieldBlame>,
}

/// `--why`: the reason under each added line of a diff, from the blame of
/// the object's fields: the values keys its action read and where their
/// values came from; else the render-data facts; else the template text or
/// action that printed it.
struct Why<'a> {
    lines: std::collections::HashMap<usize, String>,
    fields: std::collections::HashMap<&'a str, &'a crate::render::blame::FieldBlame>,
}

impl<'a> Why<'a> {
    fn of(yaml: &str, why: &'a [crate::render::blame::FieldBlame]) -> Why<'a> {
        if why.is_empty() {
            return Why { lines: Default::default(), fields: Default::default() };
        }
        Why { lines: crate::render::blame::leaf_lines(yaml), fields: why.iter().map(|f| (f.field.as_str(), f)).collect() }
    }

    /// The blame of the field on 1-based line `n` of the new object's YAML.
    fn field(&self, n: usize) -> Option<&'a crate::render::blame::FieldBlame> {
        self.fields.get(self.lines.get(&n)?.as_str()).copied()
    }

    /// The note under an added line; none for template text and constants
    /// of a created object (its heading says why it is rendered at all).
    fn note(f: &crate::render::blame::FieldBlame, created: bool) -> Option<String> {
        if created && f.keys.is_empty() && f.facts.is_empty() && !f.random {
            return None;
        }
        let place = format!("{}:{}", f.template, f.line);
        let random = if f.random { "random on every render; " } else { "" };
        let why = Why::reason(f, &place);
        // A leaf no values key printed: the conditions that chose it say more.
        Some(match (f.keys.is_empty() && !created, Why::conditions(&f.conditions)) {
            (true, Some(when)) => format!("{random}{why}; when {when}"),
            _ => format!("{random}{why}"),
        })
    }

    /// The first few values keys conditions read (`ingress.enabled: -f prod.yaml:3:12`).
    fn conditions(conditions: &[crate::render::blame::KeyRead]) -> Option<String> {
        const SHOWN: usize = 3;
        let keys: Vec<String> = conditions.iter().filter(|c| c.source != "render data").map(|c| format!("{}: {}", c.path, c.source)).collect();
        match keys.len() {
            0 => None,
            n if n > SHOWN => Some(format!("{} (and {} more)", keys[..SHOWN].join("; "), n - SHOWN)),
            _ => Some(keys.join("; ")),
        }
    }

    fn reason(f: &crate::render::blame::FieldBlame, place: &str) -> String {
        if !f.keys.is_empty() {
            f.keys.iter().map(|k| format!("{}: {}", k.path, k.source)).chain(f.facts.iter().cloned()).collect::<Vec<_>>().join("; ")
        } else if !f.facts.is_empty() {
            f.facts.join(", ")
        } else if f.literal {
            format!("template text {place}")
        } else {
            format!("{} {place}", f.action.as_deref().unwrap_or_default())
        }
    }
}

/// An object as YAML without what only the server keeps track of
/// (managedFields); a Secret's data decoded when asked.
fn object_yaml(v: &Value, decode_secrets: bool) -> String {
    let mut v = v.clone();
    if let Some(m) = v.pointer_mut("/metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    if decode_secrets && let Some(Value::Object(data)) = v.get_mut("data") {
        use base64::Engine as _;
        for x in data.values_mut() {
            if let Some(text) = x.as_str().and_then(|s| base64::engine::general_purpose::STANDARD.decode(s).ok()).and_then(|b| String::from_utf8(b).ok()) {
                *x = Value::String(text);
            }
        }
    }
    to_yaml(&v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn a_drift_value_keeps_the_spaces_inside_its_strings() {
        assert_eq!(super::compact(&json!({"cmd": "a  b", "n": [1, 2]})), r#"{"cmd":"a  b","n":[1,2]}"#);
    }
}
