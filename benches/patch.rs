//! Benchmark: 500 three-way strategic merge patches (+ Go JSON bytes) of
//! realistic Deployments in one process, target < 100 ms for all 500. Prints
//! min and median of several iterations (total ms, per-object µs), then PASS
//! or FAIL; exits 1 on FAIL. The code is `tests/patchgen/bench.rs` (shared
//! with the ignored test `bench_three_way_500_deployments`).
//!
//! Run: `cargo bench --bench patch`, with in Cargo.toml
//!
//! ```toml
//! [[bench]]
//! name = "patch"
//! harness = false
//! ```
//!
//! `RELEASEX_BENCH_ITERATIONS` sets the number of timed iterations (20).

#[path = "../tests/patchgen/mod.rs"]
mod patchgen;

fn main() {
    if !patchgen::bench::run() {
        std::process::exit(1);
    }
}
