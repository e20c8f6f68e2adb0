package org.dyper.patch.runtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The classes of one model patched for a running JVM: for each class the class file it was patched from and the
 * patched one (by binary name), the generated classes (aspects and the site-table class, by internal name, all in
 * the package {@code org/dyper/generated/r<id>/}), the site table (ids relative to the base the JVM gives the patch,
 * see {@code Sites.base}), and what the weaving noted. {@code id} is a hash of every input, so the same model, modes
 * and classes give the same id (and the same ids in one JVM).
 */
public record RuntimePatch(String model, String id, String siteTable, Map<String, byte[]> originals,
                           Map<String, byte[]> patched, Map<String, byte[]> aspects, List<String> notes) {
    public RuntimePatch {
        originals = Collections.unmodifiableMap(new LinkedHashMap<>(originals));
        patched = Collections.unmodifiableMap(new LinkedHashMap<>(patched));
        aspects = Collections.unmodifiableMap(new LinkedHashMap<>(aspects));
        notes = List.copyOf(notes);
    }

    /** The internal-name package prefix of the aspects, with its trailing slash. */
    public String aspectPrefix() {
        return org.dyper.runtime.instrument.PatchSet.aspectPrefix(id);
    }
}
