# SPDX-License-Identifier: MIT
# How the project compiles C: the one definition of the compiler, the flags
# and the library's sources, for every Makefile and script that builds C.
#
# From a Makefile:
#   include path/to/examples/build.mk
#   prog: prog.c $(BUILD_DEPS)
#   	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIB_A) $(LDFLAGS)
# From a bash script (the same knobs, from the environment):
#   eval "$(make -s -f examples/build.mk print-sh)"
#   "$BUILD_CC" "${BUILD_CFLAGS[@]}" -o prog prog.c "${BUILD_LIB[@]}" "${BUILD_LDFLAGS[@]}"
# builds the library's archive for these flags if it is out of date, and
# sets BUILD_CC and the arrays BUILD_CFLAGS (CPPFLAGS then CFLAGS),
# BUILD_LDFLAGS, BUILD_LIB (the archive) and BUILD_DEPS (what a program
# depends on besides its source). For one line of words:
#   make -s -f examples/build.mk print-cflags   (also print-ldflags,
#   print-lib, print-cc). tests/host/lib.sh's build_c wraps this.
#
# Knobs (command line or environment):
#   CC=...      the compiler; gcc unless you name one (make's own default,
#               cc, does not count)
#   CFLAGS=...  optimisation and debugging, -O2 -g unless you pass some; the
#               flags the code needs are added to yours, never replaced
#   UAPI=DIR    compile against the kernel uapi headers in DIR/include
#   STATIC=1    link statically (the guest has no C library)

BUILD_MK := $(abspath $(lastword $(MAKEFILE_LIST)))
EXAMPLES_DIR := $(patsubst %/,%,$(dir $(BUILD_MK)))
LIB_DIR := $(EXAMPLES_DIR)/lib

ifeq ($(origin CC),default)
CC := gcc
endif
CFLAGS ?= -O2 -g
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
override CPPFLAGS += $(addprefix -I$(EXAMPLES_DIR)/,lib common demos)
ifneq ($(UAPI),)
override CPPFLAGS += -isystem $(UAPI)/include
endif
ifeq ($(STATIC),1)
override LDFLAGS += -static
endif

# The library (lib/tracemap.c: open, map, decode; lib/tracedat.c: trace.dat
# output; lib/tracemerge.c: CPUs merged by time), compiled once per set of
# flags into one archive, libtracemap.a, that every program links. Its
# folder is keyed by the compiler and the flags, so that the host's, the
# guest's (static), the 32-bit and the sanitizer builds each have their own.
LIB_SRCS := $(addprefix $(LIB_DIR)/,tracemap.c tracedat.c tracemerge.c)
LIB_HDRS := $(wildcard $(LIB_DIR)/*.h)
LIB_OUT ?= $(abspath $(EXAMPLES_DIR)/../_build/lib)
# lib_path EXTRA: the archive for these flags plus EXTRA (-m32, say).
lib_path = $(LIB_OUT)/$(shell printf '%s\n' '$(CC)' '$(CPPFLAGS)' '$(CFLAGS)' '$(1)' | \
	sha1sum | cut -c1-12)/libtracemap.a
LIB_A := $(call lib_path,)
# What a program built with these flags depends on besides its own source:
# the archive, the headers, this file, and (one file of) the uapi headers,
# which the kernel's headers stage installs afresh when they change.
UAPI_DEP := $(if $(UAPI),$(wildcard $(UAPI)/include/linux/version.h))
BUILD_DEPS := $(LIB_A) $(LIB_HDRS) $(wildcard $(EXAMPLES_DIR)/common/*.h \
	$(EXAMPLES_DIR)/demos/*.h) $(BUILD_MK) $(UAPI_DEP)

# lib_rule EXTRA: the rule of lib_path EXTRA, for $(eval). The archive is
# built in a folder of its own and renamed into place, so that builds
# running at once with the same flags never see half of one.
define lib_rule
$(call lib_path,$(1)): $(LIB_SRCS) $(LIB_HDRS) $(BUILD_MK) $(UAPI_DEP)
	@mkdir -p $$(@D) && tmp=$$$$(mktemp -d $$(@D)/.build.XXXXXX) && \
	trap 'rm -rf "$$$$tmp"' EXIT && \
	for src in $(LIB_SRCS); do \
		$$(CC) $$(CPPFLAGS) $$(CFLAGS) $(1) -c -o "$$$$tmp/$$$$(basename "$$$$src" .c).o" "$$$$src" || exit 1; \
	done && \
	ar rcs "$$$$tmp/libtracemap.a" "$$$$tmp"/*.o && mv -f "$$$$tmp/libtracemap.a" $$@
endef
# The including Makefile's first target stays its default goal.
build_mk_goal := $(.DEFAULT_GOAL)
$(eval $(call lib_rule,))
.DEFAULT_GOAL := $(build_mk_goal)

# The print targets exist only when this file is make's only makefile, so
# an including Makefile keeps its own default goal.
ifeq ($(words $(MAKEFILE_LIST)),1)
sh_array = ($(foreach w,$(1),'$(w)'))
print-sh: $(LIB_A)
	@echo "BUILD_CC='$(CC)'"
	@echo "BUILD_CFLAGS=$(call sh_array,$(CPPFLAGS) $(CFLAGS))"
	@echo "BUILD_LDFLAGS=$(call sh_array,$(LDFLAGS))"
	@echo "BUILD_LIB=$(call sh_array,$(LIB_A))"
	@echo "BUILD_DEPS=$(call sh_array,$(BUILD_DEPS))"
print-cc:
	@echo '$(CC)'
print-cflags:
	@echo '$(strip $(CPPFLAGS) $(CFLAGS))'
print-ldflags:
	@echo '$(strip $(LDFLAGS))'
print-lib: $(LIB_A)
	@echo '$(LIB_A)'
.PHONY: print-sh print-cc print-cflags print-ldflags print-lib
endif
