package org.dyper.patch.model;

/** The CASE of a WHEN element: what the WHEN narrows. */
public enum WhenCase { FIELD, BLOCK, CLASS, METHOD }
