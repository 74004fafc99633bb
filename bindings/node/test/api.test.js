'use strict';
// The binding against api.json: every C function is called by the addon (src/) or
// listed in not-wrapped.json with a reason. A function added to the header and
// forgotten here fails by name.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const api = JSON.parse(fs.readFileSync(path.join(root, '..', '..', 'api.json'), 'utf8'));
const notWrapped = JSON.parse(fs.readFileSync(path.join(root, 'not-wrapped.json'), 'utf8'));
delete notWrapped['//'];

// The C++ sources without comments, so that a name in a comment does not count as a call.
const source = fs.readdirSync(path.join(root, 'src'))
  .filter((f) => /\.(cc|h)$/.test(f))
  .map((f) => fs.readFileSync(path.join(root, 'src', f), 'utf8'))
  .join('\n')
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\/\/.*$/gm, '');

function called(name) {
  return new RegExp(`\\b${name}\\b`).test(source);
}

/** The functions of `functions` that the addon neither calls nor lists, by name. */
function unaccounted(functions) {
  return functions.map((f) => f.name).filter((n) => !called(n) && !Object.hasOwn(notWrapped, n));
}

for (const fn of api.functions) {
  test(`${fn.name} is wrapped or listed as not wrapped`, () => {
    const wrapped = called(fn.name);
    const listed = Object.hasOwn(notWrapped, fn.name);
    assert.ok(wrapped || listed, `${fn.name} (${fn.section}) is neither called in src/ nor listed in not-wrapped.json`);
    assert.ok(!(wrapped && listed), `${fn.name} is called in src/ but also listed in not-wrapped.json`);
    if (listed) assert.ok(notWrapped[fn.name].length > 10, `${fn.name}: give a reason`);
  });
}

test('not-wrapped.json lists only functions that api.json has', () => {
  const names = new Set(api.functions.map((f) => f.name));
  assert.deepEqual(Object.keys(notWrapped).filter((n) => !names.has(n)), []);
});

test('a function added to a copy of api.json is reported by name', () => {
  const copy = structuredClone(api.functions);
  assert.deepEqual(unaccounted(copy), []);
  copy.push({ ...copy.find((f) => f.name === 'tensor_add'), name: 'tensor_frobnicate' });
  assert.deepEqual(unaccounted(copy), ['tensor_frobnicate']);
});

test('the addon uses only the public header', () => {
  const includes = [...source.matchAll(/#include\s+[<"]([^>"]+)[>"]/g)].map((m) => m[1]);
  const foreign = includes.filter((h) => !['ctensor.h', 'napi.h', 'common.h'].includes(h) && !/^[a-z_]+$/.test(h));
  assert.deepEqual(foreign, []);
});

test('api.json statuses and dtypes match what the addon reports', () => {
  const ct = require('..');
  for (const s of api.statuses) assert.equal(ct.statusName(s.value), s.name);
  const dtypes = Object.fromEntries(ct.dtypes.map((d) => [d.name, d]));
  for (const d of api.dtypes) {
    assert.equal(dtypes[d.name]?.code, d.value, d.name);
    assert.equal(dtypes[d.name].size, d.size, d.name);
    assert.equal(dtypes[d.name].kind, d.kind, d.name);
  }
  assert.equal(ct.dtypes.length, api.dtypes.length);
});

test('index.d.ts declares every export and every Tensor member, and nothing else', () => {
  const ct = require('..');
  const dts = fs.readFileSync(path.join(root, 'index.d.ts'), 'utf8');
  const declared = new Set([...dts.matchAll(/^export (?:function|const|class) (\w+)/gm)].map((m) => m[1]));
  const exported = Object.keys(ct).filter((k) => !k.startsWith('_') && k !== 'errorFactory');
  assert.deepEqual(exported.filter((k) => !declared.has(k)), [], 'exports missing from index.d.ts');
  assert.deepEqual([...declared].filter((k) => !exported.includes(k)), [], 'declared but not exported');
  const body = dts.slice(dts.indexOf('export class Tensor {'), dts.indexOf('export class SafeTensors'));
  const members = new Set([...body.matchAll(/^ {2}(?:readonly )?(\w+)[(:?]/gm)].map((m) => m[1]));
  const runtime = Object.getOwnPropertyNames(ct.Tensor.prototype)
    .filter((n) => n !== 'constructor' && !n.startsWith('_'));
  assert.deepEqual(runtime.filter((n) => !members.has(n)), [], 'Tensor members missing from index.d.ts');
  assert.deepEqual([...members].filter((n) => !runtime.includes(n)), [], 'declared Tensor members missing at run time');
});
