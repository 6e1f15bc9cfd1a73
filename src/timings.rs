//! Wall times of named phases, for `--timings` (`RELEASEX_TIMINGS=1`).
//! Core modules mark a phase with [`phase`] and never print; `cli` turns
//! recording on and prints what [`take`] returns. Off by default, so a
//! phase costs one relaxed atomic load.

use std::borrow::Cow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static ENABLED: AtomicBool = AtomicBool::new(false);
static RECORDED: Mutex<Option<Recorder>> = Mutex::new(None);

struct Recorder {
    origin: Instant,
    phases: Vec<Phase>,
}

/// One finished phase.
#[derive(Debug, Clone, PartialEq)]
pub struct Phase {
    pub name: Cow<'static, str>,
    /// When it started, from [`enable`].
    pub start: Duration,
    pub elapsed: Duration,
    /// How many phases were open around it when it started (for indenting).
    pub depth: usize,
}

thread_local! {
    static OPEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Starts recording; times are measured from now.
pub fn enable() {
    let mut recorded = RECORDED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    *recorded = Some(Recorder { origin: Instant::now(), phases: Vec::new() });
    ENABLED.store(true, Ordering::Relaxed);
}

pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Marks a phase: it lasts until the returned guard is dropped.
#[must_use = "the phase ends when the guard is dropped"]
pub fn phase(name: impl Into<Cow<'static, str>>) -> PhaseGuard {
    if !enabled() {
        return PhaseGuard(None);
    }
    let depth = OPEN.with(|open| {
        let depth = open.get();
        open.set(depth + 1);
        depth
    });
    PhaseGuard(Some((name.into(), Instant::now(), depth)))
}

/// Runs `work` as the phase `name`.
pub fn timed<T>(name: impl Into<Cow<'static, str>>, work: impl FnOnce() -> T) -> T {
    let _phase = phase(name);
    work()
}

pub struct PhaseGuard(Option<(Cow<'static, str>, Instant, usize)>);

impl PhaseGuard {
    /// Names the phase by what it found (`read 500 objects: 12 LISTs`).
    pub fn rename(mut self, name: impl Into<Cow<'static, str>>) -> PhaseGuard {
        if let Some((old, _, _)) = self.0.as_mut() {
            *old = name.into();
        }
        self
    }
}

impl Drop for PhaseGuard {
    fn drop(&mut self) {
        let Some((name, started, depth)) = self.0.take() else { return };
        let elapsed = started.elapsed();
        OPEN.with(|open| open.set(open.get().saturating_sub(1)));
        let mut recorded = RECORDED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(r) = recorded.as_mut() {
            let start = started.saturating_duration_since(r.origin);
            r.phases.push(Phase { name, start, elapsed, depth });
        }
    }
}

/// The phases recorded so far, in the order they started (an enclosing
/// phase before the ones inside it), and the time since [`enable`].
pub fn take() -> (Vec<Phase>, Duration) {
    let mut recorded = RECORDED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let Some(r) = recorded.as_mut() else { return (Vec::new(), Duration::ZERO) };
    let mut phases = std::mem::take(&mut r.phases);
    phases.sort_by(|a, b| a.start.cmp(&b.start).then(a.depth.cmp(&b.depth)));
    (phases, r.origin.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_phases_are_recorded_in_start_order_with_their_depth() {
        enable();
        {
            let _outer = phase("outer");
            timed("inner", || std::thread::sleep(Duration::from_millis(2)));
        }
        let (phases, total) = take();
        // Other tests may mark phases on their threads meanwhile.
        let phases: Vec<&Phase> = phases.iter().filter(|p| matches!(p.name.as_ref(), "outer" | "inner")).collect();
        let names: Vec<(&str, usize)> = phases.iter().map(|p| (p.name.as_ref(), p.depth)).collect();
        assert_eq!(names, [("outer", 0), ("inner", 1)]);
        assert!(phases[1].elapsed >= Duration::from_millis(2));
        assert!(phases[0].elapsed >= phases[1].elapsed);
        assert!(total >= phases[0].elapsed);
    }
}
