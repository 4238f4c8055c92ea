//! Vortex's DXA copy engine (v3.0, `sim/simx/dxa`): tiles of up to five dimensions copied
//! from global memory into a core's shared (local) memory while the warps run, optionally
//! transposed (k-major) or multicast into the shared memory of several CTAs, each copy
//! completing one transaction of a barrier that was announced to wait for it (`expect_tx`).
//!
//! - **Descriptors**: 16 slots of 24 device configuration registers each, written by the host
//!   at DCR `0x100 + slot × 24 + word` (Vortex's `VX_DCR_DXA_DESC_*`, [`dcr`]): base address,
//!   sizes (elements) of dimensions 0–4, byte strides of dimensions 1–4, `META` (bits 2:0 the
//!   rank, 4:3 log2 of the element size, bit 5 the k-major destination layout), element
//!   strides (unused, as in SimX), tile sizes (16 bits each), the out-of-bounds fill word and
//!   the multicast stride between CTAs' shared memory (rounded up to 64 bytes, as SimX does).
//! - **Requests** ([`DxaRequest`]) come from the `dxa` instruction (custom-0, funct7 3): a
//!   descriptor slot, a raw barrier id (Vortex's `(number << 8) + CTA slot`), the shared-memory
//!   destination, the tile's origin in elements per dimension and a CTA mask.
//! - **A copy**: the tile's elements in row order (dimension 0 fastest), element `(i0, i1, …)`
//!   read from `base + (c0 + i0) × elem + Σ (c_d + i_d) × stride_{d-1}` — or the fill word's
//!   bytes when any coordinate is past its size — and written to `smem + (row × tile0 + i0) ×
//!   elem`, or in k-major layout (rank ≤ 2) to `smem + (i0 × tile1 + i1) × elem`. With more
//!   than one bit in the CTA mask the tile is written to `smem + k × stride` for every bit k
//!   and completes barrier `raw id + k` (the CTA `k` slots after the issuer's, whose memory
//!   the KMU placed `k` strides further); otherwise it completes the issuer's barrier. A
//!   slot past 15 writes nothing and completes the barriers at once (as in SimX); a tile of
//!   more than 16 MiB is refused (a fault).
//! - **Time**: a request reaches the engines `issue_latency` cycles after its instruction;
//!   `units` engines (SimX: one per 8 cores) take requests in order, and each moves its copy
//!   as SimX's worker does ([`crate::dxa_pipe`]): the pieces (SimX's writer's runs: 64 bytes or
//!   fewer, split at 64-byte lines of either memory, one element per piece in k-major layout)
//!   each read their global line, one read issued per cycle with at most `inflight` pieces
//!   read and not yet written, and are written one write per cycle in order, repeated per
//!   multicast target. weft also splits a piece where dimension 0 ends, so that every element
//!   past it is filled (SimX decides per piece from its first element, which copies a
//!   piece's elements past the end from memory). A read takes `latency` cycles, unless a
//!   timing model paces the engine ([`Dxa::set_paced`], [`Dxa::pace`]: its memory system
//!   times each read, issued at the cycle the worker issues it). Its data moves, and its
//!   barriers complete, at the end of that time (the cycle after its last write). The
//!   machine collects the completions with [`Dxa::take_done`] after advancing the bus.
//! - **Registers** (read-only, at the bus address weft-simt gives it): the requests not yet
//!   complete and SimX's counters (`VX_CSR_MPM_DXA_*`).

use crate::dxa_pipe::Pipe;
use crate::{Access, BusDevice, Ctx, Reg};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use weft_mem::Memory;

/// Vortex's DXA device configuration registers.
pub mod dcr {
    /// First DCR of the descriptor table.
    pub const BEGIN: u32 = 0x100;
    /// One past the last.
    pub const END: u32 = 0x280;
    /// Registers per descriptor.
    pub const STRIDE: u32 = 24;
    /// Descriptor slots.
    pub const SLOTS: usize = 16;
    /// Word offsets within a descriptor.
    pub const BASE_LO: u32 = 0;
    pub const BASE_HI: u32 = 1;
    pub const SIZE0: u32 = 2;
    pub const STRIDE0: u32 = 7;
    pub const META: u32 = 11;
    pub const ESTRIDE0: u32 = 12;
    pub const TILESIZE01: u32 = 17;
    pub const TILESIZE23: u32 = 18;
    pub const TILESIZE4: u32 = 19;
    pub const CFILL: u32 = 20;
    pub const SMEM_STRIDE: u32 = 21;
}

