//! `kubectl-releasex template` against real Helm v4.2.3's engine
//! (tests/oracle `render CHART --engine`): seeded generated charts and the
//! hand-written charts of tests/fixtures/render/ (see its README), each with
//! a release name, namespace, value flags and capability flags. Every chart
//! goes through the oracle in one `batch` call and through our binary
//! (`template NAME CHART ... -o json`); the `templates` maps must be equal
//! key by key, and where Helm fails our exit must be non-zero with Helm's
//! error text on stderr.
//!
//! What the generator mixes per seed (each feature under its own values key
//! `kN`, so features combine freely): `_helpers.tpl` name/fullname/labels
//! helpers through `include ... | nindent`, Deployments with `with`/`range`/
//! `toYaml`, `tpl` of values holding actions, string functions (`upper`,
//! `title`, `trunc`, `trimSuffix`, `replace`, `printf`, `quote`/`squote`,
//! `default`, `ternary`), `if/else if/else` with `and`/`or`/`not`/`eq`/`ne`/
//! `lt`/`len`/`hasKey`, ranges over maps and lists with `$key, $val` and `$`,
//! `dict`/`list`/`merge`/`keys | sortAlpha`/`toJson`/`fromJson`/`fromYaml`,
//! `b64enc`/`sha256sum`/`int`/`float64`/`add`/`mul`/`max` and Go's float
//! printing (1e+06), capabilities (`semverCompare` on the kube version,
//! `APIVersions.Has`), `.Release`/`.Chart`/`.Template` fields, `.Files`
//! (`Get`, `Glob | AsConfig`/`AsSecrets`, `Lines`, `.helmignore`),
//! subcharts (own values, parent overrides, `global`, conditions, a subchart
//! including the parent's helper), trimming and comments, NOTES.txt, hooks
//! and chart tests, missing keys and `<no value>`, and, in some charts, one
//! failing construct (`required`, `fail`, nil pointer, missing template,
//! index out of range, incompatible comparison, parse errors).
//!
//! Environment: `RENDER_GEN_SEED=N` replays a run (printed always),
//! `RENDER_GEN_CHARTS=N` (default 320), `RELEASEX_KEEP_CHARTS=1` keeps the
//! temp dir with the generated charts (its path is printed),
//! `RENDER_GEN_ORACLE_ONLY=1` only runs the oracle and lists Helm's errors
//! (for working on the generator; compares nothing).
//!
//! The oracle answers `{"status": "ok", "templates": {NAME: TEXT, ...},
//! "exact": true, "inexact_reasons": []}` or, where Helm fails,
//! `{"status": "error", "error": TEXT, "exact": true, "inexact_reasons": []}`
//! with Helm's own text (`execution error at (c/templates/r.yaml:1:6): need
//! z`, `parse error at (...)`, multi-line `c/templates/r.yaml:1:13\n
//! executing ... nil pointer evaluating interface {}.x`); we must print
//! `error: TEXT` (releasex's prefix) on stderr and exit non-zero. Answers with `exact: false`
//! are counted and skipped.
//!
//! Value flags avoid `--set` numbers: Helm parses them as int64 but the
//! oracle hands values to Go as JSON (float64), so `{{ .Values.x }}` of
//! `--set x=1000000` would differ (1e+06) for the oracle's sake, not Helm's.

use crate::{oracle_client, xorshift};

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Map, Value, json};
use xorshift::Rng;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn write(path: &Path, body: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, body).expect("write");
}

/// One render: a chart, a release name and `helm template`'s other flags.
struct Case {
    label: String,
    chart: PathBuf,
    name: String,
    flags: Vec<String>,
}

// ---------------------------------------------------------------------------
// YAML out of JSON values (block style; strings JSON-quoted, which YAML reads the same)

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => serde_json::to_string(s).expect("string"),
        Value::Array(a) if a.is_empty() => "[]".into(),
        Value::Object(m) if m.is_empty() => "{}".into(),
        other => other.to_string(), // flow JSON is YAML too
    }
}

fn yaml_map(m: &Map<String, Value>, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    for (k, v) in m {
        match v {
            Value::Object(inner) if !inner.is_empty() => {
                let _ = writeln!(out, "{pad}{k}:");
                yaml_map(inner, indent + 2, out);
            }
            Value::Array(items) if !items.is_empty() => {
                let _ = writeln!(out, "{pad}{k}:");
                for item in items {
                    let _ = writeln!(out, "{pad}  - {}", scalar(item));
                }
            }
            _ => {
                let _ = writeln!(out, "{pad}{k}: {}", scalar(v));
            }
        }
    }
}

fn yaml(v: &Value) -> String {
    let mut out = String::new();
    if let Value::Object(m) = v {
        yaml_map(m, 0, &mut out);
    }
    out
}

// ---------------------------------------------------------------------------
// The generator

const WORDS: &[&str] = &[
    "alpha", "beta", "web", "api", "cache", "worker", "Hello World", "foo-bar", "x_y", "Mixed Case words", "  padded  ", "with: colon", "quote\"d",
    "it's", "", "123", "true", "1.50", "ends-x", "dash-", "ünïcödé", "a+b", "multi\nline", "tab\there", "UPPER", "snake_case_name", "{{ not a template }}",
];
const CHART_NAMES: &[&str] = &["web", "api", "nginx", "redis-cache", "myapp", "worker", "my-release-chart"];
const VERSIONS: &[&str] = &["0.1.0", "1.2.3", "2.0.0-rc.1", "1.0.0+build.5", "10.4.12"];
const APP_VERSIONS: &[&str] = &["1.16.0", "latest", "2.0", "v3.1.4", "1.0.0-alpha"];
const RELEASE_NAMES: &[&str] = &["release-name", "rel", "my-app", "web", "prod-web-frontend", "x", "nginx-ingress-controller-long-release-name"];
const NAMESPACES: &[&str] = &["default", "team-a", "kube-system", "prod"];
const KUBE_VERSIONS: &[&str] = &["1.24.0", "v1.29.3", "1.31", "v1.33.1", "1.20.15"];

struct Gen<'a> {
    rng: &'a mut Rng,
    chart: String,
    values: Map<String, Value>,
    templates: Vec<(String, String)>,
    files: Vec<(String, Vec<u8>)>,
    /// Extra lines for Chart.yaml (dependencies).
    chart_extra: String,
    /// Keys `--set` may write strings or booleans to (path, is_bool).
    settable: Vec<(String, bool)>,
    helpers: bool,
}

impl Gen<'_> {
    fn word(&mut self) -> String {
        self.rng.pick(WORDS).to_string()
    }
    /// A word that stays one YAML-safe token when printed unquoted.
    fn token(&mut self) -> String {
        self.rng.pick(&["alpha", "beta", "web", "api", "cache", "worker", "foo-bar", "x_y", "UPPER", "ends-x", "dash-", "a.b.c"]).to_string()
    }
    fn num(&mut self) -> Value {
        match self.rng.below(6) {
            0 => json!(0),
            1 => json!(1.5),
            2 => json!(1000000),
            3 => json!(-3),
            4 => json!(0.25),
            _ => json!(self.rng.below(20)),
        }
    }
    fn tpl(&mut self, file: &str, body: String) {
        self.templates.push((file.to_string(), body));
    }
    /// `{{-` or `{{` (whitespace trimming varies per chart).
    fn dash(&mut self) -> &'static str {
        if self.rng.chance(70) { "{{-" } else { "{{" }
    }
}

