//! `releasex::chart`: loading charts as Helm v4.2.3 does, and
//! `values.schema.json` validation, against real Helm where it can answer.
//!
//! Charts: the oracle's (`tests/oracle/charts/`), the project's fixtures,
//! ours under `tests/data/charts/` (one rule each, named after it), and
//! charts built at test time in a temporary directory (nested `.tgz`
//! subcharts, symlinks, special files, size limits, hostile archives).
//!
//! The oracle (`tests/oracle/helm_oracle.py`, see its README) runs Helm's
//! own install action. It loads charts with Helm's v2 loader directly
//! (not the CLI's apiVersion dispatch) and copies a chart directory before
//! loading it (following symlinks), so apiVersion dispatch and symlinks are
//! checked against Helm's source only.

use crate::oracle_client;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use releasex::chart::{
    self, Chart, ChartError, ImportValue, Limits, SchemaErrorKind, validate_values,
};
use serde_json::{Value, json};

fn repo_root() -> PathBuf {
    std::env::var_os("RELEASEX_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

fn data(name: &str) -> PathBuf {
    repo_root().join("tests/data/charts").join(name)
}

fn load(path: &Path) -> Chart {
    chart::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn load_err(path: &Path) -> ChartError {
    match chart::load(path) {
        Ok(c) => panic!("{} loaded: {c:#?}", path.display()),
        Err(e) => e,
    }
}

/// Real Helm's answers (the shared oracle client).
fn oracle(calls: &[Vec<String>]) -> Vec<Value> {
    oracle_client::batch_answered(calls)
}

fn args(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn path_str(p: &Path) -> String {
    p.to_str().expect("utf-8 path").to_string()
}

/// A gzip-compressed tar archive of `(name, data)` entries. Names are
/// written into the header as given (no checks), so hostile names work.
fn tgz(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut b = tar::Builder::new(enc);
    for (name, body) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        let raw = &mut h.as_gnu_mut().expect("gnu header").name;
        raw[..name.len()].copy_from_slice(name.as_bytes());
        h.set_cksum();
        b.append(&h, *body).expect("append");
    }
    b.into_inner().expect("tar").finish().expect("gzip")
}

fn write(root: &Path, rel: &str, body: &[u8]) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    fs::write(p, body).expect("write");
}

fn chart_yaml(name: &str, version: &str) -> Vec<u8> {
    format!("apiVersion: v2\nname: {name}\nversion: {version}\n").into_bytes()
}

// ---------------------------------------------------------------------------
// Loading what Helm loads

#[test]
fn loads_the_oracle_parent_chart_with_aliases_conditions_tags_and_import_values() {
    let path = repo_root().join("tests/oracle/charts/parent");
    let c = load(&path);
    assert_eq!(c.metadata.name, "parent");
    assert_eq!(c.metadata.api_version, "v2");
    assert_eq!(c.path, path_str(&path));
    assert_eq!(c.values_file, "values.yaml");
    assert_eq!(
        c.values_text.as_deref(),
        Some(
            fs::read_to_string(path.join("values.yaml"))
                .unwrap()
                .as_str()
        )
    );
    assert!(c.schema.is_none() && c.schema_error.is_none());
    assert!(c.metadata.dependencies_declared);

    let deps = &c.metadata.dependencies;
    assert_eq!(deps.len(), 3);
    assert_eq!(
        (deps[0].name.as_str(), deps[0].alias.as_deref()),
        ("sub1", None)
    );
    assert_eq!(deps[0].condition.as_deref(), Some("sub1.enabled"));
    assert_eq!(
        deps[0].import_values,
        vec![ImportValue::Exports("data".into())]
    );
    assert_eq!(
        (deps[1].name.as_str(), deps[1].alias.as_deref()),
        ("sub2", Some("second"))
    );
    assert_eq!(deps[1].tags, ["backend"]);
    assert_eq!(deps[1].condition.as_deref(), Some("second.enabled"));
    assert_eq!(
        deps[1].import_values,
        vec![ImportValue::Map {
            child: "info".into(),
            parent: "imported".into()
        }]
    );
    assert_eq!(
        (deps[2].effective_name(), deps[2].condition.as_deref()),
        ("third", Some("third.enabled"))
    );
    assert!(deps[2].import_values.is_empty());

    let subs: Vec<&str> = c.dependencies.iter().map(|d| d.name()).collect();
    assert_eq!(
        subs,
        ["sub1", "sub2"],
        "loaded once each, in charts/ order; aliasing is dependency processing"
    );
    let sub2 = &c.dependencies[1];
    assert_eq!(sub2.values_file, "charts/sub2/values.yaml");
    assert_eq!(sub2.chart_file, "charts/sub2/Chart.yaml");
    assert_eq!(sub2.path, format!("{}/charts/sub2", path_str(&path)));
    assert!(
        sub2.values_text
            .as_deref()
            .unwrap_or_default()
            .contains("info")
    );
    assert!(c.check_dependencies().is_ok());
}

#[test]
fn loads_every_oracle_and_fixture_chart_that_helm_loads() {
    let mut dirs = Vec::new();
    for base in ["tests/oracle/charts", "tests/fixtures/charts"] {
        for e in fs::read_dir(repo_root().join(base)).unwrap() {
            let p = e.unwrap().path();
            if p.join("Chart.yaml").exists() {
                dirs.push(p);
            }
        }
    }
    dirs.sort();
    let calls: Vec<Vec<String>> = dirs
        .iter()
        .map(|d| args(&["values", &path_str(d), "--skip-schema-validation"]))
        .collect();
    let helm = oracle(&calls);
    for (dir, h) in dirs.iter().zip(&helm) {
        assert_eq!(h["status"], "ok", "{}: {h}", dir.display());
        let c = load(dir);
        // Every enabled subchart Helm gives a section to was loaded by us.
        let names: BTreeSet<&str> = c.dependencies.iter().map(|d| d.name()).collect();
        for d in c.metadata.dependencies.iter() {
            if h["values"]
                .get(d.effective_name())
                .is_some_and(Value::is_object)
            {
                assert!(
                    names.contains(d.name.as_str()),
                    "{}: {} not loaded",
                    dir.display(),
                    d.name
                );
            }
        }
    }
}

#[test]
fn apiversion_v1_reads_dependencies_from_requirements_yaml() {
    let c = load(&data("v1-requirements"));
    assert_eq!(c.metadata.api_version, "v1");
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let d = &c.metadata.dependencies;
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].name, "db");
    assert_eq!(d[0].version, "~1.2.0");
    assert_eq!(d[0].repository, "file://charts/db");
    assert_eq!(d[0].alias.as_deref(), Some("database"));
    assert_eq!(
        d[0].condition.as_deref(),
        Some("database.enabled,global.database.enabled")
    );
    assert_eq!(d[0].tags, ["storage"]);
    assert_eq!(
        d[0].import_values,
        vec![
            ImportValue::Map {
                child: "connection".into(),
                parent: "dbConnection".into()
            },
            ImportValue::Exports("settings".into())
        ]
    );
    let subs: Vec<&str> = c.dependencies.iter().map(|d| d.name()).collect();
    assert_eq!(subs, ["db"], "charts/_disabled is skipped");
    // Helm: the import-values reached the parent, so it read the same entries.
    let h = &oracle(&[args(&["values", &path_str(&data("v1-requirements"))])])[0];
    assert_eq!(h["values"]["dbConnection"]["host"], "db.local");
    assert_eq!(h["values"]["poolSize"], 10);
}

