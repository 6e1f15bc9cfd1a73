//! sprig: flow control (functions.go: `fail` is
//! `func(msg string) (string, error) { return "", errors.New(msg) }`).

use crate::gotmpl::func::{Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::Val;

pub(super) fn register(m: &mut FuncMap) {
    m.add("fail", Sig::fixed(&[Param::String]), Derive::Made, |_, a| match &a[0].val {
        Val::Str(msg) => Err(FnError::Go(msg.clone())),
        _ => Err(FnError::Go(String::new())),
    });
}
