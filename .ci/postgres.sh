#!/usr/bin/env bash
# Installs (if needed) and starts Debian's PostgreSQL on loopback, with a `ccp` role and a `ccp_test`
# database (recreated empty), then prints the URL to use as CCP_TEST_DATABASE_URL. Safe to run more than once.
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "== installing PostgreSQL (Debian)" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -1)
if ! pg_lsclusters -h | grep -q "^${version} main"; then
  pg_createcluster "$version" main >&2
fi
pg_ctlcluster "$version" main start >&2 2>/dev/null || true
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 && break
  sleep 1
done
pg_isready -h 127.0.0.1 >&2
as_postgres() { su postgres -c "$1" >&2; }
as_postgres "psql -qtAc \"select 1 from pg_roles where rolname='ccp'\" | grep -q 1 || psql -qc \"create role ccp login superuser password 'ccp'\""
# A fresh database each run, so schemas left by an interrupted run cannot leak into this one.
as_postgres "dropdb --if-exists --force ccp_test && createdb -O ccp ccp_test"
echo "postgres://ccp:ccp@127.0.0.1:5432/ccp_test"
