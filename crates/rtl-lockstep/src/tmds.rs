//! TMDS, the 8b/10b line code of DVI and HDMI (DVI 1.0 §3.2), written from the
//! specification for the board's tests: [`Encoder`] is the reference the RTL's encoder
//! (`rtl/board/weft_tmds.sv`) is compared with symbol by symbol, and [`decode`] turns the
//! symbols the board sends back into pixels and sync pulses, as a monitor does.

/// What a 10-bit TMDS symbol carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// A control period (blanking): the two control bits `c1 << 1 | c0` (on the blue channel,
    /// c0 is hsync and c1 vsync).
    Control(u8),
    /// A data period: one byte of a pixel.
    Data(u8),
}

/// The four control symbols, indexed by `c1 << 1 | c0` (bit 0 is sent first).
pub const CONTROL: [u16; 4] = [
    0b11_0101_0100,
    0b00_1010_1011,
    0b01_0101_0100,
    0b10_1010_1011,
];

/// Decode a symbol (its low 10 bits).
pub fn decode(sym: u16) -> Symbol {
    let q = sym & 0x3ff;
    if let Some(c) = CONTROL.iter().position(|&c| c == q) {
        return Symbol::Control(c as u8);
    }
    // bit 9: the data bits were inverted; bit 8: XOR (1) or XNOR (0) chain
    let d = if q & 0x200 != 0 { !q & 0xff } else { q & 0xff };
    let mut out = d & 1;
    for i in 1..8 {
        let b = ((d >> i) ^ (d >> (i - 1))) & 1;
        let b = if q & 0x100 != 0 { b } else { b ^ 1 };
        out |= b << i;
    }
    Symbol::Data(out as u8)
}

/// A TMDS encoder with its running disparity (ones minus zeros sent so far).
#[derive(Clone, Debug, Default)]
pub struct Encoder {
    cnt: i32,
}

impl Encoder {
    /// The symbol for one pixel clock: `d` while `de` (a data period), else the control
    /// symbol of `c1 c0`, which also clears the disparity.
    pub fn encode(&mut self, de: bool, d: u8, c0: bool, c1: bool) -> u16 {
        if !de {
            self.cnt = 0;
            return CONTROL[(c1 as usize) << 1 | c0 as usize];
        }
        let n1d = d.count_ones();
        let xnor = n1d > 4 || (n1d == 4 && d & 1 == 0);
        let mut qm: u16 = (d & 1) as u16;
        for i in 1..8 {
            let prev = (qm >> (i - 1)) & 1;
            let bit = ((d >> i) & 1) as u16;
            let v = if xnor { !(prev ^ bit) & 1 } else { prev ^ bit };
            qm |= v << i;
        }
        if !xnor {
            qm |= 0x100;
        }
        let ones = (qm & 0xff).count_ones() as i32;
        let diff = ones - (8 - ones);
        let q8 = qm & 0x100 != 0;
        let low = qm & 0xff;
        if self.cnt == 0 || diff == 0 {
            let q = if q8 {
                0x100 | low
            } else {
                0x200 | (!low & 0xff)
            };
            self.cnt += if q8 { diff } else { -diff };
            q
        } else if (self.cnt > 0 && diff > 0) || (self.cnt < 0 && diff < 0) {
            self.cnt += if q8 { 2 } else { 0 } - diff;
            0x200 | (qm & 0x100) | (!low & 0xff)
        } else {
            self.cnt += diff - if q8 { 0 } else { 2 };
            (qm & 0x100) | low
        }
    }

    /// The running disparity.
    pub fn disparity(&self) -> i32 {
        self.cnt
    }
}

/// Build (or reuse) the testbench of one encoder channel (`rtl/board/tb_tmds.cpp`).
pub fn build_encoder() -> Result<std::path::PathBuf, crate::Error> {
    let b = crate::repo_root().join("rtl/board");
    crate::verilate(&crate::Verilate {
        top: "weft_tmds",
        dir: "tmds",
        bin: "tb_tmds",
        params: &[],
        defines: &[],
        sources: &[b.join("weft_tmds.sv"), b.join("tb_tmds.cpp")],
        trace: false,
    })
}

