//! helmfile's own test tables, kept as data in
//! tests/data/helmfile/maputil.json, run against our engine.

use serde_json::{Value, json};

use super::maputil::{self, ArrayStrategy};
use super::state::{self, Ctx, Part};
use super::{Io, Request};
use crate::keypath::Path;
use crate::values::tree::{Kind, Origin, Recorder, Source, V, map_from_json, map_to_json};

const TABLES: &str = include_str!("../../tests/data/helmfile/maputil.json");

fn tables() -> Value {
    serde_json::from_str(TABLES).expect("the conformance tables are valid JSON")
}

fn origin() -> Origin {
    Origin::new(Source::Helm { why: "table".into() })
}

fn tree(v: &Value) -> crate::values::tree::VMap {
    map_from_json(v.as_object().expect("a map"), false, &origin())
}

#[test]
fn merge_maps_table() {
    for case in tables()["merge_maps"].as_array().unwrap() {
        let strategy = ArrayStrategy::parse(case["strategy"].as_str().unwrap()).unwrap();
        let out = maputil::merge_maps(&tree(&case["base"]), &tree(&case["override"]), strategy, &Path::root(), &mut Recorder::default());
        assert_eq!(Value::Object(map_to_json(&out)), case["expected"], "{}", case["id"]);
    }
}

#[test]
fn parse_key_table() {
    for case in tables()["parse_key"].as_array().unwrap() {
        let got = maputil::parse_key(case[0].as_str().unwrap());
        assert_eq!(json!(got), case[1], "{}", case[0]);
    }
}

#[test]
fn typed_val_table() {
    for case in tables()["typed_val"].as_array().unwrap() {
        let kind = maputil::typed_val(case["in"].as_str().unwrap(), case["string"].as_bool().unwrap());
        assert_eq!(V::new(kind, origin()).to_json(), case["out"], "{case}");
    }
}

#[test]
fn set_table() {
    for case in tables()["set"].as_array().unwrap() {
        let mut m = tree(&case["start"]);
        for expr in case["sets"].as_array().unwrap() {
            let expr = expr.as_str().unwrap();
            for (k, v) in maputil::split_set(expr).unwrap() {
                maputil::set(&mut m, &maputil::parse_key(&k), &v, false, &origin(), expr, &mut Recorder::default()).unwrap();
            }
        }
        assert_eq!(Value::Object(map_to_json(&m)), case["expected"], "{}", case["id"]);
    }
}

struct NoFiles;

impl Io for NoFiles {
    fn read(&self, path: &std::path::Path) -> Result<String, String> {
        Err(format!("{}: no files in this test", path.display()))
    }
    fn exists(&self, _: &std::path::Path) -> bool {
        false
    }
    fn sops_decrypt(&self, _: &std::path::Path) -> Result<String, String> {
        Err("no sops in this test".into())
    }
    fn template_host(&self, _: &std::path::Path, _: &Request) -> Box<dyn crate::gotmpl::func::Host + '_> {
        Box::new(crate::gotmpl::func::FixedHost::default())
    }
}

#[test]
fn environment_values_loader_table() {
    for case in tables()["env_values"].as_array().unwrap() {
        let req = Request::default();
        let mut cx = Ctx { io: &NoFiles, req: &req, skipped: Vec::new() };
        let entries: Vec<V> = case["entries"].as_array().unwrap().iter().map(|e| V::new(Kind::Map(tree(e)), origin())).collect();
        let part = Part::default();
        let out = state::values_entries(&mut cx, &part, std::path::Path::new("."), &entries, case["strategy"].as_str().unwrap(), "environment", &state::Env::default(), &mut Recorder::default()).unwrap();
        assert_eq!(Value::Object(map_to_json(&out)), case["expected"], "{}", case["id"]);
    }
}
