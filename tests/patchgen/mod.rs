//! Seeded generator of realistic Kubernetes objects and of the
//! (original, modified, current) triples a client-side apply or a
//! `helm upgrade` patches: original = the manifest applied last time,
//! modified = the manifest applied now (random edits of original), current =
//! the live object (original or modified, plus server defaults, status and
//! out-of-band edits).
//!
//! Kinds: `apps/v1` Deployment, `v1` Service, `v1` ConfigMap and the custom
//! resource `monitoring.coreos.com/v1` ServiceMonitor. Only long-stable
//! fields are generated (nothing whose patch metadata changed between
//! k8s.io/api v0.32 and v0.36). Numbers are always integers.
//!
//! Everything is a pure function of the seed (a xorshift64* generator), so a
//! failing case is reproduced from its seed alone.

#![allow(dead_code)]

pub mod bench;

use serde_json::{Map, Value, json};

/// xorshift64* seeded through splitmix64.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    pub fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            let j = self.below(i + 1);
            xs.swap(i, j);
        }
    }

    /// A random subset of `xs`, order kept.
    pub fn subset<T: Copy>(&mut self, xs: &[T], percent: usize) -> Vec<T> {
        xs.iter().copied().filter(|_| self.chance(percent)).collect()
    }
}

/// The kinds generated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Deployment,
    Service,
    ConfigMap,
    ServiceMonitor,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Deployment, Kind::Service, Kind::ConfigMap, Kind::ServiceMonitor];

    pub fn api_version(self) -> &'static str {
        match self {
            Kind::Deployment => "apps/v1",
            Kind::Service | Kind::ConfigMap => "v1",
            Kind::ServiceMonitor => "monitoring.coreos.com/v1",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Deployment => "Deployment",
            Kind::Service => "Service",
            Kind::ConfigMap => "ConfigMap",
            Kind::ServiceMonitor => "ServiceMonitor",
        }
    }

    /// A built-in kind (strategic merge patch) rather than a custom resource
    /// (JSON merge patch).
    pub fn is_builtin(self) -> bool {
        self != Kind::ServiceMonitor
    }
}

/// One generated triple.
#[derive(Debug, Clone)]
pub struct Case {
    pub seed: u64,
    pub kind: Kind,
    /// The manifest applied last time.
    pub original: Value,
    /// The manifest applied now.
    pub modified: Value,
    /// The live object (no last-applied annotation).
    pub current: Value,
    /// What changed from original to modified.
    pub edits: Vec<String>,
    /// What the live object has besides its base manifest.
    pub live_edits: Vec<String>,
    /// Whether `current` was built from `modified` (else from `original`).
    pub current_from_modified: bool,
    /// Whether some merge list holds two items with the same merge key
    /// (container ports 53/UDP + 53/TCP, Service ports likewise), where the
    /// strategic merge patch's semantics are Go's quirks, not "by key".
    pub duplicate_merge_keys: bool,
}

/// Shape knobs for Deployments (the benchmark wants heavy ones).
#[derive(Debug, Clone, Copy, Default)]
pub struct DeploymentShape {
    /// Exactly this many containers (else 1-3).
    pub containers: Option<usize>,
    /// At least this many env vars per container.
    pub min_env: usize,
    /// At least this many volumes.
    pub min_volumes: usize,
}

/// The case for `seed`, of a kind drawn from the seed (Deployments half of
/// the time).
pub fn case(seed: u64) -> Case {
    let mut r = Rng::new(seed);
    let kind = match r.below(20) {
        0..=9 => Kind::Deployment,
        10..=13 => Kind::Service,
        14..=16 => Kind::ConfigMap,
        _ => Kind::ServiceMonitor,
    };
    build_case(seed, r, kind, DeploymentShape::default())
}

/// The case for `seed` of the given kind.
pub fn case_of_kind(seed: u64, kind: Kind) -> Case {
    build_case(seed, Rng::new(seed), kind, DeploymentShape::default())
}

/// A Deployment case of the given shape.
pub fn deployment_case(seed: u64, shape: DeploymentShape) -> Case {
    build_case(seed, Rng::new(seed), Kind::Deployment, shape)
}

fn build_case(seed: u64, mut r: Rng, kind: Kind, shape: DeploymentShape) -> Case {
    let ids = Ids::new(&mut r, seed);
    let original = match kind {
        Kind::Deployment => gen_deployment(&mut r, &ids, shape),
        Kind::Service => gen_service(&mut r, &ids),
        Kind::ConfigMap => gen_configmap(&mut r, &ids),
        Kind::ServiceMonitor => gen_servicemonitor(&mut r, &ids),
    };
    let mut modified = original.clone();
    let mut edits = Vec::new();
    // 8% of the cases apply the same manifest again.
    if !r.chance(8) {
        let n = 1 + r.below(4);
        let mut tries = 0;
        while edits.len() < n && tries < 40 {
            tries += 1;
            let e = match kind {
                Kind::Deployment => edit_deployment(&mut r, &ids, &mut modified),
                Kind::Service => edit_service(&mut r, &mut modified),
                Kind::ConfigMap => edit_configmap(&mut r, &mut modified),
                Kind::ServiceMonitor => edit_servicemonitor(&mut r, &mut modified),
            };
            if let Some(e) = e {
                edits.push(e);
            }
        }
    }
    if !edits.is_empty() && r.chance(15) {
        // `metadata.finalizers`: a merge list of strings.
        let fin = list(&mut modified, &["metadata"], "finalizers");
        if fin.is_empty() || (r.chance(50) && !fin.contains(&json!("example.com/audit"))) {
            let at = r.below(fin.len() + 1);
            fin.insert(at, json!("example.com/audit"));
            edits.push(format!("finalizer example.com/audit added at {at}"));
        } else if fin.len() >= 2 && r.chance(30) {
            fin.reverse();
            edits.push("finalizers reordered".into());
        } else {
            let i = r.below(fin.len());
            let gone = fin.remove(i);
            edits.push(format!("finalizer {gone} removed"));
        }
        drop_if_empty(&mut modified, &["metadata"], "finalizers");
    }
    let current_from_modified = r.chance(25);
    let mut current = if current_from_modified { modified.clone() } else { original.clone() };
    // A server stores no nulls.
    strip_nulls(&mut current);
    let mut live_edits = Vec::new();
    // A quiet case: the live object is exactly its manifest plus server
    // metadata (with an unchanged manifest, nothing to patch).
    let quiet = r.chance(10);
    server_metadata(&mut r, &mut current);
    if !quiet {
        match kind {
            Kind::Deployment => live_deployment(&mut r, &mut current, &mut live_edits),
            Kind::Service => live_service(&mut r, &mut current, &mut live_edits),
            Kind::ConfigMap => live_configmap(&mut r, &mut current, &mut live_edits),
            Kind::ServiceMonitor => live_servicemonitor(&mut r, &mut current, &mut live_edits),
        }
        if r.chance(8) {
            list(&mut current, &["metadata"], "finalizers").push(json!("example.com/controller-hold"));
            live_edits.push("live finalizer".into());
        }
        if r.chance(8) {
            // Someone removed a field of the manifest from the live object.
            let labels = obj(&mut current, &["metadata", "labels"]);
            let keys: Vec<String> = labels.keys().cloned().collect();
            if !keys.is_empty() {
                let k = &keys[r.below(keys.len())];
                labels.remove(k);
                live_edits.push(format!("label {k} removed live"));
            }
        }
        if r.chance(15) {
            let v = r.pick(&["2026-11-29T10:00:00Z", "ticket OPS-1234 <urgent> & paged", "nightly"]);
            annotations_mut(&mut current).insert("ops.example.com/last-touched".into(), json!(v));
            live_edits.push("live annotation ops.example.com/last-touched".into());
        }
    }
    let duplicate_merge_keys = has_duplicate_merge_keys(&original) || has_duplicate_merge_keys(&modified) || has_duplicate_merge_keys(&current);
    Case { seed, kind, original, modified, current, edits, live_edits, current_from_modified, duplicate_merge_keys }
}

