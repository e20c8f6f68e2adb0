package it.app;

import it.lib.Counter;
import it.lib.Encoder;
import it.libtwo.Pager;

public class Main {
    public static void main(String[] args) {
        Counter c = new Counter();
        Pager p = new Pager();
        int pages = 0;
        for (int i = 0; i < 30; i++) {
            c.hit();
            pages += p.page(i);
        }
        System.out.println("real-jars done " + c.value() + " " + pages + " " + new Encoder().plain(4));
    }
}
