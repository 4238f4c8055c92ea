// tb_core.cpp -- Verilator testbench for weft_core: a DRAM model (byte-addressed, any
// alignment, one-cycle latency), the console and exit devices and HTIF tohost (as crates/mem
// does). Two modes:
//
// Trace mode (crates/rtl-lockstep compares it with the functional model): one text line per
// retired warp-instruction (the shared memory is inside the core: its stores are seen on
// mem_* with mem_local set):
//   w<warp> pc=<pc> mask=<mask>[ (x|f)<rd>=<v>,<v>...][ st<lane>@<addr>/<size>=<value>...]
//       [ a<lane>@<addr>=<value>...][ ff=<fflags of every lane>] ( next=<pc>/<mask> | fault=<code> )
//       @<cycle>
// (@: the clock cycle, counted from reset, in which it retired: S_RETIRE)
// (a: the words AMOs and successful sc.w wrote, shown when rd is not x0: the model's record
// gives the written value through rd; f: rd is a float register; ff: the warp's float
// flags, shown when some lane's changed, read from the CSR bank)
// then one final line: "exit <code>", "halt", "deadlock", "fault", "unsupported" or "timeout".
// Usage: tb_core IMAGE ENTRY TOHOST FROMHOST MAX_CYCLES DRAM_SIZE TABLE [VCD]  (numbers in
// hex, 0 = none). TABLE: the reconvergence table for the core's table memory, little-endian
// words: mode (1 table, 0 converge), base (code address of slot 0; bit 0: halfword slots),
// length, the words; it is written through the core's load port during reset, and a table
// longer than the core's (rc_words) is refused (exit status 3). VCD: dump every signal to
// that file (a testbench built with --trace; time unit 1 ns, one clock cycle = 10).
//
// Serve mode (tb_core --serve; crates/rtl's RtlDevice drives it): commands on stdin, one per
// line, numbers in hex, answers on stdout:
//   M size                 a DRAM of `size` bytes, zeroed (first)
//   W addr bytes           write bytes (hex pairs) into memory
//   R addr len             read: "D bytes", or "X" if the range is not DRAM
//   T mode base n w...     the reconvergence table the next start loads
//   S entry tohost fromhost  reset the core (its CSRs, stacks, registers' state) and start
//                          it at entry, memory kept
//   G clocks               run at most `clocks` more clock cycles: "C bytes" (the console
//                          since the last G), then "E " and how the run stands: "exit CODE",
//                          "halt", "deadlock WAITING", "fault CODE WARP MASK PC ADDR",
//                          "unsupported WHY WARP PC", or "running"
//   P                      statistics: "clocks N", "slots N", one "warp W WINSTR TINSTR DIV
//                          REC MAXDEPTH BARWAITS" per warp, one "pc PC N THREADS TRAPPED" per
//                          instruction address retired, then "."
//   L                      launch marks: for each retired write of the launch CSR, "launch
//                          VALUE CLOCKS WINSTR TINSTR DIV REC BARWAITS" (the totals after it)
//                          and its "lpc PC N THREADS TRAPPED" lines, then "."
//   Q                      quit
// Clock cycles and the statistics go on counting across restarts.
#include "Vweft_core.h"
#include "Vweft_core___024root.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

static const uint32_t DRAM_BASE = 0x80000000u;
static const uint32_t CONSOLE = 0xffffff00u, EXIT = 0xffffff04u, IO_PAGE = 0xffffff00u;

struct Mem {
    uint8_t *dram = nullptr;   // calloc'd: untouched pages cost nothing
    uint64_t size = 0;
    uint32_t tohost = 0, fromhost = 0;
    bool exited = false;
    uint32_t exit_code = 0;
    std::string console;

