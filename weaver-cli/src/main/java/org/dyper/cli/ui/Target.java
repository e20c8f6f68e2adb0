package org.dyper.cli.ui;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What the UI knows of one process: its stacks over time, the methods measured in it (one run-time model,
 * {@link #MODEL}), a model the user applied, and whether what the UI inserted stays when the UI ends.
 */
final class Target {
    /** The run-time model of the methods measured from the UI: one model, replaced in one step as methods come and go. */
    static final String MODEL = "dyper-ui";

    final long pid;
    final Snapshots snapshots = new Snapshots();
    /** Guards the patch state below; held while a model goes in or out (never while a REPORT is taken). */
    final Object patching = new Object();
    final Set<String> measured = new LinkedHashSet<>();
    /** The name of the model in the process that the UI inserted ({@link #MODEL} or the user's), or null. */
    String inserted;
    boolean pinned;
    /** The method woven ahead of a click ({@code Api#preweave}): null before, "" while it weaves or when none. */
    String preweaved;
    /** The main class, once known: a process that ended is named by it. */
    volatile String main;
    /** When the last REPORT was taken (epoch ms), guarded by {@link #snapshots}. */
    long fetchedMillis;
    /** The newest MONITOR_REPORT (guarded by {@link #snapshots}). */
    org.w3c.dom.Element lastReport;
    /** The newest exact figures alone (REPORT TYPE='INSTRUMENTATION') and when they were taken, guarded by the lock. */
    final Object exactLock = new Object();
    org.w3c.dom.Element exactReport;
    long exactMillis;
    /** The connection to the process's monitor, kept between requests (guarded by {@link #wireLock}). */
    final Object wireLock = new Object();
    org.dyper.runtime.wire.WireClient wire;
    String wireToken;

    /** Live streams open on this process ({@link Live}, changed under its lock): its poller feeds the snapshots. */
    volatile int streams;

    /** A JVM on a NATS server ({@code dyper ui --nats}), reached through the fleet; null for this machine's. */
    final org.dyper.cli.fleet.Fleet.Member member;

    Target(long pid) {
        this.pid = pid;
        this.member = null;
    }

    Target(org.dyper.cli.fleet.Fleet.Member member) {
        this.pid = member.pid();
        this.member = member;
    }
}
