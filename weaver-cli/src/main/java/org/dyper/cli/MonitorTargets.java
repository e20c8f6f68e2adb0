package org.dyper.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import org.dyper.patch.plan.Planner;
import org.dyper.patch.runtime.PatchService;
import org.dyper.runtime.wire.Xml;
import org.dyper.runtime.monitor.MonitorReply;
import org.w3c.dom.Element;

/**
 * Finds the classes of a monitored process that a model may patch, through its monitor: the jars and folders of its
 * class path (CLASSMODEL), and, for loaded classes the model's FOR patterns select that are not on it (classes of a
 * child class loader), their class files as the JVM's loaders read them (CLASSMODEL BINARY), written to a folder.
 */
public final class MonitorTargets {
    private MonitorTargets() {}

    /** One command to the monitor and its reply: a socket connection's, or one sent through a broker. */
    @FunctionalInterface
    public interface Requests {
        String command(String command, String data) throws IOException;
    }

    /**
     * The classes a model may patch, how many class files were fetched from the JVM, and whether any entry of its
     * class path exists on this machine (when none does, the classes are only those fetched: the loaded ones the
     * patterns select).
     */
    record Found(PatchService.TargetClasses targets, int fetched, boolean classPathHere) {}

    static Found fetch(Requests c, List<String> classPatterns, Path extraDir) throws IOException {
        List<Pattern> patterns = classPatterns.stream().map(Planner::glob).toList();
        Element model = classModel(c, prefix(classPatterns));
        List<Path> roots = roots(c, model);
        boolean here = !roots.isEmpty();
        List<String> missing = new ArrayList<>();
        try (OnClassPath onPath = new OnClassPath(roots)) {
            for (Element cls : Xml.children(model, "CLASS")) {
                String name = cls.getAttribute("NAME");
                if (selected(name, patterns) && !onPath.has(name)) {
                    missing.add(name);
                }
            }
        }
        int fetched = 0;
        for (String name : missing) {
            Element binary = Xml.child(reply(c.command("CLASSMODEL", "<OPTIONS BINARY='true' PREFIX='"
                    + org.dyper.runtime.monitor.MonitorReply.escape(name) + "'/>"), "CLASSMODEL"), "CLASSMODEL");
            for (Element cls : Xml.children(binary, "CLASS")) {
                Element data = Xml.child(cls, "BINARY");
                if (cls.getAttribute("NAME").equals(name) && data != null) {
                    Path file = extraDir.resolve(name.replace('.', '/') + ".class");
                    Files.createDirectories(file.getParent());
                    Files.write(file, Base64.getDecoder().decode(text(data).trim()));
                    fetched++;
                }
            }
        }
        if (fetched > 0) {
            roots.add(extraDir);
        }
        return new Found(new PatchService.TargetClasses(roots), fetched, here);
    }

    /**
     * The jars and folders of the process's class path that exist on this machine (relative entries resolved against
     * its working folder), asking CLASSMODEL to list only the classes under {@code prefix} (see {@link #prefix}).
     */
    static List<Path> classPath(Requests c, String prefix) throws IOException {
        return roots(c, classModel(c, prefix));
    }

    private static List<Path> roots(Requests c, Element model) throws IOException {
        List<Path> roots = new ArrayList<>();
        String userDir = null;
        for (String entry : text(Xml.child(model, "CLASSPATH")).split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path p = Path.of(entry);
            if (!p.isAbsolute()) {
                if (userDir == null) {
                    userDir = userDir(c);
                }
                p = Path.of(userDir).resolve(p);
            }
            if (Files.exists(p)) {
                roots.add(p.normalize());
            }
        }
        return roots;
    }

    private static Element classModel(Requests c, String prefix) throws IOException {
        return Xml.child(reply(c.command("CLASSMODEL", prefix.isEmpty() ? null : "<OPTIONS PREFIX='"
                + org.dyper.runtime.monitor.MonitorReply.escape(prefix) + "'/>"), "CLASSMODEL"), "CLASSMODEL");
    }