/// The block SimX's writer and multicast strides align to (its memory block).
const BLOCK: u32 = 64;

/// The largest tile a copy may move (the largest local memory a machine may have).
pub const MAX_TILE_BYTES: u64 = 1 << 24;

/// The engine's cost (docs/vortex.md, "The DXA copy engine").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DxaConfig {
    /// Engines working in parallel (0: SimX's rule, one per 8 cores).
    pub units: u32,
    /// Cycles a global line read takes (unless a timing model's memory system times it).
    pub latency: u32,
    /// Pieces an engine has read and not yet written, at most (SimX's
    /// `VX_CFG_DXA_MAX_INFLIGHT`).
    pub inflight: u32,
    /// Cycles from a `dxa.issue` to the engines taking its request.
    pub issue_latency: u32,
}

impl Default for DxaConfig {
    fn default() -> Self {
        DxaConfig {
            units: 0,
            latency: 20,
            inflight: 8,
            issue_latency: 1,
        }
    }
}

/// One descriptor (as the host programmed it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Descriptor {
    pub base: u64,
    pub sizes: [u32; 5],
    pub strides: [u32; 4],
    pub meta: u32,
    pub estrides: [u32; 5],
    pub tiles: [u16; 5],
    pub cfill: u32,
    pub smem_stride: u32,
}

impl Descriptor {
    /// Dimensions (META bits 2:0; 0 reads as 1, more than 5 as 5).
    pub fn rank(&self) -> usize {
        match self.meta & 7 {
            0 => 1,
            r => (r as usize).min(5),
        }
    }

    /// Bytes per element (META bits 4:3 = log2).
    pub fn elem_bytes(&self) -> u32 {
        1 << ((self.meta >> 3) & 3)
    }

    /// K-major destination layout (META bit 5; rank ≤ 2 only, otherwise row-major as SimX).
    pub fn kmajor(&self) -> bool {
        self.meta >> 5 & 1 != 0 && self.rank() <= 2
    }

    /// Bytes of one tile.
    pub fn tile_bytes(&self) -> u64 {
        self.tile().iter().map(|&t| t as u64).product::<u64>() * self.elem_bytes() as u64
    }

    /// Tile size of each dimension (0 reads as 1; 1 past the rank).
    pub fn tile(&self) -> [u32; 5] {
        let r = self.rank();
        std::array::from_fn(|d| {
            if d < r {
                self.tiles[d].max(1) as u32
            } else {
                1
            }
        })
    }
}

/// A `dxa` instruction's request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DxaRequest {
    /// The issuing core (whose shared memory and barriers it works on) and warp.
    pub core: usize,
    pub warp: usize,
    /// Descriptor slot (META bits 3:0 of the instruction).
    pub slot: u32,
    /// Raw barrier id: `(number << 8) + CTA slot` (the CTA slot field is what multicast
    /// advances).
    pub bar: u32,
    /// Shared-memory destination (byte address).
    pub smem: u32,
    /// The tile's origin, in elements, per dimension.
    pub coords: [u32; 5],
    /// CTAs to write (more than one bit: multicast).
    pub cta_mask: u32,
}

/// A finished copy: the barriers (raw ids, on `core`) each get one transaction completed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxaDone {
    pub core: usize,
    pub warp: usize,
    pub bars: Vec<u32>,
    /// The copy touched memory it may not: the address, whether it was a write, and the
    /// message; the issuing warp faults.
    pub error: Option<DxaFault>,
}

/// Why a copy failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxaFault {
    /// The address it could not read or write.
    pub addr: u32,
    /// A write (to local memory) rather than a read.
    pub write: bool,
    /// What happened.
    pub detail: String,
}

/// SimX's DXA counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DxaStats {
    /// Copies completed.
    pub transfers: u64,
    /// Pieces the engines worked through (SimX's `gmem_reads`: its work items, each a
    /// 64-byte global line read unless past the array's end).
    pub gmem_reads: u64,
    /// Pieces whose line the piece before already read (read again, as SimX does).
    pub gmem_dedup: u64,
    /// Shared-memory writes (pieces × multicast targets).
    pub lmem_writes: u64,
    /// Cycles from each copy's start to its end, summed.
    pub total_latency: u64,
}

