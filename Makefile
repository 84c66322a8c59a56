# Makefile -- sets everything up on a fresh machine (`make`), runs the tests
# (`make test`) and the main job (`make demo`).

CC      ?= cc
CFLAGS  ?= -std=gnu11 -O2 -g -Wall -Wextra
PYTHON  ?= python3
VENV    := .venv
BUILD   := build
BACKENDS := rip ucontext threads
EXAMPLES := pingpong spawnmany echo httpd httpload

# SAN=1: the runtime, the examples and every program the tests build, with
# AddressSanitizer (LeakSanitizer included) and UndefinedBehaviorSanitizer,
# into build-san/ (a normal build is left alone).  ripcc builds against it
# when RIP_SAN=1 is in its environment, or for -fsanitize=address,undefined;
# for another set (-fsanitize=thread...) it runs make SAN=1
# BUILD=build-san-thread SAN_FLAGS=... (ripper/runtime.py).
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
PROG_FLAGS :=
ifeq ($(SAN),1)
BUILD := build-san
PROG_FLAGS := $(SAN_FLAGS)
export RIP_SAN := 1
export ASAN_OPTIONS ?= detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS ?= halt_on_error=1:print_stacktrace=1
endif

RT       := runtime/src
RT_INC   := -Iruntime/include -I$(RT)/core -I$(RT)/rip
CORE_SRC := $(wildcard $(RT)/core/*.c)
rt_objs   = $(patsubst $(RT)/%.c,$(BUILD)/obj/%.o,$(CORE_SRC) $(wildcard $(RT)/$(1)/*.c))
# the gdb script every program carries (shared/gdb_script.h) is read by the assembler
RT_HDRS  := runtime/include/rip.h runtime/include/rip_posix.h $(wildcard $(RT)/*/*.h) \
            $(wildcard $(RT)/*/*.py)
RT_ASM   := -Wa,-I$(RT)/shared

.PHONY: all venv runtime install examples test test-outside test-thirdparty test-deps soak torture-deps valgrind fuzz fuzz-posix fuzz-deps fuzz-http fuzz-ripper fuzz-torture fuzz-reallibs mutate man demo bench bench-kvd bench-peers bench-ripper bench-runtime bench-instructions clean
all: venv runtime examples

venv: $(VENV)/.installed $(VENV)/.bytecode $(VENV)/.native
$(VENV)/.installed: setup.py pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q "setuptools>=77" && $(VENV)/bin/pip install -q -e . pytest pytest-xdist build wheel
	touch $@

# ripper's bytecode, compiled now: an editable install has none, and where
# PYTHONDONTWRITEBYTECODE is set every ripcc run compiled its modules
# again (a quarter of a second each, half of a small file's ripcc -c).
$(VENV)/.bytecode: $(VENV)/.installed $(wildcard ripper/*.py)
	$(VENV)/bin/python -m compileall -q ripper
	touch $@

# ripcc's native front (launcher/ripcc.c) over pip's ripcc script, the
# Python driver beside it as ripcc-py: a compile that needs no ripping
# starts no Python.  The runtime's folder is compiled in, as ripper.runtime
# names it.  If it cannot be built, ripcc stays the Python driver.
$(VENV)/.native: launcher/ripcc.c $(VENV)/.installed
	@rt=$$($(VENV)/bin/python -c "from ripper import runtime; print(runtime.DIR)") && \
	$(CC) -std=gnu11 -O2 -Wall -Wextra -DRIPCC_RUNTIME="\"$$rt\"" \
		-DRIPCC_CFLAGS_FILE="\"$$(dirname $$rt)/build/lib/cflags\"" \
		launcher/ripcc.c -o $(VENV)/bin/ripcc.native && \
	mv -f $(VENV)/bin/ripcc.native $(VENV)/bin/ripcc || \
	{ rm -f $(VENV)/bin/ripcc.native; echo "note: ripcc's native front did not build: ripcc is the Python driver"; }
	touch $@

runtime: $(foreach b,$(BACKENDS),$(BUILD)/lib/librip-$(b).a)

# Position-independent, so that the same objects make the shared libraries
# (an executable's link resolves the PLT and GOT away: no cost there).
$(BUILD)/obj/threads/%.o: $(RT)/threads/%.c $(RT_HDRS) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PROG_FLAGS) -fPIC -pthread $(RT_ASM) -Iruntime/include -c $< -o $@

$(BUILD)/obj/%.o: $(RT)/%.c $(RT_HDRS) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PROG_FLAGS) -fPIC -pthread $(RT_ASM) $(RT_INC) -c $< -o $@

$(BUILD)/lib/librip-rip.a: $(call rt_objs,rip)
$(BUILD)/lib/librip-ucontext.a: $(call rt_objs,ucontext)
$(BUILD)/lib/librip-threads.a: $(patsubst $(RT)/%.c,$(BUILD)/obj/%.o,$(wildcard $(RT)/threads/*.c))
$(BUILD)/lib/%.a: | $(BUILD)/lib/cflags
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/lib/librip-%.so: $(BUILD)/lib/librip-%.a
	$(CC) $(PROG_FLAGS) -shared -Wl,-soname,librip-$*.so -o $@ \
		-Wl,--whole-archive $< -Wl,--no-whole-archive -pthread

# make install PREFIX=DIR [DESTDIR=...]: rip.h, each backend's static and
# shared library, a pkg-config file per backend (rip-ucontext...), a CMake
# package (find_package(ripper) gives ripper::ucontext...) and the manual
# pages ripper(1) and ripcc(1).
PREFIX  ?= /usr/local
MAN_PAGES := man/ripper.1 man/ripcc.1
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
install: runtime $(foreach b,$(BACKENDS),$(BUILD)/lib/librip-$(b).so)
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/lib/cmake/ripper $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 runtime/include/rip.h $(DESTDIR)$(PREFIX)/include/
	for b in $(BACKENDS); do \
		install -m 644 $(BUILD)/lib/librip-$$b.a $(DESTDIR)$(PREFIX)/lib/ && \
		install -m 755 $(BUILD)/lib/librip-$$b.so $(DESTDIR)$(PREFIX)/lib/ || exit 1; \
		case $$b in rip) d="";; *) d="-DRIP_BACKEND_$$(echo $$b | tr a-z A-Z)";; esac; \
		sed -e 's|@PREFIX@|$(PREFIX)|' -e "s|@BACKEND@|$$b|g" -e 's|@VERSION@|$(VERSION)|' \
			-e "s|@DEFINES@|$$d|" runtime/install/rip.pc.in \
			> $(DESTDIR)$(PREFIX)/lib/pkgconfig/rip-$$b.pc || exit 1; \
	done
	install -m 644 runtime/install/ripperConfig.cmake $(DESTDIR)$(PREFIX)/lib/cmake/ripper/
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@MAJOR@|$(firstword $(subst ., ,$(VERSION)))|' \
		runtime/install/ripperConfigVersion.cmake.in \
		> $(DESTDIR)$(PREFIX)/lib/cmake/ripper/ripperConfigVersion.cmake

# The manual pages are made from their Markdown, docs/ripper.1.md and
# docs/ripcc.1.md (the command reference the README links to), by
# tools/md2man.py.  The made pages are committed: make install and the
# wheel ship them as they are, and tests/test_man.py fails when one is not
# what its Markdown makes now.
man: $(MAN_PAGES)
man/%.1: docs/%.1.md tools/md2man.py
	$(PYTHON) tools/md2man.py $< > $@.tmp && mv -f $@.tmp $@

# The flags every program linked with these libraries is compiled with
# (ripcc reads them).
$(BUILD)/lib/cflags: Makefile
	@mkdir -p $(dir $@)
	echo '$(PROG_FLAGS)' > $@

examples: $(foreach e,$(EXAMPLES),$(foreach b,$(BACKENDS),$(BUILD)/$(e)-$(b)))

RIPPER_SRC := $(wildcard ripper/*.py)
LIBS := $(foreach b,$(BACKENDS),$(BUILD)/lib/librip-$(b).a)

# httpd reads files with pread on the scheduler's thread, knowingly (as
# nginx does without its thread pools: a file in the page cache costs
# microseconds; one on a cold disk stalls every connection meanwhile).
RIPFLAGS_httpd := -Wno-blocking

# One recipe builds all three (a grouped pattern rule).
$(BUILD)/%-rip $(BUILD)/%-ucontext $(BUILD)/%-threads: examples/%.c $(LIBS) $(VENV)/.installed $(RIPPER_SRC)
	$(VENV)/bin/ripcc --backend=rip $(CFLAGS) $(RIPFLAGS_$*) $< -o $(BUILD)/$*-rip
	$(VENV)/bin/ripcc --backend=ucontext $(CFLAGS) $(RIPFLAGS_$*) $< -o $(BUILD)/$*-ucontext
	$(VENV)/bin/ripcc --backend=threads $(CFLAGS) $(RIPFLAGS_$*) $< -o $(BUILD)/$*-threads

$(foreach b,$(BACKENDS),$(BUILD)/httpd-$(b)): examples/http_parser.h

# Two pytest workers (pytest-xdist): most tests wait on compilers and
# programs, and CI's two cores keep make test near 13 minutes instead of
# 20.  PYTEST_JOBS=0 runs them in one process, as SAN=1 does: two suites
# of sanitized programs at once ran out of room for 10,000 connections'
# threads.
ifeq ($(SAN),1)
PYTEST_JOBS ?= 0
else
PYTEST_JOBS ?= 2
endif
test: all test-deps fuzz-deps
	@$(VENV)/bin/python -c "import xdist" 2>/dev/null || $(VENV)/bin/pip install -q pytest-xdist
	$(VENV)/bin/python -m pytest -q -n $(PYTEST_JOBS) tests --ignore=tests/test_outside_posix.py \
		--ignore=tests/test_thirdparty_upstream.py

# tinyproxy and mini_httpd (Debian's tarballs, downloaded once into
# ~/.cache/ripper) built unchanged with ripcc --posix on each backend and
# with cc, the same load on each build (tests/test_outside_posix.py; minutes:
# their configure runs through ripcc).
test-outside: all
	$(VENV)/bin/python -m pytest -q tests/test_outside_posix.py

# zlib (./configure && make && make test) and cJSON (CMake with its own
# -std=c89 -pedantic -Werror flags, ctest) built unchanged with CC=ripcc on
# rip, on ucontext and with --all-async, and with cc (Debian's tarballs,
# downloaded once; tests/test_thirdparty_upstream.py; minutes).
test-thirdparty: all test-deps
	$(VENV)/bin/python -m pytest -q -rxX tests/test_thirdparty_upstream.py

# Debian packages some tests need (csmith, gdb, clang, wrk, gcc-12-source):
# installed when missing and running as root; otherwise those tests are
# skipped with a note.
test-deps: torture-deps
	@missing=""; \
	command -v gdb >/dev/null || missing="$$missing gdb"; \
	command -v clang >/dev/null || missing="$$missing clang"; \
	command -v wrk >/dev/null || missing="$$missing wrk"; \
	command -v cmake >/dev/null || missing="$$missing cmake"; \
	{ command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ]; } || \
		missing="$$missing csmith libcsmith-dev"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
		else \
			echo "note: install$$missing for the whole test suite; their tests are skipped"; \
		fi; \
	fi

# Each httpd build under wrk at 1,000 connections and hostile clients for
# MINUTES minutes (default 1): zero errors for wrk, and fds, threads and RSS
# back to the baseline after; build/soak/REPORT.md and plots.  A 20 s
# version runs in make test (tests/test_soak.py).
MINUTES ?= 1
soak: all test-deps
	@$(VENV)/bin/python -c 'import matplotlib' 2>/dev/null || \
		$(VENV)/bin/pip install -q matplotlib || echo "note: no matplotlib: no plots"
	$(VENV)/bin/python bench/soak.py $(BUILD) --seconds $$(( $(MINUTES) * 60 ))

# gcc's torture tests come in Debian's gcc-12-source (a tarball under
# /usr/src/gcc-12; fuzz/torture.py extracts their folder into build/torture).
TORTURE_PKG := gcc-12-source
torture-deps:
	@ls /usr/src/gcc-12/gcc-*.tar.xz >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing $(TORTURE_PKG) (gcc's torture tests)"; \
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(TORTURE_PKG); } || \
				echo "note: $(TORTURE_PKG) did not install: gcc's torture tests are skipped"; \
		else \
			echo "note: install $(TORTURE_PKG) (apt-get) for gcc's torture tests; they are skipped"; \
		fi; }

# tests/programs and the example servers under valgrind memcheck: zero errors
# and zero leaks (valgrind is installed with apt-get when missing, as root).
valgrind: all
	@command -v valgrind >/dev/null || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing valgrind"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; \
		else \
			echo "make valgrind: install valgrind first" >&2; exit 1; \
		fi; }
	$(VENV)/bin/python tests/valgrind.py

# N generated async-heavy programs, rip against ucontext, and N csmith
# programs ripped with --all-async against the plain build.  CLASSES picks
# the generator's construct classes (all, base, a comma list; default all).
N ?= 200
fuzz: all test-deps
	$(VENV)/bin/python fuzz/gen_diff.py --seeds 1-$(N) $(if $(CLASSES),--classes $(CLASSES)); status=$$?; \
	$(VENV)/bin/python fuzz/csmith_diff.py --seeds 1-$(N) || status=1; exit $$status

# N generated programs of plain POSIX calls (pipes, a socketpair, pthreads):
# cc -pthread against ripcc --posix on ucontext and rip; SPLIT=1 writes each
# in two files, rip's compiled apart and linked.
fuzz-posix: all
	$(VENV)/bin/python fuzz/gen_diff.py --posix $(if $(SPLIT),--split) --jobs 2 --seeds 1-$(N) $(if $(CLASSES),--classes $(CLASSES))

# gcc's torture execute tests, each built plain and ripped --all-async, both
# run and compared; N=... runs a fixed sample of N of them.  The details go
# to build/torture/report.txt.
fuzz-torture: all torture-deps
	nice $(VENV)/bin/python fuzz/torture.py --jobs 2 $(if $(filter-out file,$(origin N)),--sample $(N))

# zlib, Lua, stb_image and jsmn (from Debian's and PyPI's packages, installed
# when missing) each built with a driver as one file, plain and ripped
# --all-async, their tests and workloads compared; REAL_LIBS=zlib,lua picks some.
fuzz-reallibs: all
	nice $(VENV)/bin/python fuzz/real_libs.py $(if $(REAL_LIBS),--only $(REAL_LIBS))

# Every promise's tests must fail when it breaks: tests/mutations.txt's
# breaks, each applied alone to a copy of the tree (fuzz/mutate.py).
mutate: all
	$(VENV)/bin/python fuzz/mutate.py

# ripper on N mutated and hostile files (SEED=S picks another batch; BIG=1:
# megabytes, nesting 30,000 deep).
fuzz-ripper: all
	$(VENV)/bin/python fuzz/ripper_hostile.py --cases $(N) $(if $(SEED),--seed $(SEED)) \
		$(if $(BIG),--big)

# libFuzzer target for the HTTP head parser (clang's -fsanitize=fuzzer).  It
# carries its own sanitizers, so it lives in build/fuzz whatever SAN says (a
# sub-make started under SAN=1 inherits it and must find the same path).
FUZZ_CC   ?= clang
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_OUT  := build/fuzz
$(FUZZ_OUT)/http_parser_fuzz: fuzz/http_parser_fuzz.c examples/http_parser.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Wall -Wextra -Iexamples $< -o $@

# libFuzzer ships apart from clang on Debian (libclang-rt-NN-dev, formerly
# in libclang-common-NN-dev): installed when a fuzzer does not link.
fuzz-deps: test-deps
	@t=$$(mktemp -d); echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return !d + n; }' >$$t/f.c; \
	v=$$($(FUZZ_CC) --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1); \
	if [ -z "$$v" ]; then \
		echo "note: no $(FUZZ_CC): the HTTP parser fuzz test is skipped"; \
	elif ! $(FUZZ_CC) -fsanitize=fuzzer $$t/f.c -o $$t/f 2>/dev/null; then \
		pkg=libclang-rt-$$v-dev; apt-cache show $$pkg >/dev/null 2>&1 || pkg=libclang-common-$$v-dev; \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing $$pkg (libFuzzer)"; \
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$pkg; } || \
				echo "note: $$pkg did not install; the HTTP parser fuzz test is skipped"; \
		else \
			echo "note: install $$pkg for the HTTP parser fuzz test; it is skipped"; \
		fi; \
	fi; rm -rf $$t

# Fuzz the HTTP head parser for SECONDS; new inputs collect in build/fuzz/http,
# crashes in build/fuzz/crash-*.
SECONDS ?= 60
fuzz-http: fuzz-deps $(FUZZ_OUT)/http_parser_fuzz
	@mkdir -p $(FUZZ_OUT)/http
	$(FUZZ_OUT)/http_parser_fuzz -max_total_time=$(SECONDS) -max_len=9000 -dict=fuzz/http.dict \
		-artifact_prefix=$(FUZZ_OUT)/ -print_final_stats=1 $(FUZZ_OUT)/http fuzz/corpus/http

# How fast ripper rips a generated 10,000-line file, beside a bare parse;
# then what ripcc costs zlib's make -j2 beside cc (bench/build_cost.py).
bench-ripper: venv
	$(VENV)/bin/python bench/rip_speed.py 10000
	$(VENV)/bin/python bench/build_cost.py --compile $(BENCH_BUILD_FLAGS)

# ripper's runtime beside Go, tokio and C++20 coroutines on the same work
# (skynet, 10^6 blocked tasks, ping-pong), one core each: build/peers/REPORT.md.
bench-peers: all
	@$(VENV)/bin/python -c "import matplotlib" 2>/dev/null || $(VENV)/bin/pip install -q matplotlib || \
		echo "note: matplotlib did not install: the report will have no plots"
	$(VENV)/bin/python bench/peers.py $(BUILD)

# Switch, call, spawn and memory costs beside a hand-written state machine
# and stackful peers (State Threads, boost.context).
bench-runtime: all
	$(VENV)/bin/python bench/runtime.py $(BUILD)

# Instructions per yield switch, channel switch, async call and spawn (callgrind).
bench-instructions: all
	$(VENV)/bin/python bench/instructions.py $(BUILD)

# The main job, short (under two minutes): switch cost, bytes per task and
# requests/s of the three backends and nginx, side by side.
demo: all
	@$(VENV)/bin/python bench/suite.py $(BUILD) --quick

# examples/kvd.c (plain POSIX) built plainly and with ripcc --posix three
# ways, requests/s and memory per connection at 50, 1,000 and 10,000
# connections (section 6 of make bench, alone; QUICK=1: 20 and 200, 1 s).
bench-kvd: all
	$(VENV)/bin/python bench/kvd.py $(BUILD) $(if $(QUICK),--quick)

# The whole comparison suite: bench/results/REPORT.md and PNG plots.
bench: all
	@$(VENV)/bin/python -c "import matplotlib" 2>/dev/null || $(VENV)/bin/pip install -q matplotlib || \
		echo "note: matplotlib did not install: the report will have no plots"
	$(VENV)/bin/python bench/suite.py $(BUILD)
	$(VENV)/bin/python bench/peers.py $(BUILD)

clean:
	rm -rf build build-san build-san-*
