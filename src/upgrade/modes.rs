//! `helm upgrade`'s choice of values, exactly: the four value modes of
//! `Upgrade.reuseValues` (helm: pkg/action/upgrade.go), then dependency
//! processing and coalescing of the new chart, on the provenance tree; and
//! what each mode keeps, drops and takes from the new chart, with the cause.

use std::collections::HashMap;

use serde_json::Value;

use crate::chart::Chart;
use crate::explain::{ExplainError, Options, chart_spec, explain_spec};
use crate::release::Release;
use crate::values::coalesce::{ChartValues, CoalesceError, coalesce_tables, coalesce_values, go_v};
use crate::values::dependencies::ChartSpec;
use crate::explain::entries::{Entry, path_order};
use crate::values::user::{ValueFlags, user_values};
use crate::keypath::Path;
use crate::values::source::Voice;
use crate::values::tree::{EventKind, Kind, Recorder, Source, V, VMap, get, map_from_json_each};

/// Helm's value modes. Helm checks the flags in this order and the first
/// one given wins: `--reset-values`, `--reuse-values`,
/// `--reset-then-reuse-values`, else the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    Default,
    Reuse,
    Reset,
    ResetThenReuse,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Default, Mode::Reuse, Mode::Reset, Mode::ResetThenReuse];

    /// The word of the JSON contract.
    pub fn word(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::Reuse => "reuse",
            Mode::Reset => "reset",
            Mode::ResetThenReuse => "reset-then-reuse",
        }
    }

    /// The flag that selects the mode on `helm upgrade`.
    pub fn flag(self) -> &'static str {
        match self {
            Mode::Default => "no value-mode flag",
            Mode::Reuse => "--reuse-values",
            Mode::Reset => "--reset-values",
            Mode::ResetThenReuse => "--reset-then-reuse-values",
        }
    }

    /// Helm's precedence when several flags are given (helm: pkg/action/upgrade.go reuseValues).
    pub fn from_flags(reset: bool, reuse: bool, reset_then_reuse: bool) -> Mode {
        if reset {
            Mode::Reset
        } else if reuse {
            Mode::Reuse
        } else if reset_then_reuse {
            Mode::ResetThenReuse
        } else {
            Mode::Default
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum UpgradeError {
    /// helm: pkg/action/upgrade.go reuseValues
    #[error("failed to rebuild old values: {0}")]
    RebuildOldValues(#[source] CoalesceError),
    #[error(transparent)]
    Explain(#[from] ExplainError),
}

/// What an upgrade starts from and what this command adds.
pub struct Upgrade<'a> {
    /// The new chart, and its values as dependency processing takes them.
    chart: &'a Chart,
    spec: ChartSpec,
    /// The baseline revision's record (see `release::history::baseline`).
    baseline: &'a Release,
    /// This command's value flags, merged as Helm's CLI merges them.
    user: VMap,
    /// Warnings Helm printed while loading the chart and reading the flags.
    warnings: Vec<String>,
    options: Options,
}

impl<'a> Upgrade<'a> {
    /// Reads the new chart's values and this command's flags once for every mode.
    pub fn new(
        chart: &'a Chart,
        baseline: &'a Release,
        flags: &ValueFlags,
        read_file: &mut dyn FnMut(&str) -> Result<String, String>,
        options: Options,
    ) -> Result<Upgrade<'a>, UpgradeError> {
        let mut rec = Recorder::default();
        for c in chart.walk() {
            rec.warnings.extend(c.warnings.iter().cloned());
        }
        chart.check_dependencies().map_err(ExplainError::MissingDependencies)?;
        let spec = chart_spec(chart, Vec::new())?;
        let user = user_values(flags, read_file, &mut rec).map_err(ExplainError::from)?;
        Ok(Upgrade { chart, spec, baseline, user, warnings: rec.warnings, options })
    }

    pub fn baseline(&self) -> &Release {
        self.baseline
    }
}

/// One key whose value the upgrade changes (or, under `--reuse-values`,
/// keeps although the new chart says otherwise), and why.
#[derive(Debug, Clone)]
pub struct Change {
    pub path: Path,
    pub before: Option<Value>,
    pub after: Option<Value>,
    pub kind: ChangeKind,
    pub cause: String,
}

/// What happened to a key, for counting and for scripts (`kind` in JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// This command's flags set it.
    Set,
    /// A value of the stored config is lost.
    Dropped,
    /// The new chart's default changed, or the key is new.
    NewDefault,
    /// Kept from the stored config or the stored chart.
    Kept,
    /// `--reuse-values`: a new default of the parent chart does not apply.
    IgnoredNewDefault,
    /// A null from this command deleted it.
    Deleted,
    /// A null from this command did not delete it (Helm quirks).
    NullNotApplied,
    /// The new chart no longer has it.
    Removed,
}

impl ChangeKind {
    pub fn word(self) -> &'static str {
        match self {
            ChangeKind::Set => "set",
            ChangeKind::Dropped => "dropped",
            ChangeKind::NewDefault => "new-default",
            ChangeKind::Kept => "kept",
            ChangeKind::IgnoredNewDefault => "ignored-new-default",
            ChangeKind::Deleted => "deleted",
            ChangeKind::NullNotApplied => "null-not-applied",
            ChangeKind::Removed => "removed",
        }
    }
}

