# The launch CSR (0x813, docs/isa.md §4): a kernel's address begins a launch, 0 ends the open
# one (a 0 with none open changes nothing), a new address while one is open ends it and
# begins another; a read gives the launches begun. The device runtime writes it around every
# kernel (device/lib/runtime.c), so every compiled kernel uses it.
    .text
    .globl _start
_start:
    csrr a0, launch              # 0
    csrw launch, zero            # none open: nothing
    csrr a1, launch              # 0
    la   t0, kernel
    csrw launch, t0              # begins launch 1
    csrr a2, launch              # 1
    csrrw a3, launch, t0         # ends it, begins launch 2; a3 = 1
    csrr a4, launch              # 2
    csrw launch, zero            # ends launch 2
    csrw launch, zero            # none open
    csrr a5, launch              # 2
    csrrwi a6, launch, 0         # (a6 = 2)
kernel:
    csrw tmask, zero
