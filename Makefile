# TIL: two commands on a fresh machine — `make run` and `make test`.
# Without DATABASE_URL, both create and start a local PostgreSQL (scripts/local-postgres.sh).
SHELL := /bin/bash
.DEFAULT_GOAL := help

APT_PACKAGES := postgresql libpq-dev libssl-dev libcrypt-dev libqrencode-dev libcurl4-openssl-dev pkg-config
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

# `make install` copies til and til-server here (bin/): /usr/local as root, else ~/.local.
PREFIX ?= $(if $(filter 0,$(shell id -u)),/usr/local,$(HOME)/.local)

.PHONY: help deps browser-deps relying-party-deps db db-stop build release run install routes test test-browser test-oauth-client test-relying-party test-conformance webauthn-crosscheck readme-check test-tsan fuzz fuzz-api drills bench bench-tail bench-compare cluster-up cluster-down cluster-test clean

# Every target is listed here (MakefileTests checks).
help:
	@echo "make run            build (release) and serve on http://$(HOST):$(PORT)"
	@echo "make test           build and run every test (starts a local PostgreSQL), readme-check and the OAuth proofs"
	@echo "make test-browser   headless Chromium logs in and consents (release build) -> docs/images/oauth-*.png"
	@echo "make test-oauth-client  authlib as a third-party OAuth client of a release til-server"
	@echo "make test-relying-party Apache with mod_auth_openidc (a certified RP) signs in with a release til-server"
	@echo "make test-conformance   the OpenID conformance suite's basic, config and logout plans, reproduced"
	@echo "make install        til and til-server (release) into $(PREFIX)/bin (PREFIX=...)"
	@echo "make routes         print the route table (no database needed)"
	@echo "make readme-check   run the README's sh blocks in order against a fresh server"
	@echo "make test-tsan      every test under ThreadSanitizer"
	@echo "make webauthn-crosscheck  py_webauthn verifies the software authenticator's passkey responses (in make test)"
	@echo "make fuzz           fuzz the HTTP request parser, then WebAuthn's decoders: FUZZ_SECONDS (default 600) split between them"
	@echo "make fuzz-api       schemathesis against the OpenAPI document (FUZZ_API_SECONDS, default 300)"
	@echo "make drills         fault drills against a release build -> RELIABILITY.md (DRILLS=a,b for a subset)"
	@echo "make bench          TIL's own benchmark (wrk, BENCH_SECONDS, default 5) -> Benchmarks/results/"
	@echo "make bench-tail     the tail of one-row reads: 10+10 wrk runs, every max <= 100 ms (TAIL_RUNS, TAIL_CHURN)"
	@echo "make bench-compare  TIL vs the Vapor and Hummingbird peers (needs ../shared) -> Benchmarks/RESULTS.md"
	@echo "make build          debug build"
	@echo "make release        release build"
	@echo "make deps           install the Debian packages TIL needs (root)"
	@echo "make browser-deps   install Debian's chromium and chromium-driver (root)"
	@echo "make relying-party-deps  install Debian's apache2 and libapache2-mod-auth-openidc (root)"
	@echo "make db             start the local PostgreSQL (.pgdata/)"
	@echo "make db-stop        stop it"
	@echo "make cluster-up     3 til-servers behind HAProxy, PgBouncer, a primary + streaming replica"
	@echo "make cluster-test   the auth flows, a process kill and a replica stop through that cluster"
	@echo "make cluster-down   stop the cluster (scripts/cluster.sh env prints its URLs)"
	@echo "make clean          remove the build folders"
	@echo "make help           this list"

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
	@$(if $(filter 127.% ::1 localhost,$(HOST)),echo "pages with passkeys: http://localhost:$(PORT)/login (WebAuthn needs a name, not an IP address)",true)
	DATABASE_URL="$(RUN_DB)" ENVIRONMENT=$(RUN_ENV) .build/release/til-server serve --hostname $(HOST) --port $(PORT)

## The release binaries where a shell finds them; says so when that folder is not on PATH.
install: release
	@bin="$$(swift build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)"; \
	install -d "$(PREFIX)/bin" && install -m 755 "$$bin/til" "$$bin/til-server" "$(PREFIX)/bin/" && \
	echo "installed til and til-server in $(PREFIX)/bin"; \
	case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "$(PREFIX)/bin is not on your PATH: add it, e.g. export PATH=\"$(PREFIX)/bin:\$$PATH\"";; esac

routes: build
	ENVIRONMENT=development .build/debug/til-server routes

