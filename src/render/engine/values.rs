//! The plain-map parts of Helm's render data as Go values: `.Values` (the
//! coalesced tree: YAML numbers float64, `--set` integers int64, every node
//! keeping its origin for blame), `.Chart` (pkg/chart/common.go
//! `structToMap` of the chart's metadata: Go field names, slices as
//! `[]interface {}`) and `.Release` (pkg/chart/common/util/values.go
//! `ToRenderValues`).

use crate::chart::Metadata;
use crate::gotmpl::{GoMap, Tv, Val};
use crate::values::tree::{Kind, V, VMap};

/// A values node as Helm's engine holds it; `origins`: keep where it came from.
pub fn helm_tv(v: &V, origins: bool) -> Tv {
    let val = match &v.kind {
        Kind::Null => Val::Nil,
        Kind::Bool(b) => Val::Bool(*b),
        Kind::Int(i) => Val::Int64(*i),
        Kind::Float(f) => Val::Float(*f),
        Kind::Str(s) => Val::Str(s.clone()),
        Kind::List(l) => Val::List(l.iter().map(|x| helm_tv(x, origins)).collect()),
        Kind::Map(m) => Val::Map(helm_map(m, origins)),
    };
    let mut tv = Tv::new(val);
    if origins {
        tv.secret = v.origin.is_secret();
        tv.origin = Some(v.origin.clone());
    }
    tv
}

pub fn helm_map(m: &VMap, origins: bool) -> GoMap {
    m.iter().map(|(k, v)| (k.clone(), helm_tv(v, origins))).collect()
}

/// `tv` as the render-data fact `name` (`.Release`): fields read from it
/// are facts too (gotmpl's field chains name them), which blame reports
/// beside the values keys an action read.
pub fn fact(mut tv: Tv, name: &str) -> Tv {
    tv.origin = Some(std::rc::Rc::new(crate::values::source::Source::Fact { name: name.to_string() }));
    tv
}

fn strings(items: &[String]) -> Tv {
    Tv::new(Val::List(items.iter().map(|s| Tv::str(s)).collect()))
}

fn map(entries: Vec<(&str, Tv)>) -> Tv {
    Tv::new(Val::Map(entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

/// `.Chart`: `structToMap(metadata)` plus `IsRoot`; `name` is the name Helm
/// gave the chart (a dependency's alias).
pub fn chart_map(md: &Metadata, name: &str, is_root: bool, enabled: &dyn Fn(&str) -> bool) -> Tv {
    let s = |x: &str| Tv::str(x);
    let maintainers = md
        .maintainers
        .iter()
        .map(|m| map(vec![("Name", s(&m.name)), ("Email", s(&m.email)), ("URL", s(&m.url))]))
        .collect();
    let dependencies = md
        .dependencies
        .iter()
        .map(|d| {
            map(vec![
                ("Name", s(&d.name)),
                ("Version", s(&d.version)),
                ("Repository", s(&d.repository)),
                ("Condition", s(d.condition.as_deref().unwrap_or(""))),
                ("Tags", strings(&d.tags)),
                ("Enabled", Tv::new(Val::Bool(enabled(d.effective_name())))),
                // releasex keeps import-values parsed, not as Go's []any: shown only when empty.
                ("ImportValues", if d.import_values.is_empty() { Tv::new(Val::List(Vec::new())) } else { Tv::str(crate::gotmpl::UNMODELLED) }),
                ("Alias", s(d.alias.as_deref().unwrap_or(""))),
            ])
        })
        .collect();
    let annotations = if md.annotations.is_empty() { Tv::new(Val::Nil) } else { Tv::new(Val::StrMap(md.annotations.clone())) };
    map(vec![
        ("Name", s(name)),
        ("Home", s(&md.home)),
        ("Sources", strings(&md.sources)),
        ("Version", s(&md.version)),
        ("Description", s(&md.description)),
        ("Keywords", strings(&md.keywords)),
        ("Maintainers", Tv::new(Val::List(maintainers))),
        ("Icon", s(&md.icon)),
        ("APIVersion", s(&md.api_version)),
        ("Condition", s(&md.condition)),
        ("Tags", s(&md.tags)),
        ("AppVersion", s(&md.app_version)),
        ("Deprecated", Tv::new(Val::Bool(md.deprecated))),
        ("Annotations", annotations),
        ("KubeVersion", s(&md.kube_version)),
        ("Dependencies", Tv::new(Val::List(dependencies))),
        ("Type", s(&md.chart_type)),
        ("IsRoot", Tv::new(Val::Bool(is_root))),
    ])
}

/// What `.Release` says about the release being rendered.
#[derive(Debug, Clone)]
pub struct ReleaseInfo {
    pub name: String,
    pub namespace: String,
    pub revision: i64,
    pub is_upgrade: bool,
    pub is_install: bool,
}

impl ReleaseInfo {
    /// `.Release` as `ToRenderValues` builds it.
    pub fn value(&self) -> Tv {
        map(vec![
            ("Name", Tv::str(&self.name)),
            ("Namespace", Tv::str(&self.namespace)),
            ("IsUpgrade", Tv::new(Val::Bool(self.is_upgrade))),
            ("IsInstall", Tv::new(Val::Bool(self.is_install))),
            ("Revision", Tv::new(Val::Int(self.revision))),
            ("Service", Tv::str("Helm")),
        ])
    }
}
