package org.dyper.patch.model;

import java.util.List;

/**
 * The SIGNATURE of a mode method, normalised from any of the accepted spellings. Parameter and return types are
 * Java source names ({@code int}, {@code java.lang.Object}, {@code long[]}); {@code returnType} is null when the
 * spelling did not give one (the Java-style form {@code (int,long)}).
 */
public record Signature(List<String> parameters, String returnType, String text) {
    public Signature {
        parameters = List.copyOf(parameters);
    }
}
