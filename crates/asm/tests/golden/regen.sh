#!/bin/sh
# Regenerate encodings.txt with GNU binutils (riscv64-unknown-elf-as, Debian package
# gcc-riscv64-unknown-elf). The words come from GNU as; the text is weft's canonical syntax.
set -e
cd "$(dirname "$0")/../../../.."
WEFT_BLESS=1 cargo test -p weft-asm --test golden
