package org.dyper.runtime.monitor.internal.detailing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dyper.testsupport.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.dyper.runtime.monitor.internal.agents.CpuAgent;

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
        Path go = dir.resolve("go");
        // planted: the service ends only once the test has seen it starting (a script that exited at once could end
        // before the first client() looked, which then rightly says it ended: the test raced under load)
        Files.writeString(cli, "#!/bin/sh\necho \"patchd $*\"\nwhile [ ! -e '" + go + "' ]; do sleep 0.02; done\n"
                + "exit 3\n");
        Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rwx------"));
        DetailService s = new DetailService(dir, 4242, cli.toString());
        assertEquals("starting the patch service (" + cli + " patchd --pid 4242)",
                assertThrows(DetailService.Unavailable.class, s::client).getMessage());
        Files.createFile(go);
        Path log = dir.resolve("4242.patchd.log");
        String message = Await.until("the patch service's end", () -> assertThrows(DetailService.Unavailable.class,
                s::client).getMessage(), m -> !m.startsWith("starting"), Await.MINUTE);
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
