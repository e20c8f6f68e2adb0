package org.dyper.patch.xml;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.dyper.patch.model.Location;
import org.dyper.patch.model.Problem;
import org.dyper.patch.model.Signature;

/**
 * Parses the SIGNATURE attribute of a CODE element. Three spellings are accepted:
 * <ul>
 *   <li>Java style, parameters only: {@code (int, java.lang.Object, long[])} (return type unknown);</li>
 *   <li>Java style with a return type: {@code long (int)} or {@code void(int,long)};</li>
 *   <li>a JVM method descriptor, without spaces: {@code (ILjava/lang/Object;[J)V}.</li>
 * </ul>
 * In Java style, primitive types and the common {@code java.lang} types ({@code Object}, {@code String},
 * {@code Thread}, ...) may be written without a package; every other class must be fully qualified.
 * The result always uses Java source names: {@code int}, {@code java.lang.Object}, {@code long[]}.
 */
public final class Signatures {
    private static final Set<String> JAVA_LANG = Set.of(
            "Object", "String", "Thread", "Class", "ClassLoader", "Integer", "Long", "Short", "Byte", "Character",
            "Boolean", "Float", "Double", "Number", "Void", "CharSequence", "StringBuilder", "StringBuffer",
            "Throwable", "Exception", "RuntimeException", "Error", "Runnable", "Iterable", "Comparable", "Enum",
            "Record", "AutoCloseable", "Cloneable", "StackTraceElement", "ThreadGroup", "ThreadLocal", "Process",
            "Runtime", "System", "Math", "Module", "Package");

    private Signatures() {}

    /**
     * Parses {@code text}; on failure adds one problem for element {@code CODE} at {@code at} and returns null.
     */
    public static Signature parse(String text, Location at, List<Problem> problems) {
        return parse(text, at, "CODE", problems);
    }

