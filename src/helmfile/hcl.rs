//! HCL values files: every `values { }` block of every file in one pass,
//! `hv.NAME` referring to other values and `local.NAME` to the same file's
//! `locals { }`; a name defined in several files is deep-merged in file
//! order (objects merge, a null keeps the earlier value, anything else
//! replaces). helmfile: pkg/hcllang/hcl_loader.go (ecf604d).

use std::rc::Rc;

use hcl::eval::{Context, Evaluate};

use super::HelmfileError;
use crate::values::tree::{Kind, Source, V, VMap};

struct Def {
    file: usize,
    name: String,
    line: usize,
    column: usize,
    expr: hcl::Expression,
}

/// Renders `files` (name, text) into one map.
pub fn render(files: &[(String, String)]) -> Result<VMap, HelmfileError> {
    let mut defs: Vec<Def> = Vec::new();
    let mut locals: Vec<Vec<Def>> = Vec::new();
    for (i, (name, text)) in files.iter().enumerate() {
        let err = |message: String| HelmfileError::Hcl { file: name.clone(), message };
        let body = hcl::parse(text).map_err(|e| err(e.to_string()))?;
        let mut file_locals = Vec::new();
        for block in body.blocks() {
            let target = match block.identifier() {
                "values" => &mut defs,
                "locals" => &mut file_locals,
                other => return Err(err(format!("unexpected block {other:?} (only `values` and `locals`)"))),
            };
            for a in block.body().attributes() {
                let (line, column) = position_of(text, a.key());
                if target.iter().any(|d: &Def| d.name == a.key() && d.file == i) {
                    return Err(err(format!("{:?} is defined twice in this file", a.key())));
                }
                target.push(Def { file: i, name: a.key().to_string(), line, column, expr: a.expr().clone() });
            }
        }
        locals.push(file_locals);
    }
    // Locals first (per file), then values, each evaluated once what it refers to is known.
    let mut local_vals: Vec<hcl::Map<String, hcl::Value>> = Vec::new();
    for (i, ls) in locals.iter().enumerate() {
        let empty = hcl::Map::new();
        local_vals.push(fixpoint(ls, &files[i].0, &|_| None, &empty)?);
    }
    let mut hv = hcl::Map::new();
    // Every name's definitions as evaluated (file, value), in file order.
    let mut evaluated: Vec<(String, Vec<(usize, hcl::Value)>)> = Vec::new();
    let mut pending: Vec<&Def> = defs.iter().collect();
    // Several definitions of one name merge in file order, so all of a name's
    // definitions are evaluated in one round.
    while !pending.is_empty() {
        let mut progress = false;
        let mut names: Vec<String> = pending.iter().map(|d| d.name.clone()).collect();
        names.dedup();
        for name in names {
            let group: Vec<&&Def> = pending.iter().filter(|d| d.name == name).collect();
            let mut merged: Option<hcl::Value> = None;
            let mut each: Vec<(usize, hcl::Value)> = Vec::new();
            let mut ok = true;
            for d in &group {
                let mut ctx = Context::new();
                ctx.declare_var("hv", hcl::Value::Object(hv.clone()));
                ctx.declare_var("local", hcl::Value::Object(local_vals[d.file].clone()));
                match d.expr.evaluate(&ctx) {
                    Ok(v) => {
                        each.push((d.file, v.clone()));
                        merged = Some(match merged.take() {
                            None => v,
                            Some(a) => merge(a, v),
                        });
                    }
                    Err(_) => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok && let Some(v) = merged {
                hv.insert(name.clone(), v);
                evaluated.push((name.clone(), each));
                pending.retain(|d| d.name != name);
                progress = true;
            }
        }
        if !progress {
            let d = pending[0];
            let mut ctx = Context::new();
            ctx.declare_var("hv", hcl::Value::Object(hv.clone()));
            ctx.declare_var("local", hcl::Value::Object(local_vals[d.file].clone()));
            let message = d.expr.evaluate(&ctx).err().map_or_else(|| "cannot be evaluated".to_string(), |e| e.to_string());
            return Err(HelmfileError::Hcl { file: files[d.file].0.clone(), message: format!("line {}: {}: {message}", d.line, d.name) });
        }
    }
    // Each key to the definition that set it (merged as the values were), at
    // its own key when written literally in an object, else at the attribute.
    let offsets: Vec<KeyOffsets> = files.iter().map(|(_, text)| key_offsets(text)).collect();
    let mut out = VMap::default();
    for (name, v) in hv {
        let Some((_, each)) = evaluated.iter().find(|(n, _)| *n == name) else { continue };
        let mut acc: Option<V> = None;
        for (file, value) in each {
            let Some(d) = defs.iter().find(|d| d.name == name && d.file == *file) else { continue };
            let place = Place { file: &files[*file].0, text: &files[*file].1, offsets: &offsets[*file], name: &name, at: (d.line, d.column) };
            let t = to_tree_at(value, &place, &mut Vec::new());
            acc = Some(match acc {
                None => t,
                Some(a) => merge_tree(a, t),
            });
        }
        out.insert(name, acc.unwrap_or_else(|| to_tree(&v, &Rc::new(Source::Helm { why: "hcl".into() }))));
    }
    Ok(out)
}

/// Byte offsets of the literal object keys under each `values` attribute: (attribute, key path) -> offset.
type KeyOffsets = std::collections::HashMap<(String, Vec<String>), usize>;

fn key_offsets(text: &str) -> KeyOffsets {
    use hcl_edit::structure::Structure;
    let mut out = KeyOffsets::new();
    let Ok(body) = hcl_edit::parser::parse_body(text) else { return out };
    for s in body.iter() {
        let Structure::Block(b) = s else { continue };
        if b.ident.as_str() != "values" {
            continue;
        }
        for s in b.body.iter() {
            if let Structure::Attribute(a) = s {
                object_keys(&a.value, a.key.as_str(), &mut Vec::new(), &mut out);
            }
        }
    }
    out
}

fn object_keys(e: &hcl_edit::expr::Expression, name: &str, path: &mut Vec<String>, out: &mut KeyOffsets) {
    use hcl_edit::Span;
    use hcl_edit::expr::{Expression, ObjectKey};
    let Expression::Object(o) = e else { return };
    for (k, v) in o.iter() {
        let (key, span) = match k {
            ObjectKey::Ident(id) => (id.as_str().to_string(), id.span()),
            ObjectKey::Expression(Expression::String(s)) => (s.as_str().to_string(), s.span()),
            _ => continue,
        };
        path.push(key);
        if let Some(span) = span {
            out.insert((name.to_string(), path.clone()), span.start);
        }
        object_keys(v.expr(), name, path, out);
        path.pop();
    }
}

/// Where one definition's keys are.
struct Place<'a> {
    file: &'a str,
    text: &'a str,
    offsets: &'a KeyOffsets,
    name: &'a str,
    /// The attribute's own line and column.
    at: (usize, usize),
}

fn to_tree_at(v: &hcl::Value, place: &Place, path: &mut Vec<String>) -> V {
    let (line, column) = place.offsets.get(&(place.name.to_string(), path.clone())).map_or(place.at, |off| crate::gotmpl::line_col(place.text, *off));
    let origin = Rc::new(Source::Helmfile { layer: "hcl".into(), file: Some(place.file.to_string()), line: Some(line), column: Some(column), expr: None, secret: false, via: None });
    let kind = match v {
        hcl::Value::Object(m) => Kind::Map(
            m.iter()
                .map(|(k, x)| {
                    path.push(k.clone());
                    let t = to_tree_at(x, place, path);
                    path.pop();
                    (k.clone(), t)
                })
                .collect(),
        ),
        hcl::Value::Array(a) => Kind::List(a.iter().map(|x| to_tree(x, &origin)).collect()),
        other => to_tree(other, &origin).kind,
    };
    V::new(kind, origin)
}

/// [`merge`] on trees with origins.
fn merge_tree(a: V, b: V) -> V {
    match (a.kind, b.kind) {
        (ak, Kind::Null) => V::new(ak, a.origin),
        (Kind::Map(mut am), Kind::Map(bm)) => {
            for (k, bv) in bm {
                let v = match am.shift_remove(&k) {
                    Some(av) => merge_tree(av, bv),
                    None => bv,
                };
                am.insert(k, v);
            }
            V::new(Kind::Map(am), b.origin)
        }
        (_, bk) => V::new(bk, b.origin),
    }
}

fn fixpoint(defs: &[Def], file: &str, _: &dyn Fn(&str) -> Option<hcl::Value>, _: &hcl::Map<String, hcl::Value>) -> Result<hcl::Map<String, hcl::Value>, HelmfileError> {
    let mut done = hcl::Map::new();
    let mut pending: Vec<&Def> = defs.iter().collect();
    while !pending.is_empty() {
        let before = pending.len();
        let mut i = 0;
        while i < pending.len() {
            let mut ctx = Context::new();
            ctx.declare_var("local", hcl::Value::Object(done.clone()));
            if let Ok(v) = pending[i].expr.evaluate(&ctx) {
                done.insert(pending[i].name.clone(), v);
                pending.remove(i);
            } else {
                i += 1;
            }
        }
        if pending.len() == before {
            let d = pending[0];
            return Err(HelmfileError::Hcl { file: file.into(), message: format!("line {}: local.{} cannot be evaluated", d.line, d.name) });
        }
    }
    Ok(done)
}

/// `ctyMergeValues(a, b)`.
fn merge(a: hcl::Value, b: hcl::Value) -> hcl::Value {
    match (a, b) {
        (a, hcl::Value::Null) => a,
        (hcl::Value::Object(mut am), hcl::Value::Object(bm)) => {
            for (k, bv) in bm {
                let v = match am.shift_remove(&k) {
                    Some(av) => merge(av, bv),
                    None => bv,
                };
                am.insert(k, v);
            }
            hcl::Value::Object(am)
        }
        (_, b) => b,
    }
}

/// The 1-based line and column of the first `NAME =` in `text` (hcl-rs
/// keeps no positions; `0` when not found).
fn position_of(text: &str, name: &str) -> (usize, usize) {
    text.lines()
        .enumerate()
        .find_map(|(i, l)| {
            let t = l.trim_start();
            t.strip_prefix(name).is_some_and(|r| r.trim_start().starts_with('=')).then(|| (i + 1, l[..l.len() - t.len()].chars().count() + 1))
        })
        .unwrap_or((0, 0))
}

fn to_tree(v: &hcl::Value, origin: &Rc<Source>) -> V {
    let kind = match v {
        hcl::Value::Null => Kind::Null,
        hcl::Value::Bool(b) => Kind::Bool(*b),
        hcl::Value::Number(n) => match n.as_i64() {
            Some(i) => Kind::Int(i),
            None => Kind::Float(n.as_f64().unwrap_or(0.0)),
        },
        hcl::Value::String(s) => Kind::Str(s.clone()),
        hcl::Value::Array(a) => Kind::List(a.iter().map(|x| to_tree(x, origin)).collect()),
        hcl::Value::Object(m) => Kind::Map(m.iter().map(|(k, x)| (k.clone(), to_tree(x, origin))).collect()),
    };
    V::new(kind, origin.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::tree::map_to_json;
    use serde_json::json;

    #[test]
    fn values_refer_to_each_other_and_merge_across_files() {
        let a = "locals {\n  env = \"prod\"\n}\nvalues {\n  app = { name = \"web-${local.env}\", replicas = 2 }\n}\n";
        let b = "values {\n  app = { replicas = 3 }\n  url = \"${hv.app.name}.example\"\n}\n";
        let m = render(&[("a.hcl".into(), a.into()), ("b.hcl".into(), b.into())]).unwrap();
        assert_eq!(serde_json::Value::Object(map_to_json(&m)), json!({"app": {"name": "web-prod", "replicas": 3}, "url": "web-prod.example"}));
        assert!(matches!(&*m["url"].origin, Source::Helmfile { line: Some(3), .. }));
        // Nested keys: each at its own key, in the file whose definition set it.
        let app = m["app"].as_map().unwrap();
        assert!(matches!(&*app["replicas"].origin, Source::Helmfile { file: Some(f), line: Some(2), column: Some(11), .. } if f == "b.hcl"), "{:?}", app["replicas"].origin);
        assert!(matches!(&*app["name"].origin, Source::Helmfile { file: Some(f), line: Some(5), column: Some(11), .. } if f == "a.hcl"), "{:?}", app["name"].origin);
    }
}
