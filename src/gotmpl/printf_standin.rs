//! A small, exact part of Go's `fmt.Sprintf` for the builtin `printf`
//! until `crate::go::printf` (Go's whole fmt) replaces it: the verbs
//! `%v %s %d %t %q %%` without flags, width or precision, with fmt's
//! `%!d(string=x)`, `%!d(MISSING)` and `%!(EXTRA ...)` forms (fmt print.go
//! `doPrintf`, `badVerb`). Anything else is refused, never guessed.

use super::value::{go_sprint, go_type};
use super::{Tv, Val};

pub(super) fn sprintf(format: &str, args: &[Tv]) -> Result<String, String> {
    let mut out = String::new();
    let mut next = 0usize;
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(verb) = chars.next() else {
            out.push_str("%!(NOVERB)");
            break;
        };
        if verb == '%' {
            out.push('%');
            continue;
        }
        if !matches!(verb, 'v' | 's' | 'd' | 't' | 'q') {
            return Err(format!("the printf verb `%{verb}` (releasex's printf covers %v %s %d %t %q without flags for now)"));
        }
        let Some(arg) = args.get(next) else {
            out.push_str(&format!("%!{verb}(MISSING)"));
            continue;
        };
        next += 1;
        out.push_str(&one(verb, arg)?);
    }
    if next < args.len() {
        out.push_str("%!(EXTRA ");
        for (i, a) in args[next..].iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            match a.val {
                Val::Nil => out.push_str("<nil>"),
                _ => out.push_str(&format!("{}={}", go_type(&a.val), go_sprint(a)?)),
            }
        }
        out.push(')');
    }
    Ok(out)
}

fn one(verb: char, arg: &Tv) -> Result<String, String> {
    let bad = || -> Result<String, String> {
        match arg.val {
            Val::Nil => Ok(format!("%!{verb}(<nil>)")),
            _ => Ok(format!("%!{verb}({}={})", go_type(&arg.val), go_sprint(arg)?)),
        }
    };
    match (verb, &arg.val) {
        ('v', _) => go_sprint(arg),
        ('s', Val::Str(s)) => Ok(s.clone()),
        ('q', Val::Str(s)) => Ok(crate::go::quote::quote(s)),
        ('d', Val::Int(i) | Val::Int64(i)) => Ok(i.to_string()),
        ('t', Val::Bool(b)) => Ok(b.to_string()),
        ('q', Val::Int(_) | Val::Int64(_)) => Err("printf `%q` of an integer".into()),
        ('s' | 'q' | 'd' | 't', Val::Nil | Val::Bool(_) | Val::Int(_) | Val::Int64(_) | Val::Float(_) | Val::Str(_)) => bad(),
        _ => Err(format!("printf `%{verb}` of a {}", go_type(&arg.val))),
    }
}
