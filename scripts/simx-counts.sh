#!/usr/bin/env bash
# simx-counts.sh — run the kernels scripts/vortex-suite.sh built on Vortex's own simulator, SimX,
# and print SimX's instruction count and result beside weft's.
#
#   scripts/simx-counts.sh VORTEX_BUILD [--suite DIR] [--work DIR] [--timeout SECONDS] [TEST ...]
#
# VORTEX_BUILD is a Vortex v3.0 build directory (where Vortex's `configure` ran; its config.mk
# names the source tree) in which SimX and the SimX runtime are built at the default
# configuration (1 core, 4 warps, 4 threads):
#   make -C VORTEX_BUILD/sw/runtime/simx     # libsimx.so (SimX's objects in sw/runtime/obj)
#                                            # and libvortex-simx.so
#   make -C VORTEX_BUILD/sw/runtime/stub     # libvortex.so, the runtime the hosts link
# --suite DIR is what vortex-suite.sh built at 1x4x4 (default target/vortex-suite/1x4x4): its
# kernels (kernel/NAME/NAME.elf and .vxbin, REGRESSION/kernel.vxbin) and weft's results
# (its stats JSON files and run logs) are read from there; nothing is written into it.
# Everything else goes to --work DIR (default target/simx-counts).
#
# Standalone kernels (name them kernel/NAME): SimX's standalone runner has no counter output,
# so the script compiles a copy of Vortex's sim/simx/main.cpp with a few lines added after
# the run that read each core's minstret and mcycle through the counter port
# (VX_DCR_BASE_MPM_VALUE, as the runtime's vx_mpm_query does) and print
# "PERF: instrs=N, cycles=N", and links it with SimX's objects and flags (simx_config.stamp).
# Each kernel runs as ELF and as .vxbin; its line shows the exit code and the counts.
# Regression tests: the host program is compiled as vortex-suite.sh compiles it, but linked with
# Vortex's libvortex.so, and run with VORTEX_DRIVER=simx and its Makefile's OPTS on the suite's
# kernel.vxbin; the line shows PASSED/FAILED and the host's "PERF: instrs=" count.
# Without TEST arguments: the four standalone kernels and every regression test the suite
# built (its results for the others are not modelled / did not build).

set -u

usage() {
    sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

[ $# -ge 1 ] || usage
case "$1" in -h | --help) usage ;; esac
BUILD=$(cd "$1" 2>/dev/null && pwd) || { echo "simx-counts: $1: no such directory" >&2; exit 2; }
shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SUITE=$ROOT/target/vortex-suite/1x4x4 WORK=$ROOT/target/simx-counts TIMEOUT=900 TESTS=()
while [ $# -gt 0 ]; do
    case "$1" in
    --suite) SUITE=$2; shift ;;
    --work) WORK=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    -h | --help) usage ;;
    -*) echo "simx-counts: unknown option $1" >&2; exit 2 ;;
    *) TESTS+=("$1") ;;
    esac
    shift
done
SUITE=$(cd "$SUITE" 2>/dev/null && pwd) || { echo "simx-counts: no suite directory (run scripts/vortex-suite.sh first)" >&2; exit 2; }
mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd)

SRC=$(sed -n 's/^VORTEX_HOME[[:space:]]*?=[[:space:]]*//p' "$BUILD/config.mk" 2>/dev/null)
[ -n "$SRC" ] && [ -f "$SRC/sim/simx/main.cpp" ] || {
    echo "simx-counts: $BUILD/config.mk does not name a Vortex source tree (run Vortex's configure there)" >&2
    exit 2
}
RT=$BUILD/sw/runtime
STAMP=$RT/simx_config.stamp
for f in "$RT/libvortex.so" "$RT/libvortex-simx.so" "$RT/libsimx.so" "$STAMP"; do
    [ -f "$f" ] || { echo "simx-counts: no $f (build SimX and its runtime, see --help)" >&2; exit 2; }
done

