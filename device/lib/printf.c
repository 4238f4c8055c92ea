/* printf for weft kernels: the formatter (integers, strings and exactly rounded decimal
 * floating point, as a C library prints them), the console, and the C stdio entry points.
 *
 * Floating-point conversions are exact: a double m·2^e is turned into the decimal integer
 * m·5^k (k = −e) or m·2^e in base-10^9 limbs, then rounded to the requested digits with ties
 * to even, which is what glibc prints in the default rounding mode. */
#include "weft.h"
#include "weft_internal.h"
#include <stdio.h>

#define F_MINUS 1
#define F_PLUS 2
#define F_SPACE 4
#define F_HASH 8
#define F_ZERO 16

struct spec {
    int flags, width, prec; /* prec < 0: none */
    char conv;
};

static void pad(weft_sink out, void *ctx, char c, int n) {
    char buf[16];
    for (int i = 0; i < 16; i++) buf[i] = c;
    while (n > 0) {
        int k = n < 16 ? n : 16;
        out(ctx, buf, (size_t)k);
        n -= k;
    }
}

/* Emit prefix + (zeros) + body with the field width rules; returns the length. */
static int field(weft_sink out, void *ctx, const struct spec *s, const char *prefix, int plen,
                 int zeros, const char *body, int blen) {
    int len = plen + zeros + blen;
    int fill = s->width > len ? s->width - len : 0;
    if (!(s->flags & F_MINUS) && !(s->flags & F_ZERO)) pad(out, ctx, ' ', fill);
    out(ctx, prefix, (size_t)plen);
    if (!(s->flags & F_MINUS) && (s->flags & F_ZERO)) pad(out, ctx, '0', fill);
    pad(out, ctx, '0', zeros);
    out(ctx, body, (size_t)blen);
    if (s->flags & F_MINUS) pad(out, ctx, ' ', fill);
    return len + fill;
}

static int fmt_int(weft_sink out, void *ctx, struct spec *s, uint64_t v, int neg) {
    char buf[24];
    int n = 0;
    unsigned base = s->conv == 'o' ? 8 : (s->conv == 'x' || s->conv == 'X' || s->conv == 'p') ? 16 : 10;
    const char *dig = s->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    uint64_t u = v;
    while (u >> 32 != 0) {
        buf[sizeof buf - 1 - n++] = dig[u % base];
        u /= base;
    }
    for (uint32_t w = (uint32_t)u; w != 0; w /= base) buf[sizeof buf - 1 - n++] = dig[w % base];
    char prefix[3];
    int plen = 0;
    if (neg) prefix[plen++] = '-';
    else if (s->conv == 'd' || s->conv == 'i') {
        if (s->flags & F_PLUS) prefix[plen++] = '+';
        else if (s->flags & F_SPACE) prefix[plen++] = ' ';
    }
    if (((s->flags & F_HASH) && v != 0 && (s->conv == 'x' || s->conv == 'X')) || s->conv == 'p') {
        prefix[plen++] = '0';
        prefix[plen++] = s->conv == 'X' ? 'X' : 'x';
    }
    int prec = s->prec < 0 ? 1 : s->prec;
    int zeros = prec > n ? prec - n : 0;
    if (s->conv == 'o' && (s->flags & F_HASH) && zeros == 0 && (n == 0 || buf[sizeof buf - n] != '0'))
        zeros = 1;
    if (s->prec >= 0) s->flags &= ~F_ZERO;
    return field(out, ctx, s, prefix, plen, zeros, buf + sizeof buf - n, n);
}

/* ---- exact decimal digits of a double ------------------------------------------------------ */

#define LIMBS 200
struct big {
    uint32_t l[LIMBS]; /* base 10^4, little-endian: every step fits 32-bit arithmetic */
    int n;
};

static void big_mul(struct big *b, uint32_t f) { /* f <= 15625 */
    uint32_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint32_t t = b->l[i] * f + carry;
        b->l[i] = t % 10000u;
        carry = t / 10000u;
    }
    while (carry != 0 && b->n < LIMBS) {
        b->l[b->n++] = carry % 10000u;
        carry /= 10000u;
    }
}

