; softfloat.s — IEEE 754 single-precision add and multiply from integer instructions.
;
; Calling convention (docs/sp2a.md): the caller writes a at S-8 and b at S-9 (S = SP at the
; CALL), calls, and reads the result at S-7:
;         ST %A %H -8
;         ST %B %H -9
;         CALL fadd            ; or fmul
;         LD %H %C -7
; All registers except %G are preserved (FNSETUP / RETURN); the argument slots are scratch.
;
; Rounding: round to nearest, ties to even (guard/round/sticky bits).
; Handled: normal numbers, signed zeros, infinities, overflow to infinity, NaN in -> NaN out,
; inf - inf and 0 * inf -> NaN (0x7FC00000).
; Not handled: subnormals. Subnormal inputs are treated as zero, and results that would be
; subnormal are flushed to a zero of the result's sign (flush-to-zero / denormals-are-zero).

; ---------------------------------------------------------------------------------------
; fadd(a, b) = a + b.   Frame: F+0 result, F-1 a, F-2 b; SP = F-3, so F+0 = SP+3.
fadd:   FNSETUP 3
        LD %F %A -1
        LD %F %B -2
        BCLR %A %C 31              ; order so that |A| >= |B|
        BCLR %B %D 31
        CMP %C %D %E
        SKBS %E 3                  ; |a| < |b| ?
        JMP fa_ordered
        ADDI %A %E 0
        ADDI %B %A 0
        ADDI %E %B 0
fa_ordered:
        SHR %A %C 23
        SHL %C %C 24
        SHR %C %C 24               ; C = exponent of A
        SHR %B %D 23
        SHL %D %D 24
        SHR %D %D 24               ; D = exponent of B
        LI %E 255
        CMP %C %E %F
        SKBC %F 0                  ; A is inf or NaN ?
        JMP fa_special
        SKNZ %C                    ; A zero (then B is too) ?
        JMP fa_zero_both
        SKNZ %D                    ; B zero ?
        JMP fa_store
        SHL %A %E 9
        SHR %E %E 9
        BSET %E %E 23
        SHL %E %E 3                ; E = mantissa A with 3 guard bits (27 bits)
        SHL %B %F 9
        SHR %F %F 9
        BSET %F %F 23
        SHL %F %F 3                ; F = mantissa B, same
        SUB %C %D %D               ; D = exponent difference (>= 0)
        LI %G 27
        CMP %D %G %G
        SKBS %G 1                  ; difference > 27 ?  clamp
        JMP fa_dok
        LI %D 27
fa_dok: LI %G 0                    ; G = sticky
fa_shift:
        SKNZ %D
        JMP fa_aligned
        SKBC %F 0
        BSET %G %G 0
        SHR %F %F 1
        ADDI %D %D -1
        JMP fa_shift
fa_aligned:
        OR %F %G %F
        XOR %A %B %G
        SKBC %G 31                 ; signs differ ?
        JMP fa_sub
        ADD %E %F %E
        SKBS %E 27                 ; carry out ?
        JMP fa_round
        SHL %E %G 31
        SHR %G %G 31
        SHR %E %E 1
        OR %E %G %E                ; keep the sticky bit
        ADDI %C %C 1
        JMP fa_round
fa_sub: SUB %E %F %E
        SKNZ %E
        JMP fa_pos_zero            ; exact cancellation gives +0
fa_norm:
        SKBC %E 26
        JMP fa_round
        SHL %E %E 1
        ADDI %C %C -1
        JMP fa_norm
fa_round:
        SHL %E %G 29
        SHR %G %G 29               ; G = guard bits
        SHR %E %E 3
        LI %F 4
        CMP %G %F %F
        SKBC %F 1                  ; above half: round up
        JMP fa_up
        SKBS %F 0                  ; exactly half: ties to even
        JMP fa_pack
        SKBS %E 0
        JMP fa_pack
fa_up:  ADDI %E %E 1
        SKBS %E 24
        JMP fa_pack
        SHR %E %E 1
        ADDI %C %C 1
fa_pack:
        LI %F 0
        CMP %C %F %F
        SKBS %F 2                  ; exponent > 0 (signed) ?
        JMP fa_signed_zero
        LI %F 255
        CMP %C %F %F
        SKBS %F 4                  ; exponent < 255 ?
        JMP fa_inf
        SHR %A %A 31
        SHL %A %A 31
        SHL %C %C 23
        OR %A %C %A
        BCLR %E %E 23
        OR %A %E %A
fa_store:
        ST %A %H 3                 ; result at F+0 = SP+3
        ADDI %H %H 3               ; SP = F
        RETURN
