//! The writers: each command's report as text (for people), JSON and YAML
//! (stable contracts). Only formatting here; the reports come from the
//! library.

pub mod blame;
pub mod changes;
pub mod explain;
pub mod helm_diff;
pub mod markdown;
pub mod plan;
pub mod release;
pub mod rollback;
pub mod upgrade;