/// The outcome of one value mode.
#[derive(Debug)]
pub struct ModeOutcome {
    pub mode: Mode,
    /// What the templates see as `.Values`.
    pub values: VMap,
    /// What Helm stores as the new revision's config (`helm get values`).
    pub config: VMap,
    pub entries: Vec<Entry>,
    /// Against the baseline's values (`helm get values --all` of the baseline).
    pub changes: Vec<Change>,
    pub warnings: Vec<String>,
    /// Default mode only: whether the baseline's config was reused because
    /// the value flags gave no value at all.
    pub reused_config: bool,
    /// Whether this command's value flags gave any value.
    pub flags_gave_values: bool,
    /// `--reuse-values`: the old release's values, which replace the new
    /// parent chart's values.yaml for this upgrade.
    pub parent_values: Option<VMap>,
    /// Changes that lose a value of the stored config this command does not set again.
    pub dropped_config_values: usize,
    /// New chart defaults this mode does not apply (`--reuse-values`).
    pub ignored_new_defaults: usize,
    /// The baseline's config as Helm rewrites it when it marks the baseline
    /// superseded, when this mode changes it (nulls of this command written in).
    pub rewritten_baseline_config: Option<VMap>,
    /// The chart tree Helm renders after dependency processing (for the native renderer).
    pub charts: Option<crate::values::coalesce::ChartValues>,
}

/// The baseline's values as `helm get values --all` shows them, and the
/// stored config (numbers are float64: they went through JSON).
pub struct Stored {
    pub chart: ChartValues,
    pub config: VMap,
    pub revision: i64,
}

impl Stored {
    pub fn of(rel: &Release) -> Stored {
        let empty = serde_json::Map::new();
        let revision = rel.version();
        // Each node its own origin: blame (`--why`) names a key by its node's.
        let chart_origin = Source::StoredChart { chart: rel.chart_name().to_string(), revision };
        Stored {
            chart: ChartValues {
                name: rel.chart_name().to_string(),
                loaded_at: Vec::new(),
                values: map_from_json_each(rel.chart_values().unwrap_or(&empty), true, &chart_origin),
                dependencies: Vec::new(),
            },
            config: map_from_json_each(rel.config().unwrap_or(&empty), true, &Source::ReleaseConfig { revision }),
            revision,
        }
    }

    /// `CoalesceValues(current.Chart, current.Config)`.
    pub fn coalesced(&self, rec: &mut Recorder) -> Result<VMap, CoalesceError> {
        coalesce_values(&self.chart, self.config.clone(), rec)
    }
}

