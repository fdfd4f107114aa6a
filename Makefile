# SPDX-License-Identifier: MIT
# Entry points of the project; "make help" lists them.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

CACHE_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/trace-mmap-guide
export CACHE_DIR
OUT_DIR ?= _build
export OUT_DIR
GUEST_ROOT := $(OUT_DIR)/guest-root
LAB_ROOT := $(OUT_DIR)/lab-root
CHECK_DIR := $(OUT_DIR)/check
SPHINXBUILD ?= /usr/bin/sphinx-build
SPHINX = $(SPHINXBUILD) -c . -q -W --keep-going -n -b html docs
# A guest's hard time limit: a hung guest fails, after this long. The lab
# checks' guests ran up to 796 s in a make check on a loaded host, and
# both passed 900 s (then the limit) in a make check-flaky beside another
# make check (6 December 2026).
VM_TIMEOUT ?= 1800
# The guest's install root (GUEST_PREFIX) and defaults, shared with the guest.
include vm/guest.conf
# The kernel cache's folders, as vm/kernel.sh names them (paths only: no build).
kernel_var = $(shell CACHE_DIR="$(CACHE_DIR)" vm/kernel.sh --print-var $(1))
HEADERS_DIR := $(call kernel_var,HEADERS_DIR)
TREE_DIR := $(call kernel_var,TREE_DIR)
KBUILD_DIR := $(call kernel_var,BUILD_DIR)
STAMP_DIR := $(call kernel_var,STAMP_DIR)
# KERNEL_VARIANT=debug: the debug kernel's stamp (vm/kernel.sh, vm/lib.sh).
KERNEL_STAMP := $(STAMP_DIR)/kernel$(if $(KERNEL_VARIANT),-$(KERNEL_VARIANT))

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{ printf "  make %-14s %s\n", $$1, $$2 }'
	@echo "  variables: CACHE_DIR=$(CACHE_DIR)  OUT_DIR=$(OUT_DIR)  VM_TIMEOUT=$(VM_TIMEOUT)  CMD='...' (vm-run)"

deps: ## install the Debian packages the project needs (quiet when present)
	@vm/deps.sh

html: deps ## build the guide into _build/html (seconds; no VM needed)
	$(SPHINX) $(OUT_DIR)/html
	@echo "guide: $(OUT_DIR)/html/index.html"

kernel: deps ## unpack, patch, configure and build the guest kernel (cold: ~8 min)
	@vm/kernel.sh

examples: deps ## build the examples for this machine into _build/host/examples
	@$(MAKE) -s -C examples O=$(abspath $(OUT_DIR))/host/examples

# The guest's files: vm/guest.mk, included below.
guest-root: ## stage the guest's own files (static binaries, tests, modules, labs)

# IMAGE_RECORD: the path of the image the last 'make initramfs' built
# (vm/image-fresh.sh tells whether it is still current).
IMAGE_RECORD = $(OUT_DIR)/initramfs.image
initramfs: guest-root ## build the guest's initramfs (busybox + our binaries)
	@vm/initramfs.sh $(GUEST_ROOT) >$(IMAGE_RECORD).tmp && mv $(IMAGE_RECORD).tmp $(IMAGE_RECORD)
# The lab checks' image (vm/guest.mk: LAB_ROOT), and its record.
LAB_IMAGE_RECORD = $(OUT_DIR)/lab-initramfs.image
initramfs-lab: lab-root ## build the lab checks' smaller initramfs (make lab-check boots it)
	@vm/initramfs.sh $(LAB_ROOT) >$(LAB_IMAGE_RECORD).tmp && mv $(LAB_IMAGE_RECORD).tmp $(LAB_IMAGE_RECORD)

# VM_RUN runs a command in the guest, killed after VM_TIMEOUT; VM_SHELL boots
# it to a shell on this terminal, with no time limit unless VM_TIMEOUT is given.
VM_BOOT = vm/run.sh --initramfs "$(GUEST_INITRAMFS)"
VM_RUN = $(VM_BOOT) --timeout $(VM_TIMEOUT)
VM_SHELL = $(VM_BOOT) --interactive $(if $(filter-out file,$(origin VM_TIMEOUT)),--timeout $(VM_TIMEOUT))

