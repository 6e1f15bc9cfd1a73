#!/usr/bin/env python3
"""Generate the built-in patch-metadata table (src/patch/data/k8s-v*-patchmeta.json)
from the Kubernetes OpenAPI definitions shipped in the PyPI package
`kubernetes-validate`, and compare such a table with another one.

Usage (from the repository root):

    python3 scripts/gen_patchmeta.py                      # 1.36 -> src/patch/data/k8s-v1.36-patchmeta.json
    python3 scripts/gen_patchmeta.py --k8s 1.36 --out /tmp/t.json
    python3 scripts/gen_patchmeta.py --k8s 1.36 --compare src/patch/data/k8s-v0.36.2-patchmeta.json

The first run creates `.venv/` (git-ignored) and installs
`kubernetes-validate==KV_VERSION` into it; the definitions are read from
`kubernetes_validate/kubernetes-json-schema/v<k8s>.0-local/_definitions.json`
(JSON Schema 2020-12, everything under `$defs`, one entry per OpenAPI
definition, named like `io.k8s.api.core.v1.PodSpec`).  `--schema-dir DIR`
reads `DIR/v<k8s>.0-local/_definitions.json` instead (no venv, no network).
With `--compare FILE` nothing is written unless `--out` is also given.

Output format: exactly what src/patch/meta/types.rs (`from_patchmeta_table`)
and src/patch/meta/builtin.rs read; see shared/conformance/patchmeta/README.md.
Minified JSON, kinds sorted, types in breadth-first order from the kinds,
fields in the definitions' (alphabetical) property order.

Rules (each one mirrors how the committed, Go-struct-tag table was built)
--------------------------------------------------------------------------

1. Kinds.  Every `x-kubernetes-group-version-kind` entry of a definition is a
   candidate `"<apiVersion>/<Kind>"` (core group: `v1/Pod`).  Skipped, as in
   the committed table (which holds the types k8s.io/api packages register
   with AddKnownTypes, minus List and Options types):
   - kinds whose type lives in k8s.io/apimachinery (`io.k8s.apimachinery.*`:
     DeleteOptions, WatchEvent, Status, APIGroup, APIGroupList, APIVersions,
     APIResourceList) - metav1.AddToGroupVersion / discovery types, not
     k8s.io/api kinds;
   - kinds whose type is not from k8s.io/api or apiextensions-apiserver
     (`io.k8s.kube-aggregator.*` APIService): not a Go type Helm knows, not in
     its scheme, so Helm (and releasex, for a kind missing from the table)
     sends a JSON merge patch anyway;
   - List kinds (kind ends in `List` and the type has an `items` array) and
     Options kinds (kind ends in `Options`).
   Review/request kinds (TokenReview, SubjectAccessReview, Eviction, Scale,
   Binding, TokenRequest, ...) are kept, as in the committed table.

2. `inHelmScheme: false` for the kinds in NOT_IN_HELM_SCHEME below: their
   groups (admission.k8s.io, apidiscovery.k8s.io, imagepolicy.k8s.io) are
   not installed by client-go's kubernetes/scheme/register.go (v0.36.2), so
   Helm handles them as unstructured.  Every other kind is in Helm's scheme
   (client-go's scheme + apiextensions v1/v1beta1, which Helm adds in
   pkg/kube/converter.go).  None of these kinds is a served REST resource, so
   none is in the OpenAPI definitions of any version: the list is applied
   only if a version's definitions ever carry one.
   `helmPatchType: json-merge-patch` on apiextensions.k8s.io/v1beta1
   CustomResourceDefinition (Helm pkg/kube/client.go createPatch
   special-cases *apiextv1beta1.CustomResourceDefinition) when the version's
   definitions include that kind (1.25+ do not: removed in 1.22).

3. Types: the definitions reachable from the kinds' types through `$ref`
   (in properties, `items` and `additionalProperties`), each as
   `{"fields": {...}}`.  Definition-level `x-kubernetes-map-type` (Go
   `+structType=atomic|granular`) becomes `structType`.  Scalar-like
   definitions are not types but scalar words (rule 5); raw definitions are
   types with `customJSON: true` (rule 4).

4. Raw types (Go types with a custom JSON marshaller: arbitrary JSON):
   `kind: raw` with `ref`, and the type itself `{"customJSON": true,
   "fields": {...}}`.  Detected as
   - a definition with neither `type`, `properties` nor `oneOf` (any JSON
     value: apiextensions JSON, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool,
     JSONSchemaPropsOrStringArray), or
   - a name in KNOWN_RAW (runtime.RawExtension, metav1.FieldsV1: these are
     `type: object` without `properties`/`additionalProperties`, which is
     also how an empty Go struct such as StorageVersionSpec or
     CustomResourceSubresourceStatus looks, so a name list is needed to tell
     them apart; an empty struct stays `{"fields": {}}`).
   A raw type's own fields are its exported Go fields (the Go lookups see
   those, e.g. JSONSchemaPropsOrArray.Schema); OpenAPI does not carry them,
   so RAW_GO_FIELDS hardcodes them from apiextensions-apiserver's types.go.
   RawExtension (Raw/Object are `json:"-"`), FieldsV1 and JSON have none.

5. Scalar words (`kind: scalar`, `type`), from `type` (with `null` dropped)
   and `format`: string; string+byte -> bytes; string+date-time -> time
   (metav1.Time, MicroTime, referenced by `$ref`); integer; number; boolean;
   a `oneOf` of string|integer -> int-or-string (intstr.IntOrString), of
   string|number -> quantity (resource.Quantity).  `duration`
   (metav1.Duration) is rendered by OpenAPI as a plain `string` and cannot be
   told apart; no k8s.io/api kind uses it in 1.36.

6. Fields: `$ref` -> struct (or raw / scalar per rules 4-5); `type: array`
   -> list with `items` (a scalar word, a type name, or `{"list": ...}` /
   `{"map": ...}` for nested containers); `type: object` with
   `additionalProperties` -> map with `values` (same encoding, e.g.
   `{"list": "string"}` for `map[string][]string`).  Extensions copied:
   `x-kubernetes-patch-strategy` -> patchStrategy, `x-kubernetes-patch-merge-key`
   -> patchMergeKey, `x-kubernetes-list-type` -> listType,
   `x-kubernetes-list-map-keys` -> listMapKeys, `x-kubernetes-map-type` ->
   mapType on maps and structType on `$ref` fields.  A property shape the
   script does not know is an error (fix the script, don't guess).

What OpenAPI cannot reproduce (see --compare):
   - `pointer` (whether the Go field is a pointer): not emitted.  It never
     changes the patch of a valid object; it only decides Go's behaviour on
     ill-typed input (a list given for a pointer-to-struct/scalar field is
     looked up through the pointer instead of failing with "expected slice
     or array type") and the kind word in a few error messages ("ptr").
   - Go field declaration order: only consulted for case-insensitive key
     matches with more than one candidate, which no k8s.io/api type has.
   - Types and kinds of group-versions the API server of that version does
     not serve (removed betas such as extensions/v1beta1, apps/v1beta1/2,
     flowcontrol v1beta1-3; review-only types such as AdmissionReview,
     ConversionReview, ImageReview, APIGroupDiscovery; core PodStatusResult,
     RangeAllocation, SerializedReference): they are in k8s.io/api's Go code
     but in no `_definitions.json`.
   - Go type aliases: e.g. admissionregistration v1alpha1 uses
     `MatchCondition = v1.MatchCondition`; OpenAPI names a per-version copy.
"""

