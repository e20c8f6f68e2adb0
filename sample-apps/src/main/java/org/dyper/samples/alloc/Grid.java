package org.dyper.samples.alloc;

/** Grids of cells: the {@code String[][]} allocation site. */
public final class Grid {
    private Grid() {
    }

    /**
     * One {@code String[rows][columns]}: a single {@code multianewarray} instruction, so one array allocation of
     * type {@code java.lang.String[][]} with first dimension {@code rows}; the JVM makes the inner {@code String[]}
     * rows itself, which are not allocation sites of their own.
     */
    public static String[][] cells(int rows, int columns) {
        return new String[rows][columns];
    }
}
