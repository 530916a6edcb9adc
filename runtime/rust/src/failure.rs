//! A value an assertion refused (`maxLength`, `pattern`, `minimum`, a
//! missing field, an unsupported version): why, where below the value being
//! checked (a JSON pointer, empty for the value itself), and what kind of
//! refusal, as data.
//!
//! Generated `Deserialize` impls raise failures inside serde, whose errors
//! hold only text. So the error carries the failure's message, and the
//! failure itself waits beside it, in this thread's slot, until
//! [`crate::Error`] takes it back with the pointer serde tracked: nothing is
//! encoded into the message and parsed out again. Each read that reports
//! (the reference reader's, a union branch's) starts with the slot empty
//! ([`Failure::forget_raised`]), so that a failure of an earlier read (the
//! one-pass reader's, whose error is dropped) is never taken for its own;
//! and only a failure whose message is the error's is taken.

use serde::de;
use std::cell::RefCell;

/// Why a value was refused, and where below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pointer: String,
    message: String,
    kind: Kind,
}

/// What a failure makes of the record's refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The value does not fit the schema (`Error::Schema`).
    Schema,
    /// A versioned envelope of a version its schema does not list (`Error::Version`).
    Version,
}

thread_local! {
    /// The failure raised last on this thread, beside the serde error that carries its message.
    static RAISED: RefCell<Option<Failure>> = const { RefCell::new(None) };
}

impl Failure {
    pub fn new(message: impl Into<String>) -> Self {
        Failure { pointer: String::new(), message: message.into(), kind: Kind::Schema }
    }

    /// A failure at `pointer` below the value being read.
    pub(crate) fn at(pointer: String, message: String) -> Self {
        Failure { pointer, message, kind: Kind::Schema }
    }

    /// An unsupported version, at the version property's `pointer`.
    pub(crate) fn version(pointer: String, message: String) -> Self {
        Failure { pointer, message, kind: Kind::Version }
    }

    /// The same failure, one array element further out.
    pub fn at_index(mut self, index: usize) -> Self {
        self.pointer.insert_str(0, &format!("/{index}"));
        self
    }

    /// The same failure, one object member further out.
    pub fn at_key(mut self, key: &str) -> Self {
        self.pointer.insert_str(0, &format!("/{}", crate::pointer::escape_token(key)));
        self
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub(crate) fn pointer(&self) -> &str {
        &self.pointer
    }

    pub(crate) fn kind(&self) -> Kind {
        self.kind
    }

    /// The serde error that carries this failure: its message as the text,
    /// the failure itself in this thread's slot.
    pub(crate) fn into_error<E: de::Error>(self) -> E {
        let error = E::custom(&self.message);
        RAISED.with(|raised| *raised.borrow_mut() = Some(self));
        error
    }

    /// Empties this thread's slot: what a read raised before is not this read's.
    pub(crate) fn forget_raised() {
        RAISED.with(|raised| raised.borrow_mut().take());
    }

    /// The failure raised last on this thread, if `message` is its error's text.
    pub(crate) fn take_raised(message: &str) -> Option<Failure> {
        RAISED.with(|raised| {
            let mut raised = raised.borrow_mut();
            if raised.as_ref().is_some_and(|failure| failure.message == message) {
                raised.take()
            } else {
                None
            }
        })
    }
}