    void alloc(uint64_t n) {
        free(dram);
        dram = (uint8_t *)calloc(n ? n : 1, 1);
        size = n;
    }
    // Region and offset of [a, a+n), or nullptr (unmapped, or runs off the end).
    uint8_t *at(uint32_t a, uint32_t n) {
        if (a >= DRAM_BASE && (uint64_t)a - DRAM_BASE + n <= size) return &dram[a - DRAM_BASE];
        return nullptr;
    }
    uint32_t rd32(uint32_t a) {
        uint8_t *p = at(a, 4);
        return p ? (p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24) : 0;
    }
    void wr32(uint32_t a, uint32_t v) {
        uint8_t *p = at(a, 4);
        if (p) for (int i = 0; i < 4; i++) p[i] = v >> (8 * i);
    }
    bool load(uint32_t a, uint32_t n, uint32_t &v) {
        if (a >= IO_PAGE) { v = 0; return (uint64_t)a + n <= 0x100000000ull; }
        uint8_t *p = at(a, n);
        if (!p) return false;
        v = 0;
        for (uint32_t i = 0; i < n; i++) v |= (uint32_t)p[i] << (8 * i);
        return true;
    }
    bool store(uint32_t a, uint32_t n, uint32_t v) {
        if (a == CONSOLE) { console.push_back((char)v); return true; }
        if (a == EXIT && n == 4) { if (!exited) { exited = true; exit_code = v; } return true; }
        if (a >= IO_PAGE) return false;
        uint8_t *p = at(a, n);
        if (!p) return false;
        for (uint32_t i = 0; i < n; i++) p[i] = v >> (8 * i);
        if (a >= DRAM_BASE && tohost) htif(a, n, v);
        return true;
    }
    void htif(uint32_t a, uint32_t n, uint32_t v) {
        if (fromhost) {
            uint32_t hi = tohost + 4;
            if (!((uint64_t)a < (uint64_t)hi + 4 && (uint64_t)hi < (uint64_t)a + n)) return;
            uint64_t w = rd32(tohost) | (uint64_t)rd32(hi) << 32;
            if (!w) return;
            uint64_t dev = w >> 56, cmd = (w >> 48) & 0xff, pay = w & 0xffffffffffffull;
            if (dev == 0 && cmd == 0) {
                if ((pay & 1) && !exited) { exited = true; exit_code = (uint32_t)(pay >> 1); }
                return;
            }
            wr32(tohost, 0);
            wr32(hi, 0);
            uint64_t resp = (dev == 1 && cmd == 1) ? (0x100 | (pay & 0xff)) : 0;
            uint64_t ans = (w >> 48 << 48) | resp;
            wr32(fromhost, (uint32_t)ans);
            wr32(fromhost + 4, (uint32_t)(ans >> 32));
            if (dev == 1 && cmd == 1) console.push_back((char)pay);
        } else if (a <= tohost && tohost < a + n && v != 0) {
            uint32_t w = rd32(tohost);
            if ((w & 1) && !exited) { exited = true; exit_code = w >> 1; }
        }
    }
};

// A memory write of the current warp-instruction, as the retire line lists it: an AMO's (or
// sc.w's) write as " aLANE@ADDR=VALUE", a store as " stLANE@ADDR/BYTES=VALUE".
static void note_write(std::string &to, bool amo, uint32_t lane, uint32_t a, uint32_t n,
                       uint32_t v) {
    char buf[64];
    if (amo)
        snprintf(buf, sizeof buf, " a%u@%08x=%08x", lane, a, v);
    else
        snprintf(buf, sizeof buf, " st%u@%08x/%u=%08x", lane, a, n, v);
    to += buf;
}