vm: initramfs ## boot the guest with a shell on this terminal (exit or Ctrl-D powers off)
	@$(VM_SHELL) --share $(CURDIR) -- 'cd /mnt/share 2>/dev/null; setsid cttyhack sh'

vm-run: initramfs ## run CMD='...' in the guest, the repository at /mnt/share (boot ~3 s); a failing CMD fails, naming its exit status
	$(if $(CMD),,@echo "vm-run: set CMD='shell command'" >&2; exit 2)
	@rc=0; $(VM_RUN) --share $(CURDIR) -- '$(subst ','\'',$(value CMD))' || rc=$$?; \
	[ $$rc = 0 ] || { echo "vm-run: the guest command exited $$rc" >&2; exit $$rc; }

check: deps ## run every test: host, docs, guest, debug guest, Debian's kernels, labs, transcripts, four suites at once; a failure, a declared result missing (tests/expected-results) or an undeclared one fails (a fresh clone, warm cache: ~16 min on 2 cores, bound by CPU; cold: two kernel builds more)
	@MAKE="$(MAKE)" CHECK_DIR=$(CHECK_DIR) CHECK_SUITES="$(CHECK_SUITES)" CHECK_JOBS=$(CHECK_JOBS) \
		GUEST_ROOT=$(GUEST_ROOT) LAB_ROOT=$(LAB_ROOT) tests/check.sh

# The suites make check runs, the longest first: CHECK_JOBS of them at once
# (make -j; each one's output shows when it ends), CHECK_JOBS=1 one after
# another. make check builds the guests' images first and hands the suites
# the image (GUEST_INITRAMFS), so that the host tests that restage the
# guest's files meanwhile do not change what the suites boot; run alone, a
# check-* target builds what it needs first (CHECK_NEEDS). The host tests,
# which run make themselves, do not get this make's MAKEFLAGS (its
# jobserver).
CHECK_SUITES := check-vm check-debug check-debian check-host check-labs check-transcripts check-interop check-docs
CHECK_JOBS ?= 4
CHECK_NEEDS := initramfs
GUEST_INITRAMFS = $$(vm/initramfs.sh $(GUEST_ROOT))
LAB_CHECK_NEEDS := initramfs-lab
LAB_INITRAMFS = $$(vm/initramfs.sh $(LAB_ROOT))

# Each suite's and build step's wall and CPU seconds (tests/timed.sh), which
# make check prints as a table at the end.
CHECK_TIMES = $(CHECK_DIR)/times
TIMED = tests/timed.sh $(CHECK_TIMES)
# guest_times RESULTS PREFIX: the guest's "TIME: NAME SECONDS" lines (wall,
# from tests/vm/run-guest-tests.sh) into CHECK_TIMES, names prefixed.
guest_times = sed -n 's|^TIME: \([^ ]*\) \([0-9.]*\)$$|$(2)\1\t\2\t-|p' $(1) >>$(CHECK_TIMES)

check-host: deps kernel ## run the host tests (tests/host/*.test.sh)
	@MAKEFLAGS= CHECK_TIMES=$(abspath $(CHECK_TIMES)) $(TIMED) host tests/host/run.sh | tee $(CHECK_DIR)/host.results

check-docs: deps
	@mkdir -p $(CHECK_DIR) && tests/result.sh docs run_checked html-no-warnings $(TIMED) docs $(SPHINX) $(CHECK_DIR)/html 2>&1 | \
		tee $(CHECK_DIR)/docs.results

check-vm: $(CHECK_NEEDS)
	@echo "vm: running the guest tests (boot ~3 s, tests ~1 min under TCG)"
	@$(TIMED) guest $(VM_RUN) --channel $(CHECK_DIR)/vm.results -- '$(GUEST_PREFIX)/tests/run-guest-tests.sh; $(GUEST_PREFIX)/tests/kernel-log.sh' \
		|| tests/result.sh vm fail guest-run "the guest run failed (exit $$?)" >>$(CHECK_DIR)/vm.results
	@$(call guest_times,$(CHECK_DIR)/vm.results,guest/)

