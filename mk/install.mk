# make install PREFIX=... [DESTDIR=...]: the command, the library (static
# and shared), its header, pkg-config file and the man page.
# make uninstall PREFIX=... removes them again.

PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
MANDIR       ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# The version is the header's: one place to change it.
at_hdr_version = $(shell sed -n 's/^.define AUTOTUNE_VERSION_$(1) *//p' \
                   include/autotune.h)
AT_MAJOR   := $(call at_hdr_version,MAJOR)
AT_VERSION := $(AT_MAJOR).$(call at_hdr_version,MINOR).$(call \
                at_hdr_version,PATCH)
AT_SONAME  := libautotune.so.$(AT_MAJOR)
AT_SO      := $(B)/pic/libautotune.so.$(AT_VERSION)
AT_PIC_A   := $(B)/pic/libautotune.a

# Position-independent copies of the library's objects, for the shared
# library; the installed static library is made of them too, so both find
# the installed autotune as their GPU worker (AT_WORKER_DEFAULT, which the
# build tree's objects point at build/autotune).
PIC_OBJ := $(patsubst %.c,$(B)/pic/%.o,$(LIB_SRC) $(GEN_SRC))
PIC_CPPFLAGS := $(filter-out -DAT_WORKER_DEFAULT=%,$(CPPFLAGS))

$(B)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(PIC_CPPFLAGS) $(PIC_WORKER) $(CFLAGS) -fPIC -pthread \
	    -MMD -MP -c $< -o $@

$(B)/pic/runtime/plan/gpu_worker.o: PIC_WORKER = \
    -DAT_WORKER_DEFAULT='"$(BINDIR)/autotune"'
$(B)/pic/runtime/plan/gpu_worker.o: $(B)/pic/worker-path

# Rewritten only when BINDIR changes, so only then is gpu_worker.o remade.
$(B)/pic/worker-path: at-install-force
	@mkdir -p $(@D)
	@echo '$(BINDIR)/autotune' | cmp -s - $@ || \
	    echo '$(BINDIR)/autotune' > $@

$(AT_PIC_A): $(PIC_OBJ)
	rm -f $@
	rm -f $@ && ar rcs $@ $^

# SQLite: Debian's libsqlite3.a is not position-independent (its objects
# hold R_X86_64_PC32 relocations against data; the link fails), so the
# shared library links the system's libsqlite3.so.0 (the package
# libsqlite3-0; the GPU machine, Ubuntu 24.04, has it). Debian's
# libyaml.a links into it (its objects are position-independent), so the
# library needs no libyaml-0.so.2 where it runs (the GPU machine has
# none); without the archive, -lyaml. A static link (pkg-config --static)
# takes the archives, as build/autotune does.
# The version script exports autotune_* alone; -z defs fails the link on
# anything left unresolved, rather than the user's first run.
$(AT_SO): $(PIC_OBJ) mk/libautotune.map
	$(CC) $(CFLAGS) -shared -pthread -Wl,-soname,$(AT_SONAME) \
	    -Wl,--version-script=mk/libautotune.map -Wl,-z,defs \
	    -Wl,--as-needed $(PIC_OBJ) -lsqlite3 $(or $(YAML_A),-lyaml) -ldl -lm \
	    -o $@

# The libraries make install installs, built beforehand as yourself
# (then `sudo make install` with the same PREFIX only copies).
libs: $(AT_SO) $(AT_PIC_A)

# What a static link needs beyond -lautotune: LIBS's archives (by path,
# so the program does not need SQLite or libyaml installed where it runs).
# Not Requires.private: sqlite3.pc adds -lz, which the archive does not
# use, and a missing sqlite3.pc would break even the shared link's line.
AT_LIBS_PRIVATE := $(or $(SQLITE_A),-lsqlite3) $(or $(YAML_A),-lyaml) \
                   -ldl -lm -lpthread
# libdir and includedir relative to ${prefix} where they lie under it,
# so pkg-config --define-prefix can relocate the tree.
at_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))

# The .pc is written straight to its place: it holds PREFIX, which may
# differ from one install to the next (and build/ may not be root's).
install: $(B)/autotune $(AT_PIC_A) $(AT_SO)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	    $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(B)/autotune $(DESTDIR)$(BINDIR)/autotune
	install -m 0644 $(AT_PIC_A) $(DESTDIR)$(LIBDIR)/libautotune.a
	install -m 0755 $(AT_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf libautotune.so.$(AT_VERSION) $(DESTDIR)$(LIBDIR)/$(AT_SONAME)
	ln -sf $(AT_SONAME) $(DESTDIR)$(LIBDIR)/libautotune.so
	install -m 0644 include/autotune.h $(DESTDIR)$(INCLUDEDIR)/autotune.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(AT_VERSION)|' \
	    -e 's|@LIBDIR@|$(call at_rel,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call at_rel,$(INCLUDEDIR))|' \
	    -e 's|@LIBS_PRIVATE@|$(AT_LIBS_PRIVATE)|' mk/autotune.pc.in \
	    > $(DESTDIR)$(PKGCONFIGDIR)/autotune.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/autotune.pc
	install -m 0644 docs/autotune.1 $(DESTDIR)$(MANDIR)/man1/autotune.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/autotune $(DESTDIR)$(LIBDIR)/libautotune.a \
	    $(DESTDIR)$(LIBDIR)/libautotune.so.$(AT_VERSION) \
	    $(DESTDIR)$(LIBDIR)/$(AT_SONAME) $(DESTDIR)$(LIBDIR)/libautotune.so \
	    $(DESTDIR)$(INCLUDEDIR)/autotune.h \
	    $(DESTDIR)$(PKGCONFIGDIR)/autotune.pc \
	    $(DESTDIR)$(MANDIR)/man1/autotune.1

.PHONY: install uninstall libs at-install-force

-include $(PIC_OBJ:.o=.d)
