//! Benchmark: `upgrade-preview` of a release with 500 objects over 10 kinds
//! (one cluster-scoped, one custom resource) against the fixture API server
//! adding 20 ms to every answer (a remote cluster). Whole process, release
//! build, the manifest given (`--manifest`: no rendering). Prints min and
//! median of several runs, the requests one run sends (by verb), the same
//! at 0 ms (the part with no request in flight) and the phases of one run
//! (`--timings`), then PASS or FAIL against 150 ms (exit 1 on FAIL).
//!
//! Run: `cargo bench --bench preview` (builds the release binary first).
//! `RELEASEX_BENCH_RUNS` sets the number of timed runs (9).

#[path = "../tests/fixture_api/mod.rs"]
mod fixture_api;

use std::io::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

const OBJECTS: usize = 500;
const TARGET: Duration = Duration::from_millis(150);

/// One object of kind number `k` (of 10), the `i`th of its kind.
fn object(k: usize, i: usize, generation: &str) -> String {
    let head = |api: &str, kind: &str| format!("---\n# Source: big/templates/{}.yaml\napiVersion: {api}\nkind: {kind}\nmetadata:\n  name: {}-{i}\n  labels:\n    app: big\n    generation: \"{generation}\"\n", kind.to_lowercase(), kind.to_lowercase());
    match k {
        0 => head("v1", "ConfigMap") + &format!("data:\n  generation: \"{generation}\"\n  index: \"{i}\"\n"),
        1 => head("apps/v1", "Deployment") + &format!("spec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web-{i}\n  template:\n    metadata:\n      labels:\n        app: web-{i}\n    spec:\n      containers:\n        - name: web\n          image: web:{generation}\n          ports:\n            - containerPort: 8080\n          env:\n            - name: A\n              value: \"1\"\n"),
        2 => head("v1", "Service") + &format!("spec:\n  selector:\n    app: web-{i}\n  ports:\n    - name: http\n      port: 80\n      targetPort: 8080\n"),
        3 => head("v1", "ServiceAccount"),
        4 => head("apps/v1", "StatefulSet") + &format!("spec:\n  serviceName: db-{i}\n  selector:\n    matchLabels:\n      app: db-{i}\n  template:\n    metadata:\n      labels:\n        app: db-{i}\n    spec:\n      containers:\n        - name: db\n          image: db:{generation}\n"),
        5 => head("rbac.authorization.k8s.io/v1", "Role") + "rules:\n  - apiGroups: [\"\"]\n    resources: [\"pods\"]\n    verbs: [\"get\", \"list\"]\n",
        6 => head("rbac.authorization.k8s.io/v1", "RoleBinding") + &format!("roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: role-{i}\nsubjects:\n  - kind: ServiceAccount\n    name: serviceaccount-{i}\n"),
        7 => head("policy/v1", "PodDisruptionBudget") + &format!("spec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: web-{i}\n"),
        8 => head("rbac.authorization.k8s.io/v1", "ClusterRole") + "rules:\n  - apiGroups: [\"\"]\n    resources: [\"nodes\"]\n    verbs: [\"get\"]\n",
        _ => head("monitoring.coreos.com/v1", "ServiceMonitor") + &format!("spec:\n  selector:\n    matchLabels:\n      app: web-{i}\n  endpoints:\n    - port: http\n      interval: {generation}0s\n"),
    }
}

fn manifest(generation: &str) -> String {
    (0..OBJECTS).map(|n| object(n % 10, n / 10, generation)).collect()
}

/// A release record Secret as Helm stores it (gzip, base64 twice).
fn release_secret(manifest: &str) -> Value {
    named_release_secret("big", manifest)
}

fn named_release_secret(name: &str, manifest: &str) -> Value {
    let release = json!({
        "name": name, "namespace": "bench", "version": 1,
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
           "metadata": {"name": format!("sh.helm.release.v1.{name}.v1"), "namespace": "bench",
                        "labels": {"name": name, "owner": "helm", "status": "deployed", "version": "1"}},
           "data": {"release": outer}})
}