/// Removes every object member whose value is null, at any depth.
pub fn strip_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(strip_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

// --- pools -----------------------------------------------------------------

const APPS: &[&str] = &["web", "api", "worker", "gateway", "billing", "search", "auth", "frontend", "ingest"];
const RELEASES: &[&str] = &["shop", "payments", "platform", "blog", "metrics", "edge"];
const NAMESPACES: &[&str] = &["default", "prod", "staging", "team-a", "monitoring"];
const SIDECARS: &[&str] = &["metrics-exporter", "log-shipper", "oauth-proxy", "cloudsql-proxy", "config-reloader"];
const VOLUMES: &[&str] = &["config", "secrets", "cache", "tmp", "data", "certs", "plugins"];
const ENV_NAMES: &[&str] = &[
    "LOG_LEVEL", "PORT", "DATABASE_URL", "REDIS_HOST", "FEATURE_FLAGS", "JAVA_OPTS", "POD_NAMESPACE", "API_TOKEN",
    "TZ", "GOMAXPROCS", "HTTP_PROXY", "NO_PROXY", "MAX_CONNECTIONS", "GREETING",
];
const VERSIONS: &[&str] = &["1.4.2", "1.5.0", "2.0.0-rc.1", "2.0.1", "sha-3f9c2e1", "latest"];
const STRING_VALUES: &[&str] = &[
    "info",
    "debug",
    "8080",
    "",
    "postgres://db:5432/app?sslmode=require&pool=<10>",
    "redis-master.cache.svc",
    "a=1,b=2",
    "-Xmx512m -XX:+UseG1GC",
    "Europe/Zürich",
    "café ☕ naïve",
    "line one\nline two\ttabbed",
    "quote \" and backslash \\",
    "10.0.0.0/8,.svc,.cluster.local",
    "true",
    "<b>bold</b> & co",
];

/// Names shared by the objects of one case.
struct Ids {
    app: &'static str,
    release: &'static str,
    namespace: &'static str,
    name: String,
}

impl Ids {
    fn new(r: &mut Rng, seed: u64) -> Ids {
        let app = r.pick(APPS);
        let release = r.pick(RELEASES);
        let namespace = r.pick(NAMESPACES);
        // The seed in the name keeps objects of different cases apart.
        let name = format!("{release}-{app}-{:04x}", seed & 0xffff);
        Ids { app, release, namespace, name }
    }

    fn selector(&self) -> Value {
        json!({"app.kubernetes.io/name": self.app, "app.kubernetes.io/instance": self.release})
    }
}

fn metadata(r: &mut Rng, ids: &Ids) -> Value {
    let mut labels = ids.selector();
    if r.chance(80) {
        labels["app.kubernetes.io/managed-by"] = json!("Helm");
    }
    if r.chance(60) {
        labels["helm.sh/chart"] = json!(format!("{}-{}", ids.app, r.pick(&["0.1.0", "1.2.3", "4.0.0"])));
    }
    if r.chance(30) {
        labels["app.kubernetes.io/version"] = json!(r.pick(VERSIONS));
    }
    let mut m = json!({"name": ids.name, "namespace": ids.namespace, "labels": labels});
    if r.chance(20) {
        m["finalizers"] = if r.chance(40) { json!(["example.com/cleanup"]) } else { json!(["example.com/cleanup", "example.com/backup"]) };
    }
    if r.chance(50) {
        let mut a = Map::new();
        a.insert("meta.helm.sh/release-name".into(), json!(ids.release));
        a.insert("meta.helm.sh/release-namespace".into(), json!(ids.namespace));
        if r.chance(30) {
            a.insert("description".into(), json!(r.pick(STRING_VALUES)));
        }
        m["annotations"] = Value::Object(a);
    }
    m
}

// --- Deployment ------------------------------------------------------------

fn gen_deployment(r: &mut Rng, ids: &Ids, shape: DeploymentShape) -> Value {
    let nvol = shape.min_volumes.max(r.below(5)).min(VOLUMES.len());
    let mut vnames: Vec<&str> = VOLUMES.to_vec();
    r.shuffle(&mut vnames);
    vnames.truncate(nvol);
    let volumes: Vec<Value> = vnames.iter().map(|v| gen_volume(r, ids, v)).collect();
    let ncont = shape.containers.unwrap_or(1 + r.below(3));
    let mut sidecars = SIDECARS.to_vec();
    r.shuffle(&mut sidecars);
    let mut containers = Vec::new();
    for i in 0..ncont {
        let name = if i == 0 { ids.app } else { sidecars[(i - 1) % sidecars.len()] };
        containers.push(gen_container(r, ids, name, i == 0, &vnames, shape.min_env));
    }
    let mut pod = json!({"containers": containers});
    if !volumes.is_empty() {
        pod["volumes"] = json!(volumes);
    }
    if r.chance(40) {
        pod["serviceAccountName"] = json!(format!("{}-{}", ids.release, ids.app));
    }
    if r.chance(30) {
        pod["nodeSelector"] = json!({"kubernetes.io/os": "linux"});
    }
    if r.chance(25) {
        pod["tolerations"] = json!([{"key": "dedicated", "operator": "Equal", "value": ids.app, "effect": "NoSchedule"}]);
    }
    if r.chance(25) {
        pod["imagePullSecrets"] = json!([{"name": "regcred"}]);
    }
    if r.chance(30) {
        pod["securityContext"] = json!({"runAsNonRoot": true, "fsGroup": 2000});
    }
    if r.chance(15) {
        pod["terminationGracePeriodSeconds"] = json!(60);
    }
    if r.chance(15) {
        let mut tsc = vec![json!({"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway", "labelSelector": {"matchLabels": ids.selector()}})];
        if r.chance(50) {
            tsc.push(json!({"maxSkew": 2, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": ids.selector()}}));
        }
        pod["topologySpreadConstraints"] = json!(tsc);
    }
    if r.chance(8) {
        pod["hostAliases"] = json!([{"ip": "10.1.2.3", "hostnames": ["db.internal", "db"]}]);
    }
    // What chart templates often render for unset values.
    for (key, empty) in [("securityContext", json!({})), ("nodeSelector", json!({})), ("affinity", json!({})), ("tolerations", json!([])), ("imagePullSecrets", json!([]))] {
        if pod.get(key).is_none() && r.chance(8) {
            pod[key] = empty;
        }
    }
    if r.chance(20) {
        pod["initContainers"] = json!([{
            "name": "migrate", "image": format!("registry.example.com/{}/migrate:{}", ids.release, r.pick(VERSIONS)),
            "command": ["/bin/migrate", "up"],
            "env": [{"name": "DATABASE_URL", "valueFrom": {"secretKeyRef": {"name": format!("{}-db", ids.release), "key": "url"}}}]
        }]);
    }
    if r.chance(15) {
        pod["affinity"] = json!({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{
            "weight": 100,
            "podAffinityTerm": {"labelSelector": {"matchLabels": ids.selector()}, "topologyKey": "kubernetes.io/hostname"}
        }]}});
    }
    let mut tmeta = json!({"labels": ids.selector()});
    if r.chance(40) {
        tmeta["annotations"] = json!({"checksum/config": hex(r, 64)});
        if r.chance(50) {
            tmeta["annotations"]["prometheus.io/scrape"] = json!("true");
        }
    }
    let mut spec = json!({
        "selector": {"matchLabels": ids.selector()},
        "template": {"metadata": tmeta, "spec": pod}
    });
    if r.chance(85) {
        spec["replicas"] = json!(r.range(1, 5));
    }
    match r.below(5) {
        0 => spec["strategy"] = json!({"type": "Recreate"}),
        1 => spec["strategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}}),
        2 => spec["strategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}),
        _ => {}
    }
    if r.chance(20) {
        spec["revisionHistoryLimit"] = json!(r.range(2, 10));
    }
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": metadata(r, ids), "spec": spec})
}

fn hex(r: &mut Rng, n: usize) -> String {
    (0..n).map(|_| char::from(b"0123456789abcdef"[r.below(16)])).collect()
}

fn gen_volume(r: &mut Rng, ids: &Ids, name: &str) -> Value {
    match r.below(5) {
        0 | 1 => {
            let mut v = json!({"name": name, "configMap": {"name": format!("{}-{name}", ids.release)}});
            if r.chance(30) {
                v["configMap"]["items"] = json!([{"key": "app.yaml", "path": "app.yaml"}]);
            }
            v
        }
        2 => json!({"name": name, "secret": {"secretName": format!("{}-{name}", ids.release)}}),
        3 => {
            if r.chance(30) {
                json!({"name": name, "emptyDir": {"medium": "Memory"}})
            } else {
                json!({"name": name, "emptyDir": {}})
            }
        }
        _ => json!({"name": name, "persistentVolumeClaim": {"claimName": format!("{}-{name}", ids.release)}}),
    }
}

fn gen_env(r: &mut Rng, ids: &Ids, name: &str) -> Value {
    match (name, r.below(6)) {
        ("POD_NAMESPACE", _) => json!({"name": name, "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}}),
        ("API_TOKEN", _) | (_, 0) => json!({"name": name, "valueFrom": {"secretKeyRef": {"name": format!("{}-secrets", ids.release), "key": name.to_lowercase()}}}),
        (_, 1) => json!({"name": name, "valueFrom": {"configMapKeyRef": {"name": format!("{}-env", ids.release), "key": name.to_lowercase()}}}),
        _ => json!({"name": name, "value": r.pick(STRING_VALUES)}),
    }
}

fn gen_container(r: &mut Rng, ids: &Ids, name: &str, main: bool, volumes: &[&str], min_env: usize) -> Value {
    let mut c = json!({"name": name, "image": format!("registry.example.com/{}/{name}:{}", ids.release, r.pick(VERSIONS))});
    if r.chance(40) {
        c["imagePullPolicy"] = json!(r.pick(&["IfNotPresent", "Always"]));
    }
    if r.chance(30) {
        c["args"] = json!(r.subset(&["--port=8080", "--log-level=info", "--metrics", "--config=/etc/app/app.yaml"], 60));
    }
    if r.chance(10) {
        c["command"] = json!(["/bin/app"]);
    }
    let nenv = min_env.max(r.below(6)).min(ENV_NAMES.len());
    if nenv > 0 {
        let mut names = ENV_NAMES.to_vec();
        r.shuffle(&mut names);
        let mut env: Vec<Value> = names[..nenv].iter().map(|n| gen_env(r, ids, n)).collect();
        if r.chance(3) {
            // A chart that renders one variable twice (the last one wins in
            // a pod; the strategic merge patch has its own opinion).
            let twice = json!({"name": names[0], "value": "duplicate"});
            env.push(twice);
        }
        c["env"] = json!(env);
    }
    if nenv == 0 && r.chance(10) {
        c["env"] = json!([]);
    }
    if r.chance(10) {
        c["envFrom"] = json!([{"configMapRef": {"name": format!("{}-env", ids.release)}}]);
    }
    let ports: Vec<Value> = if main {
        if r.chance(4) {
            vec![
                json!({"name": "dns", "containerPort": 53, "protocol": "UDP"}),
                json!({"name": "dns-tcp", "containerPort": 53, "protocol": "TCP"}),
            ]
        } else {
            let mut p = vec![json!({"name": "http", "containerPort": 8080})];
            if r.chance(40) {
                p.push(json!({"name": "grpc", "containerPort": 9090}));
            }
            p
        }
    } else if r.chance(50) {
        vec![json!({"name": "metrics", "containerPort": 9100 + r.range(0, 20)})]
    } else {
        vec![]
    };
    if !ports.is_empty() {
        let ports: Vec<Value> = ports
            .into_iter()
            .map(|mut p| {
                if p.get("protocol").is_none() && r.chance(50) {
                    p["protocol"] = json!("TCP");
                }
                p
            })
            .collect();
        c["ports"] = json!(ports);
    }
    let mut mounts = Vec::new();
    for v in volumes {
        if r.chance(60) {
            mounts.push(gen_mount(r, ids, v));
        }
    }
    if !mounts.is_empty() {
        c["volumeMounts"] = json!(mounts);
    }
    if r.chance(60) {
        c["resources"] = gen_resources(r);
    } else if r.chance(20) {
        c["resources"] = json!({});
    }
    if main && r.chance(40) {
        c["readinessProbe"] = json!({"httpGet": {"path": "/ready", "port": "http"}, "periodSeconds": 10});
        if r.chance(50) {
            c["livenessProbe"] = json!({"httpGet": {"path": "/healthz", "port": 8080}, "initialDelaySeconds": 15});
        }
    }
    if r.chance(20) {
        c["securityContext"] = json!({"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true, "capabilities": {"drop": ["ALL"]}});
    }
    c
}

fn gen_mount(r: &mut Rng, ids: &Ids, volume: &str) -> Value {
    let mut m = json!({"name": volume, "mountPath": format!("/etc/{}/{volume}", ids.app)});
    if r.chance(40) {
        m["readOnly"] = json!(true);
    }
    m
}

fn gen_resources(r: &mut Rng) -> Value {
    let mut res = json!({});
    if r.chance(70) {
        // `cpu: 1` in YAML is an integer; the server stores "1".
        let cpu = if r.chance(25) { json!(r.range(1, 4)) } else { json!(r.pick(&["500m", "1", "2"])) };
        res["limits"] = json!({"cpu": cpu, "memory": r.pick(&["256Mi", "512Mi", "1Gi"])});
    }
    if r.chance(80) {
        res["requests"] = json!({"cpu": r.pick(&["50m", "100m", "250m"]), "memory": r.pick(&["64Mi", "128Mi"])});
    }
    res
}

// Path helpers (the generator's objects always have these shapes).

fn obj<'a>(v: &'a mut Value, path: &[&str]) -> &'a mut Map<String, Value> {
    let mut cur = v;
    for k in path {
        if !cur.get(*k).is_some_and(Value::is_object) {
            cur[*k] = json!({});
        }
        cur = cur.get_mut(*k).unwrap();
    }
    cur.as_object_mut().unwrap()
}

fn list<'a>(v: &'a mut Value, path: &[&str], key: &str) -> &'a mut Vec<Value> {
    let parent = obj(v, path);
    let l = parent.entry(key.to_owned()).or_insert_with(|| json!([]));
    if !l.is_array() {
        *l = json!([]);
    }
    l.as_array_mut().unwrap()
}

fn drop_if_empty(v: &mut Value, path: &[&str], key: &str) {
    let parent = obj(v, path);
    let empty = match parent.get(key) {
        Some(Value::Array(a)) => a.is_empty(),
        Some(Value::Object(m)) => m.is_empty(),
        _ => false,
    };
    if empty {
        parent.remove(key);
    }
}

fn annotations_mut(v: &mut Value) -> &mut Map<String, Value> {
    obj(v, &["metadata", "annotations"])
}

const POD: &[&str] = &["spec", "template", "spec"];

fn names(items: &[Value], key: &str) -> Vec<String> {
    items.iter().filter_map(|i| i.get(key).and_then(Value::as_str)).map(str::to_owned).collect()
}

fn edit_deployment(r: &mut Rng, ids: &Ids, d: &mut Value) -> Option<String> {
    let ncont = d.pointer("/spec/template/spec/containers").and_then(Value::as_array).map_or(0, Vec::len);
    let ci = r.below(ncont.max(1));
    let cpath = |i: usize| format!("/spec/template/spec/containers/{i}");
    match r.below(28) {
        0 | 1 => {
            let c = d.pointer_mut(&cpath(ci))?;
            let old = c["image"].as_str()?.to_owned();
            let new = format!("{}:{}", old.rsplit_once(':')?.0, r.pick(VERSIONS));
            (old != new).then(|| {
                c["image"] = json!(new);
                format!("container {ci} image -> {}", c["image"])
            })
        }
        2 => {
            let n = r.range(1, 6);
            if r.chance(20) {
                obj(d, &["spec"]).remove("replicas").map(|_| "replicas removed".to_owned())
            } else {
                d["spec"]["replicas"] = json!(n);
                Some(format!("replicas -> {n}"))
            }
        }
        3 | 4 => {
            // change an env var's value (or value <-> valueFrom)
            let c = d.pointer_mut(&cpath(ci))?;
            let env = c.get_mut("env")?.as_array_mut()?;
            if env.is_empty() {
                return None;
            }
            let i = r.below(env.len());
            let name = env[i]["name"].as_str()?.to_owned();
            let new = if r.chance(70) { json!({"name": name, "value": r.pick(STRING_VALUES)}) } else { gen_env(r, ids, &name) };
            (new != env[i]).then(|| {
                env[i] = new;
                format!("container {ci} env {name} changed")
            })
        }
        5 | 6 => {
            let c = d.pointer_mut(&cpath(ci))?;
            let existing = c.get("env").and_then(Value::as_array).map(|e| names(e, "name")).unwrap_or_default();
            let free: Vec<&str> = ENV_NAMES.iter().copied().filter(|n| !existing.iter().any(|e| e == n)).collect();
            if free.is_empty() {
                return None;
            }
            let name = r.pick(&free);
            let e = gen_env(r, ids, name);
            let env = list(c, &[], "env");
            let at = r.below(env.len() + 1);
            env.insert(at, e);
            Some(format!("container {ci} env {name} added at {at}"))
        }
        7 => {
            let c = d.pointer_mut(&cpath(ci))?;
            let env = c.get_mut("env")?.as_array_mut()?;
            if env.is_empty() {
                return None;
            }
            let i = r.below(env.len());
            let e = env.remove(i);
            drop_if_empty(c, &[], "env");
            Some(format!("container {ci} env {} removed", e["name"]))
        }
        8 => {
            let c = d.pointer_mut(&cpath(ci))?;
            let env = c.get_mut("env")?.as_array_mut()?;
            if env.len() < 2 {
                return None;
            }
            let before = env.clone();
            r.shuffle(env);
            (*env != before).then(|| format!("container {ci} env reordered"))
        }
        9 => {
            // add a container
            let existing = names(d.pointer("/spec/template/spec/containers")?.as_array()?, "name");
            let free: Vec<&str> = SIDECARS.iter().copied().filter(|n| !existing.iter().any(|e| e == n)).collect();
            if free.is_empty() {
                return None;
            }
            let name = r.pick(&free);
            let vols = d.pointer("/spec/template/spec/volumes").and_then(Value::as_array).map(|v| names(v, "name")).unwrap_or_default();
            let vols: Vec<&str> = vols.iter().map(String::as_str).collect();
            let c = gen_container(r, ids, name, false, &vols, 0);
            let cs = list(d, POD, "containers");
            let at = r.below(cs.len() + 1);
            cs.insert(at, c);
            Some(format!("container {name} added at {at}"))
        }
        10 => {
            let cs = list(d, POD, "containers");
            if cs.len() < 2 {
                return None;
            }
            let c = cs.remove(ci);
            Some(format!("container {} removed", c["name"]))
        }
        11 => {
            let cs = list(d, POD, "containers");
            if cs.len() < 2 {
                return None;
            }
            let before = cs.clone();
            r.shuffle(cs);
            (*cs != before).then(|| "containers reordered".to_owned())
        }
        12 => {
            // ports: add, remove or rename one
            let c = d.pointer_mut(&cpath(ci))?;
            let ports = list(c, &[], "ports");
            let desc = match r.below(3) {
                0 if !ports.iter().any(|p| p["containerPort"] == 8443) => {
                    ports.push(json!({"name": "https", "containerPort": 8443, "protocol": "TCP"}));
                    "port 8443 added"
                }
                1 if !ports.is_empty() => {
                    let i = r.below(ports.len());
                    ports.remove(i);
                    "port removed"
                }
                2 if !ports.is_empty() => {
                    let i = r.below(ports.len());
                    ports[i]["name"] = json!(format!("p{}", r.range(1, 99)));
                    "port renamed"
                }
                _ => "",
            };
            drop_if_empty(c, &[], "ports");
            (!desc.is_empty()).then(|| format!("container {ci} {desc}"))
        }
        13 => {
            // add a volume and mount it in a container
            let existing = d.pointer("/spec/template/spec/volumes").and_then(Value::as_array).map(|v| names(v, "name")).unwrap_or_default();
            let free: Vec<&str> = VOLUMES.iter().copied().filter(|n| !existing.iter().any(|e| e == n)).collect();
            if free.is_empty() {
                return None;
            }
            let name = r.pick(&free);
            let v = gen_volume(r, ids, name);
            let vols = list(d, POD, "volumes");
            let at = r.below(vols.len() + 1);
            vols.insert(at, v);
            let m = gen_mount(r, ids, name);
            let c = d.pointer_mut(&cpath(ci))?;
            list(c, &[], "volumeMounts").push(m);
            Some(format!("volume {name} added at {at}, mounted in container {ci}"))
        }
        14 => {
            // remove a volume and its mounts
            let vols = list(d, POD, "volumes");
            if vols.is_empty() {
                drop_if_empty(d, POD, "volumes");
                return None;
            }
            let i = r.below(vols.len());
            let v = vols.remove(i);
            drop_if_empty(d, POD, "volumes");
            let name = v["name"].clone();
            for c in list(d, POD, "containers").iter_mut() {
                if let Some(ms) = c.get_mut("volumeMounts").and_then(Value::as_array_mut) {
                    ms.retain(|m| m["name"] != name);
                }
                drop_if_empty(c, &[], "volumeMounts");
            }
            Some(format!("volume {name} removed"))
        }
        15 => {
            // change a volume's source (retainKeys)
            let vols = list(d, POD, "volumes");
            if vols.is_empty() {
                drop_if_empty(d, POD, "volumes");
                return None;
            }
            let i = r.below(vols.len());
            let name = vols[i]["name"].as_str()?.to_owned();
            let new = gen_volume(r, ids, &name);
            (new != vols[i]).then(|| {
                vols[i] = new;
                format!("volume {name} source changed")
            })
        }
        16 => {
            let labels = obj(d, &["metadata", "labels"]);
            match r.below(3) {
                0 => {
                    labels.insert("team".into(), json!(r.pick(&["core", "growth", "sre"])));
                    Some("label team set".into())
                }
                1 => labels.remove("helm.sh/chart").map(|_| "label helm.sh/chart removed".into()),
                _ => {
                    labels.insert("app.kubernetes.io/version".into(), json!(r.pick(VERSIONS)));
                    Some("label version set".into())
                }
            }
        }
        17 => {
            let a = obj(d, &["spec", "template", "metadata", "annotations"]);
            let out = if r.chance(60) {
                a.insert("checksum/config".into(), json!(hex(r, 64)));
                Some("template annotation checksum/config changed".into())
            } else {
                a.remove("prometheus.io/scrape").map(|_| "template annotation prometheus.io/scrape removed".into())
            };
            drop_if_empty(d, &["spec", "template", "metadata"], "annotations");
            out
        }
        18 => {
            let desc = match r.below(3) {
                0 => {
                    d["spec"]["strategy"] = json!({"type": "Recreate"});
                    "strategy -> Recreate"
                }
                1 => {
                    d["spec"]["strategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": r.pick(&[0, 1, 2]), "maxUnavailable": 1}});
                    "strategy -> RollingUpdate"
                }
                _ => {
                    obj(d, &["spec"]).remove("strategy")?;
                    "strategy removed"
                }
            };
            Some(desc.into())
        }
        19 => {
            let c = d.pointer_mut(&cpath(ci))?;
            if r.chance(30) {
                c.as_object_mut()?.remove("resources").map(|_| format!("container {ci} resources removed"))
            } else {
                c["resources"] = gen_resources(r);
                Some(format!("container {ci} resources changed"))
            }
        }
        20 => {
            let pod = obj(d, POD);
            if pod.remove("tolerations").is_some() {
                Some("tolerations removed".into())
            } else {
                pod.insert("tolerations".into(), json!([{"key": "spot", "operator": "Exists", "effect": "NoSchedule"}, {"key": "dedicated", "operator": "Equal", "value": ids.app, "effect": "NoExecute"}]));
                Some("tolerations set".into())
            }
        }
        21 => {
            let pod = obj(d, POD);
            if pod.remove("nodeSelector").is_some() {
                Some("nodeSelector removed".into())
            } else {
                pod.insert("nodeSelector".into(), json!({"kubernetes.io/os": "linux", "node.kubernetes.io/pool": "general"}));
                Some("nodeSelector set".into())
            }
        }
        22 => {
            let c = d.pointer_mut(&cpath(ci))?;
            c["args"] = json!(r.subset(&["--port=8080", "--log-level=debug", "--metrics", "--tracing"], 60));
            Some(format!("container {ci} args set"))
        }
        26 => {
            let pod = obj(d, POD);
            let tsc = pod.entry("topologySpreadConstraints").or_insert_with(|| json!([]));
            let items = tsc.as_array_mut()?;
            let out = if let Some(i) = items.iter().position(|t| t["topologyKey"] == "kubernetes.io/hostname") {
                if r.chance(50) {
                    items.remove(i);
                    "topologySpreadConstraint hostname removed"
                } else {
                    items[i]["maxSkew"] = json!(r.range(1, 3));
                    "topologySpreadConstraint hostname maxSkew set"
                }
            } else {
                items.insert(0, json!({"maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway", "labelSelector": {"matchLabels": ids.selector()}}));
                "topologySpreadConstraint hostname added"
            };
            drop_if_empty(d, POD, "topologySpreadConstraints");
            Some(out.into())
        }
        24 => {
            // Empty a list (a chart value rendered as `[]`).
            let which = r.below(4);
            let (path, key): (String, &str) = match which {
                0 => (cpath(ci), "env"),
                1 => (cpath(ci), "volumeMounts"),
                2 => ("/spec/template/spec".to_owned(), "imagePullSecrets"),
                _ => ("/spec/template/spec".to_owned(), "tolerations"),
            };
            let parent = d.pointer_mut(&path)?.as_object_mut()?;
            if parent.get(key) == Some(&json!([])) {
                return None;
            }
            parent.insert(key.to_owned(), json!([]));
            Some(format!("{path}/{key} emptied"))
        }
        25 => {
            // A field set to null (`key:` with nothing after it in YAML).
            let which = r.below(4);
            match which {
                0 => {
                    d.pointer_mut(&cpath(ci))?["resources"] = Value::Null;
                    Some(format!("container {ci} resources: null"))
                }
                1 => {
                    obj(d, POD).insert("nodeSelector".into(), Value::Null);
                    Some("nodeSelector: null".into())
                }
                2 => {
                    let env = d.pointer_mut(&cpath(ci))?.get_mut("env")?.as_array_mut()?;
                    let e = env.iter_mut().find(|e| e.get("value").is_some())?;
                    e["value"] = Value::Null;
                    Some(format!("container {ci} env {} value: null", e["name"]))
                }
                _ => {
                    obj(d, POD).insert("securityContext".into(), Value::Null);
                    Some("pod securityContext: null".into())
                }
            }
        }
        _ => {
            let pod = obj(d, POD);
            if pod.remove("imagePullSecrets").is_some() {
                Some("imagePullSecrets removed".into())
            } else {
                pod.insert("imagePullSecrets".into(), json!([{"name": "regcred"}, {"name": "mirror-cred"}]));
                Some("imagePullSecrets set".into())
            }
        }
    }
}

fn server_metadata(r: &mut Rng, v: &mut Value) {
    let m = obj(v, &["metadata"]);
    m.insert("uid".into(), json!(format!("6f1c2a9e-{:04x}-4b1d-9c3e-{:012x}", r.below(0xffff), r.next_u64() & 0xffff_ffff_ffff)));
    m.insert("resourceVersion".into(), json!(format!("{}", r.range(1000, 999_999))));
    m.insert("creationTimestamp".into(), json!("2026-11-20T08:15:00Z"));
    if r.chance(60) {
        let api_version = v["apiVersion"].clone();
        v["metadata"]["managedFields"] = json!([{
            "manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": api_version,
            "time": "2026-11-28T09:00:00Z", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:metadata": {"f:annotations": {".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {}}}}
        }]);
    }
}

