//! Secrets in error messages: Go's errors quote argument values (`parse
//! "http://hunter2@db": ...`, ``regexp: Compile(`hunter2`)``), so a failing
//! call on a secret would print it. The executor masks every secret string
//! among a failed call's arguments in its message.

use super::{Tv, Val};

/// What a masked secret reads as in a message.
pub const MASK: &str = "<secret>";

/// The secret strings inside `args` (strings themselves, list items, map
/// values), longest first so a secret that contains another is masked whole.
pub fn secret_strings(args: &[Tv]) -> Vec<String> {
    fn walk(tv: &Tv, inherited: bool, out: &mut Vec<String>) {
        let secret = inherited || tv.secret;
        match &tv.val {
            Val::Str(s) if secret && !s.is_empty() => out.push(s.clone()),
            Val::List(items) | Val::TypedList(_, items) => items.iter().for_each(|i| walk(i, secret, out)),
            Val::Map(m) => m.values().for_each(|v| walk(v, secret, out)),
            Val::StrMap(m) if secret => out.extend(m.values().filter(|v| !v.is_empty()).cloned()),
            Val::Struct(_, fields) => fields.iter().for_each(|(_, f)| walk(f, secret, out)),
            Val::Ptr(p) => walk(p, secret, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for a in args.iter().filter(|a| a.holds_secret()) {
        walk(a, false, &mut out);
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
}
