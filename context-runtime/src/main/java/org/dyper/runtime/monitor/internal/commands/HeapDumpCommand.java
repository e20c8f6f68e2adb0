package org.dyper.runtime.monitor.internal.commands;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.wire.Xml;

/**
 * The monitor's HEAPDUMP command: the JVM writes a dump of its live objects (HPROF) to a file of its own choosing, in a
 * fresh owner-only folder (0700) under its temporary directory, and replies with the path and the object layout the
 * reader needs to count bytes as this JVM does. The client never names the file, so it cannot make the JVM overwrite
 * one. The client opens the file and deletes it at once (docs/monitor.md); a dump nobody claimed within
 * {@link #UNCLAIMED_SECONDS} seconds, or still there when the JVM exits, is deleted here.
 */
final class HeapDumpCommand {
    /** The dump's file name inside its folder (the client checks it before deleting anything). */
    static final String FILE = "heap.hprof";
    /** The prefix of the folder's name (the client checks it too). */
    static final String FOLDER_PREFIX = "dyper-heap-";
    /** How long a dump may wait for its client before it is deleted here. */
    static final long UNCLAIMED_SECONDS = 60;

    private HeapDumpCommand() {
    }

    static String dump(Monitor m) {
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        boolean posix = base.getFileSystem().supportedFileAttributeViews().contains("posix");
        Set<PosixFilePermission> owner = PosixFilePermissions.fromString("rwx------");
        Path dir;
        try {
            dir = posix ? Files.createTempDirectory(base, FOLDER_PREFIX, PosixFilePermissions.asFileAttribute(owner))
                    : Files.createTempDirectory(base, FOLDER_PREFIX);
        } catch (IOException e) {
            throw new IllegalStateException("HEAPDUMP: cannot make a folder in " + base + ": " + e.getMessage(), e);
        }
        Path file = dir.resolve(FILE);
        dir.toFile().deleteOnExit();     // runs after the file's own hook (reverse order): the folder is empty by then
        file.toFile().deleteOnExit();
        long start = System.nanoTime();
        try {
            com.sun.management.HotSpotDiagnosticMXBean hotspot =
                    ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            if (hotspot == null) {
                throw new IllegalStateException("HEAPDUMP: this JVM has no HotSpotDiagnosticMXBean");
            }
            hotspot.dumpHeap(file.toString(), true);
            if (posix) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            long bytes = Files.size(file);
            deleteLater(file, dir);
            return m.reply("<HEAPDUMP FILE='" + Xml.esc(file.toString()) + "' BYTES='" + bytes + "' MILLIS='" + millis
                    + "' " + layout(hotspot) + "/>");
        } catch (IOException e) {
            deleteNow(file, dir);
            throw new IllegalStateException("HEAPDUMP: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            deleteNow(file, dir);
            throw e;
        }
    }

    /**
     * How this JVM lays objects out, from its flags: reference and header bytes and the alignment (the dump does
     * not say; the reader sizes objects with them).
     */
    static String layout(com.sun.management.HotSpotDiagnosticMXBean hotspot) {
        boolean oops = flag(hotspot, "UseCompressedOops", false);
        boolean klass = flag(hotspot, "UseCompressedClassPointers", false);
        boolean compact = flag(hotspot, "UseCompactObjectHeaders", false);
        int align = 8;
        try {
            align = Integer.parseInt(hotspot.getVMOption("ObjectAlignmentInBytes").getValue());
        } catch (RuntimeException ignored) {
            // a JVM without the flag: HotSpot's default
        }
        int header = compact ? 8 : klass ? 12 : 16;
        return "REFERENCE_BYTES='" + (oops ? 4 : 8) + "' HEADER_BYTES='" + header + "' ARRAY_HEADER_BYTES='"
                + (header + 4) + "' ALIGNMENT='" + align + "' JAVA_VERSION='"
                + Xml.esc(System.getProperty("java.version")) + "'";
    }

    private static boolean flag(com.sun.management.HotSpotDiagnosticMXBean hotspot, String name, boolean otherwise) {
        try {
            return Boolean.parseBoolean(hotspot.getVMOption(name).getValue());
        } catch (RuntimeException e) {
            return otherwise;   // a flag this JDK does not have (UseCompactObjectHeaders before 24)
        }
    }

    private static void deleteLater(Path file, Path dir) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(UNCLAIMED_SECONDS));   // the time a client has to claim it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            deleteNow(file, dir);
        }, "dyper-heapdump-cleanup");
        t.setDaemon(true);
        t.start();
    }

    static void deleteNow(Path file, Path dir) {
        try {
            Files.deleteIfExists(file);
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(dir);
            }
        } catch (IOException | RuntimeException ignored) {
            // nothing more to do: deleteOnExit tries again
        }
    }
}
