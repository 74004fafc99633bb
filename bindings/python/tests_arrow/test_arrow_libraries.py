"""The Arrow exchange against the real libraries: pyarrow, polars, DuckDB and
nanoarrow (pinned in scripts/test-arrow.sh). Permuted arrays are checked
against the canonical extension's rule (logical dim i is physical dim
permutation[i]), not against pyarrow's to_numpy_ndarray, which gets
permutations that are not their own inverse wrong (pyarrow 19 and 26)."""
import numpy as np
import pyarrow as pa
import pytest

import ctensor

NUMPY_DTYPES = ["uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
                "float64", "bool"]
ALL_DTYPES = NUMPY_DTYPES + ["bfloat16", "complex64", "complex128"]


def make(shape, dtype):
    """A contiguous ctensor tensor of `shape` with distinct small values."""
    n = int(np.prod(shape))
    values = (np.arange(n) % 97).reshape(shape)
    if dtype == "bool":
        values = values % 3 == 1
    t = ctensor.asarray(values.astype(np.float64) if dtype in ("bfloat16", "complex64", "complex128") else
                        values.astype(dtype))
    return t.to(getattr(ctensor, dtype)) if dtype in ("bfloat16", "complex64", "complex128") else t


def layouts(dtype):
    base = make((4, 3, 5), dtype)
    return {
        "contiguous": base,
        "transposed": base.transpose(1, 2),
        "rows": base[1:3],
        "strided rows": base[::2],
        "columns": base[:, :, 1:4],
        "one-d": make((7,), dtype),
    }


def values_address(arr):
    """The address of the values' data buffer (through nested FixedSizeLists)."""
    values = arr.storage if isinstance(arr, pa.ExtensionArray) else arr
    while pa.types.is_fixed_size_list(values.type):
        values = values.values
    return values.buffers()[1].address


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_roundtrip_through_pyarrow(dtype):
    marked = dtype in ("bfloat16", "complex64", "complex128")
    for name, t in layouts(dtype).items():
        if marked and t.ndim == 1:
            continue  # pyarrow drops a bare array's field metadata: see test_marked_one_d
        arr = pa.array(t)
        assert len(arr) == t.shape[0], name
        if t.ndim >= 2 and not marked:
            assert arr.type.extension_name == "arrow.fixed_shape_tensor", name
        if marked:  # nested FixedSizeLists, the dtype's name on the leaf field
            leaf = arr.type
            while pa.types.is_fixed_size_list(leaf) and leaf.value_field.metadata is None:
                leaf = leaf.value_type
            assert leaf.value_field.metadata[b"ARROW:extension:name"] == b"ctensor." + dtype.encode(), name
        back = ctensor.from_arrow(arr)
        assert back.dtype == t.dtype, name
        assert tuple(back.shape) == tuple(t.shape), name
        assert back.tolist() == t.tolist(), name


@pytest.mark.parametrize("dtype", ["bfloat16", "complex64", "complex128"])
def test_marked_one_d(dtype):
    na = pytest.importorskip("nanoarrow")
    t = make((7,), dtype)
    back = ctensor.from_arrow(na.c_array(t))  # nanoarrow keeps the schema as it is
    assert back.dtype == t.dtype
    assert back.tolist() == t.tolist()
    assert back.data_ptr() == t.data_ptr()
    # pyarrow reads the storage: the bits of bfloat16 as uint16, complex as pairs of floats.
    arr = pa.array(t)
    expected = "uint16" if dtype == "bfloat16" else ("float" if dtype == "complex64" else "double")
    leaf = arr.type if dtype == "bfloat16" else arr.type.value_type
    assert str(leaf) == expected


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d != "bool"])
def test_zero_copy_addresses(dtype):
    # bfloat16 and complex are nested FixedSizeLists: row-major only.
    permuted = () if dtype in ("bfloat16", "complex64", "complex128") else ("transposed",)
    for name in ("contiguous", "rows", "one-d") + permuted:
        t = layouts(dtype)[name]
        arr = pa.array(t)
        assert values_address(arr) == t.data_ptr(), name
        back = ctensor.from_arrow(arr)
        assert back.data_ptr() == t.data_ptr(), name
        assert back.stride() == t.stride() or t.ndim == 1, name
    # Layouts no permutation describes are copied.
    copied = ("transposed",) if not permuted else ()
    for name in ("strided rows", "columns") + copied:
        t = layouts(dtype)[name]
        assert values_address(pa.array(t)) != t.data_ptr(), name


