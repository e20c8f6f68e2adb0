package it.single;

public class Work {
    private long total;

    public long step(int i) {
        total += i;
        if (i % 10 == 0) {
            tick();
        }
        return total;
    }

    void tick() {
        total ^= 0x5bd1e995L;
    }
}
