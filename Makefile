# jankgate: plain Makefile.  User-facing targets (all, check, bench, demo,
# fuzz, install) run tools/deps.sh first, which installs missing Debian
# packages, then re-enter make so pkg-config sees what was just installed.
#
#   make [all]            build build/jankgate and the test instruments
#   make check            unit tests (cmocka), the simulator's tests, the
#                         fuzz targets over their seeds, end-to-end cases,
#                         the verdict's bounds (bench-check); prints the
#                         wall time of each part at the end
#   make check-unit       the same without the end-to-end cases
#   make check-docs       the documents agree with the code (seconds)
#   make SANITIZE=1 check the same, built with ASan + UBSan into build-san/
#   make bench            benchmarks; they print their figures and write
#                         docs/validation.md
#   make bench-check      the verdict's bounds on real-phone noise (issue
#                         46): fails when a row's interval breaks its bound
#                         (rows the method does not meet yet print OPEN)
#   make demo             a full nightly gate against simulated phones
#   make install          PREFIX=/usr/local DESTDIR=
#   make clean

VERSION   = 0.1.0
PREFIX   ?= /usr/local
BINDIR    = $(PREFIX)/bin
MANDIR    = $(PREFIX)/share/man/man1
DATADIR   = $(PREFIX)/share/jankgate
CC       ?= cc
PYTHON   ?= /usr/bin/python3

# The verdict's bounds (bench-check) run in the plain build's checks only:
# they measure the method, which the sanitizers do not change, at five to
# ten times the time.
ifeq ($(SANITIZE),1)
B        := build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
BENCH_CHECK :=
else
B        := build
SANFLAGS :=
BENCH_CHECK := bench-check
endif

PKGS      = libcurl libcjson libgit2 libxml-2.0 zlib libcrypto

# The layers of harness/, lowest first (tools/check-layers.py holds the
# rule: a layer includes only the layers below it), and report/.  Every
# folder is on the include path, so an #include names a header by its
# file name alone; file names are unique across the folders.
LAYERS    = base model adb scenario compare baseline android sources run \
            gate cli
# harness/ itself holds no file: a file there is outside every layer, which
# the layer check reports (it is still built, so the tree links meanwhile).
SRC_DIRS  = $(LAYERS:%=harness/%) harness report report/mail
SRC_INC   = $(SRC_DIRS:%=-I%)
CFLAGS   ?= -O2 -g
JGFLAGS   = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
            -Wshadow -Wformat=2 $(SRC_INC) \
            -DJG_VERSION='"$(VERSION)"' -DJG_DATADIR='"$(DATADIR)"' \
            -MMD -MP $(SANFLAGS)
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS))
LIBS      = $(PKG_LIBS) -lpthread -lm

