//! `values explain`'s positions: every line:column it attributes must
//! point at the value, on real-world charts (`explain_attribution`) and on
//! seeded random charts also checked against real Helm v4.2.3
//! (`explain_generated`). One module per former test binary, sharing the
//! attribution check (`positions`).

#[path = "../oracle_client/mod.rs"]
mod oracle_client;
mod positions;
#[path = "../xorshift/mod.rs"]
mod xorshift;

mod explain_attribution;
mod explain_generated;
