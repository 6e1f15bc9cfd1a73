//! Reading templates for what a rendering without the real release cannot
//! reproduce: `.Release.Revision` (different on the real upgrade) and
//! `lookup` (empty without a cluster, so lookup-or-generate values look
//! regenerated). Text scans, so the answers are guesses to warn with.

use crate::chart::Chart;

/// Random or generated values a template may fall back to when `lookup`
/// finds nothing (sprig and Helm functions).
const GENERATORS: &[&str] = &[
    "randAlphaNum", "randAlpha", "randNumeric", "randAscii", "randBytes", "randInt", "uuidv4", "genPrivateKey",
    "genCA", "genCAWithKey", "genSelfSignedCert", "genSelfSignedCertWithKey", "genSignedCert",
    "genSignedCertWithKey", "htpasswd", "bcrypt", "derivePassword", "now",
];

/// One `lookup` call in a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupUse {
    /// `<chart full path>/templates/<file>`, as in `# Source:`.
    pub template: String,
    /// 1-based line of the action holding the call.
    pub line: usize,
    /// The first two arguments when written as string literals.
    pub api_version: Option<String>,
    pub kind: Option<String>,
    /// The field read from the result: `data.password` from
    /// `(lookup ...).data.password` or `index $s.data "password"`.
    pub field: Option<String>,
    /// The YAML key the value lands under (`password:` before the action),
    /// a guess of the value the call guards.
    pub key: Option<String>,
    /// The generator used when nothing is found (`randAlphaNum`, ...): with
    /// it, this is the lookup-or-generate idiom, and offline the value looks
    /// regenerated on every render.
    pub generator: Option<String>,
}

/// The templates (partials included) that mention `.Release.Revision`; the
/// real upgrade renders them with the next revision number.
pub fn uses_release_revision(chart: &Chart) -> Vec<String> {
    let mut out = Vec::new();
    each_template(chart, chart.name(), &mut |path, text| {
        if text.contains(".Release.Revision") {
            out.push(path.to_string());
        }
    });
    out
}

/// Every `lookup` call of the chart's templates (partials included).
pub fn lookup_calls(chart: &Chart) -> Vec<LookupUse> {
    let mut out = Vec::new();
    each_template(chart, chart.name(), &mut |path, text| out.extend(scan_lookups(path, text)));
    out
}

fn each_template(chart: &Chart, full_path: &str, f: &mut dyn FnMut(&str, &str)) {
    for t in &chart.templates {
        f(&format!("{full_path}/{}", t.name), &t.data);
    }
    for sub in &chart.dependencies {
        each_template(sub, &format!("{full_path}/charts/{}", sub.name()), f);
    }
}

/// A template action: its text between `{{` and `}}`, where it starts.
struct Action<'a> {
    text: &'a str,
    start: usize,
    line: usize,
}

fn actions(text: &str) -> Vec<Action<'_>> {
    let mut out = Vec::new();
    let mut pos = 0;
    // Lines counted from the previous action on, not from the top each time
    // (dashboards templates hold thousands of actions).
    let (mut line, mut counted) = (1, 0);
    while let Some(i) = text[pos..].find("{{") {
        let start = pos + i;
        let body = start + 2;
        let end = text[body..].find("}}").map_or(text.len(), |j| body + j);
        line += memchr::memchr_iter(b'\n', &text.as_bytes()[counted..start]).count();
        counted = start;
        out.push(Action { text: &text[body..end], start, line });
        pos = (end + 2).min(text.len());
    }
    out
}

fn scan_lookups(path: &str, text: &str) -> Vec<LookupUse> {
    if !text.contains("lookup") {
        return Vec::new();
    }
    let acts = actions(text);
    let mut out = Vec::new();
    for (i, a) in acts.iter().enumerate() {
        let Some(at) = find_word(a.text, "lookup") else { continue };
        let after = &a.text[at + "lookup".len()..];
        let args = tokens(after);
        let lit = |n: usize| args.get(n).and_then(|t| t.strip_prefix('"')).and_then(|t| t.strip_suffix('"')).map(str::to_string);
        let variable = assigned_variable(&a.text[..at]);
        let mut field = field_after_call(a.text, at);
        let mut key = yaml_key_before(text, a.start);
        let mut generator = generator_in(a.text);
        if let Some(var) = &variable {
            // Follow the variable through the later actions of the file.
            for b in &acts[i + 1..] {
                if find_word(b.text, var).is_none() {
                    continue;
                }
                field = field.or_else(|| index_field(b.text, var));
                key = key.or_else(|| yaml_key_before(text, b.start));
                generator = generator.or_else(|| generator_in(b.text));
            }
            if generator.is_none() {
                generator = acts[i + 1..].iter().take(8).find_map(|b| generator_in(b.text));
            }
        }
        out.push(LookupUse { template: path.to_string(), line: a.line, api_version: lit(0), kind: lit(1), field, key, generator });
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// `word` standing alone (not part of a longer identifier).
fn find_word(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back().is_none_or(|c| !is_ident(c) || word.starts_with('$'));
        let after = text[i + word.len()..].chars().next().is_none_or(|c| !is_ident(c));
        before && after
    })
}