/// Computes one mode: `reuseValues`, then what `helm upgrade` renders with.
pub fn preview_mode(up: &Upgrade, mode: Mode) -> Result<ModeOutcome, UpgradeError> {
    let stored = Stored::of(up.baseline);
    // The baseline's values: what the changes compare against, and what
    // `--reuse-values` puts in place of the new chart's values.yaml.
    let mut old_rec = Recorder::default();
    let before = stored.coalesced(&mut old_rec).map_err(UpgradeError::RebuildOldValues)?;
    let mut rec = Recorder { events: Vec::new(), warnings: up.warnings.clone() };
    let mut reused_config = false;
    let mut parent_values = None;
    let user = match mode {
        Mode::Reset => up.user.clone(),
        Mode::Reuse => {
            // Only this mode has Helm rebuild the old values, with its warnings and history.
            rec.events.append(&mut old_rec.events);
            rec.warnings.append(&mut old_rec.warnings);
            parent_values = Some(before.clone());
            let mut user = up.user.clone();
            coalesce_tables(&mut user, stored.config.clone(), "", &Path::root(), false, &mut rec);
            user
        }
        Mode::ResetThenReuse => {
            let mut user = up.user.clone();
            coalesce_tables(&mut user, stored.config.clone(), "", &Path::root(), false, &mut rec);
            user
        }
        Mode::Default => {
            // helm: `if len(newVals) == 0 && len(current.Config) > 0`: flags
            // that give no value at all (an empty -f file) count as none.
            if up.user.is_empty() && !stored.config.is_empty() {
                reused_config = true;
                stored.config.clone()
            } else {
                up.user.clone()
            }
        }
    };
    let config = user.clone();
    let compare_with_new_defaults = (mode == Mode::Reuse).then(|| user.clone());
    let mut spec = up.spec.clone();
    if let Some(old) = &parent_values {
        // `chart.Values = oldVals`: the new parent's values.yaml is discarded.
        spec.values = old.clone();
    }
    let explanation = explain_spec(up.chart, spec, user, rec, up.options)?;
    let ctx = CauseContext {
        mode,
        reused_config,
        revision: stored.revision,
        chart: chart_label(up.chart),
        user_nulls: null_paths(&up.user),
    };
    let mut changes = changes(&before, &explanation.values, &explanation.entries, &ctx);
    if let Some(user) = compare_with_new_defaults {
        let options = Options { skip_schema_validation: true };
        let with_new = explain_spec(up.chart, up.spec.clone(), user, Recorder::default(), options)?;
        for ignored in ignored_defaults(&before, &explanation.values, &with_new.values, &ctx) {
            // One row per key: "not applied" says more than "kept", less than the rest.
            match changes.iter().position(|c| c.path == ignored.path) {
                Some(i) if changes[i].kind == ChangeKind::Kept => changes[i] = ignored,
                Some(_) => {}
                None => changes.push(ignored),
            }
        }
        changes.sort_by(|a, b| path_order(&a.path.0, &b.path.0));
    }
    let dropped_config_values = changes.iter().filter(|c| c.kind == ChangeKind::Dropped).count();
    let ignored_new_defaults = changes.iter().filter(|c| c.kind == ChangeKind::IgnoredNewDefault).count();
    let rewritten_baseline_config = match mode {
        Mode::Reuse | Mode::ResetThenReuse => rewritten_config(&up.user, &stored.config),
        _ => None,
    };
    let mut warnings = explanation.warnings;
    warnings.extend(quirk_warnings(&ctx.user_nulls, &stored, &explanation.values, mode, rewritten_baseline_config.as_ref()));
    Ok(ModeOutcome {
        mode,
        values: explanation.values,
        config,
        entries: explanation.entries,
        changes,
        warnings,
        reused_config,
        flags_gave_values: !up.user.is_empty(),
        parent_values,
        dropped_config_values,
        ignored_new_defaults,
        rewritten_baseline_config,
        charts: explanation.charts,
    })
}

/// How to make `helm template` see what this upgrade sees: the stored
/// config as one values file, `--set` expressions for its int64 numbers (a
/// values file only gives float64), and under `--reuse-values` the values
/// that replace the parent chart's values.yaml.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderInputs {
    pub values: Value,
    pub set_ints: Vec<String>,
    pub parent_values: Option<Value>,
}

impl ModeOutcome {
    pub fn render_inputs(&self) -> RenderInputs {
        let mut set_ints = Vec::new();
        int_sets(&self.config, "", &mut set_ints);
        RenderInputs {
            values: Value::Object(crate::values::tree::map_to_json(&self.config)),
            set_ints,
            parent_values: self.parent_values.as_ref().map(|p| Value::Object(crate::values::tree::map_to_json(p))),
        }
    }
}