    /**
     * A prefix of the binary name of every class the patterns may select, so that CLASSMODEL lists only those (a big
     * program has tens of thousands of classes): the patterns' common start up to their first wildcard, cut before
     * the first segment that starts with a capital (a class name: what follows may be a nested class, {@code $} in
     * the binary name) and, without one, after the first segment (every later dot may be a nested class's).
     * Empty when the patterns have no such start: then CLASSMODEL lists every class. The list only serves to find
     * loaded classes that are not on the class path (a plug-in loader's); a package whose name starts with a capital
     * letter only makes the prefix shorter, a class whose name starts with a small letter and holds nested classes
     * the pattern names with dots would be missed there.
     */
    static String prefix(List<String> classPatterns) {
        String common = null;
        for (String p : classPatterns) {
            int wild = 0;
            while (wild < p.length() && p.charAt(wild) != '*') {
                wild++;
            }
            String literal = p.substring(0, wild);
            int cut = literal.indexOf('$');
            for (int dot = literal.indexOf('.'); dot >= 0; dot = literal.indexOf('.', dot + 1)) {
                if (dot + 1 < literal.length() && Character.isUpperCase(literal.charAt(dot + 1))) {
                    cut = cut < 0 ? dot : Math.min(cut, dot);
                    break;
                }
            }
            if (cut < 0) {
                cut = literal.indexOf('.') < 0 ? 0 : literal.indexOf('.');
            }
            literal = literal.substring(0, cut);
            if (common == null) {
                common = literal;
            } else {
                int n = 0;
                while (n < common.length() && n < literal.length() && common.charAt(n) == literal.charAt(n)) {
                    n++;
                }
                common = common.substring(0, n);
            }
        }
        return common == null ? "" : common;
    }

    private static boolean selected(String name, List<Pattern> patterns) {
        if (!PatchService.mayPatch(name) || name.startsWith("java.") || name.startsWith("jdk.")
                || name.startsWith("sun.")) {
            return false;
        }
        String source = name.replace('$', '.');
        return patterns.stream().anyMatch(p -> p.matcher(name).matches() || p.matcher(source).matches());
    }

    private static String userDir(Requests c) throws IOException {
        for (Element p : Xml.children(reply(c.command("WHORU", null), "WHORU"), "PROPERTY")) {
            if (p.getAttribute("KEY").equals("user.dir")) {
                return text(p);
            }
        }
        return ".";
    }

    /** Which classes the class path's jars and folders hold. */
    private static final class OnClassPath implements AutoCloseable {
        private final List<Path> dirs = new ArrayList<>();
        private final List<JarFile> jars = new ArrayList<>();

        OnClassPath(List<Path> roots) {
            for (Path r : roots) {
                if (Files.isDirectory(r)) {
                    dirs.add(r);
                } else {
                    try {
                        jars.add(new JarFile(r.toFile()));
                    } catch (IOException e) {
                        // not a jar: holds no class
                    }
                }
            }
        }

        boolean has(String name) {
            String entry = name.replace('.', '/') + ".class";
            return dirs.stream().anyMatch(d -> Files.isRegularFile(d.resolve(entry)))
                    || jars.stream().anyMatch(j -> j.getEntry(entry) != null);
        }

        @Override
        public void close() {
            for (JarFile j : jars) {
                try {
                    j.close();
                } catch (IOException ignored) {
                    // read only
                }
            }
        }
    }

    /** The reply's root; an ERROR in it is a failure naming the command. */
    static Element reply(String xml, String command) throws IOException {
        Reply reply = Reply.of(xml, "to " + command);
        if (reply.error() != null) {
            throw new IOException(command + ": " + reply.error());
        }
        return reply.root();
    }

    private static String text(Element e) {
        return e == null ? "" : e.getTextContent();
    }
}
