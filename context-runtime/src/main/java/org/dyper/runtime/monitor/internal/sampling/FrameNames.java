package org.dyper.runtime.monitor.internal.sampling;

import java.util.ArrayList;
import java.util.List;
import org.dyper.runtime.wire.Frames;

/**
 * Shows woven methods as the user wrote them. AspectJ's inlined around advice splits a method {@code m} into
 * {@code m} (the woven entry), {@code m_aroundBodyN$advice} (the advice) and {@code m_aroundBodyN} (the original
 * body): stacks keep one frame {@code m} with the body's line, and drop the advice frame. Frames of Dyper's own
 * hooks ({@code org.dyper.runtime...}) are left as they are, so their cost stays visible.
 */
public final class FrameNames {
    private FrameNames() {
    }

    /**
     * The frames for the stack views and the CPU tables: {@link #clean} and the generated classes of lambdas named
     * {@code Outer$$Lambda} (without the number and address that change from run to run).
     */
    static List<Frame> named(List<Frame> topFirst) {
        List<Frame> out = clean(topFirst);
        for (int i = 0; i < out.size(); i++) {
            Frame f = out.get(i);
            int lambda = f.className().indexOf("$$Lambda");
            if (lambda > 0 && lambda + 8 < f.className().length()) {
                out.set(i, f.renamed(f.className().substring(0, lambda + 8), f.method()));
            }
        }
        return out;
    }

    /**
     * The names of {@code topFirst}'s frames, root first, as the monitor's stack views write them ({@link #named}):
     * for a page made from frames taken elsewhere ({@code dyper report FILE.jfr}) to look like the monitor's.
     */
    public static List<String> rootFirst(List<Frame> topFirst) {
        List<Frame> named = named(topFirst);
        List<String> out = new ArrayList<>(named.size());
        for (int i = named.size() - 1; i >= 0; i--) {
            out.add(named.get(i).name());
        }
        return out;
    }

    /** The frames (top first) with AspectJ's around-advice frames folded into the user's method. */
    static List<Frame> clean(List<Frame> topFirst) {
        List<Frame> out = new ArrayList<>(topFirst.size());
        Frame renamed = null;
        for (Frame f : topFirst) {
            String m = f.method();
            if (isAdvice(m)) {
                continue;
            }
            String body = bodyOf(m);
            if (body != null) {
                Frame r = f.renamed(f.className(), body);
                out.add(r);
                renamed = r;
                continue;
            }
            if (renamed != null && renamed.className().equals(f.className()) && renamed.method().equals(m)) {
                renamed = null;
                continue;
            }
            renamed = null;
            out.add(f);
        }
        return out;
    }

    /** The user's method name for AspectJ's {@code m_aroundBodyN}, else null. */
    static String bodyOf(String method) {
        int at = method.lastIndexOf("_aroundBody");
        if (at <= 0 || at + 11 >= method.length()) {
            return null;
        }
        for (int i = at + 11; i < method.length(); i++) {
            if (!Character.isDigit(method.charAt(i))) {
                return null;
            }
        }
        return method.substring(0, at);
    }

    /** AspectJ's inlined advice method {@code m_aroundBodyN$advice}. */
    static boolean isAdvice(String method) {
        return method.endsWith("$advice") && method.contains("_aroundBody");
    }

    /** The method name as a report shows it: {@code m} for {@code m_aroundBodyN}. */
    static String method(String method) {
        String body = bodyOf(method);
        return body == null ? method : body;
    }

    /**
     * Whether a class is code Dyper puts into the program (its runtime, generated aspects, precompiled aspects) or
     * AspectJ's runtime: samples in it are what measuring costs. Dyper's sample programs are not.
     */
    public static boolean dyper(String className) {
        return className.startsWith("org.dyper.runtime.") || className.startsWith("org.dyper.generated.")
                || className.startsWith("org.dyper.aspects.") || className.startsWith("org.aspectj.");
    }

    /** A class name as Java writes it: {@code [B} is {@code byte[]}, {@code [Ljava.lang.String;} is {@code java.lang.String[]}. */
    public static String typeName(String jvm) {
        int dims = 0;
        while (dims < jvm.length() && jvm.charAt(dims) == '[') {
            dims++;
        }
        if (dims == 0) {
            return jvm;
        }
        String element = jvm.substring(dims);
        String base = switch (element) {
            case "Z" -> "boolean";
            case "B" -> "byte";
            case "C" -> "char";
            case "S" -> "short";
            case "I" -> "int";
            case "J" -> "long";
            case "F" -> "float";
            case "D" -> "double";
            default -> element.startsWith("L") && element.endsWith(";")
                    ? element.substring(1, element.length() - 1) : element;
        };
        return base + "[]".repeat(dims);
    }
}