/// One element-run of a copy: `len` bytes from `src` (or the fill word when `None`) to
/// offset `dst` from the destination base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub src: Option<u64>,
    pub dst: u32,
    pub len: u32,
}

/// The pieces of a copy to shared memory at `smem` as SimX's address generator splits them:
/// rows in order, each row's run split where a global line or a shared-memory block ends;
/// one element per piece in k-major layout.
pub fn plan(d: &Descriptor, coords: [u32; 5], smem: u32) -> Vec<Piece> {
    let rank = d.rank();
    let elem = d.elem_bytes();
    let tile = d.tile();
    let kmajor = d.kmajor();
    let rows: u32 = tile[1..rank].iter().product();
    let mut out = Vec::new();
    for row in 0..rows {
        let mut outer = [0u32; 4];
        let mut rem = row;
        for dim in 1..rank {
            outer[dim - 1] = rem % tile[dim];
            rem /= tile[dim];
        }
        let row_in =
            (1..rank).all(|dim| (coords[dim] as u64 + outer[dim - 1] as u64) < d.sizes[dim] as u64);
        let mut gbase = d.base + coords[0] as u64 * elem as u64;
        for dim in 1..rank {
            gbase += (coords[dim] as u64 + outer[dim - 1] as u64) * d.strides[dim - 1] as u64;
        }
        let sbase = if kmajor {
            outer[0] * elem
        } else {
            row * tile[0] * elem
        };
        let mut e0 = 0;
        while e0 < tile[0] {
            let g = gbase + e0 as u64 * elem as u64;
            let s = if kmajor {
                sbase + e0 * tile[1] * elem
            } else {
                sbase + e0 * elem
            };
            let x = coords[0] as u64 + e0 as u64;
            let oob = !row_in || x >= d.sizes[0] as u64;
            let span = if kmajor {
                elem
            } else {
                let line_room = BLOCK - (g % BLOCK as u64) as u32;
                let block_room = BLOCK - smem.wrapping_add(s) % BLOCK;
                let mut span = line_room.min(block_room).min((tile[0] - e0) * elem);
                // A piece is wholly inside the array or wholly past its end.
                if !oob {
                    span = span.min((d.sizes[0] as u64 - x).min(u32::MAX as u64) as u32 * elem);
                }
                span -= span % elem;
                span.max(elem)
            };
            out.push(Piece {
                src: (!oob).then_some(g),
                dst: s,
                len: span,
            });
            e0 += span / elem;
        }
    }
    out
}

/// A copy in flight.
#[derive(Clone, Debug)]
struct Job {
    req: DxaRequest,
    desc: Option<Descriptor>,
    /// The engine moving it (its memory port under a timing model).
    unit: usize,
    start: u64,
    /// When it ends (`u64::MAX` while a paced copy is under way).
    end: u64,
    writes: u64,
    /// How its time goes.
    pipe: Pipe,
    /// Refused at the start (a tile too large to enumerate).
    fault: Option<DxaFault>,
}

/// The engine: descriptors, the requests waiting (with the cycle each reaches the engines),
/// the copies in flight, the finished ones.
pub struct Dxa {
    cfg: DxaConfig,
    units: usize,
    descs: [Descriptor; dcr::SLOTS],
    queue: VecDeque<(u64, DxaRequest)>,
    running: Vec<Job>,
    done: Vec<DxaDone>,
    stats: DxaStats,
    /// A timing model times the reads ([`Dxa::pace`]).
    paced: bool,
}

/// `DXA_PENDING`'s and the counters' indices in [`REGS`].
const PENDING: usize = 0;

/// The engine's registers (read-only).
pub const REGS: &[Reg] = &[
    Reg {
        name: "DXA_PENDING",
        offset: 0,
        access: Access::ReadOnly {
            what: "DXA_PENDING",
        },
        doc: "copies requested and not yet complete",
    },
    Reg {
        name: "DXA_TRANSFERS",
        offset: 4,
        access: Access::ReadOnly {
            what: "DXA_TRANSFERS",
        },
        doc: "copies completed (low 32 bits)",
    },
    Reg {
        name: "DXA_GMEM_READS",
        offset: 8,
        access: Access::ReadOnly {
            what: "DXA_GMEM_READS",
        },
        doc: "global lines read (low 32 bits)",
    },
    Reg {
        name: "DXA_GMEM_DEDUP",
        offset: 12,
        access: Access::ReadOnly {
            what: "DXA_GMEM_DEDUP",
        },
        doc: "global line reads saved by consecutive pieces of one line (low 32 bits)",
    },
    Reg {
        name: "DXA_LMEM_WRITES",
        offset: 16,
        access: Access::ReadOnly {
            what: "DXA_LMEM_WRITES",
        },
        doc: "shared-memory writes (low 32 bits)",
    },
    Reg {
        name: "DXA_LATENCY",
        offset: 20,
        access: Access::ReadOnly {
            what: "DXA_LATENCY",
        },
        doc: "cycles of all copies, start to end (low 32 bits)",
    },
];