#[test]
fn requirements_yaml_in_a_v2_chart_still_counts_with_helms_warning() {
    let c = load(&data("v2-requirements"));
    assert_eq!(c.metadata.dependencies.len(), 1);
    assert_eq!(c.metadata.dependencies[0].alias.as_deref(), Some("renamed"));
    assert_eq!(
        c.warnings,
        [
            "Warning: Dependencies are handled in Chart.yaml since apiVersion \"v2\". We recommend migrating dependencies to Chart.yaml."
        ]
    );
    let h = &oracle(&[args(&["values", &path_str(&data("v2-requirements"))])])[0];
    assert_eq!(h["values"]["renamed"]["x"], 1, "{h}");
}

#[test]
fn apiversion_v3_uses_helms_v3_loader_which_ignores_requirements_yaml() {
    let c = load(&data("v3"));
    assert_eq!(c.metadata.api_version, "v3");
    let names: Vec<&str> = c
        .metadata
        .dependencies
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    assert_eq!(names, ["sub"]);
    assert_eq!(
        c.dependencies[0].metadata.api_version, "v3",
        "an unset apiVersion in a v3 chart's subchart reads v3"
    );
    assert!(c.check_dependencies().is_ok());
}

#[test]
fn an_unknown_apiversion_is_refused_as_the_helm_cli_does() {
    let e = load_err(&data("unsupported-api"));
    assert!(
        matches!(e, ChartError::UnsupportedApiVersion { ref api_version, .. } if api_version == "v4"),
        "{e}"
    );
    assert!(e.to_string().contains("unsupported chart version"), "{e}");
}

#[test]
fn chart_yaml_reads_like_sigs_yaml_into_helms_struct() {
    let c = load(&data("yaml-quirks"));
    let m = &c.metadata;
    assert_eq!(m.name, "yaml-quirks");
    assert_eq!(m.version, "1.1");
    assert_eq!(m.app_version, "8");
    assert_eq!(m.icon, "true");
    assert_eq!(m.description, "tabs and odd spaces are sanitised");
    assert_eq!(m.annotations.get("count").map(String::as_str), Some("3"));
    assert_eq!(m.extra["custom-field"], json!({"nested": [1, 2.5, true]}));
    assert!(m.dependencies_declared && m.dependencies.is_empty());

    // Helm's .Chart for the same file (a template prints it).
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("yaml-quirks");
    write(
        &copy,
        "Chart.yaml",
        &fs::read(data("yaml-quirks/Chart.yaml")).unwrap(),
    );
    write(&copy, "templates/chart.yaml", b"# {{ toJson .Chart }}\n");
    let h = &oracle(&[args(&["render", &path_str(&copy)])])[0];
    let manifest = h["manifest"].as_str().expect("manifest");
    let line = manifest
        .lines()
        .find_map(|l| l.strip_prefix("# ").filter(|j| j.starts_with('{')))
        .expect("the .Chart line");
    let helm: Value = serde_json::from_str(line).unwrap();
    assert_eq!(helm["Name"], m.name.as_str());
    assert_eq!(helm["Version"], m.version.as_str());
    assert_eq!(helm["AppVersion"], m.app_version.as_str());
    assert_eq!(helm["Icon"], m.icon.as_str());
    assert_eq!(helm["Description"], m.description.as_str());
    assert_eq!(helm["Annotations"], json!({"count": "3"}));
}

