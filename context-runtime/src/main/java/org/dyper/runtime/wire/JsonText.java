package org.dyper.runtime.wire;

/**
 * JSON string literals, escaped so that the text may also sit inside an HTML {@code <script>} element: quotes,
 * backslashes and control characters as JSON requires, and {@code < > &} and the JavaScript line separators
 * (U+2028, U+2029) as {@code \}{@code u} escapes. Used by the HTML report's embedded data and by {@code dyper ui}'s
 * API, the two places where Dyper writes JSON.
 */
public final class JsonText {
    private JsonText() {
    }

    /** Appends {@code s} as a JSON string literal, quotes included, or {@code null} for null. */
    public static StringBuilder quote(StringBuilder out, String s) {
        if (s == null) {
            return out.append("null");
        }
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }
}
