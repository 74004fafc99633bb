package dev.ctensor;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Many threads creating, viewing, computing and releasing at once; close racing with use. */
class ThreadsTest {
    private static final int THREADS = 16;

    @Test
    void concurrentCreateViewRelease() throws Exception {
        try (Tensor shared = Tensor.of(ViewsTest.range(12), 3, 4);
             ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<?>> done = new ArrayList<>();
            for (int k = 0; k < THREADS; k++) {
                int id = k;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 2000; i++) {
                        try (Tensor row = shared.select(0, (id + i) % 3); Tensor scale = Tensor.scalar((double) id);
                             Tensor r = row.mul(scale); Tensor s = r.sum(false); Tensor mine = shared.share()) {
                            double base = 4 * ((id + i) % 3) * 4 + 6;
                            assertEquals(base * id, s.itemDouble());
                            assertEquals(12, mine.numel());
                        }
                        if (i % 50 == 0) {
                            // a wrapped segment released from this thread runs the Java release upcall here
                            MemorySegment seg = Arena.ofAuto().allocate(32, 8);
                            try (Tensor w = Tensor.wrap(seg, DType.FLOAT64, false)) {
                                w.fill(id);
                                assertEquals((double) id, seg.getAtIndex(JAVA_DOUBLE, 3));
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            assertEquals(1, shared.refcount());
            assertArrayEquals(ViewsTest.range(12), shared.toDoubleArray());
        }
    }

    @Test
    void closeRacingWithUseNeverCrashes() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            for (int round = 0; round < 50; round++) {
                int delay = round * 20_000;
                Tensor t = Tensor.of(ViewsTest.range(64), 8, 8);
                CountDownLatch start = new CountDownLatch(1);
                AtomicInteger ok = new AtomicInteger();
                AtomicInteger closed = new AtomicInteger();
                List<Future<?>> done = new ArrayList<>();
                for (int k = 0; k < THREADS - 1; k++) {
                    done.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < 200; i++) {
                            try {
                                try (Tensor v = t.transpose(0, 1); Tensor s = v.sum(false)) {
                                    assertEquals(2016.0, s.itemDouble());
                                }
                                double first = t.data().get(JAVA_DOUBLE, 8);
                                assertEquals(1.0, first);
                                ok.incrementAndGet();
                            } catch (IllegalStateException e) {
                                // ClosedException: the tensor was closed first; a data segment read after close fails too
                                closed.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                done.add(pool.submit(() -> {
                    start.await();
                    Thread.sleep(0, delay);
                    t.close();
                    t.close();
                    return null;
                }));
                start.countDown();
                for (Future<?> f : done) {
                    f.get();
                }
                assertTrue(t.isClosed());
                assertEquals((THREADS - 1) * 200, ok.get() + closed.get());
            }
        } finally {
            pool.shutdown();
        }
    }

    /** Each failure's message is its own call's, also on virtual threads that move between carriers. */
    @Test
    void messagesStayWithTheirCallOnVirtualThreads() throws Exception {
        try (Tensor t = Tensor.zeros(DType.FLOAT32, 3);
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int k = 0; k < 1000; k++) {
                long bad = 3 + k;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 5; i++) {
                        BoundsException e = assertThrows(BoundsException.class, () -> t.select(0, bad));
                        assertTrue(e.getMessage().contains("index " + bad + " "), e.getMessage());
                        Thread.sleep(1); // unmounts: the next call may run on another carrier
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }
}
