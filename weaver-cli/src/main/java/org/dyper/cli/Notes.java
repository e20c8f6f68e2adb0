package org.dyper.cli;

import java.io.PrintStream;
import java.util.List;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.model.Problem;

/** How commands print what the generator and ajc say: one {@code dyper:} line each. */
final class Notes {
    private Notes() {
    }

    /** Prints ajc's and the weaver's notes; warnings among them without the "note:" prefix. */
    static void print(PrintStream err, List<String> notes) {
        for (String n : notes) {
            err.println("dyper: " + (Weaver.isWarning(n) ? "" : "note: ") + n);
        }
    }

    /** Prints the generator's warnings. */
    static void warnings(PrintStream err, GeneratedCode code) {
        for (Problem p : code.warnings()) {
            err.println("dyper: " + p);
        }
    }
}
