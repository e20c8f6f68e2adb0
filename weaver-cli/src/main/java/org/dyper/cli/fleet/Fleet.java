package org.dyper.cli.fleet;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * The monitored JVMs that one carrier reaches: this machine's registry folder, or a NATS broker. {@code dyper ctl
 * --all}, the merged report and the UI's fleet view work on any of them alike.
 */
public interface Fleet extends AutoCloseable {
    /**
     * One monitored JVM. {@code id} is what the other commands take (a pid on this machine; host, pid and start time
     * on a broker); {@code jdk} is its {@code java.version}, or "" when the carrier does not say.
     */
    record Member(String id, String host, long pid, String mainClass, long startMillis, String jdk) {
    }

    /** One JVM's reply to a message ({@code reply}, the raw XML), or why there is none ({@code error}, naming it). */
    record Answer(Member member, String reply, String error) {
        public boolean ok() {
            return error == null;
        }
    }

    /** The JVMs that answer within {@code deadline}, in a stable order (host, main class, pid). */
    List<Member> who(Duration deadline) throws IOException;

    /**
     * Sends one DYPER message to each of {@code members} at once and gathers the replies until {@code deadline}: one
     * answer per member, in their order; a member that did not answer in time gets an error naming it.
     * {@code control}: the message changes the program (INSTRUMENT, SET, AGENT, ...), which a carrier may allow only
     * to some users.
     */
    List<Answer> send(List<Member> members, String message, boolean control, Duration deadline) throws IOException;

    /** Takes one answer as it comes: {@code index} is its member's place in the list sent to. */
    @FunctionalInterface
    interface Each {
        void accept(int index, Answer answer);
    }

    /**
     * As {@link #send(List, String, boolean, Duration)}, but each answer goes to {@code each} as it comes (on the
     * calling thread, in any order, once per member), so that a caller who folds the answers in need not hold them
     * all. This default gathers them all first; a carrier with many members does better.
     */
    default void send(List<Member> members, String message, boolean control, Duration deadline, Each each)
            throws IOException {
        List<Answer> all = send(members, message, control, deadline);
        for (int i = 0; i < all.size(); i++) {
            each.accept(i, all.get(i));
        }
    }

    /** What this fleet is, for messages: {@code "registry /root/.dyper/run"}, {@code "nats://host:4222"}. */
    String describe();

    /**
     * A member as messages and tables name it: {@code JVM id (main, pid N on host)} unless the carrier has a shorter
     * way ({@code process 42 (com.acme.Main)} on this machine).
     */
    default String describe(Member m) {
        boolean known = m.mainClass() != null && !m.mainClass().isEmpty() && !m.mainClass().equals("?");
        return "JVM " + m.id() + " (" + (known ? m.mainClass() + ", " : "") + "pid " + m.pid() + " on " + m.host()
                + ")";
    }

    @Override
    void close();
}
