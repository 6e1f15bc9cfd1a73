#!/usr/bin/env python3
"""helm_oracle.py - a reference-Helm oracle built on real Helm code.

Helm v4.2.3's Go SDK, compiled as libhelm_c.so (PyPI helm-python-sdk 0.2.2),
does all the Helm work here: strvals parsing (--set & co), values-file
parsing (chart loader / LoadValues), dependency processing (conditions,
tags, import-values), coalescing (subcharts, globals, nulls), schema
validation, template rendering, install/upgrade value handling
(--reuse-values, --reset-values, --reset-then-reuse-values) and the release
records it stores (Secrets, written to a fake API server on 127.0.0.1).

Python only glues: Helm CLI ordering of the value sources (a port of
pkg/cli/values/options.go MergeValues, ~30 lines), loader.MergeMaps (10
lines), and a "skeleton replay" that lets the library's own strvals parser
run on top of the values accumulated so far (Helm uses strvals.ParseInto
with the base map; the library only exposes parse-into-empty-map).
See README.md for what is exact and what is not.

Subcommands (all print one JSON document, keys sorted; release-secrets
--yaml prints YAML instead):
  values  CHART [-f F]... [--set X]... [--set-string X]... [--set-json X]...
          [--set-file X]... [--set-literal X]... [--name N] [--namespace NS]
          [--skip-schema-validation] [--keep-templates] [--raw]
  strvals KIND EXPR          KIND: set|string|json|literal|file
  merge   [value flags]      only the CLI-side merge (what --set & co give
                             to the install action), no chart involved
  render  CHART [value flags] [--name N] [--namespace NS] [--engine]
          [--kube-version V] [--api-versions X]... [--is-upgrade]
                             capabilities as `helm template` takes them
  upgrade-values OLD_CHART [old value flags] --to NEW_CHART [new value flags]
          [--modes default,reuse,reset,reset-then-reuse] [--name N]
          [--keep-templates] [--dump-secrets DIR]
  release-secrets CHART [value flags] [--server-side true|false] [-l K=V]
          [--then CHART [value flags] [--reuse-values|--reset-values|
           --reset-then-reuse-values] [--server-side auto|true|false] [-l K=V]]...
          [--name N] [--namespace NS] [--keep-templates] [--as-list] [--yaml]
          [--rollback [REVISION] [--force-replace] [--no-hooks] [--force-conflicts]
           [--server-side auto|true|false] [--history-max N] [--live-merge PATH=JSON]...]
                             install, then one upgrade per --then; prints the
                             release Secrets as the API server stores them;
                             --rollback (last) merges the edits into the live
                             objects, runs helm rollback and adds "rollback":
                             the Secrets and objects before it, the writes it
                             sent (release Secrets left out), the Secrets after
  batch                      read one JSON array of arguments per stdin line
                             (e.g. ["values","charts/parent","--set","a=1"]),
                             answer one JSON line each; no per-call startup
  version
"""

from __future__ import annotations

import atexit
import base64
import copy
import csv
import gzip
import io
import json
import os
import queue
import re
import secrets
import shutil
import sys
import tarfile
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The Go library copies the environment when it loads. It gets an empty temp
# HOME (removed at exit) and no KUBECONFIG: no kubeconfig of the machine
# (credentials, exec plugins) applies to the fake API server, and client-go's
# discovery cache (a folder per server port, ~/.kube/cache/discovery/
# 127.0.0.1_PORT) does not pile up in the real home. Python keeps the real
# values.
_SAVED_ENV = {k: os.environ.get(k) for k in ("HOME", "KUBECONFIG")}
_LIB_HOME = tempfile.mkdtemp(prefix="helm-oracle-home-")
atexit.register(shutil.rmtree, _LIB_HOME, True)


def _restore_env() -> None:
    for k, v in _SAVED_ENV.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


os.environ["HOME"] = _LIB_HOME
os.environ.pop("KUBECONFIG", None)
try:
    import helm_python as _helm
    from helm_python import _native
    from helm_python.errors import HelmError
except ImportError:  # re-exec under the oracle's own virtualenv
    _restore_env()
    shutil.rmtree(_LIB_HOME, ignore_errors=True)
    # releasex: the project's own virtualenv (.venv at the repository root), made by tests/oracle/setup.sh.
    venv_dir = Path(os.environ.get("HELM_ORACLE_VENV") or Path(__file__).resolve().parents[2] / ".venv")
    venv_py = venv_dir / "bin" / "python"
    if venv_py.exists() and os.environ.get("HELM_ORACLE_REEXEC") != "1":
        os.environ["HELM_ORACLE_REEXEC"] = "1"
        os.execv(str(venv_py), [str(venv_py), str(Path(__file__).resolve())] + sys.argv[1:])
    sys.stderr.write("helm_python not importable; run setup (see README.md)\n")
    sys.exit(2)
_restore_env()


PROBE_NAME = "zz-helm-oracle-values.yaml"
PROBE_MARK = "# HELM_ORACLE_VALUES "
PROBE_TEXT = PROBE_MARK + "{{ toJson .Values }}\n"

STRVALS_FN = {
    "set": "helm_strvals_parse",
    "string": "helm_strvals_parse_string",
    "json": "helm_strvals_parse_json",
    "literal": "helm_strvals_parse_literal",
    "file": "helm_strvals_parse_file",
}
# Helm's error prefix for each kind (pkg/cli/values/options.go)
FLAG_OF = {"set": "--set", "string": "--set-string", "json": "--set-json",
           "literal": "--set-literal", "file": "--set-file"}


class HelmFailure(Exception):
    """Helm itself would fail with this error text."""


class Unsupported(Exception):
    """The oracle cannot give Helm's answer for this input."""


def _tmpdir(prefix: str) -> str:
    d = tempfile.mkdtemp(prefix="helm-oracle-" + prefix + "-")
    _TEMPS.append(d)
    return d


_TEMPS: list[str] = []


def _cleanup() -> None:
    for d in _TEMPS:
        shutil.rmtree(d, ignore_errors=True)


# --------------------------------------------------------------------------
# strvals through the library


class GoInt64(int):
    """An integer that is an int64 in Helm (typed --set); other integers in
    the oracle are float64 in Helm (YAML, JSON). Only used to replay the
    right Go type."""


def strvals_raw(kind: str, expr: str) -> dict:
    """Helm's strvals.Parse* into an empty map; raises HelmError(detail)."""
    out = _native.call_string(STRVALS_FN[kind], expr)
    # typed --set yields int64 numbers; json yields float64; others strings
    return json.loads(out, parse_int=GoInt64 if kind == "set" else int)


def _esc_key(k: str) -> str:
    # strvals keys: a backslash escapes any rune (runesUntil)
    return "".join(c if (c.isascii() and c.isalnum()) else "\\" + c for c in k)


class _Skeleton:
    """Builds a strvals expression that recreates `base` inside the parser.

    Helm's MergeValues calls strvals.ParseInto(expr, base); libhelm_c only
    offers Parse(expr) into an empty map. Prefixing expr with an expression
    that rebuilds base's *structure* (maps, lists and their lengths, nil) lets
    the library's own parser walk the same shapes ParseInto would walk.
    Scalars become unique placeholder strings (restored afterwards), so a
    successful parse is exact; on a parse error the Go type named in an
    'interface conversion' message may differ (flagged).
    """

    def __init__(self, kind: str):
        self.kind = kind  # set | string | file
        self.nonce = secrets.token_hex(6)
        self.ph: dict[str, object] = {}
        self.parts: list[str] = []
        self.substituted = False  # a placeholder hides a value's Go type
        self.dropped_empty_key = False
        self.used_empty_map = False
        self.filedir = _tmpdir("skel") if kind == "file" else None
        self.empty_map_key = f"HELMORACLE{self.nonce}EMPTYMAP"
        self.empty_list_tok = self._token(None, register=False, suffix="EMPTYLIST")

    def _token(self, orig, register=True, suffix=None) -> str:
        t = f"HELMORACLE{self.nonce}{suffix or 'P' + str(len(self.ph))}"
        if register:
            self.ph[t] = orig
        return t

    def _value_text(self, tok: str) -> str:
        if self.kind == "file":
            p = os.path.join(self.filedir, tok)
            with open(p, "w", encoding="utf-8") as f:
                f.write(tok)
            return p
        return tok

    def _scalar(self, v) -> str:
        if self.kind == "set":
            if v is None:
                return "null"
            if v is True:
                return "true"
            if v is False:
                return "false"
            if isinstance(v, GoInt64):
                return str(int(v))  # typedVal gives int64 back
            if not isinstance(v, str):
                self.substituted = True  # number -> placeholder string
            return self._token(v)
        # string / file kinds only produce strings
        if not isinstance(v, str):
            self.substituted = True
        return self._value_text(self._token(v))

    def emit(self, path: str, v) -> None:
        if isinstance(v, dict):
            if not v:
                self.used_empty_map = True
                self.parts.append(path + "." + self.empty_map_key + "=" + self._value_text(self._token("")))
                return
            for k, sub in v.items():
                if k == "":
                    self.dropped_empty_key = True
                    continue
                self.emit(path + "." + _esc_key(k), sub)
        elif isinstance(v, list):
            if not v:
                self.substituted = True
                self.parts.append(path + "[0]=" + self._value_text(self.empty_list_tok))
                return
            for i, e in enumerate(v):
                self.emit(f"{path}[{i}]", e)
        else:
            self.parts.append(path + "=" + self._scalar(v))

    def build(self, base: dict) -> str:
        for k, v in base.items():
            if k == "":
                self.dropped_empty_key = True
                continue
            self.emit(_esc_key(k), v)
        return ",".join(self.parts)

    def restore(self, x):
        if isinstance(x, str):
            if x in self.ph:
                return copy.deepcopy(self.ph[x])
            return x
        if isinstance(x, dict):
            return {k: self.restore(v) for k, v in x.items() if k != self.empty_map_key}
        if isinstance(x, list):
            if x and x[0] == self.empty_list_tok:
                x = [None] + x[1:]
                if len(x) == 1:
                    return []
            return [self.restore(e) for e in x]
        return x


