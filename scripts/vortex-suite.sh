#!/usr/bin/env bash
# vortex-suite.sh — build and run Vortex v3.0's regression tests (tests/regression/*) on weft.
#
#   scripts/vortex-suite.sh VORTEX_SRC [--cores N] [--warps N] [--threads N] [--timing]
#                           [--out DIR] [--timeout SECONDS] [TEST ...]
#
# VORTEX_SRC is a checkout of Vortex v3.0 (e.g. the AndrewVu23/vortex fork at e6fcb7d2); nothing
# is written into it. For each test the script builds, as Vortex's Makefiles do but with stock
# Debian tools:
#   - Vortex's kernel library (sw/kernel) with riscv64-unknown-elf-gcc (rv32imaf/ilp32f), once;
#   - the kernel with stock clang 14 (--target=riscv32-unknown-elf), linked with lld against
#     that library, picolibc and libgcc; since stock clang does not emit the
#     `__vx_kentry_<name>` alias Vortex's LLVM fork emits for every `__kernel` function, the
#     link defines it (--defsym), and Vortex's own sw/kernel/scripts/vxbin.py makes the .vxbin;
#   - the host program with the system C++ compiler against Vortex's own headers
#     (sw/runtime/include), linked with weft's target/release/libvortex.so;
# then runs the host program with its Makefile's OPTS on a weft device of the same shape
# (WEFT_CORES/WEFT_WARPS/WEFT_THREADS) and prints one line per test and "N passed, N failed".
# The standalone kernels (tests/kernel/*, Vortex's classic start-up, no host) are built the
# same way and run with `weft run --profile vortex` as ELF and as .vxbin, on one core of the
# chosen warps and threads (SimX's standalone runner starts one CTA on core 0; under weft run
# every core would run main); they pass when both exit 0 with the same instruction count.
# Name one as kernel/NAME.
# A test passes when it exits 0 and prints PASSED. The tensor-core and DXA tests (*_tcu*,
# *dxa*, cta_cluster) are built with the -D flags their Makefile adds to CONFIGS
# (VX_CFG_EXT_TCU_ENABLE, VX_CFG_EXT_DXA_ENABLE, …); the tensor-core tests' host
# programs need Berkeley SoftFloat, which the script builds from Vortex's third_party/softfloat
# submodule (as Vortex's third_party/Makefile does, into OUT/softfloat).
# If the submodule is not checked out, those tests fail to build and say so.
# Logs are kept in OUT/<test>/{build,run}.log (OUT defaults to target/vortex-suite/CxWxT).

set -u

usage() {
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

[ $# -ge 1 ] || usage
case "$1" in -h | --help) usage ;; esac
SRC=$(cd "$1" 2>/dev/null && pwd) || {
    echo "vortex-suite: $1: no such directory" >&2
    exit 2
}
shift
[ -f "$SRC/tests/regression/common.mk" ] && [ -f "$SRC/sw/runtime/include/vortex2.h" ] || {
    echo "vortex-suite: $SRC is not a Vortex v3.0 source tree (no tests/regression, sw/runtime/include/vortex2.h)" >&2
    exit 2
}

CORES=1 WARPS=4 THREADS=4 TIMING=0 TIMEOUT=600 OUT="" TESTS=()
while [ $# -gt 0 ]; do
    case "$1" in
    --cores) CORES=$2; shift ;;
    --warps) WARPS=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --timing) TIMING=1 ;;
    --out) OUT=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    -h | --help) usage ;;
    -*) echo "vortex-suite: unknown option $1" >&2; exit 2 ;;
    *) TESTS+=("$1") ;;
    esac
    shift
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHAPE="${CORES}x${WARPS}x${THREADS}"
[ "$TIMING" = 1 ] && SHAPE="$SHAPE-timing"
OUT=${OUT:-$ROOT/target/vortex-suite/$SHAPE}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)

