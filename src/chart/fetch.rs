//! Charts that are not on disk yet: CHART as `helm upgrade` takes it.
//!
//! helm: pkg/action/install.go (`ChartPathOptions.LocateChart`), which
//! `helm upgrade` and `helm install` both call:
//! - a path that exists (directory or archive) is used as it is, unless
//!   `--repo` is given;
//! - an absolute path, or one starting with `.`, that does not exist fails:
//!   `path "./x" not found`;
//! - anything else is downloaded: `REPO/NAME` from the user's repositories,
//!   `NAME` with `--repo URL`, `oci://HOST/PATH`, or an `http(s)://` URL of
//!   an archive, with `--version` (a semver constraint; `--devel` means
//!   `>0.0.0-0` when no version is given).
//!
//! The download is Helm's own: `helm pull` with the same flags, so the
//! user's repositories, registry logins, caches, mirrors and certificates
//! work exactly as they do for `helm upgrade`. The archive lands in a
//! temporary directory that is removed when the [`Located`] chart is
//! dropped, on every path out of the command (an interrupting signal is the
//! one exception: the operating system's temporary directory keeps it).
//!
//! `--dependency-update` (pkg/action/upgrade.go, pkg/downloader/manager.go):
//! only when a dependency is missing from `charts/`, Helm runs the
//! dependency manager on the chart directory and loads it again. Helm writes
//! the fetched archives into the user's chart; a preview must not, so here
//! the chart is copied to the temporary directory first and the manager
//! (`helm dependency update`) runs on the copy.
//!
//! Nothing here reads the environment: the caller names the Helm binary,
//! and the child inherits the process environment (Helm's `HELM_*`
//! settings) unchanged.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Helm's chart download flags (pkg/cmd/flags.go `addChartPathOptionsFlags`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PullOptions {
    pub version: Option<String>,
    pub devel: bool,
    pub repo: Option<String>,
    pub username: Option<String>,
    pub password: Option<String>,
    pub pass_credentials: bool,
    pub ca_file: Option<PathBuf>,
    pub cert_file: Option<PathBuf>,
    pub key_file: Option<PathBuf>,
    pub insecure_skip_tls_verify: bool,
    pub plain_http: bool,
    pub keyring: Option<PathBuf>,
    pub verify: bool,
}

impl PullOptions {
    /// The flags as `helm pull` (and `helm dependency update`, for the
    /// subset it has) reads them. The password is passed on Helm's command
    /// line, as helmfile and helm-diff do.
    fn pull_args(&self) -> Vec<OsString> {
        let mut a: Vec<OsString> = Vec::new();
        let mut value = |flag: &str, v: &Option<String>| {
            if let Some(v) = v {
                a.push(format!("--{flag}").into());
                a.push(v.into());
            }
        };
        value("version", &self.version);
        value("repo", &self.repo);
        value("username", &self.username);
        value("password", &self.password);
        for (flag, path) in [("ca-file", &self.ca_file), ("cert-file", &self.cert_file), ("key-file", &self.key_file), ("keyring", &self.keyring)] {
            if let Some(p) = path {
                a.push(format!("--{flag}").into());
                a.push(p.as_os_str().to_owned());
            }
        }
        for (flag, on) in [
            ("devel", self.devel),
            ("pass-credentials", self.pass_credentials),
            ("insecure-skip-tls-verify", self.insecure_skip_tls_verify),
            ("plain-http", self.plain_http),
            ("verify", self.verify),
        ] {
            if on {
                a.push(format!("--{flag}").into());
            }
        }
        a
    }
}

/// Where the chart to load is.
#[derive(Debug)]
pub enum Located {
    /// On disk already, as the user named it.
    Local(PathBuf),
    /// Downloaded (or copied for `--dependency-update`) into a temporary
    /// directory that lives as long as this value.
    Temporary {
        dir: tempfile::TempDir,
        path: PathBuf,
        /// What the user named (`repo/web`, `oci://...`), for messages.
        reference: String,
    },
}

impl Located {
    /// The chart directory or archive to load and to give `helm template`.
    pub fn path(&self) -> &Path {
        match self {
            Located::Local(p) | Located::Temporary { path: p, .. } => p,
        }
    }

