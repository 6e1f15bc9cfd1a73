//! Conformance of `releasex::patch::strategic` (and `patch::meta`) against
//! the data in `tests/conformance/strategicpatch/` (a copy of
//! `shared/conformance/strategicpatch`; see its README for the format and
//! the checks). Every case of every file runs, with:
//!
//! - the Go-struct-tag metadata of the test structs (`schema.json`, the
//!   lookup Helm uses; the data was verified against it) — the target;
//! - the OpenAPI v2 metadata of the same structs (`swagger/*.json`, the
//!   lookup kubectl uses; Go's own tests run the upstream tables against it
//!   too);
//! - for the two tables the Go harness pre-sorts (`upstreamPresorts`), also
//!   with every document pre-sorted by `sort_merge_lists_by_name`.
//!
//! Checks per case (as listed in the data's `checks`): `createTwoWay`,
//! `applyTwoWay`, `createThreeWay` (overwrite=false fails with a conflict
//! exactly when `conflictWithoutOverwrite`; overwrite=true gives `threeWay`),
//! `applyThreeWay`, expected errors ("contains" match), and
//! `sortMergeListsByName` for `sort_merge_lists`.
//!
//! Patches and results are compared as values: objects ignore key order,
//! lists keep it, numbers compare by the text Go's `json.Marshal` prints for
//! them (so an int64 `1` differs from a float64 `1.5`, and the float64 `1`
//! Go prints as `1` equals `1`). In addition, each patch and result is
//! compared as bytes with Go's `json.Marshal` (via `patch::gojson`): against
//! the document text for `json-text` sets, against Go's bytes of the
//! expected value otherwise.
//!
//! A failure prints the case id, description, check, expected and actual;
//! the per-file pass counts are printed in any case (`--nocapture`).
//!
//! `kubectl_probes.json` (not from `shared/conformance`: recorded from the
//! real kubectl v1.32.4 by the helper that wrote the engine) pins Go
//! behaviours the upstream data does not reach — slice aliasing when a
//! `$setElementOrder` apply deletes and adds items, duplicate merge keys and
//! Go's tie order in sorts — with the built-in kinds' metadata.

use releasex::go::json::to_go_json;
use releasex::patch::meta::{LookupPatchMeta, OpenApiV2Meta, TypeTable, builtin_kind};
use releasex::patch::strategic::{PatchError, apply, create_three_way, create_two_way, parse_document, sort_merge_lists_by_name};
use serde_json::{Map, Value};
use std::fmt::Write as _;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/conformance/strategicpatch");

fn load(name: &str) -> Value {
    let path = format!("{DIR}/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The files, their case counts, and the ones whose expectations hold for
/// OpenAPI metadata too (the upstream tables run against it in Go).
const FILES: &[(&str, usize)] = &[
    ("create_patch.json", 22),
    ("create_patch_raw.json", 94),
    ("replace_raw_extension.json", 2),
    ("apply_patch.json", 18),
    ("apply_patch_raw.json", 10),
    ("unknown_field.json", 15),
    ("number_conversion.json", 7),
    ("sort_merge_lists.json", 8),
    ("go_probes.json", 25),
];

/// Which metadata a run uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Source {
    StructTags,
    OpenApiV2,
}

/// A document of a case: absent, or present (JSON text for `json-text`).
#[derive(Clone)]
enum Doc {
    Absent,
    Value(Value),
    Text(String),
}

impl Doc {
    fn get(case: &Map<String, Value>, field: &str, text: bool) -> Doc {
        match case.get(field) {
            None | Some(Value::Null) => Doc::Absent,
            Some(Value::String(s)) if text => Doc::Text(s.clone()),
            Some(v) => Doc::Value(v.clone()),
        }
    }

    fn present(&self) -> bool {
        !matches!(self, Doc::Absent)
    }

    /// The input of a create call: absent or empty -> no document (`{}`).
    fn create_input(&self) -> Result<Value, PatchError> {
        match self {
            Doc::Absent => Ok(Value::Null),
            Doc::Value(v) => Ok(v.clone()),
            Doc::Text(t) if t.is_empty() => Ok(Value::Null),
            Doc::Text(t) => parse_document(t),
        }
    }

    /// The input of an apply call (`StrategicMergePatch`): Go reads nil as
    /// `{}` but fails on empty bytes.
    fn apply_input(&self) -> Result<Value, PatchError> {
        match self {
            Doc::Absent => Ok(Value::Null),
            Doc::Value(v) => Ok(v.clone()),
            Doc::Text(t) => parse_document(t),
        }
    }

    /// The expected value and the exact bytes Go produced (text sets) or
    /// Go's bytes of the value.
    fn expected(&self) -> (Value, String) {
        match self {
            Doc::Absent => (Value::Object(Map::new()), "{}".to_owned()),
            Doc::Value(v) => (v.clone(), to_go_json(v)),
            Doc::Text(t) => (serde_json::from_str(t).unwrap_or_else(|e| panic!("expected document {t}: {e}")), t.clone()),
        }
    }

    fn presorted<'a, M: LookupPatchMeta<'a>>(&self, meta: &M) -> Doc {
        match self {
            Doc::Value(v) => Doc::Value(sort_merge_lists_by_name(v, meta).unwrap_or_else(|e| panic!("presort: {e}"))),
            other => other.clone(),
        }
    }
}

/// Values equal the way Go's bytes would be: objects by key, lists in
/// order, numbers by their Go JSON spelling.
fn go_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(_), Value::Number(_)) => to_go_json(a) == to_go_json(b),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| go_equal(p, q)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| go_equal(v, w))),
        _ => a == b,
    }
}

