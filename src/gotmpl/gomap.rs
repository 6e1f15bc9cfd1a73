//! Go's `map[string]interface{}` as a template holds it: a reference.
//!
//! In Go a map value is a pointer to the map's table, so every variable,
//! list item and map entry that holds "the same map" sees a change made
//! through any of them: `{{ $d := dict "a" 1 }}{{ $_ := set $d "b" 2 }}{{ $d }}`
//! prints `map[a:1 b:2]` (sprig dict.go `set` writes `d[key] = value` and
//! returns `d`). [`GoMap`] is that shared table: cloning it clones the
//! handle, never the entries; [`GoMap::deep_copy`] is the one real copy
//! (sprig's `deepCopy`).
//!
//! A map can hold itself (`set $d "self" $d`). Go's recursive walks do not
//! all terminate then: `fmt` and yaml.v3 recurse until the goroutine stack
//! overflows, `encoding/json` detects the cycle (encode.go `mapEncoder.encode`,
//! `ptrSeen`) and `reflect.DeepEqual` remembers the pairs it has visited.
//! Every walk here tracks the maps it is inside ([`Inside`]) and stops with
//! [`MapCycle`] where Go would crash, so releasex names the cycle instead of
//! overflowing its own stack. Such a cycle is never freed (`Rc` counts); a
//! render is short-lived and the leak is bounded by what the template made.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};
use std::rc::Rc;

use super::Tv;

/// A shared `map[string]interface{}`, keys in Go's printing order (sorted).
///
/// Every accessor borrows the table only for its own duration and hands
/// back clones (handles, for nested maps), so a function may read one map
/// while it writes another, or the same one, without a borrow conflict.
#[derive(Clone, Default)]
pub struct GoMap(Rc<RefCell<BTreeMap<String, Tv>>>);

/// A walk reached a map inside itself (see the module note).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a map that contains itself")]
pub struct MapCycle;

impl GoMap {
    pub fn new() -> GoMap {
        GoMap::default()
    }

    pub fn len(&self) -> usize {
        self.0.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }

    /// The value at `key` (a handle when it is a map).
    pub fn get(&self, key: &str) -> Option<Tv> {
        self.0.borrow().get(key).cloned()
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.0.borrow().contains_key(key)
    }

    /// Go's `m[key] = value`: every holder of this map sees it.
    pub fn insert(&self, key: String, value: Tv) {
        self.0.borrow_mut().insert(key, value);
    }

    /// Go's `delete(m, key)`.
    pub fn remove(&self, key: &str) -> Option<Tv> {
        self.0.borrow_mut().remove(key)
    }

    /// The entries in key order, as they are now (fmtsort's snapshot:
    /// text/template's `range` and `fmt` read a map this way).
    pub fn entries(&self) -> Vec<(String, Tv)> {
        self.0.borrow().iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    pub fn keys(&self) -> Vec<String> {
        self.0.borrow().keys().cloned().collect()
    }

    pub fn values(&self) -> Vec<Tv> {
        self.0.borrow().values().cloned().collect()
    }

    /// Whether both are the same Go map (pointer equality, as `reflect`
    /// compares maps in `DeepEqual`'s shortcut).
    pub fn same(&self, other: &GoMap) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// The map's identity, for the walks' cycle guards.
    pub fn id(&self) -> usize {
        Rc::as_ptr(&self.0) as *const () as usize
    }

    /// Changes every value in place (the taint marks, which belong to the
    /// values a map holds). `f` must not reach this map again: callers
    /// guard with [`Inside`].
    pub(super) fn update_values(&self, mut f: impl FnMut(&mut Tv)) {
        let handles: Vec<String> = self.keys();
        for k in handles {
            // One entry at a time, the borrow released before `f` runs, so
            // `f` may walk into other maps (or, guarded, this one).
            let Some(mut v) = self.get(&k) else { continue };
            f(&mut v);
            self.0.borrow_mut().insert(k, v);
        }
    }

    /// sprig's `deepCopy` (mitchellh/copystructure): a new map, every map
    /// and list below it copied too. copystructure's walk has no cycle
    /// check (reflectwalk recurses), so a map holding itself is refused.
    pub fn deep_copy(&self) -> Result<GoMap, MapCycle> {
        deep_copy_map(self, &mut Inside::default())
    }
}

fn deep_copy_map(m: &GoMap, inside: &mut Inside) -> Result<GoMap, MapCycle> {
    inside.enter(m)?;
    let mut out = BTreeMap::new();
    for (k, v) in m.entries() {
        out.insert(k, deep_copy_tv(&v, inside)?);
    }
    inside.leave(m);
    Ok(GoMap::from(out))
}

/// A deep copy of one value: maps and lists are new, everything else as it is.
pub(super) fn deep_copy_tv(v: &Tv, inside: &mut Inside) -> Result<Tv, MapCycle> {
    use super::Val;
    let val = match &v.val {
        Val::Map(m) => Val::Map(deep_copy_map(m, inside)?),
        Val::List(l) => Val::List(l.iter().map(|x| deep_copy_tv(x, inside)).collect::<Result<_, _>>()?),
        Val::TypedList(e, l) => Val::TypedList(e, l.iter().map(|x| deep_copy_tv(x, inside)).collect::<Result<_, _>>()?),
        Val::Ptr(p) => Val::Ptr(Box::new(deep_copy_tv(p, inside)?)),
        Val::Struct(name, fields) => Val::Struct(name, fields.iter().map(|(n, f)| Ok((*n, deep_copy_tv(f, inside)?))).collect::<Result<_, MapCycle>>()?),
        other => other.clone(),
    };
    Ok(Tv { val, ..v.clone() })
}

impl From<BTreeMap<String, Tv>> for GoMap {
    fn from(m: BTreeMap<String, Tv>) -> GoMap {
        GoMap(Rc::new(RefCell::new(m)))
    }
}

impl FromIterator<(String, Tv)> for GoMap {
    fn from_iter<I: IntoIterator<Item = (String, Tv)>>(iter: I) -> GoMap {
        GoMap::from(iter.into_iter().collect::<BTreeMap<_, _>>())
    }
}

/// Keys and a short form of each value: the entries themselves could hold
/// the map again, and `Debug` is for messages, not for Go's printing.
impl std::fmt::Debug for GoMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        thread_local! {
            static PRINTING: RefCell<HashSet<usize>> = RefCell::new(HashSet::new());
        }
        let id = self.id();
        if !PRINTING.with(|p| p.borrow_mut().insert(id)) {
            return write!(f, "GoMap(<cycle>)");
        }
        let r = f.debug_map().entries(self.entries().iter().map(|(k, v)| (k.clone(), v.clone()))).finish();
        PRINTING.with(|p| p.borrow_mut().remove(&id));
        r
    }
}

