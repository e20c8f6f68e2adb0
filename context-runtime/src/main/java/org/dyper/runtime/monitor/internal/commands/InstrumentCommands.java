package org.dyper.runtime.monitor.internal.commands;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dyper.runtime.instrument.ClassPatch;
import org.dyper.runtime.instrument.PatchRefused;
import org.dyper.runtime.instrument.PatchSet;
import org.dyper.runtime.instrument.RuntimePatcher;
import org.w3c.dom.Element;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.monitor.internal.detailing.Detailer;
import org.dyper.runtime.wire.Xml;

/**
 * The monitor's INSTRUMENT and INSTRUMENTED commands, a front end to {@link RuntimePatcher}:
 * {@code <MODEL NAME INSERT ID SITES><PATCH CLASS ORIG PATCH/>...<ASPECT NAME FILE/>...<RUNTIME JAR/>
 * </MODEL>} inserts (the lines a DYPATCH PATCH reply lists; files on this machine), {@code INSERT='FALSE'} removes,
 * and INSTRUMENTED lists what is patched. Formats in docs/monitor.md.
 */
public final class InstrumentCommands {
    /** The largest class file INSTRUMENT reads. */
    static final long MAX_CLASS_FILE = 16L << 20;
    /** The most bytes one INSTRUMENT reads in all. */
    static final long MAX_TOTAL = 256L << 20;

    private final Monitor m;

    InstrumentCommands(Monitor m) {
        this.m = m;
    }

    private static RuntimePatcher patcher(String command) {
        RuntimePatcher p = RuntimePatcher.get();
        if (p == null) {
            throw new IllegalArgumentException(command + ": this JVM's monitor has no Instrumentation (it was not "
                    + "started as a javaagent), so it cannot patch classes");
        }
        return p;
    }

