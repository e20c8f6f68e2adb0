package org.dyper.patch.xml;

import java.util.Map;
import java.util.Optional;

import org.dyper.patch.model.ModeSet;

/**
 * A mode file as read: its modes plus the optional DESCRIPTION of each DYPATCH_MODE (keyed by mode name), which the
 * {@link ModeSet} records do not carry.
 */
public record ModeFile(String fileName, ModeSet modes, Map<String, String> descriptions) {
    public ModeFile {
        descriptions = Map.copyOf(descriptions);
    }

    /** The DESCRIPTION of mode {@code name}, if it has one. */
    public Optional<String> description(String name) {
        return Optional.ofNullable(descriptions.get(name));
    }
}
