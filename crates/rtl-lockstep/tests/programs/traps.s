# Traps to mtvec (docs/isa.md §8.5): with mtvec set, ecall, ebreak, illegal instructions
# (an unknown CSR, a write to a read-only one, a bad xwarp, a word that does not decode),
# load and store faults and misaligned atomics go to the handler with mepc, mcause and mtval
# set; the handler notes them and returns past the instruction with mret. The lanes of a
# store or AMO before the faulting lane have done their part (an AMO has written their rd);
# a trapping load or CSR instruction leaves rd as it was.
    .text
    .globl _start
_start:
    li t0, -1
    csrw tmask, t0
    la t0, handler
    csrw mtvec, t0
    csrr s0, thread_id
    slli s1, s0, 2
    la t1, buf
    add s1, s1, t1           # s1: this lane's word in buf
    li a0, 77
    ecall
    ebreak
    csrr a0, 0x7c0           # no such CSR: rd stays 77
    csrw mhartid, a0         # read-only
    li t0, 9
    csrw xwarp, t0           # names no warp
    .word 0xffffffff         # does not decode
    li t0, 0x10
    lw a0, 0(t0)             # LOAD_FAULT in lane 0: no lane loads
    li t0, 3
    sltu t0, s0, t0          # t0 = lane < 3
    addi t0, t0, -1          # 0 for lanes 0-2, -1 for the others
    and t2, t0, s1
    not t0, t0
    and t3, t0, s1
    li t4, 0x20
    and t4, t4, t0           # lanes 3..: address 0x20 (unmapped)
    or t3, t3, t4
    addi t5, s0, 500
    sw t5, 0(t3)             # lanes 0-2 store, lane 3 faults: mtval 0x20
    lw a1, 0(s1)
    li t0, 5
    sltu t0, s0, t0
    xori t0, t0, 1           # 1 for lanes 5..
    add t3, s1, t0           # misaligned for lanes 5..
    li a2, 11
    amoadd.w a2, s0, (t3)    # lanes 0-4 add and get the old word, lane 5 traps
    lw a3, 0(s1)
    sc.w a4, s0, (t3)        # lanes 0-4 fail (no reservation), lane 5 traps
    li t0, 2
    sltu t0, s0, t0
    addi t0, t0, -1          # 0 for lanes 0-1
    li t4, 0x40
    and t4, t4, t0
    not t0, t0
    and t3, t0, s1
    or t3, t3, t4
    li a5, 5
    lr.w a5, (t3)            # lanes 0-1 load and reserve, lane 2 traps (LOAD_FAULT)
    sc.w a6, s0, (s1)        # lanes 0-1 succeed
    csrr a7, minstret
    csrw tmask, zero
handler:
    csrr s2, mcause
    csrr s3, mepc
    csrr s4, mtval
    addi s5, s5, 1
    addi s3, s3, 4
    csrw mepc, s3
    mret
    .data
    .align 2
buf: .zero 128
