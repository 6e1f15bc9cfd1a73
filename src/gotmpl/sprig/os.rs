//! sprig: os (functions.go: `env` is `os.Getenv`, `expandenv` is
//! `os.ExpandEnv`), through the caller's [`Host`](crate::gotmpl::func::Host).

use super::conv::made;
use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::{Tv, Val};

pub(super) fn register(m: &mut FuncMap) {
    m.add("env", Sig::fixed(&[Param::String]), Derive::Made, |c, a| Ok(made(Val::Str(c.host.env(text(&a[0])).unwrap_or_default()))));
    m.add("expandenv", Sig::fixed(&[Param::String]), Derive::Made, expandenv);
}

fn text(v: &Tv) -> &str {
    match &v.val {
        Val::Str(s) => s,
        _ => "",
    }
}

fn expandenv(c: &Call, a: Vec<Tv>) -> Result<Tv, FnError> {
    Ok(made(Val::Str(expand(text(&a[0]), |name| c.host.env(name).unwrap_or_default()))))
}

/// Go's `os.Expand` (os/env.go): `$NAME` and `${NAME}` replaced; `$` before
/// anything else kept; `${}` and an unclosed `${` eaten; shell special
/// names (`$1`, `$*`, `${#}`) are one character.
pub fn expand(s: &str, mapping: impl Fn(&str) -> String) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut j = 0;
    while j < b.len() {
        if b[j] == b'$' && j + 1 < b.len() {
            out.push_str(&s[i..j]);
            let (name, w) = shell_name(&s[j + 1..]);
            if name.is_empty() && w > 0 {
                // Invalid syntax: the characters are eaten.
            } else if name.is_empty() {
                out.push('$');
            } else {
                out.push_str(&mapping(name));
            }
            j += w;
            i = j + 1;
        }
        j += 1;
    }
    out.push_str(&s[i.min(s.len())..]);
    out
}

fn is_special(c: u8) -> bool {
    matches!(c, b'*' | b'#' | b'$' | b'@' | b'!' | b'?' | b'-' | b'0'..=b'9')
}

/// `getShellName`: the name after `$` and how many bytes it used.
fn shell_name(s: &str) -> (&str, usize) {
    let b = s.as_bytes();
    if b[0] == b'{' {
        if b.len() > 2 && is_special(b[1]) && b[2] == b'}' {
            return (&s[1..2], 3);
        }
        for (i, &c) in b.iter().enumerate().skip(1) {
            if c == b'}' {
                if i == 1 {
                    return ("", 2);
                }
                return (&s[1..i], i + 1);
            }
        }
        return ("", 1);
    }
    if is_special(b[0]) {
        return (&s[..1], 1);
    }
    let n = b.iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
    (&s[..n], n)
}

#[cfg(test)]
mod tests {
    use super::expand;

    #[test]
    fn expand_follows_go_os_expand() {
        let m = |n: &str| match n {
            "HOME" => "/root".to_string(),
            "1" => "one".to_string(),
            _ => String::new(),
        };
        assert_eq!(expand("$HOME/x ${HOME} $$ $1 ${} ${HOME", m), "/root/x /root  one  HOME");
        assert_eq!(expand("cost: 5$", m), "cost: 5$");
        assert_eq!(expand("a $- b", m), "a  b");
        assert_eq!(expand("$é", m), "$é");
    }
}