def _literal_chain(res: dict):
    """Path segments and value of a successful ParseLiteral result (a chain)."""
    segs: list[str] = []
    cur = res
    while True:
        if isinstance(cur, dict):
            if len(cur) != 1:
                return None
            (k, cur), = cur.items()
            segs.append(("." if segs else "") + _esc_key(k))
        elif isinstance(cur, list):
            if not cur or any(e is not None for e in cur[:-1]):
                return None
            segs.append(f"[{len(cur) - 1}]")
            cur = cur[-1]
        else:
            return "".join(segs), cur


def parse_into(kind: str, expr: str, base: dict, notes: list[str]) -> dict:
    """Helm's strvals.ParseInto/ParseIntoString/ParseJSON/ParseIntoFile/
    ParseLiteralInto(expr, base) using the library's parser.
    Returns the new base; raises HelmError on a parse error (Helm's text).
    Appends inexactness reasons to notes."""
    if not base:
        return strvals_raw(kind, expr)

    if kind == "json":
        # every value is representable exactly: key=<json> per top-level key
        parts = []
        for k, v in base.items():
            if k == "":
                notes.append("base has an empty-string key; strvals cannot address it")
                continue
            parts.append(_esc_key(k) + "=" + json.dumps(v, allow_nan=False))
        prefix = ",".join(parts)
        out = strvals_raw("json", prefix + ("," + expr if prefix else expr))
        if "" in base:
            out[""] = base[""]
        return out

    if kind == "literal":
        try:
            fresh = strvals_raw("literal", expr)
        except HelmError as e:
            # Real ParseLiteralInto walks base first; if the first key segment
            # is absent from base the walk cannot differ.
            first = re.split(r"[=\[.]", expr, maxsplit=1)[0]
            if first in base:
                notes.append("literal parse error with a key present in base: Helm may report a different error")
            raise e
        chain = _literal_chain(fresh)
        if chain is None:  # nothing set (empty top-level key)
            if "" in base:
                notes.append("empty-string key in base with --set-literal")
            return base
        path, lit = chain
        sk = _Skeleton("set")
        prefix = sk.build(base)
        tok = sk._token(lit)
        sub = path + "=" + tok
        try:
            out = strvals_raw("set", prefix + "," + sub if prefix else sub)
        except HelmError as e:
            _flag_error(sk, e, notes)
            raise
        _flag_success(sk, notes, None)
        return sk.restore(out)

    sk = _Skeleton(kind)
    prefix = sk.build(base)
    try:
        out = strvals_raw(kind, prefix + "," + expr if prefix else expr)
    except HelmError as e:
        _flag_error(sk, e, notes)
        raise
    _flag_success(sk, notes, (kind, expr))
    return sk.restore(out)


def _flag_error(sk: _Skeleton, e: HelmError, notes: list[str]) -> None:
    if sk.substituted and "interface conversion" in str(e.detail):
        notes.append("type-conflict error: the Go type in Helm's message (and, for nil/empty-list "
                     "list elements, whether Helm errors at all) may differ")
    if sk.dropped_empty_key:
        notes.append("base has an empty-string key; not replayed")


def _flag_success(sk: _Skeleton, notes: list[str], fresh) -> None:
    if sk.dropped_empty_key:
        notes.append("base has an empty-string key; not replayed")
    if sk.used_empty_map and fresh is not None:
        try:
            strvals_raw(*fresh)
        except HelmError as e:
            if "has no value" in str(e.detail):
                notes.append("expression may traverse an empty map of base without setting a key; "
                             "Helm may report 'key map ... has no value'")


# --------------------------------------------------------------------------
# values files: Helm's loader.LoadValues via the chart loader


def _chart_archive(files: dict[str, bytes], top="helmoraclevalues") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in files.items():
            ti = tarfile.TarInfo(f"{top}/{name}")
            ti.size = len(data)
            ti.mode = 0o644
            tf.addfile(ti, io.BytesIO(data))
    return buf.getvalue()


def load_values_bytes(data: bytes, label: str) -> dict:
    """Parse a -f document exactly like Helm (multi-doc merge, float64 numbers)."""
    arc = _chart_archive({
        "Chart.yaml": b"apiVersion: v2\nname: helmoraclevalues\nversion: 0.0.0\n",
        "values.yaml": data,
    })
    try:
        with _helm.Chart.load_archive(arc) as c:
            return c.values or {}
    except HelmError as e:
        msg = str(e.detail)
        prefix = "cannot load values.yaml: "
        i = msg.find(prefix)
        if i >= 0:
            raise HelmFailure(f"failed to parse {label}: {msg[i + len(prefix):]}")
        raise


def merge_maps(a: dict, b: dict) -> dict:
    """loader.MergeMaps"""
    out = dict(a)
    for k, v in (b or {}).items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge_maps(out[k], v)
            continue
        out[k] = v
    return out


def _go_json_object(text: str):
    """json.Unmarshal(text, &map[string]any) acceptance, Python-side."""
    def bad_const(c):
        raise ValueError(c)

    def flt(s):
        f = float(s)
        if f in (float("inf"), float("-inf")):
            raise ValueError(s)
        return f
    v = json.loads(text, parse_constant=bad_const, parse_float=flt)
    if not isinstance(v, dict):
        raise ValueError("not an object")
    return v


# --------------------------------------------------------------------------
# Helm CLI: pkg/cli/values/options.go MergeValues (v4.2.3), same order


class ValueOpts:
    def __init__(self):
        self.files: list[str] = []
        self.sets: list[str] = []
        self.strings: list[str] = []
        self.jsons: list[str] = []
        self.files_set: list[str] = []
        self.literals: list[str] = []

    def empty(self) -> bool:
        return not (self.files or self.sets or self.strings or self.jsons or self.files_set or self.literals)


def merge_user_values(o: ValueOpts, notes: list[str]) -> dict:
    base: dict = {}
    for fp in o.files:
        if fp.strip() == "-":
            raw = sys.stdin.buffer.read()
        else:
            try:
                raw = Path(fp).read_bytes()
            except IsADirectoryError as e:
                # Go's os.ReadFile opens a directory and fails reading it
                raise HelmFailure(f"read {fp}: {_go_errno_text(e)}")
            except OSError as e:
                # Go: "open <path>: no such file or directory"
                raise HelmFailure(f"open {fp}: {_go_errno_text(e)}")
        base = merge_maps(base, load_values_bytes(raw, fp))

    for value in o.jsons:
        t = value.strip()
        if t and t[0] == "{":
            try:
                jm = _go_json_object(t)
            except ValueError:
                raise HelmFailure(f"failed parsing --set-json data JSON: {value}")
            base = merge_maps(base, jm)
        else:
            try:
                base = parse_into("json", value, base, notes)
            except HelmError:
                raise HelmFailure(f"failed parsing --set-json data {value}")

    for kind, lst in (("set", o.sets), ("string", o.strings), ("file", o.files_set),
                      ("literal", o.literals)):
        for value in lst:
            try:
                base = parse_into(kind, value, base, notes)
            except HelmError as e:
                raise HelmFailure(f"failed parsing {FLAG_OF[kind]} data: {e.detail}")
    return base


def _go_errno_text(e: OSError) -> str:
    m = {2: "no such file or directory", 13: "permission denied", 21: "is a directory"}
    return m.get(e.errno or 0, (e.strerror or str(e)).lower())


# --------------------------------------------------------------------------
# charts, probe template, install/upgrade through the library


_PREP_CACHE: dict = {}  # fingerprint -> prepared copy (lives until exit)
_PERSIST: list[str] = []


def _fingerprint(src: Path, probe: bool, strip: bool):
    items = []
    if src.is_dir():
        for root, dirs, files in os.walk(src, followlinks=True):
            dirs.sort()
            for f in sorted(files):
                st = os.stat(os.path.join(root, f))
                items.append((os.path.relpath(os.path.join(root, f), src), st.st_size, st.st_mtime_ns))
    else:
        st = src.stat()
        items.append((str(src), st.st_size, st.st_mtime_ns))
    return (str(src.resolve()), probe, strip, tuple(items))


def _prepare_chart(chart: str, probe: bool, strip_templates: bool) -> str:
    """Copy chart (dir or .tgz) to a temp dir; optionally strip templates and
    add the probe template that prints .Values as JSON. Copies are cached by
    a stat fingerprint of the chart's files (helps `batch`)."""
    src = Path(chart)
    if not src.exists():
        raise HelmFailure(f"path \"{chart}\" not found")
    fp = _fingerprint(src, probe, strip_templates)
    hit = _PREP_CACHE.get(fp)
    if hit and os.path.isdir(hit):
        return hit
    d = tempfile.mkdtemp(prefix="helm-oracle-chart-")
    _PERSIST.append(d)
    if src.is_dir():
        dst = Path(d) / src.resolve().name
        shutil.copytree(src, dst, symlinks=False)
    else:
        with tarfile.open(src) as tf:
            tf.extractall(d, filter="data")
        tops = [p for p in Path(d).iterdir() if p.is_dir()]
        if len(tops) != 1:
            raise Unsupported("chart archive must contain exactly one top-level directory")
        dst = tops[0]
    if strip_templates:
        for cdir in [dst] + [p.parent for p in dst.glob("charts/**/Chart.yaml")]:
            t = cdir / "templates"
            if t.is_dir():
                shutil.rmtree(t)
    if probe:
        (dst / "templates").mkdir(exist_ok=True)
        (dst / "templates" / PROBE_NAME).write_text(PROBE_TEXT, encoding="utf-8")
    _PREP_CACHE[fp] = str(dst)
    return str(dst)


