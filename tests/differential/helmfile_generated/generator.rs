//! The seeded generator of helmfile projects for `helmfile_generated`: each
//! project is a state file (templated: `helmfile.yaml` in v0 mode,
//! `helmfile.yaml.gotmpl` in v1 mode) with its values files, bases, HCL and
//! sops-shaped secrets, a local chart, an environment to render and the
//! `--state-values-set` flags to pass. Every construct belongs to a named
//! [`Feature`] that the test switches on or off.

use crate::xorshift::Rng;

/// What the generator can put in a project, each switchable by name
/// (`HELMFILE_GEN_FEATURES`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Feature {
    /// Environments with values files and inline values.
    EnvValues,
    /// `bases:`: a base holding the environments and root values, templated too.
    Bases,
    /// The main state file declares again the environments its base declares.
    BasesEnvOverlap,
    /// More `---` parts, later ones reading what earlier ones set.
    MultiPart,
    /// `{{ if eq .Environment.Name ... }}` around releases and values.
    IfEnv,
    /// Releases built by `{{ range }}` over a state value list.
    RangeReleases,
    /// sprig and helmfile functions in the state file's release values.
    Sprig,
    /// `typeOf` / `kindOf` of state values: the Go types YAML decoding made.
    GoTypes,
    /// Raw `{{ .Values.x }}` printing of odd scalars (`<no value>`, `map[]`, `[]`).
    RawPrinting,
    /// `toYaml` of state values holding odd strings (`""`, `"007"`).
    ToYamlOddStrings,
    /// Numbers written as `007`, `1e3`, `0x1F`, `+12`, `1_000` in values files.
    YamlNumericForms,
    /// `valuesTemplate:` with `.Release.*` and `.Values`.
    ValuesTemplate,
    /// `setTemplate:`.
    SetTemplate,
    /// `set:` (with `value:` and `values:`).
    Set,
    /// A release's `setString:`.
    SetString,
    /// `set:` values written as numbers Helm's `--set` reads differently (`007`, `0x1F`, `1e3`).
    SetNumericText,
    /// `templates:` + `inherit:` with `{{ .Release.Name }}`, labels, namespace.
    Inherit,
    /// `.gotmpl` values files (environment and release).
    GotmplValues,
    /// `--state-values-set`, passed to both.
    StateValuesSet,
    /// `--state-values-set key=null` over a state value.
    StateValuesSetNull,
    /// HCL environment values files with go-cty functions.
    Hcl,
    /// HCL functions helmfile registers after 0.166 (`replace`).
    HclNewerFunctions,
    /// sops-shaped environment and release `secrets:`.
    Secrets,
    /// A secret printed by a state-file template, piped through `upper`/`quote`.
    SecretThroughTemplate,
    /// A missing release values file under each `missingFileHandler`.
    MissingFile,
    /// The release with its own `missingFileHandler` inherits a template that has one.
    InheritOwnMissingFileHandler,
    /// YAML 1.1 scalars (`y`, `n`, `on`, `yes`) in files and printed by templates.
    Yaml11Scalars,
    /// Projects that real helmfile refuses (template errors, missing files).
    Failures,
    /// A release value that is not valid YAML (`[unclosed`).
    YamlSyntaxError,
}

pub const FEATURES: &[(Feature, &str)] = &[
    (Feature::EnvValues, "env-values"),
    (Feature::Bases, "bases"),
    (Feature::BasesEnvOverlap, "bases-env-overlap"),
    (Feature::MultiPart, "multi-part"),
    (Feature::IfEnv, "if-env"),
    (Feature::RangeReleases, "range-releases"),
    (Feature::Sprig, "sprig"),
    (Feature::GoTypes, "go-types"),
    (Feature::RawPrinting, "raw-printing"),
    (Feature::ToYamlOddStrings, "to-yaml-odd-strings"),
    (Feature::YamlNumericForms, "yaml-numeric-forms"),
    (Feature::ValuesTemplate, "values-template"),
    (Feature::SetTemplate, "set-template"),
    (Feature::Set, "set"),
    (Feature::SetString, "set-string"),
    (Feature::SetNumericText, "set-numeric-text"),
    (Feature::Inherit, "inherit"),
    (Feature::GotmplValues, "gotmpl-values"),
    (Feature::StateValuesSet, "state-values-set"),
    (Feature::StateValuesSetNull, "state-values-set-null"),
    (Feature::Hcl, "hcl"),
    (Feature::HclNewerFunctions, "hcl-newer-functions"),
    (Feature::Secrets, "secrets"),
    (Feature::SecretThroughTemplate, "secret-through-template"),
    (Feature::MissingFile, "missing-file-handler"),
    (Feature::InheritOwnMissingFileHandler, "inherit-own-missing-file-handler"),
    (Feature::Yaml11Scalars, "yaml11-scalars"),
    (Feature::Failures, "failures"),
    (Feature::YamlSyntaxError, "yaml-syntax-error"),
];

