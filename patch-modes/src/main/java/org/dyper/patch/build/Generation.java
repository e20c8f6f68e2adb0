package org.dyper.patch.build;

import org.dyper.patch.plan.Planner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.scan.ClassLookup;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.aspectj.Generator;
import org.dyper.patch.model.ForSpec;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Location;
import org.dyper.patch.model.Model;
import org.dyper.patch.model.Problem;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassInfo;
import org.dyper.patch.scan.ClassScanner;
import org.dyper.patch.scan.MethodInfo;
import org.dyper.patch.xml.ModelReader;

/**
 * One generation of aspects for a set of inputs: reads and checks the models and modes, scans the targets, and
 * generates. The generated classes go into a package named by a hash of what was generated from (models, modes, the
 * classes that may be patched and their methods), so jars woven separately, with one model or several, never share a
 * class name. Classes whose supertypes or member signatures need types that are not there (optional dependencies of
 * real jars) are left unpatched, with one warning naming them and the missing types ({@link MissingTypes}); should ajc
 * still stop on a type it cannot resolve, {@link #weave} generates again without the classes concerned and retries.
 */
public final class Generation {
    /** At most this many times {@link #weave} generates again after ajc could not resolve a type. */
    private static final int RETRIES = 8;
    private static final Pattern INDIRECT = Pattern.compile(
            "The type ([\\w.$]+) cannot be resolved\\. It is indirectly referenced from required (?:type|\\.class "
                    + "files) ([\\w.$]+)");
    private static final Pattern UNRESOLVED = Pattern.compile("([\\w.$]+) cannot be resolved(?: to a type)?");
    private static final Pattern AT_LINE = Pattern.compile("^(\\w+)\\.aj:(\\d+): ");

    private final Weaver.Inputs in;
    private final boolean forLoadTime;
    private final List<Model> models;
    private final ModeCatalog catalog;
    private final ClassIndex targets;
    private final ClassLookup lookup;
    private final MissingTypes missingTypes;
    /** Load-time weaving: classes with versioned copies in a multi-release jar, which keep AspectJ advice. */
    private final Set<String> adviceOnly;
    /** Classes left unpatched, with the missing types each needs. */
    private final Map<String, Set<String>> skipped = new TreeMap<>();
    private GeneratedCode code;

    private Generation(Weaver.Inputs in, boolean forLoadTime, List<Model> models, ModeCatalog catalog)
            throws IOException {
        this.in = in;
        this.forLoadTime = forLoadTime;
        this.models = models;
        this.catalog = catalog;
        List<String> classPatterns = new ArrayList<>();
        models.forEach(m -> m.fors().forEach(f -> classPatterns.add(f.className())));
        ClassFilter patched = new ClassFilter(classPatterns);
        java.util.function.Predicate<String> admitted = in.admitter();
        // only the classes a FOR can select need their method bodies read (the calls CALL patches look for, ...)
        this.targets = ClassScanner.scan(in.targets(), c -> admitted.test(c) && patched.matches(c)).restrict(admitted);
        List<Path> lookupPath = new ArrayList<>(in.targets());
        lookupPath.addAll(in.classpath());
        this.lookup = new ClassLookup(lookupPath, Weaver.class.getClassLoader());
        List<Path> roots = new ArrayList<>(lookupPath);
        roots.addAll(Weaver.runtimeClasspath());
        this.missingTypes = new MissingTypes(targets, in.targets(), roots);
        this.adviceOnly = forLoadTime ? MultiRelease.versionedClasses(in.targets()) : Set.of();
    }