def _probe_values(manifest: str) -> dict:
    for line in manifest.splitlines():
        if line.startswith(PROBE_MARK):
            return json.loads(line[len(PROBE_MARK):])
    raise Unsupported("probe template was not rendered (ignored by .helmignore?)")


def _call_action(fn: str, cfg, chart_path: str, name: str, vals, opts: dict) -> dict:
    with _helm.Chart.load(chart_path) as c:  # fresh chart: actions mutate it
        return json.loads(_native.call_string(
            fn, cfg._raw(), _native.HANDLE(0), c._raw(), None, name,
            None if vals is None else json.dumps(vals), json.dumps(opts)))


def template_install(chart_path: str, vals: dict, name: str, ns: str, extra: dict | None = None) -> dict:
    """`helm template` / install --dry-run=client: ProcessDependencies,
    schema validation, coalescing, rendering; no cluster."""
    opts = {"dry_run": "client", "namespace": ns}
    opts.update(extra or {})
    with _helm.Config(storage_driver="memory", namespace=ns) as cfg:
        try:
            return _call_action("helm_install", cfg, chart_path, name, vals, opts)
        except HelmError as e:
            raise HelmFailure(str(e.detail))


# --------------------------------------------------------------------------
# `helm template` output. The SDK's install action (client dry run) takes
# kube_version and api_versions but not IsUpgrade, and its result carries the
# manifest but not the hooks. Its engine call (helm_render) takes all three
# capability options. So: Helm's engine renders, the port below does the tail
# of action.renderResources (NOTES removal, releaseutil.SortManifests, the
# manifest text), and every call checks that port against the install
# action's own manifest for the same inputs rendered as an install; any
# difference (also from steps helm_render may skip, such as dependency
# conditions) fails loudly instead of printing a guess.

# Helm 4.2.x's separator (later Helm: `(?m)^---[ \t]*`); \s spelled as RE2 reads it
_SEP = re.compile(r"(?:^|[ \t\n\f\r]*\n)---[ \t\n\f\r]*")
INSTALL_ORDER = [
    "PriorityClass", "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodSecurityPolicy",
    "PodDisruptionBudget", "ServiceAccount", "Secret", "SecretList", "ConfigMap", "StorageClass",
    "PersistentVolume", "PersistentVolumeClaim", "CustomResourceDefinition", "ClusterRole",
    "ClusterRoleList", "ClusterRoleBinding", "ClusterRoleBindingList", "Role", "RoleList", "RoleBinding",
    "RoleBindingList", "Service", "DaemonSet", "Pod", "ReplicationController", "ReplicaSet", "Deployment",
    "HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob", "IngressClass", "Ingress", "APIService",
    "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
]
_HOOK_EVENTS = {"pre-install", "post-install", "pre-delete", "post-delete", "pre-upgrade", "post-upgrade",
                "pre-rollback", "post-rollback", "test", "test-success"}


def _split_manifests(text: str) -> list[str]:
    """releaseutil.SplitManifests, in manifest-N order."""
    out = []
    for d in _SEP.split(text.lstrip()):
        if d.strip():
            out.append(d.lstrip())
    return out


def _head(path: str, doc: str) -> dict:
    import yaml  # PyYAML: YAML 1.1 like go-yaml v2; only kind and annotations are read
    try:
        h = yaml.safe_load(doc)
    except yaml.YAMLError as e:
        raise HelmFailure(f"YAML parse error on {path}: {e}")
    return h if isinstance(h, dict) else {}


def _kind_key(kind: str):
    return (0, INSTALL_ORDER.index(kind), "") if kind in INSTALL_ORDER else (1, 0, kind)


def sort_manifests(files: dict) -> tuple[list[dict], list[dict]]:
    """releaseutil.SortManifests with InstallOrder: (hooks, manifests)."""
    hooks, generic = [], []
    for path in sorted(files, key=lambda p: p.encode()):
        content = files[path]
        if os.path.basename(path).startswith("_") or not content.strip():
            continue
        for doc in _split_manifests(content):
            h = _head(path, doc)
            kind = h.get("kind") or ""
            meta = h.get("metadata") if isinstance(h.get("metadata"), dict) else {}
            ann = meta.get("annotations") or {}
            if not ann or "helm.sh/hook" not in ann:
                generic.append({"path": path, "content": doc, "kind": kind})
                continue
            events = [e.strip().lower() for e in str(ann["helm.sh/hook"]).split(",")]
            if any(e not in _HOOK_EVENTS for e in events):
                continue  # Helm: "skipping unknown hooks"
            hooks.append({"path": path, "manifest": doc, "kind": kind})
    hooks.sort(key=lambda m: _kind_key(m["kind"]))
    generic.sort(key=lambda m: _kind_key(m["kind"]))
    return hooks, generic


def engine_render(chart: str, vals: dict, name: str, ns: str, caps: dict, is_upgrade: bool) -> dict:
    opts = {"name": name, "namespace": ns, "is_upgrade": is_upgrade, "is_install": not is_upgrade}
    opts.update(caps)
    with _helm.Chart.load(chart) as c:
        try:
            return json.loads(_native.call_string("helm_render", c._raw(), json.dumps(vals), json.dumps(opts)))
        except HelmError as e:
            raise HelmFailure(str(e.detail))


def _release_text(files: dict) -> tuple[str, list[dict]]:
    files = {k: v for k, v in files.items() if not k.endswith("NOTES.txt")}
    hooks, generic = sort_manifests(files)
    return "".join(f"---\n# Source: {m['path']}\n{m['content']}\n" for m in generic), hooks


def _identities(manifest: str) -> list:
    out = []
    for block in manifest.split("---\n# Source: ")[1:]:
        path, _, body = block.partition("\n")
        h = _head(path, body)
        meta = h.get("metadata") if isinstance(h.get("metadata"), dict) else {}
        out.append((path, h.get("kind"), meta.get("name")))
    return out


def helm_template(chart: str, vals: dict, name: str, ns: str, kube_version: str | None,
                  api_versions: list[str], is_upgrade: bool) -> str:
    """What `helm template NAME CHART --namespace NS [--is-upgrade]
    [--kube-version V] [--api-versions X]...` prints on stdout."""
    caps: dict = {}
    if kube_version:
        caps["kube_version"] = kube_version
    if api_versions:
        caps["api_versions"] = list(api_versions)
    try:
        rel = template_install(chart, vals, name, ns, caps)  # Helm's own checks and errors come first
    except HelmFailure as e:
        if kube_version and "as version" in str(e):
            raise HelmFailure(f"invalid kube version '{kube_version}': {e}")
        raise
    manifest, hooks = _release_text(engine_render(chart, vals, name, ns, caps, False))
    # Documents compared by template, kind and name, not text: templates may
    # draw random values (randAlphaNum) on each render.
    if _identities(manifest) != _identities(rel.get("manifest", "")):
        raise Unsupported("the port of SortManifests disagrees with Helm's install action for this chart; "
                          "refusing to print a guess")
    if is_upgrade:
        manifest, hooks = _release_text(engine_render(chart, vals, name, ns, caps, True))
    else:
        manifest = rel.get("manifest", "")  # Helm's own text; only the hooks come from the port
    out = manifest.strip() + "\n"
    for h in hooks:
        out += f"---\n# Source: {h['path']}\n{h['manifest']}\n"
    return out


def final_values(chart: str, vals: dict, name: str, ns: str, keep_templates: bool,
                 skip_schema: bool) -> dict:
    path = _prepare_chart(chart, probe=True, strip_templates=not keep_templates)
    extra = {"skip_schema_validation": True} if skip_schema else None
    rel = template_install(path, vals, name, ns, extra)
    return _probe_values(rel.get("manifest", ""))


def split_manifest(manifest: str) -> dict:
    out: dict[str, str] = {}
    for block in re.split(r"(?m)^---\n", manifest):
        m = re.match(r"# Source: (.*)\n", block)
        if not m:
            continue
        src = m.group(1)
        body = block[m.end():]
        out[src] = out[src] + "---\n" + body if src in out else body
    return out


# --------------------------------------------------------------------------
# fake Kubernetes API (loopback only) so release actions can run offline.
# Serves /version, discovery for the built-in kinds of a v1.30 cluster (plus
# the kinds of CustomResourceDefinitions created through it, and assumed
# ones), a stub OpenAPI v3, and keeps any object as JSON under its URL path:
# create, get, list and watch (label selectors), update, patch (apply, merge,
# approximate strategic merge, JSON patch), delete. No controllers and no
# validation: the only status it writes is "succeeded" for Jobs and Pods
# (hooks wait for that) and "established" for CRDs. Secrets (Helm's default
# release storage) arrive protobuf-encoded from Helm's typed client; replies
# are JSON. Releases therefore go through Helm's real encode/decode.


def _varint(b: bytes, i: int):
    shift = val = 0
    while True:
        c = b[i]
        i += 1
        val |= (c & 0x7F) << shift
        if c < 0x80:
            return val, i
        shift += 7


def _pb(b: bytes):
    i = 0
    while i < len(b):
        key, i = _varint(b, i)
        fn, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(b, i)
        elif wt == 2:
            ln, i = _varint(b, i)
            v = b[i:i + ln]
            i += ln
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("unsupported wire type")
        yield fn, v


def _pb_map(b: bytes):
    k = v = b""
    for fn, x in _pb(b):
        if fn == 1:
            k = x
        elif fn == 2:
            v = x
    return k, v


