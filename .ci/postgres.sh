# shellcheck shell=bash
# Sourced by .ci/test.sh (`make test`, which .ci/run calls): starts throwaway PostgreSQL servers on
# 127.0.0.1 so tests/store runs against PostgreSQL as well as SQLite, on any machine the venv runs on.
# - TRIPWRIGHT_TEST_PG_URL: a plain PostgreSQL. The system's (Debian's /usr/lib/postgresql, which
#   .ci/run installs when it may) when there is one, else PostgreSQL 16 from the `pgserver` test
#   dependency's binaries, copied without the pgvector extension (these tests share one database,
#   one schema each, and an extension lives once per database: with pgvector on offer migration 0009
#   would create it in the first test's schema).
# - TRIPWRIGHT_TEST_PGVECTOR_URL: PostgreSQL 16 + pgvector from the `pgserver` wheel as shipped
#   (Debian 12 has no pgvector for its PostgreSQL 15); its tests make a database each.
# It never fails the run: a server that cannot start is named on stderr and its URL stays unset
# (those tests then skip). Each server runs in its own temp dir, on a free port, with fsync off
# (throwaway data), as the non-root `postgres` user when run as root; an EXIT trap stops both and
# removes their dirs. Both are shared by pytest-xdist's workers: every test makes its own schema or
# database, so workers never meet.

_tw_pg_log() { echo "postgres.sh: $*" >&2; }

_tw_pg_bindir() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  return 1
}

# The pgserver wheel's PostgreSQL folder (bin, lib, share), from the venv's python.
_tw_pgserver_root() {
  local python="${TW_PYTHON:-$(pwd)/.venv/bin/python}" root
  root=$("$python" -c 'import os, pgserver; print(os.path.dirname(pgserver.__file__))' 2>/dev/null)/pginstall \
    || return 1
  [ -x "$root/bin/pg_ctl" ] && echo "$root"
}

# A copy of the pgserver binaries without pgvector's files in the scratch dir $1; echoes its bin.
# The wheel's layout is kept (pgserver/pginstall beside pgserver.libs: the binaries' rpath).
_tw_pg_plain_copy() {
  local root copy="$1/pgserver/pginstall"
  root=$(_tw_pgserver_root) || return 1
  mkdir -p "$copy" && cp -r "$root/bin" "$root/lib" "$root/share" "$copy/" || return 1
  if [ -d "$root/../../pgserver.libs" ]; then cp -r "$root/../../pgserver.libs" "$1/" || return 1; fi
  rm -f "$copy"/share/postgresql/extension/vector[.-]* "$copy"/lib/postgresql/vector.so
  echo "$copy/bin"
}

_tw_pg_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

_tw_pg_as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

_tw_pg_owner() {
  if [ "$(id -u)" = 0 ] && ! id -u postgres >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin postgres || return 1
  fi
}

# Stops the server of a scratch dir ($1) with its pg_ctl's folder ($2), and removes the dir.
_tw_server_stop() {
  if [ -n "$1" ] && [ -d "$1" ]; then
    if [ -f "$1/data/postmaster.pid" ]; then
      _tw_pg_as_owner "$2/pg_ctl" -D "$1/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$1"
  fi
}

_tw_pgv_stop() {
  _tw_server_stop "${TW_PGV_DIR:-}" "${TW_PGV_BIN:-}"
  TW_PGV_DIR=""
}

_tw_pg_stop() {
  _tw_pgv_stop
  _tw_server_stop "${TW_PG_DIR:-}" "${TW_PG_BIN:-}"
  TW_PG_DIR=""
}

