//! HCL values files: every `values { }` block of every file in one pass,
//! `hv.NAME` referring to other values and `local.NAME` to the same file's
//! `locals { }`; a name defined in several files is deep-merged in file
//! order (objects merge, a null keeps the earlier value, anything else
//! replaces). helmfile: pkg/hcllang/hcl_loader.go (ecf604d).

use std::rc::Rc;

use hcl::eval::{Context, Evaluate};

use super::HelmfileError;
use crate::values::tree::{Kind, Source, V, VMap};

mod cidr;
mod collections;
mod cty;
mod datetime;
mod encoding;
mod format;
mod numbers;
mod strings;
mod tryfunc;

/// One HCL values file: its name, its text (decrypted when it is a sops
/// secret), and whether its values are secret.
pub struct HclFile {
    pub name: String,
    pub text: String,
    pub secret: bool,
}

struct Def {
    file: usize,
    name: String,
    line: usize,
    column: usize,
    /// The attribute's value: its byte range in the file's text.
    span: std::ops::Range<usize>,
    expr: hcl::Expression,
}

/// The functions helmfile gives HCL (pkg/hcllang/hcl_functions.go
/// `HCLFunctions`), declared once.
fn functions() -> Context<'static> {
    let mut ctx = Context::new();
    numbers::register(&mut ctx);
    strings::register(&mut ctx);
    collections::register(&mut ctx);
    format::register(&mut ctx);
    encoding::register(&mut ctx);
    datetime::register(&mut ctx);
    tryfunc::register(&mut ctx);
    cidr::register(&mut ctx);
    ctx
}

/// Reads one HCL values file. A sops-encrypted one (sops writes a file it
/// cannot parse as YAML/JSON as `{"data": ..., "sops": {...}}`) is
/// decrypted first, as helmfile's scatterGatherEnvSecretFiles decrypts
/// environment secrets before the HCL pass (pkg/state/create.go
/// `loadEnvValues`), and its values are secret; with `skip_secrets` it is
/// left out and said so in `skipped`.
pub fn read_hcl_file(io: &dyn super::Io, path: &std::path::Path, skip_secrets: bool, skipped: &mut Vec<String>) -> Result<Option<HclFile>, HelmfileError> {
    let name = path.to_string_lossy().to_string();
    let text = io.read(path).map_err(|message| HelmfileError::Read { file: name.clone(), message })?;
    let encrypted = serde_saphyr::from_str::<serde_json::Value>(&text).ok().is_some_and(|v| v.get("sops").is_some_and(serde_json::Value::is_object));
    if !encrypted {
        return Ok(Some(HclFile { name, text, secret: false }));
    }
    if skip_secrets {
        skipped.push(format!("{name}: sops-encrypted secrets file skipped (--skip-secrets)"));
        return Ok(None);
    }
    let text = io.sops_decrypt(path).map_err(|message| HelmfileError::Sops { file: name.clone(), message })?;
    Ok(Some(HclFile { name, text, secret: true }))
}

/// Renders `files` into one map (no file is secret).
pub fn render(files: &[(String, String)]) -> Result<VMap, HelmfileError> {
    let files: Vec<HclFile> = files.iter().map(|(name, text)| HclFile { name: name.clone(), text: text.clone(), secret: false }).collect();
    render_files(&files)
}

