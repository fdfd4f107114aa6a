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
CHECK_DIR := $(OUT_DIR)/check
SPHINXBUILD ?= /usr/bin/sphinx-build
SPHINX = $(SPHINXBUILD) -c . -q -W --keep-going -n -b html docs
VM_TIMEOUT ?= 900
HEADERS_DIR = $(shell CACHE_DIR="$(CACHE_DIR)" vm/kernel.sh --print-var HEADERS_DIR)

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{ printf "  make %-14s %s\n", $$1, $$2 }'
	@echo "  variables: CACHE_DIR=$(CACHE_DIR)  VM_TIMEOUT=$(VM_TIMEOUT)  CMD='...' (vm-run)"

deps: ## install the Debian packages the project needs (quiet when present)
	@vm/deps.sh

html: deps ## build the guide into _build/html (seconds; no VM needed)
	$(SPHINX) $(OUT_DIR)/html
	@echo "guide: $(OUT_DIR)/html/index.html"

kernel: deps ## unpack, patch, configure and build the guest kernel (cold: ~8 min)
	@vm/kernel.sh

examples: deps ## build the examples for this machine into _build/host/examples
	@$(MAKE) -s -C examples O=$(CURDIR)/$(OUT_DIR)/host/examples

TREE_DIR = $(shell CACHE_DIR="$(CACHE_DIR)" vm/kernel.sh --print-var TREE_DIR)
KBUILD_DIR = $(shell CACHE_DIR="$(CACHE_DIR)" vm/kernel.sh --print-var BUILD_DIR)

