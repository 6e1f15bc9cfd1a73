//! Where Helm's release records are read from, like Helm's
//! `pkg/storage/driver`: files, stdin and directories ([`Location::Files`]);
//! Secrets or ConfigMaps through `cluster` ([`Location::Kubernetes`]);
//! Helm's SQL table ([`Location::Sql`]). The caller resolves flags and
//! environment into a [`Location`]; nothing here reads either.

pub mod sql;

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::cluster::{ClusterError, KubeTarget, ReadOnlyCluster};
use crate::release::source::{self, SourceError};
use crate::release::{Driver, StoredRecord};

/// Where to read records from, resolved from flags and environment.
#[derive(Debug, Clone)]
pub enum Location {
    /// Files, directories (every regular, non-hidden file in name order) and
    /// `-` for stdin.
    Files(Vec<PathBuf>),
    /// Secrets or ConfigMaps labelled `owner=helm,name=NAME`.
    Kubernetes { target: KubeTarget, driver: Driver },
    /// Helm's SQL driver: rows of `releases_v1` in `namespace`.
    Sql { connection: String, namespace: String },
}

/// Records plus a phrase naming where they came from (for messages).
#[derive(Debug)]
pub struct Loaded {
    pub records: Vec<StoredRecord>,
    pub place: String,
}

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("name the release to read from the cluster (NAME), or read records from a file with -f FILE")]
    NoReleaseName,
    #[error("cannot read stdin")]
    Stdin(#[source] std::io::Error),
    #[error("cannot read {path}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read directory {path}")]
    ReadDir {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("directory {path} holds no files")]
    EmptyDirectory { path: String },
    #[error("cannot start the async runtime")]
    Runtime(#[source] std::io::Error),
    #[error(transparent)]
    Source(#[from] SourceError),
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    #[error(transparent)]
    Sql(#[from] sql::SqlError),
}

/// Reads the records of release `name` (all records of the files for
/// [`Location::Files`], where the name is not needed) from `location`;
/// `stdin` is read for a file named `-`.
pub fn load(location: &Location, name: Option<&str>, stdin: &mut dyn Read) -> Result<Loaded, StorageError> {
    match (location, name) {
        (Location::Files(paths), _) => load_files(paths, stdin),
        (_, None) => Err(StorageError::NoReleaseName),
        (Location::Sql { connection, namespace }, Some(name)) => {
            let records = runtime()?.block_on(sql::list_release_rows(connection, namespace, name))?;
            Ok(Loaded { records, place: format!("SQL table releases_v1 rows with name={name}, owner=helm in namespace {namespace:?}") })
        }
        (Location::Kubernetes { target, driver }, Some(name)) => runtime()?.block_on(async {
            let cluster = ReadOnlyCluster::connect(target).await?;
            let records = cluster.list_release_records(name, *driver).await?;
            let kind = if *driver == Driver::ConfigMap { "ConfigMaps" } else { "Secrets" };
            let mut place = format!("{kind} labelled owner=helm,name={name} in namespace {:?} of {}", cluster.namespace(), cluster.server());
            // Helm looks in one namespace only; a release found in others is most often a missing -n.
            if records.is_empty() {
                let elsewhere = cluster.namespaces_holding(name, *driver).await;
                if !elsewhere.is_empty() {
                    let quoted: Vec<String> = elsewhere.iter().map(|ns| format!("{ns:?}")).collect();
                    place.push_str(&format!(" (release {name:?} has records in namespace {}: add -n {})", quoted.join(", "), elsewhere[0]));
                }
            }
            Ok(Loaded { records, place })
        }),
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, StorageError> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(StorageError::Runtime)
}

fn load_files(paths: &[PathBuf], stdin: &mut dyn Read) -> Result<Loaded, StorageError> {
    let mut records = Vec::new();
    let mut names = Vec::new();
    for path in paths {
        let shown = path.display().to_string();
        names.push(if shown == "-" { "<stdin>".to_string() } else { shown.clone() });
        if shown == "-" {
            let mut buf = Vec::new();
            stdin.read_to_end(&mut buf).map_err(StorageError::Stdin)?;
            records.extend(source::parse_input("-", &buf)?);
        } else if path.is_dir() {
            records.extend(load_dir(path)?);
        } else {
            let bytes = std::fs::read(path).map_err(|source| StorageError::Read { path: shown.clone(), source })?;
            records.extend(source::parse_input(&shown, &bytes)?);
        }
    }
    Ok(Loaded { records, place: names.join(", ") })
}

/// Every regular, non-hidden file of a directory, in name order.
fn load_dir(dir: &Path) -> Result<Vec<StoredRecord>, StorageError> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|source| StorageError::ReadDir { path: dir.display().to_string(), source })?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && !p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.')))
        .collect();
    entries.sort();
    if entries.is_empty() {
        return Err(StorageError::EmptyDirectory { path: dir.display().to_string() });
    }
    let mut out = Vec::new();
    for p in entries {
        let shown = p.display().to_string();
        let bytes = std::fs::read(&p).map_err(|source| StorageError::Read { path: shown.clone(), source })?;
        out.extend(source::parse_input(&shown, &bytes)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_without_files_is_refused_with_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let err = load(&Location::Files(vec![dir.path().to_path_buf()]), None, &mut std::io::empty()).unwrap_err();
        assert_eq!(err.to_string(), format!("directory {} holds no files", dir.path().display()));
    }

    #[test]
    fn the_cluster_and_sql_need_a_release_name() {
        let sql = Location::Sql { connection: "postgres://x".into(), namespace: "default".into() };
        assert!(matches!(load(&sql, None, &mut std::io::empty()), Err(StorageError::NoReleaseName)));
    }

    #[test]
    fn stdin_is_read_for_a_file_named_dash() {
        let err = load(&Location::Files(vec![PathBuf::from("-")]), None, &mut std::io::empty()).unwrap_err();
        // An empty input names stdin as `-`, as the record parser words it.
        assert!(matches!(err, StorageError::Source(SourceError::Empty { .. })), "{err}");
    }
}
