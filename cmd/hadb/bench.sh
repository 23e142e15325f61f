#!/usr/bin/env bash
# Measures what high availability costs a booking: loadtest's book scenario against one PostgreSQL
# server (DATABASE_URL's, by default the local one) and against the pg_auto_failover pair of cmd/hadb
# (a commit waits for the secondary), then the status, free and availability scenarios on the pair with
# and without DATABASE_READ_URL. Each target gets a fresh database booking_habench with the small data
# set. Run it from the repository's root: make bench-ha.
set -euo pipefail

duration=${DURATION:-10s}
one_node=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/booking?sslmode=disable}
port=18089
go build -o bin/booking ./cmd/booking
go build -o bin/loadtest ./cmd/loadtest
pair=$(go run ./cmd/hadb)
reads=$(go run ./cmd/hadb read-url)

# on_db URL NAME: URL with its database replaced by NAME, its parameters kept.
on_db() { sed -E "s#/[^/?]+(\?|$)#/$2\1#" <<<"$1"; }

# fresh URL: drop and create the database of URL, on the server that accepts writes.
fresh() {
  local admin
  admin=$(on_db "$1" postgres)
  psql -q "$admin" -c 'DROP DATABASE IF EXISTS booking_habench WITH (FORCE)' -c 'CREATE DATABASE booking_habench'
}

# measure NAME DB_URL READ_URL SCENARIO...: serves DB_URL (reading from READ_URL when not empty) and
# runs each scenario for $duration, printing one line per scenario: name, scenario, requests a second.
measure() {
  local name=$1 db=$2 read=$3
  shift 3
  DATABASE_URL=$db DATABASE_READ_URL=$read ./bin/booking serve --addr 127.0.0.1:$port \
    --rate-per-user 0 --rate-per-address 0 >/dev/null 2>bin/bench-ha-serve.log &
  local pid=$!
  trap 'kill $pid 2>/dev/null || true' RETURN
  for _ in $(seq 1 100); do curl -sf http://127.0.0.1:$port/readyz >/dev/null && break; sleep 0.1; done
  for scenario in "$@"; do
    ./bin/loadtest run --scenario "$scenario" --base http://127.0.0.1:$port --db "$db" \
      --duration "$duration" --out bin/bench-ha.json >/dev/null
    printf '%-28s %-13s %8.0f/s  p99 %6.1f ms\n' "$name" "$scenario" \
      "$(jq .rate bin/bench-ha.json)" "$(jq .latency_ms.p99 bin/bench-ha.json)"
  done
  kill $pid
  wait $pid 2>/dev/null || true
}

single=$(on_db "$one_node" booking_habench)
ha=$(on_db "$pair" booking_habench)
ha_reads=$(on_db "$reads" booking_habench)
fresh "$single"
fresh "$ha"
./bin/loadtest seed --size small --db "$single" >/dev/null
./bin/loadtest seed --size small --db "$ha" >/dev/null

measure "one node" "$single" "" book
measure "HA pair" "$ha" "" book status free availability
# The same pair, with commits that do not wait for the secondary: what the wait itself costs.
measure "HA pair, synchronous_commit=local" "$ha&synchronous_commit=local" "" book
measure "HA pair, reads on standby" "$ha" "$ha_reads" status free availability
