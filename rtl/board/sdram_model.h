// sdram_model.h -- a behavioural model of the ULX3S's SDR SDRAM for the Verilator testbenches
// (tb_sdram.cpp, tb_board.cpp): a 16-bit chip of 4 banks x 8192 rows x 512 columns (32 MB),
// timed as the -7 speed grade of the AS4C32M16SB / IS42S16160 datasheets (tRCD, tRP 21 ns;
// tRC, tRFC 63 ns; tRAS 42 ns; tRRD, tMRD, tWR 14 ns; 8192 refreshes in 64 ms, 7.8 us
// apart at most; 200 us of NOP after power-up). It holds the data, answers READs after the
// programmed CAS latency, and checks every command against the datasheet's rules: the
// power-up sequence (NOP for 200 us, PRECHARGE ALL, 8 AUTO REFRESH, LOAD MODE REGISTER with
// burst length 2, sequential, CAS latency 2, then tMRD), a bank's state (ACTIVE only on a
// precharged bank, READ/WRITE only on an open one), every minimum time above, the refresh
// interval, and contention on DQ. The first violation is kept in `error` (with its clock).
//
// Use: after every rising edge of the controller's clock, call `edge()` with the pins the
// controller drives (its outputs are registers, so they hold the command of that edge); then
// put `dq()` on the controller's DQ input before the next edge. The chip's clock lags the
// controller's by a fraction of a period (the board's PLL), so it samples the command of
// edge k at k + (a fraction) and its data for a READ of edge k, with CAS latency 2, is
// captured by the controller's input register at edges k + 3 and k + 4 (CAP = CL + 1).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

struct SdramPins {
    bool cke, cs_n, ras_n, cas_n, we_n;
    uint32_t ba, a, dqm, dq_o;
    bool dq_oe;
};

class SdramModel {
  public:
    static const int BANKS = 4, ROWS = 8192, COLS = 512;
    explicit SdramModel(double tck_ns)
        : tck(tck_ns), mem((size_t)BANKS * ROWS * COLS, 0) {
        for (auto &b : bank) b = Bank{};
    }

    std::string error;      // the first violation, empty while there is none
    uint64_t refreshes = 0; // AUTO REFRESH commands after initialisation
    uint64_t reads = 0, writes = 0;
    double max_refresh_gap_ns = 0;

    // The halfword at (bank, row, col), for tests that look inside.
    uint16_t peek(int b, int row, int col) const { return mem[idx(b, row, col)]; }

    // One rising edge of the controller's clock: the pins after it.
    void edge(const SdramPins &p) {
        k++;
        // data the chip drives for the coming edges, and contention with the controller
        while (drive_at.size() && drive_at.front().first < k + 1) drive_at.erase(drive_at.begin());
        if (drive_at.size() && drive_at.front().first == k + 1 && p.dq_oe)
            fail("the controller drives DQ while the SDRAM returns read data");
        if (!p.cke) fail("CKE low (power-down and self refresh are not used)");
        // a write's second data beat
        if (wbeat.pending) {
            if (!p.dq_oe) fail("the second beat of a WRITE is not driven");
            store(wbeat.b, wbeat.row, wbeat.col, p.dq_o, p.dqm);
            last_wdata[wbeat.b] = k;
            wbeat.pending = false;
            finish_ap_write(wbeat.b);
        }
        // scheduled auto precharges that have started
        for (int b = 0; b < BANKS; b++)
            if (bank[b].ap_at && bank[b].ap_at <= k) {
                precharge(b, bank[b].ap_at);
                bank[b].ap_at = 0;
            }
        if (p.cs_n) return; // deselect: NOP
        unsigned cmd = (p.ras_n ? 4 : 0) | (p.cas_n ? 2 : 0) | (p.we_n ? 1 : 0);
        if (cmd == 7) return; // NOP
        double now = k * tck;
        if (now < 200000.0) return fail("a command before 200 us of NOP after power-up");
        switch (cmd) {
        case 2: { // PRECHARGE
            // (tRP runs from the command, whether the bank was open or not)
            for (int b = 0; b < BANKS; b++)
                if ((p.a & 0x400) || (unsigned)b == p.ba) {
                    if (bank[b].ap_at) return fail("PRECHARGE of a bank auto-precharging");
                    if (bank[b].active) precharge(b, k);
                    bank[b].pre_at = k;
                }
            if ((p.a & 0x400) && state == 0) state = 1;
            break;
        }
        case 1: { // AUTO REFRESH
            if (state == 0) return fail("AUTO REFRESH before PRECHARGE ALL");
            for (int b = 0; b < BANKS; b++)
                if (!idle(b, now)) return fail("AUTO REFRESH with a bank open or precharging");
            if (last_ref && now - last_ref * tck < tRFC) return fail("AUTO REFRESH within tRFC");
            if (state == 3) {
                double gap = (k - last_ref) * tck;
                if (gap > max_refresh_gap_ns) max_refresh_gap_ns = gap;
                if (gap > tREFI) fail("refresh interval over 7.8 us");
                refreshes++;
            } else if (state == 1 || state == 2) {
                init_refs++;
                state = 2;
            }
            last_ref = k;
            break;
        }
        case 0: { // LOAD MODE REGISTER
            for (int b = 0; b < BANKS; b++)
                if (!idle(b, now)) return fail("LOAD MODE REGISTER with a bank not idle");
            if (state != 2 || init_refs < 8)
                return fail("LOAD MODE REGISTER before PRECHARGE ALL and 8 AUTO REFRESH");
            if (last_ref && now - last_ref * tck < tRFC) return fail("LOAD MODE within tRFC");
            unsigned bl = p.a & 7, bt = (p.a >> 3) & 1, cl = (p.a >> 4) & 7;
            if (bl != 1 || bt != 0 || cl != 2 || (p.a >> 7) != 0 || p.ba != 0)
                return fail("mode register is not BL 2, sequential, CL 2, burst writes");
            state = 3;
            mrs_at = k;
            last_ref = k; // the refresh interval is checked from here
            break;
        }
        case 3: { // ACTIVE
            if (!ready(now)) return;
            Bank &b = bank[p.ba];
            if (b.active) return fail("ACTIVE on an open bank");
            if (!idle(p.ba, now)) return fail("ACTIVE within tRP of the precharge");
            if (b.act_at && now - b.act_at * tck < tRC) return fail("ACTIVE within tRC");
            if (last_act && now - last_act * tck < tRRD) return fail("ACTIVE within tRRD");
            if (p.a >= (unsigned)ROWS) return fail("row out of range");
            b.active = true;
            b.row = p.a;
            b.act_at = k;
            last_act = k;
            break;
        }
        case 5:   // READ
        case 4: { // WRITE
            if (!ready(now)) return;
            Bank &b = bank[p.ba];
            if (!b.active || b.ap_at) return fail("READ/WRITE on a bank that is not open");
            if (now - b.act_at * tck < tRCD) return fail("READ/WRITE within tRCD of ACTIVE");
            unsigned col = p.a & 0x1ff;
            if (col & 1) return fail("a burst of 2 at an odd column");
            bool ap = p.a & 0x400;
            if (cmd == 5) {
                reads++;
                if (p.dq_oe) fail("the controller drives DQ during a READ");
                for (int j = 0; j < 2; j++)
                    drive_at.push_back({k + 3 + j, mem[idx(p.ba, b.row, col + j)]});
                if (ap) {
                    // precharge starts after the burst (BL 2), not before tRAS
                    uint64_t at = k + 2;
                    if ((at - b.act_at) * tck < tRAS) return fail("auto precharge before tRAS");
                    b.ap_at = at;
                }
            } else {
                writes++;
                if (!p.dq_oe) return fail("WRITE without data driven");
                store(p.ba, b.row, col, p.dq_o, p.dqm);
                wbeat = {true, (int)p.ba, (int)b.row, (int)col + 1, ap};
            }
            break;
        }
        default:
            fail("an unsupported command (BURST TERMINATE or reserved)");
        }
    }

