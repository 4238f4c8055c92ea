// A Vortex host program written against vortex2.h (weft's crates/vortex-rt/include/vortex2.h,
// the same ABI as Vortex's own header), linked with weft's libvortex.so and run by
// crates/vortex-rt/tests/host_program.rs. It drives every part of the asynchronous API and
// checks each result against a reference computed here on the host.
//
//   host KERNELS.vxbin CORES WARPS THREADS
//
// Prints "PASSED" and exits 0, or prints what differed and exits 1.

#include <vortex2.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static int failures = 0;

#define CHECK(expr)                                                                        \
    do {                                                                                   \
        vx_result_t r_ = (expr);                                                           \
        if (r_ != VX_SUCCESS) {                                                            \
            std::printf("%s:%d: %s returned %s\n", __FILE__, __LINE__, #expr,              \
                        vx_result_string(r_));                                             \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            std::printf("%s:%d: expected %s: ", __FILE__, __LINE__, #cond);                \
            std::printf(__VA_ARGS__);                                                      \
            std::printf("\n");                                                             \
            ++failures;                                                                    \
        }                                                                                  \
    } while (0)

static vx_buffer_h buffer(vx_device_h dev, uint64_t size, uint32_t* addr) {
    vx_buffer_h b = nullptr;
    CHECK(vx_buffer_create(dev, size, VX_MEM_READ_WRITE, &b));
    uint64_t a = 0;
    CHECK(vx_buffer_address(b, &a));
    *addr = (uint32_t)a;
    return b;
}

static vx_launch_info_t launch_info(vx_kernel_h k, const void* args, size_t size, uint32_t grid,
                                    uint32_t block, uint32_t lmem) {
    vx_launch_info_t li;
    std::memset(&li, 0, sizeof(li));
    li.struct_size = sizeof(li);
    li.kernel = k;
    li.args_host = args;
    li.args_size = size;
    li.ndim = 1;
    li.grid_dim[0] = grid;
    li.block_dim[0] = block;
    li.lmem_size = lmem;
    return li;
}

// saxpy over n elements, the host fills x and y after the write is enqueued (it waits for a
// user event), so the write must read the host memory when it runs.
static void test_saxpy(vx_device_h dev, vx_queue_h q, vx_kernel_h k, uint32_t n) {
    std::vector<float> x(n), y(n), out(n, 0.0f);
    uint32_t xa, ya;
    vx_buffer_h xb = buffer(dev, n * 4, &xa), yb = buffer(dev, n * 4, &ya);
    vx_event_h go = nullptr, wx = nullptr, wy = nullptr, run = nullptr, rd = nullptr;
    CHECK(vx_event_create(dev, &go));
    CHECK(vx_enqueue_write(q, xb, 0, x.data(), n * 4, 1, &go, &wx));
    CHECK(vx_enqueue_write(q, yb, 0, y.data(), n * 4, 1, &go, &wy));
    uint64_t v = 7;
    CHECK(vx_event_get_value(wx, &v));
    EXPECT(v == 0, "the write waits for the user event, its event is at %llu",
           (unsigned long long)v);
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = 0.5f * (float)i - 3.0f;
        y[i] = 1.0f / (float)(i + 1);
    }
    CHECK(vx_event_signal(go, 1));
    const float a = 2.5f;
    struct {
        uint32_t n;
        float a;
        uint32_t x, y;
    } args = {n, a, xa, ya};
    uint32_t grid = 0, block = 0;
    CHECK(vx_device_max_occupancy_grid(dev, 1, &n, &grid, &block));
    vx_launch_info_t li = launch_info(k, &args, sizeof(args), grid, block, 0);
    vx_event_h deps[2] = {wx, wy};
    CHECK(vx_enqueue_launch(q, &li, 2, deps, &run));
    args.a = -100.0f;  // the launch copied its arguments
    CHECK(vx_enqueue_read(q, out.data(), yb, 0, n * 4, 1, &run, &rd));
    CHECK(vx_event_wait_value(rd, 1, VX_TIMEOUT_INFINITE));
    for (uint32_t i = 0; i < n; ++i) {
        volatile float p = a * x[i];
        float want = p + y[i];
        EXPECT(out[i] == want, "saxpy[%u] = %g, host %g", i, out[i], want);
    }
    vx_profile_info_t prof;
    CHECK(vx_event_get_profiling(run, &prof));
    EXPECT(prof.queued_ns <= prof.submit_ns && prof.submit_ns <= prof.start_ns &&
               prof.start_ns <= prof.end_ns,
           "profile %llu %llu %llu %llu", (unsigned long long)prof.queued_ns,
           (unsigned long long)prof.submit_ns, (unsigned long long)prof.start_ns,
           (unsigned long long)prof.end_ns);
    // The KMU registers read back the launch's block.
    uint32_t bdx = 0;
    vx_event_h dr = nullptr;
    CHECK(vx_enqueue_dcr_read(q, 0x016, &bdx, 0, nullptr, &dr));
    CHECK(vx_event_wait_value(dr, 1, VX_TIMEOUT_INFINITE));
    EXPECT(bdx == block, "BLOCK_DIM_X reads %u, launched %u", bdx, block);
    for (vx_event_h e : {go, wx, wy, run, rd, dr}) CHECK(vx_event_release(e));
    CHECK(vx_buffer_release(xb));
    CHECK(vx_buffer_release(yb));
}