def decode_secret(body: bytes) -> dict:
    if body[:1] == b"{":
        return json.loads(body)
    if body[:4] != b"k8s\x00":
        raise ValueError("unknown body encoding")
    raw = next(v for fn, v in _pb(body[4:]) if fn == 2)
    meta: dict = {}
    obj = {"apiVersion": "v1", "kind": "Secret", "metadata": meta}
    for fn, v in _pb(raw):
        if fn == 1:
            for mf, mv in _pb(v):
                if mf in (1, 2, 3) and mv:  # empty strings are on the wire but not in JSON
                    meta[{1: "name", 2: "generateName", 3: "namespace"}[mf]] = mv.decode()
                elif mf in (11, 12):
                    k, val = _pb_map(mv)
                    meta.setdefault("labels" if mf == 11 else "annotations", {})[k.decode()] = val.decode()
        elif fn == 2:
            k, val = _pb_map(v)
            obj.setdefault("data", {})[k.decode()] = base64.b64encode(val).decode()
        elif fn == 3:
            obj["type"] = v.decode()
        elif fn == 5:
            obj["immutable"] = bool(v)
    return obj


# groupVersion resource Kind scope(n = namespaced, c = cluster): Kubernetes v1.30
_BUILTIN_API = """
v1 configmaps ConfigMap n
v1 endpoints Endpoints n
v1 events Event n
v1 limitranges LimitRange n
v1 namespaces Namespace c
v1 nodes Node c
v1 persistentvolumeclaims PersistentVolumeClaim n
v1 persistentvolumes PersistentVolume c
v1 pods Pod n
v1 podtemplates PodTemplate n
v1 replicationcontrollers ReplicationController n
v1 resourcequotas ResourceQuota n
v1 secrets Secret n
v1 serviceaccounts ServiceAccount n
v1 services Service n
admissionregistration.k8s.io/v1 mutatingwebhookconfigurations MutatingWebhookConfiguration c
admissionregistration.k8s.io/v1 validatingadmissionpolicies ValidatingAdmissionPolicy c
admissionregistration.k8s.io/v1 validatingadmissionpolicybindings ValidatingAdmissionPolicyBinding c
admissionregistration.k8s.io/v1 validatingwebhookconfigurations ValidatingWebhookConfiguration c
apiextensions.k8s.io/v1 customresourcedefinitions CustomResourceDefinition c
apiregistration.k8s.io/v1 apiservices APIService c
apps/v1 controllerrevisions ControllerRevision n
apps/v1 daemonsets DaemonSet n
apps/v1 deployments Deployment n
apps/v1 replicasets ReplicaSet n
apps/v1 statefulsets StatefulSet n
autoscaling/v2 horizontalpodautoscalers HorizontalPodAutoscaler n
autoscaling/v1 horizontalpodautoscalers HorizontalPodAutoscaler n
batch/v1 cronjobs CronJob n
batch/v1 jobs Job n
certificates.k8s.io/v1 certificatesigningrequests CertificateSigningRequest c
coordination.k8s.io/v1 leases Lease n
discovery.k8s.io/v1 endpointslices EndpointSlice n
events.k8s.io/v1 events Event n
flowcontrol.apiserver.k8s.io/v1 flowschemas FlowSchema c
flowcontrol.apiserver.k8s.io/v1 prioritylevelconfigurations PriorityLevelConfiguration c
networking.k8s.io/v1 ingressclasses IngressClass c
networking.k8s.io/v1 ingresses Ingress n
networking.k8s.io/v1 networkpolicies NetworkPolicy n
node.k8s.io/v1 runtimeclasses RuntimeClass c
policy/v1 poddisruptionbudgets PodDisruptionBudget n
rbac.authorization.k8s.io/v1 clusterrolebindings ClusterRoleBinding c
rbac.authorization.k8s.io/v1 clusterroles ClusterRole c
rbac.authorization.k8s.io/v1 rolebindings RoleBinding n
rbac.authorization.k8s.io/v1 roles Role n
scheduling.k8s.io/v1 priorityclasses PriorityClass c
storage.k8s.io/v1 csidrivers CSIDriver c
storage.k8s.io/v1 csinodes CSINode c
storage.k8s.io/v1 csistoragecapacities CSIStorageCapacity n
storage.k8s.io/v1 storageclasses StorageClass c
storage.k8s.io/v1 volumeattachments VolumeAttachment c
"""
_VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]
AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"


def _uuid4() -> str:
    h = secrets.token_hex(16)  # the uuid module would cost ~10 ms of startup
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) & 3]}{h[17:20]}-{h[20:]}"


def _now_rfc3339() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _merge_patch(target, patch):
    """RFC 7386 JSON merge patch."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = _merge_patch(out.get(k), v)
    return out


def _strategic_patch(target, patch):
    """An approximation of a strategic merge patch that needs no schema: maps
    merge as in a merge patch, lists whose elements are maps with a `name`
    merge by name, other lists are replaced; $patch: replace/delete,
    $retainKeys and $deleteFromPrimitiveList/ are honoured, other directives
    ($setElementOrder/) are dropped."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    if patch.get("$patch") == "replace":
        return {k: copy.deepcopy(v) for k, v in patch.items() if not k.startswith("$")}
    out = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if k.startswith("$deleteFromPrimitiveList/"):
            key = k.split("/", 1)[1]
            if isinstance(out.get(key), list):
                out[key] = [e for e in out[key] if e not in v]
        elif k.startswith("$"):
            continue
        elif v is None:
            out.pop(k, None)
        elif isinstance(v, dict) and v.get("$patch") == "delete":
            out.pop(k, None)
        elif isinstance(v, list) and isinstance(out.get(k), list) and v and all(
                isinstance(e, dict) and "name" in e for e in v):
            merged = [copy.deepcopy(e) for e in out[k]]
            for e in v:
                i = next((j for j, o in enumerate(merged) if isinstance(o, dict) and o.get("name") == e["name"]),
                         None)
                if e.get("$patch") == "delete":
                    if i is not None:
                        del merged[i]
                elif i is None:
                    merged.append(_strategic_patch({}, e))
                else:
                    merged[i] = _strategic_patch(merged[i], e)
            out[k] = merged
        else:
            out[k] = _strategic_patch(out.get(k), v)
    if "$retainKeys" in patch:
        out = {k: v for k, v in out.items() if k in patch["$retainKeys"]}
    return out


def _json_patch(doc, ops):
    """RFC 6902 JSON patch (add, remove, replace, test, copy, move)."""
    doc = copy.deepcopy(doc)

    def walk(path):
        parts = [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]
        cur = doc
        for p in parts[:-1]:
            cur = cur[int(p)] if isinstance(cur, list) else cur[p]
        return cur, parts[-1] if parts else None

    def get(path):
        cur, last = walk(path)
        return cur if last is None else (cur[int(last)] if isinstance(cur, list) else cur[last])

    def put(path, val, replace):
        cur, last = walk(path)
        if isinstance(cur, list):
            if last == "-":
                cur.append(val)
            elif replace:
                cur[int(last)] = val
            else:
                cur.insert(int(last), val)
        else:
            if replace and last not in cur:
                raise KeyError(last)
            cur[last] = val

    def remove(path):
        cur, last = walk(path)
        return cur.pop(int(last) if isinstance(cur, list) else last)

    for op in ops:
        kind, path = op["op"], op["path"]
        if kind == "test":
            if get(path) != op.get("value"):
                raise ValueError(f"test failed at {path}")
        elif kind == "remove":
            remove(path)
        elif kind in ("add", "replace"):
            if path == "":
                doc = copy.deepcopy(op["value"])
            else:
                put(path, copy.deepcopy(op["value"]), kind == "replace")
        elif kind in ("copy", "move"):
            val = copy.deepcopy(get(op["from"])) if kind == "copy" else remove(op["from"])
            put(path, val, False)
        else:
            raise ValueError(f"unknown op {kind}")
    return doc


