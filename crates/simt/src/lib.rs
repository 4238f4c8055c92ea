//! weft-simt (placeholder until its module lands).
