//! The compile cache: a second build of the same sources is served from the cache and gives
//! the same ELF as a plain build; a change to the source, a flag, or a header the source
//! includes is a miss that builds anew.

use std::path::Path;
use weft_cc::cache::{build_cached, source_file, Source};
use weft_cc::Options;

fn opts(inputs: &[&Path], out: &Path, flags: &[&str]) -> Options {
    let mut o = Options {
        inputs: inputs.iter().map(|p| p.to_path_buf()).collect(),
        output: out.to_path_buf(),
        ..Options::default()
    };
    o.apply_flags(flags).unwrap();
    o
}

#[test]
fn second_build_hits_and_changes_miss() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let inc = dir.path().join("inc");
    std::fs::create_dir(&inc).unwrap();
    std::fs::write(inc.join("scale.h"), "#define SCALE 3\n").unwrap();
    let text = "#include <weft.h>\n#include \"scale.h\"\n\
                WEFT_KERNEL void k(unsigned *p) { p[weft_global_thread()] *= SCALE; }\n";
    let src = source_file(&cache, text, "c").unwrap();
    assert_eq!(
        src,
        source_file(&cache, text, "c").unwrap(),
        "same text, same file"
    );
    let out = dir.path().join("k.elf");
    let inc_flag = format!("-I{}", inc.display());
    let flags = [inc_flag.as_str(), "-O2"];

    let (first, how) = build_cached(&opts(&[&src], &out, &flags), &cache).unwrap();
    assert_eq!(how, Source::Built);
    let plain = dir.path().join("plain.elf");
    weft_cc::build(&opts(&[&src], &plain, &flags)).unwrap();
    assert_eq!(
        first,
        std::fs::read(&plain).unwrap(),
        "the cache's ELF is weft cc's"
    );

    let (second, how) = build_cached(&opts(&[&src], &out, &flags), &cache).unwrap();
    assert_eq!((how, &second), (Source::Hit, &first));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        first,
        "a hit writes the output too"
    );

    // Another flag: a miss.
    let o1 = [inc_flag.as_str(), "-O1"];
    assert_eq!(
        build_cached(&opts(&[&src], &out, &o1), &cache).unwrap().1,
        Source::Built
    );
    // The included header changes: a miss, and the new constant is in the new ELF.
    std::fs::write(inc.join("scale.h"), "#define SCALE 5\n").unwrap();
    let (third, how) = build_cached(&opts(&[&src], &out, &flags), &cache).unwrap();
    assert_eq!(how, Source::Built);
    assert_ne!(third, first);
    assert_eq!(
        build_cached(&opts(&[&src], &out, &flags), &cache)
            .unwrap()
            .1,
        Source::Hit
    );
}

#[test]
fn flags_are_parsed_and_bad_ones_named() {
    let mut o = Options::default();
    o.apply_flags(&[
        "-O3",
        "-g",
        "-DN=4",
        "-I",
        "/x",
        "--reconv=converge",
        "--stack-size",
        "2048",
    ])
    .unwrap();
    assert_eq!((o.opt.as_str(), o.debug, o.stack_size), ("-O3", true, 2048));
    assert_eq!(
        (o.defines.clone(), o.includes.len()),
        (vec!["N=4".to_string()], 1)
    );
    assert_eq!(o.reconv, weft_cc::Reconv::Converge);
    for (bad, says) in [
        (&["-O9"][..], "-O9"),
        (&["--fast"][..], "--fast"),
        (&["-D"][..], "-D needs a value"),
        (&["--reconv", "x"][..], "'x'"),
    ] {
        let e = Options::default().apply_flags(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad:?}: {e}");
    }
}
