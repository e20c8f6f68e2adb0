package it.run;

/** greet(i) args[0] times, extra() as often as -Dit.extra says; exits with -Dit.exit. */
public class Main {
    public static void main(String[] args) {
        Greeter g = new Greeter();
        int n = Integer.parseInt(args[0]);
        for (int i = 0; i < n; i++) {
            g.greet(i);
        }
        for (int i = 0; i < Integer.getInteger("it.extra", 0); i++) {
            g.extra();
        }
        System.out.println("run-goal done");
        System.exit(Integer.getInteger("it.exit", 0));
    }
}
