//! The loader: apiVersion dispatch, the directory walk, and Helm's
//! `LoadFiles` (which files mean what, validation, subcharts).

use super::archive::{BufferedFile, ensure_archive, load_archive_files, trim_bom};
use super::ignore::Rules;
use super::metadata::{self, Generation, RawMetadata};
use super::{Chart, ChartError, ChartFile, Limits, yaml};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Where a chart sits, for naming its files.
struct Place {
    /// Display path of the chart root (`Chart::path`).
    path: String,
    /// Prefix for display names of files that do not exist
    /// (`<path>/` or `<archive>:<root>/`).
    display_root: String,
    /// Prefix relative to the top chart (`""`, `charts/sub/`,
    /// `charts/sub-1.0.0.tgz:sub/`).
    rel_root: String,
}

pub(super) fn load(path: &Path, limits: &Limits) -> Result<Chart, ChartError> {
    let display = display_path(path);
    let meta = fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ChartError::NotFound {
            path: display.clone(),
        },
        _ => ChartError::Io {
            path: display.clone(),
            source: e,
        },
    })?;
    if meta.is_dir() {
        // helm: pkg/chart/loader LoadDir reads Chart.yaml directly (no
        // .helmignore) to pick the loader by apiVersion.
        let chart_yaml = path.join("Chart.yaml");
        let chart_display = format!("{display}/Chart.yaml");
        let data = fs::read(&chart_yaml).map_err(|e| ChartError::NoChartYaml {
            path: chart_display.clone(),
            source: e,
        })?;
        let (generation, decoded) = generation_of(&data, &chart_display)?;
        let files = walk_dir(path, &display, limits)?;
        let place = Place {
            path: display.clone(),
            display_root: format!("{display}/"),
            rel_root: String::new(),
        };
        load_files(files, place, generation, Some((&data, decoded)), limits)
    } else {
        let data = fs::read(path).map_err(|e| ChartError::Io {
            path: display.clone(),
            source: e,
        })?;
        ensure_archive(&display, &data[..data.len().min(512)])
            .map_err(|message| ChartError::NotAnArchive { message })?;
        let (files, root) = load_archive_files(&data, &display, "", limits).map_err(|message| {
            if message == "gzip: invalid header" {
                ChartError::NotAnArchive {
                    message: format!("file '{display}' does not appear to be a valid chart file (details: {message})"),
                }
            } else {
                ChartError::Archive { file: display.clone(), message }
            }
        })?;
        let Some(chart_yaml) = files.iter().find(|f| f.name == "Chart.yaml") else {
            return Err(ChartError::NoChartYamlInArchive { file: display });
        };
        let (generation, decoded) = generation_of(&chart_yaml.data, &chart_yaml.display)?;
        let top_chart_yaml = chart_yaml.data.clone();
        // Relative names inside the top archive are the chart's own.
        let files = files
            .into_iter()
            .map(|f| BufferedFile {
                rel: f.name.clone(),
                ..f
            })
            .collect();
        let place = Place {
            path: display.clone(),
            display_root: format!("{display}:{root}/"),
            rel_root: String::new(),
        };
        load_files(files, place, generation, Some((&top_chart_yaml, decoded)), limits)
    }
}

fn display_path(path: &Path) -> String {
    let s = path.to_string_lossy().into_owned();
    let trimmed = s.trim_end_matches('/');
    if trimmed.is_empty() && !s.is_empty() {
        "/".into()
    } else {
        trimmed.to_string()
    }
}

/// helm: chartBase + the switch on APIVersion in pkg/chart/loader.
/// Also returns the decoded Chart.yaml, which `load_files` then need not decode again.
fn generation_of(data: &[u8], display: &str) -> Result<(Generation, RawMetadata), ChartError> {
    let mut md = RawMetadata::default();
    decode_into(&mut md, data, display, "Chart.yaml")?;
    match md.api_version.as_str() {
        "v1" | "v2" | "" => Ok((Generation::V2, md)),
        "v3" => Ok((Generation::V3, md)),
        other => Err(ChartError::UnsupportedApiVersion {
            file: display.to_string(),
            api_version: other.to_string(),
        }),
    }
}

