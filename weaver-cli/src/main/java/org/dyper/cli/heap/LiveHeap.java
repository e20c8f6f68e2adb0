package org.dyper.cli.heap;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicReference;
import org.dyper.cli.CommandFailure;
import org.dyper.cli.ExitCode;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The heap report of a running program: it dumps its live objects (the monitor's HEAPDUMP) to an owner-only file of
 * its choosing; this opens the file, deletes it at once (reading on through the open file) and reads it
 * (docs/cli.md#dyper-ctl-pid-heap). {@code dyper ctl PID heap} and {@code dyper report --pid PID --heap} use it.
 */
public final class LiveHeap {
    /** How long the dump may take in the program. */
    private static final int DUMP_TIMEOUT_MS = 600_000;

    private LiveHeap() {
    }

    /** The default of {@code --top}. */
    public static final int TOP = 20;

    /** {@code --top N}: a whole number from 1 to 100000 (null: {@link #TOP}). */
    public static int top(String value) throws org.dyper.cli.UsageError {
        if (value == null) {
            return TOP;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1 && n <= 100_000) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // the message below
        }
        throw new org.dyper.cli.UsageError("--top: '" + value + "' is not a whole number from 1 to 100000");
    }

    /** The report, and how long the program took to dump and this to read, in ms. */
    public record Taken(HeapReport report, long dumpMillis, long readMillis) {
    }

    /** Has process {@code pid} (of the registry folder {@code dir}) dump its heap; reports its {@code top} rows. */
    public static Taken take(Path dir, long pid, int top) throws CommandFailure, IOException {
        MonitorEntry entry;
        try {
            entry = MonitorEntry.of(dir, pid);
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, e.getMessage());
        }
        AtomicReference<Path> pending = new AtomicReference<>();
        // Ctrl-C between the reply and the open: the dump goes too (the program deletes an unclaimed one as well)
        Thread hook = new Thread(() -> delete(pending.getAndSet(null)), "dyper-heap-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            long start = System.nanoTime();
            String reply;
            try (WireClient c = entry.connect(false)) {
                c.timeout(DUMP_TIMEOUT_MS);
                reply = c.command("HEAPDUMP", null);
            } catch (java.net.ConnectException e) {
                throw new CommandFailure(ExitCode.NO_PROCESS, "process " + pid + " does not answer on "
                        + entry.endpoint());
            }
            Element root;
            try {
                root = MonitorReply.parse(reply);
            } catch (Exception e) {
                throw new IOException("unreadable reply from process " + pid + ": " + e.getMessage());
            }
            Element error = Xml.child(root, "ERROR");
            if (error != null) {
                throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + pid + ": " + error.getTextContent());
            }
            Element dump = Xml.child(root, "HEAPDUMP");
            if (dump == null) {
                throw new IOException("process " + pid + " replied to HEAPDUMP without <HEAPDUMP>: " + reply);
            }
            Path file = Path.of(dump.getAttribute("FILE"));
            check(file, pid);
            pending.set(file);
            long dumped = System.nanoTime();
            HeapReport report;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                delete(pending.getAndSet(null));       // read on through the open file: nothing is left behind
                Runtime rt = Runtime.getRuntime();
                long spare = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()) - (32L << 20);
                report = HeapReport.read(ch, "the heap dump of process " + pid, layout(dump, pid), top, spare);
            } catch (HprofReader.TooLarge e) {
                throw new CommandFailure(ExitCode.IO_ERROR, e.getMessage());
            }
            return new Taken(report, (dumped - start) / 1_000_000, (System.nanoTime() - dumped) / 1_000_000);
        } finally {
            delete(pending.getAndSet(null));
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down already: the hook runs
            }
        }
    }

    /**
     * Checks that the dump the reply names is what HEAPDUMP makes (else it is neither read nor deleted):
     * {@code heap.hprof}, a regular file of this user (no link), in a folder {@code dyper-heap-*} of this user that
     * only the user may enter.
     */
    static void check(Path file, long pid) throws IOException, CommandFailure {
        Path folder = file.getParent();
        String why = null;
        if (!file.isAbsolute() || folder == null || !file.getFileName().toString().equals("heap.hprof")
                || folder.getFileName() == null || !folder.getFileName().toString().startsWith("dyper-heap-")) {
            why = "it is not a HEAPDUMP file (<tmp>/dyper-heap-*/heap.hprof)";
        } else if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)
                || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            why = "it is not on this machine (the heap report reads the dump where the program runs) or not a "
                    + "regular file";
        } else {
            String me = System.getProperty("user.name");
            String owner = Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).getName();
            String folderOwner = Files.getOwner(folder, LinkOption.NOFOLLOW_LINKS).getName();
            if (!owner.equals(me) || !folderOwner.equals(me)) {
                why = "it belongs to " + owner + ", not to " + me;
            } else if (folder.getFileSystem().supportedFileAttributeViews().contains("posix")
                    && !Files.getPosixFilePermissions(folder, LinkOption.NOFOLLOW_LINKS).equals(
                            java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"))) {
                why = "its folder is open to others";
            }
        }
        if (why != null) {
            throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + pid + " dumped its heap to " + file
                    + ", which is not read: " + why);
        }
    }

    private static Layout layout(Element dump, long pid) throws IOException {
        try {
            return new Layout(Integer.parseInt(dump.getAttribute("REFERENCE_BYTES")),
                    Integer.parseInt(dump.getAttribute("HEADER_BYTES")),
                    Integer.parseInt(dump.getAttribute("ALIGNMENT")));
        } catch (IllegalArgumentException e) {
            throw new IOException("process " + pid + " gave no usable object layout in its HEAPDUMP reply: "
                    + e.getMessage());
        }
    }

    /** Deletes the dump {@code file} and its folder (null: nothing). */
    static void delete(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
            Path folder = file.getParent();
            if (folder != null && folder.getFileName().toString().startsWith("dyper-heap-")) {
                Files.deleteIfExists(folder);
            }
        } catch (IOException | RuntimeException ignored) {
            // the program deletes a dump nobody claimed, and at its exit
        }
    }
}