@pytest.mark.parametrize("dtype", [d for d in NUMPY_DTYPES if d != "bool"])  # pyarrow: "bool is not valid
def test_to_numpy_ndarray_matches(dtype):                                    # data type for a tensor"
    # Identity and self-inverse permutations only (see the module's docstring).
    for name in ("contiguous", "transposed", "rows", "strided rows", "columns"):
        t = layouts(dtype)[name]
        arr = pa.array(t)
        np.testing.assert_array_equal(arr.to_numpy_ndarray(), np.asarray(t.tolist(), dtype=dtype), err_msg=name)


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_pyarrow_produced_arrays(dtype):
    n = np.arange(2 * 3 * 4).reshape(2, 3, 4) % 7
    x = (n % 3 == 1) if dtype == "bool" else n.astype(dtype)
    if dtype != "bool":  # pyarrow refuses bool tensors (bit-packed)
        arr = pa.FixedShapeTensorArray.from_numpy_ndarray(x)
        t = ctensor.from_arrow(arr)
        assert t.tolist() == x.tolist()
        assert t.data_ptr() == values_address(arr)
    # A slice: the array's offset is honoured.
    storage = pa.FixedSizeListArray.from_arrays(pa.array(x.reshape(-1)), 12)
    sliced = storage.slice(1, 1)
    t = ctensor.from_arrow(sliced)
    assert tuple(t.shape) == (1, 12)
    assert t.tolist() == x.reshape(2, 12)[1:].tolist()
    # A primitive array at an offset: 1-d.
    flat = pa.array(x.reshape(-1)).slice(5, 9)
    assert ctensor.from_arrow(flat).tolist() == x.reshape(-1)[5:14].tolist()


def spec_view(physical, permutation):
    """The canonical extension's rule: logical dim i is physical dim permutation[i]."""
    return np.transpose(physical, [0] + [1 + p for p in permutation])


@pytest.mark.parametrize("permutation", [[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 2, 1], [2, 1, 0]])
def test_permutations_by_spec(permutation):
    physical = np.arange(2 * 2 * 3 * 4, dtype=np.int32).reshape(2, 2, 3, 4)
    typ = pa.fixed_shape_tensor(pa.int32(), [2, 3, 4], permutation=permutation)
    storage = pa.FixedSizeListArray.from_arrays(pa.array(physical.reshape(-1)), 24)
    arr = pa.ExtensionArray.from_storage(typ, storage)
    t = ctensor.from_arrow(arr)
    expected = spec_view(physical, permutation)
    assert tuple(t.shape) == expected.shape
    assert t.tolist() == expected.tolist()
    assert t.data_ptr() == values_address(arr)
    # Exported again: the same physical shape and permutation, zero-copy.
    again = pa.array(t)
    assert list(again.type.shape) == [2, 3, 4]
    assert list(again.type.permutation or [0, 1, 2]) == permutation
    assert values_address(again) == values_address(arr)


def test_export_permutation_direction():
    base = ctensor.asarray(np.arange(2 * 2 * 3 * 4, dtype=np.int64).reshape(2, 2, 3, 4))
    t = base.permute(0, 3, 1, 2)  # logical (C, A, B) of physical (A, B, C)
    arr = pa.array(t)
    assert list(arr.type.shape) == [2, 3, 4]
    assert list(arr.type.permutation) == [2, 0, 1]
    physical = np.asarray(arr.storage.flatten().to_numpy()).reshape(2, 2, 3, 4)
    assert spec_view(physical, [2, 0, 1]).tolist() == t.tolist()


