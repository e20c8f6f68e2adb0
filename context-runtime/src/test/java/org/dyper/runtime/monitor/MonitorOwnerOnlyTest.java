package org.dyper.runtime.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.dyper.runtime.monitor.targets.LoopTarget;
import org.dyper.runtime.wire.Endpoint;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.RegistryFiles;
import org.dyper.runtime.wire.WireClient;
import org.dyper.testsupport.Jdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Only the owner reaches the monitor (issue 20, item 6): it listens on a socket file in the owner-only registry
 * folder, so another local user, who can reach only the TCP ports a process listens on, cannot fill its slots for
 * clients without a token and keep the owner out. With {@code transport=tcp} (or where no socket file can be made)
 * it listens on a loopback port, and then such a user can.
 */
class MonitorOwnerOnlyTest {
    @TempDir
    Path dir;

    /** The TCP ports process {@code pid} listens on, from /proc (what any local user can find out about it). */
    static List<Integer> listeningPorts(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/" + pid + "/fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // not a socket any more
                }
            }
        }
        List<Integer> ports = new ArrayList<>();
        for (String table : List.of("tcp", "tcp6")) {
            Path file = Path.of("/proc/" + pid + "/net/" + table);
            if (!Files.exists(file)) {
                continue;
            }
            List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f[3].equals("0A") && inodes.contains(f[9])) {  // 0A: LISTEN
                    ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16));
                }
            }
        }
        return ports;
    }

    /**
     * Another client takes every slot for clients without a token on every TCP port the program listens on (twenty
     * connections each, none sending anything); returns its connections, to be closed by the caller.
     */
    private static List<Socket> crowdOut(long pid) throws IOException {
        List<Socket> held = new ArrayList<>();
        for (int port : listeningPorts(pid)) {
            for (int i = 0; i < 20; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
                s.setSoTimeout(30_000);
                held.add(s);
            }
            // the last one is refused at once: the slots are full
            assertTrue(Frames.read(held.get(held.size() - 1).getInputStream(), Frames.MAX_REPLY, null)
                    .contains("too many connections without a token yet (limit 16)"));
        }
        return held;
    }

    /**
     * The owner's PING while another client holds every slot for clients without a token ({@link #crowdOut}): the
     * reply, or {@code refused: } and the error.
     */
    private static String pingWhileCrowdedOut(long pid, MonitorEntry e) throws IOException {
        List<Socket> held = crowdOut(pid);
        try {
            return ping(e);
        } catch (IOException refused) {
            return "refused: " + refused.getMessage();
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    private static String ping(MonitorEntry e) throws IOException {
        try (WireClient c = e.connect(false)) {
            c.timeout(30_000);
            return c.command("PING", null);
        }
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void anotherClientWithoutTheTokenNoLongerKeepsTheOwnerOut(Jdk jdk) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc to find the ports a process listens on");
        try (Child child = Child.start(jdk, dir, "", LoopTarget.class)) {
            assertEquals("loop: started", child.nextLine());
            long pid = child.process.pid();
            MonitorEntry e = child.entry();
            assertEquals(dir.resolve(pid + ".sock").toAbsolutePath(), e.endpoint().socket());
            assertNull(RegistryFiles.read(e.file()).get("port"), "no TCP port in the entry");
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)),
                    "only the owner can reach the socket file");
            assertEquals(List.of(), listeningPorts(pid), "the program listens on no TCP port");
            assertEquals("<DYPER_REPLY ID='" + pid + "'>PONG</DYPER_REPLY>", pingWhileCrowdedOut(pid, e));
            assertEquals(0, child.stop(), child.stderr());
            assertEquals("", child.stderr());
            assertTrue(!Files.exists(e.endpoint().socket()), "the socket file goes with the process");
        }
    }

    @Test
    void onATcpPortAnotherClientKeepsTheOwnerOutWhichIsWhyItIsNotTheDefault() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc to find the ports a process listens on");
        try (Child child = Child.start(Jdk.JDK17, dir, "transport=tcp", LoopTarget.class)) {
            assertEquals("loop: started", child.nextLine());
            long pid = child.process.pid();
            MonitorEntry e = child.entry();
            assertNull(e.endpoint().socket());
            assertEquals(List.of(e.endpoint().port()), listeningPorts(pid));
            String refused = pingWhileCrowdedOut(pid, e);
            assertTrue(refused.startsWith("refused: ")
                    && refused.contains("too many connections without a token yet (limit 16)"), refused);
            assertEquals(0, child.stop(), child.stderr());
            assertEquals("", child.stderr(), "an explicit transport=tcp is no surprise: no warning");
        }
    }

    @Test
    void aFolderTooDeepForASocketFileFallsBackToTcpAndSaysSo() throws Exception {
        Path deep = dir.resolve("r".repeat(60)).resolve("s".repeat(60));
        assertNotNull(Endpoint.socketFileProblem(deep.resolve("1.sock")));
        try (Child child = Child.start(Jdk.JDK17, deep, "", LoopTarget.class)) {
            assertEquals("loop: started", child.nextLine());
            MonitorEntry e = child.entry();
            assertNull(e.endpoint().socket());
            assertEquals("<DYPER_REPLY ID='" + child.process.pid() + "'>PONG</DYPER_REPLY>", ping(e));
            assertEquals(0, child.stop(), child.stderr());
            String expected = "dyper: warning: the monitor listens on loopback TCP port " + e.endpoint().port()
                    + ", where any local user can connect (the token still guards it): the socket file's path "
                    + deep.resolve(child.process.pid() + ".sock").toAbsolutePath() + " has ";
            assertTrue(child.stderr().startsWith(expected), child.stderr());
            assertEquals(1, child.stderr().lines().count(), child.stderr());
        }
    }
}
