/* A C++ kernel (a class template, a lambda-free kernel, nullptr): weft cc builds C++ too. */
#include <weft.h>
#include <stdio.h>
template <typename T> struct Acc { T v; void add(T x) { v += x; } };
static unsigned out[64];
static void k(void *) {
    Acc<unsigned> a{weft_global_thread()};
    for (unsigned i = 0; i < a.v % 5; i++) a.add(i * 3);
    out[weft_global_thread()] = a.v;
}
int main() {
    weft_launch(weft_dim3(2, 1, 1), weft_dim3(32, 1, 1), k, nullptr);
    unsigned s = 0;
    for (unsigned i = 0; i < 64; i++) s += out[i];
    printf("sum %u\n", s);
    return 0;
}
