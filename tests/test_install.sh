#!/bin/sh
# make install into a temporary prefix, then use what it installed as a
# user would: the shared library's exports, pkg-config, the example built
# against it (shared and static) and run without a GPU, the command, the
# man page, the header alone; then DESTDIR and uninstall. TAP.
# Builds what it needs itself (build/pic is reused between runs).
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/autotune-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
pre=$tmp/prefix
CUDA=${CUDA:-/usr/local/cuda}
hdr() { sed -n "s/^#define AUTOTUNE_VERSION_$1 *//p" include/autotune.h; }
major=$(hdr MAJOR)
version=$major.$(hdr MINOR).$(hdr PATCH)
so=$pre/lib/libautotune.so.$version

n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
# not ok, with the why (a file or text) as TAP comments.
nok() {
    n=$((n + 1))
    echo "not ok $n - $1"
    if [ -f "$2" ]; then sed 's/^/#   /' "$2"
    else printf '%s\n' "$2" | sed 's/^/#   /'; fi
}
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
# has ERE: shows stdin (a failure's why) and searches it for ERE.
has() { o=$(cat); printf '%s\n' "$o"; printf '%s\n' "$o" | grep -Eq -- "$1"; }
# check DESC CMD...: ok when CMD succeeds; else its output says why.
check() {
    d=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then ok "$d"; else nok "$d" "$tmp/out"; fi
}

# A make of our own: -j2, not the parent's jobserver (prove does not pass
# it on), but the parent's variables (CC=...) kept.
mk() {
    MAKEFLAGS=$(printf '%s' "${MAKEFLAGS-}" |
                sed 's/ *--jobserver-[a-z]*=[^ ]*//g')
    env -u MAKELEVEL MAKEFLAGS="$MAKEFLAGS" make -s -j2 \
        --no-print-directory "$@"
}

echo "1..20"

# 1. install
if mk install PREFIX="$pre" >"$tmp/make.log" 2>&1; then
    ok "make install PREFIX=$pre"
else
    nok "make install PREFIX=$pre" "$tmp/make.log"
    echo "Bail out! make install failed"
    exit 1
fi

# 2. every file
missing=""
for f in bin/autotune lib/libautotune.a lib/libautotune.so.$version \
         lib/libautotune.so.$major lib/libautotune.so include/autotune.h \
         lib/pkgconfig/autotune.pc share/man/man1/autotune.1; do
    [ -e "$pre/$f" ] || missing="$missing $f"
done
[ -x "$pre/bin/autotune" ] || missing="$missing (bin/autotune not executable)"
if [ -z "$missing" ]; then ok "every file installed"
else nok "every file installed" "missing:$missing"; fi

# 3. links and SONAME
links() {
    [ "$(readlink "$pre/lib/libautotune.so.$major")" = \
      "libautotune.so.$version" ] || { echo "libautotune.so.$major is" \
      "not a link to libautotune.so.$version"; return 1; }
    [ "$(readlink -f "$pre/lib/libautotune.so")" = "$(readlink -f "$so")" ] ||
        { echo "libautotune.so does not lead to $so"; return 1; }
    readelf -d "$so" | grep SONAME | has "\\[libautotune\\.so\\.$major\\]"
}
check "libautotune.so.$major -> libautotune.so.$version, SONAME" links

# 4. nothing but autotune_* exported
nm -D --defined-only "$so" | awk '{ print $NF }' | sort -u >"$tmp/exports"
others=$(grep -v '^autotune_' "$tmp/exports" | tr '\n' ' ')
if [ -s "$tmp/exports" ] && [ -z "$others" ]; then
    ok "exports only autotune_* ($(wc -l <"$tmp/exports") symbols)"
else nok "exports only autotune_*" "also exported: ${others:-nothing at all}"
fi

# 5. every function the header declares (comments gone, by the
# preprocessor)
cc -E -P "$pre/include/autotune.h" | grep -o 'autotune_[a-z_]* *(' |
    tr -d ' (' | sort -u >"$tmp/declared"
absent=$(comm -23 "$tmp/declared" "$tmp/exports" | tr '\n' ' ')
if [ -s "$tmp/declared" ] && [ -z "$absent" ]; then
    ok "exports all $(wc -l <"$tmp/declared") functions of autotune.h"
else nok "exports every function of autotune.h" "not defined: $absent"
fi

# 6. the driver, NVRTC and cudart are loaded at run time, never linked
if readelf -d "$so" | grep NEEDED | grep -Ei 'cuda|nvrtc' >"$tmp/out"; then
    nok "no CUDA library linked (they are dlopen'd)" "$tmp/out"
else ok "no CUDA library linked (they are dlopen'd)"
fi

# 7. the installed library's GPU worker is the installed command
if grep -qa "$pre/bin/autotune" "$so" &&
   ar p "$pre/lib/libautotune.a" gpu_worker.o | grep -qa "$pre/bin/autotune"
then ok "both libraries name $pre/bin/autotune as their GPU worker"
else nok "the libraries' GPU worker is $pre/bin/autotune" "not found in them"
fi

# 8. pkg-config
export PKG_CONFIG_PATH="$pre/lib/pkgconfig"
pc() {
    [ "$(pkg-config --modversion autotune)" = "$version" ] &&
    pkg-config --cflags --libs autotune |
        has "^-I$pre/include +-L$pre/lib +-lautotune *\$" &&
    pkg-config --static --libs autotune | has "libsqlite3\\.a.* -ldl"
}
check "pkg-config: version $version, flags for $pre" pc

