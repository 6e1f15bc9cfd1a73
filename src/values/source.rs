//! Where a value came from ([`Source`]), and the one place a source is put
//! into words ([`Source::describe_into`], with [`Source::phrase`] for the
//! wording inside a sentence) or into JSON ([`Source::write_json`],
//! [`Source::to_json`]).

use serde_json::Value;

use crate::go::json_pretty::GoJsonWriter;

/// A chart or file name in a [`Source`]: shared, since every value read from
/// a file carries it (one allocation per file instead of one per value).
pub type Name = std::rc::Rc<str>;

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Source {
    /// A chart's own values.yaml (`chart` is the chart's name as Helm shows it).
    ChartDefault { chart: Name, file: Name, line: Option<usize>, column: Option<usize> },
    /// The values of the chart stored in a release revision (a stored chart
    /// has no subcharts: their defaults were folded in when it was stored).
    StoredChart { chart: String, revision: i64 },
    /// A parent chart's values.yaml section for a subchart.
    ParentValues { chart: Name, file: Name, line: Option<usize>, column: Option<usize> },
    /// `-f FILE`.
    ValuesFile { file: Name, line: Option<usize>, column: Option<usize> },
    /// A `--set*` flag: which kind, its 0-based index among flags of that kind, the expression.
    #[serde(rename = "set")]
    SetFlag { flag: String, index: usize, expr: String },
    /// Copied by `import-values` from a subchart; `secret`: the copied value is a secret's.
    ImportValues {
        chart: String,
        from: String,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        secret: bool,
    },
    /// Copied down from a parent's `global`.
    Global { from_chart: String },
    /// The stored config of a release revision.
    ReleaseConfig { revision: i64 },
    /// Created by Helm itself (an empty subchart section).
    Helm { why: String },
    /// werf: a decrypted secret values file: the chart's `secret-values.yaml`
    /// (`chart_default`), a `--secret-values` file, or one named by `$WERF_SECRET_VALUES_*` (`env`).
    WerfSecretValues { file: String, line: Option<usize>, column: Option<usize>, chart_default: bool, env: Option<String> },
    /// werf: a `$WERF_VALUES_*` file or a `$WERF_SET*_*` expression, named by its variable.
    WerfEnv { var: String, flag: String, expr: Option<String>, file: Option<String>, line: Option<usize>, column: Option<usize> },
    /// werf's own values (release name, namespace, environment).
    WerfAuxiliary { what: String },
    /// werf's `export-values`: copied from a parent chart's values; `secret`: the copied value is a secret's.
    ExportValues {
        chart: String,
        from: String,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        secret: bool,
    },
    /// A helmfile layer (`values explain --helmfile`): which layer
    /// (`base`, `defaults`, `environment`, `hcl`, `secrets`,
    /// `state-values-file`, `state-values-set`, `release-values`, ...), and
    /// the file position or flag expression; `secret` marks values to mask.
    /// `via`: a scalar a values template printed whole from one value that
    /// has its own origin (a state value's file and line, itself perhaps `via` another).
    Helmfile { layer: String, file: Option<String>, line: Option<usize>, column: Option<usize>, expr: Option<String>, secret: bool, via: Option<Box<Source>> },
    /// Not a value: a fact of Helm's render data that a template read
    /// (`.Release.Name`, `.Chart.Version`, `.Capabilities.KubeVersion`,
    /// `.Template.Name`, `.Files`), so manifest blame can name it.
    Fact { name: String },
    /// Not a value: a key a template read that is not set, `key` (dotted)
    /// under the map `under` (`.Values.image.digest` when `image` has no
    /// `digest`), so manifest blame can say that setting it would count.
    Unset { under: std::rc::Rc<Source>, key: String },
}