impl Dxa {
    /// The engine of a machine of `cores` cores.
    pub fn new(cfg: DxaConfig, cores: usize) -> Dxa {
        let units = if cfg.units == 0 {
            cores.div_ceil(8).max(1)
        } else {
            cfg.units as usize
        };
        Dxa {
            cfg,
            units,
            descs: [Descriptor::default(); dcr::SLOTS],
            queue: VecDeque::new(),
            running: Vec::new(),
            done: Vec::new(),
            stats: DxaStats::default(),
            paced: false,
        }
    }

    /// Is `addr` one of the engine's DCRs?
    pub fn is_dcr(addr: u32) -> bool {
        (dcr::BEGIN..dcr::END).contains(&addr)
    }

    fn field(&self, addr: u32) -> Option<(usize, u32)> {
        let off = addr.checked_sub(dcr::BEGIN)?;
        let slot = (off / dcr::STRIDE) as usize;
        (slot < dcr::SLOTS).then_some((slot, off % dcr::STRIDE))
    }

    /// A host write of DCR `addr` (`0x100..0x280`; words 22 and 23 of a slot are ignored, as
    /// in SimX). `Err` for an address outside the table.
    pub fn dcr_write(&mut self, addr: u32, v: u32) -> Result<(), String> {
        let (slot, word) = self
            .field(addr)
            .ok_or_else(|| format!("DCR {addr:#05x} is not a DXA descriptor register"))?;
        let d = &mut self.descs[slot];
        match word {
            dcr::BASE_LO => d.base = d.base & !0xffff_ffff | v as u64,
            dcr::BASE_HI => d.base = d.base & 0xffff_ffff | (v as u64) << 32,
            2..=6 => d.sizes[(word - dcr::SIZE0) as usize] = v,
            7..=10 => d.strides[(word - dcr::STRIDE0) as usize] = v,
            dcr::META => d.meta = v,
            12..=16 => d.estrides[(word - dcr::ESTRIDE0) as usize] = v,
            dcr::TILESIZE01 => d.tiles[..2].copy_from_slice(&[v as u16, (v >> 16) as u16]),
            dcr::TILESIZE23 => d.tiles[2..4].copy_from_slice(&[v as u16, (v >> 16) as u16]),
            dcr::TILESIZE4 => d.tiles[4] = v as u16,
            dcr::CFILL => d.cfill = v,
            dcr::SMEM_STRIDE => d.smem_stride = v.div_ceil(BLOCK) * BLOCK,
            _ => {}
        }
        Ok(())
    }

    /// A DCR read back (what was written; the multicast stride rounded).
    pub fn dcr_read(&self, addr: u32) -> Result<u32, String> {
        let (slot, word) = self
            .field(addr)
            .ok_or_else(|| format!("DCR {addr:#05x} is not a DXA descriptor register"))?;
        let d = &self.descs[slot];
        Ok(match word {
            dcr::BASE_LO => d.base as u32,
            dcr::BASE_HI => (d.base >> 32) as u32,
            2..=6 => d.sizes[(word - dcr::SIZE0) as usize],
            7..=10 => d.strides[(word - dcr::STRIDE0) as usize],
            dcr::META => d.meta,
            12..=16 => d.estrides[(word - dcr::ESTRIDE0) as usize],
            dcr::TILESIZE01 => d.tiles[0] as u32 | (d.tiles[1] as u32) << 16,
            dcr::TILESIZE23 => d.tiles[2] as u32 | (d.tiles[3] as u32) << 16,
            dcr::TILESIZE4 => d.tiles[4] as u32,
            dcr::CFILL => d.cfill,
            dcr::SMEM_STRIDE => d.smem_stride,
            _ => 0,
        })
    }

