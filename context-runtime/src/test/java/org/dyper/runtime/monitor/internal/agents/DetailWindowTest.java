package org.dyper.runtime.monitor.internal.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.dyper.runtime.monitor.internal.Settings;
import org.dyper.runtime.monitor.internal.sampling.Frame;
import org.junit.jupiter.api.Test;

/**
 * The detailing thresholds decide on the recent window (DETAIL_WINDOW), not on all samples since the start: the CPU
 * agent driven with a fake clock, as the sampler would drive it.
 */
class DetailWindowTest {
    /**
     * A program hot in crunchPrimes for its first 20 s and in digest for the next 20 s (a sample every 10 ms, a check
     * every second, the default thresholds and DETAIL_WINDOW of 5 s): crunchPrimes is a candidate from the first
     * check until the window has passed it (5 checks after it stopped), although its share of all samples is still
     * 50% at the end; digest from the first check after it started. The report keeps the cumulative figures.
     */
    @Test
    void aMethodHotInAnEarlyPhaseCoolsDownOnceTheWindowHasPassedIt() {
        long[] now = {0};
        CpuAgent cpu = new CpuAgent(new Settings(), new ClassTypes(), () -> now[0]);
        Map<String, List<Integer>> checks = new LinkedHashMap<>();
        for (int check = 1; check <= 40; check++) {
            String hot = check <= 20 ? "crunchPrimes" : "digest";
            for (int i = 0; i < 100; i++) {
                cpu.record(1, "main", List.of(new Frame("a.App", hot, 7, false, null), new Frame("a.App", "main", 3,
                        false, null)), 10_000_000);
                now[0] += 10;
            }
            for (CpuAgent.Candidate c : cpu.detailCandidates()) {
                checks.computeIfAbsent(c.method(), k -> new ArrayList<>()).add(check);
            }
        }
        assertEquals(range(1, 40), checks.get("main"));
        assertEquals(range(1, 24), checks.get("crunchPrimes"), "un-patched 5 checks after it stopped: at the 24th "
                + "its last 50 samples are 11% of the window's 450, at the 25th none are left");
        assertEquals(range(21, 40), checks.get("digest"));
        assertEquals(2000, cpu.method("a.App", "crunchPrimes").total(), "the report keeps every sample");
        assertEquals(4000, cpu.method("a.App", "main").total());

        now[0] += 60_000;  // an idle minute: no samples, too little to go by, so nothing stops
        assertEquals(Set.of("main", "digest"), cpu.detailCandidates().stream().map(CpuAgent.Candidate::method)
                .collect(Collectors.toSet()));
    }

    @Test
    void aChangedWindowStartsEmptyAndStopsNothingUntilItHoldsEnough() {
        long[] now = {0};
        Settings settings = new Settings();
        settings.set(Map.of("CLASS_DETAIL_MINIMUM", "1000000"));  // methods alone
        CpuAgent cpu = new CpuAgent(settings, new ClassTypes(), () -> now[0]);
        for (int i = 0; i < 300; i++) {
            cpu.record(1, "main", List.of(new Frame("a.App", "crunchPrimes", 7, false, null)), 10_000_000);
            now[0] += 10;
        }
        assertEquals(List.of("crunchPrimes"), cpu.detailCandidates().stream().map(CpuAgent.Candidate::method)
                .toList());
        settings.set(Map.of("DETAIL_WINDOW", "2000"));
        assertEquals(List.of("crunchPrimes"), cpu.detailCandidates().stream().map(CpuAgent.Candidate::method)
                .toList(), "an empty window is too little to go by");
        for (int i = 0; i < 9; i++) {
            cpu.record(1, "main", List.of(new Frame("a.App", "digest", 7, false, null)), 10_000_000);
            now[0] += 10;
        }
        assertEquals(List.of("crunchPrimes"), cpu.detailCandidates().stream().map(CpuAgent.Candidate::method)
                .toList(), "9 samples: fewer than METHOD_DETAIL_MINIMUM");
        cpu.record(1, "main", List.of(new Frame("a.App", "digest", 7, false, null)), 10_000_000);
        assertEquals(List.of("digest"), cpu.detailCandidates().stream().map(CpuAgent.Candidate::method).toList());
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> list = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            list.add(i);
        }
        return list;
    }
}
