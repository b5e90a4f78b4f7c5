# fastverity: `make` builds ./fastverity and libfastverity.a;
# `make check` runs every test; `make demo` runs the sample.
CC      ?= gcc
CFLAGS  ?= -O2 -g
PREFIX  ?= /usr/local
DESTDIR ?=
PKGS     = libcrypto popt json-c devmapper libisal
WARN     = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
# headers are named from the top of the tree: "verity/tree/params.h"
ALL_CFLAGS = $(WARN) $(CPPFLAGS) $(CFLAGS) -fPIC -I. -I$(B)/gen $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# (libprotobuf-c's on its own: a cross build without it keeps the others')
ALL_CFLAGS += $(shell pkg-config --cflags libprotobuf-c 2>/dev/null)
# libdevmapper, libcrypto, libfec, zlib, json-c and libprotobuf-c: their
# headers only; each is opened when first needed (hashtree/dl.h,
# cli/jsonc.h, verity/container/ota/pbc.h). Test
# programs that call OpenSSL, libfec or zlib themselves link them
# (TEST_LIBS).
LIBS     = $(shell pkg-config --libs $(filter-out devmapper libcrypto json-c,$(PKGS)) 2>/dev/null) \
           -lpthread
TEST_LIBS = $(shell pkg-config --libs libcrypto 2>/dev/null) -lfec -lz -lbz2 -llzma -lzstd
B        = build

LIB_SRC  = hashtree/error.c hashtree/sha256.c hashtree/hasher.c hashtree/dl.c hashtree/thread.c hashtree/libcrypto.c \
           hashtree/geometry.c hashtree/proof.c hashtree/tree.c hashtree/window.c hashtree/pool.c hashtree/buffer.c \
           verity/storage/device.c verity/storage/backing.c verity/storage/output.c \
           verity/storage/file.c verity/storage/loop.c verity/storage/extents.c \
           verity/tree/params.c verity/tree/superblock.c verity/tree/layout.c \
           verity/tree/pair.c verity/tree/io.c verity/tree/format.c verity/tree/verify.c \
           verity/tree/update.c verity/tree/update_parity.c \
           verity/tree/memtree.c verity/fsverity/digest.c verity/fsverity/kernel.c verity/fsverity/request.c \
           verity/fec/rs.c verity/fec/layout.c verity/fec/source.c verity/fec/encode.c \
           verity/fec/proof.c verity/fec/refresh.c verity/fec/repair.c \
           verity/sign/signature.c verity/sign/pkcs11.c verity/sign/mldsa.c verity/sign/mldsa_key.c verity/sign/scheme.c \
           verity/storage/crc32.c verity/container/source.c verity/container/sidecar.c verity/container/avb/vbmeta.c \
           verity/container/avb/helper.c verity/container/avb/image.c \
           verity/container/ddi/gpt.c verity/container/ddi/ddi.c verity/container/ddi/jsonc.c \
           verity/container/sparse/sparse.c verity/container/sparse/writer.c \
           verity/container/super/lp.c verity/container/super/super.c \
           verity/container/ota/pbc.c verity/container/ota/zip.c verity/container/ota/payload.c \
           verity/container/ota/ota.c verity/container/ota/facts.c verity/container/ota/sig.c verity/container/ota/zipcheck.c verity/container/ota/inflate.c \
           verity/container/ota/apply.c verity/container/ota/decomp.c verity/container/ota/bspatch.c verity/container/ota/show.c \
           verity/dm/table.c verity/dm/activate.c verity/dm/shown.c \
           verity/registry/registry.c verity/policy/kinds.c verity/policy/trust.c \
           verity/android/android.c verity/android/write.c verity/android/request.c verity/android/table.c verity/android/run.c verity/android/shown.c verity/android/show.c verity/show/show.c verity/show/pair.c verity/show/check.c verity/show/verify.c verity/slot/walk.c verity/slot/run.c verity/slot/show.c verity/slot/avbtool.c verity/files/files.c verity/files/signed.c verity/pairs/held.c verity/pairs/act.c verity/show/result.c verity/image/image.c verity/image/open.c verity/image/judge.c verity/image/ddishow.c verity/image/alone.c verity/image/takes.c \
           verity/android/avbshow.c verity/slot/digests.c verity/image/avbdump.c verity/slot/vbmeta_digest.c \
           verity/ops/ops.c verity/ops/options.c verity/ops/parse.c verity/api/api.c verity/api/pair.c verity/api/image.c verity/api/ddi.c \
           verity/files/ask.c verity/api/ota.c verity/api/avb.c verity/api/measure.c verity/api/super.c verity/api/slot.c verity/api/fsverity.c verity/fsverity/show.c \
           verity/bench/request.c verity/bench/output.c verity/bench/hashing.c verity/bench/fec.c verity/bench/trees.c verity/bench/rank.c
