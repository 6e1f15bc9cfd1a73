//! The Go values of Helm's render data that are not plain maps: `.Files`
//! (helm: pkg/engine/files.go, a `map[string][]byte` with methods) and
//! `.Capabilities` (pkg/chart/common/capabilities.go: `*Capabilities` with
//! `KubeVersion`, `APIVersions` (a `VersionSet` with `Has`) and `HelmVersion`).

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use crate::gotmpl::{GoObject, Tv, Val};

/// `.Files`: file name -> bytes (the chart's own, shared); Go ranges over it in key order.
#[derive(Debug, Clone, Default)]
pub struct Files {
    pub files: BTreeMap<String, Arc<Vec<u8>>>,
}

impl Files {
    pub fn value(self) -> Tv {
        Tv::new(Val::Object(Rc::new(self)))
    }

    /// files.go `Glob`: gobwas/glob with `/` as the separator; a pattern
    /// that does not compile matches everything (`**`).
    fn glob(&self, pattern: &str) -> Files {
        let compiled = super::glob::Glob::compile(pattern).unwrap_or_else(super::glob::Glob::everything);
        Files { files: self.files.iter().filter(|(name, _)| compiled.matches(name)).map(|(k, v)| (k.clone(), v.clone())).collect() }
    }

    /// `AsConfig` / `AsSecrets`: base name -> text (or base64), as `toYaml`
    /// prints a `map[string]string`; where yaml.v2 fails (a control
    /// character in a file), files.go's `toYAML` swallows the error and
    /// gives "". What we do not model is an error starting with
    /// [`crate::gotmpl::UNMODELLED`] (the executor's unsupported error).
    fn as_map_yaml(&self, secrets: bool) -> Result<String, String> {
        use base64::Engine as _;
        let mut m: BTreeMap<String, String> = BTreeMap::new();
        for (k, v) in &self.files {
            let base = k.rsplit('/').next().unwrap_or(k).to_string();
            let text = if secrets { base64::engine::general_purpose::STANDARD.encode(v.as_slice()) } else { crate::chart::lossy_text(v) };
            m.insert(base, text);
        }
        let map = Tv::new(Val::StrMap(m));
        let json = crate::gotmpl::sprig::json_marshal(&map).map_err(|_| format!("{}the JSON encoding of `.Files`' text", crate::gotmpl::UNMODELLED))?;
        use crate::yaml::emit::EmitError;
        match crate::yaml::emit::json_to_yaml(&json) {
            Ok(yaml) => Ok(yaml.strip_suffix('\n').unwrap_or(&yaml).to_string()),
            Err(EmitError::ControlCharacter(_) | EmitError::LongKey | EmitError::Syntax(_)) => Ok(String::new()),
            Err(e @ (EmitError::KeyOrder(_) | EmitError::TooDeep(_))) => Err(format!("{}`.Files.{}` of these files: {e}", crate::gotmpl::UNMODELLED, if secrets { "AsSecrets" } else { "AsConfig" })),
        }
    }
}

/// A string as Go's `json.Marshal` writes it (`<`, `>`, `&`, U+2028 and
/// U+2029 escaped: encoding/json encode.go `appendString` with HTML escaping).
fn go_json_string(s: &str) -> String {
    let mut out = String::new();
    crate::go::json::write_go_string(&mut out, s);
    out
}

fn text_arg(name: &str, args: &[Tv]) -> Result<String, String> {
    match args {
        [Tv { val: Val::Str(s), .. }] => Ok(s.clone()),
        [other] => Err(format!("wrong type for value; expected string; got {}", crate::gotmpl::go_type_name(&other.val))),
        _ => Err(format!("wrong number of args for {name}: want 1 got {}", args.len())),
    }
}

fn no_args(name: &str, args: &[Tv]) -> Result<(), String> {
    if args.is_empty() { Ok(()) } else { Err(format!("wrong number of args for {name}: want 0 got {}", args.len())) }
}