class FakeKube:
    """A tiny Kubernetes API server on 127.0.0.1 (see the comment above).
    `store` maps an object's URL path to its JSON."""

    def __init__(self):
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        store: dict = {}
        lock = threading.RLock()
        counter = [1000]
        # groupVersion -> resource -> (Kind, namespaced); the order of the
        # versions of a group is the preferred order
        api: dict = {}
        for line in _BUILTIN_API.strip().splitlines():
            gv, res, kind, scope = line.split()
            api.setdefault(gv, {})[res] = (kind, scope == "n")
        crd_kinds: dict = {}  # CRD object path -> [(groupVersion, resource)]
        # Writes (method, path, content type, JSON body) while recording[0] is set.
        requests: list = []
        recording = [False]
        watchers: list = []  # (Req, labelSelector, fieldSelector, queue of events)

        def rv():
            counter[0] += 1
            return str(counter[0])

        def st(code, reason, msg, details=None):
            o = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                 "message": msg, "reason": reason, "code": code}
            if details:
                o["details"] = details
            return o

        def not_found(r, name):
            return 404, st(404, "NotFound", f'{r.gr} "{name}" not found',
                           {"name": name, "group": r.group, "kind": r.res})

        no_route = (404, st(404, "NotFound", "the server could not find the requested resource"))

        def watched(w, path, o):
            r, sel, fsel, _ = w
            meta = o.get("metadata", {})
            for part in filter(None, fsel.split(",")):
                k, _, v = part.partition("=")
                field = {"metadata.name": "name", "metadata.namespace": "namespace"}.get(k, k)
                if meta.get(field) != v.lstrip("="):
                    return False
            return r.in_coll(path) and match(sel, meta.get("labels", {}))

        def publish(kind, path, o):
            for w in watchers:
                if watched(w, path, o):
                    w[3].put({"type": kind, "object": o})

        def match(sel, labels):
            for part in filter(None, (sel or "").split(",")):
                m = re.match(r"^([^!=]+)(==|=|!=)(.*)$", part)
                if not m:  # "key": the label exists (set-based forms are not understood)
                    if not re.match(r"^[^!=() ]+$", part) or part not in labels:
                        return False
                    continue
                k, op, v = m.groups()
                if (labels.get(k) == v) != (op != "!="):
                    return False
            return True

        def register_crd(path, o):
            unregister_crd(path)
            spec = o.get("spec") or {}
            names = spec.get("names") or {}
            keys = []
            for ver in spec.get("versions") or []:
                if ver.get("served", True) and names.get("plural") and names.get("kind"):
                    gv = f'{spec.get("group")}/{ver["name"]}'
                    api.setdefault(gv, {})[names["plural"]] = (names["kind"], spec.get("scope") != "Cluster")
                    keys.append((gv, names["plural"]))
            crd_kinds[path] = keys
            o["status"] = {"acceptedNames": names, "storedVersions": [
                v["name"] for v in spec.get("versions") or [] if v.get("storage")],
                "conditions": [{"type": t, "status": "True", "lastTransitionTime": _now_rfc3339(),
                                "reason": r, "message": m} for t, r, m in (
                    ("NamesAccepted", "NoConflicts", "no conflicts found"),
                    ("Established", "InitialNamesAccepted", "the initial names have been accepted"))]}

        def unregister_crd(path):
            for gv, res in crd_kinds.pop(path, []):
                api.get(gv, {}).pop(res, None)
                if not api.get(gv):
                    api.pop(gv, None)

        class Req:
            """A parsed resource URL: /api/v1 or /apis/GROUP/VERSION, then
            [/namespaces/NS]/RESOURCE[/NAME]. ok is False for anything else
            (unknown resources, subresources)."""

            def __init__(self, raw_path):
                u = urllib.parse.urlparse(raw_path)
                self.query = urllib.parse.parse_qs(u.query)
                self.ok = False
                m = re.match(r"^/(?:api/(?P<core>v1)|apis/(?P<gv>[^/]+/[^/]+))(?:/namespaces/(?P<ns>[^/]+))?"
                             r"/(?P<res>[^/]+)(?:/(?P<name>[^/]+))?(?P<sub>/.*)?$", u.path)
                if not m:
                    return
                d = m.groupdict()
                self.gv, self.ns, self.res, self.name = d["core"] or d["gv"], d["ns"], d["res"], d["name"]
                self.group = d["gv"].split("/")[0] if d["gv"] else ""
                self.prefix = f"/apis/{self.gv}" if self.group else "/api/v1"
                self.gr = f"{self.res}.{self.group}" if self.group else self.res  # as in API messages
                with lock:
                    known = api.get(self.gv, {}).get(self.res)
                if not known or d["sub"]:
                    return
                if (self.ns and not known[1]) or (self.name and known[1] and not self.ns):
                    return
                self.kind, self.namespaced = known
                self.ok = True

            def obj_path(self, name):
                ns = f"/namespaces/{self.ns}" if self.namespaced else ""
                return f"{self.prefix}{ns}/{self.res}/{name}"

            def in_coll(self, path):
                """Is path an object of this collection (of every namespace when none is given)?"""
                ns = "/namespaces/" + (re.escape(self.ns) if self.ns else "[^/]+") if self.namespaced else ""
                return bool(re.fullmatch(f"{re.escape(self.prefix)}{ns}/{re.escape(self.res)}/[^/]+", path))

        def stored(r: Req, o: dict, old: dict | None) -> dict:
            """Server-side fields of a written object, as the API server sets them."""
            o.setdefault("apiVersion", r.gv)
            o.setdefault("kind", r.kind)
            meta = o.setdefault("metadata", {})
            if r.namespaced:
                meta["namespace"] = r.ns
            else:
                meta.pop("namespace", None)
            meta["uid"] = (old or {}).get("metadata", {}).get("uid") or _uuid4()
            meta["creationTimestamp"] = ((old or {}).get("metadata", {}).get("creationTimestamp")
                                         or _now_rfc3339())
            meta["resourceVersion"] = rv()
            for k in ("managedFields", "selfLink", "deletionTimestamp"):
                meta.pop(k, None)
            if r.kind == "Secret" and r.gv == "v1" and "stringData" in o:
                data = o.setdefault("data", {}) or {}
                o["data"] = data
                for k, v in (o.pop("stringData") or {}).items():
                    data[k] = base64.b64encode(str(v).encode()).decode()
            if old and "status" in old and "status" not in o:
                o["status"] = old["status"]
            if "status" not in o and (r.gv, r.kind) in (("batch/v1", "Job"), ("v1", "Pod")):
                # no controllers here: a Job or Pod (e.g. a hook) has succeeded at once
                now = _now_rfc3339()
                o["status"] = ({"phase": "Succeeded"} if r.kind == "Pod" else {
                    "succeeded": 1, "startTime": now, "completionTime": now, "conditions": [
                        {"type": t, "status": "True", "lastProbeTime": now, "lastTransitionTime": now}
                        for t in ("SuccessCriteriaMet", "Complete")]})
            if r.gv == "apiextensions.k8s.io/v1" and r.res == "customresourcedefinitions":
                register_crd(r.obj_path(meta["name"]), o)
            return o

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # else ~40 ms per request (delayed ACK)

            def log_message(self, *a):
                pass

            def _send(self, code, obj, ctype="application/json"):
                b = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(b)))
                self.end_headers()
                self.wfile.write(b)

            def _body(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if recording[0]:
                    ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip()
                    try:
                        parsed = json.loads(body) if body else None
                    except ValueError:
                        parsed = None  # protobuf (Helm's release Secrets)
                    requests.append({"method": self.command, "path": self.path,
                                     "content_type": ctype, "body": parsed})
                return body

            def _decode(self, body: bytes, r: Req):
                ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip()
                if ctype == "application/vnd.kubernetes.protobuf":
                    if r.kind != "Secret":
                        raise ValueError("protobuf bodies are only understood for Secrets")
                    return decode_secret(body)
                return json.loads(body)

            def _aggregated(self, p):
                # aggregated discovery (apidiscovery.k8s.io/v2): one request
                # instead of one per group version
                groups: dict = {}
                with lock:
                    for gv, resources in api.items():
                        if ("/" in gv) == (p == "/apis"):
                            g, _, v = gv.rpartition("/")
                            groups.setdefault(g, []).append({"version": v, "freshness": "Current", "resources": [
                                {"resource": res, "responseKind": {"group": g, "version": v, "kind": kind},
                                 "scope": "Namespaced" if nsd else "Cluster", "singularResource": kind.lower(),
                                 "verbs": _VERBS} for res, (kind, nsd) in sorted(resources.items())]})
                return {"kind": "APIGroupDiscoveryList", "apiVersion": "apidiscovery.k8s.io/v2", "metadata": {},
                        "items": [{"metadata": {"name": g}, "versions": vs} for g, vs in groups.items()]}

            def _discovery(self, p):
                with lock:
                    if p == "/api":
                        return {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [
                            {"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]}
                    if p == "/apis":
                        groups: dict = {}
                        for gv in api:
                            if "/" in gv:
                                g, v = gv.split("/")
                                groups.setdefault(g, []).append({"groupVersion": gv, "version": v})
                        return {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
                            {"name": g, "versions": vs, "preferredVersion": vs[0]} for g, vs in groups.items()]}
                    gv = p[len("/api/"):] if p == "/api/v1" else p[len("/apis/"):]
                    if (p == "/api/v1" or p.startswith("/apis/")) and gv in api:
                        return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": [
                            {"name": res, "singularName": kind.lower(), "namespaced": nsd, "kind": kind,
                             "verbs": _VERBS} for res, (kind, nsd) in sorted(api[gv].items())]}
                return None

            def _openapi(self, p):
                # just enough OpenAPI v3 for client-go to see that every kind supports
                # server-side field validation, so that it skips client-side schema
                # checks (Helm validates hook manifests that way)
                with lock:
                    docs = {("apis/" if "/" in gv else "api/") + gv: gv for gv in api}
                    if p == "/openapi/v3":
                        return {"paths": {d: {"serverRelativeURL": "/openapi/v3/" + d} for d in docs}}
                    gv = docs.get(p[len("/openapi/v3/"):])
                    if gv is None:
                        return None
                    g, _, v = gv.rpartition("/")
                    paths = {}
                    for res, (kind, nsd) in api[gv].items():
                        url = ("/apis/" if g else "/api/") + gv + ("/namespaces/{namespace}" if nsd else "")
                        paths[f"{url}/{res}/{{name}}"] = {"patch": {
                            "x-kubernetes-group-version-kind": {"group": g, "version": v, "kind": kind},
                            "parameters": [{"name": "fieldValidation", "in": "query",
                                            "schema": {"type": "string"}}],
                            "responses": {}}}
                    return {"openapi": "3.0.0", "info": {"title": "Kubernetes", "version": "v1.30.0"},
                            "paths": paths}

            def do_GET(self):
                u = urllib.parse.urlparse(self.path)
                if u.path == "/version":
                    return self._send(200, {"major": "1", "minor": "30", "gitVersion": "v1.30.0",
                                            "platform": "linux/amd64"})
                if u.path.startswith("/openapi/v3"):
                    doc = self._openapi(u.path.rstrip("/"))
                    if doc is not None:
                        return self._send(200, doc)
                if u.path.rstrip("/") in ("/api", "/apis") and AGGREGATED in (self.headers.get("Accept") or ""):
                    return self._send(200, self._aggregated(u.path.rstrip("/")), AGGREGATED)
                disc = self._discovery(u.path.rstrip("/"))
                if disc is not None:
                    return self._send(200, disc)
                r = Req(self.path)
                if not r.ok:
                    return self._send(*no_route)
                if r.query.get("watch", ["false"])[0] in ("true", "1"):
                    return self._watch(r)
                with lock:
                    if r.name:
                        o = store.get(r.obj_path(r.name))
                        if o is None:
                            return self._send(*not_found(r, r.name))
                        return self._send(200, o)
                    sel = r.query.get("labelSelector", [""])[0]
                    items = [o for p, o in sorted(store.items())
                             if r.in_coll(p) and match(sel, o["metadata"].get("labels", {}))]
                    return self._send(200, {"kind": r.kind + "List", "apiVersion": r.gv,
                                            "metadata": {"resourceVersion": str(counter[0])}, "items": items})

            def _watch(self, r: Req):
                # initial events (when asked, as client-go's watch-list does), a
                # bookmark, then every change until timeoutSeconds or shutdown
                q: queue.Queue = queue.Queue()
                w = (r, r.query.get("labelSelector", [""])[0], r.query.get("fieldSelector", [""])[0], q)
                with lock:
                    watchers.append(w)
                    if r.query.get("sendInitialEvents", ["false"])[0] == "true":
                        for p, o in sorted(store.items()):
                            if watched(w, p, o):
                                q.put({"type": "ADDED", "object": o})
                        q.put({"type": "BOOKMARK", "object": {
                            "kind": r.kind, "apiVersion": r.gv, "metadata": {
                                "resourceVersion": str(counter[0]),
                                "annotations": {"k8s.io/initial-events-end": "true"}}}})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                self.close_connection = True
                end = time.monotonic() + float(r.query.get("timeoutSeconds", ["1800"])[0])
                try:
                    while not stopping.is_set() and time.monotonic() < end:
                        try:
                            ev = q.get(timeout=0.1)
                        except queue.Empty:
                            continue
                        b = json.dumps(ev).encode() + b"\n"
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(b), b))
                        self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                except OSError:
                    pass
                finally:
                    with lock:
                        watchers.remove(w)

            def do_POST(self):
                r = Req(self.path)
                body = self._body()
                if not r.ok or r.name:
                    return self._send(*no_route)
                try:
                    o = self._decode(body, r)
                except ValueError as e:
                    return self._send(415, st(415, "UnsupportedMediaType", str(e)))
                meta = o.setdefault("metadata", {})
                if not meta.get("name") and meta.get("generateName"):
                    meta["name"] = meta["generateName"] + secrets.token_hex(3)[:5]
                name = meta.get("name")
                if not name:
                    return self._send(422, st(422, "Invalid", "metadata.name: Required value"))
                with lock:
                    path = r.obj_path(name)
                    if path in store:
                        return self._send(409, st(409, "AlreadyExists", f'{r.gr} "{name}" already exists',
                                                  {"name": name, "group": r.group, "kind": r.res}))
                    o = stored(r, o, None)
                    if "dryRun" not in r.query:
                        store[path] = o
                        publish("ADDED", path, o)
                return self._send(201, o)

            def do_PUT(self):
                r = Req(self.path)
                body = self._body()
                if not r.ok or not r.name:
                    return self._send(*no_route)
                try:
                    o = self._decode(body, r)
                except ValueError as e:
                    return self._send(415, st(415, "UnsupportedMediaType", str(e)))
                with lock:
                    path = r.obj_path(r.name)
                    old = store.get(path)
                    if old is None:
                        return self._send(*not_found(r, r.name))
                    o = stored(r, o, old)
                    if "dryRun" not in r.query:
                        store[path] = o
                        publish("MODIFIED", path, o)
                return self._send(200, o)

            def do_PATCH(self):
                r = Req(self.path)
                body = self._body()
                if not r.ok or not r.name:
                    return self._send(*no_route)
                ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip()
                try:
                    patch = json.loads(body)
                except ValueError:
                    return self._send(415, st(415, "UnsupportedMediaType", "only JSON bodies are understood"))
                with lock:
                    path = r.obj_path(r.name)
                    old = store.get(path)
                    try:
                        if ctype == "application/apply-patch+yaml":  # server-side apply: the applier owns all
                            o = copy.deepcopy(patch)
                        elif old is None:
                            return self._send(*not_found(r, r.name))
                        elif ctype == "application/merge-patch+json":
                            o = _merge_patch(old, patch)
                        elif ctype == "application/strategic-merge-patch+json":
                            o = _strategic_patch(old, patch)
                        elif ctype == "application/json-patch+json":
                            o = _json_patch(old, patch)
                        else:
                            return self._send(415, st(415, "UnsupportedMediaType", "the body of the request "
                                                      f"was in an unknown format: {ctype}"))
                    except (KeyError, IndexError, ValueError, TypeError) as e:
                        return self._send(422, st(422, "Invalid", f"the patch could not be applied: {e}"))
                    o.setdefault("metadata", {})["name"] = r.name
                    o = stored(r, o, old)
                    if "dryRun" not in r.query:
                        store[path] = o
                        publish("ADDED" if old is None else "MODIFIED", path, o)
                return self._send(201 if old is None else 200, o)

            def do_DELETE(self):
                r = Req(self.path)
                self._body()
                if not r.ok or not r.name:
                    return self._send(*no_route)
                with lock:
                    path = r.obj_path(r.name)
                    o = store.pop(path, None)
                    if o is not None:
                        unregister_crd(path)
                        publish("DELETED", path, o)
                if o is None:
                    return self._send(*not_found(r, r.name))
                return self._send(200, {
                    "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
                    "details": {"name": r.name, "group": r.group, "kind": r.res,
                                "uid": o["metadata"].get("uid")}})

        stopping = threading.Event()
        self._stopping = stopping
        self.store = store
        self.requests = requests
        self.recording = recording
        self._lock = lock
        self._crd_kinds = crd_kinds
        self._unregister_crd = unregister_crd
        self._api = api
        self.srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = f"http://127.0.0.1:{self.srv.server_address[1]}"
        threading.Thread(target=self.srv.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def assume_kind(self, gv: str, kind: str) -> None:
        """Serve `kind` of group version `gv` as a namespaced custom resource,
        as if its CRD were installed (plural: lower-case kind + s/es/ies).
        Kept across reset()."""
        low = kind.lower()
        plural = (low[:-1] + "ies" if re.search(r"[^aeiou]y$", low)
                  else low + "es" if re.search(r"(s|x|z|ch|sh)$", low) else low + "s")
        with self._lock:
            self._api.setdefault(gv, {})[plural] = (kind, True)

    def reset(self):
        """Forget every object (and the kinds of CRDs)."""
        with self._lock:
            for path in list(self._crd_kinds):
                self._unregister_crd(path)
            self.store.clear()

    def release_secrets(self, ns: str, name: str) -> list[dict]:
        """The stored release Secrets of release `name` by revision, each as
        `kubectl get secret NAME -o json` shows it."""
        prefix = f"/api/v1/namespaces/{ns}/secrets/"
        with self._lock:
            out = [copy.deepcopy(o) for p, o in self.store.items()
                   if p.startswith(prefix) and o.get("type") == "helm.sh/release.v1"
                   and o["metadata"].get("labels", {}).get("owner") == "helm"
                   and o["metadata"].get("labels", {}).get("name") == name]
        return sorted(out, key=lambda o: int(o["metadata"]["labels"].get("version", "0")))

    def object_paths(self) -> list[str]:
        """URL paths of the stored objects other than release Secrets."""
        with self._lock:
            return sorted(p for p, o in self.store.items() if o.get("type") != "helm.sh/release.v1")

    def close(self):
        self._stopping.set()
        self.srv.shutdown()
        self.srv.server_close()


MODES = {
    "default": {},
    "reuse": {"reuse_values": True},
    "reset": {"reset_values": True},
    "reset-then-reuse": {"reset_then_reuse_values": True},
}


def upgrade_values(old_chart: str, old_vals: dict, new_chart: str, new_vals: dict,
                   modes: list[str], name: str, ns: str, keep_templates: bool,
                   dump_dir: str | None = None) -> tuple[dict, list[str]]:
    old_path = _prepare_chart(old_chart, probe=True, strip_templates=not keep_templates)
    new_path = _prepare_chart(new_chart, probe=True, strip_templates=not keep_templates)
    out: dict = {}
    assumed: list[str] = []
    kube = FakeKube()
    try:
        for mode in modes:
            while True:
                kube.reset()
                res: dict = {}
                _upgrade_mode(kube, mode, res, old_path, old_vals, new_path, new_vals, name, ns)
                if res["status"] == "ok" or not _assume_missing_kinds(kube, res["error"], assumed):
                    break
            if dump_dir is not None:
                res["dumped"] = dump_secrets(kube.release_secrets(ns, name), os.path.join(dump_dir, mode))
            out[mode] = res
    finally:
        kube.close()
    return out, assumed


def _upgrade_mode(kube, mode, res, old_path, old_vals, new_path, new_vals, name, ns) -> None:
    """install OLD, upgrade to NEW in `mode`; fills res."""
    with _helm.Config(kube_apiserver=kube.url, namespace=ns) as cfg:
        base_opts = {"disable_openapi_validation": True, "namespace": ns}
        try:
            rel = _call_action("helm_install", cfg, old_path, name, old_vals, base_opts)
        except HelmError as e:
            res.update(status="error", stage="install", error=str(e.detail))
            return
        res["installed_values"] = _probe_values(rel.get("manifest", ""))
        up_opts = {"disable_openapi_validation": True}
        up_opts.update(MODES[mode])
        try:
            rel2 = _call_action("helm_upgrade", cfg, new_path, name, new_vals, up_opts)
        except HelmError as e:
            res.update(status="error", stage="upgrade", error=str(e.detail))
            return
        res["status"] = "ok"
        res["values"] = _probe_values(rel2.get("manifest", ""))
        # `helm get values` (user-supplied config stored with revision 2)
        stored = json.loads(_native.call_string(
            "helm_get_values", cfg._raw(), name, json.dumps({"revision": 2})))
        res["stored_config"] = stored


def release_secrets(steps: list[dict], name: str, ns: str, keep_templates: bool,
                    rollback: dict | None = None) -> dict:
    """`helm install` (revision 1) and one `helm upgrade` per further step
    (revisions 2, 3, ...) against the fake API server; returns the stored
    release Secrets, and the URL paths of the other objects left in the API.
    A step: chart, vals, opts (upgrade mode and the like).
    With `rollback` ({"opts": helm_rollback options, "edits": [(path, merge
    patch)]}), the edits are merged into the stored objects (changes made in
    the cluster), then `helm rollback` runs and `res["rollback"]` holds the
    state before it (Secrets, objects) and every write it sent."""
    paths = [_prepare_chart(s["chart"], probe=False, strip_templates=not keep_templates) for s in steps]
    kube = FakeKube()
    assumed: list[str] = []
    try:
        while True:
            kube.reset()
            res: dict = {"status": "ok"}
            with _helm.Config(kube_apiserver=kube.url, namespace=ns) as cfg:
                for i, (step, path) in enumerate(zip(steps, paths)):
                    opts = {"disable_openapi_validation": True, "namespace": ns}
                    opts.update(step["opts"])
                    action = "helm_upgrade" if i else "helm_install"
                    try:
                        _call_action(action, cfg, path, name, step["vals"], opts)
                    except HelmError as e:
                        res.update(status="error", stage=action[5:], step=i, error=str(e.detail))
                        break
                if rollback is not None and res["status"] == "ok":
                    res["rollback"] = _rollback(kube, cfg, name, ns, rollback)
            if res["status"] == "ok" or not _assume_missing_kinds(kube, res["error"], assumed):
                break
        res["items"] = kube.release_secrets(ns, name)
        res["objects"] = kube.object_paths()
        res["assumed_kinds"] = assumed
    finally:
        kube.close()
    return res


def _rollback(kube: FakeKube, cfg, name: str, ns: str, rollback: dict) -> dict:
    """`helm rollback` against the fake API server, recording its writes."""
    with kube._lock:
        for path, patch in rollback.get("edits", []):
            if path not in kube.store:
                raise SystemExit(f"--live-merge: no object at {path}; objects: {kube.object_paths()}")
            kube.store[path] = _merge_patch(kube.store[path], patch)
        objects = [copy.deepcopy(kube.store[p]) for p in kube.object_paths()]
    before = {"items": kube.release_secrets(ns, name), "objects": objects}
    kube.requests.clear()
    kube.recording[0] = True
    out: dict = {"before": before, "status": "ok"}
    try:
        _native.call_status("helm_rollback", cfg._raw(), name, json.dumps(rollback["opts"]))
    except HelmError as e:
        out.update(status="error", error=str(e.detail))
    finally:
        kube.recording[0] = False
    release_prefix = f"/api/v1/namespaces/{ns}/secrets/sh.helm.release.v1."
    out["requests"] = [r for r in kube.requests
                       if not urllib.parse.urlparse(r["path"]).path.startswith(release_prefix)
                       and not (r["method"] == "POST" and urllib.parse.urlparse(r["path"]).path
                                == f"/api/v1/namespaces/{ns}/secrets" and r["body"] is None)]
    out["after"] = kube.release_secrets(ns, name)
    return out


_NO_KIND = re.compile(r'no matches for kind "([^"]+)" in version "([^"/]+/[^"]+)"')


def _assume_missing_kinds(kube: FakeKube, error: str, assumed: list[str]) -> bool:
    """Helm failed on custom kinds the API does not serve (a real cluster
    would need their CRDs first): serve them as if the CRDs were installed.
    True when there was a new one, so that the caller runs again from scratch."""
    new = [(gv, k) for k, gv in _NO_KIND.findall(error) if f"{gv}/{k}" not in assumed]
    for gv, k in new:
        kube.assume_kind(gv, k)
        assumed.append(f"{gv}/{k}")
    return bool(new)


def secret_list(items: list[dict]) -> dict:
    """What `kubectl get secrets -o json` prints for several objects."""
    return {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}


def dump_secrets(items: list[dict], folder: str) -> list[str]:
    """Write each Secret to folder/NAME.json (kubectl's -o json layout)."""
    os.makedirs(folder, exist_ok=True)
    out = []
    for o in items:
        p = os.path.join(folder, o["metadata"]["name"] + ".json")
        with open(p, "w", encoding="utf-8") as f:
            f.write(json.dumps(o, indent=4, sort_keys=True, ensure_ascii=False) + "\n")
        out.append(p)
    return out


_YAML_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_./+=-]*$")
_YAML_WORDS = {"y", "yes", "n", "no", "true", "false", "on", "off", "null"}


