#!/usr/bin/env python3
"""Write a large, realistic Helm release record for benches/decode.sh (python3, stdlib only).

    python3 benches/make_record.py OUTDIR

Writes into OUTDIR:
  secret.json   the record's Secret as `kubectl get secret sh.helm.release.v1.NAME.vN -o json`
                prints it (labels name/owner/status/version, type helm.sh/release.v1)
  payload.txt   data.release alone, as `kubectl get secret ... -o jsonpath='{.data.release}'`
                prints it: base64(Helm's base64(gzip level 9(record JSON))), no newline
  record.json   the record JSON itself (Go's encoding/json bytes), for reference
and prints the sizes as `key=value` lines (json_bytes, gzip_bytes, helm_base64_bytes,
payload_bytes, ratio, documents, templates, seconds).

The record is shaped like one Helm 4 writes (name, info, chart{metadata, lock, templates,
values, schema, schemamodtime, files, modtime}, config, manifest, hooks, version, namespace,
apply_method) for an umbrella chart in the style of kube-prometheus-stack: many components,
each rendering a ServiceAccount, ConfigMap, Service, Deployment, sometimes a Secret (random
key material), a PrometheusRule or a Grafana dashboard ConfigMap; `---\\n# Source: ...`
headers as Helm writes them. Names, hashes, digests and blobs are pseudo-random from a fixed
seed, so the output is the same on every run (given the same zlib), and the record compresses
about as well as a real large chart (5-10x).

Size: the number of components is searched so that the gzip stream (what Helm stores, before
its base64) is between 0.9 and 1.0 MiB, as the benchmark issue asks ("a record near 1 MiB
compressed"). NOTE: a real stored record this big could not exist: Kubernetes caps a Secret's
data at 1 MiB, and what the Secret holds is Helm's base64 of the gzip, 4/3 of it (about
1.26 MiB here; `release decode` reports it as ~126% of the limit). Helm would fail to store it (and the SQL driver would be the only way to keep
it). The benchmark uses it anyway as a worst case a little above anything Kubernetes admits.

Encoding as in tests/fixtures/generate.py: JSON like Go's encoding/json (compact, key order
kept, <>& escaped), gzip framing of Go's gzip.NewWriterLevel(BestCompression) (mtime 0, XFL 2,
OS 255), standard base64.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import struct
import sys
import time
import zlib

SEED = 20261129
RELEASE, NAMESPACE, REVISION = "observability", "monitoring", 7
CHART_NAME, CHART_VERSION, APP_VERSION = "platform-stack", "61.3.2", "v0.75.2"
TARGET_LOW, TARGET_HIGH = int(0.9 * 1024 * 1024), 1024 * 1024  # gzip bytes
TARGET = int(0.95 * 1024 * 1024)

# --------------------------------------------------------------------------
# encoding (same as tests/fixtures/generate.py)


def go_json(obj) -> bytes:
    """json.Marshal's bytes (key order as given)."""
    s = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    for a, b in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                 ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        s = s.replace(a, b)
    return s.encode()


