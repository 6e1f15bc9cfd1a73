//! What the commands share when reading their inputs: where release records
//! come from (flags and `HELM_*` resolved into a `storage::Location`).

use std::io::Read;

use anyhow::{Context as _, bail};

use super::Ctx;
use super::args::{SourceArgs, StorageDriver};
use super::context::kube_target;
use crate::chart::fetch::{self, Located};
use crate::release::Driver;
pub use crate::storage::Loaded;
use crate::values::user::{ValueFlags, ValuesFile};
use crate::storage::{self, Location};

/// The records the user pointed at: files or stdin, the cluster, or Helm's
/// SQL database.
pub fn load(src: &SourceArgs, name: Option<&str>, ctx: &Ctx) -> anyhow::Result<Loaded> {
    let location = location(src, name, ctx)?;
    let _phase = crate::timings::phase("read records");
    Ok(storage::load(&location, name, &mut std::io::stdin().lock())?)
}

fn location(src: &SourceArgs, name: Option<&str>, ctx: &Ctx) -> anyhow::Result<Location> {
    if !src.files.is_empty() {
        return Ok(Location::Files(src.files.clone()));
    }
    if name.is_none() {
        return Err(storage::StorageError::NoReleaseName.into());
    }
    Ok(match src.driver.unwrap_or(StorageDriver::Secret) {
        StorageDriver::Sql => {
            let Some(conn) = &src.sql_connection else {
                bail!("--driver sql needs --sql-connection (or HELM_DRIVER_SQL_CONNECTION_STRING), e.g. postgres://user@host:5432/helm?sslmode=disable");
            };
            // Helm's SQL driver filters by the namespace Helm resolved (always set under Helm).
            let namespace = ctx
                .global
                .namespace
                .clone()
                .or_else(|| ctx.env.is_helm_plugin().then(|| ctx.env.get("HELM_NAMESPACE").map(str::to_string)).flatten())
                .unwrap_or_else(|| "default".to_string());
            Location::Sql { connection: conn.clone(), namespace }
        }
        driver => {
            let driver = if driver == StorageDriver::ConfigMap { Driver::ConfigMap } else { Driver::Secret };
            Location::Kubernetes { target: kube_target(&ctx.global, &ctx.env), driver }
        }
    })
}

/// CHART as `helm upgrade` finds it (a path, or downloaded by the user's
/// Helm into a temporary directory that lives as long as the returned
/// [`Located`]), loaded; with `--dependency-update` and a dependency missing
/// from `charts/`, fetched into a temporary copy and loaded again
/// (helm: pkg/action/upgrade.go).
pub fn chart(path: &std::path::Path, pull: &super::helm_flags::ChartPullArgs, ctx: &Ctx) -> anyhow::Result<(Located, crate::chart::Chart)> {
    chart_after(path, pull, ctx, || Ok(())).map(|(located, chart, ())| (located, chart))
}

/// [`chart`], running `before_load` once CHART is located and before it is
/// loaded: Helm's CLI merges the value flags there (helm: pkg/cmd/install.go
/// runInstall: LocateChart, MergeValues, loader.Load), so their errors come
/// before the chart's own.
pub fn chart_after<T>(
    path: &std::path::Path,
    pull: &super::helm_flags::ChartPullArgs,
    ctx: &Ctx,
    before_load: impl FnOnce() -> anyhow::Result<T>,
) -> anyhow::Result<(Located, crate::chart::Chart, T)> {
    let password = if pull.password_stdin {
        let mut buf = String::new();
        std::io::stdin().read_to_string(&mut buf).context("--password-stdin: cannot read the password from stdin")?;
        Some(buf.trim_end_matches(['\r', '\n']).to_string())
    } else {
        None
    };
    let options = pull.options(password);
    let helm = find_helm(ctx);
    let located = fetch::locate(path, &options, helm.as_deref())?;
    let before = before_load()?;
    let chart = crate::chart::load(located.path())?;
    if !pull.dependency_update || chart.check_dependencies().is_ok() {
        return Ok((located, chart, before));
    }
    let located = fetch::update_dependencies(located, &options, helm.as_deref())?;
    let chart = crate::chart::load(located.path())?;
    Ok((located, chart, before))
}