impl GoObject for Files {
    fn type_name(&self) -> &'static str {
        "engine.files"
    }
    fn kind(&self) -> &'static str {
        "map"
    }
    fn go_string(&self) -> String {
        let parts: Vec<String> = self
            .files
            .iter()
            .map(|(k, v)| format!("{k}:[{}]", v.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")))
            .collect();
        format!("map[{}]", parts.join(" "))
    }
    fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>> {
        let bytes = |f: &str| self.files.get(f).map_or(&[][..], |d| d.as_slice());
        Some(match name {
            "Get" => text_arg(name, args).map(|f| Tv::new(Val::Str(crate::chart::lossy_text(bytes(&f))))),
            "GetBytes" => text_arg(name, args).map(|f| Tv::new(Val::Bytes(bytes(&f).to_vec()))),
            "Glob" => text_arg(name, args).map(|p| self.glob(&p).value()),
            "AsConfig" => no_args(name, args).and_then(|()| self.as_map_yaml(false)).map(|s| Tv::str(&s)),
            "AsSecrets" => no_args(name, args).and_then(|()| self.as_map_yaml(true)).map(|s| Tv::str(&s)),
            "Lines" => text_arg(name, args).and_then(|f| {
                let lines: Vec<Tv> = match self.files.get(&f) {
                    None => Vec::new(),
                    // files.go reads `s[len(s)-1]` of an empty file (a directory
                    // chart's: its data is not nil) and panics.
                    Some(data) if data.is_empty() => return Err("runtime error: index out of range [-1]".to_string()),
                    Some(data) => {
                        let s = String::from_utf8_lossy(data);
                        let s = s.strip_suffix('\n').unwrap_or(&s);
                        s.split('\n').map(Tv::str).collect()
                    }
                };
                Ok(Tv::new(Val::TypedList("string", lines)))
            }),
            _ => return None,
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn entries(&self) -> Option<Vec<(String, Tv)>> {
        Some(self.files.iter().map(|(k, v)| (k.clone(), Tv::new(Val::Bytes(v.to_vec())))).collect())
    }
    fn json(&self) -> Option<String> {
        use base64::Engine as _;
        let parts: Vec<String> = self
            .files
            .iter()
            .map(|(k, v)| format!("{}:\"{}\"", go_json_string(k), base64::engine::general_purpose::STANDARD.encode(v.as_slice())))
            .collect();
        Some(format!("{{{}}}", parts.join(",")))
    }
}

/// `.Capabilities.KubeVersion` (`KubeVersion{Version, Major, Minor}`; its
/// `String` and deprecated `GitVersion` give `Version`).
#[derive(Debug, Clone)]
pub struct KubeVersion {
    pub version: String,
    /// Set by `--kube-version` (ParseKubeVersion); Helm's default has none.
    pub normalized: Option<String>,
    pub major: String,
    pub minor: String,
}

impl KubeVersion {
    /// pkg/chart/common/capabilities.go `ParseKubeVersion`: k8s
    /// `ParseGeneric` (`v?N.N[.N...]` then anything); `Version` keeps the
    /// text as given (with a `v`), `String()` the numbers alone.
    pub fn parse(text: &str) -> Result<KubeVersion, String> {
        let bad = || format!("could not parse {} as version", crate::go::quote::quote(text));
        let body = text.strip_prefix('v').unwrap_or(text);
        let numbers_end = body.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(body.len());
        let mut numbers = &body[..numbers_end];
        // The regexp's `(?:\.[0-9]+)*` leaves a trailing dot to the rest.
        while numbers.ends_with('.') {
            numbers = &numbers[..numbers.len() - 1];
        }
        let parts: Vec<&str> = numbers.split('.').collect();
        if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
            return Err(bad());
        }
        let comps: Vec<u32> = parts.iter().map(|p| p.parse::<u32>().map_err(|_| bad())).collect::<Result<_, _>>()?;
        let version = if text.starts_with('v') { text.to_string() } else { format!("v{text}") };
        let normalized = format!("v{}", comps.iter().map(u32::to_string).collect::<Vec<_>>().join("."));
        Ok(KubeVersion { version, normalized: Some(normalized), major: comps[0].to_string(), minor: comps[1].to_string() })
    }

    /// `String()`: what `{{ .Capabilities.KubeVersion }}` prints and chart `kubeVersion` constraints check.
    pub fn string(&self) -> &str {
        self.normalized.as_deref().unwrap_or(&self.version)
    }
}

impl GoObject for KubeVersion {
    fn type_name(&self) -> &'static str {
        "common.KubeVersion"
    }
    fn kind(&self) -> &'static str {
        "struct"
    }
    fn go_string(&self) -> String {
        self.string().to_string()
    }
    fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>> {
        let s = match name {
            "String" => self.string(),
            "Version" | "GitVersion" => &self.version,
            "Major" => &self.major,
            "Minor" => &self.minor,
            _ => return None,
        };
        Some(no_args(name, args).map(|()| Tv::str(s)))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn json(&self) -> Option<String> {
        let q = go_json_string;
        Some(format!("{{\"Version\":{},\"Major\":{},\"Minor\":{}}}", q(&self.version), q(&self.major), q(&self.minor)))
    }
}

/// `.Capabilities.APIVersions`: a `VersionSet` (`[]string`) with `Has`.
#[derive(Debug, Clone)]
pub struct VersionSet(pub Vec<String>);

impl GoObject for VersionSet {
    fn type_name(&self) -> &'static str {
        "common.VersionSet"
    }
    fn kind(&self) -> &'static str {
        "slice"
    }
    fn go_string(&self) -> String {
        format!("[{}]", self.0.join(" "))
    }
    fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>> {
        match name {
            "Has" => Some(text_arg(name, args).map(|v| Tv::new(Val::Bool(self.0.contains(&v))))),
            _ => None,
        }
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn list(&self) -> Option<Vec<Tv>> {
        Some(self.0.iter().map(|s| Tv::str(s)).collect())
    }
    fn json(&self) -> Option<String> {
        Some(format!("[{}]", self.0.iter().map(|s| go_json_string(s)).collect::<Vec<_>>().join(",")))
    }
}

/// `.Capabilities.HelmVersion` (helm: internal/version BuildInfo).
#[derive(Debug, Clone)]
pub struct HelmVersion {
    pub version: String,
    pub git_commit: String,
    pub git_tree_state: String,
    pub go_version: String,
    pub kube_client_version: String,
}

impl GoObject for HelmVersion {
    fn type_name(&self) -> &'static str {
        "version.BuildInfo"
    }
    fn kind(&self) -> &'static str {
        "struct"
    }
    fn go_string(&self) -> String {
        format!("{{{} {} {} {} {}}}", self.version, self.git_commit, self.git_tree_state, self.go_version, self.kube_client_version)
    }
    fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>> {
        let s = match name {
            "Version" => &self.version,
            "GitCommit" => &self.git_commit,
            "GitTreeState" => &self.git_tree_state,
            "GoVersion" => &self.go_version,
            "KubeClientVersion" => &self.kube_client_version,
            _ => return None,
        };
        Some(no_args(name, args).map(|()| Tv::str(s)))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn json(&self) -> Option<String> {
        let q = go_json_string;
        let mut parts = vec![format!("\"version\":{}", q(&self.version))];
        if !self.git_commit.is_empty() {
            parts.push(format!("\"git_commit\":{}", q(&self.git_commit)));
        }
        if !self.git_tree_state.is_empty() {
            parts.push(format!("\"git_tree_state\":{}", q(&self.git_tree_state)));
        }
        parts.push(format!("\"go_version\":{}", q(&self.go_version)));
        parts.push(format!("\"kube_client_version\":{}", q(&self.kube_client_version)));
        Some(format!("{{{}}}", parts.join(",")))
    }
}