## The HTTPS tests drive openssl and curl (and skip without them): installed like `deps`
## (apt-get update first) when missing and run as root; a non-root run only skips those tests.
## One test at a time (`--no-parallel`): the database tests share one database (Tests/README.md).
## XCTest only: swift-testing's runner has no tests here, and its empty summary would be the
## last line instead of XCTest's count. The README walk goes first, so that count stays last.
## The OAuth proofs (scripts/oauth-proof.sh) run on the debug build here, one server for both,
## their screenshots in .oauth-proof/ (`make test-browser` refreshes docs/images/).
test: deps browser-deps relying-party-deps webauthn-crosscheck
	@$(MAKE) --no-print-directory -s deps APT_PACKAGES="openssl curl" 2>/dev/null || echo "openssl/curl missing: the HTTPS tests will skip"
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	scripts/readme-walk.sh "$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)"
	OAUTH_SCREENSHOTS=.oauth-proof scripts/oauth-proof.sh all "$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)"
	DATABASE_URL="$(TEST_DB)" swift test --skip-build --no-parallel --disable-swift-testing $(SWIFT_BUILD_FLAGS)

## Issue 18's proof by third parties (scripts/oauth-proof.sh): a release til-server over a fresh
## database, driven by headless Chromium (selenium) and by authlib, pinned in .venv-oauth/.
test-browser: release browser-deps
	scripts/oauth-proof.sh browser "$$(swift build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)"

test-oauth-client: release
	scripts/oauth-proof.sh client "$$(swift build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)"

## Issue 19's certified relying party: a throwaway Apache with mod_auth_openidc on a loopback port
## (scripts/oauth-proof/apache_relying_party.py), configured by TIL's discovery URL alone.
test-relying-party: release relying-party-deps
	scripts/oauth-proof.sh relying-party "$$(swift build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)"

## The OpenID Foundation conformance suite's oidcc-basic, oidcc-config and oidcc-rp-initiated-logout
## plans reproduced in Python, one test per module (scripts/oauth-proof/conformance*.py); in `make test` too.
test-conformance: release
	scripts/oauth-proof.sh conformance "$$(swift build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)"

## Issue 20: the software authenticator (Sources/WebAuthnTesting) checked against py_webauthn,
## pinned in .venv-webauthn/ (scripts/webauthn-crosscheck.sh); seconds once the venv exists.
webauthn-crosscheck: deps
	swift build --product webauthn-crosscheck $(SWIFT_BUILD_FLAGS)
	scripts/webauthn-crosscheck.sh "$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)"

## Debian's chromium and its driver (selenium's browser), installed like `deps`.
browser-deps:
	@$(MAKE) --no-print-directory -s deps APT_PACKAGES="chromium chromium-driver"

## Debian's Apache httpd and mod_auth_openidc (the relying-party proof), installed like `deps`.
relying-party-deps:
	@$(MAKE) --no-print-directory -s deps APT_PACKAGES="apache2 libapache2-mod-auth-openidc"

## The README's sh blocks, in order, against a fresh debug til-server and database (scripts/readme-walk.sh).
readme-check: build
	scripts/readme-walk.sh "$$(swift build $(SWIFT_BUILD_FLAGS) --show-bin-path)"

## The whole suite once under ThreadSanitizer (own build folder).
test-tsan: deps
	DATABASE_URL="$(TEST_DB)" swift test --scratch-path .build-tsan -Xswiftc -sanitize=thread

## The two libFuzzer targets one after the other, each for half of FUZZ_SECONDS: the HTTP request
## parser (scripts/fuzz-parser.sh) and WebAuthn's CBOR/attestation decoders (scripts/fuzz-webauthn.sh).
FUZZ_SECONDS ?= 600
fuzz: deps
	scripts/fuzz-parser.sh $$(( $(FUZZ_SECONDS) / 2 ))
	scripts/fuzz-webauthn.sh $$(( $(FUZZ_SECONDS) / 2 ))

## schemathesis (pinned, in .venv-fuzz/) against a til-server it starts; not part of `make test`.
FUZZ_API_SECONDS ?= 300
fuzz-api: deps
	scripts/fuzz-api.sh $(FUZZ_API_SECONDS)

## Fault drills (issue 10): loopback only, each bounded in time; see RELIABILITY.md.
drills: release
	@command -v wrk >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq wrk >/dev/null; }
	PYTHONDONTWRITEBYTECODE=1 python3 scripts/drills/run.py

## TIL's own suite (scripts/bench.sh): a release til-server on a free loopback port over a fresh
## database, wrk bounded by BENCH_SECONDS per test. Needs nothing outside this repository.
BENCH_SECONDS ?= 5
bench: release
	@command -v wrk >/dev/null || $(MAKE) --no-print-directory -s deps APT_PACKAGES=wrk
	BENCH_SECONDS=$(BENCH_SECONDS) scripts/bench.sh "$$(swift build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)"

## The tail of one-row reads (issue 22, scripts/bench-tail.sh): fails when a run's max passes 100 ms.
bench-tail: release
	@command -v wrk >/dev/null || $(MAKE) --no-print-directory -s deps APT_PACKAGES=wrk
	scripts/bench-tail.sh "$$(swift build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)"

## TIL against the Vapor and Hummingbird peers: needs ../shared/ (peers and their bench driver),
## or SHARED=/path/to/shared; says so when it is missing.
bench-compare: release
	@command -v wrk >/dev/null || $(MAKE) --no-print-directory -s deps APT_PACKAGES=wrk
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