/// `--set` expressions (`a.b\.c[0]=5`) for every int64 leaf.
fn int_sets(map: &VMap, prefix: &str, out: &mut Vec<String>) {
    fn escape(key: &str) -> String {
        let mut s = String::with_capacity(key.len());
        for c in key.chars() {
            if matches!(c, '.' | '[' | ']' | ',' | '=' | '\\') {
                s.push('\\');
            }
            s.push(c);
        }
        s
    }
    fn walk(v: &V, at: String, out: &mut Vec<String>) {
        match &v.kind {
            Kind::Int(i) => out.push(format!("{at}={i}")),
            Kind::Map(m) => int_sets(m, &at, out),
            Kind::List(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, format!("{at}[{i}]"), out);
                }
            }
            _ => {}
        }
    }
    for (k, v) in map {
        let at = if prefix.is_empty() { escape(k) } else { format!("{prefix}.{}", escape(k)) };
        walk(v, at, out);
    }
}

/// The one-line advice of `--compare-modes`: the mode that keeps the user's
/// values and takes the new chart's defaults.
/// The mode `--compare-modes` recommends (none when no mode is clean), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recommendation {
    pub mode: Option<Mode>,
    pub reason: String,
}

pub fn recommend(outcomes: &[ModeOutcome], revision: i64) -> Recommendation {
    let of = |m: Mode| outcomes.iter().find(|o| o.mode == m);
    let clean = |o: &ModeOutcome| {
        o.dropped_config_values == 0 && o.ignored_new_defaults == 0 && !o.changes.iter().any(|c| c.kind == ChangeKind::NullNotApplied)
    };
    if let Some(d) = of(Mode::Default)
        && clean(d)
    {
        return Recommendation {
            mode: Some(Mode::Default),
            reason: "the default mode keeps every stored value this command does not change and takes the new chart's defaults: no value-mode flag is needed".into(),
        };
    }
    let dropped = of(Mode::Default).map_or(0, |d| d.dropped_config_values);
    let why = if dropped > 0 {
        format!(
            "; the default mode drops {dropped} value{} of revision {revision}'s config because value flags were given without repeating them",
            if dropped == 1 { "" } else { "s" }
        )
    } else {
        String::new()
    };
    for m in [Mode::ResetThenReuse, Mode::Reuse] {
        if let Some(o) = of(m).filter(|o| clean(o)) {
            return Recommendation {
                mode: Some(o.mode),
                reason: format!("use {}: it keeps revision {revision}'s config under this command's values and takes the new chart's defaults{why}", o.mode.flag()),
            };
        }
    }
    Recommendation {
        mode: None,
        reason: format!("no mode keeps every stored value and takes every new default here: repeat revision {revision}'s -f files and --set flags with this command (see `kubectl releasex release decode NAME --show values`){why}"),
    }
}

struct CauseContext {
    mode: Mode,
    reused_config: bool,
    revision: i64,
    chart: String,
    /// Paths this command set to null.
    user_nulls: HashMap<Path, String>,
}

const NULL_QUIRK_MARK: &str = "helm/helm#30765";

fn chart_label(c: &Chart) -> String {
    format!("{} {}", c.metadata.name, c.metadata.version)
}

fn is_this_command(s: &Source) -> bool {
    matches!(s, Source::ValuesFile { .. } | Source::SetFlag { .. })
}

/// Why the stored config does not reach the new revision in this mode.
fn config_discarded(ctx: &CauseContext) -> String {
    why_config_is_dropped(ctx.mode).to_string()
}

/// Why a mode drops the stored config, and what to do about it.
pub fn why_config_is_dropped(mode: Mode) -> &'static str {
    match mode {
        Mode::Reset => "--reset-values ignores the stored config",
        _ => "the default mode discards the stored config as soon as any value flag gives a value (repeat -f, or use --reset-then-reuse-values)",
    }
}

/// Leaves as `explain` counts them: scalars, nulls, empty maps, lists.
fn leaves<'a>(map: &'a VMap, at: &Path, out: &mut Vec<(Path, &'a V)>) {
    for (k, v) in map {
        let here = at.key(k);
        match &v.kind {
            Kind::Map(m) if !m.is_empty() => leaves(m, &here, out),
            _ => out.push((here, v)),
        }
    }
}

