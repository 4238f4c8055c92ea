//! weft-fb: the far-memory framebuffer and the 4-slot scatter-gather DMA engine.
//!
//! Both are components with no knowledge of any particular core: the Shader Processor v2a
//! (`weft-sp2a`) drives them through its local bus today, and a later display controller for
//! the SIMT cores can reuse them. The framebuffer is an array of 32-bit pixels addressed in
//! dwords (`y * width + x`); the DMA engine moves dwords between a core-local memory slice and
//! the framebuffer, a configurable number of cycles at a time, so that "busy" is observable.

mod dma;
mod framebuffer;

pub use dma::{
    DmaEngine, DmaError, DmaStats, DmaTiming, Transfer, DMA_REGS, DMA_SLOTS, DMA_STATUS_REG,
};
pub use framebuffer::{FbError, Framebuffer};