# 9-14. examples/api_example.c against the installed copy. The driver is
# pointed at a file that is not there, so a GPU host fails the same way
# (instead of tuning for minutes).
# The build's warnings (Makefile's WARN): {0} initializers stay legal.
warn="-std=c11 -Wall -Wextra -Werror -Wno-missing-field-initializers"
build_shared() {
    cc $warn -I"$CUDA/include" \
        $(pkg-config --cflags autotune) examples/api_example.c \
        $(pkg-config --libs autotune) -Wl,-rpath,"$pre/lib" \
        -L"$CUDA/lib64" -lcudart_static -ldl -lrt -lpthread \
        -o "$tmp/ex_shared"
}
build_static() {
    libs=$(pkg-config --static --libs autotune |
           sed 's/-lautotune/-Wl,-Bstatic -lautotune -Wl,-Bdynamic/')
    cc $warn -I"$CUDA/include" \
        $(pkg-config --cflags autotune) examples/api_example.c $libs \
        -L"$CUDA/lib64" -lcudart_static -lrt -o "$tmp/ex_static"
}
resolves() {
    ldd "$tmp/ex_shared" |
        has "libautotune\\.so\\.$major => $pre/lib/libautotune\\.so\\.$major "
}
static_alone() {
    l=$(ldd "$tmp/ex_static") || return 1
    ! printf '%s\n' "$l" | has 'libautotune|libsqlite|libyaml'
}
# Exit status 1 and the library's message: no crash, no hang.
no_driver() {
    AUTOTUNE_LIBCUDA=$tmp/none/libcuda.so.1 timeout 60 "$1" 64 64 \
        >"$tmp/run.out" 2>&1
    rc=$?
    cat "$tmp/run.out"
    [ $rc = 1 ] && grep -q "no CUDA driver" "$tmp/run.out" ||
        { echo "exit status $rc"; return 1; }
}
if [ -f "$CUDA/include/cuda_runtime.h" ]; then
    check "api_example built with pkg-config --cflags --libs" build_shared
    check "it loads libautotune.so.$major from $pre/lib" resolves
    check "it runs: exit 1, 'no CUDA driver' without a driver" \
        no_driver "$tmp/ex_shared"
    check "api_example built with pkg-config --static" build_static
    check "it needs no libautotune, SQLite or libyaml at run time" \
        static_alone
    check "it runs: exit 1, 'no CUDA driver' without a driver" \
        no_driver "$tmp/ex_static"
else
    for i in 1 2 3 4 5 6; do skip "no CUDA toolkit at $CUDA"; done
fi

# 15. the command and the man page say the header's version
v=$("$pre/bin/autotune" --version 2>&1)
th=$(grep '^\.TH' "$pre/share/man/man1/autotune.1")
case $th in *"\"autotune $version\""*) thv=1 ;; *) thv=0 ;; esac
if [ "$v" = "autotune $version" ] && [ $thv = 1 ]; then
    ok "autotune --version: $v; man page: $version"
else nok "autotune --version and the man page's .TH say $version" \
    "--version says: $v; $th"
fi

# 16. the man page renders without a warning
man1=$pre/share/man/man1/autotune.1
if command -v groff >/dev/null; then
    check "man page renders without warnings (groff -ww)" \
        sh -c '! groff -man -Tutf8 -ww -z "$1" 2>&1 | grep .' sh "$man1"
elif command -v man >/dev/null; then
    check "man page renders without warnings (man --warnings)" \
        sh -c '! man --warnings -l "$1" 2>&1 >/dev/null | grep .' sh "$man1"
else
    skip "neither groff nor man installed"
fi

# 17. ... and documents every flag of --help and of cache --help
undocumented=""
for f in $({ "$pre/bin/autotune" --help; "$pre/bin/autotune" cache --help; } \
           2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
    # roff's \-\-flag, not the start of a longer one (\-\-ld of \-\-ld\-in)
    esc=$(printf '%s' "$f" | sed 's/-/\\\\-/g')
    grep -Eq -- "$esc"'($|[^a-z0-9\\]|\\[^-]|\\-[^a-z])' "$man1" ||
        undocumented="$undocumented $f"
done
d="man page documents every flag of --help and cache --help"
if [ -z "$undocumented" ]; then ok "$d"; else nok "$d" "missing:$undocumented"
fi

# 18-19. the header alone, in C and C++
echo '#include <autotune.h>' >"$tmp/h.c"
check "autotune.h compiles alone (C11, -pedantic)" cc -std=c11 -Wall \
    -Wextra -Werror -pedantic -fsyntax-only -I"$pre/include" "$tmp/h.c"
if command -v g++ >/dev/null; then
    check "autotune.h compiles alone (C++)" g++ -Wall -Wextra -Werror \
        -pedantic -fsyntax-only -x c++ -I"$pre/include" "$tmp/h.c"
else
    skip "no g++"
fi

# 20. DESTDIR, then uninstall: everything under the stage, and nothing
# left after
stage() {
    mk install PREFIX="$pre" DESTDIR="$tmp/stage" || return 1
    [ -L "$tmp/stage$pre/lib/libautotune.so.$major" ] &&
    grep -qx "prefix=$pre" "$tmp/stage$pre/lib/pkgconfig/autotune.pc" ||
        { echo "not installed under $tmp/stage$pre"; return 1; }
    mk uninstall PREFIX="$pre" DESTDIR="$tmp/stage" || return 1
    left=$(find "$tmp/stage" ! -type d)
    [ -z "$left" ] || { echo "left after uninstall: $left"; return 1; }
}
check "DESTDIR install, and uninstall removes it all" stage
