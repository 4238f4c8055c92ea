//! `docs/isa.md` must contain exactly the current generated listing (encodings, CSR map,
//! fault codes) between the `listing::BEGIN` and `listing::END` marker lines. When the
//! instruction, CSR or fault table changes, this test fails until the document is refreshed:
//! `WEFT_BLESS=1 cargo test -p weft-isa --test listing` rewrites that part of the file.

use std::path::PathBuf;
use weft_isa::listing;

fn doc_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/isa.md")
}

/// Split the document into (text before BEGIN, generated part, text after END). The
/// generated part runs from the BEGIN line through the END line and its newline.
fn split(doc: &str) -> Result<(&str, &str, &str), String> {
    let begin = doc
        .find(listing::BEGIN)
        .ok_or("docs/isa.md has no listing::BEGIN marker line")?;
    if doc[begin + listing::BEGIN.len()..].contains(listing::BEGIN) {
        return Err("docs/isa.md has more than one listing::BEGIN marker".into());
    }
    let end_rel = doc[begin..]
        .find(listing::END)
        .ok_or("docs/isa.md has no listing::END marker after listing::BEGIN")?;
    let mut end = begin + end_rel + listing::END.len();
    if doc[end..].starts_with('\n') {
        end += 1;
    }
    Ok((&doc[..begin], &doc[begin..end], &doc[end..]))
}

#[test]
fn isa_doc_contains_the_current_listing() {
    let path = doc_path();
    let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (before, generated, after) = split(&doc).unwrap_or_else(|e| panic!("{e}"));
    let want = listing::markdown();
    if generated == want {
        return;
    }
    if std::env::var_os("WEFT_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, format!("{before}{want}{after}"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let first_diff = generated
        .lines()
        .zip(want.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(generated.lines().count().min(want.lines().count()));
    panic!(
        "docs/isa.md's generated listing is stale (first difference at line {} of the \
         listing:\n  doc:  {:?}\n  want: {:?}).\nRegenerate it with \
         WEFT_BLESS=1 cargo test -p weft-isa --test listing",
        first_diff + 1,
        generated.lines().nth(first_diff).unwrap_or("<end>"),
        want.lines().nth(first_diff).unwrap_or("<end>"),
    );
}

#[test]
fn split_finds_the_markers() {
    let doc = format!("intro\n{}\nold\n{}\noutro\n", listing::BEGIN, listing::END);
    let (a, g, b) = split(&doc).unwrap();
    assert_eq!(a, "intro\n");
    assert!(g.starts_with(listing::BEGIN) && g.ends_with(&format!("{}\n", listing::END)));
    assert_eq!(b, "outro\n");
    assert!(split("no markers").is_err());
    assert!(split(&format!("{}\nno end", listing::BEGIN)).is_err());
}
