package org.dyper.samples.phases;

/** What {@link Worker#work(int)} allocates, once per call. */
public record Item(int number) {}
