/**
 * A planted program for benchmarks/run-ui-page: WALKERS threads (default 4) walk at random down a tree of calls,
 * DEPTH (default 9) levels of four methods (a, b, c, e) that call each other, and spin at the end of each walk. So the
 * monitor's CPU view fills with up to 4^DEPTH distinct paths: the page's flame graph with some 100,000 nodes within a
 * minute or two of sampling at CHECKTIME=1. No allocation in the walk (the ALLOC view stays small); prints "ready".
 */
public final class ManyPaths {
    private static volatile long sink;

    private ManyPaths() {
    }

    public static void main(String[] args) {
        int walkers = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int depth = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        for (int t = 0; t < walkers; t++) {
            long start = 0x9E3779B97F4A7C15L * (t + 1);
            Thread walker = new Thread(() -> {
                long s = start;
                while (true) {
                    s = a(depth, s);
                    sink = s;
                }
            }, "walker-" + t);
            walker.start();
        }
        System.out.println("ready");
    }

    /** The end of a walk: some 20 microseconds of arithmetic, where nearly every sample lands. */
    static long leaf(long seed) {
        long s = seed;
        for (int i = 0; i < 5000; i++) {
            s = s * 31 + i;
        }
        return s;
    }

    static long a(int depth, long seed) {
        long s = seed * 6364136223846793005L + 1442695040888963407L;
        if (depth == 0) {
            return leaf(s);
        }
        return switch ((int) (s >>> 62)) {
            case 0 -> a(depth - 1, s);
            case 1 -> b(depth - 1, s);
            case 2 -> c(depth - 1, s);
            default -> e(depth - 1, s);
        };
    }

    static long b(int depth, long seed) {
        long s = seed * 6364136223846793005L + 1442695040888963407L;
        if (depth == 0) {
            return leaf(s);
        }
        return switch ((int) (s >>> 62)) {
            case 0 -> a(depth - 1, s);
            case 1 -> b(depth - 1, s);
            case 2 -> c(depth - 1, s);
            default -> e(depth - 1, s);
        };
    }

    static long c(int depth, long seed) {
        long s = seed * 6364136223846793005L + 1442695040888963407L;
        if (depth == 0) {
            return leaf(s);
        }
        return switch ((int) (s >>> 62)) {
            case 0 -> a(depth - 1, s);
            case 1 -> b(depth - 1, s);
            case 2 -> c(depth - 1, s);
            default -> e(depth - 1, s);
        };
    }

    static long e(int depth, long seed) {
        long s = seed * 6364136223846793005L + 1442695040888963407L;
        if (depth == 0) {
            return leaf(s);
        }
        return switch ((int) (s >>> 62)) {
            case 0 -> a(depth - 1, s);
            case 1 -> b(depth - 1, s);
            case 2 -> c(depth - 1, s);
            default -> e(depth - 1, s);
        };
    }
}
