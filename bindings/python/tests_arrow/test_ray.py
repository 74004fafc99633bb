"""One real engine end to end: Ray Data on this machine (2 CPUs). ctensor batches
become Arrow tables (arrow.fixed_shape_tensor columns, no copy), Ray's workers
view them as ctensor tensors in map_batches, and the results come back to
ctensor through Arrow."""
import numpy as np
import pyarrow as pa
import pytest

import ctensor

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_map_batches_round_trip(local_ray):
    # Defined here so that Ray pickles it by value (workers cannot import this file).
    def scale(table):
        import ctensor as ct  # in the worker
        import pyarrow as pa_

        x = ct.from_arrow(table.column("x").combine_chunks())  # a view of the block's memory
        return pa_.table({"x": pa_.array(x * 2 + 1), "rows": pa_.array(ct.arange(x.shape[0]) * 0 + x.shape[0])})

    batches = [ctensor.asarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4) + 100 * i) for i in range(3)]
    # One batch transposed: exported with a permutation, no copy; Ray carries it through.
    batches[1] = ctensor.asarray(np.arange(24, dtype=np.float32).reshape(2, 4, 3) + 100).transpose(1, 2)
    ds = ray.data.from_arrow([pa.table({"x": pa.array(b)}) for b in batches])
    out = ds.map_batches(scale, batch_format="pyarrow", batch_size=None)
    tables = ray.get(out.to_arrow_refs())
    # Blocks keep their own layouts (the transposed batch's result is permuted too),
    # so they are read one by one rather than concatenated as Arrow.
    permutations = {tuple(t.column("x").type.permutation or ()) for t in tables}
    assert (1, 0) in permutations
    got = ctensor.cat([ctensor.from_arrow(t.column("x").combine_chunks()) for t in tables])
    expected = ctensor.cat(batches) * 2 + 1
    assert tuple(got.shape) == (6, 3, 4)
    assert sorted(map(str, got.tolist())) == sorted(map(str, expected.tolist()))
    assert sum(sum(ctensor.from_arrow(t.column("rows").combine_chunks()).tolist()) for t in tables) == 2 * 6