KERNEL_SRC = hashtree/sha256_shani.c hashtree/sha256_armv8.c hashtree/sha1_shani.c \
             hashtree/sha256_avx512.c
CLI_SRC  = cli/main.c cli/errors.c cli/params.c cli/root.c \
           cli/json.c cli/jsonc.c cli/cmd_format.c cli/cmd_verify.c cli/cmd_dump.c cli/progress.c \
           cli/cmd_bench.c cli/cmd_open.c \
           cli/cmd_sign.c cli/cmd_repair.c cli/cmd_update.c cli/pair.c cli/options.c \
           cli/cmd_avb.c cli/hints.c \
           cli/cmd_fsverity.c cli/cmd_ota.c cli/cmd_lp.c cli/files.c
# A unit suite sits at the path of what it tests: tests/unit/<folder>/
# test_<file>.c for verity/<folder>/<file>.c (hashtree/<file>.c:
# tests/unit/hashtree/), built as $(B)/tests/<folder>/test_<file>.
UNIT_SRC = $(sort $(wildcard tests/unit/*/test_*.c tests/unit/*/*/test_*.c))
# tests/unit/api/'s suites are programs of the public API alone, as the
# command is (with their helpers, tests/unit/api/api_test.c)
UNIT_API = $(wildcard tests/unit/api/test_*.c)

# Android OTA manifests: C made by protoc-c from the .proto files at
# build time into $(B)/gen/, compiled with verity/container/ota/pbc.h
# first (libprotobuf-c opened when first needed).
OTA_PROTO = update_metadata ota_metadata
OTA_GEN_H = $(OTA_PROTO:%=$(B)/gen/%.pb-c.h)
OTA_GEN_OBJ = $(OTA_PROTO:%=$(B)/gen/%.pb-c.o)
LIB_OBJ  = $(LIB_SRC:%.c=$(B)/%.o) $(KERNEL_SRC:%.c=$(B)/%.o) $(OTA_GEN_OBJ)
CLI_OBJ  = $(CLI_SRC:%.c=$(B)/%.o)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)

# Packages for building (make, make demo), then for testing (make check:
# Check, the oracles cryptsetup-bin, systemd-repart and sfdisk, clang,
# qemu for the kernel and arm64 tests, SoftHSM for PKCS#11 keys,
# debhelper and lintian for the Debian packages, fsverity-utils for
# fs-verity).
BUILD_PKGS = gcc make pkg-config libssl-dev libpopt-dev libdevmapper-dev \
             libjson-c-dev zlib1g-dev libisal-dev libfec-dev libprotobuf-c-dev \
             protobuf-c-compiler libbz2-dev liblzma-dev libzstd-dev libbrotli-dev
TEST_PKGS = check fdisk systemd cryptsetup-bin dmsetup clang jq strace time bsdutils bc \
            qemu-system-x86 busybox-static xz-utils openssl libclang-rt-14-dev \
            valgrind softhsm2 libengine-pkcs11-openssl android-sdk-libsparse-utils \
            make-dynpart-mappings python3-jsonschema python3-protobuf python3-six python3-brotli zstd zsh fish debhelper lintian fsverity \
            $(ARM64_PKGS)
