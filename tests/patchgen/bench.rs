//! The patch benchmark: the three-way strategic merge patches of a
//! `helm upgrade` of 500 realistic Deployments (3 containers with env lists,
//! ports, volume mounts, resources; volumes; live objects with server
//! defaults, status and out-of-band edits), each turned into its Go JSON
//! bytes, in one process. Target: all 500 in under 100 ms.
//!
//! Run by `benches/patch.rs` (`cargo bench --bench patch`) and by the
//! ignored test `bench_three_way_500_deployments` of
//! `tests/patch_engine/kubectl_patch.rs`
//! (`cargo test --release --test patch_engine -- --ignored --nocapture bench`).
//! `RELEASEX_BENCH_ITERATIONS` sets the number of timed iterations (20).

use std::hint::black_box;
use std::time::{Duration, Instant};

use super::{Case, DeploymentShape};
use releasex::go::json::to_go_json;
use releasex::patch::meta::builtin_kind;
use releasex::patch::strategic;
use serde_json::Value;

pub const OBJECTS: usize = 500;
pub const TARGET: Duration = Duration::from_millis(100);
const FIRST_SEED: u64 = 0xBE7C_0000;

fn iterations() -> usize {
    std::env::var("RELEASEX_BENCH_ITERATIONS").ok().and_then(|s| s.parse().ok()).filter(|&n| n > 0).unwrap_or(20)
}

/// The benchmark corpus: 500 Deployments with 3 containers, at least 4 env
/// vars each, at least 2 volumes.
pub fn corpus() -> Vec<Case> {
    let shape = DeploymentShape { containers: Some(3), min_env: 4, min_volumes: 2 };
    (0..OBJECTS as u64).map(|i| super::deployment_case(FIRST_SEED + i, shape)).collect()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn us_per_object(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6 / OBJECTS as f64
}

fn min_median(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    (v[0], v[v.len() / 2])
}

fn count(cases: &[Case], pointer: &str) -> usize {
    cases
        .iter()
        .map(|c| {
            c.current
                .pointer("/spec/template/spec/containers")
                .and_then(Value::as_array)
                .map_or(0, |cs| cs.iter().map(|x| x.pointer(pointer).and_then(Value::as_array).map_or(0, Vec::len)).sum())
        })
        .sum()
}

/// Runs the benchmark and prints its figures; true when the target is met.
pub fn run() -> bool {
    let t = Instant::now();
    let kind = builtin_kind("apps/v1", "Deployment").expect("built-in metadata for apps/v1 Deployment");
    let table_load = t.elapsed();
    let meta = kind.meta;
    let cases = corpus();
    let iterations = iterations();

    let input_bytes: usize =
        cases.iter().map(|c| to_go_json(&c.original).len() + to_go_json(&c.modified).len() + to_go_json(&c.current).len()).sum();
    let texts: Vec<[String; 3]> =
        cases.iter().map(|c| [to_go_json(&c.original), to_go_json(&c.modified), to_go_json(&c.current)]).collect();

    // Patches + Go JSON bytes from parsed documents (what the target is
    // about); one untimed warm-up round first.
    let mut times = Vec::with_capacity(iterations);
    let mut patch_bytes = 0usize;
    let mut empty = 0usize;
    for i in 0..=iterations {
        let start = Instant::now();
        let mut bytes = 0usize;
        let mut none = 0usize;
        for c in &cases {
            let patch = strategic::create_three_way(&c.original, &c.modified, &c.current, &meta, true).expect("three-way patch");
            let text = to_go_json(&patch);
            bytes += text.len();
            none += usize::from(text == "{}");
            black_box(text);
        }
        let elapsed = start.elapsed();
        if i > 0 {
            times.push(elapsed);
        }
        patch_bytes = bytes;
        empty = none;
    }

    // The same including parsing the three documents from JSON text.
    let mut parse_times = Vec::with_capacity(iterations);
    for _ in 0..iterations {
        let start = Instant::now();
        for [o, m, c] in &texts {
            let o: Value = serde_json::from_str(o).expect("json");
            let m: Value = serde_json::from_str(m).expect("json");
            let c: Value = serde_json::from_str(c).expect("json");
            let patch = strategic::create_three_way(&o, &m, &c, &meta, true).expect("three-way patch");
            black_box(to_go_json(&patch));
        }
        parse_times.push(start.elapsed());
    }

    let (min, median) = min_median(times);
    let (pmin, pmedian) = min_median(parse_times);
    let containers: usize =
        cases.iter().map(|c| c.current.pointer("/spec/template/spec/containers").and_then(Value::as_array).map_or(0, Vec::len)).sum();
    let volumes: usize =
        cases.iter().map(|c| c.current.pointer("/spec/template/spec/volumes").and_then(Value::as_array).map_or(0, Vec::len)).sum();
    println!(
        "patch benchmark: {OBJECTS} Deployments (live: {containers} containers, {} env vars, {} volume mounts, {volumes} volumes); inputs {:.0} KiB of Go JSON (original+modified+current), patches {:.0} KiB ({empty} empty)",
        count(&cases, "/env"),
        count(&cases, "/volumeMounts"),
        input_bytes as f64 / 1024.0,
        patch_bytes as f64 / 1024.0,
    );
    println!("  built-in metadata table, first use: {:.2} ms (once per process, not in the figures below)", ms(table_load));
    println!(
        "  three-way strategic patch + Go JSON, all {OBJECTS}: min {:.2} ms, median {:.2} ms over {iterations} iterations; per object min {:.1} µs, median {:.1} µs",
        ms(min),
        ms(median),
        us_per_object(min),
        us_per_object(median)
    );
    println!(
        "  the same including parsing the 3 documents from JSON text: min {:.2} ms, median {:.2} ms; per object median {:.1} µs",
        ms(pmin),
        ms(pmedian),
        us_per_object(pmedian)
    );
    let pass = median < TARGET;
    println!(
        "  target: all {OBJECTS} in < {} ms (median): {}",
        TARGET.as_millis(),
        if pass { "PASS" } else { "FAIL" }
    );
    if cfg!(debug_assertions) {
        println!("  (debug build: figures are not representative; use --release / cargo bench)");
    }
    pass
}
