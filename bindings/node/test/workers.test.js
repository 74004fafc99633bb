'use strict';
// Worker threads: each loads the addon into its own environment, creates and
// releases tensors, and gets JS buffers transferred in and out.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const { values } = require('./helpers');

const lib = path.join(__dirname, '..');
const helpers = path.join(__dirname, 'helpers.js');

function run(source, workerData, transferList = []) {
  return new Promise((resolve, reject) => {
    const w = new Worker(source, { eval: true, workerData: { lib, helpers, ...workerData }, transferList });
    const messages = [];
    w.on('message', (m) => messages.push(m));
    w.on('error', reject);
    w.on('exit', (code) => (code === 0 ? resolve(messages) : reject(new Error(`worker exit ${code}`))));
  });
}

test('eight workers create, compute with and release tensors at once', async () => {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const ct = require(workerData.lib);
    const { values } = require(workerData.helpers);
    let total = 0;
    for (let round = 0; round < 200; ++round) {
      const data = Float64Array.from(values(64, { seed: workerData.seed + round }));
      const t = ct.fromTypedArray(data, { shape: [8, 8] });
      const s = t.transpose(0, 1).mul(2).sum();
      total += s.item();
      s.release();
      t.release();
      if (round % 50 === 0) global.gc?.();
    }
    try { ct.zeros([2]).select(0, 3); } catch (e) { parentPort.postMessage({ code: e.code, cls: e.constructor.name }); }
    parentPort.postMessage({ total });
  `;
  const results = await Promise.all(Array.from({ length: 8 }, (_, i) => run(source, { seed: 100 * i })));
  results.forEach((messages, i) => {
    assert.deepEqual(messages[0], { code: 'TENSOR_E_BOUNDS', cls: 'BoundsError' });
    let expected = 0;
    for (let round = 0; round < 200; ++round) {
      expected += 2 * values(64, { seed: 100 * i + round }).reduce((a, b) => a + b, 0);
    }
    assert.ok(Math.abs(messages[1].total - expected) < 1e-9 * Math.abs(expected) + 1e-9, `worker ${i}`);
  });
});

test('a buffer transferred to a worker is wrapped there zero-copy, and a result transferred back', async () => {
  const input = Float64Array.from(values(1000, { seed: 7 }));
  const expected = Array.from(input, (v) => v * v + 1);
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const ct = require(workerData.lib);
    const data = new Float64Array(workerData.buffer); // moved here: no copy
    const t = ct.fromTypedArray(data);
    data[0] = data[0]; // the worker owns the memory now
    const r = t.mul(t).add(1);
    const out = r.toTypedArray(); // a plain copy: transferable
    t.release();
    r.release();
    parentPort.postMessage({ out, length: data.length }, [out.buffer]);
  `;
  const buffer = input.buffer.slice(0);
  const [reply] = await run(source, { buffer }, [buffer]);
  assert.equal(buffer.byteLength, 0); // detached here: it moved
  assert.equal(reply.length, 1000);
  assert.deepEqual(Array.from(reply.out), expected);
});

test('a worker that exits with live tensors over its own buffers shuts down cleanly', async () => {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const ct = require(workerData.lib);
    globalThis.keep = [];
    for (let i = 0; i < 100; ++i) {
      const t = ct.fromTypedArray(new Float32Array(256).fill(i), { shape: [16, 16] });
      globalThis.keep.push(t, t.transpose(0, 1), t.data());
    }
    parentPort.postMessage(globalThis.keep[3].sum().item());
  `;
  const [sum] = await run(source, {});
  assert.equal(sum, 256);
  // Terminated in the middle of work: the environment's cleanup drops what is left.
  const busy = new Worker(`
    const ct = require(require('node:worker_threads').workerData.lib);
    const keep = [];
    for (;;) { keep.push(ct.fromTypedArray(new Float32Array(64))); if (keep.length > 1000) keep.length = 0; }
  `, { eval: true, workerData: { lib } });
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(await busy.terminate(), 1);
});