/// YAML text as go-yaml reads it: UTF-8, or UTF-16 with a byte-order mark.
fn decode_text(data: &[u8], display: &str, what: &'static str) -> Result<String, ChartError> {
    let utf16 = |be: bool| {
        let units: Vec<u16> = data[2..]
            .chunks(2)
            .map(|c| {
                if c.len() == 2 {
                    if be {
                        u16::from_be_bytes([c[0], c[1]])
                    } else {
                        u16::from_le_bytes([c[0], c[1]])
                    }
                } else {
                    0xfffd
                }
            })
            .collect();
        String::from_utf16(&units).ok()
    };
    let decoded = if data.starts_with(b"\xff\xfe") {
        utf16(false)
    } else if data.starts_with(b"\xfe\xff") {
        utf16(true)
    } else {
        std::str::from_utf8(data).ok().map(str::to_string)
    };
    decoded.ok_or_else(|| ChartError::Text {
        what,
        file: display.to_string(),
        message: "invalid UTF-8 (go-yaml: invalid leading UTF-8 octet)".into(),
    })
}

fn decode_into(
    md: &mut RawMetadata,
    data: &[u8],
    display: &str,
    what: &'static str,
) -> Result<(), ChartError> {
    let text = decode_text(data, display, what)?;
    let doc = yaml::parse_first_document(&text).map_err(|e| ChartError::Yaml {
        what,
        file: display.to_string(),
        line: e.line,
        column: e.column,
        message: e.message,
    })?;
    metadata::decode_metadata(&doc, md).map_err(|e| ChartError::Yaml {
        what,
        file: display.to_string(),
        line: e.line,
        column: e.column,
        message: e.message,
    })
}

fn check_lock(f: &BufferedFile, what: &'static str) -> Result<(), ChartError> {
    let text = decode_text(&f.data, &f.display, what)?;
    let to_err = |line, column, message| ChartError::Yaml {
        what,
        file: f.display.clone(),
        line,
        column,
        message,
    };
    let doc = yaml::parse_first_document(&text).map_err(|e| to_err(e.line, e.column, e.message))?;
    metadata::check_lock(&doc).map_err(|e| to_err(e.line, e.column, e.message))
}

