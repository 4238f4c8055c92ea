//! What the enqueued commands do: buffer reads, writes, copies and fills (whole, or
//! rectangles), maps and unmaps, kernel launches over an NDRange, markers and barriers.
//! Each is checked when it is enqueued (the `CL_INVALID_*` codes come back from the
//! `clEnqueue*` call) and runs later on the queue's worker.

use crate::cl::{command, err};
use crate::context::Context;
use crate::engine::Launch;
use crate::error::{ClError, ClResult};
use crate::event::Event;
use crate::kernel::Kernel;
use crate::memory::Mem;
use crate::object::{handle, ClObj};
use crate::queue::{Queue, Work};
use std::sync::Arc;
use weft_runtime::Dim3;

/// A host pointer a command writes or reads when it runs (the program keeps it valid until
/// the command completes, as OpenCL requires).
#[derive(Clone, Copy)]
pub struct HostPtr(pub usize);

/// The largest work-group, and per dimension.
pub const MAX_WORK_GROUP: usize = 1024;

/// Enqueue `work` as a command of type `cmd` on `q` after `waits`; its event.
pub fn submit(
    q: &Arc<ClObj<Queue>>,
    cmd: u32,
    waits: Vec<Arc<ClObj<Event>>>,
    work: Work,
) -> ClResult<Arc<ClObj<Event>>> {
    for w in &waits {
        if !Arc::ptr_eq(&w.context, &q.context) {
            return Err(ClError::new(
                err::INVALID_CONTEXT,
                "an event of the wait list belongs to another context",
            ));
        }
    }
    let ev = ClObj::new(Event::new(
        q.context.clone(),
        handle(q) as usize,
        cmd,
        q.profiling(),
        crate::cl::event::QUEUED,
    ));
    q.submit(ev.clone(), waits, work)?;
    Ok(ev)
}

fn same_context(q: &Queue, m: &Mem) -> ClResult<()> {
    if Arc::ptr_eq(&q.context, &m.context) {
        Ok(())
    } else {
        Err(ClError::new(
            err::INVALID_CONTEXT,
            "the memory object belongs to another context",
        ))
    }
}

fn read_dev(ctx: &Context, addr: u32, len: usize) -> ClResult<Vec<u8>> {
    ctx.engine.call(move |e| {
        let mut v = vec![0u8; len];
        e.read(addr, &mut v)?;
        Ok(v)
    })
}

/// `clEnqueueReadBuffer`.
pub fn read(
    q: &Arc<ClObj<Queue>>,
    m: Arc<ClObj<Mem>>,
    offset: usize,
    len: usize,
    dst: HostPtr,
    waits: Vec<Arc<ClObj<Event>>>,
) -> ClResult<Arc<ClObj<Event>>> {
    same_context(q, &m)?;
    m.check(offset, len)?;
    let work: Work = Box::new(move |ctx| {
        let data = read_dev(ctx, m.addr + offset as u32, len)?;
        // SAFETY: the program's destination holds `len` bytes until the command completes.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), dst.0 as *mut u8, len) };
        Ok(None)
    });
    submit(q, command::READ_BUFFER, waits, work)
}

/// `clEnqueueWriteBuffer` (the data is taken now).
pub fn write(
    q: &Arc<ClObj<Queue>>,
    m: Arc<ClObj<Mem>>,
    offset: usize,
    data: Vec<u8>,
    waits: Vec<Arc<ClObj<Event>>>,
) -> ClResult<Arc<ClObj<Event>>> {
    same_context(q, &m)?;
    m.check(offset, data.len())?;
    let work: Work = Box::new(move |ctx| {
        let addr = m.addr + offset as u32;
        let len = data.len();
        if m.host_ptr != 0 {
            // SAFETY: the program's USE_HOST_PTR memory holds the buffer's bytes.
            unsafe {
                std::ptr::copy(data.as_ptr(), (m.host_ptr + offset) as *mut u8, len);
            }
        }
        ctx.engine.call(move |e| e.write(addr, &data))?;
        Ok(None)
    });
    submit(q, command::WRITE_BUFFER, waits, work)
}

