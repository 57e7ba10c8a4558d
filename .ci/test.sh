#!/usr/bin/env bash
# `make test`'s runner, so the README's command and CI (.ci/run) are one path: starts the throwaway
# PostgreSQL servers (.ci/postgres.sh), runs the command it is given (pytest), stops them on exit
# and keeps the command's exit status.
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=postgres.sh
source .ci/postgres.sh
"$@"
