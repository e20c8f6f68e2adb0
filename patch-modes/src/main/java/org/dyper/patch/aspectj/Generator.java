package org.dyper.patch.aspectj;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.bytecode.ContextLocals;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Model;
import org.dyper.patch.plan.PlannedPatch;
import org.dyper.patch.plan.Planner;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassLookup;
import org.dyper.patch.scan.MethodInfo;

/**
 * Turns patch models and modes into AspectJ source: one advice per join point group (the execution of a patched
 * method, or the calls of one method from a patched method), with every id an integer constant, every argument
 * bound by a pointcut or read directly, and every mode call wrapped so that a failure is counted and never reaches
 * the application. All problems found are reported together. The steps, in order: {@link Planner} (FORs to methods and
 * patches), {@link JoinPointGroups} (a method's join points), {@link ModeCalls} (mode calls by phase),
 * {@link AdviceWriter} (advice), {@link BytecodeWrappers} (what AspectJ cannot express), {@link PlainCalls} (ENTER
 * patches as calls of shared wrappers, no advice) and {@link AspectFiles}.
 */
public final class Generator {
    /** The package under which each generation of aspects gets a package of its own. */
    public static final String PACKAGE = "org.dyper.generated";
    /** Base name of generated aspects; they are numbered from 1. */
    public static final String ASPECT_NAME = "DyperPatches";
    /** Base name of the generated aspects that hold the bytecode pass's wrapper methods. */
    public static final String BYTECODE_ASPECT_NAME = "DyperBytecode";
    /** Base name of the generated aspects that hold the shared wrappers of methods patched the plain way. */
    public static final String PLAIN_ASPECT_NAME = "DyperPlain";

    private final ModeCatalog catalog;
    private final GenerationContext ctx;

    public Generator(ModeCatalog catalog, ClassIndex targets, ClassLookup lookup) {
        this(catalog, targets, lookup, false);
    }

    /**
     * With {@code loadTime}, the advice is written for load-time weaving: no around advice, which the load-time
     * weaver does not inline (a closure and an argument array per call); a context travels on the
     * {@code ContextStack} instead.
     */
    public Generator(ModeCatalog catalog, ClassIndex targets, ClassLookup lookup, boolean loadTime) {
        this(catalog, targets, lookup, loadTime, PACKAGE);
    }

    /**
     * As above, with the generated classes in package {@code pkg}: a package per generation keeps separately woven
     * jars apart on one class path (see {@code Weaver.generate}).
     */
    public Generator(ModeCatalog catalog, ClassIndex targets, ClassLookup lookup, boolean loadTime, String pkg) {
        this.catalog = catalog;
        this.ctx = new GenerationContext(targets, lookup, loadTime, pkg);
    }

    /**
     * Hook for run-time patching: where the ENTER and EXIT patches of a method (not a constructor) share a context,
     * it is kept in a local variable of the method ({@link ContextLocals}, applied with the bytecode pass) instead of
     * on the per-thread {@code ContextStack}. Only for code generated for load-time weaving.
     */
    public Generator contextsInLocals() {
        ctx.contextsInLocals = ctx.loadTime;
        return this;
    }

    /**
     * The classes (binary names) whose patches are always AspectJ advice, never the plain way ({@link PlainCalls}):
     * for load-time weaving, where a class's plain calls reach it only as a replacement of the exact bytes they were
     * planned for, the classes a multi-release jar holds other copies of.
     */
    public Generator adviceFor(Set<String> classes) {
        ctx.adviceOnly = Set.copyOf(classes);
        return this;
    }

    public GeneratedCode generate(List<Model> models) throws InvalidInputException {
        try {
            return generateAll(models);
        } finally {
            ctx.closeClassFiles();
        }
    }

