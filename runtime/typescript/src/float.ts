/**
 * The text concord writes for a float, in every language (docs/output-bytes.md).
 * Mirrors `runtime/rust/src/float.rs` (and Python's `_json.format_float`).
 *
 * The digits are the shortest that read back to the same double, which both
 * `String(number)` and `Number.prototype.toExponential()` (with no argument)
 * give by the language's definition; the layout is concord's:
 *
 * - the value is `d1.d2…dn × 10^k`;
 * - for `-5 <= k < 16`, positional (`0.00001`, `123.45`), an integral value
 *   keeping a `.0` (`1000000000000000.0`): in that range `String` is already
 *   positional, so only the `.0` is added;
 * - otherwise `d1[.d2…dn]e±k` with the exponent's sign always written
 *   (`1e+16`, `1.5e-7`, `5e-324`): exactly what `toExponential()` writes;
 * - a negative value gets a leading `-`.
 *
 * `fixtures/vectors/floats.json` (805 values) holds both to Rust's and Python's texts.
 */

/**
 * concord's text for a finite float. Non-finite values and negative zero have
 * none (the strict profile refuses them on reading): a `RangeError`, which the
 * writers turn into their own refusals before they get here.
 */
export function formatFloat(value: number): string {
  if (value === 0) {
    if (1 / value < 0) {
      throw new RangeError("negative zero is refused");
    }
    return "0.0";
  }
  const magnitude = value < 0 ? -value : value;
  // 1e-5 is the double nearest 10^-5, and 1e16 is exact: no double below
  // either has shortest digits at or above it, so these compares find k.
  if (magnitude >= 1e-5 && magnitude < 1e16) {
    const text = String(value);
    return Number.isInteger(value) ? `${text}.0` : text;
  }
  if (!Number.isFinite(value)) {
    throw new RangeError(`${nonFiniteText(value)} is not a JSON number`);
  }
  return value.toExponential();
}

/** A non-finite value as Rust's `f64` Display writes it: `NaN`, `inf`, `-inf`. */
export function nonFiniteText(value: number): string {
  if (Number.isNaN(value)) {
    return "NaN";
  }
  return value > 0 ? "inf" : "-inf";
}
