/**
 * SHA-256 (FIPS 180-4), synchronous, over a `Uint8Array`: digests must be
 * computed where WebCrypto's `subtle.digest` is asynchronous (and, in a
 * browser, only on secure origins). What Rust's `sha2` and Python's
 * `hashlib` compute for `canonical.rs`'s `digest_bytes`.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** The 32-byte SHA-256 digest of `data`. */
export function sha256(data: Uint8Array): Uint8Array {
  const state = new Int32Array(INITIAL);
  const words = new Int32Array(64);
  const length = data.length;
  const whole = length - (length % 64);
  for (let offset = 0; offset < whole; offset += 64) {
    compress(state, words, data, offset);
  }
  // The padded tail: the rest, 0x80, zeros, and the length in bits (64-bit big-endian).
  const rest = length - whole;
  const tail = new Uint8Array(rest < 56 ? 64 : 128);
  tail.set(data.subarray(whole));
  tail[rest] = 0x80;
  const end = tail.length;
  const high = Math.floor(length / 0x20000000);
  const low = (length * 8) >>> 0;
  tail[end - 8] = high >>> 24;
  tail[end - 7] = high >>> 16;
  tail[end - 6] = high >>> 8;
  tail[end - 5] = high;
  tail[end - 4] = low >>> 24;
  tail[end - 3] = low >>> 16;
  tail[end - 2] = low >>> 8;
  tail[end - 1] = low;
  for (let offset = 0; offset < end; offset += 64) {
    compress(state, words, tail, offset);
  }
  const digest = new Uint8Array(32);
  for (let index = 0; index < 8; index++) {
    const word = state[index] as number;
    digest[index * 4] = word >>> 24;
    digest[index * 4 + 1] = word >>> 16;
    digest[index * 4 + 2] = word >>> 8;
    digest[index * 4 + 3] = word;
  }
  return digest;
}

/** One 64-byte block at `offset` into `state`. */
function compress(state: Int32Array, words: Int32Array, data: Uint8Array, offset: number): void {
  for (let index = 0; index < 16; index++) {
    const at = offset + index * 4;
    words[index] =
      ((data[at] as number) << 24) |
      ((data[at + 1] as number) << 16) |
      ((data[at + 2] as number) << 8) |
      (data[at + 3] as number);
  }
  for (let index = 16; index < 64; index++) {
    const before = words[index - 15] as number;
    const previous = words[index - 2] as number;
    const s0 = ((before >>> 7) | (before << 25)) ^ ((before >>> 18) | (before << 14)) ^ (before >>> 3);
    const s1 = ((previous >>> 17) | (previous << 15)) ^ ((previous >>> 19) | (previous << 13)) ^ (previous >>> 10);
    words[index] = ((words[index - 16] as number) + s0 + (words[index - 7] as number) + s1) | 0;
  }
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  let e = state[4] as number;
  let f = state[5] as number;
  let g = state[6] as number;
  let h = state[7] as number;
  for (let index = 0; index < 64; index++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choice = (e & f) ^ (~e & g);
    const t1 = (h + S1 + choice + (K[index] as number) + (words[index] as number)) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = ((state[0] as number) + a) | 0;
  state[1] = ((state[1] as number) + b) | 0;
  state[2] = ((state[2] as number) + c) | 0;
  state[3] = ((state[3] as number) + d) | 0;
  state[4] = ((state[4] as number) + e) | 0;
  state[5] = ((state[5] as number) + f) | 0;
  state[6] = ((state[6] as number) + g) | 0;
  state[7] = ((state[7] as number) + h) | 0;
}
