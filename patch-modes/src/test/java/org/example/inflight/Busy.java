package org.example.inflight;

/** Work that threads run without pause while a patch goes in and out: nested calls, a constructor, a loop. */
public class Busy {
    private final long seed;

    public Busy(long seed) {
        this.seed = seed;
    }

    public long outer(int rounds) {
        long sum = seed;
        for (int i = 0; i < rounds; i++) {
            sum += inner(i);
        }
        return sum;
    }

    public long inner(int v) {
        if (v % 7 == 3) {
            try {
                return fails(v);
            } catch (IllegalStateException e) {
                return -1;
            }
        }
        return v * 2L;
    }

    public long fails(int v) {
        throw new IllegalStateException("planted " + v);
    }
}
