//! Panics caught where the lab runs the generator in-process: each one is
//! a verdict or a finding, with the place it was raised, and prints nothing.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::AssertUnwindSafe;
use std::sync::Once;

thread_local! {
    /// The last panic on this thread inside [`caught`], as the hook saw it: where and what.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    /// Whether this thread is inside [`caught`].
    static CATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, turning a panic into its place and message
/// (`panicked at <file>:<line>: <message>`).
pub fn caught<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    LAST_PANIC.with(|last| last.borrow_mut().take());
    let outer = CATCHING.replace(true);
    let result = std::panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.set(outer);
    result.map_err(|payload| LAST_PANIC.with(|last| last.borrow_mut().take()).unwrap_or_else(|| message(payload.as_ref())))
}

/// The panic hook, for the rest of the process: it records a panic inside
/// [`caught`] on its own thread (the watchdog's, for the fuzzer), and hands
/// any other to the hook there was before. Never taken out again: that would
/// race other threads' panics, and outside `caught` it changes nothing.
fn install_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CATCHING.get() {
                return previous(info);
            }
            let location = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
            LAST_PANIC.with(|last| *last.borrow_mut() = Some(format!("panicked at {location}: {}", message(info.payload()))));
        }));
    });
}

fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}
