/* vortex2.h for weft's libvortex.so.
 *
 * The declarations of Vortex v3.0's asynchronous host API with the same ABI as Vortex's own
 * header (sw/runtime/include/vortex2.h), so that a host program can be built without Vortex's
 * sources. Programs that have Vortex's headers should use those; they link with weft's
 * library unchanged. The semantics weft gives each call are in docs/vortex.md.
 */
#ifndef WEFT_VORTEX2_H
#define WEFT_VORTEX2_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Handles. Devices and buffers are plain pointers, the rest opaque structs. */
typedef void *vx_device_h;
typedef void *vx_buffer_h;
typedef struct vx_queue *vx_queue_h;
typedef struct vx_event *vx_event_h;
typedef struct vx_module *vx_module_h;
typedef struct vx_kernel *vx_kernel_h;

/* vx_device_query ids. */
#define VX_CAPS_VERSION 0x0
#define VX_CAPS_NUM_THREADS 0x1
#define VX_CAPS_NUM_WARPS 0x2
#define VX_CAPS_NUM_CORES 0x3
#define VX_CAPS_CACHE_LINE_SIZE 0x4
#define VX_CAPS_GLOBAL_MEM_SIZE 0x5
#define VX_CAPS_LOCAL_MEM_SIZE 0x6
#define VX_CAPS_ISA_FLAGS 0x7
#define VX_CAPS_NUM_MEM_BANKS 0x8
#define VX_CAPS_MEM_BANK_SIZE 0x9
#define VX_CAPS_NUM_CLUSTERS 0xA
#define VX_CAPS_SOCKET_SIZE 0xB
#define VX_CAPS_ISSUE_WIDTH 0xC
#define VX_CAPS_CLOCK_RATE 0xD
#define VX_CAPS_PEAK_MEM_BW 0xE
#define VX_CAPS_VM_SUPPORT 0xF
#define VX_CAPS_VM_PINNED_SIZE 0x10
#define VX_CAPS_VM_PINNED_FREE 0x11

/* VX_CAPS_ISA_FLAGS bits: misa's standard letters, then Vortex's extensions from bit 32. */
#define VX_ISA_STD_A (1ull << 0)
#define VX_ISA_STD_F (1ull << 5)
#define VX_ISA_STD_I (1ull << 8)
#define VX_ISA_STD_M (1ull << 12)
#define VX_ISA_EXT_LMEM (1ull << 36)
#define VX_ISA_EXT_TCU (1ull << 41)
#define VX_ISA_EXT_DXA (1ull << 42)

/* Buffer access flags. */
#define VX_MEM_READ 0x1
#define VX_MEM_WRITE 0x2
#define VX_MEM_READ_WRITE 0x3
#define VX_MEM_PIN_MEMORY 0x4
#define VX_MEM_PHYS 0x8
#define VX_MEM_HOST 0x10

typedef enum {
    VX_SUCCESS = 0,
    VX_ERR_INVALID_HANDLE = 1,
    VX_ERR_INVALID_INFO = 2,
    VX_ERR_INVALID_VALUE = 3,
    VX_ERR_OUT_OF_HOST_MEMORY = 4,
    VX_ERR_OUT_OF_DEVICE_MEMORY = 5,
    VX_ERR_DEVICE_LOST = 6,
    VX_ERR_TIMEOUT = 7,
    VX_ERR_EVENT_FAILED = 8,
    VX_ERR_NOT_SUPPORTED = 9,
    VX_ERR_INTERNAL = 10
} vx_result_t;

typedef enum {
    VX_QUEUE_PRIORITY_LOW = 0,
    VX_QUEUE_PRIORITY_NORMAL = 1,
    VX_QUEUE_PRIORITY_HIGH = 2
} vx_queue_priority_e;

#define VX_QUEUE_PROFILING_ENABLE (1u << 0)
#define VX_TIMEOUT_INFINITE ((uint64_t)-1)

typedef struct {
    size_t struct_size; /* sizeof(vx_queue_info_t) */
    const void *next;
    vx_queue_priority_e priority;
    uint32_t flags; /* VX_QUEUE_PROFILING_ENABLE */
} vx_queue_info_t;

