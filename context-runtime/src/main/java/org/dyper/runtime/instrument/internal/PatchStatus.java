package org.dyper.runtime.instrument.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dyper.runtime.internal.Reports;

/**
 * The {@code <PATCHES>} element: every patch set inserted into this JVM (the active one and earlier ones), its
 * classes with their state and since when, and every site id of its site table with since when it was patched and
 * whether it still is. Format in docs/monitor.md.
 */
public final class PatchStatus {
    private PatchStatus() {}

    public static String xml(List<InsertedPatchSet> history) {
        return xml(history, "");
    }

    /** As {@link #xml(List)}, with {@code attributes} (each with its leading blank) on {@code <PATCHES>}. */
    public static String xml(List<InsertedPatchSet> history, String attributes) {
        StringBuilder x = new StringBuilder(4096);
        x.append("<PATCHES").append(attributes).append('>');
        for (InsertedPatchSet g : history) {
            generation(x, g);
        }
        return x.append("</PATCHES>").toString();
    }

    /** A class of a patch set, over its installs in every class loader: patched since when, and whether it still is. */
    private record ClassSince(long since, boolean patchedNow) {
        ClassSince and(ClassSince other) {
            return new ClassSince(Math.min(since, other.since), patchedNow || other.patchedNow);
        }
    }

    private static void generation(StringBuilder x, InsertedPatchSet g) {
        x.append("<MODEL NAME='");
        esc(x, g.set.model()).append("' ID='").append(g.set.id()).append("' ACTIVE='").append(g.active())
                .append("' SINCE='").append(g.since).append('\'');
        if (!g.active()) {
            x.append(" UNTIL='").append(g.until).append('\'');
        }
        int count = siteCount(g.set.siteTable());
        if (g.base != Integer.MIN_VALUE && count > 0) {
            x.append(" FIRSTID='").append(g.base + 1).append("' LASTID='").append(g.base + count).append('\'');
        }
        x.append('>');
        Map<String, ClassSince> byClass = new HashMap<>();
        for (InsertedPatchSet.Install i : g.installs) {
            x.append("<CLASS NAME='");
            esc(x, i.name).append("' LOADER='");
            esc(x, i.loader).append("' STATE='").append(i.state).append("' SINCE='").append(i.since).append('\'');
            if (i.until != 0) {
                x.append(" UNTIL='").append(i.until).append('\'');
            }
            x.append("/>");
            if (i.state != InsertedPatchSet.State.UNPATCHED) {
                byClass.merge(i.name, new ClassSince(i.since, i.state == InsertedPatchSet.State.PATCHED),
                        ClassSince::and);
            }
        }
        for (String name : g.pending) {
            if (!byClass.containsKey(name)) {
                x.append("<CLASS NAME='");
                esc(x, name).append("' STATE='").append(g.active() ? "PENDING" : "RESTORED").append("'/>");
            }
        }
        java.util.Set<String> patchedClasses = new java.util.HashSet<>();
        g.set.classes().stream().filter(c -> c.patched() != null).forEach(c -> patchedClasses.add(c.name()));
        for (String line : g.set.siteTable().split("\n")) {
            String[] f = line.split("\t", -1);
            if (line.isBlank() || line.startsWith("#") || f.length < 3) {
                continue;
            }
            int id;
            try {
                id = Integer.parseInt(f[0].trim());
            } catch (NumberFormatException e) {
                continue;
            }
            if (g.base == Integer.MIN_VALUE) {
                continue;  // its classes never initialised: the ids are not known (nothing ran)
            }
            id += g.base;
            // a site of a patched class is patched since that class was (never, while it waits to load); the
            // others (called methods, allocated types, fields of other classes) since the set went in
            ClassSince s = byClass.get(f[2].trim());
            boolean ownClass = patchedClasses.contains(f[2].trim());
            x.append("<SITE ID='").append(id).append("' NAME='");
            esc(x, org.dyper.runtime.Sites.name(id)).append('\'');
            if (!ownClass || s != null) {
                x.append(" SINCE='").append(ownClass ? s.since() : g.since).append('\'');
            }
            x.append(" ACTIVE='").append(g.active() && (!ownClass || s != null && s.patchedNow())).append("'/>");
        }
        for (String note : g.notes) {
            x.append("<NOTE>");
            esc(x, note).append("</NOTE>");
        }
        x.append("</MODEL>");
    }

    /** The number of ids a site table defines (its lines are relative ids 1..n). */
    public static int siteCount(String table) {
        int n = 0;
        for (String line : table.split("\n")) {
            int tab = line.indexOf('\t');
            if (tab > 0 && !line.startsWith("#") && line.substring(0, tab).trim().matches("\\d+")) {
                n++;
            }
        }
        return n;
    }

    private static StringBuilder esc(StringBuilder x, String s) {
        return Reports.escape(x, s == null ? "" : s);
    }
}
