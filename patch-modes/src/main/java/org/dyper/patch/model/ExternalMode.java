package org.dyper.patch.model;

/** A DYPATCH_EXTERNAL element: a mode defined by Java code, class {@code className} in {@code jar} (may be null). */
public record ExternalMode(String name, String className, String jar, Location at) {}
