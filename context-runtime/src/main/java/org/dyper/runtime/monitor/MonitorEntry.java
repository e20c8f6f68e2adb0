package org.dyper.runtime.monitor;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.dyper.runtime.monitor.internal.Options;
import org.dyper.runtime.wire.Endpoint;
import org.dyper.runtime.wire.RegistryFiles;
import org.dyper.runtime.wire.WireClient;

/**
 * A monitored process as its registry entry describes it: the file {@code <pid>.monitor} in the registry folder
 * ({@code ~/.dyper/run} unless {@code dyper.monitor.dir} or the agent option {@code dir} says otherwise), readable
 * only by its owner, removed when the process exits. It names where the monitor listens ({@code socket=} a socket
 * file beside it, or {@code port=} a loopback TCP port) and the token a client presents.
 */
public record MonitorEntry(long pid, Endpoint endpoint, String mainClass, long startMillis, String token, Path file) {

    /** The default registry folder: {@code dyper.monitor.dir} if set, else {@code ~/.dyper/run}. */
    public static Path defaultDirectory() {
        return Options.defaultDir();
    }

    /** Reads one entry; throws IOException when it is unreadable or incomplete. */
    public static MonitorEntry read(Path file) throws IOException {
        Map<String, String> f = RegistryFiles.read(file);
        try {
            return new MonitorEntry(Long.parseLong(f.get("pid")), Endpoint.of(f), f.getOrDefault("main", "unknown"),
                    Long.parseLong(f.get("start")), f.get("token"), file);
        } catch (RuntimeException e) {
            throw new IOException(file + ": not a complete monitor entry");
        }
    }

    /**
     * The entries of live processes in {@code dir}, by pid. With {@code clean}, entries whose process is gone (its pid
     * unused, or used by a process that started after the entry's JVM, a reused pid) and unreadable entries are
     * deleted.
     */
    public static List<MonitorEntry> list(Path dir, boolean clean) throws IOException {
        List<MonitorEntry> entries = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return entries;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.monitor")) {
            for (Path file : files) {
                if (file.getFileName().toString().startsWith(".")) {
                    continue;  // an entry being written (temporary file, renamed when complete)
                }
                MonitorEntry e;
                try {
                    e = read(file);
                } catch (IOException bad) {
                    if (clean) {
                        deleteQuietly(file);
                    }
                    continue;
                }
                if (alive(e)) {
                    entries.add(e);
                } else if (clean) {
                    deleteQuietly(file);
                }
            }
        }
        entries.sort(Comparator.comparingLong(MonitorEntry::pid));
        return entries;
    }

    /** Connects to this monitor and presents the token; {@code push}: also receive pushed messages. */
    public WireClient connect(boolean push) throws IOException {
        return WireClient.connect(endpoint, "DYPER", pid, token, push, "monitor", describe());
    }

    /** {@code process 42 (com.acme.Main)}, for messages. */
    public String describe() {
        return "process " + pid + (mainClass == null || mainClass.equals("unknown") ? ""
                : " (" + mainClass + ")");
    }

    /** Deletes a stale entry and the socket file beside it (left by a process killed with SIGKILL). */
    private static void deleteQuietly(Path file) {
        String name = file.getFileName().toString();
        if (name.endsWith(".monitor")) {
            delete(file.resolveSibling(name.substring(0, name.length() - ".monitor".length()) + ".sock"));
        }
        delete(file);
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // not ours to delete (another user's file in a shared folder): left alone
        }
    }

    /** The entry of process {@code pid} in {@code dir}; throws when there is none or the process is gone. */
    public static MonitorEntry of(Path dir, long pid) throws IOException {
        Path file = dir.resolve(pid + ".monitor");
        if (!Files.isRegularFile(file)) {
            throw new IOException("no monitored process " + pid + " (no entry in " + dir + ")");
        }
        MonitorEntry e = read(file);
        if (!alive(e)) {
            deleteQuietly(file);
            throw new IOException("process " + pid + " is gone (its stale entry was removed)");
        }
        return e;
    }

    /**
     * How much later than its JVM's recorded start a process may seem to have started and still be that JVM: the
     * operating system's start time is derived from the boot time in whole seconds and may move with the clock.
     */
    static final long START_SLACK_MILLIS = 5_000;

    /**
     * Whether the entry's process still runs: its pid is alive and the process with that pid started no later than
     * the entry's JVM (else the pid was reused by a newer process). Where the OS does not tell the start time, the pid
     * being alive is all there is.
     */
    static boolean alive(MonitorEntry e) {
        Optional<ProcessHandle> handle = ProcessHandle.of(e.pid());
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        Optional<Instant> started = handle.get().info().startInstant();
        return started.isEmpty() || started.get().toEpochMilli() <= e.startMillis() + START_SLACK_MILLIS;
    }

    /**
     * A warning when other users can write to the registry folder {@code dir} (they could remove entries or plant
     * false ones that point a front end at their own port), else null.
     */
    public static String insecureDirectory(Path dir) {
        try {
            if (!Files.isDirectory(dir) || !dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                return null;
            }
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
            if (!perms.contains(PosixFilePermission.OTHERS_WRITE)) {
                return null;
            }
            return "the registry folder " + dir + " is writable by other users (" + PosixFilePermissions.toString(perms)
                    + "): they can remove entries or plant false ones; use a folder only you can write to (chmod o-w, "
                    + "or the monitor's dir option and dyper ctl --dir)";
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
