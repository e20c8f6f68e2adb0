package org.dyper.samples.nested;

import java.io.PrintStream;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Restocks, prices and sums an {@link Inventory}, then prints what reflection sees of its classes (the package-private
 * {@code Inventory}, its anonymous class and its local class): modifiers, nesting, interfaces and every member
 * that is not synthetic (weaving may add synthetic ones). So a woven run that changed any of it prints something
 * else than the plain run. Exact numbers: {@link NestedFacts}.
 *
 * <p>Usage: {@code NestedApp [skus] [rows]}, defaults {@value #DEFAULT_SKUS} and {@value #DEFAULT_ROWS}.
 */
public final class NestedApp {
    public static final int DEFAULT_SKUS = 12;
    public static final int DEFAULT_ROWS = 5;
    /** The classes whose shape the program prints, by binary name. */
    public static final List<String> SHAPED = List.of(NestedFacts.INVENTORY, NestedFacts.INVENTORY + "$1",
            NestedFacts.INVENTORY + "$1Sum");

    private NestedApp() {
    }

    public static void main(String[] args) throws ClassNotFoundException {
        int skus = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_SKUS;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_ROWS;
        run(skus, rows, System.out);
    }

    /** Runs the workload and prints its results and the shapes to {@code out}. */
    public static void run(int skus, int rows, PrintStream out) throws ClassNotFoundException {
        Inventory inventory = new Inventory();
        String[] names = new String[skus];
        for (int i = 0; i < skus; i++) {
            names[i] = NestedFacts.sku(i);
        }
        inventory.restockAll(names);
        long prices = 0;
        long discounted = 0;
        for (String s : names) {
            prices += inventory.price(s);
            discounted += inventory.discounted(s);
        }
        long[][] histogram = inventory.histogram(rows);
        out.println("units " + inventory.units() + ", total " + inventory.total());
        out.println("prices " + prices + ", discounted " + discounted);
        out.println("histogram " + histogram.length + " rows, last " + histogram[rows - 1].length);
        for (String name : SHAPED) {
            shape(Class.forName(name, false, NestedApp.class.getClassLoader()), out);
        }
    }

    private static void shape(Class<?> c, PrintStream out) {
        List<String> lines = new ArrayList<>();
        lines.add("modifiers '" + Modifier.toString(c.getModifiers()) + "' reachable " + reachable(c) + " anonymous "
                + c.isAnonymousClass() + " local " + c.isLocalClass() + " member " + c.isMemberClass()
                + " interfaces " + Arrays.toString(c.getGenericInterfaces()) + " annotations "
                + Arrays.toString(c.getDeclaredAnnotations()));
        for (Field f : c.getDeclaredFields()) {
            if (!f.isSynthetic()) {
                lines.add("field " + Modifier.toString(f.getModifiers()) + " " + f.getGenericType().getTypeName() + " "
                        + f.getName());
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (!m.isSynthetic()) {
                lines.add("method " + m.toGenericString());
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (!k.isSynthetic()) {
                lines.add("constructor " + k.toGenericString());
            }
        }
        lines.stream().sorted().forEach(l -> out.println("shape " + c.getName() + " " + l));
    }

    private static boolean reachable(Class<?> c) {
        try {
            MethodHandles.publicLookup().accessClass(c);
            return true;
        } catch (IllegalAccessException e) {
            return false;
        }
    }
}