struct Run<'r> {
    file: &'r str,
    variant: String,
    failures: Vec<String>,
    notes: Vec<String>,
    case_failed: bool,
}

impl Run<'_> {
    fn fail(&mut self, case: &Map<String, Value>, check: &str, expected: &str, actual: &str) {
        self.case_failed = true;
        let id = case.get("id").and_then(Value::as_str).unwrap_or("?");
        let description = case.get("description").and_then(Value::as_str).unwrap_or("");
        let mut s = String::new();
        let _ = write!(s, "[{} / {}] {id} ({description}) {check}:\n  expected: {expected}\n  actual:   {actual}", self.file, self.variant);
        self.failures.push(s);
    }

    /// Compares a computed document with the expected one, as values and as
    /// Go bytes.
    fn compare(&mut self, case: &Map<String, Value>, check: &str, expected: &Doc, actual: &Value) {
        let (want, want_bytes) = expected.expected();
        let got_bytes = to_go_json(actual);
        if !go_equal(&want, actual) {
            self.fail(case, check, &want_bytes, &got_bytes);
        } else if want_bytes != got_bytes {
            if to_go_json(&want) == got_bytes && to_go_json(&want) != want_bytes {
                // The expected text itself does not survive serde_json's
                // parse: a float read without correct rounding (serde_json
                // needs its `float_roundtrip` feature). Not the patch code.
                let id = case.get("id").and_then(Value::as_str).unwrap_or("?");
                self.notes.push(format!(
                    "[{} / {}] {id} {check}: expected bytes {want_bytes} do not survive serde_json's float parsing (got {got_bytes}); enable serde_json's `float_roundtrip` feature",
                    self.file, self.variant
                ));
            } else {
                self.fail(case, &format!("{check} (Go bytes)"), &want_bytes, &got_bytes);
            }
        }
    }

    fn expect_error(&mut self, case: &Map<String, Value>, check: &str, want: &str, got: Result<Value, PatchError>) {
        match got {
            Err(e) if e.to_string().contains(want) => {}
            Err(e) => self.fail(case, check, &format!("error containing {want:?}"), &format!("error {:?}", e.to_string())),
            Ok(v) => self.fail(case, check, &format!("error containing {want:?}"), &to_go_json(&v)),
        }
    }
}

fn text_field<'c>(case: &'c Map<String, Value>, field: &str) -> Option<&'c str> {
    case.get(field).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// Runs one case of a set that creates patches.
