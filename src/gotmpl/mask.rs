//! Secrets in error messages: Go's errors quote argument values (`parse
//! "http://hunter2@db": ...`, ``regexp: Compile(`hunter2`)``), so a failing
//! call on a secret would print it. The executor masks every secret string
//! among a failed call's arguments in its message.

use std::collections::HashSet;

use super::{Tv, Val};

/// What a masked secret reads as in a message.
pub const MASK: &str = "<secret>";

/// The secret strings inside `args` (strings themselves, list items, map
/// values), longest first so a secret that contains another is masked whole.
pub fn secret_strings(args: &[Tv]) -> Vec<String> {
    // `seen`: (map, inherited) pairs walked already; a shared map, or one
    // inside itself, is walked once for each way the secret mark reaches it.
    fn walk(tv: &Tv, inherited: bool, out: &mut Vec<String>, seen: &mut HashSet<(usize, bool)>) {
        let secret = inherited || tv.secret;
        match &tv.val {
            Val::Str(s) if secret && !s.is_empty() => out.push(s.clone()),
            Val::List(items) | Val::TypedList(_, items) => items.iter().for_each(|i| walk(i, secret, out, seen)),
            Val::Map(m) if seen.insert((m.id(), secret)) => m.values().iter().for_each(|v| walk(v, secret, out, seen)),
            Val::StrMap(m) if secret => out.extend(m.values().filter(|v| !v.is_empty()).cloned()),
            Val::Struct(_, fields) => fields.iter().for_each(|(_, f)| walk(f, secret, out, seen)),
            Val::Ptr(p) => walk(p, secret, out, seen),
            _ => {}
        }
    }
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for a in args {
        walk(a, false, &mut out, &mut seen);
    }
    out.sort_by_key(|s| std::cmp::Reverse(s.len()));
    out.dedup();
    out
}

/// `message` with every secret replaced by [`MASK`].
pub fn mask(message: String, secrets: &[String]) -> String {
    secrets.iter().fold(message, |m, s| m.replace(s.as_str(), MASK))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_argument_is_masked_in_the_message_and_a_plain_one_is_not() {
        let mut pw = Tv::str("hunter2");
        pw.secret = true;
        let list = Tv::new(Val::List(vec![Tv::str("plain"), pw.clone()]));
        let secrets = secret_strings(&[Tv::str("visible"), list]);
        assert_eq!(secrets, ["hunter2"]);
        assert_eq!(mask("parse \"http://u:hunter2@db\": visible".into(), &secrets), "parse \"http://u:<secret>@db\": visible");
    }

    fn run(src: &str) -> Result<crate::gotmpl::Rendered, crate::gotmpl::TmplError> {
        use crate::gotmpl::func::FixedHost;
        use crate::gotmpl::{render_with, MissingKey, RenderOptions};
        let mut pw = Tv::str("u:hunter2");
        pw.secret = true;
        let data = Tv::new(Val::Map([("pw".to_string(), pw), ("plain".to_string(), Tv::str("a:b"))].into_iter().collect()));
        let funcs = crate::gotmpl::sprig::func_map();
        render_with(src, &data, &RenderOptions { name: "t", funcs: &funcs, host: &FixedHost::default(), missingkey: MissingKey::Default })
    }

    #[test]
    fn an_item_read_out_of_a_value_made_from_a_secret_stays_secret() {
        for src in ["{{ index (split \":\" .pw) \"_1\" }}", "{{ range splitList \":\" .pw }}{{ . }}{{ end }}", "{{ (dict \"k\" (upper .pw)).k }}"] {
            let r = run(src).expect(src);
            assert!(r.text.contains("HUNTER2") || r.text.contains("hunter2"), "{src}: {}", r.text);
            assert!(r.spans.iter().all(|s| s.action.is_none() || s.secret), "{src}");
        }
        let r = run("{{ index (split \":\" .plain) \"_1\" }}").expect("plain");
        assert!(!r.spans.iter().any(|s| s.secret));
    }

    #[test]
    fn a_failing_call_on_a_secret_does_not_print_it() {
        let err = run("{{ regexMatch .pw \"x\" }}{{ urlParse (printf \"%s\" (cat \"http://[\" .pw)) }}").unwrap_err().to_string();
        assert!(!err.contains("hunter2"), "{err}");
    }
}
