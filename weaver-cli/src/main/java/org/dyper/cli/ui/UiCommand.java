package org.dyper.cli.ui;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.cli.CliCommand;
import org.dyper.cli.ExitCode;
import org.dyper.cli.UsageError;
import org.dyper.cli.fleet.Carrier;
import org.dyper.cli.fleet.Fleet;
import org.dyper.cli.fleet.NatsOptions;
import org.dyper.runtime.monitor.MonitorEntry;

/**
 * {@code dyper ui}: a local web page over the monitors of this machine (docs/ui.md). The server runs in this JVM,
 * never in a target; it prints its address with the token as its first line and serves until it is stopped, then
 * takes out what it inserted (unless pinned).
 */
public final class UiCommand implements CliCommand<UiCommand.Parsed> {
    /**
     * The options, parsed and checked: the port (0: any free one), the registry folder, whether to open a browser, and
     * the NATS server whose JVMs the page lists beside this machine's (or null).
     */
    public record Parsed(int port, Path dir, boolean open, Carrier fleet) {
    }

    @Override
    public Help help() {
        return new Help("ui", "a live web page: JVMs, flame graphs, click a frame to measure it exactly",
                "dyper ui [--port N] [--dir DIR] [--no-open] [--nats URL [--user U --password P | --token T | --creds F]]",
                options(),
                "Serves a page on 127.0.0.1 (only) and prints its address with a token as the first line; the page\n"
                + "lists the monitored JVMs (and those that can be attached), shows a live flame graph, and measures\n"
                + "a clicked method exactly by patching it at run time. Ctrl-C ends it; what it inserted is taken\n"
                + "out unless pinned. With --nats URL the JVMs a NATS server reaches are listed too and open the same\n"
                + "way (stacks, figures, saved report; patching them from the page is not there yet: dyper ctl --nats).\n"
                + "The JSON API under /api/ is in docs/ui.md.\n"
                + ExitCode.SUMMARY.stripTrailing(), false);
    }

    private static Options options() {
        return NatsOptions.add(new Options())
                .addOption(Option.builder().longOpt("port").hasArg().argName("N")
                        .desc("the port on 127.0.0.1 (default 0: any free port)").build())
                .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
                        .desc("registry folder (default: dyper.monitor.dir, else ~/.dyper/run)").build())
                .addOption(Option.builder().longOpt("no-open").desc("do not open a browser").build())
                .addOption(Option.builder("h").longOpt("help").desc("show this help").build());
    }

    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError {
        int port = 0;
        if (line.hasOption("port")) {
            try {
                port = Integer.parseInt(line.getOptionValue("port").trim());
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 0 || port > 65535) {
                throw new UsageError("--port takes a port number from 0 to 65535, not '" + line.getOptionValue("port")
                        + "'");
            }
        }
        Path dir = line.hasOption("dir") ? Path.of(line.getOptionValue("dir")) : MonitorEntry.defaultDirectory();
        NatsOptions.onlyWithNats(line);
        Carrier fleet = line.hasOption("nats") ? NatsOptions.carrier(line) : null;
        return new Parsed(port, dir, !line.hasOption("no-open"), fleet);
    }

    @Override
    public int run(Parsed p, Context context) throws IOException {
        String insecure = MonitorEntry.insecureDirectory(p.dir());
        if (insecure != null) {
            context.err().println("dyper: warning: " + insecure);
        }
        Fleet fleet = null;
        if (p.fleet() != null && p.fleet().warning() != null) {
            context.err().println("dyper: warning: " + p.fleet().warning());
        }
        if (p.fleet() != null) {
            try {
                fleet = p.fleet().open();
            } catch (IOException e) {
                context.err().println("dyper: error: ui: " + e.getMessage());
                return ExitCode.NO_PROCESS;
            }
        }
        Fleet remote = fleet;
        Api api = new Api(p.dir(), context.cache(), new Page(), remote);
        UiServer server;
        try {
            server = UiServer.start(p.port(), api);
        } catch (java.net.BindException e) {
            context.err().println("dyper: error: ui: cannot listen on 127.0.0.1:" + p.port() + ": " + e.getMessage());
            return ExitCode.IO_ERROR;
        }
        context.out().println(server.url());
        context.out().flush();
        context.err().println("dyper: ui: serving the monitors of " + p.dir() + (remote == null ? ""
                : " and of " + remote.describe()) + " on 127.0.0.1:" + server.port()
                + " (loopback only); Ctrl-C ends it and takes out what it inserted, unless pinned");
        if (p.open()) {
            Browser.open(server.url(), context.err());
        }
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            server.stop();
            api.close().forEach(context.err()::println);
            if (remote != null) {
                remote.close();
            }
            context.err().flush();
            done.countDown();
        }, "dyper-ui-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ExitCode.OK;
    }
}
