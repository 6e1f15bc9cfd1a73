//! Running `helm template` the way `helm upgrade` would render.
//! helm: pkg/cmd/template.go (flags), pkg/cmd/flags.go, pkg/action/action.go
//! (GetVersionSet).

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// One `helm template` run. The caller decides everything (binary, cluster
/// access); nothing is read from the environment here.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateRequest {
    pub helm_bin: PathBuf,
    pub release: String,
    pub chart: PathBuf,
    pub namespace: String,
    /// The user-supplied values Helm should merge over the chart's defaults,
    /// written to one temporary values file.
    pub values: Value,
    /// `--set` expressions applied after the values file. A values file can
    /// only give float64 numbers; these restore the int64 ones `--set` gave.
    pub set_values: Vec<String>,
    /// `--kube-version`: `.Capabilities.KubeVersion` (Helm's default without
    /// a cluster is its compiled-in client-go version).
    pub kube_version: Option<String>,
    /// `--api-versions`, appended by Helm to its built-in default set (it
    /// does not replace it); see [`api_version_flags`].
    pub api_versions: Vec<String>,
    /// `--is-upgrade`: `.Release.IsUpgrade` true, `.Release.IsInstall` false
    /// (`.Release.Revision` stays 1 in `helm template`).
    pub is_upgrade: bool,
    /// `--dry-run=server`: Helm talks to the cluster, so `lookup` answers and
    /// capabilities come from discovery (then `--api-versions` is ignored).
    pub server_dry_run: bool,
    pub kube_context: Option<String>,
    pub kubeconfig: Option<PathBuf>,
    pub options: RenderOptions,
}

