package org.dyper.runtime.agent;

import java.io.IOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.ProtectionDomain;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A javaagent that hands the JVM class files Dyper prepared ({@code -javaagent:<jar>=replace=<dir>}) in place of the
 * originals as they load: by default ({@code dyper run}) the classes woven ahead of the launch; with the AspectJ weaver
 * agent, the bytecode pass's classes, which the AspectJ transformer (started after this agent) then weaves.
 * {@code <dir>/replace.tsv} lists one class per line,
 * {@code internal/Name TAB sha256-of-the-original}; {@code <dir>/internal/Name.class} is its replacement. A class
 * whose bytes are not the ones the pass started from is left alone and reported once on stderr.
 */
public final class ReplaceAgent implements ClassFileTransformer {
    /** The file that lists the prepared classes in a replacement folder. */
    public static final String INDEX = "replace.tsv";
    /** The jar, beside {@link #INDEX}, that holds this agent's classes and names it as its {@code Premain-Class}. */
    public static final String AGENT_JAR = "agent.jar";

    private final Path dir;
    private final Map<String, String> expected;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    ReplaceAgent(Path dir, Map<String, String> expected) {
        this.dir = dir;
        this.expected = expected;
    }

    public static void premain(String args, Instrumentation inst) {
        String dir = null;
        for (String part : args == null ? new String[0] : args.split(",")) {
            if (part.startsWith("replace=")) {
                dir = part.substring("replace=".length());
            }
        }
        if (dir == null) {
            System.err.println("dyper: replace agent: no replace=<dir> argument; no class is replaced");
            return;
        }
        try {
            inst.addTransformer(new ReplaceAgent(Path.of(dir), readIndex(Path.of(dir))));
        } catch (IOException | RuntimeException e) {
            System.err.println("dyper: replace agent: cannot read " + Path.of(dir, INDEX) + ": " + e
                    + "; no class is replaced");
        }
    }

    static Map<String, String> readIndex(Path dir) throws IOException {
        Map<String, String> map = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve(INDEX), StandardCharsets.UTF_8)) {
            int tab = line.indexOf('\t');
            if (tab > 0 && !line.startsWith("#")) {
                map.put(line.substring(0, tab), line.substring(tab + 1).trim());
            }
        }
        return map;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
                            byte[] classfileBuffer) {
        // an exception thrown from here is swallowed by the JVM: catch everything and say so once
        try {
            String sha = className == null || redefined != null ? null : expected.get(className);
            if (sha == null) {
                return null;
            }
            if (!sha.equals(sha256(classfileBuffer))) {
                reportOnce(className, "dyper: " + className.replace('/', '.') + " is not the class Dyper prepared its "
                        + "patches for (it changed since, or another agent changed it); it runs without them");
                return null;
            }
            return Files.readAllBytes(dir.resolve(className + ".class"));
        } catch (Throwable t) {
            reportOnce(className, "dyper: replace agent failed for " + className + ": " + t);
            return null;
        }
    }

    private void reportOnce(String className, String line) {
        if (reported.add(String.valueOf(className))) {
            System.err.println(line);
        }
    }

    /**
     * The SHA-256 of a class file, in lower-case hex: how {@link #INDEX} names the original bytes a replacement was
     * made from. Dyper's weaving writes the index with this same method.
     */
    public static String sha256(byte[] bytes) {
        byte[] d;
        try {
            d = MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
        StringBuilder hex = new StringBuilder();
        for (byte b : d) {
            hex.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
        }
        return hex.toString();
    }
}
