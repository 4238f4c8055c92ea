/* Work-item functions, barriers and fences, and the work-group's asynchronous copies
 * (OpenCL C 1.2, 6.12.1, 6.12.8, 6.12.10). A work-group is a weft block, a work-item one of
 * its threads; the NDRange's dimensions and offsets come from the launch's argument block. */
#include "clc.h"

static uint pick(weft_dim3 d, uint i) { return i == 0 ? d.x : i == 1 ? d.y : d.z; }

OVL uint get_work_dim(void) { return __weft_cl_work_dim(); }

OVL size_t get_global_size(uint d) {
    if (d > 2) return 1;
    weft_thread *t = weft_self();
    return pick(t->grid_dim, d) * pick(t->block_dim, d);
}

OVL size_t get_global_id(uint d) {
    if (d > 2) return 0;
    weft_thread *t = weft_self();
    return pick(t->block_idx, d) * pick(t->block_dim, d) + pick(t->thread_idx, d) +
           __weft_cl_offset(d);
}

OVL size_t get_local_size(uint d) { return d > 2 ? 1 : pick(weft_self()->block_dim, d); }
OVL size_t get_local_id(uint d) { return d > 2 ? 0 : pick(weft_self()->thread_idx, d); }
OVL size_t get_num_groups(uint d) { return d > 2 ? 1 : pick(weft_self()->grid_dim, d); }
OVL size_t get_group_id(uint d) { return d > 2 ? 0 : pick(weft_self()->block_idx, d); }
OVL size_t get_global_offset(uint d) { return d > 2 ? 0 : __weft_cl_offset(d); }

/* Every work-item of the work-group waits here (weft_syncthreads, which also orders memory:
 * weft's memory is coherent, a fence keeps the compiler's and the core's order). */
OVL void barrier(cl_mem_fence_flags flags) {
    FENCE();
    weft_syncthreads();
    FENCE();
}

OVL void mem_fence(cl_mem_fence_flags flags) { FENCE(); }
OVL void read_mem_fence(cl_mem_fence_flags flags) { FENCE(); }
OVL void write_mem_fence(cl_mem_fence_flags flags) { FENCE(); }

/* The work-group's copies: each work-item copies its share (elements i, i + n, … where n is
 * the work-group's size); wait_group_events is a barrier, after which all of it is there. */
static size_t local_linear(void) {
    weft_thread *t = weft_self();
    return (t->thread_idx.z * t->block_dim.y + t->thread_idx.y) * t->block_dim.x +
           t->thread_idx.x;
}
static size_t local_count(void) {
    weft_thread *t = weft_self();
    return t->block_dim.x * t->block_dim.y * t->block_dim.z;
}

#define ASYNC(T, E, unused)                                                                    \
    OVL event_t async_work_group_copy(__local T *dst, const __global T *src, size_t n,         \
                                      event_t ev) {                                            \
        for (size_t i = local_linear(), s = local_count(); i < n; i += s) dst[i] = src[i];     \
        return ev;                                                                             \
    }                                                                                          \
    OVL event_t async_work_group_copy(__global T *dst, const __local T *src, size_t n,         \
                                      event_t ev) {                                            \
        for (size_t i = local_linear(), s = local_count(); i < n; i += s) dst[i] = src[i];     \
        return ev;                                                                             \
    }                                                                                          \
    OVL event_t async_work_group_strided_copy(__local T *dst, const __global T *src, size_t n, \
                                              size_t stride, event_t ev) {                     \
        for (size_t i = local_linear(), s = local_count(); i < n; i += s)                      \
            dst[i] = src[i * stride];                                                          \
        return ev;                                                                             \
    }                                                                                          \
    OVL event_t async_work_group_strided_copy(__global T *dst, const __local T *src, size_t n, \
                                              size_t stride, event_t ev) {                     \
        for (size_t i = local_linear(), s = local_count(); i < n; i += s)                      \
            dst[i * stride] = src[i];                                                          \
        return ev;                                                                             \
    }                                                                                          \
    OVL void prefetch(const __global T *p, size_t n) {}
#define ASYNC_ALL(T, unused) FOR_SIZES(ASYNC, T, 0)
FOR_GENTYPES(ASYNC_ALL, 0)

OVL void wait_group_events(int n, event_t *events) { barrier(CLK_LOCAL_MEM_FENCE); }