/// `clEnqueueCopyBuffer`.
pub fn copy(
    q: &Arc<ClObj<Queue>>,
    src: Arc<ClObj<Mem>>,
    dst: Arc<ClObj<Mem>>,
    so: usize,
    d_o: usize,
    len: usize,
    waits: Vec<Arc<ClObj<Event>>>,
) -> ClResult<Arc<ClObj<Event>>> {
    same_context(q, &src)?;
    same_context(q, &dst)?;
    src.check(so, len)?;
    dst.check(d_o, len)?;
    let (a, b) = (src.addr as u64 + so as u64, dst.addr as u64 + d_o as u64);
    if a < b + len as u64 && b < a + len as u64 && len > 0 {
        return Err(ClError::new(
            err::MEM_COPY_OVERLAP,
            "the source and destination regions overlap",
        ));
    }
    let work: Work = Box::new(move |ctx| {
        let (s, d) = (src.addr + so as u32, dst.addr + d_o as u32);
        ctx.engine.call(move |e| e.copy(d, s, len))?;
        dst.sync_to_host(d_o, len)?;
        Ok(None)
    });
    submit(q, command::COPY_BUFFER, waits, work)
}

/// `clEnqueueFillBuffer`.
pub fn fill(
    q: &Arc<ClObj<Queue>>,
    m: Arc<ClObj<Mem>>,
    pattern: Vec<u8>,
    offset: usize,
    len: usize,
    waits: Vec<Arc<ClObj<Event>>>,
) -> ClResult<Arc<ClObj<Event>>> {
    same_context(q, &m)?;
    m.check(offset, len)?;
    let p = pattern.len();
    if !matches!(p, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128)
        || !offset.is_multiple_of(p)
        || !len.is_multiple_of(p)
    {
        return Err(ClError::value(format!(
            "a fill pattern of {p} bytes (1, 2, 4, …, 128) needs an offset and size that are \
             multiples of it"
        )));
    }
    let work: Work = Box::new(move |ctx| {
        let data: Vec<u8> = pattern.iter().copied().cycle().take(len).collect();
        let addr = m.addr + offset as u32;
        ctx.engine.call(move |e| e.write(addr, &data))?;
        m.sync_to_host(offset, len)?;
        Ok(None)
    });
    submit(q, command::FILL_BUFFER, waits, work)
}