fn run_create_case<'a, M: LookupPatchMeta<'a>>(run: &mut Run, case: &Map<String, Value>, checks: &[&str], text: bool, meta: &M, source: Source, presort: bool) {
    let doc = |f: &str| {
        let d = Doc::get(case, f, text);
        if presort { d.presorted(meta) } else { d }
    };
    let (original, modified, current) = (doc("original"), doc("modified"), doc("current"));
    let (two_way, two_way_result, three_way, result) = (doc("twoWay"), doc("twoWayResult"), doc("threeWay"), doc("result"));
    // With OpenAPI metadata Go's test accepts either the expected error or
    // the expected patch (an arbitrary-typed field has no metadata to fail).
    let lenient = source == Source::OpenApiV2;

    if checks.contains(&"createTwoWay") {
        let created = match (original.create_input(), modified.create_input()) {
            (Ok(o), Ok(m)) => create_two_way(&o, &m, meta),
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        let mut patch = None;
        match (text_field(case, "twoWayError"), created) {
            (Some(want), Err(e)) => run.expect_error(case, "createTwoWay error", want, Err(e)),
            (Some(want), Ok(p)) if !lenient || !two_way.present() => run.expect_error(case, "createTwoWay error", want, Ok(p)),
            (_, Ok(p)) => {
                run.compare(case, "createTwoWay", &two_way, &p);
                patch = Some(p);
            }
            (None, Err(e)) => run.fail(case, "createTwoWay", "a patch", &format!("error {:?}", e.to_string())),
        }
        if let Some(patch) = patch
            && checks.contains(&"applyTwoWay")
        {
            let applied = original.apply_input().and_then(|o| apply(&o, &patch, meta));
            if let Some(want) = text_field(case, "twoWayResultError") {
                run.expect_error(case, "applyTwoWay error", want, applied);
            } else {
                let expected = if two_way_result.present() { &two_way_result } else { &modified };
                match applied {
                    Ok(v) => run.compare(case, "applyTwoWay", expected, &v),
                    Err(e) => run.fail(case, "applyTwoWay", "a result", &format!("error {:?}", e.to_string())),
                }
            }
        }
    }

    if checks.contains(&"createThreeWay") {
        let inputs = (original.create_input(), modified.create_input(), current.create_input());
        let (o, m, c) = match inputs {
            (Ok(o), Ok(m), Ok(c)) => (o, m, c),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                run.fail(case, "createThreeWay inputs", "documents", &e.to_string());
                return;
            }
        };
        let conflict_expected = case.get("conflictWithoutOverwrite").and_then(Value::as_bool).unwrap_or(false);
        let no_overwrite = create_three_way(&o, &m, &c, meta, false);
        if let Some(want) = text_field(case, "threeWayError") {
            match no_overwrite {
                Ok(p) if lenient && three_way.present() => run.compare(case, "createThreeWay", &three_way, &p),
                other => run.expect_error(case, "createThreeWay error", want, other),
            }
            return;
        }
        match (&no_overwrite, conflict_expected) {
            (Err(e), true) if e.is_conflict() => {}
            (Err(e), _) => run.fail(
                case,
                "createThreeWay overwrite=false",
                if conflict_expected { "a conflict" } else { "a patch" },
                &format!("error {:?}", e.to_string()),
            ),
            (Ok(p), true) => run.fail(case, "createThreeWay overwrite=false", "a conflict", &to_go_json(p)),
            (Ok(p), false) => run.compare(case, "createThreeWay overwrite=false", &three_way, p),
        }
        match create_three_way(&o, &m, &c, meta, true) {
            Ok(patch) => {
                run.compare(case, "createThreeWay", &three_way, &patch);
                if checks.contains(&"applyThreeWay") {
                    let applied = current.apply_input().and_then(|c| apply(&c, &patch, meta));
                    if let Some(want) = text_field(case, "resultError") {
                        run.expect_error(case, "applyThreeWay error", want, applied);
                    } else {
                        match applied {
                            Ok(v) => run.compare(case, "applyThreeWay", &result, &v),
                            Err(e) => run.fail(case, "applyThreeWay", "a result", &format!("error {:?}", e.to_string())),
                        }
                    }
                }
            }
            Err(e) => run.fail(case, "createThreeWay", "a patch", &format!("error {:?}", e.to_string())),
        }
    }
}

