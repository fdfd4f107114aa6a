# SPDX-License-Identifier: MIT
# How the project compiles C: the one definition of the compiler, the flags
# and the library's sources, for every Makefile and script that builds C.
#
# From a Makefile:
#   include path/to/examples/build.mk
#   prog: prog.c $(BUILD_DEPS)
#   	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIB_SRCS) $(LDFLAGS)
# From a bash script (the same knobs, from the environment):
#   eval "$(make -s -f examples/build.mk print-sh)"
#   "$BUILD_CC" "${BUILD_CFLAGS[@]}" -o prog prog.c "${BUILD_LIB_SRCS[@]}" "${BUILD_LDFLAGS[@]}"
# sets BUILD_CC and the arrays BUILD_CFLAGS (CPPFLAGS then CFLAGS),
# BUILD_LDFLAGS and BUILD_LIB_SRCS (absolute paths). For one line of words:
#   make -s -f examples/build.mk print-cflags   (also print-ldflags,
#   print-lib-srcs, print-cc). tests/host/lib.sh's build_c wraps this.
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

ifeq ($(origin CC),default)
CC := gcc
endif
CFLAGS ?= -O2 -g
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
override CPPFLAGS += -I$(EXAMPLES_DIR)
ifneq ($(UAPI),)
override CPPFLAGS += -isystem $(UAPI)/include
endif
ifeq ($(STATIC),1)
override LDFLAGS += -static
endif

# The library every program links (tracemap.c: open, map, decode; tracedat.c:
# trace.dat output; tracemerge.c: CPUs merged by time).
LIB_SRCS := $(addprefix $(EXAMPLES_DIR)/,tracemap.c tracedat.c tracemerge.c)
LIB_HDRS := $(wildcard $(EXAMPLES_DIR)/*.h)
# What a program built with these flags depends on besides its own source:
# the library, this file, and (one file of) the uapi headers, which the
# kernel's headers stage installs afresh when they change.
BUILD_DEPS := $(LIB_SRCS) $(LIB_HDRS) $(BUILD_MK) \
	$(if $(UAPI),$(wildcard $(UAPI)/include/linux/version.h))

# The print targets exist only when this file is make's only makefile, so
# an including Makefile keeps its own default goal.
ifeq ($(words $(MAKEFILE_LIST)),1)
sh_array = ($(foreach w,$(1),'$(w)'))
print-sh:
	@echo "BUILD_CC='$(CC)'"
	@echo "BUILD_CFLAGS=$(call sh_array,$(CPPFLAGS) $(CFLAGS))"
	@echo "BUILD_LDFLAGS=$(call sh_array,$(LDFLAGS))"
	@echo "BUILD_LIB_SRCS=$(call sh_array,$(LIB_SRCS))"
print-cc:
	@echo '$(CC)'
print-cflags:
	@echo '$(strip $(CPPFLAGS) $(CFLAGS))'
print-ldflags:
	@echo '$(strip $(LDFLAGS))'
print-lib-srcs:
	@echo '$(LIB_SRCS)'
.PHONY: print-sh print-cc print-cflags print-ldflags print-lib-srcs
endif