// A divergent if/else, then a warp vote: right only if the warp reconverged.
static void test_ballot(vx_device_h dev, vx_queue_h q, vx_kernel_h k, uint32_t threads,
                        uint32_t blocks) {
    uint32_t n = threads * blocks;
    std::vector<uint32_t> in(n), v(n), b(n);
    for (uint32_t i = 0; i < n; ++i) in[i] = (i * 7 + 3) % 13;
    uint32_t ia, va, ba;
    vx_buffer_h ib = buffer(dev, n * 4, &ia), vb = buffer(dev, n * 4, &va),
                bb = buffer(dev, n * 4, &ba);
    CHECK(vx_enqueue_write(q, ib, 0, in.data(), n * 4, 0, nullptr, nullptr));
    uint32_t args[3] = {ia, va, ba};
    vx_launch_info_t li = launch_info(k, args, sizeof(args), blocks, threads, 0);
    CHECK(vx_enqueue_launch(q, &li, 0, nullptr, nullptr));
    CHECK(vx_enqueue_read(q, v.data(), vb, 0, n * 4, 0, nullptr, nullptr));
    CHECK(vx_enqueue_read(q, b.data(), bb, 0, n * 4, 0, nullptr, nullptr));
    CHECK(vx_queue_finish(q, VX_TIMEOUT_INFINITE));
    for (uint32_t w = 0; w < blocks; ++w) {
        uint32_t want_b = 0;
        for (uint32_t l = 0; l < threads; ++l) {
            uint32_t x = in[w * threads + l];
            uint32_t want_v = (x & 1) ? 3 * x : x + 7;
            EXPECT(v[w * threads + l] == want_v, "v[%u] = %u, host %u", w * threads + l,
                   v[w * threads + l], want_v);
            if (want_v > 20) want_b |= 1u << l;
        }
        for (uint32_t l = 0; l < threads; ++l)
            EXPECT(b[w * threads + l] == want_b, "ballot of warp %u lane %u = %#x, host %#x", w,
                   l, b[w * threads + l], want_b);
    }
    for (vx_buffer_h x : {ib, vb, bb}) CHECK(vx_buffer_release(x));
}

// CTAs of two warps meet at a barrier over local memory; more CTAs than fit at once.
static void test_reverse(vx_device_h dev, vx_queue_h q, vx_kernel_h k, uint32_t threads,
                         uint32_t warps, uint32_t cores) {
    uint32_t bdx = 2 * threads, blocks = 3 * cores * warps;
    uint32_t n = bdx * blocks;
    std::vector<uint32_t> in(n), out(n, 0);
    for (uint32_t i = 0; i < n; ++i) in[i] = 1000 + i * 3;
    uint32_t ia, oa;
    vx_buffer_h ib = buffer(dev, n * 4, &ia), ob = buffer(dev, n * 4, &oa);
    CHECK(vx_enqueue_write(q, ib, 0, in.data(), n * 4, 0, nullptr, nullptr));
    uint32_t args[2] = {ia, oa};
    vx_launch_info_t li = launch_info(k, args, sizeof(args), blocks, bdx, bdx * 4);
    vx_event_h run = nullptr, rd = nullptr;
    CHECK(vx_enqueue_launch(q, &li, 0, nullptr, &run));
    CHECK(vx_enqueue_read(q, out.data(), ob, 0, n * 4, 1, &run, &rd));
    CHECK(vx_event_wait_value(rd, 1, VX_TIMEOUT_INFINITE));
    for (uint32_t g = 0; g < n; ++g) {
        uint32_t bx = g / bdx, tx = g % bdx;
        uint32_t want = in[bx * bdx + (bdx - 1 - tx)];
        EXPECT(out[g] == want, "reverse[%u] = %u, host %u", g, out[g], want);
    }
    CHECK(vx_event_release(run));
    CHECK(vx_event_release(rd));
    CHECK(vx_buffer_release(ib));
    CHECK(vx_buffer_release(ob));
}