/// helmfile's HCLRender: every file's `locals` first (each file its own),
/// then the `values` of all files in dependency order (a name defined in
/// several files evaluated and merged in file order once everything any of
/// its definitions refers to is known).
pub fn render_files(files: &[HclFile]) -> Result<VMap, HelmfileError> {
    let base = functions();
    let mut defs: Vec<Def> = Vec::new();
    let mut locals: Vec<Vec<Def>> = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let (values, file_locals) = read_file(i, f)?;
        defs.extend(values);
        locals.push(file_locals);
    }
    let mut local_vals: Vec<hcl::Map<String, hcl::Value>> = Vec::new();
    for ls in &locals {
        let mut done = hcl::Map::new();
        let order = plan(ls, "local", files)?;
        for group in order {
            let d = &ls[group[0]];
            let mut ctx = base.clone();
            ctx.declare_var("local", hcl::Value::Object(subset(&done, &refs(d, "local"))));
            let v = evaluate(d, &ctx, files)?;
            done.insert(d.name.clone(), v);
        }
        local_vals.push(done);
    }
    let mut hv = hcl::Map::new();
    // Every name's definitions as evaluated (file, value), in file order.
    let mut evaluated: Vec<(String, Vec<(usize, hcl::Value)>)> = Vec::new();
    for group in plan(&defs, "hv", files)? {
        let mut merged: Option<hcl::Value> = None;
        let mut each = Vec::new();
        for &k in &group {
            let d = &defs[k];
            let mut ctx = base.clone();
            // Only the names it refers to: cloning every value for every definition is quadratic.
            ctx.declare_var("hv", hcl::Value::Object(subset(&hv, &refs(d, "hv"))));
            // A bare `local` is the file's whole locals object (helmfile
            // hcl_loader.go decodeGraph sets `local` to all of them).
            let local_refs = refs(d, "local");
            let local = if local_refs.iter().any(|n| n == WHOLE) { local_vals[d.file].clone() } else { subset(&local_vals[d.file], &local_refs) };
            ctx.declare_var("local", hcl::Value::Object(local));
            let v = evaluate(d, &ctx, files)?;
            each.push((d.file, v.clone()));
            merged = Some(match merged.take() {
                None => v,
                Some(a) => merge(a, v),
            });
        }
        let name = defs[group[0]].name.clone();
        if let Some(v) = merged {
            hv.insert(name.clone(), v);
        }
        evaluated.push((name, each));
    }
    let texts: Vec<(String, String)> = files.iter().map(|f| (f.name.clone(), f.text.clone())).collect();
    let secret = secret_names(&defs, files);
    Ok(to_values(hv, &evaluated, &defs, &texts, &secret))
}

fn subset(all: &hcl::Map<String, hcl::Value>, names: &[String]) -> hcl::Map<String, hcl::Value> {
    names.iter().filter_map(|n| all.get(n).map(|v| (n.clone(), v.clone()))).collect()
}

/// A file's `values` and `locals` attributes (helmfile readHCL: only those
/// two blocks, at most one `locals`, each name once per block).
fn read_file(i: usize, f: &HclFile) -> Result<(Vec<Def>, Vec<Def>), HelmfileError> {
    let err = |at: (usize, usize), message: String| HelmfileError::Hcl { file: format!("{}:{}:{}", f.name, at.0, at.1), message };
    let body = hcl::parse(&f.text).map_err(|e| HelmfileError::Hcl { file: f.name.clone(), message: e.to_string() })?;
    let spans = attribute_spans(&f.text);
    let (mut values, mut locals) = (Vec::new(), Vec::new());
    let mut locals_blocks = 0;
    for (bi, block) in body.blocks().enumerate() {
        let target = match block.identifier() {
            "values" => &mut values,
            "locals" => {
                locals_blocks += 1;
                if locals_blocks > 1 {
                    return Err(err((1, 1), "A file can only support exactly 1 `locals` block".into()));
                }
                &mut locals
            }
            other => return Err(err((1, 1), format!("Unsupported block type; Blocks of type {other:?} are not expected here (only `values` and `locals`)."))),
        };
        for a in block.body().attributes() {
            let (line, column, span) = spans.get(&(bi, a.key().to_string())).cloned().unwrap_or((0, 0, 0..0));
            if target.iter().any(|d: &Def| d.name == a.key()) {
                return Err(err((line, column), format!("Duplicate argument; The argument {:?} was already set in this block.", a.key())));
            }
            target.push(Def { file: i, name: a.key().to_string(), line, column, span, expr: a.expr().clone() });
        }
    }
    Ok((values, locals))
}

