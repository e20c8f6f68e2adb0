package it.lib;

public class Counter {
    private int n;

    public static int hit(int x) {
        return x * 31 + 7;
    }

    public void add() {
        n++;
    }

    public int value() {
        return n;
    }
}
