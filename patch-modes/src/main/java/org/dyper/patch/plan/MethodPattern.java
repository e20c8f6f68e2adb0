package org.dyper.patch.plan;


import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.dyper.patch.scan.MethodInfo;

/**
 * A FOR's METHOD: a name or pattern ({@code *} matches any run of characters; {@code new} or {@code <init>} for
 * constructors, which a name pattern other than {@code *} never selects), optionally followed by a parameter list that
 * picks overloads, {@code forceMerge(int,boolean)} (a Dyper extension of the seed's language). The list is matched with
 * the same {@code *} rule against the method's parameter types written with commas and no spaces, each type either
 * fully qualified ({@code java.lang.String}, nested classes with {@code $} or {@code .}) or by its simple name
 * ({@code String}); a varargs parameter may be written {@code T...} or {@code T[]}.
 */
public final class MethodPattern {
    private final String name;
    private final Pattern names;
    /** Null when METHOD gives no parameter list. */
    private final Pattern parameters;

    public MethodPattern(String method) {
        int open = method.indexOf('(');
        this.name = open < 0 ? method : method.substring(0, open).strip();
        this.names = Planner.glob(name);
        if (open < 0) {
            this.parameters = null;
        } else {
            String list = method.substring(open + 1, method.lastIndexOf(')')).replaceAll("\\s+", "")
                    .replace("...", "[]");
            this.parameters = Planner.glob(list);
        }
    }

    public boolean matches(MethodInfo m) {
        // constructors are selected by new, <init> or *, never by a name pattern such as *i*
        boolean nameMatches = m.isConstructor() ? name.equals("new") || name.equals("<init>") || name.equals("*")
                : names.matcher(m.name()).matches();
        if (!nameMatches || parameters == null) {
            return nameMatches;
        }
        List<String> binary = m.parameterTypes();
        List<String> dotted = new ArrayList<>();
        List<String> simple = new ArrayList<>();
        for (String t : binary) {
            dotted.add(t.replace('$', '.'));
            String base = t.replace("[]", "");
            int cut = Math.max(base.lastIndexOf('.'), base.lastIndexOf('$'));
            simple.add(base.substring(cut + 1) + t.substring(base.length()));
        }
        return parameters.matcher(String.join(",", binary)).matches()
                || parameters.matcher(String.join(",", dotted)).matches()
                || parameters.matcher(String.join(",", simple)).matches();
    }
}