fn live_deployment(r: &mut Rng, d: &mut Value, live: &mut Vec<String>) {
    d["metadata"]["generation"] = json!(r.range(1, 40));
    if r.chance(80) {
        // Server defaults.
        let spec = obj(d, &["spec"]);
        spec.entry("replicas").or_insert(json!(1));
        spec.insert("progressDeadlineSeconds".into(), json!(600));
        spec.entry("revisionHistoryLimit").or_insert(json!(10));
        spec.entry("strategy").or_insert(json!({"type": "RollingUpdate"}));
        if d["spec"]["strategy"]["type"] == "RollingUpdate" && d["spec"]["strategy"].get("rollingUpdate").is_none() {
            d["spec"]["strategy"]["rollingUpdate"] = json!({"maxSurge": "25%", "maxUnavailable": "25%"});
        }
        let pod = obj(d, POD);
        pod.insert("restartPolicy".into(), json!("Always"));
        pod.insert("dnsPolicy".into(), json!("ClusterFirst"));
        pod.insert("schedulerName".into(), json!("default-scheduler"));
        pod.entry("securityContext").or_insert(json!({}));
        pod.entry("terminationGracePeriodSeconds").or_insert(json!(30));
        for c in list(d, POD, "containers").iter_mut() {
            default_container(c);
        }
        if let Some(cs) = d.pointer_mut("/spec/template/spec/initContainers").and_then(Value::as_array_mut) {
            for c in cs {
                default_container(c);
            }
        }
        if let Some(vs) = d.pointer_mut("/spec/template/spec/volumes").and_then(Value::as_array_mut) {
            for v in vs {
                if let Some(cm) = v.get_mut("configMap") {
                    cm["defaultMode"] = json!(420);
                }
                if let Some(s) = v.get_mut("secret") {
                    s["defaultMode"] = json!(420);
                }
            }
        }
        live.push("server defaults".into());
    }
    if r.chance(70) {
        let n = d["spec"]["replicas"].as_i64().unwrap_or(1);
        d["status"] = json!({
            "observedGeneration": d["metadata"]["generation"], "replicas": n, "updatedReplicas": n,
            "readyReplicas": n, "availableReplicas": n,
            "conditions": [
                {"type": "Available", "status": "True", "lastUpdateTime": "2026-11-28T09:00:00Z", "lastTransitionTime": "2026-11-28T09:00:00Z", "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability."},
                {"type": "Progressing", "status": "True", "lastUpdateTime": "2026-11-28T09:00:00Z", "lastTransitionTime": "2026-11-20T08:15:00Z", "reason": "NewReplicaSetAvailable", "message": "ReplicaSet \"x-5d8f\" has successfully progressed."}
            ]
        });
        live.push("status".into());
    }
    if r.chance(70) {
        annotations_mut(d).insert("deployment.kubernetes.io/revision".into(), json!(format!("{}", r.range(1, 30))));
        live.push("revision annotation".into());
    }
    if r.chance(20) {
        d["spec"]["replicas"] = json!(r.range(2, 12));
        live.push(format!("replicas scaled to {}", d["spec"]["replicas"]));
    }
    if r.chance(15) {
        let cs = list(d, POD, "containers");
        cs.push(json!({
            "name": "istio-proxy", "image": "docker.io/istio/proxyv2:1.24.0", "args": ["proxy", "sidecar"],
            "ports": [{"containerPort": 15090, "name": "http-envoy-prom", "protocol": "TCP"}],
            "volumeMounts": [{"mountPath": "/etc/istio/proxy", "name": "istio-envoy"}]
        }));
        list(d, POD, "volumes").push(json!({"name": "istio-envoy", "emptyDir": {"medium": "Memory"}}));
        obj(d, &["spec", "template", "metadata", "annotations"]).insert("sidecar.istio.io/status".into(), json!("{\"containers\":[\"istio-proxy\"],\"volumes\":[\"istio-envoy\"]}"));
        live.push("istio sidecar injected".into());
    }
    if r.chance(15) {
        obj(d, &["spec", "template", "metadata", "annotations"]).insert("kubectl.kubernetes.io/restartedAt".into(), json!("2026-11-29T11:02:03Z"));
        live.push("rollout restart".into());
    }
    if r.chance(10) {
        let cs = list(d, POD, "containers");
        let i = r.below(cs.len());
        cs[i]["image"] = json!("registry.example.com/hotfix:patched");
        live.push(format!("container {i} image set live"));
    }
    if r.chance(10) {
        let cs = list(d, POD, "containers");
        let i = r.below(cs.len());
        let env = list(&mut cs[i], &[], "env");
        if let Some(e) = env.first_mut().filter(|e| e.get("value").is_some()) {
            e["value"] = json!("changed-live");
            live.push(format!("container {i} first env value changed live"));
        } else {
            env.push(json!({"name": "DEBUG", "value": "1"}));
            live.push(format!("container {i} env DEBUG added live"));
        }
    }
    if r.chance(10) {
        obj(d, &["metadata", "labels"]).insert("cost-center".into(), json!("cc-42"));
        live.push("live label".into());
    }
    if r.chance(6) {
        let cs = list(d, POD, "containers");
        let i = r.below(cs.len());
        if let Some(env) = cs[i].get_mut("env").and_then(Value::as_array_mut).filter(|e| !e.is_empty()) {
            let e = env.remove(0);
            live.push(format!("container {i} env {} removed live", e["name"]));
        }
    }
    if r.chance(5) {
        obj(d, POD).insert("tolerations".into(), json!([{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]));
        live.push("tolerations set live".into());
    }
}

fn default_container(c: &mut Value) {
    let m = c.as_object_mut().unwrap();
    m.entry("imagePullPolicy").or_insert(json!("IfNotPresent"));
    m.entry("resources").or_insert(json!({}));
    m.insert("terminationMessagePath".into(), json!("/dev/termination-log"));
    m.insert("terminationMessagePolicy".into(), json!("File"));
    if let Some(ps) = m.get_mut("ports").and_then(Value::as_array_mut) {
        for p in ps {
            p.as_object_mut().unwrap().entry("protocol").or_insert(json!("TCP"));
        }
    }
    for probe in ["readinessProbe", "livenessProbe"] {
        if let Some(p) = m.get_mut(probe).and_then(Value::as_object_mut) {
            p.entry("timeoutSeconds").or_insert(json!(1));
            p.entry("successThreshold").or_insert(json!(1));
            p.entry("failureThreshold").or_insert(json!(3));
            p.entry("periodSeconds").or_insert(json!(10));
            if let Some(h) = p.get_mut("httpGet").and_then(Value::as_object_mut) {
                h.entry("scheme").or_insert(json!("HTTP"));
            }
        }
    }
}

/// Whether a merge list of the object holds two items with one merge key.
fn has_duplicate_merge_keys(v: &Value) -> bool {
    let dup = |items: Option<&Value>, key: &str| {
        let Some(items) = items.and_then(Value::as_array) else { return false };
        let keys: Vec<&Value> = items.iter().filter_map(|i| i.get(key)).collect();
        keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k))
    };
    let containers = v.pointer("/spec/template/spec/containers").and_then(Value::as_array);
    containers.into_iter().flatten().any(|c| dup(c.get("ports"), "containerPort") || dup(c.get("env"), "name") || dup(c.get("volumeMounts"), "mountPath"))
        || (v["kind"] == "Service" && dup(v.pointer("/spec/ports"), "port"))
        || dup(v.pointer("/spec/template/spec/topologySpreadConstraints"), "topologyKey")
}

