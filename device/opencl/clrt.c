/* The OpenCL device library's C part: a kernel launch's entry (the argument block's header,
 * the block's __local variables), __local arguments, __tls_get_addr, the NDRange values the
 * work-item functions read, and OpenCL C's printf.
 *
 * A launch wrapper (crates/cc/src/opencl/ir.rs) calls __weft_cl_enter first in every
 * work-item, then __weft_cl_local for each __local argument: every work-item of a work-group
 * makes the same calls in the same order, so weft_shared_alloc gives them the same memory. */
#include <stdarg.h>
#include <stdint.h>
#include "weft.h"
#include "weft_internal.h"

/* The linker's size and alignment of the kernels' __local variables (the .tbss section). */
extern char __weft_tls_size[], __weft_tls_align[];

/* The argument block's header, as the host writes it. */
struct cl_ndrange {
    uint32_t work_dim, offset[3];
};
static const volatile struct cl_ndrange *ndrange;

static uint32_t tls_align(void) {
    uint32_t a = (uint32_t)(uintptr_t)__weft_tls_align;
    return a < 16 ? 16 : a;
}

void *__weft_cl_enter(void *args) {
    ndrange = args; /* the same value from every work-item */
    uint32_t n = (uint32_t)(uintptr_t)__weft_tls_size;
    if (n) weft_shared_alloc(n + tls_align() - 16);
    return (char *)args + 16;
}

void *__weft_cl_local(uint32_t bytes) { return weft_shared_alloc(bytes); }

/* A __local variable of the work-group: the offset the linker gave it in the .tbss section
 * (biased by 0x800, as RISC-V's dynamic TLS offsets are) from the start of the block's shared
 * memory, aligned as the section is. */
void *__tls_get_addr(const uint32_t *ti) {
    uint32_t a = tls_align();
    uint32_t base = (weft_self()->shared_base + a - 1) & ~(a - 1);
    return (void *)(uintptr_t)(base + 0x800u + ti[1]);
}

uint32_t __weft_cl_work_dim(void) { return ndrange->work_dim; }
uint32_t __weft_cl_offset(uint32_t d) { return d < 3 ? ndrange->offset[d] : 0; }

/* ---- printf ------------------------------------------------------------------------------ */

/* The text of one printf call, written out in pieces through weft_printf (which keeps a
 * kernel's output in work-item order). */
struct out {
    char b[200];
    uint32_t n;
};

static void out_flush(struct out *o) {
    if (o->n) weft_printf("%.*s", (int)o->n, o->b);
    o->n = 0;
}

static void sink(void *ctx, const char *s, size_t n) {
    struct out *o = ctx;
    for (size_t i = 0; i < n; i++) {
        if (o->n == sizeof o->b) out_flush(o);
        o->b[o->n++] = s[i];
    }
}

static int in(const char *set, char c) {
    for (; *set; set++)
        if (*set == c) return 1;
    return 0;
}

/* One C conversion of one value. */
static void put1(struct out *o, const char *spec, ...) {
    va_list ap;
    va_start(ap, spec);
    __weft_format(sink, o, spec, ap);
    va_end(ap);
}

/* An element of `bytes` bytes at p, formatted by `spec` (a C conversion without length). */
static void put_elem(struct out *o, const char *spec, char conv, uint32_t bytes, const void *p,
                     int is_signed) {
    char s[48];
    uint32_t n = 0;
    while (spec[n] && n < sizeof s - 4) {
        s[n] = spec[n];
        n++;
    }
    if (conv == 'f' || conv == 'F' || conv == 'e' || conv == 'E' || conv == 'g' ||
        conv == 'G' || conv == 'a' || conv == 'A') {
        s[n++] = conv;
        s[n] = 0;
        float f;
        __builtin_memcpy(&f, p, 4);
        put1(o, s, (double)f);
        return;
    }
    int64_t v;
    if (bytes == 8) {
        __builtin_memcpy(&v, p, 8);
    } else if (bytes == 4) {
        int32_t x;
        __builtin_memcpy(&x, p, 4);
        v = is_signed ? (int64_t)x : (int64_t)(uint32_t)x;
    } else if (bytes == 2) {
        int16_t x;
        __builtin_memcpy(&x, p, 2);
        v = is_signed ? (int64_t)x : (int64_t)(uint16_t)x;
    } else {
        int8_t x;
        __builtin_memcpy(&x, p, 1);
        v = is_signed ? (int64_t)x : (int64_t)(uint8_t)x;
    }
    s[n++] = 'l';
    s[n++] = 'l';
    s[n++] = conv;
    s[n] = 0;
    put1(o, s, (long long)v);
}

