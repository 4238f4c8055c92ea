//! Command queues (`vx_queue_h`): in-order, asynchronous. Each queue has a worker thread
//! that takes its commands in the order they were enqueued, waits for each command's wait
//! list, runs it (device work goes to the device thread), records its timestamps when the
//! queue profiles, and completes the command's event — with the failure's code when the
//! command or one of the events it waited for failed (then the command itself does not run).
//! The caller never blocks on an enqueue. Dropping the last holder of a queue lets the worker
//! finish what was enqueued, then ends it. The commands themselves are in
//! [`crate::commands`].

use crate::device::Device;
use crate::error::{VxError, VxResult};
use crate::event::{now_ns, Event, ProfileInfo};
use crate::sync::lock;
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;

/// What a command does once its wait list is satisfied.
pub type Work = Box<dyn FnOnce(&Arc<Device>) -> VxResult<()> + Send>;

/// A command with its wait list.
pub struct Command {
    pub waits: Vec<Arc<Event>>,
    pub work: Work,
}

impl Command {
    pub fn new(
        waits: Vec<Arc<Event>>,
        work: impl FnOnce(&Arc<Device>) -> VxResult<()> + Send + 'static,
    ) -> Command {
        Command {
            waits,
            work: Box::new(work),
        }
    }
}

struct Job {
    cmd: Command,
    done: Arc<Event>,
    queued_ns: u64,
}

/// A queue.
pub struct Queue {
    pub dev: Arc<Device>,
    profiling: bool,
    tx: Mutex<Option<mpsc::Sender<Job>>>,
    worker: Mutex<Option<JoinHandle<()>>>,
}

impl Queue {
    /// A queue on `dev`; `profiling`: record each command's timestamps in its event.
    pub fn new(dev: Arc<Device>, profiling: bool) -> VxResult<Queue> {
        let (tx, rx) = mpsc::channel::<Job>();
        let d = dev.clone();
        let worker = std::thread::Builder::new()
            .name("weft-vortex-queue".into())
            .spawn(move || work_loop(&d, rx, profiling))
            .map_err(|e| VxError::Internal(format!("cannot start a queue thread: {e}")))?;
        Ok(Queue {
            dev,
            profiling,
            tx: Mutex::new(Some(tx)),
            worker: Mutex::new(Some(worker)),
        })
    }

    /// Does the queue record timestamps?
    pub fn profiling(&self) -> bool {
        self.profiling
    }

    /// Append a command; its event completes when it is done.
    pub fn enqueue(&self, cmd: Command) -> VxResult<Arc<Event>> {
        let done = Arc::new(Event::default());
        let job = Job {
            cmd,
            done: done.clone(),
            queued_ns: now_ns(),
        };
        lock(&self.tx)
            .as_ref()
            .ok_or_else(|| VxError::Internal("the queue is closed".into()))?
            .send(job)
            .map_err(|_| VxError::Internal("the queue's worker is gone".into()))?;
        Ok(done)
    }

    /// `vx_queue_finish`: wait until everything enqueued so far is done (a barrier's event).
    pub fn finish(&self, timeout: Option<std::time::Duration>) -> VxResult<()> {
        let ev = self.enqueue(Command::new(Vec::new(), |_| Ok(())))?;
        ev.wait(1, timeout)
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        drop(lock(&self.tx).take());
        if let Some(w) = lock(&self.worker).take() {
            if w.thread().id() != std::thread::current().id() {
                let _ = w.join();
            }
        }
    }
}

fn work_loop(dev: &Arc<Device>, rx: mpsc::Receiver<Job>, profiling: bool) {
    while let Ok(job) = rx.recv() {
        let mut r = Ok(());
        for w in &job.cmd.waits {
            if r.is_ok() {
                r = w.wait(1, None);
            }
        }
        let submit = now_ns();
        let (mut start, mut end) = (submit, submit);
        if r.is_ok() {
            start = now_ns();
            r = (job.cmd.work)(dev);
            end = now_ns();
            if let Err(e) = &r {
                if !matches!(e, VxError::Dependency(_)) {
                    eprintln!("libvortex (weft): {e}");
                }
            }
        }
        if profiling {
            job.done.set_profile(ProfileInfo {
                queued_ns: job.queued_ns,
                submit_ns: submit,
                start_ns: start,
                end_ns: end,
            });
        }
        job.done.complete(&r);
    }
}
