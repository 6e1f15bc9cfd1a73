//! The patch engines (`releasex::patch`): the conformance tables of
//! `tests/conformance/` and the differential tests against the real
//! `kubectl`, one module per former test binary.
//!
//! Support: the case generator `tests/patchgen` (shared with
//! `benches/patch.rs`), the fixture API server `tests/fixture_api` (shared
//! with the CLI tests), `kubectl_support` (the server set up for kubectl,
//! and running kubectl).

#[path = "../fixture_api/mod.rs"]
mod fixture_api;
mod kubectl_support;
#[path = "../patchgen/mod.rs"]
mod patchgen;

mod jsonmerge_conformance;
mod kubectl_patch;
mod strategic_conformance;