/// A rectangle of a buffer or of host memory: origin (bytes, rows, slices), pitches.
#[derive(Clone, Copy)]
pub struct Rect {
    pub origin: [usize; 3],
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

impl Rect {
    /// With OpenCL's defaults: a row pitch of 0 is the region's width, a slice pitch of 0 is
    /// the row pitch times the region's height.
    pub fn new(origin: [usize; 3], row: usize, slice: usize, region: [usize; 3]) -> ClResult<Rect> {
        let row_pitch = if row == 0 { region[0] } else { row };
        let slice_pitch = if slice == 0 {
            row_pitch * region[1]
        } else {
            slice
        };
        if row_pitch < region[0] || slice_pitch < row_pitch * region[1] {
            return Err(ClError::value("a pitch smaller than the region"));
        }
        Ok(Rect {
            origin,
            row_pitch,
            slice_pitch,
        })
    }
    /// The offset of row (y, z) of the region.
    fn at(&self, y: usize, z: usize) -> usize {
        (self.origin[2] + z) * self.slice_pitch
            + (self.origin[1] + y) * self.row_pitch
            + self.origin[0]
    }
    /// The byte after the region's last.
    fn end(&self, region: [usize; 3]) -> usize {
        self.at(region[1] - 1, region[2] - 1) + region[0]
    }
}

/// A rectangle's read (`to_host`) or write: the buffer's and the host's rectangles, the
/// region's extent (bytes, rows, slices) and the host memory.
pub struct RectRw {
    pub buf: Rect,
    pub host: Rect,
    pub region: [usize; 3],
    pub ptr: HostPtr,
    pub to_host: bool,
}

/// `clEnqueueReadBufferRect` and `clEnqueueWriteBufferRect`.
pub fn rect_rw(
    q: &Arc<ClObj<Queue>>,
    m: Arc<ClObj<Mem>>,
    r: RectRw,
    waits: Vec<Arc<ClObj<Event>>>,
) -> ClResult<Arc<ClObj<Event>>> {
    let RectRw {
        buf,
        host,
        region,
        ptr,
        to_host,
    } = r;
    same_context(q, &m)?;
    if region.contains(&0) {
        return Err(ClError::value("a region with a zero extent"));
    }
    m.check(0, buf.end(region))?;
    let rows: Vec<(usize, usize)> = (0..region[2])
        .flat_map(|z| (0..region[1]).map(move |y| (buf.at(y, z), host.at(y, z))))
        .collect();
    let w = region[0];
    let work: Work = Box::new(move |ctx| {
        let base = m.addr;
        if to_host {
            let offs: Vec<usize> = rows.iter().map(|r| r.0).collect();
            let data = ctx.engine.call(move |e| {
                let mut v = vec![0u8; offs.len() * w];
                for (i, o) in offs.iter().enumerate() {
                    e.read(base + *o as u32, &mut v[i * w..(i + 1) * w])?;
                }
                Ok(v)
            })?;
            for (i, r) in rows.iter().enumerate() {
                // SAFETY: the program's host rectangle holds these rows until completion.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        data[i * w..].as_ptr(),
                        (ptr.0 + r.1) as *mut u8,
                        w,
                    )
                };
            }
        } else {
            let mut data = vec![0u8; rows.len() * w];
            for (i, r) in rows.iter().enumerate() {
                // SAFETY: as above.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        (ptr.0 + r.1) as *const u8,
                        data[i * w..].as_mut_ptr(),
                        w,
                    )
                };
            }
            let offs: Vec<usize> = rows.iter().map(|r| r.0).collect();
            ctx.engine.call(move |e| {
                for (i, o) in offs.iter().enumerate() {
                    e.write(base + *o as u32, &data[i * w..(i + 1) * w])?;
                }
                Ok(())
            })?;
            m.sync_to_host(0, m.size)?;
        }
        Ok(None)
    });
    let cmd = if to_host {
        command::READ_BUFFER_RECT
    } else {
        command::WRITE_BUFFER_RECT
    };
    submit(q, cmd, waits, work)
}

/// `clEnqueueCopyBufferRect`.
pub fn rect_copy(
    q: &Arc<ClObj<Queue>>,
    src: Arc<ClObj<Mem>>,
    dst: Arc<ClObj<Mem>>,
    s: Rect,
    d: Rect,
    region: [usize; 3],
    waits: Vec<Arc<ClObj<Event>>>,
) -> ClResult<Arc<ClObj<Event>>> {
    same_context(q, &src)?;
    same_context(q, &dst)?;
    if region.contains(&0) {
        return Err(ClError::value("a region with a zero extent"));
    }
    src.check(0, s.end(region))?;
    dst.check(0, d.end(region))?;
    let rows: Vec<(u32, u32)> = (0..region[2])
        .flat_map(|z| (0..region[1]).map(move |y| (s.at(y, z) as u32, d.at(y, z) as u32)))
        .collect();
    let w = region[0];
    let work: Work = Box::new(move |ctx| {
        let (sa, da) = (src.addr, dst.addr);
        ctx.engine.call(move |e| {
            for (so, d_o) in &rows {
                e.copy(da + d_o, sa + so, w)?;
            }
            Ok(())
        })?;
        dst.sync_to_host(0, dst.size)?;
        Ok(None)
    });
    submit(q, command::COPY_BUFFER_RECT, waits, work)
}

