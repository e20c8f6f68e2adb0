package org.dyper.aspects.internal;

import java.lang.ref.WeakReference;
import java.util.StringJoiner;
import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.Signature;
import org.aspectj.lang.reflect.CodeSignature;
import org.aspectj.lang.reflect.ConstructorSignature;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.Sites;

/**
 * Maps a join point's {@link JoinPoint.StaticPart} (by identity) to its run-time site id from
 * {@link Sites#register}, so hand-written aspects do the string work once per site and then only a
 * lock-free identity lookup per call.
 *
 * <p>The table holds static parts weakly so woven classes can still be unloaded. Readers see an
 * immutable snapshot array whose entries have only final fields; writers (once per site) hold a lock
 * and publish through a volatile field.
 */
public final class StaticPartIds {
    /** What {@link #of} returns for a site whose registration failed: advice then measures nothing. */
    public static final int NONE = 0;

    private static final Object LOCK = new Object();
    private static volatile Entry[] table = new Entry[256];
    /** Entries in {@link #table}, cleared ones included; guarded by {@link #LOCK}. */
    private static int used;

    private StaticPartIds() {
    }

    /**
     * The guard every hand-written advice starts with: the site id of {@code site} while Dyper is on, else
     * {@link #NONE} (and nothing else is done). Never throws: a failure goes to {@link Safe#failed} and gives
     * {@link #NONE}. A static method small enough for the JIT to inline into the advice.
     */
    public static int whenOn(JoinPoint.StaticPart site) {
        try {
            return Dyper.on() ? of(site) : NONE;
        } catch (Throwable t) {
            Safe.failed(NONE, t);
            return NONE;
        }
    }

    /**
     * The site id of {@code site}, registering it as a {@code METHOD} site on first sight. Never
     * throws: a failed registration is reported to {@link Safe#failed} once and gives {@link #NONE}.
     */
    public static int of(JoinPoint.StaticPart site) {
        Entry[] t = table;
        int mask = t.length - 1;
        for (int i = System.identityHashCode(site) & mask; ; i = (i + 1) & mask) {
            Entry e = t[i];
            if (e == null) {
                return register(site);
            }
            if (e.get() == site) {
                return e.id;
            }
        }
    }

    private static int register(JoinPoint.StaticPart site) {
        synchronized (LOCK) {
            Entry[] t = table;
            int mask = t.length - 1;
            int i = System.identityHashCode(site) & mask;
            for (Entry e; (e = t[i]) != null; i = (i + 1) & mask) {
                if (e.get() == site) {
                    return e.id;
                }
            }
            int id = registerWithRuntime(site);
            if (2 * (used + 1) > t.length) {
                t = rehash(t);
                mask = t.length - 1;
                i = System.identityHashCode(site) & mask;
                while (t[i] != null) {
                    i = (i + 1) & mask;
                }
            }
            t[i] = new Entry(site, id);
            used++;
            table = t;
            return id;
        }
    }

    /** A table with room for one more live entry at load <= 1/2, without cleared entries. */
    private static Entry[] rehash(Entry[] old) {
        int live = 0;
        for (Entry e : old) {
            if (e != null && e.get() != null) {
                live++;
            }
        }
        int size = old.length;
        while (2 * (live + 1) > size) {
            size *= 2;
        }
        Entry[] t = new Entry[size];
        int mask = size - 1;
        for (Entry e : old) {
            JoinPoint.StaticPart key = e == null ? null : e.get();
            if (key != null) {
                int i = System.identityHashCode(key) & mask;
                while (t[i] != null) {
                    i = (i + 1) & mask;
                }
                t[i] = new Entry(key, e.id);
            }
        }
        used = live;
        return t;
    }

    private static int registerWithRuntime(JoinPoint.StaticPart site) {
        try {
            Signature signature = site.getSignature();
            String method = signature instanceof ConstructorSignature ? "<init>" : signature.getName();
            return Sites.register("METHOD", signature.getDeclaringTypeName(), method, parameters(signature));
        } catch (Throwable t) {
            Safe.failed(NONE, t);
            return NONE;
        }
    }

    private static String parameters(Signature signature) {
        if (!(signature instanceof CodeSignature)) {
            return "";
        }
        StringJoiner joined = new StringJoiner(",");
        for (Class<?> type : ((CodeSignature) signature).getParameterTypes()) {
            joined.add(type.getTypeName());
        }
        return joined.toString();
    }

    private static final class Entry extends WeakReference<JoinPoint.StaticPart> {
        final int id;

        Entry(JoinPoint.StaticPart site, int id) {
            super(site);
            this.id = id;
        }
    }
}