// Fill, copy, the three rect transfers, and both kinds of mapping.
static void test_transfers(vx_device_h dev, vx_queue_h q) {
    const uint32_t W = 16, H = 8;  // a W x H matrix of u32
    uint32_t ma, ca;
    vx_buffer_h m = buffer(dev, W * H * 4, &ma), c = buffer(dev, W * H * 4, &ca);
    uint32_t pattern = 0xA5A5F00Du;
    CHECK(vx_enqueue_fill_buffer(q, m, 0, W * H * 4, &pattern, 4, 0, nullptr, nullptr));
    // A 3 x 2 block of rows 5..6, columns 4..6 written from a packed host array.
    uint32_t blk[6] = {1, 2, 3, 4, 5, 6};
    vx_rect_info_t r;
    std::memset(&r, 0, sizeof(r));
    r.struct_size = sizeof(r);
    r.buffer_origin[0] = 4 * 4;
    r.buffer_origin[1] = 5;
    r.region[0] = 3 * 4;
    r.region[1] = 2;
    r.region[2] = 1;
    r.buffer_row_pitch = W * 4;
    CHECK(vx_enqueue_write_rect(q, m, blk, &r, 0, nullptr, nullptr));
    // Copy the whole matrix, then the block again one row down into the copy.
    CHECK(vx_enqueue_copy(q, c, 0, m, 0, W * H * 4, 0, nullptr, nullptr));
    vx_rect_info_t cr = r;
    cr.host_origin[0] = 4 * 4;  // the source (m): the block
    cr.host_origin[1] = 5;
    cr.host_row_pitch = W * 4;
    cr.buffer_origin[1] = 6;  // the destination (c): one row lower
    CHECK(vx_enqueue_copy_rect(q, c, m, &cr, 0, nullptr, nullptr));
    // Read the copy's rows 5..7, columns 4..6 into a packed array with a host pitch.
    uint32_t got[3][4];
    std::memset(got, 0, sizeof(got));
    vx_rect_info_t rr = r;
    rr.region[1] = 3;
    rr.host_row_pitch = 4 * 4;
    vx_event_h done = nullptr;
    CHECK(vx_enqueue_read_rect(q, got, c, &rr, 0, nullptr, &done));
    CHECK(vx_event_wait_value(done, 1, VX_TIMEOUT_INFINITE));
    CHECK(vx_event_release(done));
    uint32_t want[3][3] = {{1, 2, 3}, {1, 2, 3}, {4, 5, 6}};
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x)
            EXPECT(got[y][x] == want[y][x], "rect (%d,%d) = %u, host %u", x, y, got[y][x],
                   want[y][x]);
    for (int y = 0; y < 3; ++y)
        EXPECT(got[y][3] == 0, "the host pitch's gap at row %d was written: %#x", y, got[y][3]);

    // Synchronous map for reading: the whole copy as the host computes it.
    void* p = nullptr;
    CHECK(vx_buffer_map(c, 0, W * H * 4, VX_MEM_READ, &p));
    const uint32_t* mm = (const uint32_t*)p;
    for (uint32_t y = 0; y < H; ++y)
        for (uint32_t x = 0; x < W; ++x) {
            uint32_t w = pattern;
            if (x >= 4 && x < 7 && y == 5) w = blk[x - 4];
            if (x >= 4 && x < 7 && y == 6) w = blk[x - 4];
            if (x >= 4 && x < 7 && y == 7) w = blk[3 + x - 4];
            EXPECT(mm[y * W + x] == w, "map (%u,%u) = %#x, host %#x", x, y, mm[y * W + x], w);
        }
    void* second = nullptr;
    EXPECT(vx_buffer_map(c, 0, 4, VX_MEM_READ, &second) == VX_ERR_NOT_SUPPORTED,
           "a second mapping is refused");
    CHECK(vx_buffer_unmap(c, p));
    EXPECT(vx_buffer_unmap(c, p) == VX_ERR_INVALID_VALUE, "unmapped twice");

    // Asynchronous map for writing: the words written through it reach the device at unmap.
    vx_event_h mev = nullptr, uev = nullptr;
    CHECK(vx_enqueue_map(q, m, 8, 16, VX_MEM_WRITE, 0, nullptr, &mev, &p));
    CHECK(vx_event_wait_value(mev, 1, VX_TIMEOUT_INFINITE));
    for (uint32_t i = 0; i < 4; ++i) ((uint32_t*)p)[i] = 0xC0DE0000u + i;
    CHECK(vx_enqueue_unmap(q, m, p, 1, &mev, &uev));
    uint32_t back[6];
    vx_event_h rev = nullptr;
    CHECK(vx_enqueue_read(q, back, m, 4, sizeof(back), 1, &uev, &rev));
    CHECK(vx_event_wait_value(rev, 1, VX_TIMEOUT_INFINITE));
    uint32_t wb[6] = {pattern, 0xC0DE0000u, 0xC0DE0001u, 0xC0DE0002u, 0xC0DE0003u, pattern};
    for (int i = 0; i < 6; ++i)
        EXPECT(back[i] == wb[i], "after unmap word %d = %#x, host %#x", i + 1, back[i], wb[i]);
    for (vx_event_h e : {mev, uev, rev}) CHECK(vx_event_release(e));
    CHECK(vx_buffer_release(m));
    CHECK(vx_buffer_release(c));
}

