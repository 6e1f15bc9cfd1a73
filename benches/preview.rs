//! Benchmark: `upgrade-preview` of a release with 500 objects against a
//! fixture API server that adds 20 ms to every object GET (a remote
//! cluster). Whole process, release build. Target: under 1 s wall time; a
//! sequential fetcher needs about 500 x 20 ms = 10 s. Prints min and median
//! of several runs, then PASS or FAIL (exit 1 on FAIL).
//!
//! Run: `cargo bench --bench preview` (builds the release binary first).
//! `RELEASEX_BENCH_RUNS` sets the number of timed runs (5).

#[path = "../tests/fixture_api/mod.rs"]
mod fixture_api;

use std::io::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

const OBJECTS: usize = 500;

fn configmap(i: usize, generation: &str) -> String {
    format!("---\n# Source: big/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{i}\ndata:\n  generation: \"{generation}\"\n  index: \"{i}\"\n")
}

fn deployment(i: usize, image: &str) -> String {
    format!(
        "---\n# Source: big/templates/deploy.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-{i}\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web-{i}\n  template:\n    metadata:\n      labels:\n        app: web-{i}\n    spec:\n      containers:\n        - name: web\n          image: {image}\n          ports:\n            - containerPort: 8080\n"
    )
}

fn manifest(generation: &str) -> String {
    (0..OBJECTS).map(|i| if i % 2 == 0 { configmap(i, generation) } else { deployment(i, &format!("web:{generation}")) }).collect()
}

/// A release record Secret as Helm stores it (gzip, base64 twice).
fn release_secret(manifest: &str) -> Value {
    let release = json!({
        "name": "big", "namespace": "bench", "version": 1,
        "info": {"status": "deployed", "first_deployed": "2026-11-29T12:00:00Z", "last_deployed": "2026-11-29T12:00:00Z", "description": "Install complete"},
        "chart": {"metadata": {"name": "big", "version": "1.0.0", "apiVersion": "v2"}, "values": {"generation": "1"}},
        "config": {},
        "manifest": manifest,
        "apply_method": "csa",
    });
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(release.to_string().as_bytes()).expect("gzip");
    let inner = base64::engine::general_purpose::STANDARD.encode(gz.finish().expect("gzip"));
    let outer = base64::engine::general_purpose::STANDARD.encode(inner);
    json!({"apiVersion": "v1", "kind": "Secret", "type": "helm.sh/release.v1",
           "metadata": {"name": "sh.helm.release.v1.big.v1", "namespace": "bench",
                        "labels": {"name": "big", "owner": "helm", "status": "deployed", "version": "1"}},
           "data": {"release": outer}})
}

fn live_objects(manifest: &str) -> Vec<Value> {
    releasex::manifest::split(manifest)
        .into_iter()
        .filter_map(|d| serde_saphyr::from_str::<Value>(d).ok())
        .map(|mut o| {
            releasex::upgrade::add_ownership(&mut o, "big", "bench");
            o["metadata"]["namespace"] = json!("bench");
            o["metadata"]["resourceVersion"] = json!("1");
            o
        })
        .collect()
}

fn main() {
    let runs: usize = std::env::var("RELEASEX_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let status = Command::new(env!("CARGO")).args(["build", "--release", "-q", "--bin", "kubectl-releasex"]).status().expect("cargo build");
    assert!(status.success(), "release build failed");
    let bin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/kubectl-releasex");

    let old = manifest("1");
    let new = manifest("2");
    let mut objects = live_objects(&old);
    objects.push(release_secret(&old));
    let api = fixture_api::FixtureApi::start(objects);
    api.set_latency(Duration::from_millis(20));
    let dir = tempfile::tempdir().expect("tempdir");
    let kubeconfig = api.write_kubeconfig(dir.path(), "bench");
    let chart = dir.path().join("big");
    std::fs::create_dir_all(&chart).expect("chart dir");
    std::fs::write(chart.join("Chart.yaml"), "apiVersion: v2\nname: big\nversion: 2.0.0\n").expect("Chart.yaml");
    std::fs::write(chart.join("values.yaml"), "generation: \"2\"\n").expect("values.yaml");
    let manifest_path = dir.path().join("new.yaml");
    std::fs::write(&manifest_path, &new).expect("manifest");

    let mut times = Vec::new();
    for run in 0..=runs {
        let start = Instant::now();
        let out = Command::new(&bin)
            .env("KUBECONFIG", &kubeconfig)
            .args(["upgrade-preview", "big"])
            .arg(&chart)
            .arg("--manifest")
            .arg(&manifest_path)
            .args(["-o", "json"])
            .output()
            .expect("run kubectl-releasex");
        let elapsed = start.elapsed();
        assert!(out.status.success(), "upgrade-preview failed: {}", String::from_utf8_lossy(&out.stderr));
        if run == 0 {
            let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
            let updates = doc["objects"].as_array().map_or(0, |o| o.iter().filter(|x| x["action"] == "update").count());
            assert_eq!(updates, OBJECTS, "every object changes");
            continue; // warm-up
        }
        times.push(elapsed);
    }
    api.assert_read_only();
    times.sort();
    let median = times[times.len() / 2];
    let ok = median < Duration::from_secs(1);
    println!(
        "upgrade-preview, {OBJECTS} objects, 20 ms per GET: min {:.0} ms, median {:.0} ms (target < 1000 ms; sequential would be ~{} ms) {}",
        times[0].as_secs_f64() * 1000.0,
        median.as_secs_f64() * 1000.0,
        OBJECTS * 20,
        if ok { "PASS" } else { "FAIL" }
    );
    if !ok {
        std::process::exit(1);
    }
}
