package org.dyper.patch.model;

import java.util.List;

/** The content of one mode file: its DYPATCH_MODE and DYPATCH_EXTERNAL elements in document order. */
public record ModeSet(List<Mode> modes, List<ExternalMode> externals) {
    public ModeSet {
        modes = List.copyOf(modes);
        externals = List.copyOf(externals);
    }
}