LIB_SRC   = $(filter-out harness/cli/main.c,$(wildcard $(SRC_DIRS:%=%/*.c)))
LIB_OBJ   = $(LIB_SRC:%.c=$(B)/obj/%.o)
UNIT_SRC  = $(wildcard tests/unit/*.c)
UNIT_OBJ  = $(UNIT_SRC:%.c=$(B)/obj/%.o)
SIM_SRC   = $(wildcard tests/simdevice/*.c)
SIM_OBJ   = $(SIM_SRC:%.c=$(B)/obj/%.o)
SIMT_SRC  = $(wildcard tests/simdevice/tests/*.c)
SIMT_OBJ  = $(SIMT_SRC:%.c=$(B)/obj/%.o)
FUZZ_SRC  = $(wildcard tests/fuzz/fuzz_*.c)
REPLAY_BIN = $(FUZZ_SRC:tests/fuzz/%.c=$(B)/fuzz-replay/%)

.PHONY: all build bench-build check check-unit unit e2e sim-selftest check-sim \
	check-layers check-docs fuzz-seeds bench bench-check demo fuzz install \
	uninstall clean deps deps-test FORCE

all: deps
	@sh tools/timed.sh $(B) build $(MAKE) --no-print-directory build

deps:
	@sh tools/deps.sh build

deps-test:
	@sh tools/deps.sh test

build: $(B)/jankgate $(B)/jankgate.1 $(B)/unit-tests $(B)/adbprobe \
	$(if $(SIM_SRC),$(B)/simdevice $(B)/sim-tests) $(REPLAY_BIN)

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(JGFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(B)/libjankgate.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/jankgate: $(B)/obj/harness/cli/main.o $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS)

# The report templates are built in (report/report_templates.c includes
# templates.inc), so a binary copied out of the tree still writes its
# report; files found on disk come first (report.h).  The list of
# templates is a prerequisite too, so removing one remakes the file.
TEMPLATES = $(sort $(wildcard templates/*))
%/gen/templates.list: FORCE
	@mkdir -p $(dir $@)
	@echo '$(TEMPLATES)' | cmp -s - $@ || echo '$(TEMPLATES)' > $@
%/gen/templates.inc: $(TEMPLATES) %/gen/templates.list tools/embed-templates.sh
	sh tools/embed-templates.sh $@ $(TEMPLATES)
.PRECIOUS: %/gen/templates.list %/gen/templates.inc
$(B)/obj/report/report_templates.o: $(B)/gen/templates.inc
$(B)/obj/report/report_templates.o: JGFLAGS += -I$(B)/gen

# The man page as installed: harness/cli/jankgate.1 with its list of
# configuration keys generated from harness/model/config_keys.c and the
# sources' options (tools/gen-man.c, the code `jankgate help config`
# prints them with).  The page in the tree keeps a copy of that list, so
# `man -l harness/cli/jankgate.1` reads a whole page from a fresh clone;
# check-docs fails when the two differ.
$(B)/gen-man: $(B)/obj/tools/gen-man.o $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS)
$(B)/jankgate.1: harness/cli/jankgate.1 $(B)/gen-man
	$(B)/gen-man harness/cli/jankgate.1 $@

# Unit test groups are found by their JG_UNIT_GROUP() line, so adding a test
# file needs no edit here.  The list of test files is a prerequisite too,
# so removing one also remakes the groups.
$(B)/%-src.list: FORCE
	@mkdir -p $(B)
	@echo '$(if $(filter unit,$*),$(UNIT_SRC),$(SIMT_SRC))' | \
	    cmp -s - $@ || echo '$(if $(filter unit,$*),$(UNIT_SRC),$(SIMT_SRC))' > $@
FORCE:

$(B)/unit_groups.inc: $(UNIT_SRC) $(B)/unit-src.list
	@mkdir -p $(B)
	@grep -ho '^JG_UNIT_GROUP([a-z0-9_]*' $(UNIT_SRC) | \
	    sed 's/JG_UNIT_GROUP(\(.*\)/X(\1)/' > $@.tmp && mv $@.tmp $@

$(B)/obj/tests/unit/main.o: $(B)/unit_groups.inc
$(B)/obj/tests/unit/%.o: JGFLAGS += -I$(B) -Itests/unit -Wno-shadow
$(B)/unit-tests: $(UNIT_OBJ) $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS) -lcmocka

# A test driver for the adb client (tests/e2e/adbprobe.c); not installed.
$(B)/adbprobe: $(B)/obj/tests/e2e/adbprobe.o $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS)

# The baseline store benchmark (tests/bench/bench_baseline.c).
$(B)/bench-baseline: $(B)/obj/tests/bench/bench_baseline.o $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS)

# A year of nights in the baseline store (tests/bench/bench_store.c).
$(B)/obj/tests/bench/bench_store.o: JGFLAGS += -Itests/bench
$(B)/bench-store: $(B)/obj/tests/bench/bench_store.o \
	    $(B)/obj/tests/bench/bench_nights.o $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS)

# The memory of gate over 5 and 50 device keys (tests/bench/bench_gate.c).
$(B)/obj/tests/bench/bench_gate.o: JGFLAGS += -Itests/bench
$(B)/bench-gate: $(B)/obj/tests/bench/bench_gate.o \
	    $(B)/obj/tests/bench/bench_nights.o $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS)

# The report benchmark (tests/bench/bench_report.c): the mail's size.
$(B)/bench-report: $(B)/obj/tests/bench/bench_report.o $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS)

# The comparison benchmark (tests/bench/bench_compare.c); run.py builds it.
$(B)/bench-compare: $(B)/obj/tests/bench/bench_compare.o $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS)

# Every benchmark program: check builds them all, so that none stops
# compiling unnoticed between two runs of make bench.
BENCH_BIN = $(B)/bench-baseline $(B)/bench-store $(B)/bench-gate \
	$(B)/bench-report $(B)/bench-compare
bench-build: $(BENCH_BIN)

$(B)/obj/tests/simdevice/%.o: JGFLAGS += -Itests/simdevice
$(B)/simdevice: $(SIM_OBJ) $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS)

# The simulated phone's own tests (tests/simdevice/tests/), a binary of
# their own: the simulator's modules linked in, not jankgate's unit tests.
# main.c is the unit tests' runner, built against this binary's groups.
$(B)/sim/unit_groups.inc: $(SIMT_SRC) $(B)/sim-src.list
	@mkdir -p $(B)/sim
	@grep -ho '^JG_UNIT_GROUP([a-z0-9_]*' $(SIMT_SRC) | \
	    sed 's/JG_UNIT_GROUP(\(.*\)/X(\1)/' > $@.tmp && mv $@.tmp $@

$(B)/obj/tests/simdevice/tests/%.o: JGFLAGS += -Itests/unit -Wno-shadow
$(B)/obj/sim/main.o: tests/unit/main.c $(B)/sim/unit_groups.inc
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(JGFLAGS) -I$(B)/sim -Itests/unit $(PKG_CFLAGS) -c -o $@ $<
# test_simshell.c stands in for the adb stream websock.c writes to, through
# the linker's --wrap.
SIMT_WRAP = -Wl,--wrap=simstream_read,--wrap=simstream_read_full \
	    -Wl,--wrap=simstream_write
$(B)/sim-tests: $(B)/obj/sim/main.o $(SIMT_OBJ) \
	    $(filter-out %/simdevice/main.o,$(SIM_OBJ)) $(B)/libjankgate.a
	$(CC) $(CFLAGS) $(SANFLAGS) $(SIMT_WRAP) -o $@ $^ $(LIBS) -lcmocka

# Each part runs through tools/timed.sh, which keeps its wall time in
# $(B)/check-times/; tools/check-times.sh prints them and the five slowest
# end-to-end cases at the end (parts run side by side under make -j).
check: deps
	@sh tools/deps.sh test
	@sh tools/check-times.sh $(B) start
	@sh tools/timed.sh $(B) build $(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory e2e unit check-layers check-docs \
	    check-sim fuzz-seeds sim-selftest bench-build $(BENCH_CHECK); \
	    st=$$?; sh tools/check-times.sh $(B); exit $$st

check-unit: deps
	@sh tools/deps.sh test
	@sh tools/check-times.sh $(B) start
	@sh tools/timed.sh $(B) build $(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory check-layers check-docs unit check-sim \
	    fuzz-seeds $(BENCH_CHECK); st=$$?; sh tools/check-times.sh $(B); \
	    exit $$st

unit: $(B)/unit-tests
	@sh tools/timed.sh $(B) unit $(B)/unit-tests

check-sim: $(B)/sim-tests
	@sh tools/timed.sh $(B) sim $(B)/sim-tests

# Every fuzz target, built by the C compiler of this build with a plain
# main() (tests/fuzz/replay.c), over the seeds make fuzz starts from: the
# parsers' invariants on every known input, in both builds, without clang.
$(B)/obj/tests/fuzz/%.o: JGFLAGS += -Wno-shadow
$(B)/fuzz-replay/%: $(B)/obj/tests/fuzz/%.o $(B)/obj/tests/fuzz/replay.o \
	    $(B)/libjankgate.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIBS)

# The real captures beside the clone (../shared/real-samples) are seeds
# too when they are there.
REPLAY_SEEDS = $(FUZZ_SEEDS) $(wildcard ../shared/real-samples)
fuzz-seeds: $(REPLAY_BIN)
	@sh tools/timed.sh $(B) fuzz-seeds sh -c 'for f in $(REPLAY_BIN); do \
	    $$f $(REPLAY_SEEDS) || exit 1; done'

# The layer rule of harness/ and report/ (tools/check-layers.py): no
# include or call that goes up or sideways, no circle of files.
check-layers: $(LIB_OBJ)
	@sh tools/timed.sh $(B) layers $(PYTHON) tools/check-layers.py \
	    --objects $(B)/obj

# The documents agree with the code (tests/docs/check-docs.py): the man
# page's list of keys is the generated one, every key, command and option
# is in the man page, every document is linked; and no comment in harness/
# cites a README section or quotes a bench's measured rate
# (tests/docs/check-comments.py).  Seconds.
check-docs: $(B)/jankgate $(B)/jankgate.1
	@sh tools/timed.sh $(B) docs $(PYTHON) tests/docs/check-docs.py \
	    --build $(B)
	@sh tools/timed.sh $(B) comments $(PYTHON) tests/docs/check-comments.py

# The end-to-end cases run side by side (JG_E2E_JOBS, default twice the
# processors) with the simulated phones' clock sped up where the case
# allows it (JG_E2E_CLOCK_SCALE, default 4): tests/e2e/runner.py.  check
# starts them first, the longest part, and the other parts beside them.
e2e: $(B)/jankgate $(B)/simdevice $(B)/adbprobe
	@sh tools/timed.sh $(B) e2e $(PYTHON) tests/e2e/runner.py --build $(B)

# The simulated phone against the real adb CLI (tests/simdevice/selftest.sh).
sim-selftest: $(B)/simdevice
	@sh tools/timed.sh $(B) sim-selftest bash tests/simdevice/selftest.sh \
	    $(B)/simdevice

# The verdict's guarantee as a test: bench-compare --check, the
# real-phone rows at 100 nights a row (three to five minutes on two cores),
# exit 1 when a row's 95 % interval lies beyond its bound.  Part of check
# in the plain build (BENCH_CHECK, above).
bench-check: $(B)/bench-compare
	@sh tools/timed.sh $(B) bench-check $(B)/bench-compare --check

bench: deps
	@sh tools/deps.sh test
	@sh tools/timed.sh $(B) build $(MAKE) --no-print-directory build
	$(PYTHON) tests/bench/run.py --build $(B)

# Fuzzing: every parser has a libFuzzer target in tests/fuzz/, built with
# clang and ASan+UBSan into build-fuzz/, each run for FUZZ_SECONDS.
FUZZ_SECONDS ?= 30
FUZZ_SEEDS = tests/unit/data/results tests/unit/data/sources scenarios/demo \
	     tests/unit/data/apk tests/fuzz/seeds
FUZZ_BIN  = $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	     -std=c11 -D_GNU_SOURCE $(SRC_INC) -Ibuild-fuzz/gen \
	     -DJG_VERSION='"$(VERSION)"' -DJG_DATADIR='"$(DATADIR)"'

fuzz: deps
	@sh tools/deps.sh fuzz
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	@for f in $(FUZZ_BIN); do \
	    c=build-fuzz/corpus/$$(basename $$f); mkdir -p $$c; \
	    echo "fuzz: $$f for $(FUZZ_SECONDS) s"; \
	    $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $$c \
	        $(FUZZ_SEEDS) > $$c.log 2>&1 || { tail -40 $$c.log; exit 1; }; \
	    grep -E 'stat::number_of_executed_units' $$c.log; \
	done

build-fuzz/libjankgate.a: $(LIB_SRC) build-fuzz/gen/templates.inc
	@mkdir -p build-fuzz/obj
	cd build-fuzz/obj && for f in $(LIB_SRC); do \
	    clang $(FUZZ_FLAGS:-I%=-I$(CURDIR)/%) $(PKG_CFLAGS) -c $(CURDIR)/$$f \
	        -o $$(echo $$f | tr / _).o || exit 1; done
	ar rcs $@ build-fuzz/obj/*.o

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libjankgate.a
	clang $(FUZZ_FLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -o $@ $< \
	    build-fuzz/libjankgate.a $(LIBS)

demo: deps
	@sh tools/deps.sh demo
	@sh tools/timed.sh $(B) build $(MAKE) --no-print-directory build
	@sh tools/demo.sh $(B)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DATADIR)/templates
	install -m 755 $(B)/jankgate $(DESTDIR)$(BINDIR)/jankgate
	install -m 644 $(B)/jankgate.1 $(DESTDIR)$(MANDIR)/jankgate.1
	for f in templates/*; do [ -f "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(DATADIR)/templates/; done; true

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/jankgate $(DESTDIR)$(MANDIR)/jankgate.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-san build-fuzz

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
