# Workspace Booking. `make run` serves the demo office; `make test` runs everything CI runs.
SHELL := /bin/bash
.DEFAULT_GOAL := help

SQLC_VERSION := v1.31.1
SQLC := CGO_ENABLED=0 go run github.com/sqlc-dev/sqlc/cmd/sqlc@$(SQLC_VERSION)
# The templ generator must be the version of the library in go.mod.
TEMPL := go run github.com/a-h/templ/cmd/templ@$$(go list -m -f '{{.Version}}' github.com/a-h/templ)
ADDR ?= 127.0.0.1:8080
# DATABASE_URL, when set, is used as is; otherwise cmd/devdb finds or starts a local PostgreSQL.
DB := DATABASE_URL="$$(go run ./cmd/devdb)"

.PHONY: help generate check-generated build run test lint

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

generate: ## Regenerate the sqlc code (queries/) and the templ code (views/)
	$(SQLC) generate
	$(TEMPL) generate -path views

check-generated: ## Fail when the committed generated code is not what the generators produce
	$(SQLC) diff
	@before="$$(git status --porcelain -- views)"; $(TEMPL) generate -path views >/dev/null 2>&1 || exit 1; \
	after="$$(git status --porcelain -- views)"; \
	if [ "$$before" != "$$after" ]; then \
	  echo "views/*_templ.go are not what templ $$(go list -m -f '{{.Version}}' github.com/a-h/templ) generates: run make generate"; \
	  git status --porcelain -- views; exit 1; fi

build: ## Build bin/booking
	go build -o bin/booking ./cmd/booking

run: build ## Serve the demo office on http://127.0.0.1:8080 (sets up a local database when none is configured)
	@$(DB); export DATABASE_URL; \
	./bin/booking migrate && ./bin/booking demo && \
	echo && echo "Serving on http://$(ADDR) — Ctrl-C stops." && \
	exec ./bin/booking serve --addr $(ADDR) --dev

lint: ## gofmt and go vet
	@unformatted="$$(gofmt -l $$(git ls-files '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	go vet ./...

test: check-generated lint ## Check generated code, gofmt and vet, then run every test against a real PostgreSQL
	@$(DB); export DATABASE_URL; \
	go test -race -count=1 ./...