DEPS_PKGS = $(BUILD_PKGS) $(TEST_PKGS)
# check-arm64: the cross compiler, qemu-user and the arm64 development
# packages (multiarch; deps adds the arm64 architecture to dpkg). ISA-L's
# arm64 library cannot be installed beside the host's (libisal2 is not
# Multi-Arch: same): tests/arm64/run.sh unpacks it into build-arm64.
ARM64_PKGS = gcc-aarch64-linux-gnu qemu-user-static qemu-system-arm libc6-dev:arm64 \
             libssl-dev:arm64 libpopt-dev:arm64 libjson-c-dev:arm64 \
             libprotobuf-c-dev:arm64 libbz2-dev:arm64 liblzma-dev:arm64 libzstd-dev:arm64 libbrotli-dev:arm64 \
             libdevmapper-dev:arm64 check:arm64 libfec-dev:arm64 zlib1g-dev:arm64

.PHONY: all deps deps-build check check-full check-host check-side check-arm64 check-unit check-cli check-images \
        check-clang check-kernel check-fuzz check-ct check-asan check-tsan fuzz faults sweep demo install uninstall clean bench

all: fastverity libfastverity.a libfastverity.so libfastverity.so.2

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(B)/gen/%.pb-c.c $(B)/gen/%.pb-c.h: verity/container/ota/proto/%.proto
	@mkdir -p $(B)/gen
	protoc-c --proto_path=verity/container/ota/proto --c_out=$(B)/gen $<
$(B)/gen/%.pb-c.o: $(B)/gen/%.pb-c.c
	$(CC) $(ALL_CFLAGS) -Wno-deprecated-declarations -include verity/container/ota/pbc.h \
	  -MMD -MP -c $< -o $@
$(filter-out $(OTA_GEN_OBJ),$(LIB_OBJ)): | $(OTA_GEN_H)

# The library's internal headers #error unless FASTVERITY_COMPILATION is
# defined: for the library, its unit suites, fuzz targets and test
# programs, never for cli/, a client of include/fastverity.h alone
# (docs/architecture.md; tests/cli/t_frontdoor.sh).
INTERNAL_CFLAGS = -DFASTVERITY_COMPILATION
ALL_CFLAGS += $(INTERNAL_CFLAGS)
$(CLI_OBJ): INTERNAL_CFLAGS =
# the public API's unit suites are programs of it alone, as the command is
UNIT_API_BIN = $(UNIT_API:tests/unit/%.c=$(B)/tests/%) $(UNIT_API:tests/unit/%.c=$(B)/unit/%)
$(UNIT_API_BIN): private INTERNAL_CFLAGS =
$(UNIT_API_BIN): tests/unit/api/api_test.c

# The shared library exports only include/fastverity.h's functions
# (verity/api/ marks them), versioned FASTVERITY_2 by libfastverity.map
# (a later release's in FASTVERITY_2.1, ...); the soname's number, the
# nodes' major, changes only when one is removed or changes meaning
# (docs/library.md, "ABI").
$(LIB_OBJ): ALL_CFLAGS += -fvisibility=hidden
SONAME = libfastverity.so.2

# The target the compiler builds for (a cross compiler's, not the host's).
TARGET_ARCH := $(firstword $(subst -, ,$(shell $(CC) -dumpmachine 2>/dev/null)))
ifeq ($(TARGET_ARCH),x86_64)
$(B)/hashtree/sha256_shani.o $(B)/hashtree/sha1_shani.o: ALL_CFLAGS += -msha -msse4.1 -mssse3
$(B)/hashtree/sha256_avx512.o: ALL_CFLAGS += -mavx512f -mavx512bw
endif
ifeq ($(TARGET_ARCH),aarch64)
$(B)/hashtree/sha256_armv8.o: ALL_CFLAGS += -march=armv8-a+crypto
endif

# The unit suites link the library's objects as they are (its internal
# functions included: $(B)/libfastverity-internal.a).
# libfastverity.a, the archive installed, is one relocatable object whose
# only global names are the public API's, every hidden one made local, so
# that nothing in it can collide with libavb, libfec or libcryptsetup in
# a program that links them too (t_install checks its global names).
$(B)/libfastverity-internal.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

