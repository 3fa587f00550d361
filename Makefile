# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# xroce: one entry point.
#   make            build everything into build/
#   make check      install missing Debian packages (as root), build, run every test tier
#   make interop    only the rdma_rxe interop tier (qemu VM with Debian's 6.1 kernel)
#   make demo       two-host RDMA demo in network namespaces
#   make bench      benchmarks next to kernel TCP/UDP (not part of check)
#   make fuzz       bounded libFuzzer run of the pcap/packet parser
#   make install    DESTDIR/PREFIX honoured
#   make clean
# V=1 shows full commands.

VERSION := 0.1.0
BUILD ?= build
PREFIX ?= /usr/local
DESTDIR ?=
LIBDIR ?= $(PREFIX)/lib
INCDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BPF_OBJECT_DIR ?= $(LIBDIR)/bpf

CC ?= gcc
CLANG ?= clang
BPFTOOL ?= bpftool
PKG_CONFIG ?= pkg-config

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

ARCH_INC := -I/usr/include/$(shell $(CC) -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)

CFLAGS ?= -O2 -g
XR_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
	-Wno-missing-field-initializers -fPIC -D_GNU_SOURCE \
	-Iinclude -Iuser -Iloader -I$(BUILD)/gen
LIBS := $(shell $(PKG_CONFIG) --libs libxdp libbpf libmnl 2>/dev/null || echo -lxdp -lbpf -lmnl) -lisal -lelf -lz -lpthread -lm
BENCH_LIBS :=

BPF_CFLAGS := -O2 -g -target bpf -mcpu=v3 -Wall -Werror -Wno-unused-function \
	-Iinclude -Ibpf -I$(BUILD)/gen $(ARCH_INC)

