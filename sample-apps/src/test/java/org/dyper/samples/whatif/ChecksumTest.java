package org.dyper.samples.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The what-if samples' checksums (what WhatIfEndToEndTest checks a run's output against) are computed with
 * {@link Work#jump}: they must be exactly what the programs' own methods compute with {@link Work#burn}.
 */
class ChecksumTest {
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 63, 64, 65, 1000, 4097, Counter.UNIT / 2, Requests.UNIT, Pipeline.RENDER,
            Pipeline.PARSE})
    void aJumpIsThatManyXorshiftSteps(int iterations) {
        Work.Jump jump = Work.jump(iterations);
        for (long seed : new long[] {0, 1, -1, 42, Long.MAX_VALUE, Long.MIN_VALUE, 0x9E3779B97F4A7C15L, 123456789}) {
            assertEquals(Work.burn(seed, iterations), jump.burn(seed), iterations + " steps from seed " + seed);
        }
    }

    @Test
    void pipelineChecksumIsParseRenderEmitOfEachItem() {
        Pipeline p = new Pipeline(Pipeline.PARSE, Pipeline.RENDER);
        long expected = 0;
        for (long i = 0; i < 40; i++) {
            expected = expected * 31 + p.render(p.parse(i));
        }
        assertEquals(expected, Pipeline.checksum(40, Pipeline.PARSE, Pipeline.RENDER));
    }

    @Test
    void counterChecksumIsPrepareAndUpdateOfEachThreadsSteps() {
        Counter c = new Counter(Counter.UNIT / 2, Counter.UNIT);
        long[] steps = {23, 17};
        long expected = 0;
        for (int t = 0; t < steps.length; t++) {
            for (long i = 0; i < steps[t]; i++) {
                expected += c.update(c.prepare(t * 1_000_000_000L + i));
            }
        }
        assertEquals(expected, Counter.checksum(steps, Counter.UNIT / 2, Counter.UNIT));
    }

    @Test
    void requestsChecksumIsAThenCOfEachRequest() {
        Requests r = new Requests(Requests.UNIT, 4 * Requests.UNIT, 0);
        long expected = 0;
        for (long i = 0; i < 30; i++) {
            expected = expected * 31 + r.c(r.a(i));
        }
        assertEquals(expected, Requests.checksum(30, Requests.UNIT, 4 * Requests.UNIT));
    }
}
