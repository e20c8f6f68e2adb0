package org.dyper.cli.fleet;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How a command that works on many JVMs ({@code dyper ctl --all}, {@code dyper report --all}, {@code dyper ui})
 * reaches them: this machine's registry folder unless options name a broker. It opens the {@link Fleet} when the
 * command runs, not when the options are read; {@code whoDeadline} is how long WHO gathers answers there (a registry
 * stops as soon as every entry answered, a broker waits the whole time); {@code warning}: what the command says
 * before it opens the fleet (a .creds file other users may read), or null.
 */
public record Carrier(String what, Opener opener, Duration whoDeadline, String warning) {
    public Carrier(String what, Opener opener, Duration whoDeadline) {
        this(what, opener, whoDeadline, null);
    }

    /** Opens the fleet; a carrier that cannot be reached is an IOException saying so. */
    @FunctionalInterface
    public interface Opener {
        Fleet open() throws IOException;
    }

    /** The registry folder {@code dir} of this machine. */
    public static Carrier local(Path dir) {
        return new Carrier("registry " + dir, () -> new LocalFleet(dir), Duration.ofSeconds(10));
    }

    public Fleet open() throws IOException {
        return opener.open();
    }

    /**
     * The members that run main class {@code main} (its whole name, or its simple name), or all of them for null,
     * in their order.
     */
    public static List<Fleet.Member> select(List<Fleet.Member> members, String main) {
        if (main == null) {
            return members;
        }
        List<Fleet.Member> chosen = new ArrayList<>();
        for (Fleet.Member m : members) {
            String c = m.mainClass() == null ? "" : m.mainClass();
            if (c.equals(main) || c.endsWith("." + main) || c.endsWith("$" + main)) {
                chosen.add(m);
            }
        }
        return chosen;
    }

    /** "3 JVMs", "1 JVM": for messages. */
    public static String jvms(int n) {
        return n + (n == 1 ? " JVM" : " JVMs");
    }
}