# --- tools -------------------------------------------------------------------------------
need() {
    command -v "$1" >/dev/null 2>&1 || {
        echo "vortex-suite: '$1' is missing ($2)" >&2
        exit 2
    }
}
need clang++ "stock clang 14 builds the kernels"
need ld.lld "lld links the kernels"
need llvm-objdump "kernel_startup.sh inspects the kernel"
need llvm-objcopy "vxbin.py extracts the image"
need readelf "vxbin.py reads the kernel's segments and symbols"
need riscv64-unknown-elf-gcc "gcc builds Vortex's kernel library"
need riscv64-unknown-elf-gcc-ar "gcc-ar archives Vortex's kernel library"
need python3 "Vortex's gen_config.py and vxbin.py"
need timeout "coreutils"
need cargo "cargo builds libvortex.so"
CXX=${CXX:-c++}
need "$CXX" "the host programs build with the system C++ compiler"
PICOLIBC=${PICOLIBC:-/usr/lib/picolibc/riscv64-unknown-elf}
[ -f "$PICOLIBC/lib/rv32imf/ilp32f/libc.a" ] || {
    echo "vortex-suite: picolibc for rv32imf/ilp32f not found under $PICOLIBC (set PICOLIBC)" >&2
    exit 2
}
LIBGCC=$(riscv64-unknown-elf-gcc -march=rv32imf -mabi=ilp32f -print-libgcc-file-name)
[ -f "$LIBGCC" ] || { echo "vortex-suite: no libgcc for rv32imf/ilp32f" >&2; exit 2; }

# --- weft's libvortex.so ---------------------------------------------------------------------
echo "building libvortex.so and weft (cargo build --release -p weft-vortex-rt -p weft)"
(cd "$ROOT" && CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1} cargo build --release -q -p weft-vortex-rt -p weft) || {
    echo "vortex-suite: cargo build failed" >&2
    exit 2
}
RTLIB=$ROOT/target/release
WEFT=$ROOT/target/release/weft
[ -f "$RTLIB/libvortex.so" ] || { echo "vortex-suite: no $RTLIB/libvortex.so" >&2; exit 2; }
[ -x "$WEFT" ] || { echo "vortex-suite: no $WEFT" >&2; exit 2; }

# --- configuration headers and flags, from Vortex's own TOML files ---------------------------
CONFIGS="-DVX_CFG_NUM_CORES=$CORES -DVX_CFG_NUM_WARPS=$WARPS -DVX_CFG_NUM_THREADS=$THREADS"
mkdir -p "$OUT/sw" "$OUT/cxx"
XLEN=32 python3 "$SRC/ci/gen_config.py" --config "$SRC/VX_types.toml" --output "$OUT/sw/VX_types.h" \
    --format cpp --resolved || { echo "vortex-suite: gen_config.py (VX_types) failed" >&2; exit 2; }
XCONFIGS=$(XLEN=32 python3 "$SRC/ci/gen_config.py" --config "$SRC/VX_config.toml" \
    --cflags="$CONFIGS -DVX_CFG_XLEN=32") || { echo "vortex-suite: gen_config.py failed" >&2; exit 2; }