// The core and its memory, one clock cycle at a time.
struct Bench {
    Vweft_core *top;
    Mem m;
    bool pending = false, perr = false;
    uint32_t prdata = 0;
    std::string stores, atomics;   // the current instruction's writes (trace mode)
#if VM_TRACE
    VerilatedVcdC *vcd = nullptr;
    uint64_t t = 0;
#endif
    void dump() {
#if VM_TRACE
        if (vcd) vcd->dump(t);
        t += 5;
#endif
    }
    // Hold the core in reset, write the table through its load port, release it at entry.
    // False if the table is larger than the core's (rc_words).
    bool reset(uint32_t entry, const std::vector<uint32_t> &table) {
        top->entry_pc = entry;
        top->rst = 1;
        top->mem_ack = 0;
        top->rc_mode = table[0];
        top->rc_base = table[1];
        top->rc_len = table[2];
        top->rc_we = 0;
        top->clk = 0; top->eval();
        if (table[2] > top->rc_words) return false;
        for (uint32_t i = 0; i < table[2] || i < 2; i++) {
            top->rc_we = i < table[2];
            top->rc_wa = i;
            top->rc_wd = i < table[2] ? table[3 + i] : 0;
            top->clk = 0; top->eval(); dump();
            top->clk = 1; top->eval(); dump();
        }
        top->rc_we = 0;
        top->rst = 0;
        pending = false;
        m.exited = false;
        return true;
    }
    // The low phase of a cycle: the outputs of this cycle (a retired instruction) are valid.
    void low() {
        top->clk = 0;
        top->eval();
        dump();
    }
    // The rest of the cycle: the memory answers requests (one cycle later), the clock rises.
    void high() {
        // a store the core's shared memory performs in this cycle
        if (top->mem_local && top->mem_we) {
            uint32_t n = 1u << top->mem_size, a = top->mem_addr;
            uint32_t v = n == 4 ? top->mem_wdata : top->mem_wdata & ((1u << (8 * n)) - 1);
            note_write(top->mem_amo ? atomics : stores, top->mem_amo, top->mem_lane, a, n, v);
        }
        bool ack_now = pending;
        top->mem_ack = pending;
        top->mem_err = perr;
        top->mem_rdata = prdata;
        pending = false;
        if (top->mem_req && !ack_now) {
            uint32_t n = 1u << top->mem_size, a = top->mem_addr;
            if (top->mem_we) {
                uint32_t v = n == 4 ? top->mem_wdata : top->mem_wdata & ((1u << (8 * n)) - 1);
                perr = !m.store(a, n, v);
                if (!perr)
                    note_write(top->mem_amo ? atomics : stores, top->mem_amo, top->mem_lane, a, n,
                               v);
                prdata = 0;
            } else {
                perr = !m.load(a, n, prdata);
                if (top->mem_fetch && a >= IO_PAGE) perr = true;   // no code in the I/O page
            }
            pending = true;
        }
        top->eval();
        top->clk = 1;
        top->eval();
        dump();
    }
};

static const char *unsup_why(unsigned w) {
    static const char *why[4] = {
        "", ": more than WAITS waiting groups in one divergence-stack entry",
        ": a split more than CDEPTH calls deep",
        ": a reconvergence point the table marks unreachable (kind 3)"};
    return why[w & 3];
}

