package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.App;
import java.io.InputStream;
import java.io.OutputStream;
import org.dyper.runtime.wire.Link;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.runtime.PatchService;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.Xml;
import org.dyper.runtime.wire.RegistryFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * {@code dyper patchd} over real sockets: the DYPATCH commands (PING, MODEL, PATCH, DIRECTORY) on the CLI fixture's
 * classes, and the same transport rules as the monitor (token first, bounded frames, no DTDs).
 */
class PatchdTest {
    @TempDir
    static Path dir;
    static Patchd patchd;
    static WireClient client;
    static long pid = ProcessHandle.current().pid();

    @BeforeAll
    static void start() throws Exception {
        Path compiled = Path.of(App.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path classes = dir.resolve("classes/com/acme/cli");
        Files.createDirectories(classes);
        for (String name : List.of("App.class", "Tally.class")) {
            Files.copy(compiled.resolve("com/acme/cli").resolve(name), classes.resolve(name));
        }
        PatchService service = new PatchService(ModeCatalog.load(List.of()),
                new PatchService.TargetClasses(List.of(dir.resolve("classes"))), dir.resolve("patches"));
        patchd = new Patchd(service, pid, null, dir.resolve("registry"));
        client = WireClient.connect(dir.resolve("registry").resolve(pid + ".patchd"), "DYPATCH", pid, "patch service");
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        patchd.close();
        assertFalse(Files.exists(dir.resolve("registry").resolve(pid + ".patchd")), "the entry goes with the service");
        assertFalse(Files.exists(dir.resolve("registry").resolve(pid + ".patchd.sock")), "and so does the socket");
    }

    private static String reply(String body) {
        return "<DYPATCH_REPLY ID='" + pid + "'>" + body + "</DYPATCH_REPLY>";
    }

    private static String error(String message) {
        return reply("<ERROR>" + message + "</ERROR>");
    }

    private static Element xml(String text) throws Exception {
        return MonitorReply.parse(text);
    }

    @Test
    void registryEntryIsPrivateAndNamesSocketAndToken() throws Exception {
        Path entry = dir.resolve("registry").resolve(pid + ".patchd");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(entry)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(entry.getParent())));
        Path socket = entry.resolveSibling(pid + ".patchd.sock").toAbsolutePath();
        assertEquals(socket, patchd.endpoint().socket());
        assertEquals(socket.toString(), RegistryFiles.read(entry).get("socket"));
        assertEquals(null, RegistryFiles.read(entry).get("port"), "no TCP port where a socket file can be made");
        assertEquals(64, RegistryFiles.read(entry).get("token").length());
    }

    @Test
    void pingAndUnknownCommands() throws Exception {
        assertEquals(reply("PONG"), client.command("PING", null));
        assertEquals(error("unknown command 'DANCE' (PING, MODEL, PATCH, DIRECTORY)"), client.command("DANCE", null));
        assertEquals(error("this is the patch service of process " + pid + ", not '1'"),
                client.request("<DYPATCH PID='1' COMMAND='PING'/>"));
        assertEquals(error("malformed XML at line 1, column 10: DOCTYPE is not allowed (no DTDs, no entities)"),
                client.request("<!DOCTYPE x [<!ENTITY a 'b'>]><DYPATCH COMMAND='PING'/>"));
    }

    @Test
    void modelErrorsNameTheElementAndLeaveTheModelAlone() throws Exception {
        String r = client.command("MODEL", "<MODEL NAME='broken'><FOR CLASS='com.acme.cli.Tally' METHOD='add'>"
                + "<PATCH WHAT='ENTER' MODE='NOPE'/></FOR></MODEL>");
        assertTrue(r.startsWith(reply("<ERROR>MODEL message:1:").replace("</DYPATCH_REPLY>", "")), r);
        assertTrue(r.contains("PATCH: unknown MODE 'NOPE'"), r);
        String patch = client.command("PATCH", "<PATCH ALL='true' MODEL='broken'/>");
        assertTrue(patch.contains("no model named 'broken'"), patch);
    }

    @Test
    void patchMakesClassFilesOnceAndUpdateNewClears() throws Exception {
        assertEquals(reply("<MODEL NAME='tally'/>"), client.command("MODEL", "<MODEL NAME='tally'><FOR "
                + "CLASS='com.acme.cli.Tally' METHOD='add'><PATCH WHAT='ENTER' MODE='COUNT'/></FOR></MODEL>"));
        Element first = Xml.child(xml(client.command("PATCH", "<PATCH MODEL='tally'><CLASS NAME='com.acme.cli.Tally'/>"
                + "<CLASS NAME='com.acme.cli.App'/></PATCH>")), "PATCH");
        List<Element> classes = Xml.children(first, "CLASS");
        assertEquals(List.of("com.acme.cli.Tally", "com.acme.cli.App"), classes.stream()
                .map(c -> c.getAttribute("NAME")).toList());
        Element tally = classes.get(0);
        assertArrayEquals(Files.readAllBytes(dir.resolve("classes/com/acme/cli/Tally.class")),
                Files.readAllBytes(Path.of(tally.getAttribute("ORIG"))));
        assertTrue(Files.size(Path.of(tally.getAttribute("PATCH"))) > 0);
        assertFalse(classes.get(1).hasAttribute("PATCH"), "the model patches nothing in App");
        String pkg = "org.dyper.generated.r" + first.getAttribute("ID") + ".";
        // COUNT at ENTER: the plain way's shared wrapper (docs/bytecode-pass.md)
        assertEquals(List.of(pkg + "DyperPlain1", pkg + "DyperSites"), Xml.children(first, "ASPECT").stream()
                .map(a -> a.getAttribute("NAME")).toList(), "the generated classes, in the patch's own package");
        Path patched = Path.of(tally.getAttribute("PATCH"));
        long written = Files.getLastModifiedTime(patched).toMillis();
        Element again = Xml.child(xml(client.command("PATCH", "<PATCH ALL='true' MODEL='tally'/>")), "PATCH");
        assertEquals(first.getAttribute("ID"), again.getAttribute("ID"), "the same inputs: the same patch");
        assertEquals(written, Files.getLastModifiedTime(patched).toMillis(), "reused from the directory");
        assertEquals(reply("<MODEL NAME='tally'/>"), client.command("MODEL", "<MODEL NAME='tally'><FOR "
                + "CLASS='com.acme.cli.Tally' METHOD='total'><PATCH WHAT='ENTER' MODE='COUNT'/></FOR></MODEL>"));
        Element more = Xml.child(xml(client.command("PATCH", "<PATCH ALL='true' MODEL='tally'/>")), "PATCH");
        assertNotEquals(first.getAttribute("ID"), more.getAttribute("ID"), "another model: another patch");
        assertTrue(Files.exists(Path.of(first.getAttribute("SITES"))), "the first patch's files stay");
        assertEquals(reply("<MODEL NAME='tally'/>"), client.command("MODEL", "<MODEL NAME='tally'><FOR CLASS='*' "
                + "METHOD='*' UPDATE='NEW'/></MODEL>"));
        String cleared = client.command("PATCH", "<PATCH ALL='true' MODEL='tally'/>");
        assertTrue(cleared.contains("MODEL: model 'tally' patches no class of the target"), cleared);
    }

    @Test
    void directoryMovesWhereFilesGo() throws Exception {
        Path other = dir.resolve("elsewhere");
        client.command("MODEL", "<MODEL NAME='moved'><FOR CLASS='com.acme.cli.Tally' METHOD='total'>"
                + "<PATCH WHAT='ENTER' MODE='COUNT'/></FOR></MODEL>");
        assertEquals(reply("OK"), client.command("DIRECTORY", other.toString()));
        try {
            Element p = Xml.child(xml(client.command("PATCH", "<PATCH ALL='true' MODEL='moved'/>")), "PATCH");
            assertTrue(p.getAttribute("SITES").startsWith(other.toString()), p.getAttribute("SITES"));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(other)));
        } finally {
            client.command("DIRECTORY", dir.resolve("patches").toString());
        }
    }

    @Test
    void transportRulesAreTheMonitors() throws Exception {
        try (Link s = patchd.endpoint().connect(5000)) {
            OutputStream out = s.output();
            InputStream in = s.input();
            Frames.write(out, "<DYPATCH COMMAND='PING'/>");
            assertEquals(error("access denied: the first message must be &lt;DYPATCH AUTH='token'/&gt;"),
                    Frames.read(in, Frames.MAX_REPLY, null));
            assertEquals(-1, in.read(), "closed after a refusal");
        }
        try (Link s = patchd.endpoint().connect(5000)) {
            Frames.write(s.output(), "<DYPATCH AUTH='" + "0".repeat(64) + "'/>");
            assertEquals(error("access denied: wrong token"), Frames.read(s.input(), Frames.MAX_REPLY, null));
        }
        try (Link raw = patchd.endpoint().connect(5000)) {
            raw.output().write("257\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(error("access denied: the first message must be &lt;DYPATCH AUTH='token'/&gt; of at most 256 "
                    + "bytes"),
                    Frames.read(raw.input(), Frames.MAX_REPLY, null), "without a token: one small frame");
        }
        String token = RegistryFiles.read(dir.resolve("registry").resolve(pid + ".patchd")).get("token");
        try (Link raw = patchd.endpoint().connect(5000)) {
            Frames.write(raw.output(), "<DYPATCH AUTH=\"" + token + "\" />");
            assertEquals(reply("OK"), Frames.read(raw.input(), Frames.MAX_REPLY, null));
            raw.output().write("1048577\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(error("message too large: 1048577 bytes (limit 1048576)"),
                    Frames.read(raw.input(), Frames.MAX_REPLY, null));
        }
    }
}
