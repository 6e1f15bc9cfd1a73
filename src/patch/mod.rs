//! The patches `helm upgrade` sends, computed locally and exactly: three-way
//! strategic merge patch for built-in kinds, JSON merge patch for the rest,
//! with Go's JSON bytes. Pure functions, no I/O.

pub mod helm;
pub mod jsonmerge;
pub mod meta;
pub mod ssa;
pub mod strategic;