def test_chunked_arrays_and_errors():
    t = make((3, 4), "float32")
    one = pa.chunked_array([pa.array(t)])
    assert ctensor.from_arrow(one).tolist() == t.tolist()
    two = pa.chunked_array([pa.array(t), pa.array(t)])
    with pytest.raises(ValueError, match="more than one chunk"):
        ctensor.from_arrow(two)
    with pytest.raises(ValueError, match="nulls"):
        ctensor.from_arrow(pa.array([1, None, 3], pa.int32()))
    with pytest.raises(RuntimeError, match="format 'u' has no ctensor dtype"):
        ctensor.from_arrow(pa.array(["a", "b"]))
    with pytest.raises(NotImplementedError, match="nested type"):
        ctensor.from_arrow(pa.array([[1], [2, 3]]))
    with pytest.raises(TypeError, match="no Arrow PyCapsule interface"):
        ctensor.from_arrow(object())
    # A pyarrow validity bitmap with a null inside the slice, even with a known count.
    with pytest.raises(ValueError, match="nulls"):
        ctensor.from_arrow(pa.array([1.0, None, 2.0]).slice(1))


def test_variable_shape_tensors():
    rows = [np.arange(6, dtype=np.float32).reshape(2, 3), np.arange(4, dtype=np.float32).reshape(1, 4)]
    data = pa.array([r.reshape(-1) for r in rows], pa.list_(pa.float32()))
    shape = pa.array([list(r.shape) for r in rows], pa.list_(pa.int32(), 2))
    storage = pa.StructArray.from_arrays([data, shape], names=["data", "shape"])
    field = pa.field("t", storage.type, metadata={"ARROW:extension:name": "arrow.variable_shape_tensor",
                                                  "ARROW:extension:metadata": '{"permutation":[1,0]}'})
    schema_capsule = field.__arrow_c_schema__()
    _, array_capsule = storage.__arrow_c_array__()
    tensors = ctensor._C._from_arrow_capsules(schema_capsule, array_capsule, True)
    assert [x.tolist() for x in tensors] == [spec_view(r[None], [1, 0])[0].tolist() for r in rows]


def test_capsule_protocol_and_release():
    t = make((2, 3), "int32")
    schema = t.__arrow_c_schema__()
    assert type(schema).__name__ == "PyCapsule"
    assert pa.DataType._import_from_c_capsule(schema).extension_name == "arrow.fixed_shape_tensor"
    s, a = t.__arrow_c_array__(requested_schema=None)
    del s, a  # released by the capsules' destructors
    s, a = t.__arrow_c_device_array__()
    arr = pa.Array._import_from_c_device_capsule(s, a)
    assert ctensor.from_arrow(arr).tolist() == t.tolist()
    with pytest.raises(NotImplementedError):
        t.__arrow_c_device_array__(bogus=1)
    # The Arrow memory lives as long as a view of the import.
    view = ctensor.from_arrow(pa.array(make((3, 2), "float64")))[2]
    import gc
    gc.collect()
    assert view.tolist() == [4.0, 5.0]


def test_polars():
    pl = pytest.importorskip("polars")
    v = make((6,), "int64")
    series = pl.from_arrow(pa.array(v))
    assert series.to_list() == v.tolist()
    assert ctensor.from_arrow(series).tolist() == v.tolist()
    m = make((3, 4), "float32")
    s2 = pl.from_arrow(pa.array(m).storage)
    assert s2.dtype == pl.Array(pl.Float32, 4)
    assert s2.to_list() == m.tolist()
    assert ctensor.from_arrow(s2).tolist() == m.tolist()


def test_duckdb():
    duckdb = pytest.importorskip("duckdb")
    v = make((10,), "int32")
    m = make((3, 4), "float64")
    arrow_table = pa.table({"x": pa.array(v)})
    assert duckdb.sql("select sum(x) as s from arrow_table").fetchall()[0][0] == sum(v.tolist())
    tensors = pa.table({"m": pa.array(m).storage})
    rows = duckdb.sql("select m[2] as second from tensors").fetchall()
    assert [r[0] for r in rows] == [row[1] for row in m.tolist()]
    result = duckdb.sql("select x * 2 as y from arrow_table").arrow()
    if hasattr(result, "read_all"):  # DuckDB 1.4+: a RecordBatchReader
        result = result.read_all()
    column = result.column("y")
    assert ctensor.from_arrow(column.combine_chunks()).tolist() == [2 * x for x in v.tolist()]


def test_nanoarrow():
    na = pytest.importorskip("nanoarrow")
    m = make((2, 3), "int16")
    arr = na.c_array(m)
    assert ctensor.from_arrow(arr).tolist() == m.tolist()
    v = make((5,), "uint8")
    assert ctensor.from_arrow(na.c_array(v)).tolist() == v.tolist()