/// Each block's attributes (block index, name) -> line, column, value span (hcl-edit keeps positions).
fn attribute_spans(text: &str) -> std::collections::HashMap<(usize, String), (usize, usize, std::ops::Range<usize>)> {
    use hcl_edit::Span;
    use hcl_edit::structure::Structure;
    let mut out = std::collections::HashMap::new();
    let Ok(body) = hcl_edit::parser::parse_body(text) else { return out };
    let blocks = body.iter().filter_map(|s| if let Structure::Block(b) = s { Some(b) } else { None });
    for (bi, b) in blocks.enumerate() {
        for s in b.body.iter() {
            if let Structure::Attribute(a) = s {
                let start = a.key.span().map_or(0, |r| r.start);
                let (line, column) = crate::gotmpl::line_col(text, start);
                out.insert((bi, a.key.as_str().to_string()), (line, column, a.value.span().unwrap_or(0..0)));
            }
        }
    }
    out
}

/// The names `ROOT.NAME` a definition refers to (helmfile createDAGGraph's
/// traversals, `Expr.Variables()`: the attribute right after the root),
/// found in its expression, templates included.
/// What [`refs`] lists for a bare `root` (the whole object, not one attribute).
const WHOLE: &str = "*";

/// The attribute names of `root` (`hv`, `local`) that `d` refers to, and
/// [`WHOLE`] if it uses `root` itself.
fn refs(d: &Def, root: &str) -> Vec<String> {
    let mut out = Vec::new();
    expr_refs(&d.expr, root, &mut out);
    out
}

fn expr_refs(e: &hcl::Expression, root: &str, out: &mut Vec<String>) {
    use hcl::expr::{Expression as E, Operation, TraversalOperator};
    let mut add = |name: &str| {
        if !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    };
    match e {
        E::Traversal(t) => {
            if let (E::Variable(v), Some(TraversalOperator::GetAttr(name))) = (&t.expr, t.operators.first())
                && v.as_str() == root
            {
                add(name.as_str());
            } else {
                expr_refs(&t.expr, root, out);
            }
            for op in &t.operators {
                if let TraversalOperator::Index(i) = op {
                    expr_refs(i, root, out);
                }
            }
        }
        E::Array(items) => items.iter().for_each(|x| expr_refs(x, root, out)),
        E::Object(o) => o.iter().for_each(|(k, v)| {
            if let hcl::expr::ObjectKey::Expression(k) = k {
                expr_refs(k, root, out);
            }
            expr_refs(v, root, out);
        }),
        E::TemplateExpr(t) => {
            if let Ok(t) = hcl::Template::from_expr(t) {
                template_refs(&t, root, out);
            }
        }
        E::FuncCall(c) => c.args.iter().for_each(|x| expr_refs(x, root, out)),
        E::Parenthesis(x) => expr_refs(x, root, out),
        E::Conditional(c) => [&c.cond_expr, &c.true_expr, &c.false_expr].into_iter().for_each(|x| expr_refs(x, root, out)),
        E::Operation(op) => match op.as_ref() {
            Operation::Unary(u) => expr_refs(&u.expr, root, out),
            Operation::Binary(b) => {
                expr_refs(&b.lhs_expr, root, out);
                expr_refs(&b.rhs_expr, root, out);
            }
        },
        E::Variable(v) if v.as_str() == root => add(WHOLE),
        E::ForExpr(f) => [Some(&f.collection_expr), f.key_expr.as_ref(), Some(&f.value_expr), f.cond_expr.as_ref()].into_iter().flatten().for_each(|x| expr_refs(x, root, out)),
        _ => {}
    }
}

fn template_refs(t: &hcl::Template, root: &str, out: &mut Vec<String>) {
    use hcl::template::{Directive, Element};
    for el in t.elements() {
        match el {
            Element::Interpolation(i) => expr_refs(&i.expr, root, out),
            Element::Directive(d) => match d.as_ref() {
                Directive::If(i) => {
                    expr_refs(&i.cond_expr, root, out);
                    template_refs(&i.true_template, root, out);
                    if let Some(f) = &i.false_template {
                        template_refs(f, root, out);
                    }
                }
                Directive::For(f) => {
                    expr_refs(&f.collection_expr, root, out);
                    template_refs(&f.template, root, out);
                }
            },
            Element::Literal(_) => {}
        }
    }
}

