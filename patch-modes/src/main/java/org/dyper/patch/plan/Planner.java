package org.dyper.patch.plan;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.dyper.patch.ExternalModeDefinition;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.model.ExternalMode;
import org.dyper.patch.model.ForSpec;
import org.dyper.patch.model.Mode;
import org.dyper.patch.model.Model;
import org.dyper.patch.model.Patch;
import org.dyper.patch.model.Update;
import org.dyper.patch.model.What;
import org.dyper.patch.model.When;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassInfo;
import org.dyper.patch.scan.MethodInfo;

/**
 * The first step of generation: each FOR of the models to the methods it selects, and each PATCH, checked once against
 * what its WHAT allows and with its mode resolved, to those methods.
 */
public final class Planner {
    /** The WHATs of field accesses. */
    public static final Set<What> FIELD_WHATS =
            Set.of(What.FIELD_ACCESS, What.STATIC_ACCESS, What.FIELD_WRITE, What.STATIC_WRITE);
    /** The WHATs of allocations. */
    public static final Set<What> ALLOC_WHATS = Set.of(What.OBJECT_ALLOC, What.ARRAY_ALLOC, What.BASE_ARRAY_ALLOC);

    private final ModeCatalog catalog;
    private final ClassIndex targets;
    private final ProblemLog log;
    private final Map<String, Optional<Mode>> externals = new LinkedHashMap<>();

    public Planner(ModeCatalog catalog, ClassIndex targets, ProblemLog log) {
        this.catalog = catalog;
        this.targets = targets;
        this.log = log;
    }

    /**
     * The patches of every method some FOR of {@code models} selects, in model order; a later FOR's patch replaces an
     * earlier one with the same WHAT, MODE and WHENs, and UPDATE='NEW' drops what earlier FORs gave the method.
     */
    public Map<MethodInfo, List<PlannedPatch>> plan(List<Model> models) {
        Map<MethodInfo, List<PlannedPatch>> plan = new LinkedHashMap<>();
        for (Model model : models) {
            for (ForSpec f : model.fors()) {
                List<PlannedPatch> uses = new ArrayList<>();
                for (Patch p : f.patches()) {
                    Mode mode = checkPatch(p);
                    if (mode != null) {
                        uses.add(new PlannedPatch(p, f, mode));
                    }
                }
                List<MethodInfo> matched = match(f);
                if (matched.isEmpty() && !(f.update() == Update.NEW && f.patches().isEmpty())) {
                    log.warning("FORs that match no method in the woven code", f.at(), "FOR", () -> f.describe()
                            + " matches no method in the woven code (" + targets.size() + " class(es) scanned)");
                }
                for (MethodInfo m : matched) {
                    List<PlannedPatch> list = plan.computeIfAbsent(m, k -> new ArrayList<>());
                    if (f.update() == Update.NEW) {
                        list.clear();
                    }
                    for (PlannedPatch u : uses) {
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
                log.error(w.at(), "WHEN", "CASE='" + w.kind() + "' " + applies + ", not WHAT='" + p.what() + "'");
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
            log.error(p.at(), "PATCH", "unknown MODE '" + p.mode() + "': not in the mode library nor in the given mode "
                    + "files (known: " + String.join(", ", catalog.names()) + ")");
            return null;
        }
        return ok ? mode : null;
    }

    /** Loads a DYPATCH_EXTERNAL class (from its JAR, relative to the mode file) and asks it for the mode. */
    private Mode external(ExternalMode ext) {
        try {
            ClassLoader parent = Planner.class.getClassLoader();
            ClassLoader loader = parent;
            if (ext.jar() != null) {
                Path base = Path.of(ext.at().file()).toAbsolutePath().getParent();
                Path jar = base == null ? Path.of(ext.jar()) : base.resolve(ext.jar());
                if (!Files.isRegularFile(jar)) {
                    log.error(ext.at(), "DYPATCH_EXTERNAL", "JAR '" + ext.jar() + "' not found (looked for " + jar + ")");
                    return null;
                }
                loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, parent);
            }
            Class<?> type = Class.forName(ext.className(), true, loader);
            if (!ExternalModeDefinition.class.isAssignableFrom(type)) {
                log.error(ext.at(), "DYPATCH_EXTERNAL", "class " + ext.className() + " does not implement "
                        + ExternalModeDefinition.class.getName());
                return null;
            }
            Mode mode = ((ExternalModeDefinition) type.getDeclaredConstructor().newInstance()).define(ext.name());
            if (mode == null) {
                log.error(ext.at(), "DYPATCH_EXTERNAL", ext.className() + ".define returned null");
            }
            return mode;
        } catch (ClassNotFoundException e) {
            log.error(ext.at(), "DYPATCH_EXTERNAL", "class " + ext.className() + " not found"
                    + (ext.jar() == null ? " (give its JAR)" : " in " + ext.jar()));
        } catch (ReflectiveOperationException | RuntimeException | java.io.IOException e) {
            log.error(ext.at(), "DYPATCH_EXTERNAL", "cannot define mode '" + ext.name() + "' with " + ext.className()
                    + ": " + e);
        }
        return null;
    }

}
