# TIL: two commands on a fresh machine — `make run` and `make test`.
# Without DATABASE_URL, both create and start a local PostgreSQL (scripts/local-postgres.sh).
SHELL := /bin/bash
.DEFAULT_GOAL := help

APT_PACKAGES := postgresql libpq-dev libssl-dev libcrypt-dev pkg-config
PGSCRIPT := scripts/local-postgres.sh
HOST ?= 127.0.0.1
PORT ?= 8080
SWIFT_BUILD_FLAGS ?=

# `make run` serves in development (the book's admin password, error details) only on a
# loopback HOST; elsewhere in production, which needs ADMIN_PASSWORD. ENVIRONMENT=... wins.
RUN_ENV = $(or $(ENVIRONMENT),$(if $(filter 127.% localhost ::1,$(HOST)),development,production))

# The database for `make run` and the one for `make test` (reset by the tests themselves).
RUN_DB = $(if $(DATABASE_URL),$(DATABASE_URL),$$($(PGSCRIPT) start >/dev/null && $(PGSCRIPT) url))
TEST_DB = $(if $(DATABASE_URL),$(DATABASE_URL),$$($(PGSCRIPT) start >/dev/null && $(PGSCRIPT) test-url))

.PHONY: help deps db db-stop build release run test test-tsan fuzz fuzz-api bench bench-compare routes clean cluster-up cluster-down cluster-test drills

help:
	@echo "make run            build (release) and serve on http://$(HOST):$(PORT)"
	@echo "make test           build and run every test (starts a local PostgreSQL)"
	@echo "make fuzz           fuzz the HTTP request parser (FUZZ_SECONDS, default 600)"
	@echo "make fuzz-api       schemathesis against the OpenAPI document (FUZZ_API_SECONDS, default 300)"
	@echo "make drills         fault drills against a release build -> RELIABILITY.md (DRILLS=a,b for a subset)"
	@echo "make bench-compare  TIL vs the Vapor and Hummingbird peers -> Benchmarks/RESULTS.md"
	@echo "make db / db-stop   start / stop the local PostgreSQL"
	@echo "make cluster-up     3 til-servers behind HAProxy, PgBouncer, a primary + streaming replica"
	@echo "make cluster-test   the auth flows, a process kill and a replica stop through that cluster"
	@echo "make cluster-down   stop the cluster (scripts/cluster.sh env prints its URLs)"

## Install the system packages TIL builds and runs with (only what is missing; root only).
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$missing"; \
			export DEBIAN_FRONTEND=noninteractive; \
			apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
		else \
			echo "missing packages:$$missing (run as root, or: sudo apt-get install$$missing)" >&2; exit 1; \
		fi; \
	fi

db: deps
	@$(PGSCRIPT) start

db-stop:
	@$(PGSCRIPT) stop

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

release: deps
	swift build -c release $(SWIFT_BUILD_FLAGS)

run: release
	DATABASE_URL="$(RUN_DB)" ENVIRONMENT=$(RUN_ENV) .build/release/til-server serve --hostname $(HOST) --port $(PORT)

routes: build
	ENVIRONMENT=development .build/debug/til-server routes

## The HTTPS tests drive openssl and curl (and skip without them): installed like `deps`
## (apt-get update first) when missing and run as root; a non-root run only skips those tests.
test: deps
	@$(MAKE) --no-print-directory -s deps APT_PACKAGES="openssl curl" 2>/dev/null || echo "openssl/curl missing: the HTTPS tests will skip"
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	DATABASE_URL="$(TEST_DB)" swift test --skip-build $(SWIFT_BUILD_FLAGS)

## The whole suite once under ThreadSanitizer (own build folder).
test-tsan: deps
	DATABASE_URL="$(TEST_DB)" swift test --scratch-path .build-tsan -Xswiftc -sanitize=thread

FUZZ_SECONDS ?= 600
fuzz: deps
	scripts/fuzz-parser.sh $(FUZZ_SECONDS)

## schemathesis (pinned, in .venv-fuzz/) against a til-server it starts; not part of `make test`.
FUZZ_API_SECONDS ?= 300
fuzz-api: deps
	scripts/fuzz-api.sh $(FUZZ_API_SECONDS)

## Fault drills (issue 10): loopback only, each bounded in time; see RELIABILITY.md.
drills: release
	@command -v wrk >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq wrk >/dev/null; }
	PYTHONDONTWRITEBYTECODE=1 python3 scripts/drills/run.py

bench-compare: release
	@command -v wrk >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq wrk >/dev/null; }
	scripts/bench-compare.sh

## Several processes (issue 11): see docs/SCALING.md. Not part of `make test` (Debian packages,
## several processes); cluster-test brings the cluster up itself.
cluster-up: release
	scripts/cluster.sh up

cluster-down:
	scripts/cluster.sh down

cluster-test: release
	scripts/cluster-test.sh

clean:
	rm -rf .build .build-*
