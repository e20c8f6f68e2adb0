package it.app;

import it.lib.Counter;

/** 500 calls of Counter.hit, 2 Counters, 40 calls of add. */
public class Main {
    public static void main(String[] args) {
        long sum = 0;
        for (int i = 0; i < 500; i++) {
            sum += Counter.hit(i);
        }
        Counter a = new Counter();
        Counter b = new Counter();
        for (int i = 0; i < 20; i++) {
            a.add();
            b.add();
        }
        System.out.println("multi-module done " + sum + " " + (a.value() + b.value()));
    }
}