/// Groups of definitions (indexes into `defs`, one name each, in file
/// order) in an order where each group's references come first: helmfile's
/// DAG plan, with its wording for an undefined name and for a cycle.
fn plan(defs: &[Def], root: &str, files: &[HclFile]) -> Result<Vec<Vec<usize>>, HelmfileError> {
    let mut names: Vec<String> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (k, d) in defs.iter().enumerate() {
        let i = *index.entry(d.name.as_str()).or_insert_with(|| {
            names.push(d.name.clone());
            groups.push(Vec::new());
            names.len() - 1
        });
        groups[i].push(k);
    }
    let mut deps: Vec<Vec<String>> = vec![Vec::new(); names.len()];
    for d in defs {
        deps[index[d.name.as_str()]].extend(refs(d, root));
    }
    let place = |n: &str| defs.iter().find(|d| d.name == n).map_or_else(String::new, |d| format!("{}:{}:{}", files[d.file].name, d.line, d.column));
    for (i, ds) in deps.iter().enumerate() {
        // helmfile hcl_loader.go parseSingleAttrRef: only a `values` block may use `local` whole.
        if ds.iter().any(|x| x == WHOLE) {
            return Err(HelmfileError::Hcl { file: place(&names[i]), message: format!("Invalid reference; The {root:?} object cannot be accessed directly. Instead, access it from one of its root.") });
        }
        if let Some(missing) = ds.iter().find(|x| !index.contains_key(x.as_str())) {
            let dependents: Vec<String> = names.iter().zip(&deps).filter(|(_, ds)| ds.contains(missing)).map(|(n, _)| format!("{n:?}")).collect();
            return Err(HelmfileError::Hcl { file: place(&names[i]), message: format!("variables {} depend(s) on undefined vars {missing:?}", dependents.join(", ")) });
        }
    }
    // Kahn's algorithm, the first-defined ready name first.
    let mut waiting: Vec<usize> = vec![0; names.len()];
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
    for (i, ds) in deps.iter().enumerate() {
        let mut seen: Vec<usize> = ds.iter().map(|x| index[x.as_str()]).collect();
        seen.sort_unstable();
        seen.dedup();
        waiting[i] = seen.len();
        for j in seen {
            dependents[j].push(i);
        }
    }
    let mut ready: std::collections::BTreeSet<usize> = (0..names.len()).filter(|&i| waiting[i] == 0).collect();
    let mut done: Vec<bool> = vec![false; names.len()];
    let mut order = Vec::new();
    while order.len() < names.len() {
        let Some(first) = ready.pop_first() else {
            let start = (0..names.len()).find(|&i| !done[i]).unwrap_or(0);
            return Err(HelmfileError::Hcl { file: place(&names[start]), message: format!("error while building the DAG variable graph : cycle detected: {}", cycle(start, &names, &deps, &done).join(" -> ")) });
        };
        done[first] = true;
        for &j in &dependents[first] {
            waiting[j] -= 1;
            if waiting[j] == 0 {
                ready.insert(j);
            }
        }
        order.push(std::mem::take(&mut groups[first]));
    }
    Ok(order)
}

/// The names of a dependency cycle among the names not yet `done`, from
/// `start` back to the first name repeated (variantdev/dag's "cycle detected: a -> b -> a").
fn cycle(start: usize, names: &[String], deps: &[Vec<String>], done: &[bool]) -> Vec<String> {
    let mut path: Vec<usize> = vec![start];
    loop {
        let here = path[path.len() - 1];
        let next = deps[here].iter().filter_map(|x| names.iter().position(|n| n == x)).find(|&j| !done[j]);
        let Some(j) = next else { break };
        if let Some(k) = path.iter().position(|&p| p == j) {
            let mut out: Vec<String> = path[k..].iter().map(|&p| names[p].clone()).collect();
            out.push(names[j].clone());
            return out;
        }
        path.push(j);
    }
    path.iter().map(|&p| names[p].clone()).collect()
}