    /// `Some(reference)` when the chart came from a repository or registry.
    pub fn remote_reference(&self) -> Option<&str> {
        match self {
            Located::Temporary { reference, .. } if !reference.is_empty() => Some(reference),
            _ => None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// Helm's own wording (pkg/action/install.go).
    #[error("path \"{0}\" not found")]
    PathNotFound(String),
    #[error(
        "{chart:?} names a chart in a repository or registry, and fetching it needs Helm: install helm, or set HELM_BIN to its path \
         (releasex runs `helm pull` so that your repositories, registry logins and certificates apply as for helm upgrade)"
    )]
    NoHelm { chart: String },
    #[error("cannot create a temporary directory for the chart: {0}")]
    TempDir(#[source] std::io::Error),
    #[error("cannot run {}: {source}", bin.display())]
    Spawn {
        bin: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Helm's message as it printed it (`Error: ...`).
    #[error("cannot fetch the chart {chart:?}: helm {step} failed: {stderr}")]
    Helm { chart: String, step: &'static str, stderr: String },
    #[error("helm pull {chart:?} wrote no chart archive")]
    NoArchive { chart: String },
    #[error("cannot copy the chart {} for --dependency-update: {source}", path.display())]
    Copy {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("--dependency-update needs a chart directory; {} is an archive (helm upgrade fails the same way)", .0.display())]
    DependencyUpdateOnArchive(PathBuf),
}

/// True when CHART is downloaded rather than read from disk (Helm's order).
pub fn is_remote(chart: &Path, options: &PullOptions) -> bool {
    options.repo.is_some() || !chart.exists()
}

/// Finds CHART as `helm upgrade` does, downloading it with `helm_bin` when
/// it is not a local path.
pub fn locate(chart: &Path, options: &PullOptions, helm_bin: Option<&Path>) -> Result<Located, FetchError> {
    let name = chart.to_string_lossy().trim().to_string();
    if !is_remote(chart, options) {
        if options.verify {
            let bin = helm_bin.ok_or_else(|| FetchError::NoHelm { chart: name.clone() })?;
            let mut args: Vec<OsString> = vec!["verify".into(), chart.as_os_str().to_owned()];
            if let Some(k) = &options.keyring {
                args.extend(["--keyring".into(), k.as_os_str().to_owned()]);
            }
            run_helm(bin, &args, &name, "verify")?;
        }
        return Ok(Located::Local(chart.to_path_buf()));
    }
    if options.repo.is_none() && (chart.is_absolute() || name.starts_with('.')) {
        return Err(FetchError::PathNotFound(name));
    }
    let bin = helm_bin.ok_or_else(|| FetchError::NoHelm { chart: name.clone() })?;
    let dir = tempdir()?;
    let mut args: Vec<OsString> = vec!["pull".into(), name.clone().into(), "--destination".into(), dir.path().as_os_str().to_owned()];
    args.extend(options.pull_args());
    run_helm(bin, &args, &name, "pull")?;
    let archive = std::fs::read_dir(dir.path())
        .map_err(FetchError::TempDir)?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "tgz"))
        .ok_or_else(|| FetchError::NoArchive { chart: name.clone() })?;
    Ok(Located::Temporary { dir, path: archive, reference: name })
}

/// `--dependency-update` for a chart whose dependencies are missing: the
/// chart directory copied into a temporary directory, `helm dependency
/// update` run there, the copy returned. The user's directory is not
/// touched.
pub fn update_dependencies(located: Located, options: &PullOptions, helm_bin: Option<&Path>) -> Result<Located, FetchError> {
    let source = located.path().to_path_buf();
    if !source.is_dir() {
        return Err(FetchError::DependencyUpdateOnArchive(source));
    }
    let chart = source.display().to_string();
    let bin = helm_bin.ok_or_else(|| FetchError::NoHelm { chart: chart.clone() })?;
    let dir = tempdir()?;
    let name = source.canonicalize().ok().and_then(|p| p.file_name().map(ToOwned::to_owned)).unwrap_or_else(|| "chart".into());
    let copy = dir.path().join(name);
    copy_dir(&source, &copy).map_err(|e| FetchError::Copy { path: source.clone(), source: e })?;
    let mut args: Vec<OsString> = vec!["dependency".into(), "update".into(), copy.as_os_str().to_owned()];
    if let Some(k) = &options.keyring {
        args.extend(["--keyring".into(), k.as_os_str().to_owned()]);
    }
    if options.verify {
        args.push("--verify".into());
    }
    if options.plain_http {
        args.push("--plain-http".into());
    }
    run_helm(bin, &args, &chart, "dependency update")?;
    let reference = match &located {
        Located::Temporary { reference, .. } => reference.clone(),
        Located::Local(_) => String::new(),
    };
    Ok(Located::Temporary { dir, path: copy, reference })
}

fn tempdir() -> Result<tempfile::TempDir, FetchError> {
    tempfile::Builder::new().prefix("releasex-chart-").tempdir().map_err(FetchError::TempDir)
}

fn run_helm(bin: &Path, args: &[OsString], chart: &str, step: &'static str) -> Result<(), FetchError> {
    // Helm prints progress on stdout (`Pulled: ...`, `Saving 1 charts`);
    // only its error matters here.
    let output = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| FetchError::Spawn { bin: bin.to_path_buf(), source })?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stderr = stderr.trim().strip_prefix("Error: ").unwrap_or(stderr.trim()).to_string();
    Err(FetchError::Helm { chart: chart.into(), step, stderr })
}

/// A chart directory copied as Helm's loader reads it: recursively, symlinks
/// followed. For the temporary copies of a chart (`--dependency-update`
/// here, the values-replaced copy `render` makes for `--reuse-values`).
pub fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_path_that_starts_with_a_dot_or_slash_fails_with_helms_words() {
        for name in ["./no-such-chart", "/no/such/chart"] {
            let e = locate(Path::new(name), &PullOptions::default(), None).unwrap_err();
            assert_eq!(e.to_string(), format!("path \"{name}\" not found"));
        }
    }

    #[test]
    fn a_repository_reference_without_helm_says_what_is_needed() {
        let e = locate(Path::new("bitnami/nginx"), &PullOptions::default(), None).unwrap_err();
        assert!(matches!(e, FetchError::NoHelm { .. }), "{e}");
        assert!(e.to_string().contains("HELM_BIN"), "{e}");
    }

    #[test]
    fn an_existing_path_is_local_unless_repo_is_given() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert!(matches!(locate(here, &PullOptions::default(), None), Ok(Located::Local(_))));
        let with_repo = PullOptions { repo: Some("https://charts.example".into()), ..Default::default() };
        assert!(is_remote(here, &with_repo));
    }

    #[test]
    fn pull_flags_are_helms_flags() {
        let o = PullOptions {
            version: Some("^1.2".into()),
            devel: true,
            plain_http: true,
            ca_file: Some("/ca.pem".into()),
            ..Default::default()
        };
        let args: Vec<String> = o.pull_args().iter().map(|a| a.to_string_lossy().into_owned()).collect();
        assert_eq!(args, ["--version", "^1.2", "--ca-file", "/ca.pem", "--devel", "--plain-http"]);
    }
}