impl Source {
    /// The `kind` word of the JSON contract (`set` flags report their own flag).
    pub fn kind_word(&self) -> &str {
        match self {
            Source::ChartDefault { .. } => "chart-default",
            // Reported as a chart default, with the revision that stored it.
            Source::StoredChart { .. } => "chart-default",
            Source::ParentValues { .. } => "parent-values",
            Source::ValuesFile { .. } => "values-file",
            Source::SetFlag { flag, .. } => flag.trim_start_matches("--"),
            Source::ImportValues { .. } => "import-values",
            Source::Global { .. } => "global",
            Source::ReleaseConfig { .. } => "release-config",
            Source::Helm { .. } => "helm",
            Source::WerfSecretValues { .. } => "werf-secret-values",
            Source::WerfEnv { .. } => "werf-env",
            Source::WerfAuxiliary { .. } => "werf-auxiliary",
            Source::ExportValues { .. } => "export-values",
            Source::Helmfile { .. } => "helmfile",
            Source::Fact { .. } => "fact",
            Source::Unset { .. } => "unset",
        }
    }
}

impl Source {
    /// Whether the value is a secret's: read from a secrets file (werf's
    /// secret values, helmfile's `secrets:`), or derived from one (copied by
    /// `import-values` / `export-values`, printed by a helmfile template).
    /// Outputs mask it unless asked.
    pub fn is_secret(&self) -> bool {
        match self {
            Source::WerfSecretValues { .. } => true,
            Source::Helmfile { secret, .. } | Source::ImportValues { secret, .. } | Source::ExportValues { secret, .. } => *secret,
            _ => false,
        }
    }

    /// This source marked as carrying a secret (for a copy of a secret value).
    pub fn as_secret(&self) -> Source {
        let mut s = self.clone();
        if let Source::Helmfile { secret, .. } | Source::ImportValues { secret, .. } | Source::ExportValues { secret, .. } = &mut s {
            *secret = true;
        }
        s
    }
}

/// The origin of a copy of a value whose own origin is `from`: `copy`, or
/// `secret_copy` (the same, marked secret) when the value is a secret's, so
/// copying never drops the taint.
pub fn copy_origin(from: &super::tree::Origin, copy: &super::tree::Origin, secret_copy: &super::tree::Origin) -> super::tree::Origin {
    if from.is_secret() { secret_copy.clone() } else { copy.clone() }
}

impl Source {
    /// werf's sources as people read them (the Helm ones are described by the CLI).
    pub fn werf_label(&self) -> Option<String> {
        let at = |file: &str, line: &Option<usize>, column: &Option<usize>| match (line, column) {
            (Some(l), Some(c)) => format!("{file}:{l}:{c}"),
            _ => file.to_string(),
        };
        Some(match self {
            Source::WerfSecretValues { file, line, column, chart_default: true, .. } => format!("{} (chart secret-values.yaml)", at(file, line, column)),
            Source::WerfSecretValues { file, line, column, env: Some(var), .. } => format!("${var} {} (secret values)", at(file, line, column)),
            Source::WerfSecretValues { file, line, column, .. } => format!("--secret-values {}", at(file, line, column)),
            Source::WerfEnv { var, file: Some(file), line, column, .. } => format!("${var} {}", at(file, line, column)),
            Source::WerfEnv { var, expr, .. } => format!("${var} {}", expr.as_deref().unwrap_or("")),
            Source::WerfAuxiliary { what } => format!("werf ({what})"),
            Source::ExportValues { chart, from, .. } => format!("export-values from {chart} ({from})"),
            _ => return None,
        })
    }
}