    String instrument(Element data) {
        if (data == null || !data.getTagName().equals("MODEL")) {
            throw new IllegalArgumentException("INSTRUMENT expects <MODEL NAME INSERT>"
                    + (data == null ? "" : ", not <" + data.getTagName() + ">"));
        }
        String name = Xml.attr(data, "NAME");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("INSTRUMENT: <MODEL> needs a NAME");
        }
        String insertText = Xml.attr(data, "INSERT");
        Boolean insert = insertText == null ? Boolean.TRUE : Xml.flag(insertText);
        if (insert == null) {
            throw new IllegalArgumentException("INSTRUMENT: INSERT is a flag (true/false, t/f, 1/0), not '"
                    + insertText + "'");
        }
        RuntimePatcher patcher = patcher("INSTRUMENT");
        try {
            if (!insert) {
                RuntimePatcher.Removed r = patcher.remove(name.trim());
                return m.reply("<PATCH TIME='" + millis(r.nanos()) + "' NANOS='" + r.nanos() + "' MODEL='"
                        + Xml.esc(r.model()) + "' CLASSES='" + r.classes() + "'/>");
            }
            PatchSet set = read(name.trim(), data);
            RuntimePatcher.Inserted i;
            synchronized (m.detailer.patching) {
                if (!set.model().equals(Detailer.MODEL)) {
                    m.detailer.stepAside();
                }
                i = patcher.insert(set);
            }
            StringBuilder x = new StringBuilder("<PATCH TIME='").append(millis(i.nanos())).append("' NANOS='")
                    .append(i.nanos()).append("' REDEFINE_NANOS='").append(i.redefineNanos()).append("' MODEL='")
                    .append(Xml.esc(set.model())).append("' ID='").append(set.id()).append("' CLASSES='")
                    .append(i.classes()).append("' PENDING='").append(i.pending()).append("' RESTORED='")
                    .append(i.restored()).append('\'');
            if (i.firstSiteId() <= i.lastSiteId()) {
                x.append(" FIRSTID='").append(i.firstSiteId()).append("' LASTID='").append(i.lastSiteId()).append('\'');
            }
            x.append('>');
            for (String note : i.notes()) {
                x.append("<NOTE>").append(Xml.text(note)).append("</NOTE>");
            }
            return m.reply(x.append("</PATCH>").toString());
        } catch (PatchRefused e) {
            throw new IllegalArgumentException("INSTRUMENT refused, nothing changed: " + e.getMessage());
        }
    }

    String instrumented() {
        return m.reply(patcher("INSTRUMENTED").statusXml());
    }

    /** The PATCHES section of a report, or nothing when this JVM cannot patch. */
    public static String reportSection() {
        RuntimePatcher p = RuntimePatcher.get();
        return p == null ? "" : p.statusXml();
    }

    private static long millis(long nanos) {
        return (nanos + 500_000) / 1_000_000;
    }

    /** The patch set the MODEL element describes, its files read (bounded). */
    private static PatchSet read(String model, Element data) {
        long[] total = {0};
        List<ClassPatch> classes = new ArrayList<>();
        Map<String, byte[]> aspects = new LinkedHashMap<>();
        List<Path> jars = new ArrayList<>();
        String id = Xml.attr(data, "ID");
        for (Element e : Xml.children(data)) {
            switch (e.getTagName()) {
                case "PATCH" -> {
                    String cls = required(e, "CLASS");
                    String orig = Xml.attr(e, "ORIG");
                    if (orig == null) {
                        throw new IllegalArgumentException("INSTRUMENT: <PATCH CLASS='" + cls + "'> needs ORIG, the "
                                + "class file the patch was made for");
                    }
                    String patch = Xml.attr(e, "PATCH");
                    classes.add(new ClassPatch(cls, file(orig, "ORIG of " + cls, total),
                            patch == null ? null : file(patch, "PATCH of " + cls, total)));
                }
                case "ASPECT" -> {
                    String aspect = required(e, "NAME").replace('.', '/');
                    aspects.put(aspect, file(required(e, "FILE"), "aspect " + aspect.replace('/', '.'), total));
                    if (id == null && aspect.startsWith("org/dyper/generated/r")) {
                        id = aspect.substring("org/dyper/generated/r".length(), aspect.lastIndexOf('/'));
                    }
                }
                case "RUNTIME" -> jars.add(Path.of(required(e, "JAR")));
                default -> throw new IllegalArgumentException("INSTRUMENT: <MODEL> may hold <PATCH>, <ASPECT> and "
                        + "<RUNTIME>, not <" + e.getTagName() + ">");
            }
        }
        boolean patches = classes.stream().anyMatch(c -> c.patched() != null);
        if (patches && aspects.isEmpty()) {
            throw new IllegalArgumentException("INSTRUMENT: the patched classes call generated aspects: list them with "
                    + "<ASPECT NAME FILE/> as the DYPATCH PATCH reply does");
        }
        if (id == null) {
            throw new IllegalArgumentException("INSTRUMENT: <MODEL> needs the ID of its patch (the DYPATCH PATCH "
                    + "reply's ID)");
        }
        String sites = Xml.attr(data, "SITES");
        String table = sites == null ? "" : new String(file(sites, "the site table", total),
                java.nio.charset.StandardCharsets.UTF_8);
        try {
            return new PatchSet(model, id, table, classes, aspects, jars);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("INSTRUMENT: " + e.getMessage());
        }
    }

    private static String required(Element e, String attribute) {
        String v = Xml.attr(e, attribute);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("INSTRUMENT: <" + e.getTagName() + "> needs " + attribute);
        }
        return v.trim();
    }

    public static byte[] file(String name, String what, long[] total) {
        Path path = Path.of(name);
        try {
            long size = Files.size(path);
            if (size > MAX_CLASS_FILE || total[0] + size > MAX_TOTAL) {
                throw new IllegalArgumentException("INSTRUMENT: " + what + " (" + name + ") is too large: " + size
                        + " bytes (at most " + MAX_CLASS_FILE + " per file and " + MAX_TOTAL + " in all)");
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(path)) {
                bytes = in.readNBytes((int) size + 1);
            }
            if (bytes.length > size) {
                throw new IllegalArgumentException("INSTRUMENT: " + what + " (" + name + ") grew while it was read");
            }
            total[0] += bytes.length;
            return bytes;
        } catch (IOException e) {
            throw new IllegalArgumentException("INSTRUMENT: cannot read " + what + " (" + name + "): "
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
        }
    }
}
