package org.dyper.patch.build;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.bytecode.BytecodePlan;
import org.dyper.patch.scan.ClassPath;
import org.dyper.runtime.agent.ReplaceAgent;

/** The class files a weave hands to ajc: those the generated code patches, with the bytecode pass applied. */
public final class PatchedClasses {
    private PatchedClasses() {}

    /**
     * The class files of the classes {@code code} patches, by internal name, from the first of {@code roots} that
     * holds each (the version Java {@code javaFeature} loads from a multi-release jar; 0: the base version), with the
     * bytecode pass applied; {@code originals}, when not null, gets the SHA-256 of each original class file.
     */
    public static Map<String, byte[]> read(GeneratedCode code, List<Path> roots, int javaFeature,
            Map<String, String> originals) throws IOException {
        Map<String, BytecodePlan.ClassPlan> plans = new HashMap<>();
        code.bytecode().classes().values().forEach(c -> plans.put(c.className(), c));
        Map<String, byte[]> inputs = new TreeMap<>();
        try (ClassPath files = ClassPath.of(roots, javaFeature)) {
            for (String name : code.wovenClasses()) {
                String internal = name.replace('.', '/');
                byte[] original = files.read(internal + ".class");
                if (original == null) {
                    continue;  // the generator found it in the targets; it can only have gone since
                }
                BytecodePlan.ClassPlan plan = plans.get(name);
                // a later release's copy from a multi-release jar gets the calls at its own methods' entries where
                // the plan allows (the plain way); other plans were made for the base version's instructions
                BytecodePlan.ClassPlan own = plan == null ? null : BytecodePlan.retarget(plan, original);
                inputs.put(internal, plan == null ? original : BytecodePlan.transform(own != null ? own : plan));
                if (originals != null) {
                    originals.put(internal, ReplaceAgent.sha256(original));
                }
            }
        }
        return inputs;
    }
}