OBJCOPY ?= $(shell p=$$($(CC) -dumpmachine)-objcopy; command -v $$p >/dev/null 2>&1 && echo $$p || echo objcopy)
libfastverity.a: $(LIB_OBJ)
	$(CC) -r -nostdlib -o $(B)/libfastverity.o $(LIB_OBJ)
	$(OBJCOPY) --localize-hidden $(B)/libfastverity.o
	rm -f $@
	ar rcs $@ $(B)/libfastverity.o

libfastverity.so: $(LIB_OBJ) libfastverity.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined \
	  -Wl,--version-script,libfastverity.map -o $@ $(LIB_OBJ) $(LIBS)

# a program linked in the tree (-L. -lfastverity) finds the soname here
# (LD_LIBRARY_PATH=.)
$(SONAME): libfastverity.so
	ln -sf libfastverity.so $@

# The command links the archive that is installed, whose only global
# names are the public API's: a call of an internal function would not
# link (tests/cli/t_frontdoor.sh links it against the shared library too).
# CLI_LINK=shared links it against libfastverity.so.2 instead, as the
# Debian package ships it (debian/rules); that binary runs only where the
# library is installed.
CLI_LINK ?= static
ifeq ($(CLI_LINK),shared)
fastverity: $(CLI_OBJ) $(SONAME)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) -L. -lfastverity \
	  $(shell pkg-config --libs popt json-c 2>/dev/null)
else
fastverity: $(CLI_OBJ) libfastverity.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) libfastverity.a $(LIBS)
endif

# (the suites' own headers: a change there rebuilds them)
# (the suites' own headers, in tests/unit/ and its folders, found by
# name: -Itests/unit)
UNIT_H = $(wildcard tests/unit/*.h tests/unit/*/*.h tests/unit/*/*/*.h)
$(B)/tests/%: tests/unit/%.c $(UNIT_H) $(B)/libfastverity-internal.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(shell pkg-config --cflags check) -o $@ $(filter %.c,$^) \
	  $(B)/libfastverity-internal.a $(LIBS) $(TEST_LIBS) $(shell pkg-config --libs check)

# Unit suites linked from the objects of $(B) (check-asan builds them
# with the sanitizers).
$(B)/unit/%: tests/unit/%.c $(UNIT_H) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(shell pkg-config --cflags check) -o $@ $(filter %.c,$^) \
	  $(LIB_OBJ) $(LIBS) $(TEST_LIBS) $(shell pkg-config --libs check)

$(B)/mkimage: images/mkimage.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -o $@ $< -lcrypto

# The command as the tests run it: --json documents kept for their check.
$(B)/fvjson: tests/cli/fvjson.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -o $@ $<

# cp and cmp of several files in one process, for the tests' loops
# (static: half a millisecond less a start, a thousand starts a test).
$(B)/fvfiles: tests/cli/fvfiles.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -static -o $@ $<

# The library's ML-DSA over hex lines, for tests/cli/t_mldsa.sh's
# cross-check against @noble/post-quantum and t_mldsa_kat.sh's ACVP
# known answers.
$(B)/mldsa-tool: tests/cli/mldsa_tool.c $(B)/libfastverity-internal.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/libfastverity-internal.a $(LIBS)

# Installs what is missing with apt-get (needs root on Debian).
# deps: what make check needs; deps-build: what building and make demo
# need.
deps: PKGS_WANTED = $(DEPS_PKGS)
deps-build: PKGS_WANTED = $(BUILD_PKGS)
deps deps-build:
	@missing=""; for p in $(PKGS_WANTED); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' \
	    || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "make deps: run as root to install:$$missing" >&2; exit 1; fi; \
	  case "$$missing" in *:arm64*) dpkg --print-foreign-architectures | grep -qx arm64 \
	    || dpkg --add-architecture arm64;; esac; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi

