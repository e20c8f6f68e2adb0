package org.dyper.patch.build;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dyper's temporary files and folders, named after the process that makes them ({@code dyper-src-p1234-5678},
 * {@code .dyper-out-p1234-5678.jar}, a cache entry's {@code <key>.tmp-p1234-5678}): a run that fails deletes its own
 * (in {@code finally} blocks), and what a killed run left behind is recognised by its dead process and removed by
 * the next run that works in the same folder.
 */
public final class TempFiles {
    /** A name of ours: the kind, then {@code -p<pid>-<random>}, then an optional suffix. */
    private static final Pattern OURS =
            Pattern.compile("(?:\\.?dyper-[a-z]+(?:-[a-z]+)*|[0-9a-f]{24}\\.tmp)-p(\\d+)-\\d+(?:\\.[a-z]+)?");
    /** Names of releases before the pid was in them: removed once a day old (nothing runs that long). */
    private static final Pattern LEGACY = Pattern.compile(
            "dyper-(?:src|release|launch)\\d+|dyper-(?:woven|bytecode|base|woven-folder)\\d+\\.jar|[0-9a-f]{24}\\.tmp\\d+");
    private static final Duration LEGACY_AGE = Duration.ofDays(1);
    private static final AtomicBoolean SWEPT_TMP = new AtomicBoolean();

    private TempFiles() {
    }

    private static String tag(String kind) {
        return kind + "-p" + ProcessHandle.current().pid() + "-";
    }

    private static Path systemTemp() {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        if (SWEPT_TMP.compareAndSet(false, true)) {
            sweep(tmp);
        }
        return tmp;
    }

    /** A new folder {@code dyper-<kind>-p<pid>-<n>} in the system's temporary folder. */
    static Path directory(String kind) throws IOException {
        return Files.createTempDirectory(systemTemp(), tag("dyper-" + kind));
    }

    /** A new file {@code dyper-<kind>-p<pid>-<n><suffix>} in the system's temporary folder. */
    static Path file(String kind, String suffix) throws IOException {
        return Files.createTempFile(systemTemp(), tag("dyper-" + kind), suffix);
    }

    /** A new hidden file {@code .dyper-<kind>-p<pid>-<n><suffix>} in {@code dir}, next to what it will replace. */
    static Path file(Path dir, String kind, String suffix) throws IOException {
        return Files.createTempFile(dir, tag(".dyper-" + kind), suffix);
    }

    /**
     * As {@link #file(Path, String, String)}, but made with the default permissions (what the umask leaves), as a file
     * that will be renamed over a user's file must be, not the owner-only ones of {@code createTempFile}; sweeps
     * {@code dir} first.
     */
    static Path publicFile(Path dir, String kind, String suffix) throws IOException {
        sweep(dir);
        for (int i = 0; ; i++) {
            Path tmp = dir.resolve(tag(".dyper-" + kind) + (java.util.concurrent.ThreadLocalRandom.current().nextLong()
                    >>> 1) + suffix);
            try {
                return Files.createFile(tmp);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                if (i > 100) {
                    throw e;
                }
            }
        }
    }

    /** A new folder {@code <name>.tmp-p<pid>-<n>} in {@code dir} (a cache entry being made). */
    public static Path entry(Path dir, String name) throws IOException {
        sweep(dir);
        return Files.createTempDirectory(dir, tag(name + ".tmp"));
    }

    /**
     * Removes from {@code dir} the temporary files and folders of ours whose process is gone (and those of earlier
     * releases, which have no pid, once a day old). Never throws: what cannot be removed stays.
     */
    public static void sweep(Path dir) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir,
                p -> p.getFileName().toString().contains("dyper-") || p.getFileName().toString().contains(".tmp"))) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                Matcher ours = OURS.matcher(name);
                try {
                    if (ours.matches() ? ProcessHandle.of(Long.parseLong(ours.group(1))).isEmpty()
                            : LEGACY.matcher(name).matches() && olderThan(p, LEGACY_AGE)) {
                        Weaver.deleteTree(p);
                    }
                } catch (IOException | RuntimeException e) {
                    // another user's, or gone meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            // no such folder, or not readable: nothing to sweep
        }
    }

    private static boolean olderThan(Path p, Duration age) throws IOException {
        FileTime modified = Files.getLastModifiedTime(p);
        return modified.toInstant().isBefore(Instant.now().minus(age));
    }
}
