package org.dyper.patch.aspectj;

import org.dyper.runtime.Dyper;

/** Small pieces of generated Java source text that every step writes the same way. */
final class Source {
    /** The runtime class generated code calls; named through the class, so a rename cannot go unnoticed. */
    static final String RUNTIME = Dyper.class.getName();

    private Source() {}

    static String indent(String text) {
        if (text.isEmpty()) {
            return text;
        }
        return "    " + text.replace("\n", "\n    ");
    }

    /** {@code body} run only while monitoring is on. */
    static String guarded(String body) {
        return "if (" + RUNTIME + ".on()) {\n" + indent(body) + "\n}";
    }
}
