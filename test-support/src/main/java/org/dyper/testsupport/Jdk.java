package org.dyper.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The JDKs the tests run programs on: the one running the tests (17 in the build) and JDK 25, found by one rule
 * (see {@link #jdk25Home()}); a missing JDK 25 skips the test with the reason.
 */
public enum Jdk {
    /** The JDK running the tests ({@code java.home}; 17 in the build). */
    JDK17,
    /** The second JDK, found by {@link #jdk25Home()}. */
    JDK25;

    /** Where JDK 25 is looked for when nothing says otherwise. */
    public static final String DEFAULT_JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64";

    /** What a skipped test says to do. */
    static final String HOW = "set -Ddyper.jdk25=<JDK 25 home> (or JDK25_HOME) to run the JDK 25 cases";

    /**
     * JDK 25's home, by one rule: the system property {@code dyper.jdk25} when set and not blank, else the environment
     * variable {@code JDK25_HOME} when set and not blank, else {@value #DEFAULT_JDK25}. The build applies the same rule
     * before it passes {@code dyper.jdk25} to the tests (the root pom's profile {@code jdk25-from-env}), so a test run
     * from Maven and one from an IDE find the same JDK.
     */
    public static Path jdk25Home() {
        return Path.of(jdk25Home(System.getProperty("dyper.jdk25"), System.getenv("JDK25_HOME")));
    }

    /** The rule of {@link #jdk25Home()} over given values (null: not set). */
    static String jdk25Home(String property, String environment) {
        if (property != null && !property.isBlank()) {
            return property.trim();
        }
        if (environment != null && !environment.isBlank()) {
            return environment.trim();
        }
        return DEFAULT_JDK25;
    }

    /** This JDK's home, without checking that it exists. */
    public Path configuredHome() {
        return this == JDK17 ? Path.of(System.getProperty("java.home")) : jdk25Home();
    }

    /** Whether this JDK's {@code java} exists here. */
    public boolean available() {
        return Files.isExecutable(javaIn(configuredHome()));
    }

    /** Its home; aborts the test (skipped, with the reason) when it is missing here. */
    public Path home() {
        Path home = configuredHome();
        Skip.unless(Files.isExecutable(javaIn(home)), "JDK 25 not found at " + home + ": " + HOW);
        return home;
    }

    /** Its {@code java} launcher; skips the test when the JDK is missing. */
    public Path java() {
        return javaIn(home());
    }

    /** The feature release (17, 25, ...), from the JDK's {@code release} file; skips the test when it is missing. */
    public int feature() throws IOException {
        if (this == JDK17) {
            return Runtime.version().feature();
        }
        Path release = home().resolve("release");
        for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
            if (line.startsWith("JAVA_VERSION=")) {
                return Runtime.Version.parse(line.substring("JAVA_VERSION=".length()).replace("\"", "")).feature();
            }
        }
        throw new IOException("no JAVA_VERSION in " + release);
    }

    /** The JDK of a feature number as the tests write it ({@code "17"} or {@code "25"}). */
    public static Jdk of(String feature) {
        return switch (feature) {
            case "17" -> JDK17;
            case "25" -> JDK25;
            default -> throw new IllegalArgumentException("no JDK " + feature + " in the tests (17 or 25)");
        };
    }

    private static Path javaIn(Path home) {
        return home.resolve("bin").resolve(System.getProperty("os.name").startsWith("Windows") ? "java.exe" : "java");
    }
}
