package org.dyper.patch.model;

/** UPDATE of a FOR: NEW discards earlier patches of the method, ADD keeps those that do not conflict. */
public enum Update { NEW, ADD }
