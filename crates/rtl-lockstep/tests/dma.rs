//! The board's DMA engine (rtl/board/weft_dma.sv) against the model's, on the simulated board:
//! dma_race.s refuses five bad triggers and a busy one (STORE_FAULTs its trap handler counts),
//! runs four slots both ways (one of 0 words, one reading what another brought in) while a
//! warp reads the status and the destination and writes a source in flight. In model time
//! every word the engine moves is the model's — the same cycle, slot, index and value — and so
//! is everything the program prints, races included; as on the board, everything but the
//! races. The results that do not depend on timing are also worked out on the host.

use weft_rtl_lockstep::board::BoardEnd;
use weft_rtl_lockstep::dma::{model_moves, parse_log};
use weft_rtl_lockstep::hdmi::{build, model_config_for, run, Time, VideoMode};
use weft_rtl_lockstep::{load, repo_root, Shape};

/// The video mode of the HDMI tests (the display stays off here; the same build serves both).
const SMALL: VideoMode = VideoMode::SMALL;

const PROGRAM: &str = "crates/rtl-lockstep/tests/programs/dma_race.s";

/// What dma_race.s prints before "races:", worked out from its description; line 12 (dst word
/// 12) is the race: the first slot copied either the old or the new shared word 12.
fn expected() -> Vec<Vec<u32>> {
    let mut v = Vec::new();
    for i in 0..48u32 {
        v.push(match i {
            12 => vec![0xa000_000c, 0x1234_5678],
            0..=15 => vec![0xa000_0000 + i],
            32..=36 => vec![0xb000_0000 + i - 32],
            _ => vec![0],
        });
    }
    for i in 32..48u32 {
        v.push(vec![if i < 44 {
            0xb000_0000 + i - 32
        } else {
            0xa000_0000 + i
        }]);
    }
    v.push(vec![6]); // six refused triggers
    v.push(vec![0x77_7777]); // each a STORE_FAULT (mcause 7)
    v
}

fn results(console: &[u8]) -> (Vec<u32>, Vec<u32>) {
    let text = String::from_utf8_lossy(console);
    let (a, b) = text
        .split_once("races:\n")
        .expect("the program prints races:");
    let words = |s: &str| {
        s.lines()
            .map(|l| u32::from_str_radix(l, 16).unwrap())
            .collect::<Vec<u32>>()
    };
    (words(a), words(b))
}

fn check_host(words: &[u32]) {
    let want = expected();
    assert_eq!(words.len(), want.len());
    for (i, (w, ok)) in words.iter().zip(&want).enumerate() {
        assert!(ok.contains(w), "line {i}: {w:#010x}, worked out {ok:x?}");
    }
}

#[test]
fn dma_in_model_time_moves_the_models_words_in_the_models_cycles() {
    let shape = Shape::DEFAULT;
    let bin = build(shape, &SMALL, Time::Model).unwrap_or_else(|e| panic!("{e}"));
    let prog = load(&repo_root().join(PROGRAM)).unwrap();
    let (m, want) = model_moves(&prog, model_config_for(shape, &SMALL, 1_000_000)).unwrap();
    assert_eq!(m.end, BoardEnd::Exit(0));
    check_host(&results(&m.console).0);
    // 16 + 12 + 5 words
    assert_eq!(
        want.len(),
        33,
        "the model's engine moved {} words",
        want.len()
    );
    let r = run(&bin, &prog, &SMALL, 20_000_000, true).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.board.end, Some(BoardEnd::Exit(0)));
    let got = parse_log(r.dma_log.as_deref().unwrap_or("")).unwrap();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "word {i} the engine moved: board `{g}`, model `{w}`");
    }
    assert_eq!(got.len(), want.len(), "words moved");
    // every word printed, the races included
    assert_eq!(
        String::from_utf8_lossy(&r.board.console),
        String::from_utf8_lossy(&m.console)
    );
}

#[test]
fn dma_as_on_the_board_gives_the_models_results_but_the_races() {
    let shape = Shape::DEFAULT;
    let bin = build(shape, &SMALL, Time::Real).unwrap_or_else(|e| panic!("{e}"));
    let prog = load(&repo_root().join(PROGRAM)).unwrap();
    let r = run(&bin, &prog, &SMALL, 20_000_000, true).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.board.end, Some(BoardEnd::Exit(0)));
    let (words, races) = results(&r.board.console);
    check_host(&words);
    assert_eq!(races.len(), 48);
    let got = parse_log(r.dma_log.as_deref().unwrap_or("")).unwrap();
    assert_eq!(got.len(), 33, "words moved");
}
