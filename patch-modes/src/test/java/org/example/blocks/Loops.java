package org.example.blocks;

/**
 * The program the bytecode pass tests patch (its own package, so the generator tests' fixture stays as it is).
 * {@link #script()} runs sum(5) (a loop with an if/else: 4) and calls(3) (twice twice: 6 + 12 = 18).
 */
public class Loops {
    private int seen = 3;

    public int sum(int n) {
        int total = 0;
        for (int i = 0; i < n; i++) {
            if (i % 2 == 0) {
                total += i;
            } else {
                total -= 1;
            }
        }
        return total;
    }

    public int calls(int v) {
        int a = twice(v);
        int b = twice(a);
        return a + b + seen - 3;
    }

    static int twice(int v) {
        return 2 * v;
    }

    public static String script() {
        Loops l = new Loops();
        return l.sum(5) + "," + l.calls(3);
    }
}
