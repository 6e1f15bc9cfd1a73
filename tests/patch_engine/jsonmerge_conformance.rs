//! Conformance of `releasex::patch::jsonmerge` (and the Go JSON bytes of
//! `releasex::go::json`) against the data in
//! `tests/conformance/jsonmergepatch/` (a copy of `shared/conformance`; see
//! its README for the format and the checks):
//!
//! - `three_way.json` (23 cases from apimachinery's
//!   `TestCreateThreeWayJSONMergePatch`): `createThreeWay`, `applyThreeWay`.
//! - `filter_nulls.json` (15 cases from `TestKeepOrDeleteNullInObj`): the
//!   null filter, both ways.
//! - `go_probes.json` (9 cases generated with the real Go code, JSON text
//!   compared byte for byte): two-way patch, its application to `current`,
//!   three-way patch, its application to `current`.
//!
//! Patches are compared the way the Go tests compare them: as the bytes of Go's
//! `json.Marshal` (compact, keys sorted, list order kept). Every case runs;
//! a failure lists each mismatch with case id, description, expected and
//! actual.

use releasex::go::json::to_go_json;
use releasex::patch::jsonmerge::{
    JsonMergeError, apply, create_merge_patch, create_three_way, keep_or_delete_null,
};
use serde_json::{Map, Value};

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/conformance/jsonmergepatch"
);

fn load(name: &str) -> Value {
    let path = format!("{DIR}/{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The cases of a data file, checking the declared count.
fn cases(file: &Value, name: &str, expected_count: usize) -> Vec<Map<String, Value>> {
    let cases: Vec<Map<String, Value>> = file["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: no cases"))
        .iter()
        .map(|c| {
            c.as_object()
                .cloned()
                .unwrap_or_else(|| panic!("{name}: case is not an object"))
        })
        .collect();
    assert_eq!(
        file["count"].as_u64(),
        Some(cases.len() as u64),
        "{name}: count field"
    );
    assert_eq!(cases.len(), expected_count, "{name}: number of cases");
    cases
}

/// Collected mismatches of one data file.
struct Report {
    file: &'static str,
    failures: Vec<String>,
    failed_cases: std::collections::BTreeSet<String>,
}

impl Report {
    fn new(file: &'static str) -> Self {
        Report {
            file,
            failures: Vec::new(),
            failed_cases: Default::default(),
        }
    }

    fn check(&mut self, case: &Map<String, Value>, check: &str, expected: &str, actual: &str) {
        if expected != actual {
            let id = case.get("id").and_then(Value::as_str).unwrap_or("?");
            let description = case
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("");
            self.failed_cases.insert(id.to_owned());
            self.failures.push(format!(
                "{id} ({description}) [{check}]\n  expected: {expected}\n  actual:   {actual}"
            ));
        }
    }

    fn finish(self, total: usize) {
        let passed = total - self.failed_cases.len();
        eprintln!("{}: {passed}/{total} cases pass", self.file);
        if !self.failures.is_empty() {
            panic!(
                "{}: {} of {total} cases fail ({} mismatches):\n\n{}",
                self.file,
                self.failed_cases.len(),
                self.failures.len(),
                self.failures.join("\n\n")
            );
        }
    }
}

/// The Go bytes of a result, or the error text (so that an unexpected error
/// shows up as a mismatch).
fn bytes_or_error(r: &Result<Value, JsonMergeError>) -> String {
    match r {
        Ok(v) => to_go_json(v),
        Err(e) => format!("error: {e}"),
    }
}

/// A document of a `value` set: absent or `null` means "no document" (`{}`).
fn value_doc(case: &Map<String, Value>, field: &str) -> Value {
    match case.get(field) {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(v) => v.clone(),
    }
}

#[test]
fn three_way() {
    let file = load("three_way.json");
    assert_eq!(file["documentFormat"], "value");
    let cases = cases(&file, "three_way", 23);
    let mut report = Report::new("three_way.json");
    for case in &cases {
        let original = value_doc(case, "original");
        let modified = value_doc(case, "modified");
        let current = value_doc(case, "current");
        let expected_patch = value_doc(case, "threeWay");

        let created = create_three_way(&original, &modified, &current, &[]);
        report.check(
            case,
            "createThreeWay",
            &to_go_json(&expected_patch),
            &bytes_or_error(&created),
        );

        // Apply what was created (as the Go test does); fall back to the
        // expected patch so the apply check still runs.
        let patch = created.unwrap_or(expected_patch);
        let result = apply(&current, &patch);
        report.check(
            case,
            "applyThreeWay",
            &to_go_json(&value_doc(case, "result")),
            &bytes_or_error(&result),
        );
    }
    report.finish(cases.len());
}

#[test]
fn filter_nulls() {
    let file = load("filter_nulls.json");
    assert_eq!(file["documentFormat"], "value");
    let cases = cases(&file, "filter_nulls", 15);
    let mut report = Report::new("filter_nulls.json");
    for case in &cases {
        let Value::Object(original) = value_doc(case, "originalObj") else {
            panic!("{:?}: originalObj is not an object", case.get("id"));
        };
        let with_null = Value::Object(keep_or_delete_null(original.clone(), true));
        report.check(
            case,
            "keepNull=true",
            &to_go_json(&value_doc(case, "expectedWithNull")),
            &to_go_json(&with_null),
        );
        let without_null = Value::Object(keep_or_delete_null(original, false));
        report.check(
            case,
            "keepNull=false",
            &to_go_json(&value_doc(case, "expectedWithoutNull")),
            &to_go_json(&without_null),
        );
    }
    report.finish(cases.len());
}

/// A document of a `json-text` set: `""` or absent means "no document".
fn text_doc(case: &Map<String, Value>, field: &str) -> Option<Value> {
    match case.get(field).and_then(Value::as_str) {
        None | Some("") => None,
        Some(text) => Some(
            serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("{:?} {field}: invalid JSON text: {e}", case.get("id"))),
        ),
    }
}

