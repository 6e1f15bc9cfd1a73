//! sprig: semver (semver.go over Masterminds/semver v3: `semver` is
//! `NewVersion`, `semverCompare` is `NewConstraint(c).Check(NewVersion(v))`).
//! The version rules live in [`crate::values::semver`], shared with Helm's
//! dependency checks; here is the `*semver.Version` a template holds and
//! the methods it can call on it (version.go).

use std::cmp::Ordering;
use std::rc::Rc;

use super::conv::{made, uint64};
use super::defaults::ObjectJson;
use crate::gotmpl::func::{Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::{GoObject, Tv, Val};
use crate::values::semver::{SemVer, new_version};

const STR: Param = Param::String;

pub(super) fn register(m: &mut FuncMap) {
    m.add("semver", Sig::fixed(&[STR]), Derive::Made, |_, a| {
        let v = new_version(text(&a[0])).map_err(FnError::Go)?;
        Ok(version_value(v, true))
    });
    m.add("semverCompare", Sig::fixed(&[STR, STR]), Derive::Made, |_, a| {
        // NewConstraint first: its error wins over the version's.
        let probe = SemVer { major: 0, minor: 0, patch: 0, pre: String::new(), metadata: String::new(), original: String::new() };
        probe.satisfies(text(&a[0])).map_err(FnError::Go)?;
        let v = new_version(text(&a[1])).map_err(FnError::Go)?;
        Ok(made(Val::Bool(v.satisfies(text(&a[0])).map_err(FnError::Go)?)))
    });
}

fn text(v: &Tv) -> &str {
    match &v.val {
        Val::Str(s) => s,
        _ => "",
    }
}

/// A `*semver.Version` (`pointer`) or a `semver.Version` (what `IncMajor` and the setters return).
#[derive(Debug, Clone)]
pub struct GoVersion {
    pub v: SemVer,
    pub pointer: bool,
}

fn version_value(v: SemVer, pointer: bool) -> Tv {
    made(Val::Object(Rc::new(GoVersion { v, pointer })))
}

/// encoding/json of a version: `MarshalJSON` writes its `String()` quoted.
pub(super) fn object_json(o: &dyn GoObject) -> Option<ObjectJson> {
    o.as_any().downcast_ref::<GoVersion>().map(|g| ObjectJson::Text(g.v.text()))
}

/// `originalVPrefix`: the `v` the original text began with, kept by the `Inc*` methods.
fn v_prefix(v: &SemVer) -> &'static str {
    if v.original.starts_with('v') { "v" } else { "" }
}

fn with_original(mut v: SemVer) -> SemVer {
    v.original = format!("{}{}", v_prefix(&v), v.text());
    v
}

impl GoVersion {
    fn other<'a>(&self, args: &'a [Tv]) -> Result<&'a SemVer, String> {
        match args {
            [Tv { val: Val::Object(o), .. }] => match o.as_any().downcast_ref::<GoVersion>() {
                Some(g) if g.pointer => Ok(&g.v),
                _ => Err(format!("wrong type for value; expected *semver.Version; got {}", o.type_name())),
            },
            [other] => Err(format!("wrong type for value; expected *semver.Version; got {}", super::conv::type_of(&other.val))),
            _ => Err(format!("wrong number of args: want 1 got {}", args.len())),
        }
    }

    fn compare_method(&self, name: &str, args: &[Tv]) -> Result<Tv, String> {
        let o = self.other(args)?;
        let ord = self.v.compare(o);
        Ok(made(match name {
            "LessThan" => Val::Bool(ord == Ordering::Less),
            "GreaterThan" => Val::Bool(ord == Ordering::Greater),
            // `Equal` is `Compare(o) == 0`: metadata does not count.
            "Equal" => Val::Bool(ord == Ordering::Equal),
            _ => Val::Int(ord as i64),
        }))
    }

    fn inc(&self, name: &str) -> SemVer {
        let mut v = self.v.clone();
        let had_pre = !v.pre.is_empty();
        v.metadata.clear();
        v.pre.clear();
        match name {
            // version.go IncPatch: a prerelease is dropped, the patch kept.
            "IncPatch" if had_pre => {}
            "IncPatch" => v.patch += 1,
            "IncMinor" => {
                v.patch = 0;
                v.minor += 1;
            }
            _ => {
                v.patch = 0;
                v.minor = 0;
                v.major += 1;
            }
        }
        with_original(v)
    }

    fn set(&self, name: &str, args: &[Tv]) -> Result<Tv, String> {
        let [Tv { val: Val::Str(s), .. }] = args else { return Err("wrong type for value; expected string".into()) };
        let mut v = self.v.clone();
        let ok_ids = s.split('.').all(|id| id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
        if name == "SetPrerelease" {
            if !s.is_empty() {
                if s.split('.').any(|id| id.len() > 1 && id.starts_with('0') && id.bytes().all(|b| b.is_ascii_digit())) {
                    return Err("Version segment starts with 0".into());
                }
                if !ok_ids {
                    return Err("Invalid Prerelease string".into());
                }
            }
            v.pre = s.clone();
        } else {
            if !s.is_empty() && !ok_ids {
                return Err("Invalid Metadata string".into());
            }
            v.metadata = s.clone();
        }
        Ok(version_value(with_original(v), false))
    }
}