/// `clEnqueueMapBuffer`: the pointer, and the command's event.
pub fn map(
    q: &Arc<ClObj<Queue>>,
    m: Arc<ClObj<Mem>>,
    flags: u64,
    offset: usize,
    len: usize,
    waits: Vec<Arc<ClObj<Event>>>,
) -> ClResult<(*mut u8, Arc<ClObj<Event>>)> {
    same_context(q, &m)?;
    m.check(offset, len)?;
    let ptr = m.begin_map(offset, len, flags);
    let p = ptr as usize;
    let work: Work = Box::new(move |_| {
        m.fill_map(p, flags)?;
        Ok(None)
    });
    Ok((ptr, submit(q, command::MAP_BUFFER, waits, work)?))
}

/// `clEnqueueUnmapMemObject`.
pub fn unmap(
    q: &Arc<ClObj<Queue>>,
    m: Arc<ClObj<Mem>>,
    ptr: usize,
    waits: Vec<Arc<ClObj<Event>>>,
) -> ClResult<Arc<ClObj<Event>>> {
    same_context(q, &m)?;
    let mapping = m.take_mapping(ptr)?;
    let work: Work = Box::new(move |_| {
        m.unmap(mapping)?;
        Ok(None)
    });
    submit(q, command::UNMAP_MEM_OBJECT, waits, work)
}

/// `clEnqueueMarker*`, `clEnqueueBarrier*`, `clEnqueueMigrateMemObjects`: they do nothing
/// but wait (the queue is in order).
pub fn marker(
    q: &Arc<ClObj<Queue>>,
    cmd: u32,
    waits: Vec<Arc<ClObj<Event>>>,
) -> ClResult<Arc<ClObj<Event>>> {
    submit(q, cmd, waits, Box::new(|_| Ok(None)))
}

/// An NDRange as the program gave it (dimensions past `dims` are 1, offsets 0).
pub struct NdRange {
    pub dims: u32,
    pub offset: [usize; 3],
    pub global: [usize; 3],
    pub local: Option<[usize; 3]>,
}

/// A work-group size for a NULL local size: in each dimension the largest divisor of the
/// global size that keeps the group within a core's threads (the first dimension first).
pub fn pick_local(global: [usize; 3], dims: u32, core_threads: usize) -> [usize; 3] {
    let mut local = [1usize; 3];
    let mut room = core_threads.clamp(1, MAX_WORK_GROUP);
    for d in 0..dims as usize {
        let best = (1..=room.min(global[d]))
            .rev()
            .find(|l| global[d].is_multiple_of(*l))
            .unwrap_or(1);
        local[d] = best;
        room /= best;
    }
    local
}