#[test]
fn a_utf8_bom_is_dropped_from_every_file() {
    let c = load(&data("bom"));
    assert_eq!(c.metadata.name, "bom");
    assert_eq!(c.values_text.as_deref(), Some("key: value\n"));
    assert_eq!(c.schema, Some(json!({"type": "object"})));
    assert_eq!(c.dependencies[0].metadata.name, "sub");
    let h = &oracle(&[args(&["values", &path_str(&data("bom"))])])[0];
    assert_eq!(h["values"]["key"], "value");
}

// ---------------------------------------------------------------------------
// Failing where Helm fails, in Helm's words

/// Charts Helm refuses to load, with the part of Helm's message we repeat.
#[test]
fn broken_charts_fail_as_helm_fails() {
    let cases = [
        ("broken-chart-yaml", "cannot load Chart.yaml"),
        (
            "missing-version",
            "validation: chart.metadata.version is required",
        ),
        (
            "bad-subchart",
            "error unpacking subchart sub in bad-subchart: ",
        ),
        (
            "stray-file",
            "error unpacking subchart README.md in stray-file: Chart.yaml file is missing",
        ),
        (
            "bad-alias",
            "validation: dependency \"sub\" has disallowed characters in the alias",
        ),
        (
            "duplicate-alias",
            "validation: more than one dependency with name or alias \"a\"",
        ),
        (
            "wrong-type",
            "json: cannot unmarshal string into Go struct field Dependency.dependencies.tags of type []string",
        ),
        ("helmignore-negation", "Chart.yaml file is missing"),
    ];
    let calls: Vec<Vec<String>> = cases
        .iter()
        .map(|(c, _)| args(&["values", &path_str(&data(c))]))
        .collect();
    let helm = oracle(&calls);
    for ((name, phrase), h) in cases.iter().zip(&helm) {
        assert_eq!(h["status"], "error", "{name}: Helm loaded it: {h}");
        let helm_text = h["error"].as_str().unwrap();
        assert!(
            helm_text.contains(phrase),
            "{name}: Helm said {helm_text:?}"
        );
        let ours = load_err(&data(name)).to_string();
        assert!(ours.contains(phrase), "{name}: we said {ours:?}");
    }
}

