package org.dyper.runtime.instrument;

/** Run-time patching refused a request and changed nothing; the message names the class or model and the reason. */
public final class PatchRefused extends Exception {
    public PatchRefused(String message) {
        super(message, null, false, false);
    }
}
