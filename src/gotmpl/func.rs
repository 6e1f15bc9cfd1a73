//! The contract between the executor and the function sets (builtins,
//! sprig, helmfile's, later Helm's): a function is a [`FuncDef`] in a
//! [`FuncMap`]; the executor checks and converts the arguments against its
//! Go signature ([`Sig`]) exactly as text/template's `evalCall` does
//! (`wrong number of args for NAME: want N got M`, `wrong type for value;
//! expected T; got U`, number literals converted to the parameter's type),
//! then calls it with a [`Call`] that reaches the caller's [`Host`].
//!
//! A function's `Err(FnError::Go(msg))` is a Go function returning an error
//! (text/template words it `error calling NAME: MSG`); `FnError::Exec` is a
//! message worded in full by the function (as from a panic sprig raises
//! itself); `FnError::Unsupported` names what releasex does not model, so
//! it never prints something different from Go.

use std::collections::HashMap;

use super::Tv;

/// The Go type of one parameter (what `evalArg` converts to and checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// `interface{}`: any value, a nil included.
    Any,
    String,
    /// `int` (number literals convert; an `int64` value is refused as Go does).
    Int,
    Int64,
    Float64,
    Bool,
    /// `[]interface{}`.
    List,
    /// `[]string`.
    Strings,
    /// `map[string]interface{}`.
    Map,
}

/// A Go function signature: fixed parameters, then an optional variadic one.
#[derive(Debug, Clone, Copy)]
pub struct Sig {
    pub params: &'static [Param],
    pub variadic: Option<Param>,
}

impl Sig {
    pub const fn fixed(params: &'static [Param]) -> Sig {
        Sig { params, variadic: None }
    }
    pub const fn variadic(params: &'static [Param], rest: Param) -> Sig {
        Sig { params, variadic: Some(rest) }
    }
}

/// What a function's result inherits from its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    /// The result is made from the arguments (quoting, case, encoding,
    /// hashing, joining): secret if any argument holds a secret.
    Made,
    /// The result is one of the arguments or part of one (`default`,
    /// `first`, `get`, `index`): it keeps that value's own origin and taint.
    Passed,
}

/// Why a call failed.
#[derive(Debug, Clone, PartialEq)]
pub enum FnError {
    /// The Go function returned this error: `error calling NAME: MSG`.
    Go(String),
    /// A message worded in full (after `template: FILE:LINE:COL: executing "NAME" at <...>: `).
    Exec(String),
    /// releasex does not model this (a member, an argument form, a function).
    Unsupported(String),
    /// The result would be this many bytes, past [`super::MAX_TEMPLATE_STRING`]
    /// (checked before it is built).
    TooLarge(usize),
}

/// What the template's surroundings provide: the process environment,
/// files, commands, the clock. Core code never reads them itself; `cli`
/// gives a real host, tests a fixed one.
pub trait Host {
    /// `os.Getenv` / `os.LookupEnv`.
    fn env(&self, name: &str) -> Option<String>;
    /// A file's bytes, `path` relative to the template's base directory as Go resolves it.
    fn read_file(&self, path: &str) -> Result<Vec<u8>, String>;
    /// The entries of a directory: (name, is_dir), sorted by name as `os.ReadDir` returns them.
    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String>;
    /// `os.Stat`: `Some(is_dir)`, `None` when it does not exist.
    fn stat(&self, path: &str) -> Option<bool>;
    /// Runs a command (helmfile's `exec`, and `envExec` with `env` added to
    /// the process environment); a host that was not allowed to returns
    /// `Err` naming the flag that allows it.
    fn exec(&self, command: &str, args: &[String], env: &[(String, String)], input: Option<&str>) -> Result<String, String>;
    /// Unix time in nanoseconds, for `now` and `ago` (injectable in tests).
    fn now_unix_nanos(&self) -> i128;
    /// Helm's `lookup APIVERSION KIND NAMESPACE NAME` (helm:
    /// pkg/engine/lookup_func.go): the object, or the list when `name` is
    /// empty, as the API server answers it; `{}` when it does not exist.
    /// `Err` is the error the template stops with. Without a cluster the
    /// answer is `{}`, as `helm template` renders.
    fn lookup(&self, api_version: &str, kind: &str, namespace: &str, name: &str) -> Result<serde_json::Value, String> {
        let _ = (api_version, kind, namespace, name);
        Ok(serde_json::Value::Object(serde_json::Map::new()))
    }
}

/// One call as a function sees it.
pub struct Call<'a> {
    /// The function's name as the template wrote it.
    pub name: &'a str,
    pub host: &'a dyn Host,
    /// Renders a named template (`include`, `template`), or text (`tpl`), with
    /// the engine that is running: given by the executor.
    pub render: &'a dyn Fn(RenderRequest<'_>) -> Result<String, super::TmplError>,
}