    // The value on DQ for the next edge (what the chip drives, or 0 when it does not).
    uint16_t dq() const {
        for (auto &d : drive_at)
            if (d.first == k + 1) return d.second;
        return 0;
    }

  private:
    struct Bank {
        bool active = false;
        uint32_t row = 0;
        uint64_t act_at = 0, pre_at = 0, ap_at = 0;
    };
    struct Beat {
        bool pending;
        int b, row, col;
        bool ap;
    };
    const double tRCD = 21, tRP = 21, tRC = 63, tRAS = 42, tRFC = 63, tWR = 14, tMRD = 14,
                 tRRD = 14, tREFI = 7800;
    double tck;
    std::vector<uint16_t> mem;
    Bank bank[BANKS];
    uint64_t k = 0, last_ref = 0, last_act = 0, mrs_at = 0;
    uint64_t last_wdata[BANKS] = {0, 0, 0, 0};
    int state = 0; // 0 power-up, 1 precharged, 2 refreshing, 3 mode set (ready)
    int init_refs = 0;
    Beat wbeat = {false, 0, 0, 0, false};
    std::vector<std::pair<uint64_t, uint16_t>> drive_at;

    static size_t idx(int b, int row, int col) { return ((size_t)b * ROWS + row) * COLS + col; }
    void fail(const char *why) {
        if (error.empty()) {
            char buf[64];
            snprintf(buf, sizeof buf, " (clock %llu)", (unsigned long long)k);
            error = std::string(why) + buf;
        }
    }
    bool ready(double now) {
        if (state != 3) {
            fail("a command before the mode register is loaded");
            return false;
        }
        if (now - mrs_at * tck < tMRD) {
            fail("a command within tMRD of LOAD MODE REGISTER");
            return false;
        }
        return true;
    }
    bool idle(int b, double now) const {
        return !bank[b].active && !bank[b].ap_at && (bank[b].pre_at == 0 || now - bank[b].pre_at * tck >= tRP);
    }
    void precharge(int b, uint64_t at) {
        if ((at - bank[b].act_at) * tck < tRAS) fail("PRECHARGE within tRAS of ACTIVE");
        if (last_wdata[b] && (at - last_wdata[b]) * tck < tWR) fail("PRECHARGE within tWR");
        bank[b].active = false;
        bank[b].pre_at = at;
    }
    void store(int b, int row, int col, uint32_t v, uint32_t dqm) {
        uint16_t &m = mem[idx(b, row, col)];
        if (!(dqm & 1)) m = (m & 0xff00) | (v & 0xff);
        if (!(dqm & 2)) m = (m & 0x00ff) | (v & 0xff00);
    }
    void finish_ap_write(int b) {
        // a WRITE with auto precharge: the precharge starts tWR after the last data beat
        if (!wbeat.ap) return;
        uint64_t at = k + (uint64_t)((tWR + tck - 1e-9) / tck);
        if ((at - bank[b].act_at) * tck < tRAS) at = bank[b].act_at + (uint64_t)((tRAS + tck - 1e-9) / tck);
        bank[b].ap_at = at;
    }
};
