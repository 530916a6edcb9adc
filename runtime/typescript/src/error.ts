/**
 * What every refusal this runtime throws has, as in Rust and Python: an
 * `Error` whose `name` is its class, with `kind` (the words of Rust's
 * `Error::kind` and Python's `kind`: `duplicate-key`, `schema`,
 * `unsupported-version`, `write`...), `pointer` (the JSON pointer of the
 * refused value, where the refusal has one, as Rust's `Error::pointer`) and
 * `offset` (the UTF-8 byte offset in the input, where the refusal knows one:
 * the strict profile's, as Rust's and Python's `JsonError.offset`). Where one
 * is not known it is `undefined`, never a guess. The message is the other
 * runtimes' text, word for word. A leaf: it imports nothing of this package.
 */
export abstract class ConcordError extends Error {
  abstract override readonly name: string;
  /** What kind of refusal, in the words every runtime uses. */
  abstract readonly kind: string;
  /** The JSON pointer (RFC 6901) of the refused value, or `undefined` where the refusal has none. */
  abstract readonly pointer: string | undefined;
  /** The UTF-8 byte offset in the input, or `undefined` where the refusal knows none. */
  abstract readonly offset: number | undefined;
}
