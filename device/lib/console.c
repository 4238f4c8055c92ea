/* The console and the kernel-output buffer of weft's device runtime.
 *
 * Console bytes are stores to 0xFFFF_FF00. When several lanes print at once their bytes would
 * interleave, so a write goes lane by lane (only one lane of a warp inside at a time) under a
 * lock shared by all warps and cores.
 *
 * Inside a launched kernel, printf appends a record (thread key, text) to a buffer after the
 * lanes' stacks; when the launch ends, core 0 sorts the records by thread (stable: one
 * thread's records stay in program order) and prints them, as CUDA buffers device printf. */
#include "weft.h"
#include "weft_internal.h"
#include <stdio.h>

#ifndef WEFT_PRINTF_BUFFER
#define WEFT_PRINTF_BUFFER (1u << 20)
#endif

static volatile uint32_t console_lock;

static void put_bytes(const char *s, size_t n) {
    volatile uint32_t *con = (volatile uint32_t *)0xFFFFFF00u;
    for (size_t i = 0; i < n; i++) *con = (uint8_t)s[i];
}

void __weft_console_write(const char *s, size_t n) {
    uint32_t lanes = weft_num_lanes(), me = weft_lane_id();
    for (uint32_t i = 0; i < lanes; i++) {
        if (i == me) {
            while (__atomic_exchange_n(&console_lock, 1, __ATOMIC_ACQUIRE) != 0) {
            }
            put_bytes(s, n);
            __atomic_store_n(&console_lock, 0, __ATOMIC_RELEASE);
        }
    }
}

void __weft_console_flush(void) {}

/* ---- the kernel output buffer ------------------------------------------------------------ */

struct rec {
    uint32_t key, len; /* then len bytes, padded to 4 */
};

static uint32_t fifo_used, fifo_dropped, fifo_on;

uint32_t __weft_fifo_bytes(void) { return WEFT_PRINTF_BUFFER; }

static char *fifo_base(void) { return __weft_heap_start(); }
/* Records use the first 60 %; the flush sorts an index of them in the rest. */
static uint32_t fifo_cap(void) { return WEFT_PRINTF_BUFFER / 10 * 6; }

void __weft_fifo_begin(void) {
    fifo_used = 0;
    fifo_dropped = 0;
    fifo_on = 1;
}

int __weft_fifo_active(void) { return fifo_on; }

int __weft_fifo_append(uint32_t key, const char *fmt, va_list ap) {
    va_list aq;
    va_copy(aq, ap);
    int len = vsnprintf(0, 0, fmt, aq);
    va_end(aq);
    uint32_t size = (uint32_t)(sizeof(struct rec) + (uint32_t)len + 4) & ~3u;
    uint32_t off = __atomic_fetch_add(&fifo_used, size, __ATOMIC_SEQ_CST);
    if (off + size > fifo_cap() || off + size < off) {
        /* Offsets only grow, so at most one failed reservation starts inside the buffer:
         * it marks the end of the records for the flush. */
        if (off < fifo_cap() && fifo_cap() - off >= sizeof(struct rec)) {
            struct rec *end = (struct rec *)(fifo_base() + off);
            end->key = 0xFFFFFFFFu;
            end->len = 0xFFFFFFFFu;
        }
        __atomic_fetch_add(&fifo_dropped, (uint32_t)len, __ATOMIC_SEQ_CST);
        return len;
    }
    struct rec *r = (struct rec *)(fifo_base() + off);
    r->key = key;
    r->len = (uint32_t)len;
    vsnprintf((char *)(r + 1), (size_t)len + 1, fmt, ap);
    return len;
}

static const struct rec *rec_at(uint32_t off) { return (const struct rec *)(fifo_base() + off); }

/* Stable bottom-up merge sort of record offsets by key. */
static void sort(uint32_t *a, uint32_t *tmp, uint32_t n) {
    for (uint32_t w = 1; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = rec_at(a[j])->key < rec_at(a[i])->key ? a[j++] : a[i++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        for (uint32_t i = 0; i < n; i++) a[i] = tmp[i];
    }
}

void __weft_fifo_flush(void) {
    if (!fifo_on) return;
    fifo_on = 0;
    uint32_t used = fifo_used < fifo_cap() ? fifo_used : fifo_cap();
    uint32_t n = 0;
    uint32_t *index = (uint32_t *)(fifo_base() + fifo_cap());
    uint32_t room = (WEFT_PRINTF_BUFFER - fifo_cap()) / 8;
    for (uint32_t off = 0; off + sizeof(struct rec) <= used;) {
        const struct rec *r = rec_at(off);
        if (r->len == 0xFFFFFFFFu) break; /* the end marker of a full buffer */
        uint32_t size = (uint32_t)(sizeof(struct rec) + r->len + 4) & ~3u;
        if (off + size > used) break;
        if (n < room) index[n++] = off;
        off += size;
    }
    sort(index, index + n, n);
    for (uint32_t i = 0; i < n; i++) {
        const struct rec *r = rec_at(index[i]);
        put_bytes((const char *)(r + 1), r->len);
    }
    if (fifo_dropped)
        weft_printf("weft: kernel printf buffer full (%u bytes); %u bytes of output dropped\n",
                    (unsigned)WEFT_PRINTF_BUFFER, (unsigned)fifo_dropped);
}