fn helpers_tpl(c: &str) -> String {
    format!(
        r#"{{{{/*
Expand the name of the chart.
*/}}}}
{{{{- define "{c}.name" -}}}}
{{{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}}}
{{{{- end }}}}

{{{{/*
Create a default fully qualified app name.
*/}}}}
{{{{- define "{c}.fullname" -}}}}
{{{{- if .Values.fullnameOverride }}}}
{{{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}}}
{{{{- else }}}}
{{{{- $name := default .Chart.Name .Values.nameOverride }}}}
{{{{- if contains $name .Release.Name }}}}
{{{{- .Release.Name | trunc 63 | trimSuffix "-" }}}}
{{{{- else }}}}
{{{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}}}
{{{{- end }}}}
{{{{- end }}}}
{{{{- end }}}}

{{{{- define "{c}.chart" -}}}}
{{{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}}}
{{{{- end }}}}

{{{{/* Common labels */}}}}
{{{{- define "{c}.labels" -}}}}
helm.sh/chart: {{{{ include "{c}.chart" . }}}}
{{{{ include "{c}.selectorLabels" . }}}}
{{{{- if .Chart.AppVersion }}}}
app.kubernetes.io/version: {{{{ .Chart.AppVersion | quote }}}}
{{{{- end }}}}
app.kubernetes.io/managed-by: {{{{ .Release.Service }}}}
{{{{- end }}}}

{{{{- define "{c}.selectorLabels" -}}}}
app.kubernetes.io/name: {{{{ include "{c}.name" . }}}}
app.kubernetes.io/instance: {{{{ .Release.Name }}}}
{{{{- end }}}}

{{{{- define "{c}.serviceAccountName" -}}}}
{{{{- if .Values.serviceAccount.create }}}}
{{{{- default (include "{c}.fullname" .) .Values.serviceAccount.name }}}}
{{{{- else }}}}
{{{{- default "default" .Values.serviceAccount.name }}}}
{{{{- end }}}}
{{{{- end }}}}

{{{{- define "{c}.kv" -}}}}
{{{{- range $k, $v := .items }}}}
{{{{ $k }}}}: {{{{ $v | toString | quote }}}}
{{{{- end }}}}
{{{{- end }}}}
"#
    )
}

/// The chart-wide helpers and the values they read.
fn feat_helpers(g: &mut Gen) {
    g.helpers = true;
    let c = g.chart.clone();
    g.tpl("_helpers.tpl", helpers_tpl(&c));
    let name_override = if g.rng.chance(30) { g.token() } else { String::new() };
    let full = match g.rng.below(6) {
        0 => "a-fullname-override-that-is-much-longer-than-sixty-three-characters-x".to_string(),
        1 => "override-ending-in-dash-".to_string(),
        _ => String::new(),
    };
    g.values.insert("nameOverride".into(), json!(name_override));
    g.values.insert("fullnameOverride".into(), json!(full));
    let create = g.rng.chance(50);
    let sa_name = if g.rng.chance(40) { "custom-sa" } else { "" };
    g.values.insert("serviceAccount".into(), json!({"create": create, "name": sa_name, "annotations": {}}));
    g.settable.push(("nameOverride".into(), false));
    g.settable.push(("serviceAccount.create".into(), true));
    let d = g.dash();
    g.tpl(
        "serviceaccount.yaml",
        format!(
            "{d} if .Values.serviceAccount.create -}}}}\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {{{{ include \"{c}.serviceAccountName\" . }}}}\n  labels:\n    {{{{- include \"{c}.labels\" . | nindent 4 }}}}\n  {{{{- with .Values.serviceAccount.annotations }}}}\n  annotations:\n    {{{{- toYaml . | nindent 4 }}}}\n  {{{{- end }}}}\n{{{{- end }}}}\n"
        ),
    );
}

fn feat_deployment(g: &mut Gen, k: &str) {
    let c = g.chart.clone();
    let mut env = Map::new();
    for _ in 0..g.rng.below(4) {
        let key = g.token().replace(['-', '.'], "_");
        let v = if g.rng.chance(70) { json!(g.word()) } else { g.num() };
        env.insert(key, v);
    }
    let ports: Vec<Value> = (0..1 + g.rng.below(3)).map(|i| {
            let name = ["HTTP", "metrics-port-long-name", "grpc"][i];
            json!({"name": name, "port": 8080 + i})
        }).collect();
    let resources = if g.rng.chance(50) { json!({}) } else { json!({"limits": {"cpu": "100m", "memory": "128Mi"}, "requests": {"cpu": 0.5}}) };
    let annotations = if g.rng.chance(50) { json!({}) } else { json!({"checksum/config": "abc", "prometheus.io/scrape": "true"}) };
    let tag = if g.rng.chance(50) { String::new() } else { g.token() };
    g.values.insert(
        k.into(),
        json!({"replicas": g.rng.below(4), "autoscaling": g.rng.chance(30), "image": {"repository": "nginx", "tag": tag, "pullPolicy": "IfNotPresent"},
               "env": env, "ports": ports, "resources": resources, "podAnnotations": annotations}),
    );
    g.settable.push((format!("{k}.image.tag"), false));
    g.settable.push((format!("{k}.autoscaling"), true));
    g.settable.push((format!("{k}.env.EXTRA"), false));
    let (name, labels, selector) = if g.helpers {
        (format!("{{{{ include \"{c}.fullname\" . }}}}"), format!("{{{{- include \"{c}.labels\" . | nindent 4 }}}}"), format!("include \"{c}.selectorLabels\" ."))
    } else {
        ("{{ .Release.Name }}-{{ .Chart.Name }}".to_string(), "app: {{ .Chart.Name }}".to_string(), "dict \"app\" .Chart.Name | toYaml".to_string())
    };
    let n = *g.rng.pick(&[6, 8]);
    g.tpl(
        &format!("{k}-deployment.yaml"),
        format!(
            r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
  labels:
    {labels}
spec:
  {{{{- if not .Values.{k}.autoscaling }}}}
  replicas: {{{{ .Values.{k}.replicas }}}}
  {{{{- end }}}}
  selector:
    matchLabels:
      {{{{- {selector} | nindent 6 }}}}
  template:
    metadata:
      {{{{- with .Values.{k}.podAnnotations }}}}
      annotations:
        {{{{- toYaml . | nindent {n} }}}}
      {{{{- end }}}}
      labels:
        {{{{- {selector} | nindent 8 }}}}
    spec:
      containers:
        - name: {{{{ .Chart.Name }}}}
          image: "{{{{ .Values.{k}.image.repository }}}}:{{{{ .Values.{k}.image.tag | default .Chart.AppVersion }}}}"
          imagePullPolicy: {{{{ .Values.{k}.image.pullPolicy }}}}
          {{{{- with .Values.{k}.env }}}}
          env:
            {{{{- range $name, $value := . }}}}
            - name: {{{{ $name | upper }}}}
              value: {{{{ $value | quote }}}}
            {{{{- end }}}}
          {{{{- end }}}}
          ports:
            {{{{- range .Values.{k}.ports }}}}
            - name: {{{{ .name | lower | trunc 15 | trimSuffix "-" }}}}
              containerPort: {{{{ .port }}}}
              protocol: TCP
            {{{{- end }}}}
          resources:
            {{{{- toYaml .Values.{k}.resources | nindent 12 }}}}
"#
        ),
    );
}