def to_yaml(x, ind: str = "") -> str:
    """YAML laid out like kubectl's -o yaml (sorted keys, block style, list
    items at their key's indentation); strings that are not plainly strings
    are written as double-quoted (JSON) scalars."""
    def scalar(v) -> str:
        if v is None or isinstance(v, (bool, int, float)):
            return json.dumps(v)
        if _YAML_PLAIN.match(v) and v.lower() not in _YAML_WORDS:
            return v
        return json.dumps(v, ensure_ascii=False)

    if isinstance(x, dict) and x:
        out = []
        for k in sorted(x):
            v = x[k]
            if isinstance(v, dict) and v:
                out.append(f"{ind}{scalar(k)}:\n{to_yaml(v, ind + '  ')}")
            elif isinstance(v, list) and v:
                out.append(f"{ind}{scalar(k)}:\n{to_yaml(v, ind)}")
            else:
                out.append(f"{ind}{scalar(k)}: {to_yaml(v).strip()}\n")
        return "".join(out)
    if isinstance(x, list) and x:
        out = []
        for v in x:
            if isinstance(v, (dict, list)) and v:
                body = to_yaml(v, ind + "  ")
            else:
                body = ind + "  " + to_yaml(v).strip()
            out.append(ind + "- " + body[len(ind) + 2:] + ("" if body.endswith("\n") else "\n"))
        return "".join(out)
    if isinstance(x, dict):
        return "{}\n"
    if isinstance(x, list):
        return "[]\n"
    return scalar(x) + "\n"


