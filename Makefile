# SPDX-License-Identifier: MIT
# Entry points of the project; "make help" lists them.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

CACHE_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/trace-mmap-guide
export CACHE_DIR
B ?= _build
GUEST_ROOT := $(B)/guest-root
CHECK_DIR := $(B)/check
SPHINXBUILD ?= /usr/bin/sphinx-build
SPHINX = $(SPHINXBUILD) -c . -q -W --keep-going -n -b html docs
VM_TIMEOUT ?= 900
HEADERS_DIR = $(shell vm/kernel.sh --print-var HEADERS_DIR)

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{ printf "  make %-14s %s\n", $$1, $$2 }'
	@echo "  variables: CACHE_DIR=$(CACHE_DIR)  VM_TIMEOUT=$(VM_TIMEOUT)  CMD='...' (vm-run)"

deps: ## install the Debian packages the project needs (quiet when present)
	@vm/deps.sh

html: deps ## build the guide into _build/html (seconds; no VM needed)
	$(SPHINX) $(B)/html
	@echo "guide: $(B)/html/index.html"

kernel: deps ## unpack, patch, configure and build the guest kernel (cold: ~12 min)
	@vm/kernel.sh

examples: deps ## build the examples for this machine into _build/host/examples
	@$(MAKE) -s -C examples O=$(CURDIR)/$(B)/host/examples

guest-root: kernel ## stage the guest's own files (static binaries, tests)
	@rm -rf $(GUEST_ROOT) && mkdir -p $(GUEST_ROOT)/opt/tmg/bin
	@$(MAKE) -s -C examples O=$(CURDIR)/$(GUEST_ROOT)/opt/tmg/bin STATIC=1 UAPI=$(HEADERS_DIR)
	@cp -r tests/vm $(GUEST_ROOT)/opt/tmg/tests

initramfs: guest-root ## build the guest's initramfs (busybox + our binaries)
	@vm/initramfs.sh $(GUEST_ROOT) >/dev/null

VM_RUN = vm/run.sh --initramfs "$$(vm/initramfs.sh $(GUEST_ROOT))" --timeout $(VM_TIMEOUT)

vm: initramfs ## boot the guest with a shell on this terminal (exit or Ctrl-D powers off)
	@$(VM_RUN) --interactive --share $(CURDIR) -- 'cd /mnt/share 2>/dev/null; setsid cttyhack sh'

vm-run: initramfs ## run CMD='...' in the guest; exits with its status (boot: ~3 s)
	@[ -n "$(CMD)" ] || { echo "vm-run: set CMD='shell command'" >&2; exit 2; }
	@$(VM_RUN) -- '$(subst ','\'',$(CMD))'

check: deps ## run every test: host, docs, guest (cold: ~15 min; warm: ~2 min)
	@rm -rf $(CHECK_DIR) && mkdir -p $(CHECK_DIR)
	@$(MAKE) -s check-docs check-vm
	@tests/summary.sh $(CHECK_DIR)/*.results

check-docs: deps
	@if $(SPHINX) $(CHECK_DIR)/html \
		>$(CHECK_DIR)/docs.log 2>&1; then echo "PASS: docs/html-no-warnings"; \
	else cat $(CHECK_DIR)/docs.log; echo "FAIL: docs/html-no-warnings: see above"; \
	fi | tee $(CHECK_DIR)/docs.results

check-vm: initramfs
	@echo "vm: running the guest tests (boot ~3 s, tests ~1 min under TCG)"
	@$(VM_RUN) --channel $(CHECK_DIR)/vm.results -- /opt/tmg/tests/run-guest-tests.sh \
		|| echo "FAIL: vm/guest-run: the guest run failed (exit $$?)" >>$(CHECK_DIR)/vm.results
	@rc=0; $(VM_RUN) -- 'exit 7' >$(CHECK_DIR)/vm-exit7.log 2>&1 || rc=$$?; \
	if [ $$rc = 7 ]; then echo "PASS: vm/exit-status-reaches-host"; \
	else echo "FAIL: vm/exit-status-reaches-host: wanted 7, got $$rc"; fi | tee $(CHECK_DIR)/vm-host.results

clean: ## remove _build (the kernel cache stays; see README to clear it)
	rm -rf $(B) examples/build

.PHONY: help deps html kernel examples guest-root initramfs vm vm-run check check-docs check-vm clean