    /// Descriptor `slot`.
    pub fn descriptor(&self, slot: usize) -> Option<&Descriptor> {
        self.descs.get(slot)
    }

    /// Queue a request issued at cycle `now`; the bus must look at the engine from when it
    /// arrives (returned).
    pub fn issue(&mut self, now: u64, req: DxaRequest) -> u64 {
        let at = now + self.cfg.issue_latency.max(1) as u64;
        self.queue.push_back((at, req));
        at
    }

    /// Hand the timing of the copies' reads to a timing model (true; [`Dxa::pace`]) or, at
    /// cycle `now`, back to `latency` (a paced copy under way goes on from `now` so).
    pub fn set_paced(&mut self, paced: bool, now: u64) {
        if self.paced && !paced {
            let latency = self.cfg.latency as u64;
            for j in self.running.iter_mut().filter(|j| j.end == u64::MAX) {
                j.end = j.pipe.run(now, latency);
            }
        }
        self.paced = paced;
    }

    /// A paced engine's work at cycle `now` (after the bus advanced to it): each copy under
    /// way writes and reads as its pipe says, `read(unit, line, now)` being when a global
    /// read of `line` through engine `unit`'s port issued now has its data. Returns the next
    /// cycle at which a copy has work (`u64::MAX`: none); a copy that ended is due on the
    /// bus at its end ([`BusDevice::next_event`]).
    pub fn pace(&mut self, now: u64, read: &mut dyn FnMut(usize, u32, u64) -> u64) -> u64 {
        let mut next = u64::MAX;
        for j in self.running.iter_mut().filter(|j| j.end == u64::MAX) {
            let unit = j.unit;
            j.pipe.step(now, &mut |line, t| read(unit, line, t));
            match j.pipe.done() {
                Some(end) => j.end = end,
                None => next = next.min(j.pipe.next_event(now)),
            }
        }
        next
    }

    /// Copies requested and not complete (including those not yet at the engines).
    pub fn pending(&self) -> usize {
        self.queue.len() + self.running.len()
    }

    /// The counters.
    pub fn stats(&self) -> DxaStats {
        self.stats
    }

    /// The copies finished since the last call (the machine completes their barriers).
    pub fn take_done(&mut self) -> Vec<DxaDone> {
        std::mem::take(&mut self.done)
    }

    /// Start the requests that have arrived on free engines at cycle `t`.
    fn start_waiting(&mut self, t: u64) {
        while self.running.len() < self.units {
            let Some(&(at, req)) = self.queue.front() else {
                break;
            };
            if at > t {
                break;
            }
            self.queue.pop_front();
            let unit = (0..self.units)
                .find(|u| self.running.iter().all(|j| j.unit != *u))
                .unwrap_or(0);
            let mut desc = self.descs.get(req.slot as usize).copied();
            let mut fault = None;
            if let Some(d) = desc.filter(|d| d.tile_bytes() > MAX_TILE_BYTES) {
                fault = Some(DxaFault {
                    addr: req.smem,
                    write: true,
                    detail: format!(
                        "DXA copy (descriptor {}) of a {}-byte tile, more than any local memory",
                        req.slot,
                        d.tile_bytes()
                    ),
                });
                desc = None;
            }
            let targets = targets(req.cta_mask).len() as u32;
            let mut lines = Vec::new();
            let mut dedup = 0;
            if let Some(d) = &desc {
                let mut last = u64::MAX;
                for p in plan(d, req.coords, req.smem) {
                    let line = p.src.map(|g| g / BLOCK as u64);
                    if let Some(l) = line {
                        if l == last {
                            dedup += 1;
                        }
                        last = l;
                    }
                    // A source past 4 GiB faults when the copy lands; its read goes nowhere.
                    lines.push(line.map(|l| (l * BLOCK as u64).min(u32::MAX as u64) as u32));
                }
            }
            let writes = lines.len() as u64 * targets as u64;
            self.stats.gmem_reads += lines.len() as u64;
            self.stats.gmem_dedup += dedup;
            self.stats.lmem_writes += writes;
            // SimX's worker reads from the cycle after it takes the request.
            let mut pipe = Pipe::new(lines, targets, self.cfg.inflight, t + 1);
            let end = if writes == 0 {
                t
            } else if self.paced {
                u64::MAX
            } else {
                pipe.run(t + 1, self.cfg.latency as u64)
            };
            self.running.push(Job {
                req,
                desc,
                unit,
                start: t,
                end,
                writes,
                pipe,
                fault,
            });
        }
    }

