package it.run;

public class Greeter {
    private final StringBuilder out = new StringBuilder();

    public void greet(int i) {
        out.setLength(0);
        out.append("hello ").append(i);
    }

    public void extra() {
        out.append('!');
    }
}