# The build uses every CPU; then two lanes at once: the host's builds and
# tests in one, in the other the phases that keep one core busy (arm64
# under qemu, the fuzz targets, the kernel under qemu, then TSan and the
# clang build), so that neither core waits for the other's longest phase.
#
# make check is the short run of each phase (about seven minutes here):
# each command test runs once, those that parse what an image holds
# (ASAN_QUICK_TESTS) under ASan, with its leak check, and UBSan only; the
# unit suites without a fork a check; arm64 runs the suites of its own
# code and t_vectors; each fuzz target 1 s; the Debian packages are built
# by check-full alone.
# make check-full (CHECK_FULL=1) runs every phase whole: every command
# test on the optimised build and the 16 of ASAN_CLI_TESTS again under
# ASan with leak checks, the arm64 command tests, suites and kernel, the
# fuzz targets 3 s each, and the packages (about eleven minutes here).
NPROC := $(shell nproc 2>/dev/null || echo 2)
check: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all $(B)/mkimage $(B)/fvjson $(B)/fvfiles $(B)/mldsa-tool $(UNIT_BIN)
	@$(MAKE) --no-print-directory -j$(NPROC) check-host check-side \
	  CHECK_QUICK=$(if $(filter 1,$(CHECK_FULL)),,1)

check-full:
	@$(MAKE) --no-print-directory check CHECK_FULL=1

# The command tests check-asan runs: all of ASAN_CLI_TESTS alone and in
# check-full; in make check the ones that parse what an image holds
# (ASAN_QUICK_TESTS), which check-cli then leaves to it (each command
# test runs once there).
ASAN_CLI_TESTS ?= t_badinput t_output t_safety t_sign t_trust t_corruption t_vectors \
  t_avb t_avb_mldsa t_avbtool t_sparse t_super t_sets t_update t_ddi t_containers t_ota t_lp t_attack
ASAN_QUICK_TESTS ?= t_badinput t_output t_corruption t_vectors t_avb t_avb_mldsa t_sparse t_super t_sets \
  t_ddi t_containers t_ota t_lp t_attack
ASAN_RUN_TESTS = $(if $(CHECK_QUICK),$(ASAN_QUICK_TESTS),$(ASAN_CLI_TESTS))

# Each phase says how long it took (wall seconds, beside the other lane).
HOST_PHASES = check-unit check-asan check-images check-cli
SIDE_PHASES = check-arm64 check-fuzz check-ct check-kernel check-tsan check-clang
check-host check-side:
	@for p in $(if $(filter check-host,$@),$(HOST_PHASES),$(SIDE_PHASES)); do \
	  s=$$(date +%s); $(MAKE) --no-print-directory $$p || exit 1; \
	  echo "$$p: $$(( $$(date +%s) - s )) s"; done

# What the command tests use besides the command they test, so that each
# target that runs them runs alone from a clean checkout: the helpers of
# tests/cli/lib.sh (mkimage, fvfiles; fvjson, which checks every --json
# document when it is built), the library as installed (t_trust,
# t_dlopen and t_frontdoor link or load libfastverity.a, .so and .so.2,
# and the command's objects) and the library's objects (t_sparse's
# sparsemap links libfastverity-internal.a).
CLI_HELPERS = $(B)/mkimage $(B)/fvjson $(B)/fvfiles
CLI_TEST_DEPS = all $(CLI_HELPERS) $(B)/mldsa-tool $(B)/libfastverity-internal.a

# The aarch64 build, its unit suites and a subset of the command tests
# under qemu-user (tests/arm64/run.sh says which; they take the host's
# helpers).
check-arm64: $(CLI_HELPERS)
	@CHECK_QUICK=$(CHECK_QUICK) tests/arm64/run.sh

# (CK_FORK=no: a fork for each of hashtree/test_sha256's thousand checks cost
# half the phase; a crash still fails its suite, as under ASan)
check-unit: $(UNIT_BIN)
	@CK_FORK=no tests/unit/run.sh $(UNIT_BIN)

check-cli: $(CLI_TEST_DEPS)
	@CHECK_QUICK=$(CHECK_QUICK) ASAN_CLI_TESTS="$(ASAN_RUN_TESTS)" tests/cli/run.sh