impl Source {
    /// The source as its JSON object: `kind` first, then the fields that are
    /// set (the JSON contract of `values explain` and `upgrade-preview`).
    pub fn write_json(&self, w: &mut GoJsonWriter) {
        let s = self;
        w.begin(b'{');
        w.field("kind");
        w.str(s.kind_word());
        let position = |w: &mut GoJsonWriter, line: &Option<usize>, column: &Option<usize>| {
            for (name, n) in [("line", line), ("column", column)] {
                if let Some(n) = n {
                    w.field(name);
                    w.int(i64::try_from(*n).unwrap_or(i64::MAX));
                }
            }
        };
        match s {
            Source::ChartDefault { chart, file, line, column } | Source::ParentValues { chart, file, line, column } => {
                w.field("chart");
                w.str(chart);
                w.field("file");
                w.str(file);
                position(w, line, column);
            }
            Source::ValuesFile { file, line, column } => {
                w.field("file");
                w.str(file);
                position(w, line, column);
            }
            Source::SetFlag { flag, index, expr } => {
                w.field("flag");
                w.str(flag);
                w.field("index");
                w.int(i64::try_from(*index).unwrap_or(i64::MAX));
                w.field("expr");
                w.str(expr);
            }
            Source::ImportValues { chart, from, secret } | Source::ExportValues { chart, from, secret } => {
                w.field("chart");
                w.str(chart);
                w.field("from");
                w.str(from);
                if *secret {
                    w.field("secret");
                    w.raw("true");
                }
            }
            Source::Global { from_chart } => {
                w.field("chart");
                w.str(from_chart);
            }
            Source::ReleaseConfig { revision } => {
                w.field("revision");
                w.int(*revision);
            }
            Source::Helm { why } => {
                w.field("why");
                w.str(why);
            }
            Source::Fact { name } => {
                w.field("name");
                w.str(name);
            }
            Source::Unset { key, .. } => {
                w.field("key");
                w.str(key);
            }
            Source::WerfSecretValues { file, line, column, chart_default, env } => {
                w.field("file");
                w.str(file);
                position(w, line, column);
                w.field("chart_default");
                w.raw(if *chart_default { "true" } else { "false" });
                if let Some(env) = env {
                    w.field("env");
                    w.str(env);
                }
            }
            Source::WerfEnv { var, flag, expr, file, line, column } => {
                w.field("env");
                w.str(var);
                w.field("flag");
                w.str(flag);
                for (name, text) in [("expr", expr), ("file", file)] {
                    if let Some(text) = text {
                        w.field(name);
                        w.str(text);
                    }
                }
                position(w, line, column);
            }
            Source::WerfAuxiliary { what } => {
                w.field("why");
                w.str(what);
            }
            Source::Helmfile { layer, file, line, column, expr, secret, via } => {
                w.field("layer");
                w.str(layer);
                if let Some(file) = file {
                    w.field("file");
                    w.str(file);
                }
                position(w, line, column);
                if let Some(expr) = expr {
                    w.field("expr");
                    w.str(expr);
                }
                if *secret {
                    w.field("secret");
                    w.raw("true");
                }
                if let Some(via) = via {
                    w.field("via");
                    via.write_json(w);
                }
            }
            Source::StoredChart { chart, revision } => {
                w.field("chart");
                w.str(chart);
                w.field("file");
                w.str(&format!("values of the chart stored in revision {revision}"));
                w.field("revision");
                w.int(*revision);
            }
        }
        w.end(b'}');
    }

    /// [`write_json`](Self::write_json) as a value (YAML output, documents built as values).
    pub fn to_json(&self) -> Value {
        let mut w = GoJsonWriter::with_capacity(128);
        self.write_json(&mut w);
        // The writer writes valid JSON.
        serde_json::from_str(&w.finish()).unwrap_or(Value::Null)
    }

    /// The source as people read it (where to look), appended to `out`.
    pub fn describe_into(&self, out: &mut String) {
        let s = self;
        use std::fmt::Write as _;
        let at = |out: &mut String, file: &str, line: &Option<usize>, column: &Option<usize>| {
            out.push_str(file);
            if let (Some(l), Some(c)) = (line, column) {
                let _ = write!(out, ":{l}:{c}");
            }
        };
        let _ = match s {
            Source::ChartDefault { chart, file, line, column } => {
                at(out, file, line, column);
                write!(out, " (chart {chart} default)")
            }
            Source::ParentValues { chart, file, line, column } => {
                at(out, file, line, column);
                write!(out, " (parent chart {chart})")
            }
            Source::ValuesFile { file, line, column } => {
                out.push_str("-f ");
                at(out, file, line, column);
                Ok(())
            }
            Source::SetFlag { flag, index, expr } => write!(out, "{flag}[{index}] {expr}"),
            Source::ImportValues { chart, from, .. } => write!(out, "import-values from {chart} ({from})"),
            Source::Global { from_chart } => write!(out, "global from {from_chart}"),
            Source::ReleaseConfig { revision } => write!(out, "release config (revision {revision})"),
            Source::StoredChart { chart, revision } => write!(out, "values of the chart stored in revision {revision} (chart {chart} default)"),
            Source::Helm { why } => write!(out, "helm ({why})"),
            Source::Fact { name } => write!(out, "{name}"),
            Source::Unset { .. } => write!(out, "not set"),
            Source::Helmfile { layer, file, line, column, expr, via, .. } => {
                if let Some(via) = via {
                    via.describe_into(out);
                    out.push_str(" via state values -> ");
                }
                if let Some(file) = file {
                    at(out, file, line, column);
                    out.push(' ');
                }
                if let Some(expr) = expr {
                    let _ = write!(out, "{expr} ");
                }
                write!(out, "(helmfile {layer})")
            }
            werf => write!(out, "{}", werf.werf_label().unwrap_or_default()),
        };
    }

