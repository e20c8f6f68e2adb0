package org.dyper.patch.build;

import org.dyper.patch.plan.Planner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A set of class-name patterns ({@code *} matches any run of characters) compiled once, so that testing a class costs
 * a few hash lookups however many patterns there are: exact names and patterns with one {@code *} at the start or the
 * end go into hash sets (tested by the name's prefixes or suffixes of the lengths that occur), {@code *x*} into a
 * short list, and the rest into one regular expression. A nested class matches by its binary name
 * ({@code a.Outer$Inner}) or its source name ({@code a.Outer.Inner}).
 */
final class ClassFilter {
    private final boolean empty;
    private final Set<String> exact = new HashSet<>();
    private final Set<String> prefixes = new HashSet<>();
    private final Set<Integer> prefixLengths = new TreeSet<>();
    private final Set<String> suffixes = new HashSet<>();
    private final Set<Integer> suffixLengths = new TreeSet<>();
    private final List<String> infixes = new ArrayList<>();
    private final Pattern others;

    ClassFilter(List<String> patterns) {
        empty = patterns.isEmpty();
        List<String> regexes = new ArrayList<>();
        for (String p : patterns) {
            int stars = p.length() - p.replace("*", "").length();
            if (stars == 0) {
                exact.add(p);
            } else if (p.equals("*")) {
                prefixes.add("");
                prefixLengths.add(0);
            } else if (stars == 1 && p.endsWith("*")) {
                prefixes.add(p.substring(0, p.length() - 1));
                prefixLengths.add(p.length() - 1);
            } else if (stars == 1 && p.startsWith("*")) {
                suffixes.add(p.substring(1));
                suffixLengths.add(p.length() - 1);
            } else if (stars == 2 && p.startsWith("*") && p.endsWith("*")) {
                infixes.add(p.substring(1, p.length() - 1));
            } else {
                regexes.add("(?:" + Planner.glob(p).pattern() + ")");
            }
        }
        others = regexes.isEmpty() ? null : Pattern.compile(String.join("|", regexes));
    }

    /** No patterns at all. */
    boolean isEmpty() {
        return empty;
    }

    /** Whether a pattern matches the class {@code binaryName}. */
    boolean matches(String binaryName) {
        return test(binaryName) || binaryName.indexOf('$') >= 0 && test(binaryName.replace('$', '.'));
    }

    private boolean test(String name) {
        if (exact.contains(name)) {
            return true;
        }
        for (int n : prefixLengths) {
            if (n > name.length()) {
                break;
            }
            if (prefixes.contains(name.substring(0, n))) {
                return true;
            }
        }
        for (int n : suffixLengths) {
            if (n > name.length()) {
                break;
            }
            if (suffixes.contains(name.substring(name.length() - n))) {
                return true;
            }
        }
        for (String infix : infixes) {
            if (name.contains(infix)) {
                return true;
            }
        }
        return others != null && others.matcher(name).matches();
    }
}