#[test]
fn yaml_errors_name_the_file_line_and_column() {
    let e = load_err(&data("broken-chart-yaml"));
    let ChartError::Yaml {
        what,
        file,
        line,
        column,
        ..
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!(*what, "Chart.yaml");
    assert_eq!(
        file,
        &format!("{}/Chart.yaml", path_str(&data("broken-chart-yaml")))
    );
    assert_eq!(
        *line, 3,
        "Helm: yaml: line 3: did not find expected ',' or ']'; {e}"
    );
    assert!(*column >= 1);

    let e = load_err(&data("wrong-type"));
    let ChartError::Yaml { line, column, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!((*line, *column), (6, 11), "{e}");
}

#[test]
fn a_missing_version_names_chart_yaml() {
    let e = load_err(&data("missing-version"));
    assert_eq!(
        e.to_string(),
        format!(
            "{}/Chart.yaml: validation: chart.metadata.version is required",
            path_str(&data("missing-version"))
        )
    );
}

#[test]
fn subchart_errors_are_wrapped_with_the_subchart_and_parent_names() {
    let e = load_err(&data("bad-subchart"));
    let ChartError::Subchart {
        name,
        parent,
        source,
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!((name.as_str(), parent.as_str()), ("sub", "bad-subchart"));
    assert!(
        matches!(**source, ChartError::Validation { ref message, .. } if message == "validation: chart.metadata.name is required")
    );
}

#[test]
fn missing_paths_and_non_archives_are_reported_like_helm() {
    let e = load_err(Path::new("/nonexistent/chart"));
    assert_eq!(e.to_string(), "path \"/nonexistent/chart\" not found");
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("values.yaml");
    fs::write(&f, "a: 1\n").unwrap();
    assert_eq!(
        load_err(&f).to_string(),
        format!(
            "file '{}' seems to be a YAML file, but expected a gzipped archive",
            f.display()
        )
    );
    let f = tmp.path().join("chart.bin");
    fs::write(&f, "a: 1\n").unwrap();
    assert_eq!(
        load_err(&f).to_string(),
        format!(
            "file '{}' does not appear to be a gzipped archive; got 'application/octet-stream'",
            f.display()
        )
    );
    let dir = tmp.path().join("empty");
    fs::create_dir(&dir).unwrap();
    assert!(
        load_err(&dir)
            .to_string()
            .starts_with("unable to detect chart at ")
    );
}

// ---------------------------------------------------------------------------
// .helmignore

#[test]
fn helmignore_decides_which_files_load() {
    let c = load(&data("helmignore"));
    let subs: Vec<&str> = c.dependencies.iter().map(|d| d.name()).collect();
    assert_eq!(
        subs,
        ["kept"],
        "charts/skipped/ is ignored (its broken Chart.yaml is never read)"
    );
    assert_eq!(c.values_text.as_deref(), Some("a: 1\n"));
    let c = load(&data("helmignore-values"));
    assert_eq!(
        c.values_text, None,
        "values.yaml is not special: a rule can hide it"
    );
    let helm = oracle(&[
        args(&["values", &path_str(&data("helmignore"))]),
        args(&["values", &path_str(&data("helmignore-values"))]),
    ]);
    assert_eq!(
        helm[0]["values"],
        json!({"a": 1, "kept": {"global": {}, "k": 1}})
    );
    assert_eq!(helm[1]["values"], json!({}));
}

#[test]
fn helmignore_is_not_applied_inside_archives() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("top");
    write(&top, "Chart.yaml", &chart_yaml("top", "0.1.0"));
    write(&top, ".helmignore", b"values.yaml\n");
    let sub = tgz(&[
        ("sub/Chart.yaml", &chart_yaml("sub", "0.1.0")),
        ("sub/values.yaml", b"inArchive: true\n"),
    ]);
    write(&top, "charts/sub-0.1.0.tgz", &sub);
    let c = load(&top);
    assert_eq!(c.values_text, None);
    assert_eq!(
        c.dependencies[0].values_text.as_deref(),
        Some("inArchive: true\n")
    );
    let h = &oracle(&[args(&["values", &path_str(&top)])])[0];
    assert_eq!(h["values"]["sub"]["inArchive"], true, "{h}");
}

// ---------------------------------------------------------------------------
// Archives

#[test]
fn nested_tgz_subcharts_load_at_any_depth() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("top");
    let leaf = tgz(&[
        ("leaf/Chart.yaml", &chart_yaml("leaf", "0.2.0")),
        ("leaf/values.yaml", b"fromLeaf: 1\n"),
    ]);
    let mid = tgz(&[
        ("mid/Chart.yaml", &chart_yaml("mid", "0.1.0")),
        ("mid/values.yaml", b"fromMid: 2\n"),
        ("mid/charts/leaf-0.2.0.tgz", &leaf),
        ("mid/charts/inner/Chart.yaml", &chart_yaml("inner", "0.3.0")),
        ("mid/charts/inner/values.yaml", b"fromInner: 3\n"),
    ]);
    write(&top, "Chart.yaml", &chart_yaml("top", "1.0.0"));
    write(&top, "values.yaml", b"fromTop: 0\n");
    write(&top, "charts/mid-0.1.0.tgz", &mid);
    write(
        &top,
        "charts/plain/Chart.yaml",
        &chart_yaml("plain", "0.4.0"),
    );
    write(
        &top,
        "charts/plain/charts/deep-0.5.0.tgz",
        &tgz(&[
            ("deep/Chart.yaml", &chart_yaml("deep", "0.5.0")),
            ("deep/values.yaml", b"fromDeep: 5\n"),
        ]),
    );

    let c = load(&top);
    let shown: Vec<(String, String, String)> = c
        .walk()
        .iter()
        .map(|c| (c.name().to_string(), c.values_file.clone(), c.path.clone()))
        .collect();
    let t = path_str(&top);
    assert_eq!(
        shown,
        [
            ("top".into(), "values.yaml".into(), t.clone()),
            (
                "mid".into(),
                "charts/mid-0.1.0.tgz:mid/values.yaml".into(),
                format!("{t}/charts/mid-0.1.0.tgz:mid")
            ),
            (
                "inner".into(),
                "charts/mid-0.1.0.tgz:mid/charts/inner/values.yaml".into(),
                format!("{t}/charts/mid-0.1.0.tgz:mid/charts/inner")
            ),
            (
                "leaf".into(),
                "charts/mid-0.1.0.tgz:mid/charts/leaf-0.2.0.tgz:leaf/values.yaml".into(),
                format!("{t}/charts/mid-0.1.0.tgz:mid/charts/leaf-0.2.0.tgz:leaf")
            ),
            (
                "plain".into(),
                "charts/plain/values.yaml".into(),
                format!("{t}/charts/plain")
            ),
            (
                "deep".into(),
                "charts/plain/charts/deep-0.5.0.tgz:deep/values.yaml".into(),
                format!("{t}/charts/plain/charts/deep-0.5.0.tgz:deep")
            ),
        ]
    );
    assert_eq!(
        c.dependencies[0].dependencies[1].values_text.as_deref(),
        Some("fromLeaf: 1\n")
    );

    let h = &oracle(&[args(&["values", &t])])[0];
    let v = &h["values"];
    assert_eq!(
        (
            &v["fromTop"],
            &v["mid"]["fromMid"],
            &v["mid"]["leaf"]["fromLeaf"]
        ),
        (&json!(0), &json!(2), &json!(1)),
        "{h}"
    );
    assert_eq!(
        (
            &v["mid"]["inner"]["fromInner"],
            &v["plain"]["deep"]["fromDeep"]
        ),
        (&json!(3), &json!(5)),
        "{h}"
    );
}

#[test]
fn a_top_level_archive_loses_its_root_folder_whatever_its_name() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("mychart-1.0.0.tgz");
    fs::write(
        &file,
        tgz(&[
            ("any-root-name/Chart.yaml", &chart_yaml("mychart", "1.0.0")),
            ("any-root-name/values.yaml", b"a: 1\n"),
            ("any-root-name/values.schema.json", b""),
            (
                "any-root-name/charts/sub/Chart.yaml",
                &chart_yaml("sub", "0.1.0"),
            ),
        ]),
    )
    .unwrap();
    let c = load(&file);
    assert_eq!(c.name(), "mychart");
    assert_eq!(c.path, path_str(&file));
    assert_eq!(c.values_file, "values.yaml");
    assert_eq!(c.values_text.as_deref(), Some("a: 1\n"));
    assert!(
        c.schema.is_none() && c.schema_error.is_none(),
        "an empty schema file in an archive is no schema (Go's nil)"
    );
    assert_eq!(
        c.dependencies[0].path,
        format!("{}:any-root-name/charts/sub", path_str(&file))
    );
}

