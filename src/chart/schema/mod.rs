//! `values.schema.json` validation as Helm does it
//! (helm: pkg/chart/common/util/jsonschema.go `ValidateAgainstSchema`):
//! the chart's schema against all its values, then for every subchart its
//! schema against the section named after it; a section that is missing or
//! null is skipped, one that is not a map is an error of its own.
//!
//! Helm's validator is santhosh-tekuri/jsonschema v6; ours is the
//! `jsonschema` crate. What is kept the same: the default draft (2020-12
//! when `$schema` is absent), formats asserted only up to draft 7, a whole
//! number is an `integer` even in draft 4 and even when it came from YAML as
//! a float, relative `$ref`s resolve against `file:///values.schema.json`,
//! and `urn:` references that cannot be resolved count as `true`. Helm
//! would fetch `http(s)://` and `file://` references; we do not (pure, no
//! I/O), so such a schema reports an error naming the reference. Messages
//! are phrased as Helm's validator phrases them (`got string, want
//! integer`, `missing property 'x'`, `minimum: got 0, want 1`), one line
//! per violation, sorted by path; Helm nests some under a `validation
//! failed` line and orders them as Go's map iteration falls.

mod tree;

use super::Chart;
use crate::go::fmt::{go_float, go_v};
use crate::keypath::{Path, Seg};
use jsonschema::error::ValidationErrorKind as K;
use serde_json::Value;

use std::fmt;

/// One failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The chart's name as Helm prints it (the alias of an aliased subchart,
    /// once dependencies are processed).
    pub chart: String,
    /// The chart's display path ([`Chart::path`]).
    pub chart_path: String,
    /// The schema file, relative to the top chart.
    pub schema_file: String,
    pub kind: SchemaErrorKind,
    /// Where in the chart's own values, as a JSON pointer (`/image/tag`;
    /// `""` is the chart's values as a whole).
    pub instance_path: String,
    /// The same place from the top of the values, as `values explain`
    /// prints paths (`sub1.image.tag`).
    pub values_path: Path,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaErrorKind {
    /// A value breaks the schema.
    Violation,
    /// The schema itself cannot be used (not JSON, not a schema, an
    /// unresolvable `$ref`).
    InvalidSchema,
    /// The subchart's section is not a map.
    NotAMap,
}

/// Every failure, in chart order (parent first, then subcharts depth
/// first), sorted by path within a chart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaErrors {
    pub errors: Vec<SchemaError>,
}

impl fmt::Display for SchemaErrors {
    /// Helm's layout: the heading `ToRenderValuesWithSchemaValidation`
    /// adds, then each chart's name and its errors.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "values don't meet the specifications of the schema(s) in the following chart(s):"
        )?;
        // Two aliases of one subchart share a path but not a name.
        let mut last: Option<(&str, &str)> = None;
        for e in &self.errors {
            let this = (e.chart.as_str(), e.chart_path.as_str());
            if last != Some(this) {
                writeln!(f, "{}:", e.chart)?;
                last = Some(this);
            }
            match e.kind {
                SchemaErrorKind::Violation => {
                    writeln!(f, "- at {}: {}", quote(&e.instance_path), e.message)?
                }
                SchemaErrorKind::InvalidSchema | SchemaErrorKind::NotAMap => {
                    writeln!(f, "{}", e.message)?
                }
            }
        }
        Ok(())
    }
}

impl std::error::Error for SchemaErrors {}

impl SchemaError {
    /// The message with the failing value `v` (as the message quotes it)
    /// replaced by `<secret>`: the place and the rule stay.
    pub fn hide_value(&mut self, v: &Value) {
        let shown = display(v);
        if !matches!(v, Value::Array(_) | Value::Object(_)) && !shown.is_empty() {
            self.message = self.message.replace(&shown, "<secret>");
        }
    }
}

/// Validates `values` (the coalesced values) against the schema of
/// `chart` and of every subchart in `chart.dependencies`, each against the
/// section named after the subchart's `metadata.name`. Pass the chart tree
/// as dependency processing leaves it (disabled subcharts removed, aliased
/// ones renamed to the alias), as Helm validates after processing.
pub fn validate_values(chart: &Chart, values: &Value) -> Result<(), SchemaErrors> {
    validate_tree(&SchemaTree::of(chart), values)
}

/// The charts to validate as dependency processing left them: each loaded
/// chart under its processed name (its alias), with the subcharts that stayed
/// enabled. Borrowed, so that building it copies no chart files.
#[derive(Debug)]
pub struct SchemaTree<'a> {
    pub chart: &'a Chart,
    pub name: String,
    pub dependencies: Vec<SchemaTree<'a>>,
}