# Stock Debian has no C++ library for riscv32-unknown-elf; a few kernels include <algorithm>,
# <cmath> or <cstdlib>, or use std::min after <math.h> (which libstdc++'s <math.h> provides
# through <cmath>), for a handful of names. These few lines supply them. picolibc's inline
# RISC-V math functions (machine/math.h) clash with kernels that define fminf themselves, as
# Vortex's newlib has none: the stub leaves them to libm.
mkdir -p "$OUT/cxx/machine"
cat >"$OUT/cxx/machine/math.h" <<'EOF'
#pragma once
EOF
cat >"$OUT/cxx/math.h" <<'EOF'
#ifndef WEFT_SUITE_MATH_H
#define WEFT_SUITE_MATH_H
#include_next <math.h>
#ifdef __cplusplus
#include <cmath>
using std::abs;
#endif
#endif
EOF
cat >"$OUT/cxx/algorithm" <<'EOF'
#pragma once
namespace std {
template <class T> constexpr const T &min(const T &a, const T &b) { return b < a ? b : a; }
template <class T> constexpr const T &max(const T &a, const T &b) { return a < b ? b : a; }
template <class T> inline void swap(T &a, T &b) { T t = a; a = b; b = t; }
}
EOF
cat >"$OUT/cxx/cmath" <<'EOF'
#pragma once
#include <math.h>
#include <stdlib.h>
#include <algorithm>
namespace std {
using ::sqrt; using ::sqrtf; using ::fabs; using ::fabsf; using ::floor; using ::floorf;
using ::ceil; using ::ceilf; using ::exp; using ::expf; using ::log; using ::logf;
using ::pow; using ::powf; using ::sin; using ::sinf; using ::cos; using ::cosf; using ::tan;
using ::tanf; using ::fmin; using ::fminf; using ::fmax; using ::fmaxf;
inline float abs(float x) { return fabsf(x); }
inline double abs(double x) { return fabs(x); }
using ::abs;
inline long abs(long x) { return x < 0 ? -x : x; }
}
EOF
cat >"$OUT/cxx/cstdlib" <<'EOF'
#pragma once
#include <stdlib.h>
namespace std { using ::abs; using ::rand; using ::srand; using ::malloc; using ::free; }
EOF
cat >"$OUT/cxx/cstring" <<'EOF'
#pragma once
#include <string.h>
namespace std { using ::memcpy; using ::memset; using ::memcmp; using ::strlen; }
EOF

# The tensor-core kernels use more of C++17 (<type_traits>, <array>, <utility>, if constexpr):
# they get the host's libstdc++ headers, header-only, instead of the stubs above, with a
# bare-metal os_defines.h, as tools/vortex/prepare.sh does for Vortex's own builds.
CXXINC=$(ls -d /usr/include/c++/[0-9]* 2>/dev/null | sort -V | tail -1)
CXXINC_ARCH=/usr/include/x86_64-linux-gnu/c++/$(basename "${CXXINC:-none}")
mkdir -p "$OUT/cxx-tcu/bits" "$OUT/cxx-tcu/machine"
printf '#ifndef _GLIBCXX_OS_DEFINES\n#define _GLIBCXX_OS_DEFINES 1\n#endif\n' >"$OUT/cxx-tcu/bits/os_defines.h"
cp "$OUT/cxx/machine/math.h" "$OUT/cxx-tcu/machine/math.h"

COMMON_INC="-I$SRC/sw/kernel/include -I$OUT/sw -I$SRC/sw -I$SRC/sw/common"
VX_CFLAGS="--target=riscv32-unknown-elf -march=rv32imaf -mabi=ilp32f -isystem $OUT/cxx \
 -isystem $PICOLIBC/include -O3 -mcmodel=medany -fno-rtti -fno-exceptions -nostartfiles -nostdlib \
 -fdata-sections -ffunction-sections -Wno-unused-command-line-argument $COMMON_INC \
 -DNDEBUG -D__VORTEX__ $CONFIGS $XCONFIGS"
VX_LIBS="-L$PICOLIBC/lib/rv32imf/ilp32f -lm -lc $LIBGCC"
link_flags() { # $1: kernel library (empty: none)
    echo "-fuse-ld=lld -Wl,-Bstatic,--gc-sections,--no-relax,-z,norelro,-T,$SRC/sw/kernel/scripts/link32.ld,--defsym=STARTUP_ADDR=0x80000000 $1 $VX_LIBS"
}

