package org.dyper.cli.fleet;

import java.nio.file.Path;
import java.time.Duration;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.cli.UsageError;

/**
 * The options that name a NATS server and how to log in ({@code --nats URL} with {@code --user/--password},
 * {@code --token} or {@code --creds}), one set for {@code dyper ctl}, {@code dyper report} and {@code dyper ui}.
 */
public final class NatsOptions {
    /** How long WHO gathers answers on a broker unless a command says otherwise. */
    public static final Duration WHO_DEADLINE = Duration.ofSeconds(1);
    /** How long connecting to the server may take. */
    public static final Duration CONNECT = Duration.ofSeconds(5);

    private NatsOptions() {
    }

    /** Adds {@code --nats --user --password --token --creds}. */
    public static Options add(Options o) {
        return o.addOption(Option.builder().longOpt("nats").hasArg().argName("URL")
                        .desc("reach the monitors through this NATS server (nats://host:port, tls://host:port)").build())
                .addOption(Option.builder().longOpt("user").hasArg().argName("NAME")
                        .desc("--nats: user name (with --password)").build())
                .addOption(Option.builder().longOpt("password").hasArg().argName("PW")
                        .desc("--nats: password").build())
                .addOption(Option.builder().longOpt("token").hasArg().argName("TOKEN")
                        .desc("--nats: authentication token").build())
                .addOption(Option.builder().longOpt("creds").hasArg().argName("FILE")
                        .desc("--nats: a .creds file (JWT and NKey seed)").build());
    }

    /** The login the options give; a bad URL, two ways of logging in or an unreadable .creds file is a usage error. */
    public static NatsFleet.Login login(CommandLine line) throws UsageError {
        int ways = (line.hasOption("user") ? 1 : 0) + (line.hasOption("token") ? 1 : 0)
                + (line.hasOption("creds") ? 1 : 0);
        if (ways > 1) {
            throw new UsageError("--nats: give one of --user/--password, --token and --creds");
        }
        if (line.hasOption("password") && !line.hasOption("user")) {
            throw new UsageError("--password needs --user");
        }
        onlyWithNats(line);
        try {
            return new NatsFleet.Login(line.getOptionValue("nats"), line.getOptionValue("user"),
                    line.getOptionValue("password"), line.getOptionValue("token"),
                    line.hasOption("creds") ? Path.of(line.getOptionValue("creds")) : null);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
    }

    /** A login option without {@code --nats} is a usage error naming it. */
    public static void onlyWithNats(CommandLine line) throws UsageError {
        if (!line.hasOption("nats")) {
            for (String o : new String[] {"user", "password", "token", "creds"}) {
                if (line.hasOption(o)) {
                    throw new UsageError("--" + o + " goes with --nats URL");
                }
            }
        }
    }

    /** The broker the options name as a {@link Carrier}: connected when the command runs. */
    public static Carrier carrier(CommandLine line) throws UsageError {
        NatsFleet.Login login = login(line);
        return new Carrier(login.url(), () -> NatsFleet.connect(login, CONNECT), WHO_DEADLINE, login.warning());
    }
}