# --- the counting standalone runner -----------------------------------------------------------
RUNNER=$WORK/simx-count
if [ ! -x "$RUNNER" ] || [ "$RUNNER" -ot "$RT/libsimx.so" ] || [ "$RUNNER" -ot "$0" ]; then
    echo "building $RUNNER (Vortex's sim/simx/main.cpp + minstret/mcycle read-out)"
    grep -q 'ram.read(&exitcode, VX_MEM_IO_EXIT_CODE, 4);' "$SRC/sim/simx/main.cpp" || {
        echo "simx-counts: $SRC/sim/simx/main.cpp has no exit-code read to hook" >&2
        exit 2
    }
    sed '/ram.read(&exitcode, VX_MEM_IO_EXIT_CODE, 4);/a\
      {\
        uint64_t perf_instrs = 0, perf_cycles = 0;\
        for (uint32_t cid = 0; cid < VX_CFG_NUM_CORES * VX_CFG_NUM_CLUSTERS; ++cid) {\
          uint32_t lo = 0, hi = 0, clo = 0, chi = 0;\
          uint32_t ii = VX_CSR_MINSTRET - VX_CSR_MPM_BASE, ci = VX_CSR_MCYCLE - VX_CSR_MPM_BASE;\
          processor.dcr_read(VX_DCR_BASE_MPM_VALUE, (ii << 16) | cid, &lo);\
          processor.dcr_read(VX_DCR_BASE_MPM_VALUE, ((ii | 0x20) << 16) | cid, &hi);\
          processor.dcr_read(VX_DCR_BASE_MPM_VALUE, (ci << 16) | cid, &clo);\
          processor.dcr_read(VX_DCR_BASE_MPM_VALUE, ((ci | 0x20) << 16) | cid, &chi);\
          perf_instrs += ((uint64_t)hi << 32) | lo;\
          uint64_t c = ((uint64_t)chi << 32) | clo;\
          if (c > perf_cycles) perf_cycles = c;\
        }\
        std::cout << "PERF: instrs=" << perf_instrs << ", cycles=" << perf_cycles << std::endl;\
      }' "$SRC/sim/simx/main.cpp" >"$WORK/simx_count_main.cpp"
    # SimX's compile flags as its Makefile recorded them, less the dependency-file options
    flags=$(sed -e 's/-MMD//' -e 's/-MP//' -e 's/-MF[[:space:]]*[^[:space:]]*//' "$STAMP")
    tp=$(echo "$flags" | tr ' ' '\n' | sed -n 's|^-I\(.*\)/softfloat/source/include$|\1|p' | head -1)
    objs=$(find "$RT/obj" -name '*.o' ! -name main.o | sort)
    eval "c++ $flags -I$SRC/sim/simx -c $WORK/simx_count_main.cpp -o $WORK/simx_count_main.o" &&
        c++ -o "$RUNNER" "$WORK/simx_count_main.o" $objs "$tp/softfloat/build/Linux-x86_64-GCC/softfloat.a" \
            -Wl,-rpath,"$tp/ramulator" -L"$tp/ramulator" -lramulator -pthread || {
        echo "simx-counts: the counting runner did not build" >&2
        exit 2
    }
fi