/// Runs one case of an apply-only set.
fn run_apply_case<'a, M: LookupPatchMeta<'a>>(run: &mut Run, case: &Map<String, Value>, text: bool, meta: &M, presort: bool) {
    let doc = |f: &str| {
        let d = Doc::get(case, f, text);
        if presort { d.presorted(meta) } else { d }
    };
    let (original, modified, patch, two_way_result) = (doc("original"), doc("modified"), doc("twoWay"), doc("twoWayResult"));
    let applied = original.apply_input().and_then(|o| patch.apply_input().and_then(|p| apply(&o, &p, meta)));
    if let Some(want) = text_field(case, "expectedError") {
        run.expect_error(case, "applyTwoWay error", want, applied);
        return;
    }
    let expected = if two_way_result.present() { &two_way_result } else { &modified };
    match applied {
        Ok(v) => run.compare(case, "applyTwoWay", expected, &v),
        Err(e) => run.fail(case, "applyTwoWay", "a result", &format!("error {:?}", e.to_string())),
    }
}

/// Runs every case of a file with one metadata source; returns (passed,
/// total, failures).
fn run_file<'a, M: LookupPatchMeta<'a>>(name: &str, data: &Value, meta: &M, source: Source, presort: bool) -> (usize, usize, Vec<String>) {
    let text = data.get("documentFormat").and_then(Value::as_str) == Some("json-text");
    let checks: Vec<&str> = data["checks"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let variant = format!("{source:?}{}", if presort { ", presorted" } else { "" });
    let mut run = Run { file: name, variant, failures: Vec::new(), notes: Vec::new(), case_failed: false };
    let cases = data["cases"].as_array().unwrap();
    let mut passed = 0;
    for case in cases {
        let case = case.as_object().unwrap();
        run.case_failed = false;
        if checks.contains(&"sortMergeListsByName") {
            let original = Doc::get(case, "original", false).create_input().unwrap();
            let sorted = Doc::get(case, "sorted", false);
            match sort_merge_lists_by_name(&original, meta) {
                Ok(v) => run.compare(case, "sortMergeListsByName", &sorted, &v),
                Err(e) => run.fail(case, "sortMergeListsByName", "a document", &e.to_string()),
            }
        } else if checks.contains(&"createTwoWay") || checks.contains(&"createThreeWay") {
            run_create_case(&mut run, case, &checks, text, meta, source, presort);
        } else {
            run_apply_case(&mut run, case, text, meta, presort);
        }
        if !run.case_failed {
            passed += 1;
        }
    }
    for n in &run.notes {
        println!("note: {n}");
    }
    (passed, cases.len(), run.failures)
}

struct Schemas {
    table: TypeTable,
    merge_item_v2: OpenApiV2Meta,
    precision_item_v2: OpenApiV2Meta,
}

fn schemas() -> Schemas {
    Schemas {
        table: TypeTable::from_conformance_schema(&load("schema.json")).unwrap(),
        merge_item_v2: OpenApiV2Meta::from_document(&load("swagger/swagger-merge-item.json")).unwrap(),
        precision_item_v2: OpenApiV2Meta::from_document(&load("swagger/swagger-precision-item.json")).unwrap(),
    }
}

/// Runs a file with the metadata source (and presort variant) given.
fn run(s: &Schemas, name: &str, data: &Value, source: Source, presort: bool) -> (usize, usize, Vec<String>) {
    let precision = data.get("schema").and_then(Value::as_str) == Some("PrecisionItem");
    match source {
        Source::StructTags => {
            let root = s.table.root(if precision { "PrecisionItem" } else { "MergeItem" }).unwrap();
            run_file(name, data, &root, source, presort)
        }
        Source::OpenApiV2 => {
            let root = if precision { s.precision_item_v2.definition("precisionItem") } else { s.merge_item_v2.definition("mergeItem") };
            run_file(name, data, &root.unwrap(), source, presort)
        }
    }
}

fn report(title: &str, rows: &[(String, usize, usize)], failures: &[String]) {
    println!("{title}");
    for (name, passed, total) in rows {
        println!("  {name:<48} {passed:>3}/{total}");
    }
    if !failures.is_empty() {
        println!("{} mismatches:", failures.len());
        for f in failures {
            println!("{f}");
        }
    }
}

#[test]
fn every_case_with_struct_tag_metadata() {
    let s = schemas();
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    let (mut upstream, mut probes) = (0, 0);
    for &(name, count) in FILES {
        let data = load(name);
        assert_eq!(data["cases"].as_array().map(Vec::len), Some(count), "{name}: number of cases");
        let (passed, total, f) = run(&s, name, &data, Source::StructTags, false);
        if name == "go_probes.json" {
            probes += passed;
        } else {
            upstream += passed;
        }
        rows.push((name.to_owned(), passed, total));
        failures.extend(f);
        if data.get("upstreamPresorts").and_then(Value::as_bool) == Some(true) {
            let (passed, total, f) = run(&s, name, &data, Source::StructTags, true);
            rows.push((format!("{name} (presorted)"), passed, total));
            failures.extend(f);
        }
    }
    rows.push(("upstream cases".to_owned(), upstream, 176));
    rows.push(("go probes".to_owned(), probes, 25));
    report("strategic merge patch, Go struct-tag metadata", &rows, &failures);
    assert!(failures.is_empty(), "{} mismatches (see output above)", failures.len());
}

#[test]
fn upstream_cases_with_openapi_v2_metadata() {
    let s = schemas();
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    for &(name, _) in FILES {
        let data = load(name);
        let (passed, total, f) = run(&s, name, &data, Source::OpenApiV2, false);
        rows.push((name.to_owned(), passed, total));
        failures.extend(f);
        if data.get("upstreamPresorts").and_then(Value::as_bool) == Some(true) {
            let (passed, total, f) = run(&s, name, &data, Source::OpenApiV2, true);
            rows.push((format!("{name} (presorted)"), passed, total));
            failures.extend(f);
        }
    }
    report("strategic merge patch, OpenAPI v2 metadata", &rows, &failures);
    assert!(failures.is_empty(), "{} mismatches (see output above)", failures.len());
}

#[test]
fn kubectl_probes_with_builtin_metadata() {
    let data = load("kubectl_probes.json");
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(data["count"].as_u64(), Some(cases.len() as u64));
    let mut run = Run { file: "kubectl_probes.json", variant: "built-in kinds".to_owned(), failures: Vec::new(), notes: Vec::new(), case_failed: false };
    let mut passed = 0;
    for case in cases {
        let case = case.as_object().unwrap();
        run.case_failed = false;
        let kind = case["kind"].as_str().unwrap();
        let (api_version, kind) = kind.rsplit_once('/').unwrap();
        let meta = builtin_kind(api_version, kind).unwrap_or_else(|| panic!("no built-in kind {api_version} {kind}")).meta;
        let doc = |f: &str| Doc::get(case, f, true);
        match case["check"].as_str() {
            Some("apply") => match doc("original").apply_input().and_then(|o| doc("patch").apply_input().and_then(|p| apply(&o, &p, &meta))) {
                Ok(v) => {
                    let (want, want_bytes) = doc("result").expected();
                    if !go_equal(&want, &v) {
                        run.fail(case, "apply", &want_bytes, &to_go_json(&v));
                    }
                }
                Err(e) => run.fail(case, "apply", "a result", &e.to_string()),
            },
            Some("createThreeWay") => {
                let inputs = (doc("original").create_input(), doc("modified").create_input(), doc("current").create_input());
                let created = match inputs {
                    (Ok(o), Ok(m), Ok(c)) => create_three_way(&o, &m, &c, &meta, true),
                    (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Err(e),
                };
                match created {
                    Ok(p) => run.compare(case, "createThreeWay", &doc("threeWay"), &p),
                    Err(e) => run.fail(case, "createThreeWay", "a patch", &e.to_string()),
                }
            }
            other => panic!("unknown check {other:?}"),
        }
        if !run.case_failed {
            passed += 1;
        }
    }
    report("strategic merge patch vs kubectl v1.32.4", &[("kubectl_probes.json".to_owned(), passed, cases.len())], &run.failures);
    assert!(run.failures.is_empty(), "{} mismatches (see output above)", run.failures.len());
}
