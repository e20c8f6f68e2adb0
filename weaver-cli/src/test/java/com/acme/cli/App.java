package com.acme.cli;

/** The fixture program: prints a deterministic total; with arguments it echoes them and exits with status 7. */
public final class App {
    private App() {}

    public static void main(String[] args) {
        Tally tally = new Tally();
        for (int i = 1; i <= 5; i++) {
            tally.add(i);
        }
        System.out.println("total " + tally.total());
        if (args.length > 0) {
            System.out.println("args " + String.join(",", args));
            System.exit(7);
        }
    }
}
