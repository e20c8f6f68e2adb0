package it.single;

/** Calls Work.step 1234 times; step calls tick for every multiple of 10 (124 times). */
public class Main {
    public static void main(String[] args) {
        Work w = new Work();
        long last = 0;
        for (int i = 0; i < 1234; i++) {
            last = w.step(i);
        }
        System.out.println("single-module done " + last);
    }
}
