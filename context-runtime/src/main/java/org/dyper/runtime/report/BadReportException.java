package org.dyper.runtime.report;

import java.util.List;

/** A report file that cannot be shown: every problem found, each as {@code file:line:col: ELEMENT: message}. */
public final class BadReportException extends Exception {
    private final List<String> problems;

    BadReportException(List<String> problems) {
        super(String.join("\n", problems), null, false, false);
        this.problems = List.copyOf(problems);
    }

    /** One line per problem, in document order. */
    public List<String> problems() {
        return problems;
    }
}
