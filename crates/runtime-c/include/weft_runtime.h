/* weft_runtime.h — drive a weft device from C or C++ (the C ABI of crates/runtime).
 *
 * Link with -lweft_runtime_c (target/release/libweft_runtime_c.so). Every call returns WEFT_OK or
 * an error code; weft_last_error() gives the message of the last failed call on that device.
 * The kernels are built by `weft cc` and launched by name (mark them WEFT_KERNEL); an
 * argument block is the bytes of the kernel's argument struct as the device lays it out
 * (ILP32: a device pointer is a uint32_t, a buffer's .addr). See docs/runtime.md. */
#ifndef WEFT_RUNTIME_H
#define WEFT_RUNTIME_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct weft_device weft_device;

/* A device buffer. */
typedef struct {
    uint32_t addr; /* device address */
    uint32_t len;  /* bytes */
} weft_buffer;

enum {
    WEFT_OK = 0,
    WEFT_E_OUT_OF_MEMORY = 1,
    WEFT_E_BAD_ADDRESS = 2,
    WEFT_E_NO_SUCH_KERNEL = 3,
    WEFT_E_KERNEL_FAULT = 4,
    WEFT_E_TIMEOUT = 5,
    WEFT_E_DEADLOCK = 6,
    WEFT_E_KERNEL_EXIT = 7,
    WEFT_E_LOAD = 8,
    WEFT_E_ARGUMENT = 9,
    WEFT_E_NOTHING_LAUNCHED = 10
};

/* Open a device of cores x warps x lanes running the kernel program at `elf_path` (built by
 * weft cc), or built now from `n` C sources. On failure *out is NULL and, when `err` is not
 * NULL, up to err_len bytes of the message are copied there. */
int weft_device_open(const char *elf_path, uint32_t cores, uint32_t warps, uint32_t lanes,
                     weft_device **out, char *err, size_t err_len);
int weft_device_open_c(const char *const *sources, size_t n, uint32_t cores, uint32_t warps,
                       uint32_t lanes, weft_device **out, char *err, size_t err_len);
/* Open a device described by machine-configuration TOML (the keys of `weft run --config`,
 * docs/configuration.md): shape, caches, scheduler, and `timing = true` for the cycle-level
 * timing model (the same results, with cycle counts and timing counters in the stats), or
 * `backend = "functional" | "timing" | "rtl"`: "rtl" runs weft's SystemVerilog core under
 * Verilator (one core of the configured warps and lanes; the same results; the stats are the
 * RTL's, "cycles" its clock cycles; docs/runtime.md). */
int weft_device_open_config(const char *elf_path, const char *config_toml, weft_device **out,
                            char *err, size_t err_len);
int weft_device_open_c_config(const char *const *sources, size_t n, const char *config_toml,
                              weft_device **out, char *err, size_t err_len);
void weft_device_close(weft_device *d);

/* The message of the last call on `d`: why it failed (every failure has one, a NULL argument
 * too), or "" after a call that succeeded. Valid until the next call on `d`; with `d` NULL,
 * "no device". */
const char *weft_last_error(const weft_device *d);

int weft_alloc(weft_device *d, uint32_t bytes, weft_buffer *out);
int weft_free(weft_device *d, weft_buffer b);
/* Copy n bytes into / out of buffer b at offset. A range outside the buffer is
 * WEFT_E_BAD_ADDRESS, refused before src or dst is touched (or anything allocated). Copies act
 * at once, on memory as it is now: queued launches run only at weft_wait. */
int weft_write(weft_device *d, weft_buffer b, uint32_t offset, const void *src, size_t n);
int weft_read(weft_device *d, weft_buffer b, uint32_t offset, void *dst, size_t n);

/* Queue a launch of kernel `name` over grid[3] blocks of block[3] threads; `args` (args_len
 * bytes) is copied to the device now and the kernel receives a pointer to it. Nothing runs
 * here: the launch waits behind any launch already queued, and weft_wait runs them all in
 * order, so this returns at once whatever the launches before it do. */
int weft_launch_kernel(weft_device *d, const char *name, const uint32_t grid[3],
                       const uint32_t block[3], uint32_t shared_bytes, const void *args,
                       size_t args_len);
/* Load another kernel program onto the device — an ELF built by weft cc, or built now from
 * `n` C sources — and set *module to its number (the program the device was opened with is
 * 0). Its kernels launch with weft_launch_module_kernel, on the device's buffers; a launch
 * swaps its program in when another one is resident (each program keeps its own globals).
 * Load programs before allocating buffers: a program larger than those loaded so far needs
 * memory where buffers may lie, and is then WEFT_E_LOAD. */
int weft_module_load(weft_device *d, const char *elf_path, uint32_t *module);
int weft_module_load_c(weft_device *d, const char *const *sources, size_t n, uint32_t *module);
/* weft_launch_kernel for a kernel of program `module` (0: the device's own; a number no
 * load gave is WEFT_E_LOAD, a name not in that program WEFT_E_NO_SUCH_KERNEL). */
int weft_launch_module_kernel(weft_device *d, uint32_t module, const char *name,
                              const uint32_t grid[3], const uint32_t block[3],
                              uint32_t shared_bytes, const void *args, size_t args_len);
/* Run the queued launches in order to their end; max_cycles (0 = no limit) bounds them all.
 * The first launch that fails ends the wait with its error, and the launches queued behind it
 * are dropped. With nothing queued: WEFT_E_NOTHING_LAUNCHED. */
int weft_wait(weft_device *d, uint64_t max_cycles);
/* The same with a host-time limit too (max_ms milliseconds; 0 = none): WEFT_E_TIMEOUT. */
int weft_wait_for(weft_device *d, uint64_t max_cycles, uint64_t max_ms);

/* Cycles run so far. */
uint64_t weft_device_cycles(const weft_device *d);
/* The statistics as JSON (what `weft run --stats-json` writes; a timing device adds its
 * "timing" object): up to len bytes copied to buf, NUL-terminated; returns the size needed. */
size_t weft_stats_json(const weft_device *d, char *buf, size_t len);
/* One kernel launch's own counters as JSON (cycles, warp/thread instructions, SIMD
 * efficiency, divergences, memory; a timing device adds its "timing" share): launch `index`
 * from 0, or from the end when negative (-1 = the last launch). Copied as weft_stats_json
 * does; returns the size needed, or 0 (and an empty string) if there is no such launch. */
size_t weft_launch_stats_json(const weft_device *d, int64_t index, char *buf, size_t len);
/* Copy up to cap-1 bytes of the console output so far (and a NUL) into buf, taking it;
 * returns the length of the whole output. */
size_t weft_take_output(weft_device *d, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
