import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { sha256 } from "../src/index.js";
import { bytes, hex, random } from "./support.js";

test("NIST vectors", () => {
  assert.equal(hex(sha256(bytes(""))), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(hex(sha256(bytes("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    hex(sha256(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assert.equal(
    hex(sha256(new Uint8Array(1_000_000).fill(0x61))),
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
  );
});

test("every length around the block and padding boundaries, and random inputs, as node:crypto", () => {
  const next = random(0xc0ffeen);
  const data = new Uint8Array(5000).map(() => next(256));
  for (let length = 0; length <= 300; length++) {
    const input = data.subarray(0, length);
    assert.equal(hex(sha256(input)), createHash("sha256").update(input).digest("hex"), `length ${length}`);
  }
  for (let round = 0; round < 200; round++) {
    const start = next(1000);
    const input = data.subarray(start, start + next(4000));
    assert.equal(hex(sha256(input)), createHash("sha256").update(input).digest("hex"));
  }
});
