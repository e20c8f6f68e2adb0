package org.dyper.cli.whatif;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import org.dyper.runtime.whatif.WhatIf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Benchmark, not a test (it asserts nothing and runs only when asked): what a loop head costs per iteration of a
 * tight loop (three xorshift steps, {@link LoopHeadsTest.Looping#spin}), in this thread's CPU time, for the loop
 * without a loop head, with one and no experiment running (one volatile read), and with one while an experiment runs
 * that nobody owes delay in (the thread-local check). Rounds alternate the three; the median per variant is printed.
 * Run it with {@code mvn -B -q -pl weaver-cli -am test -Dtest=LoopHeadsBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false -Ddyper.bench.loopheads=true} (or {@code benchmarks/run-whatif loop-heads});
 * docs/whatif.md has the figures.
 */
@EnabledIfSystemProperty(named = "dyper.bench.loopheads", matches = "true",
        disabledReason = "a benchmark: run with -Ddyper.bench.loopheads=true (docs/whatif.md)")
class LoopHeadsBenchmark {
    static final int ITERATIONS = 200_000_000;
    static final int ROUNDS = 9;

    @Test
    void costPerIteration() throws Exception {
        byte[] original = LoopHeadsTest.bytes();
        Method plain = LoopHeadsTest.spin(original);
        Method headed = LoopHeadsTest.spin(LoopHeads.insert(original, Set.of("spin")).bytes());
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        String[] names = {"no loop head", "loop head, no experiment", "loop head, experiment running"};
        double[][] ns = new double[3][ROUNDS];
        long sink = 0;
        for (int warm = 0; warm < 3; warm++) {
            sink += (long) plain.invoke(null, ITERATIONS / 10) + (long) headed.invoke(null, ITERATIONS / 10);
            WhatIf.start(WhatIf.NONE, 0);
            sink += (long) headed.invoke(null, ITERATIONS / 10);
            WhatIf.stop();
        }
        for (int r = 0; r < ROUNDS; r++) {
            for (int v = 0; v < 3; v++) {
                if (v == 2) {
                    WhatIf.start(WhatIf.NONE, 0);
                }
                long t0 = mx.getCurrentThreadCpuTime();
                sink += (long) (v == 0 ? plain : headed).invoke(null, ITERATIONS);
                ns[v][r] = (double) (mx.getCurrentThreadCpuTime() - t0) / ITERATIONS;
                WhatIf.stop();
            }
        }
        System.out.printf(Locale.ROOT, "loop heads: CPU ns per iteration, median of %d rounds of %,d (sink %x); load %s%n",
                ROUNDS, ITERATIONS, sink & 0xff, String.join(" ", java.nio.file.Files.readString(
                        java.nio.file.Path.of("/proc/loadavg")).split(" ")).substring(0, 14));
        for (int v = 0; v < 3; v++) {
            double[] sorted = ns[v].clone();
            Arrays.sort(sorted);
            System.out.printf(Locale.ROOT, "  %-32s %.3f ns (min %.3f, max %.3f)%n", names[v], sorted[ROUNDS / 2],
                    sorted[0], sorted[ROUNDS - 1]);
        }
    }
}
