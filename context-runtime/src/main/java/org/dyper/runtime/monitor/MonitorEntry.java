package org.dyper.runtime.monitor;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.dyper.runtime.monitor.internal.Options;
import org.dyper.runtime.monitor.internal.RegistryFiles;

/**
 * A monitored process as its registry entry describes it: the file {@code <pid>.monitor} in the registry folder
 * ({@code ~/.dyper/run} unless {@code dyper.monitor.dir} or the agent option {@code dir} says otherwise), readable
 * only by its owner, removed when the process exits.
 */
public record MonitorEntry(long pid, int port, String mainClass, long startMillis, String token, Path file) {

    /** The default registry folder: {@code dyper.monitor.dir} if set, else {@code ~/.dyper/run}. */
    public static Path defaultDirectory() {
        return Options.defaultDir();
    }

    /** Reads one entry; throws IOException when it is unreadable or incomplete. */
    public static MonitorEntry read(Path file) throws IOException {
        Map<String, String> f = RegistryFiles.read(file);
        try {
            return new MonitorEntry(Long.parseLong(f.get("pid")), Integer.parseInt(f.get("port")),
                    f.getOrDefault("main", "unknown"), Long.parseLong(f.get("start")), f.get("token"), file);
        } catch (RuntimeException e) {
            throw new IOException(file + ": not a complete monitor entry");
        }
    }

    /**
     * The entries of live processes in {@code dir}, by pid. With {@code clean}, entries whose process is gone (and
     * unreadable entries) are deleted.
     */
    public static List<MonitorEntry> list(Path dir, boolean clean) throws IOException {
        List<MonitorEntry> entries = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return entries;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.monitor")) {
            for (Path file : files) {
                if (file.getFileName().toString().startsWith(".")) {
                    continue;
                }
                MonitorEntry e;
                try {
                    e = read(file);
                } catch (IOException bad) {
                    continue;
                }
                if (alive(e.pid())) {
                    entries.add(e);
                } else if (clean) {
                    Files.deleteIfExists(file);
                }
            }
        }
        entries.sort(Comparator.comparingLong(MonitorEntry::pid));
        return entries;
    }

    /** The entry of process {@code pid} in {@code dir}; throws when there is none or the process is gone. */
    public static MonitorEntry of(Path dir, long pid) throws IOException {
        Path file = dir.resolve(pid + ".monitor");
        if (!Files.isRegularFile(file)) {
            throw new IOException("no monitored process " + pid + " (no entry in " + dir + ")");
        }
        MonitorEntry e = read(file);
        if (!alive(pid)) {
            Files.deleteIfExists(file);
            throw new IOException("process " + pid + " is gone (its stale entry was removed)");
        }
        return e;
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
