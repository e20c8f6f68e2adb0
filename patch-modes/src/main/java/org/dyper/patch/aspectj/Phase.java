package org.dyper.patch.aspectj;

/** When a patch's mode calls run relative to its join point. */
enum Phase {
    /** Before the join point. */
    BEFORE,
    /** After it returns normally (the patch reads the returned value). */
    AFTER_RETURNING,
    /** After it, however it ends. */
    AFTER_ALWAYS
}
