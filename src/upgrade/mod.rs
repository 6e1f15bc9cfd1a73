//! All of `upgrade-preview`: Helm's value modes ([`modes`]); the pipeline
//! after them ([`run`]: baseline, render decision, live reads); Helm's
//! client-side manifest rules, `--ignore` and masking ([`manifest`]); the
//! per-object plan ([`plan`], with [`drift`], [`ownership`] and the
//! `--ignore` rules of [`ignore`]). `cli` only prints the reports.

pub mod baseline_blame;
pub mod drift;
pub mod helm_diff;
pub mod ignore;
pub mod install_check;
pub mod manifest;
pub mod modes;
pub mod offline;
pub mod ownership;
pub mod plan;
pub mod record;
pub mod replace;
pub mod rollback;
pub mod run;

pub use drift::{Drift, DriftOutcome};
pub use record::{pruned_by_history_max, record_labels};
pub use ignore::{IgnoreRule, parse_ignore};
pub use modes::*;
pub use ownership::{add_ownership, check_ownership};
pub use plan::*;
pub use rollback::{RollbackStart, rollback_start, target_manifest};
pub use run::{ManifestSource, ObjectsReport, ObjectsRequest, PreviewError, Start, has_changes, install_start, preview_objects, start};
