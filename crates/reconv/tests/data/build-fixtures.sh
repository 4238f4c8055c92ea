#!/bin/sh
# Rebuild the committed ELF fixtures of tests/jump_tables.rs from switches.c (Debian clang 14
# with lld, riscv64-unknown-elf-gcc 12). `-z max-page-size=16` only keeps the files small.
set -eu
cd "$(dirname "$0")"
CLANG="clang --target=riscv32-unknown-elf -march=rv32imaf -mabi=ilp32f -nostdlib -ffreestanding -fuse-ld=lld -Wl,-Ttext=0x80000000 -Wl,--emit-relocs -Wl,-z,max-page-size=16"
GCC="riscv64-unknown-elf-gcc -march=rv32imaf -mabi=ilp32f -nostdlib -ffreestanding -Wl,-Ttext=0x80000000 -Wl,--emit-relocs -Wl,-z,max-page-size=16"
$CLANG -O0 switches.c -o clang-O0.elf
$CLANG -O2 switches.c -o clang-O2.elf
$GCC -O0 switches.c -o gcc-O0.elf
$GCC -O2 switches.c -o gcc-O2.elf
$GCC -O2 -mcmodel=medany switches.c -o gcc-O2-medany.elf
