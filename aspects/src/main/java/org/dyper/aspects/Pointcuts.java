package org.dyper.aspects;

/** Pointcut text shared by the abstract aspects (inlined into their annotations by javac). */
final class Pointcuts {
    /**
     * Never Dyper's own code (runtime, aspects and the concrete aspects made from them). The sample
     * programs in {@code org.dyper.samples} and the benchmarks' workload in {@code org.dyper.benchmarks.app}
     * are targets, not Dyper, so they stay measurable.
     */
    private static final String NOT_DYPER = "(!within(org.dyper..*) || within(org.dyper.samples..*)"
            + " || within(org.dyper.benchmarks.app..*)) && !within(org.dyper.aspects..*+)";

    /** Method executions in the user's {@code scope()}. */
    static final String METHODS = "scope() && execution(* *(..)) && " + NOT_DYPER;

    /**
     * Constructor executions in the user's {@code scope()}. Around advice cannot be used there: it
     * moves the constructor body into another method, and since Java 9 class files the JVM refuses
     * writes to final fields from anywhere but {@code <init>} ({@code IllegalAccessError: Update to
     * non-static final field}). Timing aspects use before and after advice there instead.
     */
    static final String CONSTRUCTORS = "scope() && execution(new(..)) && " + NOT_DYPER;

    /** Method and constructor executions in the user's {@code scope()}. */
    static final String EXECUTIONS = "scope() && (execution(* *(..)) || execution(new(..))) && " + NOT_DYPER;

    private Pointcuts() {
    }
}