/// Equal as the templates see them: int64 and float64 of the same number are equal.
fn same(a: &V, b: &V) -> bool {
    match (&a.kind, &b.kind) {
        (Kind::Int(x), Kind::Float(y)) | (Kind::Float(y), Kind::Int(x)) => (*x as f64) == *y,
        (Kind::List(x), Kind::List(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (Kind::Map(x), Kind::Map(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w))),
        (Kind::Float(x), Kind::Float(y)) => x == y,
        (Kind::Int(x), Kind::Int(y)) => x == y,
        (Kind::Null, Kind::Null) => true,
        (Kind::Bool(x), Kind::Bool(y)) => x == y,
        (Kind::Str(x), Kind::Str(y)) => x == y,
        _ => false,
    }
}

/// The nulls this command gives, and which flag or file gives each.
fn null_paths(user: &VMap) -> HashMap<Path, String> {
    let mut found = Vec::new();
    leaves(user, &Path::root(), &mut found);
    found.into_iter().filter(|(_, v)| v.is_null()).map(|(p, v)| (p, v.origin.phrase(Voice::Upgrade))).collect()
}

fn changes(before: &VMap, after: &VMap, entries: &[Entry], ctx: &CauseContext) -> Vec<Change> {
    let (mut b, mut a) = (Vec::new(), Vec::new());
    leaves(before, &Path::root(), &mut b);
    leaves(after, &Path::root(), &mut a);
    let mut out = Vec::new();
    for (path, av) in &a {
        // Any node: a leaf here may replace a whole map of the baseline.
        let bv = get(before, path);
        let nulled = ctx.user_nulls.contains_key(path);
        if bv.is_some_and(|bv| same(bv, av)) && !nulled {
            continue;
        }
        let (kind, cause) = cause_present(ctx, path, bv, av);
        out.push(Change { path: path.clone(), before: bv.map(V::to_json), after: Some(av.to_json()), kind, cause });
    }
    for (path, bv) in &b {
        // Present, or replaced by a leaf higher up (that change is listed there).
        let shown_above = (1..path.0.len()).any(|n| get(after, &Path(path.0[..n].to_vec())).is_some_and(|v| !v.is_map()));
        if get(after, path).is_some() || shown_above {
            continue;
        }
        let (kind, cause) = cause_absent(ctx, path, bv, entries);
        out.push(Change { path: path.clone(), before: Some(bv.to_json()), after: None, kind, cause });
    }
    // A null of this command at a key that is still a map here (leaves below it).
    for path in ctx.user_nulls.keys() {
        if let Some(node) = get(after, path).filter(|n| n.is_map())
            && !out.iter().any(|c| &c.path == path)
        {
            let (kind, cause) = null_cause(ctx, path, &node.origin);
            out.push(Change { path: path.clone(), before: get(before, path).map(V::to_json), after: Some(node.to_json()), kind, cause });
        }
    }
    out.sort_by(|x, y| path_order(&x.path.0, &y.path.0));
    out
}

fn cause_present(ctx: &CauseContext, path: &Path, before: Option<&V>, after: &V) -> (ChangeKind, String) {
    let origin = &*after.origin;
    if is_this_command(origin) {
        return (ChangeKind::Set, format!("set by {}", origin.phrase(Voice::Upgrade)));
    }
    if ctx.user_nulls.contains_key(path) {
        return null_cause(ctx, path, origin);
    }
    let kept = ChangeKind::Kept;
    match origin {
        Source::ReleaseConfig { revision } => match ctx.mode {
            Mode::Default if ctx.reused_config => {
                (kept, format!("kept from the config of revision {revision}: the default mode reuses it because the value flags gave no value"))
            }
            _ => (kept, format!("kept from the config of revision {revision}")),
        },
        Source::StoredChart { revision, .. } => (
            kept,
            format!("kept the default of the chart stored in revision {revision}: --reuse-values replaces the new chart's values.yaml with the old values"),
        ),
        _ => match before.map(|b| &*b.origin) {
            Some(Source::ReleaseConfig { revision }) => (
                ChangeKind::Dropped,
                format!(
                    "dropped: the previous value came from the config of revision {revision}, and {}; {} applies",
                    config_discarded(ctx),
                    origin.phrase(Voice::Upgrade)
                ),
            ),
            None => (ChangeKind::NewDefault, format!("new key: {} ({})", origin.phrase(Voice::Upgrade), ctx.chart)),
            Some(_) => (ChangeKind::NewDefault, format!("new default: {} ({})", origin.phrase(Voice::Upgrade), ctx.chart)),
        },
    }
}

/// A key this command set to null that the templates still see.
fn null_cause(ctx: &CauseContext, path: &Path, origin: &Source) -> (ChangeKind, String) {
    let null_from = ctx.user_nulls.get(path).map_or("this command", String::as_str);
    let why = match ctx.mode {
        Mode::Reuse => format!(
            "kept although {null_from} sets it to null: --reuse-values removes the key from the stored config but keeps the old value among the chart's defaults, so only the next upgrade removes it ({NULL_QUIRK_MARK})"
        ),
        Mode::ResetThenReuse => format!(
            "{null_from} sets it to null, but merging revision {}'s config consumes the null, so {} applies",
            ctx.revision,
            origin.phrase(Voice::Upgrade)
        ),
        _ => format!("{null_from} sets it to null, but {} gives it again", origin.phrase(Voice::Upgrade)),
    };
(ChangeKind::NullNotApplied, why)
}

fn cause_absent(ctx: &CauseContext, path: &Path, before: &V, entries: &[Entry]) -> (ChangeKind, String) {
    let deleted_by = entries
        .iter()
        .find(|e| &e.path == path && e.value.is_none())
        .and_then(|e| e.overridden.iter().rev().find(|l| l.event == EventKind::DeletedByNull))
        .and_then(|l| l.by.as_ref().map(|b| b.phrase(Voice::Upgrade)));
    if let Some(by) = deleted_by {
        return (ChangeKind::Deleted, format!("deleted by the null from {by}"));
    }
    match &*before.origin {
        Source::ReleaseConfig { revision } => {
            (ChangeKind::Dropped, format!("dropped: the value came from the config of revision {revision}, and {}", config_discarded(ctx)))
        }
        _ => (ChangeKind::Removed, format!("no longer in the chart's defaults ({})", ctx.chart)),
    }
}

/// `--reuse-values`: what the new chart's values.yaml would give but does not,
/// because the old values replace it (helm/helm#3655). `with_new_defaults` is
/// the same upgrade over the new chart's own values (what
/// `--reset-then-reuse-values` computes), so every difference is caused by
/// the replacement.
fn ignored_defaults(before: &VMap, after: &VMap, with_new_defaults: &VMap, ctx: &CauseContext) -> Vec<Change> {
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    leaves(after, &Path::root(), &mut ours);
    leaves(with_new_defaults, &Path::root(), &mut theirs);
    let mut paths: Vec<&Path> = ours.iter().map(|(p, _)| p).collect();
    paths.extend(theirs.iter().map(|(p, _)| p).filter(|p| get(after, p).is_none()));
    let mut out = Vec::new();
    for path in paths {
        let (now, new) = (get(after, path), get(with_new_defaults, path));
        let differs = match (now, new) {
            (Some(a), Some(b)) => !same(a, b),
            (None, None) => false,
            _ => true,
        };
        if !differs || ctx.user_nulls.contains_key(path) {
            continue;
        }
        let would = new.map_or_else(|| "would not have this key".to_string(), |v| format!("gives {}", go_v(v)));
        out.push(Change {
            path: path.clone(),
            before: get(before, path).map(V::to_json),
            after: now.map(V::to_json),
            kind: ChangeKind::IgnoredNewDefault,
            cause: format!(
                "new default not applied: with its own values.yaml, {} {would}; --reuse-values replaces that file with revision {}'s values (helm/helm#3655)",
                ctx.chart, ctx.revision
            ),
        });
    }
    out
}

/// `coalesceTablesFullKey(newVals, current.Config)` writes every null of
/// `newVals` into `current.Config` (at each level where both hold a map), and
/// Helm stores that object again when it supersedes the baseline.
fn rewritten_config(user: &VMap, config: &VMap) -> Option<VMap> {
    fn mark(user: &VMap, config: &mut VMap) -> bool {
        let mut changed = false;
        for (k, u) in user {
            if u.is_null() {
                let was_null = config.get(k).is_some_and(V::is_null);
                config.insert(k.clone(), u.clone());
                changed |= !was_null;
            } else if let (Some(um), Some(cm)) = (u.as_map(), config.get_mut(k).and_then(V::as_map_mut)) {
                changed |= mark(um, cm);
            }
        }
        changed
    }
    // An empty config is stored as nothing and decodes as a nil map, which
    // CoalesceTables returns early for.
    if config.is_empty() {
        return None;
    }
    let mut out = config.clone();
    mark(user, &mut out).then_some(out)
}

/// The mode-specific traps Helm does not warn about.
fn quirk_warnings(nulls: &HashMap<Path, String>, stored: &Stored, values: &VMap, mode: Mode, rewritten: Option<&VMap>) -> Vec<String> {
    let mut out = Vec::new();
    if mode == Mode::Reuse {
        let mut still: Vec<&Path> = nulls
            .keys()
            .filter(|p| get(&stored.config, p).is_some_and(|v| !v.is_null()) && get(values, p).is_some())
            .collect();
        still.sort_by(|a, b| path_order(&a.0, &b.0));
        if !still.is_empty() {
            out.push(format!(
                "--reuse-values with a null keeps the old value for this upgrade: {} (the null only removes it from the stored config, so the next upgrade removes it; {NULL_QUIRK_MARK})",
                still.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    if let Some(rewritten) = rewritten {
        let mut marked = Vec::new();
        leaves(rewritten, &Path::root(), &mut marked);
        let mut written: Vec<Path> =
            marked.into_iter().filter(|(p, v)| v.is_null() && !get(&stored.config, p).is_some_and(V::is_null)).map(|(p, _)| p).collect();
        written.sort_by(|a, b| path_order(&a.0, &b.0));
        out.push(format!(
            "Helm will also write null for {} into the stored config of revision {} when it marks that revision superseded (CoalesceTables modifies the old config it merges)",
            written.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", "),
            stored.revision
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helm_checks_reset_before_reuse_before_reset_then_reuse() {
        assert_eq!(Mode::from_flags(true, true, true), Mode::Reset);
        assert_eq!(Mode::from_flags(false, true, true), Mode::Reuse);
        assert_eq!(Mode::from_flags(false, false, true), Mode::ResetThenReuse);
        assert_eq!(Mode::from_flags(false, false, false), Mode::Default);
    }

    #[test]
    fn int64_values_are_given_back_to_helm_as_set_expressions() {
        let o = std::rc::Rc::new(Source::Helm { why: "t".into() });
        let v = |k: Kind| V::new(k, o.clone());
        let mut inner = VMap::default();
        inner.insert("a.b".into(), v(Kind::Int(5)));
        inner.insert("f".into(), v(Kind::Float(1.0)));
        let mut map = VMap::default();
        map.insert("x".into(), v(Kind::Map(inner)));
        map.insert("l".into(), v(Kind::List(vec![v(Kind::Str("s".into())), v(Kind::Int(-2))])));
        let mut out = Vec::new();
        int_sets(&map, "", &mut out);
        assert_eq!(out, ["x.a\\.b=5", "l[1]=-2"]);
        // Helm's own parser reads them back to the same paths.
        let mut parsed = serde_json::Map::new();
        for e in &out {
            crate::values::strvals::parse_into(crate::values::strvals::SetKind::Set, e, &mut parsed, &mut |_| Err(String::new())).expect("parses");
        }
        assert_eq!(parsed["x"]["a.b"], 5);
    }

    #[test]
    fn int_and_float_of_the_same_number_are_the_same_value() {
        let o = std::rc::Rc::new(Source::Helm { why: "t".into() });
        assert!(same(&V::new(Kind::Int(3), o.clone()), &V::new(Kind::Float(3.0), o.clone())));
        assert!(!same(&V::new(Kind::Str("3".into()), o.clone()), &V::new(Kind::Float(3.0), o)));
    }
}
