/* Every printf conversion the runtime implements, over values chosen to hit rounding ties,
 * carries, subnormals, huge and tiny magnitudes, and the flag/width/precision rules; the test
 * compares the device's output with the host C library's, byte for byte. */
#include <stdint.h>
#include <stdio.h>
#include <weft.h>

static uint32_t s = 2463534242u;
static uint32_t rnd(void) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

static double rnd_double(void) {
    union { uint64_t u; double d; } v;
    do {
        v.u = ((uint64_t)rnd() << 32) | rnd();
    } while (((v.u >> 52) & 0x7FF) == 0x7FF);
    return v.d;
}

static const double fixed[] = {0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 9.5, 99.5, 999.5,
                               0.05, 0.15, 0.25, 0.35, 1e-5, 123456.789, 1e15, 1e16, 1e17,
                               1.0 / 3, 2.0 / 3, 3.14159265358979, 2.718281828459045, 1e-300,
                               4.9e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                               0.0001, 0.00001234, 123456789.0, 9.9999995, 0.99999999, 1e100,
                               5e-5, 65536.0, 16777217.0, -1e-7};

int main(void) {
    const char *ffmt[] = {"%f", "%.0f", "%.1f", "%.3f", "%.10f", "%e", "%.0e", "%.3e", "%.12e",
                          "%g", "%.0g", "%.1g", "%.3g", "%.10g", "%#g", "%#.0f", "%#.0e", "%+f",
                          "% e", "%12.3f", "%-12.3e|", "%012.4f", "%E", "%G", "%.17g", "%20.15e"};
    unsigned nf = sizeof ffmt / sizeof *ffmt;
    for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++)
        for (unsigned j = 0; j < nf; j++) {
            printf(ffmt[j], fixed[i]);
            printf("\n");
        }
    for (int i = 0; i < 150; i++) {
        double d = rnd_double();
        printf(ffmt[rnd() % nf], d);
        printf(" %.6e %g\n", d, d);
        float f = (float)(int32_t)rnd() / (float)(1 << (rnd() % 31));
        printf("%f %.9g %e\n", f, f, f);
    }
    int iv[] = {0, 1, -1, 42, -42, 2147483647, -2147483647 - 1, 1000000, 7};
    const char *ifmt[] = {"%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%.3d", "%8.3d", "%x",
                          "%X", "%#x", "%#o", "%o", "%u", "%.0d", "%#.0o", "%hhd", "%hd", "%c"};
    for (unsigned i = 0; i < sizeof iv / sizeof *iv; i++)
        for (unsigned j = 0; j < sizeof ifmt / sizeof *ifmt; j++) {
            if (ifmt[j][1] == 'c' && (iv[i] < 32 || iv[i] > 126)) continue;
            printf(ifmt[j], iv[i]);
            printf("\n");
        }
    long long ll[] = {0, -1, 9223372036854775807LL, -9223372036854775807LL - 1, 123456789012345LL};
    for (unsigned i = 0; i < 5; i++)
        printf("%lld %llu %llx %20lld %-20lld| %.25lld\n", ll[i], (unsigned long long)ll[i],
               (unsigned long long)ll[i], ll[i], ll[i], ll[i]);
    printf("%s|%10s|%-10s|%.2s|%c%c|%%|%5c|\n", "weft", "gpu", "simt", "abc", 'o', 'k', 'z');
    printf("%*d|%-*d|%.*f|%*.*e\n", 6, 42, 6, 42, 2, 3.14159, 12, 3, 2.5e-3);
    char buf[16];
    int n = snprintf(buf, sizeof buf, "%s-%d-%.2f", "truncated", 12345, 6.789);
    printf("%d [%s]\n", n, buf);
    printf("%lu %zu %ld\n", 4000000000ul, (size_t)12, -5l);
    return 0;
}
