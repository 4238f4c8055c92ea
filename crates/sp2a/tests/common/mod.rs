//! Helpers shared by the integration tests: assemble and run on a small array.
#![allow(dead_code)]

use weft_sp2a::core::CoreConfig;
use weft_sp2a::{assemble, Array, ArrayConfig, DmaTiming, Fault, Program, Stop};

pub fn config(cores: usize) -> ArrayConfig {
    ArrayConfig {
        cores,
        core: CoreConfig {
            dmem_words: 4096,
            imem_words: 4096,
            dma: DmaTiming::default(),
        },
        fb_size: None,
    }
}

pub fn program(src: &str) -> Program {
    assemble(src, "test.s")
        .unwrap_or_else(|e| panic!("assembly failed:\n{e}\n--- source ---\n{src}"))
}

/// Run to completion on one core; panics on fault or cycle limit.
pub fn run(src: &str) -> Array {
    let p = program(src);
    let mut a = Array::new(&p, &config(1)).unwrap();
    assert_eq!(
        a.run(5_000_000).unwrap(),
        Stop::Halted,
        "program did not halt"
    );
    a
}

/// Run and return the fault.
pub fn fault(src: &str) -> Fault {
    let p = program(src);
    let mut a = Array::new(&p, &config(1)).unwrap();
    a.run(1_000_000).expect_err("expected a fault")
}

pub fn regs(src: &str) -> [u32; 8] {
    *run(src).cores()[0].regs()
}

/// Load `v` into register `r` (letter) with LI.
pub fn li(r: char, v: u32) -> String {
    format!("LI %{r} 0x{v:08X}\n")
}