fn feat_tpl(g: &mut Gen, k: &str) {
    let msgs = [
        "hello {{ .Release.Name }}",
        "{{ .Release.Namespace }}/{{ .Chart.Name }}",
        "{{ .Values.KEY.word | upper }}",
        "plain text",
        "{{- if .Release.IsInstall }}install{{ else }}upgrade{{ end -}}",
        "{{ printf \"%s-%s\" .Release.Name \"x\" | trunc 5 }}",
        "{{ .Template.Name }}",
    ];
    let msg = g.rng.pick(&msgs).replace("KEY", k);
    let word = g.word();
    let extra = if g.rng.chance(50) { json!({"host": "{{ .Release.Name }}.example.com", "paths": ["/", "/{{ .Chart.Name }}"]}) } else { json!({}) };
    g.values.insert(k.into(), json!({"message": msg, "word": word, "extra": extra}));
    g.settable.push((format!("{k}.word"), false));
    let d = g.dash();
    g.tpl(
        &format!("{k}-tpl.yaml"),
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{{{ .Release.Name }}}}-{k}\ndata:\n  message: {{{{ tpl .Values.{k}.message . | quote }}}}\n  {d} if .Values.{k}.extra }}}}\n  extra: |\n    {{{{- tpl (toYaml .Values.{k}.extra) . | nindent 4 }}}}\n  {{{{- end }}}}\n  inline: {{{{ tpl \"{{{{ .Values.{k}.word | quote }}}}\" $ }}}}\n"
        ),
    );
}

fn feat_strings(g: &mut Gen, k: &str) {
    let s = g.word();
    let short = g.token();
    let padded = format!("  {}  ", g.token());
    let n = g.num();
    let flag = g.rng.chance(50);
    let t = *g.rng.pick(&[-3, 0, 3, 5, 63]);
    g.values.insert(k.into(), json!({"s": s, "short": short, "padded": padded, "n": n, "flag": flag, "empty": "", "zero": 0}));
    g.settable.push((format!("{k}.s"), false));
    g.settable.push((format!("{k}.flag"), true));
    // Go reads a comment only right after the delimiter and its trim marker.
    let c = if g.rng.chance(60) { "{{- /*" } else { "{{/*" };
    g.tpl(
        &format!("{k}-strings.yaml"),
        format!(
            r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: {{{{ printf "%s-%s" .Release.Name "{k}" | lower }}}}
data:
  upper: {{{{ .Values.{k}.s | upper | quote }}}}
  lower: {{{{ .Values.{k}.s | lower | quote }}}}
  title: {{{{ .Values.{k}.s | title | quote }}}}
  trunc: {{{{ .Values.{k}.s | trunc {t} | quote }}}}
  suffix: {{{{ .Values.{k}.short | trimSuffix "-x" | squote }}}}
  prefix: {{{{ .Values.{k}.short | trimPrefix "a" }}}}
  replaced: {{{{ .Values.{k}.s | replace " " "_" | quote }}}}
  printf: {{{{ printf "%s-%d-%v" .Values.{k}.short (int .Values.{k}.n) .Values.{k}.flag | quote }}}}
  printfV: {{{{ printf "%v|%s" .Values.{k}.n .Values.{k}.s | quote }}}}
  default: {{{{ .Values.{k}.empty | default "fallback" | quote }}}}
  defaultZero: {{{{ .Values.{k}.zero | default 7 }}}}
  ternary: {{{{ ternary "yes" "no" .Values.{k}.flag }}}}
  contains: {{{{ contains "a" .Values.{k}.s }}}}
  hasPrefix: {{{{ hasPrefix "al" .Values.{k}.short }}}}
  repeat: {{{{ repeat 2 .Values.{k}.short }}}}
  trim: {{{{ .Values.{k}.padded | trim | quote }}}}
  indented: |
    {{{{- .Values.{k}.s | nindent 4 }}}}
  {c} a comment between keys */}}}}
  toString: {{{{ toString .Values.{k}.n | quote }}}}
  squoted: {{{{ squote .Values.{k}.s }}}}
  cat: {{{{ cat .Values.{k}.short "and" .Values.{k}.short }}}}
"#
        ),
    );
}

fn feat_ifelse(g: &mut Gen, k: &str) {
    let mode = *g.rng.pick(&["a", "b", "c", "d"]);
    let n = g.rng.below(10);
    let flag = g.rng.chance(50);
    let list: Vec<Value> = (0..g.rng.below(4)).map(|_| json!(g.token())).collect();
    g.values.insert(k.into(), json!({"mode": mode, "n": n, "flag": flag, "list": list}));
    g.settable.push((format!("{k}.mode"), false));
    g.settable.push((format!("{k}.flag"), true));
    let d1 = g.dash();
    let d2 = g.dash();
    g.tpl(
        &format!("{k}-ifelse.yaml"),
        format!(
            r#"{{{{- $mode := .Values.{k}.mode }}}}
{{{{- $n := int .Values.{k}.n }}}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{{{ .Release.Name }}}}-{k}
data:
{d1} if eq $mode "a" }}}}
  mode: first
{{{{- else if and (eq $mode "b") .Values.{k}.flag }}}}
  mode: second
{{{{- else if or (ne $mode "c") (lt $n 5) }}}}
  mode: third
{{{{- else }}}}
  mode: other
{{{{- end }}}}
  notFlag: {{{{ not .Values.{k}.flag }}}}
  andOr: {{{{ and .Values.{k}.flag $mode }}}} {{{{ or .Values.{k}.flag "" 0 }}}}
  len: {{{{ len .Values.{k}.list }}}}
  lenStr: {{{{ len $mode }}}}
  hasKey: {{{{ hasKey .Values.{k} "mode" }}}} {{{{ hasKey .Values.{k} "nope" }}}}
  {d2} if .Values.{k}.list }}}}
  nonEmpty: {{{{ first .Values.{k}.list }}}}
  {{{{- end }}}}
  {{{{- if gt $n 3 }}}}
  big: "yes"
  {{{{- end }}}}
  eqNum: {{{{ eq $n 4 }}}} {{{{ le $n 4 }}}} {{{{ ge $n 4 }}}}
  empty: {{{{ empty .Values.{k}.list }}}}
"#
        ),
    );
}

fn feat_range(g: &mut Gen, k: &str) {
    let mut m = Map::new();
    for _ in 0..g.rng.below(5) {
        let key = format!("{}{}", g.token().replace('.', "-"), g.rng.below(9));
        m.insert(key, if g.rng.chance(75) { json!(g.word()) } else { g.num() });
    }
    let list: Vec<Value> = (0..g.rng.below(4)).map(|_| json!(g.token())).collect();
    let nested: Vec<Value> = (0..g.rng.below(3)).map(|i| json!({"name": format!("n{i}"), "labels": {"tier": g.token()}})).collect();
    g.values.insert(k.into(), json!({"map": m, "list": list, "nested": nested}));
    g.settable.push((format!("{k}.map.zz"), false));
    let d = g.dash();
    g.tpl(
        &format!("{k}-range.yaml"),
        format!(
            r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: {{{{ $.Release.Name }}}}-{k}
data:
  {{{{- range $key, $val := .Values.{k}.map }}}}
  {{{{ $key }}}}: {{{{ $val | quote }}}}
  {{{{- end }}}}
  {{{{- range $i, $v := .Values.{k}.list }}}}
  item{{{{ $i }}}}: {{{{ $v }}}}-{{{{ $.Release.Name }}}}
  {{{{- end }}}}
  listed: |
  {d} range .Values.{k}.list }}}}
    - {{{{ . }}}}
  {{{{- else }}}}
    empty: true
  {{{{- end }}}}
{{{{- range .Values.{k}.nested }}}}
---
apiVersion: v1
kind: Service
metadata:
  name: {{{{ .name }}}}-{{{{ $.Chart.Name }}}}
  labels:
    {{{{- range $lk, $lv := .labels }}}}
    {{{{ $lk }}}}: {{{{ $lv }}}}
    {{{{- end }}}}
{{{{- end }}}}
  until: {{{{ range $i := until 3 }}}}{{{{ $i }}}},{{{{ end }}}}
