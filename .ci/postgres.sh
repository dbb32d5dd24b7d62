#!/usr/bin/env bash
# Prints a PostgreSQL URL for the test suite, starting a throwaway cluster on
# loopback when PROSPECT_POSTGRES_URL is not already set. Installs Debian's
# postgresql package when it is missing and we are root. Prints nothing (and
# the PostgreSQL suites skip, saying so) when no server can be had.
set -u
if [ -n "${PROSPECT_POSTGRES_URL:-}" ]; then echo "$PROSPECT_POSTGRES_URL"; exit 0; fi
port=${PROSPECT_PG_PORT:-54329}
dir=${PROSPECT_PG_DIR:-/tmp/prospect-pg}
url="postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable"

pgbin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin=$(pgbin)
if [ -z "$bin" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing PostgreSQL from Debian packages..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) >&2 || true
  bin=$(pgbin)
fi
[ -n "$bin" ] || { echo "PostgreSQL not available: its tests will skip" >&2; exit 0; }

run() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
if ! run "$bin/pg_ctl -D $dir status" >/dev/null 2>&1; then
  rm -rf "$dir" && mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  run "$bin/initdb -D $dir -A trust -U postgres" >/dev/null 2>&1 || { echo "initdb failed: PostgreSQL tests will skip" >&2; exit 0; }
  run "$bin/pg_ctl -D $dir -l $dir/server.log -w -o '-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off' start" >/dev/null 2>&1 \
    || { echo "PostgreSQL did not start (see $dir/server.log): its tests will skip" >&2; exit 0; }
fi
echo "$url"
