#!/usr/bin/env bash
# Brief CI fuzz run: every weft-difftest fuzz target for a few seconds (stable Rust, no
# coverage feedback). Crashes land in fuzz/artifacts/ and fail the run. See docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -q -p weft-difftest --bin weft-fuzz -- --target all --seconds 6 --seed "${WEFT_FUZZ_SEED:-1}"