# The interop checks (tests/interop-host.test.sh): a guest of their own.
check-interop: $(CHECK_NEEDS)
	@$(TIMED) interop tests/interop-host.test.sh "$(GUEST_INITRAMFS)" | tee $(CHECK_DIR)/interop.results

# The debug guest (issue 17): the debug kernel (vm/kernel-debug.config, its
# own build folder; cold build ~25 min) with its own guest files in
# $(OUT_DIR)/debug runs the ring-buffer selftests and the producer;
# tests/vm-debug.sh fails on any lockdep, KASAN, WARN or BUG report.
check-debug: deps
	@mkdir -p $(CHECK_DIR) && KERNEL_VARIANT=debug $(TIMED) build/debug-initramfs $(MAKE) -s OUT_DIR=$(OUT_DIR)/debug initramfs
	@KERNEL_VARIANT=debug $(TIMED) debug-guest tests/vm-debug.sh "$$(KERNEL_VARIANT=debug vm/initramfs.sh $(OUT_DIR)/debug/guest-root)" \
		$(CHECK_DIR) | tee $(CHECK_DIR)/vm-debug.results
	@$(call guest_times,$(CHECK_DIR)/vm-debug.results,debug-guest/)

# Debian's own kernels (issue 23): vm/debian-kernel.sh fetches each image
# and its headers into $(CACHE_DIR)/debian-kernels (apt-get download; not
# installed), tests/check-debian-kernels.sh builds our modules against it
# and runs tests/debian-kernels/NAME.suites; NAME.expect lists the failures
# and skips expected on that kernel, with their reasons, then writes their
# rows of docs/matrix/results.csv. make check runs a few suites on each
# (check-debian: NAME.check-suites, one result per kernel, debian-guest/NAME).
DEBIAN_KERNELS ?= 6.12 6.12-rt 6.1
check-debian-kernels: guest-root ## run the library's guest suites on Debian's own 6.12, 6.12-rt and 6.1 kernels and write their rows of docs/matrix/results.csv (DEBIAN_KERNELS='6.12 ...'; TCG: 3 to 6 min a kernel; first run downloads 331 MB)
	@VM_TIMEOUT=$(VM_TIMEOUT) tests/check-debian-kernels.sh $(OUT_DIR)/debian-kernels $(GUEST_ROOT) $(DEBIAN_KERNELS)

check-debian: $(CHECK_NEEDS) ## make check's part of check-debian-kernels: accounting and minimal-consumer on each kernel, one result a kernel
	@mkdir -p $(CHECK_DIR) && rc=0 && CHECK_TIMES=$(abspath $(CHECK_TIMES)) VM_TIMEOUT=$(VM_TIMEOUT) \
		tests/check-debian-kernels.sh --check $(OUT_DIR)/debian-check $(GUEST_ROOT) $(DEBIAN_KERNELS) | \
		tee $(CHECK_DIR)/debian.results || rc=$$?; \
	for k in $(DEBIAN_KERNELS); do \
		sed -n "s|^TIME: \([^ ]*\) \([0-9.]*\)\$$|debian-$$k/\1\t\2\t-|p" $(OUT_DIR)/debian-check/$$k.results 2>/dev/null || true; \
	done >>$(CHECK_TIMES); \
	exit $$rc

