//! The board's DMA engine (`rtl/board/weft_dma.sv`) word by word against the model's: the
//! simulated board logs every word its engine moves (`tb_board --dma`: the issue slot, the
//! slot, the word's index and value), and [`model_moves`] runs the functional model with an
//! observer that reconstructs the same log from the model's engine (the word each cycle's step
//! moved, with the value its source held when it moved). In model time the two logs must be
//! equal line for line.

use crate::hdmi::{board_end, ModelRun};
use std::cell::RefCell;
use std::rc::Rc;
use weft_simt::{Config, DmaSlot, Machine, Program};
use weft_simt::{Observer, StepRecord};

/// One word the engine moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The cycle (the board: the issue slot) at whose start it moved.
    pub cycle: u64,
    /// The slot (0..4).
    pub slot: usize,
    /// The word's index in the slot.
    pub index: u32,
    /// The word.
    pub value: u32,
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cycle {}: slot {} word {} = {:#010x}",
            self.cycle, self.slot, self.index, self.value
        )
    }
}

/// Parse `tb_board --dma`'s log.
pub fn parse_log(text: &str) -> Result<Vec<Move>, String> {
    text.lines()
        .map(|l| {
            let v: Vec<u64> = l
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            match v[..] {
                [cycle, slot, index, value] => Ok(Move {
                    cycle,
                    slot: slot as usize,
                    index: index as u32,
                    value: value as u32,
                }),
                _ => Err(format!("bad DMA log line {l:?}")),
            }
        })
        .collect()
}

/// Watches core 0's engine after every warp-instruction: what the head slot had done then,
/// and the word its next move would read, so that the next cycle's progress is a known word.
struct Watch {
    log: Rc<RefCell<Vec<Move>>>,
    before: Option<(DmaSlot, u32)>,
}

impl Observer for Watch {
    fn step(&mut self, m: &Machine, r: &StepRecord) {
        let now = m.dma_pending(0);
        if let Some((h, v)) = self.before.take() {
            let moved = match now.first() {
                Some(n) if n.slot == h.slot && n.batch == h.batch => n.bytes_done > h.bytes_done,
                // the head slot finished at the start of this cycle: with a word, unless it had
                // none left (a slot of 0 words)
                _ => h.bytes_left() > 0,
            };
            if moved {
                self.log.borrow_mut().push(Move {
                    cycle: r.cycle,
                    slot: h.slot,
                    index: h.bytes_done / 4,
                    value: v,
                });
            }
        }
        if let Some(h) = now.first() {
            let src = if h.to_local { h.global.0 } else { h.local.0 };
            let v = if h.bytes_left() > 0 {
                m.mem
                    .load(0, src.wrapping_add(h.bytes_done), 4)
                    .unwrap_or(0)
            } else {
                0
            };
            self.before = Some((*h, v));
        }
    }
}

/// Run `prog` on the functional model with `cfg`, logging the words core 0's DMA engine moves.
pub fn model_moves(prog: &Program, cfg: Config) -> Result<(ModelRun, Vec<Move>), String> {
    let mut m = Machine::new(cfg, prog).map_err(|e| e.to_string())?;
    let log = Rc::new(RefCell::new(Vec::new()));
    m.add_observer(Box::new(Watch {
        log: log.clone(),
        before: None,
    }));
    let end = board_end(&m.run())?;
    let moves = log.borrow().clone();
    Ok((
        ModelRun {
            console: m.console().to_vec(),
            end,
            frames: Vec::new(),
            cycles: m.cycle,
        },
        moves,
    ))
}