fa_special:                        ; A is inf/NaN; inf + -inf is NaN, else A
        CMP %D %E %F
        SKBS %F 0
        JMP fa_store
        XOR %A %B %F
        SKBS %F 31
        JMP fa_store
fa_nan: LI %A 0x7FC00000
        JMP fa_store
fa_zero_both:
        AND %A %B %A               ; -0 only if both are -0
fa_signed_zero:
        SHR %A %A 31
        SHL %A %A 31
        JMP fa_store
fa_pos_zero:
        LI %A 0
        JMP fa_store
fa_inf: SHR %A %A 31
        SHL %A %A 31
        LI %F 0x7F800000
        OR %A %F %A
        JMP fa_store

; ---------------------------------------------------------------------------------------
; fmul(a, b) = a * b.   Frame: F+0 result, F-1 a (then the exponent), F-2 b (then the sign).
fmul:   FNSETUP 3
        LD %F %A -1
        LD %F %B -2
        XOR %A %B %G
        SHR %G %G 31
        SHL %G %G 31
        ST %G %H 1                 ; sign at F-2 = SP+1
        SHR %A %C 23
        SHL %C %C 24
        SHR %C %C 24               ; C = exponent of a
        SHR %B %D 23
        SHL %D %D 24
        SHR %D %D 24               ; D = exponent of b
        LI %E 255
        CMP %C %E %F
        SKBC %F 0
        JMP fm_special
        CMP %D %E %F
        SKBC %F 0
        JMP fm_special
        SKNZ %C
        JMP fm_zero
        SKNZ %D
        JMP fm_zero
        ADD %C %D %C
        ADDI %C %C -127
        ST %C %H 2                 ; exponent at F-1 = SP+2
        SHL %A %A 9
        SHR %A %A 9
        BSET %A %A 23              ; A = 24-bit mantissa of a
        SHL %B %B 9
        SHR %B %B 9
        BSET %B %B 23              ; B = 24-bit mantissa of b
        SHR %A %C 16               ; C = high 8 bits of a
        SHR %B %D 16               ; D = high 8 bits of b
        MUL %A %B %E               ; E = lo * lo   (MUL uses the low 16 bits)
        MUL %C %D %F               ; F = hi * hi
        MUL %C %B %G               ; G = hi(a) * lo(b)
        MUL %A %D %A               ; A = lo(a) * hi(b)
        ADD %A %G %A               ; A = middle sum (< 2^25)
        SHL %A %B 16
        SHR %A %A 16
        ADD %F %A %F
        ADD %E %B %B               ; product = F:B (48 bits)
        CMP %B %E %C
        SKBC %C 3                  ; carry out of the low word ?
        ADDI %F %F 1
        LD %H %C 2                 ; C = exponent
        SKBC %F 15                 ; product >= 2^47 ?
        JMP fm_big
        SHL %F %F 1                ; else shift left one
        SKBC %B 31
        BSET %F %F 0
        SHL %B %B 1
        JMP fm_norm
fm_big: ADDI %C %C 1
fm_norm:
        SHL %F %E 8
        SHR %B %A 24
        OR %E %A %E                ; E = 24-bit mantissa
        SKBS %B 23                 ; guard bit ?
        JMP fm_pack
        SHL %B %A 9                ; sticky bits
        SKZ %A
        JMP fm_up
        SKBS %E 0                  ; tie: round to even
        JMP fm_pack
fm_up:  ADDI %E %E 1
        SKBS %E 24
        JMP fm_pack
        SHR %E %E 1
        ADDI %C %C 1
fm_pack:
        LI %A 0
        CMP %C %A %A
        SKBS %A 2                  ; exponent > 0 (signed) ?
        JMP fm_zero
        LI %A 255
        CMP %C %A %A
        SKBS %A 4                  ; exponent < 255 ?
        JMP fm_inf
        LD %H %A 1
        SHL %C %C 23
        OR %A %C %A
        BCLR %E %E 23
        OR %A %E %A
fm_store:
        ST %A %H 3
        ADDI %H %H 3
        RETURN
fm_zero:
        LD %H %A 1
        JMP fm_store
fm_inf: LD %H %A 1
        LI %B 0x7F800000
        OR %A %B %A
        JMP fm_store
fm_special:                        ; an operand is inf or NaN
        SKNZ %C                    ; 0 * inf
        JMP fm_nan
        SKNZ %D
        JMP fm_nan
        LI %F 0x7F800000
        BCLR %A %E 31
        CMP %E %F %E
        SKBC %E 1                  ; a is NaN ?
        JMP fm_nan
        BCLR %B %E 31
        CMP %E %F %E
        SKBC %E 1                  ; b is NaN ?
        JMP fm_nan
        JMP fm_inf
fm_nan: LI %A 0x7FC00000
        JMP fm_store