/// What `include` and `tpl` ask the running engine for.
pub enum RenderRequest<'r> {
    /// A template defined with `define` (or a file's own name), with `data` as dot.
    Named { name: &'r str, data: &'r Tv },
    /// Template text parsed and run with the same functions (`tpl`).
    Text { text: &'r str, data: &'r Tv },
}

/// A failed `include`/`tpl` as the calling function reports it: Go's error
/// text when Go fails too, else what releasex cannot model.
pub fn render_failure(e: super::TmplError) -> FnError {
    match e {
        super::TmplError::Exec { go, .. } | super::TmplError::Parse { go, .. } => FnError::Go(go),
        other => FnError::Unsupported(other.to_string()),
    }
}

pub type GoFn = fn(&Call<'_>, Vec<Tv>) -> Result<Tv, FnError>;

/// A function of a set.
#[derive(Clone, Copy)]
pub struct FuncDef {
    pub sig: Sig,
    pub f: GoFn,
    pub derive: Derive,
    /// Its result differs from run to run (`uuidv4`, `randAlpha`, `now`):
    /// the output marks what it printed as nondeterministic.
    pub nondeterministic: bool,
}

/// The functions a template can call, by name.
#[derive(Clone, Default)]
pub struct FuncMap {
    /// foldhash: every function call and every identifier the parser meets looks a name up.
    funcs: HashMap<&'static str, FuncDef, crate::FastHash>,
}

impl FuncMap {
    pub fn new() -> FuncMap {
        FuncMap::default()
    }

    /// Adds (or replaces: later sets win, as Go's `Funcs` does) a function.
    pub fn add(&mut self, name: &'static str, sig: Sig, derive: Derive, f: GoFn) -> &mut FuncDef {
        self.funcs.insert(name, FuncDef { sig, f, derive, nondeterministic: false });
        self.funcs.get_mut(name).expect("just inserted")
    }

    pub fn get(&self, name: &str) -> Option<&FuncDef> {
        self.funcs.get(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.funcs.keys().copied()
    }

    /// Removes a function (Helm deletes sprig's `env` and `expandenv`).
    pub fn remove(&mut self, name: &str) {
        self.funcs.remove(name);
    }

    /// `other`'s functions laid over these (Go's `Funcs`: later maps win).
    pub fn extend(&mut self, other: &FuncMap) {
        for (name, def) in &other.funcs {
            self.funcs.insert(name, *def);
        }
    }
}

/// A host with a fixed environment, files held in memory, no commands and a
/// fixed clock: for tests, and for callers that must not touch the machine.
#[derive(Debug, Clone, Default)]
pub struct FixedHost {
    pub env: HashMap<String, String>,
    /// path -> contents; a directory is any prefix of a path followed by `/`.
    pub files: std::collections::BTreeMap<String, Vec<u8>>,
    pub now_unix_nanos: i128,
}

impl Host for FixedHost {
    fn env(&self, name: &str) -> Option<String> {
        self.env.get(name).cloned()
    }
    fn read_file(&self, path: &str) -> Result<Vec<u8>, String> {
        self.files.get(path).cloned().ok_or_else(|| format!("open {path}: no such file or directory"))
    }
    fn read_dir(&self, path: &str) -> Result<Vec<(String, bool)>, String> {
        let prefix = format!("{}/", path.trim_end_matches('/'));
        let mut entries: Vec<(String, bool)> = Vec::new();
        for file in self.files.keys() {
            if let Some(rest) = file.strip_prefix(&prefix) {
                let (name, is_dir) = match rest.split_once('/') {
                    Some((dir, _)) => (dir.to_string(), true),
                    None => (rest.to_string(), false),
                };
                if !entries.iter().any(|(n, _)| *n == name) {
                    entries.push((name, is_dir));
                }
            }
        }
        if entries.is_empty() {
            return Err(format!("open {path}: no such file or directory"));
        }
        entries.sort();
        Ok(entries)
    }
    fn stat(&self, path: &str) -> Option<bool> {
        if self.files.contains_key(path) {
            return Some(false);
        }
        let prefix = format!("{}/", path.trim_end_matches('/'));
        self.files.keys().any(|f| f.starts_with(&prefix)).then_some(true)
    }
    fn exec(&self, command: &str, _args: &[String], _env: &[(String, String)], _input: Option<&str>) -> Result<String, String> {
        Err(format!("running `{command}` is not allowed here"))
    }
    fn now_unix_nanos(&self) -> i128 {
        self.now_unix_nanos
    }
}
