package org.dyper.cli.ui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dyper.runtime.wire.JsonText;

/**
 * The JSON of the UI's API: values are {@code Map}, {@code List}, {@code String}, {@code Number}, {@code Boolean} or
 * null, written by {@link #write} and read by {@link #parse} (request bodies: small objects; nesting and size are
 * bounded by the server's body limit).
 */
final class Json {
    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    /** Writes {@code value}; strings escape {@code < > &} so the text can sit in HTML too. */
    static String write(Object value) {
        StringBuilder s = new StringBuilder();
        write(s, value);
        return s.toString();
    }

    private static void write(StringBuilder s, Object v) {
        if (v == null) {
            s.append("null");
        } else if (v instanceof String str) {
            string(s, str);
        } else if (v instanceof Double d) {
            s.append(d.isNaN() || d.isInfinite() ? "null" : Double.toString(d));
        } else if (v instanceof Number || v instanceof Boolean) {
            s.append(v);
        } else if (v instanceof Map<?, ?> m) {
            s.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    s.append(',');
                }
                first = false;
                string(s, String.valueOf(e.getKey()));
                s.append(':');
                write(s, e.getValue());
            }
            s.append('}');
        } else if (v instanceof int[] a) {
            s.append('[');
            for (int i = 0; i < a.length; i++) {
                s.append(i == 0 ? "" : ",").append(a[i]);
            }
            s.append(']');
        } else if (v instanceof long[] a) {
            s.append('[');
            for (int i = 0; i < a.length; i++) {
                s.append(i == 0 ? "" : ",").append(a[i]);
            }
            s.append(']');
        } else if (v instanceof Iterable<?> list) {
            s.append('[');
            boolean first = true;
            for (Object o : list) {
                if (!first) {
                    s.append(',');
                }
                first = false;
                write(s, o);
            }
            s.append(']');
        } else {
            string(s, v.toString());
        }
    }

    private static void string(StringBuilder s, String str) {
        JsonText.quote(s, str);
    }

    /** A JSON text that is not well-formed, with where. */
    static final class BadJson extends Exception {
        BadJson(String message) {
            super(message, null, false, false);
        }
    }

    static Object parse(String text) throws BadJson {
        Json j = new Json(text);
        j.blank();
        Object v = j.value(0);
        j.blank();
        if (j.at != text.length()) {
            throw j.bad("unexpected text after the value");
        }
        return v;
    }

    private BadJson bad(String what) {
        return new BadJson("bad JSON at character " + (at + 1) + ": " + what);
    }

    private void blank() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private Object value(int depth) throws BadJson {
        if (depth > 32) {
            throw bad("nested too deeply");
        }
        if (at >= text.length()) {
            throw bad("a value is missing");
        }
        char c = text.charAt(at);
        if (c == '{') {
            at++;
            Map<String, Object> m = new LinkedHashMap<>();
            blank();
            if (peek('}')) {
                return m;
            }
            do {
                blank();
                if (at >= text.length() || text.charAt(at) != '"') {
                    throw bad("a key (a string) is expected");
                }
                String key = string();
                blank();
                expect(':');
                blank();
                m.put(key, value(depth + 1));
                blank();
            } while (peek(','));
            expect('}');
            return m;
        }
        if (c == '[') {
            at++;
            List<Object> l = new ArrayList<>();
            blank();
            if (peek(']')) {
                return l;
            }
            do {
                blank();
                l.add(value(depth + 1));
                blank();
            } while (peek(','));
            expect(']');
            return l;
        }
        if (c == '"') {
            return string();
        }
        for (String word : new String[] {"true", "false", "null"}) {
            if (text.startsWith(word, at)) {
                at += word.length();
                return word.equals("null") ? null : Boolean.valueOf(word);
            }
        }
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        try {
            String n = text.substring(start, at);
            return n.matches("-?\\d{1,18}") ? (Object) Long.parseLong(n) : (Object) Double.parseDouble(n);
        } catch (NumberFormatException e) {
            at = start;
            throw bad("a value is expected");
        }
    }

    private boolean peek(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) throws BadJson {
        if (!peek(c)) {
            throw bad("'" + c + "' is expected");
        }
    }

    private String string() throws BadJson {
        at++;
        StringBuilder s = new StringBuilder();
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') {
                return s.toString();
            }
            if (c == '\\') {
                if (at >= text.length()) {
                    break;
                }
                char e = text.charAt(at++);
                switch (e) {
                    case 'n' -> s.append('\n');
                    case 't' -> s.append('\t');
                    case 'r' -> s.append('\r');
                    case 'b' -> s.append('\b');
                    case 'f' -> s.append('\f');
                    case 'u' -> {
                        if (at + 4 > text.length()) {
                            throw bad("a \\u escape needs four hex digits");
                        }
                        try {
                            s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        } catch (NumberFormatException x) {
                            throw bad("a \\u escape needs four hex digits");
                        }
                        at += 4;
                    }
                    default -> s.append(e);
                }
            } else {
                s.append(c);
            }
        }
        throw bad("a string is not closed");
    }
}