import argparse
import json
import os
import subprocess
import sys
from collections import OrderedDict, defaultdict, deque

# Pinned package providing the definitions (Apache-2.0).
KV_PACKAGE = "kubernetes-validate"
KV_VERSION = "1.37.0"

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(REPO, ".venv")

# client-go kubernetes/scheme/register.go (v0.36.2) installs no
# admission.k8s.io, apidiscovery.k8s.io or imagepolicy.k8s.io group: Helm
# converts these as unstructured (JSON merge patch).
NOT_IN_HELM_SCHEME = {
    "admission.k8s.io/v1/AdmissionReview",
    "admission.k8s.io/v1beta1/AdmissionReview",
    "apidiscovery.k8s.io/v2/APIGroupDiscovery",
    "apidiscovery.k8s.io/v2beta1/APIGroupDiscovery",
    "imagepolicy.k8s.io/v1alpha1/ImageReview",
}

# Helm pkg/kube/client.go createPatch: `_, isCRD := versionedObject.(*apiextv1beta1.CustomResourceDefinition)`.
HELM_JSON_MERGE_KINDS = {"apiextensions.k8s.io/v1beta1/CustomResourceDefinition"}

# Raw types that look like empty structs in OpenAPI (`type: object`, no properties).
KNOWN_RAW = {
    "io.k8s.apimachinery.pkg.runtime.RawExtension",
    "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1",
}