/// `clEnqueueNDRangeKernel`.
pub fn ndrange(
    q: &Arc<ClObj<Queue>>,
    k: &Arc<ClObj<Kernel>>,
    nd: NdRange,
    waits: Vec<Arc<ClObj<Event>>>,
) -> ClResult<Arc<ClObj<Event>>> {
    if !Arc::ptr_eq(&k.program.context, &q.context) {
        return Err(ClError::new(
            err::INVALID_CONTEXT,
            "the kernel's program belongs to another context",
        ));
    }
    if !(1..=3).contains(&nd.dims) {
        return Err(ClError::new(
            err::INVALID_WORK_DIMENSION,
            format!("work_dim {} (1, 2 or 3)", nd.dims),
        ));
    }
    let n = nd.dims as usize;
    for d in 0..n {
        if nd.global[d] == 0 || nd.global[d] > u32::MAX as usize {
            return Err(ClError::new(
                err::INVALID_GLOBAL_WORK_SIZE,
                format!("global_work_size[{d}] = {}", nd.global[d]),
            ));
        }
        if nd.offset[d]
            .checked_add(nd.global[d])
            .is_none_or(|e| e > u32::MAX as usize + 1)
        {
            return Err(ClError::new(
                err::INVALID_GLOBAL_OFFSET,
                format!("global_work_offset[{d}] + global_work_size[{d}] pass 2^32"),
            ));
        }
    }
    let cfg = &q.context.cfg;
    let local = match nd.local {
        Some(l) => {
            for (d, (&ld, &gd)) in l.iter().zip(&nd.global).take(n).enumerate() {
                if ld == 0 || ld > MAX_WORK_GROUP {
                    return Err(ClError::new(
                        err::INVALID_WORK_ITEM_SIZE,
                        format!("local_work_size[{d}] = {ld} (1 to {MAX_WORK_GROUP})"),
                    ));
                }
                if !gd.is_multiple_of(ld) {
                    return Err(ClError::new(
                        err::INVALID_WORK_GROUP_SIZE,
                        format!(
                            "global_work_size[{d}] = {gd} is not a multiple of local_work_size[{d}] = {ld}"
                        ),
                    ));
                }
            }
            l
        }
        None => match k.info.reqd_work_group_size {
            Some(r) => r.map(|x| x as usize),
            None => pick_local(nd.global, nd.dims, cfg.warps * cfg.lanes),
        },
    };
    let mut local3 = [1usize; 3];
    local3[..n].copy_from_slice(&local[..n]);
    let threads: usize = local3.iter().product();
    if threads > MAX_WORK_GROUP {
        return Err(ClError::new(
            err::INVALID_WORK_GROUP_SIZE,
            format!("a work-group of {threads} work-items (at most {MAX_WORK_GROUP})"),
        ));
    }
    if let Some(r) = k.info.reqd_work_group_size {
        if r.map(|x| x as usize) != local3 {
            return Err(ClError::new(
                err::INVALID_WORK_GROUP_SIZE,
                format!("kernel {} requires work-groups of {r:?}", k.info.name),
            ));
        }
    }
    let mut global3 = [1usize; 3];
    global3[..n].copy_from_slice(&nd.global[..n]);
    for d in 0..3 {
        if global3[d] % local3[d] != 0 {
            return Err(ClError::new(
                err::INVALID_WORK_GROUP_SIZE,
                format!("work-groups of {local3:?} do not divide the NDRange {global3:?}"),
            ));
        }
    }
    let crate::kernel::Snapshot {
        mut block,
        mems,
        shared,
    } = k.snapshot()?;
    if shared > cfg.local_mem_size as u64 {
        return Err(ClError::new(
            err::OUT_OF_RESOURCES,
            format!(
                "a work-group needs {shared} bytes of __local memory; the device has {}",
                cfg.local_mem_size
            ),
        ));
    }
    let mut header = [nd.dims, 0, 0, 0];
    for d in 0..n {
        header[d + 1] = nd.offset[d] as u32;
    }
    for (i, w) in header.iter().enumerate() {
        block[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    let grid = Dim3::new(
        (global3[0] / local3[0]) as u32,
        (global3[1] / local3[1]) as u32,
        (global3[2] / local3[2]) as u32,
    );
    let blk = Dim3::new(local3[0] as u32, local3[1] as u32, local3[2] as u32);
    let program = k.built.loaded.clone();
    let entry = k.entry;
    let work: Work = Box::new(move |ctx| {
        let args_addr = ctx.alloc(block.len())?;
        let launch = Launch {
            program,
            kernel: entry,
            args: block,
            args_addr,
            grid,
            block: blk,
            shared: shared as u32,
        };
        let r = ctx.engine.call(move |e| e.launch(&launch));
        ctx.free(args_addr);
        let ran = r?;
        for m in &mems {
            if m.host_ptr != 0 && m.device_writable() {
                m.sync_to_host(0, m.size)?;
            }
        }
        Ok(Some(ran))
    });
    submit(q, command::NDRANGE_KERNEL, waits, work)
}