/// helm: LoadFiles.
/// `decoded`: a Chart.yaml already decoded, with its bytes; used for the
/// chart's Chart.yaml when the bytes are the same.
fn load_files(
    files: Vec<BufferedFile>,
    place: Place,
    generation: Generation,
    mut decoded: Option<(&[u8], RawMetadata)>,
    limits: &Limits,
) -> Result<Chart, ChartError> {
    let default_api = match generation {
        Generation::V2 => "v1",
        Generation::V3 => "v3",
    };
    let mut md: Option<RawMetadata> = None;
    let mut chart_file = format!("{}Chart.yaml", place.rel_root);
    let mut chart_display = format!("{}Chart.yaml", place.display_root);
    // Chart.yaml first, wherever it is in the list.
    for f in files.iter().filter(|f| f.name == "Chart.yaml") {
        let m = match (md.as_mut(), decoded.take()) {
            (None, Some((data, known))) if data == f.data.as_slice() => md.insert(known),
            (m, _) => {
                let m = match m {
                    Some(m) => m,
                    None => md.insert(RawMetadata::default()),
                };
                decode_into(m, &f.data, &f.display, "Chart.yaml")?;
                m
            }
        };
        if m.api_version.is_empty() {
            m.api_version = default_api.to_string();
        }
        chart_file = f.rel.clone();
        chart_display = f.display.clone();
    }

    let mut values_text = None;
    let mut values_file = format!("{}values.yaml", place.rel_root);
    let mut schema = None;
    let mut schema_error = None;
    let mut schema_file = format!("{}values.schema.json", place.rel_root);
    let mut warnings = Vec::new();
    let mut subcharts: BTreeMap<String, Vec<BufferedFile>> = BTreeMap::new();
    let mut templates = Vec::new();
    let mut werf_files = Vec::new();
    let mut other_files = Vec::new();
    for f in files {
        match f.name.as_str() {
            "Chart.yaml" | "secret-values.yaml" => werf_files.push(ChartFile::from_buffered(&f)),
            "Chart.lock" => check_lock(&f, "Chart.lock")?,
            "values.yaml" => {
                values_text = Some(decode_text(&f.data, &f.display, "values.yaml")?);
                values_file = f.rel.clone();
            }
            "values.schema.json" => {
                schema_file = f.rel.clone();
                (schema, schema_error) = parse_schema(&f);
            }
            "requirements.yaml" if generation == Generation::V2 => {
                let m = md.get_or_insert_with(RawMetadata::default);
                if m.api_version != "v1" {
                    warnings.push(
                        "Warning: Dependencies are handled in Chart.yaml since apiVersion \"v2\". We recommend migrating dependencies to Chart.yaml."
                            .to_string(),
                    );
                }
                decode_into(m, &f.data, &f.display, "requirements.yaml")?;
                werf_files.push(ChartFile::from_buffered(&f));
                other_files.extend(md.as_ref().filter(|m| m.api_version == "v1").map(|_| super::RawFile { name: f.name.clone(), data: f.data.clone().into() }));
            }
            "requirements.lock" if generation == Generation::V2 => {
                check_lock(&f, "requirements.lock")?;
                let m = md.get_or_insert_with(RawMetadata::default);
                if m.api_version != "v1" {
                    warnings.push(
                        "Warning: Dependency locking is handled in Chart.lock since apiVersion \"v2\". We recommend migrating to Chart.lock."
                            .to_string(),
                    );
                }
            }
            name if name.starts_with("templates/") => templates.push(ChartFile::from_buffered(&f)),
            name if name.starts_with("charts/") => {
                if extension(name) == ".prov" {
                    other_files.push(super::RawFile { name: f.name, data: f.data.into() });
                    continue;
                }
                let fname = name["charts/".len()..].to_string();
                let cname = fname.split('/').next().unwrap_or_default().to_string();
                subcharts
                    .entry(cname)
                    .or_default()
                    .push(BufferedFile { name: fname, ..f });
            }
            _ => other_files.push(super::RawFile { name: f.name, data: f.data.into() }),
        }
    }

    let Some(md) = md else {
        return Err(ChartError::ChartYamlMissing { path: place.path });
    };
    let metadata = metadata::validate(md).map_err(|message| ChartError::Validation {
        file: chart_display.clone(),
        message,
    })?;
    let parent_name = metadata.name.clone();

    // Subcharts load side by side (Chart.yaml parsing is most of a small
    // chart's cost); the first error in name order is the one reported, as
    // with Helm's loop.
    let subcharts: Vec<(String, Vec<BufferedFile>)> =
        subcharts.into_iter().filter(|(n, _)| !n.starts_with('_') && !n.starts_with('.')).collect();
    let threads = if place.rel_root.is_empty() { crate::parallel::available_threads() } else { 1 };
    let size = |(_, files): &(String, Vec<BufferedFile>)| files.iter().map(|f| f.data.len()).sum();
    let loaded = crate::parallel::map_in_order(subcharts, threads, size, |(n, files)| load_subchart(n, files, &place, &parent_name, generation, limits));
    let dependencies = match loaded.into_iter().collect::<Result<Vec<Chart>, ChartError>>() {
        Ok(dependencies) => dependencies,
        // helm: pkg/chart/v2/loader/load.go LoadFiles parses the chart's own
        // values.yaml in its file loop and loads subcharts after it, so a
        // broken values.yaml is the error even when a subchart is broken too
        // (we parse values later, in explain: only this error path reads them here).
        Err(subchart) => {
            if let Some(text) = &values_text
                && let Err(error) = crate::yaml::load_nodes(text, &values_file)
            {
                return Err(ChartError::Values { chart: place.path.clone(), error: Box::new(error) });
            }
            return Err(subchart);
        }
    };

    Ok(Chart {
        metadata,
        values_text,
        values_file,
        schema,
        schema_error,
        schema_file,
        chart_file,
        dependencies,
        path: place.path,
        warnings,
        templates,
        werf_files,
        files: other_files,
    })
}