#[test]
fn archives_with_escaping_or_absolute_names_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&str, Vec<u8>, &str); 5] = [
        (
            "abs",
            tgz(&[("x//etc/passwd", b"x")]),
            "chart illegally contains absolute paths",
        ),
        (
            "dotdot",
            tgz(&[("x/../../evil", b"x")]),
            "chart illegally references parent directory",
        ),
        (
            "toplevel",
            tgz(&[("Chart.yaml", b"x")]),
            "chart illegally contains content outside the base directory: \"Chart.yaml\"",
        ),
        (
            "drive",
            tgz(&[("x\\c:/evil", b"x")]),
            "chart contains illegally named files",
        ),
        ("nofiles", tgz(&[]), "no files in chart archive"),
    ];
    for (name, body, want) in cases {
        let f = tmp.path().join(format!("{name}.tgz"));
        fs::write(&f, &body).unwrap();
        let e = load_err(&f).to_string();
        assert!(e.contains(want), "{name}: {e}");
        // The same archive as a subchart: Helm's text behind the wrapper.
        let top = tmp.path().join(format!("top-{name}"));
        write(&top, "Chart.yaml", &chart_yaml("top", "0.1.0"));
        write(&top, "charts/bad.tgz", &body);
        let e = load_err(&top).to_string();
        assert_eq!(
            e,
            format!("error unpacking subchart bad.tgz in top: {want}")
        );
    }
}

#[test]
fn a_subchart_archive_that_is_not_gzip_fails_like_helm() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("top");
    write(&top, "Chart.yaml", &chart_yaml("top", "0.1.0"));
    write(&top, "charts/sub-1.0.0.tgz", b"this is not gzip");
    let h = &oracle(&[args(&["values", &path_str(&top)])])[0];
    let ours = load_err(&top).to_string();
    assert_eq!(h["error"].as_str(), Some(ours.as_str()), "{h}");
}

#[test]
fn a_directory_named_like_an_archive_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("top");
    write(&top, "Chart.yaml", &chart_yaml("top", "0.1.0"));
    write(
        &top,
        "charts/sub.tgz/Chart.yaml",
        &chart_yaml("sub", "0.1.0"),
    );
    let h = &oracle(&[args(&["values", &path_str(&top)])])[0];
    let ours = load_err(&top).to_string();
    assert_eq!(
        ours,
        "error unpacking subchart tar in top: expected sub.tgz, got sub.tgz/Chart.yaml"
    );
    assert_eq!(h["error"].as_str(), Some(ours.as_str()), "{h}");
}

#[test]
fn archive_size_limits_mirror_helms() {
    let tmp = tempfile::tempdir().unwrap();
    // Helm's real per-file limit, 5 MiB, decompressed.
    let big = vec![b'a'; 5 * 1024 * 1024 + 1];
    let f = tmp.path().join("big.tgz");
    fs::write(
        &f,
        tgz(&[
            ("big/Chart.yaml", &chart_yaml("big", "0.1.0")),
            ("big/values.yaml", &big),
        ]),
    )
    .unwrap();
    let e = load_err(&f).to_string();
    assert!(e.contains("decompressed chart file \"big/values.yaml\" is larger than the maximum file size 5242880"), "{e}");

    // The total limit, scaled down.
    let limits = Limits {
        max_file_size: 100,
        max_chart_size: 150,
    };
    let f = tmp.path().join("total.tgz");
    fs::write(
        &f,
        tgz(&[
            ("t/Chart.yaml", &chart_yaml("t", "0.1.0")),
            ("t/a", &[b'x'; 80]),
            ("t/b", &[b'x'; 80]),
        ]),
    )
    .unwrap();
    let e = chart::load_with_limits(&f, &limits)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("decompressed chart is larger than the maximum size 150"),
        "{e}"
    );
}