/// Space-separated arguments, string literals kept whole with their quotes.
fn tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while !rest.is_empty() && out.len() < 4 {
        let end = if let Some(q) = rest.strip_prefix('"') {
            q.find('"').map_or(rest.len(), |j| j + 2)
        } else {
            rest.find(|c: char| c.is_whitespace() || c == ')' || c == '|').unwrap_or(rest.len())
        };
        if end == 0 {
            break;
        }
        out.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    out
}

/// `$x := ` or `$x = ` (with an optional `(`) right before the call.
fn assigned_variable(before: &str) -> Option<String> {
    let b = before.trim_end().trim_end_matches('(').trim_end();
    let b = b.strip_suffix(":=").or_else(|| b.strip_suffix('='))?.trim_end();
    let start = b.char_indices().rev().find(|(_, c)| !is_ident(*c)).map_or(0, |(i, c)| i + c.len_utf8());
    let var = &b[start..];
    var.starts_with('$').then(|| var.to_string())
}

/// `(lookup ...).a.b` -> `a.b`.
fn field_after_call(action: &str, at: usize) -> Option<String> {
    if !action[..at].trim_end().ends_with('(') {
        return None;
    }
    let mut depth = 1;
    let rest = &action[at..];
    let close = rest.char_indices().find_map(|(i, c)| {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(i)
    })?;
    let tail = &rest[close + 1..];
    let chain: String = tail.chars().take_while(|c| is_ident(*c) || *c == '.').collect();
    let chain = chain.trim_start_matches('.');
    (!chain.is_empty() && tail.starts_with('.')).then(|| chain.to_string())
}

/// `index $s.data "password"` -> `data.password`; `$s.data.password` -> the same.
fn index_field(action: &str, var: &str) -> Option<String> {
    let at = find_word(action, var)?;
    let tail = &action[at + var.len()..];
    let raw_len: usize = tail.chars().take_while(|c| is_ident(*c) || *c == '.').map(char::len_utf8).sum();
    let chain = tail[..raw_len].trim_start_matches('.').to_string();
    let before = action[..at].trim_end();
    if before.ends_with("index") {
        let rest = tail[raw_len..].trim_start();
        let key = rest.strip_prefix('"').and_then(|r| r.split('"').next());
        return match (chain.is_empty(), key) {
            (_, None) => (!chain.is_empty()).then_some(chain),
            (true, Some(k)) => Some(k.to_string()),
            (false, Some(k)) => Some(format!("{chain}.{k}")),
        };
    }
    (!chain.is_empty()).then_some(chain)
}

/// `  password: {{ ... }}` -> `password`.
fn yaml_key_before(text: &str, action_start: usize) -> Option<String> {
    let line_start = text[..action_start].rfind('\n').map_or(0, |i| i + 1);
    let prefix = text[line_start..action_start].trim();
    let key = prefix.strip_suffix(':')?.trim().trim_start_matches("- ");
    let key = key.trim_matches(|c| c == '"' || c == '\'');
    (!key.is_empty() && !key.contains(char::is_whitespace)).then(|| key.to_string())
}

fn generator_in(action: &str) -> Option<String> {
    GENERATORS.iter().find(|g| find_word(action, g).is_some()).map(|g| g.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_lookup_or_generate_names_field_key_and_generator() {
        let t = "kind: Secret\ndata:\n  password: {{ (lookup \"v1\" \"Secret\" .Release.Namespace \"db\").data.password | default (randAlphaNum 16 | b64enc) }}\n";
        let got = scan_lookups("c/templates/s.yaml", t);
        assert_eq!(
            got,
            vec![LookupUse {
                template: "c/templates/s.yaml".into(),
                line: 3,
                api_version: Some("v1".into()),
                kind: Some("Secret".into()),
                field: Some("data.password".into()),
                key: Some("password".into()),
                generator: Some("randAlphaNum".into()),
            }]
        );
    }

    #[test]
    fn lookup_into_a_variable_is_followed_to_its_use() {
        let t = "{{- $s := lookup \"v1\" \"Secret\" .Release.Namespace \"db\" -}}\nkind: Secret\ndata:\n{{- if $s }}\n  token: {{ index $s.data \"token\" }}\n{{- else }}\n  token: {{ uuidv4 | b64enc }}\n{{- end }}\n";
        let got = scan_lookups("c/templates/s.yaml", t);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].line, 1);
        assert_eq!(got[0].field.as_deref(), Some("data.token"));
        assert_eq!(got[0].key.as_deref(), Some("token"));
        assert_eq!(got[0].generator.as_deref(), Some("uuidv4"));
    }

    #[test]
    fn non_ascii_text_around_calls_does_not_break_the_scan() {
        let t = "{{ →$s := lookup \"v1\" \"Secret\" \"n\" \"x\" }}\nk: {{ index $s..é \"p\" }}\n";
        let got = scan_lookups("p", t);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].field.as_deref(), Some("é.p"));
    }

    #[test]
    fn a_lookup_without_fallback_has_no_generator_and_words_containing_lookup_do_not_count() {
        let t = "{{ $lookupTable := 1 }}\n{{ if (lookup \"apps/v1\" \"Deployment\" \"\" \"\") }}x{{ end }}\n";
        let got = scan_lookups("p", t);
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].line, got[0].api_version.as_deref(), got[0].generator.as_deref()), (2, Some("apps/v1"), None));
    }
}
