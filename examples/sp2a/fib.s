; fib.s — recursive Fibonacci through CALL / FNSETUP / RETURN; prints fib(N) on the console.
; Every core computes it (try `weft run --sp2a 4 examples/sp2a/fib.s`); only core 0 prints.

        .equ N, 22

        .text
main:   LI %A N
        ST %A %H -8            ; argument at S-8
        CALL fib
        LD %H %B -7            ; result at S-7
        LD %C CORE_INDEX
        SKZ %C
        JMP quit
        ST %B PUTDEC
        LI %A '\n'
        ST %A PUTC
quit:   LI %A 0
        ST %A HALT

; fib(n): frame F+0 result, F-1 n, F-2 fib(n-1)
fib:    FNSETUP 3
        LD %F %A -1
        LI %B 2
        CMP %A %B %C
        SKBS %C 3              ; n < 2 ?
        JMP recurse
        ST %A %F 0             ; fib(n) = n
        JMP done
recurse:
        ADDI %A %B -1
        ST %B %H -8
        CALL fib
        LD %H %C -7
        ST %C %F -2
        ADDI %A %B -2
        ST %B %H -8
        CALL fib
        LD %H %C -7
        LD %F %D -2
        ADD %C %D %C
        ST %C %F 0
done:   ADDI %F %H 0           ; SP = F
        RETURN