// --- Service ---------------------------------------------------------------

fn gen_service(r: &mut Rng, ids: &Ids) -> Value {
    let target = if r.chance(50) { json!("http") } else { json!(8080) };
    let mut ports = vec![json!({"name": "http", "port": 80, "targetPort": target})];
    if r.chance(40) {
        ports.push(json!({"name": "grpc", "port": 9090, "targetPort": 9090}));
    }
    if r.chance(6) {
        ports = vec![json!({"name": "dns", "port": 53, "protocol": "UDP"}), json!({"name": "dns-tcp", "port": 53, "protocol": "TCP"})];
    }
    for p in &mut ports {
        if p.get("protocol").is_none() && r.chance(50) {
            p["protocol"] = json!("TCP");
        }
    }
    let mut spec = json!({"selector": ids.selector(), "ports": ports});
    match r.below(4) {
        0 => spec["type"] = json!("NodePort"),
        1 => spec["type"] = json!("ClusterIP"),
        _ => {}
    }
    if r.chance(15) {
        spec["sessionAffinity"] = json!("ClientIP");
    }
    json!({"apiVersion": "v1", "kind": "Service", "metadata": metadata(r, ids), "spec": spec})
}

fn edit_service(r: &mut Rng, s: &mut Value) -> Option<String> {
    match r.below(8) {
        0 => {
            let ports = list(s, &["spec"], "ports");
            if ports.iter().any(|p| p["port"] == 443) {
                return None;
            }
            let at = r.below(ports.len() + 1);
            ports.insert(at, json!({"name": "https", "port": 443, "targetPort": 8443, "protocol": "TCP"}));
            Some(format!("port 443 added at {at}"))
        }
        1 => {
            let ports = list(s, &["spec"], "ports");
            if ports.len() < 2 {
                return None;
            }
            let i = r.below(ports.len());
            let p = ports.remove(i);
            Some(format!("port {} removed", p["port"]))
        }
        2 => {
            let ports = list(s, &["spec"], "ports");
            let i = r.below(ports.len());
            let new = if ports[i]["targetPort"].is_string() { json!(8081) } else { json!("web") };
            ports[i]["targetPort"] = new;
            Some(format!("port {i} targetPort changed"))
        }
        3 => {
            let ports = list(s, &["spec"], "ports");
            if ports.len() < 2 {
                return None;
            }
            ports.reverse();
            Some("ports reordered".into())
        }
        4 => {
            let t = r.pick(&["NodePort", "ClusterIP"]);
            if s["spec"]["type"] == t {
                obj(s, &["spec"]).remove("type");
                Some("type removed".into())
            } else {
                s["spec"]["type"] = json!(t);
                Some(format!("type -> {t}"))
            }
        }
        5 => {
            obj(s, &["spec", "selector"]).insert("app.kubernetes.io/component".into(), json!("server"));
            Some("selector component added".into())
        }
        6 => {
            let a = annotations_mut(s);
            a.insert("service.beta.kubernetes.io/aws-load-balancer-internal".into(), json!("true"));
            Some("annotation added".into())
        }
        _ => {
            let spec = obj(s, &["spec"]);
            if spec.remove("sessionAffinity").is_some() {
                Some("sessionAffinity removed".into())
            } else {
                spec.insert("sessionAffinity".into(), json!("ClientIP"));
                Some("sessionAffinity set".into())
            }
        }
    }
}

