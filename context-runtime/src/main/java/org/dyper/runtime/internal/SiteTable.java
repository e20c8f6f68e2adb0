package org.dyper.runtime.internal;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Site names by id: the generator's TAB tables ({@link #define}) and run-time registrations ({@link #register}). */
public final class SiteTable {
    private static final Map<Integer, String> NAMES = new ConcurrentHashMap<>();
    private static final Map<String, Integer> REGISTERED = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_NEGATIVE = new AtomicInteger(-1);
    private static final AtomicLong MALFORMED = new AtomicLong();
    private static final AtomicLong CONFLICTS = new AtomicLong();

    private SiteTable() {
    }

    /** Parses a site table; returns the number of malformed lines (skipped and counted, never thrown). */
    public static int define(String table) {
        if (table == null) {
            return 0;
        }
        int malformed = 0;
        int start = 0;
        int length = table.length();
        while (start <= length) {
            int end = table.indexOf('\n', start);
            if (end < 0) {
                end = length;
            }
            if (!defineLine(table.substring(start, end))) {
                malformed++;
            }
            start = end + 1;
        }
        MALFORMED.addAndGet(malformed);
        return malformed;
    }

    /** Defines one line; true when it was valid, blank or a comment. */
    static boolean defineLine(String line) {
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        if (line.isBlank() || line.startsWith("#")) {
            return true;
        }
        String[] f = line.split("\t", -1);
        if (f.length < 3 || f.length > 5) {
            return false;
        }
        int id;
        try {
            id = Integer.parseInt(f[0].trim());
        } catch (NumberFormatException e) {
            return false;
        }
        String kind = f[1].trim();
        String className = f[2].trim();
        String methodName = f.length > 3 ? f[3].trim() : "";
        String parameters = f.length > 4 ? f[4].trim() : "";
        String name = name(kind, className, methodName, parameters);
        if (name == null) {
            return false;
        }
        // the latest definition wins: a class loader that loads a newer generation of aspects renames its ids
        String previous = NAMES.put(id, name);
        if (previous != null && !previous.equals(name)) {
            CONFLICTS.incrementAndGet();
        }
        return true;
    }

    /** The display name, or null when the parts do not make a valid site. */
    static String name(String kind, String className, String methodName, String parameters) {
        if (className.isEmpty()) {
            return null;
        }
        switch (kind) {
            case "METHOD":
                return methodName.isEmpty() ? null : className + "." + methodName + "(" + parameters + ")";
            case "CLASS":
                return methodName.isEmpty() && parameters.isEmpty() ? className : null;
            default:
                return null;
        }
    }

    public static int register(String kind, String className, String methodName, String parameters) {
        String k = kind == null ? "" : kind.trim().toUpperCase(Locale.ROOT);
        String c = className == null ? "" : className.trim();
        String m = methodName == null ? "" : methodName.trim();
        String p = parameters == null ? "" : parameters.trim();
        String name = name(k, c, m, p);
        if (name == null) {
            throw new IllegalArgumentException("Invalid site for Sites.register: kind='" + kind + "', className='"
                    + className + "', methodName='" + methodName + "', parameters='" + parameters
                    + "' (kind must be METHOD with a class and method name, or CLASS with a class name only)");
        }
        return REGISTERED.computeIfAbsent(k + '\t' + c + '\t' + m + '\t' + p, key -> {
            int id = NEXT_NEGATIVE.getAndDecrement();
            NAMES.put(id, name);
            return id;
        });
    }

    public static String name(int id) {
        String name = NAMES.get(id);
        return name != null ? name : "#" + id;
    }

    /** Malformed table lines skipped since start. */
    public static long malformedLines() {
        return MALFORMED.get();
    }

    /** Table lines that tried to rename an id already defined with another name (the latest name wins). */
    public static long conflicts() {
        return CONFLICTS.get();
    }
}
