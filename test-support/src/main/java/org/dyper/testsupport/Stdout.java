package org.dyper.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** What a program's {@code main}, run in the test's JVM, prints to {@code System.out}. */
public final class Stdout {
    private Stdout() {
    }

    /** Code that prints, such as {@code () -> App.main(new String[0])}. */
    @FunctionalInterface
    public interface Printing {
        void run() throws Exception;
    }

    /**
     * Runs {@code code} with {@code System.out} going to a buffer, and returns the lines it printed; {@code System.out}
     * is put back however the code ends.
     */
    public static List<String> lines(Printing code) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            code.run();
        } finally {
            System.setOut(original);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