/// One definition's value; a failure names the file, line and column (of
/// the failing call or attribute access when it can be found, else of the
/// attribute), the variable and its expression, in helmfile's words
/// (decodeGraph: "error when trying to evaluate variable NAME : DIAG").
fn evaluate(d: &Def, ctx: &Context, files: &[HclFile]) -> Result<hcl::Value, HelmfileError> {
    let result = tryfunc::resolve(&d.expr, ctx).and_then(|e| e.evaluate(ctx).map_err(|e| hcl_words(e.kind())));
    result.map_err(|message| {
        let f = &files[d.file];
        let src = f.text.get(d.span.clone()).unwrap_or("");
        let at = failure_offset(&message, src).map_or((d.line, d.column), |k| crate::gotmpl::line_col(&f.text, d.span.start + k));
        let expr = if src.contains('\n') || src.chars().count() > 60 { String::new() } else { format!(" (`{src}`)") };
        HelmfileError::Hcl { file: format!("{}:{}:{}", f.name, at.0, at.1), message: format!("error when trying to evaluate variable {}{expr}: {message}", d.name) }
    })
}

/// Where in the attribute's text the failure is: the failing function's
/// call, or the missing attribute.
fn failure_offset(message: &str, src: &str) -> Option<usize> {
    let quoted = |after: &str| message.split_once(after).and_then(|(_, r)| r.split('"').next()).map(str::to_string);
    if let Some(f) = quoted("function \"").or_else(|| quoted("Function \"")) {
        return src.find(&format!("{f}("));
    }
    if let Some(k) = quoted("attribute named \"") {
        return src.find(&format!(".{k}"));
    }
    if let Some(v) = quoted("variable named \"") {
        return src.find(&v);
    }
    None
}

/// hcl-rs's evaluation errors in HCL's own words (hclsyntax's diagnostics).
fn hcl_words(kind: &hcl::eval::ErrorKind) -> String {
    use hcl::eval::ErrorKind as K;
    match kind {
        K::FuncCall(_, m) => m.clone(),
        K::UndefinedFunc(name) => format!("Call to unknown function; There is no function named \"{name}\"."),
        K::UndefinedVar(v) => format!("Unknown variable; There is no variable named \"{v}\"."),
        K::NoSuchKey(k) => format!("Unsupported attribute; This object does not have an attribute named \"{k}\"."),
        K::Index(i) => format!("Invalid index; The given key does not identify an element in this collection value: index {i} out of range."),
        other => other.to_string(),
    }
}

/// The names whose value is secret: defined in a secret file, or computed
/// from such a name (`"${hv.db.password}@host"` in a plain file is masked too).
fn secret_names(defs: &[Def], files: &[HclFile]) -> Vec<String> {
    let mut out: Vec<String> = defs.iter().filter(|d| files[d.file].secret).map(|d| d.name.clone()).collect();
    loop {
        let more: Vec<String> = defs.iter().filter(|d| !out.contains(&d.name) && refs(d, "hv").iter().any(|r| out.contains(r))).map(|d| d.name.clone()).collect();
        if more.is_empty() {
            return out;
        }
        out.extend(more);
    }
}

/// Each key to the definition that set it (merged as the values were), at
/// its own key when written literally in an object, else at the attribute.
fn to_values(hv: hcl::Map<String, hcl::Value>, evaluated: &[(String, Vec<(usize, hcl::Value)>)], defs: &[Def], texts: &[(String, String)], secret: &[String]) -> VMap {
    let offsets: Vec<KeyOffsets> = texts.iter().map(|(_, text)| key_offsets(text)).collect();
    let mut out = VMap::default();
    for (name, v) in hv {
        let Some((_, each)) = evaluated.iter().find(|(n, _)| *n == name) else { continue };
        let mut acc: Option<V> = None;
        for (file, value) in each {
            let Some(d) = defs.iter().find(|d| d.name == name && d.file == *file) else { continue };
            let place = Place { file: &texts[*file].0, text: &texts[*file].1, offsets: &offsets[*file], name: &name, at: (d.line, d.column), secret: secret.contains(&name) };
            let t = to_tree_at(value, &place, &mut Vec::new());
            acc = Some(match acc {
                None => t,
                Some(a) => merge_tree(a, t),
            });
        }
        out.insert(name, acc.unwrap_or_else(|| to_tree(&v, &Rc::new(Source::Helm { why: "hcl".into() }))));
    }
    out
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
    secret: bool,
}