# --- tests ------------------------------------------------------------------------------------
REG=$SRC/tests/regression
if [ ${#TESTS[@]} -eq 0 ]; then
    TESTS=(kernel/hello kernel/fibonacci kernel/vecadd kernel/conform)
    for d in "$SUITE"/*/; do
        t=$(basename "$d")
        [ -f "$d/kernel.vxbin" ] && [ -f "$REG/$t/main.cpp" ] && TESTS+=("$t")
    done
fi

mkvar() { # $1: test, $2: variable (as vortex-suite.sh reads it)
    sed -n "s/^$2[[:space:]]*[:?]\{0,1\}=[[:space:]]*//p" "$REG/$1/Makefile" | head -1 |
        sed -e 's/#.*//' -e "s|\$(SRC_DIR)|$REG/$1|g" -e "s|\$(VORTEX_HOME)|$SRC|g" \
            -e "s|\$(SW_COMMON_DIR)|$SRC/sw/common|g" -e "s|\$(PROJECT)|$1|g" -e 's/[[:space:]]*$//'
}

CONFIGS="-DVX_CFG_NUM_CORES=1 -DVX_CFG_NUM_WARPS=4 -DVX_CFG_NUM_THREADS=4"
XCONFIGS=$(XLEN=32 python3 "$SRC/ci/gen_config.py" --config "$SRC/VX_config.toml" \
    --cflags="$CONFIGS -DVX_CFG_XLEN=32") || { echo "simx-counts: gen_config.py failed" >&2; exit 2; }
COMMON_INC="-I$SRC/sw/kernel/include -I$SUITE/sw -I$SRC/sw -I$SRC/sw/common"

weft_perf() { # weft's count for a regression test from the suite's run log
    grep -E '^PERF: instrs=' "$SUITE/$1/run.log" 2>/dev/null | tail -1 | sed 's/^PERF: instrs=\([0-9]*\).*/\1/'
}

printf 'SimX (%s, 1x4x4) on the kernels in %s; work in %s\n' "$SRC" "$SUITE" "$WORK"
printf '%-16s %-6s %12s %12s %12s  %s\n' test simx simx-instrs weft-instrs simx-cycles note
for t in "${TESTS[@]}"; do
    case $t in
    kernel/*)
        k=${t#kernel/} dir=$WORK/kernel/$k
        mkdir -p "$dir"
        for kind in elf vxbin; do
            img=$SUITE/kernel/$k/$k.$kind
            [ -f "$img" ] || { printf '%-16s %-6s  no %s\n' "$t.$kind" "-" "$img"; continue; }
            (cd "$dir" && timeout "$TIMEOUT" nice -n 19 "$RUNNER" "$img") >"$dir/run.$kind.log" 2>&1
            rc=$?
            n=$(sed -n 's/^PERF: instrs=\([0-9]*\).*/\1/p' "$dir/run.$kind.log" | tail -1)
            c=$(sed -n 's/^PERF: .*cycles=\([0-9]*\).*/\1/p' "$dir/run.$kind.log" | tail -1)
            w=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["warp_instructions"])' \
                "$SUITE/kernel/$k/$k.$kind.json" 2>/dev/null)
            res=exit$rc
            [ $rc -eq 124 ] && res=timeout
            printf '%-16s %-6s %12s %12s %12s  %s\n' "$t.$kind" "$res" "${n:--}" "${w:--}" "${c:--}" \
                "$([ -n "$n" ] && [ "$n" = "$w" ] && echo equal || echo differs)"
        done
        ;;
    *)
        dir=$WORK/$t
        rm -rf "$dir" && mkdir -p "$dir"
        [ -f "$SUITE/$t/kernel.vxbin" ] || { printf '%-16s %-6s  not built by the suite\n' "$t" "-"; continue; }
        cp "$SUITE/$t/kernel.vxbin" "$dir/"
        srcs=$(mkvar "$t" SRCS)
        extra=$(sed -n 's/^CXXFLAGS[[:space:]]*+=[[:space:]]*//p' "$REG/$t/Makefile" |
            sed -e "s|\$(SRC_DIR)|$REG/$t|g" -e "s|\$(VORTEX_HOME)|$SRC|g")
        if ! (cd "$dir" && eval "nice -n 19 c++ -std=c++17 -O2 -DNDEBUG -I$SRC/sw/runtime/include $COMMON_INC \
            $CONFIGS $XCONFIGS $extra $srcs -L$RT -lvortex -Wl,-rpath,$RT -o $t") >"$dir/build.log" 2>&1; then
            printf '%-16s %-6s  host build failed (%s)\n' "$t" "-" "$dir/build.log"
            continue
        fi
        opts=$(mkvar "$t" OPTS)
        (cd "$dir" && VORTEX_DRIVER=simx LD_LIBRARY_PATH=$RT eval "timeout $TIMEOUT nice -n 19 ./$t $opts") \
            >"$dir/run.log" 2>&1
        rc=$?
        n=$(sed -n 's/^PERF: instrs=\([0-9]*\).*/\1/p' "$dir/run.log" | tail -1)
        c=$(sed -n 's/^PERF: .*cycles=\([0-9]*\).*/\1/p' "$dir/run.log" | tail -1)
        if [ $rc -eq 124 ]; then res=timeout
        elif [ $rc -eq 0 ] && grep -q PASSED "$dir/run.log"; then res=PASSED
        else res=FAILED; fi
        w=$(weft_perf "$t")
        note=""
        [ "$res" = FAILED ] && note="exit $rc: $(grep -m1 -iE 'error|fail|mismatch|expected|need' "$dir/run.log" | cut -c1-70)"
        printf '%-16s %-6s %12s %12s %12s  %s\n' "$t" "$res" "${n:--}" "${w:--}" "${c:--}" "$note"
        ;;
    esac
done
