//! Progress bars for the commands that take more than a moment (`bench`, `sweep`, `demo`):
//! drawn on stderr only when it is a terminal, so logs and pipes stay clean.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps counting `what` ("runs", "configurations").
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let b = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(&format!(
        "{{bar:40}} {{pos}}/{{len}} {what} {{msg}}, {{elapsed}} elapsed, ETA {{eta}}"
    )) {
        b.set_style(style);
    }
    b
}

/// A spinner with a message, for work whose length is not known in advance.
pub fn spinner(what: &str) -> ProgressBar {
    let b = ProgressBar::new_spinner();
    if let Ok(style) =
        ProgressStyle::with_template(&format!("{{spinner}} {what} {{msg}} ({{elapsed}})"))
    {
        b.set_style(style);
    }
    b.enable_steady_tick(std::time::Duration::from_millis(200));
    b
}