# The guest sees: /opt/trace-mmap-guide/bin (examples and C tests, static), /opt/trace-mmap-guide/tests
# (tests/vm), /opt/trace-mmap-guide/modules (out-of-tree modules from examples/modules/*).
guest-root: kernel ## stage the guest's own files (static binaries, tests, modules)
	@rm -rf $(GUEST_ROOT) && mkdir -p $(GUEST_ROOT)/opt/trace-mmap-guide/bin $(GUEST_ROOT)/opt/trace-mmap-guide/modules
	@$(MAKE) -s -C examples O=$(CURDIR)/$(GUEST_ROOT)/opt/trace-mmap-guide/bin STATIC=1 UAPI=$(HEADERS_DIR)
	@$(MAKE) -s -C tests/vm O=$(CURDIR)/$(GUEST_ROOT)/opt/trace-mmap-guide/bin UAPI=$(HEADERS_DIR) TREE=$(TREE_DIR)
	@for m in $(wildcard examples/modules/*/Kbuild); do \
		d=$(OUT_DIR)/modules/$$(basename $$(dirname $$m)); rm -rf $$d; mkdir -p $$d; \
		cp $$(dirname $$m)/* $$d/; \
		$(MAKE) -s -C $(KBUILD_DIR) M=$(CURDIR)/$$d modules >/dev/null; \
		cp $$d/*.ko $(GUEST_ROOT)/opt/trace-mmap-guide/modules/; \
	done
	@mkdir -p $(GUEST_ROOT)/opt/trace-mmap-guide/tests && cp tests/vm/*.sh $(GUEST_ROOT)/opt/trace-mmap-guide/tests/
	@mkdir -p $(GUEST_ROOT)/opt/trace-mmap-guide/transcripts && cp docs/transcripts/*.sh docs/transcripts/*.txt $(GUEST_ROOT)/opt/trace-mmap-guide/transcripts/ 2>/dev/null || true
	@for l in $(LABS); do UAPI=$(HEADERS_DIR) labs/build.sh labs/$$l $(GUEST_ROOT)/opt/trace-mmap-guide/labs/$$l; done
	@cp labs/check-lib.sh $(GUEST_ROOT)/opt/trace-mmap-guide/labs/

initramfs: guest-root ## build the guest's initramfs (busybox + our binaries)
	@vm/initramfs.sh $(GUEST_ROOT) >/dev/null

VM_RUN = vm/run.sh --initramfs "$$(vm/initramfs.sh $(GUEST_ROOT))" --timeout $(VM_TIMEOUT)

vm: initramfs ## boot the guest with a shell on this terminal (exit or Ctrl-D powers off)
	@$(VM_RUN) --interactive --share $(CURDIR) -- 'cd /mnt/share 2>/dev/null; setsid cttyhack sh'

vm-run: initramfs ## run CMD='...' in the guest (boot ~3 s); a failing CMD fails, naming its exit status
	$(if $(CMD),,@echo "vm-run: set CMD='shell command'" >&2; exit 2)
	@rc=0; $(VM_RUN) -- '$(subst ','\'',$(value CMD))' || rc=$$?; \
	[ $$rc = 0 ] || { echo "vm-run: the guest command exited $$rc" >&2; exit $$rc; }

check: deps ## run every test: host, docs, guest, labs, transcripts (cold: ~12 min; warm: ~4 min)
	@rm -rf $(CHECK_DIR) && mkdir -p $(CHECK_DIR)
	@$(MAKE) -s check-host check-docs check-vm check-transcripts check-labs
	@tests/summary.sh $(CHECK_DIR)/*.results

check-host: deps kernel ## run the host tests (tests/host/*.test.sh)
	@tests/host/run.sh | tee $(CHECK_DIR)/host.results

check-docs: deps
	@if $(SPHINX) $(CHECK_DIR)/html \
		>$(CHECK_DIR)/docs.log 2>&1; then echo "PASS: docs/html-no-warnings"; \
	else cat $(CHECK_DIR)/docs.log; echo "FAIL: docs/html-no-warnings: see above"; \
	fi | tee $(CHECK_DIR)/docs.results

check-vm: initramfs
	@echo "vm: running the guest tests (boot ~3 s, tests ~1 min under TCG)"
	@$(VM_RUN) --channel $(CHECK_DIR)/vm.results -- /opt/trace-mmap-guide/tests/run-guest-tests.sh \
		|| echo "FAIL: vm/guest-run: the guest run failed (exit $$?)" >>$(CHECK_DIR)/vm.results
	@tests/vm-host.test.sh "$$(vm/initramfs.sh $(GUEST_ROOT))" | tee $(CHECK_DIR)/vm-host.results
	@tests/interop-host.test.sh "$$(vm/initramfs.sh $(GUEST_ROOT))" | tee $(CHECK_DIR)/interop.results

# record_transcripts DIR [NAME...]: run docs/transcripts/*.sh in the guest into DIR.
record_transcripts = rm -rf $(1) && mkdir -p $(1) && \
	$(VM_RUN) --share $(CURDIR)/$(1) -- /opt/trace-mmap-guide/tests/record-transcripts.sh /mnt/share $(2)

transcripts: initramfs ## re-record the guide's transcripts in the guest (T='name ...' for some)
	@$(call record_transcripts,$(OUT_DIR)/transcripts,$(T))
	@cp $(OUT_DIR)/transcripts/*.txt docs/transcripts/
	@echo "transcripts: $$(ls $(OUT_DIR)/transcripts/*.txt | wc -l) recorded into docs/transcripts/; review with git diff"

check-transcripts: initramfs
	@{ $(call record_transcripts,$(CHECK_DIR)/transcripts,) >$(CHECK_DIR)/transcripts.log 2>&1 \
		|| echo "FAIL: transcripts/guest-run: see $(CHECK_DIR)/transcripts.log"; \
		tests/check-transcripts.sh $(CHECK_DIR)/transcripts; } | tee $(CHECK_DIR)/transcripts.results

# Labs (labs/NN-name/): the learner works in labs/work/NAME (git-ignored).
LABS := $(notdir $(wildcard labs/[0-9][0-9]-*))
LAB_RUN = $(OUT_DIR)/labs/run
need_lab = [ -n "$(L)" ] && [ -f "labs/$(L)/check.sh" ] || \
	{ echo "unknown lab L='$(L)'; the labs: $(LABS)" >&2; exit 2; }
skel_lab = labs/skel.sh $(if $(FORCE),-f) labs/$(1) labs/work/$(1)

skels: ## write every lab's skeleton into labs/work/ (FORCE=1 overwrites your edits)
	@$(foreach l,$(LABS),$(call skel_lab,$(l)) && ) true

skel: ## write the skeleton of lab L=NAME into labs/work/NAME
	@$(need_lab); $(call skel_lab,$(L))

lab: initramfs ## build your labs/work/L and boot the guest with a shell there
	@$(need_lab); [ -d labs/work/$(L) ] || $(call skel_lab,$(L))
	@UAPI=$(HEADERS_DIR) labs/build.sh labs/work/$(L) labs/work/$(L)
	@$(VM_RUN) --interactive --share $(CURDIR) -- 'cd /mnt/share/labs/work/$(L) && setsid cttyhack sh'

lab-check: initramfs ## build your labs/work/L and run the lab's check in the guest
	@$(need_lab); [ -d labs/work/$(L) ] || { echo "no labs/work/$(L): run 'make skel L=$(L)' first" >&2; exit 2; }
	@UAPI=$(HEADERS_DIR) labs/build.sh labs/work/$(L) labs/work/$(L)
	@mkdir -p $(LAB_RUN) && echo "lab-check: $(L) in the guest (console: $(LAB_RUN)/$(L).log)"
	@$(VM_RUN) --share $(CURDIR) --channel $(LAB_RUN)/$(L).results -- \
		'sh /mnt/share/labs/$(L)/check.sh /mnt/share/labs/work/$(L)' >$(LAB_RUN)/$(L).log 2>&1 || \
		echo "FAIL: labs/$(L)/guest-run: the guest run failed; see $(LAB_RUN)/$(L).log" >>$(LAB_RUN)/$(L).results
	@cat $(LAB_RUN)/$(L).results; ! grep -q '^FAIL: ' $(LAB_RUN)/$(L).results

# Every lab's solution must pass its check and its generated skeleton fail it.
check-labs: initramfs
	@mkdir -p $(CHECK_DIR) && rm -rf $(LAB_RUN)/check && mkdir -p $(LAB_RUN)/check && : >$(LAB_RUN)/check.log
	@for l in $(LABS); do \
		d=$(LAB_RUN)/check/$$l; \
		UAPI=$(HEADERS_DIR) labs/build.sh labs/$$l $$d/solution >>$(LAB_RUN)/check.log 2>&1 || \
			echo "FAIL: labs/$$l/solution-builds: see $(LAB_RUN)/check.log"; \
		{ labs/skel.sh -f labs/$$l $$d/skeleton-src && \
		UAPI=$(HEADERS_DIR) labs/build.sh $$d/skeleton-src $$d/skeleton; } >>$(LAB_RUN)/check.log 2>&1 || \
			echo "FAIL: labs/$$l/skeleton-builds: see $(LAB_RUN)/check.log"; \
	done >$(LAB_RUN)/build.results
	@$(VM_RUN) --share $(CURDIR) --channel $(LAB_RUN)/guest.results -- \
		'sh /mnt/share/labs/check-all.sh /mnt/share/labs /mnt/share/$(LAB_RUN)/check $(LABS)' \
		>$(LAB_RUN)/console.log 2>&1 || \
		echo "FAIL: labs/guest-run: the guest run failed; see $(LAB_RUN)/console.log" >>$(LAB_RUN)/guest.results
	@cat $(LAB_RUN)/build.results $(LAB_RUN)/guest.results | \
		grep -v -E '^(PASS|FAIL|SKIP): skeleton/' | tee $(CHECK_DIR)/labs.results

# Benchmarks (tests/bench/, tests/vm/bench-run.sh): the guest's consumers,
# then the host's decoders; the guide's performance page shows the results.
BENCH_REPS ?= 5
BENCH_DIR = $(OUT_DIR)/bench-results
PERF_DIR := docs/ringbuffer/perf
bench: initramfs ## measure read()/splice()/mmap consumers (guest) and decoders (host); BENCH_REPS=5 (~4 min)
	@rm -rf $(BENCH_DIR) && mkdir -p $(BENCH_DIR)
	@echo "bench: $(BENCH_REPS) repetitions in the guest (console: $(BENCH_DIR)/console.log)"
	@$(VM_RUN) --share $(CURDIR)/$(BENCH_DIR) -- 'sh /opt/trace-mmap-guide/tests/bench-run.sh /mnt/share/guest.txt $(BENCH_REPS)' \
		>$(BENCH_DIR)/console.log 2>&1 || { echo "bench: the guest run failed; see $(BENCH_DIR)/console.log" >&2; exit 1; }
	@echo "bench: decoders on the host (timing and callgrind)"
	@tests/bench/decoder.sh $(BENCH_DIR) >/dev/null
	@/usr/bin/python3 tests/bench/report.py $(BENCH_DIR) $(PERF_DIR)
	@cp $(BENCH_DIR)/guest.txt $(BENCH_DIR)/decoder.txt $(PERF_DIR)/
	@echo "bench: table and plot written to $(PERF_DIR)/; review with git diff"

FUZZ_SECONDS ?= 300
fuzz: deps ## fuzz the sub-buffer decoder (libFuzzer, ASan, UBSan) for FUZZ_SECONDS=300
	@tests/fuzz/run.sh $(OUT_DIR)/fuzz $(FUZZ_SECONDS)

clean: ## remove _build (the kernel cache stays; see README to clear it)
	rm -rf $(OUT_DIR) examples/build

.PHONY: help deps html kernel examples guest-root initramfs vm vm-run check check-host check-docs check-vm check-transcripts transcripts clean \
	skels skel lab lab-check check-labs bench fuzz