def go_gzip(data: bytes) -> bytes:
    """gzip.NewWriterLevel(BestCompression) framing: mtime 0, XFL 2, OS 255."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = c.compress(data) + c.flush()
    return (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + body
            + struct.pack("<II", zlib.crc32(data) & 0xFFFFFFFF, len(data) & 0xFFFFFFFF))


def b64(data: str | bytes) -> str:
    return base64.b64encode(data.encode() if isinstance(data, str) else data).decode()


# --------------------------------------------------------------------------
# vocabulary

AREAS = ["alertmanager", "prometheus", "grafana", "kube-state-metrics", "node-exporter", "operator",
         "thanos", "loki", "tempo", "admission-webhook", "gateway", "billing", "checkout", "cart",
         "search", "catalog", "auth", "users", "orders", "payments", "inventory", "shipping",
         "notifications", "recommendations", "ads", "email", "frontend", "ingester", "querier",
         "compactor", "distributor", "ruler", "store-gateway", "blackbox-exporter", "pushgateway",
         "otel-collector", "vector", "fluent-bit", "cert-manager", "external-dns", "keda", "vpa"]
ROLES = ["api", "worker", "scheduler", "sidecar", "proxy", "cache", "sync", "indexer", "reader",
         "writer", "controller", "agent", "relay", "exporter", "backend", "web", "cron", "broker"]
REGISTRIES = ["quay.io/prometheus", "registry.k8s.io/kube-state-metrics", "docker.io/grafana",
              "ghcr.io/example-org", "registry.example.com/platform", "quay.io/thanos",
              "public.ecr.aws/example", "gcr.io/example-project"]
METRICS = ["http_requests_total", "http_request_duration_seconds_bucket", "process_cpu_seconds_total",
           "container_memory_working_set_bytes", "up", "kube_pod_container_status_restarts_total",
           "grpc_server_handled_total", "queue_depth", "cache_hits_total", "cache_misses_total",
           "go_goroutines", "job_failures_total", "db_query_duration_seconds_bucket"]
WORDS = ("the of and to in is for on with as by at from this that be are it or not an which "
         "service request latency error budget burn rate alert page ticket replica shard queue "
         "retry backoff timeout window scrape target rule record dashboard panel query label "
         "namespace pod container node cluster volume claim storage bucket object tenant").split()

T0 = "2026-11-29T10:14:07.318402117Z"
T_FIRST = "2026-03-02T08:41:55.902133411Z"
T_LAST = "2026-11-29T10:14:09.661283004Z"


class Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def hexs(self, n: int) -> str:
        return "".join(self.r.choice("0123456789abcdef") for _ in range(n))

    def blob(self, n: int) -> bytes:
        return bytes(self.r.getrandbits(8) for _ in range(n))

    def sentence(self, lo: int = 6, hi: int = 16) -> str:
        w = [self.r.choice(WORDS) for _ in range(self.r.randint(lo, hi))]
        return " ".join(w).capitalize() + "."

    def modtime(self) -> str:
        return f"2026-11-2{self.r.randint(0, 8)}T{self.r.randint(0, 23):02d}:{self.r.randint(0, 59):02d}:" \
               f"{self.r.randint(0, 59):02d}.{self.r.randint(0, 999999999):09d}Z"


# --------------------------------------------------------------------------
# one component: values, templates (chart source) and rendered documents


def component(g: Gen, i: int) -> dict:
    r = g.r
    area, role = r.choice(AREAS), r.choice(ROLES)
    short = f"{area}-{role}-{g.hexs(4)}"
    name = f"{RELEASE}-{short}"
    registry = r.choice(REGISTRIES)
    image = f"{registry}/{area}-{role}"
    tag = f"v{r.randint(0, 3)}.{r.randint(0, 40)}.{r.randint(0, 12)}"
    digest = "sha256:" + g.hexs(64)
    port = r.choice([8080, 9090, 9093, 3000, 8443, 9100, 10250, 4317, 8000, 5000])
    replicas = r.choice([1, 1, 2, 2, 3, 5])
    cpu_req, mem_req = r.choice(["50m", "100m", "250m", "500m"]), r.choice(["64Mi", "128Mi", "256Mi", "512Mi"])
    cpu_lim, mem_lim = r.choice(["500m", "1", "2"]), r.choice(["256Mi", "512Mi", "1Gi", "2Gi"])
    env = {f"{area.upper().replace('-', '_')}_{k}": v for k, v in (
        ("LOG_LEVEL", r.choice(["info", "debug", "warn"])),
        ("LISTEN_ADDR", f":{port}"),
        ("UPSTREAM_URL", f"http://{RELEASE}-{r.choice(AREAS)}.{NAMESPACE}.svc:{r.choice([80, 8080, 9090])}"),
        ("CACHE_TTL", f"{r.randint(5, 600)}s"),
        ("SHARD_ID", str(i % 16)),
        ("FEATURE_FLAGS", ",".join(r.sample(["a", "b", "gzip", "tls", "otel", "pprof", "v2api", "batching"], 3))),
    )}
    values = {
        "enabled": True,
        "replicaCount": replicas,
        "image": {"repository": image, "tag": tag, "digest": digest, "pullPolicy": "IfNotPresent"},
        "service": {"type": "ClusterIP", "port": port, "annotations": {}},
        "resources": {"requests": {"cpu": cpu_req, "memory": mem_req}, "limits": {"cpu": cpu_lim, "memory": mem_lim}},
        "env": env,
        "nodeSelector": {"kubernetes.io/os": "linux"},
        "tolerations": [],
        "podAnnotations": {"prometheus.io/scrape": "true", "prometheus.io/port": str(port)},
        "serviceMonitor": {"enabled": r.random() < 0.6, "interval": r.choice(["15s", "30s", "60s"])},
    }
    labels = (f"    app.kubernetes.io/name: {short}\n"
              f"    app.kubernetes.io/instance: {RELEASE}\n"
              f"    app.kubernetes.io/version: \"{tag}\"\n"
              f"    app.kubernetes.io/component: {role}\n"
              f"    app.kubernetes.io/part-of: {area}\n"
              f"    app.kubernetes.io/managed-by: Helm\n"
              f"    helm.sh/chart: {CHART_NAME}-{CHART_VERSION}\n")
    docs = []  # (source path, text)
    tdir = f"templates/{area}/{short}"

    # ConfigMap with an application config
    conf_lines = [f"# {g.sentence()}", "[server]", f"listen = \":{port}\"", f"read_timeout = \"{r.randint(1, 60)}s\"",
                  f"max_conns = {r.randint(64, 8192)}", "[upstreams]"]
    for _ in range(r.randint(3, 12)):
        conf_lines.append(f"{r.choice(AREAS)}_{g.hexs(3)} = \"http://{RELEASE}-{r.choice(AREAS)}-{r.choice(ROLES)}."
                          f"{NAMESPACE}.svc:{r.choice([80, 8080, 9090])}/{r.choice(['v1', 'v2', 'api', 'push'])}\"")
    conf_lines.append("[limits]")
    for k in r.sample(["rate", "burst", "max_body_bytes", "max_series", "max_labels", "max_samples", "retention_days", "concurrency"], 5):
        conf_lines.append(f"{k} = {r.randint(1, 100000)}")
    conf = "\n".join(conf_lines) + "\n"
    cm = (f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}-config\n  namespace: {NAMESPACE}\n  labels:\n{labels}"
          f"data:\n  config.toml: |\n" + "".join(f"    {line}\n" for line in conf.splitlines()))
    docs.append((f"{tdir}/configmap.yaml", cm))
    conf_hash = hashlib.sha256(cm.encode()).hexdigest()

    docs.append((f"{tdir}/serviceaccount.yaml",
                 f"apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {name}\n  namespace: {NAMESPACE}\n  labels:\n{labels}"
                 f"automountServiceAccountToken: {str(r.random() < 0.5).lower()}\n"))

    secret_hash = None
    if r.random() < 0.35:
        # TLS-ish key material: random bytes, incompressible like real keys and certs
        sec = (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {name}-tls\n  namespace: {NAMESPACE}\n  labels:\n{labels}"
               f"type: kubernetes.io/tls\ndata:\n"
               f"  ca.crt: {b64(g.blob(r.randint(300, 700)))}\n"
               f"  tls.crt: {b64(g.blob(r.randint(500, 900)))}\n"
               f"  tls.key: {b64(g.blob(r.randint(120, 240)))}\n")
        docs.append((f"{tdir}/secret.yaml", sec))
        secret_hash = hashlib.sha256(sec.encode()).hexdigest()

    docs.append((f"{tdir}/service.yaml",
                 f"apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\n  namespace: {NAMESPACE}\n  labels:\n{labels}"
                 f"spec:\n  type: ClusterIP\n  ports:\n    - name: http\n      port: {port}\n      targetPort: http\n      protocol: TCP\n"
                 f"  selector:\n    app.kubernetes.io/name: {short}\n    app.kubernetes.io/instance: {RELEASE}\n"))

    pod_labels = "".join(f"    {line}\n" for line in labels.splitlines())
    env_yaml = "".join(f"            - name: {k}\n              value: {json.dumps(v)}\n" for k, v in env.items())
    ann = f"        checksum/config: {conf_hash}\n"
    if secret_hash:
        ann += f"        checksum/secret: {secret_hash}\n"
    dep = (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  namespace: {NAMESPACE}\n  labels:\n{labels}"
           f"spec:\n  replicas: {replicas}\n  revisionHistoryLimit: 10\n  selector:\n    matchLabels:\n"
           f"      app.kubernetes.io/name: {short}\n      app.kubernetes.io/instance: {RELEASE}\n"
           f"  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 25%\n      maxUnavailable: 0\n"
           f"  template:\n    metadata:\n      labels:\n{pod_labels}"
           f"      annotations:\n{ann}        prometheus.io/scrape: \"true\"\n        prometheus.io/port: \"{port}\"\n"
           f"    spec:\n      serviceAccountName: {name}\n      securityContext:\n        runAsNonRoot: true\n"
           f"        runAsUser: {r.choice([65534, 1000, 10001, 472])}\n        fsGroup: {r.choice([65534, 2000, 472])}\n"
           f"      containers:\n        - name: {role}\n          image: \"{image}:{tag}@{digest}\"\n"
           f"          imagePullPolicy: IfNotPresent\n          args:\n"
           f"            - --config.file=/etc/{area}/config.toml\n            - --web.listen-address=:{port}\n"
           f"            - --log.format={r.choice(['logfmt', 'json'])}\n"
           f"          ports:\n            - name: http\n              containerPort: {port}\n              protocol: TCP\n"
           f"          env:\n{env_yaml}"
           f"          livenessProbe:\n            httpGet:\n              path: /-/healthy\n              port: http\n"
           f"            initialDelaySeconds: {r.randint(5, 60)}\n            periodSeconds: {r.choice([10, 15, 30])}\n"
           f"          readinessProbe:\n            httpGet:\n              path: /-/ready\n              port: http\n"
           f"          resources:\n            requests:\n              cpu: {cpu_req}\n              memory: {mem_req}\n"
           f"            limits:\n              cpu: {cpu_lim}\n              memory: {mem_lim}\n"
           f"          volumeMounts:\n            - name: config\n              mountPath: /etc/{area}\n"
           f"      volumes:\n        - name: config\n          configMap:\n            name: {name}-config\n"
           + (f"        - name: tls\n          secret:\n            secretName: {name}-tls\n" if secret_hash else "")
           + "      nodeSelector:\n        kubernetes.io/os: linux\n")
    docs.append((f"{tdir}/deployment.yaml", dep))

    if r.random() < 0.4:
        rules = []
        for _ in range(r.randint(3, 10)):
            metric = r.choice(METRICS)
            rules.append(
                f"        - alert: {area.title().replace('-', '')}{r.choice(['High', 'Low', 'Absent', 'Flapping'])}"
                f"{r.choice(['Latency', 'ErrorRate', 'Restarts', 'Saturation', 'Lag'])}{g.hexs(2).upper()}\n"
                f"          expr: |\n            sum by (namespace, pod) (rate({metric}{{job=\"{name}\",namespace=\"{NAMESPACE}\"}}[{r.choice(['1m', '5m', '15m'])}]))"
                f" {r.choice(['>', '<', '>='])} {r.randint(1, 1000) / 10}\n"
                f"          for: {r.choice(['1m', '5m', '10m', '15m'])}\n"
                f"          labels:\n            severity: {r.choice(['warning', 'critical', 'info'])}\n"
                f"          annotations:\n            summary: {json.dumps(g.sentence(4, 9))}\n"
                f"            description: {json.dumps(g.sentence(10, 24))}\n"
                f"            runbook_url: https://runbooks.example.com/{area}/{g.hexs(8)}\n")
        docs.append((f"{tdir}/prometheusrule.yaml",
                     f"apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: {name}-rules\n"
                     f"  namespace: {NAMESPACE}\n  labels:\n{labels}spec:\n  groups:\n    - name: {short}.rules\n      rules:\n"
                     + "".join(rules)))

    if r.random() < 0.2:
        docs.append((f"{tdir}/dashboard.yaml", dashboard_cm(g, name, short, labels)))

    # Chart source of this component's templates: the rendered text with the obvious
    # values turned back into template actions (a realistic mix of YAML and {{ }}).
    # Like an umbrella chart, a share of the components have templates of their own;
    # the others render shared ones (kept in the first components' lists).
    templates = []
    own_templates = i < 8 or r.random() < 0.4
    for path, text in docs if own_templates else []:
        t = (text.replace(name, "{{ include \"" + CHART_NAME + ".fullname\" . }}-" + short.split("-")[-1])
                 .replace(NAMESPACE, "{{ .Release.Namespace }}")
                 .replace(f"{image}:{tag}@{digest}", "{{ .Values." + short.replace("-", "_") + ".image.repository }}:"
                          "{{ .Values." + short.replace("-", "_") + ".image.tag }}")
                 .replace(f"  labels:\n{labels}", "  labels:\n    {{- include \"" + CHART_NAME + ".labels\" . | nindent 4 }}\n"))
        t = "{{- if .Values." + short.replace("-", "_") + ".enabled }}\n" + t + "{{- end }}\n"
        templates.append({"name": path, "data": b64(t), "modtime": g.modtime()})
    return {"short": short, "values": values, "docs": docs, "templates": templates}


def dashboard_cm(g: Gen, name: str, short: str, labels: str) -> str:
    r = g.r
    panels = []
    for p in range(r.randint(6, 18)):
        metric = r.choice(METRICS)
        panels.append({
            "id": p + 1, "type": r.choice(["timeseries", "stat", "gauge", "table", "heatmap"]),
            "title": g.sentence(2, 5).rstrip("."), "datasource": {"type": "prometheus", "uid": "${datasource}"},
            "gridPos": {"h": 8, "w": r.choice([6, 8, 12, 24]), "x": r.choice([0, 6, 8, 12]), "y": p * 8},
            "targets": [{"expr": f"sum(rate({metric}{{job=\"{name}\",cluster=\"$cluster\"}}[$__rate_interval])) by ({r.choice(['pod', 'instance', 'code', 'le'])})",
                         "legendFormat": "{{" + r.choice(["pod", "instance", "code"]) + "}}", "refId": "A"}],
            "fieldConfig": {"defaults": {"unit": r.choice(["short", "s", "bytes", "percentunit", "reqps"]),
                                         "thresholds": {"mode": "absolute", "steps": [
                                             {"color": "green", "value": None}, {"color": "red", "value": r.randint(50, 99)}]}},
                            "overrides": []},
            "options": {"legend": {"displayMode": "table", "placement": "bottom", "showLegend": True},
                        "tooltip": {"mode": "multi", "sort": "desc"}},
        })
    dash = {"uid": g.hexs(9), "title": f"{short} / Overview", "tags": ["platform-stack", short.split("-")[0]],
            "timezone": "utc", "schemaVersion": 39, "version": r.randint(1, 40), "refresh": "30s",
            "templating": {"list": [{"name": "datasource", "type": "datasource", "query": "prometheus"},
                                    {"name": "cluster", "type": "query", "query": "label_values(up, cluster)"}]},
            "panels": panels}
    body = json.dumps(dash, indent=2)
    return (f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}-dashboard\n  namespace: {NAMESPACE}\n"
            f"  labels:\n{labels}    grafana_dashboard: \"1\"\ndata:\n  {short}.json: |-\n"
            + "".join(f"    {line}\n" for line in body.splitlines()))


# --------------------------------------------------------------------------
# the record


def build(n: int) -> tuple[dict, int]:
    g = Gen(SEED)
    comps = [component(g, i) for i in range(n)]
    r = g.r
    manifest_docs = []
    for c in comps:
        manifest_docs.extend(c["docs"])
    # Helm sorts the manifest by kind (install order), then by name; keep it simple:
    # kind order as Helm's InstallOrder for the kinds present.
    order = {"ServiceAccount": 0, "Secret": 1, "ConfigMap": 2, "Service": 3, "Deployment": 4, "PrometheusRule": 5}
    manifest_docs.sort(key=lambda d: (order.get(d[1].split("kind: ", 1)[1].split("\n", 1)[0], 9), d[0]))
    manifest = "".join(f"---\n# Source: {CHART_NAME}/{path}\n{text}" for path, text in manifest_docs)

    templates = [{"name": "templates/NOTES.txt",
                  "data": b64("{{ .Chart.Name }} {{ .Chart.Version }} installed as {{ .Release.Name }}.\n"
                              "Grafana: kubectl -n {{ .Release.Namespace }} port-forward svc/{{ .Release.Name }}-grafana 3000\n"),
                  "modtime": g.modtime()},
                 {"name": "templates/_helpers.tpl",
                  "data": b64("".join(f"{{{{- define \"{CHART_NAME}.{k}\" -}}}}\n{{{{ {v} }}}}\n{{{{- end }}}}\n\n" for k, v in (
                      ("name", "default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix \"-\""),
                      ("fullname", "printf \"%s-%s\" .Release.Name .Chart.Name | trunc 63 | trimSuffix \"-\""),
                      ("labels", "include \"" + CHART_NAME + ".selectorLabels\" . | nindent 0"),
                  ))),
                  "modtime": g.modtime()}]
    for c in comps:
        templates.extend(c["templates"])
    chart_values = {"global": {"imageRegistry": "", "imagePullSecrets": [], "clusterName": "prod-eu-west-1"},
                    "nameOverride": "", "fullnameOverride": ""}
    for c in comps:
        chart_values[c["short"].replace("-", "_")] = c["values"]
    files = [{"name": f"files/dashboards/{c['short']}.json",
              "data": b64(json.dumps({"uid": g.hexs(9), "title": c["short"], "panels": [
                  {"id": k, "title": g.sentence(2, 5), "expr": f"up{{job=\"{c['short']}\"}}"} for k in range(r.randint(3, 12))]},
                  indent=2)), "modtime": g.modtime()}
             for c in comps[: max(1, n // 8)]]
    files.append({"name": "README.md", "data": b64("\n\n".join(g.sentence(8, 30) for _ in range(40))), "modtime": g.modtime()})
    config = {"global": {"clusterName": "prod-eu-west-1"}}
    for c in r.sample(comps, max(1, n // 5)):
        config[c["short"].replace("-", "_")] = {"replicaCount": r.randint(2, 6),
                                                "resources": {"limits": {"memory": r.choice(["1Gi", "2Gi", "4Gi"])}}}
    hooks = []
    for k, (events, weight, policy) in enumerate([(["pre-install", "pre-upgrade"], -5, ["before-hook-creation", "hook-succeeded"]),
                                                  (["post-install", "post-upgrade"], 1, ["before-hook-creation"]),
                                                  (["pre-delete"], 0, ["hook-succeeded"])]):
        hname = f"{RELEASE}-admission-{['create', 'patch', 'cleanup'][k]}"
        hman = (f"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {hname}\n  namespace: {NAMESPACE}\n  annotations:\n"
                f"    \"helm.sh/hook\": {','.join(events)}\n    \"helm.sh/hook-weight\": \"{weight}\"\n"
                f"    \"helm.sh/hook-delete-policy\": {','.join(policy)}\nspec:\n  ttlSecondsAfterFinished: 60\n"
                f"  template:\n    spec:\n      restartPolicy: OnFailure\n      containers:\n        - name: create\n"
                f"          image: registry.k8s.io/ingress-nginx/kube-webhook-certgen:v1.4.1@sha256:{g.hexs(64)}\n"
                f"          args:\n            - {['create', 'patch', 'delete'][k]}\n            - --namespace={NAMESPACE}\n"
                f"            - --secret-name={RELEASE}-admission\n")
        ran = "pre-delete" not in events
        hooks.append({"name": hname, "kind": "Job", "path": f"{CHART_NAME}/templates/webhook/job-{k}.yaml", "manifest": hman,
                      "events": events,
                      "last_run": {"started_at": T0, "completed_at": T_LAST, "phase": "Succeeded"} if ran else {"phase": ""},
                      "weight": weight, "delete_policies": policy})
    schema = {"$schema": "https://json-schema.org/draft-07/schema#", "type": "object",
              "properties": {c["short"].replace("-", "_"): {"type": "object", "properties": {
                  "enabled": {"type": "boolean"}, "replicaCount": {"type": "integer", "minimum": 0}}} for c in comps[:40]}}
    record = {
        "name": RELEASE,
        "info": {"first_deployed": T_FIRST, "last_deployed": T_LAST, "description": "Upgrade complete",
                 "status": "deployed",
                 "notes": f"{CHART_NAME} {CHART_VERSION} installed as {RELEASE}.\nGrafana: kubectl -n {NAMESPACE} "
                          f"port-forward svc/{RELEASE}-grafana 3000\n"},
        "chart": {
            "metadata": {"name": CHART_NAME, "home": "https://github.com/example-org/platform-stack",
                         "sources": ["https://github.com/example-org/platform-stack"], "version": CHART_VERSION,
                         "description": "Umbrella chart: Prometheus, Alertmanager, Grafana and the platform services, with rules and dashboards",
                         "keywords": ["monitoring", "prometheus", "platform"],
                         "maintainers": [{"name": "platform-team", "email": "platform@example.com"}],
                         "icon": "https://example.com/icon.svg", "apiVersion": "v2", "appVersion": APP_VERSION,
                         "kubeVersion": ">=1.25.0-0", "type": "application"},
            "lock": None,
            "templates": templates,
            "values": chart_values,
            "schema": b64(json.dumps(schema)),
            "schemamodtime": g.modtime(),
            "files": files,
            "modtime": g.modtime(),
        },
        "config": config,
        "manifest": manifest,
        "hooks": hooks,
        "version": REVISION,
        "namespace": NAMESPACE,
        "apply_method": "ssa",
    }
    return record, len(manifest_docs)


def encode(record: dict) -> tuple[bytes, bytes]:
    js = go_json(record)
    return js, go_gzip(js)


def fit() -> tuple[dict, bytes, bytes, int]:
    """Finds a component count whose record gzips to TARGET_LOW..TARGET_HIGH bytes."""
    lo_n, hi_n = None, None
    n = 200
    for _ in range(30):
        record, docs = build(n)
        js, gz = encode(record)
        if TARGET_LOW <= len(gz) <= TARGET_HIGH and abs(len(gz) - TARGET) < 0.03 * TARGET:
            return record, js, gz, docs
        if len(gz) < TARGET:
            lo_n = n
        else:
            hi_n = n
        guess = max(1, round(n * TARGET / len(gz)))
        if lo_n is not None and hi_n is not None:
            guess = min(max(guess, lo_n + 1), hi_n - 1)
            if hi_n - lo_n <= 1:
                break
        n = guess
    if TARGET_LOW <= len(gz) <= TARGET_HIGH:
        return record, js, gz, docs
    sys.exit(f"make_record.py: could not reach a gzip size in [{TARGET_LOW}, {TARGET_HIGH}] (last {len(gz)} at n={n})")


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: make_record.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    t = time.monotonic()
    record, js, gz, docs = fit()
    helm_b64 = base64.b64encode(gz)  # what Helm puts in the Secret's data (before the API's base64)
    payload = base64.b64encode(helm_b64)  # what `kubectl get secret -o json` shows in data.release
    secret = {
        "apiVersion": "v1",
        "data": {"release": payload.decode()},
        "kind": "Secret",
        "metadata": {
            "creationTimestamp": "2026-11-29T10:14:09Z",
            "labels": {"modifiedAt": "1795860849", "name": RELEASE, "owner": "helm", "status": "deployed",
                       "version": str(REVISION)},
            "name": f"sh.helm.release.v1.{RELEASE}.v{REVISION}",
            "namespace": NAMESPACE,
            "resourceVersion": "48213377",
            "uid": "9b2f4c1e-7a3d-4e52-b8a1-3c6d2e0f9a47",
        },
        "type": "helm.sh/release.v1",
    }
    with open(os.path.join(out, "secret.json"), "w") as f:
        f.write(json.dumps(secret, indent=4) + "\n")  # kubectl's JSON printer indents by 4
    with open(os.path.join(out, "payload.txt"), "wb") as f:
        f.write(payload)
    with open(os.path.join(out, "record.json"), "wb") as f:
        f.write(js)
    print(f"json_bytes={len(js)}")
    print(f"gzip_bytes={len(gz)}")
    print(f"helm_base64_bytes={len(helm_b64)}")
    print(f"payload_bytes={len(payload)}")
    print(f"ratio={len(js) / len(gz):.2f}")
    print(f"documents={docs}")
    print(f"templates={len(record['chart']['templates'])}")
    print(f"seconds={time.monotonic() - t:.1f}")


if __name__ == "__main__":
    main()