/// One subchart of the chart at `place`: a `charts/NAME.tgz` archive or a
/// `charts/NAME/` directory, its errors wrapped with the names.
/// helm: pkg/chart/v2/chart.go CRDObjects (hasManifestExtension): the CRDs are among the Files.
pub(super) fn crd_files(files: &[super::RawFile]) -> Vec<ChartFile> {
    files
        .iter()
        .filter(|f| f.name.starts_with("crds/") && is_manifest_extension(&f.name))
        .map(|f| ChartFile { name: f.name.clone(), data: super::lossy_text(&f.data) })
        .collect()
}

fn load_subchart(
    n: String,
    files: Vec<BufferedFile>,
    place: &Place,
    parent_name: &str,
    generation: Generation,
    limits: &Limits,
) -> Result<Chart, ChartError> {
    let wrap = |e: ChartError| ChartError::Subchart {
        name: n.clone(),
        parent: parent_name.to_string(),
        source: Box::new(e),
    };
    let sub = if extension(&n) == ".tgz" {
        let file = &files[0];
        if file.name != n {
            return Err(ChartError::SubchartTarMismatch {
                parent: parent_name.to_string(),
                expected: n,
                got: file.name.clone(),
            });
        }
        let (inner, root) = load_archive_files(&file.data, &file.display, &file.rel, limits)
            .map_err(|message| wrap(ChartError::NotAnArchive { message }))?;
        let place = Place {
            path: format!("{}:{root}", file.display),
            display_root: format!("{}:{root}/", file.display),
            rel_root: format!("{}:{root}/", file.rel),
        };
        load_files(inner, place, generation, None, limits).map_err(wrap)?
    } else {
        let inner: Vec<BufferedFile> = files
            .into_iter()
            .filter_map(|f| {
                let (_, rest) = f.name.split_once('/')?;
                Some(BufferedFile {
                    name: rest.to_string(),
                    ..f
                })
            })
            .collect();
        let place = Place {
            path: format!("{}charts/{n}", place.display_root),
            display_root: format!("{}charts/{n}/", place.display_root),
            rel_root: format!("{}charts/{n}/", place.rel_root),
        };
        load_files(inner, place, generation, None, limits).map_err(wrap)?
    };
    Ok(sub)
}

/// `.yaml`, `.yml` or `.json`, any case (Helm's `hasManifestExtension`).
fn is_manifest_extension(name: &str) -> bool {
    matches!(extension(name).to_ascii_lowercase().as_str(), ".yaml" | ".yml" | ".json")
}

/// Go's filepath.Ext.
fn extension(name: &str) -> &str {
    match name.rfind(['.', '/']) {
        Some(i) if name.as_bytes()[i] == b'.' => &name[i..],
        _ => "",
    }
}

