#!/usr/bin/env bash
# Usage: scripts/with-postgres.sh COMMAND [ARGS...]
#
# Runs COMMAND with PROSPECT_TEST_POSTGRES_URL pointing at a PostgreSQL
# database, so the store/postgres suite runs:
#   - PROSPECT_TEST_POSTGRES_URL already set: COMMAND runs against it as is;
#   - else, PostgreSQL server binaries installed (Debian: the postgresql
#     package, /usr/lib/postgresql/<version>/bin): a throwaway cluster is
#     created in a temporary directory, listening on a unix socket there only
#     (no TCP port), and stopped and deleted when COMMAND ends, whatever its
#     result;
#   - else, COMMAND runs without it and a line says the suite is skipped.
# The exit status is COMMAND's (or non-zero when the cluster fails to start).
set -euo pipefail

if [ "$#" -eq 0 ]; then
	echo "usage: $0 COMMAND [ARGS...]" >&2
	exit 2
fi

if [ -n "${PROSPECT_TEST_POSTGRES_URL:-}" ]; then
	exec "$@"
fi

# The newest installed server, or the one PG_BINDIR names.
bindir=${PG_BINDIR:-}
if [ -z "$bindir" ]; then
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4,4n); do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && bindir=$d
	done
fi
if [ -z "$bindir" ] && command -v pg_ctl >/dev/null && command -v initdb >/dev/null; then
	bindir=$(dirname "$(command -v pg_ctl)")
fi
if [ -z "$bindir" ]; then
	echo "PostgreSQL server not installed and PROSPECT_TEST_POSTGRES_URL not set: the PostgreSQL store suite (store/postgres) is skipped" \
		"(install it, e.g. apt-get install postgresql, or set PROSPECT_TEST_POSTGRES_URL=postgres://USER:PASS@HOST:5432/DB?sslmode=disable)"
	exec "$@"
fi

# initdb and postgres refuse to run as root: as root, run them as an
# unprivileged user (postgres when it exists, as on Debian, else nobody).
as=()
owner=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
	if id postgres >/dev/null 2>&1; then owner=postgres; else owner=nobody; fi
	if command -v runuser >/dev/null; then
		as=(runuser -u "$owner" --)
	elif command -v setpriv >/dev/null; then
		as=(setpriv --reuid="$owner" --regid="$(id -g "$owner")" --init-groups --)
	else
		echo "with-postgres: running as root and neither runuser nor setpriv is available to start PostgreSQL as $owner" >&2
		exit 1
	fi
	# Short and traversable by that user (a unix socket path has ~100 bytes).
	base=/tmp
else
	base=${TMPDIR:-/tmp}
fi

dir=$(mktemp -d "$base/prospect-pg.XXXXXX")
started=
cleanup() {
	if [ -n "$started" ]; then
		"${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

chmod 700 "$dir"
[ "$(id -u)" -ne 0 ] || chown "$owner" "$dir"

fail() {
	echo "with-postgres: $1; log:" >&2
	cat "$dir/initdb.log" "$dir/server.log" >&2 2>/dev/null || true
	exit 1
}

"${as[@]}" "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
	"${as[@]}" "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
	fail "initdb failed"
# Unix socket in $dir only; durability off (a throwaway cluster); room for
# several test pools at once.
started=1
"${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
	-o "-c listen_addresses='' -k $dir -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
	start >/dev/null || fail "PostgreSQL did not start"
"${as[@]}" "$bindir/psql" -h "$dir" -U postgres -d postgres -qAt -v ON_ERROR_STOP=1 -c "CREATE DATABASE prospect_test" >/dev/null ||
	fail "create database failed"

export PROSPECT_TEST_POSTGRES_URL="postgres://postgres@/prospect_test?host=$dir&sslmode=disable"
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') started for the tests (socket in $dir): PROSPECT_TEST_POSTGRES_URL=$PROSPECT_TEST_POSTGRES_URL"

set +e
"$@"
rc=$?
set -e
exit "$rc"