    private GeneratedCode generateAll(List<Model> models) throws InvalidInputException {
        Map<MethodInfo, List<PlannedPatch>> plan = new Planner(catalog, ctx.targets, ctx.log).plan(models);
        ModeCalls calls = new ModeCalls(ctx);
        AdviceWriter writer = new AdviceWriter(ctx);
        BytecodeWrappers bytecode = new BytecodeWrappers(ctx, calls);
        PlainCalls plain = new PlainCalls(ctx, calls);
        List<AspectFiles.Piece> advice = new ArrayList<>();
        Set<String> woven = new LinkedHashSet<>();
        int plainMethods = 0;
        for (Map.Entry<MethodInfo, List<PlannedPatch>> e : plan.entrySet()) {
            e.getValue().forEach(u -> ctx.usage.planned(u.patch(), e.getKey()));
            List<PlannedPatch> bytecodeUses = e.getValue().stream().filter(BytecodeWrappers::isBytecode).toList();
            if (!bytecodeUses.isEmpty()) {
                bytecode.apply(e.getKey(), bytecodeUses, woven);
            }
            List<PlannedPatch> aspectUses = e.getValue().stream().filter(u -> !BytecodeWrappers.isBytecode(u))
                    .toList();
            // the plain shape needs no AspectJ; a method with bytecode patches too keeps the documented order
            // (AspectJ's ENTER patches first) by staying advice
            if (bytecodeUses.isEmpty() && !ctx.adviceOnly.contains(e.getKey().owner()) && plain.fits(aspectUses)
                    && plain.apply(e.getKey(), aspectUses, woven)) {
                plainMethods++;
                continue;
            }
            for (JoinPointGroups.Group group : JoinPointGroups.of(e.getKey(), aspectUses, ctx)) {
                AdviceBuilder builder = new AdviceBuilder(group, ctx);
                PhasedCode code = calls.forGroup(builder);
                if (code.isEmpty()) {
                    continue;
                }
                String text = writer.write(builder, code);
                JoinPoint joinPoint = group.joinPoint();
                JoinPointGroups.needJoinpoints(joinPoint.kind, ctx.joinpoints);
                advice.add(new AspectFiles.Piece(joinPoint.method.owner(), text, new AdviceIndex.Entry(
                        joinPoint.describe(), group.patches().stream().map(PlannedPatch::patch).toList())));
                woven.add(joinPoint.method.owner());
            }
        }
        ctx.names.markClasses(ctx.bytecode, woven);
        ctx.usage.warnings(ctx.log);
        ctx.log.addErrors(ctx.usage.errors());
        if (ctx.log.hasErrors()) {
            throw new InvalidInputException(ctx.log.all());
        }
        return assemble(advice, woven, plainMethods);
    }

    /** {@code plainMethods}: methods patched the plain way, counted as one advice each as AspectJ would have. */
    private GeneratedCode assemble(List<AspectFiles.Piece> advice, Set<String> woven, int plainMethods) {
        Map<String, String> aspects = new LinkedHashMap<>();
        Map<String, Set<String>> advised = new LinkedHashMap<>();
        AdviceIndex index = new AdviceIndex();
        // not privileged (AspectJ would make public every class a privileged aspect names): the markers of anonymous
        // and local classes and the field readers go into a class the aspects share
        AspectFiles.assemble(ctx.pkg, advice, ctx.wrappers, ctx.plainWrappers, ctx.ids.table(), ctx.ids.size(),
                ctx.names.markerDeclarations() + ctx.fieldReads.declarations(), aspects, advised, index);
        List<String> options = new ArrayList<>();
        if (ctx.joinpoints.length() > 0) {
            options.add("-Xjoinpoints:" + ctx.joinpoints);
        }
        return new GeneratedCode(aspects, AspectFiles.aopXml(aspects.keySet(), woven, options), ctx.ids.table(),
                woven, ctx.ids.size(), advice.size() + ctx.wrappers.size() + plainMethods, ctx.log.warnings(), options,
                ctx.bytecode, advised, index);
    }
}
