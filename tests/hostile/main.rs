//! The hostile-input suite: the real binary against inputs built to crash,
//! hang or exhaust it (deep and wide YAML and JSON, `--set` bombs, template
//! nesting and growth, OpenAPI `$ref` cycles, archive oddities), against a
//! fault-injecting API server and fake PostgreSQL endpoints, and a secrets
//! corpus run through every view. Every case asserts how the process ended
//! (exit code 1 with an error that names the input: never a signal, never
//! 101), its peak memory and its wall time, each under a stated bound
//! ([`support::Limits`]). Inputs are generated from fixed seeds
//! (`tests/xorshift`), so a failure replays.

#[path = "../fixture_api/mod.rs"]
mod fixture_api;
#[path = "../xorshift/mod.rs"]
mod xorshift;

mod sql;
mod network;
mod support;

mod secrets;
mod depth;
mod bombs;

mod harness {
    use crate::support::{Limits, run};

    /// The harness itself tells a clean error from a crash: an unknown flag
    /// is exit code 1 (releasex's code for every error, usage errors
    /// included), within the default bounds.
    #[test]
    fn harness_reports_exit_code_memory_and_time_of_the_binary() {
        let outcome = run(&["--no-such-flag"], &[], None, Limits::DEFAULT);
        outcome.assert_within(Limits::DEFAULT);
        assert_eq!(outcome.code, Some(1), "{outcome:#?}");
        assert!(outcome.max_rss_mib > 0, "{outcome:#?}");
        assert!(outcome.stderr.contains("--no-such-flag"), "{outcome:#?}");
    }
}
