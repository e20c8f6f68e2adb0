package org.dyper.cli.fleet;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The monitored JVMs of this machine: the entries of one registry folder ({@link MonitorEntry}), each reached on its
 * own socket with its token. A message goes to all of them at once, one connection each, and every reply is waited
 * for until one deadline; a JVM that has not answered by then is named, and its connection closed. The socket token
 * already guards every command, so {@code control} changes nothing here.
 */
public final class LocalFleet implements Fleet {
    /** At most this many connections are open at once; more members wait for a free one (within the deadline). */
    static final int PARALLEL = 64;

    private final Path dir;
    private final String host;

    public LocalFleet(Path dir) {
        this.dir = dir;
        this.host = hostName();
    }

    /**
     * Every live entry of the registry folder (stale ones are removed), by main class and pid; the JDK is what each
     * JVM's WHORU says within {@code deadline} ("" for one that did not answer in time: it is still listed, so that
     * {@link #send} names it when it does not answer then either).
     */
    @Override
    public List<Member> who(Duration deadline) throws IOException {
        List<MonitorEntry> entries = MonitorEntry.list(dir, true);
        List<Member> members = new ArrayList<>();
        for (MonitorEntry e : entries) {
            members.add(member(e, ""));
        }
        List<Answer> answers = send(members, "<DYPER COMMAND='WHORU'/>", false, deadline);
        List<Member> known = new ArrayList<>();
        for (Answer a : answers) {
            known.add(a.ok() ? member(a.member(), javaVersion(a.reply())) : a.member());
        }
        known.sort(Comparator.comparing(Member::mainClass).thenComparingLong(Member::pid));
        return known;
    }

    private Member member(MonitorEntry e, String jdk) {
        return new Member(Long.toString(e.pid()), host, e.pid(), e.mainClass(), e.startMillis(), jdk);
    }

    private static Member member(Member m, String jdk) {
        return new Member(m.id(), m.host(), m.pid(), m.mainClass(), m.startMillis(), jdk);
    }

    /** {@code java.version} from a WHORU reply, or "". */
    static String javaVersion(String whoru) {
        try {
            for (Element p : Xml.children(MonitorReply.parse(whoru), "PROPERTY")) {
                if (p.getAttribute("KEY").equals("java.version")) {
                    return p.getTextContent().trim();
                }
            }
        } catch (MonitorReply.MalformedException | RuntimeException e) {
            // no version then
        }
        return "";
    }

    @Override
    public List<Answer> send(List<Member> members, String message, boolean control, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        List<Answer> answers = new ArrayList<>();
        if (members.isEmpty()) {
            return answers;
        }
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(PARALLEL, members.size()), r -> {
            Thread t = new Thread(r, "dyper-fleet-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        List<Call> calls = new ArrayList<>();
        try {
            for (Member m : members) {
                Call c = new Call(m, message, end);
                c.future = pool.submit(c::run);
                calls.add(c);
            }
            for (Call c : calls) {
                answers.add(c.await(end, deadline));
            }
        } finally {
            pool.shutdownNow();
        }
        return answers;
    }

    /** One member's exchange, on a pool thread; the caller closes its connection when the deadline passes. */
    private final class Call {
        final Member member;
        final String message;
        final long end;
        volatile WireClient client;
        volatile boolean abandoned;
        Future<String> future;

        Call(Member member, String message, long end) {
            this.member = member;
            this.message = message;
            this.end = end;
        }

        String run() throws IOException {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            if (left <= 0) {
                throw new TimeoutException0();
            }
            MonitorEntry entry = MonitorEntry.of(dir, member.pid());
            try (WireClient c = entry.connect(false)) {
                client = c;
                if (abandoned) {
                    throw new TimeoutException0();
                }
                long ms = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                if (ms <= 0) {
                    throw new TimeoutException0();
                }
                c.timeout((int) Math.min(Integer.MAX_VALUE, ms));
                return c.request(message);
            } catch (java.net.ConnectException e) {
                throw new IOException("does not answer on " + entry.endpoint());
            }
        }

        Answer await(long end, Duration deadline) {
            try {
                return new Answer(member, future.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS),
                        null);
            } catch (TimeoutException e) {
                abandon();
                return late(deadline);
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof TimeoutException0 || cause instanceof java.net.SocketTimeoutException) {
                    return late(deadline);
                }
                String why = cause instanceof IOException ? cause.getMessage() : String.valueOf(cause);
                // the registry's and the client's messages name the process already
                return new Answer(member, null, why != null && why.contains("process " + member.pid())
                        ? why : name(member) + ": " + why);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                abandon();
                return new Answer(member, null, name(member) + ": interrupted");
            }
        }

        private Answer late(Duration deadline) {
            return new Answer(member, null, name(member) + " did not answer within " + deadline.toMillis() + " ms");
        }

        /** Unblocks the pool thread: its read ends when the connection closes. */
        private void abandon() {
            abandoned = true;
            future.cancel(true);
            WireClient c = client;
            if (c != null) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // closing only
                }
            }
        }
    }

    /** The deadline passed before the exchange could start. */
    private static final class TimeoutException0 extends IOException {
        TimeoutException0() {
            super("deadline passed");
        }
    }

    /** A member as errors name it: {@code process 42 (com.acme.Main)}, as the rest of {@code dyper ctl} does. */
    public static String name(Member m) {
        return "process " + m.pid() + (m.mainClass() == null || m.mainClass().isEmpty()
                || m.mainClass().equals("unknown") ? "" : " (" + m.mainClass() + ")");
    }

    @Override
    public String describe(Member m) {
        return name(m);
    }

    @Override
    public String describe() {
        return "registry " + dir;
    }

    /** The registry folder. */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        // nothing held between calls
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException | RuntimeException e) {
            String env = System.getenv("HOSTNAME");
            return env == null || env.isBlank() ? "localhost" : env;
        }
    }
}