fn live_service(r: &mut Rng, s: &mut Value, live: &mut Vec<String>) {
    if r.chance(85) {
        let ip = format!("10.96.{}.{}", r.range(0, 255), r.range(1, 254));
        let node_ports = matches!(s["spec"]["type"].as_str(), Some("NodePort"));
        let spec = obj(s, &["spec"]);
        spec.insert("clusterIP".into(), json!(ip));
        spec.insert("clusterIPs".into(), json!([ip]));
        spec.insert("ipFamilies".into(), json!(["IPv4"]));
        spec.insert("ipFamilyPolicy".into(), json!("SingleStack"));
        spec.insert("internalTrafficPolicy".into(), json!("Cluster"));
        spec.entry("sessionAffinity").or_insert(json!("None"));
        spec.entry("type").or_insert(json!("ClusterIP"));
        if node_ports {
            spec.insert("externalTrafficPolicy".into(), json!("Cluster"));
        }
        let mut next_node_port = 30000 + r.range(0, 2000);
        for p in list(s, &["spec"], "ports") {
            let m = p.as_object_mut().unwrap();
            m.entry("protocol").or_insert(json!("TCP"));
            let port = m["port"].clone();
            m.entry("targetPort").or_insert(port);
            if node_ports {
                m.insert("nodePort".into(), json!(next_node_port));
                next_node_port += 1;
            }
        }
        s["status"] = json!({"loadBalancer": {}});
        live.push("server defaults".into());
    }
    if r.chance(10) {
        list(s, &["spec"], "ports").push(json!({"name": "debug", "port": 6060, "protocol": "TCP", "targetPort": 6060}));
        live.push("port 6060 added live".into());
    }
}

