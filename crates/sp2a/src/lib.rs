//! weft-sp2a (placeholder until its module lands).
