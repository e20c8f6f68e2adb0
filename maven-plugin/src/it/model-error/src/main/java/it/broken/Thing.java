package it.broken;

public class Thing {
    public void go() {
    }
}
