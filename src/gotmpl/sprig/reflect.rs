//! sprig: reflect (reflect.go: `typeOf` is `%T`, `kindOf` is
//! `reflect.Kind`, `typeIsLike` also accepts the pointer type; functions.go
//! registers `reflect.DeepEqual` as `deepEqual`).

use super::conv::{deep_equal, kind_of, made, type_of};
use crate::gotmpl::func::{Derive, FuncMap, Param, Sig};
use crate::gotmpl::{Tv, Val};

const ANY: Param = Param::Any;
const STR: Param = Param::String;

fn text(v: &Tv) -> &str {
    match &v.val {
        Val::Str(s) => s,
        _ => "",
    }
}

pub(super) fn register(m: &mut FuncMap) {
    m.add("typeOf", Sig::fixed(&[ANY]), Derive::Made, |_, a| Ok(made(Val::Str(type_of(&a[0].val)))));
    m.add("kindOf", Sig::fixed(&[ANY]), Derive::Made, |_, a| Ok(made(Val::Str(kind_of(&a[0].val).into()))));
    m.add("typeIs", Sig::fixed(&[STR, ANY]), Derive::Made, |_, a| Ok(made(Val::Bool(text(&a[0]) == type_of(&a[1].val)))));
    m.add("typeIsLike", Sig::fixed(&[STR, ANY]), Derive::Made, |_, a| {
        let (target, t) = (text(&a[0]), type_of(&a[1].val));
        Ok(made(Val::Bool(target == t || format!("*{target}") == t)))
    });
    m.add("kindIs", Sig::fixed(&[STR, ANY]), Derive::Made, |_, a| Ok(made(Val::Bool(text(&a[0]) == kind_of(&a[1].val)))));
    m.add("deepEqual", Sig::fixed(&[ANY, ANY]), Derive::Made, |_, a| Ok(made(Val::Bool(deep_equal(&a[0].val, &a[1].val)))));
}

#[cfg(test)]
mod tests {
    use super::super::conv::call;
    use super::*;

    #[test]
    fn type_and_kind_names_are_go_s() {
        let s = |v: Tv| if let Val::Str(s) = v.val { s } else { panic!() };
        assert_eq!(s(call("typeOf", vec![Tv::new(Val::List(vec![]))]).unwrap()), "[]interface {}");
        assert_eq!(s(call("typeOf", vec![Tv::new(Val::Nil)]).unwrap()), "<nil>");
        assert_eq!(s(call("kindOf", vec![Tv::new(Val::Nil)]).unwrap()), "invalid");
        assert_eq!(s(call("kindOf", vec![Tv::new(Val::TypedList("string", vec![]))]).unwrap()), "slice");
    }
}
