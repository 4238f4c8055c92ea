# Lane 1's misaligned store that starts one byte below a word lane 0 reserved (LR) writes bytes
# of that word, so lane 0's SC must fail. Expected exit status: 1 (lane 0's sc.w result; when
# several lanes store the exit word, lane 0's value wins).
    .text
    .globl _start
_start:
    li a0, 3
    csrw tmask, a0            # lanes 0 and 1
    csrr s0, thread_id
    la s1, target
    la s2, elsewhere
    beqz s0, 1f
    addi s2, s1, -1           # lane 1 stores the word at target-1: bytes target-1 .. target+2
1:  lr.w a1, (s1)
    li a2, 0x77
    sw a2, 0(s2)              # lane 0 first (far away), then lane 1 (into the reservation)
    sc.w a3, a2, (s1)         # lane 0: must fail (a3 = 1)
    li a4, 0xffffff04
    sw a3, 0(a4)
    .data
    .align 4
    .word 0, 0
target:
    .word 0, 0
elsewhere:
    .word 0
