package org.dyper.runtime.instrument;

/**
 * One class of a {@link PatchSet}: its binary name, the class file it was patched from ({@code original}, which the
 * class in the JVM must match) and the patched class file ({@code patched}; null when the model patches nothing in
 * it, so the class is only checked).
 */
public record ClassPatch(String name, byte[] original, byte[] patched) {
    public ClassPatch {
        if (name == null || name.isBlank() || original == null) {
            throw new IllegalArgumentException("a class patch needs a class name and its original class file");
        }
    }
}