# Exported Go fields of the apiextensions JSONSchemaPropsOr* types (no json
# tags, so encoding/json names are the Go names), from
# k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/{v1,v1beta1}/types_jsonschema.go.
# `{pkg}` is replaced by the definition's package prefix.
RAW_GO_FIELDS = {
    "JSONSchemaPropsOrArray": [
        ("Schema", {"pointer": True, "kind": "struct", "ref": "{pkg}.JSONSchemaProps"}),
        ("JSONSchemas", {"kind": "list", "items": "{pkg}.JSONSchemaProps", "listType": "atomic"}),
    ],
    "JSONSchemaPropsOrBool": [
        ("Allows", {"kind": "scalar", "type": "boolean"}),
        ("Schema", {"pointer": True, "kind": "struct", "ref": "{pkg}.JSONSchemaProps"}),
    ],
    "JSONSchemaPropsOrStringArray": [
        ("Schema", {"pointer": True, "kind": "struct", "ref": "{pkg}.JSONSchemaProps"}),
        ("Property", {"kind": "list", "items": "string", "listType": "atomic"}),
    ],
}

SCALAR_WORDS = {"string", "integer", "number", "boolean", "bytes", "time", "duration", "quantity", "int-or-string"}

# Field attribute order of the committed table.
FIELD_KEY_ORDER = ["pointer", "kind", "type", "ref", "items", "values", "patchStrategy", "patchMergeKey",
                   "listType", "listMapKeys", "mapType", "structType"]


# ---------------------------------------------------------------- package


