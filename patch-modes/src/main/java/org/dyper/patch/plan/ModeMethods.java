package org.dyper.patch.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dyper.patch.model.Code;
import org.dyper.patch.scan.ClassInfo;
import org.dyper.patch.scan.ClassLookup;
import org.dyper.patch.scan.MethodInfo;
import org.objectweb.asm.Opcodes;

/** Finds the method each CODE calls, in its class file, once per CODE; a CODE that names none is an error, once. */
public final class ModeMethods {
    /** The resolved target of a CODE: the mode method as found in its class file. */
    public record ModeMethod(String className, String name, boolean isStatic, List<String> parameters,
                             String returnType) {}

    private final ClassLookup lookup;
    private final ProblemLog log;
    private final Map<Code, Optional<ModeMethod>> methods = new LinkedHashMap<>();

    public ModeMethods(ClassLookup lookup, ProblemLog log) {
        this.lookup = lookup;
        this.log = log;
    }

    /** The method {@code code} calls, checked against its SIGNATURE; empty (reported once) when there is none. */
    public Optional<ModeMethod> of(Code code) {
        return methods.computeIfAbsent(code, c -> Optional.ofNullable(find(c)));
    }

    private ModeMethod find(Code code) {
        Optional<ClassInfo> owner = lookup.find(code.className());
        if (owner.isEmpty()) {
            log.error(code.at(), "CODE", "class " + code.className() + " not found: put the jar or folder that holds it "
                    + "on the class path (--classpath)");
            return null;
        }
        List<String> wanted = code.signature().parameters();
        List<String> candidates = new ArrayList<>();
        for (Optional<ClassInfo> c = owner; c.isPresent(); c = c.get().superName() == null ? Optional.empty()
                : lookup.find(c.get().superName())) {
            for (MethodInfo m : c.get().methods()) {
                if (!m.name().equals(code.method())) {
                    continue;
                }
                candidates.add(m.name() + "(" + String.join(",", m.parameterTypes()) + ")");
                boolean returnMatches = code.signature().returnType() == null
                        || code.signature().returnType().equals(m.returnType());
                if (m.parameterTypes().equals(wanted) && returnMatches) {
                    if ((m.access() & Opcodes.ACC_PUBLIC) == 0) {
                        log.error(code.at(), "CODE", code.className() + "." + m.name() + " must be public to be called from "
                                + "woven code");
                        return null;
                    }
                    return new ModeMethod(code.className(), m.name(), m.isStatic(), m.parameterTypes(),
                            m.returnType());
                }
            }
        }
        log.error(code.at(), "CODE", "SIGNATURE '" + code.signature().text() + "' does not match any method "
                + code.className() + "." + code.method() + (candidates.isEmpty() ? " (there is no method of that name)"
                : " (found: " + String.join(", ", candidates) + ")"));
        return null;
    }
}