    /// Carry out copy `j` over `mem`: its data lands and its barriers are due.
    fn finish(&mut self, j: Job, mem: &mut Memory, ctx_code: &mut dyn crate::Invalidate) {
        let r = j.req;
        let offsets = targets(r.cta_mask);
        let mut error = j.fault;
        if let (Some(d), true) = (&j.desc, j.writes > 0) {
            let stride = d.smem_stride;
            'copy: for p in plan(d, r.coords, r.smem) {
                let bytes = match p.src {
                    Some(g) => {
                        let g32 = u32::try_from(g).ok();
                        match g32.and_then(|a| mem.read_bytes(r.core, a, p.len as usize).ok()) {
                            Some(b) => b,
                            None => {
                                error = Some(DxaFault {
                                    addr: g as u32,
                                    write: false,
                                    detail: format!(
                                        "DXA copy (descriptor {}) reads {g:#x}, outside memory",
                                        r.slot
                                    ),
                                });
                                break 'copy;
                            }
                        }
                    }
                    None => (0..p.len)
                        .map(|b| (d.cfill >> (8 * (b & 3))) as u8)
                        .collect(),
                };
                for &k in &offsets {
                    let to = r.smem.wrapping_add(k * stride).wrapping_add(p.dst);
                    if mem.write_bytes(r.core, to, &bytes).is_err() {
                        error = Some(DxaFault {
                            addr: to,
                            write: true,
                            detail: format!(
                                "DXA copy (descriptor {}) writes {to:#010x}, outside memory",
                                r.slot
                            ),
                        });
                        break 'copy;
                    }
                    ctx_code.invalidate(to, p.len);
                }
            }
        }
        self.stats.transfers += 1;
        self.stats.total_latency += j.end - j.start;
        let bars = if r.cta_mask.count_ones() > 1 {
            offsets.iter().map(|k| r.bar.wrapping_add(*k)).collect()
        } else {
            vec![r.bar]
        };
        self.done.push(DxaDone {
            core: r.core,
            warp: r.warp,
            bars,
            error,
        });
    }
}

/// Destination offsets (in strides) of a CTA mask: its bits when more than one is set, else
/// just the issuer's own (0).
fn targets(mask: u32) -> Vec<u32> {
    if mask.count_ones() > 1 {
        (0..32).filter(|k| mask >> k & 1 != 0).collect()
    } else {
        vec![0]
    }
}

impl BusDevice for Dxa {
    fn name(&self) -> &'static str {
        "dxa"
    }

    fn regs(&self) -> &'static [Reg] {
        REGS
    }

    fn load(&self, _now: u64, _core: usize, reg: usize) -> u32 {
        let s = &self.stats;
        match reg {
            PENDING => self.pending() as u32,
            1 => s.transfers as u32,
            2 => s.gmem_reads as u32,
            3 => s.gmem_dedup as u32,
            4 => s.lmem_writes as u32,
            _ => s.total_latency as u32,
        }
    }

    fn store(&mut self, _: u64, _: usize, _: usize, _: u32, _: &Memory) -> Result<bool, String> {
        // Every register is read-only (the bus refuses the store before this).
        Err("the DXA engine's registers are read-only".into())
    }

    fn next_event(&self) -> u64 {
        let end = self.running.iter().map(|j| j.end).min().unwrap_or(u64::MAX);
        let arrival = match self.queue.front() {
            Some(&(at, _)) if self.running.len() < self.units => at,
            _ => u64::MAX,
        };
        end.min(arrival)
    }

    fn advance(&mut self, t: u64, ctx: &mut Ctx) {
        while let Some(i) = self.running.iter().position(|j| j.end <= t) {
            let j = self.running.remove(i);
            self.finish(j, ctx.mem, ctx.code);
        }
        self.start_waiting(t);
        // Copies that write nothing complete as they start.
        while let Some(i) = self.running.iter().position(|j| j.end <= t) {
            let j = self.running.remove(i);
            self.finish(j, ctx.mem, ctx.code);
            self.start_waiting(t);
        }
    }
}

#[cfg(test)]
#[path = "dxa_tests.rs"]
mod tests;