    /** As {@link #parse(String, Location, List)}, naming {@code element} in the problem. */
    public static Signature parse(String text, Location at, String element, List<Problem> problems) {
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            problems.add(Problem.error(at, element, "SIGNATURE='" + text + "' is not valid: " + e.getMessage()));
            return null;
        }
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException with a message saying what is wrong, when {@code text} is not a signature
     */
    public static Signature parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("it is empty");
        }
        String t = text.strip();
        int open = t.indexOf('(');
        int close = t.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException(
                    "expected Java style '(int,java.lang.Object)' or a JVM descriptor such as '(ILjava/lang/Object;)V'");
        }
        if (open == 0 && close < t.length() - 1 && t.chars().noneMatch(Character::isWhitespace)) {
            return descriptor(t);
        }
        if (close != t.length() - 1) {
            throw new IllegalArgumentException(
                    "unexpected text after ')' (in Java style the return type goes first, e.g. 'long (int)')");
        }
        String inside = t.substring(open + 1, close);
        if (inside.indexOf('(') >= 0 || inside.indexOf(')') >= 0) {
            throw new IllegalArgumentException("unbalanced parentheses");
        }
        List<String> parameters = new ArrayList<>();
        if (!inside.isBlank()) {
            String[] parts = inside.split(",", -1);
            for (int i = 0; i < parts.length; i++) {
                if (parts[i].isBlank()) {
                    throw new IllegalArgumentException("parameter " + (i + 1) + " is empty");
                }
                try {
                    parameters.add(javaType(parts[i], false));
                } catch (IllegalArgumentException e) {
                    if (open == 0 && t.matches("\\((\\[*([BCDFIJSZ]|L[^;]+;))*\\)")) {
                        throw new IllegalArgumentException(
                                e.getMessage() + " (a JVM descriptor needs a return type, e.g. '(I)V')");
                    }
                    throw e;
                }
            }
        }
        String prefix = t.substring(0, open).strip();
        String returnType = prefix.isEmpty() ? null : javaType(prefix, true);
        return new Signature(parameters, returnType, t);
    }

    private static String javaType(String written, boolean allowVoid) {
        String s = written.strip().replaceAll("\\s*\\[\\s*", "[").replaceAll("\\s*]", "]");
        if (s.indexOf('<') >= 0 || s.indexOf('>') >= 0) {
            throw new IllegalArgumentException("'" + s + "' is generic; write the erased type, e.g. 'java.util.List'");
        }
        if (s.endsWith("...")) {
            throw new IllegalArgumentException("'" + s + "' uses varargs; write an array type, e.g. 'int[]'");
        }
        int dims = 0;
        String base = s;
        while (base.endsWith("[]")) {
            base = base.substring(0, base.length() - 2);
            dims++;
        }
        String brackets = "[]".repeat(dims);
        if (base.indexOf('[') >= 0 || base.indexOf(']') >= 0) {
            throw new IllegalArgumentException("'" + s + "' is not a valid array type");
        }
        if (base.indexOf('/') >= 0) {
            throw new IllegalArgumentException("'" + s + "' uses '/'; Java-style signatures separate packages with '.'");
        }
        if (base.equals("void")) {
            if (allowVoid && dims == 0) {
                return "void";
            }
            throw new IllegalArgumentException("'" + s + "' is not a parameter type");
        }
        if (Names.PRIMITIVES.contains(base)) {
            return base + brackets;
        }
        if (base.indexOf('.') >= 0) {
            if (!Names.isClassName(base)) {
                throw new IllegalArgumentException("'" + s + "' is not a Java type name");
            }
            return base + brackets;
        }
        if (!Names.isIdentifier(base)) {
            throw new IllegalArgumentException("'" + s + "' is not a Java type name");
        }
        if (JAVA_LANG.contains(base)) {
            return "java.lang." + base + brackets;
        }
        throw new IllegalArgumentException("type '" + s
                + "' must be fully qualified; only primitive types and java.lang types may be written without a package");
    }

    private static Signature descriptor(String t) {
        List<String> parameters = new ArrayList<>();
        int[] pos = {1};
        while (pos[0] < t.length() && t.charAt(pos[0]) != ')') {
            parameters.add(fieldType(t, pos, "B C D F I J S Z L [ or )"));
        }
        pos[0]++; // ')'
        String returnType;
        if (pos[0] < t.length() && t.charAt(pos[0]) == 'V') {
            returnType = "void";
            pos[0]++;
        } else {
            returnType = fieldType(t, pos, "V B C D F I J S Z L [");
        }
        if (pos[0] != t.length()) {
            throw new IllegalArgumentException("unexpected '" + t.substring(pos[0]) + "' after the return type of the JVM descriptor");
        }
        return new Signature(parameters, returnType, t);
    }

    /** Reads one JVM field type at {@code pos[0]}, advancing it. */
    private static String fieldType(String t, int[] pos, String expected) {
        int start = pos[0];
        int dims = 0;
        while (pos[0] < t.length() && t.charAt(pos[0]) == '[') {
            dims++;
            pos[0]++;
        }
        if (pos[0] >= t.length()) {
            throw new IllegalArgumentException("JVM descriptor ends inside a type");
        }
        char c = t.charAt(pos[0]++);
        String base = switch (c) {
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'D' -> "double";
            case 'F' -> "float";
            case 'I' -> "int";
            case 'J' -> "long";
            case 'S' -> "short";
            case 'Z' -> "boolean";
            case 'L' -> {
                int semi = t.indexOf(';', pos[0]);
                if (semi < 0) {
                    throw new IllegalArgumentException("missing ';' after class name at position " + start + " of the JVM descriptor");
                }
                String internal = t.substring(pos[0], semi);
                pos[0] = semi + 1;
                String name = internal.replace('/', '.');
                if (internal.indexOf('.') >= 0 || !Names.isClassName(name)) {
                    throw new IllegalArgumentException("'L" + internal + ";' is not a class in a JVM descriptor (write packages with '/', e.g. 'Ljava/lang/Object;')");
                }
                yield name;
            }
            default -> throw new IllegalArgumentException("unexpected '" + c + "' at position " + (pos[0] - 1)
                    + " of the JVM descriptor (expected one of " + (dims == 0 ? expected : "B C D F I J S Z L [") + ")");
        };
        return base + "[]".repeat(dims);
    }
}
