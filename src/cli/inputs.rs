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
    let chart = crate::chart::load(located.path())?;
    if !pull.dependency_update || chart.check_dependencies().is_ok() {
        return Ok((located, chart));
    }
    let located = fetch::update_dependencies(located, &options, helm.as_deref())?;
    let chart = crate::chart::load(located.path())?;
    Ok((located, chart))
}

/// `$HELM_BIN` (Helm sets it for plugins), else `helm` on PATH.
pub fn find_helm(ctx: &Ctx) -> Option<std::path::PathBuf> {
    if let Some(bin) = ctx.env.get("HELM_BIN").filter(|b| !b.is_empty()) {
        return Some(bin.into());
    }
    let path = ctx.env.get("PATH")?;
    std::env::split_paths(path).map(|d| d.join("helm")).find(|p| p.is_file())
}

/// Reads the value flags' files (`-` is stdin, once) into what the values
/// engine takes; the flags keep Helm's kind order there.
pub fn value_flags(args: &super::args::ValueFlagArgs) -> anyhow::Result<ValueFlags> {
    let mut files = Vec::new();
    let mut stdin_used = false;
    for name in args.values.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let text = if name == "-" {
            anyhow::ensure!(!stdin_used, "-f - can be given once (stdin is read once)");
            stdin_used = true;
            let mut buf = String::new();
            std::io::stdin().read_to_string(&mut buf).context("cannot read stdin")?;
            buf
        } else {
            std::fs::read_to_string(name).with_context(|| format!("cannot read values file {name}"))?
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