typedef struct {
    size_t struct_size; /* sizeof(vx_launch_info_t) */
    const void *next;
    vx_kernel_h kernel;    /* NULL: the entry DCRs as the host wrote them */
    const void *args_host; /* copied at enqueue; NULL: the argument DCR as written */
    size_t args_size;
    uint32_t ndim; /* 1..3; 0: the grid DCRs as written */
    uint32_t grid_dim[3];
    uint32_t block_dim[3];
    uint32_t lmem_size; /* local memory per CTA, bytes */
    uint32_t cluster_dim[3];
} vx_launch_info_t;

typedef struct {
    size_t struct_size; /* sizeof(vx_rect_info_t) */
    const void *next;
    size_t buffer_origin[3]; /* bytes, rows, slices */
    size_t host_origin[3];
    size_t region[3]; /* bytes per row, rows, slices */
    size_t buffer_row_pitch;
    size_t buffer_slice_pitch;
    size_t host_row_pitch;
    size_t host_slice_pitch;
} vx_rect_info_t;

typedef struct {
    uint64_t queued_ns;
    uint64_t submit_ns;
    uint64_t start_ns;
    uint64_t end_ns;
} vx_profile_info_t;

const char *vx_result_string(vx_result_t r);

/* Devices */
vx_result_t vx_device_count(uint32_t *out_count);
vx_result_t vx_device_open(uint32_t index, vx_device_h *out);
vx_result_t vx_device_retain(vx_device_h dev);
vx_result_t vx_device_release(vx_device_h dev);
vx_result_t vx_device_query(vx_device_h dev, uint32_t caps_id, uint64_t *out_value);
vx_result_t vx_device_memory_info(vx_device_h dev, uint64_t *free, uint64_t *used);
vx_result_t vx_device_dump_perf(vx_device_h dev, FILE *stream);
vx_result_t vx_device_max_occupancy_grid(vx_device_h dev, uint32_t ndim,
                                         const uint32_t *global_dim, uint32_t *grid_out,
                                         uint32_t *block_out);

/* Buffers */
vx_result_t vx_buffer_create(vx_device_h dev, uint64_t size, uint32_t flags, vx_buffer_h *out);
vx_result_t vx_buffer_reserve(vx_device_h dev, uint64_t address, uint64_t size, uint32_t flags,
                              vx_buffer_h *out);
vx_result_t vx_buffer_retain(vx_buffer_h buf);
vx_result_t vx_buffer_release(vx_buffer_h buf);
vx_result_t vx_buffer_address(vx_buffer_h buf, uint64_t *out_addr);
vx_result_t vx_buffer_access(vx_buffer_h buf, uint64_t offset, uint64_t size, uint32_t flags);
vx_result_t vx_buffer_map(vx_buffer_h buf, uint64_t offset, uint64_t size, uint32_t flags,
                          void **out_host_ptr);
vx_result_t vx_buffer_unmap(vx_buffer_h buf, void *host_ptr);

/* Modules (.vxbin images) and their kernels */
vx_result_t vx_module_load_file(vx_device_h dev, const char *path, vx_module_h *out);
vx_result_t vx_module_load_bytes(vx_device_h dev, const void *bytes, size_t size,
                                 vx_module_h *out);
vx_result_t vx_module_retain(vx_module_h mod);
vx_result_t vx_module_release(vx_module_h mod);
vx_result_t vx_module_get_kernel(vx_module_h mod, const char *name, vx_kernel_h *out);
vx_result_t vx_kernel_retain(vx_kernel_h k);
vx_result_t vx_kernel_release(vx_kernel_h k);
vx_result_t vx_kernel_get_max_block_size(vx_kernel_h k, uint32_t *x, uint32_t *y, uint32_t *z);

/* Queues */
vx_result_t vx_queue_create(vx_device_h dev, const vx_queue_info_t *info, vx_queue_h *out);
vx_result_t vx_queue_retain(vx_queue_h q);
vx_result_t vx_queue_release(vx_queue_h q);
vx_result_t vx_queue_flush(vx_queue_h q);
vx_result_t vx_queue_finish(vx_queue_h q, uint64_t timeout_ns);

/* Commands: each waits for its wait list and may return its own event. */
vx_result_t vx_enqueue_launch(vx_queue_h q, const vx_launch_info_t *info, uint32_t n_wait_events,
                              const vx_event_h *wait_events, vx_event_h *out_event);
