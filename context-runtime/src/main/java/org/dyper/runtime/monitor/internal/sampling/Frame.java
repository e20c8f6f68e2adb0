package org.dyper.runtime.monitor.internal.sampling;

/**
 * One stack frame as every sampler hands it on, whatever took it (a JFR event or a thread dump): the class's binary
 * name ({@code $} for nested classes), the method's name ({@code <init>} for constructors), the line (-1 when
 * unknown), whether the method is native, and its source file (null when unknown; the recorder gives none).
 */
public record Frame(String className, String method, int line, boolean nativeMethod, String file) {
    Frame(String className, String method, int line, boolean nativeMethod) {
        this(className, method, line, nativeMethod, null);
    }

    /** The same frame of another class or method. */
    Frame renamed(String newClass, String newMethod) {
        return new Frame(newClass, newMethod, line, nativeMethod, file);
    }

    /** {@code fully.qualified.Class.method}: how a frame is written in a collapsed stack. */
    String name() {
        return className + "." + method;
    }

    static Frame of(StackTraceElement e) {
        return new Frame(e.getClassName(), e.getMethodName(), e.getLineNumber(), e.isNativeMethod(), e.getFileName());
    }
}
