package org.dyper.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.dyper.runtime.internal.ThreadData.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;
import org.dyper.runtime.internal.Registry;
import org.dyper.runtime.internal.Totals;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every agent's numbers add up exactly across threads, including threads that have ended. */
class AgentsConcurrencyTest {
    static final int THREADS = 4;
    static final int CALLS = 100_000;
    static final int ID = 4242;

    enum Agent {
        COUNTING(i -> Counting.count(ID)) {
            @Override
            void check(Totals t) {
                assertEquals((long) THREADS * CALLS, t.count(ID));
                assertEquals(0, t.calls(ID), "count does not reach the call-site counts");
            }
        },
        COUNTING_CALLS(i -> Counting.countCall(ID)) {
            @Override
            void check(Totals t) {
                assertEquals((long) THREADS * CALLS, t.calls(ID));
                assertEquals(0, t.count(ID), "countCall does not reach the event counts");
            }
        },
        BOTH_COUNTERS(i -> {
            Counting.count(ID);
            if ((i & 3) == 0) {
                Counting.countCall(ID);
            }
        }) {
            @Override
            void check(Totals t) {
                assertEquals((long) THREADS * CALLS, t.count(ID));
                assertEquals((long) THREADS * CALLS / 4, t.calls(ID));
            }
        },
        TIMING(i -> Timing.exit(ID, Timing.enter(ID))) {
            @Override
            void check(Totals t) {
                long[] row = t.timing(ID);
                assertEquals((long) THREADS * CALLS, row[T_COUNT]);
                long inBuckets = 0;
                for (int b = 0; b < BUCKETS; b++) {
                    inBuckets += row[T_HIST + b];
                }
                assertEquals(row[T_COUNT], inBuckets, "every call lands in exactly one bucket");
                assertTrue(row[T_MIN] <= row[T_MAX]);
            }
        },
        SAMPLED_TIMING(i -> SampledTiming.exit(ID, SampledTiming.enter(ID))) {
            @Override
            void check(Totals t) {
                long[] row = t.sampled(ID);
                assertEquals((long) THREADS * CALLS, row[S_COUNT]);
                // Each thread times calls k, k+64, k+128, ... for some start k in [1, 64]: 1562 or 1563 of 100,000.
                long perThreadMin = CALLS / 64;
                assertTrue(row[S_SAMPLES] >= THREADS * perThreadMin && row[S_SAMPLES] <= THREADS * (perThreadMin + 1),
                        "samples: " + row[S_SAMPLES]);
            }
        },
        VALUES(i -> {
            Values.record(ID, i);
            Values.recordRef(ID, (i & 1) == 0 ? null : "x");
        }) {
            @Override
            void check(Totals t) {
                long[] row = t.values(ID);
                assertEquals((long) THREADS * CALLS, row[V_COUNT]);
                assertEquals(THREADS * ((long) CALLS * (CALLS - 1) / 2), row[V_SUM]);
                assertEquals(0, row[V_MIN]);
                assertEquals(CALLS - 1, row[V_MAX]);
                assertEquals((long) THREADS * CALLS / 2, row[V_NULLS]);
                assertEquals((long) THREADS * CALLS / 2, row[V_NONNULLS]);
            }
        };

        final IntConsumer call;

        Agent(IntConsumer call) {
            this.call = call;
        }

        abstract void check(Totals totals);
    }

    @BeforeEach
    void reset() {
        Dyper.reset();
    }

    @ParameterizedTest
    @EnumSource(Agent.class)
    void exactAcrossThreadsThatHaveEnded(Agent agent) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < CALLS; i++) {
                    agent.call.accept(i);
                }
            }, "agent-test-" + t));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        agent.check(Registry.snapshot());
        // Asking twice must not count the folded-in ended threads twice.
        agent.check(Registry.snapshot());
    }

    @ParameterizedTest
    @EnumSource(Agent.class)
    void exactWhileThreadsAreStillAlive(Agent agent) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(THREADS);
        CountDownLatch release = new CountDownLatch(1);
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < CALLS; i++) {
                    agent.call.accept(i);
                }
                done.countDown();
                try {
                    release.await();
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            });
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        done.await();
        try {
            agent.check(Registry.snapshot());
        } finally {
            release.countDown();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        agent.check(Registry.snapshot());
    }
}
