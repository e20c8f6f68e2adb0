package org.dyper.patch.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.aspectj.Generator;
import org.dyper.patch.plan.ProblemLog;

/**
 * Weaves the classes a generation patches with ajc, in batches: each batch gets only its classes as input and only the
 * aspects that advise them, the rest of the program stays on ajc's class path. ajc's cost grows with classes times
 * advice and its front end slows down as one compilation grows, so a broad model (thousands of classes) weaves several
 * times faster in batches of about a thousand advice than in one run, and a few classes of a big jar cost only what
 * those classes cost. A batch holds whole groups of classes and aspects that share advice (an aspect that advises two
 * classes puts both in one batch), so every class is woven exactly once with all its advice.
 */
public final class AjcBatches {
    /**
     * About this much generated source per batch (some thousand advice): ajc's sweet spot, measured on big jars
     * (docs/performance.md); the system property {@code dyper.weave.batchChars} changes it.
     */
    static final int BATCH_CHARS = Integer.getInteger("dyper.weave.batchChars", 700_000);

    /** The class files ajc wrote (woven inputs, compiled aspects, the site-table class), by internal name. */
    public record Result(Map<String, byte[]> classes, List<String> warnings) {}

    private AjcBatches() {}

    /**
     * Weaves {@code inputs} (class files by internal name: the classes the code patches, with the bytecode pass
     * applied) against {@code classpath} (what else they and the modes need: the rest of their jars, dependencies; the
     * Dyper and AspectJ runtimes are added), telling {@code progress} after each batch when there are several.
     */
    public static Result weave(GeneratedCode code, Map<String, byte[]> inputs, List<Path> classpath,
            Consumer<String> progress) throws IOException, WeaveException {
        Map<String, byte[]> out = new TreeMap<>();
        // classes no aspect advises (patched the plain way, by the bytecode pass alone) are done: ajc would only
        // read and write them again
        Set<String> advised = new java.util.HashSet<>();
        code.advised().values().forEach(cs -> cs.forEach(c -> advised.add(c.replace('.', '/'))));
        Map<String, byte[]> toWeave = new TreeMap<>();
        inputs.forEach((name, bytes) -> (advised.contains(name) ? toWeave : out).put(name, bytes));
        List<Batch> batches = batches(code, toWeave.keySet());
        String sitesClass = code.packageName() + ".DyperSites";
        // the marker annotations and field readers every aspect may use: compiled with each batch
        String sharedClass = code.packageName() + ".DyperShared";
        // the shared wrappers of the plain way: compiled with the first batch, on the class path of the others (a
        // class woven there may call them too)
        String plainPrefix = code.packageName() + "." + Generator.PLAIN_ASPECT_NAME;
        List<String> plainAspects = code.aspects().keySet().stream().filter(a -> a.startsWith(plainPrefix)).toList();
        Path plainClasses = plainAspects.isEmpty() ? null : TempFiles.directory("plain");
        List<String> warnings = new ArrayList<>();
        List<String> unapplied = new ArrayList<>();
        int done = 0;
        try {
            for (int i = 0; i < batches.size(); i++) {
                Batch b = batches.get(i);
                Path work = TempFiles.directory("src");
                try {
                    Path in = work.resolve("in");
                    Path src = work.resolve("src");
                    Path classes = work.resolve("out");
                    Files.createDirectories(in);
                    Files.createDirectories(classes);
                    for (String c : b.classes) {
                        Jars.write(in.resolve(c + ".class"), toWeave.get(c));
                    }
                    Map<String, String> sources = new LinkedHashMap<>();
                    // the first batch compiles the site-table class with the whole table; the others a stub of the
                    // same shape to compile against (BASE is not a constant, so what they compile is the same)
                    sources.put(sitesClass, i == 0 ? code.aspects().get(sitesClass) : sitesStub(code.packageName()));
                    if (code.aspects().containsKey(sharedClass)) {
                        sources.put(sharedClass, code.aspects().get(sharedClass));
                    }
                    b.aspects.forEach(a -> sources.put(a, code.aspects().get(a)));
                    List<Path> cp = new ArrayList<>(classpath);
                    if (i == 0) {
                        plainAspects.forEach(a -> sources.put(a, code.aspects().get(a)));
                    } else if (plainClasses != null) {
                        cp.add(0, plainClasses);
                    }
                    List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-classpath",
                            Ajc.path(Weaver.compileClasspath(cp))));
                    if (!b.classes.isEmpty()) {
                        args.add(0, in.toString());
                        args.add(0, "-inpath");
                    }
                    args.addAll(code.weaverOptions());
                    for (Map.Entry<String, String> s : sources.entrySet()) {
                        Path f = src.resolve(s.getKey().replace('.', '/') + ".aj");
                        Files.createDirectories(f.getParent());
                        Files.writeString(f, s.getValue());
                        args.add(f.toString());
                    }
                    String what = batches.size() == 1 ? "weaving " + b.classes.size() + " class(es)"
                            : "weaving batch " + (i + 1) + " of " + batches.size() + " (" + b.classes.size()
                            + " class(es))";
                    // ajc's lint where the batch holds every class its aspects advise (batches are made so): advice
                    // that matched nothing comes back as a warning naming the patch
                    Ajc.Result result = Ajc.run(args, what, !b.classes.isEmpty());
                    warnings.addAll(result.warnings());
                    unapplied.addAll(unapplied(code, result));
                    try (var walk = Files.walk(classes)) {
                        for (Path f : walk.filter(p -> p.toString().endsWith(".class")).toList()) {
                            String name = classes.relativize(f).toString().replace('\\', '/');
                            name = name.substring(0, name.length() - ".class".length());
                            if (i == 0 || !name.equals(sitesClass.replace('.', '/'))) {
                                out.put(name, Files.readAllBytes(f));
                            }
                            if (i == 0 && plainClasses != null && name.startsWith(plainPrefix.replace('.', '/'))) {
                                Jars.write(plainClasses.resolve(name + ".class"), out.get(name));
                            }
                        }
                    }
                } finally {
                    Weaver.deleteTree(work);
                }
                done += b.classes.size();
                if (batches.size() > 1) {
                    progress.accept("woven " + done + " of " + toWeave.size() + " class(es) (batch " + (i + 1) + " of "
                            + batches.size() + ")");
                }
            }
        } finally {
            if (plainClasses != null) {
                Weaver.deleteTree(plainClasses);
            }
        }
        warnings.addAll(capped(unapplied));
        return new Result(out, warnings);
    }

    /**
     * The warnings for advice ajc did not apply anywhere (its lint {@code adviceDidNotMatch}), each naming the patch
     * it stands for; in the form {@link Weaver#isWarning} recognises. Shared with the run-time way.
     */
    public static List<String> unapplied(GeneratedCode code, Ajc.Result result) {
        List<String> warnings = new ArrayList<>();
        for (Ajc.Unapplied u : result.unapplied()) {
            List<org.dyper.patch.model.Problem> named = code.adviceIndex().unapplied(u.file(), u.line());
            if (named.isEmpty()) {
                warnings.add("warning: AspectJ did not apply the advice at " + u.file() + ":" + u.line());
            }
            named.forEach(w -> warnings.add(w.toString()));
        }
        return warnings;
    }

    /**
     * The first {@link ProblemLog#SHOWN} of {@code unapplied} (warnings from {@link #unapplied}), and a line that
     * counts the rest.
     */
    public static List<String> capped(List<String> unapplied) {
        if (unapplied.size() <= ProblemLog.SHOWN) {
            return unapplied;
        }
        List<String> shown = new ArrayList<>(unapplied.subList(0, ProblemLog.SHOWN));
        shown.add("warning: " + ProblemLog.moreLine(unapplied.size() - ProblemLog.SHOWN, "join points AspectJ did not "
                + "weave advice at"));
        return shown;
    }

    /** A stub of the site-table class: the same class and field, no table. */
    private static String sitesStub(String pkg) {
        return "package " + pkg + ";\npublic final class DyperSites {\n    public static final int BASE = "
                + org.dyper.runtime.Sites.class.getName() + ".base(\"\", 0);\n    private DyperSites() {\n    }\n}\n";
    }

    /** Internal names of classes and fully qualified aspect names that ajc sees in one run. */
    private record Batch(Set<String> classes, Set<String> aspects, int chars) {}

    /**
     * Groups aspects with the classes they advise (transitively: two aspects advising one class stay together), in
     * the generator's order, and packs the groups into batches of about {@link #BATCH_CHARS} characters of source.
     * Input classes no aspect advises go into the last batch.
     */
    static List<Batch> batches(GeneratedCode code, Set<String> inputs) {
        Map<String, String> parent = new HashMap<>();
        List<String> aspects = code.aspects().keySet().stream().filter(code.advised()::containsKey).toList();
        for (String a : aspects) {
            for (String c : code.advised().get(a)) {
                union(parent, "A" + a, "C" + c.replace('.', '/'));
            }
        }
        Map<String, Batch> groups = new LinkedHashMap<>();
        for (String a : aspects) {
            groups.computeIfAbsent(find(parent, "A" + a), k -> new Batch(new LinkedHashSet<>(), new LinkedHashSet<>(),
                    0)).aspects.add(a);
        }
        List<Batch> result = new ArrayList<>();
        Batch current = null;
        Set<String> placed = new LinkedHashSet<>();
        for (Map.Entry<String, Batch> g : groups.entrySet()) {
            Set<String> classes = new LinkedHashSet<>();
            int chars = 0;
            for (String a : g.getValue().aspects) {
                chars += code.aspects().get(a).length();
                for (String c : code.advised().get(a)) {
                    String internal = c.replace('.', '/');
                    if (inputs.contains(internal)) {
                        classes.add(internal);
                    }
                }
            }
            if (current == null || current.chars > 0 && current.chars + chars > BATCH_CHARS) {
                current = new Batch(new LinkedHashSet<>(), new LinkedHashSet<>(), 0);
                result.add(current);
            }
            current.classes.addAll(classes);
            current.aspects.addAll(g.getValue().aspects);
            current = new Batch(current.classes, current.aspects, current.chars + chars);
            result.set(result.size() - 1, current);
            placed.addAll(classes);
        }
        if (result.isEmpty()) {
            result.add(new Batch(new LinkedHashSet<>(), new LinkedHashSet<>(), 0));
        }
        for (String c : inputs) {
            if (!placed.contains(c)) {
                result.get(result.size() - 1).classes.add(c);
            }
        }
        return result;
    }

    private static String find(Map<String, String> parent, String x) {
        String p = parent.getOrDefault(x, x);
        if (p.equals(x)) {
            return x;
        }
        String root = find(parent, p);
        parent.put(x, root);
        return root;
    }

    private static void union(Map<String, String> parent, String a, String b) {
        String ra = find(parent, a);
        String rb = find(parent, b);
        if (!ra.equals(rb)) {
            parent.put(rb, ra);
        }
    }
}