#[test]
fn directory_files_over_5_mib_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("top");
    write(&top, "Chart.yaml", &chart_yaml("top", "0.1.0"));
    write(&top, "values.yaml", &vec![b'#'; 5 * 1024 * 1024]);
    assert!(chart::load(&top).is_ok(), "exactly 5 MiB is allowed");
    write(&top, "files/huge.bin", &vec![0u8; 5 * 1024 * 1024 + 1]);
    let e = load_err(&top).to_string();
    assert!(
        e.starts_with("chart file \"huge.bin\" is larger than the maximum file size 5242880"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------
// Symlinks and special files (Helm's internal/sympath walk)

#[cfg(unix)]
#[test]
fn symlinks_are_followed_and_broken_ones_fail() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let shared = tmp.path().join("shared");
    write(&shared, "values.yaml", b"shared: true\n");
    write(
        &shared,
        "sub/Chart.yaml",
        &chart_yaml("linked-sub", "0.1.0"),
    );
    let top = tmp.path().join("top");
    write(&top, "Chart.yaml", &chart_yaml("top", "0.1.0"));
    fs::create_dir_all(top.join("charts")).unwrap();
    symlink(shared.join("values.yaml"), top.join("values.yaml")).unwrap();
    symlink(shared.join("sub"), top.join("charts/sub")).unwrap();
    let c = load(&top);
    assert_eq!(c.values_text.as_deref(), Some("shared: true\n"));
    assert_eq!(c.dependencies[0].name(), "linked-sub");
    assert_eq!(c.dependencies[0].values_file, "charts/sub/values.yaml");

    symlink(tmp.path().join("nowhere"), top.join("dangling.txt")).unwrap();
    let e = load_err(&top);
    assert!(matches!(e, ChartError::Symlink { .. }), "{e}");
    assert!(
        e.to_string().starts_with(&format!(
            "error evaluating symlink {}/dangling.txt",
            path_str(&top)
        )),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_fails_instead_of_recursing_forever() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("top");
    write(&top, "Chart.yaml", &chart_yaml("top", "0.1.0"));
    fs::create_dir_all(top.join("files")).unwrap();
    symlink(&top, top.join("files/again")).unwrap();
    assert!(matches!(load_err(&top), ChartError::SymlinkLoop { .. }));
}

#[cfg(unix)]
#[test]
fn irregular_files_are_refused_unless_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("top");
    write(&top, "Chart.yaml", &chart_yaml("top", "0.1.0"));
    let _sock = std::os::unix::net::UnixListener::bind(top.join("helm.sock")).unwrap();
    let e = load_err(&top).to_string();
    assert_eq!(
        e,
        format!(
            "cannot load irregular file {}/helm.sock as it has file mode type bits set",
            path_str(&top)
        )
    );
    write(&top, ".helmignore", b"*.sock\n");
    assert!(chart::load(&top).is_ok());
}

// ---------------------------------------------------------------------------
// CheckDependencies (helm install/template/upgrade)

#[test]
fn missing_dependencies_are_reported_as_helm_install_does() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("top");
    write(&top, "Chart.yaml", b"apiVersion: v2\nname: top\nversion: 0.1.0\ndependencies:\n- name: here\n- name: gone\n  alias: g\n- name: lost\n");
    write(&top, "charts/here/Chart.yaml", &chart_yaml("here", "0.1.0"));
    let c = load(&top);
    assert_eq!(
        c.check_dependencies().unwrap_err(),
        "found in Chart.yaml, but missing in charts/ directory: gone, lost"
    );
    let h = &oracle(&[args(&["values", &path_str(&top)])])[0];
    assert!(
        h["error"]
            .as_str()
            .unwrap_or_default()
            .ends_with("found in Chart.yaml, but missing in charts/ directory: gone, lost"),
        "{h}"
    );
}

// ---------------------------------------------------------------------------
// values.schema.json against Helm

/// The chart tree as Helm's dependency processing leaves it for schema
/// validation (enough for the test charts: aliases and conditions).
fn processed(c: &Chart, values: &Value, prefix: &str) -> Chart {
    let mut out = c.clone();
    let Some(reqs) = c.metadata.declared_dependencies() else {
        return out;
    };
    let mut deps: Vec<Chart> = c
        .dependencies
        .iter()
        .filter(|d| !reqs.iter().any(|r| r.name == d.metadata.name))
        .cloned()
        .collect();
    for r in reqs {
        let Some(d) = c.dependencies.iter().find(|d| d.metadata.name == r.name) else {
            continue;
        };
        let mut d = d.clone();
        d.metadata.name = r.effective_name().to_string();
        let enabled = r
            .condition
            .as_deref()
            .and_then(|cond| {
                cond.split(',').map(str::trim).find_map(|p| {
                    format!("{prefix}{p}")
                        .split('.')
                        .try_fold(values, |v, k| v.get(k))
                        .and_then(Value::as_bool)
                })
            })
            .unwrap_or(true);
        if enabled {
            let sub_prefix = format!("{prefix}{}.", d.metadata.name);
            deps.push(processed(&d, values, &sub_prefix));
        }
    }
    out.dependencies = deps;
    out
}

