package dev.ctensor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * An open safetensors file ({@code tensor_safetensors_t}): its header, and its data mapped
 * (or read) once. Tensors got from it share that data and stay valid after it is closed.
 */
public final class SafeTensors extends Resource {
    private SafeTensors(MemorySegment address) {
        super(address, Native::tensor_safetensors_release, "SafeTensors");
    }

    /**
     * Opens and validates a safetensors file.
     * @param path  the file
     * @param flags 0 (map read-only: tensors are read-only, zero-copy), {@link Tensor#LOAD_WRITABLE}
     *              (map copy-on-write) or {@link Tensor#LOAD_COPY} (read into owned memory)
     * @return the open file
     * @throws CTensorException {@link IOFailureException}, {@link FormatException}, ...
     */
    public static SafeTensors open(Path path, int flags) throws CTensorException {
        return new SafeTensors(Call.out((out, a) ->
                Native.tensor_safetensors_open(out, a.allocateFrom(path.toString()), flags)));
    }

    /** @return the number of tensors */
    public long count() {
        try (Use u = Use.of(this)) {
            return Native.tensor_safetensors_count(u.get(0));
        }
    }

    /** @return the tensors' names in the order of the file's header */
    public List<String> names() {
        return stringList(Native::tensor_safetensors_count, Native::tensor_safetensors_name);
    }

    @FunctionalInterface
    private interface Item {
        MemorySegment get(MemorySegment st, long index);
    }

    /** The borrowed strings item(0 .. count - 1) of the handle, as Java strings. */
    private List<String> stringList(ToLongFunction<MemorySegment> count, Item item) {
        try (Use u = Use.of(this)) {
            long n = count.applyAsLong(u.get(0));
            List<String> out = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                out.add(Call.string(item.get(u.get(0), i)));
            }
            return out;
        }
    }

    /**
     * @param name a tensor's name
     * @return the tensor, a view of the file's data
     * @throws CTensorException {@link InvalidArgumentException} (no such tensor), {@link DTypeException} (F8_*)
     */
    public Tensor get(String name) throws CTensorException {
        try (Use u = Use.of(this)) {
            return new Tensor(Call.out((out, a) -> Native.tensor_safetensors_get(out, u.get(0), a.allocateFrom(name))));
        }
    }

    /** @return the "__metadata__" keys in the order of the file's header (values: {@link #metadata}) */
    public List<String> metadataKeys() {
        return stringList(Native::tensor_safetensors_metadata_count, Native::tensor_safetensors_metadata_key);
    }

    /**
     * @param key a "__metadata__" key
     * @return its value, or null if absent
     */
    public String metadata(String key) {
        try (Use u = Use.of(this); Arena a = Arena.ofConfined()) {
            return Call.string(Native.tensor_safetensors_metadata(u.get(0), a.allocateFrom(key)));
        }
    }

    /**
     * Writes tensors (any strides) and metadata as a safetensors file, atomically.
     * @param path     the file
     * @param tensors  names and tensors
     * @param metadata "__metadata__" pairs (may be empty)
     * @throws CTensorException {@link InvalidArgumentException}, {@link DTypeException} (complex128), {@link IOFailureException}
     */
    public static void save(Path path, Map<String, Tensor> tensors, Map<String, String> metadata)
            throws CTensorException {
        List<String> names = new ArrayList<>(tensors.keySet());
        Tensor[] values = names.stream().map(tensors::get).toArray(Tensor[]::new);
        try (Use u = Use.of(values)) {
            Call.run(a -> Native.tensor_safetensors_save(a.allocateFrom(path.toString()), names.size(),
                    strings(a, names), u.array(a, 0), metadata.size(),
                    strings(a, List.copyOf(metadata.keySet())), strings(a, List.copyOf(metadata.values()))));
        }
    }

    private static MemorySegment strings(Arena arena, List<String> list) {
        MemorySegment array = arena.allocate(ADDRESS, Math.max(1, list.size()));
        for (int i = 0; i < list.size(); i++) {
            array.setAtIndex(ADDRESS, i, arena.allocateFrom(list.get(i)));
        }
        return array;
    }
}
