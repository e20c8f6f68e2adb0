package org.dyper.runtime.report.internal;

/**
 * A minimal JSON writer for the data a report page embeds. Strings are escaped so that the text can sit inside an HTML
 * {@code <script>} element: {@code < > &} and the JavaScript line separators become {@code \}{@code u} escapes.
 */
final class Json {
    private final StringBuilder out;

    Json(StringBuilder out) {
        this.out = out;
    }

    Json raw(String s) {
        out.append(s);
        return this;
    }

    Json num(long n) {
        out.append(n);
        return this;
    }

    Json str(String s) {
        if (s == null) {
            out.append("null");
            return this;
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
        out.append('"');
        return this;
    }

    /** {@code "key":} after a comma when {@code comma}. */
    Json key(String key, boolean comma) {
        if (comma) {
            out.append(',');
        }
        return str(key).raw(":");
    }
}