// Timelines, and failures that travel along wait lists.
static void test_events(vx_device_h dev, vx_queue_h q, vx_kernel_h fault) {
    vx_event_h t = nullptr, s = nullptr, w = nullptr, after = nullptr;
    CHECK(vx_event_create(dev, &t));
    CHECK(vx_enqueue_signal(q, t, 5, 0, nullptr, &s));
    CHECK(vx_event_wait_value(t, 5, VX_TIMEOUT_INFINITE));
    CHECK(vx_event_signal(t, 3));
    uint64_t v = 0;
    CHECK(vx_event_get_value(t, &v));
    EXPECT(v == 5, "a timeline never goes back: %llu", (unsigned long long)v);
    EXPECT(vx_event_wait_value(t, 6, 1000000) == VX_ERR_TIMEOUT, "waiting for 6 times out");
    // The queue waits for the timeline to reach 8; the host gets there later.
    CHECK(vx_enqueue_wait_value(q, t, 8, 0, nullptr, &w));
    CHECK(vx_enqueue_barrier(q, 0, nullptr, &after));
    EXPECT(vx_event_wait_value(after, 1, 2000000) == VX_ERR_TIMEOUT,
           "commands after the wait do not run before 8");
    CHECK(vx_event_signal(t, 8));
    CHECK(vx_event_wait_value(after, 1, VX_TIMEOUT_INFINITE));
    vx_event_h evs[2] = {s, w};
    uint64_t vals[2] = {1, 1};
    CHECK(vx_event_wait_values(2, evs, vals, VX_TIMEOUT_INFINITE));

    // A kernel that faults fails its event, and a read that waits for it fails too.
    uint32_t da;
    vx_buffer_h d = buffer(dev, 64, &da);
    uint32_t word = 0;
    vx_launch_info_t li = launch_info(fault, &da, 4, 1, 1, 0);
    vx_event_h run = nullptr, rd = nullptr;
    CHECK(vx_enqueue_launch(q, &li, 0, nullptr, &run));
    CHECK(vx_enqueue_read(q, &word, d, 0, 4, 1, &run, &rd));
    EXPECT(vx_event_wait_value(run, 1, VX_TIMEOUT_INFINITE) == VX_ERR_DEVICE_LOST,
           "a fault is VX_ERR_DEVICE_LOST");
    EXPECT(vx_event_wait_value(rd, 1, VX_TIMEOUT_INFINITE) == VX_ERR_DEVICE_LOST,
           "the dependent read fails with it");
    // The queue goes on after a failure.
    vx_event_h ok = nullptr;
    CHECK(vx_enqueue_barrier(q, 0, nullptr, &ok));
    CHECK(vx_event_wait_value(ok, 1, VX_TIMEOUT_INFINITE));

    // Bad arguments come back at once, with Vortex's codes.
    vx_launch_info_t bad = li;
    bad.struct_size = 8;
    EXPECT(vx_enqueue_launch(q, &bad, 0, nullptr, nullptr) == VX_ERR_INVALID_INFO, "struct_size");
    bad = li;
    bad.grid_dim[0] = 3;
    bad.cluster_dim[0] = 2;
    EXPECT(vx_enqueue_launch(q, &bad, 0, nullptr, nullptr) == VX_ERR_INVALID_VALUE,
           "grid not a multiple of the cluster");
    EXPECT(vx_enqueue_read(q, &word, d, 60, 8, 0, nullptr, nullptr) == VX_ERR_INVALID_VALUE,
           "a read past the buffer");
    vx_event_h null_event = nullptr;
    EXPECT(vx_enqueue_barrier(q, 1, &null_event, nullptr) == VX_ERR_INVALID_HANDLE,
           "a null event in a wait list");
    EXPECT(vx_event_release(nullptr) == VX_ERR_INVALID_HANDLE, "a null handle");
    for (vx_event_h e : {t, s, w, after, run, rd, ok}) CHECK(vx_event_release(e));
    EXPECT(vx_event_release(t) == VX_ERR_INVALID_HANDLE, "a released handle");
    CHECK(vx_buffer_release(d));
}

