//! The in-suite slice of the fuzzers: every target runs its seed corpus and a fixed-seed
//! batch of mutants without a panic, proptest feeds plain random bytes to each target, and
//! every hostile input collected in `tests/bad_input/` and every saved crash in
//! `fuzz/artifacts/` runs through every target without a panic (regressions).

use proptest::prelude::*;
use std::path::PathBuf;
use std::time::Duration;
use weft_difftest::fuzz::{fuzz, run_caught, seeds, Target, TARGETS};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn mutants_of_the_seed_corpus_do_not_panic() {
    std::panic::set_hook(Box::new(|_| {}));
    for t in TARGETS {
        let corpus = seeds(t, &root());
        let rep = fuzz(t, &corpus, 0xf022, Duration::from_secs(3), 1500);
        let _ = std::panic::take_hook();
        assert!(
            rep.crashes.is_empty(),
            "{}: {} crashes, first: {:?}",
            t.name(),
            rep.crashes.len(),
            rep.crashes
                .first()
                .map(|(i, m)| (String::from_utf8_lossy(i).into_owned(), m))
        );
        std::panic::set_hook(Box::new(|_| {}));
    }
    let _ = std::panic::take_hook();
}

#[test]
fn saved_inputs_do_not_panic() {
    let mut files = Vec::new();
    for d in ["tests/bad_input", "fuzz/artifacts", "fuzz/regressions"] {
        if let Ok(rd) = std::fs::read_dir(root().join(d)) {
            files.extend(rd.flatten().map(|e| e.path()).filter(|p| p.is_file()));
        }
    }
    for f in files {
        let data = std::fs::read(&f).unwrap_or_default();
        for t in TARGETS {
            if let Err(m) = run_caught(t, &data) {
                panic!("{} on {}: {m}", t.name(), f.display());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_do_not_panic(data in proptest::collection::vec(any::<u8>(), 0..512)) {
        for t in TARGETS {
            prop_assert!(run_caught(t, &data).is_ok(), "{} panicked", t.name());
        }
    }

    #[test]
    fn random_text_does_not_panic(src in "[ -~\n\t]{0,300}") {
        for t in [Target::Asm, Target::Sp2aAsm, Target::Config] {
            prop_assert!(run_caught(t, src.as_bytes()).is_ok(), "{} panicked", t.name());
        }
    }
}
