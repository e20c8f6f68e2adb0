package org.dyper.runtime.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Dense indexes for the classes of lock objects, so per-class lock data is stored like per-site data. The index is
 * found through a {@link ClassValue} (no allocation once a class has one); only names are kept, never the classes,
 * so an index does not keep a class loader alive. Indexes survive resets.
 */
public final class LockClasses {
    private static final List<String> NAMES = new ArrayList<>();

    private static final ClassValue<Integer> INDEX = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            synchronized (NAMES) {
                NAMES.add(type.getTypeName());
                return NAMES.size() - 1;
            }
        }
    };

    private LockClasses() {
    }

    /** The index of {@code type}, assigned on first use. */
    public static int index(Class<?> type) {
        return INDEX.get(type);
    }

    /** The name ({@link Class#getTypeName()}) of the class with {@code index}, or {@code #index} if unknown. */
    public static String name(int index) {
        synchronized (NAMES) {
            return index >= 0 && index < NAMES.size() ? NAMES.get(index) : "#" + index;
        }
    }
}