/// `(chart, path)` of every innermost `- at 'PATH': ...` line of Helm's
/// message (a line with deeper lines under it only groups them), and
/// `(chart, "*")` for a chart-level line.
fn helm_failures(text: &str) -> BTreeSet<(String, String)> {
    let lines: Vec<&str> = text.lines().skip(1).collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out = BTreeSet::new();
    let mut chart = String::new();
    for (i, l) in lines.iter().enumerate() {
        if !l.starts_with(['-', ' ']) && l.ends_with(':') {
            chart = l.trim_end_matches(':').to_string();
            continue;
        }
        let Some(rest) = l.trim_start().strip_prefix("- at '") else {
            out.insert((chart.clone(), "*".to_string()));
            continue;
        };
        let path = rest.split("': ").next().unwrap_or_default().to_string();
        let has_children = lines
            .get(i + 1)
            .is_some_and(|n| n.trim_start().starts_with("- at") && indent(n) > indent(l));
        if !has_children {
            out.insert((chart.clone(), path));
        }
    }
    out
}

/// Runs every `(chart, flags)` case through Helm twice (values without
/// schema validation, then with it) and checks that we fail exactly when
/// Helm fails, naming the same charts and paths. Returns Helm's texts and
/// ours side by side.
fn compare_schema_validation(cases: &[(PathBuf, Vec<&str>)]) -> String {
    let mut calls = Vec::new();
    for (dir, flags) in cases {
        let chart_arg = path_str(dir);
        let mut skip = args(&["values", &chart_arg, "--skip-schema-validation"]);
        skip.extend(args(flags));
        let mut full = args(&["values", &chart_arg]);
        full.extend(args(flags));
        calls.push(skip);
        calls.push(full);
    }
    let helm = oracle(&calls);
    let mut report = String::new();
    for (i, (dir, flags)) in cases.iter().enumerate() {
        let c = load(dir);
        let (skip, full) = (&helm[2 * i], &helm[2 * i + 1]);
        assert_eq!(skip["status"], "ok", "{flags:?}: {skip}");
        let values = &skip["values"];
        let ours = validate_values(&processed(&c, values, ""), values);
        let helm_failed = full["status"] == "error";
        assert_eq!(
            ours.is_err(),
            helm_failed,
            "{} {flags:?}: Helm {full}, ours {ours:?}",
            dir.display()
        );
        let Err(ours) = ours else { continue };
        let helm_text = full["error"].as_str().unwrap();
        let ours_set: BTreeSet<(String, String)> = ours
            .errors
            .iter()
            .map(|e| {
                (
                    e.chart.clone(),
                    if e.kind == SchemaErrorKind::Violation {
                        e.instance_path.clone()
                    } else {
                        "*".into()
                    },
                )
            })
            .collect();
        assert_eq!(
            helm_failures(helm_text),
            ours_set,
            "{flags:?}\nHelm:\n{helm_text}\nours:\n{ours}"
        );
        // Our text, read back the way Helm's is read, says the same.
        assert_eq!(
            helm_failures(&ours.to_string()),
            ours_set,
            "{flags:?}: {ours}"
        );
        // And word for word the same lines (Helm's order within a chart is
        // Go map order), except where the validators differ: Helm's format
        // errors add a reason, and it lists additional properties in map
        // order.
        let ours_text = ours.to_string();
        // Helm nests the errors of one object under "validation failed".
        let mut h: Vec<&str> = helm_text
            .lines()
            .filter(|l| !l.ends_with(": validation failed"))
            .map(str::trim_start)
            .collect();
        let mut o: Vec<&str> = ours_text.lines().collect();
        h.sort_unstable();
        o.sort_unstable();
        assert_eq!(
            h.len(),
            o.len(),
            "{flags:?}\nHelm:\n{helm_text}\nours:\n{ours_text}"
        );
        for (hl, ol) in h.iter().zip(&o) {
            let known = (hl.contains(" is not valid ") && hl.starts_with(ol))
                || hl.contains("additional properties");
            assert!(hl == ol || known, "{flags:?}: Helm {hl:?}, ours {ol:?}");
        }
        report.push_str(&format!(
            "{flags:?}\n  Helm: {helm_text:?}\n  ours: {:?}\n",
            ours.to_string()
        ));
    }
    report
}

