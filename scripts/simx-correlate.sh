#!/usr/bin/env bash
# simx-correlate.sh — measure Vortex's simulator, SimX, on the kernels `weft correlate` runs,
# and prepare the same kernels for weft.
#
#   scripts/simx-correlate.sh SIMX_DIR [--peers DIR] [--sizes FILE] [--out DIR] [--tag NAME]
#
# SIMX_DIR is a SimX build: the DESTDIR of `make -C BUILD/sim/simx` holding obj/,
# simx_config.stamp, libsimx.so and the runtime (libvortex.so, libvortex-simx.so), as the
# helper that builds Vortex v3.0 and SimX from their sources leaves it (docs/correlation.md,
# "Building SimX": at 1 × 4 × 4, and at another shape with CONFIGS). The
# shape is SimX's own (its build's CONFIGS); weft must be run at the same shape.
#
# 1. Correlation kernels (tests/correlate/*.s, crt.s prepended, assembled by weft): each runs
#    on a copy of SimX's standalone runner (sim/simx/main.cpp with a few lines added after
#    the run that read each core's minstret and mcycle through the counter port, as
#    scripts/simx-counts.sh does) -> OUT/simx-kernels.csv (kernel,instrs,cycles), the table
#    the repository commits as tests/correlate/simx-CxWxT.csv.
# 2. With --peers DIR (the folder with regression/<t>/kernel.vxbin and host/<t>/{objs,ldflags,
#    opts} — Vortex's regression kernels and host objects built from Vortex's Makefiles): each
#    host is linked twice, to SimX's libvortex.so (run with VORTEX_DRIVER=simx ->
#    OUT/simx-regression.txt, lines `test PASS|FAIL secs opts | PERF: instrs=N, cycles=M`)
#    and to weft's target/release/libvortex.so (OUT/hosts/<test>/, with `cmd`, for
#    `weft correlate --hosts`; only the tests SimX passes). --sizes FILE gives other problem
#    sizes: lines `test opts…` (e.g. `sgemm -n64`); each becomes the kernel `test@opts`.
#    Without --sizes each test runs with its Makefile's OPTS.
#
# Then, for example:
#   weft correlate --kernels tests/correlate --reference OUT/simx-kernels.csv \
#       --config configs/vortex-simx.toml
#   weft correlate --hosts OUT/hosts --reference OUT/simx-regression.txt \
#       --config configs/vortex-simx.toml -o target/correlate/regression
# Nothing of Vortex is written into the repository; everything goes to OUT
# (default target/simx-correlate/TAG, TAG default: the SimX dir's name).

set -u
usage() { sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
case "$1" in -h | --help) usage ;; esac
SX=$(cd "$1" 2>/dev/null && pwd) || { echo "simx-correlate: $1: no such directory" >&2; exit 2; }
shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PEERS="" SIZES="" OUT="" TAG=$(basename "$SX") TIMEOUT=900
while [ $# -gt 0 ]; do
    case "$1" in
    --peers) PEERS=$(cd "$2" && pwd) || exit 2; shift ;;
    --sizes) SIZES=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    --out) OUT=$2; shift ;;
    --tag) TAG=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    -h | --help) usage ;;
    *) echo "simx-correlate: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
OUT=${OUT:-$ROOT/target/simx-correlate/$TAG}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
WEFT=$ROOT/target/release/weft
LIBW=$ROOT/target/release/libvortex.so
for f in "$WEFT" "$LIBW"; do
    [ -f "$f" ] || { echo "simx-correlate: no $f (cargo build --release -p weft -p weft-vortex-rt)" >&2; exit 2; }
done
for f in simx_config.stamp libvortex.so libsimx.so; do
    [ -e "$SX/$f" ] || { echo "simx-correlate: $SX has no $f (not a SimX build)" >&2; exit 2; }
done
SRC=$(sed -n 's|.*-I\([^ ]*\)/sim/simx .*|\1|p' "$SX/simx_config.stamp" | head -1)
[ -f "$SRC/sim/simx/main.cpp" ] || { echo "simx-correlate: cannot find SimX's sources from $SX/simx_config.stamp" >&2; exit 2; }

