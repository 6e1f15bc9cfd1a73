#!/usr/bin/env bash
# Installs real Helm v4.2.3 as a library (PyPI helm-python-sdk, which ships the
# Helm Go SDK compiled as libhelm_c.so) into the project's virtualenv .venv,
# for the differential tests. Idempotent; prints the venv's python.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${HELM_ORACLE_VENV:-$root/.venv}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import helm_python' 2>/dev/null; then
  "$venv/bin/pip" install -q helm-python-sdk==0.2.2
fi
# The oracle's manifest sort reads kinds and annotations with PyYAML (YAML 1.1,
# as go-yaml v2); helm-python-sdk does not bring it.
if ! "$venv/bin/python" -c 'import yaml' 2>/dev/null; then
  "$venv/bin/pip" install -q PyYAML==6.0.2
fi
echo "$venv/bin/python"
