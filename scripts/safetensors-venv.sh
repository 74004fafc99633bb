#!/usr/bin/env bash
# Makes the virtual environment the safetensors interoperability tests run in:
# Debian's python3 (so NumPy and PyTorch stay visible) plus the pinned
# `safetensors` package from PyPI. Idempotent: does nothing when it is there.
# usage: scripts/safetensors-venv.sh [VENV_DIR]   (default build-test/venv-safetensors)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-build-test/venv-safetensors}
version=0.4.5

if "$venv/bin/python" -c "import safetensors, sys; sys.exit(safetensors.__version__ != '$version')" 2>/dev/null; then
  exit 0
fi
/usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input "safetensors==$version"
"$venv/bin/python" -c "import safetensors; print('safetensors', safetensors.__version__, 'in $venv')"