# The library, the command, the unit suites and the command tests built
# with AddressSanitizer (leaks included) and UBSan; a test of a leak,
# overflow or undefined behaviour fails. ASAN_CLI_TESTS picks the command
# tests (above: input checks, output safety, signatures, repair's trust
# checks, corruption and vectors, Android images, sparse images and
# avbtool's commands, disk images, updates; about two minutes; "all" for
# every one; repair also runs under ASan in its fuzz target). make check
# (CHECK_QUICK=1) runs ASAN_QUICK_TESTS, leak check included.
# (-g1: the line tables a report's stack needs, a sixth less compile time
# than -g)
ASAN_CFLAGS = -O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined \
              -fno-sanitize-recover=all
# (the command tests' helpers are the host build's: CLI_TEST_DEPS)
check-asan: $(CLI_TEST_DEPS)
	@$(MAKE) --no-print-directory -s -j$(NPROC) B=build-asan CFLAGS="$(ASAN_CFLAGS)" \
	  build-asan/fastverity-asan $(UNIT_SRC:tests/unit/%.c=build-asan/unit/%)
	@CHECK_QUICK=$(CHECK_QUICK) ASAN_CLI_TESTS="$(ASAN_RUN_TESTS)" \
	  ASAN_UNITS="$(UNIT_SRC:tests/unit/%.c=build-asan/unit/%)" tests/asan/run.sh

# The library from 8 threads at once (format, verify, repair on images
# of their own) under ThreadSanitizer: a data race fails it. So does one
# in the errors workers hand over (hashtree/test_error).
TSAN_CFLAGS = -O1 -g1 -fsanitize=thread
check-tsan:
	@$(MAKE) --no-print-directory -s -j$(NPROC) B=build-tsan CC=clang CFLAGS="$(TSAN_CFLAGS)" \
	  build-tsan/tsan-threads build-tsan/unit/hashtree/test_error
	@TSAN_OPTIONS=halt_on_error=1:exitcode=66 build-tsan/tsan-threads
	@CK_FORK=no TSAN_OPTIONS=halt_on_error=1:exitcode=66 build-tsan/unit/hashtree/test_error

$(B)/tsan-threads: tests/tsan/threads.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

# libFuzzer with ASan and UBSan: superblocks, kernel tables, damaged trees,
# repair, root hash files, signatures, hash image -> verify; each target
# 1 s in make check, 3 s in check-full, `make fuzz FUZZ_SECONDS=600` for
# a longer run.
check-fuzz:
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-$(if $(CHECK_QUICK),1,3)} tests/fuzz/run.sh

fuzz:
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-60} tests/fuzz/run.sh

# Fault injection at every I/O call with every kind of fault (make check
# runs one kind per call).
faults: fastverity $(CLI_HELPERS)
	@r=$$(mktemp); FAULT_FULL=1 RESULTS=$$r bash tests/cli/t_faults.sh; \
	  cat $$r; ! grep -q ^FAIL $$r

# Random parameter sets against veritysetup: make check runs 16 format
# cases and 12 update cases from fixed seeds, this 300 and 200 from new
# ones (SWEEP_SEED=N, UPDATE_SEED=N repeat a run); and fs-verity digests
# of a sparse file past 4 GiB against fsverity-utils.
sweep: fastverity $(CLI_HELPERS)
	@r=$$(mktemp); SWEEP_SEED=$${SWEEP_SEED:-$$(od -An -tu4 -N4 /dev/urandom | tr -d ' ')} \
	  SWEEP_CASES=$${SWEEP_CASES:-300} RESULTS=$$r bash tests/cli/t_sweep.sh; \
	  UPDATE_SEED=$${UPDATE_SEED:-$$(od -An -tu4 -N4 /dev/urandom | tr -d ' ')} \
	  UPDATE_CASES=$${UPDATE_CASES:-200} RESULTS=$$r bash tests/cli/t_update.sh; \
	  FSV_LARGE=1 RESULTS=$$r bash tests/cli/t_fsverity.sh; \
	  cat $$r; ! grep -q ^FAIL $$r

