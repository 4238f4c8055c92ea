/* Entry point of a scalar weft program (see linux.c): under Linux user mode the kernel hands
 * over a stack; built with -DWEFT_COUNT (to count its instructions on weft with one lane, where
 * nothing sets sp at reset) it uses a stack of its own. Linked with --no-relax: gp is unused. */
    .text
    .globl _start
_start:
#ifdef WEFT_COUNT
    la sp, __weft_scalar_stack_top
#endif
    andi sp, sp, -16
    call __weft_scalar_main
1:  j 1b
#ifdef WEFT_COUNT
    .bss
    .balign 16
    .space 1 << 20
__weft_scalar_stack_top:
#endif
