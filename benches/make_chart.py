#!/usr/bin/env python3
"""Generates a chart of kube-prometheus-stack's shape and size for benches/explain.sh:
a parent chart and 4 subcharts (charts/), about 9,300 lines of values.yaml in all
(parent ~5,300, subcharts ~1,000 each), deterministic for a seed.

    make_chart.py OUTDIR SEED MIX [SIZE]

SIZE is `corpus` (the default: the corpus chart's proportions, about 2,800 of the 9,300 lines
are keys and values and the rest documentation comments and blank lines between entries, ~2,000
values in all) or `dense` (every line a key or value: three times the corpus chart's values).

MIX says which constructs real values files use the text is written with (besides the
block mappings and sequences of one-line scalars every mix has):

    block     nothing else
    flow      one-line flow sequences and maps of quoted strings, `{{ }}` template text,
              empty strings, numbers
    anchors   anchors, aliases and merge keys (`<<: *x`)
    scalars   block scalars (`|`, `>-`, `|2`, `|+`), multi-line plain and quoted scalars
    comments  comments in every position (own line at every indent, after values, after
              `key:`, between sequence items, at the end)
    docs      a leading `---`, and a second document that overrides some keys
    crlf      CRLF line ends
    all       every one of the above at once

Only python3's standard library. Prints the line count of each values.yaml.
"""

import os
import random
import sys

MIXES = ["block", "flow", "anchors", "scalars", "comments", "docs", "crlf", "all"]


class Writer:
    def __init__(self, rng, mix, tag, docs_per_key=0.0):
        self.rng = rng
        # Documentation comment lines before a key, on average (the corpus chart has ~2.4 per line of content).
        self.docs_per_key = docs_per_key
        # Keys differ between files, so no value changes type in coalescing.
        self.tag = tag
        self.mix = mix
        self.lines = []
        self.n = 0
        self.anchors = []
        # Inside an anchored mapping: no aliases or anchors there, so that an
        # alias expands to one small mapping (go-yaml refuses excessive aliasing).
        self.in_anchor = 0

    def on(self, feature):
        return self.mix == feature or self.mix == "all"

    def name(self, prefix="k"):
        self.n += 1
        return f"{prefix}{self.tag}{self.n}"

    def comment(self, indent):
        if self.on("comments") and self.rng.random() < 0.25:
            self.lines.append(" " * indent + f"# note {self.n}: see the docs for {self.rng.choice(['tuning', 'limits', 'the default'])}")

    def trailing(self):
        if self.on("comments") and self.rng.random() < 0.2:
            return f"  # default {self.n}"
        return ""

    def scalar(self):
        r = self.rng.random()
        words = ["prometheus", "alertmanager", "grafana", "node-exporter", "kube-state", "thanos", "sidecar"]
        if r < 0.2:
            return str(self.rng.randint(0, 65535))
        if r < 0.3:
            return self.rng.choice(["true", "false"])
        if r < 0.4:
            return f'"{self.rng.choice(words)}:{self.rng.randint(1, 9)}.{self.rng.randint(0, 20)}"'
        if r < 0.45:
            return '""'
        if r < 0.5:
            return f"'{self.rng.choice(words)} {self.rng.choice(words)}'"
        if r < 0.55:
            return "{}" if self.rng.random() < 0.5 else "[]"
        return f"{self.rng.choice(words)}-{self.rng.randint(1, 999)}"

    def flow(self):
        r = self.rng.random()
        if r < 0.35:
            items = [f'"--{self.name("flag")}={{{{ .Values.{self.name("v")} }}}}"' for _ in range(self.rng.randint(1, 4))]
            return "[" + ", ".join(items) + "]"
        if r < 0.6:
            return "[" + ", ".join(str(self.rng.randint(1, 9000)) for _ in range(self.rng.randint(1, 5))) + "]"
        if r < 0.8:
            return "{" + ", ".join(f'{self.name("l")}: "{self.rng.choice(["a", "", "x y", "{{ .Release.Name }}"])}"' for _ in range(self.rng.randint(1, 3))) + "}"
        return "[" + ", ".join(f"'{self.name('s')}'" for _ in range(self.rng.randint(1, 3))) + ", \"\"]"

    def block_scalar_lines(self, indent):
        header = self.rng.choice(["|", ">-", "|2", "|+", ">"])
        body_indent = indent + 2
        out = [header]
        for i in range(self.rng.randint(2, 6)):
            out.append(" " * body_indent + f"line {i} of {self.name('text')} with {{{{ template \"x\" . }}}}")
        if header == "|2":
            out[1] = " " * body_indent + "  indented more"
        return out

    def leaf(self, indent, key):
        pad = " " * indent
        # Each construct its own chance, so that `all` has as many of each as its own mix.
        if self.on("flow") and self.rng.random() < 0.3:
            self.lines.append(f"{pad}{key}: {self.flow()}{self.trailing()}")
        elif self.on("scalars") and self.rng.random() < 0.15:
            first, *rest = self.block_scalar_lines(indent)
            self.lines.append(f"{pad}{key}: {first}")
            self.lines.extend(rest)
        elif self.on("scalars") and self.rng.random() < 0.1:
            # A multi-line plain scalar, or a multi-line double-quoted one.
            if self.rng.random() < 0.5:
                self.lines.append(f"{pad}{key}: first part of {self.name('p')}")
                self.lines.append(f"{pad}  continued here")
            else:
                self.lines.append(f'{pad}{key}: "quoted start of {self.name("q")}')
                self.lines.append(f'{pad}  and its end"')
        elif self.on("anchors") and self.anchors and not self.in_anchor and self.rng.random() < 0.05:
            self.lines.append(f"{pad}{key}: *{self.rng.choice(self.anchors)}")
        elif self.on("comments") and self.rng.random() < 0.1:
            self.lines.append(f"{pad}{key}:{self.trailing() or '  # empty on purpose'}")
        else:
            self.lines.append(f"{pad}{key}: {self.scalar()}{self.trailing()}")

    def mapping(self, indent, depth, budget):
        """Writes about `budget` lines of mapping at `indent`."""
        start = len(self.lines)
        pad = " " * indent
        while len(self.lines) - start < budget:
            if self.docs_per_key and self.rng.random() < self.docs_per_key / 5:
                self.lines.append("")
                for i in range(self.rng.randint(2, 6)):
                    self.lines.append(pad + f"## {self.rng.choice(['Configure', 'Enable', 'Set', 'See'])} the {self.rng.choice(['image', 'resources', 'service', 'probes'])}, line {i}")
                self.lines.append(pad + "## ref: https://example.com/docs")
            self.comment(indent)
            key = self.name()
            r = self.rng.random()
            if depth < 5 and r < 0.25:
                anchor = ""
                if self.on("anchors") and not self.in_anchor and self.rng.random() < 0.2:
                    anchor = f" &{self.name('a')}"
                self.lines.append(f"{pad}{key}:{anchor}{self.trailing()}")
                if self.on("anchors") and self.anchors and not self.in_anchor and not anchor and self.rng.random() < 0.2:
                    self.lines.append(f"{pad}  <<: *{self.rng.choice(self.anchors)}")
                self.in_anchor += bool(anchor)
                self.mapping(indent + 2, depth + 1, self.rng.randint(3, 8) if anchor else self.rng.randint(3, 25))
                self.in_anchor -= bool(anchor)
                if anchor:
                    self.anchors.append(anchor.strip()[1:])
            elif depth < 5 and r < 0.35:
                self.lines.append(f"{pad}{key}:")
                self.sequence(indent + self.rng.choice([0, 2]), depth + 1)
            else:
                self.leaf(indent, key)

    def sequence(self, indent, depth):
        pad = " " * indent
        for _ in range(self.rng.randint(1, 5)):
            if self.on("comments") and self.rng.random() < 0.2:
                self.lines.append(f"{pad}# item {self.n}")
            if self.rng.random() < 0.5:
                self.lines.append(f"{pad}- {self.scalar()}{self.trailing()}")
            else:
                k = self.name()
                self.lines.append(f"{pad}- {k}: {self.scalar()}")
                for _ in range(self.rng.randint(0, 3)):
                    self.leaf(indent + 2, self.name())


