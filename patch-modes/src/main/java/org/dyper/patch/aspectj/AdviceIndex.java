package org.dyper.patch.aspectj;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.dyper.patch.model.Patch;
import org.dyper.patch.model.Problem;

/**
 * Which PATCHes each piece of generated advice stands for, by aspect source file and line, so that what AspectJ says
 * about an advice (it was not applied) reaches the user as a warning naming the patches in the model.
 */
public final class AdviceIndex {
    /** One advice text: what it patches ({@link JoinPoint#describe()}) and the patches it runs. */
    record Entry(String shadow, List<Patch> patches) {}

    /** By aspect file name ({@code DyperPatches1.aj}): the entry whose text starts at each line (from 1). */
    private final Map<String, NavigableMap<Integer, Entry>> byFile = new HashMap<>();

    /** No advice. */
    public static final AdviceIndex EMPTY = new AdviceIndex();

    void add(String aspectFile, int firstLine, Entry entry) {
        byFile.computeIfAbsent(aspectFile, k -> new TreeMap<>()).put(firstLine, entry);
    }

    /**
     * The warnings for AspectJ not applying the advice declared at {@code line} of {@code aspectFile} (a file name such
     * as {@code DyperPatches1.aj}): one per patch it runs; empty when the place is not generated advice.
     */
    public List<Problem> unapplied(String aspectFile, int line) {
        NavigableMap<Integer, Entry> lines = byFile.get(aspectFile);
        Map.Entry<Integer, Entry> e = lines == null ? null : lines.floorEntry(line);
        List<Problem> warnings = new ArrayList<>();
        if (e != null) {
            for (Patch p : e.getValue().patches()) {
                warnings.add(Problem.warning(p.at(), "PATCH", "WHAT='" + p.what() + "' MODE='" + p.mode() + "' is "
                        + "not measured at " + e.getValue().shadow() + ": AspectJ did not weave its advice ("
                        + aspectFile + ":" + line + ", adviceDidNotMatch)"));
            }
        }
        return warnings;
    }
}
