package org.dyper.runtime;

import org.dyper.runtime.internal.SiteTable;

/**
 * Names of reporting sites, so reports can say {@code org.x.Bank.transfer(int,int,long)} instead of an id.
 * Generated aspects define their (non-negative) ids with a table; hand-written code registers and gets negative ids.
 */
public final class Sites {
    private Sites() {
    }

    /**
     * Defines sites from a table, one line per id, fields separated by TAB:
     * <ul>
     *   <li>{@code id METHOD className methodName parameters}: named {@code className.methodName(parameters)};</li>
     *   <li>{@code id CLASS className}: named {@code className};</li>
     *   <li>{@code id FIELD className fieldName type}: named {@code className.fieldName};</li>
     *   <li>{@code id TYPE typeName}: an array or other type, named {@code typeName} (e.g. {@code int[]});</li>
     *   <li>{@code id BLOCK className methodName parameters block line}: a basic block, named
     *       {@code className.methodName(parameters) block N (line L)} (the line part left out when empty).</li>
     * </ul>
     * Blank lines and {@code #} comments are ignored; malformed lines are
     * skipped and counted (the text report mentions them), never thrown. A null table is ignored. When an id is
     * defined again with another name, the latest definition wins (a class loader that loads a newer generation of
     * aspects renames its ids).
     */
    public static void define(String table) {
        try {
            SiteTable.define(table);
        } catch (Throwable ignored) {
            // called from a generated static initialiser: a broken table must not break the application's class
        }
    }

    /**
     * Returns the offset that generated code of {@code generation} (a name unique to one generation of aspects, such
     * as their package) adds to its ids 1..{@code count}: 0 for the first generation a JVM meets, then above every id
     * given out before, so jars woven separately never share an id; the same generation always gets the same offset.
     * Generated code calls it once, from the static initialiser of its site table class; it never throws (0 on
     * failure).
     */
    public static int base(String generation, int count) {
        try {
            return SiteTable.base(generation, count);
        } catch (Throwable ignored) {
            return 0;
        }
    }

    /** As {@link #define(String)} for a table whose ids are relative to {@code base} (see {@link #base}). */
    public static void define(int base, String table) {
        try {
            SiteTable.define(base, table);
        } catch (Throwable ignored) {
            // called from a generated static initialiser: a broken table must not break the application's class
        }
    }

    /**
     * Returns the negative id of a site, the same one for the same key, from any thread. Nulls are taken as empty.
     *
     * @param kind {@code METHOD}, {@code CLASS}, {@code FIELD} (methodName is the field name, parameters its type)
     *        or {@code TYPE} (className is the type name), any case; BLOCK sites come from {@link #define} only
     * @throws IllegalArgumentException if the parts do not name a site: an unknown kind, no class name, a METHOD
     *         or FIELD without method or field name, or a CLASS or TYPE with a method name or parameters
     */
    public static int register(String kind, String className, String methodName, String parameters) {
        return SiteTable.register(kind, className, methodName, parameters);
    }

    /** The site's name as {@link #define} describes it per kind; {@code #id} if unknown. */
    public static String name(int id) {
        return SiteTable.name(id);
    }
}
