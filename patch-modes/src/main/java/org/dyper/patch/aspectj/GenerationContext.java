package org.dyper.patch.aspectj;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dyper.patch.bytecode.BytecodePlan;
import org.dyper.patch.plan.ModeMethods;
import org.dyper.patch.plan.PatchChecks;
import org.dyper.patch.plan.PatchUsage;
import org.dyper.patch.plan.ProblemLog;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassLookup;
import org.objectweb.asm.tree.ClassNode;

/** What the steps of one generation share: its settings, the problems found, the ids handed out and the output. */
final class GenerationContext {
    /** The package of this generation's classes. */
    final String pkg;
    /** Written for load-time weaving: no around advice (see {@link Generator}). */
    final boolean loadTime;
    /** Run-time patching: a context shared by ENTER and EXIT lives in a local of the method. */
    boolean contextsInLocals;
    final ClassIndex targets;
    final ClassLookup lookup;
    final ProblemLog log = new ProblemLog();
    final PatchUsage usage = new PatchUsage();
    final SiteIdTable ids = new SiteIdTable();
    final ModeMethods modeMethods;
    /** What is decided once per (PATCH, CODE), whatever the join point. */
    final PatchChecks checks = new PatchChecks(log);
    /** How the generated code names classes and signatures; marker annotations and field holders go in aspect 1. */
    final SourceNames names;
    final FieldReads fieldReads;
    /** The -Xjoinpoints kinds the generated advice needs (synchronization, arrayconstruction). */
    final StringBuilder joinpoints = new StringBuilder();
    /** The bytecode pass: wrapper methods (Java source) and where the target calls them. */
    final List<AspectFiles.Piece> wrappers = new ArrayList<>();
    /** Classes that get AspectJ advice only, never the plain way (see {@link Generator#adviceFor}). */
    java.util.Set<String> adviceOnly = java.util.Set.of();
    /** Shared wrappers of the plain shape ({@link PlainCalls}), each called from many methods. */
    final List<AspectFiles.Piece> plainWrappers = new ArrayList<>();
    final BytecodePlan bytecode = new BytecodePlan();
    final Map<String, Optional<ClassNode>> classNodes = new LinkedHashMap<>();
    final Map<String, byte[]> classFiles = new LinkedHashMap<>();
    private final ClassIndex.Reader classReader;

    GenerationContext(ClassIndex targets, ClassLookup lookup, boolean loadTime, String pkg) {
        this.pkg = pkg;
        this.targets = targets;
        this.classReader = targets.reader();
        this.lookup = lookup;
        this.loadTime = loadTime;
        this.modeMethods = new ModeMethods(lookup, log);
        String shared = pkg + "." + AspectFiles.SHARED_CLASS;
        this.names = new SourceNames(targets, lookup, shared);
        this.fieldReads = new FieldReads(names, shared);
    }

    /** A type usable in generated Java: nested classes with dots; classes the aspects cannot name as Object. */
    String formalType(String javaType) {
        return names.javaType(javaType);
    }

    void error(org.dyper.patch.model.Location at, String element, String message) {
        log.error(at, element, message);
    }

    /** The original class file of a target class, read once (each jar is opened once per generation). */
    byte[] classFile(String className) {
        return classFiles.computeIfAbsent(className, name -> {
            try {
                return classReader.classFile(name);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** Closes the jars {@link #classFile} opened; the generation is over. */
    void closeClassFiles() {
        try {
            classReader.close();
        } catch (java.io.IOException e) {
            // read-only jars; nothing was written
        }
    }
}
