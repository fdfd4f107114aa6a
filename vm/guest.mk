# SPDX-License-Identifier: MIT
# The guest's own files, staged into $(GUEST_ROOT) for vm/initramfs.sh;
# included by the Makefile (make guest-root). Under $(GUEST_PREFIX) the
# guest gets:
#   bin/          the examples and the C tests (static)
#   modules/      examples/modules/NAME/ built as NAME.ko
#   tests/        tests/vm/*.sh and tests/results.sh
#   transcripts/  docs/transcripts/*.sh and *.txt
#   labs/         each lab built by labs/build.sh, and labs/check-helpers.sh
# Each built piece is a real file target in $(GUEST_BUILD), redone only when
# its inputs change; $(GUEST_ROOT) is then put together afresh from those
# pieces and the sources (copies of about 15 MB), so that a script deleted
# from the sources does not live on in the guest. (A deleted program's
# binary does stay in $(GUEST_BUILD)/bin until make clean.)
# $(LAB_ROOT), the lab checks' smaller image (make lab-check): from
# $(GUEST_ROOT), tests/, modules/ and the programs that the lab checks,
# the labs' scripts and the guest library name (LAB_SCRIPTS), not the
# tests' and transcripts' other programs. 19 MB less to unpack: under TCG,
# about 0.4 s less a boot (docs/vm.rst).

GUEST_BUILD := $(OUT_DIR)/guest-build
GUEST_DIR := $(GUEST_ROOT)$(GUEST_PREFIX)
MODULES := $(patsubst examples/modules/%/Kbuild,%,$(wildcard examples/modules/*/Kbuild))
GUEST_MODULES := $(MODULES:%=$(GUEST_BUILD)/modules/%.ko)
GUEST_LABS := $(LABS:%=$(GUEST_BUILD)/labs/%.built)
TRANSCRIPTS := $(wildcard docs/transcripts/*.sh docs/transcripts/*.txt)

# The kernel's stage stamps change only when the stage is redone.
$(KERNEL_STAMP) $(STAMP_DIR)/headers: kernel ;

# The C programs: the two Makefiles know their sources and are incremental.
guest-programs: kernel
	@$(MAKE) -s -C examples O=$(abspath $(GUEST_BUILD))/bin STATIC=1 UAPI=$(HEADERS_DIR)
	@$(MAKE) -s -C tests/vm O=$(abspath $(GUEST_BUILD))/bin UAPI=$(HEADERS_DIR) TREE=$(TREE_DIR)

.SECONDEXPANSION:
# A module: a fresh copy of its folder, built against the guest kernel.
$(GUEST_BUILD)/modules/%.ko: $$(wildcard examples/modules/$$*/*) $(KERNEL_STAMP)
	@rm -rf $(@D)/$* && mkdir -p $(@D)/$* && cp examples/modules/$*/* $(@D)/$*/
	@$(MAKE) -s -C $(KBUILD_DIR) M=$(abspath $(@D)/$*) modules >/dev/null
	@cp $(@D)/$*/$*.ko $@

# A lab: its folder built afresh when it or what every lab uses changes.
$(GUEST_BUILD)/labs/%.built: $$(wildcard labs/$$*/*) $(wildcard labs/*.* $(addprefix examples/,lib/*.[ch] common/*.h demos/*.h) examples/build.mk) \
		$(STAMP_DIR)/headers
	@rm -rf $(@D)/$* && UAPI=$(HEADERS_DIR) labs/build.sh labs/$* $(@D)/$*
	@touch $@

guest-root: guest-programs $(GUEST_MODULES) $(GUEST_LABS)
	@rm -rf $(GUEST_ROOT) && mkdir -p $(addprefix $(GUEST_DIR)/,bin modules tests transcripts labs)
	@cp -p $(GUEST_BUILD)/bin/* $(GUEST_DIR)/bin/
	@$(if $(GUEST_MODULES),cp -p $(GUEST_MODULES) $(GUEST_DIR)/modules/)
	@cp -p tests/vm/*.sh tests/results.sh $(GUEST_DIR)/tests/
	@$(if $(TRANSCRIPTS),cp -p $(TRANSCRIPTS) $(GUEST_DIR)/transcripts/)
	@cp -pr $(LABS:%=$(GUEST_BUILD)/labs/%) labs/check-helpers.sh $(GUEST_DIR)/labs/

LAB_DIR := $(LAB_ROOT)$(GUEST_PREFIX)
LAB_SCRIPTS := $(wildcard labs/*/*.sh) labs/check-helpers.sh tests/vm/guest-lib.sh
lab-root: guest-root
	@rm -rf $(LAB_ROOT) && mkdir -p $(LAB_DIR)/bin
	@cp -pr $(GUEST_DIR)/tests $(GUEST_DIR)/modules $(LAB_DIR)/
	@for p in $(GUEST_DIR)/bin/*; do ! grep -qw "$${p##*/}" $(LAB_SCRIPTS) || cp -p "$$p" $(LAB_DIR)/bin/; done

.PHONY: guest-programs guest-root lab-root
