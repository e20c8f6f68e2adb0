package org.dyper.patch.model;

import java.util.List;

/** A DYPATCH_MODE element: a named list of CODEs; {@code contextClass} is its CONTEXT attribute or null. */
public record Mode(String name, String contextClass, List<Code> codes, Location at) {
    public Mode {
        codes = List.copyOf(codes);
    }
}