fn text_field<'a>(case: &'a Map<String, Value>, field: &str) -> Option<&'a str> {
    case.get(field).and_then(Value::as_str)
}

/// Checks an apply outcome against `<field>` (JSON text) or `<error_field>`
/// (expected error substring).
fn check_apply(
    report: &mut Report,
    case: &Map<String, Value>,
    check: &str,
    field: &str,
    error_field: &str,
    outcome: &Result<Value, JsonMergeError>,
) {
    if let Some(expected_err) = text_field(case, error_field) {
        let actual = match outcome {
            Err(e) if e.to_string().contains(expected_err) => {
                format!("error containing {expected_err:?}")
            }
            other => bytes_or_error(other),
        };
        report.check(
            case,
            check,
            &format!("error containing {expected_err:?}"),
            &actual,
        );
    } else if let Some(expected) = text_field(case, field) {
        report.check(case, check, expected, &bytes_or_error(outcome));
    }
}

#[test]
fn go_probes() {
    let file = load("go_probes.json");
    assert_eq!(file["documentFormat"], "json-text");
    let cases = cases(&file, "go_probes", 9);
    let mut report = Report::new("go_probes.json");
    let empty = || Value::Object(Map::new());
    for case in &cases {
        // "No document" is an empty object for the create functions (Go:
        // empty input / null) and for the apply target (the test harness).
        let original = text_doc(case, "original").unwrap_or_else(empty);
        let modified = text_doc(case, "modified").unwrap_or_else(empty);
        let current = text_doc(case, "current").unwrap_or_else(empty);

        // The Go bytes of every document given as text are reproduced by
        // to_go_json after parsing (they are Go's own output).
        for field in ["twoWay", "twoWayResultOnCurrent", "threeWay", "result"] {
            if let (Some(text), Some(v)) = (text_field(case, field), text_doc(case, field)) {
                report.check(case, &format!("{field} re-marshal"), text, &to_go_json(&v));
            }
        }

        // Two-way: what `helm upgrade` sends for a custom resource.
        let two_way = create_merge_patch(&original, &modified);
        if let Some(expected) = text_field(case, "twoWay") {
            report.check(case, "twoWay", expected, &bytes_or_error(&two_way));
        }
        let two_way_patch = two_way.ok().or_else(|| text_doc(case, "twoWay"));
        if let Some(patch) = &two_way_patch {
            let outcome = apply(&current, patch);
            check_apply(
                &mut report,
                case,
                "twoWayResultOnCurrent",
                "twoWayResultOnCurrent",
                "twoWayResultError",
                &outcome,
            );
        }
        // Go applies the patch bytes: the parsed expected text must give the
        // same result.
        if let Some(patch) = text_doc(case, "twoWay") {
            let outcome = apply(&current, &patch);
            check_apply(
                &mut report,
                case,
                "twoWayResultOnCurrent (expected patch)",
                "twoWayResultOnCurrent",
                "twoWayResultError",
                &outcome,
            );
        }

        // Three-way.
        let three_way = create_three_way(&original, &modified, &current, &[]);
        if let Some(expected) = text_field(case, "threeWay") {
            report.check(case, "threeWay", expected, &bytes_or_error(&three_way));
        }
        if let Some(patch) = three_way.ok().or_else(|| text_doc(case, "threeWay")) {
            let outcome = apply(&current, &patch);
            check_apply(
                &mut report,
                case,
                "result",
                "result",
                "resultError",
                &outcome,
            );
        }
        if let Some(patch) = text_doc(case, "threeWay") {
            let outcome = apply(&current, &patch);
            check_apply(
                &mut report,
                case,
                "result (expected patch)",
                "result",
                "resultError",
                &outcome,
            );
        }
    }
    report.finish(cases.len());
}
