package dev.ctensor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** close(), the Cleaner, and memory staying flat over 10^6 create/release iterations. */
class LifetimeTest {
    @Test
    void closeTwiceIsHarmlessAndUseAfterCloseThrows() throws CTensorException {
        Tensor t = Tensor.zeros(DType.FLOAT32, 4);
        Storage s = t.storage();
        t.close();
        assertDoesNotThrow(t::close);
        assertTrue(t.isClosed());
        ClosedException e = assertThrows(ClosedException.class, t::numel);
        assertTrue(e.getMessage().contains("Tensor"));
        assertThrows(ClosedException.class, () -> t.add(t));
        assertThrows(ClosedException.class, () -> Tensor.cat(0, t));
        assertEquals("Tensor(closed)", t.toString());
        assertEquals(1, s.refcount()); // the tensor's reference is gone
        s.close();
        s.close();
        assertThrows(ClosedException.class, s::nbytes);
    }

    @Test
    void viewsAndSharesOutliveTheirSource() throws CTensorException {
        Tensor t = Tensor.of(new double[] {1, 2, 3});
        Tensor share = t.share();
        Tensor view = t.slice(0, 1, 3, 1);
        assertEquals(2, t.refcount());
        t.close();
        assertEquals(1, share.refcount());
        assertEquals(5.0, view.sum(false).itemDouble());
        share.close();
        view.close();
    }

    private static long rssKiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS");
    }

    /** n create/release iterations: two tensors and a wrapped storage each, closed or dropped. */
    private static long loop(int n, boolean close) throws CTensorException {
        long sink = 0;
        MemorySegment seg = Arena.global().allocate(64);
        for (int i = 0; i < n; i++) {
            if (close) {
                try (Tensor t = Tensor.zeros(DType.FLOAT32, 4, 4); Tensor v = t.transpose(0, 1);
                     Tensor w = Tensor.wrap(seg, DType.FLOAT64, false)) {
                    sink += v.numel() + w.numel();
                }
            } else {
                // dropped without close: the Cleaner releases them
                sink += Tensor.zeros(DType.FLOAT32, 4, 4).transpose(0, 1).numel();
                sink += Tensor.wrap(seg, DType.FLOAT64, false).numel();
            }
        }
        return sink;
    }

    /** Collects until the Cleaner has released every dropped wrapped tensor. */
    private static void drain() throws InterruptedException {
        for (int i = 0; i < 100 && KeepAlive.held() > 0; i++) {
            System.gc();
            Thread.sleep(50);
        }
        assertEquals(0, KeepAlive.held(), "wrapped owners still held after the Cleaner ran");
    }

    /**
     * 10^6 create/release with close, then 3*10^5 left to the Cleaner: resident memory after
     * a run (and after the Cleaner caught up) is what it was after a warm-up run of the same
     * kind, so nothing accumulates per iteration.
     */
    @Test
    void millionCreationsKeepMemoryFlat() throws Exception {
        for (boolean close : new boolean[] {true, false}) {
            int n = close ? 1_000_000 : 300_000;
            loop(n, close); // warm up: JIT, heap sizing, malloc arenas, the Cleaner's backlog
            drain();
            // Each iteration makes two tensors and a wrapped storage (hundreds of bytes in C): a
            // leak grows RSS by hundreds of MiB in every run. 32 MiB allows for heap and
            // allocator noise; a run left to the Cleaner can exceed it once (the Cleaner's thread
            // frees into its own malloc arena, the heap resizes), so up to three runs are
            // measured and a leak fails all three.
            long growth = Long.MAX_VALUE;
            for (int run = 0; run < 3 && growth >= 32 * 1024; run++) {
                long before = rssKiB();
                long t0 = System.nanoTime();
                assertEquals(n * 24L, loop(n, close));
                drain();
                growth = rssKiB() - before;
                System.out.printf("lifetime: %d iterations (close=%s) in %.1f s, RSS growth %d KiB%n", n, close,
                        (System.nanoTime() - t0) / 1e9, growth);
            }
            assertTrue(growth < 32 * 1024, "RSS grew by " + growth + " KiB (close=" + close + ") in each of three runs");
        }
    }
}