# --- Vortex's kernel library ---------------------------------------------------------------
KL=$OUT/kernel-lib
mkdir -p "$KL"
build_kernel_lib() {
    local gcc="riscv64-unknown-elf-gcc --specs=picolibc.specs -march=rv32imaf -mabi=ilp32f -O3 \
 -mcmodel=medany -fno-exceptions -fdata-sections -ffunction-sections -D__VORTEX__ $COMMON_INC $XCONFIGS"
    local f objs=() objs2=()
    for f in vx_start.S vx_syscalls.c vx_print.S tinyprintf.c vx_print.c vx_spawn.c vx_serial.S; do
        local flags=""
        case $f in *.S) flags="-DNEED_GP -DNEED_TLS -DNEED_INITFINI" ;; esac
        $gcc $flags -c "$SRC/sw/kernel/src/$f" -o "$KL/$f.o" || return 1
        $gcc $flags -DKMU_ENABLE -c "$SRC/sw/kernel/src/$f" -o "$KL/$f.2.o" || return 1
        objs+=("$KL/$f.o")
        objs2+=("$KL/$f.2.o")
    done
    rm -f "$KL/libvortex.a" "$KL/libvortex2.a"
    riscv64-unknown-elf-gcc-ar rcs "$KL/libvortex.a" "${objs[@]}" &&
        riscv64-unknown-elf-gcc-ar rcs "$KL/libvortex2.a" "${objs2[@]}"
}
echo "building Vortex's kernel library (riscv64-unknown-elf-gcc)"
build_kernel_lib >"$KL/build.log" 2>&1 || {
    echo "vortex-suite: the kernel library did not build (see $KL/build.log)" >&2
    exit 2
}

# --- Berkeley SoftFloat for the tensor-core tests' host programs (Vortex's rvfloats.cpp) --------
SOFTFLOAT=$OUT/softfloat
softfloat() { # build once into $SOFTFLOAT; the log says what failed
    [ -f "$SOFTFLOAT/build/Linux-x86_64-GCC/softfloat.a" ] && return 0
    [ -f "$SRC/third_party/softfloat/source/include/softfloat.h" ] || {
        echo "vortex-suite: $SRC/third_party/softfloat is empty: check out Vortex's softfloat submodule (ucb-bar/berkeley-softfloat-3)"
        return 1
    }
    rm -rf "$SOFTFLOAT" && cp -r "$SRC/third_party/softfloat" "$SOFTFLOAT" &&
        SPECIALIZE_TYPE=RISCV SOFTFLOAT_OPTS="-fPIC -DSOFTFLOAT_ROUND_ODD -DINLINE_LEVEL=5 -DSOFTFLOAT_FAST_DIV32TO16 -DSOFTFLOAT_FAST_DIV64TO32" \
            make -C "$SOFTFLOAT/build/Linux-x86_64-GCC" softfloat.a
}