/// The `helm upgrade` flags that change the rendering itself, passed to
/// `helm template` as the user gave them (helm: pkg/cmd/flags.go
/// addPostRenderFlags; pkg/action/action.go renderResources). The
/// capability overrides replace (`kube_version`) or extend
/// (`api_versions`) what discovery reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// Helm 4: a postrenderer plugin's name; Helm 3: an executable.
    pub post_renderer: Option<String>,
    pub post_renderer_args: Vec<String>,
    /// `--enable-dns`: `getHostByName` resolves (else it returns "").
    pub enable_dns: bool,
    pub kube_version: Option<String>,
    pub api_versions: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("cannot write the temporary values file: {0}")]
    ValuesFile(#[source] std::io::Error),
    #[error("cannot run {}: {source}", bin.display())]
    Spawn {
        bin: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Helm exited non-zero; `stderr` is Helm's message as printed.
    #[error("helm template failed ({}): {}", status.map_or_else(|| "killed".to_string(), |c| format!("exit {c}")), stderr.trim_end())]
    Helm { status: Option<i32>, stderr: String },
    #[error("helm template printed output that is not UTF-8")]
    NotUtf8,
}

/// The arguments after the binary, with `values_file` as the only `-f`.
pub fn template_args(req: &TemplateRequest, values_file: &Path) -> Vec<OsString> {
    let mut a: Vec<OsString> = vec!["template".into(), req.release.clone().into(), chart_arg(&req.chart)];
    a.extend(["--namespace".into(), req.namespace.clone().into()]);
    a.extend(["-f".into(), values_file.as_os_str().to_owned()]);
    for expr in &req.set_values {
        a.extend(["--set".into(), expr.into()]);
    }
    if req.is_upgrade {
        a.push("--is-upgrade".into());
    }
    if let Some(v) = &req.kube_version {
        a.extend(["--kube-version".into(), v.into()]);
    }
    for v in &req.api_versions {
        // One flag per entry: the flag is a string slice read as CSV, so a
        // comma inside one value would split it.
        a.extend(["--api-versions".into(), v.into()]);
    }
    if req.server_dry_run {
        a.push("--dry-run=server".into());
    }
    if let Some(p) = &req.options.post_renderer {
        a.extend(["--post-renderer".into(), p.into()]);
    }
    for arg in &req.options.post_renderer_args {
        a.extend(["--post-renderer-args".into(), arg.into()]);
    }
    if req.options.enable_dns {
        a.push("--enable-dns".into());
    }
    if let Some(c) = &req.kube_context {
        a.extend(["--kube-context".into(), c.into()]);
    }
    if let Some(k) = &req.kubeconfig {
        a.extend(["--kubeconfig".into(), k.as_os_str().to_owned()]);
    }
    a
}

/// A chart path that cannot be read as a flag.
fn chart_arg(chart: &Path) -> OsString {
    if chart.as_os_str().to_string_lossy().starts_with('-') {
        Path::new(".").join(chart).into_os_string()
    } else {
        chart.as_os_str().to_owned()
    }
}

/// Runs `helm template` and returns what it printed on stdout. The values
/// file is removed when this returns, whatever happened (the temporary file
/// deletes itself on drop, also on unwinding).
pub fn helm_template(req: &TemplateRequest) -> Result<String, RenderError> {
    let _phase = crate::timings::phase("render (helm template)");
    let mut file = tempfile::Builder::new()
        .prefix("releasex-values-")
        .suffix(".yaml")
        .tempfile()
        .map_err(RenderError::ValuesFile)?;
    // JSON is YAML, and it keeps every value exactly as the caller built it.
    let text = serde_json::to_string(&values_or_empty(&req.values)).map_err(|e| RenderError::ValuesFile(e.into()))?;
    file.write_all(text.as_bytes()).and_then(|()| file.flush()).map_err(RenderError::ValuesFile)?;
    let output = Command::new(&req.helm_bin)
        .args(template_args(req, file.path()))
        .output()
        .map_err(|source| RenderError::Spawn { bin: req.helm_bin.clone(), source })?;
    drop(file);
    if !output.status.success() {
        return Err(RenderError::Helm {
            status: output.status.code(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    String::from_utf8(output.stdout).map_err(|_| RenderError::NotUtf8)
}

/// A copy of the chart (a directory, or a `.tgz` unpacked) whose values.yaml
/// is `values`: how `helm template` can render what `helm upgrade
/// --reuse-values` renders, since that mode replaces the chart's values.yaml
/// with the old release's values. The copy lives as long as the returned
/// directory; `.1` is the chart's path inside it.
pub fn chart_with_values(chart: &Path, values: &Value) -> Result<(tempfile::TempDir, PathBuf), RenderError> {
    let dir = tempfile::Builder::new().prefix("releasex-chart-").tempdir().map_err(RenderError::ValuesFile)?;
    let root = if chart.is_dir() {
        let target = dir.path().join("chart");
        crate::chart::fetch::copy_dir(chart, &target).map_err(RenderError::ValuesFile)?;
        target
    } else {
        let file = std::fs::File::open(chart).map_err(RenderError::ValuesFile)?;
        tar::Archive::new(flate2::read::GzDecoder::new(file)).unpack(dir.path()).map_err(RenderError::ValuesFile)?;
        // A chart archive holds one top directory, the chart.
        let mut tops = std::fs::read_dir(dir.path()).map_err(RenderError::ValuesFile)?.filter_map(Result::ok).filter(|e| e.path().is_dir());
        match (tops.next(), tops.next()) {
            (Some(top), None) => top.path(),
            _ => return Err(RenderError::ValuesFile(std::io::Error::other(format!("{} does not hold exactly one chart directory", chart.display())))),
        }
    };
    let text = serde_json::to_string(&values_or_empty(values)).map_err(|e| RenderError::ValuesFile(e.into()))?;
    std::fs::write(root.join("values.yaml"), text).map_err(RenderError::ValuesFile)?;
    Ok((dir, root))
}

/// Helm reads `null` in a values file as no values; an empty map says so plainly.
fn values_or_empty(v: &Value) -> Value {
    if v.is_null() { Value::Object(Default::default()) } else { v.clone() }
}

/// `--api-versions` entries for what a cluster serves, as Helm's
/// `GetVersionSet` builds `.Capabilities.APIVersions` from discovery: every
/// `group/version` and every `group/version/Kind` (core group: `v1`,
/// `v1/Pod`). Sorted and without duplicates (Helm's set is a Go map).
/// Passed to `helm template`, they are added to Helm's built-in defaults, so
/// `Has` is also true for the defaults a cluster may not serve.
pub fn api_version_flags(discovered: &[(String, Vec<String>)]) -> Vec<String> {
    let mut set = BTreeSet::new();
    for (gv, kinds) in discovered {
        set.insert(gv.clone());
        for k in kinds {
            set.insert(format!("{gv}/{k}"));
        }
    }
    set.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req() -> TemplateRequest {
        TemplateRequest {
            helm_bin: "helm".into(),
            release: "rel".into(),
            chart: "./chart".into(),
            namespace: "ns".into(),
            values: Value::Null,
            kube_version: None,
            api_versions: vec![],
            is_upgrade: false,
            server_dry_run: false,
            kube_context: None,
            kubeconfig: None,
            set_values: Vec::new(),
            options: RenderOptions::default(),
        }
    }

    fn strings(a: Vec<OsString>) -> Vec<String> {
        a.into_iter().map(|s| s.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn minimal_request_passes_name_chart_namespace_and_one_values_file() {
        assert_eq!(strings(template_args(&req(), Path::new("/t/v.yaml"))), ["template", "rel", "./chart", "--namespace", "ns", "-f", "/t/v.yaml"]);
    }

    #[test]
    fn every_capability_and_cluster_option_becomes_its_helm_flag() {
        let r = TemplateRequest {
            kube_version: Some("v1.30.2".into()),
            api_versions: vec!["v1/Pod".into(), "a.io/v1/X".into()],
            is_upgrade: true,
            server_dry_run: true,
            kube_context: Some("ctx".into()),
            kubeconfig: Some("/k/config".into()),
            ..req()
        };
        let a = strings(template_args(&r, Path::new("v.yaml")));
        assert_eq!(
            a[7..],
            [
                "--is-upgrade", "--kube-version", "v1.30.2", "--api-versions", "v1/Pod", "--api-versions", "a.io/v1/X",
                "--dry-run=server", "--kube-context", "ctx", "--kubeconfig", "/k/config"
            ]
        );
    }

    #[test]
    fn a_chart_path_starting_with_a_dash_is_not_taken_for_a_flag() {
        let r = TemplateRequest { chart: "-odd".into(), ..req() };
        assert_eq!(strings(template_args(&r, Path::new("v")))[2], "./-odd");
    }

    #[test]
    fn api_version_flags_list_group_versions_and_kinds_once_each() {
        let got = api_version_flags(&[
            ("v1".into(), vec!["Pod".into(), "Pod".into()]),
            ("apps/v1".into(), vec!["Deployment".into(), "Scale".into()]),
            ("apps/v1".into(), vec![]),
        ]);
        assert_eq!(got, ["apps/v1", "apps/v1/Deployment", "apps/v1/Scale", "v1", "v1/Pod"]);
    }

    #[test]
    fn a_missing_binary_is_a_spawn_error() {
        let dir = tempfile::tempdir().unwrap();
        let r = TemplateRequest { helm_bin: dir.path().join("no-helm"), ..req() };
        assert!(matches!(helm_template(&r), Err(RenderError::Spawn { .. })));
    }
}