def values_text(rng, mix, lines, tag, subcharts=(), docs_per_key=0.0):
    w = Writer(rng, mix, tag, docs_per_key)
    if w.on("docs"):
        w.lines.append("---")
    if w.on("comments"):
        w.lines.append("# Default values, generated for the benchmark.")
    w.lines.append("global:")
    w.mapping(2, 1, 12)
    for sub in subcharts:
        w.lines.append(f"{sub}:")
        w.lines.append("  enabled: true")
        w.mapping(2, 1, 40)
    w.mapping(0, 0, lines - len(w.lines))
    if w.on("docs"):
        w.lines.append("---")
        w.lines.append("# The second document overrides what the first set.")
        w.lines.append("global:")
        w.lines.append("  overridden: true")
        w.lines.append(f"{w.name()}: late")
    if w.on("comments"):
        w.lines.append("# end of file")
    eol = "\r\n" if w.on("crlf") else "\n"
    return eol.join(w.lines) + eol


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[3] not in MIXES or sys.argv[4:] not in ([], ["corpus"], ["dense"]):
        sys.exit(f"usage: make_chart.py OUTDIR SEED {'|'.join(MIXES)} [corpus|dense]")
    out, seed, mix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    docs = 0.0 if sys.argv[4:] == ["dense"] else 2.0
    rng = random.Random(f"{seed}-{mix}")
    subs = ["grafana", "kube-state-metrics", "node-exporter", "operator-crds"]
    os.makedirs(os.path.join(out, "charts"), exist_ok=True)
    deps = "".join(f"  - name: {s}\n    version: 1.0.0\n    condition: {s}.enabled\n" for s in subs)
    with open(os.path.join(out, "Chart.yaml"), "w") as f:
        f.write(f"apiVersion: v2\nname: generated-stack\nversion: 1.0.0\ndependencies:\n{deps}")
    text = values_text(rng, mix, 5300, "p", subs, docs)
    with open(os.path.join(out, "values.yaml"), "w", newline="") as f:
        f.write(text)
    counts = [("values.yaml", text.count("\n"))]
    for s in subs:
        d = os.path.join(out, "charts", s)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "Chart.yaml"), "w") as f:
            f.write(f"apiVersion: v2\nname: {s}\nversion: 1.0.0\n")
        sub_text = values_text(rng, mix, 1000, s[0] + str(len(counts)), (), docs)
        with open(os.path.join(d, "values.yaml"), "w", newline="") as f:
            f.write(sub_text)
        counts.append((f"charts/{s}/values.yaml", sub_text.count("\n")))
    print(" ".join(f"{n}={c}" for n, c in counts), "total", sum(c for _, c in counts))


if __name__ == "__main__":
    main()