#[test]
fn schema_validation_fails_exactly_when_helm_fails_naming_the_same_charts_and_paths() {
    let parent = data("schema-parent");
    let hook = repo_root().join("tests/fixtures/charts/secret-hook");
    let mut cases: Vec<(PathBuf, Vec<&str>)> = [
        vec![],
        vec!["--set", "replicaCount=0"],
        vec!["--set-string", "replicaCount=2"],
        vec!["--set", "replicaCount=2.5"],
        vec!["--set", "image.tag=latest"],
        vec!["--set", "image.extra=1,image.other=2"],
        vec!["--set", "image.tag=latest,image.extra=1"],
        vec!["--set", "image.pullPolicy=Sometimes"],
        vec!["--set", "image.repository="],
        vec!["--set", "image=null"],
        vec!["--set", "mode=lenient"],
        vec!["--set", "mode=strict"],
        vec!["--set", "frontend.port=70000"],
        vec!["--set", "backend.port=abc"],
        vec!["--set", "backend.enabled=false,backend.port=abc"],
        vec!["--set", "frontend.hosts={a.com,b.com,c.com,d.com}"],
        vec!["--set", "frontend.hosts[0]=not_a_host!"],
        vec!["--set", "frontend.enabled=yes"],
        vec!["--set", "db.storage=12"],
        vec!["--set", "db.storage=15"],
        vec!["--set", "db.engine=oracle"],
        vec!["--set-json", "db={\"storage\": 20.0}"],
        vec!["--set", "frontend.port=null"],
        vec![
            "--set",
            "replicaCount=0,frontend.port=0,db.engine=x,backend.hosts={1}",
        ],
    ]
    .into_iter()
    .map(|f| (parent.clone(), f))
    .collect();
    for flags in [
        vec![],
        vec!["--set", "replicas=-1"],
        vec!["--set", "password="],
        vec!["--set", "password=null"],
        vec!["--set", "image.tag=2"],
        vec!["--set-json", "image={\"tag\": 1.5}"],
        vec!["--set", "greeting={a,b}"],
    ] {
        cases.push((hook.clone(), flags));
    }

    // Schemas inside archived subcharts, one inside the other.
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("archived");
    let leaf = tgz(&[
        ("leaf/Chart.yaml", &chart_yaml("leaf", "0.2.0")),
        ("leaf/values.yaml", b"n: 1\n"),
        (
            "leaf/values.schema.json",
            br#"{"properties": {"n": {"type": "integer", "minimum": 0}}}"#,
        ),
    ]);
    let inner = tgz(&[
        ("inner/Chart.yaml", &chart_yaml("inner", "0.1.0")),
        ("inner/values.yaml", b"size: 3\n"),
        (
            "inner/values.schema.json",
            br#"{"required": ["size"], "properties": {"size": {"type": "integer"}}}"#,
        ),
        ("inner/charts/leaf-0.2.0.tgz", &leaf),
    ]);
    write(&top, "Chart.yaml", &chart_yaml("archived", "0.1.0"));
    write(&top, "charts/inner-0.1.0.tgz", &inner);
    for flags in [
        vec![],
        vec!["--set", "inner.size=big"],
        vec!["--set", "inner.leaf.n=-1"],
        vec!["--set", "inner.size=null,inner.leaf.n=x"],
    ] {
        cases.push((top.clone(), flags));
    }
    eprintln!("{}", compare_schema_validation(&cases));
}

#[test]
fn unusable_schemas_fail_validation_not_loading_as_in_helm() {
    let helm = oracle(&[
        args(&["values", &path_str(&data("bad-schema"))]),
        args(&["values", &path_str(&data("empty-schema"))]),
    ]);
    for (name, h) in ["bad-schema", "empty-schema"].iter().zip(&helm) {
        let c = load(&data(name));
        assert!(c.schema.is_none() && c.schema_error.is_some(), "{name}");
        let e = validate_values(&c, &json!({})).unwrap_err();
        assert_eq!(e.errors[0].kind, SchemaErrorKind::InvalidSchema);
        assert_eq!(e.errors[0].chart, *name);
        let helm_text = h["error"].as_str().unwrap();
        assert!(helm_text.starts_with(&format!("values don't meet the specifications of the schema(s) in the following chart(s):\n{name}:\n")));
        assert!(e.to_string().starts_with(&format!("values don't meet the specifications of the schema(s) in the following chart(s):\n{name}:\n")));
    }
    assert_eq!(
        helm[1]["error"].as_str().unwrap().lines().last(),
        Some("EOF")
    );
    assert_eq!(
        validate_values(&load(&data("empty-schema")), &json!({}))
            .unwrap_err()
            .errors[0]
            .message,
        "EOF"
    );
}

#[test]
fn schema_errors_carry_the_values_path_from_the_top() {
    let c = load(&data("schema-parent"));
    let values = json!({"replicaCount": 1, "image": {"repository": "x"},
        "frontend": {"port": 1, "hosts": ["ok.example", 7]}, "backend": {"port": 1}, "db": {}});
    let e = validate_values(&processed(&c, &values, ""), &values).unwrap_err();
    let got: Vec<(String, String, String)> = e
        .errors
        .iter()
        .map(|e| {
            (
                e.chart.clone(),
                e.instance_path.clone(),
                e.values_path.to_string(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [(
            "frontend".to_string(),
            "/hosts/1".to_string(),
            "frontend.hosts[1]".to_string()
        )]
    );
    assert_eq!(e.errors[0].schema_file, "charts/web/values.schema.json");
    assert_eq!(e.errors[0].message, "got number, want string");
}
