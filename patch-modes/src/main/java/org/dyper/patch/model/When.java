package org.dyper.patch.model;

/** A WHEN element: narrows a patch to one field, block, class or called method. */
public record When(WhenCase kind, String arg, Location at) {}
