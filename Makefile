# The two commands a newcomer needs: `make audit` and `make test`.
# Everything else is plain CMake underneath (build/).
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps build test audit audit-quick bench bench-big bench-check bench-count bench-mod2 bench-verified bench-variants fuzz clean

all: build

# Every package any target needs; each target installs only its own groups
# (tools/install-deps.sh: build, verified, test, fuzz) where missing.
deps:
	@tools/install-deps.sh all

# The prover is built with profile-guided optimisation (PGO=1, GCC): an
# instrumented copy in $(BUILD)-pgo is trained on n = 14 first (about 20 s,
# again only when the prover's sources change), tools/pgo-train.sh. PGO=0
# builds it plainly (the same answers; the speed-up is in the README).
PGO ?= 1
ifeq ($(filter 0 1,$(PGO)),)
$(error PGO must be 0 or 1, not '$(PGO)')
endif
ifeq ($(PGO),1)
PGO_FLAGS = -DQCERT_PGO=use -DQCERT_PGO_DIR=$(abspath $(BUILD)-pgo)/profile
PGO_TRAIN = tools/pgo-train.sh $(BUILD)-pgo $(JOBS)
else
PGO_FLAGS = -DQCERT_PGO=
PGO_TRAIN = true
endif

# $(call build_in_tree,GROUPS,TARGETS): the packages of those install-deps
# groups where missing, then those CMake targets in $(BUILD).
define build_in_tree
	@tools/install-deps.sh $(1)
	@$(PGO_TRAIN)
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(PGO_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target $(2)
endef

# The programs: prover, checker, qcert, and checker-verified (with
# export-table) where coqc and ocamlopt are installed. No tests: `make test`.
build:
	$(call build_in_tree,build,all)

# The programs, then every test program and fuzz replay (the target
# `tests`), then ctest. The test libraries, tmux and chromium (two tests
# drive them), and Coq and OCaml (checker-verified and its proofs are
# tested) are installed first where missing.
test:
	$(call build_in_tree,build test verified,all tests)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The whole `make test` suite again with AddressSanitizer + UBSan (and LSan)
# in every binary, build-sanitize/ (-O1 -g). The options are exported, so the
# prover and checker the tests spawn get them too; abort_on_error turns any
# report into SIGABRT, which no test mistakes for an expected exit status.
# tools/lsan.supp: Open MPI's leaks (third-party only). Reproduce a finding:
# the same exports, then build-sanitize/bin/<binary> or ctest -R <test> there.
BUILD_SANITIZE ?= build-sanitize
.PHONY: test-sanitize
test-sanitize: export ASAN_OPTIONS = halt_on_error=1:abort_on_error=1:detect_leaks=1:print_stacktrace=1
test-sanitize: export UBSAN_OPTIONS = halt_on_error=1:abort_on_error=1:print_stacktrace=1
test-sanitize: export LSAN_OPTIONS = suppressions=$(CURDIR)/tools/lsan.supp:print_suppressions=0
test-sanitize:
	@tools/install-deps.sh build test verified
	@cmake -S . -B $(BUILD_SANITIZE) -DCMAKE_BUILD_TYPE=Release -DQCERT_SANITIZE=ON >/dev/null
	@cmake --build $(BUILD_SANITIZE) -j $(JOBS) --target all tests
	cd $(BUILD_SANITIZE) && ctest --output-on-failure -j $(JOBS)

# Prove and check the claims of proofs/*.claims within AUDIT_BUDGET seconds
# (default 13 minutes; tools/audit.sh says how the budget is spent).
# The audit also runs checker-verified (its Coq and OCaml are installed).
audit:
	$(call build_in_tree,build verified,all)
	@tools/audit.sh

# A first look in under 2 minutes: the cheapest claim of each source and
# family proved and checked, every small shipped certificate checked.
audit-quick:
	$(call build_in_tree,build verified,all)
	@AUDIT_QUICK=1 tools/audit.sh

# Prover and checker figures for n = 10, 12, 14 (not a test; timings are noisy).
bench: build
	@tools/bench.sh

# n = 16 and G(14..16) on two threads (about 15 minutes on 2 cores). The
# reference 7d3a103 (the last commit before the prover's speed
# work) is a commit, not a tag: a clone need not carry tags.
bench-big: build
	@BENCH_SIZES= BENCH_BASELINE_SIZES= BENCH_THREAD_SIZES=16 BENCH_GRUNDY_SIZES="14 15 16" BENCH_TT_MB=4096 BENCH_REF=$${BENCH_REF-7d3a103} tools/bench.sh

# The checker against b4a63d8's (the last commit before the checker's speed
# work) on the shipped n = 14, 16 and 18 certificates, old and new side by
# side (about 25 minutes on 2 cores; BENCH_CHECK_CERTS picks fewer).
bench-check: build
	@tools/bench-check.sh

# The Coq-proved checker against the C++ checker, CPU time side by side
# (tools/bench-verified.sh: BENCH_VERIFIED_CERTS, BENCH_VERIFIED_REF).
bench-verified: build
	@tools/bench-verified.sh

# n-queens counting: qcert vs a plain halving counter (n = 16, 17), 1 and 2
# threads, n = 18 on 2 threads, each with the checker's recount (~5 minutes).
bench-count: build
	@tools/bench-count.sh

# The mod-2 game (Brown and Ladha) at n = 5: legal-position count and Grundy search
# against plain baselines, certificate sizes and the checker's times (~30 s).
bench-mod2: build
	@tools/bench-mod2.sh

# One row per game variant (docs/variants.md), each against the plain search.
bench-variants: build
	@tools/bench-variants.sh

# libFuzzer on the checker (fuzz/README.md): build-fuzz with clang, each
# target FUZZ_SECONDS from fuzz/corpus/<target>; exit 1 on a finding.
FUZZ_SECONDS ?= 600
fuzz:
	@tools/install-deps.sh build fuzz
	@FUZZ_SECONDS=$(FUZZ_SECONDS) JOBS=$(JOBS) fuzz/run-fuzz.sh

clean:
	rm -rf $(BUILD) $(BUILD)-pgo
