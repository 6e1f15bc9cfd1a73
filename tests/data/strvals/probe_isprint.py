#!/usr/bin/env python3
"""Reads Go's strconv.IsPrint off the Helm build the oracle wraps.

src/go/quote.rs holds the table this prints: every code point
from U+0080 up that Go quotes as an escape. It feeds all of them, in chunks,
to strvals as keys without a value; Helm answers `key "<%q of the key>" has
no value`, and every escaped character in that is a non-printable one.

Run with the oracle's python: .venv/bin/python tests/data/strvals/probe_isprint.py
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "oracle"))
import helm_oracle as h  # noqa: E402
from helm_python.errors import HelmError  # noqa: E402

SHORT = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, '"': 34}


def escaped_flags(quoted, chars):
    s = quoted[1:-1]
    i, out = 0, []
    while i < len(s):
        if s[i] == "\\":
            n = s[i + 1]
            width = {"x": 2, "u": 4, "U": 8}.get(n)
            if width:
                cp = int(s[i + 2:i + 2 + width], 16)
                i += 2 + width
            else:
                cp = SHORT[n]
                i += 2
            out.append((cp, True))
        else:
            out.append((ord(s[i]), False))
            i += 1
    assert [c for c, _ in out] == [ord(c) for c in chars]
    return [e for _, e in out]


def main():
    cps = [c for c in range(0x80, 0x110000) if not 0xD800 <= c <= 0xDFFF]
    nonprint = []
    for k in range(0, len(cps), 20000):
        chunk = [chr(c) for c in cps[k:k + 20000]]
        try:
            h.strvals_raw("set", "".join(chunk))
            raise SystemExit("expected an error")
        except HelmError as e:
            msg = str(e.detail)
        assert msg.startswith("key ") and msg.endswith(" has no value"), msg[:80]
        flags = escaped_flags(msg[4:-len(" has no value")], chunk)
        nonprint += [c for c, f in zip(cps[k:k + 20000], flags) if f]
    ranges = []
    for c in nonprint:
        if ranges and (ranges[-1][1] == c - 1 or (ranges[-1][1] == 0xD7FF and c == 0xE000)):
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    for a, b in ranges:
        print("(0x%X, 0x%X)," % (a, b))


if __name__ == "__main__":
    main()
