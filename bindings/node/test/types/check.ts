// Type-checked only (tsc --noEmit): the declarations cover the API as used.
import * as ct from '../..';

const a: ct.Tensor = ct.fromTypedArray(new Float32Array([1, 2, 3, 4, 5, 6]), { shape: [2, 3] });
const t: ct.Tensor = a.transpose(0, 1).contiguous();
const values: ct.ElementArray = t.data();
const first: number = values[0] as number;
const dims: number[] = [...a.shape, ...a.strides, a.storageOffset, a.numel];
const ok: boolean = a.isContiguous && !a.released;
const sum = a.add(1).mul(a).sum([1], true).item();
const mask = a.gt(2.5);
const pieces: ct.Tensor[] = a.split(2, 1);
const idx = a.index([0, { start: 1, step: 1 }, null, '...']);
const h = ct.fromTypedArray(new Uint16Array([0x3c00]), { dtype: 'float16' });
const big = ct.tensor([1n, 2n]).item();
const joined = ct.cat([a, a], 0);
const same: boolean = ct.equal(a, a.clone()) && ct.allclose(a, a, { rtol: 0 });
ct.binaryInto(a, 'add', a, 1);
ct.saveSafetensors('/tmp/x.safetensors', { a }, { format: 'pt' });
const st: ct.SafeTensors = ct.openSafetensors('/tmp/x.safetensors');
const names: string[] = st.keys();
st.close();
try {
  a.select(1, 9);
} catch (e) {
  if (e instanceof ct.BoundsError) {
    const code: string = e.code;
    const status: number = e.status;
    void code;
    void status;
  }
}
a.release();
void [first, dims, ok, sum, mask, pieces, idx, h, big, joined, same, names];
