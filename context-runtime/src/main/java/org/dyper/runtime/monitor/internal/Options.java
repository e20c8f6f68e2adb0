package org.dyper.runtime.monitor.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The agent options: {@code key=value} pairs separated by commas. {@code dir}, {@code notify}, {@code notifywait},
 * {@code frametimeout}, {@code authtimeout}, {@code idletimeout}, {@code maxconnections}, {@code launcher},
 * {@code transport} ({@code socket}, the default: a socket file in {@code dir}; {@code tcp}: a loopback port),
 * {@code cli} (the Dyper command line automatic detailing runs as {@code cli patchd}; {@code none}: never),
 * {@code nats} (a NATS server URL the monitor joins as well, docs/fleet.md) with {@code natsuser}, {@code natspassword},
 * {@code natstoken}, {@code natscreds} (each also a system property: {@code dyper.nats}, {@code dyper.nats.user}, ...),
 * and any monitor variable (CHECKTIME=5, ...).
 */
public record Options(Path dir, InetSocketAddress notifyAddress, long notifyWaitMillis, long frameTimeoutMillis,
        long authTimeoutMillis, long idleTimeoutMillis, int maxConnections, long launcherPid,
        Map<String, String> settings, String cli, boolean tcp, Nats nats) {

    /**
     * The NATS server to join ({@code url} null: none) and the credentials: user and password (also in the URL),
     * a token, or a .creds file.
     */
    public record Nats(String url, String user, String password, String token, String creds) {
        static final Map<String, String> KEYS = Map.of("nats", "dyper.nats", "natsuser", "dyper.nats.user",
                "natspassword", "dyper.nats.password", "natstoken", "dyper.nats.token", "natscreds", "dyper.nats.creds");

        /** The options given, each else its system property. */
        static Nats of(Map<String, String> given) {
            Map<String, String> v = new LinkedHashMap<>();
            KEYS.forEach((key, property) -> {
                String value = given.containsKey(key) ? given.get(key) : System.getProperty(property);
                v.put(key, value == null || value.isBlank() ? null : value.trim());
            });
            String url = v.get("nats");
            if (url != null && !url.matches("(?i)(nats|tls|ws|wss)://.+")) {
                throw new IllegalArgumentException("agent option nats needs a URL nats://host:port or tls://host:port,"
                        + " not '" + url + "'");
            }
            if (v.get("natscreds") != null && !java.nio.file.Files.isReadable(Path.of(v.get("natscreds")))) {
                throw new IllegalArgumentException("agent option natscreds: cannot read " + v.get("natscreds"));
            }
            return new Nats(url, v.get("natsuser"), v.get("natspassword"), v.get("natstoken"), v.get("natscreds"));
        }
    }

    public static final String DIR_PROPERTY = "dyper.monitor.dir";

    /** The registry folder when neither the {@code dir} option nor {@code dyper.monitor.dir} names one. */
    public static Path defaultDir() {
        String configured = System.getProperty(DIR_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".dyper", "run");
    }

    /** Parses the options; throws with a one-line message naming a bad option. */
    public static Options parse(String args) {
        Path dir = defaultDir();
        InetSocketAddress notify = null;
        long notifyWait = 2000;
        long frameTimeout = 10_000;
        long authTimeout = 10_000;
        long idleTimeout = 300_000;
        int maxConnections = 32;
        long launcher = 0;
        String cli = null;
        boolean tcp = false;
        Map<String, String> settings = new LinkedHashMap<>();
        Map<String, String> nats = new LinkedHashMap<>();
        if (args != null && !args.isBlank()) {
            for (String part : args.split(",")) {
                if (part.isBlank()) {
                    continue;
                }
                int eq = part.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("agent option '" + part + "' is not key=value");
                }
                String key = part.substring(0, eq).trim();
                String value = part.substring(eq + 1).trim();
                switch (key.toLowerCase(Locale.ROOT)) {
                    case "dir" -> dir = Path.of(value);
                    case "notify" -> notify = loopback(value);
                    case "notifywait" -> notifyWait = positive(key, value);
                    case "frametimeout" -> frameTimeout = positive(key, value);
                    case "authtimeout" -> authTimeout = positive(key, value);
                    case "idletimeout" -> idleTimeout = positive(key, value);
                    case "maxconnections" -> maxConnections = (int) Math.min(1000, positive(key, value));
                    case "launcher" -> launcher = pid(value);
                    case "cli" -> cli = value;
                    case "transport" -> tcp = switch (value.toLowerCase(Locale.ROOT)) {
                        case "socket" -> false;
                        case "tcp" -> true;
                        default -> throw new IllegalArgumentException("agent option transport is socket or tcp, not '"
                                + value + "'");
                    };
                    case "nats", "natsuser", "natspassword", "natstoken", "natscreds" ->
                            nats.put(key.toLowerCase(Locale.ROOT), value);
                    default -> {
                        Settings.Var v = Settings.lookup(key);
                        Settings.parse(v, value);
                        settings.put(v.name(), value);
                    }
                }
            }
        }
        return new Options(dir, notify, notifyWait, frameTimeout, authTimeout, idleTimeout, maxConnections,
                launcher, settings, cli, tcp, Nats.of(nats));
    }

    private static long positive(String key, String value) {
        try {
            long n = Long.parseLong(value);
            if (n > 0 && n <= Integer.MAX_VALUE) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new IllegalArgumentException("agent option " + key + " needs a positive number of milliseconds, not '"
                + value + "'");
    }

    private static long pid(String value) {
        try {
            long pid = Long.parseLong(value);
            if (pid > 0) {
                return pid;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new IllegalArgumentException("agent option launcher needs a process id, not '" + value + "'");
    }

    private static InetSocketAddress loopback(String value) {
        int colon = value.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("agent option notify needs host:port, not '" + value + "'");
        }
        try {
            InetAddress host = InetAddress.getByName(value.substring(0, colon));
            int port = Integer.parseInt(value.substring(colon + 1));
            if (!host.isLoopbackAddress()) {
                throw new IllegalArgumentException("agent option notify must name a loopback address, not '"
                        + value + "'");
            }
            return new InetSocketAddress(host, port);
        } catch (java.net.UnknownHostException | NumberFormatException e) {
            throw new IllegalArgumentException("agent option notify needs host:port, not '" + value + "'");
        }
    }
}
