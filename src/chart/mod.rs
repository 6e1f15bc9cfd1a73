//! Helm charts as Helm v4.2.3's loader reads them, for values purposes:
//! Chart.yaml (plus requirements.yaml for the v2 loader), the raw
//! `values.yaml` text, `values.schema.json`, and the subcharts under
//! `charts/` (directories and `.tgz`, nested at any depth); then
//! `values.schema.json` validation of the parent and every subchart.
//!
//! helm: pkg/chart/loader/load.go (apiVersion dispatch),
//! pkg/chart/v2/loader/{load,directory,archive}.go,
//! internal/chart/v3/loader (the same for `apiVersion: v3`),
//! pkg/chart/loader/archive/archive.go, pkg/ignore, internal/sympath,
//! pkg/chart/v2/{chart,metadata,dependency}.go,
//! pkg/chart/common/util/jsonschema.go.
//!
//! What is and is not loaded, as in Helm:
//! - a directory is walked in lexical order, following symlinks (a broken
//!   one fails: `error evaluating symlink`), skipping what the top chart's
//!   `.helmignore` ignores (only the top one is read; `values.yaml` and
//!   `Chart.yaml` are not special, so a rule can hide them), and refusing
//!   devices, sockets and pipes and files over 5 MiB;
//! - an archive loses its root folder, is never filtered by `.helmignore`,
//!   and is limited to 5 MiB per file and 100 MiB in all, decompressed;
//! - a UTF-8 BOM is dropped from every file;
//! - in `charts/`, entries starting with `_` or `.` are skipped, `*.prov`
//!   files are ignored, `*.tgz` files are archives, anything else is a chart
//!   directory (so a stray `charts/README.md` fails: it has no Chart.yaml);
//! - Chart.yaml is validated (`validation: chart.metadata.version is
//!   required`, ...) before the subcharts are loaded; a subchart's failure
//!   reads `error unpacking subchart NAME in PARENT: ...`.
//!
//! I/O happens only in [`load`] and in [`fetch`] (which runs `helm pull`
//! for charts that are not on disk); [`validate_values`] is pure.

mod archive;
pub mod fetch;
pub(crate) mod ignore;
mod load;
pub mod metadata;
mod schema;
mod yaml;

pub use metadata::{Dependency, ImportValue, Maintainer, Metadata, is_valid_semver};
pub use schema::{SchemaError, SchemaErrorKind, SchemaErrors, SchemaTree, validate_tree, validate_values};

use std::path::Path;

/// A loaded chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Chart.yaml, validated.
    pub metadata: Metadata,
    /// The raw text of `values.yaml` (BOM removed), `None` when the chart has
    /// none. Helm reads it with `LoadValues` (multi-document, later wins).
    pub values_text: Option<String>,
    /// How to name the values file to users, relative to the top chart:
    /// `values.yaml`, `charts/sub/values.yaml`,
    /// `charts/sub-1.2.0.tgz:sub/values.yaml` (also when the chart has none).
    pub values_file: String,
    /// `values.schema.json`, when present and valid JSON.
    pub schema: Option<serde_json::Value>,
    /// Why `values.schema.json` is not JSON. Helm loads such a chart and
    /// fails only when it validates (not with `--skip-schema-validation`), so
    /// [`validate_values`] reports it for this chart. An empty schema file
    /// counts (Go's `EOF`), except inside an archive, where Helm sees none.
    pub schema_error: Option<String>,
    /// Like `values_file`, for `values.schema.json`.
    pub schema_file: String,
    /// Like `values_file`, for `Chart.yaml`.
    pub chart_file: String,
    /// The subcharts found under `charts/`, sorted by their entry name there
    /// (Helm's order is Go map order, i.e. random; its dependency processing
    /// then puts the charts Chart.yaml lists in list order).
    pub dependencies: Vec<Chart>,
    /// The chart root for display: the path given to [`load`] for the top
    /// chart, `<parent>/charts/sub` for a directory subchart,
    /// `<parent>/charts/sub-1.2.0.tgz:sub` for an archived one.
    pub path: String,
    /// The files under `templates/`, in load order.
    pub templates: Vec<ChartFile>,
    /// Helm's loader warnings for this chart (requirements.yaml or
    /// requirements.lock in a chart whose apiVersion is not v1), in Helm's
    /// words; Helm prints them through `log.Print`.
    pub warnings: Vec<String>,
    /// Files Helm does not read but werf does, kept as text: the chart's
    /// `Chart.yaml` and `requirements.yaml` (for nelm's `export-values`) and `secret-values.yaml`.
    pub werf_files: Vec<ChartFile>,
    /// Helm's `Files` (what templates read through `.Files`): every file the
    /// loader keeps that is not Chart.yaml, values.yaml, the schema, a
    /// template or a subchart (helm: pkg/chart/v2/loader/load.go LoadFiles),
    /// `crds/` included, in load order.
    pub files: Vec<RawFile>,
}

/// A file of a chart kept as bytes (`.Files`). The bytes are shared: every
/// render's `.Files` object holds the same allocation.
#[derive(Debug, Clone, PartialEq)]
pub struct RawFile {
    pub name: String,
    pub data: std::sync::Arc<Vec<u8>>,
}

/// Bytes as text, with the bytes that are not UTF-8 replaced (as
/// `String::from_utf8_lossy`); valid UTF-8, the usual case, is checked by the
/// fast validator and copied once.
pub fn lossy_text(data: &[u8]) -> String {
    match std::str::from_utf8(data) {
        Ok(s) => s.to_owned(),
        Err(_) => String::from_utf8_lossy(data).into_owned(),
    }
}

