#!/usr/bin/env bash
# Runs the Python `mcp` 2.x snippet of /docs and the knowledge-base page (components/marketplace/snippets.ts) as a user
# pastes it, against a real Almanac server: test/integration/snippets-run.test.ts, "Python MCP client". No Debian
# package carries `mcp` 2.x, so `npm test` skips that test unless PYTHON_MCP_PATH names a directory holding it; this
# script builds such a directory outside the repository and runs the test with it. Nothing it installs is committed.
#
#   scripts/check-python-mcp.sh                  # pip installs "mcp>=2,<3" from the index pip is configured for
#   scripts/check-python-mcp.sh --wheels DIR     # ... from a directory of wheels only (pip --no-index --find-links)
#   scripts/check-python-mcp.sh --site DIR       # uses DIR as it is: mcp 2.x and its dependencies already in it
#   scripts/check-python-mcp.sh --install-only DIR [--wheels DIR]   # installs into DIR and stops (.ci/run uses it)
#
# MCP_SPEC picks the version ("mcp==2.3.0"; default "mcp>=2,<3"), PYTHON the interpreter (python3 or /usr/bin/python3:
# the test looks for one of those). Like the other integration tests it needs PostgreSQL on 127.0.0.1:5432 and Redis
# on 127.0.0.1:6379 (CONTRIBUTING.md). Exits non-zero unless the test ran and passed.
set -euo pipefail

PYTHON=${PYTHON:-python3}
SPEC=${MCP_SPEC:-mcp>=2,<3}
site=''
wheels=''
install_only=''
while [ $# -gt 0 ]; do
  case "$1" in
    --site) site=${2:?--site needs a directory} ;;
    --wheels) wheels=${2:?--wheels needs a directory} ;;
    --install-only) install_only=${2:?--install-only needs a directory} ;;
    *) echo "usage: $0 [--wheels DIR] [--site DIR | --install-only DIR]" >&2; exit 2 ;;
  esac
  shift 2
done

# --site: used as it is; otherwise installed into --install-only's directory or a temporary one.
install=yes
[ -n "$site" ] && install=''
if [ -n "$install_only" ]; then
  site=$install_only
  install=yes
elif [ -z "$site" ]; then
  site=$(mktemp -d "${TMPDIR:-/tmp}/almanac-python-mcp.XXXXXX")
  trap 'rm -rf "$site"' EXIT
fi
if [ -n "$install" ]; then
  echo "Installing $SPEC into $site"
  pip_args=(--quiet --disable-pip-version-check --no-warn-conflicts --root-user-action=ignore --target "$site")
  [ -n "$wheels" ] && pip_args+=(--no-index --find-links "$wheels")
  "$PYTHON" -m pip install "${pip_args[@]}" "$SPEC"
fi

# What the test will import, said up front: an import error here is clearer than a skipped test.
PYTHONPATH=$site "$PYTHON" - <<'PY'
import importlib.metadata as m
import mcp.client.streamable_http  # noqa: F401  the snippet's imports
import httpx2  # noqa: F401
print("Python", __import__("sys").version.split()[0], "with", ", ".join(f"{p} {m.version(p)}" for p in ("mcp", "mcp-types", "httpx2", "httpcore2", "anyio", "pydantic")))
PY
[ -n "$install_only" ] && exit 0

cd "$(dirname "$0")/.."
out=$(PYTHON_MCP_PATH=$site NO_COLOR=1 npx vitest run test/integration/snippets-run.test.ts -t 'Python MCP client' 2>&1) || {
  echo "$out"
  exit 1
}
echo "$out" | grep -E 'Python MCP client|Tests ' || true
# A skipped test would also leave vitest at exit 0: require the pass.
echo "$out" | grep -qE '✓ .*Python MCP client \(mcp 2\.' || {
  echo "$out"
  echo 'The Python MCP snippet test did not run.' >&2
  exit 1
}
