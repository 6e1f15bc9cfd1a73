//! Independent jobs run on the cores this process may use. Only ever an
//! optimisation: results come back in input order, exactly as a plain loop
//! would produce them. Every thread of the program (the command's own, see
//! [`on_deep_stack`], and these workers) gets the same deep stack.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The stack of every thread that reads or walks input: the readers, the
/// coalescing, the output writers and `Drop` recurse once per nesting level,
/// and input as deep as it is accepted must fit in a debug build, whose
/// frames are the largest. Measured there: values nested 10,000 levels
/// (go-yaml's and encoding/json's limit) fit in 256 MiB; helmfile templates
/// nested 100,000 levels (`gotmpl::MAX_NESTING`) take about 6 KiB a
/// level, 600 MiB. Only the pages a thread touches are committed, so a
/// shallow input costs what it did on the main thread's 8 MiB stack.
pub const DEEP_STACK_BYTES: usize = 1 << 30;

/// A thread with the [`DEEP_STACK_BYTES`] stack.
pub fn deep_stack_thread() -> std::thread::Builder {
    std::thread::Builder::new().stack_size(DEEP_STACK_BYTES)
}

/// Runs `f` on a thread with the [`DEEP_STACK_BYTES`] stack and returns
/// its result (a panic in `f` goes on in the caller). Under an address-space
/// limit (`ulimit -v`) that refuses such a stack, a quarter of it and then a
/// sixteenth are tried, and last the caller's own thread: right for any
/// input that is not very deep.
pub fn on_deep_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    // Lent to each thread tried, so that it is still here when none starts.
    let mut job = Some(f);
    for stack in [DEEP_STACK_BYTES, DEEP_STACK_BYTES / 4, DEEP_STACK_BYTES / 16] {
        let ran = std::thread::scope(|s| {
            let thread = std::thread::Builder::new().stack_size(stack);
            let handle = thread.spawn_scoped(s, || job.take().map(|f| f())).ok()?;
            handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        if let Some(r) = ran {
            return r;
        }
    }
    match job {
        Some(f) => f(),
        // A thread that starts takes the job and returns its result.
        None => unreachable!("a deep-stack thread took the job without returning its result"),
    }
}

/// Work started on a scoped thread with the deep stack, beside the
/// caller's; done on the caller's thread when no thread can be started.
pub enum Beside<'s, T> {
    Running(std::thread::ScopedJoinHandle<'s, T>),
    Done(T),
}

impl<'s, T: Send + 's> Beside<'s, T> {
    pub fn start<W: Fn() -> T + Sync>(scope: &'s std::thread::Scope<'s, '_>, work: &'s W) -> Beside<'s, T> {
        match deep_stack_thread().spawn_scoped(scope, work) {
            Ok(handle) => Beside::Running(handle),
            Err(_) => Beside::Done(work()),
        }
    }

    /// The result (a panic in the work goes on here).
    pub fn wait(self) -> T {
        match self {
            Beside::Running(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Beside::Done(result) => result,
        }
    }
}

/// How many threads are worth starting: the cores this process may use, at
/// most four (the jobs here are a few milliseconds in all; more threads cost
/// more to start than they save).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(4)
}

/// `items.into_iter().map(f)` on up to `threads` threads (this one
/// included), results in the order of `items`. `cost` orders the work,
/// largest first, so that no thread is left with a big job at the end.
pub fn map_in_order<T: Send, R: Send>(items: Vec<T>, threads: usize, cost: impl Fn(&T) -> usize, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let workers = threads.min(items.len());
    if workers <= 1 {
        return items.into_iter().map(f).collect();
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(cost(&items[i])));
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            // Each index is handed out once, so the slot is always full.
            let item = slots[i].lock().ok().and_then(|mut slot| slot.take());
            if let Some(item) = item {
                done.push((i, f(item)));
            }
        }
        done
    };
    let finished: Vec<(usize, R)> = std::thread::scope(|s| {
        // A worker that cannot be started leaves its share to the others.
        let others: Vec<_> = (1..workers).filter_map(|_| deep_stack_thread().spawn_scoped(s, work).ok()).collect();
        let mut all = work();
        for h in others {
            match h.join() {
                Ok(done) => all.extend(done),
                // A job only panics on a bug; let it surface as in a plain loop.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    let mut results: Vec<Option<R>> = std::iter::repeat_with(|| None).take(slots.len()).collect();
    for (i, r) in finished {
        results[i] = Some(r);
    }
    results.into_iter().map(|r| r.expect("every job ran exactly once")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 64 MiB of frames: far past a test thread's 2 MiB or a main thread's 8 MiB.
    #[test]
    fn on_deep_stack_fits_recursion_far_deeper_than_an_ordinary_thread() {
        fn depth(n: usize) -> usize {
            let frame = std::hint::black_box([0u8; 1024]);
            if n == 0 { usize::from(frame[0]) } else { 1 + depth(n - 1) + usize::from(frame[n % 1024]) }
        }
        assert_eq!(on_deep_stack(|| depth(64 * 1024)), 64 * 1024);
    }

    #[test]
    fn results_keep_the_input_order_whatever_the_thread_count() {
        let items: Vec<usize> = (0..100).collect();
        for threads in [0, 1, 2, 3, 8] {
            let got = map_in_order(items.clone(), threads, |&i| i % 7, |i| i * 2);
            assert_eq!(got, items.iter().map(|i| i * 2).collect::<Vec<_>>(), "{threads} threads");
        }
    }
}