// --- ConfigMap -------------------------------------------------------------

const CM_KEYS: &[&str] = &["app.yaml", "LOG_LEVEL", "nginx.conf", "feature-flags.json", "motd", "empty"];

fn cm_value(r: &mut Rng, key: &str) -> Value {
    json!(match key {
        "app.yaml" => format!("server:\n  port: {}\n  name: \"app\"\nlogging:\n  level: {}\n", r.range(8000, 8100), r.pick(&["info", "debug"])),
        "nginx.conf" => "location / {\n\tproxy_pass http://127.0.0.1:8080;\n\tadd_header X-Frame-Options \"SAMEORIGIN\";\n}\n".to_owned(),
        "feature-flags.json" => format!("{{\"beta\": {}, \"html\": \"<b>&amp;</b>\"}}", r.pick(&["true", "false"])),
        "motd" => r.pick(&["Welcome — bienvenue ☕", "line\u{2028}separator", "control \u{1} char"]).to_owned(),
        "empty" => String::new(),
        _ => r.pick(STRING_VALUES).to_owned(),
    })
}

fn gen_configmap(r: &mut Rng, ids: &Ids) -> Value {
    let mut data = Map::new();
    for k in r.subset(CM_KEYS, 60) {
        data.insert(k.to_owned(), cm_value(r, k));
    }
    let mut cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata(r, ids)});
    if !data.is_empty() || r.chance(50) {
        cm["data"] = Value::Object(data);
    }
    cm
}

