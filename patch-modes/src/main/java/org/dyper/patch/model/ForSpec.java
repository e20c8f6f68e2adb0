package org.dyper.patch.model;

import java.util.List;

/**
 * A FOR element: the methods it selects ({@code className} and {@code method} are names or patterns where
 * {@code *} matches any run of characters) and the patches to apply to them.
 */
public record ForSpec(String className, String method, Update update, List<Patch> patches, Location at) {
    public ForSpec {
        patches = List.copyOf(patches);
    }

    /** How a user recognises this FOR in a message: {@code FOR CLASS='...' METHOD='...'}. */
    public String describe() {
        return "FOR CLASS='" + className + "' METHOD='" + method + "'";
    }
}
