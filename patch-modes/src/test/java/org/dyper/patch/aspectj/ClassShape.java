package org.dyper.patch.aspectj;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * What reflection sees of a class, one line per fact, sorted: its modifiers (as declared, and whether the JVM lets
 * code elsewhere reach it), nesting (enclosing class, method or constructor, declared classes, anonymous, local,
 * member), supertypes with type arguments, annotations, and every declared field, method and constructor with its
 * modifiers, generic signature, annotations, parameter annotations and exceptions. Weaving may add only the
 * synthetic members it needs: {@link #withoutWeaving} drops those (AspectJ's {@code ajc$...} and around-advice
 * {@code ..._aroundBody...} methods) before comparing.
 */
final class ClassShape {
    private ClassShape() {}

    static List<String> of(Class<?> c) {
        TreeSet<String> lines = new TreeSet<>();
        String n = c.getName();
        lines.add(n + " modifiers " + Modifier.toString(c.getModifiers()) + " synthetic=" + c.isSynthetic());
        lines.add(n + " reachable from everywhere=" + reachable(c));
        lines.add(n + " nesting anonymous=" + c.isAnonymousClass() + " local=" + c.isLocalClass() + " member="
                + c.isMemberClass() + " simple=" + c.getSimpleName() + " enclosingClass=" + name(c.getEnclosingClass())
                + " declaringClass=" + name(c.getDeclaringClass()) + " enclosingMethod=" + c.getEnclosingMethod()
                + " enclosingConstructor=" + c.getEnclosingConstructor() + " nestHost=" + name(c.getNestHost()));
        for (Class<?> d : c.getDeclaredClasses()) {
            lines.add(n + " declares class " + d.getName());
        }
        lines.add(n + " extends " + c.getGenericSuperclass());
        for (java.lang.reflect.Type i : c.getGenericInterfaces()) {
            lines.add(n + " implements " + i.getTypeName());
        }
        for (java.lang.annotation.Annotation a : c.getDeclaredAnnotations()) {
            lines.add(n + " annotated " + a);
        }
        lines.add(n + " typeParameters " + Arrays.toString(c.getTypeParameters()));
        for (Field f : c.getDeclaredFields()) {
            lines.add(n + " field " + Modifier.toString(f.getModifiers()) + " " + f.getGenericType().getTypeName() + " "
                    + f.getName() + " synthetic=" + f.isSynthetic() + annotations(f.getDeclaredAnnotations()));
        }
        for (Method m : c.getDeclaredMethods()) {
            lines.add(n + " method " + m.toGenericString() + " synthetic=" + m.isSynthetic() + " bridge="
                    + m.isBridge() + " varargs=" + m.isVarArgs() + annotations(m.getDeclaredAnnotations())
                    + parameters(m));
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            lines.add(n + " constructor " + k.toGenericString() + " synthetic=" + k.isSynthetic() + " varargs="
                    + k.isVarArgs() + annotations(k.getDeclaredAnnotations()) + parameters(k));
        }
        return new ArrayList<>(lines);
    }

    /**
     * How {@code woven} differs from {@code plain} beyond the members only weaving adds (synthetic, named by AspectJ):
     * {@code "- line"} for what weaving lost, {@code "+ line"} for what it added; empty when they agree. With
     * {@code sync} (the model patches SYNC_*), a synchronized method may have lost its {@code synchronized} modifier:
     * AspectJ then takes its monitor with explicit instructions, so that they are join points.
     */
    static List<String> differences(List<String> plain, List<String> woven, boolean sync) {
        List<String> added = new ArrayList<>();
        for (String line : woven) {
            boolean weaving = line.contains(" synthetic=true") && (line.contains("ajc$") || line.contains("_aroundBody"));
            if (!plain.contains(line) && !weaving) {
                added.add(line);
            }
        }
        List<String> lost = new ArrayList<>();
        for (String line : plain) {
            if (!woven.contains(line)) {
                String unsynchronized = line.replaceFirst(" synchronized ", " ");
                if (sync && line.contains(" method ") && added.remove(unsynchronized)) {
                    continue;
                }
                lost.add(line);
            }
        }
        List<String> all = new ArrayList<>();
        lost.forEach(l -> all.add("- " + l));
        added.forEach(l -> all.add("+ " + l));
        return all;
    }

    private static boolean reachable(Class<?> c) {
        try {
            MethodHandles.publicLookup().accessClass(c);
            return true;
        } catch (IllegalAccessException e) {
            return false;
        }
    }

    private static String name(Class<?> c) {
        return c == null ? "none" : c.getName();
    }

    private static String annotations(java.lang.annotation.Annotation[] all) {
        return all.length == 0 ? "" : " annotated " + Arrays.toString(all);
    }

    private static String parameters(Executable e) {
        StringBuilder s = new StringBuilder();
        java.lang.annotation.Annotation[][] all = e.getParameterAnnotations();
        for (int i = 0; i < all.length; i++) {
            if (all[i].length > 0) {
                s.append(" parameter ").append(i).append(' ').append(Arrays.toString(all[i]));
            }
        }
        return s + " throws " + Arrays.toString(e.getGenericExceptionTypes());
    }
}