/// `values.schema.json` as Helm keeps it (bytes, parsed only when
/// validating): a JSON value, or why it is not one.
fn parse_schema(f: &BufferedFile) -> (Option<serde_json::Value>, Option<String>) {
    if f.data.is_empty() && f.nil_data {
        return (None, None);
    }
    if f.data.iter().all(u8::is_ascii_whitespace) {
        return (None, Some("EOF".into()));
    }
    // santhosh-tekuri/jsonschema v6 `UnmarshalJSON` (loader.go): one value
    // from Go's json.Decoder (a document cut short is io.ErrUnexpectedEOF,
    // `unexpected EOF`; a syntax error is the scanner's `invalid character
    // ...`), then anything but the end of input is `invalid character after
    // top-level value`; Helm prints the bare text. The value itself is read
    // with serde_json (v6 keeps json.Number, so integers stay integers).
    if let Ok(text) = std::str::from_utf8(&f.data)
        && let Err(crate::go::json_decode::JsonError::Syntax(message)) = crate::go::json_decode::decode_prefix(text)
    {
        return (None, Some(message));
    }
    let mut values = serde_json::Deserializer::from_slice(&f.data).into_iter::<serde_json::Value>();
    match values.next() {
        Some(Ok(_)) if values.next().is_some() => (None, Some("invalid character after top-level value".into())),
        Some(Ok(v)) => (Some(v), None),
        Some(Err(e)) if e.is_eof() => (None, Some("unexpected EOF".into())),
        Some(Err(e)) => (None, Some(format!("{}: {e}", f.rel))),
        None => (None, Some("EOF".into())),
    }
}

/// helm: LoadDir + internal/sympath.Walk: lexical order, symlinks
/// followed, `.helmignore` applied, irregular and oversized files refused.
fn walk_dir(top: &Path, display: &str, limits: &Limits) -> Result<Vec<BufferedFile>, ChartError> {
    let mut rules = Rules::default();
    let ignore_file = top.join(".helmignore");
    if fs::metadata(&ignore_file).is_ok() {
        let ignore_display = format!("{display}/.helmignore");
        let data = fs::read(&ignore_file).map_err(|e| ChartError::Io {
            path: ignore_display.clone(),
            source: e,
        })?;
        rules = Rules::parse(&String::from_utf8_lossy(&data)).map_err(|message| {
            ChartError::Helmignore {
                file: ignore_display,
                message,
            }
        })?;
    }
    rules.add_defaults();
    let mut files = Vec::new();
    let top_real = fs::canonicalize(top).map_err(|e| ChartError::Io {
        path: display.to_string(),
        source: e,
    })?;
    let mut stack = vec![top_real];
    walk(top, "", display, &rules, limits, &mut stack, &mut files)?;
    Ok(files)
}

