package org.dyper.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's side of a connection the server ends: what the caller is told. */
class WireClientTest {
    static final String REFUSAL = "<DYPER_REPLY><ERROR>too many connections without a token yet (limit 16)</ERROR>"
            + "</DYPER_REPLY>";

    @TempDir
    Path dir;

    private WireClient client(Link link) {
        return new WireClient(link, "DYPER", ProcessHandle.current().pid(), "monitor", "process 1 (test)");
    }

    /**
     * The server refused at once and closed before the client's first frame went out: the send breaks (a broken
     * pipe), and the client still answers with the server's reason, which was waiting unread.
     */
    @Test
    void aRefusalSentBeforeTheServerClosedIsTheAnswerNotTheBrokenPipe() throws Exception {
        Path file = dir.resolve("m.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(file));
            Link link = Endpoint.socketFile(file).connect(5000);
            try (SocketChannel peer = server.accept()) {
                Frames.write(Channels.newOutputStream(peer), REFUSAL);
            }
            try (WireClient c = client(link)) {
                assertEquals(REFUSAL, c.request("<DYPER AUTH='x'/>"));
                IOException next = assertThrows(IOException.class, () -> c.command("PING", null));
                assertTrue(next.getMessage().startsWith("the monitor of process 1 (test) closed the connection"),
                        next.getMessage());
            }
        }
    }

    /** Closed without a word: the send's own failure, naming the server. */
    @Test
    void aServerThatClosedSilentlyIsNamed() throws Exception {
        Path file = dir.resolve("m.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(file));
            Link link = Endpoint.socketFile(file).connect(5000);
            server.accept().close();
            try (WireClient c = client(link)) {
                IOException e = assertThrows(IOException.class, () -> c.request("<DYPER AUTH='x'/>"));
                assertTrue(e.getMessage().startsWith("the monitor of process 1 (test) closed the connection"),
                        e.getMessage());
            }
        }
    }
}
