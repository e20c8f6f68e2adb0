package org.dyper.patch.gentest;

import java.util.ArrayList;
import java.util.List;
import org.dyper.runtime.Sites;

/** Mode methods for the generator tests: each call appends one readable event; ids are shown by site name. */
public final class Recorder {
    private static final List<String> EVENTS = new ArrayList<>();
    private final int id;

    public Recorder(int id) {
        this.id = id;
    }

    public static synchronized List<String> take() {
        List<String> copy = new ArrayList<>(EVENTS);
        EVENTS.clear();
        return copy;
    }

    private static synchronized void add(String event) {
        EVENTS.add(event);
    }

    private static String site(int id) {
        String name = Sites.name(id);
        return name.replace("org.example.fixture.", "");
    }

    public static void id(int id) {
        add("id " + site(id));
    }

    public static void pair(int id, int ref) {
        add("pair " + site(id) + " -> " + site(ref));
    }

    public static void value(int id, long v) {
        add("value " + site(id) + " " + v);
    }

    public static void ref(int id, Object o) {
        add("ref " + site(id) + " " + o);
    }

    public static void self(Object self) {
        add("self " + (self == null ? "null" : self.getClass().getSimpleName()));
    }

    /** {@code self} as {@link #self} does, and an instruction number. */
    public static void selfAt(Object self, int insn) {
        add("self " + (self == null ? "null" : self.getClass().getSimpleName()) + " at " + insn);
    }

    public static void thread(Thread t) {
        add("thread " + (t == Thread.currentThread()));
    }

    /** Two raw ints (site ids that tests name themselves, through the generated site table). */
    public static void raw(int a, int b) {
        add("raw " + a + " " + b);
    }

    public static void number(int n) {
        add("number " + n);
    }

    public static long start(int id) {
        return 1000 + id;
    }

    public static void stop(int id, long context) {
        add("stop " + site(id) + " " + (context == 1000 + id));
    }

    public static long startIfOdd(int id, long arg) {
        return arg % 2 != 0 ? 1000 + id : 0;
    }

    public static Recorder open(int id) {
        return new Recorder(id);
    }

    public void close(long v) {
        add("close " + site(id) + " " + v);
    }

    public static void same(Object a, Object b) {
        add("same " + (a == b));
    }

    public static void change(int id, long before, long after) {
        add("change " + site(id) + " " + before + " -> " + after);
    }

    public static void length(Object array) {
        add("length " + java.lang.reflect.Array.getLength(array));
    }

    /**
     * A hook that calls back into the patched code: {@code scale(2)} on the patched object, by reflection because the
     * woven class lives in another class loader. That call must not be measured (no hooks run in it).
     */
    public static void reenter(Object self) throws ReflectiveOperationException {
        add("reenter " + self.getClass().getMethod("scale", long.class).invoke(self, 2L));
    }

    public static void boom(int id) {
        throw new IllegalStateException("hook failure at " + site(id));
    }
}