/* Digits of |d| (d finite, non-zero): d = 0.D × 10^dp. Returns the digit count. */
static int exact_digits(uint64_t bits, char *digits, int *dp) {
    int exp = (int)((bits >> 52) & 0x7FF);
    uint32_t hi = (uint32_t)(bits >> 32) & 0xFFFFFu, lo = (uint32_t)bits;
    if (exp == 0) exp = 1;
    else hi |= 1u << 20;
    exp -= 1075; /* d = m × 2^exp, m = hi:lo (53 bits) */
    struct big b;
    /* m in base 10^4: m = hi·2^32 + lo, built as ((hi·2^16) + lo_hi)·2^16 + lo_lo */
    b.n = 1;
    b.l[0] = 0;
    uint32_t parts[4] = {hi >> 16, hi & 0xFFFFu, lo >> 16, lo & 0xFFFFu};
    for (int i = 0; i < 4; i++) {
        /* b = b·2^16 + part: 2^16 = 16·4096 keeps every step under the 15625 bound */
        big_mul(&b, 16);
        big_mul(&b, 4096);
        uint32_t carry = parts[i];
        for (int j = 0; carry != 0; j++) {
            if (j == b.n) b.l[b.n++] = 0;
            uint32_t t = b.l[j] + carry;
            b.l[j] = t % 10000u;
            carry = t / 10000u;
        }
    }
    int k = 0;
    if (exp >= 0) {
        for (int e = exp; e > 0; e -= 13) big_mul(&b, 1u << (e < 13 ? e : 13));
    } else {
        k = -exp;
        for (int e = k; e > 0; e -= 6) {
            uint32_t f = 1;
            for (int i = 0; i < (e < 6 ? e : 6); i++) f *= 5;
            big_mul(&b, f);
        }
    }
    while (b.n > 1 && b.l[b.n - 1] == 0) b.n--;
    int n = 0;
    char tmp[4];
    for (int i = b.n - 1; i >= 0; i--) {
        uint32_t v = b.l[i];
        for (int j = 3; j >= 0; j--) {
            tmp[j] = (char)('0' + v % 10);
            v /= 10;
        }
        int start = 0;
        if (i == b.n - 1)
            while (start < 3 && tmp[start] == '0') start++;
        for (int j = start; j < 4; j++) digits[n++] = tmp[j];
    }
    *dp = n - k;
    /* drop trailing zeros (they carry no information) */
    while (n > 1 && digits[n - 1] == '0') n--;
    return n;
}

/* Keep the first `keep` digits, rounding the rest off with ties to even. */
static int round_digits(char *d, int n, int keep, int *dp) {
    if (keep >= n) return n;
    if (keep < 0) return 0;
    int up;
    char first = d[keep];
    if (first > '5') up = 1;
    else if (first < '5') up = 0;
    else {
        up = 0;
        for (int i = keep + 1; i < n; i++)
            if (d[i] != '0') up = 1;
        if (!up) up = keep > 0 && ((d[keep - 1] - '0') & 1);
    }
    n = keep;
    if (up) {
        int i = n - 1;
        while (i >= 0 && d[i] == '9') d[i--] = '0';
        if (i >= 0) d[i]++;
        else {
            for (int j = n; j > 0; j--) d[j] = d[j - 1];
            d[0] = '1';
            n++;
            (*dp)++;
        }
    }
    return n;
}

static char digit_at(const char *d, int n, int i) { return i >= 0 && i < n ? d[i] : '0'; }

