//! weft-mem (placeholder until its module lands).