fn to_tree_at(v: &hcl::Value, place: &Place, path: &mut Vec<String>) -> V {
    let (line, column) = place.offsets.get(&(place.name.to_string(), path.clone())).map_or(place.at, |off| crate::gotmpl::line_col(place.text, *off));
    let origin = Rc::new(Source::Helmfile { layer: "hcl".into(), file: Some(place.file.to_string()), line: Some(line), column: Some(column), expr: None, secret: place.secret, via: None });
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
    fn a_bare_local_in_values_is_the_files_whole_locals_object_and_elsewhere_an_error() {
        let a = "locals {\n  origin = \"a.hcl\"\n  n = 2\n}\nvalues {\n  all = local\n}\n";
        let b = "locals {\n  origin = \"b.hcl\"\n}\nvalues {\n  mine = local\n}\n";
        let m = render(&[("a.hcl".into(), a.into()), ("b.hcl".into(), b.into())]).unwrap();
        assert_eq!(serde_json::Value::Object(map_to_json(&m)), json!({"all": {"origin": "a.hcl", "n": 2}, "mine": {"origin": "b.hcl"}}));
        for (file, text) in [("c.hcl", "locals {\n  x = 1\n  y = local\n}\nvalues {\n  v = 1\n}\n"), ("d.hcl", "values {\n  x = 1\n  y = hv\n}\n")] {
            let e = render(&[(file.into(), text.into())]).unwrap_err().to_string();
            assert!(e.contains(&format!("{file}:")) && e.contains("cannot be accessed directly"), "{e}");
        }
    }

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

/// tests/data/helmfile/hcl-functions.json: go-cty's function test cases,
/// each with what real helmfile 0.166.0 wrote for it (tools/hcl-oracle).
#[cfg(test)]
mod function_table {
    use super::*;
    use crate::values::tree::map_to_json;

    fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
        match (a, b) {
            (serde_json::Value::Number(x), serde_json::Value::Number(y)) => x.as_f64() == y.as_f64(),
            (serde_json::Value::Array(x), serde_json::Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json(p, q)),
            (serde_json::Value::Object(x), serde_json::Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w))),
            _ => a == b,
        }
    }

    #[test]
    fn every_case_gives_what_real_helmfile_gives() {
        let table: Vec<serde_json::Value> = serde_json::from_str(include_str!("../../tests/data/helmfile/hcl-functions.json")).unwrap();
        let mut failures = Vec::new();
        for case in &table {
            let (name, expr) = (case["name"].as_str().unwrap(), case["expr"].as_str().unwrap());
            let got = render(&[("v.hcl".into(), format!("values {{\n  v = {expr}\n}}\n"))]);
            let want = &case["helmfile"];
            // A case marked with the divergence it shows is listed in the closing note, not checked.
            if case.get("divergence").is_some() {
                continue;
            }
            match (got, want.get("value"), want.get("error").and_then(|e| e.as_str())) {
                (Ok(m), Some(w), _) => {
                    let g = map_to_json(&m).remove("v").unwrap_or(serde_json::Value::Null);
                    if !same_json(&g, w) {
                        failures.push(format!("CASE {name}: {expr}\n  ours:     {g}\n  helmfile: {w}"));
                    }
                }
                (Err(e), _, Some(w)) => {
                    // The diagnostic after helmfile's "FILE:LINE,COL-COL: ".
                    let want_diag = w.split_once(": v.hcl:").and_then(|(_, r)| r.split_once(": ")).map_or(w, |(_, d)| d);
                    let ours = e.to_string();
                    if !ours.ends_with(want_diag) {
                        failures.push(format!("CASE {name}: {expr}\n  ours:     {ours}\n  helmfile: {want_diag}"));
                    }
                }
                (got, _, _) => failures.push(format!("CASE {name}: {expr}\n  ours:     {:?}\n  helmfile: {want}", got.map(|m| map_to_json(&m)))),
            }
        }
        assert!(failures.is_empty(), "{} of {} cases differ:\n{}", failures.len(), table.len(), failures.join("\n"));
    }
}

