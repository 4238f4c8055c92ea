#!/usr/bin/env bash
# vortex-opencl.sh — build and run Vortex v3.0's OpenCL tests (tests/opencl/*) on weft's
# libOpenCL.so.
#
#   scripts/vortex-opencl.sh VORTEX_SRC [--cores N] [--warps N] [--threads N] [--timing]
#                            [--out DIR] [--timeout SECONDS] [TEST ...]
#
# VORTEX_SRC is a checkout of Vortex v3.0 (e.g. the AndrewVu23/vortex fork at e6fcb7d2); only
# its tests/opencl is read and nothing is written into it. Each test's own Makefile is used
# unmodified: it runs in a build directory OUT/root/tests/opencl/TEST whose ../common.mk and
# ../../../config.mk are written here (in place of Vortex's, which drive POCL): they build the
# host program from the Makefile's SRCS with the system C++ compiler, Vortex's flags and
# Khronos' headers (Debian's opencl-headers) and link it with weft's target/release/
# libOpenCL.so; `make run-weft` then copies the Makefile's KERNEL_SRCS beside it (the program
# builds kernel.cl at run time through clBuildProgram) and runs it with the Makefile's OPTS on
# a weft device of the chosen shape (WEFT_CORES, WEFT_WARPS, WEFT_THREADS, WEFT_TIMING).
#
# transpose's Makefile names transpose_gold.cpp, which Vortex's tree does not have; the
# script writes one (the host reference transpose, computeGold) into that test's build
# directory. A test passes when it exits 0, prints no FAILED, and prints PASSED (or Passed)
# if its sources print such a line. One line per test — with the kernels' launches, the device
# cycles they ran (WEFT_OPENCL_STATS) and the wall time — a summary, and logs in
# OUT/TEST/{build,run,stats}.log (OUT defaults to target/vortex-opencl/CxWxT[-timing]).

set -u

usage() {
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

[ $# -ge 1 ] || usage
case "$1" in -h | --help) usage ;; esac
SRC=$(cd "$1" 2>/dev/null && pwd) || {
    echo "vortex-opencl: $1: no such directory" >&2
    exit 2
}
shift
[ -f "$SRC/tests/opencl/vecadd/Makefile" ] || {
    echo "vortex-opencl: $SRC is not a Vortex v3.0 source tree (no tests/opencl/vecadd/Makefile)" >&2
    exit 2
}

CORES=1 WARPS=4 THREADS=4 TIMING=0 TIMEOUT=1800 OUT="" TESTS=()
while [ $# -gt 0 ]; do
    case "$1" in
    --cores) CORES=$2; shift ;;
    --warps) WARPS=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --timing) TIMING=1 ;;
    --out) OUT=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    -h | --help) usage ;;
    -*) echo "vortex-opencl: unknown option $1" >&2; exit 2 ;;
    *) TESTS+=("$1") ;;
    esac
    shift
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHAPE="${CORES}x${WARPS}x${THREADS}"
[ "$TIMING" = 1 ] && SHAPE="$SHAPE-timing"
OUT=${OUT:-$ROOT/target/vortex-opencl/$SHAPE}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
LIB=$ROOT/target/release

[ -f /usr/include/CL/cl.h ] || {
    echo "vortex-opencl: Khronos' OpenCL headers are missing (apt-get install opencl-headers)" >&2
    exit 2
}
command -v make >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || {
    echo "vortex-opencl: make and g++ build the host programs (apt-get install make g++)" >&2
    exit 2
}
echo "vortex-opencl: building weft's libOpenCL.so (cargo build --release -p weft-opencl)"
(cd "$ROOT" && cargo build --release -q -p weft-opencl) || exit 2