/// The maps a recursive walk is inside: entering one twice is a cycle. A
/// map reached twice side by side (`list $m $m`) is no cycle and is walked
/// both times, as Go does.
#[derive(Default)]
pub(super) struct Inside(HashSet<usize>);

impl Inside {
    pub(super) fn enter(&mut self, m: &GoMap) -> Result<(), MapCycle> {
        if self.0.insert(m.id()) { Ok(()) } else { Err(MapCycle) }
    }

    pub(super) fn leave(&mut self, m: &GoMap) {
        self.0.remove(&m.id());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gotmpl::Val;

    #[test]
    fn a_clone_is_the_same_map_and_sees_every_change() {
        let a = GoMap::new();
        let b = a.clone();
        b.insert("k".into(), Tv::str("v"));
        assert!(a.same(&b));
        assert!(matches!(a.get("k").map(|v| v.val), Some(Val::Str(s)) if s == "v"));
        a.remove("k");
        assert!(b.is_empty());
    }

    #[test]
    fn deep_copy_makes_a_new_map_down_to_the_nested_ones() {
        let inner = GoMap::new();
        let outer: GoMap = [("in".to_string(), Tv::new(Val::Map(inner.clone())))].into_iter().collect();
        let copy = outer.deep_copy().unwrap();
        let Some(Tv { val: Val::Map(copied_inner), .. }) = copy.get("in") else { panic!("no inner map") };
        copied_inner.insert("x".into(), Tv::str("1"));
        assert!(inner.is_empty() && !copy.same(&outer));
    }

    #[test]
    fn deep_copy_of_a_map_holding_itself_is_a_cycle_not_a_stack_overflow() {
        let m = GoMap::new();
        m.insert("self".into(), Tv::new(Val::Map(m.clone())));
        assert_eq!(m.deep_copy().err(), Some(MapCycle));
        // A map twice side by side is no cycle.
        let shared = GoMap::new();
        let twice: GoMap = [("a".to_string(), Tv::new(Val::Map(shared.clone()))), ("b".to_string(), Tv::new(Val::Map(shared)))].into_iter().collect();
        assert!(twice.deep_copy().is_ok());
        assert!(format!("{m:?}").contains("<cycle>"));
        m.remove("self");
    }
}

/// Where Go's walk of a map holding itself never ends (fmt, yaml.v3,
/// copystructure, mergo), releasex refuses with a message, not a crash.
#[cfg(test)]
mod cycle_refusals {
    use crate::gotmpl::func::FixedHost;
    use crate::gotmpl::{MissingKey, RenderOptions, TmplError, Tv, Val, render_with};

    fn run(body: &str) -> Result<String, TmplError> {
        let funcs = crate::gotmpl::helmfile::func_map();
        let host = FixedHost::default();
        let opts = RenderOptions { name: "t", funcs: &funcs, host: &host, missingkey: MissingKey::Default };
        let src = format!("{{{{ $d := dict \"a\" 1 }}}}{{{{ $_ := set $d \"self\" $d }}}}{body}");
        render_with(&src, &Tv::new(Val::Nil), &opts).map(|r| r.text)
    }

    #[test]
    fn printing_copying_or_merging_a_map_that_holds_itself_is_refused_not_a_stack_overflow() {
        for body in ["{{ $d }}", "{{ printf \"%v\" $d }}", "{{ print $d }}", "{{ toYaml $d }}", "{{ deepCopy $d }}", "{{ merge $d $d }}", "{{ toString $d }}"] {
            match run(body) {
                Err(TmplError::Unsupported { construct, .. }) => assert!(construct.contains("contains itself"), "{body}: {construct}"),
                other => panic!("{body}: {other:?}"),
            }
        }
        assert_eq!(run("{{ len $d.self.self }} {{ $d.self.a }}").ok().as_deref(), Some("2 1"));
    }
}
