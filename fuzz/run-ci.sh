#!/usr/bin/env bash
# Brief CI fuzz run: every weft-difftest fuzz target for a few seconds (stable Rust, no
# coverage feedback), then the hostile-input campaigns of the host APIs and the GDB stub:
# weft-hostile (the C ABI, the GDB stub) and fuzz/hostile.py (the Python package, in the
# virtual environment scripts/test made, target/test-venv; WEFT_PYTHON names another
# interpreter with `weft`).
# Crashes land in fuzz/artifacts/ and fail the run; a campaign's findings fail it too.
# See docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${WEFT_FUZZ_SEED:-1}"
cargo run --release -q -p weft-difftest --bin weft-fuzz -- --target all --seconds 6 --seed "$seed"
cargo run --release -q -p weft-hostile --bin weft-hostile -- --target all --seconds 5 --seed "$seed"
py="${WEFT_PYTHON:-target/test-venv/bin/python}"
if ! "$py" -c "import weft" 2>/dev/null; then
    echo "fuzz/run-ci.sh: the Python campaign needs the weft package in $py:" >&2
    echo "  scripts/test (it makes target/test-venv with the package), or" >&2
    echo "  python3 -m venv target/test-venv && target/test-venv/bin/pip install numpy ./python" >&2
    echo "  (or WEFT_PYTHON=/path/to/python with weft installed)" >&2
    exit 1
fi
"$py" fuzz/hostile.py --seconds 5 --seed "$seed"
