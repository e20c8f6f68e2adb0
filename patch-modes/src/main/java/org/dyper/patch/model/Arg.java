package org.dyper.patch.model;

/** An ARG element of a CODE: {@code value} is null when the type takes none. */
public record Arg(ArgType type, String value, Location at) {}
