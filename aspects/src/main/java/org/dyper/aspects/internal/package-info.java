/** Helpers shared by the hand-written aspects; not public API. */
package org.dyper.aspects.internal;
