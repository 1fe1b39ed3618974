# fftools - see README.md.  make, make check, make bench, make demo,
# make install PREFIX=...; SAN=1 builds with AddressSanitizer and
# UndefinedBehaviorSanitizer (float-cast-overflow included); WERROR=1
# turns warnings into errors (CI).

PREFIX ?= /usr/local
CC ?= cc
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wpedantic
ifeq ($(WERROR),1)
WARN += -Werror
endif
ifeq ($(SAN),1)
SANFLAGS = -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow -fno-omit-frame-pointer
endif
PNG_CFLAGS = $(shell pkg-config --cflags libpng 2>/dev/null)
PNG_LIBS = $(shell pkg-config --libs libpng 2>/dev/null || echo -lpng)
# Tiled maps: libjansson (JSON), expat (XML), zlib and libzstd (layer data).
TILED_PKGS = jansson expat zlib libzstd
TILED_CFLAGS = $(shell pkg-config --cflags $(TILED_PKGS) 2>/dev/null)
TILED_LIBS = $(shell pkg-config --libs $(TILED_PKGS) 2>/dev/null || echo -ljansson -lexpat -lz -lzstd)
# No code reads errno after a math function: sqrt and the like may be one
# instruction each.
# lib/ in folders, one per layer of the pipeline, lowest first; a folder
# uses only the folders before it (tests/cli/test_layers.sh checks it).
LIB_DIRS = base grid format field path crowd picture
# A layer's sub-folders, its parts, lowest first: a sub-folder uses only
# the sub-folders before it in its layer and the layers below; the files
# at the top of the layer (crowd.c) use them all.
LIB_SUBDIRS = crowd/geometry crowd/scenario crowd/fields crowd/core crowd/steer crowd/grid
LIB_INC = $(addprefix -Ilib/,$(LIB_DIRS) $(LIB_SUBDIRS))
ALL_CFLAGS = -std=c11 -fno-math-errno $(WARN) $(CFLAGS) $(SANFLAGS) $(PNG_CFLAGS) $(TILED_CFLAGS) $(LIB_INC) -pthread
# The library's objects go into libff.a and libff.so alike: position
# independent, and without semantic interposition so that calls within the
# library are still inlined as in a static build.
PIC_CFLAGS = -fPIC -fno-semantic-interposition
# zlib: the animation writer (apng.c) deflates its frames itself.
LDLIBS = $(PNG_LIBS) $(TILED_LIBS) -lz -lm -pthread
# A program links only the shared libraries it calls (ffsim none of
# libpng, jansson, expat, zlib, zstd: loading them cost it 0.4 ms a run),
# where the linker can say so (GNU ld, gold, lld, mold; not every
# compiler passes it by default).
AS_NEEDED := $(shell printf 'int main(void) { return 0; }\n' | $(CC) -x c - -Wl,--as-needed -o /dev/null 2>/dev/null && echo -Wl,--as-needed)