static int fmt_float(weft_sink out, void *ctx, struct spec *s, double v) {
    union {
        double d;
        uint64_t u;
    } x = {v};
    int neg = (int)(x.u >> 63);
    uint64_t bits = x.u & 0x7FFFFFFFFFFFFFFFull;
    int upper = s->conv == 'F' || s->conv == 'E' || s->conv == 'G';
    char prefix[2];
    int plen = 0;
    if (neg) prefix[plen++] = '-';
    else if (s->flags & F_PLUS) prefix[plen++] = '+';
    else if (s->flags & F_SPACE) prefix[plen++] = ' ';
    if (bits >= 0x7FF0000000000000ull) {
        const char *t = bits == 0x7FF0000000000000ull ? (upper ? "INF" : "inf") : (upper ? "NAN" : "nan");
        s->flags &= ~F_ZERO;
        return field(out, ctx, s, prefix, plen, 0, t, 3);
    }
    char d[800];
    int dp = 1, n;
    if (bits == 0) {
        d[0] = '0';
        n = 1;
        dp = 1;
    } else {
        n = exact_digits(bits, d, &dp);
    }
    int prec = s->prec < 0 ? 6 : s->prec;
    char conv = s->conv | 32; /* lower case */
    int strip = 0;
    if (conv == 'g') {
        int p = prec == 0 ? 1 : prec;
        int dp2 = dp;
        char tmp[800];
        for (int i = 0; i < n; i++) tmp[i] = d[i];
        int n2 = bits == 0 ? 1 : round_digits(tmp, n, p, &dp2);
        (void)n2;
        int x10 = bits == 0 ? 0 : dp2 - 1;
        if (p > x10 && x10 >= -4) {
            conv = 'f';
            prec = p - 1 - x10;
        } else {
            conv = 'e';
            prec = p - 1;
        }
        strip = !(s->flags & F_HASH);
    }
    char body[1100];
    int bl = 0;
    if (conv == 'f') {
        if (bits != 0) n = round_digits(d, n, dp + prec, &dp);
        if (n == 0) dp = 1;
        if (dp <= 0) body[bl++] = '0';
        for (int i = 0; i < dp && bl < 400; i++) body[bl++] = digit_at(d, n, i);
        int frac_start = bl;
        if (prec > 0 || (s->flags & F_HASH)) body[bl++] = '.';
        for (int i = 0; i < prec && bl < (int)sizeof body - 8; i++) body[bl++] = digit_at(d, n, dp + i);
        if (strip && prec > 0) {
            while (bl > frac_start + 1 && body[bl - 1] == '0') bl--;
            if (body[bl - 1] == '.') bl--;
        }
    } else {
        int e10 = 0;
        if (bits != 0) {
            n = round_digits(d, n, prec + 1, &dp);
            e10 = dp - 1;
        }
        body[bl++] = bits != 0 ? digit_at(d, n, 0) : '0';
        int frac_start = bl;
        if (prec > 0 || (s->flags & F_HASH)) body[bl++] = '.';
        for (int i = 1; i <= prec && bl < (int)sizeof body - 8; i++) body[bl++] = bits != 0 ? digit_at(d, n, i) : '0';
        if (strip && prec > 0) {
            while (bl > frac_start + 1 && body[bl - 1] == '0') bl--;
            if (body[bl - 1] == '.') bl--;
        }
        body[bl++] = upper ? 'E' : 'e';
        body[bl++] = e10 < 0 ? '-' : '+';
        unsigned ae = (unsigned)(e10 < 0 ? -e10 : e10);
        if (ae >= 100) body[bl++] = (char)('0' + ae / 100);
        body[bl++] = (char)('0' + ae / 10 % 10);
        body[bl++] = (char)('0' + ae % 10);
    }
    return field(out, ctx, s, prefix, plen, 0, body, bl);
}

/* ---- the format loop ------------------------------------------------------------------- */

