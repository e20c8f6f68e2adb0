package org.dyper.patch.xml;

import java.util.Set;

/** The lexical rules for names in Dyper XML: Java identifiers, binary class names, patterns and numbers. */
final class Names {
    static final Set<String> PRIMITIVES = Set.of("boolean", "byte", "char", "short", "int", "long", "float", "double");

    private static final Set<String> KEYWORDS = Set.of(
            "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
            "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
            "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
            "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
            "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null", "_");

    private Names() {}

    /** A Java identifier that is not a keyword or literal. */
    static boolean isIdentifier(String s) {
        if (s == null || s.isEmpty() || KEYWORDS.contains(s) || !Character.isJavaIdentifierStart(s.codePointAt(0))) {
            return false;
        }
        return s.codePoints().skip(1).allMatch(Character::isJavaIdentifierPart);
    }

    /** A binary class name such as {@code org.x.Outer$Inner}: identifiers separated by dots. */
    static boolean isClassName(String s) {
        if (s == null || s.isEmpty() || s.startsWith(".") || s.endsWith(".")) {
            return false;
        }
        for (String part : s.split("\\.", -1)) {
            if (!isIdentifier(part)) {
                return false;
            }
        }
        return true;
    }

    /** A class name where {@code *} may stand for any run of characters, e.g. {@code org.x.*} or {@code *Service}. */
    static boolean isClassPattern(String s) {
        if (s == null || s.isEmpty() || s.startsWith(".") || s.endsWith(".")) {
            return false;
        }
        for (String part : s.split("\\.", -1)) {
            if (!isNamePattern(part)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A type as WHEN CASE='CLASS' may name an allocated one: a class name or pattern, or an array type written as in
     * Java ({@code java.lang.String[][]}, {@code int[]}, {@code *[][]}).
     */
    static boolean isTypePattern(String s) {
        if (s == null) {
            return false;
        }
        String base = s.replaceAll("(\\[\\])+$", "");
        return isClassPattern(base) || base.length() < s.length() && PRIMITIVES.contains(base);
    }

    /** One identifier where {@code *} may stand for any run of characters. */
    static boolean isNamePattern(String s) {
        if (s == null || s.isEmpty()) {
            return false;
        }
        if (!s.contains("*")) {
            return isIdentifier(s);
        }
        int first = s.codePointAt(0);
        if (first != '*' && !Character.isJavaIdentifierStart(first)) {
            return false;
        }
        return s.codePoints().allMatch(c -> c == '*' || Character.isJavaIdentifierPart(c));
    }

    /**
     * A method name as the model may give it: an identifier, {@code new} or {@code <init>} (written
     * {@code &lt;init>} in XML) for constructors, or a pattern; optionally followed by a parameter list
     * ({@code put(java.lang.String,int)}, {@code put(String,*)}).
     */
    static boolean isMethodPattern(String s) {
        if (s == null) {
            return false;
        }
        int open = s.indexOf('(');
        if (open >= 0) {
            return s.endsWith(")") && isMethodPattern(s.substring(0, open).strip())
                    && isParameterList(s.substring(open + 1, s.length() - 1));
        }
        return "<init>".equals(s) || "new".equals(s) || isNamePattern(s);
    }

    /**
     * A parameter list as METHOD may give one: empty, or types separated by commas, each a class name or pattern or a
     * primitive, with {@code []} or a final {@code ...}; {@code *} alone matches any run of parameters.
     */
    static boolean isParameterList(String s) {
        String list = s.strip();
        if (list.isEmpty()) {
            return true;
        }
        String[] types = list.split(",", -1);
        for (int i = 0; i < types.length; i++) {
            String t = types[i].strip();
            if (i == types.length - 1 && t.endsWith("...")) {
                t = t.substring(0, t.length() - 3) + "[]";
            }
            String base = t.replaceAll("(\\[\\])+$", "");
            if (!isClassPattern(base.replace('$', '_')) && !PRIMITIVES.contains(base)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A method as a WHEN may name it: a method name or pattern (or {@code <init>}), optionally qualified by a class
     * name or pattern, e.g. {@code org.x.*.get*} or {@code *.<init>}.
     */
    static boolean isQualifiedMethodPattern(String s) {
        if (s == null) {
            return false;
        }
        if (s.equals("<init>")) {
            return true;
        }
        if (s.endsWith(".<init>")) {
            return isClassPattern(s.substring(0, s.length() - ".<init>".length()));
        }
        return isClassPattern(s);
    }

    /** A mode or model name: a letter or {@code _} followed by letters, digits, {@code _ - .}. */
    static boolean isModeName(String s) {
        return s != null && s.matches("[A-Za-z_][A-Za-z0-9_.\\-]*");
    }

    /** A Java {@code int} written in decimal, with an optional sign. */
    static boolean isInt(String s) {
        if (s == null || !s.matches("[+-]?[0-9]+")) {
            return false;
        }
        try {
            Integer.parseInt(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A decimal number, at least {@code min}, that fits in an int. */
    static boolean isIntAtLeast(String s, int min) {
        return s != null && s.matches("[0-9]+") && isInt(s) && Integer.parseInt(s) >= min;
    }
}
