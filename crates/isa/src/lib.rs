//! weft-isa (placeholder until its module lands).
