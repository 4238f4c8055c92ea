"""docs/python.md's walkthrough runs as written: its ```python blocks in order in one
namespace (as a notebook would), each block's printed output checked against the ```text
block right after it (a line `...` stands for any number of lines, `...` inside a line for
any text)."""
import contextlib
import io
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def blocks(text):
    """(python source, expected output or None) for each ```python block."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            j = lines.index("```", i + 1)
            src = "\n".join(lines[i + 1:j]) + "\n"
            k = j + 1
            while k < len(lines) and not lines[k].strip():
                k += 1
            expected = None
            if k < len(lines) and lines[k].strip() == "```text":
                e = lines.index("```", k + 1)
                expected = lines[k + 1:e]
                k = e
            out.append((src, expected))
            i = k
        i += 1
    return out


def matches(want, got):
    if not want:
        return not got
    if want[0] == "...":
        return any(matches(want[1:], got[n:]) for n in range(len(got) + 1))
    pattern = ".*".join(re.escape(p) for p in want[0].split("..."))
    return bool(got) and re.fullmatch(pattern, got[0]) is not None and matches(want[1:], got[1:])


def test_the_walkthrough_runs_and_prints_what_it_shows(tmp_path, monkeypatch):
    monkeypatch.setenv("WEFT_CACHE_DIR", str(tmp_path))
    doc = (ROOT / "docs/python.md").read_text()
    found = blocks(doc)
    assert len(found) >= 5, "the walkthrough's blocks were not found"
    namespace = {}
    for n, (src, expected) in enumerate(found):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(compile(src, f"docs/python.md block {n}", "exec"), namespace)
        got = buf.getvalue().splitlines()
        if expected is not None:
            assert matches(expected, got), f"block {n}:\n{src}\nprinted:\n" + "\n".join(got)


def test_the_matcher():
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert matches(["Module(... bytes)"], ["Module(12 bytes)"])
    assert not matches(["a", "z"], ["a", "b", "z"])
    assert not matches(["x"], [])
