package org.dyper.runtime.wire;

/**
 * The first message of a connection, {@code <DYPER AUTH='token'/>} (optionally with {@code PUSH='true'}; the patch
 * service's root is {@code DYPATCH}), read by hand
 * before any XML parser sees a byte from a client that has not shown the token: it is at most {@link #MAX_BYTES}
 * long and has one fixed shape (the two attributes in either order, single or double quotes, blanks between them,
 * no XML declaration, no entities).
 */
public final class AuthFrame {
    /** The longest first message; the 64-digit token and PUSH='true' fit with room for blanks. */
    public static final int MAX_BYTES = 256;

    private AuthFrame() {
    }

    /** The offered token and whether the client asked for pushes. */
    public record Offer(String token, boolean push) {
    }

    /** The offer in {@code bytes} of a {@code <DYPER>} frame, or null when they are not of the fixed shape. */
    public static Offer parse(byte[] bytes) {
        return parse(bytes, "DYPER");
    }

    /** The offer in {@code bytes}, a frame with root element {@code root}, or null when not of the fixed shape. */
    public static Offer parse(byte[] bytes, String root) {
        if (bytes.length > MAX_BYTES) {
            return null;
        }
        for (byte b : bytes) {
            if (b < 0) {
                return null;  // not ASCII
            }
        }
        String s = new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
        int i = blanks(s, 0);
        if (!s.startsWith("<" + root, i)) {
            return null;
        }
        i += 1 + root.length();
        String token = null;
        Boolean push = null;
        while (true) {
            int j = blanks(s, i);
            if (s.startsWith("/>", j)) {
                i = j + 2;
                break;
            }
            if (j == i) {
                return null;  // an attribute must follow a blank
            }
            int nameEnd = j;
            while (nameEnd < s.length() && Character.isLetter(s.charAt(nameEnd))) {
                nameEnd++;
            }
            String name = s.substring(j, nameEnd);
            int k = blanks(s, nameEnd);
            if (k >= s.length() || s.charAt(k) != '=') {
                return null;
            }
            k = blanks(s, k + 1);
            if (k >= s.length() || s.charAt(k) != '\'' && s.charAt(k) != '"') {
                return null;
            }
            int close = s.indexOf(s.charAt(k), k + 1);
            if (close < 0) {
                return null;
            }
            String value = s.substring(k + 1, close);
            if (value.indexOf('<') >= 0 || value.indexOf('&') >= 0) {
                return null;
            }
            if (name.equals("AUTH") && token == null) {
                token = value;
            } else if (name.equals("PUSH") && push == null) {
                push = Xml.flag(value);
                if (push == null) {
                    return null;
                }
            } else {
                return null;
            }
            i = close + 1;
        }
        if (blanks(s, i) != s.length() || token == null) {
            return null;
        }
        return new Offer(token, Boolean.TRUE.equals(push));
    }

    private static int blanks(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n'
                || s.charAt(i) == '\r')) {
            i++;
        }
        return i;
    }
}