int main(int argc, char** argv) {
    if (argc != 5) {
        std::printf("usage: host KERNELS.vxbin CORES WARPS THREADS\n");
        return 2;
    }
    const uint32_t cores = std::atoi(argv[2]), warps = std::atoi(argv[3]),
                   threads = std::atoi(argv[4]);
    uint32_t count = 0;
    CHECK(vx_device_count(&count));
    EXPECT(count == 1, "one device, not %u", count);
    vx_device_h dev = nullptr;
    CHECK(vx_device_open(0, &dev));
    uint64_t caps[3] = {0, 0, 0};
    CHECK(vx_device_query(dev, VX_CAPS_NUM_CORES, &caps[0]));
    CHECK(vx_device_query(dev, VX_CAPS_NUM_WARPS, &caps[1]));
    CHECK(vx_device_query(dev, VX_CAPS_NUM_THREADS, &caps[2]));
    EXPECT(caps[0] == cores && caps[1] == warps && caps[2] == threads,
           "the device is %llu x %llu x %llu", (unsigned long long)caps[0],
           (unsigned long long)caps[1], (unsigned long long)caps[2]);
    uint64_t isa = 0;
    CHECK(vx_device_query(dev, VX_CAPS_ISA_FLAGS, &isa));
    // F and the tensor core unit (docs/isa.md section 9).
    EXPECT((isa & VX_ISA_STD_F) && (isa & VX_ISA_EXT_TCU),
           "ISA flags %#llx", (unsigned long long)isa);
    EXPECT(vx_device_query(dev, 0x99, &isa) == VX_ERR_INVALID_VALUE, "an unknown capability");

    vx_queue_info_t qi = {sizeof(qi), nullptr, VX_QUEUE_PRIORITY_NORMAL,
                          VX_QUEUE_PROFILING_ENABLE};
    vx_queue_h q = nullptr;
    CHECK(vx_queue_create(dev, &qi, &q));

    vx_module_h mod = nullptr;
    CHECK(vx_module_load_file(dev, argv[1], &mod));
    vx_kernel_h saxpy = nullptr, ballot = nullptr, reverse = nullptr, fault = nullptr,
                none = nullptr;
    CHECK(vx_module_get_kernel(mod, "saxpy", &saxpy));
    CHECK(vx_module_get_kernel(mod, "ballot", &ballot));
    CHECK(vx_module_get_kernel(mod, "reverse", &reverse));
    CHECK(vx_module_get_kernel(mod, "fault", &fault));
    EXPECT(vx_module_get_kernel(mod, "nosuch", &none) == VX_ERR_INVALID_VALUE, "an unknown kernel");
    uint32_t bx = 0, by = 0, bz = 0;
    CHECK(vx_kernel_get_max_block_size(saxpy, &bx, &by, &bz));
    EXPECT(bx == threads && by == warps && bz == 1, "max block %u x %u x %u", bx, by, bz);
    // The module stays loaded while its kernels live.
    CHECK(vx_module_release(mod));

    test_saxpy(dev, q, saxpy, 10 * threads * cores + 3);
    test_ballot(dev, q, ballot, threads, 2 * cores * warps + 1);
    test_reverse(dev, q, reverse, threads, warps, cores);
    test_transfers(dev, q);
    test_events(dev, q, fault);

    uint64_t used0 = 0, used1 = 0;
    CHECK(vx_device_memory_info(dev, nullptr, &used0));
    for (vx_kernel_h k : {saxpy, ballot, reverse, fault}) CHECK(vx_kernel_release(k));
    CHECK(vx_queue_finish(q, VX_TIMEOUT_INFINITE));
    CHECK(vx_queue_release(q));
    CHECK(vx_device_memory_info(dev, nullptr, &used1));
    // Every buffer freed; what stays is the 4 KiB argument slot the launches shared, which
    // Vortex's runtime keeps until the device is released (Device::args_slot_acquire).
    EXPECT(used1 == 4096, "every buffer freed, %llu bytes still used (%llu before)",
           (unsigned long long)used1, (unsigned long long)used0);
    CHECK(vx_device_dump_perf(dev, stdout));
    CHECK(vx_device_release(dev));
    if (failures) {
        std::printf("%d checks failed\nFAILED\n", failures);
        return 1;
    }
    std::printf("PASSED\n");
    return 0;
}
