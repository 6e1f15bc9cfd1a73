//! releasex: Helm's values, upgrades and release records, explained exactly.
//!
//! The library holds every behaviour; the `kubectl-releasex` binary only
//! parses arguments, calls in here, and prints (see `cli`).

pub mod chart;
pub mod cli;
pub mod cluster;
pub mod explain;
pub mod go;
pub mod helmfile;
pub mod gotmpl;
pub mod keypath;
#[cfg(test)]
mod layout;
pub mod manifest;
pub mod parallel;
pub mod patch;
pub mod release;
pub mod render;
pub mod storage;
pub mod timings;
pub mod upgrade;
pub mod values;
pub mod werf;
pub mod yaml;

/// The hasher of the values maps and the YAML reader's maps: their keys are
/// short strings hashed very often (every merge looks keys up), and they come
/// from the user's own files, so SipHash's resistance to crafted collisions
/// buys nothing here.
pub type FastHash = foldhash::fast::RandomState;

/// An error and its causes on one line, without repeating a cause already
/// included in its parent's message.
pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let m = c.to_string();
        if !s.contains(&m) {
            s.push_str(": ");
            s.push_str(&m);
        }
        cur = c.source();
    }
    s
}
