package org.dyper.runtime.monitor;

import org.dyper.runtime.wire.WireClient;
import org.dyper.testsupport.Jdk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.dyper.runtime.wire.Link;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.monitor.targets.AllocatingTarget;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Hostile and heavy clients over real sockets against a real target JVM with a small heap (the target allocates all
 * the time, so memory the monitor takes shows up as an OutOfMemoryError in its {@code main}): clients without the
 * token sending the largest frames, clients that trickle bytes or sit idle, and concurrent CLASSMODEL requests with
 * class files. Each time the program must finish with exactly its own output and nothing on stderr.
 */
class MonitorHostileClientsTest {
    private static final String OUTPUT = "alloc: started\nalloc: stopped\n";

    @TempDir
    Path dir;

    private static Child start(Jdk jdk, Path dir, String options) throws Exception {
        Child child = Child.start(jdk, dir, options, List.of("-Xmx96m"), AllocatingTarget.class);
        assertEquals("alloc: started", child.nextLine());
        return child;
    }

    private static void finish(Child child) throws Exception {
        try (WireClient c = child.client()) {
            assertEquals("<DYPER_REPLY ID='" + child.process.pid() + "'>PONG</DYPER_REPLY>", c.command("PING", null));
        }
        assertEquals(0, child.stop(), child.stderr());
        assertEquals(OUTPUT, child.stdout());
        assertEquals("", child.stderr());
    }

    static String framed(String xml) {
        return xml.getBytes(StandardCharsets.UTF_8).length + "\n" + xml;
    }

    static String error(long pid, String message) {
        return "<DYPER_REPLY ID='" + pid + "'><ERROR>" + message + "</ERROR></DYPER_REPLY>";
    }

    /** Everything the monitor sends on one connection until it closes it, and when it closed it. */
    static final class Received {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final Thread reader;
        volatile long closedAt;
        volatile boolean reset;

        Received(Link s) throws IOException {
            InputStream in = s.input();
            reader = new Thread(() -> {
                byte[] buffer = new byte[8192];
                try {
                    int n;
                    while ((n = in.read(buffer)) >= 0) {
                        synchronized (bytes) {
                            bytes.write(buffer, 0, n);
                        }
                    }
                } catch (IOException e) {
                    reset = true;  // the monitor closed the connection with our bytes unread
                }
                closedAt = System.nanoTime();
            });
            reader.setDaemon(true);
            reader.start();
        }

        /** What arrived, once the connection is closed (fails if it is still open after {@code seconds}). */
        String text(int seconds) throws InterruptedException {
            reader.join(seconds * 1000L);
            assertTrue(!reader.isAlive(), "the monitor did not close the connection within " + seconds + " s");
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }
    }

