package org.dyper.runtime.instrument;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * A patch set as it crosses every process boundary: its files on this machine, by path, in one XML form written and
 * read only here. The DYPATCH service's PATCH reply is this element, {@code dyper ctl instrument} hands it on inside
 * INSTRUMENT's {@code <MODEL>} as it came, and the monitor and automatic detailing read it back with
 * {@link #fromXml} and {@link #load} into the {@link PatchSet} the patcher inserts:
 *
 * <pre>{@code
 * <PATCH MODEL='m' ID='afde8b868fe1ec4d' SITES='/.../sites.tsv'>
 *   <CLASS NAME='org.x.Foo' ORIG='/.../orig/org/x/Foo.class' PATCH='/.../patch/org/x/Foo.class'/>
 *   <CLASS NAME='org.x.Bar'/>                   (asked for, patched by nothing: no files)
 *   <ASPECT NAME='org.dyper.generated.rafde8b868fe1ec4d.DyperPatches1' FILE='/.../aspects/...class'/>
 *   <RUNTIME JAR='/.../aspectjrt.jar'/>
 *   <NOTE>...</NOTE> <WARNING>...</WARNING>
 * </PATCH>
 * }</pre>
 *
 * A {@code CLASS} without {@code PATCH} only checks its class. {@code <PATCH>} is always the whole patch set; the
 * seed's one-class lines {@code <PATCH CLASS ORIG PATCH/>} directly in INSTRUMENT's {@code <MODEL>} are read too
 * ({@link #fromSeedLines}), never written.
 */
public record PatchSetFiles(String model, String id, String sites, List<ClassEntry> classes,
                            Map<String, String> aspects, List<String> runtimeJars, List<String> notes,
                            List<String> warnings) {
    /** The largest class file (or site table) {@link #load} reads. */
    public static final long MAX_FILE = 16L << 20;
    /** The most bytes one {@link #load} reads in all. */
    public static final long MAX_TOTAL = 256L << 20;
    /**
     * Where a path is expected, a file given by its content instead: this prefix, then the bytes in base64
     * ({@link #inlined}). A patch set so written needs no file on the machine that reads it.
     */
    public static final String DATA = "data:;base64,";

    /** One class: its binary name, the class file it was patched from and the patched one (both null: no files). */
    public record ClassEntry(String name, String original, String patched) {
    }

    public PatchSetFiles {
        classes = List.copyOf(classes);
        aspects = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(aspects));
        runtimeJars = List.copyOf(runtimeJars);
        notes = List.copyOf(notes);
        warnings = List.copyOf(warnings);
    }

    /** This patch set with {@code jars} as the runtime jars the woven code needs. */
    public PatchSetFiles withRuntime(List<Path> jars) {
        List<String> paths = new ArrayList<>();
        jars.forEach(j -> paths.add(j.toAbsolutePath().toString()));
        return new PatchSetFiles(model, id, sites, classes, aspects, paths, notes, warnings);
    }

    /** This patch set without the classes the model leaves as they are (those lines only check their class). */
    public PatchSetFiles patchedOnly() {
        return new PatchSetFiles(model, id, sites, classes.stream().filter(c -> c.patched() != null).toList(), aspects,
                runtimeJars, notes, warnings);
    }

    /**
     * This patch set with every file it names (class files, aspects, site table) given by its content
     * ({@value #DATA}...), read under the limits of {@link #load}: the form that crosses to another machine, whose
     * monitor cannot read this one's files. The runtime jars stay paths (the monitor falls back to the AspectJ runtime
     * beside its own jar). Throws IllegalArgumentException naming a file that cannot be read.
     */
    public PatchSetFiles inlined() {
        long[] total = {0};
        List<ClassEntry> inline = new ArrayList<>();
        for (ClassEntry c : classes) {
            inline.add(new ClassEntry(c.name(), data(c.original(), "ORIG of " + c.name(), total),
                    data(c.patched(), "PATCH of " + c.name(), total)));
        }
        Map<String, String> inlineAspects = new LinkedHashMap<>();
        aspects.forEach((name, file) -> inlineAspects.put(name, data(file, "aspect " + name, total)));
        return new PatchSetFiles(model, id, data(sites, "the site table", total), inline, inlineAspects, runtimeJars,
                notes, warnings);
    }

    private static String data(String file, String what, long[] total) {
        return file == null ? null : DATA + java.util.Base64.getEncoder().encodeToString(read(file, what, total));
    }

    /** The {@code <PATCH>} element. */
    public String toXml() {
        StringBuilder x = new StringBuilder("<PATCH");
        attribute(x, "MODEL", model);
        attribute(x, "ID", id);
        attribute(x, "SITES", sites);
        x.append('>');
        for (ClassEntry c : classes) {
            x.append("<CLASS");
            attribute(x, "NAME", c.name());
            attribute(x, "ORIG", c.original());
            attribute(x, "PATCH", c.patched());
            x.append("/>");
        }
        aspects.forEach((name, file) -> {
            x.append("<ASPECT");
            attribute(x, "NAME", name);
            attribute(x, "FILE", file);
            x.append("/>");
        });
        for (String jar : runtimeJars) {
            x.append("<RUNTIME");
            attribute(x, "JAR", jar);
            x.append("/>");
        }
        notes.forEach(n -> x.append("<NOTE>").append(Xml.text(n)).append("</NOTE>"));
        warnings.forEach(w -> x.append("<WARNING>").append(Xml.text(w)).append("</WARNING>"));
        return x.append("</PATCH>").toString();
    }

    private static void attribute(StringBuilder x, String name, String value) {
        if (value != null) {
            x.append(' ').append(name).append("='").append(Xml.esc(value)).append('\'');
        }
    }

    /** Reads a {@code <PATCH>} element; throws IllegalArgumentException naming the element and rule. */
    public static PatchSetFiles fromXml(Element patch) {
        if (!patch.getTagName().equals("PATCH")) {
            throw new IllegalArgumentException("expected <PATCH>, not <" + patch.getTagName() + ">");
        }
        List<ClassEntry> classes = new ArrayList<>();
        Map<String, String> aspects = new LinkedHashMap<>();
        List<String> jars = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (Element e : Xml.children(patch, null)) {
            switch (e.getTagName()) {
                case "CLASS" -> classes.add(new ClassEntry(required(e, "NAME"), Xml.attr(e, "ORIG"),
                        Xml.attr(e, "PATCH")));
                case "ASPECT" -> aspects.put(required(e, "NAME"), required(e, "FILE"));
                case "RUNTIME" -> jars.add(required(e, "JAR"));
                case "NOTE" -> notes.add(e.getTextContent().trim());
                case "WARNING" -> warnings.add(e.getTextContent().trim());
                default -> throw new IllegalArgumentException("<PATCH> may hold <CLASS>, <ASPECT>, <RUNTIME>, <NOTE> "
                        + "and <WARNING>, not <" + e.getTagName() + ">");
            }
        }
        return new PatchSetFiles(Xml.attr(patch, "MODEL"), Xml.attr(patch, "ID"), Xml.attr(patch, "SITES"), classes,
                aspects, jars, notes, warnings);
    }

    /**
     * Reads the seed's form of INSTRUMENT: {@code <MODEL NAME ID SITES>} holding {@code <PATCH CLASS ORIG PATCH/>}
     * lines (with our {@code <ASPECT>} and {@code <RUNTIME>} lines), as the seed writes it.
     */
    public static PatchSetFiles fromSeedLines(Element model) {
        List<ClassEntry> classes = new ArrayList<>();
        Map<String, String> aspects = new LinkedHashMap<>();
        List<String> jars = new ArrayList<>();
        for (Element e : Xml.children(model, null)) {
            switch (e.getTagName()) {
                case "PATCH" -> {
                    String cls = required(e, "CLASS");
                    if (Xml.attr(e, "ORIG") == null) {
                        throw new IllegalArgumentException("<PATCH CLASS='" + cls + "'> needs ORIG, the class file "
                                + "the patch was made for");
                    }
                    classes.add(new ClassEntry(cls, Xml.attr(e, "ORIG"), Xml.attr(e, "PATCH")));
                }
                case "ASPECT" -> aspects.put(required(e, "NAME"), required(e, "FILE"));
                case "RUNTIME" -> jars.add(required(e, "JAR"));
                default -> throw new IllegalArgumentException("<MODEL> may hold <PATCH>, <ASPECT> and <RUNTIME>, not <"
                        + e.getTagName() + ">");
            }
        }
        return new PatchSetFiles(Xml.attr(model, "NAME"), Xml.attr(model, "ID"), Xml.attr(model, "SITES"), classes,
                aspects, jars, List.of(), List.of());
    }

    private static String required(Element e, String attribute) {
        String v = Xml.attr(e, attribute);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("<" + e.getTagName() + "> needs " + attribute);
        }
        return v.trim();
    }

    /**
     * The patch set with its files read (at most {@link #MAX_FILE} each, {@link #MAX_TOTAL} in all), as model
     * {@code modelName}; classes without files are left out. Throws IllegalArgumentException naming the file.
     */
    public PatchSet load(String modelName) {
        long[] total = {0};
        List<ClassPatch> loaded = new ArrayList<>();
        for (ClassEntry c : classes) {
            if (c.original() == null) {
                if (c.patched() != null) {
                    throw new IllegalArgumentException("<CLASS NAME='" + c.name() + "'> needs ORIG, the class file "
                            + "the patch was made for");
                }
                continue;
            }
            loaded.add(new ClassPatch(c.name(), read(c.original(), "ORIG of " + c.name(), total),
                    c.patched() == null ? null : read(c.patched(), "PATCH of " + c.name(), total)));
        }
        Map<String, byte[]> aspectBytes = new LinkedHashMap<>();
        String patchId = id;
        for (Map.Entry<String, String> a : aspects.entrySet()) {
            String aspect = a.getKey().replace('.', '/');
            aspectBytes.put(aspect, read(a.getValue(), "aspect " + a.getKey(), total));
            if (patchId == null && aspect.startsWith("org/dyper/generated/r") && aspect.lastIndexOf('/') > 21) {
                patchId = aspect.substring("org/dyper/generated/r".length(), aspect.lastIndexOf('/'));
            }
        }
        boolean patches = loaded.stream().anyMatch(c -> c.patched() != null);
        if (patches && aspectBytes.isEmpty()) {
            throw new IllegalArgumentException("the patched classes call generated aspects: list them with "
                    + "<ASPECT NAME FILE/> as the DYPATCH PATCH reply does");
        }
        if (patchId == null) {
            throw new IllegalArgumentException("<MODEL> needs the ID of its patch (the DYPATCH PATCH reply's ID)");
        }
        String table = sites == null ? "" : new String(read(sites, "the site table", total), StandardCharsets.UTF_8);
        List<Path> jars = new ArrayList<>();
        runtimeJars.forEach(j -> jars.add(Path.of(j)));
        return new PatchSet(modelName, patchId, table, loaded, aspectBytes, jars);
    }

    private static byte[] read(String name, String what, long[] total) {
        if (name.startsWith(DATA)) {
            return decode(name, what, total);
        }
        Path path = Path.of(name);
        try {
            long size = Files.size(path);
            if (size > MAX_FILE || total[0] + size > MAX_TOTAL) {
                throw new IllegalArgumentException(what + " (" + name + ") is too large: " + size + " bytes (at most "
                        + MAX_FILE + " per file and " + MAX_TOTAL + " in all)");
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(path)) {
                bytes = in.readNBytes((int) size + 1);
            }
            if (bytes.length > size) {
                throw new IllegalArgumentException(what + " (" + name + ") grew while it was read");
            }
            total[0] += bytes.length;
            return bytes;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + what + " (" + name + "): "
                    + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()));
        }
    }

    /** The bytes of a {@value #DATA} name, within the same limits as a file's. */
    private static byte[] decode(String name, String what, long[] total) {
        long size = (name.length() - DATA.length()) / 4L * 3;
        if (size > MAX_FILE || total[0] + size > MAX_TOTAL) {
            throw new IllegalArgumentException(what + " (given inline) is too large: about " + size + " bytes (at most "
                    + MAX_FILE + " per file and " + MAX_TOTAL + " in all)");
        }
        byte[] bytes;
        try {
            bytes = java.util.Base64.getDecoder().decode(name.substring(DATA.length()).strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " (given inline) is not base64: " + e.getMessage());
        }
        total[0] += bytes.length;
        return bytes;
    }
}