/// Run the encoder's testbench for `symbols` random inputs from `seed` and check every symbol
/// against [`Encoder`]; the number checked.
pub fn check_encoder(bin: &std::path::Path, symbols: u64, seed: u64) -> Result<u64, String> {
    let out = std::process::Command::new(bin)
        .arg(symbols.to_string())
        .arg(seed.to_string())
        .output()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let mut enc = Encoder::default();
    let mut n = 0;
    for (i, l) in String::from_utf8_lossy(&out.stdout).lines().enumerate() {
        let v: Vec<u32> = l
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        let [de, d, c0, c1, q] = v[..] else {
            return Err(format!("tb_tmds: bad line {l:?}"));
        };
        let want = enc.encode(de != 0, d as u8, c0 != 0, c1 != 0);
        if want as u32 != q {
            return Err(format!(
                "symbol {i} (de {de}, byte {d:#04x}, c0 {c0}, c1 {c1}): the RTL sent {q:#05x}, \
                 the reference {want:#05x}"
            ));
        }
        n += 1;
    }
    Ok(n)
}

/// Build (or reuse) the serializer's testbench (`rtl/board/tb_tmds_ser.cpp`).
pub fn build_serializer() -> Result<std::path::PathBuf, crate::Error> {
    let b = crate::repo_root().join("rtl/board");
    crate::verilate(&crate::Verilate {
        top: "weft_tmds_ser",
        dir: "tmds_ser",
        bin: "tb_tmds_ser",
        params: &[],
        defines: &[],
        sources: &[b.join("weft_tmds_ser.sv"), b.join("tb_tmds_ser.cpp")],
        trace: false,
    })
}

/// Send `symbols` random symbol triples through the serializer, written `num` every `den`
/// clocks of a clock of half-period `half_ns` (the shift clock is 125 MHz); an error unless
/// every one came out in order.
pub fn check_serializer(
    bin: &std::path::Path,
    half_ns: u32,
    num: u32,
    den: u32,
    symbols: u64,
) -> Result<String, String> {
    let out = std::process::Command::new(bin)
        .args([half_ns, num, den].map(|x| x.to_string()))
        .arg(symbols.to_string())
        .arg("1")
        .output()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() {
        return Err(format!(
            "{text} {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips_at_every_disparity_and_the_balance_stays_bounded() {
        for start in [-6, -2, 0, 2, 6] {
            for d in 0..=255u8 {
                let mut e = Encoder { cnt: start };
                let s = e.encode(true, d, false, false);
                assert_eq!(
                    decode(s),
                    Symbol::Data(d),
                    "byte {d:#04x} from disparity {start}"
                );
                assert!(!CONTROL.contains(&s));
            }
        }
        // a long run of one byte stays DC-balanced
        let mut e = Encoder::default();
        for i in 0..10_000u32 {
            e.encode(true, (i % 7) as u8 * 37, false, false);
            assert!(e.disparity().abs() <= 10);
        }
        for c in 0..4u8 {
            let s = e.encode(false, 0, c & 1 != 0, c & 2 != 0);
            assert_eq!(decode(s), Symbol::Control(c));
            assert_eq!(e.disparity(), 0);
        }
    }

    #[test]
    fn known_symbols_from_the_specification() {
        // 0x00 from zero disparity: XOR chain of zeros, not inverted
        assert_eq!(
            Encoder::default().encode(true, 0x00, false, false),
            0b01_0000_0000
        );
        // 0xff: XNOR chain (8 ones, bit 8 clear), sent inverted (bit 9): all zeros
        assert_eq!(
            Encoder::default().encode(true, 0xff, false, false),
            0b10_0000_0000
        );
    }
}