int __weft_format(weft_sink out, void *ctx, const char *fmt, va_list ap) {
    int total = 0;
    while (*fmt) {
        if (*fmt != '%') {
            const char *start = fmt;
            while (*fmt && *fmt != '%') fmt++;
            out(ctx, start, (size_t)(fmt - start));
            total += (int)(fmt - start);
            continue;
        }
        fmt++;
        struct spec s = {0, 0, -1, 0};
        for (;; fmt++) {
            if (*fmt == '-') s.flags |= F_MINUS;
            else if (*fmt == '+') s.flags |= F_PLUS;
            else if (*fmt == ' ') s.flags |= F_SPACE;
            else if (*fmt == '#') s.flags |= F_HASH;
            else if (*fmt == '0') s.flags |= F_ZERO;
            else break;
        }
        if (*fmt == '*') {
            s.width = va_arg(ap, int);
            if (s.width < 0) {
                s.flags |= F_MINUS;
                s.width = -s.width;
            }
            fmt++;
        } else {
            while (*fmt >= '0' && *fmt <= '9') s.width = s.width * 10 + (*fmt++ - '0');
        }
        if (*fmt == '.') {
            fmt++;
            s.prec = 0;
            if (*fmt == '*') {
                s.prec = va_arg(ap, int);
                if (s.prec < 0) s.prec = -1;
                fmt++;
            } else {
                while (*fmt >= '0' && *fmt <= '9') s.prec = s.prec * 10 + (*fmt++ - '0');
            }
        }
        if (s.flags & F_MINUS) s.flags &= ~F_ZERO;
        int len = 0; /* 0 int, 1 long, 2 long long, -1 short, -2 char, 3 long double */
        for (;; fmt++) {
            if (*fmt == 'l') len = len == 1 ? 2 : 1;
            else if (*fmt == 'h') len = len == -1 ? -2 : -1;
            else if (*fmt == 'z' || *fmt == 't') len = 1;
            else if (*fmt == 'j') len = 2;
            else if (*fmt == 'L') len = 3;
            else break;
        }
        s.conv = *fmt;
        if (*fmt) fmt++;
        switch (s.conv) {
        case 'd':
        case 'i': {
            int64_t v = len == 2 ? va_arg(ap, long long) : len == 1 ? va_arg(ap, long) : va_arg(ap, int);
            if (len == -1) v = (short)v;
            if (len == -2) v = (signed char)v;
            total += fmt_int(out, ctx, &s, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, v < 0);
            break;
        }
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
            uint64_t v = len == 2 ? va_arg(ap, unsigned long long)
                         : len == 1 ? va_arg(ap, unsigned long)
                                    : va_arg(ap, unsigned int);
            if (len == -1) v = (unsigned short)v;
            if (len == -2) v = (unsigned char)v;
            total += fmt_int(out, ctx, &s, v, 0);
            break;
        }
        case 'p': {
            void *p = va_arg(ap, void *);
            if (!p) {
                s.prec = -1;
                s.flags &= ~F_ZERO;
                total += field(out, ctx, &s, "", 0, 0, "(nil)", 5);
            } else {
                total += fmt_int(out, ctx, &s, (uintptr_t)p, 0);
            }
            break;
        }
        case 'c': {
            char c = (char)va_arg(ap, int);
            s.flags &= ~F_ZERO;
            total += field(out, ctx, &s, "", 0, 0, &c, 1);
            break;
        }
        case 's': {
            const char *str = va_arg(ap, const char *);
            if (!str) str = (s.prec < 0 || s.prec >= 6) ? "(null)" : "";
            int n = 0;
            while (str[n] && (s.prec < 0 || n < s.prec)) n++;
            s.flags &= ~F_ZERO;
            total += field(out, ctx, &s, "", 0, 0, str, n);
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G': {
            double v = len == 3 ? (double)va_arg(ap, long double) : va_arg(ap, double);
            total += fmt_float(out, ctx, &s, v);
            break;
        }
        case '%':
            out(ctx, "%", 1);
            total++;
            break;
        case 'n':
            *va_arg(ap, int *) = total;
            break;
        default: /* unknown conversion: print it as written */
            out(ctx, "%", 1);
            if (s.conv) out(ctx, &s.conv, 1);
            total += s.conv ? 2 : 1;
            break;
        }
    }
    return total;
}

/* ---- sinks ------------------------------------------------------------------------------ */

struct strbuf {
    char *p;
    size_t n, len;
};

static void str_sink(void *ctx, const char *s, size_t n) {
    struct strbuf *b = ctx;
    for (size_t i = 0; i < n; i++, b->len++)
        if (b->len + 1 < b->n) b->p[b->len] = s[i];
}

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) {
    struct strbuf b = {buf, n, 0};
    int r = __weft_format(str_sink, &b, fmt, ap);
    if (n > 0) buf[b.len < n ? b.len : n - 1] = 0;
    return r;
}

int snprintf(char *buf, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

int sprintf(char *buf, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(buf, (size_t)-1 / 2, fmt, ap);
    va_end(ap);
    return r;
}

/* Direct console output: a line buffer per lane, written out under the console lock. */
struct linebuf {
    char b[128];
    size_t n;
};

static void line_sink(void *ctx, const char *s, size_t n) {
    struct linebuf *l = ctx;
    for (size_t i = 0; i < n; i++) {
        if (l->n == sizeof l->b) {
            __weft_console_write(l->b, l->n);
            l->n = 0;
        }
        l->b[l->n++] = s[i];
    }
}

int weft_vprintf(const char *fmt, va_list ap) {
    weft_thread *t = weft_self();
    if (t->in_kernel && __weft_fifo_active()) return __weft_fifo_append(weft_global_thread(), fmt, ap);
    struct linebuf l;
    l.n = 0;
    int r = __weft_format(line_sink, &l, fmt, ap);
    __weft_console_write(l.b, l.n);
    return r;
}

int weft_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = weft_vprintf(fmt, ap);
    va_end(ap);
    return r;
}

int printf(const char *fmt, ...) __attribute__((alias("weft_printf")));
int vprintf(const char *fmt, va_list ap) __attribute__((alias("weft_vprintf")));

int putchar(int c) {
    weft_printf("%c", c);
    return (unsigned char)c;
}

int puts(const char *s) { return weft_printf("%s\n", s); }