"#
        ),
    );
}

fn feat_collections(g: &mut Gen, k: &str) {
    let s = g.word();
    let flag = g.rng.chance(50);
    let mut m = Map::new();
    for _ in 0..g.rng.below(4) {
        m.insert(g.token(), g.num());
    }
    let list: Vec<Value> = (0..g.rng.below(3)).map(|_| json!(g.token())).collect();
    let j = g.rng.pick(&[r#"{"a": 1, "b": [true, null]}"#, r#"{"a": "x"}"#, r#"not json"#, r#"{"nested": {"a": 2}}"#]).to_string();
    let y = g.rng.pick(&["b: 2\nc: [1, 2]", "a: {b: c}", "- not a map", "b: hello"]).to_string();
    g.values.insert(k.into(), json!({"s": s, "flag": flag, "m": m, "list": list, "json": j, "yaml": y}));
    g.tpl(
        &format!("{k}-collections.yaml"),
        format!(
            r#"{{{{- $d := dict "a" 1 "b" .Values.{k}.s "c" (list 1 2) }}}}
{{{{- $l := list 1 "two" .Values.{k}.flag 2.5 }}}}
{{{{- $m := merge (dict "x" 1) .Values.{k}.m (dict "y" 2 "x" 3) }}}}
{{{{- $_ := set $d "z" "set" }}}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{{{ .Release.Name }}}}-{k}
data:
  keys: {{{{ keys $m | sortAlpha | join "," | quote }}}}
  json: {{{{ toJson $d | quote }}}}
  list: {{{{ toJson $l | squote }}}}
  merged: {{{{ toJson $m | squote }}}}
  pretty: |
    {{{{- toPrettyJson $d | nindent 4 }}}}
  fromJson: {{{{ (fromJson .Values.{k}.json).a }}}}
  fromJsonErr: {{{{ (fromJson .Values.{k}.json).Error | default "none" | quote }}}}
  fromYaml: {{{{ (fromYaml .Values.{k}.yaml).b | default "none" }}}}
  yaml: |
    {{{{- toYaml $m | nindent 4 }}}}
  first: {{{{ first $l }}}}
  last: {{{{ last .Values.{k}.list }}}}
  get: {{{{ get $d "b" | quote }}}} {{{{ get $d "nope" | quote }}}}
  pluck: {{{{ pluck "a" $d (dict "a" 9) | toJson }}}}
  has: {{{{ has 1 $l }}}} {{{{ has "x" $l }}}}
  uniq: {{{{ list "b" "a" "b" | uniq | sortAlpha | toJson }}}}
  without: {{{{ without $l 1 | toJson }}}}
  omit: {{{{ omit $d "a" | toJson }}}}
  values: {{{{ values (dict "q" 1) | toJson }}}}
  dig: {{{{ dig "nested" "a" "none" (fromJson .Values.{k}.json) }}}}
  deep: {{{{ .Values.{k}.m | deepCopy | toJson }}}}
"#
        ),
    );
}

fn feat_math(g: &mut Gen, k: &str) {
    let s = g.word();
    let (a, b, f) = (g.num(), g.num(), g.num());
    g.values.insert(k.into(), json!({"s": s, "a": a, "b": b, "f": f, "big": 1000000, "small": 0.000001, "neg": -2.5, "str": "42"}));
    g.settable.push((format!("{k}.s"), false));
    g.tpl(
        &format!("{k}-math.yaml"),
        format!(
            r#"apiVersion: v1
kind: Secret
metadata:
  name: {{{{ .Release.Name }}}}-{k}
type: Opaque
data:
  b64: {{{{ .Values.{k}.s | b64enc | quote }}}}
  b64dec: {{{{ .Values.{k}.s | b64enc | b64dec | quote }}}}
stringData:
  sha: {{{{ .Values.{k}.s | sha256sum | trunc 12 }}}}
  sha1: {{{{ sha1sum "x" }}}}
  sum: {{{{ add .Values.{k}.a .Values.{k}.b }}}}
  add1: {{{{ add1 .Values.{k}.a }}}}
  sub: {{{{ sub 10 .Values.{k}.b }}}}
  mul: {{{{ mul .Values.{k}.a 3 }}}}
  max: {{{{ max .Values.{k}.a .Values.{k}.b 4 }}}}
  min: {{{{ min .Values.{k}.a 2 }}}}
  int: {{{{ int .Values.{k}.f }}}}
  int64: {{{{ int64 .Values.{k}.str }}}}
  float: {{{{ float64 .Values.{k}.a }}}}
  div: {{{{ div 10 (max 1 (int .Values.{k}.a)) }}}}
  mod: {{{{ mod 10 3 }}}}
  big: {{{{ .Values.{k}.big }}}}
  bigInt: {{{{ .Values.{k}.big | int }}}}
  small: {{{{ .Values.{k}.small }}}}
  neg: {{{{ .Values.{k}.neg }}}}
  plainFloat: {{{{ .Values.{k}.f }}}}
  printfd: {{{{ printf "%d" (int .Values.{k}.a) }}}}
  printfg: {{{{ printf "%v %.2f" .Values.{k}.f (float64 .Values.{k}.b) }}}}
  quoteNum: {{{{ .Values.{k}.big | quote }}}}
  toStringNum: {{{{ .Values.{k}.big | toString }}}}
  yamlNums: {{{{ toYaml (dict "big" .Values.{k}.big "f" .Values.{k}.f "neg" .Values.{k}.neg) | nindent 4 }}}}
  jsonNums: {{{{ toJson (list .Values.{k}.big .Values.{k}.small) }}}}
  round: {{{{ round 2.567 2 }}}} {{{{ ceil 1.2 }}}} {{{{ floor 1.8 }}}}
"#
        ),
    );
}

fn feat_caps(g: &mut Gen, k: &str) {
    let d = g.dash();
    g.tpl(
        &format!("{k}-caps.yaml"),
        format!(
            r#"{d} if semverCompare ">=1.21-0" .Capabilities.KubeVersion.GitVersion }}}}
apiVersion: policy/v1
{{{{- else }}}}
apiVersion: policy/v1beta1
{{{{- end }}}}
kind: PodDisruptionBudget
metadata:
  name: {{{{ .Release.Name }}}}-{k}
  annotations:
    kube: {{{{ .Capabilities.KubeVersion.Version | quote }}}}
    git: {{{{ .Capabilities.KubeVersion.GitVersion }}}}
    major: {{{{ .Capabilities.KubeVersion.Major | quote }}}}
    minor: {{{{ .Capabilities.KubeVersion.Minor | quote }}}}
    apps: {{{{ .Capabilities.APIVersions.Has "apps/v1" | quote }}}}
    custom: {{{{ .Capabilities.APIVersions.Has "example.com/v1" }}}}
    kind: {{{{ .Capabilities.APIVersions.Has "example.com/v1/Widget" }}}}
    newer: {{{{ semverCompare ">=1.30.0-0" .Capabilities.KubeVersion.Version }}}}
    range: {{{{ semverCompare "~1.29.0" .Capabilities.KubeVersion.Version }}}}
{{{{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1/Ingress" }}}}
    ingress: v1
{{{{- end }}}}
"#
        ),
    );
}

fn feat_release(g: &mut Gen, k: &str) {
    g.tpl(
        &format!("{k}-release.yaml"),
        format!(
            r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: {{{{ .Release.Name }}}}-{k}
  namespace: {{{{ .Release.Namespace }}}}
data:
  upgrade: {{{{ .Release.IsUpgrade | quote }}}}
  install: {{{{ .Release.IsInstall }}}}
  revision: {{{{ .Release.Revision | quote }}}}
  service: {{{{ .Release.Service }}}}
  chart: {{{{ .Chart.Name }}}}-{{{{ .Chart.Version }}}}
  app: {{{{ .Chart.AppVersion | default "none" | quote }}}}
  template: {{{{ .Template.Name }}}}
  base: {{{{ .Template.BasePath }}}}
  description: {{{{ .Chart.Description | quote }}}}
  keywords: {{{{ .Chart.Keywords | join "," | quote }}}}
  apiVersion: {{{{ .Chart.APIVersion }}}}
  isRoot: {{{{ .Chart.IsRoot }}}}
"#
        ),
    );
}

fn feat_files(g: &mut Gen, k: &str) {
    let lines: [&str; 5] = ["first line", "key = value", "# comment", "", "last"];
    let mut text = String::new();
    for _ in 0..1 + g.rng.below(4) {
        let line: &&str = g.rng.pick(&lines);
        text.push_str(line);
        text.push('\n');
    }
    if g.rng.chance(30) && text.len() > 1 {
        text.pop();
    }
    if g.rng.chance(3) {
        text.clear(); // Helm's Files.Lines fails on an empty file (index out of range [-1])
    }
    g.files.push(("files/a.txt".into(), text.into_bytes()));
    g.files.push(("files/app.conf".into(), b"listen 80;\nserver_name _;\n".to_vec()));
    g.files.push(("files/data.json".into(), br#"{"k": "v"}"#.to_vec()));
    if g.rng.chance(50) {
        g.files.push(("files/skip.bak".into(), b"ignored by .helmignore\n".to_vec()));
        g.files.push(("files/sub/nested.txt".into(), b"nested\n".to_vec()));
        g.files.push((".helmignore".into(), b"# patterns\n*.bak\n.git/\n*.tmp\n".to_vec()));
    }
    g.values.insert(k.into(), json!({"file": "files/a.txt"}));
    g.tpl(
        &format!("{k}-files.yaml"),
        format!(
            r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: {{{{ .Release.Name }}}}-{k}-files
data:
  {{{{- (.Files.Glob "files/*").AsConfig | nindent 2 }}}}
  single: {{{{ .Files.Get .Values.{k}.file | quote }}}}
  missing: {{{{ .Files.Get "files/nope.txt" | quote }}}}
  lines: {{{{ .Files.Lines "files/a.txt" | toJson | quote }}}}
  {{{{- range $path, $_ := .Files.Glob "files/**" }}}}
  path: {{{{ $path }}}}
  {{{{- end }}}}
  {{{{- range .Files.Lines "files/a.txt" }}}}
  # {{{{ . }}}}
  {{{{- end }}}}
  bytes: {{{{ .Files.GetBytes "files/data.json" | len }}}}
  json: {{{{ (.Files.Get "files/data.json" | fromJson).k }}}}
---
apiVersion: v1
kind: Secret
metadata:
  name: {{{{ .Release.Name }}}}-{k}-secret
data:
  {{{{- (.Files.Glob "files/*.conf").AsSecrets | nindent 2 }}}}
"#
        ),
    );
}

fn feat_subchart(g: &mut Gen, k: &str, parent_dir: &Path) {
    let sub = format!("sub{k}");
    let sub_dir = parent_dir.join("charts").join(&sub);
    write(&sub_dir.join("Chart.yaml"), format!("apiVersion: v2\nname: {sub}\nversion: 0.2.0\nappVersion: \"9.9\"\ndescription: a subchart\n").as_bytes());
    let own_color = g.token();
    write(&sub_dir.join("values.yaml"), yaml(&json!({"color": own_color, "replicas": 1, "enabled": true, "shared": {"a": 1, "b": "sub"}})).as_bytes());
    let include_parent = g.helpers && g.rng.chance(50);
    let parent_helper = if include_parent { format!("\n  parentName: {{{{ include \"{}.name\" . }}}}", g.chart) } else { String::new() };
    write(
        &sub_dir.join("templates/cm.yaml"),
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{{{ .Release.Name }}}}-{{{{ .Chart.Name }}}}\ndata:\n  color: {{{{ .Values.color | quote }}}}\n  replicas: {{{{ .Values.replicas }}}}\n  global: {{{{ .Values.global.env | default \"none\" }}}}\n  shared: {{{{ toJson .Values.shared }}}}\n  base: {{{{ .Template.BasePath }}}}\n  name: {{{{ .Template.Name }}}}\n  chart: {{{{ .Chart.Name }}}}-{{{{ .Chart.Version }}}}-{{{{ .Chart.AppVersion }}}}\n  isRoot: {{{{ .Chart.IsRoot }}}}{parent_helper}\n"
        )
        .as_bytes(),
    );
    write(&sub_dir.join("templates/_sub.tpl"), format!("{{{{- define \"{sub}.hello\" -}}}}\nhello from {{{{ .Chart.Name }}}}\n{{{{- end -}}}}\n").as_bytes());
    write(&sub_dir.join("templates/NOTES.txt"), b"sub notes {{ .Release.Name }}\n");
    let mut over = Map::new();
    if g.rng.chance(60) {
        over.insert("color".into(), json!(g.token()));
    }
    if g.rng.chance(40) {
        over.insert("shared".into(), json!({"b": "parent", "c": null}));
    }
    if g.rng.chance(30) {
        over.insert("shared".into(), json!({"a": null}));
    }
    let conditioned = g.rng.chance(40);
    if conditioned {
        over.insert("enabled".into(), json!(g.rng.chance(60)));
        let _ = write!(g.chart_extra, "  - name: {sub}\n    version: 0.2.0\n    condition: {sub}.enabled\n");
        g.settable.push((format!("{sub}.enabled"), true));
    }
    g.values.insert(sub.clone(), Value::Object(over));
    g.settable.push((format!("{sub}.color"), false));
    let env = g.token();
    let global = g.values.entry("global").or_insert_with(|| json!({}));
    global["env"] = json!(env);
    g.settable.push(("global.env".into(), false));
    // A disabled subchart's defines are gone too: include them only when it is always there.
    let hello = if conditioned { "(conditioned)".to_string() } else { format!("{{{{ include \"{sub}.hello\" . }}}}") };
    g.tpl(
        &format!("{k}-uses-sub.yaml"),
        format!("sub: {hello}\nglobalFromParent: {{{{ .Values.global.env }}}}\nsubValues: {{{{ toJson (index .Values \"{sub}\") }}}}\n"),
    );
}

fn feat_trim(g: &mut Gen, k: &str) {
    let s = g.token();
    g.values.insert(k.into(), json!({"s": s}));
    g.tpl(
        &format!("{k}-trim.yaml"),
        format!(
            "{{{{/* leading comment */}}}}\n{{{{- /* trimmed comment */ -}}}}\n\n\napiVersion: v1\nkind: ConfigMap\ndata:\n  a: {{{{- \" x\" }}}}\n  b: {{{{ \"y\" -}}}}   \n\n  c: z\n  {{{{- /* between */}}}}\n  d:    \"{{{{ .Values.{k}.s }}}}\"   \n\t\n  e: {{{{- /* x */ -}}}} f\n{{{{- \"\\n\" }}}}\n  g: |\n      keep   \n\n      this\n\n\n"
        ),
    );
}

fn feat_notes(g: &mut Gen, k: &str) {
    let show = g.rng.chance(50);
    g.values.insert(k.into(), json!({"show": show}));
    g.settable.push((format!("{k}.show"), true));
    g.tpl(
        "NOTES.txt",
        format!(
            "Thank you for installing {{{{ .Chart.Name }}}}.\n\nYour release is named {{{{ .Release.Name }}}}.\n{{{{- if .Values.{k}.show }}}}\n  kubectl get pods -n {{{{ .Release.Namespace }}}} -l app={{{{ .Chart.Name }}}}\n{{{{- end }}}}\n{{{{ if .Release.IsUpgrade }}}}upgraded to revision {{{{ .Release.Revision }}}}{{{{ end }}}}\n"
        ),
    );
}

fn feat_hooks(g: &mut Gen, k: &str) {
    let weight = *g.rng.pick(&["-5", "0", "10"]);
    g.tpl(
        &format!("{k}-hook.yaml"),
        format!(
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: \"{{{{ .Release.Name }}}}-{k}-hook\"\n  annotations:\n    \"helm.sh/hook\": pre-install,pre-upgrade\n    \"helm.sh/hook-weight\": \"{weight}\"\n    \"helm.sh/hook-delete-policy\": before-hook-creation,hook-succeeded\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: hook\n          image: busybox\n          command: [\"sh\", \"-c\", \"echo {{{{ .Release.Name }}}}\"]\n"
        ),
    );
    g.tpl(
        &format!("tests/{k}-test-connection.yaml"),
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: \"{{{{ .Release.Name }}}}-{k}-test\"\n  annotations:\n    \"helm.sh/hook\": test\nspec:\n  containers:\n    - name: wget\n      image: busybox\n      args: ['{{{{ .Release.Name }}}}:80']\n  restartPolicy: Never\n# {{{{ .Template.Name }}}}\n"
        ),
    );
}

fn feat_missing(g: &mut Gen, k: &str) {
    g.values.insert(k.into(), json!({"m": {"a": 1}, "em": {}, "el": [], "nul": null, "zero": 0, "f": false}));
    g.tpl(
        &format!("{k}-missing.yaml"),
        format!(
            r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: {{{{ .Release.Name }}}}-{k}
data:
  empty: {{{{ .Values.nope }}}}
  emptyQuoted: {{{{ .Values.nope | quote }}}}
  nested: {{{{ .Values.{k}.m.nope }}}}
  inString: "x{{{{ .Values.{k}.nope }}}}y"
  index: {{{{ index .Values.{k} "nope" }}}}
  indexOk: {{{{ index .Values.{k}.m "a" }}}}
  withElse: {{{{ with .Values.nope }}}}{{{{ . }}}}{{{{ else }}}}none{{{{ end }}}}
  printfNil: {{{{ printf "%v" .Values.nope }}}}
  dflt: {{{{ .Values.nope | default "d" }}}}
  emptyMap: {{{{ .Values.{k}.em }}}}
  emptyList: {{{{ .Values.{k}.el }}}}
  map: {{{{ .Values.{k}.m }}}}
  nullVal: {{{{ .Values.{k}.nul }}}}
  nullHasKey: {{{{ hasKey .Values.{k} "nul" }}}}
  toYamlNil: {{{{ toYaml .Values.nope }}}}
  toJsonNil: {{{{ toJson .Values.nope }}}}
  zero: {{{{ .Values.{k}.zero }}}} {{{{ .Values.{k}.f }}}}
  noValueText: "<no value>"
  coalesce: {{{{ coalesce .Values.nope .Values.{k}.zero "c" }}}}
  kindOf: {{{{ kindOf .Values.{k}.m }}}} {{{{ typeOf .Values.{k}.zero }}}} {{{{ kindOf .Values.nope }}}}
"#
        ),
    );
}

/// One failing construct (Helm's error text is what we compare).
fn feat_error(g: &mut Gen, k: &str) {
    let body = match g.rng.below(10) {
        0 => format!("x: {{{{ required \"{k}.needed is required\" .Values.{k}.needed }}}}\n"),
        1 => format!("x: {{{{ .Values.{k}.nope.deeper }}}}\n"),
        2 => "x: {{ fail \"this chart refuses\" }}\n".to_string(),
        3 => "x: {{ include \"no-such-template\" . }}\n".to_string(),
        4 => "x: {{ index (list 1 2) 5 }}\n".to_string(),
        5 => "x: {{ lt 1.5 2 }}\n".to_string(),
        6 => "x: {{ .Values.a \n".to_string(),
        7 => "{{ if true }}\nx: 1\n".to_string(),
        8 => "x: {{ tpl \"{{ .Nope.x \" . }}\n".to_string(),
        _ => "x: {{ template \"missing-named\" . }}\n".to_string(),
    };
    // `required` against a value a flag may give
    // (with no `kN` map at all, `.Values.kN.needed` is a nil pointer before `required` runs)
    if body.contains("required") {
        match g.rng.below(5) {
            0 | 1 => {
                g.values.insert(k.into(), json!({"needed": "given"}));
            }
            2 | 3 => {
                g.values.insert(k.into(), json!({"other": 1}));
            }
            _ => {}
        }
    }
    g.settable.push((format!("{k}.needed"), false));
    g.tpl(&format!("{k}-error.yaml"), body);
}

/// The chart for `seed`, written under `dir`, and its flags.
fn generated_case(seed: u64, index: usize, dir: &Path) -> Case {
    let mut rng = Rng(seed.wrapping_add((index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1);
    for _ in 0..4 {
        rng.next();
    }
    let chart = format!("{}{}", rng.pick(CHART_NAMES), if rng.chance(30) { format!("-{index}") } else { String::new() });
    let chart_dir = dir.join(format!("chart-{index}")).join(&chart);
    let mut g = Gen {
        rng: &mut rng,
        chart: chart.clone(),
        values: Map::new(),
        templates: Vec::new(),
        files: Vec::new(),
        chart_extra: String::new(),
        settable: Vec::new(),
        helpers: false,
    };
    if g.rng.chance(75) {
        feat_helpers(&mut g);
    }
    let features: &[fn(&mut Gen, &str)] = &[
        feat_deployment,
        feat_tpl,
        feat_strings,
        feat_ifelse,
        feat_range,
        feat_collections,
        feat_math,
        feat_caps,
        feat_release,
        feat_files,
        feat_trim,
        feat_hooks,
        feat_missing,
    ];
    let count = 2 + g.rng.below(5);
    for i in 0..count {
        let f = *g.rng.pick(features);
        f(&mut g, &format!("k{i}"));
    }
    if g.rng.chance(30) {
        feat_subchart(&mut g, "s", &chart_dir);
    }
    if g.rng.chance(35) && !g.templates.iter().any(|(n, _)| n == "NOTES.txt") {
        feat_notes(&mut g, "notes");
    }
    if g.rng.chance(14) {
        feat_error(&mut g, "err");
    }
    // Chart.yaml
    let mut meta = format!("apiVersion: v2\nname: {chart}\nversion: {}\n", g.rng.pick(VERSIONS));
    if g.rng.chance(60) {
        let _ = writeln!(meta, "appVersion: \"{}\"", g.rng.pick(APP_VERSIONS));
    }
    if g.rng.chance(70) {
        let _ = writeln!(meta, "description: {}", g.rng.pick(&["A Helm chart for Kubernetes", "\"quoted: description\"", "multi word description"]));
    }
    if g.rng.chance(50) {
        meta.push_str("keywords:\n  - web\n  - http\n");
    }
    meta.push_str("type: application\n");
    if !g.chart_extra.is_empty() {
        meta.push_str("dependencies:\n");
        meta.push_str(&g.chart_extra);
    }
    write(&chart_dir.join("Chart.yaml"), meta.as_bytes());
    write(&chart_dir.join("values.yaml"), format!("# generated values (seed {seed}, chart {index})\n{}", yaml(&Value::Object(g.values.clone()))).as_bytes());
    for (name, body) in &g.templates {
        write(&chart_dir.join("templates").join(name), body.as_bytes());
    }
    for (name, body) in &g.files {
        write(&chart_dir.join(name), body);
    }
    // flags
    let settable = g.settable.clone();
    let mut flags = Vec::new();
    let name = if rng.chance(60) { "release-name".to_string() } else { rng.pick(RELEASE_NAMES).to_string() };
    if rng.chance(40) {
        flags.extend(["--namespace".to_string(), rng.pick(NAMESPACES).to_string()]);
    }
    if !settable.is_empty() {
        // Values of the key's kind, but now and then one that breaks a
        // template (a number for `upper`, null deleting a key, a map for a bool):
        // Helm's type errors are compared too.
        for _ in 0..rng.below(3) {
            let (path, is_bool) = rng.pick(&settable).clone();
            let v = match (is_bool, rng.chance(6)) {
                (true, false) => rng.pick(&["true", "false"]).to_string(),
                (false, false) => rng.pick(&["from-set", "Set Value", "x-", "a.b", "UPPER_case"]).to_string(),
                (_, true) => rng.pick(&["null", "true", "word"]).to_string(),
            };
            flags.extend(["--set".into(), format!("{path}={v}")]);
        }
        if rng.chance(25) {
            let (path, is_bool) = rng.pick(&settable).clone();
            if !is_bool || rng.chance(6) {
                flags.extend(["--set-string".into(), format!("{path}={}", rng.pick(&["42", "true", "s", "1e3"]))]);
            }
        }
        if rng.chance(15) {
            let (path, is_bool) = rng.pick(&settable).clone();
            let v = match (is_bool, rng.chance(8)) {
                (true, false) => "false",
                (false, false) => *rng.pick(&["\"json\"", "\"with space\""]),
                (_, true) => *rng.pick(&["1.5", "{\"a\":[1,2]}", "null"]),
            };
            flags.extend(["--set-json".into(), format!("{path}={v}")]);
        }
        if rng.chance(25) {
            let f = dir.join(format!("chart-{index}")).join("override.yaml");
            let mut doc = json!({});
            for _ in 0..1 + rng.below(2) {
                let (path, is_bool) = rng.pick(&settable).clone();
                let mut at = &mut doc;
                let parts: Vec<&str> = path.split('.').collect();
                for part in &parts[..parts.len() - 1] {
                    if !at.get(*part).is_some_and(Value::is_object) {
                        at[*part] = json!({});
                    }
                    at = &mut at[*part];
                }
                at[parts[parts.len() - 1]] = if is_bool { json!(rng.chance(50)) } else { json!("from-file") };
            }
            write(&f, yaml(&doc).as_bytes());
            flags.extend(["-f".into(), f.to_string_lossy().into_owned()]);
        }
    }
    if rng.chance(35) {
        flags.extend(["--kube-version".to_string(), rng.pick(KUBE_VERSIONS).to_string()]);
    }
    if rng.chance(25) {
        flags.extend(["--api-versions".to_string(), rng.pick(&["example.com/v1", "example.com/v1/Widget", "monitoring.coreos.com/v1,example.com/v1"]).to_string()]);
    }
    if rng.chance(20) {
        flags.push("--is-upgrade".to_string());
    }
    Case { label: format!("seed {seed} chart {index}"), chart: chart_dir, name, flags }
}

/// The hand-written charts of tests/fixtures/render, each with a few flag sets.
fn fixture_cases() -> Vec<Case> {
    let dir = root().join("tests/fixtures/render");
    let sets: &[(&str, &str, &[&str])] = &[
        ("bitnami-style", "release-name", &[]),
        ("bitnami-style", "my-web", &["--namespace", "prod", "--set", "replicaCount=3", "--set", "ingress.enabled=true", "--set", "commonLabels.team=web"]),
        ("bitnami-style", "web", &["--set", "fullnameOverride=explicit", "--set-string", "image.tag=1.2", "--kube-version", "1.20.0"]),
        ("bitnami-style", "extra", &["-f", "bitnami-extra.values.yaml", "--set", "ingress.enabled=true", "--set", "ingress.tls=true", "--kube-version", "1.18.3"]),
        ("files-config", "release-name", &[]),
        ("files-config", "cfg", &["--set", "extraConfig.enabled=true", "--set", "config.glob=conf/*.ini"]),
        ("lookup", "release-name", &[]),
        ("lookup", "db", &["--set", "auth.password=given", "--is-upgrade"]),
        ("capabilities", "release-name", &[]),
        ("capabilities", "caps", &["--kube-version", "1.18.0"]),
        ("capabilities", "caps", &["--kube-version", "v1.30.2", "--api-versions", "monitoring.coreos.com/v1/ServiceMonitor", "--api-versions", "autoscaling/v2beta2"]),
        ("hooks-tests", "release-name", &[]),
        ("hooks-tests", "hooked", &["--is-upgrade", "--namespace", "ops", "--set", "migrations.enabled=false"]),
    ];
    sets.iter()
        .map(|(chart, name, flags)| Case {
            label: format!("fixture {chart} {}", flags.join(" ")),
            chart: dir.join(chart),
            name: name.to_string(),
            // `-f` files sit beside the charts
            flags: flags.iter().map(|s| if s.ends_with(".values.yaml") { dir.join(s).to_string_lossy().into_owned() } else { s.to_string() }).collect(),
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Comparing

enum Ours {
    Ok(Map<String, Value>),
    Err { code: Option<i32>, stderr: String },
}

fn ours(case: &Case) -> Ours {
    let out = Command::new(env!("CARGO_BIN_EXE_kubectl-releasex"))
        .arg("template")
        .arg(&case.name)
        .arg(&case.chart)
        .args(&case.flags)
        .args(["-o", "json"])
        .env("NO_COLOR", "1")
        .output()
        .expect("run kubectl-releasex");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    // The engine rendered but the output is not valid YAML (which `helm
    // template` refuses too): the JSON still holds each template's text, and
    // that is what Helm's engine (the oracle's `--engine`) is compared with.
    let rendered_invalid_yaml = out.status.code() == Some(1) && stderr.contains("YAML parse error on ");
    if !out.status.success() && !rendered_invalid_yaml {
        return Ours::Err { code: out.status.code(), stderr };
    }
    match serde_json::from_slice::<Value>(&out.stdout) {
        Ok(Value::Object(mut doc)) => match doc.remove("templates") {
            Some(Value::Object(t)) => Ours::Ok(t),
            other => Ours::Err { code: Some(0), stderr: format!("exit 0 but no \"templates\" object in the JSON output ({other:?})\n{stderr}") },
        },
        other => Ours::Err { code: Some(0), stderr: format!("exit 0 but stdout is not a JSON object: {other:?}\n{stderr}") },
    }
}

/// The first differing lines of two texts, with two lines of context.
fn text_diff(helm: &str, mine: &str) -> String {
    let (h, o): (Vec<&str>, Vec<&str>) = (helm.split('\n').collect(), mine.split('\n').collect());
    let first = h.iter().zip(&o).position(|(a, b)| a != b).unwrap_or(h.len().min(o.len()));
    let from = first.saturating_sub(2);
    let mut out = format!("@@ line {} @@\n", first + 1);
    for l in &h[from..first] {
        let _ = writeln!(out, "  {l:?}");
    }
    for l in h.iter().skip(first).take(4) {
        let _ = writeln!(out, "- {l:?}   (helm)");
    }
    for l in o.iter().skip(first).take(4) {
        let _ = writeln!(out, "+ {l:?}   (ours)");
    }
    out
}

#[derive(Default)]
struct Tally {
    templates: usize,
    errors: usize,
    equal_errors: usize,
    equal_templates: usize,
    different_templates: usize,
    inexact: usize,
}

/// Compares one case; `Some(report)` where we differ from Helm.
fn compare(case: &Case, helm: &Value, tally: &mut Tally) -> Option<String> {
    let mine = ours(case);
    let head = format!("{} ({} {} {})", case.label, case.name, case.chart.display(), case.flags.join(" "));
    match helm["status"].as_str() {
        Some("ok") => {
            if helm["exact"] == Value::Bool(false) {
                tally.inexact += 1;
                return None;
            }
            let want = helm["templates"].as_object().expect("templates map");
            tally.templates += want.len();
            let got = match mine {
                Ours::Ok(t) => t,
                Ours::Err { code, stderr } => {
                    tally.different_templates += want.len();
                    return Some(format!("{head}\n  helm rendered {} templates; ours exited {code:?}:\n{}", want.len(), stderr.trim_end()));
                }
            };
            let mut report = String::new();
            for (name, text) in want {
                match got.get(name) {
                    Some(mine) if mine == text => tally.equal_templates += 1,
                    Some(mine) => {
                        tally.different_templates += 1;
                        let _ = write!(report, "  template {name}:\n{}", text_diff(text.as_str().unwrap_or(""), mine.as_str().unwrap_or("(not a string)")));
                    }
                    None => {
                        tally.different_templates += 1;
                        let _ = writeln!(report, "  template {name}: missing from ours");
                    }
                }
            }
            for name in got.keys().filter(|n| !want.contains_key(*n)) {
                let _ = writeln!(report, "  template {name}: ours only (helm has no such key)");
            }
            (!report.is_empty()).then(|| format!("{head}\n{report}"))
        }
        Some("error") => {
            tally.errors += 1;
            let text = helm["error"].as_str().unwrap_or("").trim_end();
            match mine {
                Ours::Err { code: Some(c), stderr } if c != 0 && stderr.contains(&format!("error: {text}")) => {
                    tally.equal_errors += 1;
                    None
                }
                Ours::Err { code, stderr } => Some(format!("{head}\n  helm failed: Error: {text}\n  ours exited {code:?} with stderr:\n{}", stderr.trim_end())),
                Ours::Ok(t) => Some(format!("{head}\n  helm failed: Error: {text}\n  ours rendered {} templates", t.len())),
            }
        }
        _ => panic!("the Helm oracle could not answer {head}: {helm}"),
    }
}

#[test]
fn template_matches_helm_on_generated_and_fixture_charts() {
    let seed = crate::xorshift::seed_from_env("RENDER_GEN_SEED");
    let count: usize = std::env::var("RENDER_GEN_CHARTS").ok().and_then(|s| s.parse().ok()).unwrap_or(320);
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut cases: Vec<Case> = (0..count).map(|i| generated_case(seed, i, tmp.path())).collect();
    cases.extend(fixture_cases());

    let calls: Vec<Vec<String>> = cases
        .iter()
        .map(|c| {
            let mut call = vec!["render".to_string(), c.chart.to_string_lossy().into_owned(), "--engine".into(), "--name".into(), c.name.clone()];
            call.extend(c.flags.iter().cloned());
            call
        })
        .collect();
    let started = std::time::Instant::now();
    let answers = oracle_client::batch_answered(&calls);
    let oracle_time = started.elapsed();
    if std::env::var_os("RENDER_GEN_ORACLE_ONLY").is_some() {
        // Checking the generator: what Helm says, without our binary.
        let ok: Vec<&Value> = answers.iter().filter(|a| a["status"] == "ok").collect();
        let templates: usize = ok.iter().map(|a| a["templates"].as_object().map_or(0, Map::len)).sum();
        let mut errors: Vec<String> = cases.iter().zip(&answers).filter(|(_, a)| a["status"] == "error").map(|(c, a)| format!("{}: {}", c.label, a["error"])).collect();
        errors.sort();
        eprintln!("RENDER_GEN_SEED={seed}: {} charts, helm ok {} ({templates} templates), helm errors {}; oracle {:.1}s", cases.len(), ok.len(), errors.len(), oracle_time.as_secs_f64());
        for e in &errors {
            eprintln!("  {e}");
        }
        if std::env::var_os("RELEASEX_KEEP_CHARTS").is_some_and(|v| v == "1") {
            eprintln!("generated charts kept in {}", tmp.keep().display());
        }
        return;
    }

    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Option<String>)>> = Mutex::new(Vec::new());
    let tally = Mutex::new(Tally::default());
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                let mut local = Tally::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cases.len() {
                        break;
                    }
                    let verdict = compare(&cases[i], &answers[i], &mut local);
                    results.lock().unwrap().push((i, verdict));
                }
                let mut t = tally.lock().unwrap();
                t.templates += local.templates;
                t.errors += local.errors;
                t.equal_errors += local.equal_errors;
                t.equal_templates += local.equal_templates;
                t.different_templates += local.different_templates;
                t.inexact += local.inexact;
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    let failures: Vec<&String> = results.iter().filter_map(|(_, v)| v.as_ref()).collect();
    let t = tally.into_inner().unwrap();
    let helm_ok = answers.iter().filter(|a| a["status"] == "ok").count();
    eprintln!(
        "RENDER_GEN_SEED={seed}: {} charts ({count} generated, {} fixtures; helm ok {helm_ok}, helm errors {}), {} templates compared ({} equal, {} different), {} Helm errors compared ({} same), {} inexact oracle answers skipped, {} charts differ; oracle {:.1}s, total {:.1}s",
        cases.len(),
        cases.len() - count,
        cases.len() - helm_ok,
        t.templates,
        t.equal_templates,
        t.different_templates,
        t.errors,
        t.equal_errors,
        t.inexact,
        failures.len(),
        oracle_time.as_secs_f64(),
        started.elapsed().as_secs_f64(),
    );
    if std::env::var_os("RELEASEX_KEEP_CHARTS").is_some_and(|v| v == "1") {
        let kept = tmp.keep();
        eprintln!("generated charts kept in {}", kept.display());
    } else if !failures.is_empty() {
        eprintln!("(RELEASEX_KEEP_CHARTS=1 RENDER_GEN_SEED={seed} keeps the generated charts)");
    }
    assert!(
        failures.is_empty(),
        "{} of {} charts differ from Helm (RENDER_GEN_SEED={seed}):\n{}",
        failures.len(),
        cases.len(),
        failures.iter().take(8).map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}
