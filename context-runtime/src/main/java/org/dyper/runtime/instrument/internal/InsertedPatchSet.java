package org.dyper.runtime.instrument.internal;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.dyper.runtime.instrument.PatchSet;

/**
 * One patch set as it was inserted into this JVM: when, which classes it patched in which class loaders (and when
 * each was patched and restored), which ones were still to load, and what went differently than asked (notes). Kept
 * after removal, so a report can say since when each site was patched and whether it still is.
 */
public final class InsertedPatchSet {
    /** Where one class of the set stands. */
    public enum State {
        /** Its patched version runs. */
        PATCHED,
        /** Not loaded yet when the set went in: patched when it loads. */
        PENDING,
        /** Was patched; its original runs again. */
        RESTORED,
        /** Was patched; the next version of its model patches it now. */
        REPLACED,
        /** Loaded with other bytes than the patch was made for: left as it was. */
        UNPATCHED,
        /** Its class loader was collected while it was patched. */
        GONE
    }

    /** One class (in one class loader) this set patched, or meant to. */
    public static final class Install {
        public final String name;
        public final String loader;
        final WeakReference<ClassLoader> loaderRef;
        volatile WeakReference<Class<?>> type;
        final byte[] original;
        final byte[] patched;
        public final long since;
        public volatile long until;
        public volatile State state;

        Install(String name, ClassLoader loader, Class<?> type, byte[] original, byte[] patched, long since,
                State state) {
            this.name = name;
            this.loader = LoaderAspects.describe(loader);
            this.loaderRef = new WeakReference<>(loader);
            this.type = type == null ? null : new WeakReference<>(type);
            this.original = original;
            this.patched = patched;
            this.since = since;
            this.state = state;
        }
    }

    public final PatchSet set;
    /**
     * The offset of the set's site ids in this JVM ({@code DyperSites.BASE}, chosen by the runtime when the set's
     * generated classes first initialise); {@link Integer#MIN_VALUE} until then.
     */
    public volatile int base = Integer.MIN_VALUE;
    public final long since;
    public volatile long until;
    public final List<Install> installs = new CopyOnWriteArrayList<>();
    /** Names of the classes that were not loaded when the set went in. */
    public final List<String> pending = new CopyOnWriteArrayList<>();
    public final List<String> notes = new CopyOnWriteArrayList<>();

    InsertedPatchSet(PatchSet set, long since) {
        this.set = set;
        this.since = since;
    }

    public boolean active() {
        return until == 0;
    }

    void note(String note) {
        if (notes.size() < 100 && !notes.contains(note)) {
            notes.add(note);
        }
    }

    Install install(String name, ClassLoader loader, Class<?> type, byte[] original, byte[] patched, long since,
                    State state) {
        Install i = new Install(name, loader, type, original, patched, since, state);
        installs.add(i);
        return i;
    }

    /** The install of class {@code type} that is patched now, or null. */
    Install patchedInstall(Class<?> type) {
        for (Install i : installs) {
            if (i.state == State.PATCHED && i.type != null && i.type.get() == type) {
                return i;
            }
        }
        return null;
    }
}
