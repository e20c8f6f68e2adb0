package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicReference;
import org.dyper.cli.heap.HeapReport;
import org.dyper.cli.heap.Layout;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * {@code dyper ctl PID heap [--top N]}: the program dumps its live objects (the monitor's HEAPDUMP) to an owner-only
 * file of its choosing; the CLI opens the file, deletes it at once (it reads on through the open file) and reports
 * per class and the largest retainers (docs/cli.md#dyper-ctl-pid-heap).
 */
record CtlHeap(PrintStream out, PrintStream err, Path dir) {
    static final String HELP = "PID heap [--top N] [--xml]: the program dumps its live objects to an "
            + "owner-only file,\n"
            + "  read here and deleted: per class instances, shallow bytes and referring classes, and the objects\n"
            + "  retaining most (top N, default 20).\n";
    /** The default of {@code --top}. */
    static final int TOP = 20;
    /** How long the dump may take in the program. */
    private static final int DUMP_TIMEOUT_MS = 600_000;

    /** {@code PID heap}: how many classes and retainers to show, and whether as XML. */
    record Request(long pid, int top, boolean xml) implements CtlCommand.Request {
    }

    static Request request(long pid, java.util.List<String> words, String top, boolean xml) throws UsageError {
        if (words.size() > 1) {
            throw new UsageError("heap takes options only (--top N, --xml), not '" + words.get(1) + "'");
        }
        return new Request(pid, top(top), xml);
    }

    /** {@code --top N}: a whole number from 1 to 100000 (default {@link #TOP}). */
    static int top(String value) throws UsageError {
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
        throw new UsageError("--top: '" + value + "' is not a whole number from 1 to 100000");
    }

    int run(Request r) throws CommandFailure, IOException {
        MonitorEntry entry;
        try {
            entry = MonitorEntry.of(dir, r.pid());
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
                throw new CommandFailure(ExitCode.NO_PROCESS, "process " + r.pid() + " does not answer on "
                        + entry.endpoint());
            }
            Element root = Reply.of(reply, "from process " + r.pid()).orFail(r.pid());
            Element dump = Xml.child(root, "HEAPDUMP");
            if (dump == null) {
                throw new IOException("process " + r.pid() + " replied to HEAPDUMP without <HEAPDUMP>: " + reply);
            }
            Path file = Path.of(dump.getAttribute("FILE"));
            check(file, r.pid());
            pending.set(file);
            long dumped = System.nanoTime();
            HeapReport report;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                delete(pending.getAndSet(null));       // read on through the open file: nothing is left behind
                Layout layout = layout(dump, r.pid());
                Runtime rt = Runtime.getRuntime();
                long spare = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()) - (32L << 20);
                report = HeapReport.read(ch, "the heap dump of process " + r.pid(), layout, r.top(), spare);
            } catch (org.dyper.cli.heap.HprofReader.TooLarge e) {
                throw new CommandFailure(ExitCode.IO_ERROR, e.getMessage());
            }
            long read = System.nanoTime();
            if (r.xml()) {
                out.println(report.xml());
            } else {
                out.printf("heap of process %d: dumped in %d ms, read in %d ms%n", r.pid(),
                        (dumped - start) / 1_000_000, (read - dumped) / 1_000_000);
                out.print(report.text());
            }
            return ExitCode.OK;
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
     * Checks that the dump the reply names is what HEAPDUMP makes (else it is neither read nor deleted): {@code heap.hprof}, a regular
     * file of this user (no link), in a folder {@code dyper-heap-*} of this user that only the user may enter.
     */
    static void check(Path file, long pid) throws IOException, CommandFailure {
        Path folder = file.getParent();
        String why = null;
        if (!file.isAbsolute() || folder == null || !file.getFileName().toString().equals("heap.hprof")
                || !folder.getFileName().toString().startsWith("dyper-heap-")) {
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
