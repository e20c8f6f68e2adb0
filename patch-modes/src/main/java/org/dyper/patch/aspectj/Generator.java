package org.dyper.patch.aspectj;

import org.dyper.patch.build.Weaver;
import org.dyper.patch.bytecode.BytecodePlan;
import org.dyper.patch.bytecode.ContextLocals;
import org.dyper.patch.bytecode.MethodCode;
import org.dyper.patch.plan.MethodPattern;
import org.dyper.patch.plan.PatchUsage;
import org.dyper.patch.scan.ClassLookup;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.dyper.patch.ExternalModeDefinition;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.model.Arg;
import org.dyper.patch.model.ArgType;
import org.dyper.patch.model.Code;
import org.dyper.patch.model.Condition;
import org.dyper.patch.model.ExternalMode;
import org.dyper.patch.model.ConditionType;
import org.dyper.patch.model.ForSpec;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Mode;
import org.dyper.patch.model.Model;
import org.dyper.patch.model.Patch;
import org.dyper.patch.model.Problem;
import org.dyper.patch.model.Update;
import org.dyper.patch.model.What;
import org.dyper.patch.model.When;
import org.dyper.patch.model.WhenCase;
import org.dyper.patch.scan.CallInfo;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassInfo;
import org.dyper.patch.scan.FieldInfo;
import org.dyper.patch.scan.MethodInfo;
import org.dyper.patch.scan.Types;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Turns patch models and modes into AspectJ source: one advice per join point group (the execution of a patched
 * method, or the calls of one method from a patched method), with every id an integer constant, every argument
 * bound by a pointcut or read directly, and every mode call wrapped so that a failure is counted and never reaches
 * the application. All problems found are reported together.
 */
public final class Generator {
    /** The package under which each generation of aspects gets a package of its own. */
    public static final String PACKAGE = "org.dyper.generated";
    /** Base name of generated aspects; they are numbered from 1. */
    public static final String ASPECT_NAME = "DyperPatches";
    /** Base name of the generated aspects that hold the bytecode pass's wrapper methods. */
    public static final String BYTECODE_ASPECT_NAME = "DyperBytecode";
    /** The WHATs the bytecode pass can apply a patch at. */
    private static final Set<What> BYTECODE_WHATS = Set.of(What.BLOCK_START, What.ENTER, What.EXIT, What.CALL);
    private static final Set<What> FIELD_WHATS =
            Set.of(What.FIELD_ACCESS, What.STATIC_ACCESS, What.FIELD_WRITE, What.STATIC_WRITE);
    private static final Set<What> ALLOC_WHATS = Set.of(What.OBJECT_ALLOC, What.ARRAY_ALLOC, What.BASE_ARRAY_ALLOC);
    private static final Set<ArgType> LATER_ARGS =
            Set.of(ArgType.LOCAL, ArgType.INSNO, ArgType.BLOCKID, ArgType.REFBLOCKID);
    private static final String RUNTIME = "org.dyper.runtime.Dyper";
    private static final String RUNTIME_PACKAGE = "org.dyper.runtime.";
    /** ARG types whose Java type depends on the patched method, so a mismatch skips that method only. */
    private static final Set<ArgType> VARYING = Set.of(ArgType.RETURN, ArgType.ARG, ArgType.FIELD);