# --- the counting standalone runner ------------------------------------------------------------
RUNNER=$OUT/simx-count
if [ ! -x "$RUNNER" ] || [ "$RUNNER" -ot "$SX/libsimx.so" ] || [ "$RUNNER" -ot "$0" ]; then
    echo "building $RUNNER (SimX's main.cpp + minstret/mcycle read-out)"
    grep -q 'ram.read(&exitcode, VX_MEM_IO_EXIT_CODE, 4);' "$SRC/sim/simx/main.cpp" || {
        echo "simx-correlate: $SRC/sim/simx/main.cpp has no exit-code read to hook" >&2; exit 2; }
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
      }' "$SRC/sim/simx/main.cpp" >"$OUT/simx_count_main.cpp"
    flags=$(sed -e 's/-MMD//' -e 's/-MP//' -e 's/-MF[[:space:]]*[^[:space:]]*//' "$SX/simx_config.stamp")
    tp=$SRC/third_party
    objs=$(find "$SX/obj" -name '*.o' ! -name main.o | sort)
    eval "c++ $flags -I$SRC/sim/simx -c $OUT/simx_count_main.cpp -o $OUT/simx_count_main.o" &&
        c++ -o "$RUNNER" "$OUT/simx_count_main.o" $objs "$tp/softfloat/build/Linux-x86_64-GCC/softfloat.a" \
            -Wl,-rpath,"$tp/ramulator" -L"$tp/ramulator" -lramulator -pthread || {
        echo "simx-correlate: the counting runner did not build" >&2; exit 2; }
fi

# --- 1. the correlation kernels ----------------------------------------------------------------
K=$OUT/kernels
mkdir -p "$K"
CSV=$OUT/simx-kernels.csv
echo "kernel,instrs,cycles" >"$CSV"
for s in "$ROOT"/tests/correlate/*.s; do
    n=$(basename "$s" .s)
    [ "$n" = crt ] && continue
    cat "$ROOT/tests/correlate/crt.s" "$s" >"$K/$n.s"
    "$WEFT" asm "$K/$n.s" -o "$K/$n.elf" || { echo "$n: weft asm failed" >&2; exit 1; }
    (cd "$K" && timeout "$TIMEOUT" "$RUNNER" "$n.elf") >"$K/$n.log" 2>&1
    rc=$?
    perf=$(sed -n 's/^PERF: instrs=\([0-9]*\), cycles=\([0-9]*\).*/\1,\2/p' "$K/$n.log" | tail -1)
    if [ $rc -ne 0 ] || [ -z "$perf" ]; then
        echo "$n: SimX exit $rc ($K/$n.log)" >&2
        continue
    fi
    echo "$n,$perf" >>"$CSV"
    printf '%-22s %s\n' "$n" "$perf"
done

# --- 2. the regression tests -------------------------------------------------------------------
[ -n "$PEERS" ] || exit 0
R=$OUT/simx-regression.txt
{
    echo "# Vortex regression tests on SimX ($SX), host linked to SimX's libvortex.so;"
    echo "# test result seconds opts | PERF line"
} >"$R"
rm -rf "$OUT/hosts" && mkdir -p "$OUT/hosts" "$OUT/simx-hosts"
runs() { # test and opts, one per line
    if [ -n "$SIZES" ]; then
        grep -v '^#' "$SIZES" | grep -v '^[[:space:]]*$'
    else
        for H in "$PEERS"/host/*/; do
            t=$(basename "$H")
            [ -f "$H/objs" ] && echo "$t $(cat "$H/opts" 2>/dev/null)"
        done
    fi
}
runs | while read -r t opts; do
    H=$PEERS/host/$t KV=$PEERS/regression/$t/kernel.vxbin
    [ -f "$H/objs" ] && [ -f "$KV" ] || { echo "$t NOBUILD 0 $opts |" >>"$R"; continue; }
    name=$t
    [ -n "$SIZES" ] && name="$t@$(echo "$opts" | tr -d ' ')"
    S=$OUT/simx-hosts/$name W=$OUT/hosts/$name
    rm -rf "$S" && mkdir -p "$S"
    cp -r "$PEERS/regression/$t/." "$S/"
    g++ $(cat "$H/objs") $(cat "$H/ldflags") -L"$SX" -lvortex -Wl,-rpath,"$SX" -o "$S/$t" >"$S/link.log" 2>&1 ||
        { echo "$name NOLINK 0 $opts |" >>"$R"; continue; }
    t0=$(date +%s.%N)
    (cd "$S" && eval "VORTEX_DRIVER=simx LD_LIBRARY_PATH=$SX timeout $TIMEOUT ./$t $opts") >"$S/run.log" 2>&1
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
    if [ $rc -eq 0 ] && grep -q PASSED "$S/run.log"; then res=PASS; else res="FAIL(rc=$rc)"; fi
    line="$name $res $secs $opts | $(grep -m1 '^PERF: instrs' "$S/run.log")"
    echo "$line" >>"$R"
    echo "$line"
    [ $res = PASS ] || continue
    mkdir -p "$W"
    cp -r "$PEERS/regression/$t/." "$W/"
    g++ $(cat "$H/objs") $(cat "$H/ldflags") -L"$(dirname "$LIBW")" -lvortex -Wl,-rpath,"$(dirname "$LIBW")" \
        -o "$W/$t" >"$W/link.log" 2>&1 || { echo "$name: linking with weft's libvortex.so failed" >&2; rm -rf "$W"; continue; }
    echo "./$t $opts" >"$W/cmd"
done
echo "SimX: $(grep -c '^[^#][^ ]* PASS ' "$R") passed; $R"
