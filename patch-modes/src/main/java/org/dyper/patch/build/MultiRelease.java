package org.dyper.patch.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.bytecode.BytecodePlan;

/**
 * Weaves the versioned copies ({@code META-INF/versions/N/...}) of the patched classes of a multi-release jar: ajc
 * would take them for second copies of the same types, so they are woven apart, one release at a time, with the
 * aspects already compiled for the base classes. The plain way's calls ({@link BytecodePlan#retarget}) are placed at
 * their own methods' entries; copies that no aspect advises need no ajc.
 */
final class MultiRelease {
    private static final String VERSIONS = "META-INF/versions/";

    private MultiRelease() {}

    /**
     * Weaves the versioned copies in {@code input} of the classes {@code code} patches with the compiled aspects among
     * {@code woven} (class files by internal name) into {@code changes} (by entry name); returns ajc's warnings. Of the
     * bytecode pass, only the plain way's calls at method entries are applied to them.
     */
    static List<String> weave(GeneratedCode code, Path input, Map<String, byte[]> woven, List<Path> cp,
            Map<String, byte[]> changes) throws IOException, WeaveException {
        if (Files.isDirectory(input)) {
            return List.of();
        }
        Map<String, Map<String, String>> byRelease = new TreeMap<>();  // release -> class entry -> versioned entry
        for (String name : Jars.entries(input)) {
            if (!isVersionedClass(name)) {
                continue;
            }
            int slash = name.indexOf('/', VERSIONS.length());
            String entry = name.substring(slash + 1);
            String binary = entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
            if (code.wovenClasses().contains(binary)) {
                byRelease.computeIfAbsent(name.substring(VERSIONS.length(), slash), k -> new TreeMap<>())
                        .put(entry, name);
            }
        }
        if (byRelease.isEmpty()) {
            return List.of();
        }
        List<String> notes = new ArrayList<>();
        Path work = TempFiles.directory("release");
        try {
            Path aspects = work.resolve("aspects");
            String pkg = code.packageName().replace('.', '/') + "/";
            for (Map.Entry<String, byte[]> c : woven.entrySet()) {
                if (c.getKey().startsWith(pkg)) {
                    Jars.write(aspects.resolve(c.getKey() + ".class"), c.getValue());
                }
            }
            Map<String, BytecodePlan.ClassPlan> plans = new HashMap<>();
            code.bytecode().classes().values().forEach(c -> plans.put(c.className(), c));
            Set<String> advised = new HashSet<>();
            code.advised().values().forEach(advised::addAll);
            for (Map.Entry<String, Map<String, String>> release : byRelease.entrySet()) {
                Path in = work.resolve(release.getKey()).resolve("in");
                Path out = work.resolve(release.getKey()).resolve("out");
                int toWeave = 0;
                for (Map.Entry<String, String> c : release.getValue().entrySet()) {
                    String binary = binaryName(c.getKey());
                    byte[] bytes = Jars.read(input, c.getValue());
                    // the plain way's calls go to this copy's own method entries (other bytecode plans name the base
                    // version's instructions and are not applied here)
                    BytecodePlan.ClassPlan plan = plans.get(binary) == null ? null
                            : BytecodePlan.retarget(plans.get(binary), bytes);
                    if (plan != null) {
                        bytes = BytecodePlan.transform(plan);
                    }
                    if (advised.contains(binary)) {
                        Jars.write(in.resolve(c.getKey()), bytes);
                        toWeave++;
                    } else {
                        changes.put(c.getValue(), bytes);
                    }
                }
                if (toWeave == 0) {
                    continue;
                }
                Files.createDirectories(out);
                List<String> args = new ArrayList<>(List.of("-inpath", in.toString(), "-aspectpath",
                        aspects.toString(), "-d", out.toString(), "-classpath",
                        Ajc.path(Weaver.compileClasspath(cp))));
                args.addAll(code.weaverOptions());
                notes.addAll(Ajc.run(args, "weaving the release " + release.getKey() + " classes of a multi-release "
                        + "jar").warnings());
                for (Map.Entry<String, String> c : release.getValue().entrySet()) {
                    if (advised.contains(binaryName(c.getKey()))) {
                        changes.put(c.getValue(), Files.readAllBytes(out.resolve(c.getKey())));
                    }
                }
            }
        } finally {
            Weaver.deleteTree(work);
        }
        return notes;
    }

    /**
     * The binary names of the classes that {@code targets} (jars; folders have no versions) hold a copy of for a later
     * Java release. Load-time weaving replaces a class by the bytes of the copy it was prepared from, so these keep
     * AspectJ advice there instead of the plain way's calls ({@code Generator.adviceFor}).
     */
    static Set<String> versionedClasses(List<Path> targets) throws IOException {
        Set<String> names = new HashSet<>();
        for (Path t : targets) {
            if (Files.isRegularFile(t)) {
                for (String name : Jars.entries(t)) {
                    if (isVersionedClass(name)) {
                        names.add(binaryName(name.substring(name.indexOf('/', VERSIONS.length()) + 1)));
                    }
                }
            }
        }
        return names;
    }

    private static String binaryName(String classEntry) {
        return classEntry.substring(0, classEntry.length() - ".class".length()).replace('/', '.');
    }

    private static boolean isVersionedClass(String name) {
        return name.startsWith(VERSIONS) && name.endsWith(".class") && name.indexOf('/', VERSIONS.length()) > 0
                && !name.endsWith("module-info.class");
    }
}
