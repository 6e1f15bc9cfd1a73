//! Differential tests against real Helm v4.2.3 (`tests/oracle`, installed
//! by `tests/oracle/setup.sh`): one module per former test binary, sharing
//! the oracle client (`tests/oracle_client`) and the seeded generator
//! (`tests/xorshift`).

#[path = "../oracle_client/mod.rs"]
mod oracle_client;
#[path = "../xorshift/mod.rs"]
mod xorshift;

mod chart_loading;
mod explain_differential;
mod fidelity_errors;
mod fidelity_generated;
mod helmfile_generated;
mod helm_tables;
mod render_generated;
mod render_toml;
mod strvals_differential;
mod upgrade_differential;
mod yaml_differential;
mod yaml_emit_differential;