# The kernel matrix (issue 23 item 2): our patched tree cross-built for
# arm64 with 64K pages, for i386 and for s390x (big-endian), and our
# x86_64 kernel with 6.10's mapping layout (issue 23 item 5: its own tree,
# the series and vm/variants/610-layout.patch, "# matrix-patch:")
# (vm/matrix-kernel.sh, vm/matrix/*.config;
# its own folders under $(CACHE_DIR)/matrix, redone when their inputs
# change), each booted in QEMU (TCG) with that architecture's busybox and
# our programs built static for it; tests/check-matrix.sh runs
# tests/matrix/NAME.suites and counts the results against NAME.expect, then
# writes docs/matrix/ (the table the guide's test-machine page includes).
# The cross compilers are Debian's packages unpacked into the cache (make
# deps-matrix), never installed: gcc-aarch64-linux-gnu conflicts with
# gcc-multilib. Not part of make check.
MATRIX ?= arm64-64k i386 s390x x86_64-610-layout
deps-matrix: ## install qemu-system-arm and qemu-system-misc (s390x) and fetch the matrix's cross compilers and busybox-static (apt-get download into the cache; adds dpkg's arm64, i386 and s390x architectures)
	@DEPS_EXTRA='qemu-system-arm qemu-system-misc' vm/deps.sh
	@for n in $(MATRIX); do vm/matrix-toolchain.sh "$$(sed -n 's/^# matrix-arch: //p' vm/matrix/$$n.config)" >/dev/null; done

check-matrix: deps-matrix ## cross-build the guest kernel for arm64 (64K pages), i386 and s390x (big-endian), and our x86_64 kernel with 6.10's mapping layout (vm/variants/), and run the guest suites there (MATRIX='arm64-64k i386 s390x x86_64-610-layout'); writes docs/matrix/
	@vm/kernel.sh patch
	@VM_TIMEOUT=$(if $(filter command line,$(origin VM_TIMEOUT)),$(VM_TIMEOUT),3600) tests/check-matrix.sh $(OUT_DIR)/matrix $(MATRIX)

# record_transcripts DIR [NAME...] [PREFIX]: run docs/transcripts/*.sh in the
# guest into DIR (PREFIX: a command the guest run goes through).
record_transcripts = rm -rf $(1) && mkdir -p $(1) && \
	$(3) $(VM_RUN) --share $(CURDIR)/$(1) -- $(GUEST_PREFIX)/tests/record-transcripts.sh /mnt/share $(2)

