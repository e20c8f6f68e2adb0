package org.dyper.runtime.monitor.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What automatic detailing chooses to patch, the model it asks for, and how it finds (or fails to find) a service. */
class DetailerTest {
    @TempDir
    Path dir;

    private static CpuAgent.Candidate c(String item, long total, boolean forced) {
        int hash = item.indexOf('#');
        return new CpuAgent.Candidate(item.substring(0, hash), item.substring(hash + 1), total, forced);
    }

    @Test
    void forcedFirstThenWhatIsInThenByRankAtMostMax() {
        List<CpuAgent.Candidate> ranked = List.of(c("a.F#forced", 0, true), c("a.A#top", 900, false),
                c("a.B#second", 800, false), c("a.C#third", 700, false), c("a.D#fourth", 600, false));
        Map<String, String> skipped = new TreeMap<>();
        assertEquals(List.of("a.F#forced", "a.A#top", "a.B#second"), Detailer.choose(ranked, Set.of(), 3,
                x -> null, skipped));
        assertEquals(List.of("a.F#forced", "a.D#fourth", "a.A#top"), Detailer.choose(ranked, Set.of("a.D#fourth"),
                3, x -> null, skipped), "an item that is in stays in while it is a candidate: no flapping");
        assertEquals(List.of(), Detailer.choose(ranked, Set.of(), 0, x -> null, skipped), "DETAIL_MAX=0");
        assertEquals(Map.of(), skipped);
    }

    @Test
    void refusedCandidatesAreSkippedWithTheirReasonAndLeaveRoom() {
        List<CpuAgent.Candidate> ranked = List.of(c("java.util.HashMap#hash", 900, false), c("a.A#top", 800, false),
                c("a.A#<init>", 700, false), c("a.B#second", 600, false));
        Map<String, String> skipped = new TreeMap<>();
        assertEquals(List.of("a.A#top", "a.B#second"), Detailer.choose(ranked, Set.of(), 2,
                x -> x.className().startsWith("java.") ? "a system class"
                        : x.method().startsWith("<") ? "constructors and class initialisers are not detailed" : null,
                skipped));
        assertEquals(Map.of("java.util.HashMap#hash", "a system class", "a.A#<init>",
                "constructors and class initialisers are not detailed"), skipped);
    }

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
                cpu.record(1, "main", List.of(new Frame("a.App", hot, 7, false), new Frame("a.App", "main", 3,
                        false)), 10_000_000);
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
                .collect(java.util.stream.Collectors.toSet()));
    }

    @Test
    void aChangedWindowStartsEmptyAndStopsNothingUntilItHoldsEnough() {
        long[] now = {0};
        Settings settings = new Settings();
        settings.set(Map.of("CLASS_DETAIL_MINIMUM", "1000000"));  // methods alone
        CpuAgent cpu = new CpuAgent(settings, new ClassTypes(), () -> now[0]);
        for (int i = 0; i < 300; i++) {
            cpu.record(1, "main", List.of(new Frame("a.App", "crunchPrimes", 7, false)), 10_000_000);
            now[0] += 10;
        }
        assertEquals(List.of("crunchPrimes"), cpu.detailCandidates().stream().map(CpuAgent.Candidate::method)
                .toList());
        settings.set(Map.of("DETAIL_WINDOW", "2000"));
        assertEquals(List.of("crunchPrimes"), cpu.detailCandidates().stream().map(CpuAgent.Candidate::method)
                .toList(), "an empty window is too little to go by");
        for (int i = 0; i < 9; i++) {
            cpu.record(1, "main", List.of(new Frame("a.App", "digest", 7, false)), 10_000_000);
            now[0] += 10;
        }
        assertEquals(List.of("crunchPrimes"), cpu.detailCandidates().stream().map(CpuAgent.Candidate::method)
                .toList(), "9 samples: fewer than METHOD_DETAIL_MINIMUM");
        cpu.record(1, "main", List.of(new Frame("a.App", "digest", 7, false)), 10_000_000);
        assertEquals(List.of("digest"), cpu.detailCandidates().stream().map(CpuAgent.Candidate::method).toList());
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> list = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            list.add(i);
        }
        return list;
    }

    @Test
    void theModelTimesEachMethodAndCountsItsCallsAndReplacesTheLastVersion() {
        assertEquals("<MODEL NAME='dyper-detail'><FOR CLASS='*' METHOD='*' UPDATE='NEW'/>"
                + "<FOR CLASS='a.A$In' METHOD='hot'><PATCH WHAT='ENTER' MODE='TIME_ENTER'/>"
                + "<PATCH WHAT='EXIT' MODE='TIME_EXIT'/><PATCH WHAT='CALL' MODE='COUNT_CALLS'/></FOR></MODEL>",
                Detailer.modelXml(List.of("a.A$In#hot")));
    }

    @Test
    void withoutAServiceItSaysWhy() throws Exception {
        DetailService.Unavailable none = assertThrows(DetailService.Unavailable.class,
                () -> new DetailService(dir, 4242, "none").client());
        assertEquals("waiting for the patch service " + dir.resolve("4242.patchd") + " (agent option cli=none: the "
                + "launcher starts it, as dyper run --detail does)", none.getMessage());
        DetailService.Unavailable missing = assertThrows(DetailService.Unavailable.class,
                () -> new DetailService(dir, 4242, dir.resolve("no-such-dyper").toString()).client());
        assertTrue(missing.getMessage().startsWith("cannot start the patch service (" + dir.resolve("no-such-dyper")
                + " patchd): "), missing.getMessage());
    }

    @Test
    void aServiceThatEndsAtOnceIsReportedWithItsExitCodeAndOutput() throws Exception {
        Path cli = dir.resolve("dyper");
        Files.writeString(cli, "#!/bin/sh\necho \"patchd $*\"\nexit 3\n");
        Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rwx------"));
        DetailService s = new DetailService(dir, 4242, cli.toString());
        assertEquals("starting the patch service (" + cli + " patchd --pid 4242)",
                assertThrows(DetailService.Unavailable.class, s::client).getMessage());
        Path log = dir.resolve("4242.patchd.log");
        String message = null;
        for (int i = 0; i < 600 && (message == null || message.startsWith("starting")); i++) {
            Thread.sleep(50);
            message = assertThrows(DetailService.Unavailable.class, s::client).getMessage();
        }
        assertEquals("the patch service this monitor started (" + cli + " patchd) ended with exit code 3 (its output: "
                + log + ")", message);
        assertEquals("patchd patchd --pid 4242 --dir " + dir + "\n", Files.readString(log));
    }

    @Test
    void aPatchReplyErrorIsTheFailure() {
        IOException e = assertThrows(IOException.class, () -> DetailService.patchSet("m",
                "<DYPATCH_REPLY ID='1'><ERROR>model 'm' patches nothing</ERROR></DYPATCH_REPLY>"));
        assertEquals("model 'm' patches nothing", e.getMessage());
        assertEquals(List.of("a FOR matched nothing"), DetailService.warnings("<DYPATCH_REPLY ID='1'><PATCH ID='ab'>"
                + "<WARNING>a FOR matched nothing</WARNING></PATCH></DYPATCH_REPLY>"));
    }
}