static int trace_mode(Bench &b, int argc, char **argv) {
    Vweft_core *top = b.top;
    uint32_t entry = strtoul(argv[2], nullptr, 16);
    b.m.tohost = strtoul(argv[3], nullptr, 16);
    b.m.fromhost = strtoul(argv[4], nullptr, 16);
    uint64_t max_cycles = strtoull(argv[5], nullptr, 16);
    b.m.alloc(strtoul(argv[6], nullptr, 16));
    FILE *f = fopen(argv[1], "rb");
    if (!f) { fprintf(stderr, "tb_core: cannot open %s\n", argv[1]); return 2; }
    size_t got = fread(b.m.dram, 1, b.m.size, f);
    fclose(f);
    (void)got;
    std::vector<uint32_t> table;
    f = fopen(argv[7], "rb");
    if (!f) { fprintf(stderr, "tb_core: cannot open %s\n", argv[7]); return 2; }
    uint32_t word;
    while (fread(&word, 4, 1, f) == 1) table.push_back(word);
    fclose(f);
    if (table.size() < 3 || table.size() != 3 + (size_t)table[2]) {
        fprintf(stderr, "tb_core: %s is not a reconvergence-table file\n", argv[7]);
        return 2;
    }
#if VM_TRACE
    if (argc > 8) {
        Verilated::traceEverOn(true);
        b.vcd = new VerilatedVcdC;
        top->trace(b.vcd, 99);
        b.vcd->open(argv[8]);
    }
#else
    if (argc > 8) { fprintf(stderr, "tb_core: built without --trace: no VCD\n"); return 2; }
#endif
    if (!b.reset(entry, table)) {
        fprintf(stderr, "tb_core: the reconvergence table has %u words; the core's holds %u "
                "(RT_WORDS)\n", table[2], top->rc_words);
        return 3;
    }
    const int lanes = sizeof(top->rt_vals) / 4;
    const int warps = sizeof(top->rootp->weft_core__DOT__csrs__DOT__fcsr_q) / lanes;
    std::vector<std::string> ffs(warps);   // each warp's fflags as last printed
    uint64_t cyc = 0;
    const char *end = "timeout";
    for (; cyc < max_cycles; cyc++) {
        b.low();
        // outputs of this cycle: a retired instruction
        if (top->rt_valid) {
            printf("w%u pc=%08x mask=%08x", top->rt_warp, top->rt_pc, top->rt_mask);
            if (top->rt_unsupported) {
                printf(" unsupported%s\nunsupported\n", unsup_why(top->rt_unsup_why));
                end = nullptr;
                break;
            }
            if (top->rt_fault == 0) {
                if (top->rt_wen) {
                    printf(" %c%u=", top->rootp->weft_core__DOT__rd_f ? 'f' : 'x', top->rt_rd);
                    bool first = true;
                    for (int l = 0; l < lanes; l++)
                        if (top->rt_mask >> l & 1) {
                            const uint32_t *v = (const uint32_t *)&top->rt_vals;
                            printf("%s%x", first ? "" : ",", v[l]);
                            first = false;
                        }
                }
                std::string ff;
                for (int l = 0; l < lanes; l++) {
                    char s[8];
                    snprintf(s, sizeof s, "%s%x", l ? "," : "",
                             top->rootp->weft_core__DOT__csrs__DOT__fcsr_q[top->rt_warp][l] & 0x1f);
                    ff += s;
                }
                bool ff_new = ff != ffs[top->rt_warp] &&
                              !(ffs[top->rt_warp].empty() && ff.find_first_not_of("0,") == std::string::npos);
                if (ff_new) ffs[top->rt_warp] = ff;
                printf("%s%s%s%s next=%08x/%08x @%llu\n", b.stores.c_str(),
                       top->rt_rd ? b.atomics.c_str() : "", ff_new ? " ff=" : "",
                       ff_new ? ff.c_str() : "", top->rt_next_pc, top->rt_next_mask,
                       (unsigned long long)cyc);
            } else {
                printf(" fault=%u @%llu\nfault\n", top->rt_fault, (unsigned long long)cyc);
                end = nullptr;
                break;
            }
            b.stores.clear();
            b.atomics.clear();
            if (b.m.exited) { printf("exit %u\n", b.m.exit_code); end = nullptr; break; }
        }
        if (top->halted) { printf(top->deadlock ? "deadlock\n" : "halt\n"); end = nullptr; break; }
        b.high();
    }
    if (end) printf("%s\n", end);
    fprintf(stderr, "tb_core: %llu cycles\n", (unsigned long long)cyc);
    if (!b.m.console.empty()) fprintf(stderr, "console: %s\n", b.m.console.c_str());
#if VM_TRACE
    if (b.vcd) { b.vcd->close(); delete b.vcd; }
#endif
    return 0;
}

// ---- serve mode ------------------------------------------------------------------------

struct PcStats {
    uint64_t n = 0, threads = 0, trapped = 0;
};

static std::string hex_bytes(const uint8_t *p, size_t n) {
    static const char *d = "0123456789abcdef";
    std::string s(2 * n, '0');
    for (size_t i = 0; i < n; i++) {
        s[2 * i] = d[p[i] >> 4];
        s[2 * i + 1] = d[p[i] & 15];
    }
    return s;
}

