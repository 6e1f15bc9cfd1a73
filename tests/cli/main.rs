//! CLI tests: the real `kubectl-releasex` binary against fixture files made
//! by real Helm and a fixture API server. Output is snapshotted with insta.

#[path = "../fixture_api/mod.rs"]
mod fixture_api;
mod support;
#[path = "../xorshift/mod.rs"]
mod xorshift;

mod bad_input;
mod blame_cmd;
mod cluster;
mod completion;
mod decode_files;
mod docs_runnable;
mod dynamic_completion;
mod ergonomics;
mod explain_cmd;
mod help_layout;
mod helm_diff;
mod helmfile;
mod helmfile_hcl;
mod helmfile_templates;
mod helmfile_upstream;
mod history;
mod json_contracts;
mod patch_cmd;
mod plugins;
mod real_plugins;
mod release_artefacts;
mod rollback;
mod front_door;
mod template_cmd;
mod timings;
mod upgrade_cmd;
mod live_reads;
mod lookup;
pub(crate) mod upgrade_objects;
mod werf;
