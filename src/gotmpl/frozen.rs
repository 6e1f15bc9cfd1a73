//! A template value copied out of its shared maps for the printers of
//! [`crate::go`] (`fmt`'s `%v`, `Sprintf`, `encoding/json`). Those printers
//! walk a value one level at a time and borrow its children for as long as
//! the value ([`GoShape`], [`Typed::Of`]); a [`super::GoMap`] lends its
//! entries only while its cell is borrowed, so the printers get a
//! [`Frozen`] tree instead: the same values, maps as owned entries.
//!
//! Freezing is where a map that holds itself is found ([`MapCycle`]): Go's
//! `fmt` recurses into such a map until the goroutine stack overflows
//! (print.go `printValue` has no cycle check), so releasex refuses it with
//! a message instead of crashing.

use super::gomap::{Inside, MapCycle};
use super::{Tv, Val};
use crate::go::value::{GoShape, GoTyped, GoValue, IntType, Typed, Unprintable};

/// A template value with every map below it copied out (see the module note).
#[derive(Debug)]
pub(super) enum Frozen {
    /// A value with no map or list in it, as it is.
    Leaf(Tv),
    /// `[]interface{}` (`None`) or a slice of another element type.
    List(Option<&'static str>, Vec<Frozen>),
    /// `map[string]interface{}`, entries in key order.
    Map(Vec<(String, Frozen)>),
    /// A struct: its type name and fields (a field releasex does not model is a leaf).
    Struct(&'static str, Vec<(&'static str, Frozen)>),
    /// `*map[string]interface{}`.
    Ptr(Box<Frozen>),
}

/// The message for a value that holds itself, where Go's printer would never stop.
pub(super) const CYCLE_PRINT: &str = "printing a map that contains itself (Go's fmt recurses into it until the goroutine stack overflows)";

impl Frozen {
    pub(super) fn of(v: &Tv) -> Result<Frozen, MapCycle> {
        freeze(v, &mut Inside::default())
    }
}

fn freeze(v: &Tv, inside: &mut Inside) -> Result<Frozen, MapCycle> {
    Ok(match &v.val {
        Val::Map(m) => {
            inside.enter(m)?;
            let entries = m.entries().into_iter().map(|(k, x)| Ok((k, freeze(&x, inside)?))).collect::<Result<_, MapCycle>>()?;
            inside.leave(m);
            Frozen::Map(entries)
        }
        Val::List(l) => Frozen::List(None, l.iter().map(|x| freeze(x, inside)).collect::<Result<_, _>>()?),
        Val::TypedList(e, l) => Frozen::List(Some(e), l.iter().map(|x| freeze(x, inside)).collect::<Result<_, _>>()?),
        Val::Struct(name, fields) => Frozen::Struct(name, fields.iter().map(|(n, f)| Ok((*n, freeze(f, inside)?))).collect::<Result<_, MapCycle>>()?),
        Val::Ptr(p) => Frozen::Ptr(Box::new(freeze(p, inside)?)),
        _ => Frozen::Leaf(v.clone()),
    })
}

/// A template value as Go's printers see it: `fmt` refuses structs and
/// pointers (it would print their fields or an address), `encoding/json`
/// follows the pointer and refuses structs.
impl GoValue for Frozen {
    type Error = String;

    fn go_shape(&self) -> Result<GoShape<'_, Frozen>, String> {
        let leaf = match self {
            Frozen::Struct(ty, _) => return Err(format!("printing a struct ({ty})")),
            Frozen::Ptr(_) => return Err("printing a pointer (`.StateValues`)".into()),
            Frozen::List(_, l) => return Ok(GoShape::List(l)),
            Frozen::Map(m) => return Ok(GoShape::Map(m.iter().map(|(k, v)| (k.as_str(), v)).collect())),
            Frozen::Leaf(tv) => tv,
        };
        Ok(match &leaf.val {
            Val::Nil => GoShape::Nil,
            Val::Bool(b) => GoShape::Bool(*b),
            Val::Int(i) | Val::Int64(i) => GoShape::Int(*i),
            Val::Float(f) => GoShape::Float(*f),
            Val::Str(s) => GoShape::Str(s),
            Val::Bytes(_) => return Err("printing a []byte".into()),
            Val::Object(o) => return Err(format!("printing a {}", o.type_name())),
            Val::StrMap(m) => GoShape::StrMap(m.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()),
            // Frozen: containers are never leaves.
            Val::List(_) | Val::TypedList(..) | Val::Map(_) | Val::Struct(..) | Val::Ptr(_) => return Err("printing an unfrozen container".into()),
        })
    }

    fn json_shape(&self) -> Result<GoShape<'_, Frozen>, String> {
        match self {
            Frozen::Struct(ty, _) => Err(format!("a struct ({ty})")),
            Frozen::Ptr(p) => p.json_shape(),
            _ => self.go_shape(),
        }
    }
}

/// A template value as `fmt`'s Sprintf/Sprint/Sprintln see it
/// ([`crate::go::printf`]): its Go type and value.
impl GoTyped for Frozen {
    fn go_typed(&self) -> Result<Typed<'_, Frozen>, Unprintable> {
        let leaf = match self {
            Frozen::List(None, l) => return Ok(Typed::List("[]interface {}".into(), l.iter().map(Typed::Of).collect())),
            Frozen::List(Some(elem), l) => return Ok(Typed::List(format!("[]{elem}").into(), l.iter().map(Typed::Of).collect())),
            Frozen::Map(m) => return Ok(Typed::Map("map[string]interface {}".into(), m.iter().map(|(k, v)| (Typed::Str(k.into()), Typed::Of(v))).collect())),
            Frozen::Struct(ty, fields) => {
                if fields.iter().any(|(_, f)| matches!(f, Frozen::Leaf(Tv { val: Val::Str(s), .. }) if s == super::UNMODELLED)) {
                    return Err(Unprintable("a struct with fields releasex does not model".into()));
                }
                return Ok(Typed::Struct((*ty).into(), fields.iter().map(|(name, f)| (*name, Typed::Of(f))).collect()));
            }
            Frozen::Ptr(p) => return Ok(Typed::Ptr("*map[string]interface {}".into(), Box::new(Typed::Of(p)))),
            Frozen::Leaf(tv) => tv,
        };
        Ok(match &leaf.val {
            Val::Nil => Typed::Nil,
            Val::Bool(b) => Typed::Bool(*b),
            Val::Int(i) => Typed::Int(IntType::Int, *i),
            Val::Int64(i) => Typed::Int(IntType::Int64, *i),
            Val::Float(f) => Typed::Float(*f, false),
            Val::Str(s) => Typed::Str(s.into()),
            Val::Bytes(b) => Typed::Bytes(b),
            Val::StrMap(m) => Typed::Map("map[string]string".into(), m.iter().map(|(k, v)| (Typed::Str(k.into()), Typed::Str(v.into()))).collect()),
            Val::Object(o) => Typed::Stringer { go_type: o.type_name().into(), text: o.go_string(), go_syntax: None },
            Val::List(_) | Val::TypedList(..) | Val::Map(_) | Val::Struct(..) | Val::Ptr(_) => return Err(Unprintable("an unfrozen container".into())),
        })
    }
}
