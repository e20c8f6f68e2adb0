package org.dyper.runtime.report.internal;

import org.dyper.runtime.wire.JsonText;

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
        JsonText.quote(out, s);
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