VERSION = $(shell sed -n 's/^\#define FF_VERSION "\(.*\)"/\1/p' lib/base/options.h)
SO_NAME = libff.so.$(firstword $(subst ., ,$(VERSION)))
SO_REAL = libff.so.$(VERSION)
PROGRAMS = $(patsubst %.c,%,$(wildcard bin/ff*.c))
LIB_SRC = $(wildcard $(LIB_DIRS:%=lib/%/*.c) $(LIB_SUBDIRS:%=lib/%/*.c))
LIB_OBJ = $(LIB_SRC:.c=.o)
LIB_HDR = $(wildcard $(LIB_DIRS:%=lib/%/*.h) $(LIB_SUBDIRS:%=lib/%/*.h))
# Headers for the library's own use only: not installed.
LIB_INTERNAL_HDR = lib/base/bytesink.h lib/base/grow.h lib/base/hugepage.h lib/base/nearword.h lib/base/options.h lib/field/minheap.h lib/picture/palette.h lib/picture/font.h lib/field/searchcore.h
# The Tiled readers' shared record and their own headers.
LIB_INTERNAL_HDR += lib/format/tiled.h lib/format/tiledata.h lib/format/tiledjson.h lib/format/tiledxml.h
# The crowd's parts: its shared state, the steering and the grid moves
# (no PIBT, grid-move or LaCAM state is installed; crowd.h is the
# contract, with the states and counters of crowdstate.h and the blend
# rule of blend.h).
LIB_INTERNAL_HDR += lib/crowd/fields/profilesint.h
LIB_INTERNAL_HDR += $(filter-out lib/crowd/core/crowdstate.h lib/crowd/steer/blend.h,\
    $(wildcard lib/crowd/core/*.h lib/crowd/steer/*.h lib/crowd/grid/*.h))
LIB_PUBLIC_HDR = $(filter-out $(LIB_INTERNAL_HDR),$(LIB_HDR))
TEST_SRC = $(wildcard tests/test_*.c)
TEST_BIN = $(TEST_SRC:.c=)

# Sanitized and plain objects must not mix: remember the flags.
FLAGS_STAMP = .build-flags
FLAGS_NOW = $(CC) $(ALL_CFLAGS) $(PIC_CFLAGS)
# (make print-VAR builds nothing: it leaves the stamp alone.)
ifeq ($(filter print-%,$(MAKECMDGOALS)),)
$(shell [ "$$(cat $(FLAGS_STAMP) 2>/dev/null)" = "$(FLAGS_NOW)" ] || rm -f $(FLAGS_STAMP))
endif
$(FLAGS_STAMP):
	@echo "$(FLAGS_NOW)" > $@

.PHONY: all deps deps-check check demo bench install uninstall clean
all: deps $(PROGRAMS) lib/libff.a lib/$(SO_REAL)

# The build needs pkg-config and libpng; only the tests need Criterion.
deps:
	@sh tools/deps.sh

deps-check:
	@sh tools/deps.sh check

lib/%.o: lib/%.c $(LIB_HDR) $(FLAGS_STAMP)
	$(CC) $(ALL_CFLAGS) $(PIC_CFLAGS) -c $< -o $@

lib/libff.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

# The shared library: libff.so.MAJOR is its soname, libff.so.VERSION the
# file, libff.so the name the linker looks for.
lib/$(SO_REAL): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,$(SO_NAME) $(SANFLAGS) $^ $(LDLIBS) -o $@
	ln -sf $(SO_REAL) lib/$(SO_NAME)
	ln -sf $(SO_REAL) lib/libff.so

bin/%: bin/%.c lib/libff.a $(FLAGS_STAMP)
	$(CC) $(ALL_CFLAGS) $(AS_NEEDED) $< lib/libff.a $(LDLIBS) -o $@

tests/test_%: tests/test_%.c tests/testutil.h tests/gridmodel.h lib/libff.a $(FLAGS_STAMP) | deps-check
	$(CC) $(ALL_CFLAGS) $< lib/libff.a $(LDLIBS) -lcriterion -o $@

# The allocation-failure shim of tests/cli/test_fault.sh: never sanitized
# itself (it hands each call on to the sanitizer's allocator).
FAULT_SHIM = tests/fault/failalloc.so
$(FAULT_SHIM): tests/fault/failalloc.c
	$(CC) -std=c11 $(WARN) $(CFLAGS) -fPIC -shared $< -o $@ -ldl

check: all $(TEST_BIN) $(FAULT_SHIM)
	@sh tests/run-tests.sh $(TEST_BIN)

demo: all
	@sh testdata/demo.sh

bench: all
	@sh tests/bench/run.sh

# fuzz: the libFuzzer targets of tests/fuzz/ (clang), each for FUZZ_SECONDS
# from its seed corpus; check-valgrind: one run of each program and the
# error matrix under valgrind (not part of check; build without SAN=1).
FUZZ_SECONDS ?= 60
.PHONY: fuzz check-valgrind
fuzz:
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

check-valgrind: all $(FAULT_SHIM)
	@sh tools/deps.sh valgrind
	@sh tests/valgrind.sh

# install: the programs, the man pages, bash completions, and for a game's
# own tools libff.a and libff.so, the public headers (include/fftools/,
# used as <fftools/stream.h>) and lib/pkgconfig/fftools.pc from
# fftools.pc.in (prefix, version and the libraries libff needs filled in).
# A program's completion is made from its option table
# (tools/completion.awk) into share/bash-completion/completions/, where
# bash-completion looks.  uninstall removes exactly those files, and the
# folder include/fftools/; the standard folders stay.
COMPLETION_DIR = $(PREFIX)/share/bash-completion/completions
MAN_PAGES = $(wildcard man/man1/*.1 man/man3/*.3 man/man5/*.5)
INSTALLED = $(PROGRAMS:bin/%=bin/%) $(PROGRAMS:bin/%=share/bash-completion/completions/%) \
    lib/libff.a lib/$(SO_REAL) lib/$(SO_NAME) lib/libff.so lib/pkgconfig/fftools.pc \
    $(addprefix include/fftools/,$(notdir $(LIB_PUBLIC_HDR))) \
    $(foreach m,$(MAN_PAGES),share/man/$(notdir $(patsubst %/,%,$(dir $(m))))/$(notdir $(m)))
install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/include/fftools $(DESTDIR)$(COMPLETION_DIR) \
	    $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3 \
	    $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 lib/libff.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 lib/$(SO_REAL) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(SO_REAL) $(DESTDIR)$(PREFIX)/lib/$(SO_NAME)
	ln -sf $(SO_REAL) $(DESTDIR)$(PREFIX)/lib/libff.so
	install -m 644 $(LIB_PUBLIC_HDR) $(DESTDIR)$(PREFIX)/include/fftools/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
	    -e 's|@SANFLAGS@|$(strip $(SANFLAGS))|' -e 's|@LIBS@|$(strip $(LDLIBS))|' fftools.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/fftools.pc
	for f in man/man1/*.1; do [ ! -f "$$f" ] || install -m 644 "$$f" $(DESTDIR)$(PREFIX)/share/man/man1/; done
	for f in man/man3/*.3; do [ ! -f "$$f" ] || install -m 644 "$$f" $(DESTDIR)$(PREFIX)/share/man/man3/; done
	for f in man/man5/*.5; do [ ! -f "$$f" ] || install -m 644 "$$f" $(DESTDIR)$(PREFIX)/share/man/man5/; done
	for p in $(PROGRAMS:bin/%=%); do \
	    awk -v prog=$$p -f tools/completion.awk bin/$$p.c > $(DESTDIR)$(COMPLETION_DIR)/$$p || exit 1; \
	done

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))
	if [ -d $(DESTDIR)$(PREFIX)/include/fftools ]; then rmdir $(DESTDIR)$(PREFIX)/include/fftools; fi

clean:
	find lib -name "*.o" -delete
	rm -f lib/libff.a lib/libff.so* $(PROGRAMS) $(TEST_BIN) $(FAULT_SHIM) $(FLAGS_STAMP)
	rm -rf tests/out

# make print-VAR: the value of VAR (for the tests and scripts that build
# against lib/ without make: LIB_INC, LIB_PUBLIC_HDR).
print-%:
	@echo $($*)
