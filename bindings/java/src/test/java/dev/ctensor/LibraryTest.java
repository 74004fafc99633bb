package dev.ctensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The generated enums against the C library's own answers; errors and library-wide calls. */
class LibraryTest {
    @Test
    void dtypesAgreeWithTheLibrary() {
        for (DType d : DType.values()) {
            assertEquals(d.itemSize(), CTensor.dtypeSize(d.code()), d.name());
            assertEquals(d.torchName(), CTensor.dtypeName(d.code()), d.name());
            int kind = switch (d.kind()) {
                case "bool" -> 0;
                case "int" -> 1;
                case "float" -> 2;
                case "complex" -> 3;
                default -> throw new AssertionError(d.kind());
            };
            assertEquals(kind, CTensor.dtypeKind(d.code()), d.name());
            assertEquals(d.isSigned(), CTensor.dtypeIsSigned(d.code()), d.name());
            assertEquals(d, DType.of(d.code()));
        }
        assertEquals(0, CTensor.dtypeSize(8));
        assertNull(CTensor.dtypeName(8));
        assertEquals(-1, CTensor.dtypeKind(8));
        assertThrows(IllegalArgumentException.class, () -> DType.of(8));
    }

    @Test
    void statusesAgreeWithTheLibrary() {
        for (Status s : Status.values()) {
            assertEquals(s.cName(), CTensor.statusName(s.code()));
            assertEquals(s, Status.of(s.code()));
            if (s != Status.OK) {
                CTensorException e = s.exception("m");
                assertEquals(s, e.status());
                assertEquals(s.code(), e.code());
                assertEquals("m", e.getMessage());
            }
        }
        assertNull(CTensor.statusName(1000));
        assertNull(Status.of(1000));
    }

    @Test
    void failuresCarryTheLibrarysMessage() {
        BoundsException b = assertThrows(BoundsException.class, () -> {
            try (Tensor t = Tensor.zeros(DType.FLOAT32, 2, 3)) {
                t.select(1, 5);
            }
        });
        assertEquals(Status.BOUNDS, b.status());
        assertTrue(b.getMessage().startsWith("select:"), b.getMessage());
        assertTrue(b.getMessage().contains("5"), b.getMessage());
        InvalidArgumentException inv = assertThrows(InvalidArgumentException.class,
                () -> Tensor.zeros(DType.FLOAT32, -1));
        assertFalse(inv.getMessage().isEmpty());
        assertInstanceOf(CTensorException.class, inv);
        OverflowException o = assertThrows(OverflowException.class,
                () -> Tensor.empty(DType.FLOAT64, Long.MAX_VALUE / 2, 4));
        assertEquals(Status.OVERFLOW, o.status());
        ShapeException sh = assertThrows(ShapeException.class, () -> {
            try (Tensor a = Tensor.zeros(DType.FLOAT32, 2); Tensor c = Tensor.zeros(DType.FLOAT32, 3)) {
                a.add(c);
            }
        });
        assertTrue(sh.getMessage().contains("2") && sh.getMessage().contains("3"), sh.getMessage());
    }

    @Test
    void versionAndThreads() throws CTensorException {
        assertEquals(CTensor.version(), (CTensor.versionNumber() / 10000) + "." + (CTensor.versionNumber() / 100 % 100)
                + "." + (CTensor.versionNumber() % 100));
        assertTrue(CTensor.libraryLocation().contains("ctensor"));
        int before = CTensor.numThreads();
        CTensor.setNumThreads(2);
        assertEquals(2, CTensor.numThreads());
        CTensor.setNumThreads(before);
        assertThrows(InvalidArgumentException.class, () -> CTensor.setNumThreads(0));
    }

    @Test
    void threadCachesCanBeGivenBackBetweenUses() throws CTensorException {
        for (int round = 0; round < 3; round++) {
            try (Tensor t = Tensor.of(new double[] {1, 2, 3}); Tensor v = t.view(3, 1); Tensor s = v.sum(false)) {
                assertEquals(6.0, s.itemDouble());
            }
            CTensor.releaseThreadCaches();
        }
    }
}