/* OpenCL C's printf (6.12.13): C's conversions, with `l` meaning 64 bits, floats passed as
 * they are (not promoted: the device has no double), and vector specifiers `vN` whose
 * elements print separated by commas. Returns 0, or -1 for a malformed format. */
int __weft_cl_printf(const char *fmt, ...) {
    struct out o;
    o.n = 0;
    va_list ap;
    va_start(ap, fmt);
    int status = 0;
    for (const char *p = fmt; *p;) {
        if (*p != '%') {
            sink(&o, p++, 1);
            continue;
        }
        if (p[1] == '%') {
            sink(&o, "%", 1);
            p += 2;
            continue;
        }
        /* flags, width, precision: copied into the C spec as they are */
        char spec[40];
        uint32_t n = 0;
        spec[n++] = *p++;
        while (*p && in("-+ #0", *p) && n < 30) spec[n++] = *p++;
        while (*p >= '0' && *p <= '9' && n < 30) spec[n++] = *p++;
        if (*p == '.') {
            spec[n++] = *p++;
            while (*p >= '0' && *p <= '9' && n < 30) spec[n++] = *p++;
        }
        spec[n] = 0;
        uint32_t vec = 0;
        if (*p == 'v') {
            p++;
            while (*p >= '0' && *p <= '9') vec = vec * 10 + (uint32_t)(*p++ - '0');
            if (vec != 2 && vec != 3 && vec != 4 && vec != 8 && vec != 16) {
                status = -1;
                break;
            }
        }
        /* length: element bytes of integers (floats are 4 bytes whatever it says) */
        uint32_t bytes = 4;
        if (p[0] == 'h' && p[1] == 'h') {
            bytes = 1;
            p += 2;
        } else if (p[0] == 'h' && p[1] == 'l') {
            bytes = 4;
            p += 2;
        } else if (p[0] == 'h') {
            bytes = 2;
            p++;
        } else if (p[0] == 'l') {
            bytes = 8;
            p++;
        }
        char conv = *p ? *p++ : 0;
        int is_float = conv && in("fFeEgGaA", conv);
        if (is_float) bytes = 4;
        if (!conv || !in("diouxXfFeEgGaAcsp", conv)) {
            status = -1;
            break;
        }
        if (vec == 0) {
            if (conv == 's' || conv == 'p' || conv == 'c') {
                spec[n++] = conv;
                spec[n] = 0;
                if (conv == 'c')
                    put1(&o, spec, va_arg(ap, int));
                else
                    put1(&o, spec, va_arg(ap, void *));
            } else if (is_float) {
                uint32_t w = va_arg(ap, uint32_t);
                put_elem(&o, spec, conv, 4, &w, 1);
            } else if (bytes == 8) {
                uint64_t w = va_arg(ap, uint64_t);
                put_elem(&o, spec, conv, 8, &w, conv == 'd' || conv == 'i');
            } else {
                uint32_t w = va_arg(ap, uint32_t);
                put_elem(&o, spec, conv, bytes, &w, conv == 'd' || conv == 'i');
            }
            continue;
        }
        /* a vector: up to 8 bytes in argument slots, larger ones by reference */
        uint32_t stored = (vec == 3 ? 4 : vec) * bytes;
        uint8_t local[8];
        const uint8_t *elems;
        if (stored > 8) {
            elems = va_arg(ap, const uint8_t *);
        } else if (stored == 8) {
            uint64_t w = va_arg(ap, uint64_t);
            __builtin_memcpy(local, &w, 8);
            elems = local;
        } else {
            uint32_t w = va_arg(ap, uint32_t);
            __builtin_memcpy(local, &w, 4);
            elems = local;
        }
        if (conv == 's' || conv == 'p' || conv == 'c') {
            status = -1;
            break;
        }
        for (uint32_t i = 0; i < vec; i++) {
            if (i) sink(&o, ",", 1);
            put_elem(&o, spec, conv, bytes, elems + i * bytes, conv == 'd' || conv == 'i');
        }
    }
    va_end(ap);
    out_flush(&o);
    return status;
}
