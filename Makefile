# Workspace Booking. `make run` serves the demo office; `make test` runs everything CI runs.
SHELL := /bin/bash
.DEFAULT_GOAL := help

SQLC_VERSION := v1.31.1
SQLC := CGO_ENABLED=0 go run github.com/sqlc-dev/sqlc/cmd/sqlc@$(SQLC_VERSION)
# The templ generator must be the version of the library in go.mod.
TEMPL_VERSION = $(shell go list -m -f '{{.Version}}' github.com/a-h/templ)
TEMPL = go run github.com/a-h/templ/cmd/templ@$(TEMPL_VERSION)
ADDR ?= 127.0.0.1:8080
# If DATABASE_URL is set, it is used as is; otherwise cmd/devdb finds or starts a local PostgreSQL.
# A recipe line that starts with $(DB) exports DATABASE_URL, or stops if devdb fails.
DB := DATABASE_URL="$${DATABASE_URL:-$$(go run ./cmd/devdb)}" || exit 1; export DATABASE_URL

.PHONY: help generate check-generated build run ha test lint fuzz bench bench-ha

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)
	@echo "Variables: ADDR=host:port where make run serves (default 127.0.0.1:8080), FUZZTIME (make fuzz: inputs per target, default 3000x),"
	@echo "  DATABASE_URL (a postgres:// URL; default: the local server, or one started under .data/),"
	@echo "  SIZE (make bench: standard, or large to compare with 20,000,000 bookings)."

generate: ## Regenerate the sqlc code (queries/) and the templ code (views/)
	$(SQLC) generate
	$(TEMPL) generate -path views

# templ has no diff mode, so check-generated runs it on a temporary copy of views/ and compares the copy
# with views/. go.mod is copied too because templ checks its own version against it. The working tree is
# not changed.
check-generated: ## Fail when the generated code in the tree is not what the generators produce; changes nothing
	$(SQLC) diff
	@copy="$$(mktemp -d)"; trap 'rm -rf "$$copy"' EXIT; cp -R go.mod views "$$copy"/; \
	out="$$($(TEMPL) generate -path "$$copy/views" 2>&1)" || { echo "$$out"; exit 1; }; \
	diff -ru views "$$copy/views" || { \
	  echo "views/*_templ.go are not what templ $(TEMPL_VERSION) generates: run make generate"; exit 1; }

build: ## Build bin/booking
	go build -o bin/booking ./cmd/booking

run: build ## Serve the demo office on ADDR, http://127.0.0.1:8080 by default (sets up a local database when none is configured)
	@$(DB); \
	./bin/booking demo --addr $(ADDR) && \
	echo && echo "Serving on http://$(ADDR) — Ctrl-C stops." && \
	exec ./bin/booking serve --addr $(ADDR) --dev

# cmd/hadb starts (or finds running) a pg_auto_failover monitor and two nodes under .data/ha/ and prints the
# URL that lists both nodes; `go run ./cmd/hadb stop` stops them. docs/scaling.md tells more.
ha: build ## Serve the demo office on ADDR against a primary and a synchronous secondary (pg_auto_failover, under .data/ha/)
	@DATABASE_URL="$$(go run ./cmd/hadb)" || exit 1; export DATABASE_URL; \
	./bin/booking demo --addr $(ADDR) && \
	echo && echo "Serving on http://$(ADDR) with the database on two nodes — Ctrl-C stops the server;" && \
	echo "go run ./cmd/hadb state shows the nodes, go run ./cmd/hadb stop stops them." && \
	exec ./bin/booking serve --addr $(ADDR) --dev

# go vet builds every package it checks. With -race it builds them the same way the tests do, so
# `make test` compiles the code once instead of once for vet and again for the tests.
lint: ## gofmt and go vet
	@unformatted="$$(gofmt -l $$(git ls-files '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	go vet -race ./...

# test runs the fuzz targets in the same shell that set DATABASE_URL, so devdb runs only once. Calling
# $(MAKE) fuzz instead would run devdb again, and make -n always runs $(MAKE) lines, so `make -n test`
# would no longer only print.
test: check-generated lint ## Check generated code, gofmt and vet, then run every test against a real PostgreSQL
	@$(DB); \
	go test -race -count=1 -timeout 30m ./... || exit 1; \
	$(FUZZ)

# FUZZ runs every Fuzz function in every package. `go test -list` finds them, so a new fuzz target runs
# without being added here. A failing input is saved in the package's testdata/fuzz/, and every later
# `go test` runs it again.
# FUZZTIME is a count of inputs, not a duration: with a duration, Go 1.26's fuzzer can fail a target with
# "context deadline exceeded" when the time runs out on a busy machine (golang/go#75804, fixed in 1.27).
FUZZTIME ?= 3000x
FUZZ = set -o pipefail; \
	targets="$$(go test -list '^Fuzz' ./... | awk '/^Fuzz/ { names = names " " $$1; next } \
	  /^ok/ { n = split(names, a, " "); for (i = 1; i <= n; i++) print $$2 " " a[i]; names = "" }')" || exit 1; \
	[ -n "$$targets" ] || { echo "no fuzz targets found"; exit 1; }; \
	while read -r pkg name; do \
	  echo "go test -run '^$$' -fuzz '^$$name\$$' -fuzztime $(FUZZTIME) $$pkg"; \
	  go test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) "$$pkg" || exit 1; \
	done <<< "$$targets"
fuzz: ## Run every fuzz target briefly (FUZZTIME inputs each, default 3000x)
	@$(DB); \
	$(FUZZ)

# bench drops and recreates the databases booking_bench and booking_pgbench on the DATABASE_URL server,
# builds and starts bin/booking, and saves each run's JSON under bench-results/ (git-ignored). It takes a
# few minutes. SIZE=large also runs every scenario on the large data set (100 organizations, 20,000,000
# bookings) in booking_large. That database is seeded again when it is missing or more than a day old,
# which takes about half an hour on 2 shared cores.
SIZE ?= standard
bench: ## Measure: load scenarios and pgbench on a fresh data set (SIZE); writes docs/benchmarks.md
	@$(DB); \
	go run ./cmd/loadtest bench --size $(SIZE)

# One run, so that the figures compare: one server against the pair of make ha, on the same machine.
bench-ha: ## Measure: book on one server and on the pg_auto_failover pair, and reads with DATABASE_READ_URL (DURATION, default 10s)
	@$(DB); \
	cmd/hadb/bench.sh