fn walk(
    dir: &Path,
    prefix: &str,
    display: &str,
    rules: &Rules,
    limits: &Limits,
    stack: &mut Vec<PathBuf>,
    files: &mut Vec<BufferedFile>,
) -> Result<(), ChartError> {
    let dir_display = if prefix.is_empty() {
        display.to_string()
    } else {
        format!("{display}/{}", prefix.trim_end_matches('/'))
    };
    let io = |e: std::io::Error| ChartError::Io {
        path: dir_display.clone(),
        source: e,
    };
    let mut names: Vec<std::ffi::OsString> = fs::read_dir(dir)
        .map_err(io)?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    names.sort_by(|a, b| a.as_encoded_bytes().cmp(b.as_encoded_bytes()));
    for name in names {
        let child = dir.join(&name);
        let rel = format!("{prefix}{}", name.to_string_lossy());
        let child_display = format!("{display}/{rel}");
        let lmeta = fs::symlink_metadata(&child).map_err(|e| ChartError::Io {
            path: child_display.clone(),
            source: e,
        })?;
        let meta = if lmeta.file_type().is_symlink() {
            let resolved = fs::canonicalize(&child).map_err(|e| ChartError::Symlink {
                path: child_display.clone(),
                source: e,
            })?;
            fs::symlink_metadata(&resolved).map_err(|e| ChartError::Symlink {
                path: child_display.clone(),
                source: e,
            })?
        } else {
            lmeta
        };
        if meta.is_dir() {
            if rules.ignore(&rel, true) {
                continue;
            }
            let real = fs::canonicalize(&child).map_err(|e| ChartError::Io {
                path: child_display.clone(),
                source: e,
            })?;
            if let Some(target) = stack.iter().find(|p| **p == real) {
                return Err(ChartError::SymlinkLoop {
                    path: child_display,
                    target: target.to_string_lossy().into_owned(),
                });
            }
            stack.push(real);
            walk(
                &child,
                &format!("{rel}/"),
                display,
                rules,
                limits,
                stack,
                files,
            )?;
            stack.pop();
            continue;
        }
        if rules.ignore(&rel, false) {
            continue;
        }
        if !meta.is_file() {
            return Err(ChartError::IrregularFile {
                path: child_display,
            });
        }
        if meta.len() > limits.max_file_size {
            return Err(ChartError::FileTooLarge {
                path: child_display,
                name: crate::go::quote::quote(&name.to_string_lossy()),
                limit: limits.max_file_size,
            });
        }
        let data = fs::read(&child).map_err(|e| ChartError::Io {
            path: format!("error reading {rel}"),
            source: e,
        })?;
        files.push(BufferedFile {
            name: rel.clone(),
            data: trim_bom(data),
            display: child_display,
            rel,
            nil_data: false,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, body: &str) -> BufferedFile {
        BufferedFile {
            name: name.into(),
            data: body.as_bytes().to_vec(),
            display: format!("c/{name}"),
            rel: name.into(),
            nil_data: false,
        }
    }

    fn top() -> Place {
        Place {
            path: "c".into(),
            display_root: "c/".into(),
            rel_root: String::new(),
        }
    }

    fn load(files: Vec<BufferedFile>) -> Result<Chart, ChartError> {
        load_files(files, top(), Generation::V2, None, &Limits::default())
    }

    #[test]
    fn requirements_yaml_alone_makes_metadata_without_an_api_version() {
        let e = load(vec![file("requirements.yaml", "dependencies: []\n")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "c/Chart.yaml: validation: chart.metadata.apiVersion is required"
        );
        let e = load(vec![file("values.yaml", "a: 1\n")]).unwrap_err();
        assert_eq!(e.to_string(), "Chart.yaml file is missing (in c)");
    }

    #[test]
    fn requirements_yaml_decodes_into_chart_yaml_entry_by_entry() {
        let c = load(vec![
            file(
                "Chart.yaml",
                "name: c\nversion: 1.0.0\ndependencies: [{name: a, condition: a.on}]\n",
            ),
            file("requirements.yaml", "dependencies: [{name: b}]\n"),
        ])
        .unwrap();
        assert_eq!(c.metadata.api_version, "v1", "an unset apiVersion reads v1");
        let d = &c.metadata.dependencies[0];
        assert_eq!(
            (d.name.as_str(), d.condition.as_deref()),
            ("b", Some("a.on"))
        );
        assert!(c.warnings.is_empty());
    }

    #[test]
    fn v3_charts_treat_requirements_files_as_plain_files() {
        let files = vec![
            file("Chart.yaml", "name: c\nversion: 1.0.0\n"),
            file("requirements.yaml", "dependencies: [{name: b}]\n"),
            file("requirements.lock", "generated: bad\n"),
        ];
        let c = load_files(files, top(), Generation::V3, None, &Limits::default()).unwrap();
        assert_eq!(c.metadata.api_version, "v3");
        assert!(!c.metadata.dependencies_declared);
    }

    #[test]
    fn lock_files_must_decode() {
        let e = load(vec![
            file("Chart.yaml", "name: c\nversion: 1.0.0\n"),
            file("Chart.lock", "generated: yesterday\n"),
        ])
        .unwrap_err();
        // Helm's text first, our position after it.
        assert!(e.to_string().starts_with("cannot load Chart.lock: parsing time \"yesterday\""), "{e}");
        assert!(e.to_string().ends_with("\n  at c/Chart.lock:1:12"), "{e}");
    }

    #[test]
    fn charts_entries_prov_underscore_and_dot_are_skipped() {
        let c = load(vec![
            file("Chart.yaml", "name: c\nversion: 1.0.0\n"),
            file("charts/sub-1.0.0.tgz.prov", "signature"),
            file("charts/_helpers/README", "x"),
            file("charts/.git/config", "x"),
            file("charts/sub/Chart.yaml", "name: sub\nversion: 1.0.0\n"),
            file("charts/sub/values.yaml", "s: 1\n"),
        ])
        .unwrap();
        assert_eq!(c.dependencies.len(), 1);
        let sub = &c.dependencies[0];
        assert_eq!(
            (sub.values_file.as_str(), sub.path.as_str()),
            ("charts/sub/values.yaml", "c/charts/sub")
        );
    }

    #[test]
    fn a_file_directly_in_charts_is_a_chart_without_chart_yaml() {
        let e = load(vec![
            file("Chart.yaml", "name: c\nversion: 1.0.0\n"),
            file("charts/notes.txt", "x"),
        ])
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "error unpacking subchart notes.txt in c: Chart.yaml file is missing (in c/charts/notes.txt)"
        );
    }

    #[test]
    fn subcharts_are_not_loaded_when_the_parent_is_invalid() {
        let e = load(vec![
            file("Chart.yaml", "name: c\n"),
            file("charts/sub/Chart.yaml", "["),
        ])
        .unwrap_err();
        assert!(matches!(e, ChartError::Validation { .. }), "{e}");
    }

    #[test]
    fn schema_json_is_kept_or_its_error_is() {
        let ok = load(vec![
            file("Chart.yaml", "name: c\nversion: 1.0.0\n"),
            file("values.schema.json", "{\"type\": \"object\"}"),
        ])
        .unwrap();
        assert_eq!(ok.schema, Some(serde_json::json!({"type": "object"})));
        let empty = load(vec![
            file("Chart.yaml", "name: c\nversion: 1.0.0\n"),
            file("values.schema.json", " \n"),
        ])
        .unwrap();
        assert_eq!(
            (empty.schema.is_none(), empty.schema_error.as_deref()),
            (true, Some("EOF"))
        );
        let mut nil = file("values.schema.json", "");
        nil.nil_data = true;
        let none = load(vec![file("Chart.yaml", "name: c\nversion: 1.0.0\n"), nil]).unwrap();
        assert_eq!(
            (none.schema.is_none(), none.schema_error.is_none()),
            (true, true)
        );
    }

    #[test]
    fn archive_roots_merge_as_in_helm() {
        let mut tar = tar::Builder::new(Vec::new());
        for (name, body) in [
            ("a/Chart.yaml", "name: c\nversion: 1.0.0\n"),
            ("b/values.yaml", "fromB: 1\n"),
        ] {
            let mut h = tar::Header::new_gnu();
            h.set_size(body.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            tar.append_data(&mut h, name, body.as_bytes()).unwrap();
        }
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &tar.into_inner().unwrap()).unwrap();
        let data = gz.finish().unwrap();
        let (files, root) = load_archive_files(&data, "x.tgz", "", &Limits::default()).unwrap();
        assert_eq!(root, "a");
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["Chart.yaml", "values.yaml"]);
        assert_eq!(files[1].display, "x.tgz:b/values.yaml");
        let c = load(files).unwrap();
        assert_eq!(c.values_text.as_deref(), Some("fromB: 1\n"));
    }

    #[test]
    fn extension_like_go_filepath_ext() {
        assert_eq!(extension("a.tgz"), ".tgz");
        assert_eq!(extension("a.b/c"), "");
        assert_eq!(extension("sub"), "");
        assert_eq!(extension("x.prov"), ".prov");
    }
}
