package org.dyper.patch.model;

/** The TYPE of a CONDITION element: which value is tested before a CODE runs. */
public enum ConditionType { CONTEXT, FIELD, RETURN, LOCAL, ARG }
