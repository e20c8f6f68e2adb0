package org.dyper.patch.model;

/** One thing wrong with the input, pinned to the element that caused it. */
public record Problem(Location at, String element, String message, boolean warning) {
    public static Problem error(Location at, String element, String message) {
        return new Problem(at, element, message, false);
    }

    public static Problem warning(Location at, String element, String message) {
        return new Problem(at, element, message, true);
    }

    /** {@code file:line:col: ELEMENT: message}, prefixed by {@code warning: } for warnings. */
    @Override
    public String toString() {
        return at + ": " + (warning ? "warning: " : "") + element + ": " + message;
    }
}
