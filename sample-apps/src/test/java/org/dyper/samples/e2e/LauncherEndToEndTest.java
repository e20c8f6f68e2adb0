package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.samples.bank.BankApp;
import org.dyper.samples.bank.BankFacts;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Skip;
import org.dyper.testsupport.XmlReports.ExitReport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@code ./dyper} launcher as the README's first command uses it: {@code dyper run} through the script (C1 and
 * the class-data-sharing archive it records for the CLI's JVM), a first run that weaves into an empty cache, a
 * second that reuses it, and one with the archive turned off; the program's output stays exactly its own (no JVM
 * message mixed in) and the report exact.
 */
class LauncherEndToEndTest {
    private static final Path LAUNCHER = E2e.REPO.resolve("dyper");
    private static final String FIRST_RUN = "dyper: weaving the patched classes into the cache";

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void dyperRunThroughTheLauncherWeavesOnceAndReusesTheCache(Jdk jdk, @TempDir Path dir) throws Exception {
        Skip.unless(Files.isExecutable(Path.of("/bin/bash")), "no /bin/bash here: the launcher script needs it");
        Path cache = dir.resolve("cache");
        E2e.Run first = launch(jdk, cache, dir.resolve("first.xml"), Map.of());
        E2e.Run second = launch(jdk, cache, dir.resolve("second.xml"), Map.of());
        E2e.Run noArchive = launch(jdk, cache, dir.resolve("third.xml"), Map.of("DYPER_CDS", "off"));

        List<String> expected = BankFacts.expectedOutput(BankApp.DEFAULT_THREADS, BankApp.DEFAULT_TRANSFERS_PER_THREAD);
        for (E2e.Run run : List.of(first, second, noArchive)) {
            assertEquals(0, run.exit(), run.err());
            assertEquals(expected, run.outLines(), "stdout is the program's own");
        }
        assertTrue(first.err().contains(FIRST_RUN), first.err());
        assertFalse(second.err().contains(FIRST_RUN), second.err());
        assertFalse(noArchive.err().contains(FIRST_RUN), noArchive.err());
        for (String report : List.of("first.xml", "second.xml", "third.xml")) {
            assertEquals(BankFacts.withdrawCalls(BankApp.DEFAULT_THREADS, BankApp.DEFAULT_TRANSFERS_PER_THREAD),
                    ExitReport.of(dir.resolve(report)).value("COUNTS", BankFacts.WITHDRAW, "COUNT"), report);
        }
        try (Stream<Path> files = Files.list(E2e.REPO.resolve("weaver-cli/target"))) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().matches("dyper-cli-\\d+\\.jsa")),
                    "the launcher recorded a class-data-sharing archive for the CLI's JVM");
        }
    }

    private static E2e.Run launch(Jdk jdk, Path cache, Path xml, Map<String, String> env) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("JAVA_HOME", jdk.home().toString());
        return E2e.exec(List.of("/bin/bash", LAUNCHER.toString(), "run", "--no-monitor", "--cache", cache.toString(),
                "--report", "none", "--xml", xml.toString(), "--model", E2e.MODELS.resolve("bank.xml").toString(),
                "--", "-cp", E2e.appClasses().toString(), BankApp.class.getName()), all);
    }
}
