//! Patch metadata: how each field of an object is diffed and merged by the
//! strategic merge patch ([`crate::patch::strategic`]).
//!
//! Mirrors apimachinery's `LookupPatchMeta` (`pkg/util/strategicpatch/meta.go`):
//! one interface with Go's two questions, asked for a JSON key of the object
//! at hand —
//!
//! - [`LookupPatchMeta::lookup_for_struct`]: the key's value is an object;
//!   give the sub-schema of that object and the key's [`PatchMeta`];
//! - [`LookupPatchMeta::lookup_for_slice`]: the key's value is a list; give
//!   the sub-schema of the list's *elements* and the key's [`PatchMeta`].
//!
//! [`PatchMeta`] is the field's patch strategies (the tag text split on
//! commas, `retainKeys` pulled out by [`PatchMeta::retain_keys_and_strategy`])
//! and its merge key.
//!
//! Three implementations:
//!
//! - [`StructMeta`]: Go struct tags (`PatchMetaFromStruct`, what Helm uses),
//!   over a [`TypeTable`] describing Go types: the built-in Kubernetes kinds
//!   ([`builtin_kind`], the embedded k8s.io/api v0.36.2 table) or the
//!   conformance test structs ([`TypeTable::from_conformance_schema`]).
//! - [`OpenApiV2Meta`]: an OpenAPI v2 document such as a cluster's
//!   `/openapi/v2` (`PatchMetaFromOpenAPI`, what kubectl uses):
//!   `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key`.
//!
//! Lookup errors carry Go's messages. The diff ignores a failed lookup when
//! the two values are deep-equal; the merge never does.

mod builtin;
mod openapi;
mod openapi_v3;
mod types;

pub use builtin::{BuiltinKind, HelmPatchType, builtin_kind, builtin_raw_table, builtin_source, builtin_table};
pub use openapi::{OpenApiV2Lookup, OpenApiV2Meta};
pub use openapi_v3::v3_as_v2;
pub use types::{StructMeta, TypeTable};

use thiserror::Error;

/// `LookupPatchMeta`: the patch metadata of the fields of one object type.
///
/// A value of the implementing type stands for one (sub-)schema; lookups
/// return the schema one level down. `'a` is the lifetime of the data the
/// metadata is read from (strategies and merge keys are borrowed from it).
pub trait LookupPatchMeta<'a>: Sized + Clone {
    /// `LookupPatchMetadataForStruct`: the field `key` holds an object. Returns
    /// the object's schema and the field's metadata.
    fn lookup_for_struct(&self, key: &str) -> Result<(Self, PatchMeta<'a>), MetaError>;

    /// `LookupPatchMetadataForSlice`: the field `key` holds a list. Returns
    /// the schema of the list's elements and the field's metadata.
    fn lookup_for_slice(&self, key: &str) -> Result<(Self, PatchMeta<'a>), MetaError>;

    /// `Name()`: the type's name as Go prints it in error messages.
    fn name(&self) -> String;
}

/// The patch metadata of one field: strategies and merge key.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PatchMeta<'a> {
    /// The raw strategy text (`merge`, `retainKeys`, `merge,retainKeys`,
    /// `replace`, ...). `None` when the source has no strategy at all (an
    /// OpenAPI property without the extension); a Go struct field without the
    /// tag has `Some("")` (Go splits the empty tag into `[""]`). Both mean the
    /// default strategy.
    patch_strategy: Option<&'a str>,
    merge_key: &'a str,
}

impl<'a> PatchMeta<'a> {
    /// Metadata from a raw strategy text (split on commas when asked) and a
    /// merge key (`""` for none).
    pub fn new(patch_strategy: Option<&'a str>, merge_key: &'a str) -> Self {
        PatchMeta { patch_strategy, merge_key }
    }

    /// The strategies: the raw text split on commas (`GetPatchStrategies`).
    pub fn strategies(&self) -> Vec<&'a str> {
        match self.patch_strategy {
            None => Vec::new(),
            Some(s) => s.split(',').collect(),
        }
    }

    /// The raw strategy text, if any.
    pub fn raw_strategy(&self) -> Option<&'a str> {
        self.patch_strategy
    }

    /// The merge key (`GetPatchMergeKey`), `""` when there is none.
    pub fn merge_key(&self) -> &'a str {
        self.merge_key
    }

    /// `extractRetainKeysPatchStrategy`: whether `retainKeys` is among the
    /// strategies, and the one other strategy (`""` for the default). One
    /// strategy, or two of which one is `retainKeys`, are valid; anything else
    /// is Go's "unexpected patch strategy" error.
    pub fn retain_keys_and_strategy(&self) -> Result<(bool, &'a str), MetaError> {
        let Some(raw) = self.patch_strategy else {
            return Ok((false, ""));
        };
        let mut parts = raw.split(',');
        let first = parts.next().unwrap_or("");
        let second = parts.next();
        let third = parts.next();
        match (second, third) {
            (None, _) if first == RETAIN_KEYS => Ok((true, "")),
            (None, _) => Ok((false, first)),
            (Some(second), None) if first == RETAIN_KEYS => Ok((true, second)),
            (Some(second), None) if second == RETAIN_KEYS => Ok((true, first)),
            _ => Err(MetaError::UnexpectedPatchStrategy(self.strategies().iter().map(|s| s.to_string()).collect())),
        }
    }
}

