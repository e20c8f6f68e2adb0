package org.dyper.runtime.wire;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a server of this transport listens: a socket file (a Unix domain socket in the owner-only registry folder,
 * so only its owner can reach it) or, where a socket file cannot be used, a TCP port on the loopback interface.
 * A registry entry names it with {@code socket=PATH} or {@code port=N}.
 */
public record Endpoint(Path socket, int port) {
    /**
     * The longest socket file path the operating system takes, in bytes: {@code sun_path} holds 108 bytes on Linux
     * (104 on macOS and the BSDs), with the terminating zero.
     */
    public static final int MAX_SOCKET_PATH = 103;

    public Endpoint {
        if ((socket == null) == (port <= 0)) {
            throw new IllegalArgumentException("an endpoint is a socket file or a port, not both or neither");
        }
    }

    public static Endpoint socketFile(Path file) {
        return new Endpoint(file.toAbsolutePath(), 0);
    }

    public static Endpoint tcp(int port) {
        return new Endpoint(null, port);
    }

    /**
     * Why no socket file can be made at {@code file} (its path is too long), or null when it can be tried. A file
     * system without socket files shows only when the server binds.
     */
    public static String socketFileProblem(Path file) {
        int bytes = file.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8).length;
        return bytes > MAX_SOCKET_PATH ? "the socket file's path " + file.toAbsolutePath() + " has " + bytes
                + " bytes (at most " + MAX_SOCKET_PATH + ")" : null;
    }

    /** The endpoint a registry entry names ({@code socket} or {@code port}); throws when it names neither. */
    public static Endpoint of(Map<String, String> entry) {
        String socket = entry.get("socket");
        if (socket != null && !socket.isBlank()) {
            return socketFile(Path.of(socket));
        }
        String port = entry.get("port");
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (RuntimeException e) {
            p = 0;
        }
        if (p <= 0 || p > 65535) {
            throw new IllegalArgumentException("the entry names neither a socket file nor a port");
        }
        return tcp(p);
    }

    /** The entry's fields for this endpoint, {@code socket=PATH} or {@code port=N}. */
    public Map<String, String> fields() {
        Map<String, String> f = new LinkedHashMap<>();
        if (socket != null) {
            f.put("socket", socket.toString());
        } else {
            f.put("port", Integer.toString(port));
        }
        return f;
    }

    /** For messages: {@code socket /path} or {@code port N}. */
    @Override
    public String toString() {
        return socket != null ? "socket " + socket : "port " + port;
    }

    /** Connects within {@code timeoutMillis} and returns the link. */
    public Link connect(int timeoutMillis) throws IOException {
        if (socket != null) {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                ch.connect(UnixDomainSocketAddress.of(socket));
            } catch (java.net.ConnectException e) {
                ch.close();
                throw e;
            } catch (java.net.SocketException e) {
                ch.close();
                // no such file, or not a socket: nobody listens there
                throw (java.net.ConnectException) new java.net.ConnectException(this + ": " + e.getMessage())
                        .initCause(e);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
            return new Link(ch);
        }
        SocketChannel ch = SocketChannel.open();
        try (Selector s = Selector.open()) {
            ch.configureBlocking(false);
            if (!ch.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))) {
                ch.register(s, SelectionKey.OP_CONNECT);
                if (s.select(timeoutMillis) == 0) {
                    throw new java.net.SocketTimeoutException("connect timed out (" + this + ")");
                }
                ch.finishConnect();
            }
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return new Link(ch);
    }
}