transcripts: initramfs ## re-record the guide's transcripts in the guest (T='name ...' for some)
	@$(call record_transcripts,$(OUT_DIR)/transcripts,$(T))
	@cp $(OUT_DIR)/transcripts/*.txt docs/transcripts/
	@echo "transcripts: $$(ls $(OUT_DIR)/transcripts/*.txt | wc -l) recorded into docs/transcripts/; review with git diff"

check-transcripts: $(CHECK_NEEDS)
	@{ $(call record_transcripts,$(CHECK_DIR)/transcripts,,$(TIMED) transcripts-guest) >$(CHECK_DIR)/transcripts.log 2>&1 \
		|| tests/result.sh transcripts fail guest-run "see $(CHECK_DIR)/transcripts.log"; \
		tests/check-transcripts.sh $(CHECK_DIR)/transcripts; } | tee $(CHECK_DIR)/transcripts.results

# Labs (labs/NN-name/): the learner works in labs/work/NAME (git-ignored).
# lab and lab-check check L and the terminal before they build anything.
LABS := $(notdir $(wildcard labs/[0-9][0-9]-*))
LAB_RUN = $(OUT_DIR)/labs/run
need_lab = [ -n "$(L)" ] && [ -f "labs/$(L)/check.sh" ] || \
	{ echo "unknown lab L='$(L)'; the labs: $(LABS)" >&2; exit 2; }
skel_lab = labs/skel.sh $(if $(FORCE),-f) labs/$(1) labs/work/$(1)
build_lab = UAPI=$(HEADERS_DIR) labs/build.sh labs/work/$(1) labs/work/$(1)

skels: ## write every lab's skeleton into labs/work/ (FORCE=1 overwrites your edits)
	@$(foreach l,$(LABS),$(call skel_lab,$(l)) && ) true

skel: ## write the skeleton of lab L=NAME into labs/work/NAME
	@$(need_lab); $(call skel_lab,$(L))

# The lab targets boot the image a record names (vm/image-fresh.sh made
# sure it is current) without hashing the staged files again: make lab the
# whole guest (a shell, with every program), lab-check the lab checks' image.
lab: GUEST_INITRAMFS = $$(cat $(IMAGE_RECORD))
# The lab checks' guests have 256 MB, which every lab's check and mutant
# runs in (make check-labs boots them so): under TCG a guest with 512 MB ran
# its command 0.10 s later and ended 0.25 s later (docs/vm.rst).
LAB_VM_MEMORY := 256
lab: ## build your labs/work/L and boot the guest with a shell there (needs a terminal)
	@$(need_lab); [ -t 0 ] && [ -t 1 ] || \
		{ echo "make lab needs a terminal (it gives you a shell in the guest); without one, run 'make lab-check L=$(L)'" >&2; exit 2; }
	@vm/image-fresh.sh $(IMAGE_RECORD) || $(MAKE) -s initramfs
	@[ -d labs/work/$(L) ] || $(call skel_lab,$(L))
	@$(call build_lab,$(L))
	@$(VM_SHELL) --share $(CURDIR) -- 'cd /mnt/share/labs/work/$(L) && setsid cttyhack sh'

lab-check: ## build your labs/work/L (while the guest boots) and run the lab's check in the guest
	@$(need_lab); [ -d labs/work/$(L) ] || { echo "no labs/work/$(L): run 'make skel L=$(L)' first" >&2; exit 2; }
	@vm/image-fresh.sh $(LAB_IMAGE_RECORD) || $(MAKE) -s initramfs-lab
	@UAPI=$(HEADERS_DIR) LAB_RUN=$(LAB_RUN) VM_TIMEOUT=$(VM_TIMEOUT) VM_MEMORY=$(LAB_VM_MEMORY) \
		labs/lab-check.sh $(L) labs/work/$(L) "$$(cat $(LAB_IMAGE_RECORD))"

lab-diff: ## after lab-check L=NAME passes: your copy beside the solution, with why each TODO is done that way
	@$(need_lab); labs/status.sh diff $(L)

labs-status: ## one line per lab: not started, does not build, builds, or passes (its last lab-check, on your current files)
	@UAPI=$(HEADERS_DIR) labs/status.sh

# Every lab's solution must pass its check, and its skeleton and each of its
# mutants fail it (labs/check-labs.sh: labs/build-all.sh builds them,
# labs/check-all.sh checks). The checks mostly wait, so they run in
# LAB_GUESTS guests at once, which share the labs as they go.
LAB_GUESTS ?= 2
check-labs: $(LAB_CHECK_NEEDS)
	@CHECK_DIR=$(CHECK_DIR) CHECK_TIMES=$(CHECK_TIMES) LAB_RUN=$(LAB_RUN) LAB_GUESTS=$(LAB_GUESTS) \
		UAPI=$(HEADERS_DIR) VM_TIMEOUT=$(VM_TIMEOUT) VM_MEMORY=$(LAB_VM_MEMORY) labs/check-labs.sh "$(LAB_INITRAMFS)" $(LABS)

# Timing-dependent tests: the guest suites and the lab checks FLAKY_RUNS
# times with every CPU busy (tests/check-flaky.sh; results in
# $(OUT_DIR)/flaky/).
FLAKY_RUNS ?= 3
check-flaky: deps ## run the guest suites and lab checks FLAKY_RUNS=3 times with every CPU kept busy, and name each result whose verdict changed (~10 min a run)
	@MAKE="$(MAKE)" GUEST_ROOT=$(GUEST_ROOT) LAB_ROOT=$(LAB_ROOT) tests/check-flaky.sh $(FLAKY_RUNS)

# Benchmarks (tests/bench/, tests/vm/bench-run.sh): the guest's consumers,
# then the host's decoders; the guide's performance page shows the results.
# BENCH_SIZES: sub-buffer sizes of the cost model, in KiB ("" skips it);
# BENCH_RATES: producer rates at 4 KiB, 0 as fast as it can ("" skips them).
BENCH_REPS ?= 5
BENCH_SIZES ?= 4 8 16 32 64 128 256 512
BENCH_RATES ?= 10000 50000 200000 0
BENCH_DIR = $(OUT_DIR)/bench-results
PERF_DIR := docs/ringbuffer/perf
bench: initramfs ## measure read()/splice()/mmap against the decoding floor (guest) and the decoders (host); BENCH_REPS=5 (7-10 min)
	@rm -rf $(BENCH_DIR) && mkdir -p $(BENCH_DIR)
	@echo "bench: $(BENCH_REPS) repetitions in the guest (console: $(BENCH_DIR)/console.log)"
	@$(VM_RUN) --share $(CURDIR)/$(BENCH_DIR) -- 'sh $(GUEST_PREFIX)/tests/bench-run.sh /mnt/share/guest.txt $(BENCH_REPS) "$(BENCH_SIZES)" "$(BENCH_RATES)"' \
		>$(BENCH_DIR)/console.log 2>&1 || { echo "bench: the guest run failed; see $(BENCH_DIR)/console.log" >&2; exit 1; }
	@echo "bench: decoders on the host (timing and callgrind)"
	@tests/bench/decoder.sh $(BENCH_DIR) >/dev/null
	@/usr/bin/python3 tests/bench/report.py $(BENCH_DIR) $(PERF_DIR)
	@cp $(BENCH_DIR)/guest.txt $(BENCH_DIR)/decoder.txt $(PERF_DIR)/
	@echo "bench: table and plot written to $(PERF_DIR)/; review with git diff"

# What one GET_READER costs by events handed over and sub-buffer size
# (tests/vm/get_reader_cost.c); the performance page includes the result.
GET_READER_REPS ?= 15
bench-get-reader: initramfs ## time one GET_READER by sub-buffer size and events handed over, against getppid() (guest, ~1 min)
	@echo "bench-get-reader: $(GET_READER_REPS) calls per case in the guest"
	@$(VM_RUN) -- 'taskset -c 0 $(GUEST_PREFIX)/bin/get_reader_cost $(GET_READER_REPS)' >$(OUT_DIR)/get-reader.log 2>&1 || \
		{ echo "bench-get-reader: the guest run failed; see $(OUT_DIR)/get-reader.log" >&2; exit 1; }
	@tr -d '\r' <$(OUT_DIR)/get-reader.log | grep -oE '(getppid_ns|subbuf_kb)=.*' >$(PERF_DIR)/get-reader.txt
	@echo "bench-get-reader: $(PERF_DIR)/get-reader.txt ($$(wc -l <$(PERF_DIR)/get-reader.txt) lines); review with git diff"

# Before and after kernel-patches/0007 (issue 25 item 3), in one run: the
# cost model (bench-run.sh's cost part at BENCH_SIZES) and get_reader_cost,
# on the walking kernel (vm/walking-kernel.sh: the series without 0007 and
# 0008, built once into its own cache folder) and on the patched one, one
# boot of each a round, the two kernels' order swapped every round
# (tests/bench/compare.sh); report.py --compare writes the tables.
BENCH_COMPARE_REPS ?= 3
bench-compare: initramfs ## the cost model and one GET_READER's cost, before (walking kernel, without 0007) and after (patched), kernels alternating per round; BENCH_COMPARE_REPS=3 (about 4 min a round: 11 min for 3, 17 min for 5 on the loaded 2-core machine; the first run also builds the walking kernel, a cold kernel build)
	@echo "bench-compare: $(BENCH_COMPARE_REPS) rounds of both kernels (consoles: $(BENCH_DIR)/compare/KERNEL/)"
	@VM_TIMEOUT=$(VM_TIMEOUT) tests/bench/compare.sh $(BENCH_DIR)/compare "$(GUEST_INITRAMFS)" \
		$(BENCH_COMPARE_REPS) "$(BENCH_SIZES)" $(GET_READER_REPS)
	@/usr/bin/python3 tests/bench/report.py --compare $(BENCH_DIR)/compare $(PERF_DIR)
	@for k in walking patched; do \
		cp $(BENCH_DIR)/compare/$$k/guest.txt $(PERF_DIR)/compare-$$k.txt; \
		cp $(BENCH_DIR)/compare/$$k/get-reader.txt $(PERF_DIR)/compare-get-reader-$$k.txt; \
	done
	@echo "bench-compare: $(PERF_DIR)/compare*.{csv,txt} written; review with git diff"
.PHONY: bench-compare

BENCH_STREAM_REPS ?= 3
bench-stream: initramfs ## trace_stream's throughput, merged against --per-cpu, with CPU 1 idle and busy (guest; BENCH_STREAM_REPS=3, about 5 min): docs/ringbuffer/perf/stream.csv
	@rm -rf $(BENCH_DIR)/stream && mkdir -p $(BENCH_DIR)/stream
	@$(VM_RUN) --share $(CURDIR)/$(BENCH_DIR)/stream -- 'sh $(GUEST_PREFIX)/tests/bench-stream.sh /mnt/share/stream.txt $(BENCH_STREAM_REPS)' \
		>$(BENCH_DIR)/stream/console.log 2>&1 || { echo "bench-stream: the guest run failed; see $(BENCH_DIR)/stream/console.log" >&2; exit 1; }
	@tests/bench/stream-table.sh $(BENCH_DIR)/stream/stream.txt >$(PERF_DIR)/stream.csv
	@cp $(BENCH_DIR)/stream/stream.txt $(PERF_DIR)/stream.txt
	@echo "bench-stream: $(PERF_DIR)/stream.csv written; review with git diff"

# What buffer_percent and the consumer's way of waiting change (issue 25
# item 4): tests/vm/bench-wait.sh in the guest, the table and the
# performance page's summary by tests/bench/wait-table.py.
BENCH_WAIT_REPS ?= 3
BENCH_WAIT_RATES ?= 20000 0
bench-wait: initramfs ## buffer_percent 0-100 against the ways to wait (library's block, poll() with no or a 20-1000 ms timeout): CPU ms, wake-ups, losses, latency (guest; BENCH_WAIT_REPS=3, about 7 min): docs/ringbuffer/perf/wait-*.csv
	@rm -rf $(BENCH_DIR)/wait && mkdir -p $(BENCH_DIR)/wait
	@echo "bench-wait: $(BENCH_WAIT_REPS) repetitions in the guest (console: $(BENCH_DIR)/wait/console.log)"
	@$(VM_RUN) --share $(CURDIR)/$(BENCH_DIR)/wait -- 'sh $(GUEST_PREFIX)/tests/bench-wait.sh /mnt/share/wait.txt $(BENCH_WAIT_REPS) "$(BENCH_WAIT_RATES)"' \
		>$(BENCH_DIR)/wait/console.log 2>&1 || { echo "bench-wait: the guest run failed; see $(BENCH_DIR)/wait/console.log" >&2; exit 1; }
	@/usr/bin/python3 tests/bench/wait-table.py $(BENCH_DIR)/wait/wait.txt $(PERF_DIR)
	@cp $(BENCH_DIR)/wait/wait.txt $(PERF_DIR)/wait.txt
	@echo "bench-wait: $(PERF_DIR)/wait-steady.csv, wait-max.csv and wait-summary.txt written; review with git diff"

FUZZ_SECONDS ?= 300
fuzz: deps ## fuzz the decoder, format files and payload formatter (libFuzzer, ASan, UBSan): FUZZ_SECONDS=300 in all, split 3:2:1
	@tests/fuzz/run.sh $(OUT_DIR)/fuzz $(FUZZ_SECONDS)

# After LABS, which it uses.
include vm/guest.mk

clean: ## remove _build (the kernel cache stays; see README to clear it)
	rm -rf $(OUT_DIR) examples/build

.PHONY: help deps html kernel examples initramfs vm vm-run check check-host check-docs check-vm check-interop check-debug check-transcripts check-debian-kernels check-debian deps-matrix check-matrix transcripts clean \
	skels skel lab lab-check lab-diff labs-status check-labs check-flaky bench bench-stream bench-get-reader bench-wait bench-compare fuzz
