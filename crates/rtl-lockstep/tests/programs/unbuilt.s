# unbuilt.s: Vortex's asynchronous barrier (bar.arrive), not built in the RTL: reported as
# unsupported, never run differently.
    .text
    .globl _start
_start:
    li      t1, 1
    bar.arrive t0, zero, t1
    tmc     zero
