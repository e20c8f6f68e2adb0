package org.dyper.runtime.monitor.internal.nats;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * A class loader for jars that the runtime jar carries as resources (the NATS bridge, jnats, eddsa), read into memory:
 * no temporary file, nothing on the program's class path. Its parent is the platform class loader, so it sees the JDK
 * and nothing of the program: a program with its own jnats keeps it, and the monitor keeps its own.
 */
final class IsolatedJars extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    /** Where the runtime jar (or, in its own tests, target/classes) holds the embedded jars. */
    static final String FOLDER = "META-INF/dyper/nats/";
    static final List<String> JARS = List.of("dyper-nats-bridge.jar", "jnats.jar", "eddsa.jar");

    private final Map<String, byte[]> entries = new HashMap<>();

    private IsolatedJars(Map<String, byte[]> entries) {
        super("dyper-nats", ClassLoader.getPlatformClassLoader());
        this.entries.putAll(entries);
    }

    /** Reads the embedded jars through {@code from}; throws naming a jar that is missing. */
    static IsolatedJars load(ClassLoader from) throws IOException {
        Map<String, byte[]> entries = new HashMap<>();
        for (String jar : JARS) {
            InputStream in = from.getResourceAsStream(FOLDER + jar);
            if (in == null) {
                throw new IOException("the runtime jar holds no " + FOLDER + jar + " (build with mvn package)");
            }
            try (JarInputStream j = new JarInputStream(in)) {
                for (JarEntry e = j.getNextJarEntry(); e != null; e = j.getNextJarEntry()) {
                    if (!e.isDirectory()) {
                        entries.putIfAbsent(e.getName(), j.readAllBytes());
                    }
                }
            }
        }
        return new IsolatedJars(entries);
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        String path = name.replace('.', '/') + ".class";
        byte[] bytes;
        synchronized (entries) {
            // a class is defined once: its bytes are not needed after that
            bytes = entries.remove(path);
        }
        if (bytes == null) {
            throw new ClassNotFoundException(name);
        }
        return defineClass(name, bytes, 0, bytes.length);
    }

    @Override
    protected URL findResource(String name) {
        byte[] bytes;
        synchronized (entries) {
            bytes = name.endsWith(".class") ? null : entries.get(name);
        }
        if (bytes == null) {
            return null;
        }
        try {
            return new URL("dyper-nats", null, -1, "/" + name, new URLStreamHandler() {
                @Override
                protected URLConnection openConnection(URL u) {
                    return new URLConnection(u) {
                        @Override
                        public void connect() {
                        }

                        @Override
                        public InputStream getInputStream() {
                            return new ByteArrayInputStream(bytes);
                        }
                    };
                }
            });
        } catch (MalformedURLException e) {
            return null;
        }
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        URL u = findResource(name);
        return u == null ? Collections.emptyEnumeration() : Collections.enumeration(List.of(u));
    }
}
