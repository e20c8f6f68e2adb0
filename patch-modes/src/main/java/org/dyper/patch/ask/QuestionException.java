package org.dyper.patch.ask;

/**
 * A question that cannot be answered as written: a syntax error, or a name the class path does not have. The
 * message names the column (1-based) of the one-line form: {@code column 15: acme.Bank has no method 'transfr'}.
 */
public final class QuestionException extends Exception {
    private final int column;
    private final int question;
    private final String problem;

    public QuestionException(int column, String problem) {
        this(column, problem, -1);
    }

    private QuestionException(int column, String problem, int question) {
        super("column " + column + ": " + problem, null, false, false);
        this.column = column;
        this.problem = problem;
        this.question = question;
    }

    /** The 1-based column in the question where the problem is. */
    public int column() {
        return column;
    }

    /** What is wrong, without the column. */
    public String problem() {
        return problem;
    }

    /** The index of the question among those compiled together (from 0), or -1 when not known. */
    public int question() {
        return question;
    }

    /** This problem, placed in question {@code index}. */
    QuestionException in(int index) {
        return new QuestionException(column, problem, index);
    }
}
