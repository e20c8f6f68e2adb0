package org.dyper.patch.model;

/** The TYPE of an ARG element: which value is passed to a mode's method. */
public enum ArgType {
    THIS, INTEGER, CURTHREAD, FIELD, RETURN, LOCAL, INSNO, BLOCKID, METHODID, CLASSID, REFMETHODID, REFCLASSID,
    REFBLOCKID, ARG, CONTEXT, NULL
}
