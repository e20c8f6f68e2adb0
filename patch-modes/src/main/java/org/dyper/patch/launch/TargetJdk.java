package org.dyper.patch.launch;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Which {@code java} a launch runs, and which Java release that is. */
public final class TargetJdk {
    private TargetJdk() {}

    /** The feature version of the JDK that {@code java} belongs to, from its {@code release} file. */
    public static Optional<Integer> featureVersion(Path java) {
        Path home = java.toAbsolutePath().getParent() == null ? null : java.toAbsolutePath().getParent().getParent();
        if (home == null) {
            return Optional.empty();
        }
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    String major = v.startsWith("1.") ? v.substring(2) : v;
                    return Optional.of(Integer.parseInt(major.split("[.+\\-]")[0]));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** The {@code java} to run: {@code $JAVA_HOME/bin/java} when JAVA_HOME is set, else the one on the PATH. */
    public static Path java(Map<String, String> env) {
        String home = env.get("JAVA_HOME");
        if (home != null && !home.isBlank()) {
            return Path.of(home, "bin", "java");
        }
        for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "java");
            if (Files.isExecutable(candidate)) {
                try {
                    return candidate.toRealPath();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return Path.of("java");
    }
}