fn live_objects(manifest: &str) -> Vec<Value> {
    releasex::manifest::split(manifest)
        .into_iter()
        .filter_map(|d| serde_saphyr::from_str::<Value>(d).ok())
        .map(|mut o| {
            releasex::upgrade::add_ownership(&mut o, "big", "bench");
            if o["kind"] != "ClusterRole" {
                o["metadata"]["namespace"] = json!("bench");
            }
            o["metadata"]["resourceVersion"] = json!("1");
            o
        })
        .collect()
}

/// One whole-process run; its wall time and stdout.
fn preview(bin: &std::path::Path, kubeconfig: &std::path::Path, chart: &std::path::Path, manifest: &std::path::Path, timings: bool) -> (Duration, Vec<u8>, String) {
    let start = Instant::now();
    let mut cmd = Command::new(bin);
    cmd.env("KUBECONFIG", kubeconfig).args(["upgrade-preview", "big"]).arg(chart).arg("--manifest").arg(manifest).args(["-o", "json"]);
    if timings {
        cmd.arg("--timings");
    }
    let out = cmd.output().expect("run kubectl-releasex");
    let elapsed = start.elapsed();
    assert!(out.status.success(), "upgrade-preview failed: {}", String::from_utf8_lossy(&out.stderr));
    (elapsed, out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Min and median of `runs` timed runs after a warm-up.
fn measure(runs: usize, run: impl Fn() -> Duration) -> (Duration, Duration) {
    run();
    let mut times: Vec<Duration> = (0..runs).map(|_| run()).collect();
    times.sort();
    (times[0], times[times.len() / 2])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let runs: usize = std::env::var("RELEASEX_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(9);
    let status = Command::new(env!("CARGO")).args(["build", "--release", "-q", "--bin", "kubectl-releasex"]).status().expect("cargo build");
    assert!(status.success(), "release build failed");
    let bin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/kubectl-releasex");

    let old = manifest("1");
    let new = manifest("2");
    let mut objects = live_objects(&old);
    objects.push(release_secret(&old));
    let api = fixture_api::FixtureApi::start(objects);
    let dir = tempfile::tempdir().expect("tempdir");
    let kubeconfig = api.write_kubeconfig(dir.path(), "bench");
    let chart = dir.path().join("big");
    std::fs::create_dir_all(&chart).expect("chart dir");
    std::fs::write(chart.join("Chart.yaml"), "apiVersion: v2\nname: big\nversion: 2.0.0\n").expect("Chart.yaml");
    std::fs::write(chart.join("values.yaml"), "generation: \"2\"\n").expect("values.yaml");
    let manifest_path = dir.path().join("new.yaml");
    std::fs::write(&manifest_path, &new).expect("manifest");

    // Correctness and the requests of one run.
    let (_, stdout, _) = preview(&bin, &kubeconfig, &chart, &manifest_path, false);
    let doc: Value = serde_json::from_slice(&stdout).expect("JSON");
    let updates = doc["objects"].as_array().map_or(0, |o| o.iter().filter(|x| x["action"] == "update").count());
    assert_eq!(updates, OBJECTS, "every object changes");
    let requests = api.requests();
    let count = |verb: &str| requests.iter().filter(|r| r.verb == verb).count();
    println!("requests of one run: {} ({} get, {} list; at most 16 in flight)", requests.len(), count("get"), count("list"));
    api.clear_requests();

    let (cpu_min, cpu_median) = measure(runs, || preview(&bin, &kubeconfig, &chart, &manifest_path, false).0);
    api.set_latency(Duration::from_millis(20));
    let (min, median) = measure(runs, || preview(&bin, &kubeconfig, &chart, &manifest_path, false).0);
    let (_, _, timings) = preview(&bin, &kubeconfig, &chart, &manifest_path, true);
    api.assert_read_only();
    let ok = median <= TARGET;
    println!("upgrade-preview, {OBJECTS} objects over 10 kinds, whole process (median of {runs}):");
    println!("  0 ms per request:  min {:.0} ms, median {:.0} ms (no request waits: the CPU part and local round trips)", ms(cpu_min), ms(cpu_median));
    println!("  20 ms per request: min {:.0} ms, median {:.0} ms (target <= {} ms; one GET per object would need ~{} ms at 16 in flight) {}",
        ms(min), ms(median), TARGET.as_millis(), OBJECTS.div_ceil(16) * 20, if ok { "PASS" } else { "FAIL" });
    println!("phases of one run at 20 ms (--timings):");
    for line in timings.lines().filter(|l| l.starts_with("timings")) {
        println!("  {line}");
    }
    let e2e_ok = end_to_end(runs);
    if !ok || !e2e_ok {
        std::process::exit(1);
    }
}

/// Goal 3: `upgrade-preview` end to end with rendering by real Helm 4
/// (`$RELEASEX_HELM4`, else ~/.cache/real-helm-binaries/helm4/helm), its
/// objects live in the fixture API server (no added latency), against
/// `helm template` of the same chart alone, median of `runs`. Target:
/// everything beyond rendering at most 20% of the render time. Skipped (with
/// a note) when there is no Helm binary.
///
/// Two charts: the real kube-prometheus-stack 88.5.3 with its subcharts
/// (`benches/charts/`, the same chart whose values the test corpus holds),
/// upgraded by changing `commonLabels.generation`, and a chart of 500
/// objects over 10 kinds (`benches/preview_chart_objects.yaml`), upgraded by
/// changing `generation`. `$RELEASEX_BENCH_CHART` (a chart directory) with
/// `$RELEASEX_BENCH_SET` (the value to change) replaces the first.
fn end_to_end(runs: usize) -> bool {
    let helm = std::env::var_os("RELEASEX_HELM4")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cache/real-helm-binaries/helm4/helm")))
        .filter(|p| p.is_file());
    let Some(helm) = helm else {
        println!("end to end with Helm rendering: skipped (no Helm 4 binary; set RELEASEX_HELM4)");
        return true;
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let charts = tempfile::tempdir().expect("tempdir");
    let (real, key) = match std::env::var_os("RELEASEX_BENCH_CHART") {
        Some(chart) => (std::path::PathBuf::from(chart), std::env::var("RELEASEX_BENCH_SET").unwrap_or_else(|_| "commonLabels.generation".into())),
        None => {
            let status = Command::new("tar")
                .arg("xzf")
                .arg(root.join("benches/charts/kube-prometheus-stack-88.5.3.tgz"))
                .arg("-C")
                .arg(charts.path())
                .status()
                .expect("tar");
            assert!(status.success(), "unpacking benches/charts/kube-prometheus-stack-88.5.3.tgz failed");
            (charts.path().join("kube-prometheus-stack"), "commonLabels.generation".into())
        }
    };
    let synthetic = charts.path().join("big");
    std::fs::create_dir_all(synthetic.join("templates")).expect("chart dir");
    std::fs::write(synthetic.join("Chart.yaml"), "apiVersion: v2\nname: big\nversion: 1.0.0\n").expect("Chart.yaml");
    std::fs::write(synthetic.join("values.yaml"), "count: 50\ngeneration: \"2\"\n").expect("values.yaml");
    std::fs::copy(root.join("benches/preview_chart_objects.yaml"), synthetic.join("templates/objects.yaml")).expect("template");
    let real_ok = chart_end_to_end(runs, &helm, &real, &key);
    let synthetic_ok = chart_end_to_end(runs, &helm, &synthetic, "generation");
    real_ok && synthetic_ok
}

fn chart_end_to_end(runs: usize, helm: &std::path::Path, chart: &std::path::Path, key: &str) -> bool {
    let bin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/kubectl-releasex");
    let set = |generation: &str| format!("{key}={generation}");
    let template = |generation: &str| {
        let out = Command::new(helm)
            .args(["template", "kps"])
            .arg(chart)
            .args(["-n", "bench", "--is-upgrade", "--set-string", &set(generation)])
            .output()
            .expect("helm template");
        assert!(out.status.success(), "helm template failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("UTF-8 manifest")
    };
    let old = template("1");
    let mut objects = live_objects_of("kps", &old);
    // Every kind the chart renders is served (its CRDs are installed).
    let mut resources = fixture_api::default_resources();
    for o in &objects {
        let (api_version, kind) = (o["apiVersion"].as_str().unwrap_or_default(), o["kind"].as_str().unwrap_or_default());
        if resources.iter().any(|r| r.kind == kind && (if r.group.is_empty() { r.version.to_string() } else { format!("{}/{}", r.group, r.version) }) == api_version) {
            continue;
        }
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        resources.push(fixture_api::ApiResource {
            group: leak(group.into()),
            version: leak(version.into()),
            name: leak(format!("{}s", kind.to_lowercase())),
            kind: leak(kind.into()),
            namespaced: !matches!(kind, "ClusterRole" | "ClusterRoleBinding" | "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration" | "CustomResourceDefinition"),
            subresources: &[],
        });
    }
    let count = objects.len();
    objects.push(named_release_secret("kps", &old));
    let api = fixture_api::FixtureApi::start_with(fixture_api::Config { resources, objects, ..fixture_api::Config::default() });
    let dir = tempfile::tempdir().expect("tempdir");
    let kubeconfig = api.write_kubeconfig(dir.path(), "bench");
    let preview = |timings: bool, with_helm: bool| {
        let start = Instant::now();
        let mut cmd = Command::new(&bin);
        cmd.env("KUBECONFIG", &kubeconfig).env("HELM_BIN", helm).args(["upgrade-preview", "kps"]).arg(chart).args(["-o", "json", "--set-string", &set("2")]);
        if timings {
            cmd.arg("--timings");
        }
        if with_helm {
            cmd.arg("--render-with-helm");
        }
        let out = cmd.output().expect("run kubectl-releasex");
        assert!(out.status.success(), "upgrade-preview failed: {}", String::from_utf8_lossy(&out.stderr));
        (start.elapsed(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (_, render_median) = measure(runs, || {
        let start = Instant::now();
        template("2");
        start.elapsed()
    });
    // Interleaved, so both see the same machine load.
    let (mut with_helm, mut native) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        with_helm.push(preview(false, true).0);
        native.push(preview(false, false).0);
    }
    let median = |mut v: Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let (helm_median, native_median) = (median(with_helm), median(native));
    let (_, helm_timings) = preview(true, true);
    let (_, native_timings) = preview(true, false);
    api.assert_read_only();
    let beyond = helm_median.saturating_sub(render_median);
    let share = beyond.as_secs_f64() / render_median.as_secs_f64();
    let ok = share <= 0.20;
    println!("end to end, {count} objects of {}:", chart.display());
    println!("  helm template alone ({}):        median {:.0} ms", helm.display(), ms(render_median));
    println!("  upgrade-preview --render-with-helm (whole): median {:.0} ms", ms(helm_median));
    println!("    beyond rendering:           {:.0} ms = {:.0}% of the render time (target <= 20%) {}", ms(beyond), share * 100.0, if ok { "PASS" } else { "FAIL" });
    println!(
        "  upgrade-preview, native render (whole):    median {:.0} ms = {:.0}% of helm template alone",
        ms(native_median),
        native_median.as_secs_f64() / render_median.as_secs_f64() * 100.0
    );
    for (what, timings) in [("--render-with-helm", helm_timings), ("native", native_timings)] {
        println!("  phases of one run, {what} (--timings):");
        for line in timings.lines().filter(|l| l.starts_with("timings")) {
            println!("    {line}");
        }
    }
    ok
}

fn live_objects_of(release: &str, manifest: &str) -> Vec<Value> {
    releasex::manifest::split(manifest)
        .into_iter()
        .filter_map(|d| serde_saphyr::from_str::<Value>(d).ok())
        .filter(|o| o.is_object() && o["kind"].is_string())
        .map(|mut o| {
            releasex::upgrade::add_ownership(&mut o, release, "bench");
            let cluster_scoped = matches!(o["kind"].as_str(), Some("ClusterRole" | "ClusterRoleBinding" | "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration"));
            if !cluster_scoped && o["metadata"]["namespace"].is_null() {
                o["metadata"]["namespace"] = json!("bench");
            }
            o["metadata"]["resourceVersion"] = json!("1");
            o
        })
        .collect()
}
