package org.dyper.patch;

import org.dyper.patch.model.Mode;

/**
 * A patching mode defined by Java code instead of XML: the class named by {@code <DYPATCH_EXTERNAL CLASS='...'
 * JAR='...'/>} implements this interface and has a public no-argument constructor. The mode it returns is used
 * exactly like a DYPATCH_MODE element, so its CODEs must call static methods or methods of its CONTEXT class.
 */
public interface ExternalModeDefinition {
    /**
     * Builds the mode; called once per generation for each DYPATCH_EXTERNAL that names this class.
     *
     * @param name the NAME of the DYPATCH_EXTERNAL element
     * @return the mode, never null
     */
    Mode define(String name);
}
