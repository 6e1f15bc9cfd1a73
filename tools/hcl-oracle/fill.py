#!/usr/bin/env python3
"""Fills each case of an HCL function table with what real helmfile writes.

usage: fill.py TABLE.json [HELMFILE [HELM]]

Every case {"name", "expr"} becomes `values { v = EXPR }` in a project whose
release values file is `{{ .Values | toYaml }}`; `helmfile write-values`
(helmfile 0.166.0, with Helm 3 for its version check) writes it, and the
case gets "helmfile": {"value": V} or {"error": MESSAGE}. Cases that succeed
are run together in one file first, one by one only when that fails.
"""
import json, os, subprocess, sys, tempfile

import yaml  # PyYAML: write-values writes YAML

home = os.path.expanduser("~")
table_path = sys.argv[1]
helmfile = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("RELEASEX_HELMFILE", f"{home}/.cache/real-helm-binaries/helmfile/helmfile")
helm = sys.argv[3] if len(sys.argv) > 3 else os.environ.get("RELEASEX_HELM3", f"{home}/.cache/real-helm-binaries/helm3/helm")


def run(attrs):
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(f"{d}/c")
        open(f"{d}/c/Chart.yaml", "w").write("apiVersion: v2\nname: c\nversion: 0.1.0\n")
        open(f"{d}/v.yaml.gotmpl", "w").write("{{ .Values | toYaml }}\n")
        open(f"{d}/helmfile.yaml", "w").write("environments:\n  default:\n    values:\n    - v.hcl\n---\nreleases:\n- name: r\n  chart: ./c\n  values:\n  - v.yaml.gotmpl\n")
        open(f"{d}/v.hcl", "w").write("values {\n" + "".join(f"  {k} = {e}\n" for k, e in attrs) + "}\n")
        p = subprocess.run([helmfile, "--helm-binary", helm, "-f", f"{d}/helmfile.yaml", "write-values", "--output-file-template", f"{d}/out.yaml"], capture_output=True, text=True, cwd=d)
        if p.returncode != 0:
            err = p.stderr.strip().splitlines()
            return None, next((l for l in err if "error" in l or "failed" in l), p.stderr.strip()).replace(d + "/", "")
        return yaml.safe_load(open(f"{d}/out.yaml")), None


table = json.load(open(table_path))
batch, _ = run([(f"c{i}", c["expr"]) for i, c in enumerate(table) if "error" not in c.get("helmfile", {})])
for i, c in enumerate(table):
    if batch is not None and f"c{i}" in batch:
        c["helmfile"] = {"value": batch[f"c{i}"]}
        continue
    out, err = run([("v", c["expr"])])
    c["helmfile"] = {"value": out.get("v")} if out is not None else {"error": err}
json.dump(table, open(table_path, "w"), indent=1, ensure_ascii=False)
open(table_path, "a").write("\n")
