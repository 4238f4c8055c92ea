//! weft-reconv (placeholder until its module lands).