# --- sources ----------------------------------------------------------------
LIB_SRCS := $(wildcard user/*.c) $(wildcard loader/*.c)
LIB_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(BPF_SRCS))
SKELS := $(patsubst bpf/%.bpf.c,$(BUILD)/gen/%.skel.h,$(BPF_SRCS))
GEN_HDRS := $(BUILD)/gen/xr_crc32_tables.h $(SKELS)

CLI_SRCS := $(wildcard tools/xroce/*.c)
CLI_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(CLI_SRCS))
TOOLS := $(BUILD)/xroce $(patsubst tools/%.c,$(BUILD)/%,$(filter-out tools/gen_crc32_tables.c,$(wildcard tools/*.c)))

TEST_SRCS := $(wildcard selftests/prog_tests/*.c) $(wildcard selftests/*.c)
TEST_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(TEST_SRCS))
TEST_BPF_SRCS := $(wildcard selftests/progs/*.bpf.c)
TEST_SKELS := $(patsubst selftests/progs/%.bpf.c,$(BUILD)/gen/%.skel.h,$(TEST_BPF_SRCS))
TEST_BINS := $(BUILD)/selftests/test_progs $(patsubst selftests/bench/%.c,$(BUILD)/selftests/%,$(wildcard selftests/bench/*.c))

LIB_A := $(BUILD)/libxroce.a
LIB_SO := $(BUILD)/libxroce.so.0
HDRS := $(wildcard include/xroce/*.h) $(wildcard user/*.h) $(wildcard loader/*.h) $(wildcard bpf/*.h)

.PHONY: all check demo bench fuzz install clean help tests deps interop
.DELETE_ON_ERROR:
.SECONDARY:

all: $(LIB_A) $(LIB_SO) $(BUILD)/libxroce.so $(BUILD)/libxroce.pc $(TOOLS) $(TEST_BINS) $(BPF_OBJS)

help:
	@sed -n '3,13p' Makefile | sed 's/^# \{0,1\}//'

# --- generated headers --------------------------------------------------------
$(BUILD)/gen/gen_crc32_tables: tools/gen_crc32_tables.c
	$(call msg,HOSTCC,$@)
	$(Q)mkdir -p $(@D) && $(CC) -O2 -o $@ $<

$(BUILD)/gen/xr_crc32_tables.h: $(BUILD)/gen/gen_crc32_tables
	$(call msg,GEN,$@)
	$(Q)$< > $@

# --- BPF ----------------------------------------------------------------------
$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(HDRS) $(BUILD)/gen/xr_crc32_tables.h
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp.o
	$(Q)$(BPFTOOL) gen object $@ $@.tmp.o && rm -f $@.tmp.o

$(BUILD)/bpf/%.bpf.o: selftests/progs/%.bpf.c $(HDRS) $(BUILD)/gen/xr_crc32_tables.h
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && $(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp.o
	$(Q)$(BPFTOOL) gen object $@ $@.tmp.o && rm -f $@.tmp.o

$(BUILD)/gen/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst .bpf.o,,$(notdir $<)) > $@

# --- userspace ----------------------------------------------------------------
$(BUILD)/obj/%.o: %.c $(HDRS) $(GEN_HDRS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) $(XR_CFLAGS) -c $< -o $@

$(BUILD)/obj/selftests/%.o: selftests/%.c $(HDRS) $(wildcard selftests/*.h) $(GEN_HDRS) $(TEST_SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) $(XR_CFLAGS) -Iselftests -c $< -o $@

$(LIB_A): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)mkdir -p $(@D) && rm -f $@ && ar rcs $@ $^

$(LIB_SO): $(LIB_OBJS) user/libxroce.map
	$(call msg,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) -shared -Wl,-soname,libxroce.so.0 -Wl,--version-script=user/libxroce.map \
		-o $@ $(LIB_OBJS) $(LIBS)

$(BUILD)/libxroce.so: $(LIB_SO)
	$(Q)ln -sf libxroce.so.0 $@

$(BUILD)/libxroce.pc: user/libxroce.pc.in
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D) && sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCDIR@|$(INCDIR)|; s|@VERSION@|$(VERSION)|' $< > $@

$(BUILD)/xroce: $(CLI_OBJS) $(LIB_A)
	$(call msg,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -o $@ $(CLI_OBJS) $(LIB_A) $(LIBS)

$(BUILD)/%: $(BUILD)/obj/tools/%.o $(LIB_A)
	$(call msg,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -o $@ $< $(LIB_A) $(LIBS)

$(BUILD)/selftests/test_progs: $(TEST_OBJS) $(LIB_A)
	$(call msg,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -o $@ $(TEST_OBJS) $(LIB_A) $(LIBS)

$(BUILD)/selftests/%: $(BUILD)/obj/selftests/bench/%.o $(LIB_A)
	$(call msg,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(CFLAGS) -o $@ $< $(LIB_A) $(LIBS) $(BENCH_LIBS)

tests: $(TEST_BINS) $(TOOLS)

# --- top-level jobs -------------------------------------------------------------
deps:
	$(Q)scripts/install-deps.sh

check:
	$(Q)scripts/install-deps.sh --vm
	$(Q)$(MAKE) --no-print-directory -j$(shell nproc) all
	$(Q)selftests/run.sh

demo:
	$(Q)scripts/install-deps.sh
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/demo.sh

interop:
	$(Q)scripts/install-deps.sh --vm
	$(Q)$(MAKE) --no-print-directory -j$(shell nproc) all
	$(Q)selftests/run.sh -t interop

bench:
	$(Q)scripts/install-deps.sh --bench
	$(Q)$(MAKE) --no-print-directory all
	$(Q)scripts/bench.sh

fuzz:
	$(Q)scripts/install-deps.sh
	$(Q)$(MAKE) --no-print-directory $(BUILD)/gen/xr_crc32_tables.h
	$(Q)scripts/fuzz.sh

install: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/xroce $(DESTDIR)$(BINDIR) \
		$(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(BPF_OBJECT_DIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(MANDIR)/man8
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf libxroce.so.0 $(DESTDIR)$(LIBDIR)/libxroce.so
	install -m 644 include/xroce/*.h $(DESTDIR)$(INCDIR)/xroce/
	install -m 644 $(BUILD)/libxroce.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 755 $(TOOLS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(BPF_OBJS) $(DESTDIR)$(BPF_OBJECT_DIR)/
	install -m 644 docs/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 docs/man/*.3 $(DESTDIR)$(MANDIR)/man3/
	install -m 644 docs/man/*.8 $(DESTDIR)$(MANDIR)/man8/

clean:
	rm -rf $(BUILD)
