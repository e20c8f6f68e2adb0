package org.dyper.patch.model;

/**
 * The TYPE of an ARG element: which value is passed to a mode's method. {@link #TARGET} is a Dyper extension: the
 * object whose field is read or written, or on which a called method is invoked. {@link #EXCEPTION} is one too: at
 * EXIT and after a CALL, the exception that ends the method or call (null on a normal return).
 */
public enum ArgType {
    THIS, INTEGER, CURTHREAD, FIELD, RETURN, LOCAL, INSNO, BLOCKID, METHODID, CLASSID, REFMETHODID, REFCLASSID,
    REFBLOCKID, ARG, CONTEXT, NULL, TARGET, EXCEPTION
}
