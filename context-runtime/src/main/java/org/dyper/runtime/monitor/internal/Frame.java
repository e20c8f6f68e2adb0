package org.dyper.runtime.monitor.internal;

/**
 * One stack frame as every sampler hands it on, whatever took it (a JFR event or a thread dump): the class's binary
 * name ({@code $} for nested classes), the method's name ({@code <init>} for constructors), the line (-1 when
 * unknown) and whether the method is native.
 */
record Frame(String className, String method, int line, boolean nativeMethod) {
    /** {@code fully.qualified.Class.method}: how a frame is written in a collapsed stack. */
    String name() {
        return className + "." + method;
    }

    static Frame of(StackTraceElement e) {
        return new Frame(e.getClassName(), e.getMethodName(), e.getLineNumber(), e.isNativeMethod());
    }
}
