; tiles.s — the SP v2a tiled demo.
;
; The framebuffer is cut into 8x8 tiles. Core i shades tiles i, i+N, i+2N, ... (N = CORE_COUNT)
; in row-major tile order. For each tile it fetches the 8 rows through the DMA unit (two
; batches of 4 scatter-gather slots, framebuffer -> local), shades every pixel in local
; memory, and writes the rows back (two batches, local -> framebuffer). The picture does not
; depend on N:
;     new(x, y) = old(x, y) XOR ( ((2x & 0xFF) << 16) | ((2y & 0xFF) << 8) | b )
;     b = 0xC0 if bit 3 of (x XOR y) is set, else 0x40     (an 8-pixel checkerboard)
; Width and height must be multiples of 8 (read from FB_WIDTH / FB_HEIGHT).

        .fb 128 96
        .equ BUF, 0x100            ; 64-dword tile buffer in local memory

        .data
w:       .word 0                   ; framebuffer width
tiles_x: .word 0
tiles_y: .word 0
ncores:  .word 0
tx:      .word 0                   ; current tile column
ty:      .word 0                   ; current tile row
base:    .word 0                   ; framebuffer address of the tile's top-left pixel

        .text
start:  LD %A FB_WIDTH
        ST %A w
        SHR %A %A 3
        ST %A tiles_x
        LD %A FB_HEIGHT
        SHR %A %A 3
        ST %A tiles_y
        LD %A CORE_COUNT
        ST %A ncores
        LD %A CORE_INDEX           ; first tile = core index
        LI %B 0

; (A, B) = (tile column, tile row) with A possibly >= tiles_x: carry into rows.
norm:   LD %C tiles_x
        CMP %A %C %D
        SKBC %D 3                  ; A < tiles_x ?  then done
        JMP normed
        SUB %A %C %A
        ADDI %B %B 1
        JMP norm
normed: ST %A tx
        ST %B ty
        LD %C tiles_y
        CMP %B %C %D
        SKBS %D 3                  ; ty < tiles_y ?  then shade this tile
        JMP finish
        SHL %B %B 3                ; base = 8*ty*w + 8*tx
        LD %C w
        MUL %B %C %B
        SHL %A %A 3
        ADD %A %B %A
        ST %A base

        LI %A 0                    ; fetch rows 0-3, then 4-7
        LI %B 0x80000000           ; direction: framebuffer -> local
        CALL dma4
        LI %A 4
        CALL dma4

        LI %A 0                    ; A = pixel index i in the tile, 0..63
shade:  LD %A %B BUF               ; B = old pixel
        LD %C tx
        SHL %C %C 3
        SHL %A %D 29
        SHR %D %D 29
        ADD %C %D %C               ; C = x = 8*tx + (i & 7)
        LD %D ty
        SHL %D %D 3
        SHR %A %E 3
        ADD %D %E %D               ; D = y = 8*ty + (i >> 3)
        XOR %C %D %E               ; E = x ^ y
        SHL %C %C 25
        SHR %C %C 8                ; C = (2x & 0xFF) << 16
        SHL %D %D 25
        SHR %D %D 16               ; D = (2y & 0xFF) << 8
        OR %C %D %C
        LI %F 0x40
        SKBC %E 3
        BSET %F %F 7               ; 0xC0 on odd checker squares
        OR %C %F %C
        XOR %B %C %B
        ST %B %A BUF
        ADDI %A %A 1
        SKBS %A 6                  ; i == 64 ?
        JMP shade

        LI %A 0                    ; write rows 0-3, then 4-7
        LI %B 0                    ; direction: local -> framebuffer
        CALL dma4
        LI %A 4
        CALL dma4

        LD %A tx                   ; next tile: column += N
        LD %C ncores
        ADD %A %C %A
        LD %B ty
        JMP norm

finish: LI %A 0
        ST %A HALT

; dma4: move tile rows A..A+3 between BUF and the framebuffer, one row per slot, and wait.
; In: %A first row, %B direction bit (0x80000000 = into local). Leaf routine: returns with
; JMP %G (no FNSETUP); clobbers %C..%F.
dma4:   LD %C base
        LD %D w
        MUL %A %D %E
        ADD %C %E %C               ; C = framebuffer address of row A
        SHL %A %E 3
        ADDI %E %E BUF             ; E = local address of row A
        BSET %E %E 19              ; count 8 (bits 16-27)
        OR %E %B %E                ; direction
        ST %E DMA_CMD0
        ST %C DMA_FB_ADDR0
        ADDI %E %E 8
        ADD %C %D %C
        ST %E DMA_CMD1
        ST %C DMA_FB_ADDR1
        ADDI %E %E 8
        ADD %C %D %C
        ST %E DMA_CMD2
        ST %C DMA_FB_ADDR2
        ADDI %E %E 8
        ADD %C %D %C
        ST %E DMA_CMD3
        ST %C DMA_FB_ADDR3
        LI %F 4
        ST %F DMA_CTRL             ; start 4 slots
wait:   LD %F DMA_CTRL             ; poll until idle
        SKZ %F
        JMP wait
        JMP %G
