//! weft-asm (placeholder until its module lands).