pub fn name(f: Feature) -> &'static str {
    FEATURES.iter().find(|(g, _)| *g == f).map_or("?", |(_, n)| n)
}

pub fn by_name(n: &str) -> Option<Feature> {
    FEATURES.iter().find(|(_, m)| *m == n).map(|(f, _)| *f)
}

/// One generated project.
pub struct Project {
    /// Relative path and text of every file.
    pub files: Vec<(String, String)>,
    pub state_file: String,
    pub environment: String,
    pub v1_mode: bool,
    pub state_values_set: Vec<String>,
    /// Every release name the state may define (for some environment).
    pub candidates: Vec<String>,
    /// The features this project used.
    pub used: Vec<Feature>,
    /// The decrypted secret strings (the leak check looks for them).
    pub secret_words: Vec<String>,
}

const ENVS: &[&str] = &["default", "prod", "staging"];

/// Scalars as written in a YAML values file, some of them tricky.
const SCALARS: &[&str] = &["1", "0", "-3", "1.5", "true", "false", "null", "~", "x", "\"q s\"", "'007'", "\"\"", "[]", "{}", "[1, two]", "{k: v}"];
/// Numbers in the forms YAML 1.1 and 1.2 read differently.
const NUMERIC_FORMS: &[&str] = &["007", "1e3", "0x1F", "+12", "1_000"];
const YAML11: &[&str] = &["y", "n", "Y", "yes", "no", "on", "off", "NO", "True"];
/// `set:` values as written in the state file.
const SET_VALUES: &[&str] = &["x", "\"a,b\"", "1.5", "\"true\"", "null", "\"\"", "'a=b'", "-1", "\"{a,b}\"", "'[1]'", "\"x.y\""];

struct Gen<'a> {
    rng: &'a mut Rng,
    enabled: &'a [Feature],
    used: Vec<Feature>,
    /// [`Feature::YamlNumericForms`] is on: scalars include [`NUMERIC_FORMS`].
    numeric_forms: bool,
}

impl Gen<'_> {
    /// Whether this project uses `f`: enabled and drawn.
    fn on(&mut self, f: Feature, pct: u64) -> bool {
        let drawn = self.rng.chance(pct);
        let on = drawn && self.enabled.contains(&f);
        if on && !self.used.contains(&f) {
            self.used.push(f);
        }
        on
    }
    fn pick(&mut self, items: &[&'static str]) -> &'static str {
        self.rng.pick::<&'static str>(items)
    }
    /// A scalar for a values file.
    fn scalar(&mut self) -> &'static str {
        if self.numeric_forms && self.rng.chance(30) { self.pick(NUMERIC_FORMS) } else { self.pick(SCALARS) }
    }
    /// Up to `n` different items (YAML keys must not repeat).
    fn distinct(&mut self, items: &[&'static str], n: usize) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for _ in 0..n {
            let x = self.pick(items);
            if !out.contains(&x) {
                out.push(x);
            }
        }
        out
    }
}

/// Escapes a release-level template so the state file's own rendering leaves it in place.
fn later(t: &str) -> String {
    format!("{{{{`{t}`}}}}")
}

fn chart() -> Vec<(String, String)> {
    vec![
        ("chart/Chart.yaml".into(), "apiVersion: v2\nname: dump\nversion: 0.1.0\n".into()),
        ("chart/values.yaml".into(), "replicas: 1\nname: chart-default\nnested:\n  keep: 1\n  drop: 2\n  list: [a, b]\nsv:\n  a: chart\n".into()),
        ("chart/templates/dump.yaml".into(), "values: {{ toJson .Values }}\n".into()),
    ]
}

