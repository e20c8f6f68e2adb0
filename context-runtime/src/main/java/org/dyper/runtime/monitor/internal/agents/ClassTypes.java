package org.dyper.runtime.monitor.internal.agents;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.dyper.runtime.wire.Xml;

/**
 * Which classes are SYSTEM (not attributed directly), IO (time in them is I/O time), both, or NORMAL: package
 * prefixes and exact class names, the most specific match wins. Lookups are cached per class name.
 */
public final class ClassTypes {
    public enum Type {
        NORMAL, SYSTEM, IO, SYSTEM_IO;

        boolean system() {
            return this == SYSTEM || this == SYSTEM_IO;
        }

        boolean io() {
            return this == IO || this == SYSTEM_IO;
        }

        public static Type parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("unknown class TYPE '" + s + "' (NORMAL, SYSTEM, IO, SYSTEM_IO)");
            }
        }
    }

    private final TreeMap<String, Type> packages = new TreeMap<>();
    private final TreeMap<String, Type> classes = new TreeMap<>();
    private final Map<String, Type> cache = new ConcurrentHashMap<>();

    public ClassTypes() {
        for (String p : new String[] {"java.", "javax.", "sun.", "jdk.", "com.sun.", "org.aspectj."}) {
            packages.put(p, Type.SYSTEM);
        }
        for (String p : new String[] {"java.io.", "java.nio.", "sun.nio."}) {
            packages.put(p, Type.SYSTEM_IO);
        }
    }

    public Type type(String className) {
        Type t = cache.get(className);
        if (t == null) {
            t = compute(className);
            if (cache.size() > 100_000) {
                cache.clear();
            }
            cache.put(className, t);
        }
        return t;
    }

    public boolean system(String className) {
        return type(className).system();
    }

    public boolean io(String className) {
        return type(className).io();
    }

    private synchronized Type compute(String className) {
        Type exact = classes.get(className);
        if (exact != null) {
            return exact;
        }
        Type best = Type.NORMAL;
        int bestLength = -1;
        for (Map.Entry<String, Type> e : packages.entrySet()) {
            String p = e.getKey();
            if (className.startsWith(p) && p.length() > bestLength) {
                best = e.getValue();
                bestLength = p.length();
            }
        }
        return best;
    }

    /** CLEAR / CLEARIO / CLEARSYSTEM: drops all settings, or those of one kind. */
    public synchronized void clear(boolean all, boolean io, boolean system) {
        if (all) {
            packages.clear();
            classes.clear();
        } else {
            if (io) {
                packages.values().removeIf(Type::io);
                classes.values().removeIf(Type::io);
            }
            if (system) {
                packages.values().removeIf(Type::system);
                classes.values().removeIf(Type::system);
            }
        }
        cache.clear();
    }

    /** A package setting; it removes class settings it covers. {@code name} is a prefix such as {@code com.acme.}. */
    public synchronized void setPackage(String name, Type type) {
        packages.put(name, type);
        classes.keySet().removeIf(c -> c.startsWith(name));
        cache.clear();
    }

    public synchronized void setClass(String name, Type type) {
        classes.put(name, type);
        cache.clear();
    }

    /** The settings as {@code <CLASSES>}, filtered by type and name prefix (either may be null). */
    public synchronized String xml(Type only, String prefix) {
        StringBuilder x = new StringBuilder("<CLASSES>");
        List<Map.Entry<String, Type>> all = new ArrayList<>(packages.entrySet());
        for (Map.Entry<String, Type> e : all) {
            if ((only == null || e.getValue() == only) && (prefix == null || e.getKey().startsWith(prefix))) {
                x.append("<PACKAGE NAME='").append(Xml.esc(e.getKey())).append("' TYPE='").append(e.getValue())
                        .append("'/>");
            }
        }
        for (Map.Entry<String, Type> e : classes.entrySet()) {
            if ((only == null || e.getValue() == only) && (prefix == null || e.getKey().startsWith(prefix))) {
                x.append("<CLASS NAME='").append(Xml.esc(e.getKey())).append("' TYPE='").append(e.getValue())
                        .append("'/>");
            }
        }
        return x.append("</CLASSES>").toString();
    }
}
