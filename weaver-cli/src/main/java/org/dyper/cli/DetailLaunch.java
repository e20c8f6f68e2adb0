package org.dyper.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.cli.Option;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.runtime.PatchService;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.wire.RegistryFiles;

/**
 * {@code dyper run --detail}: the monitor in the program details what it finds hot by patching it at run time
 * (docs/detailing.md). The monitor gets {@code DETAIL=true,cli=none}, and this process serves it the DYPATCH service
 * ({@code dyper patchd} for the program's pid, in a thread of its own) once the program's monitor has registered.
 */
final class DetailLaunch {
    /** {@code dyper run --detail}. */
    static final Option OPTION = Option.builder().longOpt("detail").desc("automatic detailing: the monitor patches the "
            + "methods its sampling finds hot with exact timing while the program runs (off by default; "
            + "docs/detailing.md)").build();
    /** What {@code dyper run --help} says about it. */
    static final String HELP = "--detail: the monitor patches the methods it finds hot (DETAIL=true; settings DETAIL_MAX,\n"
            + "METHOD_DETAIL_*) and REPORT shows their exact figures beside the sampled estimate:\n"
            + "dyper run --detail -- <java arguments> is the whole setup.";
    /** How long the program's monitor may take to register before detailing gives up on serving it. */
    private static final long REGISTER_MILLIS = 120_000;

    private DetailLaunch() {
    }

    /** The monitor agent options {@code dyper run} passes: {@code given} ({@code --monitor}'s), after detailing's. */
    static String monitorOptions(boolean detail, String given) {
        if (!detail) {
            return given;
        }
        return "DETAIL=true,cli=none" + (given == null || given.isBlank() ? "" : "," + given);
    }

    /** The registry folder the monitor registers in: its {@code dir} option, else the default. */
    static Path registry(String monitorOptions) {
        Path dir = MonitorEntry.defaultDirectory();
        if (monitorOptions != null) {
            for (String part : monitorOptions.split(",")) {
                int eq = part.indexOf('=');
                if (eq > 0 && part.substring(0, eq).trim().equalsIgnoreCase("dir")) {
                    dir = Path.of(part.substring(eq + 1).trim());
                }
            }
        }
        return dir;
    }

    /**
     * Serves the DYPATCH service for process {@code pid} in a daemon thread: waits for its monitor to register in
     * {@code registry}, then runs {@code dyper patchd --pid} until the process ends. Problems go to {@code err}.
     */
    static void serve(long pid, Path registry, Path cache, PrintStream err) {
        Thread t = new Thread(() -> {
            try {
                Path entry = registry.resolve(pid + ".monitor");
                long deadline = System.currentTimeMillis() + REGISTER_MILLIS;
                while (!Files.isRegularFile(entry)) {
                    if (System.currentTimeMillis() > deadline
                            || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                        err.println("dyper: warning: detailing: the program's monitor did not register as " + entry
                                + ": no patch service, nothing will be detailed");
                        return;
                    }
                    Thread.sleep(50);
                }
                MonitorEntry monitor = MonitorEntry.of(registry, pid);
                Path patches = cache.resolve("patch");
                RegistryFiles.createPrivateDirectories(patches);
                PatchService service = new PatchService(ModeCatalog.load(List.of()),
                        new PatchService.TargetClasses(List.of()), patches);
                Patchd.run(service, pid, monitor, registry, new PrintStream(OutputStream.nullOutputStream()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                err.println("dyper: warning: detailing: cannot serve the patch service for process " + pid + ": "
                        + e.getMessage() + "; nothing will be detailed");
            }
        }, "dyper-detail-patchd");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Once {@code dyper run} started the program (process {@code pid}): says what runs when there is no model, and
     * with {@code detail} serves the patch service (its patch files under {@code cache}) to the monitor started with
     * {@code monitorOptions}.
     */
    static void launched(boolean detail, String monitorOptions, Path cache, long pid, boolean monitorOnly,
            PrintStream err) {
        if (monitorOnly) {
            err.println(detail ? started(pid) : MonitorOnly.started(pid));
        }
        if (detail) {
            serve(pid, registry(monitorOptions), cache, err);
        }
    }

    /** The line {@code dyper run --detail} without a model prints once the program started. */
    static String started(long pid) {
        return "dyper: no model: the program (process " + pid + ") runs under the DYPER monitor, which patches the "
                + "methods it finds hot with exact timing (automatic detailing); dyper ctl " + pid + " REPORT shows "
                + "them";
    }
}