# --- the tests -------------------------------------------------------------------------------
REG=$SRC/tests/regression
if [ ${#TESTS[@]} -eq 0 ]; then
    for d in "$REG"/*/; do
        [ -f "$d/main.cpp" ] && TESTS+=("$(basename "$d")")
    done
    for d in "$SRC"/tests/kernel/*/; do
        [ -f "$d/Makefile" ] && TESTS+=("kernel/$(basename "$d")")
    done
fi

# A Makefile variable's value ("NAME :=", "NAME ?=" or "NAME ="), $(SRC_DIR) and friends
# expanded, comments dropped.
mkvar() { # $1: test, $2: variable
    sed -n "s/^$2[[:space:]]*[:?]\{0,1\}=[[:space:]]*//p" "$REG/$1/Makefile" | head -1 |
        sed -e 's/#.*//' -e "s|\$(SRC_DIR)|$REG/$1|g" -e "s|\$(VORTEX_HOME)|$SRC|g" \
            -e "s|\$(SW_COMMON_DIR)|$SRC/sw/common|g" -e "s|\$(PROJECT)|$1|g" -e 's/[[:space:]]*$//'
}

# Build test $1 in $OUT/$1; the log says what failed.
build() {
    local t=$1 dir=$OUT/$1
    local srcs vx_srcs lib kmu="" f name defs=""
    srcs=$(mkvar "$t" SRCS)
    vx_srcs=$(mkvar "$t" VX_SRCS)
    lib=$(mkvar "$t" KERNEL_LIB)
    lib=${lib:-vortex}
    # picolibc's exit() ends in _exit; Vortex's start-up code calls it _Exit (classic library)
    [ "$lib" = vortex2 ] && kmu=-DKMU_ENABLE || defs=",--defsym=_exit=_Exit"
    local extra ldextra tcfg vxc=$VX_CFLAGS xc=$XCONFIGS
    extra=$(sed -n 's/^CXXFLAGS[[:space:]]*+=[[:space:]]*//p' "$REG/$t/Makefile" |
        sed -e "s|\$(SRC_DIR)|$REG/$t|g" -e "s|\$(VORTEX_HOME)|$SRC|g" -e "s|\$(THIRD_PARTY_DIR)|$SRC/third_party|g")
    ldextra=$(sed -n 's/^LDFLAGS[[:space:]]*+=[[:space:]]*//p' "$REG/$t/Makefile" |
        sed -e "s|\$(THIRD_PARTY_DIR)/softfloat|$SOFTFLOAT|g")
    # A tensor-core or DXA test: the feature flags its Makefile adds to CONFIGS (the shape
    # stays ours).
    tcfg=""
    grep -qE 'VX_CFG_EXT_(TCU|DXA)_ENABLE' "$REG/$t/Makefile" &&
        tcfg=$(grep -E '^CONFIGS[[:space:]]*[:+]?=' "$REG/$t/Makefile" |
            grep -oE -- '-D[A-Za-z_0-9]+(=[A-Za-z_0-9]+)?' |
            grep -vE -- '^-DVX_CFG_(NUM_(WARPS|THREADS|CORES)|ISSUE_WIDTH)(=.*)?$' | sort -u | tr '\n' ' ')
    if [ -n "$tcfg" ]; then
        echo "+ configuration flags from the Makefile: $tcfg"
        xc="$tcfg $(XLEN=32 python3 "$SRC/ci/gen_config.py" --config "$SRC/VX_config.toml" \
            --cflags="$CONFIGS $tcfg -DVX_CFG_XLEN=32")" || return 1
        vxc="${VX_CFLAGS/"$XCONFIGS"/"$xc"}"
        [ -n "$CXXINC" ] || { echo "vortex-suite: no libstdc++ headers under /usr/include/c++ (install g++)"; return 1; }
        vxc="${vxc/"-isystem $OUT/cxx "/"-std=gnu++17 -isystem $OUT/cxx-tcu -isystem $CXXINC -isystem $CXXINC_ARCH "}"
    fi
    if [[ "$ldextra" == *"$SOFTFLOAT"* ]]; then
        echo "+ Berkeley SoftFloat (into $SOFTFLOAT)"
        softfloat || return 1
    fi
    cd "$dir" || return 1
    # __kernel functions get the alias Vortex's LLVM fork would emit.
    for f in $vx_srcs; do
        for name in $(grep -ozE '__kernel[[:space:]]+void[[:space:]]+[A-Za-z_][A-Za-z_0-9]*' "$f" 2>/dev/null |
            tr '\0' '\n' | awk '{print $3}'); do
            defs="$defs,--defsym=__vx_kentry_$name=$name"
        done
    done
    local ld
    if [[ " $vx_srcs " == *".S "* ]]; then
        # hand-written start-up code: linked as given (with the classic library)
        ld=$(link_flags "$KL/lib$lib.a")
        echo "+ clang++ kernel ($vx_srcs)"
        clang++ $vxc $vx_srcs $ld -o kernel.elf || return 1
    else
        echo "+ clang++ -c $vx_srcs"
        clang++ $vxc -c $vx_srcs || return 1
        local objs=""
        for f in $vx_srcs; do objs="$objs $(basename "${f%.*}").o"; done
        ld=$(link_flags "$KL/lib$lib.a")
        # vx_start.S as the kernel needs it (gp, TLS, constructors), as Vortex's common.mk does
        clang++ $vxc -DNEED_GP -DNEED_TLS -DNEED_INITFINI $kmu -c "$SRC/sw/kernel/src/vx_start.S" -o vx_start.o || return 1
        clang++ $vxc vx_start.o $objs $ld${defs:+ -Wl$defs} -o vx_start.o.elf || return 1
        local need
        need=$(bash "$SRC/sw/kernel/scripts/kernel_startup.sh" llvm-objdump vx_start.o.elf)
        clang++ $vxc $need $kmu -c "$SRC/sw/kernel/src/vx_start.S" -o vx_start.o || return 1
        rm -f vx_start.o.elf
        echo "+ link kernel.elf${defs:+ (aliases: ${defs//,--defsym=/ })}"
        clang++ $vxc vx_start.o $objs $ld${defs:+ -Wl$defs} -o kernel.elf || return 1
    fi
    OBJCOPY=llvm-objcopy python3 "$SRC/sw/kernel/scripts/vxbin.py" kernel.elf kernel.vxbin || return 1
    echo "+ $CXX host ($srcs)"
    eval "$CXX -std=c++17 -O2 -DNDEBUG -I$SRC/sw/runtime/include $COMMON_INC $CONFIGS $xc $extra \
        $srcs $ldextra -L$RTLIB -lvortex -Wl,-rpath,$RTLIB -o $t" || return 1
}

# Build standalone kernel $1 (tests/kernel/$1) in $OUT/kernel/$1: $1.elf and $1.vxbin.
build_standalone() {
    local t=$1 dir=$OUT/kernel/$1 srcs f objs="" need
    srcs=$(sed -n 's/^SRCS[[:space:]]*:=[[:space:]]*//p' "$SRC/tests/kernel/$t/Makefile" |
        sed -e "s|\$(SRC_DIR)|$SRC/tests/kernel/$t|g" -e "s|\$(VORTEX_HOME)|$SRC|g")
    cd "$dir" || return 1
    echo "+ clang++ -c $srcs"
    clang++ $VX_CFLAGS -c $srcs || return 1
    for f in $srcs; do objs="$objs $(basename "${f%.*}").o"; done
    local ld
    ld="$(link_flags "$KL/libvortex.a") -Wl,--defsym=_exit=_Exit"
    clang++ $VX_CFLAGS -DNEED_GP -DNEED_TLS -DNEED_INITFINI -c "$SRC/sw/kernel/src/vx_start.S" -o vx_start.o || return 1
    clang++ $VX_CFLAGS vx_start.o $objs $ld -o vx_start.o.elf || return 1
    need=$(bash "$SRC/sw/kernel/scripts/kernel_startup.sh" llvm-objdump vx_start.o.elf)
    clang++ $VX_CFLAGS $need -c "$SRC/sw/kernel/src/vx_start.S" -o vx_start.o || return 1
    rm -f vx_start.o.elf
    clang++ $VX_CFLAGS vx_start.o $objs $ld -o "$t.elf" || return 1
    OBJCOPY=llvm-objcopy python3 "$SRC/sw/kernel/scripts/vxbin.py" "$t.elf" "$t.vxbin"
}

# Run standalone kernel $1 as ELF and .vxbin; print its line; return 0 if it passed.
run_standalone() {
    local t=$1 dir=$OUT/kernel/$1 kind n rc counts=()
    for kind in elf vxbin; do
        local timing=()
        [ "$TIMING" = 1 ] && timing=(--timing)
        (cd "$dir" && timeout "$TIMEOUT" "$WEFT" run --profile vortex --cores 1 "${timing[@]}" \
            --warps "$WARPS" --lanes "$THREADS" --stats-json "$t.$kind.json" "$t.$kind") \
            >"$dir/run.$kind.log" 2>&1
        rc=$?
        if [ $rc -ne 0 ]; then
            printf '%-16s FAIL  %s: exit %s: %s\n' "kernel/$t" "$kind" "$rc" \
                "$(tail -1 "$dir/run.$kind.log" | cut -c1-90)"
            return 1
        fi
        n=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["warp_instructions"])' \
            "$dir/$t.$kind.json")
        counts+=("$n")
    done
    if [ "${counts[0]}" != "${counts[1]}" ]; then
        printf '%-16s FAIL  the ELF retires %s instructions, the .vxbin %s\n' "kernel/$t" "${counts[0]}" "${counts[1]}"
        return 1
    fi
    printf '%-16s PASS  ELF and .vxbin on 1 core  instrs=%s\n' "kernel/$t" "${counts[0]}"
}

printf 'weft %s on Vortex v3.0 regression tests (%s), logs in %s\n' "$SHAPE" "$SRC" "$OUT"
PASS=0 FAIL=0
export WEFT_CORES=$CORES WEFT_WARPS=$WARPS WEFT_THREADS=$THREADS WEFT_TIMING=$TIMING
unset WEFT_CONFIG
for t in "${TESTS[@]}"; do
    case $t in
    kernel/*)
        k=${t#kernel/}
        if [ ! -f "$SRC/tests/kernel/$k/Makefile" ]; then
            printf '%-16s FAIL  no such kernel\n' "$t"
            FAIL=$((FAIL + 1))
            continue
        fi
        rm -rf "${OUT:?}/kernel/$k" && mkdir -p "$OUT/kernel/$k"
        if ! (build_standalone "$k") >"$OUT/kernel/$k/build.log" 2>&1; then
            err=$(grep -m1 -E 'error|Error' "$OUT/kernel/$k/build.log" | cut -c1-110)
            printf '%-16s FAIL  build: %s\n' "$t" "${err:-see build.log}"
            FAIL=$((FAIL + 1))
        elif run_standalone "$k"; then
            PASS=$((PASS + 1))
        else
            FAIL=$((FAIL + 1))
        fi
        continue
        ;;
    esac
    if [ ! -f "$REG/$t/Makefile" ]; then
        printf '%-16s FAIL  no such test\n' "$t"
        FAIL=$((FAIL + 1))
        continue
    fi
    rm -rf "${OUT:?}/$t" && mkdir -p "$OUT/$t"
    if ! (build "$t") >"$OUT/$t/build.log" 2>&1; then
        err=$(grep -m1 -E 'error|Error' "$OUT/$t/build.log" | cut -c1-110)
        printf '%-16s FAIL  build: %s\n' "$t" "${err:-see build.log}"
        FAIL=$((FAIL + 1))
        continue
    fi
    # OPTS may default through make functions on its own empty value (sgemm_tcu_wg:
    # `$(OPTS) $(if $(findstring -m,$(OPTS)),,-m 16)`): with no OPTS given, that is `-m 16`.
    opts=$(mkvar "$t" OPTS | sed -e 's/\$(OPTS)//g' \
        -e 's/\$(if \$(findstring [^,]*,[[:space:]]*),,\([^)]*\))/\1/g')
    t0=$(date +%s.%N)
    # wsync measures cycles (that wsync waits for loads in flight): the functional model
    # has nothing in flight, so it always runs under the timing model.
    timing=$TIMING
    [ "$t" = wsync ] && timing=1
    (cd "$OUT/$t" && WEFT_TIMING=$timing eval "timeout $TIMEOUT ./$t $opts") >"$OUT/$t/run.log" 2>&1
    rc=$?
    secs=$(echo "$(date +%s.%N) - $t0" | bc 2>/dev/null || echo "?")
    perf=$(grep -E '^PERF: instrs=' "$OUT/$t/run.log" | tail -1 | sed 's/^PERF: //')
    if [ $rc -eq 0 ] && grep -q PASSED "$OUT/$t/run.log"; then
        printf '%-16s PASS  %6.2fs  %s\n' "$t" "$secs" "$perf"
        PASS=$((PASS + 1))
    else
        if [ $rc -eq 124 ] && [ "$(echo "$secs >= $TIMEOUT" | bc 2>/dev/null)" = 1 ]; then
            why="timed out after ${TIMEOUT}s"
        else
            line=$(grep -m1 -iE 'error|fail|fault|mismatch|expected|deadlock|not have|need' "$OUT/$t/run.log")
            [ -n "$line" ] || line=$(grep -v '^PERF' "$OUT/$t/run.log" | tail -1)
            why="exit $rc: $(echo "$line" | cut -c1-100)"
        fi
        printf '%-16s FAIL  %6.2fs  %s\n' "$t" "$secs" "$why"
        FAIL=$((FAIL + 1))
    fi
done
echo "$PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
