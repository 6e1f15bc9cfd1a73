//! Gathers stored records from where the user pointed: files, stdin,
//! directories, the cluster, or Helm's SQL database.

use std::io::Read;
use std::path::Path;

use anyhow::{Context as _, bail};

use super::Ctx;
use super::args::{SourceArgs, StorageDriver};
use super::context::kube_target;
use crate::cluster::ReadOnlyCluster;
use crate::release::{Driver, StoredRecord, source};

/// Records plus a phrase naming where they came from (for messages).
pub struct Loaded {
    pub records: Vec<StoredRecord>,
    pub place: String,
}

pub fn load(src: &SourceArgs, name: Option<&str>, ctx: &Ctx) -> anyhow::Result<Loaded> {
    if !src.files.is_empty() {
        return load_files(&src.files);
    }
    let Some(name) = name else {
        bail!("name the release to read from the cluster (NAME), or read records from a file with -f FILE");
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start the async runtime")?;
    match src.driver.unwrap_or(StorageDriver::Secret) {
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
            let records = runtime.block_on(crate::release::sql::list_release_rows(conn, &namespace, name))?;
            Ok(Loaded { records, place: format!("SQL table releases_v1 rows with name={name}, owner=helm in namespace {namespace:?}") })
        }
        driver => {
            let driver = if driver == StorageDriver::ConfigMap { Driver::ConfigMap } else { Driver::Secret };
            let target = kube_target(&ctx.global, &ctx.env);
            runtime.block_on(async {
                let cluster = ReadOnlyCluster::connect(&target).await?;
                let records = cluster.list_release_records(name, driver).await?;
                let kind = if driver == Driver::ConfigMap { "ConfigMaps" } else { "Secrets" };
                let place = format!(
                    "{kind} labelled owner=helm,name={name} in namespace {:?} of {}",
                    cluster.namespace(),
                    cluster.server()
                );
                Ok(Loaded { records, place })
            })
        }
    }
}

fn load_files(paths: &[std::path::PathBuf]) -> anyhow::Result<Loaded> {
    let mut records = Vec::new();
    let mut names = Vec::new();
    for path in paths {
        let shown = path.display().to_string();
        names.push(if shown == "-" { "<stdin>".to_string() } else { shown.clone() });
        if shown == "-" {
            let mut buf = Vec::new();
            std::io::stdin().read_to_end(&mut buf).context("cannot read stdin")?;
            records.extend(source::parse_input("-", &buf)?);
        } else if path.is_dir() {
            records.extend(load_dir(path)?);
        } else {
            let bytes = std::fs::read(path).with_context(|| format!("cannot read {shown}"))?;
            records.extend(source::parse_input(&shown, &bytes)?);
        }
    }
    Ok(Loaded { records, place: names.join(", ") })
}

/// Every regular, non-hidden file of a directory, in name order.
fn load_dir(dir: &Path) -> anyhow::Result<Vec<StoredRecord>> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && !p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.')))
        .collect();
    entries.sort();
    if entries.is_empty() {
        bail!("directory {} holds no files", dir.display());
    }
    let mut out = Vec::new();
    for p in entries {
        let shown = p.display().to_string();
        let bytes = std::fs::read(&p).with_context(|| format!("cannot read {shown}"))?;
        out.extend(source::parse_input(&shown, &bytes)?);
    }
    Ok(out)
}
