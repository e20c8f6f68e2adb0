package org.dyper.patch.model;

/**
 * A CONDITION element of a CODE. {@code lvalue} names the field, local or argument number (null for CONTEXT and
 * RETURN); {@code rvalue} is an integer literal, {@code NULL} or {@code NONNULL} (null for CONTEXT).
 */
public record Condition(ConditionType type, String lvalue, String rvalue, Location at) {}
