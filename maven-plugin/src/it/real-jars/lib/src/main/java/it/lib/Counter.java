package it.lib;

public class Counter {
    private int n;

    public void hit() {
        n++;
    }

    public int value() {
        return n;
    }
}
