package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import org.dyper.cli.heap.LiveHeap;

/**
 * {@code dyper ctl PID heap [--top N] [--xml]}: the heap report of a running program ({@link LiveHeap}), as aligned
 * text or XML (docs/cli.md#dyper-ctl-pid-heap).
 */
record CtlHeap(PrintStream out, PrintStream err, Path dir) {
    static final String HELP = "PID heap [--top N] [--xml]: the program dumps its live objects to an owner-only file,\n"
            + "  read here and deleted: per class instances, shallow bytes and referring classes, and the objects\n"
            + "  retaining most (top N, default 20). dyper report --pid PID --heap puts it on the HTML page.\n";
    /** {@code PID heap}: how many classes and retainers to show, and whether as XML. */
    record Request(long pid, int top, boolean xml) implements CtlCommand.Request {
    }

    static Request request(long pid, java.util.List<String> words, String top, boolean xml) throws UsageError {
        if (words.size() > 1) {
            throw new UsageError("heap takes options only (--top N, --xml), not '" + words.get(1) + "'");
        }
        return new Request(pid, LiveHeap.top(top), xml);
    }

    int run(Request r) throws CommandFailure, IOException {
        LiveHeap.Taken t = LiveHeap.take(dir, r.pid(), r.top());
        if (r.xml()) {
            out.println(t.report().xml());
        } else {
            out.printf("heap of process %d: dumped in %d ms, read in %d ms%n", r.pid(), t.dumpMillis(),
                    t.readMillis());
            out.print(t.report().text());
        }
        return ExitCode.OK;
    }
}