pub fn project(rng: &mut Rng, enabled: &[Feature]) -> Project {
    let mut g = Gen { rng, enabled, used: Vec::new(), numeric_forms: false };
    g.numeric_forms = g.on(Feature::YamlNumericForms, 40);
    let v1_mode = g.rng.chance(50);
    let environment = g.pick(ENVS).to_string();
    let mut files = chart();
    let mut secret_words = Vec::new();
    let tag = g.rng.below(1000);

    // Environment values files: one per environment, same shape.
    let env_values = g.on(Feature::EnvValues, 80);
    let yaml11 = env_values && g.on(Feature::Yaml11Scalars, 40);
    let ranged = g.on(Feature::RangeReleases, 50);
    let mut app_names: Vec<String> = Vec::new();
    for env in ENVS {
        let mut t = format!("name: app-{env}-{tag}\nreplicas: {}\nregion: {}\n", 1 + g.rng.below(9), g.pick(&["eu", "us", "ap"]));
        t.push_str(&format!("flags:\n  a: {}\n  b: {}\n", g.scalar(), g.scalar()));
        if yaml11 {
            t.push_str(&format!("yn:\n  plain: {}\n  quoted: \"{}\"\n", g.pick(YAML11), g.pick(YAML11)));
        }
        if ranged {
            t.push_str("apps:\n");
            for i in 0..(1 + g.rng.below(2)) {
                let n = format!("{env}-app{i}");
                t.push_str(&format!("- name: {n}\n  replicas: {}\n  port: {}\n", 1 + g.rng.below(5), g.pick(&["80", "8080", "\"443\""])));
                app_names.push(n);
            }
        }
        files.push((format!("env/{env}.yaml"), t));
    }
    let gotmpl_values = g.on(Feature::GotmplValues, 40);
    let hcl = g.on(Feature::Hcl, 30);
    let secrets = g.on(Feature::Secrets, 35);
    let bases = g.on(Feature::Bases, 40);
    let multi = g.on(Feature::MultiPart, 50);
    let if_env = g.on(Feature::IfEnv, 50);

    // The environments: in the state file, or (bases) in a base it names.
    let mut environments = String::from("environments:\n");
    for env in ENVS {
        environments.push_str(&format!("  {env}:\n    values:\n"));
        if env_values {
            environments.push_str(&format!("    - env/{env}.yaml\n"));
            environments.push_str(&format!("    - inline: {}\n      envName: {env}\n", g.scalar()));
        } else {
            environments.push_str(&format!("    - name: inline-{env}\n      replicas: 2\n      region: eu\n      flags: {{a: 1, b: x}}\n"));
            if ranged {
                environments.push_str("      apps: []\n");
            }
        }
        if hcl {
            environments.push_str("    - env/extra.hcl\n");
        }
        if gotmpl_values {
            environments.push_str("    - env/extra.yaml.gotmpl\n");
        }
        if secrets {
            environments.push_str("    secrets:\n    - secrets/env.yaml\n");
        }
    }
    let mut state = String::new();
    let mut overlap = false;
    if bases {
        let base = if v1_mode { "base.yaml.gotmpl" } else { "base.yaml" };
        state.push_str(&format!("bases:\n- {base}\n"));
        let mut b = environments.clone();
        b.push_str(&format!("---\nvalues:\n- baseRoot: {{{{ .Environment.Name }}}}-{tag}\n  nested:\n    fromBase: {}\n", g.scalar()));
        files.push((base.into(), b));
        overlap = g.on(Feature::BasesEnvOverlap, 40);
        if overlap {
            state.push_str("environments:\n");
            for env in ENVS {
                state.push_str(&format!("  {env}:\n    values:\n    - overlap: {env}\n"));
            }
        }
    } else {
        state.push_str(&environments);
    }
    if !env_values && ranged {
        app_names.clear();
    }
    if hcl {
        let exprs = [
            "up = upper(\"abc\")",
            "joined = join(\"-\", [\"a\", \"b\", \"c\"])",
            "merged = merge({ a = 1 }, { b = \"x\" })",
            "formatted = format(\"%s-%03d\", \"n\", 7)",
            "listed = concat([1], [2, 3])",
            "counted = length([1, 2, 3])",
            "biggest = max(3, 9, 4)",
            "titled = title(\"hello world\")",
            "coalesced = coalesce(\"\", \"second\")",
            "zipped = zipmap([\"k1\", \"k2\"], [1, 2])",
            "ranged = range(3)",
            "json = jsonencode({ a = [1, true] })",
            "sub = substr(\"abcdef\", 1, 3)",
        ];
        let mut t = String::from("values {\n  hcl = {\n");
        if g.on(Feature::HclNewerFunctions, 30) {
            t.push_str("    replaced = replace(\"a-b-c\", \"-\", \"_\")\n");
        }
        let n = 2 + g.rng.below(3);
        for expr in g.distinct(&exprs, n) {
            t.push_str(&format!("    {expr}\n"));
        }
        t.push_str("  }\n}\n");
        files.push(("env/extra.hcl".into(), t));
    }
    if gotmpl_values {
        files.push(("env/extra.yaml.gotmpl".into(), "fromGotmpl:\n  env: {{ .Environment.Name }}\n  upper: {{ .Environment.Name | upper | quote }}\n".into()));
    }
    if secrets {
        let word = format!("s3cr3t-{tag}");
        files.push(("secrets/env.yaml".into(), "pw: ENC[AES256_GCM,data:abc,type:str]\nsops:\n  version: 3.9.0\n".into()));
        files.push(("secrets/env.decrypted.yaml".into(), format!("pw: {word}\ndb:\n  user: admin\n")));
        files.push(("secrets/release.yaml".into(), "token: ENC[AES256_GCM,data:abc,type:str]\nsops:\n  version: 3.9.0\n".into()));
        files.push(("secrets/release.decrypted.yaml".into(), format!("rsec:\n  token: tok-{tag}\n")));
        secret_words.push(word);
    }
    state.push_str(&format!("values:\n- root: {}\n  rootEnv: {{{{ .Environment.Name }}}}\n", g.scalar()));

    if multi {
        state.push_str(&format!(
            "---\nvalues:\n- second: {{{{ .Values.name }}}}-{{{{ .Environment.Name }}}}\n  stateValues: {{{{ .StateValues.region | quote }}}}\n  nested:\n    fromPart: {}\n",
            g.scalar()
        ));
    }

    // Release templates and releases.
    state.push_str("---\n");
    let inherit = g.on(Feature::Inherit, 45);
    if inherit {
        state.push_str("templates:\n  base:\n    chart: ./chart\n    namespace: tmpl-ns\n    labels:\n      tier: from-template\n    missingFileHandler: Warn\n");
        state.push_str(&format!("    values:\n    - release/{}.yaml\n", later("{{ .Release.Name }}")));
        state.push_str(&format!(
            "    valuesTemplate:\n    - inherited:\n        rel: '{}'\n        ns: '{}'\n        tier: '{}'\n",
            later("{{ .Release.Name }}"),
            later("{{ .Release.Namespace }}"),
            later("{{ .Release.Labels.tier }}")
        ));
        files.push(("release/r0.yaml".into(), format!("fromReleaseFile: r0\nnested:\n  drop: null\n  keep: {}\n", g.scalar())));
    }
    state.push_str("releases:\n");
    let mut candidates = Vec::new();
    if ranged {
        state.push_str("{{- range .Values.apps }}\n");
        state.push_str("- name: {{ .name }}\n  chart: ./chart\n  values:\n  - replicas: {{ .replicas }}\n    port: {{ .port }}\n    env: {{ $.Environment.Name }}\n");
        state.push_str("{{- end }}\n");
        candidates.extend(app_names.iter().cloned());
    }
    let count = 3 + g.rng.below(2);
    let mut missing_handled = false;
    // At most one deliberate failure per project: helmfile stops at the first.
    let mut failing = false;
    for i in 0..count {
        let rel = format!("r{i}");
        let gated = if_env && i == count - 1;
        if gated {
            state.push_str(&format!("{{{{- if eq .Environment.Name \"{}\" }}}}\n", g.pick(ENVS)));
        }
        candidates.push(rel.clone());
        state.push_str(&format!("- name: {rel}\n"));
        let inherits = inherit && (i == 0 || g.rng.chance(50));
        if inherits {
            state.push_str("  inherit:\n  - template: base\n");
            if g.rng.chance(50) {
                state.push_str(&format!("  namespace: own-ns-{i}\n"));
            }
            if g.rng.chance(50) {
                state.push_str("  labels:\n    tier: own\n");
            }
        } else {
            state.push_str("  chart: ./chart\n");
            if g.rng.chance(40) {
                state.push_str(&format!("  namespace: ns-{i}\n"));
            }
        }
        // Release values: files, then inline values.
        let mut values = String::new();
        if g.on(Feature::GotmplValues, 40) {
            values.push_str("  - release/gen.yaml.gotmpl\n");
            files.push((
                "release/gen.yaml.gotmpl".into(),
                "gen:\n  rel: {{ .Release.Name }}\n  env: {{ .Environment.Name }}\n  name: {{ .Values.name | quote }}\n  region: {{ .Values.region | upper }}\n".into(),
            ));
        }
        // helmfile merges a template into a release through a pointer it shares with
        // the template: a release's own handler then becomes the template's for the releases after it.
        let may_handle = !inherits || g.on(Feature::InheritOwnMissingFileHandler, 50);
        if !missing_handled && may_handle && g.on(Feature::MissingFile, 30) {
            missing_handled = true;
            let handler = g.pick(&["Warn", "Info", "Debug", "Error", ""]);
            if !handler.is_empty() {
                state.push_str(&format!("  missingFileHandler: {handler}\n"));
            }
            values.push_str("  - release/absent.yaml\n");
        }
        values.push_str(&format!("  - fixed: {}\n    fromState: {{{{ .Values.name }}}}\n    replicas: {{{{ .Values.replicas }}}}\n", g.scalar()));
        values.push_str("    nested:\n      drop: null\n");
        if g.on(Feature::IfEnv, 50) {
            values.push_str("    size: {{ if eq .Environment.Name \"prod\" }}big{{ else if eq .Environment.Name \"staging\" }}medium{{ else }}small{{ end }}\n");
        }
        if g.on(Feature::Sprig, 70) {
            let snippets = [
                "up: {{ .Values.name | upper }}",
                "dflt: {{ .Values.flags.b | default \"dflt\" }}",
                "quoted: {{ .Values.region | quote }}",
                "tree:{{ dict \"a\" 1 \"b\" \"x\" \"c\" (list 1 2) | toYaml | nindent 6 }}",
                "dict: {{ dict \"x\" .Values.name \"y\" 2 | toJson }}",
                "hasA: {{ hasKey .Values.flags \"a\" }}",
                "gotA: {{ get \"flags.zz\" \"dflt\" .Values | quote }}",
                "joined: {{ list .Values.name .Values.replicas \"z\" | join \",\" | quote }}",
                "printed: {{ printf \"%s-%d-%v\" .Values.name .Values.replicas .Values.flags.a | quote }}",
                "tern: {{ ternary \"big\" \"small\" (gt .Values.replicas 4) }}",
                "trunc: {{ .Values.name | trunc 5 }}",
                "repl: {{ .Values.name | replace \"-\" \"_\" }}",
                "sum: {{ add .Values.replicas 10 }}",
                "keys: {{ keys .Values.flags | sortAlpha | toJson }}",
                "b64: {{ .Values.region | b64enc }}",
                "sha: {{ .Values.region | sha256sum | trunc 8 }}",
                "regex: {{ regexReplaceAll \"[0-9]+\" .Values.name \"N\" }}",
                "cat: {{ cat .Values.region \"x\" 1 | quote }}",
                "svMerged: {{ merge (dict \"a\" 1) (dict \"a\" 2 \"b\" 3) | toJson }}",
                "semver: {{ semverCompare \">=1.2.0\" \"1.10.0\" }}",
                "inList: {{ has .Values.region (list \"eu\" \"us\") }}",
                "indexed: {{ index .Values.flags \"a\" | toJson }}",
                "toStr: {{ .Values.replicas | toString | quote }}",
                "env: {{ .Environment.Name | title }}",
            ];
            let n = 2 + g.rng.below(4);
            for snippet in g.distinct(&snippets, n) {
                values.push_str(&format!("    {snippet}\n"));
            }
        }
        if g.on(Feature::GoTypes, 30) {
            let snippets = [
                "typeReplicas: {{ typeOf .Values.replicas }}",
                "kindFlags: {{ kindOf .Values.flags }}",
                "typeFlags: {{ typeOf .Values.flags | quote }}",
                "typeA: {{ typeOf .Values.flags.a | quote }}",
                "kindA: {{ kindOf .Values.flags.a | quote }}",
            ];
            let n = 1 + g.rng.below(2);
            for snippet in g.distinct(&snippets, n) {
                values.push_str(&format!("    {snippet}\n"));
            }
        }
        if g.on(Feature::ToYamlOddStrings, 25) {
            values.push_str("    flagsTree:{{ .Values.flags | toYaml | nindent 6 }}\n");
        }
        if g.on(Feature::RawPrinting, 30) {
            values.push_str(&format!("    raw: {{{{ .Values.flags.{} }}}}\n", g.pick(&["a", "b"])));
        }
        if yaml11 && g.rng.chance(60) {
            let snippets = [
                "yn: {{ .Values.yn.plain }}",
                "ynq: {{ .Values.yn.quoted }}",
                "ynQuoted: {{ .Values.yn.quoted | quote }}",
                "onOff: {{ ternary \"on\" \"off\" (eq .Environment.Name \"prod\") }}",
                "ynTree:{{ .Values.yn | toYaml | nindent 6 }}",
            ];
            values.push_str(&format!("    {}\n", g.pick(&snippets)));
        }
        if multi {
            values.push_str("    second: {{ .Values.second | quote }}\n");
        }
        if bases {
            values.push_str("    baseRoot: {{ .Values.baseRoot }}\n");
        }
        if g.on(Feature::SecretThroughTemplate, 50) && secrets {
            values.push_str(&format!("    {}\n", g.pick(&["pwUpper: {{ .Values.pw | upper }}", "pwQuoted: {{ .Values.pw | quote }}", "pw: {{ .Values.pw }}", "db:{{ .Values.db | toYaml | nindent 6 }}"])));
            secret_words.push(format!("S3CR3T-{tag}"));
        }
        if !failing && g.on(Feature::Failures, 4) {
            failing = true;
            let failing = [
                "bad: {{ required \"need nope\" .Values.nope }}",
                "bad: {{ fail \"boom\" }}",
                "bad: {{ .Values.name | nosuchfunction }}",
                "bad: {{ .Values.name ",
                "bad: {{ .Values.name.deep }}",
                "bad: {{ index .Values.flags 1 }}",
                "bad: {{ .Values.nope.deeper }}",
            ];
            values.push_str(&format!("    {}\n", g.pick(&failing)));
        }
        if g.on(Feature::YamlSyntaxError, 8) {
            values.push_str("    bad: [unclosed\n");
        }
        if overlap {
            values.push_str("    overlap: {{ get \"overlap\" \"absent\" .Values }}\n");
        }
        state.push_str("  values:\n");
        state.push_str(&values);
        if secrets && g.rng.chance(50) {
            state.push_str("  secrets:\n  - secrets/release.yaml\n");
        }
        if g.on(Feature::ValuesTemplate, 45) {
            state.push_str(&format!(
                "  valuesTemplate:\n  - vt:\n      rel: '{}'\n      ns: '{}'\n      name: '{}'\n      quotedName: '{}'\n      env: '{}'\n",
                later("{{ .Release.Name }}"),
                later("{{ .Release.Namespace }}"),
                later("{{ .Values.name }}"),
                later("{{ .Values.name | quote }}"),
                later("{{ .Environment.Name }}")
            ));
            if yaml11 {
                state.push_str(&format!("      yn: '{}'\n", later("{{ .Values.yn.plain }}")));
            }
        }
        let set = g.on(Feature::Set, 50);
        let set_template = g.on(Feature::SetTemplate, 40);
        if set {
            // YAML 1.1 words only with that feature.
            let mut pool: Vec<&'static str> = SET_VALUES.to_vec();
            if yaml11 {
                pool.extend(["y", "off"]);
            }
            if g.on(Feature::SetNumericText, 50) {
                pool.extend(["007", "0x1F", "1e3", "+12"]);
            }
            state.push_str(&format!("  set:\n  - name: sv.a\n    value: {}\n  - name: sv.list\n    values: [{}, {}]\n", g.pick(&pool), g.pick(&pool), g.pick(&pool)));

        }
        if g.on(Feature::SetString, 25) {
            state.push_str(&format!("  setString:\n  - name: ss.n\n    value: {}\n", g.pick(SET_VALUES)));
        }
        if set_template {
            state.push_str(&format!(
                "  setTemplate:\n  - name: st.rel\n    value: '{}-{}'\n",
                later("{{ .Release.Name }}"),
                later("{{ .Values.region }}")
            ));
        }
        if gated {
            state.push_str("{{- end }}\n");
        }
    }
    let mut state_values_set = Vec::new();
    if g.on(Feature::StateValuesSet, 40) {
        let flags = ["name=cli-name", "replicas=7", "flags.b=true", "newkey.deep=007", "region=us", "a=1,b=2", "second=x"];
        for _ in 0..(1 + g.rng.below(2)) {
            state_values_set.push(g.pick(&flags).to_string());
        }
        if g.on(Feature::StateValuesSetNull, 40) {
            state_values_set.push(g.pick(&["flags.a=null", "region=null,flags.b=null"]).to_string());
        }
    }
    let state_file = if v1_mode { "helmfile.yaml.gotmpl" } else { "helmfile.yaml" }.to_string();
    files.push((state_file.clone(), state));
    candidates.sort();
    candidates.dedup();
    Project { files, state_file, environment, v1_mode, state_values_set, candidates, used: g.used, secret_words }
}