if [ ${#TESTS[@]} -eq 0 ]; then
    # Vortex's master list (tests/opencl/Makefile), in its order.
    TESTS=($(sed -n '/^TESTS :=/,/^$/p' "$SRC/tests/opencl/Makefile" | tr -d '\\' | sed 's/TESTS :=//'))
fi

# --- the build tree: config.mk and common.mk in place of Vortex's --------------------------
TREE=$OUT/root
mkdir -p "$TREE/tests/opencl"
cat >"$TREE/config.mk" <<EOF
# written by weft's scripts/vortex-opencl.sh
VORTEX_HOME := $SRC
XLEN := 32
EOF
cat >"$TREE/tests/opencl/common.mk" <<EOF
# written by weft's scripts/vortex-opencl.sh: the host program against Khronos' headers and
# weft's libOpenCL.so, with Vortex's compiler flags; \`make run-weft\` runs it.
WEFT_LIB := $LIB
CXXFLAGS += -std=c++17 -Wall -Wextra -Wfatal-errors
CXXFLAGS += -Wno-deprecated-declarations -Wno-unused-parameter -Wno-narrowing
CXXFLAGS += -pthread -O2 -DNDEBUG
OBJS := \$(addsuffix .o, \$(notdir \$(SRCS)))

all: \$(PROJECT)

%.cc.o: \$(SRC_DIR)/%.cc
	\$(CXX) \$(CXXFLAGS) -c \$< -o \$@
%.cpp.o: \$(SRC_DIR)/%.cpp
	\$(CXX) \$(CXXFLAGS) -c \$< -o \$@
%.c.o: \$(SRC_DIR)/%.c
	\$(CC) \$(CXXFLAGS) -c \$< -o \$@
%.cpp.o: %.cpp
	\$(CXX) \$(CXXFLAGS) -c \$< -o \$@

\$(PROJECT): \$(OBJS)
	\$(CXX) \$(CXXFLAGS) \$(OBJS) \$(LDFLAGS) -L\$(WEFT_LIB) -Wl,-rpath,\$(WEFT_LIB) -lOpenCL -o \$@

run-weft: \$(PROJECT) \$(KERNEL_SRCS)
	./\$(PROJECT) \$(OPTS)

.PHONY: all run-weft
EOF

# transpose's missing host reference: out[i][j] = in[j][i] for a size_y x size_x input.
transpose_gold() {
    cat >"$1/transpose_gold.cpp" <<'EOF'
// written by weft's scripts/vortex-opencl.sh: Vortex's tests/opencl/transpose names this file
// but does not have it. The reference transpose of a size_y x size_x matrix.
extern "C" void computeGold(float *reference, float *idata, const unsigned int size_x,
                            const unsigned int size_y) {
    for (unsigned int y = 0; y < size_y; ++y)
        for (unsigned int x = 0; x < size_x; ++x)
            reference[x * size_y + y] = idata[y * size_x + x];
}
EOF
}

export WEFT_CORES=$CORES WEFT_WARPS=$WARPS WEFT_THREADS=$THREADS WEFT_TIMING=$TIMING
printf '%-13s %-6s %9s %13s %8s  %s\n' test result launches cycles seconds note
pass=0 fail=0
for t in "${TESTS[@]}"; do
    dir=$SRC/tests/opencl/$t
    logs=$OUT/$t
    bdir=$TREE/tests/opencl/$t
    mkdir -p "$logs" "$bdir"
    if [ ! -f "$dir/Makefile" ]; then
        printf '%-13s %-6s %9s %13s %8s  %s\n' "$t" FAIL - - - "no such test"
        fail=$((fail + 1))
        continue
    fi
    [ "$t" = transpose ] && transpose_gold "$bdir"
    if ! make -s -C "$bdir" -f "$dir/Makefile" all >"$logs/build.log" 2>&1; then
        printf '%-13s %-6s %9s %13s %8s  %s\n' "$t" FAIL - - - "build failed: $logs/build.log"
        fail=$((fail + 1))
        continue
    fi
    start=$(date +%s.%N)
    rm -f "$logs/stats.log"
    WEFT_OPENCL_STATS=$logs/stats.log timeout "$TIMEOUT" \
        make -s -C "$bdir" -f "$dir/Makefile" run-weft >"$logs/run.log" 2>&1
    code=$?
    # every context's launches and kernel cycles, summed
    read -r launches cycles < <(python3 -c '
import json, sys
l = c = 0
try:
    for line in open(sys.argv[1]):
        v = json.loads(line)
        l += v.get("launches", 0)
        c += v.get("kernel_cycles", 0)
except OSError:
    pass
print(l, c)' "$logs/stats.log")
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    expects=0
    grep -qiE '"[^"]*passed' "$dir"/*.c* 2>/dev/null && expects=1
    note=""
    if [ $code -ne 0 ]; then
        note="exit $code"
        [ $code -eq 124 ] && note="timed out after ${TIMEOUT} s"
    elif grep -q 'FAILED' "$logs/run.log"; then
        note="printed FAILED"
    elif [ $expects = 1 ] && ! grep -qiE 'passed' "$logs/run.log"; then
        note="no PASSED"
    fi
    if [ -z "$note" ]; then
        printf '%-13s %-6s %9s %13s %8.1f\n' "$t" PASS "$launches" "$cycles" "$secs"
        pass=$((pass + 1))
    else
        printf '%-13s %-6s %9s %13s %8.1f  %s (%s)\n' "$t" FAIL "$launches" "$cycles" "$secs" "$note" "$logs/run.log"
        fail=$((fail + 1))
    fi
done
echo "$SHAPE: $pass passed, $fail failed"
[ $fail -eq 0 ]