    private final ModeCatalog catalog;
    private final String pkg;
    private final boolean loadTime;
    /** Run-time patching: a context shared by ENTER and EXIT lives in a local of the method ({@link ContextLocals}). */
    private boolean contextsInLocals;
    private final ClassIndex targets;
    private final ClassLookup lookup;
    private final Set<Problem> errors = new LinkedHashSet<>();
    private final List<Problem> warnings = new ArrayList<>();
    private final SiteIdTable ids = new SiteIdTable();
    private final Map<Code, Optional<ModeMethod>> methods = new LinkedHashMap<>();
    private final PatchUsage usage = new PatchUsage();
    private final Map<String, Optional<Mode>> externals = new LinkedHashMap<>();
    /** The -Xjoinpoints kinds the generated advice needs (synchronization, arrayconstruction). */
    private final StringBuilder joinpoints = new StringBuilder();
    /** The bytecode pass: wrapper methods (Java source) and where the target calls them. */
    private final List<AspectFiles.Piece> wrappers = new ArrayList<>();
    private final BytecodePlan bytecode = new BytecodePlan();
    private final Map<String, Optional<ClassNode>> classNodes = new LinkedHashMap<>();
    private final Map<String, byte[]> classFiles = new LinkedHashMap<>();
    /** How the generated code names classes and signatures; marker annotations and field holders go in aspect 1. */
    private final Spelling names;
    private final FieldReads fieldReads;

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
        this.pkg = pkg;
        this.catalog = catalog;
        this.targets = targets;
        this.lookup = lookup;
        this.loadTime = loadTime;
        String shared = pkg + "." + AspectFiles.SHARED_CLASS;
        this.names = new Spelling(targets, lookup, shared);
        this.fieldReads = new FieldReads(names, shared);
    }

    /**
     * Hook for run-time patching: where the ENTER and EXIT patches of a method (not a constructor) share a context,
     * it is kept in a local variable of the method ({@link ContextLocals}, applied with the bytecode pass) instead of
     * on the per-thread {@code ContextStack}. Only for code generated for load-time weaving.
     */
    public Generator contextsInLocals() {
        this.contextsInLocals = loadTime;
        return this;
    }

    /** A patch as applied to one method: the PATCH, its FOR and its resolved mode. */
    private record Use(Patch patch, ForSpec forSpec, Mode mode) {}

    /** When a patch's code runs relative to its join point. */
    private enum Phase { BEFORE, AFTER, AFTER_RETURNING }

    /** The resolved target of a CODE: the mode method as found in its class file. */
    record ModeMethod(String className, String name, boolean isStatic, List<String> parameters, String returnType) {}

    /** The patches of one join point group, in the order they run. */
    private record Group(JoinPoint shadow, List<Use> uses) {}

    /** Thrown while building one patch at one method when it cannot apply there (e.g. RETURN of a void method). */
    private static final class Skip extends Exception {
        Skip(String reason) {
            super(reason, null, false, false);
        }
    }

    public GeneratedCode generate(List<Model> models) throws InvalidInputException {
        Map<MethodInfo, List<Use>> plan = resolve(models);
        List<AspectFiles.Piece> advice = new ArrayList<>();
        Set<String> woven = new LinkedHashSet<>();
        for (Map.Entry<MethodInfo, List<Use>> e : plan.entrySet()) {
            e.getValue().forEach(u -> usage.planned(u.patch(), e.getKey()));
            List<Use> bytecodeUses = e.getValue().stream().filter(Generator::isBytecode).toList();
            if (!bytecodeUses.isEmpty()) {
                bytecodePatches(e.getKey(), bytecodeUses, woven);
            }
            List<Use> aspectUses = e.getValue().stream().filter(u -> !isBytecode(u)).toList();
            for (Group group : groups(e.getKey(), aspectUses)) {
                String text = adviceFor(group);
                if (text != null) {
                    needJoinpoints(group.shadow().kind);
                    advice.add(new AspectFiles.Piece(group.shadow().method.owner(), text,
                            new AdviceIndex.Entry(group.shadow().describe(), group.uses().stream().map(Use::patch)
                                    .toList())));
                    woven.add(group.shadow().method.owner());
                }
            }
        }
        names.markClasses(bytecode, woven);
        warnings.addAll(usage.warnings());
        errors.addAll(usage.errors());
        if (!errors.isEmpty()) {
            // the warnings too: a user fixing the errors should not meet them only afterwards
            List<Problem> all = new ArrayList<>(errors);
            all.addAll(warnings);
            throw new InvalidInputException(all);
        }
        return assemble(advice, woven);
    }

    // ---------------------------------------------------------------- resolution: FOR patterns to methods

    private Map<MethodInfo, List<Use>> resolve(List<Model> models) {
        Map<MethodInfo, List<Use>> plan = new LinkedHashMap<>();
        for (Model model : models) {
            for (ForSpec f : model.fors()) {
                List<Use> uses = new ArrayList<>();
                for (Patch p : f.patches()) {
                    Mode mode = checkPatch(p);
                    if (mode != null) {
                        uses.add(new Use(p, f, mode));
                    }
                }
                List<MethodInfo> matched = match(f);
                if (matched.isEmpty() && !(f.update() == Update.NEW && f.patches().isEmpty())) {
                    warnings.add(Problem.warning(f.at(), "FOR", f.describe() + " matches no method in the woven code ("
                            + targets.size() + " class(es) scanned)"));
                }
                for (MethodInfo m : matched) {
                    List<Use> list = plan.computeIfAbsent(m, k -> new ArrayList<>());
                    if (f.update() == Update.NEW) {
                        list.clear();
                    }
                    for (Use u : uses) {
                        list.removeIf(old -> samePatch(old.patch(), u.patch()));
                        list.add(u);
                    }
                }
            }
        }
        plan.values().removeIf(List::isEmpty);
        return plan;
    }

    private static boolean samePatch(Patch a, Patch b) {
        if (a.what() != b.what() || !a.mode().equals(b.mode()) || a.whens().size() != b.whens().size()) {
            return false;
        }
        for (int i = 0; i < a.whens().size(); i++) {
            When x = a.whens().get(i);
            When y = b.whens().get(i);
            if (x.kind() != y.kind() || !x.arg().equals(y.arg())) {
                return false;
            }
        }
        return true;
    }

    private List<MethodInfo> match(ForSpec f) {
        Pattern classes = glob(f.className());
        MethodPattern methods = new MethodPattern(f.method());
        List<MethodInfo> result = new ArrayList<>();
        for (ClassInfo c : targets.classes()) {
            if (!classes.matcher(c.name()).matches() && !classes.matcher(c.sourceName()).matches()) {
                continue;
            }
            for (MethodInfo m : c.methods()) {
                if (m.hasUserBody() && methods.matches(m)) {
                    result.add(m);
                }
            }
        }
        return result;
    }

    /** {@code *} matches any run of characters; everything else is literal. */
    public static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (String part : pattern.split("\\*", -1)) {
            if (regex.length() > 0 || pattern.startsWith("*")) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(part));
        }
        if (pattern.startsWith("*") && regex.toString().startsWith(".*.*")) {
            regex.delete(0, 2);
        }
        return Pattern.compile(regex.toString());
    }

    /** Checks a PATCH against what this generator supports and finds its mode; null when it cannot be used. */
    private Mode checkPatch(Patch p) {
        boolean ok = true;
        for (When w : p.whens()) {
            String applies = switch (w.kind()) {
                case METHOD -> p.what() == What.CALL ? null : "selects called methods and applies to WHAT='CALL' only";
                case FIELD -> FIELD_WHATS.contains(p.what()) ? null
                        : "selects a field and applies to WHAT='FIELD_ACCESS', 'STATIC_ACCESS', 'FIELD_WRITE' and "
                        + "'STATIC_WRITE' only";
                case CLASS -> ALLOC_WHATS.contains(p.what()) ? null
                        : "selects the allocated type and applies to WHAT='OBJECT_ALLOC', 'ARRAY_ALLOC' and "
                        + "'BASE_ARRAY_ALLOC' only";
                case BLOCK -> p.what() == What.BLOCK_START || p.what() == What.CALL || p.what() == What.EXIT ? null
                        : "selects a basic block and applies to WHAT='BLOCK_START', 'CALL' and 'EXIT' only";
            };
            if (applies != null) {
                error(w.at(), "WHEN", "CASE='" + w.kind() + "' " + applies + ", not WHAT='" + p.what() + "'");
                ok = false;
            }
        }
        Mode mode = catalog.mode(p.mode()).orElse(null);
        if (mode == null && catalog.external(p.mode()).isPresent()) {
            mode = externals.computeIfAbsent(p.mode(), n -> Optional.ofNullable(external(catalog.external(n).get())))
                    .orElse(null);
            return ok ? mode : null;
        }
        if (mode == null) {
            error(p.at(), "PATCH", "unknown MODE '" + p.mode() + "': not in the mode library nor in the given mode "
                    + "files (known: " + String.join(", ", catalog.names()) + ")");
            return null;
        }
        return ok ? mode : null;
    }

    /** Loads a DYPATCH_EXTERNAL class (from its JAR, relative to the mode file) and asks it for the mode. */
    private Mode external(ExternalMode ext) {
        try {
            ClassLoader parent = Generator.class.getClassLoader();
            ClassLoader loader = parent;
            if (ext.jar() != null) {
                Path base = Path.of(ext.at().file()).toAbsolutePath().getParent();
                Path jar = base == null ? Path.of(ext.jar()) : base.resolve(ext.jar());
                if (!Files.isRegularFile(jar)) {
                    error(ext.at(), "DYPATCH_EXTERNAL", "JAR '" + ext.jar() + "' not found (looked for " + jar + ")");
                    return null;
                }
                loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, parent);
            }
            Class<?> type = Class.forName(ext.className(), true, loader);
            if (!ExternalModeDefinition.class.isAssignableFrom(type)) {
                error(ext.at(), "DYPATCH_EXTERNAL", "class " + ext.className() + " does not implement "
                        + ExternalModeDefinition.class.getName());
                return null;
            }
            Mode mode = ((ExternalModeDefinition) type.getDeclaredConstructor().newInstance()).define(ext.name());
            if (mode == null) {
                error(ext.at(), "DYPATCH_EXTERNAL", ext.className() + ".define returned null");
            }
            return mode;
        } catch (ClassNotFoundException e) {
            error(ext.at(), "DYPATCH_EXTERNAL", "class " + ext.className() + " not found"
                    + (ext.jar() == null ? " (give its JAR)" : " in " + ext.jar()));
        } catch (ReflectiveOperationException | RuntimeException | java.io.IOException e) {
            error(ext.at(), "DYPATCH_EXTERNAL", "cannot define mode '" + ext.name() + "' with " + ext.className()
                    + ": " + e);
        }
        return null;
    }

    // ---------------------------------------------------------------- grouping

    private List<Group> groups(MethodInfo method, List<Use> uses) {
        List<Group> result = new ArrayList<>();
        // ENTER patches run before EXIT patches whatever their order in the model, so a context set at ENTER
        // reaches EXIT; likewise SYNC_TEST before SYNC_ENTER
        add(result, JoinPoint.execution(method, names), uses, What.ENTER, What.EXIT);
        if (method.entersMonitors()) {
            add(result, JoinPoint.lock(method, false, names), uses, What.SYNC_TEST, What.SYNC_ENTER);
            add(result, JoinPoint.lock(method, true, names), uses, What.SYNC_EXIT);
        }
        if (has(uses, What.CALL)) {
            for (JoinPoint call : JoinPoint.calls(method, names)) {
                add(result, call, uses.stream().filter(u -> u.patch().what() == What.CALL
                        && matches(u.patch(), call.call.owner(), call.call.name())).toList());
            }
        }
        if (uses.stream().anyMatch(u -> FIELD_WHATS.contains(u.patch().what()))) {
            for (JoinPoint field : JoinPoint.fieldAccesses(method, targets, names)) {
                add(result, field, uses.stream().filter(u -> u.patch().what() == field.what()
                        && matches(u.patch(), field.field.owner(), field.field.name())).toList());
            }
        }
        if (uses.stream().anyMatch(u -> ALLOC_WHATS.contains(u.patch().what()))) {
            for (JoinPoint allocation : JoinPoint.allocations(method, names)) {
                add(result, allocation, uses.stream().filter(u -> u.patch().what() == allocation.what()
                        && matches(u.patch(), allocation.allocation.type(), null)).toList());
            }
        }
        return result;
    }

    private void needJoinpoints(JoinPoint.Kind kind) {
        String name = kind == JoinPoint.Kind.LOCK || kind == JoinPoint.Kind.UNLOCK ? "synchronization"
                : kind == JoinPoint.Kind.NEW_ARRAY ? "arrayconstruction" : null;
        if (name != null && joinpoints.indexOf(name) < 0) {
            joinpoints.append(joinpoints.length() == 0 ? "" : ",").append(name);
        }
    }

    private static boolean has(List<Use> uses, What what) {
        return uses.stream().anyMatch(u -> u.patch().what() == what);
    }

    /** Adds a group for {@code shadow} with the uses of the given WHATs, in the order the WHATs are given. */
    private static void add(List<Group> groups, JoinPoint shadow, List<Use> uses, What... whats) {
        List<Use> selected = new ArrayList<>();
        for (What w : whats) {
            uses.stream().filter(u -> u.patch().what() == w).forEach(selected::add);
        }
        add(groups, shadow, selected);
    }

    private static void add(List<Group> groups, JoinPoint shadow, List<Use> selected) {
        if (!selected.isEmpty()) {
            groups.add(new Group(shadow, selected));
        }
    }

    /**
     * Whether every WHEN of {@code p} selects the member {@code owner.name} (a called method or a field; for an
     * allocation {@code owner} is the allocated type and {@code name} null). A WHEN ARG with a dot is matched against
     * the qualified name.
     */
    private static boolean matches(Patch p, String owner, String name) {
        for (When w : p.whens()) {
            if (w.kind() == WhenCase.BLOCK) {
                continue;
            }
            String arg = w.arg();
            String subject = name == null ? owner : arg.contains(".") ? owner + "." + name : name;
            if (!glob(arg).matcher(subject).matches() && !glob(arg).matcher(Types.sourceName(subject)).matches()) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- the bytecode pass

    /**
     * Where the bytecode pass calls a wrapper: before (or after) instruction {@code insn}, as {@code shadow}; the
     * values it passes (INSNO, LOCAL, THIS) are those before instruction {@code valuesAt}.
     */
    record Point(int insn, boolean after, JoinPoint shadow, int valuesAt) {
        Point(int insn, boolean after, JoinPoint shadow) {
            this(insn, after, shadow, insn);
        }
    }

    /**
     * Whether AspectJ cannot express the patch, so the bytecode pass applies it: WHAT BLOCK_START, WHEN BLOCK, or a
     * mode that uses ARG LOCAL, INSNO, BLOCKID, REFBLOCKID or CONDITION LOCAL.
     */
    private static boolean isBytecode(Use use) {
        if (use.patch().what() == What.BLOCK_START
                || use.patch().whens().stream().anyMatch(w -> w.kind() == WhenCase.BLOCK)) {
            return true;
        }
        for (Code code : use.mode().codes()) {
            if (code.args().stream().anyMatch(a -> LATER_ARGS.contains(a.type()))
                    || code.conditions().stream().anyMatch(c -> c.type() == ConditionType.LOCAL)) {
                return true;
            }
        }
        return false;
    }

    private static boolean bindsReturn(Use use) {
        for (Code code : use.mode().codes()) {
            if (code.args().stream().anyMatch(a -> a.type() == ArgType.RETURN)
                    || code.conditions().stream().anyMatch(c -> c.type() == ConditionType.RETURN)) {
                return true;
            }
        }
        return false;
    }

    /** The bytecode facts of {@code m}, or null (with an error) when its class file cannot be read. */
    private MethodCode methodCode(MethodInfo m, Use use) {
        Optional<ClassNode> node = classNodes.computeIfAbsent(m.owner(), name -> {
            try {
                byte[] bytes = targets.classFile(name);
                classFiles.put(name, bytes);
                return Optional.of(MethodCode.read(bytes));
            } catch (java.io.IOException | RuntimeException e) {
                error(use.patch().at(), "PATCH", "cannot read the class file of " + name + " for the bytecode pass: " + e);
                return Optional.empty();
            }
        });
        if (node.isEmpty()) {
            return null;
        }
        for (MethodNode mn : node.get().methods) {
            if (mn.name.equals(m.name()) && mn.desc.equals(m.descriptor())) {
                return MethodCode.of(node.get(), mn);
            }
        }
        return null;
    }

    /** Applies the bytecode patches of one method: a wrapper method per patch and point, and where to call it. */
    private void bytecodePatches(MethodInfo m, List<Use> uses, Set<String> woven) {
        MethodCode mc = null;
        for (Use use : uses) {
            What what = use.patch().what();
            if (!BYTECODE_WHATS.contains(what)) {
                error(use.patch().at(), "PATCH", "WHAT='" + what + "' cannot use ARG TYPE='LOCAL', 'INSNO', "
                        + "'BLOCKID', 'REFBLOCKID' or CONDITION TYPE='LOCAL' yet: the bytecode pass applies patches at "
                        + "WHAT='BLOCK_START', 'ENTER', 'EXIT' and 'CALL' only");
                usage.skipped(use.patch(), "the bytecode pass cannot apply it", m.displayName(), true, true);
                continue;
            }
            if (mc == null && (mc = methodCode(m, use)) == null) {
                return;
            }
            Integer block = null;
            for (When w : use.patch().whens()) {
                if (w.kind() == WhenCase.BLOCK) {
                    int k = Integer.parseInt(w.arg().trim());
                    block = mc.blockStartingAt(k);
                    if (block < 0) {
                        StringBuilder list = new StringBuilder();
                        for (int b = 0; b < mc.starts.length && b < 20; b++) {
                            list.append(b == 0 ? "" : ", ").append(mc.starts[b]);
                        }
                        error(w.at(), "WHEN", "CASE='BLOCK' ARG='" + k + "': instruction " + k + " of "
                                + m.displayName() + " does not start a basic block (blocks start at instructions "
                                + list + (mc.starts.length > 20 ? ", ..." : "") + ")");
                    }
                }
            }
            if (block != null && block < 0) {
                usage.skipped(use.patch(), "its block does not exist", m.displayName(), true, true);
                continue;
            }
            List<Point> points = new ArrayList<>();
            JoinPoint execution = JoinPoint.execution(m, names);
            for (int i = 0; i < mc.insns.size(); i++) {
                if (block != null && mc.blockOf[i] != block) {
                    continue;
                }
                AbstractInsnNode insn = mc.insns.get(i);
                int op = insn.getOpcode();
                switch (what) {
                    case BLOCK_START -> {
                        if (mc.blockStartingAt(i) >= 0) {
                            points.add(new Point(i, false, execution));
                        }
                    }
                    case ENTER -> {
                        if (!m.isConstructor() && i == 0) {
                            points.add(new Point(0, false, execution));
                        } else if (m.isConstructor() && op == Opcodes.INVOKESPECIAL && mc.thisUninitialisedAt(i)
                                && !mc.thisUninitialisedAt(i + 1)) {
                            // as AspectJ's execution of a constructor: once super() or this() has returned
                            points.add(new Point(i, true, execution, i + 1));
                        }
                    }
                    case EXIT -> {
                        if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                            points.add(new Point(i, false, execution));
                        }
                    }
                    default -> {
                        if (insn instanceof MethodInsnNode call && !call.owner.startsWith("[")) {
                            CallInfo c = new CallInfo(call.owner.replace('/', '.'), call.name, call.desc, op,
                                    mc.lines[i]);
                            if (JoinPoint.isCallJoinPoint(m, c) && matches(use.patch(), c.owner(), c.name())) {
                                points.add(new Point(i, bindsReturn(use), JoinPoint.call(m, c, List.of(), names)));
                            }
                        }
                    }
                }
            }
            if (!points.isEmpty()) {
                usage.matched(use.patch());
            }
            for (Point point : points) {
                wrapper(use, point, mc, woven);
            }
        }
    }

    /** Writes the wrapper for one patch at one point and plans its call; a Skip is reported like advice's. */
    private void wrapper(Use use, Point point, MethodCode mc, Set<String> woven) {
        Site site = new Site(new Group(point.shadow(), List.of(use)));
        site.point = point;
        site.code = mc;
        List<String> statements = new ArrayList<>();
        int errorsBefore = errors.size();
        try {
            for (Code code : use.mode().codes()) {
                statements.add(statement(use, code, site, Phase.BEFORE));
            }
        } catch (Skip skip) {
            usage.skipped(use.patch(), skip.getMessage(), where(site), errors.size() > errorsBefore,
                    site.shadow.kind == JoinPoint.Kind.EXECUTION);
            return;
        }
        usage.applied(use.patch());
        MethodInfo m = site.method;
        List<String> formals = new ArrayList<>();
        StringBuilder descriptor = new StringBuilder("(");
        List<BytecodePlan.Push> pushes = new ArrayList<>();
        if (site.usesReturn) {
            Type t = Type.getReturnType(point.shadow().kind == JoinPoint.Kind.CALL ? point.shadow().call.descriptor()
                    : m.descriptor());
            formals.add(formal(t, "ret", descriptor));
            pushes.add(new BytecodePlan.Duplicate(t.getSize()));
        }
        if (site.usesSelf && site.selfBound) {
            formals.add(formal(Type.getObjectType(m.owner().replace('.', '/')), "self", descriptor));
            pushes.add(new BytecodePlan.Load(Opcodes.ALOAD, 0));
        }
        Type[] params = Type.getArgumentTypes(m.descriptor());
        int slot = m.isStatic() ? 0 : 1;
        for (int i = 1; i <= params.length; i++) {
            if (site.argsUsed.contains(i)) {
                formals.add(formal(params[i - 1], "a" + i, descriptor));
                pushes.add(new BytecodePlan.Load(params[i - 1].getOpcode(Opcodes.ILOAD), slot));
            }
            slot += params[i - 1].getSize();
        }
        for (Map.Entry<Integer, String> l : site.locals.entrySet()) {
            Type t = Type.getType(l.getValue());
            formals.add(formal(t, "l" + l.getKey(), descriptor));
            pushes.add(new BytecodePlan.Load(t.getOpcode(Opcodes.ILOAD), l.getKey()));
        }
        descriptor.append(")V");
        String aspect = AspectFiles.bytecodeAspect(pkg, wrappers.size());
        String name = "b$" + (wrappers.size() + 1);
        int insn = point.insn();
        wrappers.add(new AspectFiles.Piece(m.owner(), "    // " + site.shadow.describe() + ", " + (point.after() ? "after" : "before") + " instruction "
                + insn + " (block " + mc.blockOf[insn] + ", line " + mc.lines[insn] + "): " + use.patch().what() + " "
                + use.patch().mode() + " (" + use.patch().at() + ")\n    public static void " + name + "("
                + String.join(", ", formals) + ") {\n" + indent(indent(guarded(String.join("\n", statements))))
                + "\n    }\n"));
        bytecode.add(m.owner(), classFiles.get(m.owner()), m.name() + m.descriptor(), new BytecodePlan.Insertion(
                insn, point.after(), aspect.replace('.', '/'), name, descriptor.toString(), pushes));
        woven.add(m.owner());
    }

    /** A wrapper parameter; types the generated code cannot name are passed as Object. */
    private String formal(Type t, String name, StringBuilder descriptor) {
        String javaType = t.getClassName();
        String formal = formalType(javaType);
        boolean reference = t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY;
        if (reference && formal.startsWith("java.lang.Object") && !javaType.startsWith("java.lang.Object")) {
            descriptor.append("[".repeat(t.getSort() == Type.ARRAY ? t.getDimensions() : 0))
                    .append("Ljava/lang/Object;");
        } else {
            descriptor.append(t.getDescriptor());
        }
        return formal + " " + name;
    }

    /** The values only the bytecode pass has (and the ones it cannot give at a call); null for the others. */
    private Value bytecodeValue(Arg a, Use use, Site site, String where) throws Skip {
        Point point = site.point;
        MethodCode mc = site.code;
        int block = mc.blockOf[point.valuesAt()];
        switch (a.type()) {
            case LOCAL:
                return local(a.value(), a.at(), "ARG", site, where);
            case INSNO:
                return new Value(Integer.toString(point.valuesAt()), "int");
            case BLOCKID:
                return new Value(AspectFiles.id(ids.block(site.method, block, mc.lines[mc.starts[block]])), "int");
            case REFBLOCKID: {
                int ref = mc.referencedBlock(block);
                return new Value(ref < 0 ? "0" : AspectFiles.id(ids.block(site.method, ref, mc.lines[mc.starts[ref]])),
                        "int");
            }
            case THIS:
                if (mc.thisUninitialisedAt(point.valuesAt())) {
                    error(a.at(), "ARG", "TYPE='THIS' at instruction " + point.valuesAt() + " of "
                            + site.method.displayName()
                            + ": the object is not initialised before the constructor calls super() or this()" + where);
                    throw new Skip("this is not initialised there");
                }
                return null;
            case ARG:
            case TARGET:
                if (site.shadow.kind == JoinPoint.Kind.CALL) {
                    error(a.at(), "ARG", "TYPE='" + a.type() + "' at WHAT='CALL' cannot be combined with the values of "
                            + "the bytecode pass (LOCAL, INSNO, BLOCKID, REFBLOCKID) yet" + where);
                    throw new Skip(a.type() + " at a bytecode CALL");
                }
                return null;
            default:
                return null;
        }
    }

    /** LOCAL v: slot v when v is a number, else the local of that name (debug information) at the point. */
    private Value local(String v, org.dyper.patch.model.Location at, String element, Site site, String where)
            throws Skip {
        MethodCode mc = site.code;
        int insn = site.point.valuesAt();
        String method = site.method.displayName();
        String text = v == null ? "" : v.trim();
        MethodCode.Local l;
        if (text.matches("\\d+")) {
            int slot = Integer.parseInt(text);
            l = mc.slotAt(slot, insn);
            if (l == null) {
                error(at, element, "TYPE='LOCAL' VALUE='" + text + "': slot " + slot + " of " + method + " holds no "
                        + "initialised value at instruction " + insn + where);
                throw new Skip("local slot " + slot + " is not initialised there");
            }
        } else {
            if (!mc.hasLocalNamed(text)) {
                error(at, element, "TYPE='LOCAL' VALUE='" + text + "': " + method + " has no local variable named '"
                        + text + "' in its debug information (compile it with -g, or give the slot number)" + where);
                throw new Skip("no local named '" + text + "'");
            }
            l = mc.namedAt(text, insn);
            if (l == null) {
                error(at, element, "TYPE='LOCAL' VALUE='" + text + "': local '" + text + "' of " + method + " is not in "
                        + "scope at instruction " + insn + where);
                throw new Skip("local '" + text + "' is not in scope there");
            }
        }
        site.locals.put(l.slot(), l.descriptor());
        return new Value("l" + l.slot(), Type.getType(l.descriptor()).getClassName());
    }

    // ---------------------------------------------------------------- advice

    /** Per-group state while its advice is written. */
    private final class Site {
        final Group group;
        final JoinPoint shadow;
        final MethodInfo method;
        final boolean selfBound;
        final String selfType;
        final List<String> params;
        final String returnType;
        final Set<Integer> argsUsed = new LinkedHashSet<>();
        boolean usesSelf;
        boolean usesTarget;
        String contextType;
        boolean contextSet;
        /** Bytecode pass only: where the wrapper is called, the method's code, and what the wrapper takes. */
        Point point;
        MethodCode code;
        boolean usesReturn;
        final Map<Integer, String> locals = new LinkedHashMap<>();

        Site(Group group) {
            this.group = group;
            this.shadow = group.shadow();
            this.method = shadow.method;
            this.selfBound = !method.isStatic();
            this.selfType = formalType(method.owner());
            this.params = shadow.params;
            this.returnType = shadow.returnType;
        }

        int methodId() {
            return ids.method(method);
        }
    }

    private String adviceFor(Group group) {
        Site site = new Site(group);
        List<String> before = new ArrayList<>();
        List<String> after = new ArrayList<>();
        boolean anyReturning = false;
        boolean anyAfterAll = false;
        for (Use use : group.uses()) {
            Phase phase = phaseOf(use, site);
            List<String> statements = new ArrayList<>();
            usage.matched(use.patch());
            int errorsBefore = errors.size();
            try {
                if (group.shadow().ambiguity != null) {
                    throw new Skip(group.shadow().ambiguity);
                }
                for (Code code : use.mode().codes()) {
                    statements.add(statement(use, code, site, phase));
                }
            } catch (Skip skip) {
                usage.skipped(use.patch(), skip.getMessage(), where(site), errors.size() > errorsBefore,
                        site.shadow.kind == JoinPoint.Kind.EXECUTION);
                continue;
            }
            usage.applied(use.patch());
            if (phase == Phase.BEFORE) {
                before.addAll(statements);
            } else if (phase == Phase.AFTER_RETURNING) {
                anyReturning = true;
                after.add("if (normal$) {\n" + indent(String.join("\n", statements)) + "\n}");
            } else {
                anyAfterAll = true;
                after.addAll(statements);
            }
        }
        if (before.isEmpty() && after.isEmpty()) {
            return null;
        }
        return writeAdvice(site, before, after, anyReturning, anyAfterAll);
    }

    private Phase phaseOf(Use use, Site site) {
        boolean bindsReturn = false;
        boolean usesContext = false;
        for (Code code : use.mode().codes()) {
            for (Arg a : code.args()) {
                bindsReturn |= a.type() == ArgType.RETURN;
                usesContext |= a.type() == ArgType.CONTEXT;
            }
            for (Condition c : code.conditions()) {
                bindsReturn |= c.type() == ConditionType.RETURN;
                usesContext |= c.type() == ConditionType.CONTEXT;
            }
        }
        return switch (use.patch().what()) {
            case ENTER, SYNC_TEST, SYNC_EXIT, FIELD_WRITE, STATIC_WRITE -> Phase.BEFORE;
            case EXIT -> bindsReturn ? Phase.AFTER_RETURNING : Phase.AFTER;
            case SYNC_ENTER -> Phase.AFTER;
            default -> bindsReturn ? Phase.AFTER_RETURNING
                    : usesContext && site.contextSet ? Phase.AFTER : Phase.BEFORE;
        };
    }

    /** One guarded, failure-isolated call of a mode method. */
    private String statement(Use use, Code code, Site site, Phase phase) throws Skip {
        ModeMethod target = modeMethod(code, use);
        if (target == null) {
            throw new Skip("its mode method could not be resolved");
        }
        String where = " (PATCH WHAT='" + use.patch().what() + "' MODE='" + use.patch().mode() + "' at "
                + use.patch().at() + ")";
        String contextType = use.mode().contextClass();
        boolean touchesContext = code.returnsContext() || !target.isStatic()
                || code.args().stream().anyMatch(a -> a.type() == ArgType.CONTEXT)
                || code.conditions().stream().anyMatch(c -> c.type() == ConditionType.CONTEXT);
        if (touchesContext && site.point != null) {
            error(code.at(), "CODE", "uses the context, which a patch that the bytecode pass applies (WHAT='BLOCK_START', "
                    + "WHEN CASE='BLOCK', ARG TYPE='LOCAL', 'INSNO', 'BLOCKID', 'REFBLOCKID' or CONDITION TYPE='LOCAL') "
                    + "does not have" + where);
            throw new Skip("the bytecode pass has no context");
        }
        if (touchesContext) {
            if (contextType == null) {
                error(code.at(), "CODE", "uses the context but its DYPATCH_MODE '" + use.mode().name()
                        + "' has no CONTEXT attribute" + where);
                throw new Skip("its mode has no CONTEXT");
            }
            if (site.contextType != null && !site.contextType.equals(contextType)) {
                error(code.at(), "CODE", "mode '" + use.mode().name() + "' has CONTEXT='" + contextType
                        + "' but an earlier patch of the same invocation set a context of type " + site.contextType
                        + where);
                throw new Skip("of a context type conflict");
            }
        }
        boolean needsContextSet = !target.isStatic()
                || code.args().stream().anyMatch(a -> a.type() == ArgType.CONTEXT)
                || code.conditions().stream().anyMatch(c -> c.type() == ConditionType.CONTEXT);
        if (needsContextSet && !site.contextSet) {
            error(code.at(), "CODE", "uses CONTEXT but no earlier patch of the same invocation sets it with "
                    + "<RETURN TYPE='CONTEXT'/> (an ENTER patch for EXIT, an earlier CALL patch for CALL)" + where);
            throw new Skip("no patch sets the context");
        }
        if (!target.isStatic() && Types.isPrimitive(contextType)) {
            error(code.at(), "CODE", target.className() + "." + target.name() + " is not static, so it is called on "
                    + "the context, but CONTEXT='" + contextType + "' is a primitive type" + where);
            throw new Skip("of a non-static method on a primitive context");
        }

        List<String> tests = new ArrayList<>();
        for (Condition c : code.conditions()) {
            tests.add(condition(c, use, site, phase, where));
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < code.args().size(); i++) {
            Arg a = code.args().get(i);
            String paramType = i < target.parameters().size() ? target.parameters().get(i) : "java.lang.Object";
            Value v = value(a, use, site, phase, where);
            values.add(convert(v, paramType, a, where));
        }
        String receiver = Types.sourceType(target.className());
        if (!target.isStatic()) {
            tests.add(0, "ctx != null");
            receiver = "((" + Types.sourceType(target.className()) + ") ctx)";
        }
        String invocation = receiver + "." + target.name() + "(" + String.join(", ", values) + ")";
        if (code.returnsContext()) {
            if (target.returnType().equals("void")) {
                error(code.at(), "RETURN", target.className() + "." + target.name() + " returns void, so it cannot "
                        + "set the context" + where);
                throw new Skip("its mode method returns void");
            }
            boolean fits = Types.isPrimitive(contextType) ? Types.primitiveWidens(target.returnType(), contextType)
                    : !Types.isPrimitive(target.returnType());
            if (!fits) {
                error(code.at(), "RETURN", target.className() + "." + target.name() + " returns "
                        + target.returnType() + ", which does not fit CONTEXT='" + contextType + "'" + where);
                throw new Skip("of a context type mismatch");
            }
            String cast = Types.isPrimitive(contextType) ? "" : "(" + Types.sourceType(contextType) + ") ";
            invocation = "ctx = " + cast + invocation;
            site.contextSet = true;
            site.contextType = contextType;
        } else if (touchesContext && site.contextType == null) {
            site.contextType = contextType;
        }
        // a mode of the user's own may reach patched code: that code is not measured while the hook runs (Dyper's
        // library modes call only its runtime, which never does, and pay nothing for this)
        boolean own = !target.className().startsWith(RUNTIME_PACKAGE);
        String call = (own ? RUNTIME + ".enterHook();\n" : "") + invocation + ";";
        if (!tests.isEmpty()) {
            call = "if (" + String.join(" && ", tests) + ") {\n" + indent(call) + "\n}";
        }
        return "try {\n" + indent(call) + "\n} catch (Throwable t$) {\n    " + RUNTIME + ".hookFailed("
                + AspectFiles.id(site.methodId()) + ", t$);\n}" + (own ? " finally {\n    " + RUNTIME + ".exitHook();\n}"
                : "");
    }

    /** A Java expression and its static type ({@code null} for the null literal). */
    private record Value(String expression, String type) {}

    private Value value(Arg a, Use use, Site site, Phase phase, String where) throws Skip {
        What what = use.patch().what();
        if (site.point != null) {
            Value v = bytecodeValue(a, use, site, where);
            if (v != null) {
                return v;
            }
        } else if (LATER_ARGS.contains(a.type())) {
            throw new IllegalStateException("ARG TYPE='" + a.type() + "' outside the bytecode pass");
        }
        JoinPoint.Kind kind = site.shadow.kind;
        switch (a.type()) {
            case THIS:
                if (!site.selfBound) {
                    return new Value("null", null);
                }
                site.usesSelf = true;
                return new Value("self", site.selfType);
            case INTEGER:
                return new Value(a.value(), "int");
            case CURTHREAD:
                return new Value("java.lang.Thread.currentThread()", "java.lang.Thread");
            case FIELD:
                if (a.value() == null) {
                    return joinPointField(site, a.at(), "ARG", what, where);
                }
                return field(a.value(), site);
            case RETURN:
                return returnValue(a.at(), "ARG", use, site, where);
            case ARG:
                return argument(Integer.parseInt(a.value().trim()), a.at(), "ARG", site, what, where);
            case METHODID:
                return new Value(AspectFiles.id(site.methodId()), "int");
            case CLASSID:
                return new Value(AspectFiles.id(ids.type(site.method.owner())), "int");
            case REFMETHODID: {
                JoinPoint sh = site.shadow;
                Integer id = switch (kind) {
                    case CALL -> ids.callee(sh.call);
                    case NEW -> ids.method(sh.allocation.type(), "<init>", sh.allocation.descriptor());
                    case GET, SET -> ids.field(sh.field);
                    default -> null;
                };
                if (id == null) {
                    error(a.at(), "ARG", "TYPE='REFMETHODID' names the called method, constructor or field and applies "
                            + "to WHAT='CALL', 'OBJECT_ALLOC' and the field WHATs only, not WHAT='" + what + "'" + where);
                    throw new Skip("REFMETHODID does not apply");
                }
                return new Value(AspectFiles.id(id), "int");
            }
            case REFCLASSID: {
                JoinPoint sh = site.shadow;
                Integer id = switch (kind) {
                    case CALL -> ids.type(sh.call.owner());
                    case NEW -> ids.type(sh.allocation.type());
                    case NEW_ARRAY -> ids.typeName(sh.allocation.type());
                    case GET, SET -> ids.type(sh.field.owner());
                    default -> null;
                };
                if (id == null) {
                    error(a.at(), "ARG", "TYPE='REFCLASSID' names the class of the called method, allocation or field "
                            + "and applies to WHAT='CALL', the *_ALLOC and the field WHATs only, not WHAT='" + what
                            + "'" + where);
                    throw new Skip("REFCLASSID does not apply");
                }
                return new Value(AspectFiles.id(id), "int");
            }
            case TARGET:
                if (kind != JoinPoint.Kind.CALL && kind != JoinPoint.Kind.GET && kind != JoinPoint.Kind.SET) {
                    error(a.at(), "ARG", "TYPE='TARGET' is the object a called method runs on or whose field is "
                            + "accessed; it applies to WHAT='CALL' and the field WHATs only, not WHAT='" + what + "'"
                            + where);
                    throw new Skip("TARGET does not apply");
                }
                if (site.shadow.targetType == null) {
                    return new Value("null", null);
                }
                site.usesTarget = true;
                return new Value("target", formalType(site.shadow.targetType));
            case CONTEXT:
                return new Value("ctx", site.contextType);
            case NULL:
                return new Value("null", null);
            default:
                throw new IllegalStateException(a.type().toString());
        }
    }

    /** ARG n: a parameter at ENTER/EXIT, an argument passed at CALL and OBJECT_ALLOC, a dimension's length at an
     *  array allocation, the value written at a field write, the monitor at SYNC_*. */
    private Value argument(int n, org.dyper.patch.model.Location at, String element, Site site, What what,
                           String where) throws Skip {
        if (site.shadow.kind == JoinPoint.Kind.GET) {
            error(at, element, "TYPE='ARG' has no value at WHAT='" + what + "' (a field read has no arguments; "
                    + "RETURN is the value read)" + where);
            throw new Skip("ARG does not apply");
        }
        if (n < 1 || n > site.params.size()) {
            JoinPoint.Kind kind = site.shadow.kind;
            if (kind != JoinPoint.Kind.EXECUTION && kind != JoinPoint.Kind.CALL && kind != JoinPoint.Kind.NEW
                    && kind != JoinPoint.Kind.NEW_ARRAY) {
                error(at, element, "TYPE='ARG' number " + n + " does not exist at WHAT='" + what + "', which has "
                        + site.params.size() + where);
            }
            throw new Skip("ARG " + n + " is past the " + site.params.size() + (kind == JoinPoint.Kind.NEW_ARRAY
                    ? " length(s) the allocation gives" : " parameter(s)"));
        }
        site.argsUsed.add(n);
        return new Value("a" + n, site.params.get(n - 1));
    }

    private Value returnValue(org.dyper.patch.model.Location at, String element, Use use, Site site, String where)
            throws Skip {
        What what = use.patch().what();
        if (what == What.ENTER) {
            error(at, element, "TYPE='RETURN' has no value at WHAT='ENTER' (use it at EXIT or CALL)" + where);
            throw new Skip("RETURN has no value at ENTER");
        }
        JoinPoint.Kind kind = site.shadow.kind;
        if (kind == JoinPoint.Kind.LOCK || kind == JoinPoint.Kind.UNLOCK || kind == JoinPoint.Kind.SET) {
            error(at, element, "TYPE='RETURN' has no value at WHAT='" + what + "' (it is the value returned at EXIT "
                    + "and CALL, read at a field read, and allocated at an allocation)" + where);
            throw new Skip("RETURN has no value here");
        }
        if (site.returnType.equals("void")) {
            throw new Skip("RETURN has no value where the method returns void");
        }
        site.usesReturn = true;
        return new Value("ret", site.returnType);
    }

    /** FIELD with a VALUE: a field of the patched method's class (or a superclass), read directly. */
    private Value field(String name, Site site) throws Skip {
        Optional<FieldInfo> f = targets.field(site.method.owner(), name);
        if (f.isEmpty()) {
            throw new Skip("its class has no field '" + name + "'");
        }
        FieldInfo field = f.get();
        if (field.isStatic()) {
            return new Value(fieldReads.read(field, null, site.methodId()), field.type());
        }
        if (!site.selfBound) {
            throw new Skip("instance field '" + name + "' is not visible in static code");
        }
        site.usesSelf = true;
        return new Value(fieldReads.read(field, "self", site.methodId()), field.type());
    }

    /** FIELD without a VALUE at a field read or write: the accessed field's current value (before a write). */
    private Value joinPointField(Site site, org.dyper.patch.model.Location at, String element, What what, String where)
            throws Skip {
        FieldInfo f = site.shadow.field;
        if (f == null) {
            error(at, element, "TYPE='FIELD' without a VALUE means the accessed field, which exists at the field "
                    + "WHATs only, not WHAT='" + what + "'" + where);
            throw new Skip("FIELD without VALUE does not apply");
        }
        if (f.isStatic()) {
            return new Value(fieldReads.read(f, null, site.methodId()), f.type());
        }
        site.usesTarget = true;
        return new Value(fieldReads.read(f, "target", site.methodId()), f.type());
    }

    private String condition(Condition c, Use use, Site site, Phase phase, String where) throws Skip {
        if (c.type() == ConditionType.LOCAL && site.point == null) {
            throw new IllegalStateException("CONDITION TYPE='LOCAL' outside the bytecode pass");
        }
        if (c.type() == ConditionType.CONTEXT) {
            String t = site.contextType;
            if (t == null || !Types.isPrimitive(t)) {
                return "ctx != null";
            }
            return t.equals("boolean") ? "ctx" : "ctx != " + Types.zero(t);
        }
        Value v = switch (c.type()) {
            case FIELD -> field(c.lvalue(), site);
            case RETURN -> returnValue(c.at(), "CONDITION", use, site, where);
            case LOCAL -> local(c.lvalue(), c.at(), "CONDITION", site, where);
            default -> argument(Integer.parseInt(c.lvalue().trim()), c.at(), "CONDITION", site, use.patch().what(),
                    where);
        };
        String rvalue = c.rvalue().trim();
        boolean reference = v.type() == null || !Types.isPrimitive(v.type());
        if (rvalue.equalsIgnoreCase("NULL") || rvalue.equalsIgnoreCase("NONNULL")) {
            if (!reference) {
                throw new Skip("CONDITION " + rvalue.toUpperCase() + " tests a " + v.type() + ", not a reference");
            }
            return v.expression() + (rvalue.equalsIgnoreCase("NULL") ? " == null" : " != null");
        }
        if (reference) {
            throw new Skip("CONDITION compares a reference (" + v.type() + ") with the number " + rvalue);
        }
        if (v.type().equals("boolean")) {
            return "(" + v.expression() + " ? 1 : 0) == " + rvalue;
        }
        return v.expression() + " == " + rvalue;
    }

    /** Passes a value to a declared parameter, refusing what would need boxing or cannot fit. */
    private String convert(Value v, String paramType, Arg a, String where) throws Skip {
        if (v.type() == null) {
            if (Types.isPrimitive(paramType)) {
                error(a.at(), "ARG", "TYPE='" + a.type() + "' is null but the mode method's parameter is "
                        + paramType + where);
                throw new Skip("null passed to a primitive parameter");
            }
            return "null";
        }
        boolean valuePrimitive = Types.isPrimitive(v.type());
        boolean paramPrimitive = Types.isPrimitive(paramType);
        boolean fits = valuePrimitive && paramPrimitive ? Types.primitiveWidens(v.type(), paramType)
                : valuePrimitive == paramPrimitive;
        if (!fits) {
            String reason = "ARG TYPE='" + a.type() + "' is a " + v.type() + " but the mode method takes a " + paramType
                    + (valuePrimitive != paramPrimitive ? " (Dyper never boxes)" : "");
            if (!VARYING.contains(a.type())) {
                // the value's type is the same at every site: the mode itself is wrong
                error(a.at(), "ARG", reason + where);
            }
            throw new Skip(reason);
        }
        if (paramType.equals("java.lang.Object") || paramType.equals(v.type())) {
            return v.expression();
        }
        return "(" + formalType(paramType) + ") " + v.expression();
    }

    /** Resolves (once per CODE) the mode method in its class file and checks it against the SIGNATURE. */
    private ModeMethod modeMethod(Code code, Use use) {
        return methods.computeIfAbsent(code, c -> Optional.ofNullable(findModeMethod(c))).orElse(null);
    }

    private ModeMethod findModeMethod(Code code) {
        Optional<ClassInfo> owner = lookup.find(code.className());
        if (owner.isEmpty()) {
            error(code.at(), "CODE", "class " + code.className() + " not found: put the jar or folder that holds it "
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
                        error(code.at(), "CODE", code.className() + "." + m.name() + " must be public to be called from "
                                + "woven code");
                        return null;
                    }
                    return new ModeMethod(code.className(), m.name(), m.isStatic(), m.parameterTypes(),
                            m.returnType());
                }
            }
        }
        error(code.at(), "CODE", "SIGNATURE '" + code.signature().text() + "' does not match any method "
                + code.className() + "." + code.method() + (candidates.isEmpty() ? " (there is no method of that name)"
                : " (found: " + String.join(", ", candidates) + ")"));
        return null;
    }

    private String writeAdvice(Site site, List<String> before, List<String> after, boolean anyReturning,
                               boolean anyAfterAll) {
        List<String> formals = new ArrayList<>();
        List<String> actuals = new ArrayList<>();
        String pointcut = site.shadow.pointcut;
        if (site.usesSelf && site.selfBound) {
            formals.add(site.selfType + " self");
            actuals.add("self");
            pointcut += " && this(self)";
        }
        if (site.usesTarget) {
            formals.add(formalType(site.shadow.targetType) + " target");
            actuals.add("target");
            pointcut += " && target(target)";
        }
        if (!site.argsUsed.isEmpty()) {
            List<String> pattern = new ArrayList<>();
            for (int i = 1; i <= site.params.size(); i++) {
                if (site.argsUsed.contains(i)) {
                    formals.add(formalType(site.params.get(i - 1)) + " a" + i);
                    actuals.add("a" + i);
                    pattern.add("a" + i);
                } else {
                    pattern.add("*");
                }
            }
            for (int i = site.params.size(); i < site.shadow.argsArity; i++) {
                pattern.add("*");
            }
            pointcut += " && args(" + String.join(", ", pattern) + ")";
        }
        String header = "(" + String.join(", ", formals) + ")";
        String ret = formalType(site.returnType);
        boolean isVoid = site.returnType.equals("void");
        String t = site.contextType;
        String ctxDecl = t == null ? "" : formalType(t) + " ctx = " + Types.zero(t) + ";\n";
        StringBuilder out = new StringBuilder();
        out.append("    // ").append(describe(site)).append('\n');
        boolean around = !before.isEmpty() && !after.isEmpty() || anyReturning && anyAfterAll;
        if (around && contextsInLocals && t != null && site.shadow.kind == JoinPoint.Kind.EXECUTION
                && !site.method.isConstructor()) {
            return contextLocals(site, before, after);
        }
        if (around && (loadTime || !site.shadow.aroundAllowed())) {
            // no around advice here (see aroundAllowed; under load-time weaving it is not inlined and would allocate
            // a closure per call): before and after advice, and when they share a context it travels on the
            // per-thread ContextStack, tagged with the monitoring state (an after returning advice, declared first
            // so it runs first, peeks at it; the after advice pops it). When patches that run on normal returns only
            // and patches that run on every exit are mixed, an after returning advice runs them all in the model's
            // order and an after throwing advice the others, each popping the context
            List<String> returning = after.stream().filter(a -> a.startsWith("if (normal$) {")).toList();
            List<String> always = after.stream().filter(a -> !a.startsWith("if (normal$) {")).toList();
            String binding = isVoid ? "returning" : "returning(" + ret + " ret)";
            boolean mixed = !returning.isEmpty() && !always.isEmpty();
            String onReturn = unwrap(mixed ? after : returning);
            String otherwise = "after" + header + (mixed ? " throwing" : "") + " : " + pointcut;
            if (t == null) {
                if (!before.isEmpty()) {
                    advice(out, "before" + header + " : " + pointcut, guarded(String.join("\n", before)));
                }
                if (!returning.isEmpty()) {
                    advice(out, "after" + header + " " + binding + " : " + pointcut, guarded(onReturn));
                }
                if (!always.isEmpty()) {
                    advice(out, otherwise, guarded(String.join("\n", always)));
                }
            } else {
                String stack = "org.dyper.runtime.ContextStack";
                String state = "final int s$ = " + RUNTIME + ".state();\nif ((s$ & 1) != 0) {\n";
                String push = Types.isPrimitive(t) ? stack + ".pushLong(s$, " + toLong(t, "ctx") + ");"
                        : stack + ".pushObject(s$, ctx);";
                String read = formalType(t) + " ctx = " + (Types.isPrimitive(t) ? fromLong(t, "c$.longValue()")
                        : "(" + formalType(t) + ") c$.objectValue()") + ";\n";
                advice(out, "before" + header + " : " + pointcut, state + indent(ctxDecl + String.join("\n", before)
                        + "\n" + push) + "\n}");
                if (!returning.isEmpty()) {
                    advice(out, "after" + header + " " + binding + " : " + pointcut, state + indent(stack + " c$ = "
                            + stack + (mixed ? ".pop" : ".peek") + "(s$);\nif (c$.found()) {\n" + indent(read + onReturn)
                            + "\n}") + "\n}");
                }
                advice(out, otherwise, state + indent(stack + " c$ = " + stack + ".pop(s$);\nif (c$.found()) {\n"
                        + indent(read + String.join("\n", always)) + "\n}") + "\n}");
            }
        } else if (!around && after.isEmpty()) {
            advice(out, "before" + header + " : " + pointcut, guarded(ctxDecl + String.join("\n", before)));
        } else if (!around && !anyReturning) {
            advice(out, "after" + header + " : " + pointcut, guarded(ctxDecl + String.join("\n", after)));
        } else if (!around) {
            // after returning only: the returned value is bound by the advice, every exit is a normal one
            String binding = isVoid ? "returning" : "returning(" + ret + " ret)";
            advice(out, "after" + header + " " + binding + " : " + pointcut, guarded(ctxDecl + unwrap(after)));
        } else {
            StringBuilder b = new StringBuilder();
            b.append("final boolean on$ = ").append(RUNTIME).append(".on();\n").append(ctxDecl);
            if (!before.isEmpty()) {
                b.append("if (on$) {\n").append(indent(String.join("\n", before))).append("\n}\n");
            }
            if (!isVoid) {
                b.append(ret).append(" ret = ").append(Types.zero(site.returnType)).append(";\n");
            }
            b.append("boolean normal$ = false;\n");
            String proceed = "proceed(" + String.join(", ", actuals) + ");";
            b.append("try {\n").append(indent((isVoid ? "" : "ret = ") + proceed + "\nnormal$ = true;"
                    + (isVoid ? "" : "\nreturn ret;"))).append("\n} finally {\n");
            b.append(indent("if (on$) {\n" + indent(String.join("\n", after)) + "\n}"));
            b.append("\n}");
            advice(out, ret + " around" + header + " : " + pointcut, b.toString());
        }
        return out.toString();
    }

    /**
     * Run-time patching ({@link #contextsInLocals()}): the patches of an execution whose context is kept in a local
     * become two wrapper methods the method itself calls ({@link ContextLocals#wrappers}), no advice; returns the
     * empty advice text.
     */
    private String contextLocals(Site site, List<String> before, List<String> after) {
        MethodInfo m = site.method;
        String aspect = AspectFiles.bytecodeAspect(pkg, wrappers.size()).replace('.', '/');
        ContextLocals.Wrappers w = ContextLocals.wrappers(m, site.contextType, site.usesSelf && site.selfBound,
                site.argsUsed, site.usesReturn && !site.returnType.equals("void"), before, after, describe(site),
                aspect, "c$" + (wrappers.size() + 1), this::formal, this::formalType);
        wrappers.add(new AspectFiles.Piece(m.owner(), w.source()));
        byte[] original = classFiles.computeIfAbsent(m.owner(), name -> {
            try {
                return targets.classFile(name);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        bytecode.addContext(m.owner(), original, m.name() + m.descriptor(), w.plan());
        return "";
    }

    private static void advice(StringBuilder out, String declaration, String body) {
        out.append("    ").append(declaration).append(" {\n").append(indent(indent(body))).append("\n    }\n");
    }

    private static String guarded(String body) {
        return "if (" + RUNTIME + ".on()) {\n" + indent(body) + "\n}";
    }

    /** Statements of returning patches without their {@code if (normal$)} guard, for advice that only runs then. */
    private static String unwrap(List<String> returning) {
        return String.join("\n", returning).replace("if (normal$) {\n", "{\n");
    }

    private static String toLong(String type, String v) {
        return switch (type) {
            case "boolean" -> "(" + v + " ? 1L : 0L)";
            case "float" -> "(long) Float.floatToRawIntBits(" + v + ")";
            case "double" -> "Double.doubleToRawLongBits(" + v + ")";
            default -> "(long) " + v;
        };
    }

    private static String fromLong(String type, String v) {
        return switch (type) {
            case "boolean" -> v + " != 0L";
            case "float" -> "Float.intBitsToFloat((int) " + v + ")";
            case "double" -> "Double.longBitsToDouble(" + v + ")";
            case "long" -> v;
            default -> "(" + type + ") " + v;
        };
    }

    private String describe(Site site) {
        StringBuilder s = new StringBuilder(site.shadow.describe()).append(':');
        for (Use u : site.group.uses()) {
            s.append(' ').append(u.patch().what()).append(' ').append(u.patch().mode()).append(" (")
                    .append(u.patch().at()).append(')');
        }
        return s.toString();
    }

    private static String where(Site site) {
        return site.shadow.subject;
    }

    // ---------------------------------------------------------------- AspectJ spelling

    /** A type usable in generated Java: nested classes with dots; classes the aspects cannot name as Object. */
    private String formalType(String javaType) {
        return names.javaType(javaType);
    }

    private static String indent(String text) {
        if (text.isEmpty()) {
            return text;
        }
        return "    " + text.replace("\n", "\n    ");
    }

    // ---------------------------------------------------------------- output

    private GeneratedCode assemble(List<AspectFiles.Piece> advice, Set<String> woven) {
        Map<String, String> aspects = new LinkedHashMap<>();
        Map<String, Set<String>> advised = new LinkedHashMap<>();
        AdviceIndex index = new AdviceIndex();
        // not privileged (AspectJ would make public every class a privileged aspect names): the markers of anonymous
        // and local classes and the field readers go into a class the aspects share
        AspectFiles.assemble(pkg, advice, wrappers, ids.table(), ids.size(), names.markerDeclarations()
                + fieldReads.declarations(), aspects, advised, index);
        List<String> options = new ArrayList<>();
        if (joinpoints.length() > 0) {
            options.add("-Xjoinpoints:" + joinpoints);
        }
        return new GeneratedCode(aspects, AspectFiles.aopXml(aspects.keySet(), woven, options), ids.table(), woven,
                ids.size(), advice.size() + wrappers.size(), warnings, options, bytecode, advised, index);
    }

    private void error(org.dyper.patch.model.Location at, String element, String message) {
        errors.add(Problem.error(at, element, message));
    }
}
