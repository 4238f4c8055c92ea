//! The HDMI port's parts on their own: one TMDS encoder channel (rtl/board/weft_tmds.sv)
//! against the reference encoder written from DVI 1.0 (every symbol of random input: all
//! bytes, runs of one byte that push the disparity, the four control codes), and the
//! serializer (weft_tmds_ser.sv) with its two clocks: the symbols written in the core's clock
//! domain come out of the 125 MHz shift registers in order, none lost, for the board's 50 MHz
//! core (a pixel every other clock) and for a 62.5 MHz one (two pixels every five clocks).

use weft_rtl_lockstep::tmds::{build_encoder, build_serializer, check_encoder, check_serializer};

#[test]
fn tmds_encoder_gives_the_reference_symbol_for_random_input() {
    let bin = build_encoder().unwrap_or_else(|e| panic!("{e}"));
    let n = check_encoder(&bin, 200_000, 7).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(n, 200_000);
}

#[test]
fn tmds_serializer_sends_every_symbol_in_order_across_the_clock_domains() {
    let bin = build_serializer().unwrap_or_else(|e| panic!("{e}"));
    for (half, num, den) in [(10, 1, 2), (8, 2, 5)] {
        let r = check_serializer(&bin, half, num, den, 20_000).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r, "sent 20000 received_in_order 20000 lost 0");
    }
    // writing too slowly for the shift clock is caught
    assert!(check_serializer(&bin, 8, 1, 3, 2_000).is_err());
}