static int serve_mode(Bench &b) {
    Vweft_core *top = b.top;
    auto &root = *top->rootp;
    const int lanes = sizeof(top->rt_vals) / 4;
    const int warps = sizeof(root.weft_core__DOT__csrs__DOT__fcsr_q) / lanes;
    std::vector<uint32_t> table = {0, 0, 0};
    std::vector<uint64_t> winstr(warps), tinstr(warps), div(warps), rec(warps), depth(warps),
        barw(warps);
    std::map<uint32_t, PcStats> pcs;
    uint64_t clocks = 0, slots = 0;
    // launch marks: at the retirement of each write of the launch CSR, its value and every
    // counter (the model counts an instruction before it runs, so the write counts itself)
    struct Mark {
        uint32_t value;
        uint64_t clocks, winstr, tinstr, div, rec, barw;
        std::map<uint32_t, PcStats> pcs;
    };
    std::vector<Mark> marks;
    bool launch_pending = false;
    uint32_t launch_value = 0;
    auto total = [](const std::vector<uint64_t> &v) {
        uint64_t t = 0;
        for (uint64_t x : v) t += x;
        return t;
    };
    bool started = false;
    std::string end = "halt";   // how the run stands (before a start: nothing to run)
    top->rst = 1;
    top->clk = 0;
    top->eval();                // (rc_words, a parameter, reads from here on)
    std::string line;
    char *buf = nullptr;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&buf, &cap, stdin)) > 0) {
        line.assign(buf, len);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        if (line.empty()) continue;
        const char cmd = line[0];
        const char *arg = line.c_str() + 1;
        char *next;
        if (cmd == 'Q') break;
        if (cmd == 'M') {
            b.m.alloc(strtoull(arg, nullptr, 16));
        } else if (cmd == 'W') {
            uint32_t a = strtoul(arg, &next, 16);
            while (*next == ' ') next++;
            size_t n = strlen(next) / 2;
            uint8_t *p = b.m.at(a, n);
            if (!p) { printf("X\n"); fflush(stdout); continue; }
            for (size_t i = 0; i < n; i++) {
                char h[3] = {next[2 * i], next[2 * i + 1], 0};
                p[i] = strtoul(h, nullptr, 16);
            }
            printf("K\n");
        } else if (cmd == 'R') {
            uint32_t a = strtoul(arg, &next, 16);
            uint32_t n = strtoul(next, nullptr, 16);
            uint8_t *p = b.m.at(a, n);
            if (!p) printf("X\n");
            else printf("D %s\n", hex_bytes(p, n).c_str());
        } else if (cmd == 'T') {
            table.clear();
            const char *q = arg;
            while (*q) {
                table.push_back(strtoul(q, &next, 16));
                if (next == q) break;
                q = next;
            }
            if (table.size() < 3 || table.size() != 3 + (size_t)table[2]) {
                printf("X not a reconvergence table\n");
                table = {0, 0, 0};
            } else if (table[2] > top->rc_words) {
                printf("X the reconvergence table has %u words; the core's holds %u (RT_WORDS)\n",
                       table[2], top->rc_words);
                table = {0, 0, 0};
            } else printf("K\n");
        } else if (cmd == 'S') {
            uint32_t entry = strtoul(arg, &next, 16);
            b.m.tohost = strtoul(next, &next, 16);
            b.m.fromhost = strtoul(next, nullptr, 16);
            b.reset(entry, table);
            started = true;
            end = "running";
            printf("K\n");
        } else if (cmd == 'G') {
            uint64_t budget = strtoull(arg, nullptr, 16);
            for (uint64_t c = 0; started && end == "running" && c < budget; c++) {
                b.low();
                if (root.weft_core__DOT__ev_slot) slots++;
                const unsigned w = root.weft_core__DOT__cw;
                if (root.weft_core__DOT__ev_div) div[w]++;
                if (root.weft_core__DOT__ev_rec) rec[w]++;
                if (root.weft_core__DOT__ev_bar) barw[w]++;
                if (root.weft_core__DOT__ev_launch) {
                    launch_pending = true;
                    launch_value = root.weft_core__DOT__ev_launch_v;
                }
                if (root.weft_core__DOT__ev_chk && root.weft_core__DOT__cur_len > depth[w])
                    depth[w] = root.weft_core__DOT__cur_len;
                char e[160];
                if (top->rt_valid) {
                    const unsigned rw = top->rt_warp;
                    if (top->rt_unsupported) {
                        snprintf(e, sizeof e, "unsupported %x %x %x", top->rt_unsup_why, rw,
                                 top->rt_pc);
                        end = e;
                    } else if (top->rt_fault) {
                        snprintf(e, sizeof e, "fault %x %x %x %x %x", top->rt_fault, rw,
                                 top->rt_mask, top->rt_pc, root.weft_core__DOT__fq_addr);
                        end = e;
                        // (the model counts an instruction that faults as it executes; a
                        // fetch fault and a watchdog expiry come before it issues)
                        if (top->rt_fault != 2 && top->rt_fault != 7) {
                            const uint64_t t = __builtin_popcount(top->rt_mask);
                            winstr[rw]++;
                            tinstr[rw] += t;
                            PcStats &s = pcs[top->rt_pc];
                            s.n++;
                            s.threads += t;
                            s.trapped += t;
                        }
                    } else {
                        const uint64_t t = __builtin_popcount(top->rt_mask);
                        winstr[rw]++;
                        tinstr[rw] += t;
                        PcStats &s = pcs[top->rt_pc];
                        s.n++;
                        s.threads += t;
                        if (root.weft_core__DOT__rtrap_q) s.trapped += t;
                        if (b.m.exited) {
                            snprintf(e, sizeof e, "exit %x", b.m.exit_code);
                            end = e;
                        }
                    }
                    b.stores.clear();
                    b.atomics.clear();
                    if (launch_pending) {
                        marks.push_back({launch_value, clocks, total(winstr), total(tinstr),
                                         total(div), total(rec), total(barw), pcs});
                        launch_pending = false;
                    }
                }
                if (end == "running" && top->halted) {
                    if (top->deadlock) {
                        snprintf(e, sizeof e, "deadlock %x",
                                 (unsigned)(root.weft_core__DOT__bwait_q |
                                            root.weft_core__DOT__bstop_q));
                        end = e;
                    } else end = "halt";
                }
                if (end != "running") break;
                b.high();
                clocks++;
            }
            printf("C %s\n", hex_bytes((const uint8_t *)b.m.console.data(),
                                       b.m.console.size()).c_str());
            b.m.console.clear();
            printf("E %s\n", end.c_str());
        } else if (cmd == 'P') {
            printf("clocks %llx\nslots %llx\n", (unsigned long long)clocks,
                   (unsigned long long)slots);
            for (int w = 0; w < warps; w++)
                printf("warp %x %llx %llx %llx %llx %llx %llx\n", w,
                       (unsigned long long)winstr[w], (unsigned long long)tinstr[w],
                       (unsigned long long)div[w], (unsigned long long)rec[w],
                       (unsigned long long)depth[w], (unsigned long long)barw[w]);
            for (auto &p : pcs)
                printf("pc %x %llx %llx %llx\n", p.first, (unsigned long long)p.second.n,
                       (unsigned long long)p.second.threads, (unsigned long long)p.second.trapped);
            printf(".\n");
        } else if (cmd == 'L') {
            for (auto &k : marks) {
                printf("launch %x %llx %llx %llx %llx %llx %llx\n", k.value,
                       (unsigned long long)k.clocks, (unsigned long long)k.winstr,
                       (unsigned long long)k.tinstr, (unsigned long long)k.div,
                       (unsigned long long)k.rec, (unsigned long long)k.barw);
                for (auto &p : k.pcs)
                    printf("lpc %x %llx %llx %llx\n", p.first, (unsigned long long)p.second.n,
                           (unsigned long long)p.second.threads,
                           (unsigned long long)p.second.trapped);
            }
            printf(".\n");
        } else {
            printf("X unknown command %c\n", cmd);
        }
        fflush(stdout);
    }
    free(buf);
    return 0;
}

int main(int argc, char **argv) {
    const bool serve = argc == 2 && strcmp(argv[1], "--serve") == 0;
    if (!serve && argc < 8) {
        fprintf(stderr, "usage: tb_core IMAGE ENTRY TOHOST FROMHOST MAX_CYCLES DRAM_SIZE TABLE [VCD]\n"
                        "       tb_core --serve\n");
        return 2;
    }
    Verilated::commandArgs(argc, argv);
    Bench b;
    b.top = new Vweft_core;
    int r = serve ? serve_mode(b) : trace_mode(b, argc, argv);
    b.top->final();
    delete b.top;
    return r;
}