    /**
     * Reads, validates and generates; every problem of every model and mode file is reported in one exception. With
     * {@code forLoadTime} the advice avoids around advice, which the load-time weaver does not inline.
     */
    public static Generation of(Weaver.Inputs in, boolean forLoadTime) throws InvalidInputException, IOException {
        List<Problem> problems = new ArrayList<>();
        ModeCatalog catalog = null;
        try {
            catalog = ModeCatalog.load(in.modeFiles());
        } catch (InvalidInputException e) {
            problems.addAll(e.problems());
        }
        List<Model> models = new ArrayList<>();
        for (Path file : in.models()) {
            try {
                models.add(ModelReader.read(file));
            } catch (InvalidInputException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            // the warnings too: a user fixing the errors should not meet them only afterwards
            if (catalog != null) {
                problems.addAll(catalog.warnings());
            }
            throw new InvalidInputException(problems);
        }
        Generation g = new Generation(in, forLoadTime, models, catalog);
        try {
            g.generate();
        } catch (InvalidInputException e) {
            List<Problem> all = new ArrayList<>(e.problems());
            all.addAll(catalog.warnings());
            throw new InvalidInputException(all);
        }
        return g;
    }

    /** What was generated last. */
    public GeneratedCode code() {
        return code;
    }

    /** Classes left unpatched because types they need are missing, with those types. */
    public Map<String, Set<String>> skipped() {
        return java.util.Collections.unmodifiableMap(skipped);
    }

    /** The work of a weave with one generation's code. */
    @FunctionalInterface
    public interface Step<T> {
        T run(GeneratedCode code) throws IOException, WeaveException;
    }

    /**
     * Runs {@code step} with the generated code; when ajc stops because it cannot resolve a type some patched classes
     * need, generates again without those classes (they join the warning of {@link #code()}) and runs {@code step}
     * again. Other failures are thrown as they are.
     */
    public <T> T weave(Step<T> step) throws IOException, WeaveException {
        for (int attempt = 0; ; attempt++) {
            try {
                return step.run(code);
            } catch (WeaveException e) {
                Map<String, Set<String>> culprits = culprits(e.messages());
                culprits.keySet().removeAll(skipped.keySet());
                if (culprits.isEmpty() || attempt == RETRIES) {
                    throw e;
                }
                culprits.forEach((c, types) -> skipped.computeIfAbsent(c, k -> new TreeSet<>()).addAll(types));
                try {
                    generate();
                } catch (InvalidInputException unexpected) {
                    throw new IllegalStateException("the models were valid a moment ago", unexpected);
                }
            }
        }
    }

    private void generate() throws IOException, InvalidInputException {
        GeneratedCode first = new Generator(catalog, targets.restrict(c -> !skipped.containsKey(c)), lookup,
                forLoadTime, packageName(skipped.keySet())).adviceFor(adviceOnly).generate(models);
        Map<String, Set<String>> missing = missingTypes.check(first.wovenClasses());
        if (!missing.isEmpty()) {
            skipped.putAll(missing);
            first = new Generator(catalog, targets.restrict(c -> !skipped.containsKey(c)), lookup, forLoadTime,
                    packageName(skipped.keySet())).adviceFor(adviceOnly).generate(models);
        }
        List<Problem> warnings = new ArrayList<>(catalog.warnings());
        warnings.addAll(first.warnings());
        if (!skipped.isEmpty()) {
            warnings.add(skippedWarning());
        }
        code = first.withWarnings(warnings);
    }

    /** One warning for every class left unpatched, at the first FOR that selects one of them. */
    private Problem skippedWarning() {
        Map<String, Set<String>> byType = new TreeMap<>();
        skipped.forEach((c, types) -> types.forEach(t -> byType.computeIfAbsent(t, k -> new TreeSet<>()).add(c)));
        StringBuilder types = new StringBuilder();
        byType.forEach((t, classes) -> types.append(types.length() == 0 ? "" : "; ").append(t).append(" (needed by ")
                .append(abbreviate(new ArrayList<>(classes))).append(')'));
        Location at = null;
        for (Model m : models) {
            for (ForSpec f : m.fors()) {
                Pattern p = Planner.glob(f.className());
                if (at == null && skipped.keySet().stream().anyMatch(c -> p.matcher(c).matches()
                        || p.matcher(c.replace('$', '.')).matches())) {
                    at = f.at();
                }
            }
        }
        return Problem.warning(at != null ? at : models.get(0).at(), "FOR", skipped.size() + " class(es) left "
                + "unpatched because types they need are not on the class path: " + String.join(", ",
                abbreviate(new ArrayList<>(skipped.keySet()))) + ". Missing: " + types + ". Put the jars that hold "
                + "them on the class path to patch these classes too.");
    }

    private static String abbreviate(List<String> items) {
        return items.size() <= 10 ? String.join(", ", items)
                : String.join(", ", items.subList(0, 10)) + " and " + (items.size() - 10) + " more";
    }

    /**
     * The classes ajc's messages blame, with the types it could not resolve: "The type X cannot be resolved. It is
     * indirectly referenced from required type Y" blames Y; an unresolved name at a line of a generated aspect blames
     * the class of the advice at that line.
     */
    private Map<String, Set<String>> culprits(List<String> messages) {
        Map<String, Set<String>> culprits = new LinkedHashMap<>();
        for (String m : messages) {
            Matcher indirect = INDIRECT.matcher(m);
            if (indirect.find()) {
                missingTypes.markMissing(indirect.group(1));
                if (targets.find(indirect.group(2)).isPresent()) {
                    culprits.computeIfAbsent(indirect.group(2), k -> new TreeSet<>()).add(indirect.group(1));
                    continue;
                }
            }
            Matcher unresolved = UNRESOLVED.matcher(m);
            Matcher at = AT_LINE.matcher(m);
            if (unresolved.find() && at.find()) {
                String owner = adviceOwner(at.group(1), Integer.parseInt(at.group(2)));
                if (owner != null) {
                    culprits.computeIfAbsent(owner, k -> new TreeSet<>()).add(unresolved.group(1));
                }
            }
        }
        return culprits;
    }

    /** The class advised by the advice around line {@code line} of the generated aspect {@code simpleName}. */
    private String adviceOwner(String simpleName, int line) {
        for (Map.Entry<String, String> a : code.aspects().entrySet()) {
            if (!a.getKey().endsWith("." + simpleName)) {
                continue;
            }
            String[] lines = a.getValue().split("\n", -1);
            Set<String> advised = code.advised().getOrDefault(a.getKey(), Set.of());
            for (int i = Math.min(line, lines.length) - 1; i >= 0; i--) {
                if (lines[i].startsWith("    // ")) {
                    String best = null;
                    for (String c : advised) {
                        if (lines[i].contains(c + ".") && (best == null || c.length() > best.length())) {
                            best = c;
                        }
                    }
                    return best;
                }
            }
        }
        return null;
    }

    /**
     * {@code org.dyper.generated.g} and 12 hex digits of a SHA-256 over the flavour, the model and mode files'
     * contents, and every class that may be patched with its methods (not paths or times: the same inputs give the same
     * names on any machine).
     */
    private String packageName(Set<String> without) throws IOException {
        Sha256 sha = new Sha256().add(forLoadTime ? "load-time\n" : "woven\n");
        for (Path p : in.models()) {
            sha.add(Files.readAllBytes(p));
        }
        for (Path p : in.modeFiles()) {
            sha.add(Files.readAllBytes(p));
        }
        StringBuilder classes = new StringBuilder();
        for (ClassInfo c : targets.classes()) {
            if (without.contains(c.name())) {
                continue;
            }
            classes.append(c.name()).append('\n');
            for (MethodInfo m : c.methods()) {
                classes.append(' ').append(m.name()).append(m.descriptor()).append('\n');
            }
        }
        return Generator.PACKAGE + ".g" + sha.add(classes.toString()).hex(12);
    }
}
