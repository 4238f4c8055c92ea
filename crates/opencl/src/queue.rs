//! In-order command queues. Each queue has a worker thread that takes its commands in order:
//! it waits for a command's wait list (a failed event fails the command), marks it submitted
//! and running, does its work — on the context's device thread for device work — and marks it
//! complete (or failed, with the error's code). So a command that waits for a user event holds
//! up only its own queue.

use crate::cl::err;
use crate::cl::event::{COMPLETE, RUNNING, SUBMITTED};
use crate::context::Context;
use crate::error::{ClError, ClResult};
use crate::event::Event;
use crate::object::{lock, ClObj};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;

/// A command's work: runs on the queue's worker; `Some((start, end))` device cycles if it
/// ran on the device for a while (a kernel).
pub type Work = Box<dyn FnOnce(&Context) -> ClResult<Option<(u64, u64)>> + Send>;

struct Cmd {
    event: Arc<ClObj<Event>>,
    waits: Vec<Arc<ClObj<Event>>>,
    work: Work,
}

/// A command queue.
pub struct Queue {
    pub context: Arc<ClObj<Context>>,
    pub props: u64,
    tx: Mutex<Option<mpsc::Sender<Cmd>>>,
    worker: Mutex<Option<JoinHandle<()>>>,
    /// The last command enqueued (`clFinish` waits for it).
    last: Mutex<Option<Arc<ClObj<Event>>>>,
}

impl Queue {
    /// A queue of `context` with properties `props`.
    pub fn new(context: Arc<ClObj<Context>>, props: u64) -> ClResult<Queue> {
        let (tx, rx) = mpsc::channel::<Cmd>();
        let ctx = context.clone();
        let worker = std::thread::Builder::new()
            .name("weft-opencl-queue".into())
            .spawn(move || {
                while let Ok(c) = rx.recv() {
                    run(&ctx, c);
                }
            })
            .map_err(|e| ClError::new(err::OUT_OF_HOST_MEMORY, format!("a queue thread: {e}")))?;
        Ok(Queue {
            context,
            props,
            tx: Mutex::new(Some(tx)),
            worker: Mutex::new(Some(worker)),
            last: Mutex::new(None),
        })
    }

    /// Whether events record profiling times.
    pub fn profiling(&self) -> bool {
        self.props & crate::cl::queue::PROFILING_ENABLE != 0
    }

    /// Enqueue a command with its event (already made) and wait list.
    pub fn submit(
        &self,
        event: Arc<ClObj<Event>>,
        waits: Vec<Arc<ClObj<Event>>>,
        work: Work,
    ) -> ClResult<()> {
        *lock(&self.last) = Some(event.clone());
        let tx = lock(&self.tx);
        let tx = tx
            .as_ref()
            .ok_or_else(|| ClError::new(err::INVALID_COMMAND_QUEUE, "the queue is closing"))?;
        tx.send(Cmd { event, waits, work })
            .map_err(|_| ClError::new(err::OUT_OF_RESOURCES, "the queue's thread has ended"))
    }

    /// `clFinish`: wait for every command enqueued so far.
    pub fn finish(&self) {
        let last = lock(&self.last).clone();
        if let Some(e) = last {
            e.wait();
        }
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        drop(lock(&self.tx).take());
        if let Some(w) = lock(&self.worker).take() {
            let _ = w.join();
        }
    }
}

/// One command, on the worker.
fn run(ctx: &Context, c: Cmd) {
    for w in &c.waits {
        if w.wait() < 0 {
            c.event
                .set_status(err::EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, ctx.now());
            return;
        }
    }
    c.event.set_status(SUBMITTED, ctx.now());
    c.event.set_status(RUNNING, ctx.now());
    match (c.work)(ctx) {
        Ok(ran) => {
            if let Some((start, end)) = ran {
                ctx.record_launch(start, end);
                c.event.set_run(start, end);
            }
            c.event.set_status(COMPLETE, ctx.now());
        }
        Err(e) => {
            eprintln!("weft OpenCL: a command failed: {e}");
            c.event.set_status(e.code, ctx.now());
        }
    }
}
