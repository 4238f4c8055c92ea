/* The C runtime against hostile calls (crates/runtime-c/tests/c_hostile.rs builds and runs it
 * with the runtime tests' kernels): lengths far past a buffer, every NULL argument, an
 * argument block no buffer can hold, launches queued behind a kernel that never ends. Each
 * call must return its code with a message naming why, never abort or hang. Prints one line
 * per failed check and "hostile: PASS" or "hostile: FAIL". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "weft_runtime.h"

static int failures;

#define EXPECT(call, code, words)                                                          \
    do {                                                                                   \
        int rc_ = (call);                                                                  \
        const char *m_ = weft_last_error(d);                                               \
        if (rc_ != (code) || strstr(m_, (words)) == NULL) {                                \
            printf("FAILED %s -> %d (want %d): \"%s\" (want \"%s\")\n", #call, rc_, (code), \
                   m_, (words));                                                           \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

/* A call that succeeds, so that a stale message cannot pass for the next one's. */
#define OK(call) EXPECT(call, WEFT_OK, "")

int main(int argc, char **argv) {
    const char *src = argc > 1 ? argv[1] : "kernels.c";
    weft_device *d = NULL;
    char err[256] = "";
    if (weft_device_open_c(&src, 1, 1, 4, 8, NULL, err, sizeof err) != WEFT_E_ARGUMENT ||
        strstr(err, "out is NULL") == NULL) {
        printf("FAILED open with out NULL: \"%s\"\n", err);
        failures++;
    }
    if (strcmp(weft_last_error(NULL), "no device") != 0) failures++;
    if (weft_device_open_c(&src, 1, 1, 4, 8, &d, err, sizeof err) != WEFT_OK) {
        printf("open: %s\nhostile: FAIL\n", err);
        return 1;
    }
    weft_buffer a, flag, counter;
    uint8_t small[64] = {0};
    uint32_t zero[2] = {0, 0}, g[3] = {1, 1, 1}, b[3] = {8, 1, 1};
    OK(weft_alloc(d, 64, &a));
    OK(weft_alloc(d, 4, &flag));
    OK(weft_alloc(d, 8, &counter));
    OK(weft_write(d, flag, 0, zero, 4));
    OK(weft_write(d, counter, 0, zero, 8));

    /* Lengths far past the buffer: refused before anything is read, written or allocated. */
    EXPECT(weft_read(d, a, 0, small, (size_t)1 << 40), WEFT_E_BAD_ADDRESS, "bad device address");
    OK(weft_read(d, a, 0, small, 64));
    EXPECT(weft_write(d, a, 0, small, (size_t)1 << 40), WEFT_E_BAD_ADDRESS, "bad device address");
    EXPECT(weft_read(d, a, 60, small, SIZE_MAX), WEFT_E_BAD_ADDRESS, "bad device address");
    EXPECT(weft_read(d, a, UINT32_MAX, small, 1), WEFT_E_BAD_ADDRESS, "bad device address");
    EXPECT(weft_read(d, a, 0, small, 65), WEFT_E_BAD_ADDRESS, "bad device address");

    /* Every NULL argument, each after a success: its own message. */
    OK(weft_read(d, a, 0, small, 4));
    EXPECT(weft_alloc(d, 16, NULL), WEFT_E_ARGUMENT, "weft_alloc: out is NULL");
    OK(weft_read(d, a, 0, small, 4));
    EXPECT(weft_read(d, a, 0, NULL, 4), WEFT_E_ARGUMENT, "weft_read: dst is NULL");
    OK(weft_read(d, a, 0, small, 4));
    EXPECT(weft_write(d, a, 0, NULL, 4), WEFT_E_ARGUMENT, "weft_write: src is NULL");
    OK(weft_read(d, a, 0, small, 4));
    EXPECT(weft_launch_kernel(d, NULL, g, b, 0, NULL, 0), WEFT_E_ARGUMENT, "name is NULL");
    OK(weft_read(d, a, 0, small, 4));
    EXPECT(weft_launch_kernel(d, "record", NULL, b, 0, NULL, 0), WEFT_E_ARGUMENT, "grid or block");
    EXPECT(weft_launch_kernel(d, "record", g, NULL, 0, NULL, 0), WEFT_E_ARGUMENT, "grid or block");
    EXPECT(weft_launch_kernel(d, "record", g, b, 0, NULL, 8), WEFT_E_ARGUMENT, "args is NULL");
    OK(weft_read(d, a, 0, small, 4));
    /* An argument block no device buffer can hold: refused before it is read. */
    EXPECT(weft_launch_kernel(d, "record", g, b, 0, small, (size_t)1 << 40),
           WEFT_E_OUT_OF_MEMORY, "out of device memory");
    EXPECT(weft_wait(d, 0), WEFT_E_NOTHING_LAUNCHED, "nothing was launched");

    /* Launches behind a kernel that never ends return at once; the wait's limit bounds the
     * queue, and the launch behind the timeout is dropped. */
    uint32_t spin_args[1] = {flag.addr}, rec_args[2] = {counter.addr, 7};
    OK(weft_launch_kernel(d, "forever", g, b, 0, spin_args, sizeof spin_args));
    OK(weft_launch_kernel(d, "record", g, b, 0, rec_args, sizeof rec_args));
    if (weft_device_cycles(d) != 0) {
        printf("FAILED: a launch ran something (%llu cycles)\n",
               (unsigned long long)weft_device_cycles(d));
        failures++;
    }
    EXPECT(weft_wait(d, 200000), WEFT_E_TIMEOUT, "timeout");
    uint32_t log[2] = {1, 1};
    OK(weft_read(d, counter, 0, log, 8));
    if (log[0] != 0) printf("FAILED: the dropped launch ran\n"), failures++;
    EXPECT(weft_wait(d, 0), WEFT_E_NOTHING_LAUNCHED, "nothing was launched");
    /* The device goes on: a queued launch after all that runs. */
    OK(weft_launch_kernel(d, "record", g, b, 0, rec_args, sizeof rec_args));
    OK(weft_wait_for(d, 0, 60000));
    OK(weft_read(d, counter, 0, log, 8));
    if (log[0] != 1 || log[1] != 7) printf("FAILED: log %u %u\n", log[0], log[1]), failures++;

    weft_device_close(d);
    printf("hostile: %s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
