package dev.ctensor;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** .npy, safetensors and mapped storages, checked against the bytes on disk. */
class FilesTest {
    @TempDir
    Path dir;

    @Test
    void npyRoundTripMappedAndCopied() throws CTensorException, IOException {
        Path p = dir.resolve("a.npy");
        try (Tensor t = Tensor.of(ViewsTest.range(6), 2, 3); Tensor tt = t.transpose(0, 1)) {
            tt.saveNpy(p);
        }
        byte[] file = Files.readAllBytes(p);
        assertEquals("\u0093NUMPY", new String(file, 0, 6, java.nio.charset.StandardCharsets.ISO_8859_1));
        String header = new String(file, 10, file.length - 10 - 48, java.nio.charset.StandardCharsets.US_ASCII);
        assertTrue(header.contains("'descr': '<f8'"), header);
        assertTrue(header.contains("'shape': (3, 2)"), header);
        ByteBuffer data = ByteBuffer.wrap(file, file.length - 48, 48).order(ByteOrder.LITTLE_ENDIAN);
        double[] onDisk = new double[6];
        data.asDoubleBuffer().get(onDisk);
        assertArrayEquals(new double[] {0, 3, 1, 4, 2, 5}, onDisk);

        try (Tensor mapped = Tensor.loadNpy(p, 0); Tensor copied = Tensor.loadNpy(p, Tensor.LOAD_COPY);
             Tensor cow = Tensor.loadNpy(p, Tensor.LOAD_WRITABLE)) {
            assertArrayEquals(new long[] {3, 2}, mapped.shape());
            assertTrue(mapped.isReadOnly());
            assertTrue(mapped.data().isReadOnly());
            assertArrayEquals(onDisk, mapped.data().toArray(JAVA_DOUBLE));
            assertThrows(ReadOnlyException.class, () -> mapped.fill(1));
            assertFalse(copied.isReadOnly());
            cow.fill(7);
            assertArrayEquals(onDisk, mapped.data().toArray(JAVA_DOUBLE));
        }
        assertThrows(IOFailureException.class, () -> Tensor.loadNpy(dir.resolve("missing.npy"), 0));
        Files.write(dir.resolve("bad.npy"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
        assertThrows(FormatException.class, () -> Tensor.loadNpy(dir.resolve("bad.npy"), 0));
        try (Tensor bf = Tensor.zeros(DType.BFLOAT16, 2)) {
            assertThrows(DTypeException.class, () -> bf.saveNpy(dir.resolve("bf.npy")));
        }
    }

    @Test
    void safetensorsRoundTrip() throws CTensorException, IOException {
        Path p = dir.resolve("m.safetensors");
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        try (Tensor w = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3); Tensor b = Tensor.of(new long[] {-1, 9});
             Tensor wt = w.transpose(0, 1)) {
            tensors.put("weight_t", wt);
            tensors.put("bias", b);
            SafeTensors.save(p, tensors, Map.of("format", "pt"));
        }
        byte[] file = Files.readAllBytes(p);
        long headerLen = ByteBuffer.wrap(file, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        String header = new String(file, 8, (int) headerLen, java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(header.contains("\"weight_t\""), header);
        assertTrue(header.contains("\"F32\""), header);
        try (SafeTensors st = SafeTensors.open(p, 0)) {
            assertEquals(2, st.count());
            assertEquals(List.of("bias", "weight_t"), st.names().stream().sorted().toList());
            assertEquals("pt", st.metadata("format"));
            assertNull(st.metadata("absent"));
            assertEquals(List.of("format"), st.metadataKeys());
            try (Tensor w = st.get("weight_t")) {
                st.close(); // tensors outlive the file handle
                assertArrayEquals(new long[] {3, 2}, w.shape());
                assertTrue(w.isReadOnly());
                assertArrayEquals(new float[] {1, 4, 2, 5, 3, 6}, w.data().toArray(JAVA_FLOAT));
            }
            assertThrows(ClosedException.class, st::count);
        }
        try (SafeTensors st = SafeTensors.open(p, Tensor.LOAD_COPY); Tensor b = st.get("bias")) {
            assertFalse(b.isReadOnly());
            assertArrayEquals(new long[] {-1, 9}, b.toLongArray());
            assertThrows(InvalidArgumentException.class, () -> st.get("nope"));
        }
        try (Tensor c = Tensor.scalarComplex(1, 1)) {
            assertThrows(DTypeException.class, () -> SafeTensors.save(dir.resolve("c.st"), Map.of("c", c), Map.of()));
        }
        Files.write(dir.resolve("bad.st"), new byte[] {(byte) 200, 0, 0, 0, 0, 0, 0, 0, '{'});
        assertThrows(FormatException.class, () -> SafeTensors.open(dir.resolve("bad.st"), 0));
    }

    @Test
    void mappedAndSharedStorages() throws CTensorException, IOException {
        Path p = dir.resolve("raw.bin");
        ByteBuffer bytes = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 4; i++) {
            bytes.putDouble(i * 1.25);
        }
        Files.write(p, bytes.array());
        try (Storage s = Storage.mapFile(p, 8, 16, Storage.MAP_READ);
             Tensor t = Tensor.fromStorage(s, DType.FLOAT64, new long[] {2}, null, 0)) {
            assertEquals(16, s.nbytes());
            assertTrue(s.isReadOnly());
            assertEquals(-1, s.fd());
            assertArrayEquals(new double[] {1.25, 2.5}, t.data().toArray(JAVA_DOUBLE));
        }
        try (Storage s = Storage.mapFile(p, 0, 0, Storage.MAP_WRITE);
             Tensor t = Tensor.fromStorage(s, DType.FLOAT64, new long[] {4}, null, 0)) {
            t.fill(-3);
        }
        assertEquals(-3.0, ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN).getDouble(24));
        assertThrows(BoundsException.class, () -> Storage.mapFile(p, 40, 0, Storage.MAP_READ));
        try (Storage shared = Storage.allocateShared(64)) {
            assertTrue(shared.fd() >= 0);
            shared.data().set(JAVA_DOUBLE, 8, 6.5);
            try (Storage again = Storage.fromFd(shared.fd(), 0, Storage.MAP_WRITE)) {
                assertEquals(64, again.nbytes());
                assertEquals(6.5, again.data().get(JAVA_DOUBLE, 8));
            }
        }
        assertThrows(InvalidArgumentException.class, () -> Storage.fromFd(-1, 0, Storage.MAP_READ));
    }
}
