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
     * Defines sites from a table, one line per id: {@code id TAB KIND TAB className TAB methodName TAB parameters},
     * KIND {@code METHOD} or {@code CLASS}. Blank lines and {@code #} comments are ignored; malformed lines are
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
     * Returns the negative id of a site, the same one for the same key, from any thread. Nulls are taken as empty.
     *
     * @param kind {@code METHOD} or {@code CLASS} (any case)
     * @throws IllegalArgumentException if the parts do not name a site: an unknown kind, no class name, a METHOD
     *         without method name, or a CLASS with a method name or parameters
     */
    public static int register(String kind, String className, String methodName, String parameters) {
        return SiteTable.register(kind, className, methodName, parameters);
    }

    /** {@code className.methodName(parameters)} for a METHOD, {@code className} for a CLASS, {@code #id} if unknown. */
    public static String name(int id) {
        return SiteTable.name(id);
    }
}
