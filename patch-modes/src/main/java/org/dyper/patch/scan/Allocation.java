package org.dyper.patch.scan;

/**
 * One allocation: an object ({@code new T(...)}: {@code type} T, {@code descriptor} the constructor's) or an array
 * ({@code type} like {@code int[]} or {@code java.lang.String[][]}, {@code dimensions} the lengths given).
 */
public record Allocation(Kind kind, String type, String descriptor, int dimensions, int line) {
    /** OBJECT, ARRAY (elements are references, e.g. String[] or int[][]) or BASE_ARRAY (primitive elements). */
    public enum Kind { OBJECT, ARRAY, BASE_ARRAY }

    public String key() {
        return kind + " " + type + (descriptor == null ? "" : descriptor) + "/" + dimensions;
    }
}