    /// The source inside a sentence of `voice`'s messages.
    pub fn phrase(&self, voice: Voice) -> String {
        match voice {
            Voice::Upgrade => match self {
                Source::ValuesFile { file, line: Some(l), column: Some(c) } => format!("-f {file}:{l}:{c}"),
                Source::ValuesFile { file, .. } => format!("-f {file}"),
                Source::SetFlag { flag, index, expr } => format!("{flag}[{index}] {expr}"),
                Source::ReleaseConfig { revision } => format!("the config of revision {revision}"),
                Source::StoredChart { revision, .. } => format!("the chart stored in revision {revision}"),
                Source::ChartDefault { chart, .. } | Source::ParentValues { chart, .. } => format!("chart {chart}'s values.yaml"),
                Source::ImportValues { chart, from, .. } => format!("import-values from {chart} ({from})"),
                Source::Global { from_chart } => format!("global from {from_chart}"),
                Source::Helm { why } => why.clone(),
                Source::Helmfile { layer, file, .. } => format!("helmfile {layer} {}", file.as_deref().unwrap_or("")).trim_end().to_string(),
                werf => werf.werf_label().unwrap_or_default(),
            },
            // werf names `-f` by its own flag, `--values`.
            Voice::Werf => self.werf_label().unwrap_or_else(|| match self {
                Source::ValuesFile { file, line: Some(l), column: Some(c) } => format!("--values {file}:{l}:{c}"),
                Source::ValuesFile { file, .. } => format!("--values {file}"),
                Source::SetFlag { flag, index, expr } => format!("{flag}[{index}] {expr}"),
                Source::ChartDefault { chart, .. } | Source::ParentValues { chart, .. } => format!("chart {chart}'s values.yaml"),
                other => other.kind_word().to_string(),
            }),
        }
    }
}

/// Whose sentence a [`Source::phrase`] goes into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Voice {
    /// upgrade-preview's causes ("dropped: set by the config of revision 3").
    Upgrade,
    /// werf's notes on its documented order.
    Werf,
}

impl Source {
    /// Whether the user gave this value (a values file, a flag, the stored
    /// config of a release, a helmfile or werf layer), not a chart default
    /// or something Helm or werf derived from one.
    pub fn is_user_given(&self) -> bool {
        match self {
            Source::ValuesFile { .. }
            | Source::SetFlag { .. }
            | Source::ReleaseConfig { .. }
            | Source::WerfSecretValues { chart_default: false, .. }
            | Source::WerfEnv { .. } => true,
            // Every helmfile layer is the user's (state values, release values).
            Source::Helmfile { .. } => true,
            Source::ChartDefault { .. }
            | Source::StoredChart { .. }
            | Source::ParentValues { .. }
            | Source::ImportValues { .. }
            | Source::Global { .. }
            | Source::Helm { .. }
            | Source::Fact { .. }
            | Source::Unset { .. }
            | Source::WerfSecretValues { .. }
            | Source::WerfAuxiliary { .. }
            | Source::ExportValues { .. } => false,
        }
    }
}