#[cfg(test)]
mod errors {
    use super::*;

    fn fails(files: &[(&str, &str)]) -> String {
        let files: Vec<(String, String)> = files.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect();
        render(&files).map(|m| format!("{m:?}")).expect_err("must fail").to_string()
    }

    // Messages as real helmfile 0.166 prints them (decodeGraph, createDAGGraph), with our position first.
    #[test]
    fn a_failure_in_a_use_of_another_files_value_is_named_where_it_is_used() {
        let e = fails(&[("a.hcl", "values {\n  ok = 1\n  url = \"${hv.x.nope}.example\"\n}\n"), ("b.hcl", "values {\n  x = { name = \"web\" }\n}\n")]);
        assert_eq!(e, "a.hcl:3:16: HCL: error when trying to evaluate variable url (`\"${hv.x.nope}.example\"`): Unsupported attribute; This object does not have an attribute named \"nope\".");
    }

    #[test]
    fn a_failing_value_used_from_another_file_is_named_where_it_is_defined() {
        let e = fails(&[("a.hcl", "values {\n  ok = 1\n  url = \"${hv.x}.example\"\n}\n"), ("b.hcl", "values {\n\n  x = upper(hv.ok, 2)\n}\n")]);
        assert_eq!(e, "b.hcl:3:7: HCL: error when trying to evaluate variable x (`upper(hv.ok, 2)`): Too many function arguments; Function \"upper\" expects only 1 argument(s).");
    }

    #[test]
    fn references_are_read_from_the_expression_not_its_text() {
        let m = render(&[("a.hcl".into(), "values {\n  note = \"see hv.docs\"\n  u = \"%{ if hv.on }${upper(hv.name)}%{ endif }\"\n  on = true\n  name = \"x\"\n}\n".into())]).unwrap();
        assert_eq!(serde_json::Value::Object(crate::values::tree::map_to_json(&m))["u"], "X");
    }

    #[test]
    fn cycles_and_undefined_names_are_named_as_helmfile_names_them() {
        let e = fails(&[("a.hcl", "values {\n  a = hv.b\n}\n"), ("b.hcl", "values {\n  b = hv.a\n}\n")]);
        assert!(e.ends_with("error while building the DAG variable graph : cycle detected: a -> b -> a"), "{e}");
        let e = fails(&[("a.hcl", "locals {\n  l = local.m + 1\n}\nvalues {\n  a = local.l\n}\n")]);
        assert!(e.starts_with("a.hcl:2:3: ") && e.ends_with("variables \"l\" depend(s) on undefined vars \"m\""), "{e}");
    }

    #[test]
    fn values_of_a_secret_file_are_secret() {
        let files = [
            HclFile { name: "s.hcl".into(), text: "values {\n  pw = \"x\"\n}\n".into(), secret: true },
            HclFile { name: "p.hcl".into(), text: "values {\n  url = \"${hv.pw}@h\"\n  plain = 1\n}\n".into(), secret: false },
        ];
        let m = render_files(&files).unwrap();
        assert!(matches!(&*m["pw"].origin, Source::Helmfile { secret: true, .. }));
        assert!(matches!(&*m["plain"].origin, Source::Helmfile { secret: false, .. }));
        // Computed from a secret: secret too.
        assert!(matches!(&*m["url"].origin, Source::Helmfile { secret: true, .. }));
    }
}
