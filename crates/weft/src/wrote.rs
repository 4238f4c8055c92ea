//! Every file a command writes besides its console output is named on stderr, once it is
//! complete: `weft: wrote PATH (what it is)`.

use std::path::Path;

/// Say that `path` was written, and what it holds.
pub fn wrote(path: &Path, what: &str) {
    eprintln!("weft: wrote {} ({what})", path.display());
}