# open/status/close against a real kernel, under qemu.
check-kernel: fastverity $(B)/mkimage $(B)/fv-api $(B)/fv-regions
	@tests/kernel/run.sh

# The public API's open/status/close, and a pair of regions, run in the
# kernel test's guest.
$(B)/fv-api: tests/kernel/api.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

$(B)/fv-regions: tests/kernel/regions.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

check-images: fastverity $(B)/mkimage
	@images/check.sh

# ML-DSA's keygen and signing under valgrind's memcheck, the secret key
# marked undefined: no branch or memory index may depend on it
# (tests/ct/mldsa_ct.c; SKIP without valgrind).
check-ct:
	@tests/ct/run.sh

$(B)/mldsa-ct: tests/ct/mldsa_ct.c verity/sign/mldsa.c verity/sign/mldsa.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DFV_MLDSA_CT_TEST -o $@ tests/ct/mldsa_ct.c verity/sign/mldsa.c

# The whole tree must also build warning-free with clang (at -O0: clang's
# warnings come from its front end, and the code generation of -O2 cost
# a third more; the gcc build is the optimised one).
check-clang:
	@if command -v clang >/dev/null; then \
	  $(MAKE) --no-print-directory -s -j$(NPROC) CC=clang B=build-clang CFLAGS=-O0 \
	    build-clang/fastverity-clang && echo "clang build: ok"; \
	else echo "clang build: clang not installed" >&2; exit 1; fi

$(B)/fastverity-clang: $(CLI_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

$(B)/fastverity-asan: $(CLI_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

$(B)/fastverity-cross: $(CLI_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

demo: deps-build
	@$(MAKE) --no-print-directory all $(B)/mkimage
	@images/demo.sh

# Speed against veritysetup; prints the table the README shows.
bench: deps
	@$(MAKE) --no-print-directory all $(B)/mkimage $(B)/mldsa-tool
	@tests/bench/bench.sh

# Where make install puts things (all under DESTDIR).
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
	  $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASHCOMPDIR) \
	  $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(INCLUDEDIR)
	install -m 755 fastverity $(DESTDIR)$(BINDIR)/
	install -m 644 libfastverity.a $(DESTDIR)$(LIBDIR)/
	install -m 755 libfastverity.so $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libfastverity.so
	install -m 644 fastverity.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 completion/fastverity.bash $(DESTDIR)$(BASHCOMPDIR)/fastverity
	install -m 644 completion/_fastverity $(DESTDIR)$(ZSHCOMPDIR)/_fastverity
	install -m 644 completion/fastverity.fish $(DESTDIR)$(FISHCOMPDIR)/fastverity.fish
	install -m 644 include/fastverity.h $(DESTDIR)$(INCLUDEDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
	  -e 's|@LIBDIR@|$(patsubst $(PREFIX)%,$${prefix}%,$(LIBDIR))|' \
	  -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)%,$${prefix}%,$(INCLUDEDIR))|' \
	  fastverity.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/fastverity.pc
	@# the loader learns the new library (not for a staged install)
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig >/dev/null; then ldconfig; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/fastverity $(DESTDIR)$(LIBDIR)/libfastverity.a \
	  $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libfastverity.so \
	  $(DESTDIR)$(LIBDIR)/pkgconfig/fastverity.pc \
	  $(DESTDIR)$(MANDIR)/man8/fastverity.8 $(DESTDIR)$(BASHCOMPDIR)/fastverity \
	  $(DESTDIR)$(ZSHCOMPDIR)/_fastverity $(DESTDIR)$(FISHCOMPDIR)/fastverity.fish \
	  $(DESTDIR)$(INCLUDEDIR)/fastverity.h

VERSION = $(shell sed -n 's/^#define FASTVERITY_VERSION *"\(.*\)"/\1/p' include/fastverity.h)

# make print-VAR: a variable's value (the fuzz build takes the source
# lists from here)
print-%:
	@echo $($*)

clean:
	rm -rf $(B) build-clang build-asan build-tsan build-arm64 fastverity libfastverity.a libfastverity.so $(SONAME)

-include $(shell find $(B) -name '*.d' -type f 2>/dev/null)