/// `$HELM_BIN` (Helm sets it for plugins), else `helm` on PATH.
pub fn find_helm(ctx: &Ctx) -> Option<std::path::PathBuf> {
    if let Some(bin) = ctx.env.get("HELM_BIN").filter(|b| !b.is_empty()) {
        return Some(bin.into());
    }
    let path = ctx.env.get("PATH")?;
    std::env::split_paths(path).map(|d| d.join("helm")).find(|p| p.is_file())
}

/// The parse error of the first of `files` that Helm would refuse: Helm
/// reads and parses each `-f` file before it opens the next (helm:
/// pkg/cli/values/options.go MergeValues), so such a file is the error
/// even when a later one cannot be read. Parsing twice costs only here.
fn first_bad_file(files: &[ValuesFile]) -> Option<anyhow::Error> {
    let earlier = ValueFlags { files: files.to_vec(), ..ValueFlags::default() };
    let mut no_reads = |_: &str| Ok(String::new());
    crate::values::user::user_values(&earlier, &mut no_reads, &mut crate::values::tree::Recorder::default()).err().map(Into::into)
}

/// The `-f` names as Helm takes them: each flag value one CSV record (pflag
/// `StringSlice`: quotes, no trimming, empty names kept; `""` gives none),
/// each name then a URL (helm: pkg/cli/values/options.go readFile `url.Parse`,
/// which refuses control characters).
fn value_file_names(values: &[String]) -> anyhow::Result<Vec<String>> {
    let mut names = Vec::new();
    for v in values {
        let record = crate::go::csv::first_record(v)
            .map_err(|e| anyhow::anyhow!("invalid argument {} for \"-f, --values\" flag: {e}", crate::go::quote::quote(v)))?;
        names.extend(record);
    }
    Ok(names)
}

/// Go's `url.Parse` refusal that Helm's readFile reports before reading.
fn url_parse_error(name: &str) -> Option<String> {
    name.bytes()
        .any(|b| b < 0x20 || b == 0x7F)
        .then(|| format!("parse {}: net/url: invalid control character in URL", crate::go::quote::quote(name)))
}

/// `--set-file`'s reader: the file as Helm reads it (`os.ReadFile`, Go's
/// error words; bytes that are not UTF-8 are kept as Go keeps them in a
/// string, shown as U+FFFD the way `encoding/json` prints them).
pub fn set_file_reader(path: &str) -> Result<String, String> {
    if let Some(refused) = url_parse_error(path) {
        return Err(refused);
    }
    crate::go::os::read_file(path).map(|bytes| crate::go::os::lossy_string(&bytes))
}

/// Reads the value flags' files (`-` is stdin, once) into what the values
/// engine takes; the flags keep Helm's kind order there.
pub fn value_flags(args: &super::args::ValueFlagArgs) -> anyhow::Result<ValueFlags> {
    let mut files = Vec::new();
    let mut stdin_used = false;
    for name in value_file_names(&args.values)? {
        let name = name.as_str();
        let text = if name.trim() == "-" {
            anyhow::ensure!(!stdin_used, "-f - can be given once (stdin is read once)");
            stdin_used = true;
            let mut buf = String::new();
            std::io::stdin().read_to_string(&mut buf).context("cannot read stdin")?;
            buf
        } else {
            // helm: pkg/cli/values/options.go readFile -> os.ReadFile, its error as Go words it.
            let read = url_parse_error(name).map_or_else(|| crate::go::os::read_file(name), Err);
            let bytes = match read {
                Ok(bytes) => bytes,
                Err(unreadable) => return Err(first_bad_file(&files).unwrap_or_else(|| anyhow::Error::msg(unreadable))),
            };
            match crate::yaml::values_text(bytes, name) {
                Ok(text) => text,
                Err(e) => return Err(first_bad_file(&files).unwrap_or_else(|| crate::values::user::UserValuesError::File(e).into())),
            }
        };
        files.push(ValuesFile { name: name.to_string(), text });
    }
    let flags = ValueFlags {
        files,
        set_json: args.set_json.clone(),
        set: args.set.clone(),
        set_string: args.set_string.clone(),
        set_file: args.set_file.clone(),
        set_literal: args.set_literal.clone(),
    };
    Ok(flags)
}