# --------------------------------------------------------------------------
# CLI


VALUE_FLAGS = {"-f": "files", "--values": "files", "--set": "sets", "--set-string": "strings",
               "--set-json": "jsons", "--set-file": "files_set", "--set-literal": "literals"}


def _csv_split(v: str) -> list[str]:
    # pflag StringSlice reads the flag value as one CSV record
    if v == "":
        return []
    return next(csv.reader([v]))


def parse_args(argv: list[str], positional_max: int, bool_flags: set[str], str_flags: set[str],
               multi_flags: dict | None = None):
    """multi_flags: repeatable flags, alias -> name; their values are listed
    under the name in order."""
    o = ValueOpts()
    pos: list[str] = []
    flags: dict = {}
    multi = multi_flags or {}
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, val = a.partition("=") if a.startswith("--") else (a, "", "")
        if name in VALUE_FLAGS or name in str_flags or name in multi:
            if not eq:
                i += 1
                if i >= len(argv):
                    raise SystemExit(f"flag needs an argument: {name}")
                val = argv[i]
            if name in VALUE_FLAGS:
                attr = VALUE_FLAGS[name]
                if attr == "files":
                    o.files.extend(_csv_split(val))
                else:
                    getattr(o, attr).append(val)
            elif name in multi:
                flags.setdefault(multi[name], []).append(val)
            else:
                flags[name] = val
        elif a.startswith("-f") and len(a) > 2:
            o.files.extend(_csv_split(a[2:]))
        elif a in bool_flags:
            flags[a] = True
        elif a.startswith("-") and a != "-":
            raise SystemExit(f"unknown flag: {a}")
        else:
            pos.append(a)
        i += 1
    if len(pos) > positional_max:
        raise SystemExit(f"too many arguments: {pos}")
    return o, pos, flags


def emit(obj, code=0):
    sys.stdout.write(json.dumps(obj, sort_keys=True, ensure_ascii=False) + "\n")
    return code


def _values_envelope(fn):
    notes: list[str] = []
    try:
        v = fn(notes)
    except HelmFailure as e:
        return emit({"status": "error", "error": str(e), "exact": not notes, "inexact_reasons": notes}, 1)
    except Unsupported as e:
        return emit({"status": "unsupported", "reason": str(e)}, 3)
    return emit({"status": "ok", "values": v, "exact": not notes, "inexact_reasons": notes},
                0 if not notes else 4)


RS_MODES = {"--reuse-values": "reuse_values", "--reset-values": "reset_values",
            "--reset-then-reuse-values": "reset_then_reuse_values"}


def _labels_flag(v: str, into: dict) -> None:
    """pflag StringToString (helm --labels/-l): k=v pairs, CSV when several."""
    n = v.count("=")
    if n == 0:
        raise SystemExit(f"invalid argument {v!r} for --labels: {v} must be formatted as key=value")
    for pair in [v.strip('"')] if n == 1 else next(csv.reader([v])):
        k, eq, val = pair.partition("=")
        if not eq:
            raise SystemExit(f"invalid argument {v!r} for --labels: {pair} must be formatted as key=value")
        into[k] = val


RB_BOOLS = {"--force-replace": "force_replace", "--no-hooks": "disable_hooks",
            "--force-conflicts": "force_conflicts"}


def _rollback_segment(seg: list[str]) -> dict:
    """`--rollback [REVISION] [--force-replace] [--no-hooks] [--force-conflicts]
    [--server-side auto|true|false] [--history-max N] [--live-merge PATH=JSON]...`"""
    opts: dict = {}
    edits: list = []
    it = iter(seg)
    for a in it:
        if a in RB_BOOLS:
            opts[RB_BOOLS[a]] = True
        elif a == "--server-side":
            opts["server_side_apply"] = next(it)
        elif a == "--history-max":
            opts["max_history"] = int(next(it))
        elif a == "--live-merge":
            path, _, patch = next(it).partition("=")
            edits.append((path, json.loads(patch)))
        elif re.fullmatch(r"-?\d+", a):
            opts["version"] = int(a)
        else:
            raise SystemExit(f"--rollback: unknown argument {a!r}")
    return {"opts": opts, "edits": edits}