impl<'a> SchemaTree<'a> {
    /// The loaded tree as it is (no dependency processing).
    pub fn of(chart: &'a Chart) -> Self {
        SchemaTree { chart, name: chart.metadata.name.clone(), dependencies: chart.dependencies.iter().map(SchemaTree::of).collect() }
    }

    /// Whether this chart has a schema (valid or not) to validate against.
    pub fn has_schema(&self) -> bool {
        self.chart.schema.is_some() || self.chart.schema_error.is_some()
    }
}

/// [`validate_values`] over a [`SchemaTree`]. `values` needs, outside the
/// sections of charts with a schema, only the subcharts' keys: the rest is
/// never read.
pub fn validate_tree(tree: &SchemaTree, values: &Value) -> Result<(), SchemaErrors> {
    let mut errors = Vec::new();
    validate_chart(tree, values, &Path::root(), &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(SchemaErrors { errors })
    }
}

fn validate_chart(tree: &SchemaTree, values: &Value, base: &Path, out: &mut Vec<SchemaError>) {
    let chart = tree.chart;
    let error = |kind, instance_path: String, values_path: Path, message: String| SchemaError {
        chart: tree.name.clone(),
        chart_path: chart.path.clone(),
        schema_file: chart.schema_file.clone(),
        kind,
        instance_path,
        values_path,
        message,
    };
    if let Some(message) = &chart.schema_error {
        out.push(error(
            SchemaErrorKind::InvalidSchema,
            String::new(),
            base.clone(),
            message.clone(),
        ));
    } else if let Some(schema) = &chart.schema {
        match validate_one(schema, values) {
            Ok(found) => {
                for (pointer, shown, message) in found {
                    let values_path = to_values_path(base, values, &pointer);
                    out.push(error(
                        SchemaErrorKind::Violation,
                        shown,
                        values_path,
                        message,
                    ));
                }
            }
            Err(message) => out.push(error(
                SchemaErrorKind::InvalidSchema,
                String::new(),
                base.clone(),
                message,
            )),
        }
    }
    for sub in &tree.dependencies {
        let name = &sub.name;
        match values.get(name) {
            None | Some(Value::Null) => {}
            Some(section @ Value::Object(_)) => validate_chart(sub, section, &base.key(name), out),
            Some(other) => out.push(SchemaError {
                chart: name.clone(),
                chart_path: sub.chart.path.clone(),
                schema_file: sub.chart.schema_file.clone(),
                kind: SchemaErrorKind::NotAMap,
                instance_path: String::new(),
                values_path: base.key(name),
                message: format!(
                    "invalid type for values: expected object (map), got {}",
                    go_type(other)
                ),
            }),
        }
    }
}

/// Go's `%T` of a value as Helm holds it.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(n) if n.is_u64() => "uint64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// Helm's `urnLoader`: an unresolvable `urn:` reference is the schema
/// `true`. Anything else is not fetched.
struct Retriever;

impl jsonschema::Retrieve for Retriever {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        if uri.as_str().starts_with("urn:") {
            return Ok(Value::Bool(true));
        }
        Err(format!("{uri} is not fetched (Helm would load it; releasex validates without file or network access)").into())
    }
}

/// Validates one schema; `Err` when the schema cannot be compiled. Each
/// failure: the place of the failing value, the place v6 prints, the message.
fn validate_one(schema: &Value, instance: &Value) -> Result<Vec<(String, String, String)>, String> {
    let validator = match jsonschema::options().with_base_uri("file:///values.schema.json").with_retriever(Retriever).build(schema) {
        Ok(v) => v,
        Err(e) => return Err(metaschema_failure(schema).unwrap_or_else(|| e.to_string())),
    };
    Ok(failures(&validator, schema, instance))
}

/// santhosh-tekuri/jsonschema v6 (compiler.go, `SchemaValidationError`): a
/// schema that is not valid against its draft's metaschema, worded as v6
/// validates it (the metaschema's `allOf` of vocabularies, through
/// `$dynamicRef`, gives one `'allOf' failed` per schema level). `None`: the
/// schema is valid against it (the crate failed for another reason).
fn metaschema_failure(schema: &Value) -> Option<String> {
    // v6's default draft is 2020-12 (Helm sets none); `$schema` picks another.
    let (meta, url) = match schema.get("$schema").and_then(Value::as_str).map(|s| s.trim_end_matches('#')) {
        Some("http://json-schema.org/draft-04/schema") => (jsonschema::draft4::meta::validator(), "http://json-schema.org/draft-04/schema#"),
        Some("http://json-schema.org/draft-06/schema") => (jsonschema::draft6::meta::validator(), "http://json-schema.org/draft-06/schema#"),
        Some("http://json-schema.org/draft-07/schema") => (jsonschema::draft7::meta::validator(), "http://json-schema.org/draft-07/schema#"),
        Some("https://json-schema.org/draft/2019-09/schema") => (jsonschema::draft201909::meta::validator(), "https://json-schema.org/draft/2019-09/schema#"),
        _ => (jsonschema::draft202012::meta::validator(), "https://json-schema.org/draft/2020-12/schema#"),
    };
    let found = failures(&meta, &Value::Null, schema);
    if found.is_empty() {
        return None;
    }
    let mut out = format!("\"file:///values.schema.json#\" is not valid against metaschema: jsonschema validation failed with {}", quote(url));
    for (_, shown, message) in found {
        out.push_str(&format!("\n- at {}: {}", quote(&shown), message));
    }
    Some(out)
}

