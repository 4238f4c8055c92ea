# Start-up code for the real-compiler campaign: every lane of warp 0 runs the harness with
# its own stack. Reset runs lane 0 only; it zeroes .bss, then widens the mask to all lanes.
    .section .text.start, "ax"
    .globl _start
_start:
    la    t0, __bss_start
    la    t1, __bss_end
1:  bgeu  t0, t1, 2f
    sw    zero, 0(t0)
    addi  t0, t0, 4
    j     1b
2:  li    t0, -1
    csrw  0x804, t0             # tmask: every lane
    csrr  a1, 0x804             # the lanes that exist
    li    a2, 0                 # a2 = number of lanes
3:  beqz  a1, 4f
    andi  t1, a1, 1
    add   a2, a2, t1
    srli  a1, a1, 1
    j     3b
4:  csrr  a0, 0xcc0             # thread_id
    la    sp, __stack_top
    slli  t1, a0, 16            # 64 KiB of stack per lane
    sub   sp, sp, t1
    mv    a1, a2
    call  weft_harness
    csrw  0x804, zero           # this lane's group is done
5:  j     5b