def release_secrets_cmd(rest: list[str]) -> int:
    """release-secrets: the first segment installs, each --then segment
    upgrades; --name/--namespace/--keep-templates/--as-list/--yaml may stand
    in any segment."""
    rollback = None
    if "--rollback" in rest:
        at = rest.index("--rollback")
        rollback = _rollback_segment(rest[at + 1:])
        rest = rest[:at]
    segs: list[list[str]] = [[]]
    for a in rest:
        if a == "--then":
            segs.append([])
        else:
            segs[-1].append(a)
    fl: dict = {}
    steps: list[dict] = []
    notes: list[str] = []
    for i, seg in enumerate(segs):
        bools = {"--keep-templates", "--as-list", "--yaml"} | (set(RS_MODES) if i else set())
        o, pos, f = parse_args(seg, 1, bools, {"--name", "--namespace", "-n", "--server-side"},
                               {"--labels": "--labels", "-l": "--labels"})
        if len(pos) != 1:
            raise SystemExit("usage: release-secrets CHART [flags] [--then CHART [flags]]...")
        opts: dict = {RS_MODES[m]: True for m in RS_MODES if f.pop(m, None)}
        labels: dict = {}
        for v in f.pop("--labels", []):
            _labels_flag(v, labels)
        if labels:
            opts["labels"] = labels
        if "--server-side" in f:
            ss = f.pop("--server-side")
            if i == 0 and ss not in ("true", "false"):
                raise SystemExit(f'invalid argument "{ss}" for "--server-side" on install: use true or false')
            if ss not in ("true", "false", "auto"):
                raise SystemExit(f'invalid argument "{ss}" for "--server-side" flag: use true, false or auto')
            opts["server_side_apply"] = (ss == "true") if i == 0 else ss
        fl.update(f)
        try:
            steps.append({"chart": pos[0], "vals": merge_user_values(o, notes), "opts": opts})
        except HelmFailure as e:
            return emit({"status": "error", "stage": "values", "step": i, "error": str(e),
                         "exact": not notes, "inexact_reasons": notes}, 1)
    try:
        res = release_secrets(steps, fl.get("--name", "rel"), fl.get("--namespace", fl.get("-n", "default")),
                              bool(fl.get("--keep-templates")), rollback)
    except HelmFailure as e:
        return emit({"status": "error", "error": str(e), "exact": not notes, "inexact_reasons": notes}, 1)
    except Unsupported as e:
        return emit({"status": "unsupported", "reason": str(e)}, 3)
    res.update(exact=not notes, inexact_reasons=notes)
    code = 1 if res["status"] != "ok" else (4 if notes else 0)
    if fl.get("--as-list") and res["status"] == "ok":
        res = secret_list(res["items"])
    if fl.get("--yaml"):
        sys.stdout.write(to_yaml(res))
        return code
    return emit(res, code)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        sys.stdout.write(__doc__)
        return 0
    cmd, rest = argv[0], argv[1:]

    if cmd == "batch":
        # one JSON array of argv per stdin line -> one JSON line per request
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            try:
                args = json.loads(line)
                if not isinstance(args, list) or not args or args[0] == "batch":
                    raise SystemExit("each line must be a JSON array of arguments (not 'batch')")
                main([str(a) for a in args])
            except SystemExit as e:
                emit({"status": "usage_error", "error": str(e)})
            except Exception as e:  # keep the batch alive
                emit({"status": "oracle_error", "error": f"{type(e).__name__}: {e}"})
            finally:
                _cleanup()
                del _TEMPS[:]
            sys.stdout.flush()
        return 0

    if cmd == "version":
        return emit({"helm_sdk": _helm.helm_sdk_version(), "helm_c": _helm.helm_c_version(),
                     "helm_python_sdk": _helm.__version__})

    if cmd == "strvals":
        if len(rest) != 2 or rest[0] not in STRVALS_FN:
            raise SystemExit("usage: strvals set|string|json|literal|file EXPR")
        try:
            return emit({"status": "ok", "values": strvals_raw(rest[0], rest[1])})
        except HelmError as e:
            return emit({"status": "error", "error": str(e.detail)}, 1)

    if cmd == "merge":
        o, _, _ = parse_args(rest, 0, set(), set())
        return _values_envelope(lambda notes: merge_user_values(o, notes))

    if cmd == "values":
        o, pos, fl = parse_args(rest, 1, {"--skip-schema-validation", "--keep-templates", "--raw"},
                                {"--name", "--namespace", "-n"})
        if len(pos) != 1:
            raise SystemExit("usage: values CHART [flags]")
        name = fl.get("--name", "release-name")
        ns = fl.get("--namespace", fl.get("-n", "default"))

        def run(notes):
            vals = merge_user_values(o, notes)
            return final_values(pos[0], vals, name, ns, bool(fl.get("--keep-templates")),
                                bool(fl.get("--skip-schema-validation")))
        if fl.get("--raw"):
            notes: list[str] = []
            try:
                return emit(run(notes), 0 if not notes else 4)
            except (HelmFailure, Unsupported) as e:
                sys.stderr.write(f"Error: {e}\n")
                return 1
        return _values_envelope(run)

    if cmd == "render":
        o, pos, fl = parse_args(rest, 1, {"--engine", "--skip-schema-validation", "--is-upgrade"},
                                {"--name", "--namespace", "-n", "--kube-version"},
                                {"--api-versions": "--api-versions", "-a": "--api-versions"})
        if len(pos) != 1:
            raise SystemExit("usage: render CHART [flags]")
        name = fl.get("--name", "release-name")
        ns = fl.get("--namespace", fl.get("-n", "default"))
        caps: dict = {}
        if fl.get("--kube-version"):
            caps["kube_version"] = fl["--kube-version"]
        apis = [a for v in fl.get("--api-versions", []) for a in _csv_split(v)]
        if apis:
            caps["api_versions"] = apis
        is_upgrade = bool(fl.get("--is-upgrade"))
        notes = []
        try:
            vals = merge_user_values(o, notes)
            if fl.get("--engine"):
                r = engine_render(pos[0], vals, name, ns, caps, is_upgrade)
                return emit({"status": "ok", "templates": r, "exact": not notes, "inexact_reasons": notes})
            extra = {"skip_schema_validation": True} if fl.get("--skip-schema-validation") else {}
            extra.update(caps)
            rel = template_install(pos[0], vals, name, ns, extra)
            if is_upgrade:
                # the install action has no IsUpgrade: Helm's engine renders, the checked port sorts
                text = helm_template(pos[0], vals, name, ns, caps.get("kube_version"), apis, True)
                rel["manifest"] = text  # manifest and hooks, as `helm template` prints them
                notes.append("--is-upgrade: manifest sorted by the oracle's port of SortManifests "
                             "(checked against Helm's install action on the install rendering)")
        except HelmFailure as e:
            return emit({"status": "error", "error": str(e), "exact": not notes, "inexact_reasons": notes}, 1)
        except Unsupported as e:
            return emit({"status": "unsupported", "reason": str(e)}, 3)
        man = rel.get("manifest", "")
        return emit({"status": "ok", "manifest": man, "templates": split_manifest(man),
                     "notes": rel.get("notes", ""), "exact": not notes, "inexact_reasons": notes})

    if cmd == "upgrade-values":
        if "--to" not in rest:
            raise SystemExit("usage: upgrade-values OLD_CHART [flags] --to NEW_CHART [flags] [--modes ...]")
        k = rest.index("--to")
        o_old, pos_old, fl_old = parse_args(rest[:k], 1, {"--keep-templates"},
                                            {"--name", "--namespace", "-n", "--modes", "--dump-secrets"})
        o_new, pos_new, fl_new = parse_args(rest[k + 1:], 1, {"--keep-templates"},
                                            {"--name", "--namespace", "-n", "--modes", "--dump-secrets"})
        fl = {**fl_old, **fl_new}
        if len(pos_old) != 1 or len(pos_new) != 1:
            raise SystemExit("usage: upgrade-values OLD_CHART [flags] --to NEW_CHART [flags]")
        modes = fl.get("--modes", "default,reuse,reset,reset-then-reuse").split(",")
        for m in modes:
            if m not in MODES:
                raise SystemExit(f"unknown mode {m}; known: {', '.join(MODES)}")
        notes: list[str] = []
        try:
            old_vals = merge_user_values(o_old, notes)
            new_vals = merge_user_values(o_new, notes)
        except HelmFailure as e:
            return emit({"status": "error", "error": str(e), "exact": not notes, "inexact_reasons": notes}, 1)
        res, assumed = upgrade_values(pos_old[0], old_vals, pos_new[0], new_vals, modes,
                                      fl.get("--name", "rel"), fl.get("--namespace", fl.get("-n", "default")),
                                      bool(fl.get("--keep-templates")), fl.get("--dump-secrets"))
        out = {"status": "ok", "old_user_values": old_vals, "new_user_values": new_vals,
               "modes": res, "exact": not notes, "inexact_reasons": notes}
        if assumed:
            out["assumed_kinds"] = assumed
        return emit(out)

    if cmd == "release-secrets":
        return release_secrets_cmd(rest)

    raise SystemExit(f"unknown command {cmd}")


if __name__ == "__main__":
    try:
        rc = main(sys.argv[1:])
    finally:
        _cleanup()
        for d in _PERSIST:
            shutil.rmtree(d, ignore_errors=True)
    sys.exit(rc)
