package org.dyper.patch.build;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A SHA-256 over a sequence of inputs, in lower-case hex: how Dyper names what it generated from them (a generation's
 * package, a run-time patch's id). A single class file's hash, the replace agent's contract, is
 * {@link org.dyper.runtime.agent.ReplaceAgent#sha256}.
 */
public final class Sha256 {
    private final MessageDigest digest;

    public Sha256() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    public Sha256 add(byte[] bytes) {
        digest.update(bytes);
        return this;
    }

    /** Adds {@code text} in UTF-8. */
    public Sha256 add(String text) {
        return add(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Adds {@code text} in UTF-8 and a zero byte, so that consecutive items cannot run into each other. */
    public Sha256 addItem(String text) {
        add(text);
        digest.update((byte) 0);
        return this;
    }

    /** The first {@code digits} hex digits of the hash (up to 64); the hash is finished. */
    public String hex(int digits) {
        return HexFormat.of().formatHex(digest.digest()).substring(0, digits);
    }
}
