package org.dyper.patch.model;

/** Where an element starts in its XML file; {@code line} and {@code column} are 1-based, 0 when unknown. */
public record Location(String file, int line, int column) {
    public static final Location UNKNOWN = new Location("<unknown>", 0, 0);

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