fn edit_configmap(r: &mut Rng, cm: &mut Value) -> Option<String> {
    let key = r.pick(CM_KEYS);
    match r.below(4) {
        0 | 1 => {
            let v = cm_value(r, key);
            let data = obj(cm, &["data"]);
            (data.get(key) != Some(&v)).then(|| {
                data.insert(key.to_owned(), v);
                format!("data {key} set")
            })
        }
        2 => {
            let out = obj(cm, &["data"]).remove(key).map(|_| format!("data {key} removed"));
            drop_if_empty(cm, &[], "data");
            out
        }
        _ => {
            let labels = obj(cm, &["metadata", "labels"]);
            if labels.remove("app.kubernetes.io/managed-by").is_some() {
                Some("label managed-by removed".into())
            } else {
                labels.insert("app.kubernetes.io/part-of".into(), json!("suite"));
                Some("label part-of added".into())
            }
        }
    }
}

fn live_configmap(r: &mut Rng, cm: &mut Value, live: &mut Vec<String>) {
    if r.chance(30) {
        obj(cm, &["data"]).insert("added-by-operator".into(), json!("yes"));
        live.push("data key added live".into());
    }
    if r.chance(20) {
        obj(cm, &["metadata", "labels"]).insert("cost-center".into(), json!("cc-42"));
        live.push("live label".into());
    }
}