/// A file of a chart kept as text (templates, CRDs).
#[derive(Debug, Clone, PartialEq)]
pub struct ChartFile {
    /// The path Helm gives it, relative to its chart's root: `templates/cm.yaml`.
    pub name: String,
    /// Its text; bytes that are not UTF-8 are replaced (Helm keeps bytes, but
    /// only reads these files as text).
    pub data: String,
}

impl ChartFile {
    fn from_buffered(f: &archive::BufferedFile) -> Self {
        ChartFile { name: f.name.clone(), data: lossy_text(&f.data) }
    }
}

impl Chart {
    /// The files under `crds/` that Helm treats as CRDs (`.yaml`, `.yml`,
    /// `.json`, any case), in load order; never templated. Made from
    /// [`Chart::files`] when asked (only upgrades and `--include-crds` read
    /// them): keeping a second copy cost every render megabytes of memory.
    pub fn crds(&self) -> Vec<ChartFile> {
        load::crd_files(&self.files)
    }

    /// The chart's name (Chart.yaml `name`).
    pub fn name(&self) -> &str {
        &self.metadata.name
    }

    /// This chart and every subchart below it, depth first.
    pub fn walk(&self) -> Vec<&Chart> {
        let mut out = vec![self];
        for d in &self.dependencies {
            out.extend(d.walk());
        }
        out
    }

    /// helm: action.CheckDependencies, which `helm install`, `template` and
    /// `upgrade` run on the top chart after loading it: every `dependencies`
    /// entry needs a loaded subchart of that name (not alias; the version is
    /// not checked). The error is Helm's text.
    pub fn check_dependencies(&self) -> Result<(), String> {
        let missing: Vec<&str> = self
            .metadata
            .dependencies
            .iter()
            .filter(|d| !self.dependencies.iter().any(|c| c.metadata.name == d.name))
            .map(|d| d.name.as_str())
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "found in Chart.yaml, but missing in charts/ directory: {}",
                missing.join(", ")
            ))
        }
    }
}

/// Helm's size limits (`archive.MaxDecompressedFileSize` and
/// `archive.MaxDecompressedChartSize`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest file read from a directory or an archive: 5 MiB.
    pub max_file_size: u64,
    /// Largest decompressed archive (each archive on its own): 100 MiB.
    pub max_chart_size: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_size: 5 * 1024 * 1024,
            max_chart_size: 100 * 1024 * 1024,
        }
    }
}

/// Why a chart did not load. Texts start with Helm's wording and name the
/// file (and line:column for YAML).
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    #[error("path \"{path}\" not found")]
    NotFound { path: String },
    #[error("unable to detect chart at {path}: {source}")]
    NoChartYaml {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// Helm's words first, then where, on a line of its own.
    #[error("cannot load {what}: {message}\n  at {file}:{line}:{column}")]
    Yaml {
        what: &'static str,
        file: String,
        line: u64,
        column: u64,
        message: String,
    },
    #[error("cannot load {what}: {file}: {message}")]
    Text {
        what: &'static str,
        file: String,
        message: String,
    },
    #[error("{file}: unsupported chart version (apiVersion {api_version:?})")]
    UnsupportedApiVersion { file: String, api_version: String },
    #[error("Chart.yaml file is missing (in {path})")]
    ChartYamlMissing { path: String },
    #[error("{file}: {message}")]
    Validation { file: String, message: String },
    #[error("{file}: {message}")]
    Helmignore { file: String, message: String },
    #[error("cannot load irregular file {path} as it has file mode type bits set")]
    IrregularFile { path: String },
    #[error("chart file {name} is larger than the maximum file size {limit} ({path})")]
    FileTooLarge {
        path: String,
        name: String,
        limit: u64,
    },
    #[error("error evaluating symlink {path}: {source}")]
    Symlink {
        path: String,
        source: std::io::Error,
    },
    #[error("symlink loop: {path} leads back to {target}")]
    SymlinkLoop { path: String, target: String },
    #[error("{message}")]
    NotAnArchive { message: String },
    #[error("unable to load chart archive {file}: {message}")]
    Archive { file: String, message: String },
    #[error("unable to detect chart version, no Chart.yaml found in {file}")]
    NoChartYamlInArchive { file: String },
    #[error("error unpacking subchart tar in {parent}: expected {expected}, got {got}")]
    SubchartTarMismatch {
        parent: String,
        expected: String,
        got: String,
    },
    /// The chart's own values.yaml does not parse, found while a subchart
    /// failed to load: Helm reads values.yaml first (the same words as
    /// `ExplainError::ChartValues`).
    #[error("cannot load values.yaml: {}{}", .error.helm_message, values_position(.error, .chart))]
    Values { chart: String, error: Box<crate::yaml::YamlError> },
    #[error("error unpacking subchart {name} in {parent}: {source}")]
    Subchart {
        name: String,
        parent: String,
        source: Box<ChartError>,
    },
}

/// Where a values.yaml error is, on a line of its own after Helm's text
/// (also `ExplainError::ChartValues`'s).
pub(crate) fn values_position(e: &crate::yaml::YamlError, chart: &str) -> String {
    match e.pos {
        Some(p) => format!("\n  at {}:{}:{} (chart {chart})", e.source_name, p.line, p.column),
        None => format!("\n  in {} (chart {chart})", e.source_name),
    }
}

/// Loads a chart directory or `.tgz` as Helm does (see the module docs).
pub fn load(path: &Path) -> Result<Chart, ChartError> {
    let _phase = crate::timings::phase("load chart");
    load_with_limits(path, &Limits::default())
}

/// [`load`] with other size limits.
pub fn load_with_limits(path: &Path, limits: &Limits) -> Result<Chart, ChartError> {
    load::load(path, limits)
}