/// The `retainKeys` strategy word.
pub const RETAIN_KEYS: &str = "retainKeys";

/// A failed metadata lookup, with Go's message.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MetaError {
    /// Struct tags: no field of the struct has this JSON name.
    #[error("unable to find api field in struct {struct_name} for the json field {}", go_quote(.field))]
    FieldNotInStruct { struct_name: String, field: String },
    /// Struct tags: an object looked up inside a non-struct Go type (a map,
    /// a slice, a string, ...).
    #[error("merging an object in json but data type is not struct, instead is: {kind}")]
    NotStruct { kind: String },
    /// Struct tags: a list value for a field that is not a slice (`kind` is
    /// the kind of the *containing* type, as Go prints it).
    #[error("expected slice or array type, but got: {kind}")]
    NotSlice { kind: String },
    /// Struct tags: a slice of slices.
    #[error("unexpected slice of slice")]
    SliceOfSlice,
    /// OpenAPI: no property of this name (`path` is the object's schema path).
    #[error("unable to find api field {} in {path}", go_quote(.field))]
    FieldNotFound { path: String, field: String },
    /// OpenAPI: an object value where the schema says something else.
    #[error("expected kind, but got {0}")]
    ExpectedKind(&'static str),
    /// OpenAPI: a list value where the schema says something else.
    #[error("expected slice, but got {0}")]
    ExpectedSlice(&'static str),
    /// OpenAPI: a list lookup on a schema that is itself an array.
    #[error("expected visit kind first, then visit array")]
    ExpectedVisitKindFirst,
    /// OpenAPI: a patch extension that is not a string.
    #[error("expected a string, but received a {0}")]
    BadExtensionType(String),
    /// An OpenAPI document kube-openapi would refuse to load.
    #[error("{0}")]
    Schema(String),
    /// OpenAPI: definitions that are references to each other in a ring
    /// (`a: {$ref: a}`, `a -> b -> a`). kube-openapi's visitors follow such
    /// a ring until the Go stack is exhausted; here it is this error, met
    /// only when a lookup reaches the ring, as the crash would be.
    #[error("the OpenAPI definitions refer to each other in a cycle: {}", .0.iter().map(|n| go_quote(n)).collect::<Vec<_>>().join(" -> "))]
    ReferenceCycle(Vec<String>),
    /// More than two strategies, or two without `retainKeys`.
    #[error("unexpected patch strategy: [{}]", .0.join(" "))]
    UnexpectedPatchStrategy(Vec<String>),
}

/// Go's `%q` of a string (`strconv.Quote`), under the name the patch code
/// (and `ssa`) uses.
pub(crate) use crate::go::quote::quote as go_quote;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategies_split_on_commas_and_retain_keys_is_pulled_out() {
        let m = PatchMeta::new(Some("merge,retainKeys"), "name");
        assert_eq!(m.strategies(), vec!["merge", "retainKeys"]);
        assert_eq!(m.retain_keys_and_strategy(), Ok((true, "merge")));
        assert_eq!(PatchMeta::new(Some("retainKeys,merge"), "").retain_keys_and_strategy(), Ok((true, "merge")));
        assert_eq!(PatchMeta::new(Some("retainKeys"), "").retain_keys_and_strategy(), Ok((true, "")));
        assert_eq!(PatchMeta::new(Some("replace"), "").retain_keys_and_strategy(), Ok((false, "replace")));
    }

    #[test]
    fn absent_or_empty_strategy_is_the_default() {
        assert_eq!(PatchMeta::new(None, "").retain_keys_and_strategy(), Ok((false, "")));
        assert_eq!(PatchMeta::new(Some(""), "").retain_keys_and_strategy(), Ok((false, "")));
        assert!(PatchMeta::new(None, "").strategies().is_empty());
        assert_eq!(PatchMeta::new(Some(""), "").strategies(), vec![""]);
    }

    #[test]
    fn invalid_strategy_combinations_fail_like_go() {
        let e = PatchMeta::new(Some("merge,replace"), "").retain_keys_and_strategy().unwrap_err();
        assert_eq!(e.to_string(), "unexpected patch strategy: [merge replace]");
        let e = PatchMeta::new(Some("merge,retainKeys,replace"), "").retain_keys_and_strategy().unwrap_err();
        assert_eq!(e.to_string(), "unexpected patch strategy: [merge retainKeys replace]");
    }

    #[test]
    fn go_quote_escapes_like_strconv_quote() {
        assert_eq!(go_quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(go_quote("<&>"), "\"<&>\"");
        assert_eq!(go_quote("\u{1}"), "\"\\x01\"");
        assert_eq!(go_quote("é"), "\"é\"");
    }
}
