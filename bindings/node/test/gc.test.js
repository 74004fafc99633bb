'use strict';
// Memory under the garbage collector: 10^6 tensors created and released, explicitly
// and by the collector alone, with the resident set size flat. Needs --expose-gc
// (npm test passes it).
const test = require('node:test');
const assert = require('node:assert/strict');
const { setImmediate: tick } = require('node:timers/promises');
const ct = require('..');

const N = 1_000_000;
// The bound on RSS growth between the end of the warm-up (the first tenth) and the end:
// a leak of even one small allocation (a 16-float storage, a napi reference, a JS
// wrapper) per iteration would add well over 64 MiB over the remaining 900 000.
const BOUND_MIB = 24;

const mib = () => process.memoryUsage.rss() / 2 ** 20;

async function settle(rounds = 1) {
  for (let i = 0; i < rounds; ++i) {
    global.gc();
    await tick(); // finalizers of collected wrappers run from the event loop
  }
}

async function measure(step) {
  let warm = 0;
  for (let i = 0; i < N; ++i) {
    step(i);
    if (i % 50_000 === 49_999) await settle();
    if (i === N / 10 - 1) warm = mib();
  }
  await settle(3);
  return { warm, end: mib() };
}

test('10^6 tensors released explicitly: memory flat', { timeout: 120_000 }, async (t) => {
  assert.equal(typeof global.gc, 'function', 'run with --expose-gc');
  const data = new Float32Array(16);
  const { warm, end } = await measure((i) => {
    const x = (i & 1) === 0 ? ct.zeros([4, 4]) : ct.fromTypedArray(data);
    x.release();
  });
  t.diagnostic(`RSS ${warm.toFixed(1)} MiB after ${N / 10}, ${end.toFixed(1)} MiB after ${N}`);
  assert.ok(end - warm < BOUND_MIB, `RSS grew ${(end - warm).toFixed(1)} MiB (${warm.toFixed(1)} -> ${end.toFixed(1)})`);
});

test('10^6 tensors left to the garbage collector: memory flat, storages released', { timeout: 120_000 }, async (t) => {
  const data = new Float32Array(16);
  const keep = ct.fromTypedArray(data);
  const { warm, end } = await measure((i) => {
    // Views over one storage (its refcount shows that the collector released them)
    // and fresh tensors with their own storage, none released by hand.
    const x = (i & 1) === 0 ? ct.zeros([16]) : ct.fromTypedArray(data);
    if ((i & 7) === 0) x.data();
  });
  t.diagnostic(`RSS ${warm.toFixed(1)} MiB after ${N / 10}, ${end.toFixed(1)} MiB after ${N}`);
  assert.ok(end - warm < BOUND_MIB, `RSS grew ${(end - warm).toFixed(1)} MiB (${warm.toFixed(1)} -> ${end.toFixed(1)})`);
  // Every tensor and buffer over `data` made in the loop is gone: only `keep` is left.
  assert.equal(keep.storageInfo().refcount, 1);
});