vx_result_t vx_enqueue_copy(vx_queue_h q, vx_buffer_h dst, uint64_t dst_off, vx_buffer_h src,
                            uint64_t src_off, uint64_t size, uint32_t n_wait_events,
                            const vx_event_h *wait_events, vx_event_h *out_event);
vx_result_t vx_enqueue_read(vx_queue_h q, void *host_dst, vx_buffer_h src, uint64_t src_off,
                            uint64_t size, uint32_t n_wait_events, const vx_event_h *wait_events,
                            vx_event_h *out_event);
vx_result_t vx_enqueue_write(vx_queue_h q, vx_buffer_h dst, uint64_t dst_off,
                             const void *host_src, uint64_t size, uint32_t n_wait_events,
                             const vx_event_h *wait_events, vx_event_h *out_event);
vx_result_t vx_enqueue_read_rect(vx_queue_h q, void *host_dst, vx_buffer_h src,
                                 const vx_rect_info_t *info, uint32_t n_wait_events,
                                 const vx_event_h *wait_events, vx_event_h *out_event);
vx_result_t vx_enqueue_write_rect(vx_queue_h q, vx_buffer_h dst, const void *host_src,
                                  const vx_rect_info_t *info, uint32_t n_wait_events,
                                  const vx_event_h *wait_events, vx_event_h *out_event);
vx_result_t vx_enqueue_copy_rect(vx_queue_h q, vx_buffer_h dst, vx_buffer_h src,
                                 const vx_rect_info_t *info, uint32_t n_wait_events,
                                 const vx_event_h *wait_events, vx_event_h *out_event);
vx_result_t vx_enqueue_fill_buffer(vx_queue_h q, vx_buffer_h dst, uint64_t offset, uint64_t size,
                                   const void *pattern, size_t pattern_size,
                                   uint32_t n_wait_events, const vx_event_h *wait_events,
                                   vx_event_h *out_event);
vx_result_t vx_enqueue_map(vx_queue_h q, vx_buffer_h buf, uint64_t offset, uint64_t size,
                           uint32_t flags, uint32_t n_wait_events, const vx_event_h *wait_events,
                           vx_event_h *out_event, void **out_host_ptr);
vx_result_t vx_enqueue_unmap(vx_queue_h q, vx_buffer_h buf, void *host_ptr,
                             uint32_t n_wait_events, const vx_event_h *wait_events,
                             vx_event_h *out_event);
vx_result_t vx_enqueue_barrier(vx_queue_h q, uint32_t n_wait_events,
                               const vx_event_h *wait_events, vx_event_h *out_event);
vx_result_t vx_enqueue_dcr_write(vx_queue_h q, uint32_t addr, uint32_t value,
                                 uint32_t n_wait_events, const vx_event_h *wait_events,
                                 vx_event_h *out_event);
vx_result_t vx_enqueue_dcr_read(vx_queue_h q, uint32_t addr, uint32_t *host_dst,
                                uint32_t n_wait_events, const vx_event_h *wait_events,
                                vx_event_h *out_event);
vx_result_t vx_enqueue_signal(vx_queue_h q, vx_event_h ev, uint64_t value,
                              uint32_t n_wait_events, const vx_event_h *wait_events,
                              vx_event_h *out_event);
vx_result_t vx_enqueue_wait_value(vx_queue_h q, vx_event_h ev, uint64_t value,
                                  uint32_t n_wait_events, const vx_event_h *wait_events,
                                  vx_event_h *out_event);

/* Timeline events */
vx_result_t vx_event_create(vx_device_h dev, vx_event_h *out);
vx_result_t vx_event_signal(vx_event_h ev, uint64_t value);
vx_result_t vx_event_get_value(vx_event_h ev, uint64_t *out_value);
vx_result_t vx_event_wait_value(vx_event_h ev, uint64_t value, uint64_t timeout_ns);
vx_result_t vx_event_wait_values(uint32_t n, const vx_event_h *evs, const uint64_t *values,
                                 uint64_t timeout_ns);
vx_result_t vx_event_retain(vx_event_h ev);
vx_result_t vx_event_release(vx_event_h ev);
vx_result_t vx_event_get_profiling(vx_event_h ev, vx_profile_info_t *out);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_VORTEX2_H */
