package org.dyper.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.function.IntConsumer;
import org.dyper.runtime.Allocations;
import org.dyper.runtime.Counting;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.Fields;
import org.dyper.runtime.Locks;
import org.dyper.runtime.SampledTiming;
import org.dyper.runtime.Timing;
import org.dyper.runtime.Tracing;
import org.dyper.runtime.Values;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Once a thread has touched a site, the hot path allocates nothing (measured by the JVM's per-thread counter). */
class AllocationTest {
    static final Object LOCK_OBJECT = new Object();

    enum Call {
        COUNT(id -> Counting.count(id)),
        COUNT_CALL(id -> Counting.countCall(id)),
        TIME(id -> Timing.exit(id, Timing.enter(id))),
        SAMPLED_TIME(id -> SampledTiming.exit(id, SampledTiming.enter(id))),
        RECORD(id -> Values.record(id, id)),
        RECORD_REF(id -> Values.recordRef(id, Call.class)),
        LOCK(id -> {
            long requested = Locks.request(id, AllocationTest.LOCK_OBJECT);
            synchronized (AllocationTest.LOCK_OBJECT) {
                Locks.acquired(id, AllocationTest.LOCK_OBJECT, requested);
                long inner = Locks.request(id + 100, Call.class);
                synchronized (Call.class) {
                    Locks.acquired(id + 100, Call.class, inner);
                    Locks.released(id + 100, Call.class);
                }
                Locks.released(id, AllocationTest.LOCK_OBJECT);
            }
        }),
        OBJECT_ALLOC(id -> Allocations.object(id, id + 100)),
        ARRAY_ALLOC(id -> Allocations.array(id, id + 100, id & 63)),
        FIELD_WRITE(id -> {
            Fields.write(id, id + 100, AllocationTest.LOCK_OBJECT, id, id + 1);
            synchronized (AllocationTest.LOCK_OBJECT) {
                Fields.write(id, id + 100, AllocationTest.LOCK_OBJECT, id, id + 1);
            }
            Fields.write(id, id + 200, null, id, -id);
        }),
        FIELD_WRITE_REF(id -> Fields.writeRef(id, id + 100, AllocationTest.LOCK_OBJECT, (id & 1) == 0 ? null : Call.class,
                AllocationTest.LOCK_OBJECT)),
        /** The trace modes with no recording that enables the dyper.* types: one test each. */
        TRACE_DISABLED(id -> {
            Tracing.exit(id, Tracing.enter(id));
            Tracing.fieldWrite(id, id + 100, AllocationTest.LOCK_OBJECT, id, id + 1);
            Tracing.referenceWrite(id, id + 200, AllocationTest.LOCK_OBJECT, (id & 1) == 0 ? null : Call.class,
                    AllocationTest.LOCK_OBJECT);
        });

        static final Object LOCK_OBJECT = new Object();

        final IntConsumer call;

        Call(IntConsumer call) {
            this.call = call;
        }
    }

    @ParameterizedTest
    @EnumSource(Call.class)
    void steadyStateAllocatesNothing(Call call) {
        Dyper.reset();
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs the HotSpot ThreadMXBean");
        com.sun.management.ThreadMXBean hotspot = (com.sun.management.ThreadMXBean) mx;
        assumeTrue(hotspot.isThreadAllocatedMemorySupported() && hotspot.isThreadAllocatedMemoryEnabled());
        long thread = Thread.currentThread().getId();
        // Warm-up creates this thread's rows and links the VarHandle call sites (both allocate, once).
        for (int i = 0; i < 50_000; i++) {
            call.call.accept((i & 15) - 8);
        }
        hotspot.getThreadAllocatedBytes(thread);
        long measurementCost = -(hotspot.getThreadAllocatedBytes(thread) - hotspot.getThreadAllocatedBytes(thread));
        long before = hotspot.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 200_000; i++) {
            call.call.accept((i & 15) - 8);
        }
        long after = hotspot.getThreadAllocatedBytes(thread);
        assertEquals(0, Math.max(0, after - before - measurementCost), "bytes allocated by 200,000 calls");
    }
}