_tw_pg_start() {
  _tw_pg_owner || return 1
  TW_PG_DIR=$(mktemp -d /tmp/tripwright-pg.XXXXXX) || return 1
  chmod 755 "$TW_PG_DIR"
  trap _tw_pg_stop EXIT
  TW_PG_BIN=$(_tw_pg_bindir) || TW_PG_BIN=$(_tw_pg_plain_copy "$TW_PG_DIR") || {
    _tw_pg_log "no PostgreSQL here (neither the system's nor the pgserver test dependency's); the postgres tests will be skipped"
    return 1
  }
  if [ "$(id -u)" = 0 ]; then chown postgres "$TW_PG_DIR" || return 1; fi
  local port
  port=$(_tw_pg_free_port) || return 1
  _tw_pg_as_owner "$TW_PG_BIN/initdb" -D "$TW_PG_DIR/data" -U postgres --auth=trust -E UTF8 --no-locale \
    >"$TW_PG_DIR/initdb.log" 2>&1 || { _tw_pg_log "initdb failed: $(tail -n 3 "$TW_PG_DIR/initdb.log")"; return 1; }
  _tw_pg_as_owner "$TW_PG_BIN/pg_ctl" -D "$TW_PG_DIR/data" -l "$TW_PG_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $TW_PG_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || { _tw_pg_log "the server did not start: $(tail -n 3 "$TW_PG_DIR/server.log")"; return 1; }
  "$TW_PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres tripwright_test || return 1
  export TRIPWRIGHT_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$port/tripwright_test"
  _tw_pg_log "PostgreSQL $("$TW_PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}

if [ -z "${TRIPWRIGHT_TEST_PG_URL:-}" ]; then
  _tw_pg_start || { _tw_pg_stop; unset TRIPWRIGHT_TEST_PG_URL; }
fi

# -- the pgvector server (issue 13) ----------------------------------------------------------------
_tw_pgv_start() {
  local port root
  root=$(_tw_pgserver_root) || { _tw_pg_log "pgserver is not installed in the venv; the pgvector tests will be skipped"; return 1; }
  TW_PGV_BIN="$root/bin"
  [ -x "$TW_PGV_BIN/pg_ctl" ] || { _tw_pg_log "no pg_ctl in $TW_PGV_BIN"; return 1; }
  _tw_pg_owner || return 1
  TW_PGV_DIR=$(mktemp -d /tmp/tripwright-pgvector.XXXXXX) || return 1
  chmod 755 "$TW_PGV_DIR"
  if [ "$(id -u)" = 0 ]; then chown postgres "$TW_PGV_DIR" || return 1; fi
  trap _tw_pg_stop EXIT  # stops both servers
  port=$(_tw_pg_free_port) || return 1
  _tw_pg_as_owner "$TW_PGV_BIN/initdb" -D "$TW_PGV_DIR/data" -U postgres --auth=trust -E UTF8 --no-locale \
    >"$TW_PGV_DIR/initdb.log" 2>&1 || { _tw_pg_log "pgvector initdb failed: $(tail -n 1 "$TW_PGV_DIR/initdb.log")"; return 1; }
  _tw_pg_as_owner "$TW_PGV_BIN/pg_ctl" -D "$TW_PGV_DIR/data" -l "$TW_PGV_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $TW_PGV_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || { _tw_pg_log "the pgvector server did not start: $(tail -n 1 "$TW_PGV_DIR/server.log")"; return 1; }
  "$TW_PGV_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres tripwright_test || return 1
  "$TW_PGV_BIN/psql" -qAt -h 127.0.0.1 -p "$port" -U postgres -d tripwright_test \
    -c "CREATE EXTENSION IF NOT EXISTS vector" >/dev/null 2>&1 || { _tw_pg_log "CREATE EXTENSION vector failed"; return 1; }
  export TRIPWRIGHT_TEST_PGVECTOR_URL="postgresql+psycopg://postgres@127.0.0.1:$port/tripwright_test"
  _tw_pg_log "PostgreSQL $("$TW_PGV_BIN/postgres" --version | awk '{print $3}') with pgvector on 127.0.0.1:$port"
}

if [ -z "${TRIPWRIGHT_TEST_PGVECTOR_URL:-}" ]; then
  _tw_pgv_start || { _tw_pgv_stop; unset TRIPWRIGHT_TEST_PGVECTOR_URL; }
fi