/// `*common.Capabilities`.
#[derive(Debug, Clone)]
pub struct Capabilities {
    pub kube_version: KubeVersion,
    pub api_versions: Vec<String>,
    pub helm_version: HelmVersion,
}

impl GoObject for Capabilities {
    fn type_name(&self) -> &'static str {
        "*common.Capabilities"
    }
    fn kind(&self) -> &'static str {
        "ptr"
    }
    fn go_string(&self) -> String {
        format!("&{{{} [{}] {}}}", self.kube_version.go_string_struct(), self.api_versions.join(" "), self.helm_version.go_string())
    }
    fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>> {
        let v = match name {
            "KubeVersion" => Tv::new(Val::Object(Rc::new(self.kube_version.clone()))),
            "APIVersions" => Tv::new(Val::Object(Rc::new(VersionSet(self.api_versions.clone())))),
            "HelmVersion" => Tv::new(Val::Object(Rc::new(self.helm_version.clone()))),
            _ => return None,
        };
        Some(no_args(name, args).map(|()| v))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn json(&self) -> Option<String> {
        Some(format!(
            "{{\"KubeVersion\":{},\"APIVersions\":{},\"HelmVersion\":{}}}",
            self.kube_version.json()?,
            VersionSet(self.api_versions.clone()).json()?,
            self.helm_version.json()?
        ))
    }
}

impl KubeVersion {
    /// `%v` of the struct inside `&{...}`: its fields, as the value is printed
    /// without its `String` method there.
    fn go_string_struct(&self) -> String {
        format!("{{{} {} {} {}}}", self.version, self.normalized.as_deref().unwrap_or(""), self.major, self.minor)
    }
}