    /** A frame of exactly 1 MiB, the largest the monitor takes, that costs a DOM parser the most memory. */
    private static byte[] megabyteFrame() {
        StringBuilder x = new StringBuilder(Frames.MAX_MESSAGE).append("<DYPER AUTH='").append("0".repeat(64))
                .append("'>");
        String close = "</DYPER>";
        String element = "<V N='x' V='y' W='z'/>";
        while (x.length() + element.length() + close.length() <= Frames.MAX_MESSAGE) {
            x.append(element);
        }
        x.append(" ".repeat(Frames.MAX_MESSAGE - x.length() - close.length())).append(close);
        return (Frames.MAX_MESSAGE + "\n" + x).getBytes(StandardCharsets.US_ASCII);
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void clientsWithoutTheTokenSendingMegabyteFramesCostTheProgramNothing(Jdk jdk) throws Exception {
        try (Child child = start(jdk, dir, "")) {
            long pid = child.process.pid();
            org.dyper.runtime.wire.Endpoint endpoint = child.entry().endpoint();
            byte[] frame = megabyteFrame();
            ExecutorService pool = Executors.newFixedThreadPool(32);
            try {
                List<Future<String>> replies = new ArrayList<>();
                for (int round = 0; round < 3; round++) {
                    for (int i = 0; i < 32; i++) {
                        replies.add(pool.submit(() -> {
                            try (Link s = endpoint.connect(5000)) {
                                Received r = new Received(s);
                                try {
                                    s.output().write(frame);
                                } catch (IOException refused) {
                                    // the monitor closed the connection before it took the whole frame
                                }
                                return r.text(60);
                            }
                        }));
                    }
                    // refused at the length, before a byte of XML is read; past 16 waiting, refused at once
                    String tooLong = framed(error(pid, "access denied: the first message must be "
                            + "&lt;DYPER AUTH='token'/&gt; of at most 256 bytes"));
                    String tooMany = framed(error(pid, "too many connections without a token yet (limit 16)"));
                    for (Future<String> f : replies) {
                        String got = f.get(120, TimeUnit.SECONDS);
                        assertTrue(got.equals(tooLong) || got.equals(tooMany), got);
                    }
                    replies.clear();
                }
            } finally {
                pool.shutdownNow();
            }
            finish(child);
        }
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void sixteenConcurrentClassModelsWithClassFilesFitIn96Megabytes(Jdk jdk) throws Exception {
        try (Child child = start(jdk, dir, "")) {
            long pid = child.process.pid();
            MonitorEntry entry = child.entry();
            String name = AllocatingTarget.class.getName();
            byte[] classFile = Files.readAllBytes(Path.of(AllocatingTarget.class.getProtectionDomain().getCodeSource()
                    .getLocation().toURI()).resolve(name.replace('.', '/') + ".class"));
            String element = "<CLASS NAME='" + name + "'><BINARY>" + Base64.getEncoder().encodeToString(classFile)
                    + "</BINARY></CLASS>";
            ExecutorService pool = Executors.newFixedThreadPool(16);
            try {
                List<Future<String>> replies = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    replies.add(pool.submit(() -> {
                        try (WireClient c = entry.connect(false)) {
                            c.timeout(120_000);
                            return c.command("CLASSMODEL", "<OPTIONS BINARY='true'/>");
                        }
                    }));
                }
                for (Future<String> f : replies) {
                    String got = f.get(180, TimeUnit.SECONDS);
                    assertTrue(got.startsWith("<DYPER_REPLY ID='" + pid + "'><CLASSMODEL CANREDEFINE='true'>"),
                            got.substring(0, Math.min(200, got.length())));
                    assertTrue(got.endsWith("</CLASSMODEL></DYPER_REPLY>"), got.substring(Math.max(0,
                            got.length() - 200)));
                    assertTrue(got.contains(element), "the target's class file, base64");
                    assertTrue(got.contains("<CLASS NAME='java.lang.Object'><BINARY>yv66vg"), "java.lang.Object");
                }
            } finally {
                pool.shutdownNow();
            }
            finish(child);
        }
    }

    /** Writes {@code bytes} one at a time, {@code gapMillis} apart, until the monitor closes the connection. */
    private static Thread trickle(Link s, byte[] bytes, long gapMillis) {
        Thread t = new Thread(() -> {
            try {
                OutputStream out = s.output();
                for (byte b : bytes) {
                    out.write(b);
                    out.flush();
                    Thread.sleep(gapMillis); // planted: a client that sends one byte at a time
                }
            } catch (IOException | InterruptedException closed) {
                // the monitor gave up on us: that is the point
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static Link authenticated(MonitorEntry e, long pid) throws IOException {
        Link s = e.endpoint().connect(5000);
        s.timeout(60_000);
        s.output().write(framed("<DYPER AUTH='" + e.token() + "'/>").getBytes(StandardCharsets.US_ASCII));
        String ok = framed("<DYPER_REPLY ID='" + pid + "'>OK</DYPER_REPLY>");
        byte[] got = s.input().readNBytes(ok.length());
        assertEquals(ok, new String(got, StandardCharsets.US_ASCII));
        return s;
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void tricklingAndIdleClientsAreClosedAtTheirDeadlines(Jdk jdk) throws Exception {
        long limit = 1500;
        try (Child child = start(jdk, dir, "authtimeout=" + limit + ",frametimeout=" + limit + ",idletimeout="
                + limit + ",maxconnections=40")) {
            long pid = child.process.pid();
            MonitorEntry e = child.entry();
            byte[] auth = framed("<DYPER AUTH='" + e.token() + "'/>").getBytes(StandardCharsets.US_ASCII);
            byte[] ping = framed("<DYPER COMMAND='PING'/>").getBytes(StandardCharsets.US_ASCII);
            List<Link> sockets = new ArrayList<>();
            List<Received> noToken = new ArrayList<>();
            List<Received> slowFrame = new ArrayList<>();
            List<Received> idle = new ArrayList<>();
            List<Long> started = new ArrayList<>();
            try {
                // 16 clients trickle their AUTH frame, 8 trickle a command, 8 say nothing after AUTH: one byte
                // every 200 ms keeps a per-read timeout of 1.5 s from ever firing
                for (int i = 0; i < 32; i++) {
                    Link s = i < 16 ? e.endpoint().connect(5000) : authenticated(e, pid);
                    sockets.add(s);
                    started.add(System.nanoTime());
                    Received r = new Received(s);
                    if (i < 16) {
                        noToken.add(r);
                        trickle(s, auth, 200);
                    } else if (i < 24) {
                        slowFrame.add(r);
                        trickle(s, ping, 200);
                    } else {
                        idle.add(r);
                    }
                }
                // meanwhile a client with the token is served at once
                try (WireClient c = e.connect(false)) {
                    c.timeout(5_000);
                    assertEquals("<DYPER_REPLY ID='" + pid + "'>PONG</DYPER_REPLY>", c.command("PING", null));
                }
                String ok = framed("<DYPER_REPLY ID='" + pid + "'>OK</DYPER_REPLY>");
                check(noToken, started.subList(0, 16), limit,
                        framed(error(pid, "access denied: no token within the time limit (authtimeout " + limit
                                + " ms)")));
                check(slowFrame, started.subList(16, 24), limit,
                        framed(error(pid, "incomplete message: nothing more arrived within the time limit")));
                check(idle, started.subList(24, 32), limit,
                        framed(error(pid, "idle for " + limit + " ms: connection closed (idletimeout)")));
            } finally {
                for (Link s : sockets) {
                    s.close();
                }
            }
            finish(child);
        }
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void aClientThatDoesNotTakeItsRepliesIsClosedAtTheWriteDeadline(Jdk jdk) throws Exception {
        try (Child child = start(jdk, dir, "frametimeout=1500")) {
            long pid = child.process.pid();
            String request = "<DYPER COMMAND='CLASSMODEL'><OPTIONS BINARY='true'/></DYPER>";
            long length;
            try (WireClient c = child.client()) {
                length = c.request(request).getBytes(StandardCharsets.UTF_8).length;
            }
            try (Link s = authenticated(child.entry(), pid)) {
                for (int i = 0; i < 8; i++) {
                    s.output().write(framed(request).getBytes(StandardCharsets.US_ASCII));
                }
                // take the replies at a pace that needs 4 s a reply: the monitor gives each 1.5 s, then closes
                byte[] chunk = new byte[(int) Math.max(16 << 10, length / 40)];
                long read = 0;
                int n;
                try {
                    while ((n = s.input().read(chunk)) >= 0) {
                        read += n;
                        assertTrue(read < 8 * length, "all the replies were taken: the connection was kept");
                        Thread.sleep(100); // planted: a client that takes its replies slowly
                    }
                } catch (IOException reset) {
                    // closed with our requests unread
                }
                assertTrue(read < 8 * length, "read " + read + " bytes of " + 8 * length);
            }
            finish(child);
        }
    }

    /** Each connection ended with {@code expected} no earlier than {@code limit} ms and at most 5 s after it. */
    private static void check(List<Received> received, List<Long> started, long limit, String expected)
            throws InterruptedException {
        for (int i = 0; i < received.size(); i++) {
            Received r = received.get(i);
            String got = r.text(20);
            long after = TimeUnit.NANOSECONDS.toMillis(r.closedAt - started.get(i));
            assertTrue(got.endsWith(expected), "connection " + i + ", closed after " + after + " ms" + (r.reset
                    ? " by a reset" : "") + ", got '" + got + "'");
            assertTrue(after >= limit - 50 && after <= limit + 5_000, "closed after " + after + " ms");
        }
    }
}