// --- ServiceMonitor (custom resource) --------------------------------------

fn gen_endpoint(r: &mut Rng, port: &str) -> Value {
    let mut e = json!({"port": port, "interval": r.pick(&["15s", "30s", "1m"]), "path": "/metrics"});
    if r.chance(30) {
        e["scheme"] = json!("https");
        e["tlsConfig"] = json!({"insecureSkipVerify": true});
    }
    if r.chance(30) {
        e["relabelings"] = json!([{"sourceLabels": ["__meta_kubernetes_pod_node_name"], "targetLabel": "node", "action": "replace"}]);
    }
    e
}

fn gen_servicemonitor(r: &mut Rng, ids: &Ids) -> Value {
    let mut endpoints = vec![gen_endpoint(r, "metrics")];
    if r.chance(40) {
        endpoints.push(gen_endpoint(r, "http"));
    }
    let mut spec = json!({"selector": {"matchLabels": ids.selector()}, "endpoints": endpoints});
    if r.chance(50) {
        spec["namespaceSelector"] = json!({"matchNames": [ids.namespace]});
    }
    if r.chance(30) {
        spec["jobLabel"] = json!("app.kubernetes.io/name");
    }
    json!({"apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor", "metadata": metadata(r, ids), "spec": spec})
}

fn edit_servicemonitor(r: &mut Rng, sm: &mut Value) -> Option<String> {
    match r.below(7) {
        6 => {
            // Limits: a JSON merge patch carries numbers as float64, so an
            // integer above 2^53 is rounded on the way (rarely).
            let n: u64 = if r.chance(20) { 9_007_199_254_740_993 } else { r.pick(&[5000, 10_000, 10_737_418_240]) };
            obj(sm, &["spec"]).insert("sampleLimit".into(), json!(n));
            Some(format!("sampleLimit -> {n}"))
        }
        0 => {
            let eps = list(sm, &["spec"], "endpoints");
            let i = r.below(eps.len());
            let new = r.pick(&["10s", "45s", "2m"]);
            eps[i]["interval"] = json!(new);
            Some(format!("endpoint {i} interval -> {new}"))
        }
        1 => {
            let e = gen_endpoint(r, "admin");
            let eps = list(sm, &["spec"], "endpoints");
            if eps.iter().any(|x| x["port"] == "admin") {
                return None;
            }
            eps.push(e);
            Some("endpoint admin added".into())
        }
        2 => {
            let eps = list(sm, &["spec"], "endpoints");
            if eps.len() < 2 {
                return None;
            }
            eps.remove(0);
            Some("endpoint 0 removed".into())
        }
        3 => {
            let spec = obj(sm, &["spec"]);
            if spec.remove("jobLabel").is_some() {
                Some("jobLabel removed".into())
            } else {
                spec.insert("jobLabel".into(), json!("app"));
                Some("jobLabel set".into())
            }
        }
        4 => {
            obj(sm, &["metadata", "labels"]).insert("release".into(), json!("kube-prometheus-stack"));
            Some("label release added".into())
        }
        _ => {
            let spec = obj(sm, &["spec"]);
            if spec.remove("namespaceSelector").is_some() {
                Some("namespaceSelector removed".into())
            } else {
                spec.insert("namespaceSelector".into(), json!({"any": true}));
                Some("namespaceSelector any".into())
            }
        }
    }
}

fn live_servicemonitor(r: &mut Rng, sm: &mut Value, live: &mut Vec<String>) {
    sm["metadata"]["generation"] = json!(r.range(1, 9));
    if r.chance(10) && obj(sm, &["spec"]).remove("jobLabel").is_some() {
        live.push("spec.jobLabel removed live".into());
    }
    if r.chance(20) {
        obj(sm, &["spec"]).insert("sampleLimit".into(), json!(10000));
        live.push("spec.sampleLimit set live".into());
    }
    if r.chance(20) {
        let eps = list(sm, &["spec"], "endpoints");
        eps[0]["honorLabels"] = json!(true);
        live.push("endpoint 0 honorLabels set live".into());
    }
}