impl GoObject for GoVersion {
    fn type_name(&self) -> &'static str {
        if self.pointer { "*semver.Version" } else { "semver.Version" }
    }
    fn kind(&self) -> &'static str {
        if self.pointer { "ptr" } else { "struct" }
    }
    fn go_string(&self) -> String {
        self.v.text()
    }
    fn member(&self, name: &str, args: &[Tv]) -> Option<Result<Tv, String>> {
        let none = |r: Tv| if args.is_empty() { Ok(r) } else { Err(format!("wrong number of args for {name}: want 0 got {}", args.len())) };
        Some(match name {
            "Major" => none(uint64(self.v.major)),
            "Minor" => none(uint64(self.v.minor)),
            "Patch" => none(uint64(self.v.patch)),
            "Prerelease" => none(Tv::str(&self.v.pre)),
            "Metadata" => none(Tv::str(&self.v.metadata)),
            "String" => none(Tv::str(&self.v.text())),
            // `Original` has a pointer receiver: a `semver.Version` value has no such method.
            "Original" if self.pointer => none(Tv::str(&self.v.original)),
            "IncMajor" | "IncMinor" | "IncPatch" => none(version_value(self.inc(name), false)),
            "LessThan" | "GreaterThan" | "Equal" | "Compare" if self.pointer => self.compare_method(name, args),
            "SetPrerelease" | "SetMetadata" => self.set(name, args),
            _ => return None,
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::super::conv::call;
    use super::*;

    #[test]
    fn semver_parses_and_its_members_read_like_masterminds() {
        let v = call("semver", vec![Tv::str("v1.2.3-beta.1+build")]).unwrap();
        let Val::Object(o) = &v.val else { panic!() };
        assert_eq!(o.type_name(), "*semver.Version");
        assert_eq!(o.go_string(), "1.2.3-beta.1+build");
        let s = |r: Option<Result<Tv, String>>| match r.unwrap().unwrap().val {
            Val::Str(s) => s,
            Val::Object(o) => o.go_string(),
            other => format!("{other:?}"),
        };
        assert_eq!(s(o.member("Major", &[])), "1");
        assert_eq!(s(o.member("Prerelease", &[])), "beta.1");
        assert_eq!(s(o.member("Original", &[])), "v1.2.3-beta.1+build");
        assert_eq!(s(o.member("IncPatch", &[])), "1.2.3");
        assert_eq!(s(o.member("IncMinor", &[])), "1.3.0");
        assert_eq!(call("semver", vec![Tv::str("1.2.x")]).unwrap_err(), FnError::Go("Invalid Semantic Version".into()));
        assert_eq!(call("semver", vec![Tv::str("1.2.3-01")]).unwrap_err(), FnError::Go("Version segment starts with 0".into()));
    }

    #[test]
    fn semver_compare_checks_constraints_and_reports_either_error() {
        let b = |c: &str, v: &str| call("semverCompare", vec![Tv::str(c), Tv::str(v)]);
        assert!(matches!(b(">=1.2.0", "1.3.0").unwrap().val, Val::Bool(true)));
        assert!(matches!(b("^2", "1.3.0").unwrap().val, Val::Bool(false)));
        assert_eq!(b("nope", "1.0.0").unwrap_err(), FnError::Go("improper constraint: nope".into()));
        assert_eq!(b(">1", "x").unwrap_err(), FnError::Go("Invalid Semantic Version".into()));
    }
}