/// The failures of `instance` against `validator` in v6's words and shape;
/// `schema` is the validator's schema document (for the keywords whose words
/// need it: `contains`, `dependentRequired`).
fn failures(validator: &jsonschema::Validator, schema: &Value, instance: &Value) -> Vec<(String, String, String)> {
    let instance = whole_floats_as_integers(instance);
    // Each failure with the schema path it sorts by (v6's evaluation order).
    let mut found: Vec<(String, String, String)> = Vec::new();
    let mut missing: Vec<(String, Vec<String>, String)> = Vec::new();
    let mut dependent: Vec<(String, String, Vec<String>, String)> = Vec::new();
    // v6 (validator.go, propertyNames) validates each name as an instance of
    // its own, so the failure and its causes are printed `at ''`.
    let mut names: Vec<(String, String, String)> = Vec::new();
    // v6 (validator.go `validate`): a failed `type`, `const` or `enum` is the
    // schema's only failure for that value; its other keywords are not
    // evaluated (so nothing below it fails either).
    let errors: Vec<_> = validator.iter_errors(&instance).collect();
    let stops: Vec<(String, String)> = errors
        .iter()
        .filter(|e| matches!(e.kind(), K::Type { .. } | K::Constant { .. } | K::Enum { .. }))
        .filter_map(|e| e.schema_path().as_str().rsplit_once('/').map(|(at, _)| (format!("{at}/"), e.instance_path().as_str().to_string())))
        .collect();
    let stopped = |e: &jsonschema::ValidationError| {
        let (sp, ptr) = (e.schema_path().as_str(), e.instance_path().as_str());
        let stop = matches!(e.kind(), K::Type { .. } | K::Constant { .. } | K::Enum { .. });
        stops.iter().any(|(at, p)| sp.starts_with(at.as_str()) && (ptr == p || ptr.starts_with(&format!("{p}/"))) && !(stop && sp.rsplit_once('/').is_some_and(|(x, _)| format!("{x}/") == *at) && ptr == p && first_stop(&errors, at, p, sp)))
    };
    let kept: Vec<_> = errors.iter().filter(|e| !stopped(e)).collect();
    for e in kept {
        let pointer = e.instance_path().as_str().to_string();
        // The path through `$ref`s: v6 nests a referenced schema's failures under the reference.
        let spath = e.evaluation_path().as_str().to_string();
        if let K::PropertyNames { .. } = e.kind() {
            let msg = message(e.kind(), e.instance(), &e.to_string());
            names.push((pointer.clone(), msg.replace(&format!("- at {}:", quote(&pointer)), "- at '':"), spath));
            continue;
        }
        // v6 (validator.go, contains): every item's failure is a cause.
        if let K::Contains = e.kind() {
            let items = lookup(&instance, &pointer).and_then(Value::as_array);
            let lines = lookup(schema, e.schema_path().as_str())
                .zip(items)
                .map(|(sub, items)| contains_causes(schema, sub, items, &pointer))
                .unwrap_or_default();
            found.push((pointer, format!("no items match contains schema{lines}"), spath));
            continue;
        }
        // santhosh-tekuri/jsonschema v6 (kind.go DependentRequired): `properties 'z' required, if 'a' exists`.
        if let K::Required { property } = e.kind()
            && let Some((at, _)) = e.schema_path().as_str().split_once("/dependentRequired").map(|(a, b)| (format!("{a}/dependentRequired"), b))
        {
            let p = property.as_str().map_or_else(|| property.to_string(), str::to_string);
            let object = lookup(&instance, &pointer).and_then(Value::as_object);
            let trigger = lookup(schema, &at).and_then(Value::as_object).and_then(|deps| {
                deps.iter()
                    .find(|(k, req)| object.is_some_and(|o| o.contains_key(*k)) && req.as_array().is_some_and(|r| r.iter().any(|x| x.as_str() == Some(&p))))
                    .map(|(k, _)| k.clone())
            });
            if let Some(prop) = trigger {
                match dependent.iter_mut().find(|(ptr, pr, _, _)| *ptr == pointer && *pr == prop) {
                    Some((_, _, list, _)) => list.push(p),
                    None => dependent.push((pointer, prop, vec![p], at)),
                }
                continue;
            }
        }
        if let K::Required { property } = e.kind() {
            let p = property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_string);
            // One `required` keyword's missing names are one failure.
            match missing.iter_mut().find(|(ptr, _, sp)| *ptr == pointer && *sp == spath) {
                Some((_, list, _)) => list.push(p),
                None => missing.push((pointer, vec![p], spath)),
            }
            continue;
        }
        // This crate reports `additionalProperties: false` with neither
        // `properties` nor `patternProperties` as a false schema at the
        // object; every key is then an additional property.
        if matches!(e.kind(), K::FalseSchema)
            && e.schema_path().as_str().ends_with("/additionalProperties")
            && let Some(Value::Object(m)) = lookup(&instance, &pointer)
        {
            let keys: Vec<String> = m.keys().map(|k| quote(k)).collect();
            found.push((
                pointer,
                format!("additional properties {} not allowed", keys.join(", ")),
                spath,
            ));
            continue;
        }
        found.push((pointer, message(e.kind(), e.instance(), &e.to_string()), spath));
    }
    for (pointer, props, spath) in missing {
        let msg = if props.len() == 1 {
            format!("missing property {}", quote(&props[0]))
        } else {
            format!(
                "missing properties {}",
                props
                    .iter()
                    .map(|p| quote(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        found.push((pointer, msg, spath));
    }
    for (pointer, prop, props, spath) in dependent {
        let list: Vec<String> = props.iter().map(|p| quote(p)).collect();
        found.push((pointer, format!("properties {} required, if {} exists", list.join(", "), quote(&prop)), spath));
    }
    let mut failures: Vec<tree::Failure> = found.into_iter().map(|(pointer, message, schema_path)| tree::Failure { shown: pointer.clone(), pointer, message, schema_path }).collect();
    failures.extend(names.into_iter().map(|(pointer, message, schema_path)| tree::Failure { pointer, shown: String::new(), message, schema_path }));
    tree::v6_tree(failures)
}

/// Whether `sp` is the first of the short-circuiting failures (type, const,
/// enum: v6 stops at the first, in that order) of the schema at `at` for `p`.
fn first_stop(errors: &[jsonschema::ValidationError], at: &str, p: &str, sp: &str) -> bool {
    let rank = |s: &str| ["type", "const", "enum"].iter().position(|k| s.ends_with(&format!("/{k}")));
    let mine = rank(sp);
    !errors.iter().any(|e| {
        let other = e.schema_path().as_str();
        e.instance_path().as_str() == p && other.rsplit_once('/').is_some_and(|(x, _)| format!("{x}/") == at) && rank(other).is_some() && rank(other) < mine
    })
}

/// santhosh-tekuri/jsonschema v6's evaluation order of keywords in one
/// schema (validator.go: `validate`, then `objValidate`, `arrValidate`,
/// `strValidate`, `numValidate`, `validateRefs`, `condValidate`,
/// `unevalValidate`); its failures are listed in that order.
const V6_ORDER: [&str; 50] = [
    "false", "type", "const", "enum", "format", "$ref",
    "minProperties", "maxProperties", "required", "dependencies", "properties", "patternProperties", "additionalProperties", "propertyNames", "dependentSchemas", "dependentRequired",
    "minItems", "maxItems", "uniqueItems", "items", "additionalItems", "prefixItems", "contains", "minContains", "maxContains",
    "minLength", "maxLength", "pattern", "contentEncoding", "contentMediaType", "contentSchema",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "$recursiveRef", "$dynamicRef", "not", "allOf", "anyOf", "oneOf", "if", "then", "else",
    "unevaluatedProperties", "unevaluatedItems", "", "", "",
];

/// Sort key of a failure: per schema level, the keyword's place in
/// [`V6_ORDER`] and which child it went into (a property's name, a
/// subschema's or an item's index); children an instance token names (an
/// item of `items`, a key under `additionalProperties`) take it from the
/// failure's place. Go's map order of several failing properties is random
/// in Helm; we take the names in order.
fn v6_order(schema_path: &str, pointer: &str) -> Vec<(usize, (u8, u64, String))> {
    let segs: Vec<&str> = schema_path.split('/').skip(1).collect();
    let place = pointer_key(pointer);
    let mut token = 0;
    let mut out = Vec::new();
    let mut i = 0;
    while i < segs.len() {
        let rank = V6_ORDER.iter().position(|k| *k == segs[i]).unwrap_or(V6_ORDER.len());
        let next = segs.get(i + 1).copied();
        let indexed = next.and_then(|s| s.parse::<u64>().ok());
        let (width, sub) = match segs[i] {
            "properties" | "patternProperties" | "dependentSchemas" if next.is_some() => (2, (1, 0, next.unwrap_or_default().to_string())),
            "allOf" | "anyOf" | "oneOf" | "prefixItems" if indexed.is_some() => (2, (0, indexed.unwrap_or_default(), String::new())),
            "items" if indexed.is_some() => (2, (0, indexed.unwrap_or_default(), String::new())),
            "items" | "additionalProperties" | "additionalItems" | "unevaluatedItems" | "unevaluatedProperties" => (1, place.get(token).cloned().unwrap_or_default()),
            _ => (1, (0, 0, String::new())),
        };
        if matches!(segs[i], "properties" | "patternProperties" | "prefixItems" | "items" | "additionalProperties" | "additionalItems" | "unevaluatedItems" | "unevaluatedProperties") {
            token += 1;
        }
        out.push((rank, sub));
        i += width;
    }
    out
}

/// The causes v6 gives a failed `contains`: each item's failure `at` the
/// item, one failure as it is, several under `validation failed` (v6's
/// `validateVal` of the subschema per item, validator.go). The subschema is
/// validated with the root's `$schema`, `$defs` and `definitions` beside it
/// (so such references resolve); one that does not compile so gets no causes.
fn contains_causes(root: &Value, sub: &Value, items: &[Value], pointer: &str) -> String {
    let doc = match sub {
        Value::Object(keys) => {
            let mut doc: serde_json::Map<String, Value> = root.as_object().into_iter().flatten().filter(|(k, _)| matches!(k.as_str(), "$schema" | "$defs" | "definitions")).map(|(k, v)| (k.clone(), v.clone())).collect();
            doc.extend(keys.iter().map(|(k, v)| (k.clone(), v.clone())));
            Value::Object(doc)
        }
        other => other.clone(),
    };
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        let Ok(errs) = validate_one(&doc, item) else { return String::new() };
        // Places inside the item are relative to it: prefix the item's place (quoting is per character).
        let prefix = quote(&format!("{pointer}/{i}"));
        let prefix = &prefix[1..prefix.len() - 1];
        let line = |p: &str, m: &str, pad: &str| {
            let m = m.replace("- at '", &format!("- at '{prefix}")).replace("\n  ", &format!("\n{pad}  "));
            format!("\n{pad}- at '{prefix}{}: {m}", &quote(p)[1..])
        };
        match errs.as_slice() {
            [] => {}
            [(_, p, m)] => out.push_str(&line(p, m, "  ")),
            many => {
                out.push_str(&format!("\n  - at '{prefix}': validation failed"));
                for (_, p, m) in many {
                    out.push_str(&line(p, m, "    "));
                }
            }
        }
    }
    out
}

/// Sort key: the pointer's tokens, numbers as numbers.
fn pointer_key(p: &str) -> Vec<(u8, u64, String)> {
    tokens(p)
        .into_iter()
        .map(|t| {
            t.parse::<u64>()
                .map_or((1, 0, t.clone()), |n| (0, n, String::new()))
        })
        .collect()
}

fn lookup<'a>(v: &'a Value, pointer: &str) -> Option<&'a Value> {
    tokens(pointer).iter().try_fold(v, |cur, t| match cur {
        Value::Object(m) => m.get(t),
        Value::Array(a) => t.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

fn tokens(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

fn to_values_path(base: &Path, values: &Value, pointer: &str) -> Path {
    let mut path = base.clone();
    let mut cur = Some(values);
    for t in tokens(pointer) {
        match cur {
            Some(Value::Array(items)) if t.parse::<usize>().is_ok() => {
                let i: usize = t.parse().unwrap_or(0);
                cur = items.get(i);
                path.0.push(Seg::Index(i));
            }
            Some(Value::Object(m)) => {
                cur = m.get(&t);
                path.0.push(Seg::Key(t));
            }
            _ => {
                cur = None;
                path.0.push(Seg::Key(t));
            }
        }
    }
    path
}

/// santhosh-tekuri/jsonschema counts any whole number as an integer, in
/// every draft; values from YAML files are float64 in Helm.
fn whole_floats_as_integers(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() == 0.0 && f.abs() < 9.2e18 {
                Value::from(f as i64)
            } else {
                v.clone()
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(whole_floats_as_integers).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), whole_floats_as_integers(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The jsonschema v6 wording for a violation (helm's validator); other
/// kinds keep this crate's message.
fn message(kind: &K, instance: &Value, fallback: &str) -> String {
    let num = || instance.as_f64().map(group_number).unwrap_or_default();
    let limit = |v: &Value| {
        v.as_f64()
            .map(group_number)
            .unwrap_or_else(|| v.to_string())
    };
    let count = || match instance {
        Value::String(s) => s.chars().count(),
        Value::Array(a) => a.len(),
        Value::Object(m) => m.len(),
        _ => 0,
    };
    match kind {
        K::Type { kind } => {
            let want: Vec<&str> = match kind {
                jsonschema::error::TypeKind::Single(t) => vec![t.as_str()],
                jsonschema::error::TypeKind::Multiple(set) => {
                    set.iter().map(|t| t.as_str()).collect()
                }
            };
            let order = [
                "null", "boolean", "number", "integer", "string", "array", "object",
            ];
            let mut want = want;
            want.sort_by_key(|t| order.iter().position(|o| o == t));
            format!("got {}, want {}", json_type(instance), want.join(" or "))
        }
        K::AdditionalProperties { unexpected } => {
            format!(
                "additional properties {} not allowed",
                unexpected
                    .iter()
                    .map(|p| quote(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        K::Minimum { limit: l } => format!("minimum: got {}, want {}", num(), limit(l)),
        K::Maximum { limit: l } => format!("maximum: got {}, want {}", num(), limit(l)),
        K::ExclusiveMinimum { limit: l } => {
            format!("exclusiveMinimum: got {}, want {}", num(), limit(l))
        }
        K::ExclusiveMaximum { limit: l } => {
            format!("exclusiveMaximum: got {}, want {}", num(), limit(l))
        }
        K::MultipleOf { multiple_of } => format!(
            "multipleOf: got {}, want {}",
            num(),
            group_number(*multiple_of)
        ),
        K::MinLength { limit } => format!("minLength: got {}, want {limit}", count()),
        K::MaxLength { limit } => format!("maxLength: got {}, want {limit}", count()),
        K::MinItems { limit } => format!("minItems: got {}, want {limit}", count()),
        K::MaxItems { limit } => format!("maxItems: got {}, want {limit}", count()),
        K::MinProperties { limit } => format!("minProperties: got {}, want {limit}", count()),
        K::MaxProperties { limit } => format!("maxProperties: got {}, want {limit}", count()),
        K::Enum { options } => match options.as_ref() {
            Value::Array(items) if items.iter().all(|i| !i.is_array() && !i.is_object()) => {
                if items.len() == 1 {
                    format!("value must be {}", display(&items[0]))
                } else {
                    format!(
                        "value must be one of {}",
                        items.iter().map(display).collect::<Vec<_>>().join(", ")
                    )
                }
            }
            _ => "enum failed".into(),
        },
        K::Constant { expected_value } => match expected_value.as_ref() {
            v @ (Value::Array(_) | Value::Object(_)) => {
                let _ = v;
                "const failed".into()
            }
            v => format!("value must be {}", display(v)),
        },
        K::Pattern { pattern } => format!(
            "{} does not match pattern {}",
            display(instance),
            quote(pattern)
        ),
        K::Format { format } => format!("{} is not valid {format}", display(instance)),
        K::UniqueItems => match instance.as_array().and_then(|a| first_duplicate(a)) {
            Some((i, j)) => format!("items at {i} and {j} are equal"),
            None => "items are not unique".into(),
        },
        K::FalseSchema => "false schema".into(),
        // v6 (kind.go Required), as a cause (at the top, several are joined).
        K::Required { property } => format!("missing property {}", quote(property.as_str().unwrap_or_default())),
        K::Not { .. } => "'not' failed".into(),
        // v6 lists the causes under the failed keyword, two spaces deeper per level.
        K::AnyOf { context } => format!("'anyOf' failed{}", causes(context, 1)),
        K::OneOfNotValid { context } => format!("'oneOf' failed, none matched{}", causes(context, 1)),
        K::OneOfMultipleValid { context } => {
            // v6 (kind.go OneOf): the first two subschemas that matched.
            let matched: Vec<String> = context.iter().enumerate().filter(|(_, errs)| errs.is_empty()).map(|(i, _)| i.to_string()).take(2).collect();
            if matched.len() == 2 {
                format!("'oneOf' failed, subschemas {} matched", matched.join(", "))
            } else {
                "'oneOf' failed, more than one subschema matched".into()
            }
        }
        K::Contains => "no items match contains schema".into(),
        K::AdditionalItems { limit } => {
            let extra = instance
                .as_array()
                .map_or(0, |a| a.len().saturating_sub(*limit));
            format!("last {extra} additionalItem(s) not allowed")
        }
        K::PropertyNames { error } => {
            format!("invalid propertyName {}{}", display(error.instance()), cause_lines(std::slice::from_ref(error.as_ref()), 1, ""))
        }
        K::UnevaluatedProperties { unexpected } => {
            format!(
                "unevaluated properties {} not allowed",
                unexpected
                    .iter()
                    .map(|p| quote(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        _ => fallback.to_string(),
    }
}

/// The causes of a failed `anyOf`/`oneOf`, every subschema's errors in order.
fn causes(context: &[Vec<jsonschema::ValidationError<'static>>], depth: usize) -> String {
    context
        .iter()
        .map(|errs| {
            let failures = errs
                .iter()
                .map(|e| {
                    let pointer = e.instance_path().as_str().to_string();
                    tree::Failure { shown: pointer.clone(), pointer, message: message(e.kind(), e.instance(), &e.to_string()), schema_path: e.evaluation_path().as_str().to_string() }
                })
                .collect();
            tree::branch_lines(failures, depth)
        })
        .collect()
}

/// `\n  - at 'PTR': MESSAGE` per error, indented two spaces per `depth`; a
/// property name's cause is at the object (`at ''` relative to `base`).
fn cause_lines(errors: &[jsonschema::ValidationError<'static>], depth: usize, base: &str) -> String {
    let pad = "  ".repeat(depth);
    let mut out = String::new();
    for e in errors {
        let ptr = format!("{base}{}", e.instance_path().as_str());
        let msg = message(e.kind(), e.instance(), &e.to_string());
        // Nested causes keep their own indentation, one level deeper.
        let msg = msg.replace("\n  ", &format!("\n{pad}  "));
        out.push_str(&format!("\n{pad}- at {}: {msg}", quote(&ptr)));
    }
    out
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            if json_equal(&items[i], &items[j]) {
                return Some((i, j));
            }
        }
    }
    None
}

fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// jsonschema v6 `display`: strings quoted, lists and maps as `value`,
/// the rest as Go's `%v`.
fn display(v: &Value) -> String {
    match v {
        Value::String(s) => quote(s),
        Value::Array(_) | Value::Object(_) => "value".into(),
        other => go_v(other),
    }
}

/// jsonschema v6 `quote`: Go's `%q` in single quotes.
fn quote(s: &str) -> String {
    let q = crate::go::quote::quote(s);
    let inner = &q[1..q.len() - 1];
    format!("'{}'", inner.replace("\\\"", "\"").replace('\'', "\\'"))
}

/// A number as golang.org/x/text's English printer shows `%v` of a
/// float64: thousands grouped (`5,000`), exponents as `1.5×10⁰⁶`.
fn group_number(f: f64) -> String {
    let s = go_float(f);
    if s.contains("Inf") || s.contains("NaN") {
        return s;
    }
    if let Some((mantissa, exp)) = s.split_once('e') {
        let sup: String = exp
            .chars()
            .filter_map(|c| match c {
                '-' => Some('⁻'),
                '+' => None,
                d => d
                    .to_digit(10)
                    .map(|d| ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d as usize]),
            })
            .collect();
        return format!("{mantissa}×10{sup}");
    }
    let (sign, rest) = s.strip_prefix('-').map_or(("", s.as_str()), |r| ("-", r));
    let (int, frac) = rest
        .split_once('.')
        .map_or((rest, None), |(i, f)| (i, Some(f)));
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn chart(name: &str, schema: Option<Value>, deps: Vec<Chart>) -> Chart {
        Chart {
            metadata: crate::chart::Metadata {
                name: name.into(),
                version: "0.1.0".into(),
                api_version: "v2".into(),
                ..Default::default()
            },
            values_text: None,
            values_file: "values.yaml".into(),
            schema,
            schema_error: None,
            schema_file: "values.schema.json".into(),
            chart_file: "Chart.yaml".into(),
            dependencies: deps,
            path: name.into(),
            warnings: vec![],
            werf_files: vec![],
            templates: vec![],
            files: vec![],
        }
    }

    fn lines(r: Result<(), SchemaErrors>) -> Vec<String> {
        r.unwrap_err()
            .errors
            .iter()
            .map(|e| {
                format!(
                    "{}|{}|{}|{}",
                    e.chart, e.instance_path, e.values_path, e.message
                )
            })
            .collect()
    }

    #[test]
    fn a_hidden_value_leaves_the_rule_and_the_place() {
        let schema = json!({"type": "object", "properties": {"pw": {"type": "string", "pattern": "^x$"}}});
        let c = chart("p", Some(schema), vec![]);
        let mut errors = validate_values(&c, &json!({"pw": "hunter2"})).unwrap_err();
        errors.errors[0].hide_value(&json!("hunter2"));
        assert_eq!(lines(Err(errors)), ["p|/pw|pw|<secret> does not match pattern '^x$'"]);
    }

    #[test]
    fn messages_read_like_helms_validator() {
        let schema = json!({"type": "object", "required": ["a", "b"], "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 1000},
            "s": {"type": "string", "enum": ["x", "y"]},
            "o": {"type": "object", "additionalProperties": false},
            "l": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}}});
        let c = chart("p", Some(schema), vec![]);
        let got = lines(validate_values(
            &c,
            &json!({"n": 5000.0, "s": "z", "o": {"k": 1, "j": 2}, "l": ["a", 1, "a"]}),
        ));
        assert_eq!(
            got,
            [
                "p|||missing properties 'a', 'b'",
                // v6: the two failures of `l`'s schema are one group at `/l` (checked against Helm 4.2.3).
                "p|/l|l|validation failed\n  - at '/l': items at 0 and 2 are equal\n  - at '/l/1': got number, want string",
                "p|/n|n|maximum: got 5,000, want 1,000",
                "p|/o|o|additional properties 'k', 'j' not allowed",
                "p|/s|s|value must be one of 'x', 'y'",
            ]
        );
    }

    #[test]
    fn whole_floats_are_integers_even_in_draft_4() {
        let schema = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"a": {"type": "integer"}}});
        let c = chart("p", Some(schema), vec![]);
        assert!(validate_values(&c, &json!({"a": 1.0})).is_ok());
        assert_eq!(
            lines(validate_values(&c, &json!({"a": 1.5}))),
            ["p|/a|a|got number, want integer"]
        );
    }

    #[test]
    fn subcharts_validate_their_own_section_and_skip_missing_ones() {
        let sub = chart(
            "sub",
            Some(json!({"type": "object", "required": ["port"]})),
            vec![],
        );
        let c = chart("p", None, vec![sub]);
        assert!(
            validate_values(&c, &json!({})).is_ok(),
            "a missing section is not validated"
        );
        assert!(validate_values(&c, &json!({"sub": null})).is_ok());
        assert_eq!(
            lines(validate_values(&c, &json!({"sub": {}}))),
            ["sub||sub|missing property 'port'"]
        );
        assert_eq!(
            lines(validate_values(&c, &json!({"sub": 3}))),
            ["sub||sub|invalid type for values: expected object (map), got int64"]
        );
    }

    #[test]
    fn display_groups_by_chart_like_helm() {
        let sub = chart(
            "sub",
            Some(json!({"properties": {"port": {"type": "integer"}}})),
            vec![],
        );
        let c = chart(
            "p",
            Some(json!({"properties": {"a": {"type": "string"}}})),
            vec![sub],
        );
        let e = validate_values(&c, &json!({"a": 1, "sub": {"port": "x"}})).unwrap_err();
        assert_eq!(
            e.to_string(),
            "values don't meet the specifications of the schema(s) in the following chart(s):\np:\n- at '/a': got number, want string\nsub:\n- at '/port': got string, want integer\n"
        );
    }

    #[test]
    fn urn_references_are_permissive_and_others_are_not_fetched() {
        let c = chart("p", Some(json!({"$ref": "urn:example:x"})), vec![]);
        assert!(validate_values(&c, &json!({"a": 1})).is_ok());
        let c = chart("p", Some(json!({"$ref": "other.json"})), vec![]);
        let e = validate_values(&c, &json!({})).unwrap_err();
        assert_eq!(e.errors[0].kind, SchemaErrorKind::InvalidSchema);
        assert!(
            e.errors[0].message.contains("file:///other.json"),
            "{}",
            e.errors[0].message
        );
    }

    #[test]
    fn formats_are_asserted_only_up_to_draft_7() {
        let s7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"a": {"format": "email"}}});
        let s2020 = json!({"properties": {"a": {"format": "email"}}});
        assert_eq!(
            lines(validate_values(
                &chart("p", Some(s7), vec![]),
                &json!({"a": "foo"})
            )),
            ["p|/a|a|'foo' is not valid email"]
        );
        assert!(validate_values(&chart("p", Some(s2020), vec![]), &json!({"a": "foo"})).is_ok());
    }

    #[test]
    fn an_unparsable_schema_fails_at_validation() {
        let mut c = chart("p", None, vec![]);
        c.schema_error = Some("EOF".into());
        assert_eq!(
            validate_values(&c, &json!({})).unwrap_err().to_string(),
            "values don't meet the specifications of the schema(s) in the following chart(s):\np:\nEOF\n"
        );
    }

    #[test]
    fn numbers_group_thousands() {
        assert_eq!(group_number(5000.0), "5,000");
        assert_eq!(group_number(-123456.5), "-123,456.5");
        assert_eq!(group_number(1234567.5), "1.2345675×10⁰⁶");
        assert_eq!(group_number(0.00000001), "1×10⁻⁰⁸");
        assert_eq!(group_number(123456789012.0), "1.23456789012×10¹¹");
        assert_eq!(group_number(12.0), "12");
    }
}