def ensure_schema_root(schema_dir):
    """The kubernetes-json-schema directory of the pinned package."""
    if schema_dir:
        return schema_dir
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        print(f"creating {VENV}", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    probe = ("import importlib.metadata as m, os, kubernetes_validate as k;"
             f"print(m.version('{KV_PACKAGE}'));print(os.path.dirname(k.__file__))")
    r = subprocess.run([py, "-c", probe], capture_output=True, text=True)
    if r.returncode != 0 or r.stdout.split("\n")[0] != KV_VERSION:
        print(f"installing {KV_PACKAGE}=={KV_VERSION} into {VENV}", file=sys.stderr)
        subprocess.check_call([os.path.join(VENV, "bin", "pip"), "install", "-q", f"{KV_PACKAGE}=={KV_VERSION}"])
        r = subprocess.run([py, "-c", probe], capture_output=True, text=True, check=True)
    version, pkgdir = r.stdout.split("\n")[:2]
    if version != KV_VERSION:
        sys.exit(f"{KV_PACKAGE} {version} installed in {VENV}, want {KV_VERSION}")
    return os.path.join(pkgdir, "kubernetes-json-schema")


def load_definitions(schema_root, k8s):
    path = os.path.join(schema_root, f"v{k8s}.0-local", "_definitions.json")
    if not os.path.exists(path):
        have = sorted(d for d in os.listdir(schema_root) if d.endswith("-local"))
        sys.exit(f"no {path}; the package has: {', '.join(have)}")
    with open(path) as f:
        doc = json.load(f)
    return doc.get("$defs") or doc["definitions"], path


# ---------------------------------------------------------------- generation


def ref_name(ref):
    return ref.rsplit("/", 1)[-1]


def types_of(t):
    """`type` without `null`, as a list."""
    if t is None:
        return []
    ts = t if isinstance(t, list) else [t]
    return [x for x in ts if x != "null"]


def one_type(schema, where):
    ts = types_of(schema.get("type"))
    if len(ts) > 1:
        raise SystemExit(f"{where}: several types {ts}")
    return ts[0] if ts else None


def scalar_word(t, fmt, where):
    if t == "string":
        return {"byte": "bytes", "date-time": "time"}.get(fmt or "", "string")
    if t in ("integer", "number", "boolean"):
        return t
    raise SystemExit(f"{where}: not a scalar type {t!r}")


class Generator:
    def __init__(self, defs):
        self.defs = defs

    # What a definition is: ("scalar", word) | ("raw", None) | ("struct", None)
    def classify(self, name):
        d = self.defs.get(name)
        if d is None:
            raise SystemExit(f"$ref to unknown definition {name}")
        if "oneOf" in d:
            alts = sorted(t for alt in d["oneOf"] for t in types_of(alt.get("type")))
            if alts == ["integer", "string"]:
                return ("scalar", "int-or-string")
            if alts == ["number", "string"]:
                return ("scalar", "quantity")
            raise SystemExit(f"{name}: unknown oneOf {alts}")
        t = one_type(d, name)
        if name in KNOWN_RAW:
            return ("raw", None)
        if t is None and "properties" not in d:
            return ("raw", None)
        if t in ("string", "integer", "number", "boolean"):
            return ("scalar", scalar_word(t, d.get("format"), name))
        if t == "object" or t is None:
            if "additionalProperties" in d:
                raise SystemExit(f"{name}: named map definitions are not supported")
            return ("struct", None)
        raise SystemExit(f"{name}: unknown definition shape (type {t!r})")

    def element(self, schema, where):
        """items / values encoding: scalar word, type name, {"list": ...}, {"map": ...}."""
        if "$ref" in schema:
            name = ref_name(schema["$ref"])
            what, word = self.classify(name)
            if what == "scalar":
                return word
            self.want(name)
            return name
        t = one_type(schema, where)
        if t == "array":
            return {"list": self.element(schema["items"], where + "[]")}
        if t == "object" and "additionalProperties" in schema:
            return {"map": self.element(schema["additionalProperties"], where + "{}")}
        return scalar_word(t, schema.get("format"), where)

    def field(self, p, where):
        f = {}
        if "$ref" in p:
            name = ref_name(p["$ref"])
            what, word = self.classify(name)
            if what == "scalar":
                f.update(kind="scalar", type=word)
            else:
                f.update(kind="raw" if what == "raw" else "struct", ref=name)
                self.want(name)
            if "x-kubernetes-map-type" in p:
                f["structType"] = p["x-kubernetes-map-type"]
        else:
            t = one_type(p, where)
            if t == "array":
                f.update(kind="list", items=self.element(p["items"], where + "[]"))
            elif t == "object":
                if "additionalProperties" not in p:
                    raise SystemExit(f"{where}: inline object without additionalProperties")
                f.update(kind="map", values=self.element(p["additionalProperties"], where + "{}"))
                if "x-kubernetes-map-type" in p:
                    f["mapType"] = p["x-kubernetes-map-type"]
            elif t is None:
                raise SystemExit(f"{where}: property without type or $ref: {sorted(p)}")
            else:
                f.update(kind="scalar", type=scalar_word(t, p.get("format"), where))
        for ext, key in (("x-kubernetes-patch-strategy", "patchStrategy"),
                         ("x-kubernetes-patch-merge-key", "patchMergeKey"),
                         ("x-kubernetes-list-type", "listType"),
                         ("x-kubernetes-list-map-keys", "listMapKeys")):
            if ext in p:
                f[key] = p[ext]
        return OrderedDict((k, f[k]) for k in FIELD_KEY_ORDER if k in f)

    def want(self, name):
        if name not in self.seen:
            self.seen.add(name)
            self.queue.append(name)

    def type_entry(self, name):
        d = self.defs[name]
        what, _ = self.classify(name)
        out = OrderedDict()
        if what == "raw":
            out["customJSON"] = True
            fields = OrderedDict()
            short = name.rsplit(".", 1)[-1]
            pkg = name.rsplit(".", 1)[0]
            for json_name, f in RAW_GO_FIELDS.get(short, []):
                f = json.loads(json.dumps(f).replace("{pkg}", pkg))
                for k in ("ref", "items"):
                    if isinstance(f.get(k), str) and "." in f[k]:
                        self.want(f[k])
                fields[json_name] = OrderedDict((k, f[k]) for k in FIELD_KEY_ORDER if k in f)
            out["fields"] = fields
            return out
        out["fields"] = OrderedDict(
            (fname, self.field(p, f"{name}.{fname}")) for fname, p in d.get("properties", {}).items())
        if "x-kubernetes-map-type" in d:
            out["structType"] = d["x-kubernetes-map-type"]
        return out

    def kinds(self):
        kinds = {}
        for name, d in self.defs.items():
            for gvk in d.get("x-kubernetes-group-version-kind", []):
                group, version, kind = gvk["group"], gvk["version"], gvk["kind"]
                key = f"{group}/{version}/{kind}" if group else f"{version}/{kind}"
                if not (name.startswith("io.k8s.api.") or name.startswith("io.k8s.apiextensions-apiserver.")):
                    continue  # apimachinery meta/v1 and kube-aggregator kinds
                if kind.endswith("Options"):
                    continue
                items = d.get("properties", {}).get("items", {})
                if kind.endswith("List") and "array" in types_of(items.get("type")):
                    continue
                if key in kinds and kinds[key] != name:
                    raise SystemExit(f"{key}: two types {kinds[key]} and {name}")
                kinds[key] = name
        return kinds

    def generate(self, source):
        kinds = self.kinds()
        self.seen, self.queue = set(), deque()
        out_kinds = OrderedDict()
        for key in sorted(kinds):
            entry = OrderedDict(type=kinds[key])
            if key in NOT_IN_HELM_SCHEME:
                entry["inHelmScheme"] = False
            if key in HELM_JSON_MERGE_KINDS:
                entry["helmPatchType"] = "json-merge-patch"
            out_kinds[key] = entry
            self.want(kinds[key])
        types = OrderedDict()
        while self.queue:
            name = self.queue.popleft()
            types[name] = self.type_entry(name)
        return OrderedDict(generatedBy="scripts/gen_patchmeta.py", source=source, kinds=out_kinds, types=types)


# ---------------------------------------------------------------- comparison

PATCH_ATTRS = ("kind", "type", "patchStrategy", "patchMergeKey")   # read by the lookups
ELEM_ATTRS = ("ref", "items", "values")                             # type graph (names compared structurally)
MARKER_ATTRS = ("listType", "listMapKeys", "mapType", "structType")  # SSA markers, not read by the SMP code
GO_ATTRS = ("pointer",)                                             # Go-only


def short(name):
    return name.rsplit(".", 1)[-1] if isinstance(name, str) else name


def compare(gen, other, other_path, def_names):
    """Print every difference between `gen` (this script's table) and `other`.
    Returns the number of differences that matter for patching."""
    gk, ok = gen["kinds"], other["kinds"]
    gt, ot = gen["types"], other["types"]
    counts = defaultdict(int)
    lines = []

    def out(cat, msg):
        counts[cat] += 1
        lines.append(f"[{cat}] {msg}")

    # Kinds.
    for k in sorted(set(ok) - set(gk)):
        why = "type not in this version's OpenAPI" if ok[k]["type"] not in def_names else "type in OpenAPI without this GVK"
        out("kind-missing", f"{k} ({ok[k]['type']}; {why})")
    for k in sorted(set(gk) - set(ok)):
        out("kind-extra", f"{k} ({gk[k]['type']})")
    pairs = deque()
    for k in sorted(set(gk) & set(ok)):
        g, o = gk[k], ok[k]
        for a in ("inHelmScheme", "helmPatchType"):
            if g.get(a) != o.get(a):
                out("kind-flag", f"{k}: {a} generated={g.get(a)!r} {other_path}={o.get(a)!r}")
        pairs.append((g["type"], o["type"], k))

    # Walk both type graphs in parallel from the common kinds.
    visited = set()
    renamed = {}
    while pairs:
        gn, on, via = pairs.popleft()
        if (gn, on) in visited:
            continue
        visited.add((gn, on))
        if gn != on:
            renamed[(gn, on)] = via
        if gn not in gt or on not in ot:
            out("graph", f"{via}: {gn} / {on} missing on one side")
            continue
        compare_type(gt[gn], ot[on], gn if gn == on else f"{gn} ~ {on}", out, pairs)

    # Same-named types the walk did not reach (only reachable from kinds one side lacks).
    walked_g = {g for g, _ in visited}
    walked_o = {o for _, o in visited}
    for name in sorted(set(gt) & set(ot)):
        if name not in walked_g or name not in walked_o:
            compare_type(gt[name], ot[name], name + " (not reachable from common kinds)", out, deque())

    for (gn, on), via in sorted(renamed.items()):
        note = "same Go short name (Go type alias)" if short(gn) == short(on) else "DIFFERENT short names"
        out("type-renamed", f"{gn} (generated) ~ {on} ({other_path}); {note}; first reached via {via}")

    only_o = [n for n in ot if n not in gt and n not in walked_o]
    only_g = [n for n in gt if n not in ot and n not in walked_g]
    counts["types-missing-total"] = len(only_o)
    by_pkg = defaultdict(list)
    for n in only_o:
        by_pkg[n.rsplit(".", 1)[0]].append(short(n))
    for pkg in sorted(by_pkg):
        out("type-missing", f"{pkg}: {len(by_pkg[pkg])} types not generated "
            f"({'package not in OpenAPI' if not any(d.startswith(pkg + '.') for d in def_names) else 'package in OpenAPI'}): "
            + ", ".join(sorted(by_pkg[pkg])))
    for n in sorted(only_g):
        out("type-extra", n)

    # Field order (Go declaration order vs OpenAPI's alphabetical order) only
    # matters for a case-insensitive key with several candidate fields.
    order_diff = sum(1 for n in set(gt) & set(ot) if list(gt[n]["fields"]) != list(ot[n]["fields"]))
    for name, t in list(gt.items()) + list(ot.items()):
        folded = defaultdict(list)
        for f in t["fields"]:
            folded[f.lower()].append(f)
        for fs in folded.values():
            if len(fs) > 1:
                out("field-fold-collision", f"{name}: fields {fs} match the same key case-insensitively (order matters)")

    for line in lines:
        print(line)
    print()
    print(f"kinds: generated {len(gk)}, {other_path} {len(ok)}, common {len(set(gk) & set(ok))}")
    print(f"types: generated {len(gt)}, {other_path} {len(ot)}, same name {len(set(gt) & set(ot))}, "
          f"type pairs reachable from common kinds {len(visited)}")
    print(f"types whose field order differs: {order_diff} (no effect unless a field-fold-collision is listed)")
    print("differences by category:")
    for cat, what in CATEGORIES:
        print(f"  {cat:22} {counts.get(cat, 0):5}  {what}")
    relevant = sum(counts.get(c, 0) for c in PATCH_RELEVANT)
    print(f"patch-relevant differences for the common kinds ({', '.join(PATCH_RELEVANT)}): {relevant}")
    return relevant, counts


CATEGORIES = [
    ("kind-missing", "kinds only in the other table (their type is in no definition of this version)"),
    ("kind-extra", "kinds only generated"),
    ("kind-flag", "inHelmScheme / helmPatchType differ"),
    ("graph", "a type reachable from a common kind is missing on one side"),
    ("field-missing", "fields only in the other table (types reachable from common kinds or same-named)"),
    ("field-extra", "fields only generated"),
    ("field-patch", "kind / scalar type / patchStrategy / patchMergeKey / customJSON differ"),
    ("field-elem", "ref / items / values point at different things"),
    ("field-fold-collision", "fields equal ignoring case (Go field order would matter)"),
    ("field-marker", "listType / listMapKeys / mapType / structType differ (not read by the SMP code)"),
    ("type-attr", "type-level structType differs (not read by the SMP code)"),
    ("field-pointer", "pointer differs (Go-only; no effect on patches of well-typed objects)"),
    ("type-renamed", "a type is reached under different names (Go alias vs OpenAPI per-version copy)"),
    ("type-missing", "packages with types only in the other table; none reachable from a common kind "
                     "(that would be a 'graph' difference)"),
    ("types-missing-total", "types only in the other table, in those packages"),
    ("type-extra", "types only generated, not reachable from common kinds"),
]
PATCH_RELEVANT = ("kind-flag", "graph", "field-missing", "field-extra", "field-patch", "field-elem",
                  "field-fold-collision")


def compare_type(g, o, label, out, pairs):
    for a in ("customJSON", "structType"):
        if g.get(a) != o.get(a):
            out("type-attr" if a == "structType" else "field-patch",
                f"{label}: {a} generated={g.get(a)!r} other={o.get(a)!r}")
    gf, of = g["fields"], o["fields"]
    for f in of:
        if f not in gf:
            out("field-missing", f"{label}.{f}: only in other ({json.dumps(of[f])})")
    for f in gf:
        if f not in of:
            out("field-extra", f"{label}.{f}: only generated ({json.dumps(gf[f])})")
    for f in gf:
        if f not in of:
            continue
        a, b = gf[f], of[f]
        for attr in PATCH_ATTRS:
            if a.get(attr) != b.get(attr):
                out("field-patch", f"{label}.{f}: {attr} generated={a.get(attr)!r} other={b.get(attr)!r}")
        for attr in ELEM_ATTRS:
            elem_pairs(a.get(attr), b.get(attr), f"{label}.{f}.{attr}", out, pairs)
        for attr in MARKER_ATTRS:
            if a.get(attr) != b.get(attr):
                out("field-marker", f"{label}.{f}: {attr} generated={a.get(attr)!r} other={b.get(attr)!r}")
        for attr in GO_ATTRS:
            if a.get(attr) != b.get(attr):
                out("field-pointer", f"{label}.{f}: {attr} generated={a.get(attr)!r} other={b.get(attr)!r}")


def elem_pairs(a, b, where, out, pairs):
    if isinstance(a, dict) or isinstance(b, dict):
        if not (isinstance(a, dict) and isinstance(b, dict)) or set(a) != set(b):
            out("field-elem", f"{where}: generated={json.dumps(a)} other={json.dumps(b)}")
            return
        for k in a:
            elem_pairs(a[k], b[k], f"{where}.{k}", out, pairs)
        return
    if a == b:
        if isinstance(a, str) and a not in SCALAR_WORDS:
            pairs.append((a, b, where))
        return
    if a is None or b is None or a in SCALAR_WORDS or b in SCALAR_WORDS:
        out("field-elem", f"{where}: generated={a!r} other={b!r}")
        return
    if short(a) != short(b):
        out("field-elem", f"{where}: generated={a!r} other={b!r} (different Go type names)")
    pairs.append((a, b, where))


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k8s", default="1.36", help="Kubernetes minor version, e.g. 1.36 (default)")
    ap.add_argument("--out", help="output file (default src/patch/data/k8s-v<major>.<minor>-patchmeta.json; "
                                  "with --compare, nothing is written unless --out is given)")
    ap.add_argument("--compare", metavar="FILE", help="print every difference between the generated table and FILE")
    ap.add_argument("--check", action="store_true",
                    help="with --compare: exit 1 when a difference matters for patching (CI uses this)")
    ap.add_argument("--schema-dir", help="a kubernetes-json-schema directory to read instead of the pinned package")
    args = ap.parse_args()

    major, minor = args.k8s.split(".")[:2]
    root = ensure_schema_root(args.schema_dir)
    defs, path = load_definitions(root, f"{major}.{minor}")
    rel = f"kubernetes-json-schema/v{major}.{minor}.0-local/_definitions.json"
    source = OrderedDict(
        metadataFrom=("OpenAPI extensions x-kubernetes-patch-strategy/-patch-merge-key/-list-type/-list-map-keys/"
                      "-map-type of the group-versions the API server serves"),
        openapi=(f"{KV_PACKAGE} {KV_VERSION} (PyPI) {rel}" if not args.schema_dir
                 else f"{rel} from --schema-dir (not checked to be {KV_PACKAGE} {KV_VERSION})"),
        k8sApi=f"Kubernetes {major}.{minor} (k8s.io/api v0.{minor}.x types served by the API server)",
        helmScheme="client-go kubernetes/scheme + apiextensions v1/v1beta1 (Helm pkg/kube/converter.go); "
                   "not in scheme: " + ", ".join(sorted(NOT_IN_HELM_SCHEME)),
    )
    table = Generator(defs).generate(source)

    out = args.out
    if out is None and not args.compare:
        out = os.path.join(REPO, "src", "patch", "data", f"k8s-v{major}.{minor}-patchmeta.json")
    if out:
        with open(out, "w") as f:
            json.dump(table, f, separators=(",", ":"), ensure_ascii=False)
            f.write("\n")
        nfields = sum(len(t["fields"]) for t in table["types"].values())
        print(f"wrote {out}: {len(table['kinds'])} kinds, {len(table['types'])} types, {nfields} fields",
              file=sys.stderr)
    if args.compare:
        with open(args.compare) as f:
            other = json.load(f)
        relevant, _ = compare(table, other, args.compare, set(defs))
        if args.check and relevant:
            sys.exit(f"{relevant} difference(s) that matter for patching between the generated table and {args.compare}")


if __name__ == "__main__":
    main()
